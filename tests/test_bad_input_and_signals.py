"""Issue 22: bad input, signals and the report's HTML, one test per class of defect.

Every bad input gives one line ``boardlab: error: ...`` naming the file, flag
or key, exit code 2, and no work done; signals end a run like Ctrl-C; the
manifest of a killed session is honest. Subprocess tests use the fake game of
``test_runner`` (a chunk sleeps ``delay`` seconds) and finish in a few seconds.
"""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import simcore
from reports.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STUDY = ("[study]\ngame = 'hellas'\nseed = 1\ngames = 30\n[[balance]]\nname = 'b'\nplayers = 3\n")


@pytest.fixture
def fakegame(monkeypatch):
    monkeypatch.syspath_prepend(HERE)
    import test_runner

    monkeypatch.setattr(simcore, "games", {"fakegame": test_runner})
    return "fakegame"


def _error(argv, capsys, *words):
    """Run the CLI in-process; assert one error line holding ``words`` and exit 2; return the line."""
    rc = main([str(a) for a in argv])
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert rc == 2, err
    assert len(lines) == 1 and lines[0].startswith("boardlab: error: "), err
    for w in words:
        assert str(w) in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------- output paths, checked before any work

_OUT_CASES = [   # (argv, the flag named); "FILE" is an existing file, "DIR" an existing folder
    (["simulate", "hellas", "--players", "3", "--games", "100", "--seed", "1", "--out", "FILE"], "--out"),
    (["simulate", "hellas", "--players", "3", "--games", "100", "--seed", "1", "--out", "FILE/sub"], "--out"),
    (["compare", "hellas", "--players", "3", "--games", "100", "--strategies", "balanced,random",
      "--out", "FILE"], "--out"),
    (["report", "run", "--out", "FILE"], "--out"),
    (["study", "s.toml", "--out", "FILE"], "--out"),
    (["demo", "--quick", "--out", "FILE"], "--out"),
    (["regress", "none.json", "--md", "DIR"], "--md"),
    (["regress", "none.json", "--json", "nodir/x.json"], "--json"),
    (["bench", "--json", "DIR"], "--json"),
    (["tune", "hellas", "--players", "3", "--budget", "100", "--out", "DIR", "--force"], "--out"),
]


@pytest.mark.parametrize("argv, flag", _OUT_CASES)
def test_unwritable_output_path_is_refused_before_any_work(tmp_path, capsys, monkeypatch, argv, flag):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "FILE").write_text("x")
    (tmp_path / "DIR").mkdir()
    (tmp_path / "run").mkdir()
    (tmp_path / "s.toml").write_text(STUDY)
    t0 = time.perf_counter()
    _error(argv, capsys, flag, argv[argv.index(flag) + 1])
    assert time.perf_counter() - t0 < 5
    assert sorted(os.listdir(tmp_path)) == ["DIR", "FILE", "run", "s.toml"]
    assert (tmp_path / "FILE").read_text() == "x" and os.listdir(tmp_path / "DIR") == []


# ---------------------------------------------------------------- files read: each message names the file

def test_unreadable_input_files_name_the_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.toml").mkdir()
    (tmp_path / "latin1.toml").write_bytes(b"[x]\nkind = 'random'\ndescription = '\xe9t\xe9'\n")
    (tmp_path / "latin1.json").write_bytes(b'{"name": "\xe9"}')
    (tmp_path / "study.toml").write_bytes(STUDY.encode().replace(b"'b'", b"'\xe9'"))
    sim = ["simulate", "hellas", "--players", "3", "--games", "100", "--seed", "1", "--out", "o"]
    _error(sim + ["--strategy", "./d.toml"], capsys, "d.toml", "folder")
    _error(sim + ["--strategy", "latin1.toml"], capsys, "latin1.toml", "not UTF-8")
    _error(sim + ["--variant", "board=latin1.json"], capsys, "latin1.json", "not UTF-8")
    _error(sim + ["--variant", "board=missing.json"], capsys, "board", "not found", "missing.json")
    _error(sim + ["--variant", "board=d.toml"], capsys, "board", "d.toml", "folder")
    _error(["study", "study.toml"], capsys, "study.toml", "not UTF-8")
    ysim = ["simulate", "yamatai", "--players", "3", "--games", "100", "--seed", "1", "--out", "o"]
    _error(ysim + ["--variant", "fleets=nope.json"], capsys, "fleets", "not found", "nope.json")
    asim = ["simulate", "akrotiri", "--players", "2", "--games", "100", "--seed", "1", "--out", "o"]
    _error(asim + ["--variant", "maps=latin1.json"], capsys, "latin1.json", "not UTF-8")
    assert not os.path.exists("o")


