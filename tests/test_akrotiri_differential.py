"""Differential test: Akrotiri games of the Cython kernel replayed step by step in the reference engine.

At every decision both engines list the same legal actions; at the end the
scores agree category by category. ``BOARDLAB_DIFF_GAMES`` raises the count
for a long run by hand (20000 for the release figure), ``BOARDLAB_DIFF_LONG``
the full-length random games and ``BOARDLAB_DIFF_HEURISTIC`` the games per
preset pairing of the heuristic policies (whose games end by the temples).
"""
import os

import numpy as np
import pytest

import strategies
from simcore import akrotiri
from differential import replay_both

GAMES = int(os.environ.get("BOARDLAB_DIFF_GAMES", "500"))


def _goal_scores(cy, py, i):
    if i is None:
        assert cy.goal_scores() == py.goal_scores(), "goal scores differ"


def _replay_both(seed, policies=None, **settings):
    return replay_both(akrotiri, 2, seed, policies, check=_goal_scores, **settings)


def test_random_games_agree():
    # short games (turn_cap 6) keep the 500 games fast; full-length games follow
    seeds = [int(s) for s in np.random.SeedSequence(8).generate_state(GAMES, np.uint64)]
    totals = akrotiri.play_batch(2, np.array(seeds, dtype=np.uint64), turn_cap=6)["players"]["total"]
    for g, seed in enumerate(seeds):
        cy = _replay_both(seed, turn_cap=6)
        assert cy.scores()["total"] == totals[g].tolist()


def test_full_length_games_agree():
    for seed in range(int(os.environ.get("BOARDLAB_DIFF_LONG", "2"))):
        _replay_both(seed)


def test_heuristic_games_agree():
    # the presets reach boards random play does not: six temples, merged islands, goal draws
    names = ("balanced", "trader", "explorer", "goal_hunter")
    pols = {n: strategies.resolve("akrotiri", n).as_policy() for n in names}
    per = int(os.environ.get("BOARDLAB_DIFF_HEURISTIC", "2"))
    temples = 0
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            for k in range(per):
                cy = _replay_both(1000 + 100 * (4 * i + j) + k, [pols[a], pols[b]])
                temples += sum(len(s["temples"]) for s in cy.to_dict()["seats"])
    assert temples >= 6 * 16 * per


VARIANTS = [
    {"goal_values": "en1"},
    {"strategist": True},
    {"action_track": [3, 4, 5, 5, 5, 5]},
    {"tile_rotation": False},
    {"same_island_sail": True},
]


@pytest.mark.parametrize("settings", VARIANTS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_variants_agree(settings):
    for seed in range(12):
        _replay_both(seed, turn_cap=10, **settings)
