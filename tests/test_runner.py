"""The generic runner: determinism across pools and chunking, resume, refusal, loading.

The runner is tested against ``fakegame``, a tiny vectorised game defined in
this file that follows the game-module contract (``PLAYERS``, ``make_config``,
``play_batch``, ``replay_game``, ``SCORE_CATEGORIES``). Worker processes find
it by module name (``test_runner``), so it is registered in ``simcore.games``
for the test process only. Tests against the real Hellas engine run when it
is built.
"""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import polars as pl
import pytest

import simcore
from simcore import run as simrun
from simcore._contract import random_strategy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# ---------------------------------------------------------------- the fake game

PLAYERS = (2, 3, 4)
SCORE_CATEGORIES = ("city", "marble")
TIE_RULE = "tied players share the win (1/k each)"
_SETTINGS = {"bonus": 0, "delay": 0.0, "crash_once": ""}


class FakeConfig:
    def __init__(self, players, **settings):
        self.players = players
        self._s = dict(_SETTINGS)
        for key, value in settings.items():
            if key not in _SETTINGS:
                raise ValueError(f"unknown setting '{key}' for fakegame (known: {', '.join(_SETTINGS)})")
            self._s[key] = type(_SETTINGS[key])(value)

    def settings(self):
        return {"players": self.players, **self._s}

    def data_status(self):
        return {"tiles": "built in"}


def make_config(players, **variant):
    return FakeConfig(players, **variant)


def _mix(x):
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def play_batch(players, seeds, policies=None, config=None, events=True):
    config = config or FakeConfig(players)
    s = config._s
    if s["delay"]:
        time.sleep(float(s["delay"]))
    if s["crash_once"] and not os.path.exists(s["crash_once"]):
        open(s["crash_once"], "w").close()
        os.kill(os.getpid(), signal.SIGKILL)  # a worker dies mid-run
    seeds = np.asarray(seeds, dtype=np.uint64)
    g = len(seeds)
    seat = np.arange(players, dtype=np.uint64)
    with np.errstate(over="ignore"):
        h = _mix(seeds[:, None] + seat[None, :] * np.uint64(0x9E3779B97F4A7C15))
    city = (h % np.uint64(12)).astype(np.int8) + np.int8(s["bonus"])
    marble = ((h >> np.uint64(8)) % np.uint64(5)).astype(np.int8)
    total = (city + marble).astype(np.int16)
    best = total.max(axis=1, keepdims=True)
    won = total == best
    n_win = won.sum(axis=1).astype(np.int8)
    rank = (1 + (total[:, None, :] > total[:, :, None]).sum(axis=2)).astype(np.int8)
    winners = (won.astype(np.uint8) << np.arange(players, dtype=np.uint8)).sum(axis=1).astype(np.uint8)
    n_ev = ((seeds >> np.uint64(40)) % np.uint64(4)).astype(np.int64)
    game = np.repeat(np.arange(g, dtype=np.int32), n_ev)
    e = len(game)
    pos = np.arange(e) - np.repeat(np.cumsum(n_ev) - n_ev, n_ev)  # event number within its game
    with np.errstate(over="ignore"):
        eh = _mix(seeds[game][:, None] + (pos[:, None] * players + np.arange(players)).astype(np.uint64))
    yields = (eh % np.uint64(3)).astype(np.int8)
    out = {
        "games": {"seed": seeds, "start_player": (seeds % np.uint64(players)).astype(np.int8),
                  "rounds": np.full(g, 3, np.int8), "winners": winners, "n_winners": n_win},
        "players": {"city": city, "marble": marble, "total": total, "rank": rank,
                    "win_share": (won / n_win[:, None]).astype(np.float32)},
        "events": {"game": game, "round": (pos % 3).astype(np.int8),
                   "seat": ((seeds[game] >> np.uint64(5)) % np.uint64(players)).astype(np.int8),
                   "yields": yields},
    }
    if not events:
        out["events"] = {k: v[:0] for k, v in out["events"].items()}
    return out


