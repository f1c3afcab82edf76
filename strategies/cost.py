"""What a strategy costs: process CPU seconds a game with it in every seat.

The figure the strength-per-CPU comparisons use (``bench/bench_learned.py``, the ladder report's
"Strength per CPU-second"): ``play_batch`` in this process, one thread, the strategy in every
seat, games dealt from ``game_seeds(seed, 0, games)``. Process CPU time, not wall time, so other
work on a shared machine slows it only through the caches.
"""
import time


def cpu_per_game(game, players, strategy, games, seed=8):
    """Process CPU seconds a game of ``game`` with ``strategy`` (a resolved Strategy) in every seat."""
    import simcore
    from simcore.rng import game_seeds

    mod = simcore.games[game]
    pol = strategy.as_policy()
    seeds = game_seeds(seed, 0, games)
    t = time.process_time()
    mod.play_batch(players, seeds, [pol] * players, events=False)
    return (time.process_time() - t) / games


def default_games(strategy, cheap=600, search=6):
    """Games to time: ``search`` for a searching strategy, ``cheap`` otherwise."""
    return search if strategy.searches else cheap