# ---------------------------------------------------------------- silently accepted options

def test_contradicting_or_empty_options_are_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sim = ["simulate", "hellas", "--players", "3", "--games", "100", "--seed", "1", "--out", "o"]
    _error(sim + ["--strategy", "balanced", "--seat-strategies", "random,random,random"], capsys,
           "--strategy", "--seat-strategies", "not both")
    _error(sim + ["--strategy", "random", "--seat-strategies", "random,random,random"], capsys, "not both")
    _error(sim + ["--variant", "quarry_yields=falling", "--variant", "quarry_yields=rising"], capsys,
           "quarry_yields", "twice")
    _error(["compare", "hellas", "--players", "3", "--games", "60", "--strategies", "balanced,random",
            "--variant", "board=pegasus", "--variant", "board=minotaur", "--out", "c"], capsys, "board", "twice")
    _error(["regress", "b.json", "--update", "--game", "hellas", "--players", "3", "--strategy", "balanced",
            "--seat-strategies", "random,random,random"], capsys, "not both")
    _error(["regress", "b.json", "--alpha", "2"], capsys, "--alpha", "2")
    _error(["bench", "--players", "7", "--no-runner"], capsys, "7 players", "hellas: 2, 3, 4")
    _error(["bench", "--game", "chess"], capsys, "unknown game 'chess'")
    tune = ["tune", "hellas", "--players", "3", "--budget", "1000", "--out", "t.toml"]
    _error(tune + ["--population", "0"], capsys, "--population", "0")
    _error(tune + ["--population", "1"], capsys, "population", "at least 2")
    _error(tune + ["--games", "0"], capsys, "--games", "0")
    _error(tune + ["--games", "2"], capsys, "games per candidate", "3")
    _error(tune + ["--games", "500"], capsys, "12 x 500", "--budget")
    _error(tune + ["--seed", "-1"], capsys, "--seed")
    assert sorted(os.listdir(tmp_path)) == []


# ---------------------------------------------------------------- the manifest

@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from simcore.run import simulate

    out = tmp_path_factory.mktemp("run") / "h"
    simulate("hellas", players=3, games=40, seed=3, out=str(out), workers=1, progress=False)
    return out


@pytest.mark.parametrize("key, value, words", [
    ("players", "three", ["'players'", "positive integer", '"three"']),
    ("games", -3, ["'games'", "-3"]),
    ("seed", 1.5, ["'seed'", "1.5"]),
    ("chunking", {"chunk_size": 0}, ["'chunking.chunk_size'", "0"]),
    ("strategies", [], ["'strategies'", "0 strategies for 3 players"]),
])
def test_manifest_with_a_bad_key_is_named(small_run, tmp_path, capsys, key, value, words):
    import shutil

    run = tmp_path / "r"
    shutil.copytree(small_run, run)
    m = json.loads((run / "manifest.json").read_text())
    m[key] = value
    (run / "manifest.json").write_text(json.dumps(m))
    where = str(run / "manifest.json")
    _error(["replay", run, "--game", "0", "--quiet"], capsys, where, *words)
    _error(["report", run, "--out", tmp_path / "rep"], capsys, where, *words)
    _error(["simulate", "hellas", "--players", "3", "--games", "40", "--seed", "3", "--out", run], capsys,
           where, *words)
    assert not (tmp_path / "rep").exists()


# ---------------------------------------------------------------- huge game counts

