"""Learned models: features, evaluation in C, the learned strategy, training, the search's prior."""
import json
import sys

import numpy as np
import pytest

import simcore
import strategies
from simcore import hellas
from simcore._model import features, scores
from strategies import train
from strategies.learned import MODEL_DIR, shipped

CTX = strategies.resolve("hellas", "balanced")


def _random_model(path, seed=0, hidden=8):
    rng = np.random.default_rng(seed)
    eng = sys.modules[hellas.State.__module__]
    nin = len(eng.MODEL_ACTION_FEATURES) + len(eng.MODEL_STATE_FEATURES)
    p = {"W1": rng.normal(size=(hidden, nin)), "b1": rng.normal(size=hidden), "w2": rng.normal(size=hidden),
         "b2": 0.5, "mean": rng.normal(size=nin), "scale": rng.uniform(0.5, 2.0, size=nin)}
    path.write_text(json.dumps(train.model_document("hellas", 3, p, CTX)))
    return p


def _positions(n=6, seed=3):
    st = hellas.new_game(players=3, seed=seed)
    out = []
    rng = np.random.default_rng(seed)
    while not st.is_over() and len(out) < n:
        out.append(st.clone())
        for _ in range(7):
            if st.is_over():
                break
            a = st.legal_actions()
            st.apply(a[int(rng.integers(len(a)))])
    return out


def test_action_features_are_the_heuristics():
    pol = CTX.as_policy()
    for st in _positions():
        acts, A, S = features(st, pol)
        acts2, F = hellas.policy_features(st, pol)[:2]
        assert acts == acts2 == st.legal_actions()
        np.testing.assert_array_equal(A[:, :F.shape[1]], F)
        # the heuristic's score and the score less the decision's best
        _, sc = hellas.policy_scores(st, pol)
        np.testing.assert_allclose(A[:, -2], sc, atol=1e-9)
        assert A[:, -1].max() == 0.0
        assert S[:8].sum() == 1.0


def test_c_scores_equal_the_numpy_forward_pass(tmp_path):
    p = _random_model(tmp_path / "m.json")
    s = strategies.resolve("hellas", f"learned:{tmp_path / 'm.json'}")
    pol = s.as_policy()
    for st in _positions():
        acts, A, S = features(st, CTX.as_policy())
        X = np.hstack([A, np.repeat(S[None], len(A), 0)])
        Z = (X - p["mean"]) * p["scale"]
        ref = np.maximum(Z @ p["W1"].T + p["b1"], 0) @ p["w2"] + p["b2"]
        a2, sc = scores(st, pol)
        assert a2 == acts
        np.testing.assert_allclose(sc, ref, rtol=1e-12, atol=1e-12)


def test_learned_seat_plays_the_best_scored_action(tmp_path):
    _random_model(tmp_path / "m.json", seed=4)
    s = strategies.resolve("hellas", f"learned:{tmp_path / 'm.json'}")
    pols = [s.as_policy(), CTX.as_policy(), None]
    seed = 11
    actions = hellas.play_actions(3, seed, pols)
    st = hellas.new_game(players=3, seed=seed)
    i = checked = 0
    while not st.is_over():
        legal = st.legal_actions()
        if st.current_player() == 0:
            acts, sc = scores(st, pols[0])
            assert actions[i] == acts[int(np.argmax(sc))]
            checked += 1
        st.apply(actions[i])
        i += 1
    assert checked > 10 and i == len(actions)
    a = hellas.play_batch(3, np.arange(5, dtype=np.uint64), pols)
    b = hellas.play_batch(3, np.arange(5, dtype=np.uint64), pols)
    np.testing.assert_array_equal(a["players"]["total"], b["players"]["total"])


def test_missing_models_are_named(tmp_path):
    p = tmp_path / "m.json"
    _random_model(p)
    s = strategies.resolve("hellas", f"learned:{p}")
    with pytest.raises(ValueError, match="no learned model of hellas for 2 players"):
        hellas.play_batch(2, np.arange(2, dtype=np.uint64), [s.as_policy(), None])
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(ValueError, match="not a model file"):
        strategies.resolve("hellas", f"learned:{bad}")
    d = s.to_dict()
    assert strategies.from_dict(d).to_dict() == d and strategies.from_dict(d).policy_kind.name == "learned"
    p.write_text(p.read_text() + " ")                 # any change to the file
    with pytest.raises(ValueError, match="SHA-256"):
        strategies.from_dict(d)
    if not shipped("akrotiri"):
        with pytest.raises(ValueError, match="no learned model is shipped for akrotiri"):
            strategies.resolve("akrotiri", "learned")


