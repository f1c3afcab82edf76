"""Strategy ratings from games with mixed strategies.

A game with n players is read as its ``n(n-1)/2`` pairwise comparisons of
finishing order: within one game, player a *beats* player b when a finished
better (lower ``rank``, or higher ``total`` when there is no rank column);
a tie for any place counts half a win each. Pairs of players of the same
strategy say nothing about strategy strength and are left out.

- :func:`pairwise_comparisons` — the comparisons themselves (one row per pair
  of players in a game);
- :func:`pairwise_win_matrix` — for each ordered pair of strategies, the share
  of comparisons won, with a Wilson interval;
- :func:`bradley_terry` — Bradley–Terry strengths (log scale, centred at 0)
  fitted by maximum likelihood (Newton's method on the logistic form), with
  intervals and an Elo-scale conversion.

**Intervals.** Comparisons are not independent in two ways. The pairs of
one game share that game; and, in a comparison or a ladder, game *i* of every
lineup is played from the same seed (common random numbers), so the same
tiles favour the same strategy in every lineup. The second is what made the
head-to-head intervals too narrow (issue 37: over 200 re-runs of the compare
design the spread was 1.15–1.28 times the reported standard error; the
"95%" Wilson intervals covered 88–91%), not the first. Both functions take a
``cluster`` argument naming a comparison's independent unit — ``game_index``
when every run used one seed — and default to the game; the win-matrix
interval is :func:`analysis.stats.share_interval`'s (cluster-robust standard
error, Wilson on the effective sample size) and the Bradley–Terry standard
errors are the sandwich over the same clusters. Every function returns the
same kind of frame (lazy or eager) it was given.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import polars as pl
from scipy import sparse, special
from scipy.sparse.csgraph import connected_components

from analysis._common import Frame, as_lazy, as_list, columns, game_keys, like, require
from analysis.stats import cluster_share_table, t_ppf, z_value

__all__ = ["pairwise_comparisons", "pairwise_win_matrix", "bradley_terry", "ELO_SCALE", "dominance", "rating_text",
           "too_few_clusters"]

#: Elo points per unit of Bradley–Terry log-strength (400 / ln 10).
ELO_SCALE = 400.0 / math.log(10.0)


def bt_information(a, b, v, k):
    """The Fisher information (k x k) of Bradley-Terry strengths from comparisons ``a`` vs ``b``
    (index arrays) with weights ``v`` = w p (1 - p)."""
    info = np.zeros((k, k))
    np.add.at(info, (a, a), v)
    np.add.at(info, (b, b), v)
    np.add.at(info, (a, b), -v)
    np.add.at(info, (b, a), -v)
    return info


def pairwise_comparisons(players: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """One row per pair of players within a game, with who finished ahead.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with ``game_index``, ``seat``, ``strategy`` and ``rank``
        (or ``total``).
    by : str or list of str, optional
        Extra columns that, with ``game_index``, identify a game (kept in the
        output).

    Returns
    -------
    Same kind as ``players`` with the game keys and ``seat_a < seat_b``,
    ``strategy_a``, ``strategy_b``, ``score_a`` (1 if a finished ahead of b,
    0.5 on a tie, 0 behind).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 0], "seat": [0, 1, 2],
    ...                   "strategy": ["x", "y", "z"], "rank": [2, 1, 2]})
    >>> pairwise_comparisons(p)["score_a"].to_list()
    [0.0, 0.5, 1.0]
    """
    require(players, ["game_index", "seat", "strategy"], "pairwise_comparisons")
    cols = columns(players)
    if "rank" in cols:
        place = pl.col("rank").cast(pl.Float64)
    elif "total" in cols:
        place = -pl.col("total").cast(pl.Float64)
    else:
        raise ValueError("pairwise_comparisons needs a 'rank' or a 'total' column")
    keys = game_keys(players, as_list(by))
    lf = as_lazy(players).select(
        *keys, "seat", pl.col("strategy").cast(pl.String), place.alias("__place")
    )
    pairs = (
        lf.join(lf, on=keys, suffix="_b")
        .filter(pl.col("seat") < pl.col("seat_b"))
        .select(
            *keys,
            pl.col("seat").alias("seat_a"),
            "seat_b",
            pl.col("strategy").alias("strategy_a"),
            "strategy_b",
            pl.when(pl.col("__place") < pl.col("__place_b"))
            .then(1.0)
            .when(pl.col("__place") == pl.col("__place_b"))
            .then(0.5)
            .otherwise(0.0)
            .alias("score_a"),
        )
        .sort([*keys, "seat_a", "seat_b"])
    )
    return like(pairs, players)


def pairwise_win_matrix(
    players: Frame,
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
    cluster: str | Iterable[str] | None = None,
) -> Frame:
    """Share of head-to-head comparisons each strategy wins against each other.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with ``game_index``, ``seat``, ``strategy``, ``rank``.
    by : str or list of str, optional
        Group-by columns (e.g. ``n_players``, ``variant``).
    level : float
        Confidence level of the interval.
    cluster : str or list of str, optional
        Columns naming a comparison's independent unit (with ``by``): pass
        ``"game_index"`` when every run of the table was played from the same
        seed. Default: the game (its :func:`analysis._common.game_keys`).

    Returns
    -------
    Same kind as ``players``, one row per (by..., strategy, opponent) with
    ``strategy != opponent``: ``n`` (comparisons), ``n_games``, ``wins`` (ties
    count half), ``ties``, ``win_share``, ``lo``, ``hi`` (Wilson on the
    effective sample size of the cluster-robust standard error ``se``),
    ``se``, ``clusters``. The rows for (a, b) and (b, a) mirror each other.

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
    ...                   "strategy": ["x", "y", "y", "x"], "rank": [1, 2, 1, 1]})
    >>> pairwise_win_matrix(p).select("strategy", "opponent", "win_share").rows()
    [('x', 'y', 0.75), ('y', 'x', 0.25)]
    """
    groups = as_list(by)
    keys = game_keys(players, groups)
    comp = as_lazy(pairwise_comparisons(players, groups)).filter(
        pl.col("strategy_a") != pl.col("strategy_b")
    )
    fwd = comp.select(
        *keys,
        pl.col("strategy_a").alias("strategy"),
        pl.col("strategy_b").alias("opponent"),
        pl.col("score_a").alias("score"),
    )
    back = comp.select(
        *keys,
        pl.col("strategy_b").alias("strategy"),
        pl.col("strategy_a").alias("opponent"),
        (1.0 - pl.col("score_a")).alias("score"),
    )
    both = pl.concat([fwd, back])
    units = keys if cluster is None else list(dict.fromkeys([*groups, *as_list(cluster)]))
    sides = [*groups, "strategy", "opponent"]
    ci = cluster_share_table(both, "score", sides, [u for u in units if u not in sides], level=level)
    out = (
        both.group_by(sides)
        .agg(
            pl.len().alias("n"),
            pl.struct(keys).n_unique().alias("n_games"),
            pl.col("score").sum().alias("wins"),
            (pl.col("score") == 0.5).sum().alias("ties"),
        )
        .with_columns((pl.col("wins") / pl.col("n")).alias("win_share"))
        .join(ci.lazy().select(*sides, "lo", "hi", "se", "clusters"), on=sides, how="left")
        .sort(sides)
    )
    return like(out, players)


def _pinv(info):
    # the information of centred strengths is a graph Laplacian: its null
    # direction (all ones) must be cut off, not inverted as rounding noise
    return np.linalg.pinv(info, rcond=1e-10, hermitian=True)


def _fit_bt(a, b, y, game, k, prior, robust, max_iter=100, tol=1e-10, full=False):
    """Newton's method for BT log-strengths with sum-zero constraint: ``(theta, se, converged)``, and with
    ``full`` the covariance of ``theta`` last (the cluster-robust sandwich when ``robust``)."""
    if prior > 0:  # virtual comparisons: `prior` per pair of strategies that met (see _prior_pairs), drawn
        ia, ib = _prior_pairs(a, b, k)
        a = np.concatenate([a, ia, ib])
        b = np.concatenate([b, ib, ia])
        y = np.concatenate([y, np.full(2 * len(ia), 0.5)])
        w = np.concatenate([np.ones(len(game)), np.full(2 * len(ia), prior / 2.0)])
        game = np.concatenate([game, np.full(2 * len(ia), -1)])
    else:
        w = np.ones(len(a))
    theta = np.zeros(k)
    converged = False
    for _ in range(max_iter):
        p = special.expit(theta[a] - theta[b])
        r = w * (y - p)
        grad = np.bincount(a, r, k) - np.bincount(b, r, k)
        step = _pinv(bt_information(a, b, w * p * (1 - p), k)) @ grad
        big = np.max(np.abs(step))
        if big > 2.0:
            step *= 2.0 / big
        theta = theta + step
        theta -= theta.mean()
        if big < tol:
            converged = True
            break
    p = special.expit(theta[a] - theta[b])
    v = w * p * (1 - p)
    info = bt_information(a, b, v, k)
    bread = _pinv(info)
    cov = bread
    if robust:
        real = game >= 0  # virtual (prior) comparisons carry game -1
        codes = game[real]
        g = int(codes.max()) + 1 if len(codes) else 0
        r = (y - p)[real]
        s = np.zeros((g, k))
        np.add.at(s, (codes, a[real]), r)
        np.add.at(s, (codes, b[real]), -r)
        meat = s.T @ s * (g / max(g - 1, 1))
        cov = bread @ meat @ bread
        if prior > 0:
            # a strategy that won (or lost) every comparison has residuals near 0 in every game,
            # so the sandwich would claim a precision the data do not hold (±3 Elo for a strategy
            # with no wins in 14,400 comparisons); keep the model-based variance, which includes
            # the prior, where it is the larger
            cov = np.diag(np.maximum(np.diag(cov), np.diag(bread)))
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    return (theta, se, converged, cov) if full else (theta, se, converged)


def _clusters_per_strategy(a, b, game, k):
    """Per strategy, the clusters (independent units) its comparisons fall in."""
    pairs = np.unique(np.concatenate([np.stack([a, game], 1), np.stack([b, game], 1)]), axis=0)
    return np.bincount(pairs[:, 0], minlength=k)


def _prior_pairs(a, b, k):
    """The pairs ``(i < j)`` that get the prior's virtual draws: those that met, and, when the
    strategies fall apart into groups that never met, every pair across two groups (which joins them).

    Draws between every pair would pull a strategy that met few others toward the mean of all: a level
    anchored by 60 games against one neighbour got as many virtual draws (one per other strategy) as a
    tenth of its real games, against strategies it never played."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    met = np.unique(np.stack([lo[lo != hi], hi[lo != hi]], 1), axis=0) if len(a) else np.zeros((0, 2), int)
    adj = sparse.coo_matrix((np.ones(len(met)), (met[:, 0], met[:, 1])), shape=(k, k))
    label = connected_components(adj, directed=False)[1]
    ia, ib = np.triu_indices(k, 1)
    across = label[ia] != label[ib]
    pairs = np.concatenate([met, np.stack([ia[across], ib[across]], 1)]).astype(np.int64)
    return pairs[:, 0], pairs[:, 1]


