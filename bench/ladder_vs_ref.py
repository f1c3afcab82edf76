"""A small ladder against one reference strategy: ratings and each one's distance to the reference.

    python bench/ladder_vs_ref.py --game yamatai --players 3 \
        --names "balanced;learned;mcts:iterations=400" --games 90 --out DIR [--ref NAME] [--boot 300]

The design is ``boardlab ladder``'s (``reports/ladder.py``: every set of ``players`` distinct strategies
in its cyclic seat rotations, game i of every seating dealt from one seed, blocks without a search 50
times the games), played with one worker from ``--seed``; the ratings are ``reports.compare``'s
(Bradley–Terry, Elo scale, 95 % CIs clustered by game index). A small pool puts every game of an
expensive reference (MCTS-400) into the comparison that matters. Each strategy's rating less the
reference's gets a cluster bootstrap 95 % interval (``--boot`` resamples of the game indices, the
Bradley–Terry fit redone on each). The runs are kept under ``--out`` (a rerun resumes).
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import polars as pl  # noqa: E402

import strategies  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="yamatai")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--names", required=True, help="the pool, ';'-separated (strategy names hold commas)")
    ap.add_argument("--games", type=int, default=90, help="ladder games per strategy, at least")
    ap.add_argument("--ref", default="mcts:iterations=400")
    ap.add_argument("--boot", type=int, default=300)
    ap.add_argument("--boot-seed", type=int, default=0, help="seed of the bootstrap's resamples")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/ladder-vs-ref")
    a = ap.parse_args()

    from reports.ladder import LadderPlan, play_ladder

    g, names = a.game, [n for n in a.names.split(";") if n]
    if a.ref not in names:
        sys.exit(f"boardlab: error: --ref {a.ref!r} is not in --names")
    pool = {}
    for n in names:
        s = strategies.resolve(g, n)
        pool[n] = s if s.name == n else strategies.Strategy(**{**s.__dict__, "name": n})
    plan = LadderPlan(g, a.players, pool, games=a.games, seed=a.seed)
    print(f"{g} {a.players}p: {plan.summary()}; load {os.getloadavg()[0]:.1f}", flush=True)
    t0 = time.perf_counter()
    rs = play_ladder(plan, os.path.join(a.out, f"{g}-{a.players}p"), workers=1,
                     log=lambda m: print("  " + m, file=sys.stderr, flush=True))
    print(f"ladder: {sum(rs.n_games().values()):,} games, {time.perf_counter() - t0:.0f} s wall; "
          f"load {os.getloadavg()[0]:.1f}\n")
    summarize(rs, names, a.ref, a.boot, a.boot_seed)


def summarize(rs, names, ref, boot, boot_seed=0):
    """Print the ratings of a ladder's RunSet and each strategy's distance to ``ref`` (bootstrap CI)."""
    from ladder_diff import ratings, resampled
    from reports.compare import compare_tables

    r = {row["strategy"]: row for row in compare_tables(rs.players, rs.group)["ratings"].iter_rows(named=True)}
    print("| strategy | Elo [95% CI] | games |\n|---|---|---|")
    for n in names:
        print(f"| {n} | {r[n]['elo']:.0f} [{r[n]['elo_lo']:.0f}, {r[n]['elo_hi']:.0f}] | {r[n]['n_games']:,} |")

    P = rs.players.collect() if isinstance(rs.players, pl.LazyFrame) else rs.players
    P = P.with_columns(pl.col(rs.group).cast(pl.String)).drop("game_key", strict=False).rename({rs.group: "run"})
    base = ratings(P)
    idx = P["game_index"].unique()
    fits = resampled(P, boot, np.random.default_rng(boot_seed))
    diffs = {n: [e[n] - e[ref] for e in fits] for n in names if n != ref}
    print()
    for n, d in diffs.items():
        lo, hi = np.percentile(d, [2.5, 97.5])
        print(f"{n} - {ref}: {base[n] - base[ref]:+.0f} Elo, cluster bootstrap 95% [{lo:+.0f}, {hi:+.0f}] "
              f"({len(idx)} game indices, {boot} resamples)")


if __name__ == "__main__":
    main()
