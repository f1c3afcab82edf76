"""Issue 34: numbers range-checked, OS errors in one line, long work interruptible, workers that die.

Every case the issue names is here; each failed before (a traceback, a silent
acceptance, a hang or a leftover worker) and is now one line
``boardlab: error: ...`` (exit 2, or 1 for an OS error) or a prompt stop.
"""
import json
import os
import resource
import signal
import subprocess
import sys
import time

import pytest

from reports.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _error(argv, capsys, *words, rc=2):
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == rc and len(err) == 1 and err[0].startswith("boardlab: error: "), (code, err)
    for w in words:
        assert w in err[0], err[0]
    return err[0]


def _sim(out, *extra, players=2, games=20):
    return ["simulate", "hellas", "--players", players, "--games", games, "--seed", 1, "--out", out,
            "--no-progress", "--workers", 1, *extra]


# ---------------------------------------------------------------- numbers

def test_iterations_beyond_the_engine_are_refused_before_the_folder(tmp_path, capsys):
    out = tmp_path / "o"
    _error(_sim(out, "--seat-strategies", "mcts:iterations=3000000000,random"), capsys,
           "iterations must be 1..10,000,000")
    assert not out.exists()


def test_a_search_setting_given_twice_is_refused(tmp_path, capsys):
    _error(_sim(tmp_path / "o", "--seat-strategies", "mcts:iterations=5,iterations=7,random"), capsys,
           "iterations given twice")


@pytest.mark.parametrize("seed, words", [("1e30", "write it in digits"), ("9223372036854775808", "0..2^63-1"),
                                         ("-1", "0..2^63-1")])
def test_a_seed_is_never_rounded_or_out_of_range(tmp_path, capsys, seed, words):
    argv = _sim(tmp_path / "o")
    argv[argv.index("--seed") + 1] = seed
    _error(argv, capsys, "--seed", words)


def test_a_seed_written_as_an_exact_float_still_works(tmp_path, capsys):
    argv = _sim(tmp_path / "o")
    argv[argv.index("--seed") + 1] = "1e3"
    assert main([str(a) for a in argv]) == 0
    assert json.load(open(tmp_path / "o" / "manifest.json"))["seed"] == 1000


def test_a_strategy_pool_with_duplicates_is_refused(tmp_path, capsys):
    _error(["ladder", "hellas", "--players", "2", "--strategies", "random,random", "--games", "10",
            "--out", tmp_path / "l"], capsys, "lists random twice")
    _error(["compare", "hellas", "--players", "2", "--strategies", "balanced,balanced", "--games", "10",
            "--out", tmp_path / "c"], capsys, "lists balanced twice")


def test_a_player_count_listed_twice_in_a_study_is_refused(tmp_path, capsys):
    study = tmp_path / "s.toml"
    study.write_text("[study]\ngame = 'hellas'\nseed = 1\ngames = 30\n[[balance]]\nname = 'b'\nplayers = [3, 3]\n")
    _error(["study", study, "--out", tmp_path / "o"], capsys, "players lists a player count twice")


def test_absurd_balance_work_is_refused_up_front(capsys):
    t0 = time.perf_counter()
    _error(["balance", "hellas", "--players", "3", "--verify", "1e12"], capsys, "--verify", "give fewer")
    assert time.perf_counter() - t0 < 10


def test_tune_refuses_a_name_that_is_a_path(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _error(["tune", "hellas", "--players", "3", "--budget", "100", "--name", "../../x"], capsys,
           "is not a preset name")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("flag, value", [("--effect-sd", "1e-300"), ("--effect-sd", "nan"),
                                         ("--effect-share", "0"), ("--effect-share", "2")])
def test_regress_effect_sizes_are_range_checked(flag, value, capsys):
    _error(["regress", os.path.join(ROOT, "baselines", "hellas-3p.json"), flag, value], capsys, flag)


def _baseline(tmp_path, edit):
    doc = json.load(open(os.path.join(ROOT, "baselines", "hellas-3p.json")))
    edit(doc)
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc).replace("NaN", "NaN"))
    return path


@pytest.mark.parametrize("what, edit", [
    ("n", lambda d: d["statistics"][0].update(n=1e308)),
    ("estimate", lambda d: d["statistics"][-1].update(estimate=float("nan"))),
    ("sd", lambda d: d["statistics"][-1].update(sd=-1.0)),
    ("successes", lambda d: d["statistics"][0].update(successes=d["statistics"][0]["n"] + 1)),
    ("study.games", lambda d: d["study"].update(games=0)),
])
def test_regress_baselines_are_validated_like_data_files(tmp_path, capsys, what, edit):
    path = _baseline(tmp_path, edit)
    _error(["regress", path], capsys, f"baseline {path}", what)


def test_regress_errors_from_its_study_name_the_baseline(tmp_path, capsys):
    path = _baseline(tmp_path, lambda d: d["study"].update(strategies=["nosuchpreset"] * d["study"]["players"]))
    _error(["regress", path], capsys, f"baseline {path}", "nosuchpreset")


# ---------------------------------------------------------------- operating-system errors

def _limited(argv, fsize, cwd):
    """Run the CLI with files limited to ``fsize`` bytes (EFBIG, as a full disk would fail a write)."""
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([sys.executable, "-m", "reports.cli", *map(str, argv)], preexec_fn=pre, cwd=cwd,
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, HERE])))


def _one_line_os_error(proc, *words):
    err = proc.stderr.strip().splitlines()         # (balance logs its progress first)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert err[-1].startswith("boardlab: error: ") and sum("error" in x for x in err) == 1, err
    for w in words:
        assert w in err[-1], err[-1]


def _no_temp_files(folder):
    return [os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs if ".tmp-" in f]


