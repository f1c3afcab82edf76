"""Yamataï (Bruno Cathala and Marc Paquien, 2017): rules engine, batch kernel and reference engine.

Python face of the Cython engine. The decision encoding, chance and position
format are documented in ``docs/yamatai_engine.md``; the rules in
``rules/yamatai.md`` (the spec). Assumed data (board graph, building tiles,
specialist PP, trade prices) is reported by ``make_config(...).data_status()``.

Examples
--------
>>> import numpy as np
>>> from simcore import yamatai
>>> st = yamatai.new_game(players=3, seed=7)
>>> st.current_player()
0
>>> res = yamatai.play_batch(3, np.arange(10, dtype=np.uint64))
>>> res["players"]["total"].shape
(10, 3)
"""
from simcore._face import game_face
from simcore.yamatai.config import (COLOURS, PAYMENTS, PLAYERS, SCORE_CATEGORIES, SETTINGS, TRIGGERS,
                                    YamataiConfig, make_config)
from simcore._isa import load_engine

load_engine("yamatai")     # the x86-64-v3 build of _engine where this CPU runs it
from simcore.yamatai._engine import (C_FEATURES, PASS, STAGES, State, action_feature_values, action_text,
                                     game_ops, model_ops, play_actions, play_batch, policy_features)
from simcore._search import determinized, playout_values
from simcore.yamatai.features import FEATURE_DOCS, FEATURES, policy_vector

from simcore.yamatai import reference  # noqa: E402

NAME = "yamatai"
MODEL_FEATURE_SETS = 2     # model_ops(names): the learned models of before the lookahead features still load
TITLE = "Yamataï"
SEAT_BONUS_UNIT = ('coin', 'coins')     # what one unit of the seat_bonus setting is (one, several)
DEFAULT_PLAYERS = 3
TIE_RULE = ("ties are broken by the rules (the tied player who played earlier in the last round wins): "
            "one winner a game")
EVENT_SCHEMA = {      # one row per fleet pick, building built, specialist recruited (docs/results.md)
    "seat": "the seat",
    "round": "0-based round",
    "kind": "0 fleet pick, 1 building built, 2 specialist recruited",
    "a": "fleet number / building tile index / specialist id",
    "b": "boats gained / island / coins taken from the specialist",
    "c": "fleet ability used / coins gained by the build / 0",
    "d": "fleet 10's extra boat taken / PP tokens gained / 0",
}


new_game, replay_game, replay = game_face("Yamataï", make_config, State, play_actions, default_players=DEFAULT_PLAYERS)


def invariant_violations(state):
    """Broken invariants of a position, as sentences (empty when all hold).

    Boats conserved (supply + board + hand + ports + set aside = the box),
    sacred sites conserved, culture tokens never more than the box, standard
    pieces within the stock, one piece per island, coins never negative.
    """
    d = state.to_dict()
    cfg = state.config
    out = []
    box = sum(cfg.supply_boats)
    boats = (sum(d["supply"]["boats"]) + sum(x >= 0 for x in d["sea"]) + sum(d["hand"])
             + sum(map(sum, d["port"])) + sum(d["set_aside"]))
    if boats != box:
        out.append(f"{boats} boats counted, the box has {box}")
    if any(x < 0 for x in d["supply"]["boats"]) or any(x < 0 for x in d["hand"]):
        out.append("a negative boat count")
    sacred = d["supply"]["sacred"] + sum(i["sacred"] for i in d["islands"])
    if sacred != int(cfg.pb["setup"]["sacred_site_tokens"]):
        out.append(f"{sacred} sacred site tokens")
    tokens = sum(i["token"] >= 0 for i in d["islands"]) + sum(map(sum, d["tokens"]))
    if tokens > 30:
        out.append(f"{tokens} culture tokens")
    for p in range(cfg.players):
        standing = sum(1 for i in d["islands"] if i["building"] == p)
        if standing + d["pieces"][p] != cfg.pieces:
            out.append(f"seat {p}: {standing} buildings standing and {d['pieces'][p]} in stock")
        if d["coins"][p] < 0:
            out.append(f"seat {p} has negative coins")
        if any(x < 0 for x in d["tokens"][p]):
            out.append(f"seat {p} has a negative token count")
    for i, isl in enumerate(d["islands"]):
        if isl["building"] is not None and (isl["token"] >= 0 or isl["sacred"]):
            out.append(f"island {i} holds a building and a token or sacred site")
    built = sum(len(b) for b in d["built"])
    if built != sum(1 for i in d["islands"] if i["building"] is not None):
        out.append("built tiles and pieces on islands disagree")
    return out
