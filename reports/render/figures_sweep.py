"""The figures of a ``[[sweep]]`` part: the balance surface and the share and gap lines across the sweep."""
import matplotlib
import numpy as np
import polars as pl

from reports.render import figures as F
from reports.sweep import _fmt, _positions
from reports.words import player_name


def balance_surface(table, spec, title="Balance surface: largest seat gap", caption=None):
    """Heat map of the largest seat gap per cell (pp); cells whose gap is not significant are hatched and marked."""
    from matplotlib.patches import Rectangle

    xa = spec.axes[0]
    ya = spec.axes[1] if len(spec.axes) > 1 else None
    xs = sorted(set(table[xa.name].to_list()), key=lambda v: _positions(xa, [v])[0][0])
    ys = sorted(set(table[ya.name].to_list()), key=lambda v: _positions(ya, [v])[0][0]) if ya else [None]
    gap = np.full((len(ys), len(xs)), np.nan)
    ns = np.zeros_like(gap, dtype=bool)
    for r in table.iter_rows(named=True):
        i = ys.index(r[ya.name]) if ya else 0
        j = xs.index(r[xa.name])
        gap[i, j] = r["gap"] * 100
        ns[i, j] = not r["significant"]
    fig = F.Figure(figsize=(max(5.5, 0.9 * len(xs) + 2.5), 0.6 * len(ys) + 1.8 if ya else 2.2),
                   layout="constrained")
    ax = fig.subplots()
    cmap = matplotlib.colormaps["YlOrRd"].with_extremes(bad="#eeeeee")
    im = ax.imshow(np.ma.masked_invalid(gap), cmap=cmap, aspect="auto", origin="lower",
                   vmin=0, vmax=max(1.0, float(np.nanmax(gap)) if np.isfinite(gap).any() else 1.0))
    top = np.nanmax(gap) if np.isfinite(gap).any() else 1.0
    for i in range(len(ys)):
        for j in range(len(xs)):
            if not np.isfinite(gap[i, j]):
                continue
            dark = gap[i, j] > 0.6 * top
            text = f"{gap[i, j]:.1f}" + ("\nn.s." if ns[i, j] else "")
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
            if ns[i, j]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                                                            edgecolor="#555555", linewidth=0))
    ax.set_xticks(range(len(xs)), [_fmt(v) for v in xs], rotation=45 if len(xs) > 8 else 0)
    ax.set_xlabel(xa.label or xa.name)
    if ya:
        ax.set_yticks(range(len(ys)), [_fmt(v) for v in ys])
        ax.set_ylabel(ya.label or ya.name)
    else:
        ax.set_yticks([])
    fig.colorbar(im, ax=ax, label="largest seat gap (pp)", shrink=0.9)
    return F._finish(fig, title, caption)


def share_lines(table, spec, players, title="Win share by player across the sweep", caption=None, gap=False):
    """Each seat's win share (or, ``gap=True``, the largest seat gap) against x with 95% CI bands;
    one panel per y value."""
    from matplotlib.ticker import MaxNLocator

    xa = spec.axes[0]
    ya = spec.axes[1] if len(spec.axes) > 1 else None
    ys = sorted(set(table[ya.name].to_list()), key=lambda v: _positions(ya, [v])[0][0]) if ya else [None]
    fig, axes = F._panels(len(ys), width=4.4, sharey=True)
    target = spec.threshold
    for ax, yv in zip(axes[0], ys):
        d = table.filter(pl.col(ya.name) == yv) if ya else table
        pos, names = _positions(xa, d[xa.name].to_list())
        order = np.argsort(pos, kind="stable")
        x = np.asarray(pos, dtype=float)[order]
        series = [("gap", "gap_lo", "gap_hi", "largest gap")] if gap else [
            (f"share_{s}", f"lo_{s}", f"hi_{s}", player_name(s)) for s in range(players)]
        for k, (est, lo, hi, name) in enumerate(series):
            col = F.COLORS[k % 10] if not gap else "#d62728"
            ax.plot(x, d[est].to_numpy()[order] * 100, marker="o", markersize=3.5, color=col, label=name)
            ax.fill_between(x, d[lo].to_numpy()[order] * 100, d[hi].to_numpy()[order] * 100, color=col,
                            alpha=0.18, linewidth=0)
        if gap:
            ns = ~d["significant"].to_numpy()[order]
            ax.scatter(x[ns], d["gap"].to_numpy()[order][ns] * 100, s=40, facecolors="white", edgecolors="#d62728",
                       zorder=3, label="not significant (p ≥ 0.05)")
            if target is not None and spec.metric[0] == "gap":
                ax.axhline(target * 100, color="#444444", linestyle=":", linewidth=1, label="target")
        else:
            ax.axhline(100 / players, color="#444444", linestyle="--", linewidth=1, label="fair share")
            if target is not None and spec.metric[0] in ("share", "deviation"):
                level = target + (1 / players if spec.metric[0] == "deviation" else 0)
                ax.axhline(level * 100, color=F.COLORS[spec.metric[1] % 10], linestyle=":", linewidth=1,
                           label=f"target ({spec.metric_text})")
        if names is not None:
            ax.set_xticks(range(len(names)), names, rotation=30 if len(names) > 5 else 0)
        elif xa.integer:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(xa.label or xa.name)
        ax.set_ylabel("largest seat gap (pp, 95% CI)" if gap else "win share (% of games, 95% CI)")
        if ya:
            F._subtitle(ax, f"{ya.label or ya.name} = {_fmt(yv)}")
    F._legend_below(fig, axes[0][0])
    return F._finish(fig, title, caption)