class FakeState:
    def __init__(self, players, seed, config):
        self.out = play_batch(players, np.array([seed], dtype=np.uint64), config=config)

    def scores(self):
        p = self.out["players"]
        return {"city": p["city"][0].tolist(), "marble": p["marble"][0].tolist(),
                "total": p["total"][0].tolist()}

    def transcript(self):
        return [{"text": f"seat {i} scores {t}"} for i, t in enumerate(self.scores()["total"])]


def replay_game(players, seed, policies=None, config=None):
    return FakeState(players, seed, config)


@pytest.fixture
def fakegame(monkeypatch):
    """Register this module as game 'fakegame' (for this process; workers import it by name)."""
    module = sys.modules[__name__]
    monkeypatch.setattr(simcore, "games", {"fakegame": module})
    monkeypatch.syspath_prepend(HERE)
    return "fakegame"


def _hellas_built():
    try:
        return hasattr(simcore.get_game("hellas"), "play_batch")
    except Exception:
        return False


# the fake game, a compiled engine (Hellas), and every game registered from outside
# boardlab (tests/extra_games: written against the contract alone, in pure Python)
RUNNER_GAMES = ["fakegame", "hellas"] + [g for g in simcore.game_packages() if g not in simcore.BUILTIN_GAMES]


@pytest.fixture(params=RUNNER_GAMES)
def game(request, monkeypatch):
    """The fake game, the real Hellas engine once it is built, and the extra games."""
    if request.param not in ("hellas", "fakegame"):
        return request.param
    if request.param == "hellas":
        if not _hellas_built():
            pytest.skip("simcore.hellas is not built yet")
        return "hellas"
    return request.getfixturevalue("fakegame")


def _tables(out):
    from analysis import load_run

    run = load_run(out)
    return {t: getattr(run, t).collect() for t in ("games", "players", "events")}


def _assert_same(a, b):
    for t in ("games", "players", "events"):
        assert a[t].equals(b[t]), t


def _sim(game, out, **kw):
    kw.setdefault("players", 3)
    kw.setdefault("games", 500)
    kw.setdefault("seed", 7)
    kw.setdefault("progress", False)
    return simrun.simulate(game, out=str(out), **kw)


# ---------------------------------------------------------------- tests

def test_tables_shape_and_types(fakegame, tmp_path):
    res = _sim(fakegame, tmp_path / "r", games=300, chunk_size=128, workers=1)
    assert res.games == 300 and res.chunks_run == 3
    t = _tables(tmp_path / "r")
    g, p, e = t["games"], t["players"], t["events"]
    assert g.height == 300 and p.height == 900
    assert g["game_index"].to_list() == list(range(300))
    assert g.schema["game_index"] == pl.Int32 and g.schema["seed"] == pl.UInt64
    assert p.schema["seat"] == pl.Int8 and p.schema["city"] == pl.Int8
    assert p.schema["win_share"] == pl.Float32
    assert {"yields_0", "yields_1", "yields_2"} <= set(e.columns) and "game" not in e.columns
    assert g["seed"].to_list() == simcore.rng.game_seeds(7, 0, 300).tolist()
    # ties count 1/k: win shares of a game sum to one
    sums = p.group_by("game_index").agg(pl.col("win_share").sum())["win_share"]
    assert np.allclose(sums.to_numpy(), 1.0)
    assert abs(sum(res.win_share) - 300) < 1e-6
    assert len(set(g["seed"].to_list())) == 300  # not all games share one seed
    man = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert man["status"] == "complete" and man["chunking"]["n_chunks"] == 3
    assert man["strategies"][0]["name"] == "random" and man["games_per_second"] > 0
    assert os.path.exists(tmp_path / "r" / "games" / "part-00002.parquet")


def test_determinism_workers_chunks_backends(game, tmp_path):
    base = _tables(_sim(game, tmp_path / "a", workers=1, chunk_size=500).out)
    assert base["events"].height > 0
    for name, kw in {"loky2": dict(workers=2, chunk_size=77),
                     "threads": dict(workers=2, chunk_size=200, backend="threading"),
                     "loky_default": dict(workers=2)}.items():
        _assert_same(base, _tables(_sim(game, tmp_path / name, **kw).out))


