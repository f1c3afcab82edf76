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


def test_yamatai_imitation():
    r = imitate.imitate("yamatai", 3, "mcts:iterations=10", 40, seed=1, eval_games=0, log=None)
    assert set(r["weights"]) == set(simcore.games["yamatai"].FEATURES)
    assert r["temperature"] is None          # no offset in Yamataï's scores


def test_fit_logit_with_an_offset_recovers_the_weights_and_its_scale():
    # softmax(m @ w + o): the offset's coefficient is 1, so the weights' scale is identified; leaving the
    # offset out biases the fit, and the likelihood and the argmax take the offset into account
    rng = np.random.default_rng(3)
    w = np.array([1.0, -0.5, 2.0])
    mats, offs, targets = [], [], []
    for _ in range(4000):
        n = int(rng.integers(2, 8))
        m = rng.normal(size=(n, 3))
        o = np.where(rng.random(n) < 0.3, -2.0, 0.0) + m[:, 0]      # an offset correlated with a feature
        z = m @ w + o
        mats.append(m)
        offs.append(o)
        targets.append(np.eye(n)[rng.choice(n, p=np.exp(z - z.max()) / np.exp(z - z.max()).sum())])
    fit = imitate.fit_logit(mats, targets, l2=0.01, offsets=offs)
    assert np.abs(fit - w).max() < 0.1, fit
    plain = imitate.fit_logit(mats, targets, l2=0.01)
    assert plain[0] - w[0] > 0.5                         # without the offset, feature 0 soaks part of it up
    assert imitate.log_likelihood(mats, targets, fit, offs) > imitate.log_likelihood(mats, targets, plain, offs)
    assert imitate.log_likelihood(mats, targets, fit, offs) > imitate.log_likelihood(mats, targets, fit)
    # agreement: the argmax of m @ w + o
    m = np.array([[1.0, 0, 0], [0.0, 0, 0]])
    assert imitate.agreement([m], [0], np.array([1.0, 0, 0])) == 1.0
    assert imitate.agreement([m], [0], np.array([1.0, 0, 0]), [np.array([-2.0, 0.0])]) == 0.0
    assert imitate.agreement([m], [0], np.array([1.0, 0, 0]), [np.array([-1.0, 0.0])]) == 0.5   # a tie
    with pytest.raises(ValueError, match="offsets hold 3 entries for 2"):
        imitate.fit_logit([m], [np.array([1.0, 0.0])], offsets=[np.zeros(3)])


def _akrotiri_games(preset, seeds):
    """Every decision of whole Akrotiri games (the preset in both seats, its own epsilon)."""
    ak = simcore.games["akrotiri"]
    pol = strategies.resolve("akrotiri", preset).as_policy()
    for seed in seeds:
        st = ak.State.new(ak.make_config(2), seed)
        k = 0
        while not st.is_over():
            yield st
            st.apply(st.policy_action(pol, seed=1000 * seed + k))
            k += 1


@pytest.mark.parametrize("preset", ["balanced", "trader", "explorer", "goal_hunter"])
def test_akrotiri_features_and_offset_reproduce_the_heuristic(preset):
    ak = simcore.games["akrotiri"]
    names = list(ak.FEATURES)
    s = strategies.resolve("akrotiri", preset)
    w = np.array([s.weights.get(n, 0.0) for n in names])
    greedy = s.with_noise(epsilon=0.0).as_policy()
    decisions = ties = 0
    seen_offsets = set()
    for st in _akrotiri_games(preset, range(6)):
        actions, m, off = imitate.action_features("akrotiri", st, None)
        assert actions == st.legal_actions() and m.shape == (len(actions), len(names)) and off.shape == (len(actions),)
        acts, scores = ak.policy_scores(st, greedy)
        assert acts == actions
        np.testing.assert_allclose(m @ w + off, scores, rtol=1e-12, atol=1e-12)   # the engine's own scores
        lin = m @ w + off
        top = np.flatnonzero(lin >= lin.max() - 1e-9 * max(1.0, abs(lin.max())))
        for k in range(3):          # the heuristic's pick (exact ties drawn by the stream) is a maximum
            assert actions.index(st.policy_action(greedy, seed=decisions * 7 + k)) in top
        seen_offsets.update(off.tolist())
        ties += len(top) > 1
        decisions += 1
    assert decisions > 500 and ties > 0
    assert {0.0, -3.0} <= seen_offsets and any(v < 0 and v not in (-3.0, -5.0) for v in seen_offsets), seen_offsets
    with pytest.raises(ValueError, match="heuristic policy vector"):
        ak.policy_scores(st, None)


