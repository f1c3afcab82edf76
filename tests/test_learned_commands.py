"""The learned strategy and the search with the model as prior in the commands left to check: runs
through the dask backend, ``regress`` and ``tune`` (issue 32, item 3c)."""
import glob
import hashlib
import json
import shutil

import polars as pl
import pytest

import strategies
from reports.cli import main
from simcore.run import simulate
from strategies.learned import shipped

PRIOR = "mcts:iterations=6,prior=learned"


def _sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def _tables(folder):
    out = {}
    for t in ("games", "players"):
        df = pl.concat([pl.read_parquet(f) for f in sorted(glob.glob(f"{folder}/{t}/*.parquet"))])
        keys = ["game_index"] + (["seat"] if "seat" in df.columns else [])
        out[t] = df.drop([c for c in ("run_id",) if c in df.columns]).sort(keys)
    return out


def _one_line_error(rc, err, *words):
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and lines[0].startswith("boardlab: error: "), err
    for w in words:
        assert w in lines[0], lines[0]


def test_learned_seats_through_one_worker_loky_and_dask_give_the_same_tables(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    seats = [strategies.resolve("hellas", "learned").to_dict(), strategies.resolve("hellas", PRIOR).to_dict()]
    simulate("hellas", 2, 24, 5, str(tmp_path / "one"), strategies=seats, workers=1, progress=False)
    simulate("hellas", 2, 24, 5, str(tmp_path / "loky"), strategies=seats, workers=2, chunk_size=5,
             progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        simulate("hellas", 2, 24, 5, str(tmp_path / "dask"), strategies=seats, chunk_size=7,
                 scheduler=cluster.scheduler_address, progress=False)
    base = _tables(tmp_path / "one")
    for other in ("loky", "dask"):
        t = _tables(tmp_path / other)
        for name in base:
            assert base[name].equals(t[name]), (other, name)
    model = shipped("hellas")[2]
    man = json.loads((tmp_path / "dask" / "manifest.json").read_text())
    assert man["strategies"][0]["models"]["2"]["sha256"] == _sha(model)
    assert man["strategies"][1]["prior"]["models"]["2"]["sha256"] == _sha(model)


def test_regress_with_learned_seats_records_the_model_and_names_its_change(tmp_path, capsys):
    model = tmp_path / "m.json"
    shutil.copy(shipped("hellas")[2], model)
    base = tmp_path / "b.json"
    names = f"learned:{model},mcts:iterations=6,prior=learned:{model}"
    rc = main(["regress", str(base), "--update", "--game", "hellas", "--players", "2", "--seat-strategies", names,
               "--games", "16", "--seed", "3"])
    assert rc == 0, capsys.readouterr().err
    doc = json.loads(base.read_text())
    seats = doc["resolved"]["strategies"]
    assert seats[0]["models"]["2"]["sha256"] == _sha(model)
    assert seats[1]["prior"]["models"]["2"]["sha256"] == _sha(model)
    capsys.readouterr()
    for workers in ("1", "2"):
        rc = main(["regress", str(base), "--workers", workers])
        out = capsys.readouterr().out
        assert rc == 0 and "identical" in out, out
    # another model in the same file: the check reruns with it and says which hash changed
    m = json.loads(model.read_text())
    m["w2"] = [-w for w in m["w2"]]                 # the model now prefers what it avoided
    model.write_text(json.dumps(m))
    main(["regress", str(base)])
    out = capsys.readouterr().out
    assert "identical:" not in out and "seat 0 strategy" in out and "models.2.sha256" in out, out


def test_tune_against_a_learned_field_records_the_model_and_refuses_it_as_start(tmp_path, capsys):
    outs = []
    for k in range(2):
        out = tmp_path / f"hellas_t{k}.toml"
        rc = main(["tune", "hellas", "--players", "2", "--field", f"learned,{PRIOR}", "--budget", "120",
                   "--population", "4", "--games", "8", "--seed", "4", "--out", str(out)])
        assert rc == 0, capsys.readouterr().err
        outs.append(out.read_text())
    assert outs[0] == outs[1]                                   # deterministic from its seed
    sha = _sha(shipped("hellas")[2])
    assert f"# learned uses the model" in outs[0] and f"{PRIOR} uses the model" in outs[0] and sha in outs[0]
    strategies.load_presets(tmp_path / "hellas_t0.toml", "hellas")
    capsys.readouterr()
    for flag in ("--start", "--imitate"):
        rc = main(["tune", "hellas", "--players", "2", flag, "learned", "--out", str(tmp_path / "x.toml")])
        _one_line_error(rc, capsys.readouterr().err, f"{flag} learned", "heuristic preset's weights")
    assert not (tmp_path / "x.toml").exists()


def test_tune_imitates_the_search_the_model_guides(tmp_path, capsys):
    out = tmp_path / "hellas_i.toml"
    rc = main(["tune", "hellas", "--players", "2", "--imitate", PRIOR, "--positions", "120", "--eval-games", "0",
               "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    text = out.read_text()
    assert f"{PRIOR} uses the model" in text and _sha(shipped("hellas")[2]) in text
    assert "imitated" in strategies.load_presets(out, "hellas")


def test_balance_with_a_learned_seat_records_the_model(tmp_path, capsys):
    out = tmp_path / "b.json"
    rc = main(["balance", "hellas", "--players", "2", "--strategy", "learned", "--budget", "600", "--verify", "400",
               "--json", str(out), "--out", str(tmp_path / "rep")])
    assert rc == 0, capsys.readouterr().err
    sha = _sha(shipped("hellas")[2])
    assert json.loads(out.read_text())["strategy_dict"]["models"]["2"]["sha256"] == sha
    assert f"sha256 {sha}" in (tmp_path / "rep" / "report.md").read_text()
