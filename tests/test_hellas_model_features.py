"""Hellas' model features, set 2 (simcore/hellas/_model_features.pxi): the lookahead is the engine's
next position, and the models of feature set 1 still read set 1."""
import json
import sys
from pathlib import Path

import numpy as np

import strategies
from simcore import hellas
from simcore._model import features, model_capsule, scores

ROOT = Path(__file__).resolve().parents[1]
ENG = sys.modules[hellas.State.__module__]
COL = {n: i for i, n in enumerate(ENG.MODEL_ACTION_FEATURES)}
SCOL = {n: i for i, n in enumerate(ENG.MODEL_STATE_FEATURES)}
CTX = strategies.resolve("hellas", "balanced").as_policy()
KINDS = ("house", "house_agora", "palace", "quarry", "temple", "monument", "marble")
# the action display's names of the kinds (config.spaces) -> the features' names
KIND_OF = {"house": "house", "house_or_agora": "house_agora", "palace": "palace", "quarry": "quarry",
           "temple": "temple", "monument": "monument", "three_marble": "marble"}


def _positions(players, seed, n, policy="balanced"):
    """Decisions with two or more actions of a game of ``policy`` (seeded), in game order."""
    pol = strategies.resolve("hellas", policy).as_policy()
    actions = hellas.play_actions(players, seed, [pol] * players)
    st = hellas.new_game(players=players, seed=seed)
    out = []
    for a in actions:
        if len(st.legal_actions()) > 1 and len(out) < n:
            out.append(st.clone())
        st.apply(a)
    return out


def _kind(players, space):
    return KIND_OF[hellas.make_config(players).spaces[space]["action"]]


def test_lookahead_is_the_engine_position_after_the_action():
    seen = set()
    for players, seed in ((2, 4), (2, 9), (3, 5), (4, 2)):
        for st in _positions(players, seed, 400):
            acts, A, _ = features(st, CTX)
            p = st.current_player()
            s0 = st.scores()
            d0 = st.to_dict()
            phase = d0["phase"]
            for a, row in zip(acts, A):
                if phase == "quarry_place":
                    continue            # the next tile is hidden: the features see the placement only
                t = st.clone()
                t.apply(a)
                s1, d1 = t.scores(), t.to_dict()
                opp = [o for o in range(players) if o != p]
                if phase == "choose_space" and _kind(players, a) == "quarry":
                    # the income, all the features know of a quarry action (its tiles are hidden)
                    assert row[COL["la_marble"]] == d1["marble"][p] - d0["marble"][p]
                    assert row[COL["la_opp_marble"]] == sum(d1["marble"][o] - d0["marble"][o] for o in opp)
                    seen.add("quarry")
                    continue
                assert row[COL["la_points"]] == s1["total"][p] - s0["total"][p]
                assert row[COL["la_opp_points"]] == (max(s1["total"][o] for o in opp)
                                                     - max(s0["total"][o] for o in opp))
                assert row[COL["la_marble"]] == d1["marble"][p] - d0["marble"][p]
                assert row[COL["la_city"]] == s1["city"][p] - s0["city"][p]
                assert row[COL["la_temples"]] == s1["temples"][p] - s0["temples"][p]
                assert row[COL["la_rings"]] == d1["rings"][p] - d0["rings"][p]
                assert row[COL["la_marker"]] == float(d1["temple_marker"] == p and d0["temple_marker"] != p)
                seen.add(phase)
                if row[COL["la_temples"]] > 0 or row[COL["la_city"]] > 0:
                    seen.add("points")
    assert {"choose_space", "build_house", "build_palace", "temple", "quarry", "points"} <= seen


def test_build_points_are_the_best_build_that_follows_the_choice():
    """A house space's la_build_points: the most points the chooser gains with the house it then
    builds first (the engine's follow-up decision, every field tried)."""
    checked = nonzero = 0
    for players, seed in ((2, 4), (2, 7), (3, 5)):
        for st in _positions(players, seed, 300):
            if st.to_dict()["phase"] != "choose_space":
                continue
            acts, A, _ = features(st, CTX)
            p = st.current_player()
            for a, row in zip(acts, A):
                assert row[COL["space_" + _kind(players, a)]] == 1.0
                assert sum(row[COL["space_" + k]] for k in KINDS) == 1.0
                if _kind(players, a) != "house":
                    continue
                t = st.clone()
                t.apply(a)
                if t.current_player() != p or t.to_dict()["phase"] != "build_house":
                    # no field to build on (apply() passed for the chooser)
                    assert row[COL["la_build_points"]] == 0.0 and row[COL["la_build_income"]] == 0.0
                    continue
                base = t.scores()["total"][p]
                gains = []
                for b in t.legal_actions():
                    if b == hellas.PASS:
                        continue
                    u = t.clone()
                    u.apply(b)
                    gains.append(u.scores()["total"][p] - base)
                assert row[COL["la_build_points"]] == (max(gains) if gains else 0)
                checked += 1
                nonzero += bool(gains) and max(gains) != 0
                break
    assert checked > 30 and nonzero > 5


