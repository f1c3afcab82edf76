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
