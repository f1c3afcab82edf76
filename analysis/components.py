"""Component values: what a fleet tile, specialist, building tile, map card or goal is worth.

One pipeline for every game. Its input is a **takes** table — one row per time
a player took a component (picked a fleet, recruited a specialist, built a
tile, excavated a map, kept a goal) with the game keys, ``seat`` and a
``component`` column — and the ``players`` table (``total``, ``win_share``).
The game adapters (``analysis.games.yamatai``, ``analysis.games.akrotiri``) turn the
events table into takes; this module does not know any game.

- :func:`take_shares` — how the takes split over the components, per round,
  seat or any other column (e.g. the pick rate of each fleet by round);
- :func:`component_summary` — per component: how many players took it
  (take rate), the mean final score and win share of those who did and of
  those who did not, the raw difference, and, when the takes carry a value
  and a cost, the value per take and the value per unit of cost;
- :func:`component_regression` — the marginal value: win share (fractional
  logit) and final score (least squares with game fixed effects) regressed
  on the counts of every component taken at once, cluster-robust by game;
- :func:`option_sums` / :func:`option_takes_from_sums` — take rates of
  options counted per seat in the players table (Hellas: action spaces by
  kind), added up over batches of games.

**Reading the uplifts.** Both the raw difference and the regression compare
players who took a component with players who did not *under the strategies
that were played*: a component that good players take looks valuable because
they are good. The regression holds the other components and the seat
fixed, which removes part of that, not all of it.

**Relative values.** When every player takes the same number of
components per game (Yamataï: one fleet per pawn and round), "one more of
this component" means "one fewer of another": the counts are collinear.
``relative=True`` then reports each coefficient against the average
component, holding the player's number of takes fixed (the coefficients sum
to zero), so a positive value reads "worth more than an average pick". The
same contrast answers "which one is better" when the number taken mostly
measures progress (Akrotiri: goals kept and maps excavated both come with
temples), where "against not taking it" would credit each component with
the progress.

Ties: ``win_share`` is the runner's (1/k for a k-way tie), so a tied winner
counts as a fractional win everywhere here. Every function returns the same
kind of frame (lazy or eager) as ``players`` (``take_shares``: as ``takes``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np
import polars as pl

from analysis._common import (
    Frame,
    as_lazy,
    as_list,
    game_keys,
    group_keys,
    like,
    require,
    run_starts,
    share_sum,
    with_n_players,
)
from analysis.stats import (add_by_code, linear_fit, logistic_fit, mean_ci_exprs, norm_sf, ratio_from_sums,
                            wilson_exprs, z_value)

__all__ = ["take_shares", "take_counts", "take_shares_from_counts", "component_summary", "player_sums",
           "component_take_sums", "component_summary_from_sums", "component_regression", "option_sums",
           "option_takes_from_sums"]


def take_shares(
    takes: Frame,
    component: str = "component",
    split: str | Iterable[str] | None = None,
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
) -> Frame:
    """Share of the takes that went to each component, per ``split`` cell.

    Parameters
    ----------
    takes : polars.DataFrame or polars.LazyFrame
        One row per take, with ``component`` and the ``split`` columns
        (and ``n_players`` when known: results are then split by it too).
    component : str
        Column naming the component taken.
    split : str or list of str, optional
        Cells to compare, e.g. ``"round"`` or ``"seat"``.
    by : str or list of str, optional
        Group-by columns (e.g. the run label).
    level : float
        Confidence level (Wilson intervals, takes treated as independent).

    Returns
    -------
    Same kind as ``takes``, one row per (by..., n_players, split..., component):
    ``n_takes``, ``cell_takes`` (all takes of the cell), ``share``, ``lo``, ``hi``.

    Examples
    --------
    >>> t = pl.DataFrame({"round": [0, 0, 0, 1], "component": [1, 1, 2, 2]})
    >>> take_shares(t, split="round").select("round", "component", "share").rows()
    [(0, 1, 0.6666666666666666), (0, 2, 0.3333333333333333), (1, 2, 1.0)]
    """
    counts = take_counts(takes, component, split, by)
    return like(take_shares_from_counts(counts, component, split, by, level), takes)


def take_counts(
    takes: Frame,
    component: str = "component",
    split: str | Iterable[str] | None = None,
    by: str | Iterable[str] | None = None,
) -> Frame:
    """``n_takes`` per (by..., n_players, split..., component): what :func:`take_shares` is made of.

    Counts of batches of games add up (``analysis._common.add_up``) to those of all of them.
    """
    require(takes, [component, *as_list(split)], "take_shares")
    cell = group_keys(takes, as_list(by)) + as_list(split)
    return like(as_lazy(takes).group_by([*cell, component]).agg(pl.len().alias("n_takes")), takes)


def take_shares_from_counts(
    counts: Frame,
    component: str = "component",
    split: str | Iterable[str] | None = None,
    by: str | Iterable[str] | None = None,
    level: float = 0.95,
) -> Frame:
    """:func:`take_shares` from :func:`take_counts` (of one table or added up)."""
    cell = group_keys(counts, as_list(by)) + as_list(split)
    out = (
        as_lazy(counts)
        .with_columns(pl.col("n_takes").cast(pl.UInt32))
        .with_columns(pl.col("n_takes").sum().over(cell or None).alias("cell_takes")
                      if cell else pl.col("n_takes").sum().alias("cell_takes"))
        .with_columns((pl.col("n_takes") / pl.col("cell_takes")).alias("share"))
        .with_columns(*wilson_exprs("n_takes", "cell_takes", level))
        .sort([*cell, component])
    )
    return like(out, counts)


def _player_frame(players: Frame, groups: Sequence[str]) -> tuple[pl.LazyFrame, list[str]]:
    require(players, ["game_index", "seat", "total", "win_share"], "component values")
    gk = game_keys(players, groups)
    lf = with_n_players(as_lazy(players), groups)
    return lf.select(*dict.fromkeys([*gk, "n_players", "seat", "total", "win_share"])), gk


def component_summary(
    takes: Frame,
    players: Frame,
    component: str = "component",
    by: str | Iterable[str] | None = None,
    value: str | None = None,
    cost: str | None = None,
    level: float = 0.95,
) -> Frame:
    """Take rate of each component and the outcome of the players who took it.

    Parameters
    ----------
    takes : polars.DataFrame or polars.LazyFrame
        One row per take: the game keys (``game_index`` and the ``by``
        columns), ``seat``, ``component`` and, optionally, ``value``/``cost``.
    players : polars.DataFrame or polars.LazyFrame
        The players table (``game_index``, ``seat``, ``total``, ``win_share``).
    component : str
        Column naming the component.
    by : str or list of str, optional
        Group-by columns, in both tables; results are also split by ``n_players``.
    value, cost : str, optional
        Per-take columns (e.g. points and drachmas of a map card): adds the
        mean value per take with its t interval and the ratio of summed value
        to summed cost with a delta-method interval (takes as the units).
    level : float
        Confidence level.

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, component):
    ``n`` (player-games), ``n_games``, ``n_takes``, ``takes_per_game``,
    ``takers`` (player-games with at least one take), ``take_rate``,
    ``take_lo``, ``take_hi``; ``takers_total``, ``total_lo``, ``total_hi``
    (mean final score of takers, t interval), ``others_total``,
    ``total_diff``, ``total_diff_lo``, ``total_diff_hi``; ``takers_win``
    (mean win share of takers), ``win_lo``, ``win_hi`` (Wilson),
    ``others_win``, ``win_diff``, ``win_diff_lo``, ``win_diff_hi``
    (normal intervals); with ``value``: ``value_per_take``, ``value_lo``,
    ``value_hi``; with ``cost`` too: ``value_per_cost``, ``vpc_lo``,
    ``vpc_hi``. Differences and intervals are null when a side is empty.

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
    ...                   "total": [9, 5, 8, 7], "win_share": [1.0, 0.0, 1.0, 0.0]})
    >>> t = pl.DataFrame({"game_index": [0, 1], "seat": [0, 0], "component": ["x", "x"]})
    >>> s = component_summary(t, p)
    >>> s.select("take_rate", "takers_win", "others_win", "win_diff").row(0)
    (0.5, 1.0, 0.0, 1.0)
    """
    return like(component_summary_from_sums(component_take_sums(takes, players, component, by, value, cost),
                                            player_sums(players, by), component, by, value, cost, level), players)


def player_sums(players: Frame, by: str | Iterable[str] | None = None) -> Frame:
    """Per (by..., n_players): ``n`` (player-games), ``n_games``, and the sums of ``total``, its
    square and ``win_share``, for :func:`component_summary_from_sums`. Sums of batches of whole
    games add up (``analysis._common.add_up``)."""
    groups = as_list(by)
    lf, gk = _player_frame(players, groups)
    tot = pl.col("total").cast(pl.Float64)
    out = lf.group_by([*groups, "n_players"]).agg(
        pl.len().cast(pl.Int64).alias("n"),
        pl.struct(gk).n_unique().cast(pl.Int64).alias("n_games"),
        tot.sum().alias("__ts"), (tot * tot).sum().alias("__tq"),
        share_sum(pl.col("win_share")).alias("__ws"),
    )
    return like(out, players)


def component_take_sums(
    takes: Frame,
    players: Frame,
    component: str = "component",
    by: str | Iterable[str] | None = None,
    value: str | None = None,
    cost: str | None = None,
) -> Frame:
    """Per (by..., n_players, component): ``n_takes``, ``takers`` and the takers' sums of ``total``,
    its square and ``win_share``; with ``value`` (and ``cost``) the takes' count, sums and sums of
    squares and products of them. The counterpart of :func:`player_sums`: sums of batches of whole
    games add up (``analysis._common.add_up``) to those of all of them."""
    groups = as_list(by)
    require(takes, ["game_index", "seat", component, *groups, *([value] if value else []),
                    *([cost] if cost else [])], "component_summary")
    lf, gk = _player_frame(players, groups)
    keys = [*groups, "n_players"]
    tot = pl.col("total").cast(pl.Float64)
    ws = pl.col("win_share").cast(pl.Float64)
    t = as_lazy(takes).join(lf.select(*gk, "seat", "n_players").unique(), on=[*gk, "seat"], how="inner")
    per_player = t.group_by([*gk, "seat", component]).agg(pl.len().alias("__k"))
    out = (
        per_player.join(lf, on=[*gk, "seat"], how="inner")
        .group_by([*keys, component])
        .agg(pl.col("__k").sum().cast(pl.Int64).alias("n_takes"), pl.len().cast(pl.Int64).alias("takers"),
             tot.sum().alias("__tts"), (tot * tot).sum().alias("__ttq"), share_sum(ws).alias("__tws"))
    )
    if value:
        v = pl.col(value).cast(pl.Float64)
        agg = [pl.len().cast(pl.Int64).alias("__vn"), v.sum().alias("__sv"), (v * v).sum().alias("__svv")]
        if cost:
            c = pl.col(cost).cast(pl.Float64)
            agg += [c.sum().alias("__sc"), (c * c).sum().alias("__scc"), (v * c).sum().alias("__svc")]
        out = out.join(t.group_by([*keys, component]).agg(agg), on=[*keys, component], how="left")
    return like(out, takes)


def component_summary_from_sums(
    took: Frame,
    base: Frame,
    component: str = "component",
    by: str | Iterable[str] | None = None,
    value: str | None = None,
    cost: str | None = None,
    level: float = 0.95,
) -> Frame:
    """:func:`component_summary` from :func:`component_take_sums` and :func:`player_sums`
    (of one table, or each added up over batches of games)."""
    groups = as_list(by)
    keys = [*groups, "n_players"]
    out = as_lazy(took).join(as_lazy(base), on=keys, how="inner").with_columns(
        (pl.col("n") - pl.col("takers")).alias("__on"),
    )
    on = pl.col("__on").cast(pl.Float64)
    kt = pl.col("takers").cast(pl.Float64)
    out = out.with_columns(
        (pl.col("n_takes") / pl.col("n_games")).alias("takes_per_game"),
        (kt / pl.col("n")).alias("take_rate"),
        (pl.col("__tts") / kt).alias("takers_total"),
        ((pl.col("__ts") - pl.col("__tts")) / on).alias("others_total"),
        (pl.col("__tws") / kt).alias("takers_win"),
        ((pl.col("__ws") - pl.col("__tws")) / on).alias("others_win"),
    ).with_columns(
        ((pl.col("__ttq") - kt * pl.col("takers_total") ** 2) / (kt - 1)).clip(lower_bound=0).sqrt()
        .alias("__tsd"),
        (((pl.col("__tq") - pl.col("__ttq")) - on * pl.col("others_total") ** 2) / (on - 1))
        .clip(lower_bound=0).sqrt().alias("__osd"),
    )
    z = z_value(level)
    wse = ((pl.col("takers_win") * (1 - pl.col("takers_win")) / kt)
           + (pl.col("others_win") * (1 - pl.col("others_win")) / on)).sqrt()
    tse = (pl.col("__tsd") ** 2 / kt + pl.col("__osd") ** 2 / on).sqrt()
    out = out.with_columns(
        *wilson_exprs("takers", "n", level, prefix="take_"),
        *mean_ci_exprs("takers_total", "__tsd", "takers", level, prefix="total_"),
        *wilson_exprs("__tws", "takers", level, prefix="win_"),
        (pl.col("takers_total") - pl.col("others_total")).alias("total_diff"),
        (pl.col("takers_win") - pl.col("others_win")).alias("win_diff"),
        tse.alias("__tse"), wse.alias("__wse"),
    ).with_columns(
        (pl.col("total_diff") - z * pl.col("__tse")).alias("total_diff_lo"),
        (pl.col("total_diff") + z * pl.col("__tse")).alias("total_diff_hi"),
        (pl.col("win_diff") - z * pl.col("__wse")).alias("win_diff_lo"),
        (pl.col("win_diff") + z * pl.col("__wse")).alias("win_diff_hi"),
    )
    cols = [*keys, component, "n", "n_games", "n_takes", "takes_per_game", "takers", "take_rate",
            "take_lo", "take_hi", "takers_total", "total_lo", "total_hi", "others_total", "total_diff",
            "total_diff_lo", "total_diff_hi", "takers_win", "win_lo", "win_hi", "others_win", "win_diff",
            "win_diff_lo", "win_diff_hi"]
    if value:
        out = _value_stats(out.collect(), value, cost, level).lazy()
        cols += ["value_per_take", "value_lo", "value_hi"] + (["value_per_cost", "vpc_lo", "vpc_hi"] if cost else [])
    out = out.with_columns(pl.col(c).fill_nan(None) for c in cols[len(keys) + 1:]
                           if c not in ("n", "n_games", "n_takes", "takers"))
    return like(out.select(cols).sort([*keys, component]), took)


def _value_stats(out: pl.DataFrame, value: str, cost: str | None, level: float) -> pl.DataFrame:
    """Mean value per take (t interval; its SD from the sums in exact rational arithmetic) and, with
    ``cost``, the ratio of summed value to summed cost (``analysis.stats.ratio_of_sums``)."""
    sd = []
    for n, s, ss in out.select("__vn", "__sv", "__svv").iter_rows():
        if n is None or n < 2:
            sd.append(None)
            continue
        s, ss = Fraction(s), Fraction(ss)          # the sums are exact floats: no cancellation error
        sd.append(float(np.sqrt(float(max((ss - s * s / n) / (n - 1), Fraction(0))))))
    out = out.with_columns(pl.Series("__vsd", sd, dtype=pl.Float64),
                           (pl.col("__sv") / pl.col("__vn").cast(pl.Float64)).alias("value_per_take"))
    out = out.with_columns(*mean_ci_exprs("value_per_take", "__vsd", "__vn", level, prefix="value_"))
    if cost:
        out = out.with_columns(ratio_from_sums(level, prefix="value_per_cost")).rename(
            {"value_per_cost_lo": "vpc_lo", "value_per_cost_hi": "vpc_hi"})
    return out


def _group_codes(df: pl.DataFrame, cols: Sequence[str]) -> np.ndarray:
    """Each row's game as 0..g-1 in the games' sorted order; ``df`` sorted by ``cols`` (no nulls)."""
    if not df.height:
        return np.zeros(0, dtype=np.int64)
    # sorted rows: a new game where any key changes (the dense rank of the keys, without the sort)
    return df.select(run_starts(*cols).cast(pl.Int64).cum_sum()).to_series().to_numpy().astype(np.int64) - 1


def _demean(a: np.ndarray, codes: np.ndarray, n_groups: int) -> np.ndarray:
    """Subtract each game's mean (column-wise)."""
    a2 = a.reshape(len(codes), -1)
    size = len(codes) // n_groups if n_groups else 0
    if size and size * n_groups == len(codes) and np.array_equal(codes, np.repeat(np.arange(n_groups), size)):
        # every game in one block of ``size`` rows: the same row-order sums, no scatter or gather
        a3 = a2.reshape(n_groups, size, -1)
        sums = a3[:, 0].astype(float)
        for r in range(1, size):
            sums = sums + a3[:, r]
        return (a3 - (sums / float(size))[:, None, :]).reshape(a.shape)
    sums = np.zeros((n_groups, a2.shape[1]))
    add_by_code(sums, codes, a2)
    counts = np.bincount(codes, minlength=n_groups).astype(float)[:, None]
    out = a2 - (sums / counts)[codes]
    return out.reshape(a.shape)


