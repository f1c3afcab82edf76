"""Convergence: how the precision of headline numbers grows with games played.

:func:`cumulative_estimates` recomputes an estimate and its interval on the
first N games, for log-spaced N (games taken in ``game_index`` order, i.e.
the order the runner played them); :func:`seat_convergence` applies it to the
seat win shares; :func:`seat_games_needed` turns the current spread into the
number of games a chosen precision needs. A half-width should shrink like
``1/sqrt(N)``; a curve that does not is a sign of drift (e.g. games that are
not exchangeable). Every function returns the same kind of frame (lazy or
eager) it was given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import polars as pl

from analysis._common import (
    Frame,
    as_lazy,
    as_list,
    like,
    require,
    share_sum,
    whole_games,
    with_n_players,
)
from analysis.stats import required_games, t_quantile, wilson_effective_exprs, wilson_exprs

__all__ = ["log_checkpoints", "cumulative_estimates", "seat_convergence", "seat_games_needed", "seat_counts",
           "seat_convergence_batches", "games_needed_from_counts"]


def log_checkpoints(n_max: int, start: int = 10, per_decade: int = 4) -> list[int]:
    """Log-spaced game counts from ``start`` to ``n_max`` (both included).

    Examples
    --------
    >>> log_checkpoints(1000)
    [10, 18, 32, 56, 100, 178, 316, 562, 1000]
    """
    if n_max < 1:
        return []
    start = min(start, n_max)
    k = int(np.floor(np.log10(n_max / start) * per_decade + 1e-9))
    pts = np.rint(start * 10.0 ** (np.arange(k + 1) / per_decade)).astype(int).tolist()
    return sorted(set(pts) | {int(n_max)})


def cumulative_estimates(
    frame: Frame,
    value: str,
    by: str | Iterable[str] | None = None,
    order: str = "game_index",
    kind: str = "proportion",
    checkpoints: Sequence[int] | None = None,
    level: float = 0.95,
) -> Frame:
    """An estimate and its interval on the first N observations, for several N.

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        One row per observation (e.g. per game and seat).
    value : str
        Column to estimate the mean of (a 0–1 share for ``"proportion"``).
    by : str or list of str, optional
        One curve per group (e.g. ``["n_players", "seat"]``).
    order : str
        Column giving the order observations arrived in.
    kind : {"proportion", "mean"}
        Wilson interval on the (possibly fractional) count, or t interval.
    checkpoints : sequence of int, optional
        Values of N; default :func:`log_checkpoints` of the largest group.
        Each group's full size is always included.
    level : float
        Confidence level.

    Returns
    -------
    Same kind as ``frame``, one row per (by..., checkpoint): ``n``,
    ``estimate``, ``lo``, ``hi``, ``half_width`` (``(hi - lo) / 2``).

    Examples
    --------
    >>> t = pl.DataFrame({"game_index": range(100), "x": [0.0, 1.0] * 50})
    >>> out = cumulative_estimates(t, "x", checkpoints=[10, 100])
    >>> out["n"].to_list(), out["estimate"].to_list()
    ([10, 100], [0.5, 0.5])
    """
    if kind not in ("proportion", "mean"):
        raise ValueError(f"unknown kind '{kind}' (known: proportion, mean)")
    require(frame, [value, order], "cumulative_estimates")
    groups = as_list(by)
    lf = as_lazy(frame)
    over = groups if groups else None
    x = pl.col(value).cast(pl.Float64)

    def cum(e: pl.Expr) -> pl.Expr:
        return e.over(over) if over else e

    lf = lf.sort([*groups, order]).select(
        *groups,
        cum(pl.int_range(1, pl.len() + 1)).cast(pl.Int64).alias("n"),
        cum(x.cum_sum()).alias("__s"),
        cum((x * x).cum_sum()).alias("__ss"),
        cum(pl.len()).cast(pl.Int64).alias("__size"),
    )
    if checkpoints is None:
        n_max = lf.select(pl.col("__size").max()).collect().item() or 0
        checkpoints = log_checkpoints(int(n_max))
    lf = lf.filter(pl.col("n").is_in(list(checkpoints)) | (pl.col("n") == pl.col("__size")))
    return like(_estimates(lf, groups, kind, level), frame)


def _estimates(lf: pl.LazyFrame, groups: list, kind: str, level: float) -> pl.LazyFrame:
    """The estimate and interval of each row's ``n``, ``__s`` (sum) and ``__ss`` (sum of squares)."""
    est = pl.col("__s") / pl.col("n")
    lf = lf.with_columns(est.alias("estimate"))
    if kind == "proportion":       # Wilson on the observed variance (ties narrow it; as analysis.seats)
        n = pl.col("n").cast(pl.Float64)
        var = ((pl.col("__ss") - n * pl.col("estimate") ** 2) / (n - 1)).clip(lower_bound=0.0)
        lf = lf.with_columns(wilson_effective_exprs("estimate", pl.when(n > 1).then((var / n).sqrt()), "n", level))
    else:
        var = (pl.col("__ss") - pl.col("n") * pl.col("estimate") ** 2) / (pl.col("n") - 1)
        half = t_quantile("n", level) * (var.clip(lower_bound=0.0) / pl.col("n")).sqrt()
        lf = lf.with_columns(
            (pl.col("estimate") - half).alias("lo"), (pl.col("estimate") + half).alias("hi")
        )
    return lf.with_columns(((pl.col("hi") - pl.col("lo")) / 2).alias("half_width")).select(
        *groups, "n", "estimate", "lo", "hi", "half_width"
    )


