"""Hellas quarries: yields, closures, tile numbers, marble income and luck.

Inputs are the runner's ``events`` table (one row per quarry action:
``game_index``, ``round``, ``seat``, ``income_0..income_3``, ``tiles_0..tiles_3``,
``dest_0..dest_3``, ``opened``, ``closed``, ``worker_to``) and the ``players``
table (``marble_income`` = marble a player gained from quarries).

The quarry-tile numbers and yields are assumptions of the spec (H-D2), so
every report built on these tables must say so.

Tile fates (from ``dest_k``): ``raised`` — put on an active quarry (a higher
number); ``opened`` — started a new quarry (``dest_k == opened``);
``set_aside`` — lower than every quarry with no field left (H-D7, ``-2``).
The three set-up tiles are not events, so quarry *top numbers* are only
known from the first tile placed on a field; :func:`quarry_tiles_by_round`
summarises the revealed tiles, which is what the events determine.

Every function returns the same kind of frame (lazy or eager) it was given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np
import polars as pl
from scipy import special

from analysis._common import (
    GAME_KEY,
    Frame,
    as_lazy,
    as_list,
    columns,
    game_ids,
    game_keys,
    game_partition,
    like,
    parts,
    require,
    with_n_players,
)
from analysis.stats import (
    Design,
    cluster_codes,
    logistic_fit,
    mean_ci_exprs,
    norm_sf,
    z_value,
)

__all__ = [
    "quarry_yield_distribution",
    "quarry_yield_summary",
    "quarry_closures_by_round",
    "quarry_closures_per_game",
    "quarry_yield_counts",
    "quarry_yield_distribution_from_counts",
    "quarry_yield_summary_from_counts",
    "quarry_closure_counts",
    "quarry_closures_from_counts",
    "marble_income_sums",
    "marble_income_from_sums",
    "quarry_tiles_by_round",
    "income_from_events",
    "marble_income_by_seat",
    "with_quarry_luck",
    "quarry_luck_effect",
]


def _numbered(frame: Frame, stem: str) -> list[str]:
    pat = re.compile(rf"^{stem}_(\d+)$")
    found = [c for c in columns(frame) if pat.match(c)]
    if not found:
        raise ValueError(f"events table has no '{stem}_0', '{stem}_1', … columns")
    return sorted(found, key=lambda c: int(pat.match(c).group(1)))


def _with_yield(events: Frame) -> pl.LazyFrame:
    incomes = _numbered(events, "income")
    return as_lazy(events).with_columns(
        pl.sum_horizontal([pl.col(c).cast(pl.Int64) for c in incomes]).alias("quarry_yield")
    )


def quarry_yield_distribution(
    events: Frame, by: str | Iterable[str] | None = None, per_round: bool = True
) -> Frame:
    """Distribution of the marble one quarry action pays out (all players).

    Parameters
    ----------
    events : polars.DataFrame or polars.LazyFrame
        Quarry events with ``income_0..`` columns (and ``round``).
    by : str or list of str, optional
        Group-by columns.
    per_round : bool
        Also split by ``round``.

    Returns
    -------
    Same kind as ``events``, one row per (by..., [round], quarry_yield):
    ``n_actions`` and ``share`` (of the group's quarry actions).

    Examples
    --------
    >>> e = pl.DataFrame({"game_index": [0, 0, 1], "round": [0, 1, 0],
    ...                   "income_0": [2, 0, 1], "income_1": [1, 0, 2]})
    >>> quarry_yield_distribution(e, per_round=False).rows()
    [(0, 1, 0.3333333333333333), (3, 2, 0.6666666666666666)]
    """
    counts = quarry_yield_counts(events, by, per_round)
    return like(quarry_yield_distribution_from_counts(counts, by, per_round), events)


def quarry_yield_counts(events: Frame, by: str | Iterable[str] | None = None, per_round: bool = True) -> Frame:
    """``n_actions``, the quarry actions per (by..., [round], quarry_yield).

    Counts of batches of games add up (``analysis._common.add_up``) to those of all
    of them; :func:`quarry_yield_distribution_from_counts` and
    :func:`quarry_yield_summary_from_counts` read them.
    """
    keys = as_list(by) + (["round"] if per_round else [])
    out = _with_yield(events).group_by([*keys, "quarry_yield"]).agg(pl.len().cast(pl.Int64).alias("n_actions"))
    return like(out, events)


def quarry_yield_distribution_from_counts(
    counts: Frame, by: str | Iterable[str] | None = None, per_round: bool = True
) -> Frame:
    """:func:`quarry_yield_distribution` from :func:`quarry_yield_counts` (a finer split is summed)."""
    keys = as_list(by) + (["round"] if per_round else [])
    lf = as_lazy(counts)
    if "round" in columns(lf) and not per_round:
        lf = lf.group_by([*keys, "quarry_yield"]).agg(pl.col("n_actions").sum())
    out = (
        lf.with_columns(pl.col("n_actions").cast(pl.UInt32))
        .with_columns(
            (pl.col("n_actions") / pl.col("n_actions").sum().over(keys or None)).alias("share")
            if keys
            else (pl.col("n_actions") / pl.col("n_actions").sum()).alias("share")
        )
        .select(*keys, "quarry_yield", "n_actions", "share")
        .sort([*keys, "quarry_yield"])
    )
    return like(out, counts)


def quarry_yield_summary(
    events: Frame,
    by: str | Iterable[str] | None = None,
    per_round: bool = True,
    level: float = 0.95,
) -> Frame:
    """Mean (with t interval), spread and quantiles of the yield per quarry action.

    Returns
    -------
    Same kind as ``events``, one row per (by..., [round]): ``n_actions``,
    ``mean``, ``sd``, ``lo``, ``hi``, ``median``, ``p90``, ``max``,
    ``share_zero`` (actions that paid nobody).
    """
    # a yield is a small integer: every statistic comes from the counts of each value, so
    # no group holds its actions (10^7 games have ~7.6 * 10^7 of them)
    counts = quarry_yield_counts(as_lazy(events), by, per_round)
    return like(quarry_yield_summary_from_counts(counts, by, per_round, level), events)


def quarry_yield_summary_from_counts(
    counts: Frame, by: str | Iterable[str] | None = None, per_round: bool = True, level: float = 0.95
) -> Frame:
    """:func:`quarry_yield_summary` from :func:`quarry_yield_counts` (of one table or added up)."""
    keys = as_list(by) + (["round"] if per_round else [])
    df = (
        as_lazy(counts)
        .group_by([*keys, "quarry_yield"])
        .agg(pl.col("n_actions").sum().alias("c"))
        .sort([*keys, "quarry_yield"])
        .collect(engine="streaming")
    )
    rows = []
    for key, part in df.group_by(keys, maintain_order=True) if keys else [((), df)]:
        v = part["quarry_yield"].cast(pl.Float64).to_numpy()
        c = part["c"].cast(pl.Int64).to_numpy()
        rows.append({**dict(zip(keys, key)), **_count_stats(v, c)})
    schema = {**dict(df.select(keys).schema), "n_actions": pl.UInt32}
    out = pl.DataFrame(rows, schema_overrides=schema) if rows else pl.DataFrame(
        schema={**schema, **{k: pl.Float64 for k in ("mean", "sd", "median", "p90", "max", "share_zero")}})
    out = out.lazy().with_columns(*mean_ci_exprs("mean", "sd", "n_actions", level))
    out = out.select(*keys, "n_actions", "mean", "sd", "lo", "hi", "median", "p90", "max", "share_zero")
    return like(out.sort(keys) if keys else out, counts)


def _count_stats(v, c):
    """n, mean, SD (ddof 1), median (linear), 0.9 quantile (nearest, as polars), max, share of zeros.

    ``v``: distinct values, ascending; ``c``: how often each occurs.
    """
    n = int(c.sum())
    cum = np.cumsum(c)

    def at(rank):                        # the value at 0-based rank of the sorted sample
        return float(v[np.searchsorted(cum, rank, side="right")])

    mean = float((v * c).sum() / n)
    sd = float(np.sqrt(((v - mean) ** 2 * c).sum() / (n - 1))) if n > 1 else None   # polars: null
    h = 0.5 * (n - 1)
    lo, hi = at(int(np.floor(h))), at(int(np.ceil(h)))
    return {"n_actions": n, "mean": mean, "sd": sd, "median": lo + (hi - lo) * (h - np.floor(h)),
            "p90": at(min(int(0.9 * (n - 1) + 0.5), n - 1)), "max": float(v[-1]),
            "share_zero": float(c[v == 0].sum() / n)}


def _game_list(events: Frame, games: Frame | None, by: Sequence[str]) -> pl.LazyFrame:
    keys = game_keys(events, by)
    src = as_lazy(games) if games is not None else as_lazy(events)
    return src.select(keys).unique()


def quarry_closures_per_game(
    events: Frame, games: Frame | None = None, by: str | Iterable[str] | None = None
) -> Frame:
    """How many quarries close in a game: distribution over games.

    Parameters
    ----------
    events : polars.DataFrame or polars.LazyFrame
        Quarry events with ``closed`` (-1 when no quarry closed).
    games : polars.DataFrame or polars.LazyFrame, optional
        The games table; when given, games without any quarry action count
        as 0 closures (otherwise only games with events are seen).
    by : str or list of str, optional
        Group-by columns (present in both tables).

    Returns
    -------
    Same kind as ``events``, one row per (by..., closures): ``n_games``,
    ``share``.
    """
    groups = as_list(by)
    keys = game_keys(events, groups)
    part = game_partition(events, keys)
    if games is not None and GAME_KEY not in columns(games):
        part = keys
    g = groups or ["__all"]
    src = as_lazy(games) if games is not None else as_lazy(events)
    src = src if groups else src.with_columns(pl.lit(0).alias("__all"))
    game_id = pl.col(part[0]) if len(part) == 1 else pl.struct(part)
    totals = src.group_by(g).agg(game_id.n_unique().alias("n_games"))
    closing = _closing_counts(events, groups, part)
    return like(quarry_closures_from_counts(closing, totals if groups else totals.drop("__all"), groups), events)


def quarry_closure_counts(events: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """``n_games`` per (by..., closures) over the games where a quarry closed (closures >= 1).

    Counts of batches of whole games add up (``analysis._common.add_up``);
    :func:`quarry_closures_from_counts` adds the games without a closure.
    """
    groups = as_list(by)
    return like(_closing_counts(events, groups, game_partition(events, game_keys(events, groups))), events)


def _closing_counts(events: Frame, groups: list, part: list) -> pl.LazyFrame:
    keys = game_keys(events, groups)
    carry = [k for k in keys if k not in part]      # run-level columns, constant within a game
    g = groups or ["__all"]
    ev = as_lazy(events) if groups else as_lazy(events).with_columns(pl.lit(0).alias("__all"))
    # only the games where a quarry closed are grouped; the others are counted, not listed
    out = (
        ev.filter(pl.col("closed") >= 0)
        .group_by(part)
        .agg(*[pl.col(k).first() for k in dict.fromkeys([*carry, *g]) if k not in part],
             pl.len().cast(pl.Int64).alias("closures"))
        .group_by([*g, "closures"])
        .agg(pl.len().cast(pl.Int64).alias("n_games"))
    )
    return out if groups else out.drop("__all")


def quarry_closures_from_counts(counts: Frame, totals: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """:func:`quarry_closures_per_game` from :func:`quarry_closure_counts` and ``totals``, the
    games per group (columns: by..., ``n_games``); the games without a closure count 0."""
    groups = as_list(by)
    g = groups or ["__all"]
    closing, tot = as_lazy(counts), as_lazy(totals)
    if not groups:
        closing, tot = closing.with_columns(pl.lit(0).alias("__all")), tot.with_columns(pl.lit(0).alias("__all"))
    zero = (
        tot.rename({"n_games": "__games"})
        .join(closing.group_by(g).agg(pl.col("n_games").sum().alias("__closing")), on=g, how="left")
        .select(*g, pl.lit(0, dtype=pl.Int64).alias("closures"),
                (pl.col("__games") - pl.col("__closing").fill_null(0)).cast(pl.UInt32).alias("n_games"))
        .filter(pl.col("n_games") > 0)
    )
    share = pl.col("n_games") / pl.col("n_games").sum()
    out = (
        pl.concat([zero, closing.select(*g, "closures", pl.col("n_games").cast(pl.UInt32))])
        .with_columns(share.over(g).alias("share"))
        .sort([*g, "closures"])
    )
    out = out if groups else out.drop("__all")
    return like(out, counts)


def quarry_closures_by_round(
    events: Frame, games: Frame | None = None, by: str | Iterable[str] | None = None
) -> Frame:
    """In which round quarries close.

    Returns
    -------
    Same kind as ``events``, one row per (by..., round): ``n_games``,
    ``closures``, ``per_game`` (closures per game in that round),
    ``share_of_closures`` and ``share_of_actions`` (quarry actions of the
    round that closed a quarry).

    Examples
    --------
    >>> e = pl.DataFrame({"game_index": [0, 0, 1, 1], "round": [0, 2, 0, 1],
    ...                   "closed": [-1, 4, 7, -1]})
    >>> quarry_closures_by_round(e).select("round", "closures", "per_game").rows()
    [(0, 1, 0.5), (1, 0, 0.0), (2, 1, 0.5)]
    """
    groups = as_list(by)
    n_games = _game_list(events, games, groups).group_by(groups or pl.lit(0).alias("__g")).agg(
        pl.len().alias("n_games")
    )
    lf = as_lazy(events)
    if not groups:
        lf = lf.with_columns(pl.lit(0).alias("__g"))
    g = groups or ["__g"]
    out = (
        lf.group_by([*g, "round"])
        .agg(
            (pl.col("closed") >= 0).sum().cast(pl.Int64).alias("closures"),
            pl.len().alias("__actions"),
        )
        .join(n_games, on=g, how="left")
        .with_columns(
            (pl.col("closures") / pl.col("n_games")).alias("per_game"),
            (pl.col("closures") / pl.col("closures").sum().over(g)).alias("share_of_closures"),
            (pl.col("closures") / pl.col("__actions")).alias("share_of_actions"),
        )
        .sort([*g, "round"])
        .select(*groups, "round", "n_games", "closures", "per_game", "share_of_closures", "share_of_actions")
    )
    return like(out, events)


def quarry_tiles_by_round(events: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """Numbers of the revealed quarry tiles per round, by what became of them.

    Returns
    -------
    Same kind as ``events``, one row per (by..., round, fate) with ``fate``
    in ``"raised"``, ``"opened"``, ``"set_aside"``: ``n_tiles``,
    ``per_action`` (tiles of that fate per quarry action), ``mean``,
    ``median``, ``min``, ``max`` of the tile numbers.

    Examples
    --------
    >>> e = pl.DataFrame({"game_index": [0], "round": [0], "tile_0": [25],
    ...                   "tile_1": [7], "dest_0": [3], "dest_1": [9], "opened": [9]})
    >>> quarry_tiles_by_round(e).select("fate", "n_tiles", "mean").rows()
    [('opened', 1, 7.0), ('raised', 1, 25.0)]
    """
    groups = as_list(by)
    # the runner writes tiles_0.. (docs/results.md); tile_0.. is accepted too
    tile_stem = "tiles" if any(re.match(r"^tiles_\d+$", c) for c in columns(events)) else "tile"
    tiles = _numbered(events, tile_stem)
    dests = _numbered(events, "dest")
    require(events, ["round", "opened"], "quarry_tiles_by_round")
    lf = as_lazy(events).with_columns(pl.len().over([*groups, "round"]).alias("__actions"))
    parts = [
        lf.select(
            *groups,
            "round",
            "__actions",
            pl.col(t).cast(pl.Int64).alias("tile"),
            pl.col(d).cast(pl.Int64).alias("dest"),
            pl.col("opened").cast(pl.Int64),
        )
        for t, d in zip(tiles, dests)
    ]
    fate = (
        pl.when(pl.col("dest") == -2)
        .then(pl.lit("set_aside"))
        .when((pl.col("dest") >= 0) & (pl.col("dest") == pl.col("opened")))
        .then(pl.lit("opened"))
        .when(pl.col("dest") >= 0)
        .then(pl.lit("raised"))
        .otherwise(None)
    )
    out = (
        pl.concat(parts)
        .filter(pl.col("tile") > 0)
        .with_columns(fate.alias("fate"))
        .drop_nulls("fate")
        .group_by([*groups, "round", "fate"])
        .agg(
            pl.len().alias("n_tiles"),
            (pl.len() / pl.col("__actions").first()).alias("per_action"),
            pl.col("tile").cast(pl.Float64).mean().alias("mean"),
            pl.col("tile").median().alias("median"),
            pl.col("tile").min().alias("min"),
            pl.col("tile").max().alias("max"),
        )
        .sort([*groups, "round", "fate"])
    )
    return like(out, events)


def income_from_events(events: Frame, n_seats: int | None = None) -> Frame:
    """Marble each seat received from quarries, per game, summed from events.

    Parameters
    ----------
    events : polars.DataFrame or polars.LazyFrame
        Quarry events with ``income_0..``.
    n_seats : int, optional
        Keep seats below this (e.g. the player count); default all columns.

    Returns
    -------
    Same kind as ``events``: game keys, ``seat`` (int8), ``marble_income``.
    Games with no quarry action do not appear (their income is 0).
    """
    incomes = _numbered(events, "income")[: n_seats or None]
    keys = game_keys(events, [])
    out = (
        as_lazy(events)
        .group_by(keys)
        .agg([pl.col(c).cast(pl.Int64).sum().alias(str(i)) for i, c in enumerate(incomes)])
        .unpivot(index=keys, variable_name="seat", value_name="marble_income")
        .with_columns(pl.col("seat").cast(pl.Int8))
        .sort([*keys, "seat"])
    )
    return like(out, events)


def marble_income_by_seat(
    players: Frame, by: str | Iterable[str] | None = None, level: float = 0.95
) -> Frame:
    """Quarry marble income per seat and how it relates to the final score.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players table with ``marble_income``, ``total``, ``seat`` (join
        :func:`income_from_events` first if the table lacks the tally).
    by : str or list of str, optional
        Group-by columns; always also split by ``n_players``.
    level : float
        Confidence level of the mean's t interval.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, seat): ``n``,
    ``mean_income``, ``income_sd``, ``lo``, ``hi``, ``mean_total``,
    ``income_share`` (mean share of all quarry marble paid in the game),
    ``income_per_point`` (total marble income over total points: marble and
    points are different units, so this is a rate, not a share),
    ``corr_total`` (Pearson correlation of income and final score).
    """
    sums = marble_income_sums(as_lazy(players), by)
    return like(marble_income_from_sums(sums, by, level), players)


def marble_income_sums(players: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """Per (by..., n_players, seat): the counts and sums :func:`marble_income_by_seat` is made of.

    ``n``; integer sums of ``marble_income``, ``total``, their squares and their
    product (exact); the sum and count of the income shares (a game that paid no
    marble has none). Sums of batches of whole games add up
    (``analysis._common.add_up``) to those of all of them.
    """
    require(players, ["game_index", "seat", "marble_income", "total"], "marble_income_sums")
    groups = as_list(by)
    gk = game_keys(players, groups)
    lf = with_n_players(as_lazy(players), groups)
    keys = [*groups, "n_players", "seat"]
    i, t = pl.col("marble_income").cast(pl.Int64), pl.col("total").cast(pl.Int64)
    lf = lf.with_columns(i.sum().over(game_partition(lf, gk)).alias("__paid"))
    out = lf.group_by(keys).agg(
        pl.len().cast(pl.Int64).alias("n"),
        i.sum().alias("income_s"),
        (i * i).sum().alias("income_ss"),
        t.sum().alias("total_s"),
        (t * t).sum().alias("total_ss"),
        (i * t).sum().alias("income_total_s"),
    )
    # The shares income / paid are summed from exact counts of each (income, paid) pair, in the
    # pairs' order: a float sum over rows in a group-by depends on the threads' split of the rows
    # (two reports of one folder differed in the 16th digit).
    k = pl.col("__k")
    pair = ["marble_income", "__paid"]
    shares = (lf.filter((pl.col("__paid") > 0) & pl.col("marble_income").is_not_null())
              .group_by([*keys, *pair]).agg(pl.len().cast(pl.Int64).alias("__k"))
              .group_by(keys)
              .agg((k * i / pl.col("__paid")).sort_by(pair).cum_sum().last().alias("share_s"), k.sum().alias("share_n")))
    out = (out.join(shares, on=keys, how="left", nulls_equal=True)
           .with_columns(pl.col("share_n").fill_null(0)))
    return like(out, players)


def marble_income_from_sums(sums: Frame, by: str | Iterable[str] | None = None, level: float = 0.95) -> Frame:
    """:func:`marble_income_by_seat` from :func:`marble_income_sums` (of one table or added up).

    The SD and the correlation come from the centred sums ``n·Σxy − Σx·Σy``,
    taken in exact integer arithmetic.
    """
    keys = [*as_list(by), "n_players", "seat"]
    df = as_lazy(sums).sort(keys).collect()
    sd, corr = [], []
    for n, si, sii, st, stt, sit in df.select("n", "income_s", "income_ss", "total_s", "total_ss",
                                              "income_total_s").iter_rows():
        cii, ctt, cit = n * sii - si * si, n * stt - st * st, n * sit - si * st    # Python ints: exact
        sd.append(float(np.sqrt(cii / (n * (n - 1)))) if n > 1 else None)
        corr.append(cit / float(np.sqrt(float(cii) * float(ctt))) if n > 1 and cii > 0 and ctt > 0 else None)
    n = pl.col("n").cast(pl.Float64)
    out = (
        df.lazy()
        .with_columns(pl.Series("income_sd", sd, dtype=pl.Float64), pl.Series("corr_total", corr, dtype=pl.Float64))
        .with_columns(
            pl.col("n").cast(pl.UInt32),
            (pl.col("income_s") / n).alias("mean_income"),
            (pl.col("total_s") / n).alias("mean_total"),
            pl.when(pl.col("share_n") > 0).then(pl.col("share_s") / pl.col("share_n")).alias("income_share"),
            (pl.col("income_s").cast(pl.Float64) / pl.col("total_s").cast(pl.Float64)).alias("income_per_point"),
        )
        .with_columns(*mean_ci_exprs("mean_income", "income_sd", "n", level))
        .select(*keys, "n", "mean_income", "income_sd", "lo", "hi", "mean_total",
                "income_share", "income_per_point", "corr_total")
        .sort(keys)
    )
    return like(out, sums)


def with_quarry_luck(
    players: Frame,
    by: str | Iterable[str] | None = None,
    expected_by: Sequence[str] = ("seat", "strategy"),
) -> Frame:
    """Add quarry luck: marble income above what is expected for the player.

    The expectation is the mean ``marble_income`` of players with the same
    ``n_players``, group and ``expected_by`` values (default: same seat and
    strategy), so luck is what the same kind of player in the same chair got
    beyond the average. It still includes the player's own in-game choices
    (houses built next to quarries), so read it as "income surprise", not
    pure chance.

    Returns
    -------
    Same kind as ``players`` with ``expected_income``, ``luck`` (income -
    expected) and ``luck_z`` (luck over its SD within the group) added.
    """
    require(players, ["game_index", "marble_income", *expected_by], "with_quarry_luck")
    groups = as_list(by)
    lf = with_n_players(as_lazy(players), groups)
    inc = pl.col("marble_income").cast(pl.Float64)
    cell = [*groups, "n_players", *expected_by]
    lf = lf.with_columns(inc.mean().over(cell).alias("expected_income"))
    lf = lf.with_columns((inc - pl.col("expected_income")).alias("luck"))
    lf = lf.with_columns(
        (pl.col("luck") / pl.col("luck").std().over([*groups, "n_players"])).alias("luck_z")
    )
    return like(lf, players)


def quarry_luck_effect(
    players: Frame,
    by: str | Iterable[str] | None = None,
    expected_by: Sequence[str] = ("seat", "strategy"),
    level: float = 0.95,
) -> Frame:
    """How much quarry luck moves the chance of winning.

    Fits ``logit P(win) = a + b * luck`` (fractional logit on win shares,
    cluster-robust standard errors by game; see
    :func:`analysis.stats.logistic_fit`) per group, with luck from
    :func:`with_quarry_luck`.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players): ``n``,
    ``n_games``, ``luck_sd`` (marble), ``slope`` (log-odds per marble of
    luck), ``lo``, ``hi``, ``p_value``, ``slope_per_sd``, ``win_prob_at_0``
    (fitted win chance with average luck), ``win_prob_plus_sd`` (with one SD
    of extra income) and ``delta_win_prob`` (their difference), ``method``.
    """
    require(players, ["game_index", "win_share"], "quarry_luck_effect")
    groups = as_list(by)
    gk = game_keys(players, groups)
    lf = as_lazy(with_quarry_luck(players, groups, expected_by))
    keys = [*groups, "n_players"]
    zq = z_value(level)
    rows = []
    game_cols = game_partition(lf, gk)
    for key, part in parts(lf, keys, ["luck", "win_share", *gk, *game_cols]):
        x = part["luck"].to_numpy().astype(float)
        y = part["win_share"].cast(pl.Float64).to_numpy()
        game, n_games = cluster_codes(game_ids(part, game_cols))
        del part
        sd = float(np.std(x, ddof=1)) if len(x) > 1 else float("nan")
        fit = logistic_fit(Design(x[:, None]), y, groups=game)   # [1, luck], built a block at a time
        a, b = fit.coef
        se = fit.se[1]
        rows.append(
            {
                **dict(zip(keys, key if isinstance(key, tuple) else (key,))),
                "n": len(y),
                "n_games": n_games,
                "luck_sd": sd,
                "slope": b,
                "lo": b - zq * se,
                "hi": b + zq * se,
                "p_value": float(2 * norm_sf(abs(b / se))) if se > 0 else float("nan"),
                "slope_per_sd": b * sd,
                "win_prob_at_0": float(special.expit(a)),
                "win_prob_plus_sd": float(special.expit(a + b * sd)),
                "method": fit.method,
            }
        )
    schema = dict(lf.select(keys).collect_schema())
    out = pl.DataFrame(rows, schema_overrides=schema) if rows else pl.DataFrame(schema=schema)
    if rows:
        out = out.with_columns(
            (pl.col("win_prob_plus_sd") - pl.col("win_prob_at_0")).alias("delta_win_prob")
        ).sort(keys)
    return like(out, players)
