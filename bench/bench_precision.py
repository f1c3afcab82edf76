"""Variance-reduction factor of a cheap control on common seeds, per game and player count (issue 33).

    PYTHONPATH=. python bench/bench_precision.py [--expensive mcts:iterations=50] [--control balanced]
                                                 [--seconds 120] [--control-games 20000] [--games-only hellas]

For each game and player count: the expensive agent in every seat plays games
``0..n-1`` of a run seed (batches of 10 until ``--seconds`` of CPU are spent);
each control plays games ``0..N-1`` of the same seed (``--control-games``, the
first ``n`` paired with the expensive games: the same deals). Per seat,
``analysis.precision.control_variate`` (10 folds by game index) gives the
variance-reduction factor ``Var(plain mean) / Var(control-variate mean)`` and
the effective number of plain games; the table prints the mean over seats
with two control sets: the control's win share in the same seat, and every
seat's win share and total score ("all"). The factor is what the control buys
a ``--precision`` run: the games it needs are divided by it.

    PYTHONPATH=. python bench/bench_precision.py --rerate LADDER_DIR [--against mcts:iterations=400]

re-rates a kept ladder (its ``seating-*`` results folders, e.g. ``bench/bench_learned.py --out``'s) with
the current intervals: each strategy's rating, its seeds (clusters) and 95% CI, and the head-to-head
shares against ``--against`` (issue 33: a recorded ladder's intervals from few seeds).
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import simcore  # noqa: E402
import strategies  # noqa: E402
from analysis.precision import control_variate  # noqa: E402
from simcore.rng import chunk_seeds  # noqa: E402


def play(mod, players, policy, seeds):
    out = mod.play_batch(players, seeds, [policy] * players, events=False)["players"]
    n = len(seeds)
    w = np.asarray(out["win_share"], dtype=float).reshape(n, players)
    s = np.asarray(out["total"], dtype=float).reshape(n, players)
    return w, s


def measure(name, players, expensive, controls, seconds, control_games, seed, batch=10, min_games=40):
    mod = simcore.games[name]
    pol = strategies.resolve(name, expensive).as_policy()
    ys = []
    t0 = time.thread_time()
    n = 0
    while time.thread_time() - t0 < seconds or n < min_games:
        w, _ = play(mod, players, pol, chunk_seeds(seed, n, n + batch))
        ys.append(w)
        n += batch
    cpu = (time.thread_time() - t0) / n
    y = np.concatenate(ys)
    rows = []
    for cname in controls:
        cpol = strategies.resolve(name, cname).as_policy()
        N = max(control_games, n)
        xw, xs = play(mod, players, cpol, chunk_seeds(seed, 0, N))
        same, full = [], []
        folds = min(10, n // 4)
        for seat in range(players):
            e = control_variate(y[:, seat], xw[:n, seat], x_control=xw[:, seat], folds=folds)
            same.append(e.factor)
            xa = np.concatenate([xw[:, :players - 1], xs / max(xs.std(), 1e-9)], axis=1)
            f = control_variate(y[:, seat], xa[:n], x_control=xa, folds=folds)
            full.append(f.factor)
        rows.append((cname, n, cpu, float(np.mean(same)), float(np.min(same)), float(np.max(same)),
                     float(np.mean(full))))
    return rows


def rerate(folder, against=None):
    """The ratings (and head-to-heads against ``against``) of the ladder kept in ``folder``."""
    import polars as pl

    from analysis import load_run
    from analysis.ratings import rating_text
    from reports.compare import compare_tables

    frames = []
    for d in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if d.startswith("seating-") and os.path.isdir(os.path.join(folder, d)):
            run = load_run(os.path.join(folder, d), allow_partial=True)
            frames.append(run.players.collect().with_columns(pl.lit(d).alias("lineup")))
    if not frames:
        raise SystemExit(f"bench/bench_precision.py: error: no seating-* results folders in {folder}")
    t = compare_tables(pl.concat(frames, how="diagonal_relaxed"), "lineup")
    print(f"| strategy | games | seeds | Elo [95% CI] |\n|---|---|---|---|")
    for r in t["ratings"].iter_rows(named=True):
        print(f"| {r['strategy']} | {r['n_games']:,} | {r['clusters']} | {rating_text(r)} |")
    if against:
        pw = t["pairwise"].filter(pl.col("opponent") == against)
        print(f"\n| strategy | against {against}: share of pairs ahead [95% CI] | pairs | seeds |\n|---|---|---|---|")
        for r in pw.iter_rows(named=True):
            print(f"| {r['strategy']} | {r['win_share'] * 100:.1f} % [{r['lo'] * 100:.1f}, {r['hi'] * 100:.1f}] | "
                  f"{r['n']} | {r['clusters']} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expensive", default="mcts:iterations=50")
    ap.add_argument("--control", default="balanced,random", help="comma-separated control strategies")
    ap.add_argument("--seconds", type=float, default=120.0, help="CPU seconds of expensive games per row")
    ap.add_argument("--control-games", type=int, default=20_000)
    ap.add_argument("--games-only", default=None)
    ap.add_argument("--players", default=None, help="comma-separated player counts (default: all)")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--rerate", default=None, metavar="LADDER_DIR",
                    help="re-rate a kept ladder's seating-* folders with the current intervals, then stop")
    ap.add_argument("--against", default=None, help="with --rerate: the head-to-heads against this strategy")
    args = ap.parse_args()
    if args.rerate:
        return rerate(args.rerate, args.against)
    names = args.games_only.split(",") if args.games_only else [n for n in ("hellas", "yamatai", "akrotiri")
                                                                 if n in simcore.games]
    print(f"expensive {args.expensive} in every seat; control on the same seeds, {args.control_games:,} games; "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'game':<10}{'players':>8}{'control':>10}{'n':>7}{'CPU s/game':>11}{'factor (same seat)':>20}"
          f"{'[min, max] seats':>18}{'factor (all)':>14}")
    for name in names:
        mod = simcore.games[name]
        pcs = [int(p) for p in args.players.split(",")] if args.players else list(mod.PLAYERS)
        for p in pcs:
            if p not in mod.PLAYERS:
                continue
            for cname, n, cpu, f, lo, hi, fa in measure(name, p, args.expensive, args.control.split(","),
                                                         args.seconds, args.control_games, args.seed):
                print(f"{name:<10}{p:>8}{cname:>10}{n:>7}{cpu:>11.3f}{f:>20.3f}{f'[{lo:.2f}, {hi:.2f}]':>18}"
                      f"{fa:>14.3f}", flush=True)
    print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
