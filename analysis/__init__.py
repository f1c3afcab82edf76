"""Pipelines over results folders. Never imports ``simcore``: it reads results only."""
from analysis.load import Run, load_run

__all__ = ["Run", "load_run"]
