"""Figures of a report: frames in, ``matplotlib.figure.Figure`` out.

Every function takes the polars tables the ``analysis`` functions return and
builds a new ``Figure`` without pyplot (no global state, no ``plt.show()``),
so it works the same in a script (Agg) and in a notebook (the figure
displays when returned). Each figure has a title and axis labels with units;
``caption`` (what it shows and on how many games) is kept as
``fig.boardlab_caption`` for the report, which prints it once, under the image
(drawn inside the image too, it showed twice). Save with ``reports.render.workers.save``.

Examples
--------
>>> from analysis.seats import seat_advantage                   # doctest: +SKIP
>>> fig = win_share_by_seat(seat_advantage(run.players).collect())  # doctest: +SKIP
>>> fig.savefig("win_share.png")                                # doctest: +SKIP
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullLocator, StrMethodFormatter

__all__ = [
    "win_share_by_seat", "score_distributions", "category_weights", "convergence", "win_matrix", "ratings",
    "variant_differences", "outcome_distributions",
]

COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
          "#7f7f7f", "#bcbd22", "#17becf"]

#: Units of the headline statistics (``analysis.summary``), for axis labels.
UNITS = {
    "win_share": ("win share", "percentage points", 100.0),
    "tie_rate": ("games with a tie for first", "percentage points", 100.0),
    "mean_score": ("mean final score", "points", 1.0),
    "winning_score": ("winning score", "points", 1.0),
    "category_points": ("points per player", "points", 1.0),
    "quarry_yield": ("marble per quarry action", "marble", 1.0),
    "quarry_closures": ("quarries closed per game", "quarries", 1.0),
    "game_length": ("game length", "rounds or turns", 1.0),
    "end_trigger": ("games ended by the trigger", "percentage points", 100.0),
    "lead_changes": ("lead changes per game", "lead changes", 1.0),
    "comeback": ("games the winner won from behind", "percentage points", 100.0),
}


def _values(frame, col):
    if frame is None or col is None or col not in frame.columns:
        return [None]
    return frame[col].unique(maintain_order=True).to_list()


def _sel(frame, col, value):
    if col is None or col not in frame.columns:
        return frame
    return frame.filter(pl.col(col) == value) if value is not None else frame.filter(pl.col(col).is_null())


def _panels(n, width=4.2, height=3.6, nrows=1, sharey=False):
    fig = Figure(figsize=(max(5.5, width * n), height * nrows), layout="constrained")
    axes = fig.subplots(nrows, n, squeeze=False, sharey=sharey)
    for ax in axes.flat:
        ax.grid(True, color="#e5e5e5", linewidth=0.6)
        ax.set_axisbelow(True)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    return fig, axes


def _count_label(v, _pos=None):
    """A count on a log axis as plain text: 10, 100, 1k, 10k, 1M (mathtext's 10^k parses slowly)."""
    for size, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= size:
            return f"{v / size:g}{unit}"
    return f"{v:g}"


def _err(est, lo, hi):
    """Error-bar lengths for an estimate and its interval (rounding may put a bound a hair past it)."""
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    return np.clip(np.vstack([est - lo, hi - est]), 0.0, None)


def _finish(fig, title, caption):
    fig.suptitle(title, fontsize=12, fontweight="bold")
    if caption:
        fig.boardlab_caption = caption
    return fig


def _subtitle(ax, text):
    """A panel's title at a fixed height above the axes.

    A fixed ``y`` turns off matplotlib's title auto-positioning, which measures
    every tick label again on each draw to lift the title over top-side ticks;
    no boardlab panel has any (a quarter of a figure's save time went there).
    """
    ax.set_title(text, fontsize=10, y=1.0)


def _label(value, col):
    if value is None:
        return ""
    if col == "n_players":
        return f"{value} players"
    return str(value)


def win_share_by_seat(table: pl.DataFrame, facet: str | None = None, series: str | None = None,
                      title: str = "Win share by player", caption: str | None = None) -> Figure:
    """Mean win share per seat with its confidence interval and the fair-share line.

    Parameters
    ----------
    table : polars.DataFrame
        Output of ``analysis.seats.seat_advantage`` (``seat``, ``win_share``,
        ``win_lo``, ``win_hi``, ``fair_share``).
    facet : str, optional
        Column whose values get one panel each (e.g. ``"run"`` or ``"n_players"``).
    series : str, optional
        Column whose values are drawn side by side in each panel (e.g. ``"variant"``).
    """
    table = _eager(table)
    facets = _values(table, facet)
    fig, axes = _panels(len(facets))
    names = _values(table, series)
    for ax, fv in zip(axes[0], facets):
        part = _sel(table, facet, fv)
        width = 0.7 / max(1, len(names))
        for i, sv in enumerate(names):
            d = _sel(part, series, sv).sort("seat")
            if d.height == 0:
                continue
            x = d["seat"].to_numpy() + (i - (len(names) - 1) / 2) * width
            y = d["win_share"].to_numpy() * 100
            err = _err(y, d["win_lo"].to_numpy() * 100, d["win_hi"].to_numpy() * 100)
            ax.bar(x, y, width=width * 0.9, color=COLORS[i % 10], alpha=0.75,
                   label=_label(sv, series) or None)
            ax.errorbar(x, y, yerr=err, fmt="none", ecolor="black", capsize=3, linewidth=1)
        fairs = sorted(set(part["fair_share"].to_list()))
        for fair in fairs:
            ax.axhline(fair * 100, color="#444444", linestyle="--", linewidth=1)
        if len(fairs) == 1:     # named on the axis, right of the plot: never over a bar
            ax.annotate(f"fair\n{fairs[0] * 100:.1f}%", xy=(1.0, fairs[0] * 100),
                        xycoords=("axes fraction", "data"), xytext=(3, 0), textcoords="offset points",
                        va="center", ha="left", fontsize=8, color="#444444")
        seats = sorted(part["seat"].unique().to_list())
        _seat_ticks(ax, seats)
        ax.set_ylabel("win share (% of games, 95% CI)")
        if fv is not None:
            _subtitle(ax, _label(fv, facet))
        if series and len(names) > 1 and ax is axes[0][-1]:     # beside the last panel, over no bar
            ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.12, 1.0), borderaxespad=0, frameon=False)
    return _finish(fig, title, caption)


