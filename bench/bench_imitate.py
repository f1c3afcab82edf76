"""How much of the Elo gap between ``balanced`` and MCTS-400 a preset fitted to MCTS closes.

    python bench/bench_imitate.py                       # Hellas 3p: imitate MCTS-400, then compare
    python bench/bench_imitate.py --preset FILE         # compare an existing preset instead
    python bench/bench_imitate.py --game hellas --players 2 --games 600 --also tuned
    python bench/bench_imitate.py --game akrotiri --players 2 --positions 8000 --games 600

1. Imitation (``strategies.imitate``, what ``boardlab tune GAME --imitate
   mcts:iterations=400`` runs): ``--positions`` decisions of MCTS self-play,
   conditional-logit fit of the heuristic's weights; the preset goes to
   ``--out-preset``.
2. A comparison (``reports.compare.run_compare``, what ``boardlab compare``
   runs: every seating of the strategies, common random numbers) of
   ``balanced``, the fitted preset and ``mcts:iterations=N`` (plus ``--also``).
3. Bradley–Terry ratings (``analysis.ratings.bradley_terry``, cluster-robust
   95 % CIs) and the gap-closed fraction ``(R_fit - R_balanced) / (R_mcts -
   R_balanced)`` with a 95 % percentile bootstrap CI over games (the rating
   fit redone on each resample of whole games).

Figures of the last run (2026-12-04, load 18-27 on 2 cores; bench/README.md, "Imitation of search"):
Hellas 3p, 1,200 games: the imitated preset closes 11.2 % of the 384-Elo gap (95 % CI 5.8-16.4 %),
``tuned`` 29.2 % (24.5-35.3 %); Hellas 2p, 600 games: 3.9 % of 939 Elo (-0.8 to 8.4 %).
Akrotiri 2p, 600 games (with the score's offset): 5.4 % of 337 Elo (-13.5 to 20.7 %; ``balanced`` at
epsilon 0 20.7 %); Yamataï 3p, 360 games: -12.7 % of 493 Elo (-21.3 to -5.2 %) (2026-12-04, load 5-10).
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np
import polars as pl

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import strategies  # noqa: E402
from analysis.ratings import ELO_SCALE, bradley_terry  # noqa: E402
from reports.compare import run_compare  # noqa: E402


def ratings(players):
    """``{strategy: theta}`` of a players frame (Bradley–Terry)."""
    bt = bradley_terry(players)
    return dict(zip(bt["strategy"].to_list(), bt["theta"].to_list())), bt


def gap_closed(theta, low, new, high):
    return (theta[new] - theta[low]) / (theta[high] - theta[low])


def bootstrap(players, low, new, high, reps, seed):
    """Percentile 95 % CI of the gap-closed fraction, resampling whole games."""
    games = players.select("lineup", "game_index").unique().sort("lineup", "game_index")
    games = games.with_row_index("unit")
    p = players.join(games, on=["lineup", "game_index"])
    rng = np.random.default_rng(seed)
    n = games.height
    out = []
    for _ in range(reps):
        pick = pl.DataFrame({"unit": rng.integers(0, n, n).astype(np.uint32)}).with_row_index("draw")
        sample = pick.join(p, on="unit").with_columns(pl.col("draw").alias("game_index"))
        try:
            out.append(gap_closed(ratings(sample.drop("lineup"))[0], low, new, high))
        except (ValueError, ZeroDivisionError):
            continue
    return np.percentile(out, [2.5, 97.5]), len(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="hellas")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=400, help="the MCTS teacher's and rival's iterations")
    ap.add_argument("--positions", type=int, default=5000, help="decisions to imitate")
    ap.add_argument("--target", choices=("best", "visits"), default="best")
    ap.add_argument("--preset", default=None, help="a preset file to rate instead of imitating")
    ap.add_argument("--out-preset", default=None, help="where the fitted preset goes (default: a temp folder)")
    ap.add_argument("--also", default="", help="more strategies in the comparison, comma-separated")
    ap.add_argument("--games", type=int, default=600, help="comparison games in all")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--bootstrap", type=int, default=200, help="bootstrap resamples")
    ap.add_argument("--out", default=None, help="comparison folder (default: a temp folder)")
    a = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="bench-imitate-")
    t0 = time.process_time()
    mcts = f"mcts:iterations={a.iterations}"
    if a.preset is None:
        from analysis.stats import wilson_bounds
        from strategies.imitate import imitate, write_preset
        res = imitate(a.game, a.players, mcts, a.positions, a.seed, target=a.target,
                      log=lambda s: print(s, flush=True))
        res["ci"] = wilson_bounds(res["wins"], res["n"])
        a.preset = a.out_preset or os.path.join(tmp, f"{a.game}_imitated.toml")
        write_preset(a.preset, "imitated", res, a.game)
        print(f"imitation: {res['positions']} decisions of {res['games']} games, collected in "
              f"{res['collect_seconds']:.0f} s; win share in one seat vs balanced {res['win_share']:.3f} "
              f"(95% CI {res['ci'][0]:.3f}-{res['ci'][1]:.3f}, n={res['n']}); preset {a.preset}")
    new = strategies.resolve(a.game, a.preset)
    strats = {"balanced": strategies.resolve(a.game, "balanced"), new.name: new,
              mcts: strategies.resolve(a.game, mcts)}
    for name in strategies.split_names(a.also):
        if name:
            strats[name] = strategies.resolve(a.game, name)
    labels = {k: s.name for k, s in strats.items()}          # the players table holds Strategy.name
    out = a.out or os.path.join(tmp, "compare")
    t1 = time.perf_counter()
    rs = run_compare(a.game, a.players, strats, a.games, a.seed, out, workers=a.workers,
                     log=lambda s: print(s, flush=True))
    players = rs.scan("players").select("lineup", "game_index", "seat", "strategy", "rank").collect()
    players = players.with_columns(pl.col("lineup").cast(pl.String))
    # game indexes repeat across lineups: number the games afresh for the ratings
    keyed = players.with_columns(pl.struct("lineup", "game_index").rank("dense").alias("game_index"))
    theta, bt = ratings(keyed.drop("lineup"))
    n_games = keyed["game_index"].n_unique()
    print(f"\n{a.game}, {a.players} players, {n_games} games ({len(rs.labels)} seatings), "
          f"{time.perf_counter() - t1:.0f} s wall:")
    for row in bt.sort("elo", descending=True).iter_rows(named=True):
        print(f"  {row['strategy']:<24} Elo {row['elo']:7.1f} (95% CI {row['elo_lo']:.1f}-{row['elo_hi']:.1f}), "
              f"{row['n']} comparisons")
    low, hi_ = labels["balanced"], labels[mcts]
    print(f"Elo gap balanced -> {mcts}: {(theta[hi_] - theta[low]) * ELO_SCALE:.0f}")
    for nm in [labels[k] for k in strats if labels[k] not in (low, hi_)]:      # the preset, then --also
        frac = gap_closed(theta, low, nm, hi_)
        (lo, hi), reps = bootstrap(players, low, nm, hi_, a.bootstrap, a.seed)
        print(f"  {nm} closes {frac:.1%} of it (95% CI {lo:.1%} to {hi:.1%}, bootstrap over {n_games} games, "
              f"{reps} resamples)")
    print(f"CPU {time.process_time() - t0:.0f} s in this process (workers' time not included)")


if __name__ == "__main__":
    main()
