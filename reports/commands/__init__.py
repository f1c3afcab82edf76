"""The ``boardlab`` commands: one module each, ``reports/commands/<name>.py``, registered by name.

A command module defines two functions and imports nothing heavy at module level
(a run of one command does not pay for the others' imports):

- ``add(sub)`` declares the command on argparse's subparsers and sets ``func=run``
  (for a game command: :func:`reports._args.add_game`, which makes ``reports.cli``
  check the game and player count once, before ``run``, and hand over
  ``args.game_module``);
- ``run(args)`` does the work, prints, and returns the exit code; a user error is a
  ``ValueError`` (one line ``boardlab: error: ...``, exit 2).

To add a command: write ``reports/commands/<name>.py`` and add its name to :data:`NAMES`
(the order is that of ``boardlab --help``). ``tests/test_cli.py`` shows it with an
example command registered at test time.

``reports.cli`` loads a command's module by name only when it is run (or for ``--help``).
"""

#: the registered commands, in the order of ``boardlab --help``: one line each
NAMES = [
    "simulate",
    "replay",
    "tune",
    "regress",
    "report",
    "compare",
    "study",
    "demo",
    "balance",
    "bench",
    "ladder",
    "check",
    "view",
    "play",
    "train",
]
