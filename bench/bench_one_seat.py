"""One strategy against another in every seat: A in one seat, B in the others, every rotation of each deal.

    python bench/bench_one_seat.py A B [--game hellas] [--players 3] [--deals 150] [--seed 5]
                                       [--batch 5] [--out DIR]

Deal ``i`` (``game_seeds(seed, i)``) is played ``players`` times, A in seat 0, 1, ... in turn and B in
every other seat; the deal's score is A's mean win share over its rotations (ties shared), so the
seat cancels within a deal and the deals are independent. The mean score's 95 % interval is the t
interval over deals; the Elo difference is the score's image under Plackett–Luce (one A against
``players - 1`` equal B: ``share = e / (e + players - 1)``, so ``Elo = 400 log10(share (players - 1) /
(1 - share))``, the scale of the ladder's pairwise ratings), and its interval the bounds' images.
Also the process CPU seconds a game of each batch (A and B together: a seat's share is not separable;
time each alone with ``strategies.cost.cpu_per_game`` to match their CPU first).

``--batch`` deals at a time (``play_batch``, one thread); each batch is kept in ``--out`` (``.npy``): a
rerun resumes and the report is printed after every batch, so a run stopped at any time still gives its
estimate. ``bench_head_to_head.py`` is the 2-player form (pairs of games, seats swapped).
"""
import argparse
import glob
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402


def elo(share, players=2):
    """A's Elo difference to B from A's mean win share in one seat against ``players - 1`` B: the image
    under Plackett–Luce (``share = e / (e + players - 1)``); 2 players: ``400 log10(p / (1 - p))``."""
    p = min(max(share, 1e-6), 1 - 1e-6)
    return 400.0 * math.log10(p * (players - 1) / (1.0 - p))


def summary(score):
    """``(n, mean, lo, hi)`` of independent scores (deals, pairs): the t interval at 95 %; NaN bounds from
    one score."""
    from scipy.stats import t as student
    n = len(score)
    m = float(np.mean(score))
    if n < 2:
        return n, m, float("nan"), float("nan")
    h = float(student.ppf(0.975, n - 1) * np.std(score, ddof=1) / math.sqrt(n))
    return n, m, m - h, m + h


def report(out, players, a, b):
    """The summary line of the batches in ``out`` (None when there are none yet)."""
    files = sorted(glob.glob(os.path.join(out, "b*.npy")))
    if not files:
        return None
    x = np.concatenate([np.load(f) for f in files])
    n, m, lo, hi = summary(x[:, 0])
    if n > 1:
        ci = f"[{lo:.4f}, {hi:.4f}]"
        eci = f"[{elo(lo, players):+.0f}, {elo(hi, players):+.0f}]"
    else:
        ci = eci = "[no interval: one deal]"
    return (f"{players}p {a} (one seat) vs {b}: deals {n} (games {n * players}); A's share {m:.4f} {ci} "
            f"(fair {1 / players:.3f}); Elo {elo(m, players):+.0f} {eci}; CPU s a game {x[:, 1].mean():.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--game", default="hellas")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--batch", type=int, default=5)
    ap.add_argument("--out", default="/tmp/bench-one-seat")
    args = ap.parse_args()

    import simcore
    import strategies
    from simcore.rng import game_seeds
    from simcore.run import check_players

    def fail(msg):
        print(f"bench/bench_one_seat.py: error: {msg}", file=sys.stderr)
        raise SystemExit(2)

    if args.game not in simcore.games:
        fail(f"unknown game {args.game!r} (known: {', '.join(simcore.games)})")
    try:
        k = check_players(args.game, args.players)
        pa = strategies.resolve(args.game, args.a).as_policy()
        pb = strategies.resolve(args.game, args.b).as_policy()
    except ValueError as e:
        fail(str(e).splitlines()[0])
    if k < 2 or args.deals < 1 or args.batch < 1:
        fail("--players must be at least 2, --deals and --batch at least 1")
    mod = simcore.games[args.game]
    os.makedirs(args.out, exist_ok=True)
    import json
    key = {"game": args.game, "players": k, "a": args.a, "b": args.b, "seed": args.seed, "batch": args.batch}
    kfile = os.path.join(args.out, "key.json")
    if os.path.exists(kfile) and json.load(open(kfile)) != key:
        fail(f"{args.out} holds deals of other settings (game, players, A, B, seed or batch): give another --out")
    with open(kfile, "w") as f:
        json.dump(key, f)
    for b0 in range(0, args.deals, args.batch):
        path = os.path.join(args.out, f"b{b0:05d}.npy")
        if os.path.exists(path):
            continue
        seeds = game_seeds(args.seed, b0, min(args.deals, b0 + args.batch))
        ws = np.zeros(len(seeds))
        t0 = time.process_time()
        for seat in range(k):
            pols = [pb] * k
            pols[seat] = pa
            r = mod.play_batch(k, seeds, pols, events=False)
            ws += r["players"]["win_share"][:, seat]
        cpu = (time.process_time() - t0) / (len(seeds) * k)
        np.save(path, np.stack([ws / k, np.full(len(seeds), cpu)], axis=1))
        print(report(args.out, k, args.a, args.b), flush=True)
    print(report(args.out, k, args.a, args.b))


if __name__ == "__main__":
    main()
