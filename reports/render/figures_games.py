"""Figures of the game plug-ins' sections: component values and take shares, game length, prices,
Hellas' quarries (``reports.render.figures`` has the generic ones and the
shared helpers)."""
from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from reports.render.figures import (COLORS, _eager, _err, _finish, _grouped_bars, _label, _legend_below,
                                     _legend_outside, _panels, _sel, _subtitle, _values)


def quarry_distributions(yields: pl.DataFrame, closures: pl.DataFrame, series: str | None = None,
                         title: str = "Quarry yields and closures",
                         caption: str | None = None) -> Figure:
    """Distribution of the marble a quarry action pays out (left) and of quarries closed per game (right).

    ``yields`` is ``analysis.games.hellas.quarry_yield_distribution(per_round=False)``;
    ``closures`` is ``analysis.games.hellas.quarry_closures_per_game``.
    """
    yields, closures = _eager(yields), _eager(closures)
    fig, axes = _panels(2, width=4.6)
    names = _values(yields, series)
    _grouped_bars(axes[0][0], yields, "quarry_yield", "share", series, names)
    axes[0][0].set_xlabel("marble paid out per quarry action (marble, all players)")
    axes[0][0].set_ylabel("share of quarry actions (%)")
    _subtitle(axes[0][0], "yield per quarry action")
    _grouped_bars(axes[0][1], closures, "closures", "share", series, _values(closures, series))
    axes[0][1].set_xlabel("quarries closed per game (quarries)")
    axes[0][1].set_ylabel("share of games (%)")
    _subtitle(axes[0][1], "closures per game")
    if series and len(names) > 1:
        _legend_outside(axes[0][-1])
    return _finish(fig, title, caption)


def _forest(ax, frame, labels, est, lo, hi, series, names, scale=1.0, key="label"):
    """Horizontal estimates with CIs, one row per label, series side by side."""
    h = 0.8 / max(1, len(names))
    y0 = np.arange(len(labels))
    for i, sv in enumerate(names):
        d = _sel(frame, series, sv)
        idx = {c: j for j, c in enumerate(d[key].to_list())}

        def col(c):
            return np.array([d[c][idx[x]] if x in idx and d[c][idx[x]] is not None else np.nan
                             for x in labels], dtype=float) * scale
        m, a, b = col(est), col(lo), col(hi)
        y = y0 + (i - (len(names) - 1) / 2) * h
        ax.errorbar(m, y, xerr=_err(m, a, b), fmt="o", color=COLORS[i % 10], ecolor=COLORS[i % 10],
                    markersize=4, capsize=2, linewidth=1, label=_label(sv, series) or None)
    ax.set_yticks(y0, labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)


def component_values(summary: pl.DataFrame, regression: pl.DataFrame, label: str = "label",
                     series: str | None = None, title: str = "Component values",
                     caption: str | None = None) -> Figure:
    """Take rate (left), marginal win uplift (middle) and score effect (right) of each component.

    ``summary`` is ``analysis.components.component_summary`` and
    ``regression`` ``analysis.components.component_regression``, each with a
    ``label`` column naming the component.
    """
    summary, regression = _eager(summary), _eager(regression)
    labels = summary[label].unique(maintain_order=True).to_list()
    names = _values(summary, series)
    fig = Figure(figsize=(12.5, max(3.2, 0.28 * len(labels) * max(1, len(names)) ** 0.5 + 1.6)),
                 layout="constrained")
    axes = fig.subplots(1, 3, sharey=True)
    for ax in axes:
        ax.grid(True, color="#e5e5e5", linewidth=0.6)
        ax.set_axisbelow(True)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    _forest(axes[0], summary, labels, "take_rate", "take_lo", "take_hi", series, names, 100, label)
    axes[0].set_xlim(left=0)
    axes[0].set_xlabel("players who took it (% of player-games, 95% CI)")
    _subtitle(axes[0], "take rate")
    contrast = regression["contrast"].drop_nulls().first() if regression.height else "vs not taking"
    for ax, outcome, scale, xl in ((axes[1], "win", 100, "win chance per extra take (pp, 95% CI)"),
                                   (axes[2], "total", 1, "final score per extra take (points, 95% CI)")):
        d = regression.filter(pl.col("outcome") == outcome)
        _forest(ax, d, labels, "effect", "effect_lo", "effect_hi", series, names, scale, label)
        ax.axvline(0, color="#444444", linewidth=0.8)
        ax.set_xlabel(xl)
        _subtitle(ax, f"marginal value ({contrast})")
    if series and len(names) > 1:
        _legend_below(fig, axes[0])
    return _finish(fig, title, caption)


