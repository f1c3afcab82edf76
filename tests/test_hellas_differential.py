"""Differential test: Cython games replayed step by step in the reference engine.

For each player count, games played by the Cython kernel with random legal
actions are replayed in the pure-Python reference engine; at every decision
both engines list the same legal actions, and the final scores agree category
by category. ``BOARDLAB_DIFF_GAMES`` raises the count for a long run by hand
(``python -m pytest tests/test_hellas_differential.py`` with 20000).
"""
import os

import numpy as np
import pytest

from simcore import hellas
from simcore.hellas import reference as ref
from differential import replay_both

GAMES = int(os.environ.get("BOARDLAB_DIFF_GAMES", "500"))


def _quarry_logs(cy, py, i):
    if i is None:
        assert cy.quarry_log() == py.quarry_log, "quarry logs differ"


def _replay_both(players, seed, **settings):
    return replay_both(hellas, players, seed, check=_quarry_logs, **settings)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree(players):
    seeds = [int(s) for s in np.random.SeedSequence(players).generate_state(GAMES, np.uint64)]
    totals = hellas.play_batch(players, np.array(seeds, dtype=np.uint64))["players"]["total"]
    for g, seed in enumerate(seeds):
        cy = _replay_both(players, seed)
        assert cy.scores()["total"] == totals[g].tolist()


VARIANTS = [
    {"action_display": "wide"},
    {"quarry_yields": "falling"},
    {"city_links": "no_agora_chains"},
    {"no_temple_start": "next_seat", "ring_bonus_none": "all_tied"},
    {"set_aside_counts": False, "closed_quarry": "reopens", "double_quarry_yield": "once"},
    {"start_player": "random"},
]


@pytest.mark.parametrize("settings", VARIANTS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_variants_agree(players, settings):
    for seed in range(40):
        _replay_both(players, seed, **settings)


@pytest.mark.parametrize("settings", [{}, {"set_aside_counts": False}], ids=["default", "set_aside_not_counted"])
def test_position_dictionaries_agree_and_cross_load(settings):
    """At every decision of random games both engines write the same build_turn and revealed (lists, as
    docs/hellas_engine.md gives them), and each engine loads the other's dictionary to the same position."""
    keys = ("phase", "active", "build_turn", "revealed", "tile", "set_aside", "stack", "worker", "marble")
    seen = {"build_turn": 0, "revealed": 0}
    for players in (2, 3, 4):
        for seed in range(12):
            actions = hellas.play_actions(players, seed, **settings)
            cy = hellas.new_game(players, seed, **settings)
            py = ref.RefState.new(players=players, seed=seed, **settings)
            for i, a in enumerate(actions):
                dc, dp = cy.to_dict(), py.to_dict()
                assert {k: dc[k] for k in keys} == {k: dp[k] for k in keys}, (players, seed, i)
                seen["build_turn"] += bool(dc["build_turn"])
                seen["revealed"] += bool(dc["revealed"])
                if i % 7 == 0:
                    back = hellas.State.from_dict(dp)           # the reference's dict in the Cython engine
                    assert back.legal_actions() == cy.legal_actions() and back.to_dict()["revealed"] == dc["revealed"]
                    assert ref.RefState.from_dict(dc).legal_actions() == py.legal_actions()
                cy.apply(a)
                py.apply(a)
    assert seen["build_turn"] > 100 and seen["revealed"] > 20       # the lists were not always empty
