"""The ``boardlab`` CLI: one-line errors with exit code 2, simulate and replay end to end."""
import json
import os
import re
import subprocess
import sys

import pytest

import simcore
from reports.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


@pytest.fixture
def fakegame(monkeypatch):
    monkeypatch.syspath_prepend(HERE)
    import test_runner

    monkeypatch.setattr(simcore, "games", {"fakegame": test_runner})
    return "fakegame"


def _run(argv, capsys):
    rc = main(argv)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def _sim_args(out, *extra):
    return ["simulate", "fakegame", "--players", "3", "--games", "200", "--seed", "1",
            "--workers", "1", "--no-progress", "--out", str(out), *extra]


def _assert_one_line_error(rc, err, *words):
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boardlab: error: "), err
    for w in words:
        assert w in lines[0], (w, lines[0])


@pytest.mark.parametrize("change, words", [
    ({"game": "nope"}, ["unknown game 'nope'", "known: fakegame"]),
    ({"--players": "5"}, ["fakegame is played by 2, 3, 4 players, not 5"]),
    ({"--games": "0"}, ["--games", "positive"]),
    ({"--games": "-4"}, ["--games"]),
    ({"--games": "many"}, ["--games", "not an integer"]),
    ({"--strategy": "balnced"}, ["unknown strategy 'balnced' for fakegame", "known: random"]),
    ({"--seat-strategies": "random,random"}, ["2 strategies for 3 players"]),
    ({"--variant": "colour=red"}, ["unknown setting 'colour'"]),
    ({"--variant": "colour"}, ["bad variant 'colour'", "KEY=VALUE"]),
    ({"--chunk-size": "0"}, ["--chunk-size"]),
    ({"--backend": "mpi"}, ["--backend", "invalid choice"]),
])
def test_bad_arguments_one_line_exit_2(fakegame, tmp_path, capsys, change, words):
    args = _sim_args(tmp_path / "r")
    for key, value in change.items():
        if key == "game":
            args[1] = value
        elif key in args:
            args[args.index(key) + 1] = value
        else:
            args += [key, value]
    rc, _, err = _run(args, capsys)
    _assert_one_line_error(rc, err, *words)
    assert not (tmp_path / "r" / "manifest.json").exists()


def test_missing_required_and_unknown_command(capsys):
    rc, _, err = _run(["simulate", "hellas", "--players", "3"], capsys)
    _assert_one_line_error(rc, err, "required")
    rc, _, err = _run(["frobnicate"], capsys)
    _assert_one_line_error(rc, err, "frobnicate")


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"boardlab {simcore.__version__}"


def test_simulate_table_mismatch_and_replay(fakegame, tmp_path, capsys):
    out = tmp_path / "r"
    rc, text, _ = _run(_sim_args(out, "--seat-strategies", "random,random,random",
                                 "--variant", "bonus=1"), capsys)
    assert rc == 0
    assert "games    200" in text and "games/s" in text and "95% CI (Wilson)" in text
    assert len([line for line in text.splitlines() if line.strip().startswith(("1 (starts) ", "2 ", "3 "))]) == 3
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["variant"] == {"bonus": "1"} and manifest["settings"]["bonus"] == 1

    # same command again: nothing left to do, same folder accepted
    rc, text, _ = _run(_sim_args(out, "--variant", "bonus=1"), capsys)
    assert rc == 0 and "resumed" in text
    # another seed on the same folder: refused, naming the difference and the fix
    args = _sim_args(out, "--variant", "bonus=1")
    args[args.index("--seed") + 1] = "2"
    rc, _, err = _run(args, capsys)
    _assert_one_line_error(rc, err, "holds a different run", "seed: 1 in the folder, 2 in the command", "new output folder")

    rc, text, _ = _run(["replay", str(out), "--game", "123"], capsys)
    assert rc == 0 and "scores equal the stored players rows" in text
    assert "seat 0 scores" in text  # the transcript
    rc, _, err = _run(["replay", str(out), "--game", "200"], capsys)
    _assert_one_line_error(rc, err, "game 200 is not in", "0 .. 199")
    rc, _, err = _run(["replay", str(tmp_path / "nothing"), "--game", "1"], capsys)
    _assert_one_line_error(rc, err, "nothing", "manifest.json")


