"""Study parts and skill levels played to a target precision (issue 33): the ``precision`` and ``budget``
keys, each skill level's self-play until every seat's 95% interval is within the target
(``[[skill]]``, ``ladder --precision``), and what their sections say."""
from __future__ import annotations

import json
import os

import polars as pl

from reports.experiments._part import StudyError


def precision_of(skill_rs) -> dict:
    """``{level: precision.json}`` of the levels played to a target precision (``{}`` for none)."""
    out = {}
    for level, run in skill_rs.runs.items():
        path = os.path.join(run.path, "precision.json")
        if os.path.isfile(path):
            try:
                with open(path, encoding="utf-8") as fh:
                    out[level] = json.load(fh)
            except (OSError, ValueError):
                pass
    return out


def with_run_intervals(shares: pl.DataFrame, prec: dict) -> pl.DataFrame:
    """``shares`` (level, seat, win_lo, win_hi, ...) with the intervals of the levels played to a target
    replaced by their runs' own (confidence sequences, valid at that stop on the data)."""
    if not prec:
        return shares
    cs = pl.DataFrame([{"level": lv, "seat": r["seat"], "cs_lo": r["lo"], "cs_hi": r["hi"]}
                       for lv, doc in prec.items() for r in doc["rows"]],
                      schema={"level": pl.String, "seat": pl.Int64, "cs_lo": pl.Float64, "cs_hi": pl.Float64})
    cs = cs.with_columns(pl.col("seat").cast(shares.schema["seat"]))
    return (shares.join(cs, on=["level", "seat"], how="left")
            .with_columns(pl.coalesce("cs_lo", "win_lo").alias("win_lo"),
                          pl.coalesce("cs_hi", "win_hi").alias("win_hi"))
            .drop("cs_lo", "cs_hi"))


def precision_text(prec, levels) -> str:
    """The paragraph that says how each level played to a target precision stopped."""
    parts = []
    for lv in levels:
        doc = prec.get(lv)
        if doc:
            how = "confidence sequence" if doc.get("method") == "cs" else "fixed-n interval, width rule"
            parts.append(f"{lv}: {doc['reason']} ({how})")
    return ("**Precision:** each level played until every seat's 95% interval was within the target or "
            "its budget was spent; the intervals of those levels here are the run's own, confidence sequences "
            "valid at that stop on the data (docs/precision.md). " + "; ".join(parts) + ".")


def precision_keys(t, where, budget_key="budget"):
    """``(precision, seconds)`` of a part's ``precision`` (percentage points: play each run until every
    seat's 95% interval is within ± that, its games the cap) and ``budget`` (a time, "90s", "5m", per
    run; only with ``precision``; ``budget_key``: its name where ``budget`` means something else, as in
    ``[[sweep]]``); StudyError naming the key."""
    from reports.sequential import parse_budget

    prec = t.get("precision")
    if prec is not None:
        if isinstance(prec, bool) or not isinstance(prec, (int, float)) or not 0 < prec < 50:
            raise StudyError(f"{where}: precision must be percentage points between 0 and 50 (e.g. 2), "
                             f"not {prec!r}")
        prec = prec / 100
    seconds = None
    if budget_key in t:
        if prec is None:
            raise StudyError(f"{where}: {budget_key} goes with precision (the time a run may take to reach it)")
        b = t[budget_key]
        try:
            games, seconds = parse_budget(str(b)) if isinstance(b, str) else (None, None)
        except ValueError as exc:
            raise StudyError(f"{where}: {budget_key}: {exc}") from None
        if seconds is None:
            raise StudyError(f"{where}: {budget_key} must be a time per run, e.g. \"90s\" or \"5m\" (the games "
                             f"keys are the caps), not {b!r}")
    return prec, seconds


def precision_settings(part, t, where, budget_key="budget"):
    """Read a part's ``precision`` and ``budget`` (:func:`precision_keys`) into ``part.settings``
    (``precision``: a share, ``seconds``); nothing when the part has no target."""
    prec, seconds = precision_keys(t, where, budget_key)
    if prec is not None:
        part.settings = {**part.settings, "precision": prec, "seconds": seconds}


def to_precision(part) -> bool:
    """Whether ``part`` plays its runs to a target precision."""
    return part.settings.get("precision") is not None


def play_to_precision(part, r, folder, ctx, strategies=None, min_games=0):
    """Play planned run ``r`` of ``part`` into ``folder`` until every seat's 95% interval is within the
    part's target (a confidence sequence, ``reports.sequential``), its games the cap, or its time budget
    is spent; the progress (games, widest half-width, time left) and the stop go to ``ctx.log``.
    ``strategies``: the seats' resolved strategies (default: the run's); ``min_games``: play on to at least
    that many (``reports.sequential``). Returns the run's ``precision.json`` record (its ``games``, ``reason``)."""
    from reports.experiments._part import seats as seats_of_run
    from reports.sequential import simulate_to_precision

    res = simulate_to_precision(part.game, r.players, r.seed, folder,
                                strategies=strategies if strategies is not None else seats_of_run(part, r),
                                variant=dict(r.variant), workers=ctx.workers, precision=part.settings["precision"],
                                budget_games=r.games, budget_seconds=part.settings.get("seconds"), events=r.events,
                                progress=lambda line: ctx.log(f"  {part.title}: {r.label}: {line}"),
                                min_games=min_games)
    ctx.log(f"{part.title}: {r.label}: {res['reason']}")
    return res


def play_runs_to_precision(part, ctx, group, same_games=False):
    """Every planned run of ``part`` played to its target (:func:`play_to_precision`), under the study's
    runs folder; their RunSet (runs stopped before their cap are partial). ``same_games``: then every run
    of a player count plays on to the most games any of them needed, so that runs compared game by game
    on common seeds (variants) are paired over all their games."""
    from reports.runset import RunSet

    folder = {r.label: os.path.join(ctx.base, r.folder) for r in part.runs}
    done = {r.label: play_to_precision(part, r, folder[r.label], ctx) for r in part.runs}
    if same_games:      # a run stopped by its budget (games or time) is not played on
        for r in part.runs:
            most = max(done[q.label]["games"] for q in part.runs if q.players == r.players)
            if done[r.label]["stop"] == "precision" and done[r.label]["games"] < most:
                done[r.label] = play_to_precision(part, r, folder[r.label], ctx, min_games=most)
    return RunSet.from_dirs(folder, group=group, allow_partial=True)


def add_precision_paragraph(part, sec, rs):
    """Section ``sec`` with :func:`precision_paragraph` of ``rs`` added when ``part`` played to a target."""
    if to_precision(part):
        sec.paragraphs.append(precision_paragraph(rs))
    return sec


def precision_paragraph(rs) -> str:
    """How each run played to a target precision stopped, with every seat's anytime-valid interval."""
    parts = []
    for label, run in rs.runs.items():
        try:
            with open(os.path.join(run.path, "precision.json"), encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            continue
        seats = ", ".join(f"seat {r['seat']} {r['mean'] * 100:.1f}% ±{r['half'] * 100:.2f}" for r in doc["rows"])
        parts.append(f"{label}: {doc['reason']}; {seats}")
    return ("**Precision:** every run played until each seat's 95% interval was within the target or its budget "
            "was spent (its games: the cap). At that stop on the data the valid intervals are the confidence "
            "sequences given here (docs/precision.md), wider than the fixed-n ones of the tables. "
            + "; ".join(parts) + ".")
