"""Golden playthroughs: saved transcripts must be reproduced exactly, by the engine and its reference.

Every game in ``simcore.games`` has at least one: ``tests/golden/<game>_*.json``
for the shipped games (``tests/golden/make_golden.py`` writes them), and
``golden/*.json`` in the folder of a game of ``tests/extra_games/``. A file
holds ``game``, ``players``, ``seed``, ``settings``, the ``transcript`` and
the ``scores``; after a deliberate rule change, regenerate and review the diff.
"""
import json
from pathlib import Path

import pytest

import simcore

TESTS = Path(__file__).resolve().parent
FILES = sorted(TESTS.glob("golden/*.json")) + sorted(TESTS.glob("extra_games/*/golden/*.json"))


def _load(path):
    saved = json.loads(path.read_text())
    mod = simcore.games[saved["game"]]
    settings = {k: v for k, v in saved["settings"].items() if k != "players"}
    return saved, mod, settings


@pytest.mark.parametrize("game", list(simcore.games))
def test_every_game_has_golden_games(game):
    files = [p for p in FILES if json.loads(p.read_text())["game"] == game]
    assert files, f"no golden playthrough for {game}: write one with tests/golden/make_golden.py"
    mod = simcore.games[game]
    counts = {json.loads(p.read_text())["players"] for p in files}
    assert counts == set(mod.PLAYERS), f"{game}: golden games for {sorted(counts)} players, not {mod.PLAYERS}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_playthrough_is_reproduced(path):
    saved, mod, settings = _load(path)
    st = mod.replay_game(saved["players"], saved["seed"], config=mod.make_config(saved["players"], **settings))
    now = json.loads(json.dumps(st.transcript()))
    for i, (a, b) in enumerate(zip(saved["transcript"], now)):
        assert a == b, f"{path.name}: entry {i} differs:\n saved: {a}\n now:   {b}"
    assert len(saved["transcript"]) == len(now)
    assert st.scores() == saved["scores"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_playthrough_in_the_reference_engine(path):
    saved, mod, settings = _load(path)
    st = mod.reference.replay(saved["players"], saved["seed"], saved["transcript"], **settings)
    assert st.scores() == saved["scores"]
