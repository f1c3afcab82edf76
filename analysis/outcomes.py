"""Whole-game statistics every game has: length, end triggers, ties for first.

- :func:`game_length` — distribution and mean (t interval) of a length
  column of the ``games`` table (Hellas and Yamataï ``rounds``, Akrotiri
  ``turns``, any game ``decisions``);
- :func:`end_triggers` — share of games ended by each trigger (Wilson
  intervals); a game may have several (Yamataï checks them together);
- :func:`top_ties` — how often the top total is tied, and whether the tie
  was shared (fractional win shares) or broken by a rule (one winner);
- :func:`outcome_counts`, :func:`margin_counts` and :func:`outcome_summary`
  — Ludii-style outcome metrics added up over batches of games: game length
  (rounds or turns, decisions), winning margin and the share of games decided
  by at most k points, lead changes, the round from which the winner led for
  good, comebacks and drama (how far behind the winner was), from the
  ``games`` lead columns the engines write (``docs/results.md``).

Results are split by ``n_players`` when the table has it. Every function
returns the same kind of frame (lazy or eager) it was given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import polars as pl

from analysis._common import (
    Frame,
    as_lazy,
    as_list,
    columns,
    game_keys,
    group_keys,
    like,
    ordered_sd,
    require,
    whole_numbers,
    with_n_players,
)
from analysis.stats import mean_ci_exprs, t_quantile, wilson_exprs

__all__ = ["game_length", "end_triggers", "top_ties", "outcome_counts", "margin_counts", "outcome_summary",
           "outcome_distribution", "LEAD_COLUMNS", "MARGIN_KS"]

#: The games columns the engines write about the lead (``simcore/_lead.pxd``).
LEAD_COLUMNS: tuple[str, ...] = ("lead_changes", "led_from", "max_deficit")

#: Margins (points between the winner and the runner-up) whose share of games the summary gives.
MARGIN_KS: tuple[int, ...] = (0, 1, 2, 5)


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
    whole = whole_numbers(games, pl.col(column))
    agg = [pl.len().alias("n_games"), v.mean().alias("mean"), ordered_sd(v, whole).alias("sd"), v.min().alias("min"),
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


# ---------------------------------------------------------------- outcome metrics (added up over batches)

def outcome_counts(games: Frame, length: str | None = None, by: str | Iterable[str] | None = None) -> Frame:
    """Games per value of each outcome column: the sufficient statistics of :func:`outcome_summary`.

    Counts of whole games add up over batches (``analysis._common.add_up`` on
    the keys ``by..., n_players, metric, value``), so a report holds one batch
    of rows at a time. The metrics are ``length`` (``rounds``, ``turns``) and
    ``decisions`` when present, the :data:`LEAD_COLUMNS` when present, and
    ``late_comeback`` (0/1: the winner trailed at the last round end before
    the final score; needs ``length``, the number of snapshots).

    Returns
    -------
    Same kind as ``games``: one row per (by..., n_players, metric, value) with ``n_games``.

    Examples
    --------
    >>> g = pl.DataFrame({"rounds": [3, 3], "lead_changes": [0, 2], "led_from": [1, 3], "max_deficit": [0, 4]})
    >>> c = outcome_counts(g, "rounds")
    >>> c.filter(pl.col("metric") == "late_comeback").sort("value")["n_games"].to_list()
    [1, 1]
    """
    cols = columns(games)
    keys = group_keys(games, as_list(by))
    lf = as_lazy(games)
    metrics = [c for c in (length, "decisions") if c and c in cols]
    metrics += [c for c in LEAD_COLUMNS if c in cols]
    exprs = [pl.col(c).cast(pl.Int64).alias(c) for c in dict.fromkeys(metrics)]
    if length and length in cols and "led_from" in cols:
        exprs.append(((pl.col("led_from") > 1) & (pl.col("led_from") == pl.col(length))).cast(pl.Int64)
                     .alias("late_comeback"))
    if not exprs:
        out = pl.LazyFrame(schema={**{k: pl.String for k in keys}, "metric": pl.String, "value": pl.Int64,
                                   "n_games": pl.UInt32})
        return like(out, games)
    names = [e.meta.output_name() for e in exprs]
    out = (lf.select(*keys, *exprs)
           .unpivot(index=keys, on=names, variable_name="metric", value_name="value")
           .group_by([*keys, "metric", "value"]).agg(pl.len().alias("n_games")))
    return like(out, games)


def margin_counts(players: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """Games per winning margin: the top total minus the next total (0 when the top is tied).

    Returns
    -------
    Same kind as ``players``: one row per (by..., n_players, metric = "margin", value) with
    ``n_games``, in the layout of :func:`outcome_counts` (add them up together).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "total": [9, 4, 6, 6]})
    >>> margin_counts(p).sort("value")["value"].to_list()
    [0, 5]
    """
    require(players, ["game_index", "total"], "margin_counts")
    groups = as_list(by)
    gk = game_keys(players, groups)
    lf = with_n_players(as_lazy(players), groups)
    keys = [*groups, "n_players"]
    df = lf.select(list(dict.fromkeys([*gk, "n_players", "total"]))).collect()
    parts = []
    for key, part in (df.group_by(keys, maintain_order=True) if keys else [((), df)]):
        parts.append(_margins(part, gk, keys, key))
    out = (pl.concat(parts) if parts else pl.DataFrame({"value": [], "n_games": []}))
    out = (out.group_by([*keys, "value"]).agg(pl.col("n_games").sum())
           .with_columns(pl.lit("margin").alias("metric")).select(*keys, "metric", "value", "n_games"))
    return like(out, players)


def _margins(part: pl.DataFrame, gk, keys, key) -> pl.DataFrame:
    """Margin per game of one group: from a (games, seats) array when the rows are game-major with
    n_players rows a game (as every results table), else by a group-by over the games."""
    import numpy as np

    n = int(part["n_players"][0])
    ok = part.height % n == 0 and n > 1
    if ok:
        within = set(gk) - set(keys) == {"game_index"}     # the other game keys are the group's
        g = part["game_index"].to_numpy() if within else \
            part.select(pl.struct(gk).rank("dense")).to_series().to_numpy()
        g = g.reshape(-1, n)
        ok = bool((g == g[:, :1]).all()) and bool((np.diff(g[:, 0]) > 0).all())   # games in order, whole
    if ok:
        tot = np.sort(part["total"].to_numpy().reshape(-1, n).astype(np.int64), axis=1)
        counts = np.bincount(tot[:, -1] - tot[:, -2])
        values = np.flatnonzero(counts)
        frame = pl.DataFrame({"value": values.astype(np.int64), "n_games": counts[values].astype(np.int64)})
    else:
        t = pl.col("total").cast(pl.Int64)
        frame = (part.group_by(gk).agg((t.max() - t.top_k(2).min()).alias("value"))
                 .group_by("value").agg(pl.len().cast(pl.Int64).alias("n_games")))
    key = key if isinstance(key, tuple) else (key,)
    return frame.with_columns(*[pl.lit(v, dtype=part.schema[k]).alias(k) for k, v in zip(keys, key)])


#: Rows of :func:`outcome_summary`: (statistic, metric counted, kind, what it means).
OUTCOME_STATISTICS = (
    ("length", "{length}", "mean", "game length in {length}"),
    ("decisions", "decisions", "mean", "decisions per game"),
    ("margin", "margin", "mean", "winning margin: winner's total minus the next total (points)"),
    ("decided_by_le_{k}", "margin", "share", "share of games decided by at most {k} points"),
    ("lead_changes", "lead_changes", "mean", "lead changes per game (round-end snapshots)"),
    ("any_lead_change", "lead_changes", "share", "share of games with at least one lead change"),
    ("led_from", "led_from", "mean", "round from which the winner led for good (1 = throughout)"),
    ("comeback", "led_from", "share", "comeback rate: the winner trailed at some round end"),
    ("late_comeback", "late_comeback", "share", "the winner trailed at the last round end (won in the last round)"),
    ("drama", "max_deficit", "mean_positive", "drama: how far behind the winner was, in comeback games (points)"),
    ("max_deficit", "max_deficit", "mean", "the winner's largest deficit, all games (points)"),
)


def outcome_summary(counts: Frame, by: str | Iterable[str] | None = None, length: str | None = None,
                    ks: Iterable[int] = MARGIN_KS, level: float = 0.95) -> pl.DataFrame:
    """The outcome metrics with n and a 95% CI, from (added-up) :func:`outcome_counts` / :func:`margin_counts`.

    Means get a t interval (n = games; ``drama``: n = comeback games), shares
    a Wilson interval. A metric whose column the runs lack is left out.

    Returns
    -------
    DataFrame, one row per (by..., n_players, statistic): ``statistic``,
    ``meaning``, ``kind`` (mean or share), ``n``, ``estimate``, ``lo``,
    ``hi``, ``sd`` (means), ``successes`` (shares).

    Examples
    --------
    >>> c = pl.DataFrame({"metric": ["margin"] * 3, "value": [0, 1, 4], "n_games": [2, 5, 3]})
    >>> s = outcome_summary(c)
    >>> s.filter(pl.col("statistic") == "decided_by_le_1")["estimate"].item()
    0.7
    """
    c = counts.collect() if isinstance(counts, pl.LazyFrame) else counts
    keys = [*as_list(by), *(["n_players"] if "n_players" in c.columns else [])]
    c = c.with_columns(pl.col("value").cast(pl.Float64), pl.col("n_games").cast(pl.Float64))
    parts = []
    for stat, metric, kind, meaning in OUTCOME_STATISTICS:
        metric = metric.format(length=length)
        if (stat == "length" and not length) or metric not in set(c["metric"].unique()):
            continue
        for k in (ks if "{k}" in stat else [None]):
            sub = c.filter(pl.col("metric") == metric)
            name, text = stat.format(k=k), meaning.format(k=k, length=length)
            v, n = pl.col("value"), pl.col("n_games")
            if kind in ("mean", "mean_positive"):
                if kind == "mean_positive":
                    sub = sub.filter(v > 0)
                agg = [n.sum().alias("n"), (v * n).sum().alias("__s"), (v * v * n).sum().alias("__ss")]
            else:
                hit = {"decided_by_le_{k}": v <= (k if k is not None else 0), "any_lead_change": v > 0,
                       "comeback": v > 1, "late_comeback": v > 0}[stat]
                agg = [n.sum().alias("n"), (n * hit.cast(pl.Float64)).sum().alias("successes")]
            g = sub.group_by(keys).agg(agg) if keys else sub.select(agg)
            if kind == "share":
                g = g.with_columns((pl.col("successes") / pl.col("n")).alias("estimate"),
                                   *wilson_exprs("successes", "n", level), pl.lit(None, pl.Float64).alias("sd"))
            else:
                mean = pl.col("__s") / pl.col("n")
                var = (pl.col("__ss") - pl.col("__s") * mean) / (pl.col("n") - 1)
                g = g.with_columns(mean.alias("estimate"),
                                   pl.when(pl.col("n") > 1).then(var.clip(lower_bound=0).sqrt()).alias("sd"),
                                   pl.lit(None, pl.Float64).alias("successes"))
                half = t_quantile(pl.col("n").clip(lower_bound=2), level) * pl.col("sd") / pl.col("n").sqrt()
                g = g.with_columns((pl.col("estimate") - half).alias("lo"), (pl.col("estimate") + half).alias("hi"))
            parts.append(g.with_columns(pl.lit(name).alias("statistic"), pl.lit(text).alias("meaning"),
                                        pl.lit("share" if kind == "share" else "mean").alias("kind"),
                                        pl.lit(len(parts)).alias("__i"), pl.col("n").cast(pl.Int64))
                         .select(*keys, "statistic", "meaning", "kind", "n", "estimate", "lo", "hi", "sd",
                                 "successes", "__i"))
    if not parts:
        return pl.DataFrame(schema={**{k: pl.String for k in keys}, "statistic": pl.String, "meaning": pl.String,
                                    "kind": pl.String, "n": pl.Int64, "estimate": pl.Float64, "lo": pl.Float64,
                                    "hi": pl.Float64, "sd": pl.Float64, "successes": pl.Float64})
    return pl.concat(parts, how="vertical_relaxed").sort([*keys, "__i"]).drop("__i")


def outcome_distribution(counts: Frame, metrics: Iterable[str],
                         by: str | Iterable[str] | None = None) -> pl.DataFrame:
    """Share of games per value of each of ``metrics`` (from added-up counts), for figures and tables.

    Returns
    -------
    DataFrame: by..., n_players, ``metric``, ``value``, ``n_games``, ``share``.
    """
    c = counts.collect() if isinstance(counts, pl.LazyFrame) else counts
    keys = [*as_list(by), *(["n_players"] if "n_players" in c.columns else [])]
    c = c.filter(pl.col("metric").is_in(list(metrics)))
    total = pl.col("n_games").sum().over([*keys, "metric"])
    return (c.with_columns((pl.col("n_games") / total).alias("share"))
            .sort([*keys, "metric", "value"]).select(*keys, "metric", "value", "n_games", "share"))