def test_determinism_dask_localcluster(game, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    base = _tables(_sim(game, tmp_path / "a", workers=1, games=200).out)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        out = _sim(game, tmp_path / "d", games=200, chunk_size=60,
                   scheduler=cluster.scheduler_address).out
    _assert_same(base, _tables(out))


def test_resume_partial_gives_same_tables(game, tmp_path):
    full = _tables(_sim(game, tmp_path / "full", workers=1, chunk_size=100).out)
    part = _sim(game, tmp_path / "p", workers=1, chunk_size=100, max_chunks=2)
    assert part.games == 200
    assert json.loads((tmp_path / "p" / "manifest.json").read_text())["status"] == "partial"
    # a stray half-written temp file must be ignored and removed
    stray = tmp_path / "p" / "games" / ".part-00003.parquet.tmp-1-abc"
    stray.write_bytes(b"PAR1 half")
    res = _sim(game, tmp_path / "p", workers=2)  # chunk size taken from the folder
    assert res.resumed and res.games_run == 300 and res.games == 500
    assert not stray.exists()
    _assert_same(full, _tables(tmp_path / "p"))


def test_manifest_mismatch_refused(fakegame, tmp_path):
    _sim(fakegame, tmp_path / "r", games=100, workers=1)
    for kw, word in [(dict(seed=8), "seed"), (dict(games=200), "games"),
                     (dict(players=2), "players"), (dict(variant=["bonus=1"]), "settings"),
                     (dict(chunk_size=10), "chunk size")]:
        args = dict(games=100, workers=1)
        args.update(kw)
        with pytest.raises(simrun.RunMismatch, match=word):
            _sim(fakegame, tmp_path / "r", **args)
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "x.txt").write_text("x")
    with pytest.raises(simrun.RunMismatch, match="no manifest"):
        _sim(fakegame, tmp_path / "junk", games=10, workers=1)


def test_bad_arguments(fakegame, tmp_path):
    for kw, msg in [(dict(players=5), "2, 3, 4 players"), (dict(games=0), "positive"),
                    (dict(games=-3), "positive"),
                    (dict(variant=["colour=red"]), "unknown setting 'colour'"),
                    (dict(variant=["oops"]), "KEY=VALUE"),
                    (dict(strategies=[random_strategy(fakegame)]), "one per seat"),
                    (dict(strategies=[random_strategy("hellas")] * 3), "is for hellas, not fakegame"),
                    (dict(strategies=[{**random_strategy(fakegame), "kind": "oracle"}] * 3), "unknown kind 'oracle'")]:
        with pytest.raises(ValueError, match=msg):
            _sim(fakegame, tmp_path / "x", **kw)
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        _sim("nope", tmp_path / "x")


def test_load_run_errors(fakegame, tmp_path):
    from analysis import load_run

    with pytest.raises(ValueError, match="missing: no such results folder"):
        load_run(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="empty: no manifest"):
        load_run(tmp_path / "empty")
    out = _sim(fakegame, tmp_path / "r", games=300, chunk_size=100, workers=1).out
    run = load_run(out)
    assert run.manifest["games"] == 300 and run.games.collect().height == 300
    part = tmp_path / "r" / "players" / "part-00001.parquet"
    part.write_bytes(part.read_bytes()[:100])  # truncated: a later read must not accept it
    with pytest.raises(ValueError, match="part-00001"):
        load_run(out)
    os.unlink(part)
    with pytest.raises(ValueError, match="incomplete"):
        load_run(out)
    (tmp_path / "r" / "manifest.json").write_text("{not json")
    with pytest.raises(ValueError, match="manifest"):
        load_run(out)


def test_analysis_does_not_import_simcore():
    code = "import sys, analysis; analysis.load_run; assert 'simcore' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": ROOT})


def test_replay_matches_stored(fakegame, tmp_path):
    out = _sim(fakegame, tmp_path / "r", games=50, workers=1).out
    rep = simrun.replay(out, 17)
    assert rep["mismatches"] == [] and rep["stored"] is not None
    assert [r["total"] for r in rep["stored"]] == rep["scores"]["total"]


