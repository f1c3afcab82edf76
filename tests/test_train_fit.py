"""The fit's options (strategies/train.py): minibatches, steps, learning rate, L2; reproducible."""
import json

import numpy as np
import pytest

from strategies import train


def _small(monkeypatch):
    monkeypatch.setattr(train, "CHUNK_GAMES", 1)
    monkeypatch.setattr(train, "STEPS", 20)


def test_minibatch_fit_reproduces_and_is_recorded(tmp_path, monkeypatch):
    _small(monkeypatch)
    out = tmp_path / "hellas-2p.json"
    kw = dict(teacher="balanced", positions=120, seed=4, out=out, progress=False, log=None, hidden=6,
              steps=3, batch=16, lr=0.01, l2=0.001)
    m1 = train.train("hellas", 2, **kw)
    first = out.read_bytes()
    assert m1["batch"] == 16 and m1["steps"] == 3 and m1["learning_rate"] == 0.01 and m1["l2"] == 0.001
    assert m1["reproduce"].endswith(f"--hidden 6 --steps 3 --lr 0.01 --l2 0.001 --batch 16 --out {out}")
    assert 1 <= m1["best_step"] <= 3
    out.unlink()
    assert train.train("hellas", 2, **kw)["sha256"] == m1["sha256"] and out.read_bytes() == first
    # another seed draws other batches and weights: another model from the same positions
    other = tmp_path / "other.json"
    (tmp_path / "other.json.chunks").symlink_to(tmp_path / "hellas-2p.json.chunks")
    with pytest.raises(ValueError, match="other settings"):
        train.train("hellas", 2, **{**kw, "out": other, "seed": 5})
    # the full batch default stays: no batch key, steps and rates the module's
    m0 = train.train("hellas", 2, **{**kw, "out": other, "steps": None, "batch": 0, "lr": None, "l2": None,
                                     "hidden": None})
    assert "batch" not in m0 and m0["steps"] == train.STEPS and m0["l2"] == train.L2
    assert "--batch" not in m0["reproduce"] and "--steps" not in m0["reproduce"]
    assert json.loads(other.read_text())["hidden"] == train.HIDDEN


def test_minibatches_cover_every_training_decision_once():
    rng = np.random.default_rng(0)
    sizes = rng.integers(1, 7, size=23)
    n = int(sizes.sum())
    d = {"act": rng.normal(size=(n, 3)), "state": rng.normal(size=(23, 2)), "visits": rng.random(n),
         "sizes": sizes.astype(np.int32), "best": np.zeros(23, dtype=np.int32), "game": np.arange(23)}
    mean, scale = train._standardize(np.hstack([d["act"], d["state"][np.repeat(np.arange(23), sizes)]]))
    tr = train._Data(d, np.ones(23, dtype=bool), mean, scale)
    seen = []
    for b in train._batches(tr, 5, np.random.default_rng(1)):
        assert b.n <= 5 and b.Z.shape[0] == int(b.sizes.sum()) == len(b.t)
        seen.append(b.t)
    got = np.concatenate(seen)
    assert sorted(got.tolist()) == sorted(tr.t.tolist()) and len(got) == len(tr.t)


