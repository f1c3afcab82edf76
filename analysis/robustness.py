"""Does a finding hold across bots and assumed rules? (issue 33, item 4)

A finding here is each seat's advantage: its win share minus ``1/N`` (a k-way
tie counts 1/k). It is measured under a baseline (a strategy in every seat,
the default settings) and again under *conditions*: other bots in every seat
(random, the presets, a search) and the spec's assumed rule decisions switched
to their alternatives one at a time (the H-D, A-D, Y-D tags of the engines'
``SETTINGS``). Every condition plays the same game indices of the same seed as
the baseline (common seeds), so its change from the baseline is a **paired**
per-game difference, whose interval is valid under the sharing and narrower
than two independent intervals.

Status of a seat under a condition (intervals at a Bonferroni level over the
conditions, so that "flips under X" is a claim made at 95 % for the table):

* ``holds``: the advantage is on the same side of fair as the baseline's, its interval excluding 0;
* ``flips``: on the other side, its interval excluding 0;
* ``unclear``: the interval includes 0 (fair under X, or too few games to tell);
* with a baseline that is itself not told from fair: ``fair`` when the condition's is not either,
  else ``favoured``/``disfavoured``.

The sentence per seat says "holds across ..." or names where it flips and by
how much.

**A compensation found** (``boardlab balance``) is a finding too: does it
still balance the seats under the other bots and rule readings? Every
condition is played again with the compensation on the same games;
:func:`compensation_table` gives per condition each seat's compensated
advantage and the largest seat gap with its simultaneous interval (Bonferroni
over the seats and the conditions), and the status ``balances`` (the gap's
interval holds 0: no seat told from fair) or ``gap`` (a seat is told from
fair); :func:`compensation_sentence` says where it still balances and names
where it does not and by how much. This module plays nothing: ``reports/robustness.py`` plays the
conditions and hands over per-game win shares.
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from analysis.stats import norm_ppf, share_interval

__all__ = ["advantage_rows", "robustness_table", "sentences", "compensation_table", "compensation_sentence"]


def _z(level):
    return float(norm_ppf(0.5 + level / 2))


def advantage_rows(shares, level: float = 0.95) -> list:
    """Per seat: share, its advantage ``share - 1/N`` and its interval (``analysis.stats.share_interval``:
    the observed variance of the per-game shares, games independent)."""
    w = np.asarray(shares, dtype=float)
    n, p = w.shape
    out = []
    for s in range(p):
        ci = share_interval(w[:, s], level=level)
        out.append({"seat": s, "n": n, "share": ci.estimate, "advantage": ci.estimate - 1 / p, "se": ci.se,
                    "lo": ci.lo - 1 / p, "hi": ci.hi - 1 / p})
    return out


def _status(base_lo, base_hi, lo, hi):
    base = 1 if base_lo > 0 else -1 if base_hi < 0 else 0
    now = 1 if lo > 0 else -1 if hi < 0 else 0
    if base == 0:
        return "fair" if now == 0 else ("favoured" if now > 0 else "disfavoured")
    if now == 0:
        return "unclear"
    return "holds" if now == base else "flips"


def robustness_table(baseline: str, conditions: dict, kinds: dict | None = None, level: float = 0.95) -> pl.DataFrame:
    """One row per (condition, seat).

    ``conditions``: ``{label: (n, N) per-game win shares}``, the baseline among them, every
    array on the same game indices (the shorter ones a prefix). ``kinds``: ``{label: "bot"|"rule"}``.
    Columns: condition, kind, seat, n, share, advantage_pp, lo_pp, hi_pp (at the Bonferroni
    level), change_pp with change_lo_pp/change_hi_pp (paired with the baseline on the same games),
    same_games (the condition played exactly the baseline's games), status.
    """
    if baseline not in conditions:
        raise ValueError(f"baseline '{baseline}' is not among the conditions")
    k = max(1, len(conditions) - 1)
    lvl = 1 - (1 - level) / k
    z = _z(lvl)
    base = np.asarray(conditions[baseline], dtype=float)
    b_rows = advantage_rows(base, lvl)
    rows = []
    for label, w in conditions.items():
        w = np.asarray(w, dtype=float)
        n, p = w.shape
        if p != base.shape[1]:
            raise ValueError(f"condition '{label}' has {p} seats, the baseline {base.shape[1]}")
        m = min(n, len(base))
        same = bool(m == len(base) == n and np.array_equal(w, base))
        for r, br in zip(advantage_rows(w, lvl), b_rows):
            s = r["seat"]
            d = w[:m, s] - base[:m, s]
            dm = float(d.mean())
            dse = float(d.std(ddof=1) / math.sqrt(m)) if m > 1 else float("nan")
            rows.append({"condition": label, "kind": (kinds or {}).get(label, ""), "seat": s, "n": n,
                         "share": r["share"], "advantage_pp": 100 * r["advantage"], "lo_pp": 100 * r["lo"],
                         "hi_pp": 100 * r["hi"], "change_pp": 100 * dm, "change_lo_pp": 100 * (dm - z * dse),
                         "change_hi_pp": 100 * (dm + z * dse), "same_games": same,
                         "status": "baseline" if label == baseline else _status(br["lo"], br["hi"], r["lo"], r["hi"])})
    return pl.DataFrame(rows)


def _join(labels):
    labels = list(labels)
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def sentences(table: pl.DataFrame) -> list:
    """One sentence per seat: the baseline finding, where it holds, where it flips and by how much."""
    out = []
    base = table.filter(pl.col("status") == "baseline")
    for b in base.iter_rows(named=True):
        s = b["seat"]
        rows = table.filter((pl.col("seat") == s) & (pl.col("status") != "baseline")).to_dicts()
        adv = b["advantage_pp"]
        if b["lo_pp"] > 0 or b["hi_pp"] < 0:
            head = (f"Seat {s} is {'favoured' if adv > 0 else 'disfavoured'} ({adv:+.1f} pp, "
                    f"{b['lo_pp']:+.1f} to {b['hi_pp']:+.1f}, under {b['condition']})")
        else:
            head = f"Seat {s} is not told from fair ({adv:+.1f} pp, under {b['condition']})"
        parts = []
        by = {}
        for r in rows:
            by.setdefault("same" if r["same_games"] else r["status"], []).append(r)
        for st in ("holds", "fair"):
            if by.get(st):
                parts.append(f"holds across {_join(r['condition'] for r in by[st])}")
        for st in ("flips", "favoured", "disfavoured"):
            for r in by.get(st, []):
                verb = "flips" if st == "flips" else f"becomes {st}"
                parts.append(f"{verb} under {r['condition']} by {r['change_pp']:+.1f} pp "
                             f"(to {r['advantage_pp']:+.1f} pp)")
        if by.get("unclear"):
            parts.append(f"is not told from fair under {_join(r['condition'] for r in by['unclear'])}")
        if by.get("same"):
            parts.append(f"no game changed under {_join(r['condition'] for r in by['same'])}")
        out.append(head + ": " + "; ".join(parts) + "." if parts else head + ".")
    return out


def compensation_table(baseline: str, conditions: dict, kinds: dict | None = None, level: float = 0.95,
                       target: float = 0.01) -> pl.DataFrame:
    """One row per condition: how a compensation does under it.

    ``conditions``: ``{label: (n, N) per-game win shares with the compensation applied}``, the baseline
    among them. Columns: condition, kind, n, gap_pp (largest ``|share - 1/N|``) with gap_lo_pp and
    gap_hi_pp (simultaneous over the seats, Bonferroni over the conditions), worst_seat (the seat of the
    largest gap), worst_pp (its signed advantage), within_target (the gap's upper bound ``<= target``),
    same_games (the condition played exactly the baseline's games), status (``balances`` when the gap's
    interval holds 0, else ``gap``), and share_<s> per seat.
    """
    from analysis.balance import gap_interval

    if baseline not in conditions:
        raise ValueError(f"baseline '{baseline}' is not among the conditions")
    k = max(1, len(conditions))
    lvl = 1 - (1 - level) / k
    base = np.asarray(conditions[baseline], dtype=float)
    rows = []
    for label, w in conditions.items():
        w = np.asarray(w, dtype=float)
        same = label != baseline and w.shape == base.shape and bool(np.array_equal(w, base))
        n, p = w.shape
        sums, squares = w.sum(axis=0), (w ** 2).sum(axis=0)
        gap, lo, hi = gap_interval(sums, n, lvl, squares=squares)
        adv = sums / n - 1 / p
        worst = int(np.argmax(np.abs(adv)))
        row = {"condition": label, "kind": (kinds or {}).get(label, ""), "n": n, "gap_pp": 100 * gap,
               "gap_lo_pp": 100 * lo, "gap_hi_pp": 100 * hi, "worst_seat": worst, "worst_pp": 100 * float(adv[worst]),
               "within_target": bool(hi <= target), "same_games": same,
               "status": "balances" if lo <= 0 else "gap"}
        for s in range(p):
            row[f"share_{s}"] = float(sums[s] / n)
        rows.append(row)
    return pl.DataFrame(rows)


def compensation_sentence(table: pl.DataFrame, compensation, knob: str = "seat_points") -> str:
    """"The compensation (a, b, c) balances under X (gap ...): still balances across ...; leaves seat s
    favoured by ... under Y" from a :func:`compensation_table`."""
    vec = "(" + ", ".join(str(int(x)) for x in compensation) + ")"
    rows = table.to_dicts()
    base = next(r for r in rows if r["kind"] == "baseline") if any(r["kind"] == "baseline" for r in rows) \
        else rows[0]
    others = [r for r in rows if r is not base]

    def gap(r):
        return f"largest seat gap {r['gap_pp']:.1f} pp [{r['gap_lo_pp']:.1f}, {r['gap_hi_pp']:.1f}]"

    head = (f"The compensation {vec} ({knob}) " + ("balances" if base["status"] == "balances" else "does not balance")
            + f" under {base['condition']} ({gap(base)})")
    parts = []
    ok = [r["condition"] for r in others if r["status"] == "balances" and not r["same_games"]]
    if ok:
        parts.append(f"still balances (no seat told from fair) under {_join(ok)}")
    for r in others:
        if r["status"] == "gap" and not r["same_games"]:
            side = "favoured" if r["worst_pp"] > 0 else "disfavoured"
            parts.append(f"leaves seat {r['worst_seat']} {side} by {abs(r['worst_pp']):.1f} pp under {r['condition']} "
                         f"({gap(r)})")
    same = [r["condition"] for r in others if r["same_games"]]
    if same:
        parts.append(f"no game changed under {_join(same)}")
    return head + (": " + "; ".join(parts) if parts else "") + "."
