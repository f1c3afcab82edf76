"""Preset strength table of every game: each heuristic preset against random play, 2 players.

    PYTHONPATH=. python bench/bench_presets.py                 # every game, 4,000 games per preset
    PYTHONPATH=. python bench/bench_presets.py yamatai -n 1000

The preset plays seat 0 in half of the games and seat 1 in the other half
(seats alternated, so the second player's edge cancels), on the runner's
seeds of run seed 12345. A game's win share counts a k-way tie as 1/k; the
table gives the preset's wins (summed shares), its mean with a 95% Wilson
interval, the share of tied games, and the preset's mean final score. The
issues ask for at least 0.90 against random for every preset.
"""
import argparse
import sys

import numpy as np


def strength(game, name, n, opponent=None):
    """Mean win share of preset ``name`` against ``opponent`` (None: random) over ``n`` 2-player games."""
    import simcore
    import strategies
    from analysis.stats import wilson_bounds
    from simcore.rng import chunk_seeds

    mod = simcore.games[game]
    pol = strategies.resolve(game, name).as_policy()
    seeds = np.asarray(chunk_seeds(12345, 0, n), dtype=np.uint64)
    share, ties, score = np.empty(n), np.empty(n, dtype=bool), np.empty(n)
    for seat in (0, 1):
        idx = np.arange(seat, n, 2)
        pols = [opponent, opponent]
        pols[seat] = pol
        res = mod.play_batch(2, seeds[idx], pols, events=False)
        ws = np.asarray(res["players"]["win_share"], dtype=np.float64)
        share[idx], ties[idx] = ws[:, seat], (ws > 0).sum(axis=1) > 1
        score[idx] = np.asarray(res["players"]["total"], dtype=np.float64)[:, seat]
    lo, hi = (float(b) for b in wilson_bounds(float(share.sum()), n))
    return {"game": game, "preset": name, "n": n, "wins": float(share.sum()), "share": float(share.mean()),
            "lo": lo, "hi": hi, "tied": float(ties.mean()), "score": float(score.mean())}


def main(argv=None):
    import simcore
    import strategies

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="games (default: every registered game)")
    ap.add_argument("-n", type=int, default=4000, help="games per preset (default 4,000)")
    args = ap.parse_args(argv)
    if args.n < 2:
        ap.error(f"-n must be at least 2, not {args.n}")
    games = args.games or list(simcore.games)
    for g in games:
        if g not in simcore.games:
            ap.error(f"unknown game '{g}' (known: {', '.join(simcore.games)})")
        if 2 not in simcore.games[g].PLAYERS:
            ap.error(f"{g} has no 2-player game")
    print(f"{'game':<9} {'preset':<21} {'n':>6} {'wins':>9} {'win share':>9}  {'95% CI':<15} {'tied':>5} {'score':>6}")
    for g in games:
        for name, s in strategies.presets(g).items():
            if s.kind != "heuristic":
                continue
            r = strength(g, name, args.n)
            print(f"{g:<9} {name:<21} {r['n']:>6,} {r['wins']:>9,.1f} {r['share']:>9.4f}  "
                  f"{r['lo']:.4f}-{r['hi']:.4f} {r['tied']:>5.3f} {r['score']:>6.1f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
