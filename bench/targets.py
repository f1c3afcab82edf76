"""The heuristic throughput targets of the issues, on one core: CPU time of `play_batch` with `balanced` everywhere.

    PYTHONPATH=. python bench/targets.py              # Hellas 3p, Yamatai 4p, Akrotiri 2p
    PYTHONPATH=. python bench/targets.py akrotiri -r 10

Each game: one warm-up batch, then ``-r`` batches (default 5) of fresh seeds
(20,000 games for Hellas, 5,000 for the others), timed with the calling
thread's CPU clock (``time.thread_time``), so other processes on the machine
do not count; a shared core still slows it through caches. Prints the median,
min and max µs/game, the games per CPU second of each, and whether every batch
met the target. Compare builds by instruction counts (`boardlab bench
--instructions`); this is the figure the targets are stated in.
"""
import argparse
import sys
import time

import numpy as np

TARGETS = {"hellas": (3, 20_000, 20_000), "yamatai": (4, 5_000, 5_000), "akrotiri": (2, 5_000, 5_000)}


def measure(game, repeats=5):
    import simcore
    import strategies

    players, games, target = TARGETS[game]
    mod = simcore.games[game]
    pols = [strategies.resolve(game, "balanced").as_policy()] * players
    seeds = np.arange(games, dtype=np.uint64)
    mod.play_batch(players, seeds[:200], pols, events=False)
    us = []
    for r in range(repeats):
        t = time.thread_time()
        mod.play_batch(players, seeds + np.uint64((r + 1) * games), pols, events=False)
        us.append((time.thread_time() - t) / games * 1e6)
    return players, target, sorted(us)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help=f"games (default: {', '.join(TARGETS)})")
    ap.add_argument("-r", "--repeats", type=int, default=5, help="timed batches per game (default 5)")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error(f"--repeats must be at least 1, not {args.repeats}")
    for g in args.games:
        if g not in TARGETS:
            ap.error(f"unknown game '{g}' (known: {', '.join(TARGETS)})")
    with open("/proc/loadavg") as f:
        print(f"load average {' '.join(f.read().split()[:3])}")
    for g in args.games or list(TARGETS):
        players, target, us = measure(g, args.repeats)
        rates = [1e6 / u for u in us]
        met = "met in every batch" if min(rates) >= target else \
            ("met on the median" if 1e6 / us[len(us) // 2] >= target else "not met")
        print(f"{g} {players}p balanced: CPU µs/game median {us[len(us) // 2]:.1f} [{us[0]:.1f}-{us[-1]:.1f}] "
              f"-> {min(rates):,.0f}-{max(rates):,.0f} games/CPU s; target {target:,}/s: {met}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
