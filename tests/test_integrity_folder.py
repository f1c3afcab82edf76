"""Issue 34, results folders: one writer at a time, parts that say whose they are, checksums checked.

Each case of the issue is reproduced: a second writer, a chunk of a seed-2 run
copied into a seed-1 folder, a manifest edited to another player count, a part
with corrupt data pages. Resume, ``report``, ``replay``, ``regress`` and
``boardlab check`` refuse them with one line naming the part and what to do.
"""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from reports.cli import main
from simcore import _results as R
from simcore.run import RunMismatch, lock_folder, simulate, unlock_folder

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _run(out, seed=1, games=3000, **kw):
    return simulate("hellas", players=3, games=games, seed=seed, out=str(out), chunk_size=1000, workers=1,
                    progress=False, **kw)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    _run(base / "s1", seed=1)
    _run(base / "s2", seed=2)
    return base


def _copy(runs, tmp_path, name="s1"):
    import shutil
    dst = tmp_path / name
    shutil.copytree(runs / name, dst)
    return dst


def _one_error(argv, capsys, *words):
    rc = main([str(a) for a in argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("boardlab: error: "), err
    for w in words:
        assert w in err[0], err[0]
    return err[0]


def test_a_part_carries_its_run_identity_and_the_manifest_its_checksum(runs):
    m = json.load(open(runs / "s1" / "manifest.json"))
    assert len(m["parts"]) == 9                   # 3 chunks x 3 tables
    entry = m["parts"]["players/part-00001.parquet"]
    path = runs / "s1" / "players" / "part-00001.parquet"
    assert entry["sha256"] == R.file_sha256(path) and entry["bytes"] == os.path.getsize(path)
    assert entry["rows"] == 3000 and entry["chunk"] == 1
    ident = R.read_identity(path)
    assert ident["run_id"] == m["run_id"] and ident["seed"] == 1 and ident["chunk"] == 1
    assert ident["table"] == "players" and len(ident["config_hash"]) == 16
    # the config hash does not depend on the seed; the run id does
    assert R.read_identity(runs / "s2" / "players" / "part-00001.parquet")["config_hash"] == ident["config_hash"]
    assert json.load(open(runs / "s2" / "manifest.json"))["run_id"] != m["run_id"]


def test_check_passes_a_whole_folder(runs, capsys):
    assert main(["check", str(runs / "s1")]) == 0
    out = capsys.readouterr().out
    assert "3 of 3 chunks finished (complete), 0 problems" in out


def test_a_second_writer_is_refused_and_the_lock_dies_with_its_holder(tmp_path):
    out = tmp_path / "run"
    fd = lock_folder(str(out))
    try:
        with pytest.raises(RunMismatch, match=f"being written by another boardlab process \\(pid {os.getpid()}\\)"):
            _run(out)
    finally:
        unlock_folder(fd)
    # a holder killed with SIGKILL: the operating system releases its lock
    code = f"import sys, time; sys.path.insert(0, {ROOT!r}); from simcore.run import lock_folder; " \
           f"lock_folder({str(out)!r}); print('locked', flush=True); time.sleep(60)"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(RunMismatch, match=f"pid {proc.pid}"):
            _run(out)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert _run(out).games == 3000


def test_two_simulate_commands_on_one_folder_do_not_both_play(tmp_path):
    """The issue's case: two resumes of one folder at once. The second is refused while the first plays."""
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "reports.cli", "simulate", "hellas", "--players", "2", "--games", "400",
            "--seed", "1", "--out", str(out), "--no-progress", "--workers", "1",
            "--seat-strategies", "mcts:iterations=300,random"]
    first = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while not os.path.exists(out / "manifest.json") and time.time() < deadline:
            time.sleep(0.05)
        second = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert second.returncode == 2 and "Traceback" not in second.stderr
        assert f"being written by another boardlab process (pid {first.pid})" in second.stderr
        assert second.stderr.count("\n") == 1
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)