def component_regression(
    takes: Frame,
    players: Frame,
    component: str = "component",
    by: str | Iterable[str] | None = None,
    relative: bool = False,
    level: float = 0.95,
) -> Frame:
    """Marginal value of each component: regressions of winning and of the score on counts.

    Within each (by..., n_players) group, every player row gets the count of
    each component it took; the counts and seat dummies are centred on the
    game's mean (so a count reads "more than the other players of this
    game"). Two fits, both with cluster-robust standard errors by game:

    - ``outcome = "win"``: fractional logit of ``win_share`` on the centred
      counts (Firth's penalty when the data are separated); ``effect`` is the
      average marginal effect on the win chance, ``coef × mean p(1-p)``;
    - ``outcome = "total"``: least squares of the final score on the same
      counts with game fixed effects; ``effect`` is points per extra take.

    With ``relative=True`` a coefficient is relative to the average
    component (they sum to zero), see the module notes; the player's number
    of takes is then a control.

    Parameters
    ----------
    takes, players, component, by, level
        As in :func:`component_summary`.
    relative : bool
        Report each component against the average one, given the number of
        takes (needed when every player takes the same number, e.g. one fleet
        per pawn and round).

    Returns
    -------
    Same kind as ``players``, one row per (by..., n_players, outcome,
    component): ``n`` (player rows), ``n_games``, ``takers``, ``coef``,
    ``se``, ``lo``, ``hi``, ``p_value``, ``effect``, ``effect_lo``,
    ``effect_hi``, ``method`` (``logit``, ``logit-firth``, ``ols-fe``) and
    ``contrast`` (``"vs not taking"`` or ``"vs average"``). A component that
    no player (or every player equally) took in a group has null estimates.
    """
    groups = as_list(by)
    require(takes, ["game_index", "seat", component, *groups], "component_regression")
    lf, gk = _player_frame(players, groups)
    keys = [*groups, "n_players"]
    p = lf.collect()
    t = (as_lazy(takes).group_by([*gk, "seat", component]).agg(pl.len().alias("__k"))
         .collect())
    comp_dtype = t.schema[component]
    comps_all = t[component].unique().sort().to_list()
    z = z_value(level)
    rows = []
    for key, part in p.group_by(keys, maintain_order=True):
        key = key if isinstance(key, tuple) else (key,)
        part = part.sort([*gk, "seat"]).with_row_index("__row")
        tk = t.join(part.select(*gk, "seat", "__row"), on=[*gk, "seat"], how="inner")
        codes = _group_codes(part, gk)
        n_g = int(codes.max()) + 1 if len(codes) else 0
        # column of each take's component (comps_all is sorted); a (row, component) pair occurs once in tk
        col = tk.select(pl.col(component).replace_strict(comps_all, list(range(len(comps_all))),
                                                         return_dtype=pl.Int64)).to_series().to_numpy()
        C = np.zeros((part.height, len(comps_all)))
        C[tk["__row"].to_numpy(), col] = tk["__k"].to_numpy().astype(float)      # each (row, column) once
        takers = (C > 0).sum(axis=0)
        seats = part["seat"].to_numpy().astype(int)
        S = np.stack([(seats == s).astype(float) for s in np.unique(seats)[1:]], axis=1) \
            if len(np.unique(seats)) > 1 else np.zeros((part.height, 0))
        Cd = _demean(C, codes, n_g)
        Sd = _demean(S, codes, n_g) if S.shape[1] else S
        active = np.flatnonzero(np.std(Cd, axis=0) > 1e-12).tolist()
        ctrl = [Sd]
        if relative:
            tot = _demean(C.sum(axis=1), codes, n_g)
            if np.std(tot) > 1e-12:
                ctrl.append(tot[:, None])
        ref = active[-1] if relative and active else None
        fitted = [j for j in active if j != ref]
        X = np.column_stack([*ctrl, Cd[:, fitted]]) if (fitted or any(c.shape[1] for c in ctrl)) \
            else np.zeros((part.height, 0))
        n_ctrl = sum(c.shape[1] for c in ctrl)
        ws = part["win_share"].cast(pl.Float64).to_numpy()
        y = _demean(part["total"].cast(pl.Float64).to_numpy(), codes, n_g)
        fits = {}
        if active:
            X1 = np.column_stack([np.ones(part.height), X])
            lfit = logistic_fit(X1, ws, groups=codes)
            pr = 1.0 / (1.0 + np.exp(-(X1 @ lfit.coef)))
            del X1
            fits["win"] = (lfit.coef[1 + n_ctrl:], lfit.cov[1 + n_ctrl:, 1 + n_ctrl:],
                           float(np.mean(pr * (1 - pr))), "logit" if lfit.method == "mle" else "logit-firth")
            ofit = linear_fit(X, y, groups=codes)
            fits["total"] = (ofit.coef[n_ctrl:], ofit.cov[n_ctrl:, n_ctrl:], 1.0, "ols-fe")
        for outcome in ("win", "total"):
            est = {}
            if outcome in fits:
                b, cov, scale, method = fits[outcome]
                if relative:
                    k = len(active)
                    full_b = np.zeros(k)
                    full_cov = np.zeros((k, k))
                    pos = [active.index(j) for j in fitted]
                    full_b[pos] = b
                    full_cov[np.ix_(pos, pos)] = cov
                    M = np.eye(k) - 1.0 / k
                    b2, cov2 = M @ full_b, M @ full_cov @ M.T
                    est = {j: (b2[i], np.sqrt(max(cov2[i, i], 0.0))) for i, j in enumerate(active)}
                else:
                    est = {j: (b[i], np.sqrt(max(cov[i, i], 0.0))) for i, j in enumerate(fitted)}
            for j, c in enumerate(comps_all):
                row = {**dict(zip(keys, key)), "outcome": outcome, component: c, "n": part.height,
                       "n_games": n_g, "takers": int(takers[j])}
                if j in est:
                    coef, se = est[j]
                    _, _, scale, method = fits[outcome]
                    pv = float(2 * norm_sf(abs(coef / se))) if se > 0 else float("nan")
                    row.update(coef=coef, se=se, lo=coef - z * se, hi=coef + z * se, p_value=pv,
                               effect=coef * scale, effect_lo=(coef - z * se) * scale,
                               effect_hi=(coef + z * se) * scale, method=method)
                else:
                    row.update(coef=None, se=None, lo=None, hi=None, p_value=None, effect=None,
                               effect_lo=None, effect_hi=None, method=None)
                row["contrast"] = "vs average" if relative else "vs not taking"
                rows.append(row)
    schema = {**dict(p.select(keys).schema), "outcome": pl.String, component: comp_dtype, "n": pl.Int64,
              "n_games": pl.Int64, "takers": pl.Int64, **{c: pl.Float64 for c in
              ("coef", "se", "lo", "hi", "p_value", "effect", "effect_lo", "effect_hi")},
              "method": pl.String, "contrast": pl.String}
    out = pl.DataFrame(rows, schema=schema) if rows else pl.DataFrame(schema=schema)
    out = out.with_columns(pl.col(c).fill_nan(None) for c in ("coef", "se", "lo", "hi", "p_value", "effect",
                                                               "effect_lo", "effect_hi"))
    return like(out, players)


