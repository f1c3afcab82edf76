"""Strategies and the Hellas heuristic policy: real outcomes, seat isolation,
replays, hidden information, preset validation, tuning smoke test."""
import copy

import numpy as np
import pytest

import simcore
import strategies
from simcore import hellas
from simcore.hellas import _engine
from simcore.rng import game_seeds
from strategies import tune

PRESETS = ["balanced", "city_builder", "temple_builder", "quarry_baron"]


def _policy(name):
    return strategies.resolve("hellas", name).as_policy()


def _seeds(n, run_seed=2024):
    return np.asarray(game_seeds(run_seed, 0, n), dtype=np.uint64)


def _share_vs_random(policy, n, players=2):
    """Win share of ``policy`` in 2-player games against random, seats alternated."""
    seeds = _seeds(n)
    a = hellas.play_batch(players, seeds[0::2], [policy, None], events=False)
    b = hellas.play_batch(players, seeds[1::2], [None, policy], events=False)
    return np.concatenate([a["players"]["win_share"][:, 0], b["players"]["win_share"][:, 1]]).mean()


# ---------------------------------------------------------------- features

def test_feature_names_are_defined_once_and_match_the_c_code():
    assert hellas.FEATURES == _engine.C_FEATURES
    assert len(set(hellas.FEATURES)) == len(hellas.FEATURES)
    for name in hellas.FEATURES:
        assert len(hellas.FEATURE_DOCS[name]) > 20, f"feature {name} needs a docstring"


def test_policy_vector_validates():
    w = dict.fromkeys(hellas.FEATURES, 1.0)
    assert hellas.policy_vector(w, 0.5, 0.1).tolist()[-2:] == [0.5, 0.1]
    with pytest.raises(ValueError, match="unknown feature 'nope'"):
        hellas.policy_vector({**w, "nope": 1.0})
    with pytest.raises(ValueError, match="missing weight for feature 'cost'"):
        hellas.policy_vector({k: v for k, v in w.items() if k != "cost"})
    with pytest.raises(ValueError, match="weight 'cost' must be a finite number"):
        hellas.policy_vector({**w, "cost": "cheap"})
    with pytest.raises(ValueError, match="policy vector has 24 numbers"):
        hellas.play_batch(2, _seeds(2), [np.zeros(3), None])


def test_fast_scores_equal_features_times_weights():
    # "tuned" gives the newer features (opponent_builds, late_*, last_space) non-zero weights
    for name in PRESETS + ["tuned"]:
        pol = _policy(name)
        for g in range(4):
            st = hellas.new_game(3, seed=g)
            while not st.is_over():
                actions, feats, offsets = hellas.policy_features(st, pol)
                actions2, scores = hellas.policy_scores(st, pol)
                assert actions == actions2 == st.legal_actions()
                np.testing.assert_allclose(feats @ pol[:-2], scores, atol=1e-9, err_msg=st.phase)
                st.apply(hellas.policy_action(st, pol, g))


def test_the_per_seat_memo_scores_like_a_cold_context():
    # play_batch keeps each seat's decision context from one of its decisions to the
    # next (group table, field cache, quarry and temple memos); at every decision it
    # must give exactly the scores of a fresh context (memo_check breaks on, e.g.,
    # opponents' pieces not clearing the fields next to them)
    from simcore.hellas._engine import memo_check
    cases = [(3, "balanced", {}), (2, "tuned", {}), (4, "city_builder", {}),
             (3, "temple_builder", {"city_links": "no_agora_chains"}),
             (3, "quarry_baron", {"closed_quarry": "reopens", "double_quarry_yield": "once"}),
             (3, "epsilon", {})]     # epsilon noise without softmax: choose_build's random branch
    eps = strategies.resolve("hellas", "balanced").with_noise(temperature=0.0, epsilon=0.2).as_policy()
    for players, name, settings in cases:
        pol = eps if name == "epsilon" else _policy(name)
        for seed in range(3):
            checked, worst, mismatches = memo_check(players, seed, [pol] * players, **settings)
            assert checked > 40, (name, seed)
            assert worst == 0.0, (players, name, settings, seed, worst)
            assert mismatches == 0, (players, name, settings, seed, mismatches)


# ---------------------------------------------------------------- strength

def test_balanced_beats_random_two_players():
    assert _share_vs_random(_policy("balanced"), 400) >= 0.90


@pytest.mark.parametrize("name", PRESETS[1:] + ["tuned"])
def test_every_preset_beats_random(name):
    assert _share_vs_random(_policy(name), 200) >= 0.90


def test_balanced_is_not_worse_than_the_field_at_three_players():
    seeds = _seeds(300)
    pols = [_policy(n) for n in ("balanced", "city_builder", "temple_builder")]
    share = hellas.play_batch(3, seeds, pols, events=False)["players"]["win_share"].mean(0)
    assert share[0] > 1 / 3


# ---------------------------------------------------------------- seats, noise, replays

