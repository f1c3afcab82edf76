"""Imitation of search (``strategies.imitate``, ``boardlab tune --imitate``) and tune against a searching field."""
import numpy as np
import pytest

import simcore
import strategies
from reports.cli import main
from strategies import imitate
from strategies.tune import cem


def _run(argv, capsys):
    rc = main(argv)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def _one_line_error(rc, err, *words):
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boardlab: error: "), err
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_fit_logit_recovers_known_weights_from_softmax_choices():
    rng = np.random.default_rng(5)
    w = np.array([1.5, -0.7, 0.0, 2.0])
    mats, targets = [], []
    for _ in range(4000):
        m = rng.normal(size=(int(rng.integers(2, 9)), 4)) * [1.0, 3.0, 1.0, 0.5]
        p = np.exp(m @ w - (m @ w).max())
        mats.append(m)
        targets.append(np.eye(len(m))[rng.choice(len(m), p=p / p.sum())])
    fit = imitate.fit_logit(mats, targets, l2=0.01)
    assert np.abs(fit - w).max() < 0.12, fit
    # the mean log-likelihood is highest near the truth, and a strong prior shrinks toward 0
    assert imitate.log_likelihood(mats, targets, fit) > imitate.log_likelihood(mats, targets, 0.5 * w)
    assert np.linalg.norm(imitate.fit_logit(mats, targets, l2=1e5)) < 0.1
    # visit shares (soft targets) carry the same weights
    soft = [np.exp(m @ w) / np.exp(m @ w).sum() for m in mats]
    assert np.abs(imitate.fit_logit(mats, soft, l2=0.01) - w).max() < 0.05


def test_fit_logit_prior_direction_keeps_its_argmax_when_strong():
    rng = np.random.default_rng(1)
    mats = [rng.normal(size=(5, 3)) for _ in range(300)]
    targets = [np.eye(5)[rng.integers(5)] for _ in mats]          # choices with no signal
    prior = np.array([2.0, -1.0, 0.5])
    fit = imitate.fit_logit(mats, targets, l2=1e6, prior=prior)
    cos = fit @ prior / np.linalg.norm(fit) / np.linalg.norm(prior)
    assert cos > 0.999 and np.linalg.norm(fit) > 0


def test_heuristic_teacher_with_softmax_noise_is_recovered_in_the_real_game():
    # the Hellas heuristic plays softmax(w . features / T): the fit on its sampled actions finds w / T
    # (space_value is computed with the teacher's own weights, so the features are exact)
    teacher = strategies.resolve("hellas", "balanced").with_noise(temperature=0.5)
    rec = imitate.collect("hellas", 3, teacher, 3000, seed=2, log=None)
    assert len(rec["best"]) == 3000 and rec["games"] > 20
    pol = teacher.as_policy()
    names = list(simcore.games["hellas"].FEATURES)
    w = np.array([teacher.weights.get(n, 0.0) for n in names])
    mats = [imitate.action_features("hellas", s, pol)[1] for s in rec["states"]]
    targets = [(np.asarray(a) == b).astype(float) for a, b in zip(rec["actions"], rec["best"])]
    fit = imitate.fit_logit(mats, targets, l2=0.1)
    cos = fit @ w / np.linalg.norm(fit) / np.linalg.norm(w)
    assert cos > 0.95, cos
    assert 0.7 < np.linalg.norm(fit) / np.linalg.norm(w / 0.5) < 1.3
    # scores are w . features: the features reproduce the engine's own scores
    acts, sc = simcore.games["hellas"].policy_scores(rec["states"][7], pol)
    assert np.allclose(mats[7] @ w, sc)


