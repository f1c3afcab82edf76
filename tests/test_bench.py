"""``boardlab bench``: runs end to end on tiny sizes, writes JSON with every figure (no timing assertions)."""
import json

import pytest

from reports import bench
from reports.cli import main

hellas = pytest.importorskip("simcore.hellas")


def test_bench_cli_json_and_table(tmp_path, capsys):
    out = tmp_path / "bench.json"
    rc = main(["bench", "--game", "hellas", "--games", "300", "--ref-games", "2", "--repeats", "2",
               "--players", "3", "--json", str(out), "--quiet"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "µs/game" in text and "ref/kernel" in text and "efficiency" in text
    res = json.loads(out.read_text())
    assert res["machine"]["cpus_usable"] >= 1 and "loadavg" in res["machine"]
    (e,) = res["results"]
    assert (e["game"], e["players"]) == ("hellas", 3)
    for kind in ("random", "heuristic"):
        k = e[kind]
        us = k["us_per_game"]
        assert us["min"] <= us["median"] <= us["max"] and len(us["runs"]) == 2
        assert k["games_per_second"] > 0 and k["peak_alloc_bytes"] > 0
        assert abs(k["games_per_cpu_second"] * k["cpu_us_per_game"]["median"] / 1e6 - 1) < 1e-9
        assert k["reference"]["games"] == 2 and k["reference_ratio"] > 0
    run = e["runner"]
    assert set(run["workers"]) == {"1", "2"} and run["efficiency"] > 0
    assert all(w["peak_memory_bytes"] > 0 for w in run["workers"].values())


def test_game_without_heuristic_preset_is_reported(monkeypatch):
    import strategies

    def resolve(game, name):
        raise ValueError(f"unknown strategy '{name}' for {game} (known: random)")

    monkeypatch.setattr(strategies, "resolve", resolve)
    policy, why = bench.heuristic_policy("hellas")
    assert policy is None and "no heuristic preset 'balanced'" in why
    res = bench.run_bench(games=50, ref_games=1, repeats=1, game_names=["hellas"], players=[2], runner=False)
    assert res["results"][0]["heuristic"] == {"note": why}
    text = bench.format_tables(res)
    assert "no preset yet" in text and "no heuristic preset 'balanced' yet for: hellas" in text


def test_unknown_game_one_line_error(capsys):
    rc = main(["bench", "--game", "nope", "--no-runner", "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "unknown game 'nope'" in err[0]


def test_game_that_fails_to_import_is_skipped(monkeypatch):
    import simcore

    class Games(dict):
        def __getitem__(self, name):
            if name == "broken":
                raise ImportError("cannot import name 'C_FEATURES'")
            return super().__getitem__(name)

    monkeypatch.setattr(simcore, "games", Games(hellas=hellas, broken=None))
    res = bench.run_bench(games=50, ref_games=1, repeats=1, players=[2], runner=False)
    assert [e["game"] for e in res["results"]] == ["hellas"]
    assert "C_FEATURES" in res["skipped"]["broken"]
    assert "broken: not measured (ImportError" in bench.format_tables(res)
    with pytest.raises(ImportError):  # asked for by name: the error is the answer
        bench.run_bench(games=50, ref_games=1, repeats=1, game_names=["broken"], runner=False)


def test_tables_from_saved_json(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert main(["bench", "--game", "hellas", "--players", "2", "--games", "200", "--ref-games", "1",
                 "--repeats", "1", "--json", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert bench.format_tables(json.loads(out.read_text())) == printed.rstrip("\n")
