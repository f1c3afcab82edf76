"""Differential test: Cython Yamataï games replayed step by step in the reference engine.

For each player count, games played by the Cython kernel with random legal
actions are replayed in the pure-Python reference engine; at every decision
both engines list the same legal actions, and the final scores agree category
by category, as do the winner and the end triggers. ``BOARDLAB_DIFF_GAMES``
raises the count for a long run by hand
(``BOARDLAB_DIFF_GAMES=20000 python -m pytest tests/test_yamatai_differential.py``).
"""
import os

import numpy as np
import pytest

from simcore import yamatai
from differential import replay_both
from simcore.yamatai import reference as ref

GAMES = int(os.environ.get("BOARDLAB_DIFF_GAMES", "500"))


def _positions(cy, py, i):
    if i is not None:
        if i % 50 == 7:
            assert cy.to_dict() == py.to_dict(), f"decision {i}: positions differ"
        return
    assert cy.to_dict() == py.to_dict(), "final positions differ"
    assert cy.winner() == py.winner(), "winners differ"
    assert cy.triggers == [t for t in yamatai.TRIGGERS if t in py.triggers], "triggers differ"


def _replay_both(players, seed, **settings):
    return replay_both(yamatai, players, seed, check=_positions, **settings)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree(players):
    seeds = [int(s) for s in np.random.SeedSequence(100 + players).generate_state(GAMES, np.uint64)]
    res = yamatai.play_batch(players, np.array(seeds, dtype=np.uint64))
    for g, seed in enumerate(seeds):
        cy = _replay_both(players, seed)
        assert cy.scores()["total"] == res["players"]["total"][g].tolist()
        assert cy.winner() == res["games"]["winner"][g]


@pytest.mark.parametrize("players", [2, 4])
def test_short_round_cap_agrees(players):
    for seed in range(30):
        cy = _replay_both(players, seed, round_cap=3)
        assert "round_cap" in cy.triggers


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_load_into_either_engine(players):
    """A Cython position loaded into the reference (and back) plays on identically to the end."""
    for seed in range(12):
        actions = yamatai.play_actions(players, seed)
        cy = yamatai.new_game(players, seed)
        cut = (seed * 17) % len(actions)
        for a in actions[:cut]:
            cy.apply(a)
        py = ref.RefState.from_dict(cy.to_dict())
        back = yamatai.State.from_dict(py.to_dict())
        assert py.to_dict() == cy.to_dict() == back.to_dict()
        for i, a in enumerate(actions[cut:]):
            assert py.legal_actions() == cy.legal_actions() == back.legal_actions(), f"seed {seed}, {cut + i}"
            for st in (cy, py, back):
                st.apply(a)
        assert py.scores() == cy.scores() == back.scores() and py.to_dict() == cy.to_dict()
