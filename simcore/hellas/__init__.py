"""Hellas (Stefan Dorra, 2016): rules engine, batch kernel and reference engine.

Python face of the Cython engine. The decision encoding, chance and position
format are documented in ``docs/hellas_engine.md``; the rules in
``rules/hellas.md`` (the spec).

Examples
--------
>>> import numpy as np
>>> from simcore import hellas
>>> st = hellas.new_game(players=3, seed=7)
>>> st.current_player()
0
>>> res = hellas.play_batch(3, np.arange(10, dtype=np.uint64))
>>> res["players"]["total"].shape
(10, 3)
"""
from simcore._face import game_face
from simcore.hellas.config import PLAYERS, SCORE_CATEGORIES, SETTINGS, HellasConfig, make_config
from simcore._isa import load_engine

load_engine("hellas")     # the x86-64-v3 build of _engine where this CPU runs it
from simcore.hellas._engine import (FIELD, PASS, PHASES, SPLIT, State, play_actions, play_batch)
from simcore.hellas._engine import game_ops, model_ops, policy_action, policy_features, policy_scores
from simcore._search import determinized, playout_values
from simcore.hellas.features import FEATURE_DOCS, FEATURES, policy_vector
from simcore.hellas.features import OPTIONAL as OPTIONAL_FEATURES

from simcore.hellas import reference  # noqa: E402

NAME = "hellas"
TITLE = "Hellas"
SEAT_BONUS_UNIT = ('marble', 'marble')     # what one unit of the seat_bonus setting is (one, several)
DEFAULT_PLAYERS = 3
MODEL_FEATURE_SETS = 2     # model_ops(names): the learned models of before the lookahead features still load
TIE_RULE = "tied players share the win: a k-way tie counts 1/k to each"
EVENT_SCHEMA = {      # one row per quarry action, in game order (docs/results.md)
    "round": "0-based round",
    "seat": "the seat that took the quarry action",
    "income_0..3": "marble each seat received as quarry income",
    "n_revealed": "tiles revealed in this action (0-4)",
    "tiles_0..3": "the revealed tile numbers in order",
    "dest_0..3": "where each revealed tile went: quarry field id, -2 set aside, -1 none",
    "opened": "field id of the quarry this action opened, -1 if none",
    "closed": "field id of the quarry this action closed, -1 if none",
    "worker_to": "field the worker moved to, -2 off the board, -1 did not move",
}


new_game, replay_game, replay = game_face("Hellas", make_config, State, play_actions, default_players=DEFAULT_PLAYERS)


def invariant_violations(state):
    """Broken invariants of a position, as sentences (empty when all hold).

    Pieces within the box counts, one piece per field, marble never negative,
    temples within their size, at most three active quarries, and the supply
    of columns, rings and monuments conserved.
    """
    d = state.to_dict()
    cfg = state.config
    box = cfg.actions
    out = []
    fields = [p["field"] for p in d["pieces"]]
    if len(fields) != len(set(fields)):
        out.append("two pieces on one field")
    for seat in range(cfg.players):
        for kind in ("house", "agora", "palace"):
            n = sum(1 for p in d["pieces"] if p["owner"] == seat and p["kind"] == kind)
            if n > box["pieces_per_player"][kind]:
                out.append(f"seat {seat} has {n} {kind}s")
        if d["marble"][seat] < 0:
            out.append(f"seat {seat} has negative marble")
    sizes = dict(zip(cfg.board_data.temple_fields, cfg.board_data.temple_sizes))
    for t in d["temples"]:
        if not 0 <= t["columns"] <= sizes[t["field"]]:
            out.append(f"temple {t['field']} holds {t['columns']} columns")
    if sum(q["status"] == "active" for q in d["quarries"]) > 3:
        out.append("more than 3 active quarries")
    if sum(t["columns"] for t in d["temples"]) + d["supply"]["columns"] != box["supply"]["columns"]:
        out.append("columns not conserved")
    if sum(d["rings"]) + d["supply"]["rings"] != box["supply"]["rings"]:
        out.append("rings not conserved")
    monuments = sum(p["kind"] == "monument" for p in d["pieces"])
    if monuments + d["supply"]["monuments"] != box["supply"]["monuments"]:
        out.append("monuments not conserved")
    if d["worker"] is not None and any(q["field"] == d["worker"] for q in d["quarries"]):
        out.append("the worker stands on a quarry")
    return out
