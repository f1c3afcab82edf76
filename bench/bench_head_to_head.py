"""Two strategies head to head, seats swapped, as an Elo difference with a 95 % interval.

    python bench/bench_head_to_head.py A B [--game akrotiri] [--players 2] [--pairs 200]
                                           [--batch 10] [--seed 1] [--out DIR]

Pair ``i`` is two games dealt from the same seed (``game_seeds(seed, i)``): A in seat 0 and B in
seat 1, then the seats swapped (2 players only: with more, swapping two seats leaves the other
seats' advantage in the score; ``bench_one_seat.py`` puts A in every seat in turn). The pair's score
is A's mean win share over its two games (ties shared), so the deal and the seat cancel within a
pair and the pairs are independent: the mean score's 95 % interval is the t interval over pairs
(clustered by seed, as ``reports.compare`` clusters), and the Elo difference ``400 log10(p / (1 -
p))`` and its interval are the score's and its bounds' images. Also: each
strategy's process CPU seconds a game (its seat's share is not separable: the whole pair's time
with the seats it plays).

Pairs are played ``--batch`` at a time in this process (``play_batch``, one thread) and each batch
is kept in ``--out`` (``.npz``): a rerun resumes, and the report is printed after every batch, so
a run stopped at any time still gives its estimate. Everything is drawn from ``--seed``.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_one_seat import elo, summary  # noqa: E402
from game_args import game_parser, parse_game_args  # noqa: E402

import numpy as np  # noqa: E402


def main(argv=None):
    ap = game_parser(__doc__)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--out", default=None, help="folder of the finished batches (default: none kept)")
    args, mod = parse_game_args(ap, argv)
    if args.players != 2:
        ap.error(f"--players {args.players}: head to head is 2 players (seats swapped); for more, "
                 f"bench/bench_one_seat.py puts A in every seat in turn")

    import strategies
    from simcore.rng import game_seeds

    try:
        sa, sb = strategies.resolve(args.game, args.a), strategies.resolve(args.game, args.b)
    except ValueError as e:
        ap.error(str(e).splitlines()[0])
    pa, pb = sa.as_policy(), sb.as_policy()
    k = args.players
    if args.out:            # the kept batches are of these settings only: a rerun with others would mix them
        os.makedirs(args.out, exist_ok=True)
        key = {"game": args.game, "a": sa.to_dict(), "b": sb.to_dict(), "seed": args.seed}
        kfile = os.path.join(args.out, "key.json")
        if os.path.exists(kfile):
            with open(kfile) as f:
                if json.load(f) != json.loads(json.dumps(key)):
                    ap.error(f"{args.out} holds pairs of other settings (game, A, B or seed): give another --out")
        else:
            with open(kfile, "w") as f:
                json.dump(key, f)
    print(f"{args.game} {k}p: {args.a} vs {args.b}, seats swapped, seed {args.seed}; "
          f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
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
