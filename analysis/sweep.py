"""Rule-parameter sweeps: grid planning, adaptive refinement, and the seat balance of each cell.

A sweep plays one run per *cell* — a value of one setting (1-D) or a pair of
values of two (2-D) — and asks how the seats' win shares move. This module
holds the parts that need no engine (``reports.sweep`` plays the cells):

- :func:`axis_values` and :func:`grid`: the values of an axis (a numeric
  ``[lo, hi, step]`` range or a list) and the cells of the grid;
- :func:`seat_balance`: per cell, every seat's win share with its Wilson
  interval, the **largest seat gap** (max over seats of |share - 1/n|, the
  seat and its interval) and the chi-square test of equal seat shares; a
  cell's gap is *significant* when that test rejects at ``alpha``;
- :func:`metric_value` / :func:`parse_metric`: the number a target is set on
  (``gap``, ``share[K]``, ``deviation[K]``, ``p``);
- :func:`refinements` and :func:`adaptive`: the sequential refinement —
  bisect between neighbouring cells (along a numeric axis, the other
  coordinate equal) whose metric lies on either side of the target.
"""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence

import numpy as np
import polars as pl

from analysis._common import Frame, as_list
from analysis.stats import chi2_sf, observed_share_bounds

__all__ = ["MAX_AXIS_VALUES", "adaptive", "axis_values", "grid", "metric_value", "parse_metric", "refinements",
           "seat_balance"]

#: An axis holds at most this many values (a range with a tiny step is a mistake, not a sweep).
MAX_AXIS_VALUES = 200


def _is_number(v):
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


def _tidy(x):
    """A float as the shortest value that prints cleanly (0.1 * 3 -> 0.3); ints stay ints."""
    if isinstance(x, (int, np.integer)):
        return int(x)
    return float(f"{float(x):.10g}")


def axis_values(range_=None, values=None):
    """The values of an axis: ``range_ = [lo, hi, step]`` (both ends included) or a list.

    Returns ``(values, numeric, integer)``. ``ValueError`` in one sentence for an
    empty or malformed range, an empty list, a repeated value or more than
    :data:`MAX_AXIS_VALUES` values.

    Examples
    --------
    >>> axis_values([0, 4, 2])
    ([0, 2, 4], True, True)
    >>> axis_values([0.5, 1.0, 0.25])[0]
    [0.5, 0.75, 1.0]
    >>> axis_values(values=["rising", "falling"])
    (['rising', 'falling'], False, False)
    """
    if (range_ is None) == (values is None):
        raise ValueError("give either range = [lo, hi, step] or values = [...]")
    if range_ is not None:
        if not isinstance(range_, (list, tuple)) or len(range_) != 3 or not all(_is_number(v) for v in range_):
            raise ValueError(f"range must be three numbers [lo, hi, step], not {range_!r}")
        lo, hi, step = range_
        if not all(math.isfinite(v) for v in range_):
            raise ValueError(f"range must be finite numbers, not {list(range_)!r}")
        if step <= 0:
            raise ValueError(f"range step must be > 0, not {step}")
        if hi < lo:
            raise ValueError(f"range [{lo}, {hi}, {step}] is empty (hi < lo)")
        count = math.floor((hi - lo) / step + 1e-9) + 1
        if count > MAX_AXIS_VALUES:
            raise ValueError(f"range [{lo}, {hi}, {step}] has {count} values; at most {MAX_AXIS_VALUES}")
        integer = all(isinstance(v, (int, np.integer)) for v in range_)
        vals = [lo + i * step if integer else _tidy(lo + i * step) for i in range(count)]
        return vals, True, integer
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError(f"values must be a non-empty list, not {values!r}")
    if len(values) > MAX_AXIS_VALUES:
        raise ValueError(f"{len(values)} values; at most {MAX_AXIS_VALUES}")
    vals = list(values)
    seen = set()
    for v in vals:
        key = repr(v)
        if key in seen:
            raise ValueError(f"values lists {v!r} twice")
        seen.add(key)
    numeric = all(_is_number(v) for v in vals)
    integer = numeric and all(isinstance(v, (int, np.integer)) for v in vals)
    return vals, numeric, integer


def grid(axes: Sequence[Sequence]) -> list[tuple]:
    """The cells of a grid over one or two axes (lists of values), x varying fastest within each y.

    Examples
    --------
    >>> grid([[0, 1], ["a", "b"]])
    [(0, 'a'), (1, 'a'), (0, 'b'), (1, 'b')]
    """
    if not 1 <= len(axes) <= 2:
        raise ValueError(f"a sweep has one or two axes, not {len(axes)}")
    if len(axes) == 1:
        return [(x,) for x in axes[0]]
    return [(x, y) for y in axes[1] for x in axes[0]]


