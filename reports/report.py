"""The report of one results folder (``boardlab report RUN_DIR``), and the names that lived here.

A report is built from sections (``reports.render.sections``: :class:`Report`,
:class:`Section`, :class:`Table`, :class:`Fig`) over a :class:`RunSet` (one or
more results folders with a label each, ``reports.runset``):

- ``reports.generic`` — the sections every game gets (seat advantage, scores, categories,
  convergence, variant differences); a game's own come from ``reports/games/<game>.py``;
- ``reports.provenance`` — "What was run"; ``reports.findings`` — "Findings at a glance";
- ``reports.render`` — figures, HTML/Markdown, the writer (``write_report``) and the figure
  workers (``BackgroundFigures``).

This module re-exports those names for notebooks written against the old single module::

    from reports.report import RunSet, seat_section
"""
from __future__ import annotations

import os
from importlib import import_module

from reports.components import game_sections
from reports.findings import findings_section, with_findings  # noqa: F401
from reports.games import has_plugin, plugin_of
from reports.generic import (category_fit, category_section, convergence_section, run_sections,  # noqa: F401
                             score_section, seat_section, variant_section)
from reports.provenance import provenance_section, summarize_labels  # noqa: F401
from reports.render.sections import Fig, Report, Section, Table  # noqa: F401
from reports.render.workers import BackgroundFigures  # noqa: F401
from reports.render.write import write_report  # noqa: F401
from reports.runset import BATCH_GAMES, FIT_GAMES, RunSet, collected, fit_sample  # noqa: F401


def run_report(run_dir, label=None, partial=False, figures=None) -> Report:
    """The report of one results folder (``boardlab report RUN_DIR``).

    ``partial``: report an interrupted run from its finished chunks (the title says so);
    ``figures``: a :class:`BackgroundFigures` that renders each section's figures
    while the next sections are computed (give the same one to :func:`write_report`).
    """
    label = label or os.path.basename(os.path.normpath(os.fspath(run_dir))) or "run"
    rs = RunSet.from_dirs({label: run_dir}, allow_partial=partial)
    m = rs.runs[label].manifest
    if m.get("status") != "complete" and not partial:
        raise ValueError(f"{run_dir}: run is {m.get('status')}; rerun the same `boardlab simulate` command "
                         f"to finish it, or pass --partial to report its finished games only")
    strat = ", ".join(s["name"] for s in m.get("strategies", []))
    n = rs.n_games()[label]
    played = f"{m['games']:,} games" if n == m["games"] else \
        f"{n:,} of {m['games']:,} games (interrupted run: finished chunks only)"
    names = [s["name"] for s in m.get("strategies", [])]
    strat = "random play" if names and set(names) == {"random"} else strat
    title = f"{m['game'].capitalize()} — {m['players']} players, {played} ({strat})"
    plug = plugin_of(import_module(f"reports.games.{rs.game}") if has_plugin(rs.game) else None)
    secs = run_sections(rs, figures, game_sections(plug))
    report = Report(title, sections=with_findings([provenance_section(rs)] + secs))
    from reports.firstscreen import glossary_section, mark_underpowered, random_note

    report.sections.append(glossary_section())
    if strat == "random play":
        random_note(report)
    mark_underpowered(report)
    return report

