"""Coverage of compare's intervals over re-runs with fresh seeds (issue 37), on the real engine.

    PYTHONPATH=. python bench/bench_intervals.py [--game hellas] [--players 3] [--reruns 200]
        [--games 100] [--strategies balanced,temple_builder,city_builder,random]

Each re-run plays the compare design (every lineup of the strategies, ``--games`` games per
lineup, every lineup from one run seed: common random numbers) with a new seed, and builds
``reports.compare.compare_tables``. For every figure with an interval — head-to-head shares,
win share over all seats, win share per strategy and seat, Bradley–Terry Elo — it prints the
spread of the estimates over the re-runs divided by the mean reported standard error (half-width
/ z), and the coverage of the re-runs' mean (the truth, to within spread/sqrt(reruns)) by the
reported 95% intervals: ``old`` (Wilson on independent trials, the intervals before issue 37)
and ``new`` (clustered by seed), with the mean width new/old.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import polars as pl


def compare_players(game, players, names, games, seed):
    """The players table of one compare run (as ``run_compare`` would write it), by ``play_batch``."""
    import simcore
    import strategies
    from reports.compare import lineups
    from simcore._contract import policy_argument
    from simcore.rng import chunk_seeds

    mod = simcore.games[game]
    pol = {n: policy_argument(mod, strategies.resolve(game, n).to_dict()) for n in names}
    cfg = mod.make_config(players)
    seeds = chunk_seeds(seed, 0, games)
    frames = []
    for lineup in lineups(names, players):
        out = mod.play_batch(players, seeds, [pol[n] for n in lineup], config=cfg, events=False)["players"]
        g = len(seeds)
        frames.append(pl.DataFrame({
            "lineup": ["|".join(lineup)] * (g * players),
            "game_index": np.repeat(np.arange(g), players),
            "seat": np.tile(np.arange(players), g),
            "n_players": np.full(g * players, players),
            "strategy": list(lineup) * g,
            "rank": np.asarray(out["rank"]).reshape(-1),
            "total": np.asarray(out["total"]).reshape(-1),
            "win_share": np.asarray(out["win_share"], dtype=np.float64).reshape(-1)}))
    return pl.concat(frames)


def figures(df):
    """{figure kind: (keys, estimates, new lo, new hi, old lo, old hi)} of one re-run's compare tables."""
    from analysis.stats import wilson_bounds
    from reports.compare import compare_tables

    t = compare_tables(df, "lineup")
    out = {}
    pw = t["pairwise"].filter(pl.col("strategy") < pl.col("opponent")).sort("strategy", "opponent")
    olo, ohi = wilson_bounds(pw["wins"].to_numpy(), pw["n"].to_numpy())
    out["head-to-head share"] = (pw.select(pl.format("{} v {}", "strategy", "opponent"))[:, 0].to_list(),
                                 pw["win_share"].to_numpy(), pw["lo"].to_numpy(), pw["hi"].to_numpy(), olo, ohi)
    m = t["win_share_matrix"].sort("strategy")
    share = df.group_by("strategy").agg(pl.col("win_share").mean().alias("s"),
                                        pl.len().alias("rows")).sort("strategy")
    games = m["all seats games"].to_numpy()
    s = share["s"].to_numpy()
    olo, ohi = wilson_bounds(s * games, games)
    out["win share, all seats"] = (m["strategy"].to_list(), s, m["all seats lo"].to_numpy() / 100,
                                   m["all seats hi"].to_numpy() / 100, olo, ohi)
    a = t["win_share_by_seat"].sort("strategy", "seat")
    olo, ohi = wilson_bounds(a["wins"].to_numpy(), a["n"].to_numpy())
    out["win share by seat"] = (a.select(pl.format("{} seat {}", "strategy", "seat"))[:, 0].to_list(),
                                a["win_share"].to_numpy(), a["win_lo"].to_numpy(), a["win_hi"].to_numpy(), olo, ohi)
    from analysis.ratings import bradley_terry

    r = t["ratings"].sort("strategy")
    old = bradley_terry(df.rename({"lineup": "run"})).sort("strategy")      # clustered by game, not by seed
    out["Bradley-Terry Elo"] = (r["strategy"].to_list(), r["elo"].to_numpy(), r["elo_lo"].to_numpy(),
                                r["elo_hi"].to_numpy(), old["elo_lo"].to_numpy(), old["elo_hi"].to_numpy())
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="hellas")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--reruns", type=int, default=200)
    ap.add_argument("--games", type=int, default=100, help="games per lineup")
    ap.add_argument("--strategies", default="balanced,temple_builder,city_builder,random")
    ap.add_argument("--seed0", type=int, default=1000)
    a = ap.parse_args(argv)
    names = a.strategies.split(",")
    t0 = time.perf_counter()
    runs = [figures(compare_players(a.game, a.players, names, a.games, a.seed0 + i)) for i in range(a.reruns)]
    z = 1.959964
    print(f"{a.game} {a.players}p, {len(names)} strategies, {a.games} games a lineup, {a.reruns} re-runs "
          f"({time.perf_counter() - t0:.0f} s)")
    print(f"{'figure':<24} {'item':<34} {'spread/SE old':>13} {'new':>6} {'cover old':>9} {'new':>5} {'width new/old':>13}")
    for kind in runs[0]:
        keys = runs[0][kind][0]
        est, lo, hi, olo, ohi = (np.array([r[kind][j] for r in runs]) for j in range(1, 6))
        truth = est.mean(axis=0)
        spread = est.std(axis=0, ddof=1)
        new_se = ((hi - lo) / (2 * z)).mean(axis=0)
        old_se = ((ohi - olo) / (2 * z)).mean(axis=0)
        cov_new = ((lo <= truth) & (truth <= hi)).mean(axis=0)
        cov_old = ((olo <= truth) & (truth <= ohi)).mean(axis=0)
        for i, k in enumerate(keys):
            print(f"{kind:<24} {k:<34} {spread[i] / old_se[i]:>13.2f} {spread[i] / new_se[i]:>6.2f} "
                  f"{cov_old[i] * 100:>8.1f}% {cov_new[i] * 100:>4.1f}% {new_se[i] / old_se[i]:>13.3f}")
        print(f"{kind:<24} {'(all items)':<34} {np.mean(spread / old_se):>13.2f} {np.mean(spread / new_se):>6.2f} "
              f"{np.mean(cov_old) * 100:>8.1f}% {np.mean(cov_new) * 100:>4.1f}% {np.mean(new_se / old_se):>13.3f}")


if __name__ == "__main__":
    main()