# ---------------------------------------------------------------- balance of a cell

def seat_balance(sums: Frame, by: str | Sequence[str], alpha: float = 0.05, level: float = 0.95) -> pl.DataFrame:
    """The seat balance of every cell from its per-seat win counts.

    Parameters
    ----------
    sums : polars.DataFrame or LazyFrame
        One row per (by..., seat): ``n_players``, ``seat``, ``n`` (games) and
        ``wins`` (the sum of win shares; a k-way tie counts 1/k) — e.g.
        ``analysis.seats.seat_sums`` of the cells' players table.
    by : str or list of str
        The columns naming a cell.
    alpha : float
        Level of the equal-seats test: a cell's gap is ``significant`` when its p < alpha.
    level : float
        Confidence level of the Wilson intervals.

    Returns
    -------
    polars.DataFrame, one row per cell, in the order of first appearance:
    ``by...``, ``n_players``, ``n`` (games), ``fair`` (1/n_players), for every
    seat s ``share_s``, ``lo_s``, ``hi_s``; ``gap`` (largest |share - fair|),
    ``gap_seat``, ``gap_lo``, ``gap_hi`` (that seat's interval for
    |share - fair|; 0 when its interval covers the fair share), ``chi2``, ``df``,
    ``p`` (Pearson's chi-square test that every seat wins 1/n of the games) and
    ``significant`` (p < alpha).

    Examples
    --------
    >>> s = pl.DataFrame({"cell": ["a", "a"], "n_players": [2, 2], "seat": [0, 1],
    ...                   "n": [100, 100], "wins": [60.0, 40.0]})
    >>> row = seat_balance(s, "cell").row(0, named=True)
    >>> round(row["gap"], 2), row["gap_seat"], round(row["chi2"], 2)
    (0.1, 0, 4.0)
    """
    keys = as_list(by)
    frame = sums.collect() if isinstance(sums, pl.LazyFrame) else sums
    missing = [c for c in [*keys, "n_players", "seat", "n", "wins"] if c not in frame.columns]
    if missing:
        raise ValueError(f"seat_balance needs the columns {', '.join(missing)}")
    rows = []
    cells = frame.select(keys).unique(maintain_order=True).rows()
    for cell in cells:
        part = frame.filter(pl.all_horizontal([pl.col(k) == v for k, v in zip(keys, cell)])).sort("seat")
        players = int(part["n_players"][0])
        n = int(part["n"].max())
        wins = part["wins"].to_numpy().astype(float)
        share = wins / n
        # observed variance of the per-game shares when the sums carry it (ties narrow it; issue 37)
        lo, hi = observed_share_bounds(wins, n, part["wins_ss"].to_numpy() if "wins_ss" in part.columns else None,
                                       level)
        fair = 1.0 / players
        dev = share - fair
        worst = int(np.argmax(np.round(np.abs(dev), 12)))     # equal gaps (two seats): the lower seat
        if dev[worst] >= 0:
            g_lo, g_hi = lo[worst] - fair, hi[worst] - fair
        else:
            g_lo, g_hi = fair - hi[worst], fair - lo[worst]
        expected = n / players
        chi2 = float(((wins - expected) ** 2 / expected).sum())
        df = players - 1
        p = float(chi2_sf(chi2, df))
        row = dict(zip(keys, cell))
        row.update(n_players=players, n=n, fair=fair)
        for s, seat in enumerate(part["seat"].to_list()):
            row[f"share_{seat}"], row[f"lo_{seat}"], row[f"hi_{seat}"] = float(share[s]), float(lo[s]), float(hi[s])
        row.update(gap=float(abs(dev[worst])), gap_seat=int(part["seat"][worst]), gap_lo=float(max(0.0, g_lo)),
                   gap_hi=float(g_hi), chi2=chi2, df=df, p=p, significant=bool(p < alpha))
        rows.append(row)
    return pl.DataFrame(rows)


_METRIC = re.compile(r"^(gap|p|share\[(\d+)\]|deviation\[(\d+)\])$")


