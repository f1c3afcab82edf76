"""Two strategies head to head, seats swapped, as an Elo difference with a 95 % interval.

    python bench/bench_head_to_head.py A B [--game akrotiri] [--players 2] [--pairs 200]
                                           [--batch 10] [--seed 1] [--out DIR]

Pair ``i`` is two games dealt from the same seed (``game_seeds(seed, i)``): A in seat 0 and B in
seat 1, then the seats swapped (2 players; the rest of the seats, for more players, are B). The
pair's score is A's mean win share over its two games (ties shared), so the deal and the seat
cancel within a pair and the pairs are independent: the mean score's 95 % interval is the t
interval over pairs (clustered by seed, as ``reports.compare`` clusters), and the Elo difference
``400 log10(p / (1 - p))`` and its interval are the score's and its bounds' images. Also: each
strategy's process CPU seconds a game (its seat's share is not separable: the whole pair's time
with the seats it plays).

Pairs are played ``--batch`` at a time in this process (``play_batch``, one thread) and each batch
is kept in ``--out`` (``.npz``): a rerun resumes, and the report is printed after every batch, so
a run stopped at any time still gives its estimate. Everything is drawn from ``--seed``.
"""
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from game_args import game_parser, parse_game_args  # noqa: E402

import numpy as np  # noqa: E402


def elo(p):
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 400.0 * math.log10(p / (1.0 - p))


def summary(score):
    """``(n, mean, lo, hi)`` of the pair scores (t interval)."""
    from scipy.stats import t as student
    n = len(score)
    m = float(np.mean(score))
    if n < 2:
        return n, m, float("nan"), float("nan")
    h = float(student.ppf(0.975, n - 1) * np.std(score, ddof=1) / math.sqrt(n))
    return n, m, m - h, m + h


def main(argv=None):
    ap = game_parser(__doc__)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--out", default=None, help="folder of the finished batches (default: none kept)")
    args, mod = parse_game_args(ap, argv)

    import strategies
    from simcore.rng import game_seeds

    sa, sb = strategies.resolve(args.game, args.a), strategies.resolve(args.game, args.b)
    pa, pb = sa.as_policy(), sb.as_policy()
    k = args.players
    print(f"{args.game} {k}p: {args.a} vs {args.b}, seats swapped, seed {args.seed}; "
          f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    scores, cpu = [], 0.0
    at_cap = [0, 0]
    for start in range(0, args.pairs, args.batch):
        stop = min(args.pairs, start + args.batch)
        path = os.path.join(args.out, f"batch-{start:06d}-{stop:06d}.npz") if args.out else None
        if path and os.path.exists(path):
            with np.load(path) as z:
                s, c, caps = z["score"], float(z["cpu"]), z["caps"]
        else:
            seeds = game_seeds(args.seed, start, stop)
            t = time.process_time()
            one = mod.play_batch(k, seeds, [pa] + [pb] * (k - 1), events=False)
            two = mod.play_batch(k, seeds, [pb, pa] + [pb] * (k - 2), events=False)
            c = time.process_time() - t
            s = (one["players"]["win_share"][:, 0] + two["players"]["win_share"][:, 1]) / 2.0
            trig = [g["games"].get("end_trigger") for g in (one, two)]
            caps = np.array([int(np.count_nonzero(x == 2)) if x is not None and args.game == "akrotiri" else 0
                             for x in trig])
            if path:
                tmp = path + ".tmp.npz"
                np.savez(tmp, score=s, cpu=np.float64(c), caps=caps)
                os.replace(tmp, path)
        scores.append(s)
        cpu += c
        at_cap = [at_cap[0] + int(caps[0]), at_cap[1] + int(caps[1])]
        n, m, lo, hi = summary(np.concatenate(scores))
        print(f"  {n:5d} pairs: {args.a} scores {m:.3f} [{lo:.3f}, {hi:.3f}] = {elo(m):+.0f} Elo "
              f"[{elo(lo):+.0f}, {elo(hi):+.0f}]; {cpu / (2 * n):.2f} CPU s a game; "
              f"at the turn cap {sum(at_cap)} of {2 * n} games", flush=True)
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
