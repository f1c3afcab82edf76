"""The compensation search from the zero vector against the start from the shares (``--start shares``).

Synthetic games with the seat shares and the one-unit effects measured under ``learned`` play in
Yamataï (issue 33, round 6): 3 players (0.402, 0.311, 0.287), one point +3.7 pp for its seat; 4 players
(0.275, 0.274, 0.227, 0.224), +4.1 pp. Seat ``i`` wins with probability
``base_i + effect * N/(N-1) * g(c_i - mean c)``; ``g`` is the identity (``linear``) or bends so that
each further unit is worth 15 % less than the one before (``concave``: the probe's straight line is
then wrong by a unit or so). The same uniforms for every candidate of a block (common random numbers),
block ``k`` of run ``r`` drawn from seed ``(r, k)``; blocks of 200 games, as the engines' runs.

    PYTHONPATH=. python bench/bench_balance_start.py [--runs 40] [--budget3 30000] [--budget4 20000]

Prints per game model, budget and start: the share of runs that settled, the games played (mean), the
true gap of the vector found (mean and 90th percentile) and how often it is the fairest vector.
"""
import argparse
import itertools
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from analysis.balance import Search, normalise  # noqa: E402

GAMES = {3: ([0.402, 0.311, 0.287], 0.037), 4: ([0.275, 0.274, 0.227, 0.224], 0.041)}


def _bend(d, shape):
    if shape == "linear":
        return d
    r = 0.85            # each further unit 15 % less: 1, 1.85, 2.57, ...
    a = np.abs(d)
    return np.sign(d) * (1 - r ** a) / (1 - r)


def probabilities(base, effect, v, shape):
    c = np.asarray(v, float)
    n = len(c)
    p = np.clip(np.asarray(base) + effect * n / (n - 1) * _bend(c - c.mean(), shape), 0.001, None)
    return p / p.sum()


def true_gaps(players, base, effect, shape, top=8):
    gaps = {}
    for v in itertools.product(range(top + 1), repeat=players):
        v = normalise(v)
        gaps[v] = float(np.max(np.abs(probabilities(base, effect, v, shape) - 1 / players)))
    return gaps


def play_fn(players, base, effect, shape, run, b):
    def play(jobs):
        out = []
        for v, blk in jobs:
            u = np.random.default_rng([run, blk]).random(b)
            cum = np.cumsum(probabilities(base, effect, v, shape))
            win = np.searchsorted(cum, u, side="right").clip(0, players - 1)
            ws = np.zeros((b, players))
            ws[np.arange(b), win] = 1.0
            out.append(ws)
        return out
    return play


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--budget3", type=int, default=30_000)
    ap.add_argument("--budget4", type=int, default=20_000)
    ap.add_argument("--block", type=int, default=200)
    a = ap.parse_args(argv)
    print(f"{'game':>6} {'shape':>8} {'budget':>7} {'start':>6} {'settled':>8} {'games':>7} "
          f"{'gap mean':>9} {'gap p90':>8} {'fairest':>8}")
    for players, budget in ((3, a.budget3), (4, a.budget4)):
        base, effect = GAMES[players]
        for shape in ("linear", "concave"):
            gaps = true_gaps(players, base, effect, shape)
            best = min(gaps, key=gaps.get)
            for start, step in (("zero", 2 if players == 3 else 1), ("shares", 2)):
                settled, games, found = 0, [], []
                for run in range(a.runs):
                    s = Search(players, play_fn(players, base, effect, shape, run, a.block), budget, a.block,
                               step=step, start=None if start == "zero" else "shares")
                    res = s.run()
                    settled += res.converged
                    games.append(res.games)
                    found.append(res.best)
                    # vectors outside the brute-force box: their gap computed directly
                g = np.array([gaps.get(v, float(np.max(np.abs(probabilities(base, effect, v, shape)
                                                               - 1 / players)))) for v in found])
                print(f"{players:>5}p {shape:>8} {budget:>7,} {start:>6} {settled / a.runs:>8.0%} "
                      f"{np.mean(games):>7,.0f} {g.mean() * 100:>8.2f}  {np.quantile(g, 0.9) * 100:>7.2f} "
                      f"{np.mean([v == best for v in found]):>8.0%}", flush=True)
            print(f"{'':>6} {shape:>8} fairest {best}: gap {gaps[best] * 100:.2f} pp")


if __name__ == "__main__":
    main()