def test_a_full_disk_in_simulate_is_one_line_and_resumable(tmp_path):
    out = tmp_path / "run"
    proc = _limited(["simulate", "hellas", "--players", "3", "--games", "20000", "--chunk-size", "5000",
                     "--seed", "1", "--out", out, "--no-progress", "--workers", "1"], 40_000, tmp_path)
    _one_line_os_error(proc, "part-00000.parquet", "File too large", "rerun the same command")
    assert _no_temp_files(out) == []
    assert main(["simulate", "hellas", "--players", "3", "--games", "20000", "--chunk-size", "5000",
                 "--seed", "1", "--out", str(out), "--no-progress", "--workers", "1"]) == 0
    assert main(["check", str(out)]) == 0


def test_a_full_disk_leaves_no_half_written_json(tmp_path):
    base = tmp_path / "b.json"
    proc = _limited(["regress", base, "--update", "--game", "hellas", "--players", "3", "--games", "200"],
                    300, tmp_path)
    _one_line_os_error(proc, "File too large")
    assert not base.exists() and _no_temp_files(tmp_path) == []
    js = tmp_path / "bal.json"
    proc = _limited(["balance", "hellas", "--players", "2", "--budget", "2000", "--verify", "1000",
                     "--json", js, "--workers", "1"], 300, tmp_path)
    _one_line_os_error(proc, str(js), "File too large")
    assert not js.exists() and _no_temp_files(tmp_path) == []


def test_a_report_on_a_full_disk_names_its_folder(tmp_path):
    from simcore.run import simulate
    simulate("hellas", players=2, games=2000, seed=1, out=str(tmp_path / "run"), workers=1, progress=False)
    proc = _limited(["report", tmp_path / "run", "--out", tmp_path / "rep"], 2000, tmp_path)
    _one_line_os_error(proc, "rep", "File too large")


def test_enospc_is_one_line_naming_the_path(tmp_path, capsys, monkeypatch):
    import errno

    from simcore import _results

    real = os.replace

    def full(src, dst):
        if str(dst).endswith(".parquet"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst)
    monkeypatch.setattr(_results.os, "replace", full)
    out = tmp_path / "run"
    line = _error(_sim(out), capsys, "part-00000.parquet", "No space left on device", "free some space", rc=1)
    assert str(out) in line and _no_temp_files(out) == []


def test_a_name_too_long_and_a_link_loop_are_one_line(tmp_path, capsys):
    _error(_sim(tmp_path / ("x" * 300)), capsys, "File name too long", "give a shorter name", rc=1)
    os.symlink("b", tmp_path / "a")
    os.symlink("a", tmp_path / "b")
    _error(_sim(tmp_path / "a" / "x"), capsys, "symbolic link", rc=1)
    _error(_sim(tmp_path / "a"), capsys, "link loop")


def test_permission_denied_is_one_line(tmp_path, capsys, monkeypatch):
    """(CI runs as root, who writes anywhere: the refusal is simulated where the manifest is written.)"""
    import errno

    from simcore import _results

    def denied(src, dst):
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(_results.os, "replace", denied)
    _error(_sim(tmp_path / "run"), capsys, "manifest.json", "Permission denied", "check its permissions", rc=1)


# ---------------------------------------------------------------- long work stops, workers die

@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_long_search_stops_within_a_second(tmp_path, sig):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "reports.cli", *map(str, _sim(
        out, "--seat-strategies", "mcts:iterations=5000000,random", games=4))], cwd=ROOT,
        stderr=subprocess.PIPE, text=True)
    time.sleep(4)                       # inside the first decision's search (minutes long)
    assert proc.poll() is None
    t0 = time.time()
    proc.send_signal(sig)
    proc.wait(timeout=30)
    assert time.time() - t0 < 1.5
    err = proc.stderr.read()
    assert proc.returncode == 128 + sig and "Traceback" not in err and f"interrupted ({sig.name})" in err
    assert os.listdir(out / "games") == []              # the interrupted chunk's games are not kept
    assert json.load(open(out / "manifest.json"))["status"] == "interrupted"


def test_the_size_probe_of_a_long_search_is_bounded(tmp_path):
    from simcore.run import check_size, plan_run
    from strategies import resolve_seats

    seats = [s.to_dict() for s in resolve_seats("hellas", 2, seat_strategies=["mcts:iterations=2000000", "random"])]
    t0 = time.perf_counter()
    line = check_size(plan_run("hellas", 2, 1000, 1, strategies=seats), str(tmp_path), 1)
    assert time.perf_counter() - t0 < 30
    assert line.startswith("simulate: 1,000 games: about ") and "days" in line


def test_figure_workers_die_with_a_killed_report(tmp_path):
    from simcore.run import simulate
    simulate("hellas", players=3, games=3000, seed=1, out=str(tmp_path / "run"), workers=1, progress=False)
    proc = subprocess.Popen([sys.executable, "-m", "reports.cli", "report", str(tmp_path / "run"),
                             "--out", str(tmp_path / "rep")], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)

    def children():
        ps = subprocess.run(["ps", "-o", "pid=", "--ppid", str(proc.pid)], capture_output=True, text=True)
        return [int(x) for x in ps.stdout.split()]
    deadline, kids = time.time() + 60, []
    while not kids and time.time() < deadline and proc.poll() is None:
        kids = children()
        time.sleep(0.02)
    if os.cpu_count() < 2 or not kids:
        pytest.fail("the report started no figure worker (it forks one per extra core)")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    time.sleep(1.5)

    def alive(pid):
        try:
            return open(f"/proc/{pid}/stat").read().split()[2] != "Z"
        except OSError:
            return False
    left = [k for k in kids if alive(k)]
    for k in left:
        os.kill(k, signal.SIGKILL)
    assert left == []
