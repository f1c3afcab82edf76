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
from simcore.yamatai.config import (COLOURS, PAYMENTS, PLAYERS, SCORE_CATEGORIES, SETTINGS, TRIGGERS,
                                    YamataiConfig, make_config)
from simcore.yamatai._engine import (C_FEATURES, PASS, STAGES, State, action_text, play_actions, play_batch,
                                     policy_features)
from simcore.yamatai.features import FEATURE_DOCS, FEATURES, policy_vector

NAME = "yamatai"


def new_game(players=3, seed=0, config=None, **settings):
    """A new Yamataï game.

    Parameters
    ----------
    players : int
        2, 3 or 4.
    seed : int
        The game seed (chance: decks, fleets, culture tokens, 2-player order).
    config : YamataiConfig, optional
        Instead of ``settings``.
    **settings
        Engine settings (see ``SETTINGS``), e.g. ``round_cap=30``.
    """
    if config is None:
        config = make_config(players, **settings)
    elif settings or config.players != players:
        raise ValueError("give either a matching config or settings, not both")
    return State.new(config, seed)


def replay_game(players, seed, policies=None, config=None, **settings):
    """Replay the game ``play_batch`` plays from ``seed``; return the final :class:`State`."""
    if config is None:
        config = make_config(players, **settings)
    state = State.new(config, seed)
    for action in play_actions(players, seed, policies, config=config):
        state.apply(action)
    return state


def replay(players, seed, actions, config=None, **settings):
    """Apply a list of decisions to the game of ``seed``; ``ValueError`` at the first illegal one."""
    if actions and isinstance(actions[0], dict):
        actions = [e["action"] for e in actions if e["kind"] == "decision"]
    state = new_game(players, seed, config, **settings)
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except ValueError as exc:
            raise ValueError(f"decision {i}: {exc}") from None
    return state


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
