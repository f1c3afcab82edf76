import os
import sys

# Run from a source checkout with the extensions built in place; test helpers
# (tests/hellas_engines.py) import as top-level modules.
TESTS = os.path.dirname(os.path.abspath(__file__))
for path in (os.path.dirname(TESTS), TESTS):
    if path not in sys.path:
        sys.path.insert(0, path)

# Every package in tests/extra_games/ is a game written against the contract:
# register it (BOARDLAB_GAMES, inherited by worker processes and the CLI run
# in a subprocess, with tests/ on their PYTHONPATH) so the generic tests, the
# runner, report and regress all meet it.
_EXTRA = os.path.join(TESTS, "extra_games")
_extra = [f"{name}=extra_games.{name}" for name in sorted(os.listdir(_EXTRA))
          if os.path.exists(os.path.join(_EXTRA, name, "__init__.py"))]
os.environ["BOARDLAB_GAMES"] = ",".join(filter(None, [os.environ.get("BOARDLAB_GAMES", "")] + _extra))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [TESTS, os.environ.get("PYTHONPATH", "")]))