def test_one_strategy_object_in_every_seat_equals_separate_copies():
    s = strategies.resolve("hellas", "balanced").with_noise(temperature=0.3, epsilon=0.05)
    seeds = _seeds(200)
    shared = s.as_policy()
    a = hellas.play_batch(3, seeds, [shared, shared, shared], events=False)
    b = hellas.play_batch(3, seeds, [copy.deepcopy(s).as_policy() for _ in range(3)], events=False)
    for col in ("total", "win_share", "houses", "marble_left"):
        np.testing.assert_array_equal(a["players"][col], b["players"][col])
    # Python agents: one object in every seat == one per seat
    agent = strategies.PolicyAgent(s, seed=5)
    st1 = strategies.play_python("hellas", [agent] * 3, seed=11)
    st2 = strategies.play_python("hellas", [strategies.PolicyAgent(s, seed=5) for _ in range(3)], seed=11)
    assert st1.transcript() == st2.transcript()


def test_seats_play_their_own_strategies():
    seeds = _seeds(200)
    res = hellas.play_batch(2, seeds, [_policy("balanced"), None], events=False)
    share = res["players"]["win_share"].mean(0)
    assert share[0] > 0.9 > 0.1 > share[1]


def test_noisy_policy_replays_exactly_as_play_batch():
    pol = strategies.resolve("hellas", "temple_builder").with_noise(temperature=0.5, epsilon=0.1).as_policy()
    seeds = _seeds(5)
    res = hellas.play_batch(3, seeds, [pol, _policy("balanced"), None])
    for i, seed in enumerate(seeds):
        st = hellas.replay_game(3, int(seed), [pol, _policy("balanced"), None])
        assert st.scores()["total"] == res["players"]["total"][i].tolist()


def test_noise_changes_play_and_argmax_is_deterministic():
    seeds = _seeds(50)
    base = strategies.resolve("hellas", "balanced")
    a = hellas.play_batch(3, seeds, [base.as_policy()] * 3, events=False)["players"]["total"]
    b = hellas.play_batch(3, seeds, [base.as_policy()] * 3, events=False)["players"]["total"]
    c = hellas.play_batch(3, seeds, [base.with_noise(epsilon=0.3).as_policy()] * 3, events=False)["players"]["total"]
    np.testing.assert_array_equal(a, b)
    assert (a != c).any()


# ---------------------------------------------------------------- hidden information

def _mid_game(seed, decisions=25):
    st = hellas.new_game(3, seed=seed)
    pol = _policy("balanced")
    while st.decisions < decisions and not st.is_over():
        st.apply(hellas.policy_action(st, pol, seed))
    return st


def test_determinize_reshuffles_only_the_face_down_stack():
    st = _mid_game(3)
    d0 = st.to_dict()
    cl = st.determinize(99)
    d1 = cl.to_dict()
    assert sorted(d0["stack"]) == sorted(d1["stack"]) and d0["stack"] != d1["stack"]
    for key in d0:
        if key != "stack":
            assert d0[key] == d1[key], key
    assert st.to_dict() == d0                     # the original is untouched
    assert st.determinize(99).to_dict() == d1     # same seed, same shuffle


def test_policies_do_not_peek_at_the_stack():
    for seed in range(6):
        st = _mid_game(seed, decisions=10 + 7 * seed)
        other = st.determinize(seed + 100)
        for name in PRESETS:
            pol = _policy(name)
            np.testing.assert_array_equal(hellas.policy_scores(st, pol)[1], hellas.policy_scores(other, pol)[1])
        mc = strategies.FlatMonteCarloAgent(playouts=4, seed=1)
        np.testing.assert_array_equal(mc.values(st)[1], mc.values(other)[1])


# ---------------------------------------------------------------- agents

def test_python_agents_and_flat_monte_carlo_play_legal_games():
    st = strategies.play_python("hellas", [strategies.RandomAgent(1), strategies.PolicyAgent("balanced")], seed=4)
    assert st.is_over() and len(st.scores()["total"]) == 2
    mc = strategies.FlatMonteCarloAgent(playouts=2, seed=3)
    st = strategies.play_python("hellas", [mc, strategies.RandomAgent(2)], seed=5)
    assert st.is_over()
    assert st.scores()["total"][0] > st.scores()["total"][1]
    with pytest.raises(ValueError, match="agent in seat 0"):
        class Bad:
            def act(self, state):
                return 9999
        strategies.play_python("hellas", [Bad(), Bad()], seed=1)


# ---------------------------------------------------------------- presets

def test_presets_load_and_round_trip():
    names = strategies.known("hellas")
    for name in ["random"] + PRESETS:
        assert name in names
        s = strategies.resolve("hellas", name)
        assert s.description
        assert strategies.from_dict(s.to_dict()) == s
    with pytest.raises(ValueError, match="unknown strategy 'balnced' for hellas .*known: random, balanced"):
        strategies.resolve("hellas", "balnced")


def _write(tmp_path, weights_text):
    path = tmp_path / "hellas_mine.toml"
    lines = ["[mine]", "temperature = 0.1", "[mine.weights]"]
    path.write_text("\n".join(lines) + "\n" + weights_text)
    return path


