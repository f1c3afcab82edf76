"""The bench tools: bench/digest.py (the fingerprint showing a speed-up leaves the games as they were), bench_presets.py, branches.py, targets.py and ab.py."""
from pathlib import Path

import numpy as np
import pytest
from bench_scripts import load_bench

import simcore



_load = load_bench


digest_tool = _load("digest")
step_tool = _load("bench_step")
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
    r = presets_tool.strength("hellas", "balanced", 40)
    assert r["n"] == 40 and 0 <= r["lo"] <= r["share"] <= r["hi"] <= 1 and r["wins"] == pytest.approx(40 * r["share"])
    mirror = presets_tool.strength("hellas", "balanced", 40, opponent=__import__("strategies").resolve(
        "hellas", "balanced").as_policy())
    assert 0.2 < mirror["share"] < 0.8            # against itself, seats alternated: near one half


branches_tool = _load("branches")


def test_branches_reads_cachegrind_counts_onto_cython_lines(tmp_path):
    # a cachegrind file with lines of _engine.c and of another file, and the C
    # source with Cython's markers: counts land on the .pxi lines they came from
    cg = tmp_path / "cg.out"
    cg.write_text("events: Ir Bc Bcm Bi Bim\nfl=/x/simcore/hellas/_engine.c\nfn=f\n3 10 2 1 0 0\n5 7 1 1 0 0\n"
                  "fl=/usr/lib/libc.c\nfn=g\n3 100 9 9 0 0\nsummary: 117 12 11 0 0\n")
    totals, per = branches_tool.parse(cg)
    assert totals["Ir"] == 117 and totals["Bcm"] == 11
    assert dict(per) == {3: {"Ir": 10, "Bc": 2, "Bcm": 1, "Bi": 0, "Bim": 0},
                         5: {"Ir": 7, "Bc": 1, "Bcm": 1, "Bi": 0, "Bim": 0}}
    csrc = tmp_path / "_engine.c"
    csrc.write_text('/* "simcore/hellas/_policy.pxi":40\n * x\n */\nint a;\n/* "simcore/hellas/_rules.pxi":7\n */\n')
    mp = branches_tool.source_lines(csrc)
    assert mp[1] == mp[3] == ("simcore/hellas/_policy.pxi", 40)
    assert mp[4] == ("simcore/hellas/_policy.pxi", 40) and mp[5] == ("simcore/hellas/_rules.pxi", 7)
    with pytest.raises(SystemExit):
        branches_tool.main(["hellas", "-n", "0"])


def test_branches_cache_option_reads_the_l1_misses(tmp_path, capsys):
    # with --cache, cachegrind's file carries the cache events too; they land on the lines likewise
    cg = tmp_path / "cg.out"
    cg.write_text("events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n"
                  "fl=/x/simcore/hellas/_engine.c\nfn=f\n3 10 2 0 4 1 0 2 1 0 3 1 0 0\n"
                  "summary: 10 2 0 4 1 0 2 1 0 3 1 0 0\n")
    totals, per = branches_tool.parse(cg)
    assert totals["I1mr"] == 2 and totals["D1mr"] == 1 and totals["D1mw"] == 1 and per[3]["Bcm"] == 1
    for argv in (["hellas", "--cache", "24"], ["hellas", "--sort", "I1mr"]):
        with pytest.raises(SystemExit) as e:
            branches_tool.main(argv)
        assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--cache must be a power of two" in err and "--sort I1mr needs --cache" in err


targets_tool = _load("targets")


def test_targets_times_another_checkout_alternating(capsys):
    # the repository against itself: both builds are the same, so every pair's ratio is near 1
    root = Path(__file__).parents[1]
    targets_tool.main(["akrotiri", "-r", "1", "--against", str(root)])
    out = capsys.readouterr().out
    assert "akrotiri 2p balanced (" in out and " build): CPU µs/game median" in out
    ratio = float(out.split("per pair median ")[1].split("x")[0])
    assert 0.3 < ratio < 3.0
    with pytest.raises(SystemExit):
        targets_tool.main(["akrotiri", "--against", str(root / "bench")])


