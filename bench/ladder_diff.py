"""The Elo difference of two strategies of a finished ladder, with a cluster-bootstrap 95 % interval.

    python bench/ladder_diff.py FOLDER A B [--resamples 400] [--seed 1]

``FOLDER`` holds a ladder's seatings (``seating-*/players/*.parquet``, as ``boardlab ladder`` and
``bench/bench_learned.py`` write them, e.g. ``/tmp/bench-learned/hellas-4p``). The ratings are the
ladder's (``analysis.ratings.bradley_terry``, each seating a run); the difference ``A - B`` gets its
interval from resampling the game indices with replacement (game ``i`` of every seating is dealt
from one seed, so the game index is the independent unit, as the ladder's own intervals cluster):
the 2.5 and 97.5 percentiles of the refitted differences. The ladder prints each rating's interval,
not the difference's; the two ratings share their games, so their intervals do not give it.
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402


def load(folder):
    frames = []
    for sd in sorted(glob.glob(os.path.join(folder, "seating-*"))):
        parts = sorted(glob.glob(os.path.join(sd, "players", "*.parquet")))
        if parts:
            frames.append(pl.read_parquet(parts).select("game_index", "seat", "strategy", "rank", "win_share")
                          .with_columns(pl.lit(os.path.basename(sd)).alias("run")))
    if not frames:
        raise SystemExit(f"bench/ladder_diff.py: error: {folder} holds no ladder seatings (seating-*/players)")
    return pl.concat(frames)


def ratings(players):
    """``{strategy: Elo}`` of one Bradley–Terry fit over ``players`` (a ``run`` column: each seating a run)."""
    from analysis.ratings import bradley_terry
    t = bradley_terry(players, robust=False)
    return dict(zip(t["strategy"].to_list(), t["elo"].to_list()))


def difference(players, a, b):
    elo = ratings(players)
    return elo[a] - elo[b]


def resampled(players, resamples, rng):
    """The ratings (:func:`ratings`) of ``resamples`` cluster-bootstrap resamples of ``players``: the game
    indices drawn with replacement by ``rng``, each draw a new index (its games kept apart from another
    draw's copy); a list of ``{strategy: Elo}``."""
    index = players["game_index"].unique().sort().to_numpy()
    parts = {g: df for (g,), df in players.group_by(["game_index"])}
    dtype = players["game_index"].dtype
    out = []
    for _ in range(resamples):
        pick = rng.choice(index, size=len(index), replace=True)
        out.append(ratings(pl.concat([parts[g].with_columns(pl.lit(j, dtype=dtype).alias("game_index"))
                                      for j, g in enumerate(pick)])))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--resamples", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    p = load(args.folder)
    known = set(p["strategy"].unique().to_list())
    for s in (args.a, args.b):
        if s not in known:
            raise SystemExit(f"bench/ladder_diff.py: error: {s!r} is not in the ladder ({', '.join(sorted(known))})")
    if args.resamples < 2:
        raise SystemExit(f"bench/ladder_diff.py: error: --resamples must be at least 2, not {args.resamples}")
    d0 = difference(p, args.a, args.b)
    index = p["game_index"].unique()
    rng = np.random.default_rng(np.random.SeedSequence([args.seed, 0x646966]))
    ds = np.array([e[args.a] - e[args.b] for e in resampled(p, args.resamples, rng)])
    games = p.select("run", "game_index").n_unique()
    print(f"{args.a} - {args.b}: {d0:+.1f} Elo, 95% [{np.percentile(ds, 2.5):+.1f}, {np.percentile(ds, 97.5):+.1f}] "
          f"(cluster bootstrap, {len(ds)} resamples of {len(index)} game indices; se {ds.std(ddof=1):.1f}; "
          f"{games:,} games)")


if __name__ == "__main__":
    main()