def _weights_text(**change):
    w = dict(strategies.resolve("hellas", "balanced").weights)
    w.update(change)
    return "\n".join(f"{k} = {v}" for k, v in w.items() if v is not None) + "\n"


def test_preset_file_errors_name_the_file_and_key(tmp_path):
    ok = _write(tmp_path, _weights_text())
    s = strategies.resolve("hellas", str(ok))
    assert s.name == "mine" and s.temperature == 0.1
    path = _write(tmp_path, _weights_text(typo_feature=1.0))
    with pytest.raises(ValueError, match=r"hellas_mine.toml: \[mine.weights\]: unknown feature 'typo_feature'"):
        strategies.load_presets(path)
    path = _write(tmp_path, _weights_text(rings=None))
    with pytest.raises(ValueError, match=r"hellas_mine.toml: \[mine.weights\]: missing weight for feature 'rings'"):
        strategies.load_presets(path)
    path = _write(tmp_path, _weights_text(cost='"cheap"'))
    with pytest.raises(ValueError, match=r"hellas_mine.toml: \[mine.weights\]: weight 'cost' must be a finite number"):
        strategies.load_presets(path)
    other = tmp_path / "weights.txt"
    other.write_text("not a preset")
    with pytest.raises(ValueError, match=r"'.*weights.txt' looks like a path but is not a .toml file"):
        strategies.resolve("hellas", str(other))
    with pytest.raises(ValueError, match=r"preset file not found: .*nothere.toml"):
        strategies.resolve("hellas", str(tmp_path / "nothere.toml"))


def _share_ci(shares):
    from analysis.stats import wilson_bounds       # what `boardlab tune` prints for a tuning result
    lo, hi = wilson_bounds(sum(shares), len(shares))
    return sum(shares) / len(shares), float(lo), float(hi)


def test_win_share_interval_is_wilson_and_stays_in_unit_range():
    m, lo, hi = _share_ci([1.0] * 199 + [0.5])          # one tie in 200 games, the rest won
    assert m == pytest.approx(0.9975) and (round(lo, 4), round(hi, 4)) == (0.9765, 0.9997)   # normal approximation: 0.9926-1.0024
    m, lo, hi = _share_ci([1.0, 0.0] * 50)
    assert (m, round(lo, 4), round(hi, 4)) == (0.5, 0.4038, 0.5962)
    m, lo, hi = _share_ci([0.0] * 40)
    assert m == 0.0 and lo == 0.0 and 0.08 < hi < 0.09


def test_tune_smoke_writes_a_loadable_preset(tmp_path):
    res = tune.cem("hellas", players=2, budget=600, population=4, games=30, field="balanced", seed=1,
                   log=lambda *a: None)
    _, lo, hi = _share_ci([res["wins"] / res["n"]] * res["n"])
    assert 0 <= res["win_share"] <= 1 and lo <= res["win_share"] <= hi and res["wins"] == pytest.approx(
        res["win_share"] * res["n"])
    res["ci"] = (lo, hi)
    out = tune.write_preset(tmp_path / "hellas_t.toml", "t", res)
    s = strategies.resolve("hellas", str(out))
    assert s.weights == res["weights"]


def test_policy_kinds_are_objects_that_check_their_settings():
    from simcore._contract import HEURISTIC, KINDS, LEARNED, RANDOM, SEARCH, policy_kind, searches
    assert set(KINDS.values()) == {RANDOM, HEURISTIC, SEARCH, LEARNED}
    assert [k for k in KINDS.values() if k.searches] == [SEARCH]
    for game in simcore.BUILTIN_GAMES:
        for name, s in strategies.presets(game).items():
            assert s.policy_kind is policy_kind(s.to_dict()) is KINDS[s.kind]
            assert s.searches is searches(s.to_dict()) is False
        s = strategies.resolve(game, "mcts:iterations=7")
        assert s.searches and searches(s.to_dict()) and s.as_policy().iterations == 7
        assert strategies.from_dict(s.to_dict()).to_dict() == s.to_dict()
    with pytest.raises(ValueError, match="unknown kind 'oracle'"):
        policy_kind({"kind": "oracle"})
    mod = simcore.games["hellas"]
    w = dict.fromkeys(hellas.FEATURES, 1.0)
    # each kind checks its own settings, in one place, naming where
    assert HEURISTIC.check(mod, "here", {"weights": w, "epsilon": 0.1})["epsilon"] == 0.1
    with pytest.raises(ValueError, match=r"^here: epsilon must be in \[0, 1\]"):
        HEURISTIC.check(mod, "here", {"weights": w, "epsilon": 2})
    with pytest.raises(ValueError, match=r"^here: unknown search setting 'depth'"):
        SEARCH.check(mod, "here", {"depth": 3})
    with pytest.raises(ValueError, match=r"^here: missing weight for feature 'cost'"):
        HEURISTIC.check(mod, "here", {"weights": {k: v for k, v in w.items() if k != "cost"}})
    assert RANDOM.argument(mod, {}) is None