def test_console_entry_no_traceback(tmp_path):
    """The real registry, in a fresh process: unknown game is one line, exit 2."""
    proc = subprocess.run([sys.executable, "-m", "reports.cli", "simulate", "nope", "--players", "3",
                           "--games", "10", "--seed", "1", "--out", str(tmp_path / "x")],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": ROOT}, capture_output=True, text=True)
    assert proc.returncode == 2
    import simcore
    known = ", ".join(simcore.games)        # the shipped games and those of BOARDLAB_GAMES (tests/extra_games)
    assert proc.stderr.strip() == f"boardlab: error: unknown game 'nope' (known: {known})"


def _hellas_built():
    try:
        return hasattr(simcore.get_game("hellas"), "play_batch")
    except Exception:
        return False


@pytest.mark.skipif(not _hellas_built(), reason="simcore.hellas is not built yet")
@pytest.mark.parametrize("args, words", [
    (["--players", "5"], ["hellas is played by 2, 3, 4 players, not 5"]),
    (["--players", "3", "--variant", "colour=red"], ["colour"]),
    (["--players", "3", "--variant", "quarry_yields=sideways"], ["sideways"]),
    (["--players", "3", "--strategy", "balnced"], ["unknown strategy 'balnced' for hellas"]),
])
def test_hellas_bad_arguments(tmp_path, capsys, args, words):
    rc, _, err = _run(["simulate", "hellas", "--games", "10", "--seed", "1", "--out", str(tmp_path / "h"),
                       *args], capsys)
    _assert_one_line_error(rc, err, *words)


@pytest.mark.skipif(not _hellas_built(), reason="simcore.hellas is not built yet")
def test_hellas_simulate_and_replay(tmp_path, capsys):
    out = tmp_path / "h"
    rc, text, _ = _run(["simulate", "hellas", "--players", "3", "--games", "40", "--seed", "5",
                        "--workers", "1", "--no-progress", "--variant", "city_links=no_agora_chains",
                        "--out", str(out)], capsys)
    assert rc == 0 and "games    40" in text
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["settings"]["city_links"] == "no_agora_chains"
    rc, text, _ = _run(["replay", str(out), "--game", "17"], capsys)
    assert rc == 0 and "set-up:" in text and "scores equal the stored players rows" in text


def test_tune_checks_the_game_and_player_count_before_anything_else(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "akrotiri_tuned.toml").write_text("# an existing file\n")
    rc, out, err = _run(["tune", "akrotiri", "--players", "3", "--budget", "200"], capsys)
    _assert_one_line_error(rc, err, "akrotiri is played by 2 players, not 3")
    assert "CEM" not in out            # no search banner for a run that cannot start
    rc, out, err = _run(["tune", "nogame", "--players", "2"], capsys)
    _assert_one_line_error(rc, err, "unknown game 'nogame'")


def test_tune_writes_into_the_current_folder_and_never_overwrites(tmp_path, monkeypatch, capsys):
    import strategies

    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in strategies.PRESET_DIR.iterdir())
    args = ["tune", "hellas", "--players", "2", "--budget", "240", "--population", "4", "--games", "20",
            "--field", "balanced", "--seed", "3"]
    rc, out, _ = _run(args, capsys)
    assert rc == 0
    written = tmp_path / "hellas_tuned.toml"
    assert f"wrote {written.name} (use it as --strategy {written.name})" in out
    assert strategies.resolve("hellas", str(written)).name == "tuned"
    assert sorted(p.name for p in strategies.PRESET_DIR.iterdir()) == before
    text = written.read_text()
    rc, _, err = _run(args, capsys)
    _assert_one_line_error(rc, err, "hellas_tuned.toml exists", "--force")
    assert written.read_text() == text
    rc, _, _ = _run(args[:-2] + ["--force", "--seed", "4"], capsys)     # (an option given twice is an error)
    assert rc == 0 and written.read_text() != text
    rc, _, err = _run(args + ["--out", str(tmp_path / "missing" / "t.toml")], capsys)
    _assert_one_line_error(rc, err, "does not exist")