def test_a_chunk_copied_from_another_run_is_refused_everywhere(runs, tmp_path, capsys):
    import shutil
    out = _copy(runs, tmp_path)
    shutil.copy(runs / "s2" / "players" / "part-00001.parquet", out / "players" / "part-00001.parquet")
    part = "players/part-00001.parquet"
    _one_error(["report", out, "--out", tmp_path / "rep"], capsys, part, "checksum", "delete it")
    _one_error(["replay", out, "--game", "1500", "--quiet"], capsys, part, "checksum")
    with pytest.raises(RunMismatch, match="part-00001.parquet does not match its checksum"):
        _run(out)
    assert main(["check", str(out)]) == 1
    printed = capsys.readouterr().out
    assert f"problem: part {part} " in printed and "2 of 3 chunks finished" in printed
    # the way out the message gives: delete the part, rerun; the folder equals the original again
    os.unlink(out / part)
    res = _run(out)
    assert res.games_run == 1000 and main(["check", str(out)]) == 0
    assert R.file_sha256(out / part) == R.file_sha256(runs / "s1" / part)


def test_a_foreign_part_with_matching_checksum_entry_is_told_by_its_identity(runs, tmp_path, capsys):
    """A liar who also copies the checksum entry: the part's identity still names the other run."""
    import shutil
    out = _copy(runs, tmp_path)
    part = "games/part-00002.parquet"
    shutil.copy(runs / "s2" / part, out / part)
    m = json.load(open(out / "manifest.json"))
    m["parts"][part] = json.load(open(runs / "s2" / "manifest.json"))["parts"][part]
    json.dump(m, open(out / "manifest.json", "w"))
    assert main(["check", str(out)]) == 1
    assert "belongs to another run or chunk (run_id" in capsys.readouterr().out


def test_an_edited_manifest_is_not_reported_on(runs, tmp_path, capsys):
    for key, value in (("players", 4), ("game", "yamatai"), ("seed", 7)):
        out = _copy(runs, tmp_path, "s1")
        m = json.load(open(out / "manifest.json"))
        m[key] = value
        if key == "players":
            m["strategies"].append(m["strategies"][0])
        json.dump(m, open(out / "manifest.json", "w"))
        _one_error(["report", out, "--out", tmp_path / "rep"], capsys, "edited")
        _one_error(["replay", out, "--game", "3", "--quiet"], capsys, "manifest was edited")
        _one_error(["check", out], capsys, "manifest was edited")
        import shutil
        shutil.rmtree(out)


def test_corrupt_data_pages_are_one_line_errors(runs, tmp_path, capsys):
    out = _copy(runs, tmp_path)
    path = out / "players" / "part-00002.parquet"
    data = bytearray(path.read_bytes())
    for i in range(200, 2000, 7):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))
    _one_error(["report", out, "--out", tmp_path / "rep"], capsys, "players/part-00002.parquet")
    _one_error(["replay", out, "--game", "2500", "--quiet"], capsys, "players/part-00002.parquet")
    assert main(["check", str(out)]) == 1
    assert "players/part-00002.parquet" in capsys.readouterr().out


def test_a_part_the_manifest_does_not_list_is_played_again(runs, tmp_path):
    """A writer killed between its part and the manifest: the part is unknown, so its chunk is replayed."""
    out = _copy(runs, tmp_path)
    m = json.load(open(out / "manifest.json"))
    for t in ("games", "players", "events"):
        del m["parts"][f"{t}/part-00000.parquet"]
    m["status"] = "interrupted"
    json.dump(m, open(out / "manifest.json", "w"))
    res = _run(out)
    assert res.games_run == 1000 and res.games == 3000
    assert json.load(open(out / "manifest.json"))["parts"] == json.load(open(runs / "s1" / "manifest.json"))["parts"]


def test_temporary_and_stray_files_are_reported_by_check(runs, tmp_path, capsys):
    out = _copy(runs, tmp_path)
    (out / "games" / f".part-00000.parquet{R.TMP_MARK}1-abc").write_bytes(b"x")
    (out / "players" / "part-00007.parquet").write_bytes(b"x")
    assert main(["check", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "temporary file" in printed and "players/part-00007.parquet is not a part of this run" in printed


def test_check_of_no_results_folder_is_a_one_line_error(tmp_path, capsys):
    _one_error(["check", tmp_path / "none"], capsys, "no such results folder")
    (tmp_path / "empty").mkdir()
    _one_error(["check", tmp_path / "empty"], capsys, "no manifest.json")