def test_train_reproduces_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setattr(train, "STEPS", 60)
    monkeypatch.setattr(train, "CHUNK_GAMES", 1)
    out = tmp_path / "hellas-3p.json"
    m1 = train.train("hellas", 3, teacher="balanced", positions=150, seed=3, out=out, progress=False, log=None)
    first = out.read_bytes()
    assert m1["positions"] >= 150 and m1["games"] >= 2
    assert 0.0 <= m1["held_out_agreement"] <= 1.0
    # the teacher is the context heuristic itself: it agrees but where equal scores tie (first taken)
    assert m1["context_agreement"] > 0.7
    out.unlink()
    chunks = sorted((tmp_path / "hellas-3p.json.chunks").glob("chunk-*.npz"))
    chunks[-1].unlink()                               # as if Ctrl-C came before the last chunk was written
    m2 = train.train("hellas", 3, teacher="balanced", positions=150, seed=3, out=out, progress=False, log=None)
    assert out.read_bytes() == first and m2["sha256"] == m1["sha256"]
    with pytest.raises(ValueError, match="other settings"):
        train.train("hellas", 3, teacher="balanced", positions=150, seed=4, out=out, progress=False, log=None)


def test_search_with_the_model_as_prior(tmp_path):
    _random_model(tmp_path / "m.json", seed=5)
    name = f"mcts:iterations=30,prior=learned:{tmp_path / 'm.json'}"
    assert strategies.split_names(name + ",balanced") == [name, "balanced"]
    s = strategies.resolve("hellas", name)
    assert s.kind == "mcts" and s.to_dict()["prior"]["kind"] == "learned"
    plain = strategies.resolve("hellas", "mcts:iterations=30")
    assert "prior" not in plain.to_dict()
    pols = [s.as_policy(), CTX.as_policy(), CTX.as_policy()]
    a = hellas.play_actions(3, 2, pols)
    assert a == hellas.play_actions(3, 2, pols)
    assert a != hellas.play_actions(3, 2, [plain.as_policy(), CTX.as_policy(), CTX.as_policy()])


def test_search_with_the_model_as_rollout_policy(tmp_path):
    """``rollout=learned``: every seat's rollout move is the model's (with ``rollout_epsilon`` noise);
    without a prior the model's move is expanded first, so one iteration plays the model's move."""
    from simcore._model import best_action
    from strategies.mcts import MCTSAgent
    _random_model(tmp_path / "m.json", seed=5)
    model = f"learned:{tmp_path / 'm.json'}"
    name = f"mcts:iterations=12,rollout={model}"
    d = strategies.resolve("hellas", name).to_dict()
    assert d["rollout"]["kind"] == "learned" and d["rollout_epsilon"] == 0.05
    assert "rollout_epsilon" not in strategies.resolve("hellas", "mcts:iterations=12").to_dict()
    spec = strategies.resolve("hellas", model).as_policy()
    for st in _positions(4)[1:]:
        one = MCTSAgent(iterations=1, rollout=model, game="hellas", seed=2).act(st)
        assert one == best_action(st, spec.model(3), 0)
    pols = [strategies.resolve("hellas", name).as_policy(), CTX.as_policy(), CTX.as_policy()]
    a = hellas.play_actions(3, 2, pols)
    assert a == hellas.play_actions(3, 2, pols)
    plain = strategies.resolve("hellas", "mcts:iterations=12")
    assert a != hellas.play_actions(3, 2, [plain.as_policy(), CTX.as_policy(), CTX.as_policy()])
    still = strategies.resolve("hellas", name + ",rollout_epsilon=0").as_policy()
    assert a != hellas.play_actions(3, 2, [still, CTX.as_policy(), CTX.as_policy()])
    # the agent's search (Python) and the kernel's seat decide alike
    st = _positions(3)[2]
    ag = MCTSAgent(iterations=12, rollout=model, game="hellas", seed=4)
    r1, r2 = ag.search(st), ag.search(st)
    assert r1["best"] == r2["best"] and np.array_equal(r1["visits"], r2["visits"]) and r1["visits"].sum() == 12
    from simcore._mcts import search
    with pytest.raises(ValueError, match="same model for every seat"):
        search(st, 5, policies=[spec, None, None])


