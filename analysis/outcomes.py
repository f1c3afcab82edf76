"""Whole-game statistics every game has: length, end triggers, ties for first.

- :func:`game_length` — distribution and mean (t interval) of a length
  column of the ``games`` table (Hellas and Yamataï ``rounds``, Akrotiri
  ``turns``, any game ``decisions``);
- :func:`end_triggers` — share of games ended by each trigger (Wilson
  intervals); a game may have several (Yamataï checks them together);
- :func:`top_ties` — how often the top total is tied, and whether the tie
  was shared (fractional win shares) or broken by a rule (one winner).

Results are split by ``n_players`` when the table has it. Every function
returns the same kind of frame (lazy or eager) it was given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import polars as pl

from analysis._common import Frame, as_lazy, as_list, game_keys, group_keys, like, require, with_n_players
from analysis.stats import mean_ci_exprs, wilson_exprs

__all__ = ["game_length", "end_triggers", "top_ties"]


def game_length(
    games: Frame, column: str, by: str | Iterable[str] | None = None, level: float = 0.95
) -> tuple[Frame, Frame]:
    """How long games last, in ``column`` units.

    Returns
    -------
    (summary, distribution), both the same kind as ``games``. ``summary``:
    one row per (by..., n_players) with ``n_games``, ``mean``, ``sd``,
    ``lo``, ``hi`` (t interval), ``min``, ``p10``, ``median``, ``p90``,
    ``max``. ``distribution``: one row per (by..., n_players, length) with
    ``n_games`` and ``share``.

    Examples
    --------
    >>> g = pl.DataFrame({"rounds": [3, 3, 4, 5]})
    >>> s, d = game_length(g, "rounds")
    >>> s["mean"].item(), d["share"].to_list()
    (3.75, [0.5, 0.25, 0.25])
    """
    require(games, [column], "game_length")
    keys = group_keys(games, as_list(by))
    v = pl.col(column).cast(pl.Float64)
    agg = [pl.len().alias("n_games"), v.mean().alias("mean"), v.std().alias("sd"), v.min().alias("min"),
           v.quantile(0.1).alias("p10"), v.median().alias("median"), v.quantile(0.9).alias("p90"),
           v.max().alias("max")]
    lf = as_lazy(games)
    summary = (lf.group_by(keys).agg(agg).sort(keys) if keys else lf.select(agg)).with_columns(
        *mean_ci_exprs("mean", "sd", "n_games", level))
    summary = summary.select(*keys, "n_games", "mean", "sd", "lo", "hi", "min", "p10", "median", "p90", "max")
    share = pl.col("n_games") / pl.col("n_games").sum()
    dist = (lf.group_by([*keys, pl.col(column).alias("length")]).agg(pl.len().alias("n_games"))
            .with_columns((share.over(keys) if keys else share).alias("share")).sort([*keys, "length"]))
    return like(summary, games), like(dist, games)


def end_triggers(
    games: Frame,
    triggers: Iterable[str] | None = None,
    code: str | None = None,
    codes: Mapping[int, str] | None = None,
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
) -> Frame:
    """Share of games ended by each trigger.

    Give either ``triggers`` (boolean columns, one per trigger; a game may
    set several, so the shares may sum to more than 1) or ``code`` (one
    column holding a trigger code) with ``codes`` (code -> trigger name;
    codes not listed are shown as their number).

    Returns
    -------
    Same kind as ``games``, one row per (by..., n_players, trigger):
    ``n_games``, ``ended`` (games with that trigger), ``share``, ``lo``, ``hi``.

    Examples
    --------
    >>> g = pl.DataFrame({"end_trigger": [1, 1, 2, 1]})
    >>> end_triggers(g, code="end_trigger", codes={1: "temples", 2: "turn_cap"})["share"].to_list()
    [0.75, 0.25]
    """
    keys = group_keys(games, as_list(by))
    lf = as_lazy(games)
    if code is not None:
        require(games, [code], "end_triggers")
        names = {int(k): str(v) for k, v in (codes or {}).items()}
        lf = lf.with_columns(pl.col(code).cast(pl.Int64).replace_strict(
            names, default=pl.col(code).cast(pl.String), return_dtype=pl.String).alias("__trigger"))
        found = lf.select(pl.col("__trigger").unique()).collect()["__trigger"].to_list()
        order = [n for n in names.values() if n in found] + sorted(n for n in found if n not in names.values())
        triggers = order
        lf = lf.with_columns(pl.col("__trigger").eq(t).alias(t) for t in order)
    triggers = list(triggers or [])
    require(lf, triggers, "end_triggers")
    parts = [
        (lf.group_by(keys) if keys else lf.group_by(pl.lit(0).alias("__all")))
        .agg(pl.len().alias("n_games"), pl.col(t).cast(pl.Int64).sum().alias("ended"))
        .with_columns(pl.lit(t).alias("trigger"), pl.lit(i).alias("__i"))
        for i, t in enumerate(triggers)
    ]
    out = (pl.concat(parts).with_columns((pl.col("ended") / pl.col("n_games")).alias("share"),
                                         *wilson_exprs("ended", "n_games", level))
           .sort([*keys, "__i"]).select(*keys, "trigger", "n_games", "ended", "share", "lo", "hi"))
    return like(out, games)


def top_ties(players: Frame, by: str | Iterable[str] | None = None, level: float = 0.95) -> Frame:
    """How often the highest total is tied, and how the tie ended.

    A game's top is *tied* when two or more players have the highest total.
    It is *shared* when the win shares split (1/k each: the game's rules
    left the tie standing) and *broken* when one player still got the whole
    win (a tie-break rule decided: Yamataï's turn order, Akrotiri's
    drachmas).

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players): ``n_games``,
    ``tied``, ``tied_share``, ``tied_lo``, ``tied_hi``, ``shared``,
    ``shared_share``, ``shared_lo``, ``shared_hi``, ``broken`` (tied minus shared).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "total": [5, 5, 6, 2],
    ...                   "win_share": [1.0, 0.0, 1.0, 0.0]})
    >>> top_ties(p).select("tied", "shared", "broken").row(0)
    (1, 0, 1)
    """
    require(players, ["game_index", "total", "win_share"], "top_ties")
    groups = as_list(by)
    gk = game_keys(players, groups)
    lf = with_n_players(as_lazy(players), groups)
    keys = [*groups, "n_players"]
    ws = pl.col("win_share").cast(pl.Float64)
    per_game = lf.group_by([*gk, "n_players"]).agg(
        ((pl.col("total") == pl.col("total").max()).sum() > 1).alias("__tied"),
        ((ws > 0) & (ws < 1)).any().alias("__shared"),
    )
    out = (
        per_game.group_by(keys)
        .agg(pl.len().alias("n_games"), pl.col("__tied").sum().cast(pl.Int64).alias("tied"),
             pl.col("__shared").sum().cast(pl.Int64).alias("shared"))
        .with_columns((pl.col("tied") / pl.col("n_games")).alias("tied_share"),
                      (pl.col("shared") / pl.col("n_games")).alias("shared_share"),
                      (pl.col("tied") - pl.col("shared")).alias("broken"),
                      *wilson_exprs("tied", "n_games", level, prefix="tied_"),
                      *wilson_exprs("shared", "n_games", level, prefix="shared_"))
        .sort(keys)
        .select(*keys, "n_games", "tied", "tied_share", "tied_lo", "tied_hi", "shared", "shared_share",
                "shared_lo", "shared_hi", "broken")
    )
    return like(out, players)