def score_distributions(dist: pl.DataFrame, facet: str | None = None, value: str = "total",
                        title: str = "Final score distribution by seat",
                        caption: str | None = None) -> Figure:
    """Share of games per final score, one line per seat.

    ``dist`` is ``analysis.summary.score_distribution`` (``seat``, ``value``, ``share``).
    """
    dist = _eager(dist)
    facets = _values(dist, facet)
    fig, axes = _panels(len(facets))
    for ax, fv in zip(axes[0], facets):
        part = _sel(dist, facet, fv)
        for seat in sorted(part["seat"].unique().to_list()):
            d = part.filter(pl.col("seat") == seat).sort(value)
            ax.step(d[value].to_numpy(), d["share"].to_numpy() * 100, where="mid",
                    color=COLORS[seat % 10], label=f"P{seat + 1}" + (" (starts)" if seat == 0 else ""),
                    linewidth=1.3)
        ax.set_xlabel("final score (points)")
        ax.set_ylabel("share of games (%)")
        if fv is not None:
            _subtitle(ax, _label(fv, facet))
    _legend_outside(axes[0][-1])
    return _finish(fig, title, caption)


def category_weights(logit: pl.DataFrame, profile: pl.DataFrame | None = None,
                     series: str | None = None, title: str = "Which scoring categories make the winner",
                     caption: str | None = None) -> Figure:
    """Standardized logit coefficient per scoring category (right) and winners' points (left).

    ``logit`` is ``analysis.categories.category_logit``; ``profile`` (optional)
    is ``analysis.categories.category_profile``.
    """
    logit = _eager(logit)
    n_ax = 2 if profile is not None else 1
    fig, axes = _panels(n_ax, width=4.6)
    cats = logit["category"].unique(maintain_order=True).to_list()
    names = _values(logit, series)
    h = 0.8 / max(1, len(names))
    y0 = np.arange(len(cats))
    ax = axes[0][-1]
    for i, sv in enumerate(names):
        d = _sel(logit, series, sv)
        idx = {c: j for j, c in enumerate(d["category"].to_list())}
        coef = np.array([d["coef"][idx[c]] if c in idx else np.nan for c in cats], dtype=float)
        lo = np.array([d["lo"][idx[c]] if c in idx else np.nan for c in cats], dtype=float)
        hi = np.array([d["hi"][idx[c]] if c in idx else np.nan for c in cats], dtype=float)
        y = y0 + (i - (len(names) - 1) / 2) * h
        ax.barh(y, coef, height=h * 0.9, color=COLORS[i % 10], alpha=0.75, label=_label(sv, series) or None)
        ax.errorbar(coef, y, xerr=_err(coef, lo, hi), fmt="none", ecolor="black", capsize=2)
    ax.axvline(0, color="#444444", linewidth=0.8)
    ax.set_yticks(y0, cats)
    ax.invert_yaxis()
    ax.set_xlabel("change in log-odds of winning per SD of points (95% CI)")
    _subtitle(ax, "weight in deciding the winner")
    if series and len(names) > 1:
        _legend_below(fig, ax)
    if profile is not None:
        profile = _eager(profile).filter(pl.col("role") == "winner")
        ax = axes[0][0]
        for i, sv in enumerate(names):
            d = _sel(profile, series, sv)
            idx = {c: j for j, c in enumerate(d["category"].to_list())}
            m = np.array([d["mean"][idx[c]] if c in idx else np.nan for c in cats], dtype=float)
            y = y0 + (i - (len(names) - 1) / 2) * h
            ax.barh(y, m, height=h * 0.9, color=COLORS[i % 10], alpha=0.75, label=_label(sv, series) or None)
        ax.set_yticks(y0, cats)
        ax.invert_yaxis()
        ax.set_xlabel("winner's mean points (points)")
        _subtitle(ax, "points the winner scores")
    return _finish(fig, title, caption)