def take_share_heatmap(shares: pl.DataFrame, split: str, label: str = "label", value: str = "share",
                       facet: str | None = None, title: str = "Pick rate", xlabel: str | None = None,
                       caption: str | None = None) -> Figure:
    """Share of the takes per component (rows) and ``split`` cell (columns), as heat maps.

    ``shares`` is ``analysis.components.take_shares`` with a ``label``
    column, in the row order to show; ``facet`` gives one panel per value
    (stacked), e.g. the run.
    """
    shares = _eager(shares)
    labels = shares[label].unique(maintain_order=True).to_list()
    cells = sorted(shares[split].unique().to_list())
    facets = _values(shares, facet)
    fig = Figure(figsize=(max(5.5, 0.55 * len(cells) + 3), len(facets) * max(3.0, 0.3 * len(labels) + 1.0) + 0.6),
                 layout="constrained")
    axes = fig.subplots(len(facets), 1, squeeze=False, sharex=True)[:, 0]
    li, ci = {x: i for i, x in enumerate(labels)}, {x: i for i, x in enumerate(cells)}
    for ax, fv in zip(axes, facets):
        grid = np.full((len(labels), len(cells)), np.nan)
        for r in _sel(shares, facet, fv).iter_rows(named=True):
            grid[li[r[label]], ci[r[split]]] = r[value] * 100
        im = ax.imshow(grid, aspect="auto", cmap="viridis", interpolation="nearest", vmin=0)
        ax.set_xticks(range(len(cells)), [str(c) for c in cells])
        ax.set_yticks(range(len(labels)), labels)
        top = np.nanmax(grid) if np.isfinite(grid).any() else 1.0
        for i in range(len(labels)):
            for j in range(len(cells)):
                if not np.isnan(grid[i, j]):
                    ax.text(j, i, f"{grid[i, j]:.0f}", ha="center", va="center", fontsize=7,
                            color="white" if grid[i, j] < top * 0.6 else "black")
        if fv is not None:
            _subtitle(ax, _label(fv, facet))
        fig.colorbar(im, ax=ax, label="% of the cell's takes")
    axes[-1].set_xlabel(xlabel or split)
    return _finish(fig, title, caption)


def game_length(dist: pl.DataFrame, triggers: pl.DataFrame | None = None, series: str | None = None,
                unit: str = "rounds", title: str = "Game length and end triggers",
                caption: str | None = None) -> Figure:
    """Distribution of game length (left) and share of games per end trigger with CIs (right).

    ``dist`` and ``triggers`` come from ``analysis.outcomes.game_length`` and
    ``analysis.outcomes.end_triggers``.
    """
    dist = _eager(dist)
    n_ax = 2 if triggers is not None else 1
    fig, axes = _panels(n_ax, width=4.8)
    names = _values(dist, series)
    _grouped_bars(axes[0][0], dist, "length", "share", series, names)
    axes[0][0].set_xlabel(f"game length ({unit})")
    axes[0][0].set_ylabel("share of games (%)")
    _subtitle(axes[0][0], "length")
    if triggers is not None:
        triggers = _eager(triggers)
        ax = axes[0][1]
        trig = triggers["trigger"].unique(maintain_order=True).to_list()
        tn = _values(triggers, series)
        w = 0.8 / max(1, len(tn))
        for i, sv in enumerate(tn):
            d = _sel(triggers, series, sv)
            idx = {t: j for j, t in enumerate(d["trigger"].to_list())}
            x = np.arange(len(trig)) + (i - (len(tn) - 1) / 2) * w
            y = np.array([d["share"][idx[t]] if t in idx else np.nan for t in trig]) * 100
            lo = np.array([d["lo"][idx[t]] if t in idx else np.nan for t in trig]) * 100
            hi = np.array([d["hi"][idx[t]] if t in idx else np.nan for t in trig]) * 100
            ax.bar(x, y, width=w * 0.95, color=COLORS[i % 10], alpha=0.8, label=_label(sv, series) or None)
            ax.errorbar(x, y, yerr=_err(y, lo, hi), fmt="none", ecolor="black", capsize=2)
        ax.set_xticks(range(len(trig)), [t.removeprefix("trigger_") for t in trig], rotation=20, ha="right")
        ax.set_ylabel("games ended by it (%, 95% CI)")
        _subtitle(ax, "end triggers (a game may set several)")
    if series and len(names) > 1:
        _legend_outside(axes[0][-1])
    return _finish(fig, title, caption)


def price_distribution(dist: pl.DataFrame, label: str = "colour", title: str = "Market prices realised",
                       caption: str | None = None) -> Figure:
    """Share of the cubes of each colour sold at each price (one group of bars per price).

    ``dist`` is the distribution of ``analysis.games.akrotiri.market_prices``.
    """
    dist = _eager(dist)
    fig, axes = _panels(1, width=6.5)
    ax = axes[0][0]
    _grouped_bars(ax, dist, "price", "share", label, _values(dist, label))
    ax.set_xlabel("price realised (drachmas per cube)")
    ax.set_ylabel("share of the colour's cubes sold (%)")
    _legend_outside(ax, title=label)
    return _finish(fig, title, caption)
