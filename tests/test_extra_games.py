"""A game registered from outside boardlab goes through the whole CLI: simulate, replay, report, compare, regress.

Each game of ``tests/extra_games/`` (registered by ``conftest.py`` through
``BOARDLAB_GAMES``) is run in fresh ``boardlab`` processes, as a user who
ships a fourth game as their own package would run it: nothing in boardlab
names it.
"""
import json
import os
import subprocess
import sys

import pytest

import simcore

EXTRA = [g for g in simcore.game_packages() if g not in simcore.BUILTIN_GAMES]


def _boardlab(*args, cwd=None):
    proc = subprocess.run([sys.executable, "-m", "reports.cli", *map(str, args)], capture_output=True,
                          text=True, timeout=300, cwd=cwd, env=dict(os.environ, MPLBACKEND="Agg"))
    return proc.returncode, proc.stdout, proc.stderr


def test_a_game_that_misses_a_contract_name_is_refused_by_name():
    import types

    from simcore._contract import ContractError, check_game

    toy = simcore.games["toy"]
    fake = types.ModuleType("nowhere.fake")
    fake.__dict__.update({k: getattr(toy, k) for k in dir(toy) if not k.startswith("_") and k != "reference"})
    with pytest.raises(ContractError, match=r"game 'toy' \(nowhere.fake\) lacks reference"):
        check_game(fake, "toy")
    fake.reference = toy.reference
    assert check_game(fake, "toy") is fake
    with pytest.raises(ContractError, match="NAME = 'toy'"):
        check_game(fake, "blind")


def test_there_is_an_extra_game():
    assert "toy" in EXTRA
    assert "toy" not in simcore.BUILTIN_GAMES and "toy" in simcore.games


@pytest.mark.parametrize("game", EXTRA)
def test_extra_game_through_the_cli(game, tmp_path):
    mod = simcore.games[game]
    players = mod.DEFAULT_PLAYERS
    run = tmp_path / "run"
    rc, out, err = _boardlab("simulate", game, "--players", players, "--games", 3000, "--seed", 4,
                             "--strategy", "balanced", "--workers", 2, "--chunk-size", 700, "--out", run,
                             "--no-progress")
    assert rc == 0, err
    assert f"n = 3,000 games; ties: {mod.TIE_RULE}" in out
    man = json.loads((run / "manifest.json").read_text())
    assert man["status"] == "complete" and man["game"] == game and man["strategies"][0]["name"] == "balanced"

    rc, out, err = _boardlab("replay", run, "--game", 1234)
    assert rc == 0, err
    assert "game over" in out and "mismatch" not in out.lower()

    rep = tmp_path / "report"
    rc, out, err = _boardlab("report", run, "--out", rep)
    assert rc == 0, err
    html = (rep / "report.html").read_text(encoding="utf-8")
    assert "Seat advantage" in html and "Scoring categories" in html
    for cat in mod.SCORE_CATEGORIES:      # the categories come from the contract, not from boardlab
        assert cat in (rep / "tables" / "category_logit.csv").read_text()

    rc, out, err = _boardlab("compare", game, "--players", 2, "--strategies", "balanced,random",
                             "--games", 800, "--seed", 2, "--out", tmp_path / "cmp")
    assert rc == 0, err
    assert "balanced" in out and (tmp_path / "cmp" / "report.html").exists()

    base = tmp_path / f"{game}.json"
    rc, out, err = _boardlab("regress", base, "--update", "--game", game, "--players", players,
                             "--strategy", "balanced", "--games", 2000)
    assert rc == 0, err
    rc, out, err = _boardlab("regress", base)
    assert rc == 0, err
    assert "identical" in out.lower()
    # fresh games of the same rules: not identical, and no significant change (exit 0)
    rc, out, err = _boardlab("regress", base, "--seed", 9)
    assert rc == 0, err + out
    assert "identical" not in out.lower()


@pytest.mark.parametrize("setting,words", [
    ("toy=extra_games.toy,blind=nowhere.blind", ["game 'blind': cannot import nowhere.blind", "BOARDLAB_GAMES"]),
    ("toy=extra_games.toy,blind", ["BOARDLAB_GAMES: 'blind' is not NAME=PACKAGE"]),
    ("toy=extra_games.toy,blind=extra_games.toy.rules", ["game 'blind' (extra_games.toy.rules) lacks", "NAME"]),
])
def test_a_bad_registered_game_is_a_one_line_error(setting, words, tmp_path):
    env = dict(os.environ, BOARDLAB_GAMES=setting)
    proc = subprocess.run([sys.executable, "-m", "reports.cli", "simulate", "blind", "--players", "2", "--games",
                           "10", "--seed", "1", "--out", str(tmp_path / "r")], capture_output=True, text=True,
                          timeout=120, env=env)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("boardlab: error: "), proc.stderr
    for w in words:
        assert w in lines[0], lines[0]
    assert not (tmp_path / "r").exists()
