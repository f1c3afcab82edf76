"""train --also: an earlier model's positions added to this run's (strategies/train.py)."""
import json

import numpy as np
import pytest

from reports.cli import main
from strategies import train


def _small(monkeypatch):
    monkeypatch.setattr(train, "CHUNK_GAMES", 1)


def _chunks(folder):
    return train._stack([dict(np.load(c)) for c in sorted(folder.glob("chunk-*.npz"))])


def test_also_adds_the_earlier_positions_before_this_runs_and_reproduces(tmp_path, monkeypatch):
    _small(monkeypatch)
    kw = dict(teacher="balanced", progress=False, log=None, hidden=4, steps=2, batch=8)
    this = dict(positions=100, seed=4, play="quarry_baron", label=0.1, **kw)
    first = tmp_path / "first.json"
    m1 = train.train("hellas", 2, positions=60, seed=3, out=first, play="city_builder", label=0.1, **kw)
    mp = train.manifest_path(first)
    out = tmp_path / "hellas-2p.json"
    m2 = train.train("hellas", 2, out=out, also=(str(mp),), **this)
    # the earlier set is played again from its manifest's settings: the same positions as its own run
    old = _chunks(tmp_path / "first.json.chunks")
    again = _chunks(tmp_path / "hellas-2p.json.chunks" / "also-1")
    for k in ("act", "state", "visits", "best", "sizes", "game", "seat", "win"):
        assert np.array_equal(old[k], again[k])
    own = _chunks(tmp_path / "hellas-2p.json.chunks")
    assert m2["positions"] == m1["positions"] + len(own["sizes"]) and m2["games"] == m1["games"] + len(
        np.unique(own["game"]))
    assert m2["also"] == [{"manifest": str(mp), "play": "city_builder", "label": 0.1, "positions_asked": 60,
                           "seed": 3, "games": m1["games"], "positions": m1["positions"],
                           "teacher_cpu_seconds": m2["also"][0]["teacher_cpu_seconds"]}]
    assert m2["reproduce"].endswith(f"--also {mp} --out {out}")
    # the held-out games (the last fifth of the union's) are this run's last ones
    n = m2["games"]
    held = n - int(np.floor(n * (1 - train.HOLDOUT)))
    assert m1["games"] >= 2 and 1 <= held < len(np.unique(own["game"]))
    assert m2["held_out_games"] == held
    last = np.unique(own["game"])[-held:]
    assert m2["held_out_decisions"] == int(np.isin(own["game"], last).sum())
    assert m2["train_decisions"] == m2["positions"] - m2["held_out_decisions"]
    alone = train.train("hellas", 2, out=tmp_path / "alone.json", **this)
    # the union's game numbers: the earlier set's, then this run's shifted past them
    u = train._union([old, own])
    assert np.array_equal(u["game"], np.concatenate([old["game"], own["game"] + old["game"].max() + 1]))
    # bit for bit from scratch, and another manifest order or set is another model
    sha = m2["sha256"]
    import shutil
    shutil.rmtree(tmp_path / "hellas-2p.json.chunks")
    out.unlink()
    assert train.train("hellas", 2, out=out, also=(str(mp),), **this)["sha256"] == sha
    assert sha != alone["sha256"]


def test_also_errors(tmp_path, monkeypatch, capsys):
    _small(monkeypatch)
    out = tmp_path / "m.json"
    with pytest.raises(ValueError, match="cannot read"):
        train.train("hellas", 2, teacher="balanced", positions=20, out=out, also=(str(tmp_path / "no.json"),),
                    progress=False, log=None)
    bad = tmp_path / "bad.manifest.json"
    bad.write_text(json.dumps({"model": "x.json"}))
    with pytest.raises(ValueError, match="not a model manifest"):
        train.train("hellas", 2, teacher="balanced", positions=20, out=out, also=(str(bad),), progress=False,
                    log=None)
    other = tmp_path / "other.manifest.json"
    other.write_text(json.dumps({"teacher": "mcts:iterations=100", "positions_asked": 20, "seed": 1}))
    assert main(["train", "hellas", "--players", "2", "--teacher", "balanced", "--positions", "20",
                 "--also", str(other), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("boardlab: error: --also:") and "teacher" in err[0]