def test_fit_option_errors(capsys):
    from reports.cli import main
    for argv, msg in ((["--batch", "-1"], "--batch"), (["--lr", "0"], "--lr"), (["--l2", "-1"], "--l2"),
                      (["--ensemble", "0"], "--ensemble"),
                      (["--steps", "0"], "--steps")):
        assert main(["train", "hellas", "--players", "3", "--out", "x.json"] + argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("boardlab: error:") and msg in err[0]


def test_ensemble_is_the_mean_of_its_members(tmp_path, monkeypatch):
    _small(monkeypatch)
    out = tmp_path / "hellas-3p.json"
    train.train("hellas", 3, teacher="balanced", positions=150, seed=2, out=out, progress=False, log=None,
                steps=2, batch=8, hidden=4)
    d = train._stack([dict(np.load(c)) for c in sorted((tmp_path / "hellas-3p.json.chunks").glob("chunk-*.npz"))])
    d = {k: v for k, v in d.items() if k != "seconds"}
    one, _ = train.fit(d, 2, hidden=4, steps=2, batch=8, progress=False)
    two, rep = train.fit(d, 2, hidden=4, steps=2, batch=8, progress=False, ensemble=2)
    assert two["W1"].shape == (8, one["W1"].shape[1]) and len(rep["best_step"]) == 2
    assert np.array_equal(two["W1"][:4], one["W1"]) and np.array_equal(two["w2"][:4], one["w2"] / 2)
    assert not np.array_equal(two["W1"][4:], one["W1"])            # the second member has its own seed
    m = train.train("hellas", 3, teacher="balanced", positions=150, seed=2, out=out, progress=False, log=None,
                    steps=2, batch=8, hidden=4, ensemble=2)
    assert m["hidden"] == 8 and m["ensemble"] == 2 and "--hidden 4" in m["reproduce"]
    assert m["reproduce"].split("--out")[0].endswith("--ensemble 2 ")


def test_prune_drops_exactly_the_units_no_recorded_action_activates(tmp_path, monkeypatch):
    _small(monkeypatch)
    out = tmp_path / "hellas-2p.json"
    kw = dict(teacher="balanced", positions=150, seed=3, out=out, progress=False, log=None, steps=3, batch=8,
              hidden=8, ensemble=2)
    full = train.train("hellas", 2, **kw)
    whole = json.loads(out.read_text())
    d = train._stack([dict(np.load(c)) for c in sorted((tmp_path / "hellas-2p.json.chunks").glob("chunk-*.npz"))])
    d = {k: v for k, v in d.items() if k != "seconds"}
    p, _ = train.fit(d, 3, hidden=8, steps=3, batch=8, progress=False, ensemble=2)
    # one unit made dead (its input negative at every row) and one made live: _prune drops the first only
    Z = train._Data(d, np.ones(len(d["sizes"]), dtype=bool), p["mean"], p["scale"])
    p["b1"][0], p["b1"][1] = -1e6, 1e6
    q = train._prune(p, [Z])
    H = Z.Z @ p["W1"].T + p["b1"]
    keep = H.max(axis=0) > 0
    assert not keep[0] and keep[1] and len(q["b1"]) == int(keep.sum()) < 16
    assert np.array_equal(q["W1"], p["W1"][keep]) and np.array_equal(q["w2"], p["w2"][keep])
    np.testing.assert_allclose(np.maximum(Z.Z @ q["W1"].T + q["b1"], 0) @ q["w2"],
                               np.maximum(H, 0) @ p["w2"], rtol=1e-12, atol=1e-12)
    # through train: recorded, reproducible, and the pruned file plays the recorded games' positions alike
    pruned = tmp_path / "pruned.json"
    (tmp_path / "pruned.json.chunks").symlink_to(tmp_path / "hellas-2p.json.chunks")
    m = train.train("hellas", 2, **{**kw, "out": pruned, "prune": True})
    doc = json.loads(pruned.read_text())
    assert m["prune"] is True and m["reproduce"].endswith(f"--prune --out {pruned}")
    assert doc["hidden"] == m["units_kept"] == 16 - m["units_dropped"] == len(doc["b1"]) <= whole["hidden"]
    assert m["held_out_loss"] == full["held_out_loss"]
    first = pruned.read_bytes()
    pruned.unlink()
    assert train.train("hellas", 2, **{**kw, "out": pruned, "prune": True})["sha256"] == m["sha256"]
    assert pruned.read_bytes() == first
    import simcore
    import strategies
    a = strategies.resolve("hellas", f"learned:{out}").as_policy()
    b = strategies.resolve("hellas", f"learned:{pruned}").as_policy()
    for s in range(4):
        assert simcore.games["hellas"].play_actions(2, s, [a, a]) == simcore.games["hellas"].play_actions(2, s, [b, b])