def test_akrotiri_fit_recovers_the_weights_of_a_synthetic_teacher():
    # the teacher: the heuristic with other weights (half of trader's), its score w . features + offset,
    # its action drawn from softmax(score) (the engine's own heuristic is argmax, so the draw is made here),
    # on the positions of explorer's games: they hold more purchases than trader's own (issue 32 made
    # trader's games shorter), so the purchase weights are identified
    ak = simcore.games["akrotiri"]
    names = list(ak.FEATURES)
    rec = imitate.collect("akrotiri", 2, "explorer", 8000, seed=3, log=None)
    assert rec["games"] > 20
    w = 0.5 * np.array([strategies.resolve("akrotiri", "trader").weights[n] for n in names])
    rng = np.random.default_rng(0)
    mats, offs, targets = [], [], []
    for st in rec["states"]:
        _, m, o = imitate.action_features("akrotiri", st, None)
        z = m @ w + o
        mats.append(m)
        offs.append(o)
        targets.append(np.eye(len(z))[rng.choice(len(z), p=np.exp(z - z.max()) / np.exp(z - z.max()).sum())])
    fit = imitate.fit_logit(mats, targets, l2=0.01, offsets=offs)
    spread = np.vstack(mats).std(axis=0)
    e, d = names.index("excavate_points"), names.index("dig_cost")
    # every map's points equal its cost, so the two features are one column: only their sum is identified
    assert np.allclose(np.vstack(mats)[:, e], np.vstack(mats)[:, d])
    assert abs((fit[e] + fit[d]) - (w[e] + w[d])) < 0.2
    err = np.abs(fit - w) * spread                       # error in log-odds per standard deviation of the feature
    err[[e, d]] = 0
    assert err.max() < 0.1, dict(zip(names, np.round(err, 3)))
    assert imitate.log_likelihood(mats, targets, fit, offs) > imitate.log_likelihood(mats, targets, fit)


def test_akrotiri_imitation_of_an_argmax_teacher():
    # a heuristic teacher without noise: the fit's held-out agreement with it beats the start preset's,
    # the offset's temperature is one of the grid's, and the preset plays
    names = list(simcore.games["akrotiri"].FEATURES)
    teacher = strategies.resolve("akrotiri", "trader").with_noise(epsilon=0.0)
    r = imitate.imitate("akrotiri", 2, teacher, 3000, seed=2, eval_games=40, log=None)
    assert r["temperature"] in imitate.OFFSET_TEMPERATURES and r["round"] == 1 and len(r["rounds"]) == 1
    # the ceiling: the teacher's own weights on the same held-out decisions (the last fifth; exact ties
    # count a share, so it is below 1)
    rec = imitate.collect("akrotiri", 2, teacher, 3000, seed=2, log=None)
    held = range(2400, 3000)
    feats = [imitate.action_features("akrotiri", rec["states"][i], None) for i in held]
    own = imitate.agreement([f[1] for f in feats], [rec["actions"][i].index(rec["best"][i]) for i in held],
                            np.array([teacher.weights[n] for n in names]), [f[2] for f in feats])
    assert r["held_out"] == 600 and r["base_agreement"] < own
    assert r["agreement"] > r["base_agreement"] and r["agreement"] >= 0.98 * own, (r["agreement"], own)
    assert set(r["weights"]) == set(simcore.games["akrotiri"].FEATURES) and r["n"] == 40


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


def test_cli_imitate_akrotiri_end_to_end(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rc, out, err = _run(["tune", "akrotiri", "--players", "2", "--imitate", "mcts:iterations=10", "--positions",
                         "80", "--eval-games", "20", "--seed", "2"], capsys)
    assert rc == 0, err
    assert "engine's offset, fitted at temperature" in out and "wrote akrotiri_imitated.toml" in out
    text = (tmp_path / "akrotiri_imitated.toml").read_text()
    assert "softmax(score / " in text and 'game = "akrotiri"' in text
    s = strategies.resolve("akrotiri", "akrotiri_imitated.toml")
    assert s.kind == "heuristic" and set(s.weights) == set(simcore.games["akrotiri"].FEATURES)
    rc, out, err = _run(["simulate", "akrotiri", "--players", "2", "--games", "20", "--seed", "1", "--strategy",
                         "akrotiri_imitated.toml", "--out", str(tmp_path / "run")], capsys)
    assert rc == 0, err
    assert (tmp_path / "run").is_dir()


@pytest.mark.parametrize("extra, words", [
    (["--players", "3", "--imitate", "mcts"], ["akrotiri", "2"]),
    (["--players", "2", "--imitate", "balnced"], ["unknown strategy 'balnced'"]),
    (["--players", "2", "--imitate", "mcts", "--positions", "5"], ["positions must be at least 20"]),
    (["--players", "2", "--imitate", "mcts", "--start", "mcts"], ["--start must be a heuristic preset"]),
])
def test_cli_imitate_akrotiri_bad_input_is_one_line(tmp_path, monkeypatch, capsys, extra, words):
    monkeypatch.chdir(tmp_path)
    rc, out, err = _run(["tune", "akrotiri", *extra], capsys)
    _one_line_error(rc, err, *words)
    assert not list(tmp_path.iterdir())


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
