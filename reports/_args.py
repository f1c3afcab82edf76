"""Argument checks shared by the ``boardlab`` commands, and the one check of game and player count.

argparse ``type=`` callables (``_positive_int``, ``_seed``), the game and player
count of a game command (:func:`add_game` declares them, :func:`resolve_game` checks
them once: ``reports.cli`` runs it before the command), the output path checks
every command runs before any work (``check_out_folder``, ``check_out_file``) and
the strategy flags (``seat_strategies``). Kept apart from ``reports/cli.py`` so
that the command modules import them without importing the CLI itself.
"""
import argparse
import os


def _positive_int(text):
    """``1000000``, ``1_000_000``, ``1e6`` -> int > 0."""
    value = _int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text}")
    return value


def int_in(lo, hi, why=""):
    """An argparse type: a whole number ``lo..hi`` (``why``: what the bound protects), refused in one line."""
    def parse(text):
        value = _int(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be {lo:,}..{hi:,}" + (f" ({why})" if why else "") + f", not {text}")
        return value
    parse.__name__ = "int"
    return parse


def _int(text):
    try:
        return int(text.replace("_", ""))
    except ValueError:
        pass
    try:
        f = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: '{text}'") from None
    if not f.is_integer():
        raise argparse.ArgumentTypeError(f"not an integer: '{text}'")
    if abs(f) > 2 ** 53:            # 1e30 is 1000000000000000019884624838656 in floating point
        raise argparse.ArgumentTypeError(f"'{text}' is beyond the whole numbers a float holds exactly (2^53); "
                                         f"write it in digits")
    return int(f)


SEED_MAX = 2 ** 63 - 1          # manifests, baselines and Parquet columns hold a seed as a signed 64-bit integer


def _seed(text):
    value = _int(text)
    if not 0 <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"must be an integer 0..2^63-1, not {text}")
    return value


def add_game(p, players=True):
    """Declare a game command's ``GAME`` and ``--players``: ``reports.cli`` checks them once
    (:func:`resolve_game`) before the command runs."""
    p.add_argument("game", help="game name, e.g. hellas")
    if players:
        p.add_argument("--players", type=_positive_int, required=True, help="player count")
    p.set_defaults(resolve_game=True)
    return p


def resolve_game(args):
    """The one check of a command's game and player count; returns the game's module.

    Sets ``args.game_module`` (the ``simcore`` game module) and ``args.players`` (a count the game
    is played by). A game or player count simcore does not know is a ``ValueError`` in the words of
    ``simcore.get_game`` / ``simcore.run.check_players``, before any output is checked or written.
    """
    import simcore
    from simcore.run import check_players

    if getattr(args, "players", None) is not None:
        args.players = check_players(args.game, args.players)      # checks the game first
    args.game_module = simcore.get_game(args.game)
    return args.game_module


def seat_strategies(args):
    """``--seat-strategies a,b,c`` as a list (None when not given); refused together with ``--strategy``."""
    if not getattr(args, "seat_strategies", None):
        return None
    if getattr(args, "strategy", None):
        raise ValueError(f"give --strategy ({args.strategy}) or --seat-strategies ({args.seat_strategies}), "
                         f"not both")
    from strategies import split_names
    return split_names(args.seat_strategies)


def _nearest_existing(path):
    p = os.path.abspath(path)
    while not os.path.exists(p):
        parent = os.path.dirname(p)
        if parent == p:
            break
        p = parent
    return p


def check_out_folder(path, flag="--out"):
    """Refuse, before any work, an output folder that cannot be written: a file, or below a file or a read-only folder."""
    path = os.fspath(path)
    if os.path.islink(path) and not os.path.exists(path):
        raise ValueError(f"{flag} {path} is a symbolic link to nothing (or a link loop): give a folder")
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"{flag} {path} is a file, not a folder: give a new or existing folder")
    base = _nearest_existing(path)
    if not os.path.isdir(base):
        raise ValueError(f"{flag} {path}: {base} is a file, so no folder can be made below it")
    if not os.access(base, os.W_OK | os.X_OK):
        raise ValueError(f"{flag} {path}: folder {base} is not writable")
    return path


def check_out_file(path, flag):
    """Refuse, before any work, an output file that cannot be written: a folder, or in a missing or read-only folder."""
    path = os.fspath(path)
    if os.path.isdir(path):
        raise ValueError(f"{flag} {path} is a folder, not a file name")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise ValueError(f"{flag} {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise ValueError(f"{flag} {path} is not writable")
    return path
