"""Coverage and width of the interval kinds of issue 37 on simulated outcome processes, before and after.

    PYTHONPATH=. python bench/bench_intervals_sim.py [--reruns 2000]

The designs of ``tests/test_intervals.py`` with more re-runs: a share over lineups that share seeds
(spread/SE 1.22 for independent-trials Wilson), a seat's win share with ties common (random-play
Hellas 3p tie pattern), balance's 2-seat gap interval, and the skill trend with the levels on one
seed. Per design: the coverage of the truth by the old and the new 95% interval and their mean width
divided by the valid width (2 z times the estimator's standard deviation: exact where the process
allows, else the spread over the re-runs).
"""
import argparse
import math

import numpy as np
from scipy import special

from analysis.balance import gap_interval
from analysis.stats import logistic_fit, observed_share_bounds, share_interval, wilson_bounds, z_value

Z = z_value(0.95)


def cover(lo, hi, t):
    return float(np.mean((np.asarray(lo) <= t) & (t <= np.asarray(hi))))


def row(name, old, new):
    print(f"{name:<44} cover {old[0] * 100:5.1f}% -> {new[0] * 100:5.1f}%   width/valid {old[1]:.3f} -> {new[1]:.3f}")


def shared(rng, reruns):
    seeds, lineups, p = 300, 6, 0.55
    a = math.sqrt((1.22 ** 2 - 1) / (lineups - 1) * p * (1 - p))
    q = p + a * rng.choice([-1.0, 1.0], size=(reruns, seeds, 1))
    y = (rng.random((reruns, seeds, lineups)) < q).astype(float)
    sd = math.sqrt((a * a + (p * (1 - p) - a * a) / lineups) / seeds)
    olo, ohi = wilson_bounds(y.sum(axis=(1, 2)), seeds * lineups)
    cl = np.repeat(np.arange(seeds), lineups)
    c = [share_interval(r.reshape(-1), clusters=cl) for r in y]
    lo, hi = np.array([x.lo for x in c]), np.array([x.hi for x in c])
    print(f"shared seeds: spread/SE old {y.mean(axis=(1, 2)).std(ddof=1) / np.mean((ohi - olo) / (2 * Z)):.2f}, "
          f"new {y.mean(axis=(1, 2)).std(ddof=1) / np.mean((hi - lo) / (2 * Z)):.2f}")
    row("share over 6 lineups on one seed (compare)", (cover(olo, ohi, p), np.mean(ohi - olo) / (2 * Z * sd)),
        (cover(lo, hi, p), np.mean(hi - lo) / (2 * Z * sd)))


def tied(u, p1, p2, p3):
    return np.select([u < p1, u < p1 + p2, u < p1 + p2 + p3], [1.0, 0.5, 1 / 3], 0.0)


def ties(rng, reruns):
    p1, p2, p3, games = 0.27, 0.10, 0.04, 1000
    m = p1 + p2 / 2 + p3 / 3
    sd = math.sqrt((p1 + p2 / 4 + p3 / 9 - m * m) / games)
    w = tied(rng.random((reruns, games)), p1, p2, p3)
    olo, ohi = wilson_bounds(w.sum(1), games)
    lo, hi = observed_share_bounds(w.sum(1), games, (w * w).sum(1))
    row("seat share, 17.5% of games tied (seat tables)", (cover(olo, ohi, m), np.mean(ohi - olo) / (2 * Z * sd)),
        (cover(lo, hi, m), np.mean(hi - lo) / (2 * Z * sd)))


def gap(rng, reruns):
    p1, p2, games = 0.47, 0.10, 20_000
    m = p1 + p2 / 2
    sd = math.sqrt((p1 + p2 / 4 - m * m) / games)
    w = tied(rng.random((reruns, games)), p1, p2, 0.0)
    new, old = [], []
    for r in w:
        s, q = np.array([r.sum(), games - r.sum()]), np.array([(r * r).sum(), ((1 - r) ** 2).sum()])
        new.append(gap_interval(s, games, squares=q)[1:])
        lo, hi = wilson_bounds(s, games, 1 - 0.05 / 2)
        old.append((max(0.0, lo[0] - 0.5, 0.5 - hi[0]), max(abs(lo[0] - 0.5), abs(hi[0] - 0.5))))
    new, old = np.array(new), np.array(old)
    g = abs(m - 0.5)
    row("balance gap, 2 seats, 10% ties", (cover(old[:, 0], old[:, 1], g), np.mean(old[:, 1] - old[:, 0]) / (2 * Z * sd)),
        (cover(new[:, 0], new[:, 1], g), np.mean(new[:, 1] - new[:, 0]) / (2 * Z * sd)))


def skill(rng, reruns):
    levels, games = np.array([1400.0, 1500.0, 1650.0, 1800.0]), 300
    xs = np.repeat((levels - levels.mean()) / 100, games)
    X = np.column_stack([np.ones_like(xs), xs])
    seed = np.tile(np.arange(games), len(levels))
    b, sn, so = [], [], []
    for _ in range(reruns):
        u = rng.normal(0, 2.0, size=games)
        y = (rng.random(len(xs)) < special.expit(-0.6 + np.tile(u, len(levels)))).astype(float)
        f1, f0 = logistic_fit(X, y, groups=seed), logistic_fit(X, y, groups=np.arange(len(y)))
        b.append(f1.coef[1]); sn.append(f1.se[1]); so.append(f0.se[1])
    b, sn, so = map(np.array, (b, sn, so))
    sd = b.std(ddof=1)
    row("skill trend slope, levels on one seed", (cover(b - Z * so, b + Z * so, 0.0), np.mean(so) / sd),
        (cover(b - Z * sn, b + Z * sn, 0.0), np.mean(sn) / sd))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reruns", type=int, default=2000)
    a = ap.parse_args()
    rng = np.random.default_rng(2037)
    print(f"{a.reruns} re-runs per design")
    shared(rng, a.reruns)
    ties(rng, a.reruns)
    gap(rng, a.reruns)
    skill(rng, min(a.reruns, 1000))


if __name__ == "__main__":
    main()
