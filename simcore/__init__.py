"""Rules engines, playout kernels and the generic runner.

``simcore.games`` maps a game's name to its module; every game module meets
the contract of :mod:`simcore._contract` (``NAME``, ``PLAYERS``,
``make_config``, ``State``, ``play_batch``, ``reference``, ...). The shipped
games are :data:`BUILTIN_GAMES`, the one list of them in the project; more
are added without editing boardlab by naming their packages in the
environment variable ``BOARDLAB_GAMES`` (``name=package[,name=package]``,
inherited by worker processes) or by :func:`register` in a running process.
"""
import os
from importlib import import_module

# A child of the boardlab command (a loky worker, whose start re-imports the command's modules: seconds on
# a busy machine, before any task) dies with it, watched from its first import of simcore on.
_MAIN = os.environ.get("BOARDLAB_MAIN_PID", "")
if _MAIN.isdigit() and int(_MAIN) != os.getpid():
    if os.getppid() == int(_MAIN):
        from simcore._orphans import _watch_parent
        _watch_parent(int(_MAIN), quiet_ctrl_c=False)
    elif os.getppid() == 1:          # the command died (kill -9) while this child was starting
        os._exit(1)

from simcore._contract import ContractError, check_game  # noqa: E402

__version__ = "0.1.0"

#: The games shipped in ``simcore/<name>/``: the only place that lists them.
BUILTIN_GAMES = ("hellas", "yamatai", "akrotiri")

_registered = {}          # name -> package, from register()


def _extra_games():
    """``BOARDLAB_GAMES`` parsed: {name: package}; ValueError naming a bad entry."""
    out = {}
    for item in filter(None, (s.strip() for s in os.environ.get("BOARDLAB_GAMES", "").split(","))):
        name, sep, package = (x.strip() for x in item.partition("="))
        if not sep or not name or not package:
            raise ValueError(f"BOARDLAB_GAMES: {item!r} is not NAME=PACKAGE")
        out[name] = package
    return out


def game_packages():
    """Every known game, name -> package to import (the shipped ones first)."""
    out = {name: f"simcore.{name}" for name in BUILTIN_GAMES}
    out.update(_registered)
    out.update(_extra_games())
    return out


def register(name, package):
    """Make the game in ``package`` (an importable module name) known as ``name`` in this process."""
    _registered[name] = package
    games.pop(name, None)


class _Games(dict):
    """Game name -> module, imported (and checked against the contract) on first use."""

    def __missing__(self, name):
        packages = game_packages()
        if name not in packages:
            raise KeyError(f"unknown game '{name}' (known: {', '.join(packages)})")
        module = check_game(import_module(packages[name]), name)
        self[name] = module
        return module

    def __iter__(self):
        return iter(game_packages())

    def __len__(self):
        return len(game_packages())

    def keys(self):
        return list(game_packages())

    def items(self):
        return [(n, self[n]) for n in game_packages()]

    def values(self):
        return [self[n] for n in game_packages()]

    def __contains__(self, name):
        return name in game_packages()


games = _Games()


def get_game(name):
    """Return the module of game ``name``; ``ValueError`` naming the known games otherwise, or what is
    wrong with a registered game's package (not importable, or short of the contract)."""
    try:
        return games[name]
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    except ContractError as exc:
        raise ValueError(str(exc)) from None
    except ImportError as exc:
        package = game_packages().get(name)
        if package is None or name in BUILTIN_GAMES:
            raise                     # a broken install, not a user's game: keep the traceback
        raise ValueError(f"game {name!r}: cannot import {package} ({exc}); check BOARDLAB_GAMES") from None


__all__ = ["BUILTIN_GAMES", "ContractError", "games", "game_packages", "get_game", "register"]
