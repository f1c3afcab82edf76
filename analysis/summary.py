"""Summaries for reports: score distributions, headline statistics, variant differences.

- :func:`score_distribution` — share of players per final score, per seat;
- :func:`headline_stats` — the headline numbers of a run (win share and mean
  score per seat, winning score, tie rate, points per category) in one long
  table, so that runs and variants stack;
- :func:`mean_stat` — any column's mean in the same long format (e.g. the
  Hellas quarry yield per action);
- :func:`variant_differences` — each headline statistic of every variant
  against a baseline variant: difference with its interval and p-value
  (two-proportion z test or Welch's t test, Holm-corrected per variant);
- :func:`seat_strategy_counts` — how often each strategy sat in each seat
  (checks that a comparison's seat rotation is balanced).

Every function returns the same kind of frame (lazy or eager) it was given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import math

import numpy as np
import polars as pl

from analysis._common import (
    Frame,
    as_lazy,
    as_list,
    game_keys,
    like,
    ordered_mean,
    ordered_sd,
    ordered_sum,
    require,
    share_sum,
    whole_numbers,
    with_n_players,
)
from analysis.stats import holm, paired_differences, two_proportion_ztest, welch_ttest, wilson_exprs

__all__ = [
    "score_distribution",
    "score_counts",
    "score_distribution_from_counts",
    "score_summary_from_counts",
    "headline_stats",
    "mean_stat",
    "variant_differences",
    "headline_pairs",
    "seat_strategy_counts",
    "win_share_by_seat",
]

#: Columns of the long headline table (after the group columns).
HEADLINE_COLUMNS = ("statistic", "item", "kind", "n", "estimate", "sd", "successes")


def score_distribution(
    players: Frame, by: str | Iterable[str] | None = None, value: str = "total"
) -> Frame:
    """Share of players per final score, per seat.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with ``game_index``, ``seat`` and ``value``.
    by : str or list of str, optional
        Group-by columns; always also split by ``n_players`` and ``seat``.
    value : str
        The score column.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, seat, value):
    ``n`` (players with that score) and ``share`` (of the seat's games).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
    ...                   "total": [10, 8, 10, 9]})
    >>> score_distribution(p).filter(pl.col("seat") == 0)["share"].to_list()
    [1.0]
    """
    require(players, ["game_index", "seat", value], "score_distribution")
    groups = as_list(by)
    return like(score_distribution_from_counts(score_counts(as_lazy(players), groups, value), groups, value),
                players)


def score_counts(players: Frame, by: str | Iterable[str] | None = None, value: str = "total") -> Frame:
    """``n``, the players per (by..., n_players, seat, value): the counts score distributions are made of.

    Counts of batches of games add up (``analysis._common.add_up``) to those of all of them.
    """
    require(players, ["game_index", "seat", value], "score_counts")
    groups = as_list(by)
    lf = with_n_players(as_lazy(players), groups)
    out = lf.group_by([*groups, "n_players", "seat", value]).agg(pl.len().alias("n"))
    return like(out, players)


def score_distribution_from_counts(counts: Frame, by: str | Iterable[str] | None = None,
                                   value: str = "total") -> Frame:
    """:func:`score_distribution` from :func:`score_counts`."""
    keys = [*as_list(by), "n_players", "seat"]
    out = (
        as_lazy(counts)
        .with_columns((pl.col("n") / pl.col("n").sum().over(keys)).alias("share"))
        .sort([*keys, value])
    )
    return like(out, counts)


def score_summary_from_counts(counts: Frame, by: str | Iterable[str] | None = None,
                              value: str = "total") -> pl.DataFrame:
    """Per (by..., n_players, seat): ``n``, ``mean``, ``sd``, ``p10``, ``median``, ``p90`` of ``value``.

    From :func:`score_counts` (integer scores: the counts hold every value), with
    polars' conventions: p10 and p90 the nearest rank, the median interpolated.
    """
    keys = [*as_list(by), "n_players", "seat"]
    df = as_lazy(counts).sort([*keys, value]).collect()
    rows = []
    for key, part in df.group_by(keys, maintain_order=True):
        v = part[value].cast(pl.Float64).to_numpy()
        c = part["n"].cast(pl.Int64).to_numpy()
        n = int(c.sum())
        cum = np.cumsum(c)
        kth = lambda i: float(v[np.searchsorted(cum, i, side="right")])   # the i-th smallest (0-based)
        f = (n - 1) * 0.5
        lo, hi = kth(math.floor(f)), kth(math.ceil(f))
        s, ss = float((c * v).sum()), float((c * v * v).sum())
        rows.append({**dict(zip(keys, key)), "n": n, "mean": s / n,
                     "sd": math.sqrt(max((ss - s * s / n) / (n - 1), 0.0)) if n > 1 else None,
                     "p10": kth(math.floor((n - 1) * 0.1 + 0.5)), "median": lo + (hi - lo) * (f - math.floor(f)),
                     "p90": kth(math.floor((n - 1) * 0.9 + 0.5))})
    schema = {**{k: df.schema[k] for k in keys}, "n": pl.UInt32, "mean": pl.Float64, "sd": pl.Float64,
              "p10": pl.Float64, "median": pl.Float64, "p90": pl.Float64}
    return pl.DataFrame(rows, schema=schema) if rows else pl.DataFrame(schema=schema)


def _long(lf: pl.LazyFrame, keys: list[str], statistic: str, item: pl.Expr, kind: str,
          value: pl.Expr) -> pl.LazyFrame:
    """Aggregate ``value`` per ``keys`` + item into the long headline format."""
    v = value.cast(pl.Float64)
    whole = whole_numbers(lf, value)         # exact sums: nothing to sort
    return (
        lf.with_columns(item.cast(pl.String).alias("item"), v.alias("__v"))
        .group_by([*keys, "item"])
        .agg(
            pl.len().cast(pl.Int64).alias("n"),
            ordered_mean(pl.col("__v"), whole).alias("estimate"),
            ordered_sd(pl.col("__v"), whole).alias("sd"),
            ordered_sum(pl.col("__v"), whole).alias("successes"),
        )
        .with_columns(pl.lit(statistic).alias("statistic"), pl.lit(kind).alias("kind"))
        .with_columns(
            pl.when(pl.col("kind") == "proportion").then(pl.col("successes")).otherwise(None)
        )
        .select(*keys, *HEADLINE_COLUMNS)
    )


def headline_stats(
    players: Frame,
    by: str | Iterable[str] | None = None,
    *,
    categories: Sequence[str] | None,
) -> Frame:
    """The headline numbers of runs in one long table.

    Statistics (``statistic`` / ``item``):

    - ``win_share`` / ``seat k`` — mean win share of seat k (a proportion;
      a k-way tie counts 1/k);
    - ``mean_score`` / ``seat k`` — mean final total of seat k;
    - ``winning_score`` / ``all`` — mean highest total of a game;
    - ``tie_rate`` / ``all`` — share of games with a tie for first;
    - ``category_points`` / ``<category>`` — mean points of a player in the
      category (skipped when ``categories`` is empty or None).

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table: ``game_index``, ``seat``, ``total``, ``win_share`` and
        the category columns.
    by : str or list of str, optional
        Group-by columns (e.g. ``"variant"``); always also split by ``n_players``.
    categories : sequence of str, optional
        Scoring-category columns.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, statistic, item):
    ``kind`` (``"proportion"`` or ``"mean"``), ``n`` (observations), ``estimate``,
    ``sd``, ``successes`` (summed shares, proportions only).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
    ...                   "total": [30, 20, 25, 25], "win_share": [1.0, 0.0, 0.5, 0.5]})
    >>> h = headline_stats(p, categories=None)
    >>> h.filter(pl.col("statistic") == "tie_rate")["estimate"].item()
    0.5
    """
    cats = list(categories or [])
    require(players, ["game_index", "seat", "total", "win_share", *cats], "headline_stats")
    groups = as_list(by)
    gk = game_keys(players, groups)
    lf = with_n_players(as_lazy(players), groups)
    keys = [*groups, "n_players"]
    seat = pl.format("seat {}", pl.col("seat"))
    parts = [
        _long(lf, keys, "win_share", seat, "proportion", pl.col("win_share")),
        _long(lf, keys, "mean_score", seat, "mean", pl.col("total")),
    ]
    ws = pl.col("win_share").cast(pl.Float64)
    per_game = lf.group_by([*gk, "n_players"]).agg(
        pl.col("total").max().alias("__best"),
        ((ws > 0) & (ws < 1)).any().cast(pl.Float64).alias("__tie"),
    )
    parts.append(_long(per_game, keys, "winning_score", pl.lit("all"), "mean", pl.col("__best")))
    parts.append(_long(per_game, keys, "tie_rate", pl.lit("all"), "proportion", pl.col("__tie")))
    if cats:
        long = lf.select(*keys, *cats).unpivot(index=keys, on=cats, variable_name="__cat",
                                               value_name="__pts")
        parts.append(_long(long, keys, "category_points", pl.col("__cat"), "mean", pl.col("__pts")))
    order = {"win_share": 0, "mean_score": 1, "winning_score": 2, "tie_rate": 3, "category_points": 4}
    cat_order = {c: i for i, c in enumerate(cats)}
    out = (
        pl.concat(parts, how="vertical_relaxed")
        .with_columns(
            pl.col("statistic").replace_strict(order, default=99).alias("__s"),
            pl.col("item").replace_strict(cat_order, default=None, return_dtype=pl.Int64).alias("__c"),
        )
        .sort([*keys, "__s", "__c", "item"], nulls_last=True)
        .drop("__s", "__c")
    )
    return like(out, players)


def headline_pairs(players: Frame, variant: str = "variant", baseline: str | None = None, *,
                   categories: Sequence[str] | None, level: float = 0.95) -> pl.DataFrame:
    """Paired differences of the :func:`headline_stats` statistics, game *i* of a variant against game *i*
    of the baseline (``analysis.stats.paired_differences``).

    Variants of a study are played from one seed, so their game *i* meets the
    same tiles; a statistic's per-game values (a seat's win share, a seat's
    total, the winning score, the tie indicator, the players' mean points in a
    category) are paired by ``game_index``. Returns one row per (variant,
    n_players, statistic, item) with ``n_pairs``, ``n_side``, ``n_base``,
    ``diff``, ``diff_lo``, ``diff_hi``, ``p_value`` and ``corr``; pass it to
    :func:`variant_differences` as ``paired``.
    """
    cats = list(categories or [])
    require(players, [variant, "game_index", "seat", "total", "win_share", *cats], "headline_pairs")
    lf = with_n_players(as_lazy(players), [variant])
    names = sorted(lf.select(pl.col(variant).cast(pl.String)).unique().collect()[variant].to_list())
    baseline = names[0] if baseline is None and names else baseline
    keys = [pl.col(variant).cast(pl.String), "n_players", "game_index"]
    ws = pl.col("win_share").cast(pl.Float64)
    seat = pl.format("seat {}", pl.col("seat"))
    parts = [
        lf.select(*keys, pl.lit("win_share").alias("statistic"), seat.alias("item"), ws.alias("value")),
        lf.select(*keys, pl.lit("mean_score").alias("statistic"), seat.alias("item"),
                  pl.col("total").cast(pl.Float64).alias("value")),
    ]
    game = lf.group_by(*keys).agg(pl.col("total").max().cast(pl.Float64).alias("__best"),
                                   ((ws > 0) & (ws < 1)).any().cast(pl.Float64).alias("__tie"),
                                   *[pl.col(c).cast(pl.Float64).mean().alias(f"__c_{c}") for c in cats])
    parts.append(game.select(variant, "n_players", "game_index", pl.lit("winning_score").alias("statistic"),
                             pl.lit("all").alias("item"), pl.col("__best").alias("value")))
    parts.append(game.select(variant, "n_players", "game_index", pl.lit("tie_rate").alias("statistic"),
                             pl.lit("all").alias("item"), pl.col("__tie").alias("value")))
    parts += [game.select(variant, "n_players", "game_index", pl.lit("category_points").alias("statistic"),
                          pl.lit(c).alias("item"), pl.col(f"__c_{c}").alias("value")) for c in cats]
    long = pl.concat(parts, how="vertical_relaxed")
    return paired_differences(long, variant, baseline, "game_index", ["n_players", "statistic", "item"],
                              level=level)


def mean_stat(
    frame: Frame,
    value: str | pl.Expr,
    statistic: str,
    by: str | Iterable[str] | None = None,
    item: str = "all",
    kind: str = "mean",
) -> Frame:
    """The mean of one column in the long format of :func:`headline_stats`.

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        Any table (e.g. events, one row per quarry action).
    value : str or polars.Expr
        Column (or expression) to average.
    statistic, item : str
        Names for the ``statistic`` and ``item`` columns.
    by : str or list of str, optional
        Group-by columns (must include ``n_players`` to stack with
        :func:`headline_stats`).
    kind : {"mean", "proportion"}
        ``"proportion"`` for a 0–1 value.

    Returns
    -------
    Same kind as ``frame``, one row per group in the headline format.

    Examples
    --------
    >>> t = pl.DataFrame({"n_players": [3, 3], "x": [1, 3]})
    >>> mean_stat(t, "x", "x_mean", by="n_players")["estimate"].item()
    2.0
    """
    if kind not in ("mean", "proportion"):
        raise ValueError(f"unknown kind '{kind}' (known: mean, proportion)")
    expr = pl.col(value) if isinstance(value, str) else value
    out = _long(as_lazy(frame), as_list(by), statistic, pl.lit(item), kind, expr)
    return like(out, frame)


def variant_differences(
    headline: Frame,
    variant: str = "variant",
    baseline: str | None = None,
    level: float = 0.95,
    alpha: float = 0.05,
    paired: pl.DataFrame | None = None,
) -> Frame:
    """Each headline statistic of every variant minus the baseline variant's.

    Proportions are compared with the two-proportion z test
    (:func:`analysis.stats.two_proportion_ztest`), means with Welch's t test
    (:func:`analysis.stats.welch_ttest`), the samples taken as independent.
    Variants played on the same seeds (common random numbers) are not: a
    score-only change keeps game *i* nearly the same (per-game win shares
    correlate 0.9), so those intervals are 3-4 times too wide. ``paired``
    (:func:`headline_pairs`) gives the paired differences of the statistics it
    covers; a row whose every game of both variants is paired then takes its
    interval and p-value (``paired = true``). p-values are Holm-corrected
    within each (variant, n_players) family.

    Parameters
    ----------
    headline : polars.DataFrame or polars.LazyFrame
        Output of :func:`headline_stats` (and :func:`mean_stat`) with a
        ``variant`` column.
    variant : str
        The column naming the variant.
    baseline : str, optional
        The reference variant; default the first in sort order.
    level, alpha : float
        Confidence level of the difference; family-wise error rate for Holm.

    Returns
    -------
    Same kind as ``headline``, one row per (non-baseline variant, other
    keys, statistic, item): ``baseline`` (its name), ``base_estimate``,
    ``estimate``, ``diff`` (variant - baseline), ``diff_lo``, ``diff_hi``,
    ``p_value``, ``p_holm``, ``reject``.

    Examples
    --------
    >>> h = pl.DataFrame({"variant": ["a", "b"], "n_players": [2, 2],
    ...                   "statistic": ["tie_rate"] * 2, "item": ["all"] * 2,
    ...                   "kind": ["proportion"] * 2, "n": [100, 100],
    ...                   "estimate": [0.5, 0.65], "sd": [0.5, 0.48],
    ...                   "successes": [50.0, 65.0]})
    >>> round(variant_differences(h, baseline="a")["diff"].item(), 2)
    0.15
    """
    require(headline, [variant, *HEADLINE_COLUMNS], "variant_differences")
    df = as_lazy(headline).collect()
    names = sorted(df[variant].cast(pl.String).unique().to_list())
    if baseline is None:
        baseline = names[0] if names else None
    if baseline not in names:
        raise ValueError(f"baseline variant '{baseline}' is not in the table (variants: {', '.join(names)})")
    df = df.with_columns(pl.col(variant).cast(pl.String))
    other_keys = [c for c in df.columns if c not in (variant, *HEADLINE_COLUMNS)]
    on = [*other_keys, "statistic", "item", "kind"]
    base = df.filter(pl.col(variant) == baseline).select(
        *on,
        pl.col("n").alias("n1"),
        pl.col("estimate").alias("base_estimate"),
        pl.col("sd").alias("sd1"),
        pl.col("successes").alias("x1"),
    )
    rest = df.filter(pl.col(variant) != baseline).join(base, on=on, how="inner")
    props = rest.filter(pl.col("kind") == "proportion")
    means = rest.filter(pl.col("kind") == "mean")
    outs = []
    if props.height:
        outs.append(two_proportion_ztest(props, "x1", "n1", "successes", "n", level)
                    .select(pl.exclude("z")))
    if means.height:
        outs.append(welch_ttest(means, "base_estimate", "sd1", "n1", "estimate", "sd", "n", level)
                    .select(pl.exclude("t", "df")))
    cols = [variant, *on, "n", "estimate", "base_estimate", "diff", "diff_lo", "diff_hi", "p_value"]
    if outs:
        out = pl.concat([o.select(cols) for o in outs], how="vertical_relaxed")
    else:
        out = pl.DataFrame(schema={c: pl.Float64 for c in cols})
    out = out.with_columns(pl.lit(baseline).alias("baseline"), pl.lit(False).alias("paired"))
    if paired is not None and paired.height and out.height:
        on_p = [variant, *[k for k in on if k in paired.columns and k != "kind"]]
        ok = paired.filter((pl.col("n_pairs") == pl.col("n_side")) & (pl.col("n_pairs") == pl.col("n_base"))
                           & pl.col("diff_lo").is_not_null())
        ok = ok.select(*on_p, pl.col("diff_lo").alias("__lo"), pl.col("diff_hi").alias("__hi"),
                       pl.col("p_value").alias("__p"))
        out = (out.with_columns(pl.col(variant).cast(pl.String))
               .join(ok.with_columns(pl.col(variant).cast(pl.String)), on=on_p, how="left")
               .with_columns(pl.col("__lo").is_not_null().alias("paired"))
               .with_columns(pl.coalesce("__lo", "diff_lo").alias("diff_lo"),
                             pl.coalesce("__hi", "diff_hi").alias("diff_hi"),
                             pl.coalesce("__p", "p_value").alias("p_value"))
               .drop("__lo", "__hi", "__p"))
    out = holm(out, "p_value", alpha, by=[variant, *[k for k in other_keys if k == "n_players"]])
    # back to the headline order
    order = df.select(*on).unique(maintain_order=True).with_row_index("__o")
    out = (out.join(order, on=on, how="left").sort([variant, "__o"]).drop("__o")
           .select(variant, "baseline", *on, "n", "base_estimate", "estimate", "diff", "diff_lo",
                   "diff_hi", "p_value", "p_holm", "reject", "paired"))
    return like(out, headline)


def seat_strategy_counts(players: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """How often each strategy sat in each seat (player rows), wide by seat.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with ``seat`` and ``strategy``.
    by : str or list of str, optional
        Group-by columns.

    Returns
    -------
    Same kind as ``players``, one row per (by..., strategy) with a column
    ``seat k`` per seat (games played in it) and ``balanced`` (all seats equal).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
    ...                   "strategy": ["a", "b", "b", "a"]})
    >>> seat_strategy_counts(p)["balanced"].to_list()
    [True, True]
    """
    require(players, ["seat", "strategy"], "seat_strategy_counts")
    groups = as_list(by)
    df = (
        as_lazy(players)
        .group_by([*groups, "strategy", "seat"])
        .agg(pl.len().cast(pl.Int64).alias("n"))
        .sort([*groups, "strategy", "seat"])
        .collect()
        .with_columns(pl.format("seat {}", pl.col("seat")).alias("__seat"))
    )
    seats = [f"seat {s}" for s in sorted(df["seat"].unique().to_list())]
    wide = df.pivot(on="__seat", index=[*groups, "strategy"], values="n").fill_null(0)
    wide = wide.select(*groups, "strategy", *seats)
    wide = wide.with_columns(
        (pl.min_horizontal(seats) == pl.max_horizontal(seats)).alias("balanced")
    ).sort([*groups, "strategy"])
    return like(wide, players)


def win_share_by_seat(
    players: Frame, by: str | Iterable[str] | None = None, level: float = 0.95
) -> Frame:
    """Mean win share per (group, seat) with a Wilson interval, for groups *within* a game.

    :func:`analysis.seats.seat_advantage` needs its groups to identify whole
    games (it compares players of one game); this one only averages rows, so
    ``by`` may split a game, e.g. ``by="strategy"`` in a strategy comparison.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table: ``seat``, ``win_share`` and ``n_players`` (else counted
        per game, which needs ``game_index``).
    by : str or list of str, optional
        Group-by columns.
    level : float
        Confidence level.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, seat): ``n``,
    ``wins`` (summed shares), ``win_share``, ``win_lo``, ``win_hi``,
    ``fair_share``, ``deviation``.

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "n_players": [2] * 4,
    ...                   "strategy": ["a", "b", "b", "a"], "win_share": [1.0, 0.0, 1.0, 0.0]})
    >>> win_share_by_seat(p, by="strategy")["win_share"].to_list()
    [1.0, 0.0, 1.0, 0.0]
    """
    require(players, ["seat", "win_share"], "win_share_by_seat")
    groups = as_list(by)
    lf = as_lazy(players)
    if "n_players" not in (lf.collect_schema().names()):
        lf = with_n_players(lf, [])
    keys = [*groups, "n_players", "seat"]
    ws = pl.col("win_share").cast(pl.Float64)
    out = (
        lf.group_by(keys)
        .agg(pl.len().alias("n"), share_sum(ws).alias("wins"))
        .with_columns((pl.col("wins") / pl.col("n")).alias("win_share"),
                      *wilson_exprs("wins", "n", level, prefix="win_"),
                      (1.0 / pl.col("n_players").cast(pl.Float64)).alias("fair_share"))
        .with_columns((pl.col("win_share") - pl.col("fair_share")).alias("deviation"))
        .sort(keys)
    )
    return like(out, players)
