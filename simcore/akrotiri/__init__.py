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
from simcore._face import game_face
from simcore.akrotiri.config import PLAYERS, SCORE_CATEGORIES, SETTINGS, AkrotiriConfig, make_config
from simcore._isa import load_engine

load_engine("akrotiri")     # the x86-64-v3 build of _engine where this CPU runs it
from simcore.akrotiri._engine import (BUY, CUBE, END, EVENT_KINDS, EXCAVATE, GOAL, LOAD, ORACLE, PHASES, PLACE,
                                      SAIL, SELL, TRANSPORT, UNLOAD, State, game_ops, model_ops, play_actions,
                                      play_batch, policy_features, policy_scores)
from simcore._search import determinized, playout_values

from simcore.akrotiri import reference  # noqa: E402

NAME = "akrotiri"
TITLE = "Akrotiri"
SEAT_BONUS_UNIT = ('drachma', 'drachmas')     # what one unit of the seat_bonus setting is (one, several)
DEFAULT_PLAYERS = 2
TIE_RULE = ("ties go to the player with more drachmas; equal drachmas too share the win (1/2 each)")
EVENT_SCHEMA = {      # one row per map bought or excavated, goal kept or scored, cube sold (docs/results.md)
    "turn": "the seat's turn number (0 = set-up)",
    "kind": "0 map_bought, 1 map_excavated, 2 goal_kept, 3 goal_scored, 4 good_sold",
    "seat": "the seat",
    "deck": "map deck (0 easy, 1 medium, 2 hard), -1 for other kinds",
    "card": "map card id 0-35, -1 for other kinds",
    "cost": "the map's excavation cost (drachmas)",
    "points": "the map's points; for goal_scored, the goal's points",
    "colour": "cube colour sold (0 blue, 1 green, 2 grey, 3 orange), -1 otherwise",
    "price": "drachmas received for a sale, or the purchase's price",
    "quantity": "cards in a purchase; 1 for excavations and sales",
    "goal": "goal id 0-11 for goal_kept / goal_scored, -1 otherwise",
}


new_game, replay_game, replay = game_face("Akrotiri", make_config, State, play_actions, default_players=DEFAULT_PLAYERS)
ROUND_NAME = "rounds (turn pairs)"


def round_number(state):
    """The round of the game contract: a pair of turns (seat 0's, then seat 1's); -1 during the set-up (turn 0)."""
    return state.turns[0] - 1


def running_scores(state):
    """The seats' totals as the position stands, without the goals: they are secret and score at the end
    only (the kernel's lead snapshots leave them to the final score, ``running_total`` in _engine.pyx)."""
    sc = state.scores()
    return [t - g for t, g in zip(sc["total"], sc["goals"])]


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


from simcore.akrotiri.features import FEATURE_DOCS, FEATURES, policy_vector
from simcore.akrotiri.features import OPTIONAL as OPTIONAL_FEATURES  # noqa: E402