def test_imitation_writes_a_valid_deterministic_preset(tmp_path):
    a = imitate.imitate("hellas", 3, "mcts:iterations=20", 120, seed=4, eval_games=30, log=None)
    b = imitate.imitate("hellas", 3, "mcts:iterations=20", 120, seed=4, eval_games=30, log=None)
    assert a["weights"] == b["weights"] and a["win_share"] == b["win_share"]
    c = imitate.imitate("hellas", 3, "mcts:iterations=20", 120, seed=5, eval_games=0, log=None)
    assert c["weights"] != a["weights"] and "win_share" not in c
    assert set(a["weights"]) == set(simcore.games["hellas"].FEATURES)
    assert 0 <= a["agreement"] <= 1 and a["held_out"] == 24
    a["ci"] = (0.1, 0.5)
    path = imitate.write_preset(tmp_path / "hellas_imitated.toml", "imitated", a, "hellas")
    s = strategies.resolve("hellas", str(path))
    assert s.kind == "heuristic" and s.weights == a["weights"]
    res = simcore.games["hellas"].play_batch(3, np.arange(5, dtype=np.uint64), [s.as_policy()] * 3, events=False)
    assert res["players"]["win_share"].sum() == pytest.approx(5)


def test_yamatai_imitation_and_akrotiri_is_refused():
    r = imitate.imitate("yamatai", 3, "mcts:iterations=10", 40, seed=1, eval_games=0, log=None)
    assert set(r["weights"]) == set(simcore.games["yamatai"].FEATURES)
    with pytest.raises(ValueError, match="akrotiri.*imitation works for hellas, yamatai"):
        imitate.imitate("akrotiri", 2, "mcts", 40, log=None)


def test_cli_imitate_writes_the_preset(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    args = ["tune", "hellas", "--players", "2", "--imitate", "mcts:iterations=10", "--positions", "60",
            "--eval-games", "20", "--name", "copycat", "--seed", "3"]
    rc, out, err = _run(args, capsys)
    assert rc == 0, err
    written = tmp_path / "hellas_copycat.toml"
    assert "imitated weights" in out and "held-out top-1 agreement" in out and f"wrote {written.name}" in out
    assert "60/60 positions" in err                 # progress goes to stderr
    assert strategies.resolve("hellas", str(written)).name == "copycat"
    rc, _, err = _run(args, capsys)
    _one_line_error(rc, err, "exists", "--force")
    rc, out, _ = _run(["tune", "hellas", "--players", "2", "--imitate", "mcts:iterations=5", "--positions", "20",
                       "--eval-games", "0"], capsys)
    assert rc == 0 and "wrote hellas_imitated.toml" in out and "win share" not in out
    assert strategies.resolve("hellas", "hellas_imitated.toml").name == "imitated"


@pytest.mark.parametrize("extra, words", [
    (["--imitate", "mcts", "--budget", "500"], ["--budget is a CEM setting"]),
    (["--imitate", "mcts", "--field", "balanced"], ["--field is a CEM setting"]),
    (["--positions", "100"], ["--positions goes with --imitate"]),
    (["--imitate", "balnced"], ["unknown strategy 'balnced'"]),
    (["--imitate", "random"], ["teacher must be a search"]),
    (["--imitate", "mcts:iterations=0"], ["iterations must be"]),
    (["--imitate", "mcts", "--positions", "5"], ["positions must be at least 20"]),
    (["--imitate", "mcts", "--target", "all"], ["--target"]),
    (["--imitate", "mcts", "--start", "mcts"], ["--start must be a heuristic preset"]),
])
def test_cli_imitate_bad_flags_are_one_line_errors(tmp_path, monkeypatch, capsys, extra, words):
    monkeypatch.chdir(tmp_path)
    rc, out, err = _run(["tune", "hellas", "--players", "3", *extra], capsys)
    _one_line_error(rc, err, *words)
    assert not list(tmp_path.iterdir())


def test_tune_against_a_searching_field_reports_progress():
    lines = []
    res = cem("hellas", 2, budget=100, population=2, games=8, field="mcts:iterations=10", seed=1,
              log=lines.append)
    assert res["field"] == ["mcts:iterations=10"] and 0 <= res["win_share"] <= 1
    assert any("candidate 1/2 (8/" in line and "left" in line for line in lines), lines
    again = cem("hellas", 2, budget=100, population=2, games=8, field="mcts:iterations=10", seed=1,
                log=lambda s: None)
    assert again["weights"] == res["weights"] and again["win_share"] == res["win_share"]