def _connected(a, b, k) -> bool:
    adj = sparse.coo_matrix((np.ones(len(a)), (a, b)), shape=(k, k))
    return connected_components(adj, directed=False)[0] == 1


def bradley_terry(
    players: Frame,
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
    prior: float | None = None,
    robust: bool = True,
    elo_offset: float = 1500.0,
    cluster: str | Iterable[str] | None = None,
) -> Frame:
    """Bradley–Terry strengths of strategies from within-game finishing order.

    Model: strategy i finishes ahead of strategy j with probability
    ``1 / (1 + exp(-(theta_i - theta_j)))``; each pair of players of
    different strategies in a game is one comparison, a tie counts half a
    win each. (With Gumbel-noise performances — the Plackett–Luce model of a
    finishing order — the pairwise margins are exactly Bradley–Terry.) The
    maximum-likelihood ``theta`` is found by Newton's method with the
    strengths centred at 0.

    **Few clusters.** The cluster-robust variance of a strategy rests on the
    clusters its comparisons fall in (``clusters``, ``G_s``): its interval is
    Student's t on ``G_s - 1`` degrees of freedom, and with ``G_s < 2`` (a
    one-round ladder: every game of a search level from one seed) there is no
    interval at all — ``se``, ``lo``, ``hi``, ``elo_lo``, ``elo_hi`` are NaN.
    With one cluster the strategy's residuals sum to its score equation, which
    is 0 at the estimate, so the sandwich would claim near-perfect precision.

    When some strategy won or lost every comparison, or the strategies do not
    all meet (directly or through others), the maximum-likelihood estimate
    does not exist. ``prior`` then defaults to 1: one virtual drawn
    comparison between every pair of strategies that met (and between every
    pair across groups that never met), shrinking toward equal strength; such rows say ``regularized = true``, and their standard errors
    are the larger of the cluster-robust and the model-based one (the
    sandwich alone is near 0 for a strategy that never wins).

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with ``game_index``, ``seat``, ``strategy``, ``rank``.
    by : str or list of str, optional
        Group-by columns (e.g. ``n_players``); one fit per group.
    level : float
        Confidence level (Wald intervals on ``theta``; robust: Student's t on
        each strategy's clusters less one).
    prior : float, optional
        Virtual drawn comparisons per pair of strategies that met. None: 0, or 1 when
        the estimate would not exist.
    robust : bool
        Cluster-robust standard errors (by game, or by ``cluster``); False
        gives model-based ones, which assume independent comparisons.
    elo_offset : float
        Elo rating of a strength of 0 (the average strategy).
    cluster : str or list of str, optional
        Columns naming the independent unit of the robust standard errors
        (with ``by``): ``"game_index"`` when every run used the same seed.
        Default: the game.

    Returns
    -------
    Same kind as ``players``, one row per (by..., strategy): ``n`` (its
    comparisons), ``n_games``, ``clusters`` (the independent units its
    comparisons fall in), ``wins``, ``theta``, ``se``, ``lo``, ``hi``,
    ``elo``, ``elo_lo``, ``elo_hi`` (``elo = elo_offset + 400/ln 10 *
    theta``), ``converged``, ``regularized``.

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3,
    ...                   "strategy": ["x", "y", "y", "x", "x", "y"],
    ...                   "rank": [1, 2, 2, 1, 2, 1]})
    >>> out = bradley_terry(p)
    >>> [round(t, 4) for t in out["theta"]]   # x won 2 of 3: log(2) apart
    [0.3466, -0.3466]
    """
    groups = as_list(by)
    keys = game_keys(players, groups)
    comp = as_lazy(pairwise_comparisons(players, groups)).filter(
        pl.col("strategy_a") != pl.col("strategy_b")
    )
    names_all = (
        pl.concat([comp.select(pl.col("strategy_a").alias("s")), comp.select(pl.col("strategy_b").alias("s"))])
        .unique()
        .sort("s")
        .collect()["s"]
    )
    code = {s: i for i, s in enumerate(names_all.to_list())}
    group_id = pl.struct(groups).rank("dense") - 1 if groups else pl.lit(0, dtype=pl.UInt32)
    comp = (
        comp.with_columns(
            pl.col("strategy_a").replace_strict(code, return_dtype=pl.Int64).alias("__a"),
            pl.col("strategy_b").replace_strict(code, return_dtype=pl.Int64).alias("__b"),
            (pl.struct(keys if cluster is None else list(dict.fromkeys([*groups, *as_list(cluster)])))
             .rank("dense") - 1).cast(pl.Int64).alias("__game"),
            (pl.struct(keys).rank("dense") - 1).cast(pl.Int64).alias("__one_game"),
            group_id.cast(pl.Int64).alias("__group"),
        )
        .sort("__group", maintain_order=True)
        .collect()
    )
    zq = z_value(level)
    gid = comp["__group"].to_numpy()
    a_all, b_all = comp["__a"].to_numpy(), comp["__b"].to_numpy()
    y_all = comp["score_a"].to_numpy().astype(float)
    game_all = comp["__game"].to_numpy()
    one_game_all = comp["__one_game"].to_numpy()
    bounds = np.flatnonzero(np.diff(gid)) + 1
    starts = np.concatenate([[0], bounds]) if len(gid) else np.array([], dtype=int)
    ends = np.concatenate([bounds, [len(gid)]]) if len(gid) else np.array([], dtype=int)
    cols: dict[str, list] = {c: [] for c in ("__row", "strategy", "n", "n_games", "clusters", "wins",
                                             "theta", "se", "q", "converged", "regularized")}
    q_level = 0.5 + level / 2.0
    for lo_i, hi_i in zip(starts, ends):
        local, inv = np.unique(np.concatenate([a_all[lo_i:hi_i], b_all[lo_i:hi_i]]), return_inverse=True)
        k, m = len(local), hi_i - lo_i
        a, b = inv[:m], inv[m:]
        y = y_all[lo_i:hi_i]
        game = np.unique(game_all[lo_i:hi_i], return_inverse=True)[1].astype(np.int64)
        one_game = one_game_all[lo_i:hi_i]
        wins = np.bincount(a, y, k) + np.bincount(b, 1 - y, k)
        n = np.bincount(a, minlength=k) + np.bincount(b, minlength=k)
        degenerate = np.any(wins <= 0) or np.any(wins >= n) or not _connected(a, b, k)
        use_prior = (1.0 if degenerate else 0.0) if prior is None else float(prior)
        theta, se, conv = _fit_bt(a, b, y, game, k, use_prior, robust)
        n_cl = _clusters_per_strategy(a, b, game, k)
        if robust:      # the sandwich per strategy: none from one cluster, Student's t on G_s - 1
            se = np.where(n_cl >= 2, se, np.nan)
            q = np.where(n_cl >= 2, t_ppf(q_level, np.maximum(n_cl - 1, 1).astype(float)), np.nan)
        else:
            q = np.full(k, zq)
        cols["__row"] += [lo_i] * k
        cols["strategy"] += names_all.gather(local).to_list()
        cols["n"] += n.tolist()
        cols["n_games"] += [np.unique(one_game[(a == i) | (b == i)]).size for i in range(k)]
        cols["clusters"] += n_cl.tolist()
        cols["wins"] += wins.tolist()
        cols["theta"] += theta.tolist()
        cols["se"] += se.tolist()
        cols["q"] += q.tolist()
        cols["converged"] += [conv] * k
        cols["regularized"] += [use_prior > 0] * k
    out = pl.DataFrame(
        cols,
        schema={"__row": pl.Int64, "strategy": pl.String, "n": pl.Int64, "n_games": pl.Int64,
                "clusters": pl.Int64, "wins": pl.Float64, "theta": pl.Float64, "se": pl.Float64,
                "q": pl.Float64, "converged": pl.Boolean, "regularized": pl.Boolean},
        strict=False,
    )
    key_values = comp.select(groups).with_row_index("__row").with_columns(pl.col("__row").cast(pl.Int64))
    out = out.join(key_values, on="__row", how="left").drop("__row")
    out = out.with_columns(
        (pl.col("theta") - pl.col("q") * pl.col("se")).alias("lo"),
        (pl.col("theta") + pl.col("q") * pl.col("se")).alias("hi"),
    ).with_columns(
        (elo_offset + ELO_SCALE * pl.col("theta")).alias("elo"),
        (elo_offset + ELO_SCALE * pl.col("lo")).alias("elo_lo"),
        (elo_offset + ELO_SCALE * pl.col("hi")).alias("elo_hi"),
    )
    out = out.select(
        *groups, "strategy", "n", "n_games", "clusters", "wins", "theta", "se", "lo", "hi",
        "elo", "elo_lo", "elo_hi", "converged", "regularized",
    ).sort([*groups, "strategy"])
    return like(out, players)