def test_train_cli_errors(capsys):
    from reports.cli import main
    for argv, msg in ((["train", "hellas", "--players", "9", "--out", "x.json"], "not 9"),
                      (["train", "hellas", "--players", "3", "--out", "x.txt"], ".json"),
                      (["train", "hellas", "--players", "3", "--teacher", "nope", "--out", "x.json"], "nope")):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("boardlab: error:") and msg in err[0]


def _yamatai_positions(n=8, seed=5):
    from simcore import yamatai
    st = yamatai.State.new(yamatai.make_config(3), seed)
    out, rng = [], np.random.default_rng(seed)
    while not st.is_over() and len(out) < n:
        if len(st.legal_actions()) > 1:
            out.append(st.clone())
        for _ in range(int(rng.integers(5, 30))):
            if st.is_over():
                break
            a = st.legal_actions()
            st.apply(a[int(rng.integers(len(a)))])
    return out


def test_yamatai_features_are_the_heuristics():
    from simcore import yamatai
    ctx = strategies.resolve("yamatai", "balanced")
    w = np.asarray(ctx.as_policy())[:len(yamatai.C_FEATURES)]
    stages = 0
    for st in _yamatai_positions(12):
        acts, A, S = features(st, ctx.as_policy())
        acts2, F, _ = yamatai.policy_features(st)
        assert acts == acts2 == st.legal_actions()
        np.testing.assert_array_equal(A[:, :F.shape[1]], F)
        np.testing.assert_allclose(A[:, -2], F @ w, atol=1e-9)
        assert A[:, -1].max() == 0.0
        assert S[:10].sum() == 1.0
        stages |= 1 << int(np.argmax(S[:10]))
    assert bin(stages).count("1") >= 3


