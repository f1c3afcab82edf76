"""Strength and speed of the Hellas strategies (fixed seeds; prints figures).

    python bench/bench_strategies.py            # everything
    python bench/bench_strategies.py --quick    # fewer games

Win shares are means over games of the seat's win share (a k-way tie = 1/k),
with a 95 % Wilson interval (analysis.stats.wilson_bounds). Seats are alternated
(2 players) or rotated (3 players) so that seat advantage cancels.

Figures of the last full run (2026-12-02 10:19 UTC, commit a732670, a new and faster
VM than that of the earlier figures, idle: load average 0.4; 20 s in all):

    balanced vs random, 2 players, seats alternated: 0.9989 (0.9980-0.9994, n=10000)
    every preset vs random, 2 players (n=4000): balanced 0.9990, city_builder 0.9975,
        temple_builder 0.9954, quarry_baron 0.9990, tuned 1.0000 (0.9990-1.0000)
    vs 2 x balanced, 3 players (n=4000): city_builder 0.083, temple_builder 0.157,
        quarry_baron 0.348, tuned 0.523
    tuned vs 2 x balanced, 3 players, seats rotated: 0.5249 (0.5151-0.5346, n=10000)
    flat MC (16 playouts/action) vs balanced, 2 players: 0.9950 (0.9722-0.9991, n=200)
    play_batch, 3 players, balanced x 3, one core: 37,218 games/s (best of 3 x 20,000;
        random 274,319 games/s)

The throughput history (0.52 M instructions a game on 2026-12-01 morning, 0.31 M now) is
in bench/README.md; bench/targets.py times the target against another build.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import strategies  # noqa: E402
from simcore import hellas  # noqa: E402
from simcore.rng import game_seeds  # noqa: E402
from analysis.stats import wilson_bounds  # noqa: E402


def ci(x):
    x = np.asarray(x, dtype=float)
    m, (lo, hi) = x.mean(), wilson_bounds(x.sum(), len(x))    # a k-way tie counts 1/k of a win
    return f"{m:.4f} (95% CI {lo:.4f}-{hi:.4f}, n={len(x)})"


def seats_rotated(players, policy, others, seeds):
    """Per-game win share of ``policy``, its seat rotating over the games."""
    out = np.empty(len(seeds))
    for seat in range(players):
        idx = np.arange(seat, len(seeds), players)
        pols = list(others)
        pols.insert(seat, policy)
        res = hellas.play_batch(players, seeds[idx], pols[:players], events=False)
        out[idx] = res["players"]["win_share"][:, seat]
    return out


def pol(name):
    return strategies.resolve("hellas", name).as_policy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--mc-games", type=int, default=200)
    ap.add_argument("--mc-playouts", type=int, default=16)
    ap.add_argument("--tuned", default="tuned")
    args = ap.parse_args()
    n_big = 2000 if args.quick else 10_000
    n_preset = 1000 if args.quick else 4000

    seeds = np.asarray(game_seeds(1, 0, n_big), dtype=np.uint64)
    print(f"balanced vs random, 2 players, seats alternated: {ci(seats_rotated(2, pol('balanced'), [None], seeds))}")

    seeds = np.asarray(game_seeds(2, 0, n_preset), dtype=np.uint64)
    for name in strategies.known("hellas"):
        if name == "random":
            continue
        print(f"{name:>16} vs random, 2 players: {ci(seats_rotated(2, pol(name), [None], seeds))}")

    seeds = np.asarray(game_seeds(3, 0, n_preset), dtype=np.uint64)
    for name in strategies.known("hellas"):
        if name in ("random", "balanced"):
            continue
        share = seats_rotated(3, pol(name), [pol("balanced")] * 2, seeds)
        print(f"{name:>16} vs 2 x balanced, 3 players (fair 0.333): {ci(share)}")

    try:
        tuned = pol(args.tuned)
    except ValueError as exc:
        print(f"tuned preset: {exc}")
    else:
        seeds = np.asarray(game_seeds(4, 0, n_big), dtype=np.uint64)
        share = seats_rotated(3, tuned, [pol("balanced")] * 2, seeds)
        print(f"{args.tuned} vs 2 x balanced, 3 players, seats rotated (fair 0.333): {ci(share)}")

    # flat Monte Carlo vs balanced, 2 players, seats alternated
    g = 40 if args.quick else args.mc_games
    mc = strategies.FlatMonteCarloAgent(playouts=args.mc_playouts, seed=9)
    bal = strategies.PolicyAgent("balanced", seed=9)
    seeds = [int(s) for s in game_seeds(5, 0, g)]
    shares = []
    t = time.perf_counter()
    for i, seed in enumerate(seeds):
        agents = [mc, bal] if i % 2 == 0 else [bal, mc]
        st = strategies.play_python("hellas", agents, seed)
        tot = st.scores()["total"]
        best = max(tot)
        seat = i % 2
        shares.append((1.0 / tot.count(best)) if tot[seat] == best else 0.0)
    print(f"flat MC ({args.mc_playouts} playouts/action, balanced+eps 0.05 playouts) vs balanced, 2 players: "
          f"{ci(shares)} [{time.perf_counter() - t:.0f} s]")

    # throughput: balanced in all seats, 3 players, one core (this process)
    seeds = np.asarray(game_seeds(6, 0, 20_000), dtype=np.uint64)
    b = pol("balanced")
    rates = []
    for _ in range(3):
        t = time.perf_counter()
        hellas.play_batch(3, seeds, [b, b, b], events=False)
        rates.append(len(seeds) / (time.perf_counter() - t))
    t = time.perf_counter()
    hellas.play_batch(3, seeds, None, events=False)
    rnd = len(seeds) / (time.perf_counter() - t)
    print(f"play_batch throughput, 3 players, one core: balanced {max(rates):,.0f} games/s "
          f"(best of 3 x {len(seeds)}), random {rnd:,.0f} games/s")


if __name__ == "__main__":
    main()
