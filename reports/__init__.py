"""Figures, reports, studies and the ``boardlab`` CLI: the application layer.

- ``reports.cli`` — parse, check the game and player count once (``reports._args``), run a command;
- ``reports.commands.<name>`` — one module per command, registered by name in
  ``reports.commands.NAMES``: thin shells;
- ``reports.experiments.<kind>`` — one module per study-part kind (balance, variants, compare,
  sweep, compensation, skill, robustness), registered by name in ``reports.experiments.KINDS``:
  parse, plan, run, sections and findings; ``reports.study`` runs TOML study files
  (``docs/study.md``) through them, given the kinds as data by the command that loads them;
- ``reports.runset`` — run data: results folders stacked (``RunSet``);
- ``reports.generic`` — the sections every game gets, outcomes included; ``reports.components``
  — sections the games share; ``reports.games.<game>`` — a game's own sections, headlines and
  regression metrics (found by name), which ask for the shared ones as data
  (``reports.component_data``);
- ``reports.provenance`` ("What was run"), ``reports.findings`` ("Findings at a glance");
- ``reports.render`` — section containers, figures, HTML/Markdown, the writer and the figure
  workers (no experiment logic);
- ``reports.compare``, ``reports.balance``, ``reports.ladder``, ``reports.sweep``, ``reports.regress``,
  ``reports.bench`` — the work behind the kinds and commands;
- ``reports.report`` — the report of one results folder, and the names that used to live there.

Imports run down these layers, at most 5 modules deep (``tests/test_layering.py``): cli -> command
-> experiment -> plug-in or section builder -> render leaf. ``docs/study.md`` ("Adding a
study-part kind or a command") says how to add either.
"""