def test_a_run_the_disk_cannot_hold_is_refused(tmp_path, capsys):
    line = _error(["simulate", "hellas", "--players", "3", "--games", "1e12", "--seed", "1",
                   "--out", tmp_path / "o"], capsys, "1,000,000,000,000 games", "free", "TB")
    assert "bytes a game" in line
    assert not (tmp_path / "o").exists()


def test_a_big_run_says_its_time_and_disk_first(tmp_path, capsys):
    from simcore.run import simulate

    res = simulate("hellas", players=2, games=10**7, seed=1, out=str(tmp_path / "o"), chunk_size=500,
                   workers=1, max_chunks=1, progress=True)
    err = capsys.readouterr().err
    assert res.games_run == 500
    first = err.strip().splitlines()[0]
    assert first.startswith("simulate: 10,000,000 games: about ") and " on disk" in first, err


# ---------------------------------------------------------------- signals, dead parents, the manifest's time

_CODE = ("import sys, simcore, test_runner; simcore.games = {'fakegame': test_runner}; "
         "from reports.cli import main; sys.exit(main(sys.argv[1:]))")


def _start(out, games=4000, progress=False, **popen):
    args = ["simulate", "fakegame", "--players", "3", "--games", str(games), "--chunk-size", "100",
            "--seed", "1", "--workers", "2", "--variant", "delay=0.2", "--out", str(out)]
    if not progress:
        args.append("--no-progress")
    return subprocess.Popen([sys.executable, "-c", _CODE, *args], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, HERE])},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            **popen)


