"""Differential test of every game in ``simcore.games``: engine and reference agree (``tests/differential.py``).

A few random and heuristic games per game and player count; the
``test_<game>_differential.py`` files run many more, with the game's own
comparisons and settings.
"""
import numpy as np
import pytest

import simcore
import strategies
from differential import replay_both

CASES = [pytest.param(g, p, id=f"{g}-{p}p") for g in simcore.games for p in simcore.games[g].PLAYERS]


@pytest.mark.parametrize("game,players", CASES)
def test_random_and_heuristic_games_agree(game, players):
    mod = simcore.games[game]
    seeds = [int(s) for s in np.random.SeedSequence(players).generate_state(8, np.uint64)]
    totals = mod.play_batch(players, np.array(seeds, dtype=np.uint64))["players"]["total"]
    for g, seed in enumerate(seeds):
        assert replay_both(mod, players, seed).scores()["total"] == totals[g].tolist()
    if "balanced" in strategies.known(game):
        pols = [strategies.resolve(game, "balanced").as_policy()] * players
        for seed in range(4):
            replay_both(mod, players, seed, pols)