#: above this many distinct x values, several series are drawn as outlines, not side-by-side bars
#: (thin interleaved bars turn into a moiré at a report's resolution)
MAX_GROUPED_VALUES = 12


def _grouped_bars(ax, frame, x, y, series, names):
    """Bars per x value, one colour per series; many values with several series: step outlines."""
    values = frame[x].n_unique() if frame.height else 0
    if len(names) > 1 and values > MAX_GROUPED_VALUES:
        for i, sv in enumerate(names):
            d = _sel(frame, series, sv).sort(x)
            xs, ys = d[x].to_numpy(), d[y].to_numpy() * 100
            ax.step(xs, ys, where="mid", color=COLORS[i % 10], linewidth=1.6, label=_label(sv, series) or None)
        return
    w = 0.8 / max(1, len(names))
    for i, sv in enumerate(names):
        d = _sel(frame, series, sv).sort(x)
        xs = d[x].to_numpy() + (i - (len(names) - 1) / 2) * w
        ax.bar(xs, d[y].to_numpy() * 100, width=w * 0.95, color=COLORS[i % 10], alpha=0.8,
               label=_label(sv, series) or None)


def _legend_below(fig, ax):
    """One legend for all panels, under them (outside every axes: it covers no bar, point or line)."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 6), fontsize=8,
                   frameon=False)


def _legend_outside(ax, **kw):
    """The legend right of the axes, where it covers no bar or line."""
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, frameon=False, **kw)


def _seat_ticks(ax, seats):
    """Seat axis in the words a person reads (reports/words.py): P1 (starts), P2, ..."""
    ax.set_xticks(seats, [f"P{s + 1}" + ("\n(starts)" if s == 0 else "") for s in seats])
    ax.set_xlabel("player, in turn order")


def convergence(conv: pl.DataFrame, facet: str | None = None,
                title: str = "Convergence of the seat win shares", caption: str | None = None) -> Figure:
    """Seat win shares with their CI band (top) and CI half-width (bottom) against games played.

    ``conv`` is ``analysis.convergence.seat_convergence`` (``games``,
    ``win_share``, ``lo``, ``hi``, ``half_width``). The dotted line in the
    bottom panels is the ``1/sqrt(N)`` slope a healthy run follows.
    """
    conv = _eager(conv)
    facets = _values(conv, facet)
    fig, axes = _panels(len(facets), nrows=2, height=3.0)
    for j, fv in enumerate(facets):
        part = _sel(conv, facet, fv)
        top, bottom = axes[0][j], axes[1][j]
        for seat in sorted(part["seat"].unique().to_list()):
            d = part.filter(pl.col("seat") == seat).sort("games")
            g = d["games"].to_numpy()
            top.plot(g, d["win_share"].to_numpy() * 100, color=COLORS[seat % 10], label=f"P{seat + 1}" + (" (starts)" if seat == 0 else ""))
            top.fill_between(g, d["lo"].to_numpy() * 100, d["hi"].to_numpy() * 100,
                             color=COLORS[seat % 10], alpha=0.15, linewidth=0)
            bottom.plot(g, d["half_width"].to_numpy() * 100, color=COLORS[seat % 10], marker=".")
        g_all = part["games"].to_numpy()
        if len(g_all):
            ref = part.sort("games")
            g0, h0 = ref["games"][0], ref["half_width"].max() * 100
            gs = np.array([g_all.min(), g_all.max()], dtype=float)
            bottom.plot(gs, h0 * np.sqrt(g0 / gs), color="#444444", linestyle=":", label="1/√N")
        if "n_players" in part.columns and part.height:
            top.axhline(100 / part["n_players"][0], color="#444444", linestyle="--", linewidth=1)
        for ax in (top, bottom):
            ax.set_xscale("log")
            ax.xaxis.set_minor_locator(NullLocator())     # decades only: the minor ticks cost half the save
            ax.xaxis.set_major_formatter(FuncFormatter(_count_label))
        bottom.set_yscale("log")
        bottom.yaxis.set_major_locator(LogLocator(subs=(1, 2, 5)))     # 1-2-5 labels: a panel may span one decade
        bottom.yaxis.set_minor_locator(NullLocator())
        bottom.yaxis.set_major_formatter(StrMethodFormatter("{x:g}"))     # no lambda: figures are pickled
        top.set_ylabel("win share (%, 95% CI)")
        bottom.set_ylabel("CI half-width (percentage points)")
        bottom.set_xlabel("games played (log scale)")
        if fv is not None:
            _subtitle(top, _label(fv, facet))
    # the players once, under the panels (no band is covered), from the panel with the most players
    _legend_below(fig, max(axes[0], key=lambda ax: len(ax.get_legend_handles_labels()[0])))
    handles, labels = axes[1][0].get_legend_handles_labels()
    if handles:
        axes[1][0].legend(handles, labels, fontsize=7, loc="lower left", frameon=False)
    return _finish(fig, title, caption)


def win_matrix(matrix: pl.DataFrame, title: str = "Head-to-head: share of comparisons won",
               caption: str | None = None) -> Figure:
    """Heat map of ``analysis.ratings.pairwise_win_matrix``: row strategy vs column opponent."""
    matrix = _eager(matrix)
    names = sorted(set(matrix["strategy"].to_list()) | set(matrix["opponent"].to_list()))
    k = len(names)
    m = np.full((k, k), np.nan)
    for r in matrix.iter_rows(named=True):
        m[names.index(r["strategy"]), names.index(r["opponent"])] = r["win_share"] * 100
    fig = Figure(figsize=(1.2 * k + 3.2, 1.0 * k + 1.8), layout="constrained")
    ax = fig.subplots()
    im = ax.imshow(m, cmap="RdBu", vmin=0, vmax=100)
    for i in range(k):
        for j in range(k):
            if not math.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.0f}", ha="center", va="center", fontsize=9,
                        color="white" if abs(m[i, j] - 50) > 30 else "black")
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    fig.colorbar(im, ax=ax, label="row strategy finishes ahead (% of pairs)")
    return _finish(fig, title, caption)


def ratings(bt: pl.DataFrame, title: str = "Strategy ratings (Bradley–Terry)",
            caption: str | None = None) -> Figure:
    """Elo-scale Bradley–Terry ratings with 95% CIs (``analysis.ratings.bradley_terry``)."""
    bt = _eager(bt).sort("elo")
    fig, axes = _panels(1, width=5.5, height=0.5 * bt.height + 1.8)
    ax = axes[0][0]
    y = np.arange(bt.height)
    elo = bt["elo"].to_numpy()
    ax.errorbar(elo, y, xerr=_err(elo, bt["elo_lo"].to_numpy(), bt["elo_hi"].to_numpy()),
                fmt="o", color=COLORS[0], capsize=3)
    ax.axvline(1500, color="#444444", linestyle="--", linewidth=1)
    ax.set_yticks(y, bt["strategy"].to_list())
    ax.set_xlabel("rating (Elo points, 1500 = average strategy, 95% CI)")
    return _finish(fig, title, caption)


def variant_differences(diff: pl.DataFrame, variant: str = "variant",
                        title: str = "Variant differences", caption: str | None = None) -> Figure:
    """Forest plot of ``analysis.summary.variant_differences``: one panel per statistic.

    Each row is one item (seat, category, ...) of a statistic; the point is the
    difference (variant minus baseline) with its 95% CI.
    """
    diff = _eager(diff)
    stats = diff["statistic"].unique(maintain_order=True).to_list()
    ncol = min(3, len(stats)) or 1
    nrow = math.ceil(len(stats) / ncol) or 1
    rows_per = max([diff.filter(pl.col("statistic") == s).height for s in stats] or [1])
    fig = Figure(figsize=(4.4 * ncol + 0.6, (0.35 * rows_per + 1.6) * nrow), layout="constrained")
    axes = np.atleast_1d(fig.subplots(nrow, ncol, squeeze=False)).ravel()
    names = diff[variant].unique(maintain_order=True).to_list()
    for ax, s in zip(axes, stats):
        name, unit, scale = UNITS.get(s, (s, "units of the statistic", 1.0))
        d = diff.filter(pl.col("statistic") == s)
        labels = []
        for r in d.iter_rows(named=True):
            lab = r["item"] if r["item"] != "all" else name
            if "n_players" in d.columns:
                lab = f"{lab} ({r['n_players']}p)"
            if lab not in labels:
                labels.append(lab)
        for i, v in enumerate(names):
            dv = d.filter(pl.col(variant) == v)
            ys, xs, lo, hi = [], [], [], []
            for r in dv.iter_rows(named=True):
                lab = r["item"] if r["item"] != "all" else name
                if "n_players" in dv.columns:
                    lab = f"{lab} ({r['n_players']}p)"
                ys.append(labels.index(lab) + (i - (len(names) - 1) / 2) * 0.25)
                xs.append(r["diff"] * scale)
                lo.append(r["diff_lo"] * scale)
                hi.append(r["diff_hi"] * scale)
            xs, lo, hi = map(np.asarray, (xs, lo, hi))
            ax.errorbar(xs, ys, xerr=_err(xs, lo, hi), fmt="o", color=COLORS[i % 10],
                        capsize=2, label=f"{v} − {dv['baseline'][0]}" if dv.height else None)
        ax.axvline(0, color="#444444", linewidth=0.8)
        ax.set_yticks(range(len(labels)), labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(f"difference ({unit})", fontsize=9)
        _subtitle(ax, name)
        ax.grid(True, axis="x", color="#e5e5e5")
    for ax in axes[len(stats):]:
        ax.set_visible(False)
    if len(stats):
        _legend_below(fig, axes[0])
    return _finish(fig, title, caption)


def outcome_distributions(dist: pl.DataFrame, series: str | None = None, unit: str = "rounds",
                          title: str = "Winning margin and the lead", caption: str | None = None) -> Figure:
    """Share of games per winning margin (left), per number of lead changes
    (middle) and per round from which the winner led for good (right).

    ``dist`` is ``analysis.outcomes.outcome_distribution`` over the metrics
    ``margin``, ``lead_changes`` and ``led_from`` (a panel whose metric is absent is left out).
    """
    dist = _eager(dist)
    panels = [(m, xl, t) for m, xl, t in (
        ("margin", "winner's total minus the next total (points)", "winning margin"),
        ("lead_changes", "lead changes in the game", "lead changes"),
        ("led_from", f"first of the {unit} the winner led to the end (1 = throughout)", "winner led for good from"))
        if dist.filter(pl.col("metric") == m).height]
    fig, axes = _panels(max(1, len(panels)), width=4.4)
    names = _values(dist, series)
    for ax, (metric, xlabel, sub) in zip(axes[0], panels):
        d = dist.filter(pl.col("metric") == metric)
        cap = 20 if metric == "lead_changes" else 30
        if d.height and d["value"].max() > cap:     # the long tail in one last bar, and the axis says so
            keys = [k for k in ([series] if series in d.columns else [])]
            d = (d.with_columns(pl.col("value").clip(upper_bound=cap))
                 .group_by([*keys, "value"]).agg(pl.col("share").sum()))
            xlabel = xlabel[:-1] + f"; {cap} = {cap} or more)"
        _grouped_bars(ax, d, "value", "share", series, names)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel("share of games (%)")
        _subtitle(ax, sub)
    if series and len(names) > 1:
        _legend_outside(axes[0][-1])
    return _finish(fig, title, caption)


def _eager(frame):
    return frame.collect() if isinstance(frame, pl.LazyFrame) else frame
