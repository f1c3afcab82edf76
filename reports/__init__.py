"""Figures, reports, studies and the ``boardlab`` CLI.

- ``reports.figures`` — plot functions: polars frames in, matplotlib ``Figure`` out;
- ``reports.sections`` — the containers: ``Report``, ``Section``, ``Table``, ``Fig``;
- ``reports.report`` — the generic sections over one or more results folders
  (``RunSet``), findings, provenance, HTML/Markdown writing;
- ``reports.components`` — builders the game plug-ins share (component values, game length);
- ``reports.games.<game>`` — a game's own sections, headlines and regression metrics
  (found by name; a game without one gets the generic report);
- ``reports.compare`` — strategies in every seat, win-share matrix, ratings;
- ``reports.study`` — TOML study files (``docs/study.md``) and the built-in demo;
- ``reports.cli`` / ``reports.commands`` — the command line.
"""