def test_yamatai_lookahead_features_describe_the_next_position():
    """Each action's la_* features are the deciding seat's view of the position right after it."""
    from simcore import yamatai
    eng = sys.modules[yamatai.State.__module__]
    col = {n: i for i, n in enumerate(eng.MODEL_ACTION_FEATURES)}
    ctx = strategies.resolve("yamatai", "balanced").as_policy()
    tiles = yamatai.make_config(3).tiles
    goes_on = built = forced = 0
    for st in _yamatai_positions(40, seed=11):
        acts, A, _ = features(st, ctx)
        d0 = st.to_dict()
        p = st.current_player()
        for a, row in zip(acts, A):
            if a >= eng.FLEET_ABILITY_BLOCK:
                continue
            t = st.clone()
            t.apply(a)
            log = t.transcript()
            last = max(i for i, e in enumerate(log) if e["kind"] == "decision")
            if any(e["kind"] == "forced" for e in log[last + 1:]):
                forced += 1
                continue        # the features see the position before the forced steps apply() takes
            d = t.to_dict()
            same = not t.is_over() and d["round"] == d0["round"] and d["turn"] == d0["turn"]
            assert row[col["la_turn_goes_on"]] == float(same)
            assert row[col["la_coins"]] == d["coins"][p] - d0["coins"][p]
            assert row[col["la_points"]] == t.scores()["total"][p] - st.scores()["total"][p]
            assert row[col["la_pairs"]] == sum(k // 2 for k in d["tokens"][p])
            assert row[col["la_types"]] == sum(k > 0 for k in d["tokens"][p])
            assert row[col["la_hand"]] == (sum(d["hand"]) if same else 0)
            assert row[col["la_build_next"]] >= row[col["la_build_pp"]]
            if same and d["stage"] == "place" and built < 3:
                # stopping the chain now: the builds then legal are the lookahead's
                t.apply(yamatai.PASS)
                log = t.transcript()
                if t.stage == "post" and log[-1]["kind"] == "decision":
                    pp = [tiles[int(eng.action_text(b).split()[2])].pp for b in t.legal_actions()
                          if eng.action_text(b).startswith("BUILD")]
                    assert row[col["la_build_pp"]] == max(pp, default=0)
                    assert row[col["la_builds"]] == min(len(pp), 8)
                    built += bool(pp)
            goes_on += same
    assert goes_on > 50 and built >= 1


def test_yamatai_first_feature_set_models_still_play():
    """A model of the features before the lookahead (yamatai-3p-r1.json) loads and plays."""
    from simcore import yamatai
    old = strategies.resolve("yamatai", "learned:strategies/models/yamatai-3p-r1.json").as_policy()
    new = strategies.resolve("yamatai", "learned").as_policy()
    r = yamatai.play_batch(3, np.arange(4, dtype=np.uint64), [old, new, old], events=False)
    assert r["players"]["total"].shape == (4, 3)
    st = yamatai.State.new(yamatai.make_config(3), 3)
    a_old, s_old = scores(st, old)
    a_new, s_new = scores(st, new)
    assert a_old == a_new == st.legal_actions() and not np.array_equal(s_old, s_new)


def test_yamatai_learned_seat_plays_the_best_scored_action(tmp_path):
    from simcore import yamatai
    eng = sys.modules[yamatai.State.__module__]
    nin = len(eng.MODEL_ACTION_FEATURES) + len(eng.MODEL_STATE_FEATURES)
    rng = np.random.default_rng(2)
    p = {"W1": rng.normal(size=(8, nin)), "b1": rng.normal(size=8), "w2": rng.normal(size=8), "b2": 0.0,
         "mean": rng.normal(size=nin), "scale": rng.uniform(0.5, 2.0, size=nin)}
    path = tmp_path / "y.json"
    path.write_text(json.dumps(train.model_document("yamatai", 3, p, strategies.resolve("yamatai", "balanced"))))
    pol = strategies.resolve("yamatai", f"learned:{path}").as_policy()
    bal = strategies.resolve("yamatai", "balanced").as_policy()
    seed = 7
    actions = yamatai.play_actions(3, seed, [pol, bal, bal])
    st = yamatai.State.new(yamatai.make_config(3), seed)
    i = checked = 0
    while not st.is_over():
        if st.current_player() == 0 and len(st.legal_actions()) > 1:
            acts, sc = scores(st, pol)
            assert actions[i] == acts[int(np.argmax(sc))]
            checked += 1
        st.apply(actions[i])
        i += 1
    assert checked > 20 and i == len(actions)


def test_sampled_positions_reproduce_and_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(train, "STEPS", 40)
    monkeypatch.setattr(train, "CHUNK_GAMES", 1)
    out = tmp_path / "y.json"
    kw = dict(teacher="mcts:iterations=8", positions=60, seed=2, out=out, progress=False, log=None,
              play="balanced", label=0.2, max_actions=8)
    m1 = train.train("yamatai", 3, **kw)
    first = out.read_bytes()
    assert m1["play"] == "balanced" and m1["label"] == 0.2 and m1["max_actions"] == 8
    assert "--play balanced --label 0.2 --max-actions 8" in m1["reproduce"]
    chunks = sorted((tmp_path / "y.json.chunks").glob("chunk-*.npz"))
    d = train._stack([dict(np.load(c)) for c in chunks])
    assert (d["sizes"] >= 2).all()
    # about a fifth of a game's ~200 decisions are labelled: a game gives well under 100 positions
    assert len(chunks) >= 2 and len(d["sizes"]) < 100 * len(chunks)
    chunks[-1].unlink()
    out.unlink()
    assert train.train("yamatai", 3, **kw)["sha256"] == m1["sha256"] and out.read_bytes() == first
    c = train._cap(d, 8, 1)
    assert len(c["sizes"]) == len(d["sizes"]) and (c["sizes"] <= d["sizes"]).all()
    starts, cs = np.cumsum(d["sizes"]) - d["sizes"], np.cumsum(c["sizes"]) - c["sizes"]
    for i in range(len(d["sizes"])):
        v, cv = d["visits"][starts[i]:starts[i] + d["sizes"][i]], c["visits"][cs[i]:cs[i] + c["sizes"][i]]
        assert cv.sum() == pytest.approx(v.sum()) and (cv > 0).sum() == (v > 0).sum()
        assert c["act"][cs[i] + c["best"][i]].tolist() == d["act"][starts[i] + d["best"][i]].tolist()
        if d["sizes"][i] > 8:
            assert c["sizes"][i] <= max(8 + 2, (v > 0).sum() + 8 + 2)
    with pytest.raises(ValueError, match="other settings"):
        train.train("yamatai", 3, **{**kw, "label": 0.3})


def test_train_cli_errors_sampling(capsys):
    from reports.cli import main
    for argv, msg in ((["--label", "0"], "--label"), (["--max-actions", "2"], "--max-actions"),
                      (["--play", "mcts:iterations=5"], "--play")):
        assert main(["train", "hellas", "--players", "3", "--out", "x.json"] + argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("boardlab: error:") and msg in err[0]


def test_ladder_measures_cpu_and_draws_strength_per_cpu(tmp_path):
    from reports.experiments.skill import ladder_sections
    from reports.ladder import LadderPlan, measure_cpu, play_ladder, wants_cpu
    names = ["random", "balanced", "learned"]
    pool = {n: strategies.resolve("hellas", n) for n in names}
    assert wants_cpu(pool) and not wants_cpu({n: pool[n] for n in names[:2]})
    plan = LadderPlan("hellas", 3, pool, games=1, seed=3)
    rs = play_ladder(plan, str(tmp_path / "lad"), workers=1, log=lambda m: None)
    cpu = measure_cpu(plan, str(tmp_path / "cpu"), log=lambda m: None, cheap_games=20)
    assert set(cpu) == set(names) and all(v > 0 for v in cpu.values())
    assert cpu["learned"] > cpu["random"]                   # a model evaluation per action costs more
    assert measure_cpu(plan, str(tmp_path / "cpu"), log=None) == cpu       # kept: not measured again
    secs = ladder_sections(plan, rs, cpu)
    assert len(secs) == 4 and secs[3].title == "Strength per CPU-second"
    t = secs[3].tables[0].frame
    assert t["strategy"].to_list() == sorted(names, key=lambda n: cpu[n])
    assert len(secs[3].figures) == 1 and len(ladder_sections(plan, rs)) == 3


def test_mcts_agent_takes_the_model_as_prior(tmp_path):
    from strategies.imitate import _teacher
    _random_model(tmp_path / "m.json", seed=6)
    with_prior = strategies.resolve("hellas", f"mcts:iterations=60,prior=learned:{tmp_path / 'm.json'}")
    plain = strategies.resolve("hellas", "mcts:iterations=60")
    st = _positions(3)[2]
    a1 = _teacher("hellas", with_prior, 1)(st)
    a2 = _teacher("hellas", with_prior, 1)(st)
    b = _teacher("hellas", plain, 1)(st)
    np.testing.assert_array_equal(a1[1], a2[1])
    assert a1[1].sum() == pytest.approx(1.0) and not np.array_equal(a1[1], b[1])


def test_shipped_models_are_named_apart_from_the_checkout(tmp_path, monkeypatch):
    """A run with the shipped models gets the same manifest and run_id wherever boardlab is checked out
    or run from: the model is named relative to the packages, and found from any working folder."""
    from simcore._run_plan import plan_run
    d = strategies.resolve("hellas", "learned").to_dict()
    assert d["models"]["3"]["file"] == "strategies/models/hellas-3p.json"
    here = plan_run("hellas", 3, 4, 7, strategies=[d] * 3).run_id
    monkeypatch.chdir(tmp_path)                       # another working folder: the same model, the same run
    d2 = strategies.resolve("hellas", "learned").to_dict()
    assert d2 == d and plan_run("hellas", 3, 4, 7, strategies=[d2] * 3).run_id == here
    seeds = np.arange(3, dtype=np.uint64)
    away = hellas.play_batch(3, seeds, [strategies.from_dict(d2).as_policy()] * 3)
    own = tmp_path / "own.json"                       # a user's file is named by its absolute path
    own.write_bytes((shipped("hellas")[3]).read_bytes())
    d3 = strategies.resolve("hellas", "learned:own.json").to_dict()
    assert d3["models"]["3"]["file"] == str(own.resolve())
    monkeypatch.chdir("/")
    back = hellas.play_batch(3, seeds, [strategies.from_dict(d3).as_policy()] * 3)
    for table in ("games", "players"):
        assert away[table].keys() == back[table].keys()
        assert all(np.array_equal(away[table][c], back[table][c]) for c in away[table])


def test_a_model_of_another_size_is_refused_in_one_line():
    """A model whose inputs do not match the engine's features: a ValueError naming both sizes (it
    used to crash the process while writing that message)."""
    from simcore import yamatai
    eng = sys.modules[yamatai.State.__module__]
    old = strategies.resolve("yamatai", "learned:strategies/models/yamatai-3p-r1.json").as_policy()
    spec = dict(old.model(3))
    # feature set 2's names over set 1's weights: the current set is asked, and its size differs
    spec["action_features"], spec["state_features"] = eng.MODEL_ACTION_FEATURES, eng.MODEL_STATE_FEATURES
    st = yamatai.State.new(yamatai.make_config(3), 1)
    with pytest.raises(ValueError, match=r"the model takes 48 features; this game's engine gives \d+"):
        scores(st, spec)


@pytest.mark.parametrize("game, change", [("hellas", "reorder"), ("yamatai", "rename"), ("yamatai", "drop_state"),
                                          ("akrotiri", "null")])
def test_a_model_of_other_features_is_refused_by_name(tmp_path, capsys, game, change):
    """A model file whose feature names are none of the engine's sets is refused naming the file and the
    first odd feature, even with the engine's sizes (the kernel checks only the count: such a model played,
    silently, on numbers it was not trained on; with null names, `train --play` crashed the process)."""
    from reports.cli import main
    from strategies.learned import feature_sets

    doc = json.loads(shipped(game)[2].read_text())
    acts = list(doc["action_features"])
    if change == "reorder":
        acts[3], acts[4] = acts[4], acts[3]
    elif change == "rename":
        acts[3] = "something else"
    elif change == "drop_state":
        del doc["state_features"]
    doc["action_features"] = None if change == "null" else acts
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    want = {"reorder": f"action feature 3 is {acts[3]!r}", "rename": "action feature 3 is 'something else'",
            "drop_state": "42 + 0 features, not 42 + 29", "null": "0 + 16 features, not 27 + 16"}[change]
    with pytest.raises(ValueError, match=f"m.json: its feature names are none of the {game} engine's feature sets"):
        strategies.resolve(game, f"learned:{path}")
    rc = main(["simulate", game, "--players", "2", "--games", "2", "--seed", "1", "--out", str(tmp_path / "run"),
               "--seat-strategies", f"learned:{path},random"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("boardlab: error: ") and want in err[0], err
    # the shipped models, the first Yamataï set's included, are each one of their engine's sets
    for g in ("hellas", "yamatai", "akrotiri"):
        for f in sorted(MODEL_DIR.glob(f"{g}-*.json")):
            if not f.name.endswith(".manifest.json"):
                m = json.loads(f.read_text())
                assert (tuple(m["action_features"]), tuple(m["state_features"])) in feature_sets(g), f


def test_model_ref_of_a_seat_and_of_a_search_prior():
    """strategies.learned.model_ref: the model file and hash a report names, for a learned seat and for a
    search with the model as its prior; none for a heuristic or a player count without a model."""
    import hashlib

    from strategies.learned import model_ref

    sha = hashlib.sha256(shipped("hellas")[3].read_bytes()).hexdigest()
    for name in ("learned", "mcts:iterations=5,prior=learned", "mcts:iterations=5,rollout=learned"):
        ref = model_ref(strategies.resolve("hellas", name).to_dict(), 3)
        assert ref == {"file": "strategies/models/hellas-3p.json", "sha256": sha}, (name, ref)
    assert model_ref(strategies.resolve("hellas", "balanced").to_dict(), 3) is None
    assert model_ref(strategies.resolve("hellas", "learned").to_dict(), 7) is None and model_ref(None, 3) is None
