"""The figures of a strategy ladder: rating against compute, seat share against rating."""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from reports.render import figures as F
from reports.words import player_name


def rating_vs_compute(table: pl.DataFrame, title="Rating against compute per decision", caption=None):
    """Elo (95% CI) of each strategy against the playouts it runs per decision (symmetric-log axis)."""
    fig, axes = F._panels(1, width=7.5, height=4.6)
    ax = axes[0, 0]
    t = table.sort("playouts", "elo")
    x = t["playouts"].to_numpy().astype(float)
    y = t["elo"].to_numpy()
    err = F._err(y, t["elo_lo"].to_numpy(), t["elo_hi"].to_numpy())
    search = x > 0
    for mask, color, label in ((~search, F.COLORS[1], "random and heuristic presets (0 playouts)"),
                               (search, F.COLORS[0], "MCTS (one playout per iteration)")):
        if mask.any():
            ax.errorbar(x[mask], y[mask], yerr=err[:, mask], fmt="o", color=color, capsize=3, label=label)
    if search.sum() > 1:
        ax.plot(x[search], y[search], color=F.COLORS[0], linewidth=1, alpha=0.6)
    # labels of the strategies at one x (the presets, all at 0) pushed apart so they do not overlap
    gap = (float(t["elo_hi"].max()) - float(t["elo_lo"].min())) * 0.04
    label_y = {}
    for xv in np.unique(x):
        idx = np.flatnonzero(x == xv)
        idx = idx[np.argsort(y[idx])]
        last = -np.inf
        for i in idx:
            label_y[i] = max(y[i], last + gap)
            last = label_y[i]
    for i, name in enumerate(t["strategy"].to_list()):
        ax.annotate(name, (x[i], label_y[i]), xytext=(7, 0), textcoords="offset points", fontsize=7,
                    va="center")
    ax.set_xscale("symlog", linthresh=10, linscale=0.5)
    ax.xaxis.set_major_formatter(F.FuncFormatter(F._count_label))
    ax.set_xlim(-1, max(20.0, float(x.max()) * 3))
    ax.set_xlabel("playouts per decision (MCTS iterations; 0 = no search), symmetric-log axis")
    ax.set_ylabel("Bradley–Terry rating (Elo)")
    F._legend_below(fig, ax)
    return F._finish(fig, title, caption)


def seat_share_vs_rating(shares: pl.DataFrame, trend: pl.DataFrame | None = None,
                         title="Each player's win share against the skill level's rating", caption=None):
    """Each seat's win share (95% CI) at each level against the level's Elo, with the fitted trend."""
    fig, axes = F._panels(1, width=7.5, height=4.6)
    ax = axes[0, 0]
    seats = sorted(shares["seat"].unique().to_list())
    step = max(float(shares["elo"].max() - shares["elo"].min()), 100.0) * 0.008
    for i, seat in enumerate(seats):
        d = shares.filter(pl.col("seat") == seat).sort("elo")
        c = F.COLORS[i % len(F.COLORS)]
        xs = d["elo"].to_numpy() + (i - (len(seats) - 1) / 2) * step     # side by side: bars do not overlap
        ax.errorbar(xs, d["win_share"].to_numpy() * 100,
                    yerr=F._err(d["win_share"] * 100, d["win_lo"] * 100, d["win_hi"] * 100),
                    fmt="o", color=c, capsize=3, label=player_name(seat))
        if trend is not None and trend.height:
            r = trend.filter(pl.col("seat") == seat)
            if r.height and r["slope"][0] == r["slope"][0]:
                lo_, hi_ = float(d["elo"].min()), float(d["elo"].max())
                grid = np.linspace(lo_, hi_, 50)
                p0, p1 = r["share_min"][0], r["share_max"][0]
                # the fitted logit is linear in the rating: interpolate between its two ends
                l0, l1 = math.log(p0 / (1 - p0)), math.log(p1 / (1 - p1))
                fit = 1 / (1 + np.exp(-(l0 + (l1 - l0) * (grid - lo_) / max(hi_ - lo_, 1e-9))))
                ax.plot(grid, fit * 100, color=c, linewidth=1, alpha=0.7, linestyle="-")
    fair = shares["fair_share"][0] * 100
    ax.axhline(fair, color="#555", linestyle="--", linewidth=1, label="fair share")
    top = shares.group_by("level").agg(pl.col("elo").first(), pl.col("win_hi").max())
    for r in top.iter_rows(named=True):
        ax.annotate(r["level"], (r["elo"], r["win_hi"] * 100), textcoords="offset points", xytext=(0, 6),
                    fontsize=7, ha="center", rotation=20)
    ax.set_xlabel("rating of the level played by every seat (Bradley–Terry Elo, from the ladder)")
    ax.set_ylabel("win share (%, 95% CI)")
    lo_y, hi_y = ax.get_ylim()
    ax.set_ylim(lo_y, hi_y + 0.1 * (hi_y - lo_y))       # room for the level names above the bars
    F._legend_below(fig, ax)
    return F._finish(fig, title, caption)


# ---------------------------------------------------------------- sections


def short_label(name: str) -> str:
    """A strategy's name as the strength-per-CPU figure writes it: ``mcts:iterations=400`` -> ``MCTS-400``,
    ``mcts:iterations=100,prior=learned`` -> ``MCTS-100, model prior``, ``learned:/a/b.json`` ->
    ``learned (b.json)``; other names as they are."""
    import re

    m = re.fullmatch(r"mcts:iterations=(\d+)(,.*)?", name)
    if m:
        rest = [x for x in (m.group(2) or "").split(",") if x]
        words = ["model prior" if x == "prior=learned" else x for x in rest]
        return ", ".join([f"MCTS-{m.group(1)}"] + words)
    if name.startswith("learned:"):
        return f"learned ({name.rsplit('/', 1)[-1]})"
    return name


