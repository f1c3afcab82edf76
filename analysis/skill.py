"""Balance per skill level: does a seat's advantage change as the players get better?

Input is a players table of *self-play* runs, one run per skill level (every
seat of a game plays the same strategy), stacked with the level's name in a
column (``level``), and a rating per level (Bradley–Terry Elo from a ladder,
``analysis.ratings.bradley_terry``).

- :func:`seat_share_trend` — for each seat, a fractional logistic regression
  of the seat's win share in a game on its level's rating: the slope per 100
  Elo, its 95% CI and Wald p-value (Holm-corrected across the seats), and the
  fitted share at the weakest and the strongest level;
- :func:`trend_verdict` — "grows", "shrinks", "reverses" or "holds": what the
  fitted trend does to a seat's distance from the fair share.

**Ties.** The outcome of a game for a seat is its win share: 1 for a sole
win, 1/k for a k-way tie for first, 0 otherwise. The regression is the
binomial quasi-likelihood on that fraction (a fractional logit), so a tie
counts exactly as the shares the seat-advantage tables report; its standard
errors are robust (sandwich), as a fraction is not a Bernoulli draw.

**What the test assumes.** The levels' runs are played from one run seed
(common random numbers: game ``i`` of every level meets the same tiles), so
the rows of one ``game_index`` at different levels are not independent: the
standard errors are clustered by ``game_index`` (the seed), which is valid
whatever the sharing and turns the common tiles into precision on the slope
(issue 37). Distinct game indices are independent; the ratings are taken as
known: their own uncertainty is not carried into the slope's interval. With
a handful of levels the test is a test for a monotone trend on the logit
scale (a Cochran–Armitage-type test with the ratings as scores), not for any
particular shape; the per-level shares with their CIs show the shape.

Every function takes a frame (lazy or eager) and returns an eager DataFrame.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from analysis._common import Frame, as_lazy, require
from analysis.stats import holm, logistic_fit, norm_sf, z_value

__all__ = ["seat_share_trend", "trend_verdict", "ELO_STEP"]

#: The slope is reported per this many Elo points.
ELO_STEP = 100.0


def _ratings_map(ratings, level_col):
    if isinstance(ratings, dict):
        return {str(k): float(v) for k, v in ratings.items()}
    frame = ratings.collect() if isinstance(ratings, pl.LazyFrame) else ratings
    key = level_col if level_col in frame.columns else "strategy"
    return {str(k): float(v) for k, v in zip(frame[key].to_list(), frame["elo"].to_list())}


def seat_share_trend(players: Frame, ratings, level_col: str = "level", level: float = 0.95) -> pl.DataFrame:
    """Per seat: the trend of its win share against the rating of the level played.

    Parameters
    ----------
    players : polars.DataFrame or polars.LazyFrame
        Players rows of self-play runs: ``level_col``, ``game_index``, ``seat``,
        ``win_share`` (a k-way tie for first: 1/k each), and ``n_players``.
    ratings : dict or polars.DataFrame
        Rating (Elo scale) of each level: ``{level: elo}``, or a frame with
        ``elo`` and ``level_col`` (or ``strategy``, as ``bradley_terry`` gives).
    level_col : str
        Column naming the level of each row.
    level : float
        Confidence level of the intervals.

    Returns
    -------
    polars.DataFrame, one row per (n_players, seat): ``n_levels``, ``n``
    (games), ``elo_min``, ``elo_max``, ``slope`` (change in log-odds of the
    seat's win share per 100 Elo), ``slope_lo``, ``slope_hi``, ``z``,
    ``p_value``, ``p_holm`` (over the seats of a player count), ``share_min``
    and ``share_max`` (fitted win share at the weakest and strongest level),
    ``fair_share``, ``method`` ("mle", or "firth" when the fit separated).

    Examples
    --------
    >>> p = pl.DataFrame({"level": ["a"] * 6 + ["b"] * 6, "n_players": [2] * 12,
    ...                   "game_index": [0, 0, 1, 1, 2, 2] * 2, "seat": [0, 1] * 6,
    ...                   "win_share": [1.0, 0, 0, 1, 0.5, 0.5, 1, 0, 1, 0, 0, 1]})
    >>> t = seat_share_trend(p, {"a": 1400, "b": 1600})
    >>> t["n"].to_list(), [round(x, 3) for x in t["share_min"]], [round(x, 3) for x in t["share_max"]]
    ([6, 6], [0.5, 0.5], [0.667, 0.333])
    """
    require(players, [level_col, "game_index", "seat", "win_share"], "seat_share_trend")
    elo = _ratings_map(ratings, level_col)
    lf = as_lazy(players)
    cols = lf.collect_schema().names()
    keep = [level_col, "game_index", "seat", "win_share"] + (["n_players"] if "n_players" in cols else [])
    df = lf.select(keep).with_columns(pl.col(level_col).cast(pl.String)).collect()
    if "n_players" not in df.columns:
        df = df.with_columns(pl.len().over(level_col, "game_index").alias("n_players"))
    missing = sorted(set(df[level_col].unique().to_list()) - set(elo))
    if missing:
        raise ValueError(f"seat_share_trend: no rating for level(s) {', '.join(missing)}")
    df = df.with_columns(pl.col(level_col).replace_strict(elo, return_dtype=pl.Float64).alias("__elo"))
    zq = z_value(level)
    rows = []
    for (n_players, seat), part in df.group_by(["n_players", "seat"], maintain_order=True):
        x = part["__elo"].to_numpy()
        y = np.clip(part["win_share"].to_numpy().astype(float), 0.0, 1.0)
        n_levels = int(np.unique(x).size)
        row = {"n_players": int(n_players), "seat": int(seat), "n_levels": n_levels, "n": int(part.height),
               "elo_min": float(x.min()), "elo_max": float(x.max()), "fair_share": 1.0 / int(n_players)}
        if n_levels < 2:
            rows.append(row | dict.fromkeys(("slope", "slope_lo", "slope_hi", "z", "p_value", "share_min",
                                             "share_max"), float("nan")) | {"method": "none"})
            continue
        centre = float(np.mean(np.unique(x)))
        xs = (x - centre) / ELO_STEP
        fit = logistic_fit(np.column_stack([np.ones_like(xs), xs]), y, groups=part["game_index"].to_numpy())
        b, se = float(fit.coef[1]), float(fit.se[1])
        z = b / se if se > 0 else float("nan")
        p = float(2 * norm_sf(abs(z))) if se > 0 else float("nan")

        def share(at):
            return float(1 / (1 + np.exp(-(fit.coef[0] + fit.coef[1] * (at - centre) / ELO_STEP))))

        rows.append(row | {"slope": b, "slope_lo": b - zq * se, "slope_hi": b + zq * se, "z": z, "p_value": p,
                           "share_min": share(x.min()), "share_max": share(x.max()), "method": fit.method})
    out = pl.DataFrame(rows).sort("n_players", "seat")
    if out["p_value"].is_finite().all():
        return holm(out, by="n_players").drop("reject")
    return out.with_columns(pl.lit(None, dtype=pl.Float64).alias("p_holm"))


def trend_verdict(row, alpha: float = 0.05) -> str:
    """What the trend of one seat (a row of :func:`seat_share_trend`) does to its distance from fair.

    "holds" when the slope is not significant at ``alpha`` (the row's
    unadjusted p-value); otherwise "grows" or "shrinks" when the fitted share
    at the strongest level is farther from (or nearer to) the fair share than
    at the weakest, and "reverses" when it crosses the fair share.

    Examples
    --------
    >>> trend_verdict({"p_value": 0.001, "share_min": 0.36, "share_max": 0.42, "fair_share": 1 / 3})
    'grows'
    >>> trend_verdict({"p_value": 0.3, "share_min": 0.36, "share_max": 0.42, "fair_share": 1 / 3})
    'holds'
    """
    p = row.get("p_value")
    if p is None or p != p or p >= alpha:
        return "holds"
    lo, hi = row["share_min"] - row["fair_share"], row["share_max"] - row["fair_share"]
    if lo * hi < 0:
        return "reverses"
    return "grows" if abs(hi) > abs(lo) else "shrinks"