def test_position_features_count_the_open_spaces_and_the_opponents():
    for players, seed in ((2, 4), (4, 2)):
        for st in _positions(players, seed, 60):
            _, _, S = features(st, CTX)
            d = st.to_dict()
            p = st.current_player()
            opp = [o for o in range(players) if o != p]
            used = d["spaces_used"]
            used = set(used) if isinstance(used, list) else {k for k in range(16) if (used >> k) & 1}
            for k in KINDS:
                assert S[SCOL["open_" + k]] == sum(1 for i, sp in enumerate(hellas.make_config(players).spaces)
                                                   if KIND_OF[sp["action"]] == k and i not in used)
            assert S[SCOL["cubes"]] == d["cubes_left"][p]
            assert S[SCOL["opp_cubes"]] == sum(d["cubes_left"][o] for o in opp)
            assert S[SCOL["opp_marble"]] == max(d["marble"][o] for o in opp)
            assert S[SCOL["marker_mine"]] == float(d["temple_marker"] == p)


def test_feature_set_one_models_read_set_one(tmp_path):
    """A model of the first feature set (every model shipped before the lookahead) gets set 1's
    features: the same numbers as set 2's heuristic columns and first 12 position features, and its
    scores are the forward pass over them."""
    v1 = (list(ENG.MODEL_ACTION_FEATURES_V1), list(ENG.MODEL_STATE_FEATURES_V1))
    assert ENG.MODEL_ACTION_FEATURES[:len(ENG.C_FEATURES)] == ENG.MODEL_ACTION_FEATURES_V1[:-2]
    assert ENG.MODEL_ACTION_FEATURES[-2:] == ENG.MODEL_ACTION_FEATURES_V1[-2:]
    na, ns = len(v1[0]), len(v1[1])
    rng = np.random.default_rng(4)
    h = 6
    W1, b1, w2 = rng.normal(size=(h, na + ns)), rng.normal(size=h), rng.normal(size=h)
    mean, scale = rng.normal(size=na + ns), rng.uniform(0.5, 2.0, size=na + ns)
    doc = {"format": "boardlab-mlp-1", "game": "hellas", "players": 2, "action_features": v1[0],
           "state_features": v1[1], "context": strategies.resolve("hellas", "balanced").to_dict(), "hidden": h,
           "mean": mean.tolist(), "scale": scale.tolist(), "W1": W1.tolist(), "b1": b1.tolist(),
           "w2": w2.tolist(), "b2": 0.0}
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(doc))
    pol = strategies.resolve("hellas", f"learned:{path}").as_policy()
    assert model_capsule("hellas", doc) is not model_capsule("hellas")
    nf = len(ENG.C_FEATURES)
    for st in _positions(2, 3, 12):
        acts, A, S = features(st, CTX)
        A1 = np.hstack([A[:, :nf], A[:, -2:]])
        X = np.hstack([A1, np.repeat(S[None, :ns], len(acts), axis=0)])
        want = np.maximum(0.0, ((X - mean) * scale) @ W1.T + b1) @ w2
        got_a, got = scores(st, pol)
        assert got_a == acts
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)
    # the shipped models of set 1 (the previous 2p model, the 3p and 4p ones) load and play beside
    # the 2p model of set 2
    for players, name in ((2, "hellas-2p-r3.json"), (3, "hellas-3p.json"), (4, "hellas-4p.json")):
        path = f"strategies/models/{name}"
        with open(ROOT / path) as f:
            assert json.load(f)["action_features"] == v1[0]
        old = strategies.resolve("hellas", f"learned:{path}").as_policy()
        r = hellas.play_batch(players, np.arange(3, dtype=np.uint64), [old] * players, events=False)
        assert r["players"]["total"].shape == (3, players)
    with open(ROOT / "strategies/models/hellas-2p.json") as f:
        assert json.load(f)["action_features"] == list(ENG.MODEL_ACTION_FEATURES)
    new = strategies.resolve("hellas", "learned").as_policy()
    old = strategies.resolve("hellas", "learned:strategies/models/hellas-2p-r3.json").as_policy()
    a_new = hellas.play_actions(2, 5, [new, old])
    assert a_new == hellas.play_actions(2, 5, [new, old]) != hellas.play_actions(2, 5, [old, old])