def rating_text(row, sep: str = ",") -> str:
    """A rating row of :func:`bradley_terry` as "1686 [1662, 1709]", or "1686 (no interval: 1 seed)" when
    its clusters are too few for one (``sep``: the thousands separator, "" for none)."""
    fmt = f"{{:{sep}.0f}}"
    if not (math.isfinite(row["elo_lo"]) and math.isfinite(row["elo_hi"])):
        g = row.get("clusters")
        return fmt.format(row["elo"]) + (f" (no interval: {g} seed{'s' * (g != 1)})" if g is not None
                                         else " (no interval)")
    return f"{fmt.format(row['elo'])} [{fmt.format(row['elo_lo'])}, {fmt.format(row['elo_hi'])}]"


def too_few_clusters(ratings: Frame) -> list[tuple[str, int]]:
    """``[(strategy, clusters), ...]`` of the rows of :func:`bradley_terry` that have no interval
    (fewer than 2 independent clusters)."""
    r = ratings.collect() if isinstance(ratings, pl.LazyFrame) else ratings
    if "clusters" not in r.columns:
        return []
    bad = r.filter(pl.col("clusters") < 2)
    return list(zip(bad["strategy"].to_list(), bad["clusters"].to_list()))


def dominance(pairwise: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """Is there a strategy that beats every other one? From :func:`pairwise_win_matrix`.

    A strategy *beats* an opponent when the whole 95% interval of its
    head-to-head win share (as :func:`pairwise_win_matrix` gives it: in a
    comparison, clustered by seed) lies above ½, and *loses* to it when the whole
    interval lies below; it is *dominant* when it beats every other strategy
    of the field (its weakest head-to-head is above ½ with the CI).

    Returns
    -------
    Same kind as ``pairwise``, one row per (by..., strategy), strongest first:
    ``opponents``, ``beats``, ``loses``, ``undecided``, ``weakest_against``
    (the opponent of its lowest win share), ``weakest_share``, ``weakest_lo``,
    ``weakest_hi``, ``n_min`` (fewest comparisons against one opponent),
    ``dominant``.

    Examples
    --------
    >>> pw = pl.DataFrame({"strategy": ["a", "a", "b", "b", "c", "c"], "opponent": ["b", "c", "a", "c", "a", "b"],
    ...                    "n": [100] * 6, "win_share": [.7, .6, .3, .5, .4, .5], "lo": [.6, .52, .21, .4, .3, .4],
    ...                    "hi": [.79, .7, .4, .6, .48, .6]})
    >>> dominance(pw).filter(pl.col("dominant"))["strategy"].to_list()
    ['a']
    """
    groups = as_list(by)
    lf = as_lazy(pairwise)
    def weakest(col):      # at the lowest win share; a tie goes to the first opponent by name (the same every run)
        return pl.col(col).sort_by(["win_share", "opponent"]).first()
    out = (lf.group_by([*groups, "strategy"])
           .agg(pl.len().alias("opponents"),
                # an interval from one seed is NaN (no bound): neither beats nor loses (NaN sorts above all)
                ((pl.col("lo") > 0.5) & pl.col("lo").is_not_nan()).sum().cast(pl.Int64).alias("beats"),
                ((pl.col("hi") < 0.5) & pl.col("hi").is_not_nan()).sum().cast(pl.Int64).alias("loses"),
                weakest("opponent").alias("weakest_against"),
                weakest("win_share").alias("weakest_share"),
                weakest("lo").alias("weakest_lo"),
                weakest("hi").alias("weakest_hi"),
                pl.col("n").min().alias("n_min"))
           .with_columns((pl.col("opponents") - pl.col("beats") - pl.col("loses")).alias("undecided"),
                         (pl.col("beats") == pl.col("opponents")).alias("dominant"))
           .sort([*groups, "beats", "weakest_share", "strategy"],
                 descending=[*([False] * len(groups)), True, True, False])
           .select(*groups, "strategy", "opponents", "beats", "loses", "undecided", "weakest_against",
                   "weakest_share", "weakest_lo", "weakest_hi", "n_min", "dominant"))
    return like(out, pairwise)