def test_replay_score_table_keeps_long_category_names_apart(tmp_path, capsys):
    out = tmp_path / "y"
    rc, _, err = _run(["simulate", "yamatai", "--players", "3", "--games", "12", "--seed", "3", "--out", str(out),
                       "--no-progress", "--workers", "1"], capsys)
    assert rc == 0, err
    rc, text, _ = _run(["replay", str(out), "--game", "5", "--quiet"], capsys)
    assert rc == 0
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("seat "))
    names = lines[head].split()
    assert names[0] == "seat" and {"buildings", "specialists", "total"} <= set(names[1:])
    rows = [line.split() for line in lines[head + 1: head + 4]]
    assert all(len(r) == len(names) and r[0] == str(i) for i, r in enumerate(rows))   # one number per column


def test_output_cut_short_by_the_reader_is_no_traceback(tmp_path, capsys):
    import subprocess
    import sys

    out = tmp_path / "a"
    rc, _, err = _run(["simulate", "akrotiri", "--players", "2", "--games", "4", "--seed", "3", "--out", str(out),
                       "--no-progress", "--workers", "1"], capsys)
    assert rc == 0, err
    import fcntl
    import os

    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)   # smaller than one transcript
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from reports.cli import main; sys.exit(main())",
                             "replay", str(out), "--game", "1"], stdout=write_end, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        first = reader.readline()
    # like `| head -1`: the reader has gone away while the transcript is still being written
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert first.startswith(b"akrotiri, 2 players")
    assert "Traceback" not in err and proc.returncode == 1, err


def test_parser_registers_only_the_command_run():
    """One command's run builds only its parser (each imports its module); help or no command get all."""
    from reports import cli

    def commands(parser):
        return set(next(a for a in parser._actions if a.dest == "command").choices)
    assert commands(cli.build_parser(["report", "x"])) == {"report"}
    assert commands(cli.build_parser(["--help"])) == commands(cli.build_parser([])) == {
        "simulate", "replay", "tune", "regress", "report", "compare", "study", "demo", "balance", "robustness",
        "bench", "ladder", "check", "view", "play", "train"}
    assert len(commands(cli.build_parser(["nonsense"]))) == 16


