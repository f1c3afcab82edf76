"""Akrotiri's safety stop: the share of games that end at the turn cap (A-D27), per strategy.

    python bench/bench_turn_cap.py [--games 20000] [--strategies random,balanced,...] [--seed 1] [--show 10]

Each strategy plays every seat (self-play, ``play_batch`` in this process, events off)
``--games`` games dealt from ``game_seeds(seed, i)``; a strategy with a search plays
``--search-games``. Per strategy: the games that ended at the cap, their share with a Wilson
95 % interval (the games are independent), the mean turns a seat and the CPU seconds a game
(process time). The issue's target: every preset and ``learned`` at most 0.1 % (random aside).
``--show K``: the indices ``i`` of a strategy's first K capped games, to replay (``game_seeds(seed, i)``).
"""
import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import strategies  # noqa: E402
from simcore import akrotiri  # noqa: E402
from simcore.rng import game_seeds  # noqa: E402

TURN_CAP = 2           # end_trigger of a game stopped by the cap (0 none, 1 temples, 2 turn_cap)


def wilson(k, n, z=1.959964):
    """Wilson score interval of k successes in n."""
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--search-games", type=int, default=20)
    ap.add_argument("--strategies", default="random,balanced,trader,explorer,goal_hunter,tuned,learned")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=0, help="list the indices of the first K capped games")
    args = ap.parse_args()
    print(f"akrotiri 2p; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; seed {args.seed}\n")
    print("| strategy | games | at the cap | share [95% CI] | turns a seat | CPU ms a game |")
    print("|---|---|---|---|---|---|")
    for name in strategies.split_names(args.strategies):
        s = strategies.resolve("akrotiri", name)
        n = args.search_games if s.searches else args.games
        pol = s.as_policy()
        t = time.process_time()
        res = akrotiri.play_batch(2, game_seeds(args.seed, 0, n), [pol, pol], events=False)
        cpu = (time.process_time() - t) / n
        k = int(np.count_nonzero(res["games"]["end_trigger"] == TURN_CAP))
        lo, hi = wilson(k, n)
        print(f"| {name} | {n:,} | {k:,} | {100 * k / n:.3f} % [{100 * lo:.3f}, {100 * hi:.3f}] | "
              f"{res['games']['turns'].mean():.1f} | {cpu * 1e3:.3f} |", flush=True)
        if args.show and k:
            capped = np.flatnonzero(res["games"]["end_trigger"] == TURN_CAP)[:args.show]
            print(f"  capped games of {name}: {', '.join(map(str, capped))}{' ...' if k > len(capped) else ''}")


if __name__ == "__main__":
    main()