def seat_convergence(
    players: Frame,
    by: str | Iterable[str] | None = None,
    checkpoints: Sequence[int] | None = None,
    level: float = 0.95,
) -> Frame:
    """Seat win shares and their Wilson half-widths after the first N games.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table: ``game_index``, ``seat``, ``win_share``.
    by : str or list of str, optional
        Group-by columns; always also split by ``n_players`` and ``seat``.
    checkpoints : sequence of int, optional
        Game counts; default log-spaced up to the games played.
    level : float
        Confidence level.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, seat, games):
    ``games`` (N), ``win_share``, ``lo``, ``hi``, ``half_width``.
    """
    require(players, ["game_index", "seat", "win_share"], "seat_convergence")
    groups = as_list(by)
    lf = with_n_players(as_lazy(players), groups)
    out = as_lazy(
        cumulative_estimates(
            lf, "win_share", [*groups, "n_players", "seat"], "game_index", "proportion",
            checkpoints, level,
        )
    ).rename({"n": "games", "estimate": "win_share"})
    return like(out, players)


def seat_counts(players: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """Per (by..., n_players, seat): ``n`` (games) and ``wins`` (sum of win shares); batches add up."""
    require(players, ["game_index", "seat", "win_share"], "seat_counts")
    groups = as_list(by)
    lf = with_n_players(as_lazy(players), groups)
    out = lf.group_by([*groups, "n_players", "seat"]).agg(
        pl.len().alias("n"), share_sum(pl.col("win_share")).alias("wins")
    )
    return like(out, players)


def seat_convergence_batches(
    batches: Sequence[pl.LazyFrame],
    counts: pl.DataFrame,
    by: str | Iterable[str] | None = None,
    checkpoints: Sequence[int] | None = None,
    level: float = 0.95,
) -> pl.DataFrame:
    """:func:`seat_convergence` of the table the ``batches`` make up, one batch in memory at a time.

    ``batches``: LazyFrames of whole games in ``game_index`` order within each group
    (e.g. a run's Parquet parts in chunk order); ``counts``: their :func:`seat_counts`
    added up. Each batch's running sums start from those of the batches before it.
    """
    groups = [*as_list(by), "n_players", "seat"]
    counts = counts.select(*groups, pl.col("n").cast(pl.Int64).alias("__size"))
    if checkpoints is None:
        checkpoints = log_checkpoints(int(counts["__size"].max() or 0))
    marks = [int(c) for c in checkpoints]
    before = counts.select(*groups, pl.lit(0, pl.Int64).alias("__n0"), pl.lit(0.0).alias("__s0"),
                            pl.lit(0.0).alias("__ss0"))
    out = []
    for batch in batches:
        x = pl.col("win_share").cast(pl.Float64)
        lf = with_n_players(as_lazy(batch), as_list(by))
        fast = _running_sums_whole(lf, groups, before, counts, marks)
        if fast is not None:
            out.append(fast[0])
            before = fast[1]
            continue
        part = (
            lf.sort([*groups, "game_index"])
            .select(
                *groups,
                pl.int_range(1, pl.len() + 1).over(groups).cast(pl.Int64).alias("__k"),
                x.cum_sum().over(groups).alias("__c"),
                (x * x).cum_sum().over(groups).alias("__cc"),
            )
            .join(before.lazy(), on=groups, how="left")
            .join(counts.lazy(), on=groups, how="left")
            .select(
                *groups,
                (pl.col("__n0") + pl.col("__k")).alias("n"),
                (pl.col("__s0") + pl.col("__c")).alias("__s"),
                (pl.col("__ss0") + pl.col("__cc")).alias("__ss"),
                "__size",
            )
            .filter(pl.col("n").is_in(marks) | (pl.col("n") == pl.col("__size")))
            .select(*groups, "n", "__s", "__ss")
        )
        out.append(part.collect())
        ends = lf.group_by(groups).agg(pl.len().cast(pl.Int64).alias("__n1"), x.sum().alias("__s1"),
                                       (x * x).sum().alias("__ss1")).collect(engine="streaming")
        before = before.join(ends, on=groups, how="left").select(
            *groups, *(pl.col(f"__{c}0") + pl.col(f"__{c}1").fill_null(0) for c in ("n", "s", "ss")))
    rows = pl.concat(out) if out else pl.DataFrame(schema={**counts.select(groups).schema, "n": pl.Int64,
                                                          "__s": pl.Float64, "__ss": pl.Float64})
    est = _estimates(rows.lazy().sort([*groups, "n"]), groups, "proportion", level)
    return est.rename({"n": "games", "estimate": "win_share"}).collect()


def _running_sums_whole(lf, groups, before, counts, marks):
    """One batch of :func:`seat_convergence_batches` over a (games, seats) matrix
    (``analysis._common.whole_games``): ``(rows at the checkpoints, sums after the batch)``, or None."""
    found = whole_games(lf, groups[:-1], ["win_share"])
    if found is None:
        return None
    key, m = found
    x = m["win_share"].astype(np.float64)
    games = x.shape[0]
    marks = np.asarray(sorted(set(marks)), dtype=np.int64)
    prior = {r["seat"]: r for r in before.filter(
        pl.all_horizontal(pl.col(k) == v for k, v in key.items())).iter_rows(named=True)}
    size = {r["seat"]: r["__size"] for r in counts.filter(
        pl.all_horizontal(pl.col(k) == v for k, v in key.items())).iter_rows(named=True)}
    rows, ends = [], []
    for seat in range(x.shape[1]):
        if seat not in prior:
            return None
        n0, s0, ss0 = prior[seat]["__n0"], prior[seat]["__s0"], prior[seat]["__ss0"]
        col = x[:, seat]
        n = n0 + np.arange(1, games + 1, dtype=np.int64)
        keep = np.isin(n, marks) | (n == size[seat])
        c, cc = np.cumsum(col), np.cumsum(col * col)
        rows.append(pl.DataFrame({"seat": np.full(int(keep.sum()), seat), "n": n[keep], "__s": s0 + c[keep],
                                  "__ss": ss0 + cc[keep]}))
        ends.append({**key, "seat": seat, "__n0": n0 + games, "__s0": s0 + float(col.sum()),
                     "__ss0": ss0 + float((col * col).sum())})
    schema = before.schema
    part = pl.concat(rows).with_columns(**{k: pl.lit(v, dtype=schema[k]) for k, v in key.items()}).select(
        *groups, pl.col("n").cast(pl.Int64), "__s", "__ss").with_columns(pl.col("seat").cast(schema["seat"]))
    done = pl.DataFrame(ends, schema={k: schema[k] for k in ends[0]})
    rest = before.filter(~pl.all_horizontal(pl.col(k) == v for k, v in key.items()))
    return part, pl.concat([rest, done.select(before.columns)])


def games_needed_from_counts(counts: Frame, half_width: float, by: str | Iterable[str] | None = None,
                             level: float = 0.95) -> Frame:
    """:func:`seat_games_needed` from :func:`seat_counts` (of one table or added up over batches)."""
    keys = [*as_list(by), "n_players"]
    per_seat = as_lazy(counts).with_columns((pl.col("wins") / pl.col("n").cast(pl.Float64)).alias("win_share"))
    per_seat = as_lazy(required_games(per_seat, half_width, "win_share", level=level))
    p = pl.col("win_share")
    out = (
        per_seat.with_columns(*wilson_exprs(p * pl.col("n"), "n", level))
        .group_by(keys)
        .agg(
            pl.col("n").max().alias("n_games"),
            ((pl.col("hi") - pl.col("lo")) / 2).max().alias("half_width_now"),
            pl.col("games_needed").max(),
        )
        .with_columns(
            (pl.col("games_needed") - pl.col("n_games").cast(pl.Int64)).clip(lower_bound=0).alias("games_more")
        )
        .sort(keys)
    )
    return like(out, counts)


def seat_games_needed(
    players: Frame,
    half_width: float,
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
) -> Frame:
    """Games needed so every seat's win share has the chosen CI half-width.

    Uses the current win shares (``n = z² p(1-p) / h²``, the Wilson width to
    first order) and takes the worst seat.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table: ``game_index``, ``seat``, ``win_share``.
    half_width : float
        Target half-width, e.g. 0.01 for ±1 percentage point.
    by : str or list of str, optional
        Group-by columns; always also split by ``n_players``.
    level : float
        Confidence level.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players): ``n_games``
    (played), ``half_width_now`` (worst seat), ``games_needed``,
    ``games_more`` (needed beyond those played, at least 0).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1] * 2,
    ...                   "win_share": [1.0, 0.0, 0.0, 1.0]})
    >>> seat_games_needed(p, 0.05)["games_needed"].item()
    385
    """
    require(players, ["game_index", "seat", "win_share"], "seat_games_needed")
    counts = seat_counts(as_lazy(players), by)
    return like(games_needed_from_counts(counts, half_width, by, level), players)
