"""Issue 34, round 2: cases found by bench/integrity_battery.py, each kept true here.

A small fast subset of the battery (its cases are new, not the issue's own):
tiny runs of every game through report, check, replay and view; positions of
the wrong kind or wrapped; data-file fields the engine does not read but the
package file declares; deeply nested JSON; a study part name that is a path;
a saved game with float decisions; options given twice.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from reports.cli import main
from simcore import akrotiri, hellas, yamatai

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _one_line(argv, capsys, *words, rc=2):
    code = main([str(a) for a in argv])
    err = [x for x in capsys.readouterr().err.strip().splitlines() if x.strip()]
    assert code == rc and len(err) == 1 and err[0].startswith("boardlab: error: "), (code, err)
    for w in words:
        assert w in err[0], err[0]
    return err[0]


# ---------------------------------------------------------------- 1- and 2-game runs of every game

@pytest.mark.parametrize("game, players", [("hellas", 2), ("yamatai", 2), ("akrotiri", 2)])
@pytest.mark.parametrize("games", [1, 2])
def test_tiny_runs_of_every_game_report_check_replay_and_view(tmp_path, capsys, game, players, games):
    """A 1-game Akrotiri run crashed `report` formatting a missing interval (components.game_end_section)."""
    run = tmp_path / "run"
    assert main(["simulate", game, "--players", str(players), "--games", str(games), "--seed", "1", "--out",
                 str(run), "--no-progress", "--strategy", "balanced"]) == 0
    capsys.readouterr()
    assert main(["report", str(run), "--out", str(tmp_path / "rep")]) == 0
    printed = capsys.readouterr().out
    assert (tmp_path / "rep" / "report.md").stat().st_size > 0
    if games == 1 and game == "akrotiri":     # its game-length line: a mean, no interval (it crashed here)
        assert "turns (no interval: too few games) over 1 games" in printed, printed
    assert main(["check", str(run)]) == 0
    assert main(["replay", str(run), "--game", str(games - 1), "--quiet"]) == 0
    assert main(["view", str(run), "--game", "0", "--out", str(tmp_path / "v.html")]) == 0
    capsys.readouterr()
    _one_line(["replay", str(run), "--game", str(games)], capsys, f"game {games} is not in")


# ---------------------------------------------------------------- positions

def _mid(game, players, steps=15, seed=1):
    st = game.new_game(players=players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        acts = st.legal_actions()
        st.apply(acts[int(rng.integers(len(acts)))])
    return st


@pytest.mark.parametrize("game, players, edit, words", [
    (hellas, 3, lambda d: d["marble"].__setitem__(0, True), "marble must hold whole numbers, not True"),
    (hellas, 3, lambda d: d["marble"].__setitem__(1, 2.5), "marble must hold whole numbers, not 2.5"),
    (hellas, 2, lambda d: d["rings"].__setitem__(0, "x"), "whole numbers"),
    (yamatai, 3, lambda d: d["coins"].__setitem__(0, 2 ** 40), "out of range"),
    (yamatai, 3, lambda d: d["coins"].__setitem__(1, 65536 + 3), "out of range"),
    (yamatai, 3, lambda d: d["pp_tokens"].__setitem__(1, True), "field pp_tokens[1] is True; it must be a whole"),
    (yamatai, 3, lambda d: d["coins"].__setitem__(0, 2.5), "field coins[0] is 2.5; it must be a whole number"),
    (yamatai, 3, lambda d: d.pop("hand"), "KeyError('hand')"),
    (akrotiri, 2, lambda d: d["seats"][0].__setitem__("drachmas", True), "field seats[0].drachmas is True"),
    (akrotiri, 2, lambda d: d["seats"][0].__setitem__("drachmas", 2 ** 40), "out of range"),
    (akrotiri, 2, lambda d: d["seats"][1].__setitem__("drachmas", None), "bad akrotiri position"),
])
def test_a_position_of_the_wrong_kind_or_wrapped_is_one_value_error(game, players, edit, words):
    st = _mid(game, players)
    d = st.to_dict()
    edit(d)
    with pytest.raises(ValueError) as exc:
        type(st).from_dict(d)
    assert words in str(exc.value), str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_position_that_is_not_a_dict_is_named():
    st = _mid(hellas, 3)
    for bad in ([], 5, None):
        with pytest.raises(ValueError, match="bad hellas position: expected a dict"):
            type(st).from_dict(bad)


# ---------------------------------------------------------------- data files

def _data(game, name):
    with open(os.path.join(ROOT, "simcore", game, "data", name)) as f:
        return json.load(f)


@pytest.mark.parametrize("game, key, name, edit, words", [
    # fields no schema named (read by the viewer, or not at all) were taken whatever they held
    ("akrotiri", "market", "market.json", lambda d: d.update(cubes_per_colour=32768),
     "field cubes_per_colour is 32768; allowed -32767..32767"),
    ("yamatai", "specialists", "specialists.json", lambda d: d.update(face_up=float("nan")),
     "field face_up is nan; it must be a finite number"),
    ("akrotiri", "tiles", "tiles.json", lambda d: d["tiles"][5].update(id=True), "field tiles[5].id is true"),
    ("akrotiri", "maps", "maps.json", lambda d: d["decks"]["hard"].update(count=2.5),
     "field decks.hard.count is 2.5; it must be a whole number"),
    ("akrotiri", "player_board", "player_board.json", lambda d: d.update(track=[]), "field track is empty"),
    ("hellas", "board", "board_pegasus.json", lambda d: d["fields"][2].update(r=65536), "field fields[2].r"),
])
def test_every_field_the_package_file_has_keeps_its_kind(tmp_path, capsys, game, key, name, edit, words):
    doc = _data(game, name)
    edit(doc)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    _one_line(["simulate", game, "--players", 2, "--games", 2, "--seed", 1, "--variant", f"{key}={path}",
               "--out", tmp_path / "o", "--no-progress"], capsys, str(path), words)
    assert not (tmp_path / "o").exists()


def test_the_package_files_and_a_copy_of_them_pass():
    for game, mod in (("hellas", hellas), ("yamatai", yamatai), ("akrotiri", akrotiri)):
        mod.make_config(2)           # the package's own files: no complaint


def test_deeply_nested_json_and_a_name_too_long_are_one_line(tmp_path, capsys):
    p = tmp_path / "tiles.json"
    p.write_text("[" * 100_000 + "]" * 100_000)
    _one_line(["simulate", "akrotiri", "--players", 2, "--games", 2, "--seed", 1, "--variant", f"tiles={p}",
               "--out", tmp_path / "o", "--no-progress"], capsys, str(p), "nested too deeply")
    _one_line(["simulate", "yamatai", "--players", 3, "--games", 2, "--seed", 1, "--variant",
               f"fleets={tmp_path / ('f' * 300)}.json", "--out", tmp_path / "o", "--no-progress"], capsys,
              "fleets: ", "File name too long")


# ---------------------------------------------------------------- study files, saved games, options twice

def test_a_study_part_name_is_never_rewritten(tmp_path, capsys):
    p = tmp_path / "s.toml"
    p.write_text('[study]\ngame = "hellas"\nseed = 3\ngames = 20\n\n[[balance]]\nname = "../../escape"\n'
                 'players = [2]\nstrategy = "random"\n')
    _one_line(["study", p, "--out", tmp_path / "out"], capsys, str(p), "letters, digits")
    assert not (tmp_path / "out").exists()


def test_a_saved_game_with_float_decisions_is_refused_before_the_server(tmp_path):
    g = tmp_path / "g"
    g.mkdir()
    (g / "save.json").write_text(json.dumps({"game": "hellas", "players": 3, "seats": ["human", "balanced", "balanced"],
                                             "run_seed": 4, "variant": {}, "decisions": [0.5]}))
    proc = subprocess.run([sys.executable, "-m", "reports.cli", "play", "--resume", str(g), "--no-browser",
                           "--port", "0"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
        f"boardlab: error: {g / 'save.json'}: run_seed, players and decisions must be whole numbers (decisions >= 0)"]
    (g / "save.json").write_text(json.dumps({"game": "chess", "players": 3, "seats": ["human"], "run_seed": 4,
                                             "decisions": []}))
    proc = subprocess.run([sys.executable, "-m", "reports.cli", "play", "--resume", str(g), "--no-browser",
                           "--port", "0"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and "unknown game 'chess'" in proc.stderr and "Traceback" not in proc.stderr


def _blocked_signals():
    import signal
    return sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, []))


def test_pool_workers_start_with_ctrl_c_blocked():
    """A loky worker still importing when Ctrl-C reaches the process group printed a KeyboardInterrupt
    traceback (issue 34's battery, under load): workers are now spawned with SIGINT blocked, the parent's
    own mask unchanged, and SIGTERM still reaches them."""
    import signal

    import joblib
    from joblib.externals.loky import get_reusable_executor

    from simcore._orphans import quiet_worker_spawns

    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    quiet_worker_spawns()
    quiet_worker_spawns()                     # twice: wrapped once
    from joblib.externals.loky.backend import fork_exec as fe
    assert fe.fork_exec._boardlab_quiet and not getattr(fe.fork_exec.__closure__[0].cell_contents,
                                                        "_boardlab_quiet", False)
    get_reusable_executor().shutdown(wait=True)          # fresh workers, spawned through the wrapper
    masks = joblib.Parallel(n_jobs=2, backend="loky")(joblib.delayed(_blocked_signals)() for _ in range(4))
    assert all(int(signal.SIGINT) in m and int(signal.SIGTERM) not in m for m in masks), masks
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
