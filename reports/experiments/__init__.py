"""Study-part kinds: one module each, ``reports/experiments/<kind>.py``, registered by name.

A ``[[<kind>]]`` table of a study file (``docs/study.md``) is parsed, planned, played and reported
by its kind's module, which defines:

- ``KEYS``: the keys the table may have (the loader refuses others, naming them);
- ``parse(part, t, ctx) -> Part``: check the table ``t`` and plan the part (``part`` holds the keys
  every kind shares, ``ctx`` is a :class:`reports.experiments._part.ParseContext`); errors are
  ``StudyError`` naming the file, the part and the key;
- ``quick(part, cap)``: cap the part's games for ``--quick``;
- ``run(part, ctx) -> result``: play it (``ctx``: a :class:`reports.experiments._part.RunContext`,
  whose ``play(planned_run)`` plays a run once per study); a rerun resumes;
- ``runs(part, result) -> {label: analysis.Run}``: the results folders it played, for the study's
  "What was run" (``{}`` for a part that keeps no results folder);
- ``sections(part, result, figures) -> [Section]``: its report sections (their ``findings`` lines
  and tables feed "Findings at a glance");
- optionally ``RESULT``: what ``run`` returns, for ``reports.api`` — ``"runs"`` (a RunSet, the
  default), ``"comparison"`` (a RunSet of line-ups) or ``"searches"`` (compensation results);
- optionally ``FIRST_SCREEN``: what the study's first screen (``reports.firstscreen``) reads from
  the part — ``"seats"`` (its seat-advantage table) or ``"compensation"`` (its result).

``reports.study`` runs every part through these and nothing else: no kind is named there. To add
a kind: write ``reports/experiments/<kind>.py`` and add its name to :data:`KINDS` (the order is
that of a study's parts of one game). ``tests/test_study.py`` shows it with an example kind
registered at test time.

Who runs a study loads the kinds by name and hands them to ``reports.study`` as data
(``reports.commands.study.kinds()``): the study runner imports none, so a kind is one link
below a command, not two (issue 31).
"""

#: the registered study-part kinds: one line each
KINDS = [
    "balance",
    "variants",
    "compare",
    "sweep",
    "compensation",
    "skill",
    "robustness",      # after compensation: it checks the compensation parts' results
]
