"""The command line the game-playing bench scripts share: ``--game``, ``--players``, ``--seed``.

    from game_args import game_parser, parse_game_args
    ap = game_parser(__doc__, seed=11)
    ap.add_argument(...)                        # the script's own options
    args, mod = parse_game_args(ap, argv)       # mod: simcore.games[args.game]

A game that is not registered, or a player count it does not take, is refused in one line
(``ap.error``, exit status 2) before anything is played.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def game_parser(doc, game="akrotiri", players=2, seed=1):
    """An ArgumentParser described by ``doc``'s first paragraph, with ``--game``, ``--players`` and ``--seed``."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--game", default=game)
    ap.add_argument("--players", type=int, default=players)
    ap.add_argument("--seed", type=int, default=seed)
    return ap


def parse_game_args(ap, argv=None):
    """``(args, game module)``; a game or player count the engine does not have: ``ap.error``."""
    import simcore

    args = ap.parse_args(argv)
    if args.game not in simcore.games:
        ap.error(f"unknown game '{args.game}' (known: {', '.join(simcore.games)})")
    mod = simcore.games[args.game]
    if args.players not in mod.PLAYERS:
        ap.error(f"--players {args.players}: {args.game} is played by {', '.join(map(str, mod.PLAYERS))}")
    return args, mod
