"""Regenerate the golden playthroughs: ``python tests/golden/make_golden.py [GAME ...]``.

One saved transcript per case below (random legal play from a fixed seed,
the game's own engine); the games of ``tests/extra_games/`` keep theirs in
their own ``golden/`` folder (``--extra`` writes those, for every player
count, from seed 1). ``tests/test_golden.py`` replays them all; after a
deliberate rule change, rerun this script and review the diff of the JSON files.
"""
import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent)]

import simcore  # noqa: E402

# file stem -> (game, players, settings, seed); Akrotiri over 10 turns each keeps the file reviewable
CASES = {
    "hellas_2p": ("hellas", 2, {}, 20261201), "hellas_3p": ("hellas", 3, {}, 31), "hellas_4p": ("hellas", 4, {}, 4242),
    "akrotiri_default": ("akrotiri", 2, {"turn_cap": 10}, 20140808),
    "akrotiri_strategist_en1": ("akrotiri", 2, {"turn_cap": 10, "strategist": True, "goal_values": "en1"}, 77),
    "yamatai_2p": ("yamatai", 2, {}, 7202), "yamatai_3p": ("yamatai", 3, {}, 7303), "yamatai_4p": ("yamatai", 4, {}, 7404),
}


def playthrough(game, players, settings, seed):
    mod = simcore.games[game]
    st = mod.replay_game(players, seed, **settings)
    return {"game": game, "players": players, "seed": seed, "policy": "random",
            "settings": st.config.settings(), "transcript": st.transcript(), "scores": st.scores()}


def write(path, doc):
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")
    print("wrote", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", help="only these games (default: all)")
    ap.add_argument("--extra", action="store_true", help="also the games of tests/extra_games/")
    args = ap.parse_args()
    for stem, (game, players, settings, seed) in CASES.items():
        if not args.games or game in args.games:
            write(HERE / f"{stem}.json", playthrough(game, players, settings, seed))
    if args.extra:
        import conftest  # noqa: F401  (registers tests/extra_games/)

        for game, package in simcore.game_packages().items():
            if game in simcore.BUILTIN_GAMES or (args.games and game not in args.games):
                continue
            folder = HERE.parent / Path(*package.split(".")) / "golden"
            for players in simcore.games[game].PLAYERS:
                write(folder / f"{game}_{players}p.json", playthrough(game, players, {}, 1))


if __name__ == "__main__":
    main()