def parse_metric(text: str, players: int) -> tuple[str, int | None]:
    """``("gap"|"p"|"share"|"deviation", seat or None)``; ValueError naming the metrics known.

    Examples
    --------
    >>> parse_metric("deviation[0]", 2)
    ('deviation', 0)
    """
    m = _METRIC.match(str(text).strip())
    if not m:
        raise ValueError(f"unknown metric {text!r} (known: gap, share[K], deviation[K], p; K a seat)")
    kind = m.group(1).split("[")[0]
    seat = m.group(2) or m.group(3)
    if seat is not None and not 0 <= int(seat) < players:
        raise ValueError(f"metric {text!r}: seat {seat} does not exist at {players} players (0..{players - 1})")
    return kind, (int(seat) if seat is not None else None)


def metric_value(row: dict, metric: tuple[str, int | None]) -> float:
    """The metric of one :func:`seat_balance` row: the gap, a seat's share or deviation, or p."""
    kind, seat = metric
    if kind == "gap":
        return row["gap"]
    if kind == "p":
        return row["p"]
    share = row[f"share_{seat}"]
    return share if kind == "share" else share - row["fair"]


# ---------------------------------------------------------------- adaptive refinement

def _midpoint(a, b, integer, resolution):
    if integer:
        m = (int(a) + int(b)) // 2
        return m if a < m < b else None
    if abs(b - a) / 2 < resolution:
        return None
    m = _tidy((a + b) / 2)
    return m if a < m < b else None


def refinements(values: dict, threshold: float, numeric: Sequence[bool], integer: Sequence[bool],
                resolution: Sequence[float], spans: Sequence[float]) -> list[tuple]:
    """The cells worth playing next: midpoints between neighbours whose metric straddles ``threshold``.

    Parameters
    ----------
    values : dict
        Played cell (a tuple, one coordinate per axis) -> its metric.
    threshold : float
        The target: neighbours with one metric below and the other above it
        (strictly) have a crossing between them.
    numeric, integer : sequence of bool
        Per axis: can it be bisected, and in whole numbers only.
    resolution : sequence of float
        Per axis: the smallest half-interval still bisected (float axes).
    spans : sequence of float
        Per axis: the grid's extent, to compare intervals of different axes.

    Returns
    -------
    list of cells, not yet played, widest interval first (then axis, then grid order);
    the same input gives the same list.
    """
    out = {}
    for a in range(len(numeric)):
        if not numeric[a]:
            continue
        lines = {}
        for cell in values:
            lines.setdefault(cell[:a] + cell[a + 1:], []).append(cell)
        for cells in lines.values():
            cells.sort(key=lambda c: c[a])
            for c0, c1 in itertools.pairwise(cells):
                v0, v1 = values[c0] - threshold, values[c1] - threshold
                if not (v0 < 0 < v1 or v1 < 0 < v0):
                    continue
                m = _midpoint(c0[a], c1[a], integer[a], resolution[a])
                if m is None:
                    continue
                cell = c0[:a] + (m,) + c0[a + 1:]
                if cell in values or cell in out:
                    continue
                width = (c1[a] - c0[a]) / (spans[a] or 1.0)
                out[cell] = (-width, a, c0)
    return sorted(out, key=lambda c: (out[c][0], out[c][1], [repr(x) for x in out[c][2]]))


def adaptive(cells: Sequence[tuple], evaluate: Callable[[tuple], float], threshold: float, budget: int,
             numeric: Sequence[bool], integer: Sequence[bool], resolution: Sequence[float] | None = None):
    """Play the grid, then refine where the metric crosses ``threshold``, one cell at a time.

    ``evaluate(cell) -> metric`` plays a cell (or computes a synthetic metric).
    After the grid, each step plays the first of :func:`refinements` — the
    midpoint of the widest interval whose ends straddle the target — until
    ``budget`` cells have been added or no interval is left to bisect.

    Returns
    -------
    list of ``(cell, metric, stage)`` in the order played; stage 0 for the grid,
    k for the k-th refinement.

    Examples
    --------
    >>> out = adaptive([(0,), (8,)], lambda c: c[0] - 5.5, 0.0, 10, [True], [True])
    >>> [c[0] for c, _, _ in out]
    [0, 8, 4, 6, 5]
    """
    n_axes = len(numeric)
    spans = []
    for a in range(n_axes):
        xs = [c[a] for c in cells]
        spans.append(float(max(xs) - min(xs)) if numeric[a] else 0.0)
    if resolution is None:
        resolution = [s / 256 if s else 0.0 for s in spans]
    played, values = [], {}
    for cell in cells:
        values[cell] = float(evaluate(cell))
        played.append((cell, values[cell], 0))
    for k in range(1, budget + 1):
        todo = refinements(values, threshold, numeric, integer, resolution, spans)
        if not todo:
            break
        cell = todo[0]
        values[cell] = float(evaluate(cell))
        played.append((cell, values[cell], k))
    return played