def test_report_console_exit_flushes_everything(tmp_path):
    """``boardlab report`` leaves by ``os._exit`` (no interpreter teardown): stdout, piped, arrives whole."""
    from simcore.run import simulate
    from strategies import resolve_seats

    out = str(tmp_path / "run")
    simulate("hellas", players=2, games=60, seed=3, out=out, strategies=resolve_seats("hellas", 2, "random"),
             progress=False, workers=1)
    proc = subprocess.run([sys.executable, "-m", "reports.cli", "report", out], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": ROOT}, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith("tables (CSV) in " + os.path.join(out, "report", "tables"))
    assert "Win share by player" in proc.stdout
    assert os.path.isfile(os.path.join(out, "report", "report.html"))


def test_interrupted_report_says_so_without_promising_a_resume(monkeypatch, capsys):
    """Ctrl-C in a command that plays no games (report) is one line with no talk of finished chunks;
    in one that does (simulate) the line says they are kept."""
    from reports import cli
    from reports.commands import report as report_command
    from reports.commands import simulate as simulate_command

    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(report_command, "run", interrupted)
    assert cli.main(["report", "somewhere"]) == 130
    assert capsys.readouterr().err.strip() == "boardlab: interrupted (SIGINT)"
    monkeypatch.setattr(simulate_command, "run", interrupted)
    assert cli.main(["simulate", "hellas", "--players", "3", "--games", "10", "--seed", "1", "--out", "x"]) == 130
    assert capsys.readouterr().err.strip() == ("boardlab: interrupted (SIGINT); finished chunks are kept, "
                                               "rerun the same command to resume")


HELLO_COMMAND = '''"""``boardlab hello GAME --players N``: a toy command (a test's)."""
from reports._args import add_game


def add(sub):
    p = sub.add_parser("hello", help="greet a game")
    add_game(p)
    p.set_defaults(func=run)


def run(args):
    print(f"hello {args.game}: {len(args.game_module.PLAYERS)} player counts, {args.players} here")
    return 0
'''


def test_a_command_is_one_file_and_one_registration_line(tmp_path, monkeypatch, capsys):
    """issue 31: a new command is a module in reports/commands/ and its name in NAMES; reports.cli
    checks its game and player count once, before it runs, in simcore's words."""
    import reports.commands as commands

    folder = tmp_path / "commands"
    folder.mkdir()
    (folder / "hello.py").write_text(HELLO_COMMAND)                                # the new file
    monkeypatch.setattr(commands, "__path__", [*commands.__path__, str(folder)])
    monkeypatch.setattr(commands, "NAMES", [*commands.NAMES, "hello"])             # its registration line
    try:
        assert main(["hello", "hellas", "--players", "3"]) == 0
        n = len(simcore.games["hellas"].PLAYERS)
        assert capsys.readouterr().out == f"hello hellas: {n} player counts, 3 here\n"
        assert main(["hello", "nosuch", "--players", "3"]) == 2
        assert capsys.readouterr().err == (f"boardlab: error: unknown game 'nosuch' (known: "
                                           f"{', '.join(simcore.games)})\n")
        assert main(["hello", "hellas", "--players", "9"]) == 2
        assert capsys.readouterr().err == (f"boardlab: error: hellas is played by "
                                           f"{', '.join(map(str, simcore.games['hellas'].PLAYERS))} players, not 9\n")
        with pytest.raises(SystemExit):
            main(["--help"])
        assert re.search(r"^ +hello +greet a game$", capsys.readouterr().out, re.M)
    finally:
        sys.modules.pop("reports.commands.hello", None)


def test_every_game_command_checks_game_and_players_at_the_edge(capsys):
    """One check for every command, one wording: the CLI's (simcore's), whatever the command."""
    for argv in (["simulate", "nosuch", "--players", "3", "--games", "10", "--seed", "1", "--out", "x"],
                 ["compare", "nosuch", "--players", "3", "--strategies", "a,b", "--games", "10"],
                 ["balance", "nosuch", "--players", "3"], ["ladder", "nosuch", "--players", "3"],
                 ["tune", "nosuch"]):
        assert main(argv) == 2, argv
        assert capsys.readouterr().err.startswith("boardlab: error: unknown game 'nosuch' (known: "), argv
    for argv in (["simulate", "hellas", "--players", "7", "--games", "10", "--seed", "1", "--out", "x"],
                 ["compare", "hellas", "--players", "7", "--strategies", "a,b", "--games", "10"],
                 ["balance", "hellas", "--players", "7"], ["ladder", "hellas", "--players", "7"],
                 ["tune", "hellas", "--players", "7"]):
        assert main(argv) == 2, argv
        assert capsys.readouterr().err.startswith("boardlab: error: hellas is played by "), argv
    import reports

    root = os.path.dirname(reports.__file__)
    said = [os.path.relpath(os.path.join(d, f), root) for d, _, files in os.walk(root) for f in files
            if f.endswith(".py") and "unknown game" in open(os.path.join(d, f), encoding="utf-8").read()]
    assert said == []