def _place_labels(fig, ax, x, y, lo, hi, labels, fontsize=7):
    """Write each point's label beside it where it covers no other label, marker or error bar: the first
    free place of a few around the point (right of it, then left, a little higher or lower each time,
    then above or below), in display space. Where every place crosses an error bar, one that crosses
    only bars; where none is free, the one overlapping other labels least."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    fig.canvas.draw()                                   # the layout as it will be saved (labels stay out of it)
    r = fig.canvas.get_renderer()
    to = ax.transData.transform
    p = to(np.column_stack([x, y]))
    marks = [(px - 4, py - 4, px + 4, py + 4) for px, py in p]
    bars = []
    for xi, l_, h_ in zip(x, lo, hi):
        if l_ == l_ and h_ == h_:
            (bx, by0), (_, by1) = to([(xi, l_), (xi, h_)])
            bars.append((bx - 4, by0, bx + 4, by1))
    placed = []
    box = ax.get_window_extent(r)
    tries = [(dx, dy, ha) for dy in (3, 11, -6, 19, -14, 27, -22, 35, -30)
             for dx, ha in ((6, "left"), (-6, "right"))] + [(0, 14, "center"), (0, -14, "center")]

    def overlap(b, boxes):
        return sum(max(0.0, min(b.x1, q[2]) - max(b.x0, q[0])) * max(0.0, min(b.y1, q[3]) - max(b.y0, q[1]))
                   for q in boxes)

    for i in np.argsort(-np.asarray(y), kind="stable"):         # from the top down
        cands = []
        for dx, dy, ha in tries:
            t = ax.annotate(labels[i], (x[i], y[i]), xytext=(dx, dy), textcoords="offset points",
                            fontsize=fontsize, ha=ha, va="center")
            t.set_in_layout(False)
            b = t.get_window_extent(r)
            t.remove()
            inside = b.x0 >= box.x0 and b.x1 <= box.x1 and b.y0 >= box.y0 and b.y1 <= box.y1
            clash = overlap(b, placed) + overlap(b, marks)
            cands.append(((not inside, clash > 0, overlap(b, bars) > 0, clash), (dx, dy, ha), b))
        _, (dx, dy, ha), b = min(cands, key=lambda c: c[0])
        t = ax.annotate(labels[i], (x[i], y[i]), xytext=(dx, dy), textcoords="offset points", fontsize=fontsize,
                        ha=ha, va="center")
        t.set_in_layout(False)
        placed.append((b.x0, b.y0, b.x1, b.y1))


def rating_vs_cpu(table: pl.DataFrame, title="Strength per CPU-second", caption=None):
    """Elo (95% CI) of each strategy against its CPU seconds a game (every seat playing it; log axis).

    ``table``: ``strategy``, ``kind`` (``random``/``heuristic``, ``mcts``, ``learned``; a search with a
    model as prior is ``mcts`` with ``prior`` true), ``cpu`` (seconds a game), ``elo``, ``elo_lo``,
    ``elo_hi`` and optionally ``prior``. Plain MCTS levels are joined by a line: the frontier the
    learned models are measured against. A rating without an interval (its games from one seed) is
    drawn hollow and labelled so; the labels are short (:func:`short_label`) and set where they cover
    nothing."""
    fig, axes = F._panels(1, width=7.5, height=4.9)
    ax = axes[0, 0]
    t = table.sort("cpu")
    prior = t["prior"].to_numpy().astype(bool) if "prior" in t.columns else np.zeros(t.height, bool)
    kind = np.array(t["kind"].to_list(), dtype=object)
    x = t["cpu"].to_numpy().astype(float)
    y = t["elo"].to_numpy().astype(float)
    lo, hi = t["elo_lo"].to_numpy().astype(float), t["elo_hi"].to_numpy().astype(float)
    err = F._err(y, lo, hi)
    none = np.isnan(lo) | np.isnan(hi)
    groups = ((~np.isin(kind, ["mcts", "learned"]), F.COLORS[1], "random and heuristic presets"),
              ((kind == "mcts") & ~prior, F.COLORS[0], "MCTS (line: the plain search's levels)"),
              (kind == "learned", F.COLORS[2], "learned model (no search)"),
              ((kind == "mcts") & prior, F.COLORS[3], "MCTS with the model as prior"))
    for mask, color, label in groups:
        if (mask & ~none).any():
            ax.errorbar(x[mask & ~none], y[mask & ~none], yerr=err[:, mask & ~none], fmt="o", color=color, capsize=3,
                        label=label)
        if (mask & none).any():
            ax.plot(x[mask & none], y[mask & none], "o", mfc="white", color=color,
                    label=None if (mask & ~none).any() else label)
    if none.any():
        ax.plot([], [], "o", mfc="white", color="#555", label="no interval (its games from one seed)")
    plain = (kind == "mcts") & ~prior
    if plain.sum() > 1:
        ax.plot(x[plain], y[plain], color=F.COLORS[0], linewidth=1, alpha=0.6)
    ax.set_xscale("log")
    ax.set_xlim(float(x.min()) / 3, float(x.max()) * 12)
    ax.set_xlabel("CPU seconds a game, every seat playing the strategy (log axis)")
    ax.set_ylabel("Bradley–Terry rating (Elo, 95% CI)")
    handles, names = ax.get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncol=2, fontsize=8, frameon=False)
    F._finish(fig, title, caption)
    labels = [short_label(n) + (" (no CI: one seed)" if none[i] else "") for i, n in enumerate(t["strategy"].to_list())]
    _place_labels(fig, ax, x, y, lo, hi, labels)
    return fig
