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

GAMES = int(os.environ.get("BOARDLAB_DIFF_GAMES", "500"))


def _replay_both(players, seed, **settings):
    actions = hellas.play_actions(players, seed, **settings)
    cy = hellas.new_game(players, seed, **settings)
    py = ref.RefState.new(players=players, seed=seed, **settings)
    for i, a in enumerate(actions):
        assert cy.legal_actions() == py.legal_actions(), f"seed {seed}, decision {i}: legal actions differ"
        cy.apply(a)
        py.apply(a)
    assert cy.is_over() and py.is_over(), f"seed {seed}: one engine did not finish"
    assert cy.scores() == py.scores(), f"seed {seed}: scores differ"
    assert cy.quarry_log() == py.quarry_log, f"seed {seed}: quarry logs differ"
    return cy


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