def test_targets_names_the_build_and_times_the_other_one(capsys):
    targets_tool.main(["akrotiri", "-r", "1", "--against-isa", "baseline"])
    out = capsys.readouterr().out
    build = out.split("akrotiri 2p balanced (")[1].split(" build)")[0]
    assert build in ("baseline", "x86-64-v3")
    assert "alternating with the baseline build, 1 pairs of batches" in out
    with pytest.raises(SystemExit):
        targets_tool.main(["akrotiri", "--against-isa", "avx9000"])


ab_tool = _load("ab")


def test_ab_times_a_build_against_itself(capsys):
    # the same checkout twice: both copies play the same games and run at about the same speed
    root = Path(__file__).parents[1]
    ratios = ab_tool.run("hellas", str(root), str(root), games=20, pairs=4)
    assert len(ratios) == 4 and all(0.3 < r < 3.0 for r in ratios)
    out = capsys.readouterr().out
    assert "hellas 3p balanced, 4 pairs of 20-game batches" in out and "same games on the first batch" in out
    assert "old/new per pair: median " in out and "fast half (old < " in out and "slow half: " in out


def test_ab_refuses_bad_arguments_in_one_line(capsys, tmp_path):
    root = Path(__file__).parents[1]
    for argv, why in ((["nogame", str(root), str(root)], "unknown game 'nogame'"),
                      (["hellas", str(tmp_path / "none"), str(root)], "no such file or folder"),
                      (["hellas", str(root / "bench"), str(root)], "not a boardlab checkout")):
        with pytest.raises(SystemExit) as e:
            ab_tool.main(argv)
        assert str(e.value).startswith("ab.py: ") and why in str(e.value) and "\n" not in str(e.value)
    # two results that differ in one column are named by it
    a = {"games": {"x": np.zeros(3, np.int8)}, "players": {"y": np.ones((3, 2), np.int16)}}
    b = {"games": {"x": np.zeros(3, np.int8)}, "players": {"y": np.zeros((3, 2), np.int16)}}
    assert ab_tool.difference(a, a) is None and ab_tool.difference(a, b) == "players/y"


def test_bench_step_times_every_game_and_refuses_bad_arguments(capsys, tmp_path):
    assert step_tool.main(["--games", "1", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines()[2:]]
    assert sorted((r[0], int(r[1])) for r in rows) == sorted(
        (name, p) for name in simcore.games for p in simcore.games[name].PLAYERS)
    assert all(int(r[2]) > 0 and float(r[3]) > 0 for r in rows)
    assert step_tool.main(["--games", "0"]) == 2
    assert step_tool.main(["--against", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "--games and --repeats must be >= 1" in err and "not a checkout" in err


def test_bench_mcts_prints_the_cost_ratio_per_game():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, str(root / "bench" / "bench_mcts.py"), "--iterations", "20",
                          "--positions", "1", "--repeats", "1"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("mcts:iterations=20 ") and "load" in lines[0]
    assert lines[1].split()[:3] == ["game", "players", "us/iteration"]
    rows = {line.split()[0]: (float(line.split()[4]), line.split()[5]) for line in lines[2:]}
    assert set(simcore_games()) <= set(rows) and all(r > 0 for r, _ in rows.values())
    assert all(v == ("met" if r <= 1.5 else "missed") for r, v in rows.values())


def simcore_games():
    import simcore
    return [g for g in simcore.games if hasattr(simcore.games[g], "game_ops")]


def test_bench_pipeline_prints_each_step(capsys):
    """bench/bench_pipeline.py runs simulate then report on tiny runs and prints their figures (medians of pairs)."""
    assert _load("bench_pipeline").main(["--sizes", "300,600", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "report/sim" in out and "       300 " in out and "       600 " in out
    assert out.count("over 2 pairs)") == 2
    assert "300 -> 600 games (x2): report wall x" in out
