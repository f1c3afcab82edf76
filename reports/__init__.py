"""Figures, reports, studies and the ``boardlab`` CLI.

- ``reports.figures`` — plot functions: polars frames in, matplotlib ``Figure`` out;
- ``reports.report`` — report sections over one or more results folders
  (``RunSet``), per-game sections keyed by ``manifest["game"]``, HTML/Markdown writing;
- ``reports.compare`` — strategies in every seat, win-share matrix, ratings;
- ``reports.study`` — TOML study files (``docs/study.md``) and the built-in demo;
- ``reports.cli`` / ``reports.commands`` — the command line.
"""