def _cli(args, extra_env=None):
    """Run the CLI in a fresh process with fakegame registered."""
    code = ("import sys, simcore, test_runner; simcore.games = {'fakegame': test_runner}; "
            "from reports.cli import main; sys.exit(main(sys.argv[1:]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, HERE]), **(extra_env or {})}
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _descendants(pid):
    """Process ids below ``pid`` (Linux /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def test_kill_parent_then_resume(fakegame, tmp_path):
    out = tmp_path / "k"
    args = ["simulate", "fakegame", "--players", "3", "--games", "1200", "--chunk-size", "100",
            "--seed", "7", "--workers", "2", "--variant", "delay=0.15", "--out", str(out)]
    proc = _cli(args)
    deadline = time.time() + 60
    while time.time() < deadline:
        if len(list((out / "games").glob("part-*.parquet"))) >= 3 if (out / "games").exists() else False:
            break
        time.sleep(0.05)
    workers = _descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(0.3)  # orphaned workers may still finish the chunk in hand (atomically)
    done = len(list((out / "games").glob("part-*.parquet")))
    assert 3 <= done < 12
    for pid in workers:  # do not leave the orphans to their idle timeout
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    proc = _cli(args)
    _, err = proc.communicate(timeout=90)
    assert proc.returncode == 0, err
    full = _sim(fakegame, tmp_path / "full", games=1200, variant=["delay=0.15"], chunk_size=1200, workers=1)
    _assert_same(_tables(full.out), _tables(out))


def test_killed_worker_then_resume(fakegame, tmp_path):
    out = tmp_path / "w"
    flag = tmp_path / "crashed"
    args = ["simulate", "fakegame", "--players", "2", "--games", "400", "--chunk-size", "100",
            "--seed", "3", "--workers", "2", "--variant", f"crash_once={flag}", "--out", str(out)]
    proc = _cli(args)
    _, err = proc.communicate(timeout=90)
    assert proc.returncode != 0 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("boardlab: error:")
    proc = _cli(args)
    _, err = proc.communicate(timeout=90)
    assert proc.returncode == 0, err
    full = _sim(fakegame, tmp_path / "full", players=2, games=400, seed=3,
                variant=[f"crash_once={flag}"], workers=1, chunk_size=100)
    _assert_same(_tables(full.out), _tables(out))


# ---------------------------------------------------------------- the real engine

@pytest.mark.skipif(not _hellas_built(), reason="simcore.hellas is not built yet")
def test_hellas_determinism_and_replay(tmp_path):
    a = _tables(_sim("hellas", tmp_path / "a", games=60, chunk_size=60, workers=1).out)
    b = _tables(_sim("hellas", tmp_path / "b", games=60, chunk_size=25, workers=2,
                     backend="threading").out)
    _assert_same(a, b)
    assert a["players"].height == 180
    rep = simrun.replay(str(tmp_path / "a"), 42)
    assert rep["mismatches"] == []


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 + 5, 2**64 - 1, 2**200 + 11])
def test_chunk_seeds_equal_seedsequence(seed):
    from simcore.rng import game_seeds

    for a, b in ((0, 300), (123_456, 123_556), (2**32 - 40, 2**32)):
        assert np.array_equal(simcore.rng.chunk_seeds(seed, a, b), game_seeds(seed, a, b))
    assert simcore.rng._seedsequence_vectorised(seed, 5, 6)[0] == np.random.SeedSequence(
        seed, spawn_key=(5,)).generate_state(1, dtype=np.uint64)[0]


def test_ctrl_c_keeps_chunks_and_exits_130(fakegame, tmp_path):
    out = tmp_path / "c"
    code = ("import sys, simcore, test_runner; simcore.games = {'fakegame': test_runner}; "
            "from reports.cli import main; sys.exit(main(sys.argv[1:]))")
    args = ["simulate", "fakegame", "--players", "3", "--games", "2000", "--chunk-size", "100",
            "--seed", "1", "--workers", "2", "--variant", "delay=0.2", "--out", str(out)]
    proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, HERE])},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while time.time() < deadline and len(list(out.glob("games/part-*.parquet"))) < 2:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1].startswith("boardlab: interrupted") and "Traceback" not in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    from analysis import load_run

    with pytest.raises(ValueError, match="incomplete"):
        load_run(out)
    part = load_run(out, allow_partial=True)
    assert 0 < part.games.collect().height < 2000