def option_sums(players: Frame, columns: Sequence[str], by: str | Iterable[str] | None = None) -> Frame:
    """Counts and sums of per-seat option counts (``columns`` of ``players``), to add up over batches.

    Returns
    -------
    Same kind as ``players``: one row per (by..., n_players, option) with ``n``
    (player-games), ``takers`` (player-games with at least one take), ``s`` and
    ``ss`` (sum and sum of squares of the count).

    Examples
    --------
    >>> p = pl.DataFrame({"game_index": [0, 0], "space_palace": [0, 2]})
    >>> option_sums(p, ["space_palace"])["takers"].item()
    1
    """
    require(players, ["game_index", *columns], "option_sums")
    groups = as_list(by)
    lf = with_n_players(as_lazy(players), groups)
    keys = [*groups, "n_players"]
    parts = [lf.group_by(keys).agg(pl.len().alias("n"), (pl.col(c) > 0).sum().cast(pl.Int64).alias("takers"),
                                   pl.col(c).cast(pl.Int64).sum().alias("s"),
                                   (pl.col(c).cast(pl.Int64) ** 2).sum().alias("ss"))
             .with_columns(pl.lit(c).alias("option"), pl.col("n").cast(pl.Int64)) for c in columns]
    out = pl.concat(parts).select(*keys, "option", "n", "takers", "s", "ss")
    return like(out, players)


def option_takes_from_sums(sums: Frame, by: str | Iterable[str] | None = None, level: float = 0.95) -> Frame:
    """Take rate (Wilson CI) and mean takes per player-game (t CI) from (added-up) :func:`option_sums`.

    Returns
    -------
    Same kind as ``sums``: by..., n_players, ``option``, ``n``, ``takers``,
    ``take_rate``, ``take_lo``, ``take_hi``, ``per_game``, ``per_game_lo``, ``per_game_hi``.
    """
    from analysis._common import sd_from_sums
    from analysis.stats import mean_ci_exprs

    keys = [*as_list(by), "n_players"]
    out = (as_lazy(sums).with_columns((pl.col("takers") / pl.col("n")).alias("take_rate"),
                                      *wilson_exprs("takers", "n", level, prefix="take_"),
                                      (pl.col("s") / pl.col("n")).alias("per_game"),
                                      sd_from_sums("s", "ss", "n").alias("__sd"))
           .with_columns(*mean_ci_exprs("per_game", "__sd", "n", level, prefix="per_game_"))
           .select(*keys, "option", "n", "takers", "take_rate", "take_lo", "take_hi", "per_game", "per_game_lo",
                   "per_game_hi"))
    return like(out, sums)
