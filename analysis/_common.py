"""Shared plumbing for the analysis modules (private).

Every public analysis function accepts a polars ``DataFrame`` or ``LazyFrame``
and returns the same kind it was given: a ``LazyFrame`` in gives a
``LazyFrame`` out (functions that need numpy collect internally and hand back
``.lazy()``), a ``DataFrame`` in gives a ``DataFrame`` out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import polars as pl

Frame = pl.DataFrame | pl.LazyFrame

#: Columns that, when present, tell concatenated runs apart: a game is
#: identified by these plus ``game_index`` (``level``: the skill levels of a ladder, reports/ladder.py).
RUN_COLUMNS: tuple[str, ...] = ("run", "run_id", "variant", "level")


def ordered_sum(e: pl.Expr, whole: bool = False) -> pl.Expr:
    """``e.sum()`` in a group-by, with the same bits in every run: the values sorted, then added in order.

    A float ``sum()`` (and ``mean()``, ``std()``) over a group's rows adds
    them in the order polars' threads hand them over, which moved the last
    digit of a report's numbers from one run to the next. The whole-number
    parts are summed as they come (exactly, below 2^53); only the non-zero
    fractional parts are sorted (win shares: the tied games only). ``whole``:
    the caller knows every value is a whole number (an integer column), so
    the plain sum is exact and nothing is split or sorted.
    """
    if whole:
        return e.sum()
    units = e.floor()
    part = e - units          # whole numbers add up exactly in any order; only the fractions are sorted
    return units.sum() + part.filter(part != 0).sort().cum_sum().last().fill_null(0.0)


def run_starts(*columns: str) -> pl.Expr:
    """True on each row where any of ``columns`` differs from the row before (and on row 0): the first
    row of each run of equal keys in a sorted table."""
    return pl.any_horizontal([pl.col(c) != pl.col(c).shift(1) for c in columns]).fill_null(True)


def whole_numbers(frame: Frame, expr: pl.Expr) -> bool:
    """Whether ``expr`` over ``frame`` is of an integer or boolean type: its sums are exact in any order."""
    dtype = as_lazy(frame).select(expr).collect_schema().dtypes()[0]
    return dtype.is_integer() or dtype == pl.Boolean


#: A k-way tie gives each winner 1/k; times this (the lcm of 1..12) every such share is a whole number.
SHARE_UNITS = 27720


def share_sum(e: pl.Expr) -> pl.Expr:
    """Σ of win shares, exact: each share, 1/k of a k-way tie (k ≤ 12), counted in 1/SHARE_UNITS.

    Whole numbers add up the same in any order, so the sum has the same bits
    in every run (a float ``sum()`` in a group-by does not), and the float32
    storage error of a share like 1/3 does not pile up (it moved a million
    games' sum by 4e-4).
    """
    return (e.cast(pl.Float64) * SHARE_UNITS).round().cast(pl.Int64).sum() / SHARE_UNITS


def share_sum_np(w) -> float:
    """:func:`share_sum` of a numpy array of win shares."""
    return float(np.rint(np.asarray(w, dtype=np.float64) * SHARE_UNITS).astype(np.int64).sum() / SHARE_UNITS)


def share_square_sum(e: pl.Expr) -> pl.Expr:
    """Σ of squared win shares, exact as :func:`share_sum` (in 1/SHARE_UNITS², whole numbers below 2^63
    for up to 10^10 games): the observed variance of the shares, for intervals that ties narrow."""
    u = (e.cast(pl.Float64) * SHARE_UNITS).round().cast(pl.Int64)
    return (u * u).sum() / (SHARE_UNITS * SHARE_UNITS)


def share_square_sum_np(w) -> float:
    """:func:`share_square_sum` of a numpy array of win shares."""
    u = np.rint(np.asarray(w, dtype=np.float64) * SHARE_UNITS).astype(np.int64)
    return float((u * u).sum() / (SHARE_UNITS * SHARE_UNITS))


def ordered_mean(e: pl.Expr, whole: bool = False) -> pl.Expr:
    """``e.mean()`` from :func:`ordered_sum` (nulls left out, as ``mean()`` does)."""
    return ordered_sum(e, whole) / e.count()


def ordered_sd(e: pl.Expr, whole: bool = False) -> pl.Expr:
    """``e.std()`` (ddof 1; null below two values) from the :func:`ordered_sum` of ``e`` and ``e²``: the
    same bits every run; for whole numbers both sums are exact, so nothing is sorted."""
    n = e.count()
    s1, s2 = ordered_sum(e, whole), ordered_sum(e * e, whole)
    return pl.when(n > 1).then(((s2 - s1 * s1 / n) / (n - 1)).clip(lower_bound=0.0).sqrt())


def as_lazy(frame: Frame) -> pl.LazyFrame:
    """Return ``frame`` as a LazyFrame (no copy for a DataFrame's data)."""
    if isinstance(frame, pl.LazyFrame):
        return frame
    if isinstance(frame, pl.DataFrame):
        return frame.lazy()
    raise TypeError(
        f"expected a polars DataFrame or LazyFrame, got {type(frame).__name__} "
        "(convert pandas with polars.from_pandas)"
    )


def like(result: Frame, template: Frame) -> Frame:
    """Return ``result`` as the same kind (lazy or eager) as ``template``."""
    if isinstance(template, pl.LazyFrame):
        return result if isinstance(result, pl.LazyFrame) else result.lazy()
    return result.collect() if isinstance(result, pl.LazyFrame) else result


def as_list(by: str | Iterable[str] | None) -> list[str]:
    """Normalise a group-by parameter: None, a name, or names."""
    if by is None:
        return []
    if isinstance(by, str):
        return [by]
    return list(by)


def columns(frame: Frame) -> list[str]:
    """Column names without collecting."""
    return frame.collect_schema().names() if isinstance(frame, pl.LazyFrame) else frame.columns


def game_keys(frame: Frame, by: Sequence[str]) -> list[str]:
    """Columns that identify one game: the groups, any run column, ``game_index``."""
    cols = columns(frame)
    keys = list(by)
    keys += [c for c in RUN_COLUMNS if c in cols and c not in keys]
    return keys + ["game_index"]


#: Optional column of a stacked table: one integer per game, ascending through
#: the table (flagged sorted). When present, per-game windows group by it alone,
#: which polars does in slices instead of a hash table per game.
GAME_KEY = "game_key"


def game_partition(frame: Frame, keys: Sequence[str]) -> list[str]:
    """The columns a per-game window groups by: ``GAME_KEY`` when it identifies the game of ``keys``.

    ``keys`` is a :func:`game_keys` list; ``GAME_KEY`` stands for it when the
    other keys are run-level columns (constant within a game).
    """
    if GAME_KEY in columns(frame) and set(keys) <= {*RUN_COLUMNS, "n_players", "game_index"}:
        return [GAME_KEY]
    return list(keys)


def game_ids(part: pl.DataFrame, cols: Sequence[str]):
    """One integer per row naming its game: the ``GAME_KEY`` column itself (ascending, so
    ``analysis.stats.cluster_codes`` numbers it in one pass), else a hash of ``cols``."""
    if list(cols) == [GAME_KEY]:
        return part[GAME_KEY].to_numpy()
    return part.select(pl.struct(list(cols)).hash()).to_series().to_numpy()


def whole_games(frame: Frame, keys: Sequence[str], columns_: Sequence[str]):
    """``(key values, {column: (games, n) array})`` when ``frame`` is whole games in ``GAME_KEY`` order.

    That is: one group of ``keys`` (one run of a report's batch), ``n_players`` rows a
    game, consecutive, in seat order. Per-game statistics are then row-wise numpy over
    a (games, n) matrix instead of a window per game. ``None`` otherwise (the caller
    takes its general polars path); a LazyFrame is collected with only the columns needed.
    """
    cols = columns(frame)
    if GAME_KEY not in cols or "n_players" not in keys or "seat" not in cols:
        return None
    df = as_lazy(frame).select(*dict.fromkeys([*keys, GAME_KEY, "seat", *columns_])).collect()
    if df.height == 0 or df.select(pl.struct(list(keys)).n_unique()).item() != 1:
        return None
    key = df.row(0, named=True)
    n = int(key["n_players"])
    if n < 1 or df.height % n:
        return None
    g = df[GAME_KEY].to_numpy().reshape(-1, n)
    seat = df["seat"].to_numpy().reshape(-1, n)
    if not ((g == g[:, :1]).all() and (g[1:, 0] > g[:-1, 0]).all() and (seat == np.arange(n)).all()):
        return None
    return {k: key[k] for k in keys}, {c: df[c].to_numpy().reshape(-1, n) for c in columns_}


def require(frame: Frame, needed: Iterable[str], what: str) -> None:
    """Raise a clear error when ``frame`` lacks columns ``what`` needs."""
    cols = set(columns(frame))
    missing = [c for c in needed if c not in cols]
    if missing:
        raise ValueError(f"{what} needs column(s) {missing}; the table has {sorted(cols)}")


def with_n_players(frame: pl.LazyFrame, by: Sequence[str]) -> pl.LazyFrame:
    """Add ``n_players`` (rows per game) unless the table already has it."""
    if "n_players" in columns(frame):
        return frame
    keys = game_keys(frame, by)
    return frame.with_columns(pl.len().over(keys).cast(pl.Int64).alias("n_players"))


def group_keys(frame: Frame, by: Sequence[str]) -> list[str]:
    """The groups, then ``n_players`` when the table has it (results are split by it)."""
    return [*by, "n_players"] if "n_players" in columns(frame) else list(by)


def parts(frame: Frame, keys: Sequence[str], needed: Sequence[str]):
    """Yield ``(key tuple, DataFrame of the needed columns)`` per group, in order of appearance.

    Like ``df.group_by(keys, maintain_order=True)`` on the collected table, but
    a group is collected alone and with only ``needed`` (and ``keys``): a
    numpy fit over one group holds that group's columns, not the whole table.
    """
    lf = as_lazy(frame)
    keys = list(keys)
    cols = list(dict.fromkeys([*keys, *needed]))
    found = lf.select(keys).unique(maintain_order=True).collect(engine="streaming")
    for key in found.iter_rows():
        cond = pl.lit(True)
        for k, v in zip(keys, key):
            cond = cond & pl.col(k).eq_missing(pl.lit(v, dtype=found.schema[k]))
        yield key, lf.filter(cond).select(cols).collect()


def add_up(frames: Iterable[Frame], keys: Sequence[str]) -> pl.DataFrame:
    """Add up per-batch sums: ``frames`` (one per batch of games) summed column-wise per ``keys``.

    The counterpart of the ``*_sums`` functions, whose columns are counts and sums:
    the sums of several batches of whole games are those of all the games.
    """
    frames = [f.collect() if isinstance(f, pl.LazyFrame) else f for f in frames]
    keys = list(keys)
    return pl.concat(frames).group_by(keys).agg(pl.all().sum()).sort(keys)


def sd_from_sums(s: str, ss: str, n: str) -> pl.Expr:
    """The sample SD (ddof 1) of values whose count, sum and sum of squares are the columns given."""
    n_ = pl.col(n).cast(pl.Float64)
    s_ = pl.col(s).cast(pl.Float64)
    var = (pl.col(ss).cast(pl.Float64) - s_ * s_ / n_) / (n_ - 1.0)
    return pl.when(pl.col(n) > 1).then(var.clip(lower_bound=0.0).sqrt()).otherwise(None)
