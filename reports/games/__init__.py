"""Per-game report plug-ins, found by the game's name: ``reports/games/<game>.py``.

A plug-in module may define (each is optional):

- ``SECTIONS``: builders ``RunSet -> Section`` for the game's own report
  sections, shown after the generic ones (seat advantage, scores, categories);
  a builder may return, instead of a Section, a request of ``reports.component_data``
  (``ComponentValues``, ``GameEnd``): the arguments of a shared builder of
  ``reports.components``, which the loader builds (``reports.components.game_sections(plug)``);
- ``HEADLINES``: a builder ``RunSet -> list of frames`` of extra headline
  statistics for variant comparisons (``analysis.summary.mean_stat`` rows);
- ``REGRESS_METRICS``: the extra figures ``boardlab regress`` checks, as
  ``(statistic, table, column, per_seat)``.

A game without a plug-in (a new game, or one registered from outside) gets
the generic report and regression checks.

Whoever builds a game's report loads its plug-in by name, at the place that needs it
(the experiments, ``reports.report.run_report``, ``reports.regress``, the ladder command)::

    plug = plugin_of(import_module(f"reports.games.{game}") if has_plugin(game) else None)
    sections = game_sections(plug)          # reports.components: the requests built

so the import is one link of the reports' import chain, not two; this package holds only
what every loader shares and imports no plug-in itself. A plug-in imports the render layer and
``reports.component_data`` only (issue 31: reports/ at most 5 imports deep).
"""
from importlib.util import find_spec
from types import SimpleNamespace

#: What a game without a plug-in gets.
NO_PLUGIN = SimpleNamespace(SECTIONS=[], HEADLINES=None, REGRESS_METRICS=[])


def has_plugin(game) -> bool:
    """Whether ``reports/games/<game>.py`` exists (nothing is imported)."""
    return find_spec(f"{__name__}.{game}") is not None


def plugin_of(module):
    """The plug-in ``module`` (a ``reports.games.<game>`` module, or None for a game without one) with every
    name defined: what it leaves out is :data:`NO_PLUGIN`'s."""
    if module is None:
        return NO_PLUGIN
    return SimpleNamespace(SECTIONS=list(getattr(module, "SECTIONS", [])),
                           HEADLINES=getattr(module, "HEADLINES", None),
                           REGRESS_METRICS=list(getattr(module, "REGRESS_METRICS", [])))
