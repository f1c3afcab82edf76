"""Akrotiri events as takes for :mod:`analysis.components`, map excavation, goals, market.

The engine writes one events row per map card bought or excavated, goal
kept or scored and cube sold (``docs/results.md``, Akrotiri) with ``kind``
(``EVENT_KINDS``), ``turn``, ``seat`` and the columns ``deck card cost
points colour price quantity goal`` (unused ones are -1 or 0):

- :func:`maps_bought`, :func:`maps_excavated` — one row per card (``deck``
  0 easy, 1 medium, 2 hard; ``card`` 0-35; ``cost`` the excavation cost in
  drachmas; ``points``); a bought row also has ``price_per_card`` (the
  purchase's price over the cards it drew);
- :func:`goals` — one row per goal kept, with the ``points`` it scored at
  the end and ``scored`` (points > 0);
- :func:`goods_sold` — one row per cube sold: ``colour``, ``price``.

:func:`map_excavation` (excavation rate and realised points per drachma),
:func:`goal_scoring` and :func:`market_prices` summarise them; the component
values come from :mod:`analysis.components`. Functions return the same kind
of frame they were given.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from analysis._common import (RUN_COLUMNS, Frame, as_lazy, as_list, columns, game_keys, group_keys, like,
                              ordered_mean, ordered_sd, require)
from analysis.stats import mean_ci_exprs, ratio_of_sums, wilson_exprs

__all__ = ["EVENT_KINDS", "DECKS", "END_TRIGGERS", "maps_bought", "maps_excavated", "goals", "goods_sold",
           "map_excavation", "goal_scoring", "market_prices"]

#: Event codes in the ``kind`` column (the engine's ``EVENT_KINDS`` order).
EVENT_KINDS = ("map_bought", "map_excavated", "goal_kept", "goal_scored", "good_sold")
#: Deck codes of ``deck``.
DECKS = ("easy", "medium", "hard")
#: Codes of ``games.end_trigger``.
END_TRIGGERS = {1: "temples", 2: "turn_cap"}


def _kind(events: Frame, name: str, keep: list[str]) -> pl.LazyFrame:
    require(events, ["game_index", "kind", "seat", "turn", *keep], "Akrotiri events")
    extra = [c for c in columns(events) if c in (*RUN_COLUMNS, "n_players")]
    gk = game_keys(events, [])
    return (as_lazy(events).filter(pl.col("kind") == EVENT_KINDS.index(name))
            .select(*dict.fromkeys([*gk, *extra, "seat", "turn", *keep])))


def _with_deck_name(lf: pl.LazyFrame) -> pl.LazyFrame:
    return lf.with_columns(pl.col("deck").cast(pl.Int64).replace_strict(
        dict(enumerate(DECKS)), default=pl.col("deck").cast(pl.String), return_dtype=pl.String).alias("deck_name"))


def maps_bought(events: Frame) -> Frame:
    """One row per map card bought: ``deck``, ``deck_name``, ``card``, ``cost``, ``points``, ``price_per_card``.

    Examples
    --------
    >>> e = pl.DataFrame({"game_index": [0], "turn": [3], "kind": [0], "seat": [1], "deck": [1],
    ...                   "card": [14], "cost": [4], "points": [5], "price": [3], "quantity": [2]})
    >>> maps_bought(e).select("deck_name", "card", "price_per_card").row(0)
    ('medium', 14, 1.5)
    """
    lf = _kind(events, "map_bought", ["deck", "card", "cost", "points", "price", "quantity"])
    lf = lf.with_columns((pl.col("price").cast(pl.Float64) / pl.col("quantity").cast(pl.Float64))
                         .alias("price_per_card")).drop("price", "quantity")
    return like(_with_deck_name(lf), events)


def maps_excavated(events: Frame) -> Frame:
    """One row per map card excavated: ``deck``, ``deck_name``, ``card``, ``cost``, ``points``."""
    return like(_with_deck_name(_kind(events, "map_excavated", ["deck", "card", "cost", "points"])), events)


def goals(events: Frame) -> Frame:
    """One row per goal kept: ``goal`` (0 = G01), ``turn`` kept, ``points`` scored, ``scored``.

    Examples
    --------
    >>> e = pl.DataFrame({"game_index": [0, 0], "turn": [0, 20], "kind": [2, 3], "seat": [0, 0],
    ...                   "goal": [4, 4], "points": [0, 6]})
    >>> goals(e).select("goal", "turn", "points", "scored").row(0)
    (4, 0, 6, True)
    """
    kept = _kind(events, "goal_kept", ["goal"])
    scored = _kind(events, "goal_scored", ["goal", "points"]).drop("turn")
    on = [c for c in kept.collect_schema().names() if c not in ("turn",)]
    out = kept.join(scored, on=on, how="left", maintain_order="left").with_columns(
        pl.col("points").fill_null(0), (pl.col("points").fill_null(0) > 0).alias("scored"))
    return like(out, events)


def goods_sold(events: Frame) -> Frame:
    """One row per cube sold at the market: ``colour`` (0 blue, 1 green, 2 grey, 3 orange), ``price``."""
    return like(_kind(events, "good_sold", ["colour", "price"]), events)


def map_excavation(
    events: Frame, per: str = "card", by: str | Iterable[str] | None = None, level: float = 0.95
) -> Frame:
    """Which bought map cards get excavated, and the points they return per drachma spent.

    A bought card costs its share of the purchase price; if it is excavated
    it also costs its excavation cost and returns its points. The realised
    points per drachma is the ratio of summed points to summed drachmas over
    the bought cards (delta-method interval, cards as units). Cards dealt at
    set-up have no bought row: their excavations are counted apart
    (``excavated_unbought``) and not in the rate.

    Parameters
    ----------
    events : polars.DataFrame or polars.LazyFrame
        The Akrotiri events table.
    per : ``"card"`` or ``"deck"``
        One row per map card (with its deck) or per deck.
    by : str or list of str, optional
        Group-by columns.
    level : float
        Confidence level.

    Returns
    -------
    Same kind as ``events``, one row per (by..., n_players, deck, [card]):
    ``bought``, ``excavated`` (of the bought), ``excavation_rate``, ``lo``,
    ``hi``, ``excavated_unbought``, ``points`` and ``cost`` (mean per card),
    ``points_per_cost`` (points over excavation cost), ``drachmas_per_card``
    (mean spent per bought card), ``points_per_drachma``, ``ppd_lo``, ``ppd_hi``.
    """
    if per not in ("card", "deck"):
        raise ValueError(f"per must be 'card' or 'deck', not {per!r}")
    groups = as_list(by)
    bought, dug = as_lazy(maps_bought(events)), as_lazy(maps_excavated(events))
    gk = game_keys(bought, groups)
    on = [*dict.fromkeys([*gk, *[c for c in ("n_players",) if c in columns(events)], "seat", "card"])]
    dug_flag = dug.select(*on, pl.lit(True).alias("__dug"))
    cards = bought.join(dug_flag, on=on, how="left", maintain_order="left").with_columns(pl.col("__dug").fill_null(False))
    cards = cards.with_columns(
        pl.when(pl.col("__dug")).then(pl.col("points")).otherwise(0).cast(pl.Float64).alias("__pts"),
        (pl.col("price_per_card") + pl.when(pl.col("__dug")).then(pl.col("cost")).otherwise(0))
        .cast(pl.Float64).alias("__spent"),
    )
    keys = group_keys(events, groups) + (["deck", "deck_name", "card"] if per == "card" else ["deck", "deck_name"])
    unbought = dug.join(bought.select(on), on=on, how="anti").group_by(keys).agg(
        pl.len().alias("excavated_unbought"))
    out = (
        cards.group_by(keys)
        .agg(pl.len().alias("bought"), pl.col("__dug").sum().alias("excavated"),
             pl.col("points").cast(pl.Float64).mean().alias("points"),
             pl.col("cost").cast(pl.Float64).mean().alias("cost"),
             ordered_mean(pl.col("__spent")).alias("drachmas_per_card"))
        .with_columns((pl.col("excavated") / pl.col("bought")).alias("excavation_rate"),
                      *wilson_exprs("excavated", "bought", level),
                      (pl.col("points") / pl.col("cost")).alias("points_per_cost"))
        .join(ratio_of_sums(cards, "__pts", "__spent", by=keys, level=level, prefix="ppd")
              .rename({"ppd": "points_per_drachma"}).drop("ppd_n"), on=keys, how="left")
        .join(unbought, on=keys, how="full", coalesce=True)
        .with_columns(pl.col("bought", "excavated", "excavated_unbought").fill_null(0))
        .sort(keys)
        .select(*keys, "bought", "excavated", "excavation_rate", "lo", "hi", "excavated_unbought", "points",
                "cost", "points_per_cost", "drachmas_per_card", "points_per_drachma", "ppd_lo", "ppd_hi")
    )
    return like(out, events)


def goal_scoring(goal_rows: Frame, by: str | Iterable[str] | None = None, level: float = 0.95) -> Frame:
    """How often each kept goal scores, and its points.

    Returns
    -------
    Same kind as ``goal_rows`` (:func:`goals`), one row per (by...,
    n_players, goal): ``kept``, ``scored``, ``scored_rate``, ``lo``, ``hi``
    (Wilson), ``mean_points`` (over kept, zeros included), ``points_lo``,
    ``points_hi`` (t), ``points_when_scored``.
    """
    require(goal_rows, ["goal", "points", "scored"], "goal_scoring")
    keys = [*group_keys(goal_rows, as_list(by)), "goal"]
    pts = pl.col("points").cast(pl.Float64)
    out = (
        as_lazy(goal_rows).group_by(keys)
        .agg(pl.len().alias("kept"), pl.col("scored").sum().alias("scored"), pts.mean().alias("mean_points"),
             ordered_sd(pts, whole=True).alias("__sd"), pts.filter(pl.col("scored")).mean().alias("points_when_scored"))
        .with_columns((pl.col("scored") / pl.col("kept")).alias("scored_rate"),
                      *wilson_exprs("scored", "kept", level),
                      *mean_ci_exprs("mean_points", "__sd", "kept", level, prefix="points_"))
        .with_columns(pl.col("points_lo", "points_hi").fill_nan(None))
        .sort(keys)
        .select(*keys, "kept", "scored", "scored_rate", "lo", "hi", "mean_points", "points_lo", "points_hi",
                "points_when_scored")
    )
    return like(out, goal_rows)


def market_prices(sales: Frame, by: str | Iterable[str] | None = None,
                  level: float = 0.95) -> tuple[Frame, Frame]:
    """Prices realised at the market, per cube colour.

    Returns
    -------
    (summary, distribution), the same kind as ``sales`` (:func:`goods_sold`).
    ``summary``: per (by..., n_players, colour): ``n_sold``, ``mean_price``,
    ``lo``, ``hi`` (t), ``min``, ``max``; ``distribution``: per (by...,
    n_players, colour, price): ``n_sold``, ``share``.
    """
    require(sales, ["colour", "price"], "market_prices")
    keys = [*group_keys(sales, as_list(by)), "colour"]
    pr = pl.col("price").cast(pl.Float64)
    lf = as_lazy(sales)
    summary = (lf.group_by(keys).agg(pl.len().alias("n_sold"), pr.mean().alias("mean_price"),
                                     ordered_sd(pr, whole=True).alias("__sd"), pr.min().alias("min"), pr.max().alias("max"))
               .with_columns(*mean_ci_exprs("mean_price", "__sd", "n_sold", level))
               .with_columns(pl.col("lo", "hi").fill_nan(None))
               .sort(keys).select(*keys, "n_sold", "mean_price", "lo", "hi", "min", "max"))
    dist = (lf.group_by([*keys, "price"]).agg(pl.len().alias("n_sold"))
            .with_columns((pl.col("n_sold") / pl.col("n_sold").sum().over(keys)).alias("share"))
            .sort([*keys, "price"]))
    return like(summary, sales), like(dist, sales)
