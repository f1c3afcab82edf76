"""Regenerate the golden playthroughs: ``python tests/golden/make_golden.py``.

One saved transcript per player count (random legal play from a fixed seed,
Cython engine). ``tests/test_golden.py`` replays them; after a deliberate rule
change, rerun this script and review the diff of the JSON files.
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from simcore import akrotiri, hellas, yamatai  # noqa: E402

CASES = {2: 20261201, 3: 31, 4: 4242}
YAMATAI_CASES = {2: 7202, 3: 7303, 4: 7404}


def playthrough(players, seed):
    st = hellas.replay_game(players, seed)
    return {"game": "hellas", "players": players, "seed": seed, "policy": "random",
            "settings": st.config.settings(), "transcript": st.transcript(), "scores": st.scores()}


def yamatai_playthrough(players, seed):
    st = yamatai.replay_game(players, seed)
    return {"game": "yamatai", "players": players, "seed": seed, "policy": "random",
            "settings": st.config.settings(), "transcript": st.transcript(), "scores": st.scores()}


AKROTIRI_CASES = {"default": ({}, 20140808), "strategist_en1": ({"strategist": True, "goal_values": "en1"}, 77)}


def akrotiri_playthrough(settings, seed):
    # random legal play over 10 turns each keeps the file reviewable
    st = akrotiri.replay_game(2, seed, turn_cap=10, **settings)
    return {"game": "akrotiri", "players": 2, "seed": seed, "policy": "random",
            "settings": st.config.settings(), "transcript": st.transcript(), "scores": st.scores()}


def main():
    for players, seed in CASES.items():
        path = HERE / f"hellas_{players}p.json"
        path.write_text(json.dumps(playthrough(players, seed), indent=1) + "\n")
        print("wrote", path)
    for name, (settings, seed) in AKROTIRI_CASES.items():
        path = HERE / f"akrotiri_{name}.json"
        path.write_text(json.dumps(akrotiri_playthrough(settings, seed), indent=1) + "\n")
        print("wrote", path)
    for players, seed in YAMATAI_CASES.items():
        path = HERE / f"yamatai_{players}p.json"
        path.write_text(json.dumps(yamatai_playthrough(players, seed), indent=1) + "\n")
        print("wrote", path)


if __name__ == "__main__":
    main()
