"""bench/digest.py: the fingerprint used to show that a speed-up leaves the games as they were."""
import importlib.util
from pathlib import Path

import pytest

import simcore

spec = importlib.util.spec_from_file_location("bench_digest", Path(__file__).parents[1] / "bench" / "digest.py")
digest_tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(digest_tool)


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
