"""Akrotiri (Jay Cormier and Sen-Foong Lim, 2014): rules engine, batch kernel and reference engine.

Python face of the Cython engine. The decision encoding, chance and position
format are documented in ``docs/akrotiri_engine.md``; the rules in
``rules/akrotiri.md`` (the spec). Two players only.

Examples
--------
>>> import numpy as np
>>> from simcore import akrotiri
>>> st = akrotiri.new_game(seed=7)
>>> st.current_player()
0
>>> res = akrotiri.play_batch(2, np.arange(10, dtype=np.uint64))
>>> res["players"]["total"].shape
(10, 2)
"""
from simcore.akrotiri.config import PLAYERS, SCORE_CATEGORIES, SETTINGS, AkrotiriConfig, make_config
from simcore.akrotiri._engine import (BUY, CUBE, END, EVENT_KINDS, EXCAVATE, GOAL, LOAD, ORACLE, PHASES, PLACE,
                                      SAIL, SELL, TRANSPORT, UNLOAD, State, play_actions, play_batch)

NAME = "akrotiri"


def new_game(players=2, seed=0, config=None, **settings):
    """A new Akrotiri game.

    Parameters
    ----------
    players : int
        Must be 2.
    seed : int
        The game seed (chance: tile pile, map decks, goal deck, reshuffles).
    config : AkrotiriConfig, optional
        Instead of ``settings``.
    **settings
        Engine settings (see ``SETTINGS``), e.g. ``strategist=True``.
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
    state = new_game(players, seed, config, **settings)
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except ValueError as exc:
            raise ValueError(f"decision {i}: {exc}") from None
    return state


def invariant_violations(state):
    """Broken invariants of a position, as sentences (empty when all hold).

    Cubes conserved per colour (market + tiles + boats), boats hold at most 3,
    drachmas never negative, at most 6 temples each, every map card in exactly
    one place, every tile in exactly one place, the two boats on different ports.
    """
    d = state.to_dict()
    out = []
    for col in range(4):
        on_board = sum(x["cubes"][col] for x in d["cubes"]) + sum(s["cargo"][col] for s in d["seats"])
        if on_board != d["market_out"][col]:
            out.append(f"colour {col}: {on_board} cubes off the market, market says {d['market_out'][col]}")
    for p, s in enumerate(d["seats"]):
        if sum(s["cargo"]) > 3:
            out.append(f"seat {p} carries {sum(s['cargo'])} cubes")
        if s["drachmas"] < 0:
            out.append(f"seat {p} has negative drachmas")
        if len(s["temples"]) > 6 or len(s["temples"]) != len(s["excavated"]):
            out.append(f"seat {p}: {len(s['temples'])} temples for {len(s['excavated'])} maps excavated")
    cards = sum(d["decks"], []) + sum((s["hand"] + s["excavated"] for s in d["seats"]), [])
    if sorted(cards) != list(range(36)):
        out.append("map cards not conserved")
    tiles = [t["tile"] for t in d["tiles"]] + d["pile"] + d["discard"] + [s["tile"] for s in d["seats"]
                                                                         if s["tile"] is not None]
    if sorted(tiles) != list(range(36)):
        out.append("tiles not conserved")
    if d["seats"][0]["port"] == d["seats"][1]["port"]:
        out.append("two boats on one port")
    return out


from simcore.akrotiri.features import FEATURE_DOCS, FEATURES, policy_vector  # noqa: E402
