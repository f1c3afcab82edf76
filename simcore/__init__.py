"""Rules engines, playout kernels and the generic runner.

``simcore.games`` maps a game's name to its module. Every game module offers
the same face: ``new_game``, ``State``, ``play_batch``, ``make_config`` and a
``reference`` engine (see ``docs/hellas_engine.md`` for the conventions).
"""
from importlib import import_module

__version__ = "0.1.0"

GAME_NAMES = ("hellas", "yamatai", "akrotiri")


class _Games(dict):
    """Game name -> module, imported on first use."""

    def __missing__(self, name):
        if name not in GAME_NAMES:
            raise KeyError(f"unknown game '{name}' (known: {', '.join(GAME_NAMES)})")
        module = import_module(f"simcore.{name}")
        self[name] = module
        return module

    def __iter__(self):
        return iter(GAME_NAMES)

    def __len__(self):
        return len(GAME_NAMES)

    def keys(self):
        return list(GAME_NAMES)

    def items(self):
        return [(n, self[n]) for n in GAME_NAMES]

    def values(self):
        return [self[n] for n in GAME_NAMES]

    def __contains__(self, name):
        return name in GAME_NAMES


games = _Games()


def get_game(name):
    """Return the module of game ``name``; ``ValueError`` naming the known games otherwise."""
    try:
        return games[name]
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
