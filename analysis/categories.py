"""Scoring-category weight: which categories make the winner.

Three views on the ``players`` table, each per category and per group:

- :func:`category_profile` — mean points and share of the total, for winners,
  the others and everyone;
- :func:`category_logit` — standardized logistic-regression coefficients of
  winning on the category scores (how much one standard deviation of a
  category moves the log-odds of winning, the others held fixed);
- :func:`category_counterfactual` — how often the winner would not win if a
  category did not count (removed from every player's total).

The category names are a required parameter (the game's
``SCORE_CATEGORIES``: the reports pass the run's), so the same functions
serve every game.

**One definition of a win** (issue 37), the seat tables': a k-way tie for
first gives each tied winner 1/k of a win. The logit regresses the win share
(a fractional logit); the profile counts a tied winner as 1/k of a winner row
and ``1 - 1/k`` of an "other" row; the counterfactual measures the share of
the win that changes hands. (Counting any tied winner as a full win moved
random-play Hellas' city coefficient from 0.846 to 1.030 with 17.5% of games
tied.) Every function returns the same kind of frame (lazy or eager) it was
given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import polars as pl

from analysis._common import (
    Frame,
    as_lazy,
    as_list,
    game_ids,
    game_keys,
    game_partition,
    like,
    parts,
    require,
    sd_from_sums,
    whole_games,
    with_n_players,
)
from analysis.stats import (
    Design,
    cluster_codes,
    logistic_fit,
    mean_ci_exprs,
    norm_sf,
    wilson_effective_exprs,
    wilson_exprs,
    z_value,
)

__all__ = ["category_profile", "category_sums", "category_profile_from_sums", "category_logit",
           "category_counterfactual", "counterfactual_counts", "counterfactual_from_counts"]


def category_profile(
    players: Frame,
    categories: Sequence[str],
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
) -> Frame:
    """Mean points per category and its share of the total, winners vs the rest.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with the category columns, ``total`` and ``win_share``.
    categories : sequence of str
        Scoring-category columns.
    by : str or list of str, optional
        Group-by columns; results are also split by ``n_players``.
    level : float
        Confidence level of the mean's t interval.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, role, category)
    with ``role`` in ``"winner"``, ``"other"``, ``"all"``: ``n`` (player
    rows, a tied winner counting 1/k as a winner and the rest as other: the
    winners' ``n`` is the number of games), ``mean``, ``sd``, ``lo``, ``hi``
    (weighted by those fractions), and ``share`` (the category's points over
    all total points of those rows).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0], "a": [6, 1], "b": [4, 3],
    ...                   "total": [10, 4], "win_share": [1.0, 0.0]})
    >>> out = category_profile(p, ["a", "b"]).filter(pl.col("role") == "winner")
    >>> out["share"].to_list()
    [0.6, 0.4]
    """
    cats = list(categories)
    require(players, [*cats, "game_index", "total", "win_share"], "category_profile")
    sums = category_sums(as_lazy(players), cats, by)
    return like(category_profile_from_sums(sums, cats, by, level), players)


def category_sums(players: Frame, categories: Sequence[str],
                  by: str | Iterable[str] | None = None) -> Frame:
    """Per (by..., n_players, role, category), ``role`` winner or other: ``n`` and the sums
    (``points_s``, ``points_ss``, ``total_s``) :func:`category_profile` is made of; batches add up.

    A row is a winner by its win share (a k-way tie: 1/k) and other by the rest; the sums are
    weighted by those fractions, counted exactly in 1/``SHARE_UNITS`` (whole numbers: the same
    bits in any order)."""
    from analysis._common import SHARE_UNITS

    cats = list(categories)
    require(players, [*cats, "game_index", "total", "win_share"], "category_sums")
    groups = as_list(by)
    lf = with_n_players(as_lazy(players), groups)
    keys = [*groups, "n_players"]
    units = (pl.col("win_share").cast(pl.Float64) * SHARE_UNITS).round().cast(pl.Int64)
    both = pl.concat([
        lf.select(*keys, pl.lit("winner").alias("role"), units.alias("__u"), pl.col("total").cast(pl.Int64), *cats),
        lf.select(*keys, pl.lit("other").alias("role"), (SHARE_UNITS - units).alias("__u"),
                  pl.col("total").cast(pl.Int64), *cats)])
    long = (
        both.filter(pl.col("__u") > 0)
        .unpivot(index=[*keys, "role", "__u", "total"], on=cats, variable_name="category", value_name="points")
        .with_columns(pl.col("points").cast(pl.Int64))
    )
    u, x = pl.col("__u"), pl.col("points")
    sums = long.group_by([*keys, "role", "category"]).agg(
        (u.sum() / SHARE_UNITS).alias("n"),
        ((u * x).sum() / SHARE_UNITS).alias("points_s"),
        ((u * x * x).sum() / SHARE_UNITS).alias("points_ss"),
        ((u * pl.col("total")).sum() / SHARE_UNITS).alias("total_s"),
    )
    return like(sums, players)


def category_profile_from_sums(sums: Frame, categories: Sequence[str],
                               by: str | Iterable[str] | None = None, level: float = 0.95) -> Frame:
    """:func:`category_profile` from :func:`category_sums` (of one table or added up over batches)."""
    cats = list(categories)
    keys = [*as_list(by), "n_players"]
    sums = as_lazy(sums)
    both = sums.group_by([*keys, "category"]).agg(pl.col("n", "points_s", "points_ss", "total_s").sum())
    out = (
        pl.concat([sums, both.with_columns(pl.lit("all").alias("role"))], how="diagonal_relaxed")
        .with_columns(
            (pl.col("points_s") / pl.col("n").cast(pl.Float64)).alias("mean"),
            sd_from_sums("points_s", "points_ss", "n").alias("sd"),
            (pl.col("points_s") / pl.col("total_s")).alias("share"),
        )
        .with_columns(*mean_ci_exprs("mean", "sd", "n", level))
        .with_columns(
            pl.col("role").replace_strict({"winner": 0, "other": 1, "all": 2}).alias("__r"),
            pl.col("category").replace_strict({c: i for i, c in enumerate(cats)}).alias("__c"),
        )
        .sort([*keys, "__r", "__c"])
        .select(*keys, "role", "category", "n", "mean", "sd", "lo", "hi", "share")
    )
    return like(out, sums)



def category_logit(
    players: Frame,
    categories: Sequence[str],
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
) -> Frame:
    """Standardized logistic-regression coefficients of winning on category scores.

    Within each group, every category is standardized (mean 0, SD 1) and the
    win share is regressed on all of them at once (a fractional logit: a
    tied winner counts as a fractional win). A coefficient is the change in
    log-odds of winning per standard deviation of that category, the other
    categories held fixed — comparable across categories.

    Standard errors are cluster-robust by game (the rows of one game share
    one win, so they are not independent). If the categories separate
    winners from losers perfectly (one category always decides), the
    maximum-likelihood fit diverges; the fit then switches to Firth's
    penalized likelihood, which gives finite coefficients and model-based
    standard errors, and the row says ``separated = true``. A category with
    no variance in a group gets null estimates.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with the category columns, ``game_index`` and ``win_share``.
    categories : sequence of str
        Scoring-category columns.
    by : str or list of str, optional
        Group-by columns; results are also split by ``n_players``.
    level : float
        Confidence level (Wald intervals).

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, category):
    ``n`` (player rows), ``n_games``, ``sd`` (the category's SD used for
    standardizing), ``coef``, ``se``, ``lo``, ``hi``, ``z``, ``p_value``,
    ``odds_ratio`` (per SD), ``method`` (``"mle"``/``"firth"``) and
    ``separated``.
    """
    cats = list(categories)
    require(players, [*cats, "game_index", "win_share"], "category_logit")
    groups = as_list(by)
    keys_game = game_keys(players, groups)
    lf = with_n_players(as_lazy(players), groups)
    keys = [*groups, "n_players"]
    zq = z_value(level)
    rows = []
    game_cols = game_partition(lf, keys_game)
    for key, part in parts(lf, keys, [*cats, "win_share", *keys_game, *game_cols]):
        # the category points stay in their integer type; the fit standardizes a block at a time
        raw = part.select(cats).to_numpy()
        y = part["win_share"].cast(pl.Float64).to_numpy()
        game, n_games = cluster_codes(game_ids(part, game_cols))
        del part
        mu, sd = _mean_sd(raw)
        ok = np.isfinite(sd) & (sd > 0)
        fit = logistic_fit(Design(raw[:, ok], mu[ok], sd[ok]), y, groups=game)
        coef = np.full(len(cats), np.nan)
        se = np.full(len(cats), np.nan)
        coef[ok], se[ok] = fit.coef[1:], fit.se[1:]
        for c, name in enumerate(cats):
            rows.append(
                {
                    **dict(zip(keys, key)),
                    "category": name,
                    "n": len(y),
                    "n_games": n_games,
                    "sd": float(sd[c]),
                    "coef": coef[c],
                    "se": se[c],
                    "method": fit.method,
                    "separated": fit.separated,
                }
            )
    schema = lf.select(keys).collect_schema()
    out = pl.DataFrame(rows, schema_overrides=dict(schema)) if rows else pl.DataFrame(schema=schema)
    out = out.with_columns(
        (pl.col("coef") - zq * pl.col("se")).alias("lo"),
        (pl.col("coef") + zq * pl.col("se")).alias("hi"),
        (pl.col("coef") / pl.col("se")).alias("z"),
        pl.col("coef").exp().alias("odds_ratio"),
    ).with_columns(
        pl.col("z")
        .map_batches(
            lambda s: pl.Series(2 * norm_sf(np.abs(s.to_numpy()))), return_dtype=pl.Float64
        )
        .alias("p_value")
    )
    out = out.select(
        *keys, "category", "n", "n_games", "sd", "coef", "se", "lo", "hi", "z", "p_value",
        "odds_ratio", "method", "separated",
    )
    return like(out, players)


def _mean_sd(raw):
    """Column means and SDs (ddof 1) of an (n, k) array, one float column at a time."""
    n, k = raw.shape
    mu, sd = np.zeros(k), np.zeros(k)
    for c in range(k):
        x = raw[:, c].astype(float)
        mu[c] = x.mean() if n else np.nan
        sd[c] = x.std(ddof=1) if n > 1 else 0.0
    return mu, sd


def category_counterfactual(
    players: Frame,
    categories: Sequence[str],
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
) -> Frame:
    """How much of the win would change hands if a category did not count.

    For each category, remove it from every player's total and recompute the
    win shares of each game (highest remaining total; a k-way tie for first
    gives each 1/k, as everywhere). Compare them with the actual shares (from
    ``total``, the same rule):

    - ``kept``: games whose win shares are unchanged;
    - ``shared``: games where part of the win changes hands (a tie made or
      broken, 0 < moved < 1);
    - ``lost``: the win that changes hands, summed over games — per game
      ``sum_i max(0, share_i - new share_i)``: 1 when the winner alone loses
      to another, ½ when a sole winner is caught to a 2-way tie. ``p_lost``
      is its mean (a share of games' wins, counted as the seat tables count
      a win), with an interval from the observed variance of the per-game
      values (``lost_ss``: their sum of squares).

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with the category columns, ``game_index`` and ``total``.
    categories : sequence of str
        Scoring-category columns.
    by : str or list of str, optional
        Group-by columns; results are also split by ``n_players``.
    level : float
        Confidence level of the Wilson intervals.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, category):
    ``n_games``, ``kept``, ``shared`` (game counts), ``lost`` (wins that
    change hands, fractional), ``lost_ss``, ``p_lost`` with ``lost_lo``,
    ``lost_hi``, and ``p_changed`` (share of games whose win shares change at
    all) with ``changed_lo``, ``changed_hi``.

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "a": [5, 0, 1, 1],
    ...                   "b": [1, 3, 2, 3], "total": [6, 3, 3, 4]})
    >>> out = category_counterfactual(p, ["a", "b"])
    >>> out.select("category", "lost", "shared", "kept").rows()
    [('a', 1.0, 0, 1), ('b', 0.5, 1, 1)]
    """
    cats = list(categories)
    require(players, [*cats, "game_index", "total"], "category_counterfactual")
    counts = counterfactual_counts(as_lazy(players), cats, by)
    return like(counterfactual_from_counts(counts, cats, by, level), players)


def counterfactual_counts(players: Frame, categories: Sequence[str],
                          by: str | Iterable[str] | None = None) -> Frame:
    """Per (by..., n_players, category): the game counts ``n_games``, ``kept``, ``shared``, ``lost``
    of :func:`category_counterfactual` (batches of whole games add up)."""
    cats = list(categories)
    require(players, [*cats, "game_index", "total"], "counterfactual_counts")
    groups = as_list(by)
    gkeys = game_keys(players, groups)
    lf = with_n_players(as_lazy(players), groups)
    keys = [*groups, "n_players"]
    fast = _counterfactual_counts_whole(lf, cats, keys)
    if fast is not None:
        return like(fast, players)
    from analysis._common import SHARE_UNITS

    total = pl.col("total").cast(pl.Int64)
    part = game_partition(lf, gkeys)

    def units(t):       # a row's win share in 1/SHARE_UNITS: a k-way tie for first gets 1/k each
        top = t == t.max().over(part)
        return pl.when(top).then(SHARE_UNITS // top.cast(pl.Int64).sum().over(part)).otherwise(0)

    lf = lf.with_columns(units(total).alias("__won"))
    per_cat = []
    for c in cats:
        alt = total - pl.col(c).cast(pl.Int64)
        g = (
            lf.with_columns(units(alt).alias("__alt"))
            .group_by(part if part != gkeys else [*gkeys, "n_players"])
            .agg(
                *([pl.col(k).first() for k in dict.fromkeys([*keys]) if k not in part] if part != gkeys else []),
                (pl.col("__won") - pl.col("__alt")).clip(lower_bound=0).sum().alias("__moved"),
            )
            .with_columns(pl.lit(c).alias("category"))
        )
        per_cat.append(g)
    moved = pl.col("__moved")
    out = (
        pl.concat(per_cat)
        .group_by([*keys, "category"])
        .agg(
            pl.len().alias("n_games"),
            (moved == 0).sum().alias("kept"),
            ((moved > 0) & (moved < SHARE_UNITS)).sum().alias("shared"),
            (moved.sum() / SHARE_UNITS).alias("lost"),
            ((moved * moved).sum() / (SHARE_UNITS * SHARE_UNITS)).alias("lost_ss"),
        )
    )
    return like(out, players)


def _counterfactual_counts_whole(lf, cats, keys):
    """:func:`counterfactual_counts` over a (games, n) matrix (``analysis._common.whole_games``), or None."""
    found = whole_games(lf, keys, ["total", *cats])
    if found is None:
        return None
    from analysis._common import SHARE_UNITS

    key, m = found
    total = m["total"].astype(np.int64)

    def units(t):       # win shares in 1/SHARE_UNITS (a k-way tie for first: 1/k each)
        top = t == t.max(axis=1, keepdims=True)
        return top * (SHARE_UNITS // top.sum(axis=1, keepdims=True))

    won = units(total)
    rows = []
    for c in cats:
        moved = np.clip(won - units(total - m[c].astype(np.int64)), 0, None).sum(axis=1)
        rows.append({**key, "category": c, "n_games": len(total), "kept": int((moved == 0).sum()),
                     "shared": int(((moved > 0) & (moved < SHARE_UNITS)).sum()),
                     "lost": float(moved.sum() / SHARE_UNITS),
                     "lost_ss": float((moved * moved).sum() / (SHARE_UNITS * SHARE_UNITS))})
    schema = {**dict(lf.select(keys).collect_schema()), "category": pl.String,
              **{k: pl.UInt32 for k in ("n_games", "kept", "shared")}, "lost": pl.Float64, "lost_ss": pl.Float64}
    return pl.DataFrame(rows, schema=schema).lazy()


def _mean_se(s: str, ss: str, n: str) -> pl.Expr:
    """Standard error of a mean from the count, sum and sum of squares of its values (null below 2)."""
    n_ = pl.col(n).cast(pl.Float64)
    var = ((pl.col(ss) - pl.col(s) * pl.col(s) / n_) / (n_ - 1.0)).clip(lower_bound=0.0)
    return pl.when(n_ > 1).then((var / n_).sqrt())


def counterfactual_from_counts(counts: Frame, categories: Sequence[str],
                               by: str | Iterable[str] | None = None, level: float = 0.95) -> Frame:
    """:func:`category_counterfactual` from :func:`counterfactual_counts`."""
    cats = list(categories)
    keys = [*as_list(by), "n_players"]
    out = (
        as_lazy(counts)
        .with_columns(
            (pl.col("lost") / pl.col("n_games")).alias("p_lost"),
            *wilson_effective_exprs(pl.col("lost") / pl.col("n_games"), _mean_se("lost", "lost_ss", "n_games"),
                                    "n_games", level, prefix="lost_"),
            ((pl.col("n_games") - pl.col("kept")) / pl.col("n_games")).alias("p_changed"),
            *wilson_exprs(pl.col("n_games") - pl.col("kept"), "n_games", level, prefix="changed_"),
            pl.col("category").replace_strict({c: i for i, c in enumerate(cats)}).alias("__c"),
        )
        .sort([*keys, "__c"])
        .drop("__c")
    )
    return like(out, counts)
