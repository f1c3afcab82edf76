"""Seat advantage: does the first player (seat 0) win more than its fair share?

Input is the runner's ``players`` table (one row per game and seat). A game is
identified by the group-by columns, any run column (``run``, ``run_id``,
``variant``) and ``game_index``. Results are always broken down by player
count (``n_players``, taken from the table or counted per game) and by the
``by`` columns — pass ``by="strategy_mix"`` after :func:`add_strategy_mix` to
split by who sat where.

**Ties.** The runner gives each of k players tied for first a win share of
1/k — the one definition of a win in every report. A seat's win rate is the
mean of its win shares over n games, i.e. an *effective count*
``wins = sum(win_share)`` (fractional) over ``n`` trials. A share lies in
[0, 1], so its variance is below the binomial ``p(1-p)`` when ties occur
(7% too wide a Wilson interval in random-play Hellas, 3 players): the win
interval uses the *observed* variance of the per-game shares (the sum of
their squares, ``wins_ss``) as the Wilson interval's effective sample size
(``analysis.stats.wilson_effective_bounds``); without ties it is Wilson's.
Ties are also reported explicitly (``tied_wins``) so their effect is visible.
The chi-square test of equal seats keeps the binomial variance (slightly
conservative with ties).

Every function returns the same kind of frame (lazy or eager) it was given.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import polars as pl

from analysis._common import (
    Frame,
    as_lazy,
    as_list,
    game_keys,
    game_partition,
    like,
    ordered_sum,
    require,
    sd_from_sums,
    share_square_sum,
    share_square_sum_np,
    share_sum,
    share_sum_np,
    whole_games,
    with_n_players,
)
from analysis.stats import chi2_sf, mean_ci_exprs, wilson_effective_exprs

__all__ = ["with_margin", "add_strategy_mix", "seat_advantage", "seat_sums", "seat_advantage_from_sums",
           "seat_equality_test", "seat_equality_from_sums"]


def with_margin(players: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """Add each player's score margin over the best other player of the game.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with ``game_index`` and ``total``.
    by : str or list of str, optional
        Extra columns that, with ``game_index``, identify a game.

    Returns
    -------
    Same kind as ``players`` with ``best_other`` (highest total among the
    other players of the game) and ``margin`` (``total - best_other``; 0 for
    a tied winner, negative for every loser) added.

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 0], "seat": [0, 1, 2],
    ...                   "total": [30, 25, 30]})
    >>> with_margin(p)["margin"].to_list()
    [0, -5, 0]
    """
    require(players, ["game_index", "total"], "with_margin")
    keys = game_partition(players, game_keys(players, as_list(by)))
    total = pl.col("total").cast(pl.Int64)
    best = total.max().over(keys)
    second = total.sort(descending=True).get(1).over(keys)
    best_other = pl.when(total == best).then(second).otherwise(best)
    lf = as_lazy(players).with_columns(best_other.alias("best_other"))
    lf = lf.with_columns((total - pl.col("best_other")).alias("margin"))
    return like(lf, players)


def add_strategy_mix(
    players: Frame,
    by: str | Iterable[str] | None = None,
    ordered: bool = True,
    name: str = "strategy_mix",
) -> Frame:
    """Add a column naming each game's line-up of strategies.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with ``game_index``, ``seat`` and ``strategy``.
    by : str or list of str, optional
        Extra columns that, with ``game_index``, identify a game.
    ordered : bool
        True: strategies in seat order (``"a|b|a"``: who sat where);
        False: sorted by name (``"a|a|b"``: which strategies met).
    name : str
        Name of the new column.

    Returns
    -------
    Same kind as ``players`` with the string column ``name`` added.

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0], "seat": [0, 1],
    ...                   "strategy": ["greedy", "balanced"]})
    >>> add_strategy_mix(p)["strategy_mix"].to_list()
    ['greedy|balanced', 'greedy|balanced']
    >>> add_strategy_mix(p, ordered=False)["strategy_mix"].to_list()
    ['balanced|greedy', 'balanced|greedy']
    """
    require(players, ["game_index", "seat", "strategy"], "add_strategy_mix")
    keys = game_keys(players, as_list(by))
    s = pl.col("strategy").cast(pl.String)
    s = s.sort_by("seat") if ordered else s.sort()
    lf = as_lazy(players).with_columns(s.str.join("|").over(keys).alias(name))
    return like(lf, players)


def seat_advantage(
    players: Frame,
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
) -> Frame:
    """Win share, mean score and mean margin per seat, with intervals.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table: ``game_index``, ``seat``, ``total``, ``win_share``
        (and ``n_players``, else counted per game).
    by : str or list of str, optional
        Group-by columns (e.g. ``"variant"``, ``"strategy_mix"``); results are
        always also split by ``n_players``.
    level : float
        Confidence level of every interval.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, seat):

    - ``n``: games (= observations of this seat);
    - ``wins``: effective win count, the sum of win shares;
    - ``sole_wins``, ``tied_wins``: games won alone, games tied for first;
    - ``win_share``, ``win_lo``, ``win_hi``: mean win share, Wilson interval
      on the effective count;
    - ``fair_share`` (1/n_players), ``deviation`` (win_share - fair_share)
      with ``dev_lo``, ``dev_hi``;
    - ``mean_total``, ``total_sd``, ``total_lo``, ``total_hi``: mean final
      score, t interval;
    - ``mean_margin``, ``margin_sd``, ``margin_lo``, ``margin_hi``: mean of
      own total minus best other total, t interval.

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
    ...                   "total": [30, 20, 25, 25],
    ...                   "win_share": [1.0, 0.0, 0.5, 0.5]})
    >>> out = seat_advantage(p)
    >>> out["win_share"].to_list(), out["tied_wins"].to_list()
    ([0.75, 0.25], [1, 1])
    """
    require(players, ["game_index", "seat", "total", "win_share"], "seat_advantage")
    groups = as_list(by)
    return like(seat_advantage_from_sums(seat_sums(as_lazy(players), groups), groups, level), players)


def seat_sums(players: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """Per (by..., n_players, seat): the counts and sums :func:`seat_advantage` is made of.

    ``n``, ``wins``, ``wins_ss`` (the sum of squared win shares, for the observed
    variance), ``sole_wins``, ``tied_wins``, and the sum and sum of squares
    of ``total`` and ``margin`` (integers, exact). Sums of batches of whole
    games add up (``analysis._common.add_up``) to those of all of them.
    """
    require(players, ["game_index", "seat", "total", "win_share"], "seat_sums")
    groups = as_list(by)
    fast = _seat_sums_whole(with_n_players(as_lazy(players), groups), [*groups, "n_players"])
    if fast is not None:
        return like(fast, players)
    lf = with_n_players(as_lazy(with_margin(players, groups)), groups)
    ws = pl.col("win_share").cast(pl.Float64)
    total, margin = pl.col("total").cast(pl.Int64), pl.col("margin").cast(pl.Int64)
    out = lf.group_by([*groups, "n_players", "seat"]).agg(
        pl.len().alias("n"),
        share_sum(ws).alias("wins"),
        share_square_sum(ws).alias("wins_ss"),
        (ws >= 1.0).sum().alias("sole_wins"),
        ((ws > 0.0) & (ws < 1.0)).sum().alias("tied_wins"),
        total.sum().alias("total_s"),
        (total * total).sum().alias("total_ss"),
        margin.sum().alias("margin_s"),
        (margin * margin).sum().alias("margin_ss"),
    )
    return like(out, players)


def _seat_sums_whole(lf, keys):
    """:func:`seat_sums` over a (games, n) matrix (``analysis._common.whole_games``), or None."""
    found = whole_games(lf, keys, ["total", "win_share"])
    if found is None:
        return None
    key, m = found
    total, ws = m["total"].astype(np.int64), m["win_share"].astype(np.float64)
    n = total.shape[1]
    if n < 2:
        return None
    top = np.sort(total, axis=1)
    best, second = top[:, -1:], top[:, -2:-1]
    margin = total - np.where(total == best, second, best)
    rows = []
    for s in range(n):
        t, w, mg = total[:, s], ws[:, s], margin[:, s]
        rows.append({**key, "seat": s, "n": len(t), "wins": share_sum_np(w),
                     "wins_ss": share_square_sum_np(w), "sole_wins": int((w >= 1.0).sum()),
                     "tied_wins": int(((w > 0.0) & (w < 1.0)).sum()), "total_s": int(t.sum()),
                     "total_ss": int((t * t).sum()), "margin_s": int(mg.sum()), "margin_ss": int((mg * mg).sum())})
    schema = {**dict(lf.select(*keys, "seat").collect_schema()), "n": pl.UInt32, "wins": pl.Float64,
              "wins_ss": pl.Float64,
              "sole_wins": pl.UInt32, "tied_wins": pl.UInt32,
              **{k: pl.Int64 for k in ("total_s", "total_ss", "margin_s", "margin_ss")}}
    return pl.DataFrame(rows, schema=schema).lazy()


def seat_advantage_from_sums(sums: Frame, by: str | Iterable[str] | None = None, level: float = 0.95) -> Frame:
    """:func:`seat_advantage` from :func:`seat_sums` (of one table or added up over batches)."""
    keys = [*as_list(by), "n_players", "seat"]
    n = pl.col("n").cast(pl.Float64)
    out = (
        as_lazy(sums)
        .with_columns(
            (pl.col("wins") / n).alias("win_share"),
            (pl.col("total_s") / n).alias("mean_total"),
            sd_from_sums("total_s", "total_ss", "n").alias("total_sd"),
            (pl.col("margin_s") / n).alias("mean_margin"),
            sd_from_sums("margin_s", "margin_ss", "n").alias("margin_sd"),
        )
        .with_columns(
            *wilson_effective_exprs("win_share", _share_se(sums), "n", level, prefix="win_"),
            (1.0 / pl.col("n_players").cast(pl.Float64)).alias("fair_share"),
        )
        .with_columns(
            (pl.col("win_share") - pl.col("fair_share")).alias("deviation"),
            (pl.col("win_lo") - pl.col("fair_share")).alias("dev_lo"),
            (pl.col("win_hi") - pl.col("fair_share")).alias("dev_hi"),
            *mean_ci_exprs("mean_total", "total_sd", "n", level, prefix="total_"),
            *mean_ci_exprs("mean_margin", "margin_sd", "n", level, prefix="margin_"),
        )
        .select(
            *keys, "n", "wins", "sole_wins", "tied_wins", "win_share", "win_lo", "win_hi",
            "fair_share", "deviation", "dev_lo", "dev_hi", "mean_total", "total_sd", "total_lo",
            "total_hi", "mean_margin", "margin_sd", "margin_lo", "margin_hi",
        )
        .sort(keys)
    )
    return like(out, sums)


def _share_se(sums: Frame) -> pl.Expr:
    """The standard error of a seat's mean win share from the observed variance of its per-game shares
    (``wins_ss``); null without that column (the interval is then Wilson's, on ``n``)."""
    from analysis._common import columns

    if "wins_ss" not in columns(sums):
        return pl.lit(None, dtype=pl.Float64)
    n = pl.col("n").cast(pl.Float64)
    var = ((pl.col("wins_ss") - pl.col("wins") * pl.col("wins") / n) / (n - 1.0)).clip(lower_bound=0.0)
    return pl.when(n > 1).then((var / n).sqrt())


def _chi2_sf(cols: pl.Series) -> pl.Series:
    s = cols.struct.unnest()
    stat = s[s.columns[0]].to_numpy().astype(float)
    df = s[s.columns[1]].to_numpy().astype(float)
    with np.errstate(invalid="ignore"):
        return pl.Series(np.where(df > 0, chi2_sf(stat, np.maximum(df, 1)), np.nan))


def seat_equality_test(
    players: Frame,
    by: str | Iterable[str] | None = None,
) -> Frame:
    """Test that all seats have the same win share (1/n each).

    Each game hands out one win in total, split over the seats; over G games
    seat s collects ``O_s = sum(win_share)``, expected ``E = G / n``. Pearson's
    chi-square ``sum((O - E)² / E)`` and the likelihood-ratio statistic
    ``G = 2 sum(O ln(O / E))`` are referred to chi-square with ``n - 1``
    degrees of freedom (the multinomial goodness-of-fit test). Fractional
    ties shrink the variance, so with ties the test is slightly conservative.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table: ``game_index``, ``seat``, ``win_share`` (and
        ``n_players``, else counted per game).
    by : str or list of str, optional
        Group-by columns; always also split by ``n_players``.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players): ``n_games``,
    ``df``, ``chi2``, ``p_value``, ``g_stat``, ``g_p_value``, and
    ``max_abs_deviation`` (largest |win share - 1/n| over seats).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
    ...                   "win_share": [1.0, 0.0, 0.0, 1.0]})
    >>> seat_equality_test(p)["p_value"].item()
    1.0
    """
    require(players, ["game_index", "seat", "win_share"], "seat_equality_test")
    groups = as_list(by)
    lf = with_n_players(as_lazy(players), groups)
    per_seat = lf.group_by([*groups, "n_players", "seat"]).agg(
        share_sum(pl.col("win_share")).alias("wins"),
        pl.len().alias("n"),
    )
    return like(seat_equality_from_sums(per_seat, by), players)


def seat_equality_from_sums(sums: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """:func:`seat_equality_test` from per-seat ``n`` (games) and ``wins`` (:func:`seat_sums`, batches added up)."""
    keys = [*as_list(by), "n_players"]
    expected = pl.col("n_games").cast(pl.Float64) / pl.col("n_players").cast(pl.Float64)
    out = (
        as_lazy(sums).select(*keys, "seat", pl.col("wins").alias("obs"), "n")
        .group_by(keys)
        .agg(pl.col("n").max().alias("n_games"), pl.col("obs"))
        .explode("obs")
        .with_columns(expected.alias("exp"))
        .group_by(keys)
        .agg(
            pl.col("n_games").first(),
            ordered_sum((pl.col("obs") - pl.col("exp")) ** 2 / pl.col("exp")).alias("chi2"),
            (
                2.0
                * ordered_sum(pl.when(pl.col("obs") > 0)
                              .then(pl.col("obs") * (pl.col("obs") / pl.col("exp")).log())
                              .otherwise(0.0))
            ).alias("g_stat"),
            ((pl.col("obs") - pl.col("exp")).abs().max() / pl.col("n_games").first()).alias(
                "max_abs_deviation"
            ),
        )
        .with_columns((pl.col("n_players").cast(pl.Int64) - 1).alias("df"))
        .with_columns(
            pl.struct("chi2", "df").map_batches(_chi2_sf, return_dtype=pl.Float64).alias("p_value"),
            pl.struct("g_stat", "df")
            .map_batches(_chi2_sf, return_dtype=pl.Float64)
            .alias("g_p_value"),
        )
        .select(*keys, "n_games", "df", "chi2", "p_value", "g_stat", "g_p_value", "max_abs_deviation")
        .sort(keys)
    )
    return like(out, sums)
