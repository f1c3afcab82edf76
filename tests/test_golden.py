"""Golden playthroughs: saved transcripts must be reproduced exactly (see tests/golden/make_golden.py)."""
import json
from pathlib import Path

import pytest

from simcore import hellas
from simcore.hellas import reference as ref

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("hellas_*p.json"))


def test_there_is_one_golden_game_per_player_count():
    assert [f.name for f in FILES] == ["hellas_2p.json", "hellas_3p.json", "hellas_4p.json"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_playthrough_is_reproduced(path):
    saved = json.loads(path.read_text())
    st = hellas.replay_game(saved["players"], saved["seed"])
    now = json.loads(json.dumps(st.transcript()))
    for i, (a, b) in enumerate(zip(saved["transcript"], now)):
        assert a == b, f"{path.name}: entry {i} differs:\n saved: {a}\n now:   {b}"
    assert len(saved["transcript"]) == len(now)
    assert st.scores() == saved["scores"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_playthrough_in_the_reference_engine(path):
    saved = json.loads(path.read_text())
    st = ref.replay(saved["players"], saved["seed"], saved["transcript"])
    assert st.scores() == saved["scores"]


YAMATAI_FILES = sorted(GOLDEN.glob("yamatai_*p.json"))


def test_there_is_one_yamatai_golden_game_per_player_count():
    assert [f.name for f in YAMATAI_FILES] == ["yamatai_2p.json", "yamatai_3p.json", "yamatai_4p.json"]


@pytest.mark.parametrize("path", YAMATAI_FILES, ids=lambda p: p.stem)
def test_yamatai_golden_playthrough_is_reproduced(path):
    from simcore import yamatai
    from simcore.yamatai import reference as yref

    saved = json.loads(path.read_text())
    st = yamatai.replay_game(saved["players"], saved["seed"])
    now = json.loads(json.dumps(st.transcript()))
    for i, (a, b) in enumerate(zip(saved["transcript"], now)):
        assert a == b, f"{path.name}: entry {i} differs:\n saved: {a}\n now:   {b}"
    assert len(saved["transcript"]) == len(now)
    assert st.scores() == saved["scores"]
    assert yref.replay(saved["players"], saved["seed"], saved["transcript"]).scores() == saved["scores"]


AKROTIRI_FILES = sorted(GOLDEN.glob("akrotiri_*.json"))


def _akrotiri_settings(saved):
    settings = {k: v for k, v in saved["settings"].items() if k != "players"}
    return settings


def test_there_are_akrotiri_golden_games():
    assert [f.name for f in AKROTIRI_FILES] == ["akrotiri_default.json", "akrotiri_strategist_en1.json"]


@pytest.mark.parametrize("path", AKROTIRI_FILES, ids=lambda p: p.stem)
def test_akrotiri_golden_playthrough_is_reproduced(path):
    from simcore import akrotiri
    saved = json.loads(path.read_text())
    st = akrotiri.replay_game(2, saved["seed"], **_akrotiri_settings(saved))
    now = json.loads(json.dumps(st.transcript()))
    for i, (a, b) in enumerate(zip(saved["transcript"], now)):
        assert a == b, f"{path.name}: entry {i} differs:\n saved: {a}\n now:   {b}"
    assert len(saved["transcript"]) == len(now)
    assert st.scores() == saved["scores"]


@pytest.mark.parametrize("path", AKROTIRI_FILES, ids=lambda p: p.stem)
def test_akrotiri_golden_playthrough_in_the_reference_engine(path):
    from simcore.akrotiri import reference as aref
    saved = json.loads(path.read_text())
    st = aref.replay(2, saved["seed"], saved["transcript"], **_akrotiri_settings(saved))
    assert st.scores() == saved["scores"]
