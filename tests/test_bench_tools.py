"""bench/digest.py (the fingerprint showing a speed-up leaves the games as they were) and bench/bench_presets.py."""
import importlib.util
from pathlib import Path

import pytest

import simcore



def _load(name):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).parents[1] / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


digest_tool = _load("digest")
presets_tool = _load("bench_presets")


@pytest.mark.parametrize("game", list(simcore.games))
def test_digest_is_repeatable_and_sees_the_games(game, monkeypatch):
    a = digest_tool.digest(game, n=8)
    assert a == digest_tool.digest(game, n=8)                 # same engines, same digest
    assert a != digest_tool.digest(game, n=9)                 # one more game per line-up changes it
    assert a != digest_tool.digest(game, n=8, parts=("games", "players"))
    lines = []
    digest_tool.digest(game, n=8, verbose=True, out=lines.append)
    assert len(lines) == 5 * len(simcore.games[game].PLAYERS)


def test_digest_cli_rejects_bad_arguments(capsys):
    for argv in (["nogame"], ["--parts", "moves"], ["-n", "0"]):
        with pytest.raises(SystemExit) as e:
            digest_tool.main(argv)
        assert e.value.code == 2
    err = capsys.readouterr().err
    assert "unknown game 'nogame'" in err and "unknown table moves" in err and "-n must be a positive" in err


def test_preset_strength_counts_both_seats_and_ties():
    lo, hi = presets_tool.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert presets_tool.wilson(10, 10)[1] == 1.0
    r = presets_tool.strength("hellas", "balanced", 40)
    assert r["n"] == 40 and 0 <= r["lo"] <= r["share"] <= r["hi"] <= 1 and r["wins"] == pytest.approx(40 * r["share"])
    mirror = presets_tool.strength("hellas", "balanced", 40, opponent=__import__("strategies").resolve(
        "hellas", "balanced").as_policy())
    assert 0.2 < mirror["share"] < 0.8            # against itself, seats alternated: near one half