def _wait_for_chunks(out, proc, n=2, timeout=30):
    """Until the manifest's running session counts ``n`` chunks; return the pids of the pool workers."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            s = json.loads((out / "manifest.json").read_text())["sessions"][-1]
            if s["chunks_run"] >= n:
                break
        except (OSError, ValueError, KeyError, IndexError):
            pass
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("the run did not record its chunks")
    return _children(proc.pid)


def _children(pid):
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pids):
    alive = []
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.append(p)
        except OSError:
            pass
    return alive


def _wait_gone(pids, seconds):
    deadline = time.time() + seconds
    while _alive(pids) and time.time() < deadline:
        time.sleep(0.1)
    left = _alive(pids)
    for p in left:                        # do not leave them behind if the test fails
        os.kill(p, signal.SIGKILL)
    return left


def test_sigterm_stops_a_run_like_ctrl_c(tmp_path):
    out = tmp_path / "t"
    proc = _start(out)
    workers = _wait_for_chunks(out, proc)
    assert workers
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1].startswith("boardlab: interrupted (SIGTERM)") and "Traceback" not in err
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "interrupted" and m["sessions"][-1]["status"] == "interrupted"
    assert _wait_gone(workers, 5) == []


def test_ctrl_c_with_the_pipe_gone_still_records_the_interruption(tmp_path):
    # `boardlab simulate ... 2>&1 | tee log` and Ctrl-C: tee dies first, stderr is a broken pipe
    out = tmp_path / "p"
    proc = _start(out, progress=True)
    workers = _wait_for_chunks(out, proc)
    proc.stdout.close()
    proc.stderr.close()
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "interrupted"
    assert _wait_gone(workers, 5) == []


def test_a_killed_parent_takes_its_workers_and_its_time_is_counted(tmp_path):
    out = tmp_path / "k"
    proc = _start(out)
    workers = _wait_for_chunks(out, proc, n=4)
    t_kill = time.time()
    proc.kill()
    proc.communicate(timeout=30)
    assert _wait_gone(workers, 3) == [], "pool workers outlived their parent"
    assert time.time() - t_kill < 3
    killed = json.loads((out / "manifest.json").read_text())["sessions"][-1]
    assert killed["status"] == "running" and killed["chunks_run"] >= 4 and killed["wall_seconds"] > 0.5
    # finish the run (no delay: the variant must match, so the same command, with max speed from resume)
    proc = _start(out)
    proc.communicate(timeout=60)
    assert proc.returncode == 0
    m = json.loads((out / "manifest.json").read_text())
    first, last = m["sessions"]
    assert first["status"] == "killed" and first["chunks_run"] == killed["chunks_run"]
    played = first["games_run"] + last["games_run"]
    assert played <= 4000
    wall = first["wall_seconds"] + last["wall_seconds"]
    assert m["games_per_second"] == pytest.approx(played / wall, rel=0.01)


def test_progress_on_a_pipe_is_a_line_per_tenth(tmp_path):
    proc = _start(tmp_path / "g", games=1000, progress=True)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "\r" not in err
    lines = [ln for ln in err.splitlines() if ln.startswith("simulate: ")]
    assert [ln.split("(")[1].split(")")[0] for ln in lines] == [f"{10 * k} %" for k in range(1, 11)]


# ---------------------------------------------------------------- what the output says

def test_the_simulate_footer_states_each_games_tie_rule(tmp_path):
    from reports.commands.simulate import run_table
    from simcore.run import simulate

    for game, players, words in (("hellas", 3, "1/k"), ("yamatai", 3, "earlier in the last round"),
                                 ("akrotiri", 2, "drachmas")):
        res = simulate(game, players=players, games=20, seed=1, out=str(tmp_path / game), workers=1,
                       progress=False)
        last = run_table(res).splitlines()[-1]
        assert "ties: " in last and words in last, last
        if game == "yamatai":
            assert "1/k" not in last


def test_report_html_renders_markdown_once_and_scrolls_wide_tables(small_run):
    import polars as pl

    from reports.render import figures as F
    from reports.render.html import CSS, render_html
    from reports.render.sections import Fig, Report, Section, Table

    from analysis import load_run
    from analysis.seats import seat_advantage

    fig = F.win_share_by_seat(seat_advantage(load_run(small_run).players.collect()), caption="A CAPTION, 10 games.")
    assert not any("CAPTION" in t.get_text() for t in fig.texts)     # not drawn inside the image too
    wide = pl.DataFrame({f"column_{i}": [i] for i in range(40)})
    figure = Fig("f", fig, "A CAPTION, 10 games.")
    figure.png_bytes, figure.svg = b"", "figures/f.svg"
    sec = Section("S", paragraphs=["share of *bought* cards, **bold** and `a*b*`"],
                  tables=[Table("wide", wide, "the `effect` column")], figures=[figure])
    html = render_html(Report("T", sections=[sec]))
    assert "<em>bought</em>" in html and "<strong>bold</strong>" in html and "<code>a*b*</code>" in html
    assert "<code>effect</code>" in html and "`" not in html
    assert html.count("A CAPTION") == 1
    assert '<div class="scroll"><table>' in html and ".scroll{overflow-x:auto" in CSS
    assert "nav.toc{position:fixed" in CSS and "overflow-y:auto" in CSS     # the contents stay at hand


def test_a_category_with_no_variance_is_left_out_with_a_note(tmp_path):
    from reports.generic import category_section
    from reports.runset import RunSet
    from simcore.run import simulate
    from strategies import resolve_seats

    simulate("yamatai", players=3, games=60, seed=1, out=str(tmp_path / "y"), workers=1, progress=False,
             strategies=resolve_seats("yamatai", 3, "balanced"))
    sec = category_section(RunSet.from_dirs(str(tmp_path / "y")))
    logit = next(t.frame for t in sec.tables if t.name == "category_logit")
    assert logit["coef"].is_nan().sum() == 0 and logit["coef"].is_null().sum() == 0
    flat = [c for c in ("reserved", "set_aside") if c not in logit["category"].to_list()]
    assert flat and any(f"`{flat[0]}`" in p and "no variance" in p for p in sec.paragraphs)


def test_unreachable_dask_scheduler_leaves_no_folder(tmp_path, capsys):
    """A dask scheduler that does not answer is refused before the results folder is made."""
    import socket

    pytest.importorskip("dask.distributed")
    with socket.socket() as s:                 # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "run"
    _error(["simulate", "hellas", "--players", "3", "--games", "100", "--seed", "1",
            "--scheduler", f"tcp://127.0.0.1:{port}", "--out", out], capsys,
           "cannot reach the dask scheduler", "tcp://HOST:PORT")
    assert not out.exists()
