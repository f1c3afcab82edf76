"""Per-game report plug-ins, found by the game's name: ``reports/games/<game>.py``.

A plug-in module may define (each is optional):

- ``SECTIONS``: builders ``RunSet -> Section`` for the game's own report
  sections, shown after the generic ones (seat advantage, scores, categories);
- ``HEADLINES``: a builder ``RunSet -> list of frames`` of extra headline
  statistics for variant comparisons (``analysis.summary.mean_stat`` rows);
- ``REGRESS_METRICS``: the extra figures ``boardlab regress`` checks, as
  ``(statistic, table, column, per_seat)``.

A game without a plug-in (a new game, or one registered from outside) gets
the generic report and regression checks.
"""
from importlib import import_module
from types import SimpleNamespace

#: What a game without a plug-in gets.
NO_PLUGIN = SimpleNamespace(SECTIONS=[], HEADLINES=None, REGRESS_METRICS=[])


def plugin(game):
    """The report plug-in of ``game`` (its ``reports.games.<game>`` module), or :data:`NO_PLUGIN`."""
    try:
        module = import_module(f"reports.games.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"reports.games.{game}":      # the plug-in exists but an import inside it failed
            raise
        return NO_PLUGIN
    return SimpleNamespace(SECTIONS=list(getattr(module, "SECTIONS", [])),
                           HEADLINES=getattr(module, "HEADLINES", None),
                           REGRESS_METRICS=list(getattr(module, "REGRESS_METRICS", [])))
