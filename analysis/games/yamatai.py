"""Yamataï events as takes for :mod:`analysis.components`, and the fleet turn order.

The engine writes one events row per fleet pick, building built and
specialist recruited (``docs/results.md``, Yamataï): ``kind`` (0, 1, 2),
``round`` (0-based), ``seat`` and four numbers ``a b c d`` whose meaning
depends on the kind. The functions below name them:

- :func:`fleet_picks` — ``fleet`` (1-10), ``boats`` gained, ``ability_used``,
  ``extra_boat`` (fleet 10), and ``pick_position`` (0 = first pick of the round);
- :func:`buildings_built` — ``tile`` (index in the buildings file),
  ``island``, ``coins`` and ``pp_tokens`` gained;
- :func:`specialists_recruited` — ``specialist`` (id in the specialists
  file) and ``coins`` taken from it.

:func:`fleet_turn_order` measures what a fleet's number does to the next
round's order (spec 9.3: ascending fleet number). Functions return the same
kind of frame they were given.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from analysis._common import (GAME_KEY, Frame, as_lazy, as_list, game_keys, game_partition, group_keys, like,
                              ordered_sd, require, run_starts)
from analysis.stats import mean_ci_exprs, wilson_exprs

__all__ = ["FLEET_PICK", "BUILDING_BUILT", "SPECIALIST_RECRUITED", "fleet_picks", "buildings_built",
           "specialists_recruited", "fleet_turn_order"]

FLEET_PICK, BUILDING_BUILT, SPECIALIST_RECRUITED = 0, 1, 2


def _kind(events: Frame, kind: int, names: dict) -> pl.LazyFrame:
    require(events, ["game_index", "kind", "seat", "round", *names], "Yamataï events")
    return (as_lazy(events).filter(pl.col("kind") == kind).drop("kind")
            .rename(names))


def fleet_picks(events: Frame) -> Frame:
    """One row per fleet pick: ``fleet``, ``boats``, ``ability_used``, ``extra_boat``, ``pick_position``.

    Examples
    --------
    >>> e = pl.DataFrame({"game_index": [0, 0, 0], "kind": [0, 1, 0], "seat": [1, 1, 0],
    ...                   "round": [0, 0, 0], "a": [4, 2, 9], "b": [1, 0, 2], "c": [1, 3, 0], "d": [0] * 3})
    >>> fleet_picks(e).select("seat", "fleet", "pick_position").rows()
    [(1, 4, 0), (0, 9, 1)]
    """
    lf = _kind(events, FLEET_PICK, {"a": "fleet", "b": "boats", "c": "ability_used", "d": "extra_boat"})
    cell = [*game_keys(events, []), "round"]
    if game_partition(events, cell[:-1]) == [GAME_KEY]:
        # a stacked table (games in key order, a game's events in play order): a round's picks are
        # one run of rows, so the place in the round is the row number since the run began
        pos = _place_in_run(GAME_KEY, "round")
    else:
        pos = pl.int_range(pl.len()).over(cell)
    lf = lf.with_columns(pos.cast(pl.Int16).alias("pick_position"))
    return like(lf, events)


def _place_in_run(*columns: str) -> pl.Expr:
    """Row number within its run of rows, a run beginning where any of ``columns`` changes (and on row 0)."""
    row = pl.int_range(pl.len(), dtype=pl.Int64)
    return row - pl.when(run_starts(*columns)).then(row).otherwise(0).cum_max()


def buildings_built(events: Frame) -> Frame:
    """One row per building built: ``tile``, ``island``, ``coins``, ``pp_tokens``."""
    return like(_kind(events, BUILDING_BUILT, {"a": "tile", "b": "island", "c": "coins", "d": "pp_tokens"}),
                events)


def specialists_recruited(events: Frame) -> Frame:
    """One row per specialist recruited: ``specialist``, ``coins`` taken."""
    return like(_kind(events, SPECIALIST_RECRUITED, {"a": "specialist", "b": "coins"}).drop("c", "d",
                                                                                              strict=False),
                events)


def fleet_turn_order(picks: Frame, by: str | Iterable[str] | None = None, level: float = 0.95) -> Frame:
    """What each fleet number does to the pawn's place in the next round's order.

    The next round's order is the ascending fleet numbers of this round
    (spec 9.3), so a pick's next place is the number of lower fleets taken
    in the same round. Picks of a game's last round have no next round and
    are left out of ``next_*``.

    Parameters
    ----------
    picks : polars.DataFrame or polars.LazyFrame
        :func:`fleet_picks` rows (``n_players`` split the result when present).
    by : str or list of str, optional
        Group-by columns.
    level : float
        Confidence level.

    Returns
    -------
    Same kind as ``picks``, one row per (by..., n_players, fleet): ``n``
    (picks), ``pick_position`` (mean place in this round when taken,
    0 = first) with ``position_lo``, ``position_hi`` (t), ``ability_use``
    (share of picks that used the ability) with ``ability_lo``,
    ``ability_hi`` (Wilson), ``mean_boats``, ``n_next`` (picks followed by a round), ``next_position``,
    ``next_lo``, ``next_hi`` (t interval), ``first_next`` (share leading the
    next round), ``first_lo``, ``first_hi`` (Wilson).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0] * 4, "round": [0, 0, 1, 1], "seat": [0, 1, 1, 0],
    ...                   "fleet": [7, 2, 5, 9], "pick_position": [0, 1, 0, 1],
    ...                   "boats": [2, 1, 1, 2], "ability_used": [0, 1, 0, 0]})
    >>> fleet_turn_order(p).select("fleet", "n_next", "next_position").rows()
    [(2, 1, 0.0), (5, 0, None), (7, 1, 1.0), (9, 0, None)]
    """
    require(picks, ["game_index", "round", "fleet", "pick_position", "boats", "ability_used"],
            "fleet_turn_order")
    groups = as_list(by)
    gk = game_keys(picks, groups)
    keys = group_keys(picks, groups)
    if game_partition(picks, gk) == [GAME_KEY]:
        # a stacked table: in (game, round, fleet) order a round's picks are one run of rows and the
        # number of lower fleets is the place in it (the game's last round before the sort: a window
        # over the sorted key alone is cheap)
        lf = (as_lazy(picks).with_columns((pl.col("round") == pl.col("round").max().over(GAME_KEY)).alias("__last"))
              .sort(GAME_KEY, "round", "fleet").with_columns(
                  _place_in_run(GAME_KEY, "round").alias("__next")))
    else:
        lf = as_lazy(picks).with_columns(
            pl.col("fleet").rank("ordinal").over([*gk, "round"]).cast(pl.Int64).sub(1).alias("__next"),
            (pl.col("round") == pl.col("round").max().over(gk)).alias("__last"),
        )
    nxt = pl.col("__next").cast(pl.Float64).filter(~pl.col("__last"))
    out = (
        lf.group_by([*keys, "fleet"])
        .agg(pl.len().alias("n"), pl.col("pick_position").cast(pl.Float64).mean().alias("pick_position"),
             ordered_sd(pl.col("pick_position").cast(pl.Float64), whole=True).alias("__psd"),
             pl.col("ability_used").cast(pl.Float64).mean().alias("ability_use"),
             (pl.col("ability_used") > 0).sum().alias("__used"),
             pl.col("boats").cast(pl.Float64).mean().alias("mean_boats"),
             nxt.len().alias("n_next"), nxt.mean().alias("next_position"), ordered_sd(nxt, whole=True).alias("__sd"),
             (nxt == 0).sum().alias("__first"))
        .with_columns(*mean_ci_exprs("next_position", "__sd", "n_next", level, prefix="next_"),
                      *mean_ci_exprs("pick_position", "__psd", "n", level, prefix="position_"),
                      *wilson_exprs("__used", "n", level, prefix="ability_"),
                      (pl.col("__first") / pl.col("n_next")).alias("first_next"),
                      *wilson_exprs("__first", "n_next", level, prefix="first_"))
        .with_columns(pl.col(c).fill_nan(None) for c in ("next_position", "next_lo", "next_hi", "first_next",
                                                          "first_lo", "first_hi", "position_lo", "position_hi"))
        .with_columns(pl.when(pl.col("n_next") > 0).then(pl.col(c)).alias(c)
                      for c in ("first_lo", "first_hi", "first_next"))
        .sort([*keys, "fleet"])
        .select(*keys, "fleet", "n", "pick_position", "position_lo", "position_hi", "ability_use", "ability_lo",
                "ability_hi", "mean_boats", "n_next", "next_position",
                "next_lo", "next_hi", "first_next", "first_lo", "first_hi")
    )
    return like(out, picks)
