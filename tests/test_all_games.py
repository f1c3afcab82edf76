"""Tests every game gets for free, parametrized over ``simcore.games``."""
import json
import random

import numpy as np
import pytest

import simcore

GAMES = list(simcore.games)


def _cases():
    for name in GAMES:
        for players in simcore.games[name].PLAYERS:
            yield pytest.param(name, players, id=f"{name}-{players}p")


CASES = list(_cases())


def _random_game(mod, players, seed, check=None):
    st = mod.new_game(players=players, seed=seed)
    r = random.Random(seed)
    steps = 0
    while not st.is_over():
        legal = st.legal_actions()
        assert len(legal) >= 2, "a decision point with fewer than two choices was not forced"
        assert legal == sorted(legal)
        st.apply(r.choice(legal))
        steps += 1
        if check:
            check(st)
        assert steps < 10_000
    return st


@pytest.mark.parametrize("name,players", CASES)
def test_random_playouts_keep_invariants(name, players):
    mod = simcore.games[name]

    def check(st):
        assert mod.invariant_violations(st) == []

    for seed in range(30):
        st = _random_game(mod, players, seed, check)
        assert st.current_player() == -1 and st.legal_actions() == []
        sc = st.scores()
        assert set(sc) == set(mod.SCORE_CATEGORIES) | {"total"}
        for p in range(players):
            assert sc["total"][p] == sum(sc[c][p] for c in mod.SCORE_CATEGORIES)


@pytest.mark.parametrize("name,players", CASES)
def test_illegal_action_is_refused(name, players):
    mod = simcore.games[name]
    st = mod.new_game(players=players, seed=1)
    before = st.to_dict()
    with pytest.raises(ValueError):
        st.apply(10_000)
    assert st.to_dict() == before


@pytest.mark.parametrize("name,players", CASES)
def test_clone_is_equal_and_independent(name, players):
    mod = simcore.games[name]
    st = mod.new_game(players=players, seed=3)
    r = random.Random(3)
    for _ in range(20):
        st.apply(r.choice(st.legal_actions()))
    cl = st.clone()
    assert cl.to_dict() == st.to_dict()
    assert cl.transcript() == st.transcript()
    cl.apply(cl.legal_actions()[-1])
    assert cl.to_dict() != st.to_dict()


@pytest.mark.parametrize("name,players", CASES)
def test_to_dict_round_trip_mid_game(name, players):
    mod = simcore.games[name]
    r = random.Random(players)
    for seed in range(10):
        st = mod.new_game(players=players, seed=seed)
        for _ in range(r.randrange(0, 60)):
            if st.is_over():
                break
            st.apply(r.choice(st.legal_actions()))
        d = st.to_dict()
        d2 = json.loads(json.dumps(d))          # JSON-serialisable
        back = mod.State.from_dict(d2)
        assert back.to_dict() == d
        # both continue identically
        while not st.is_over():
            a = r.choice(st.legal_actions())
            assert back.legal_actions() == st.legal_actions()
            st.apply(a)
            back.apply(a)
        assert back.scores() == st.scores()


@pytest.mark.parametrize("name,players", CASES)
def test_same_seed_same_game_and_batch_equals_step_api(name, players):
    mod = simcore.games[name]
    seeds = np.arange(40, dtype=np.uint64) * 7919 + 11
    a = mod.play_batch(players, seeds)
    b = mod.play_batch(players, seeds)
    for table in ("games", "players", "events"):
        for col in a[table]:
            np.testing.assert_array_equal(a[table][col], b[table][col])
    # a sub-batch gives the same rows: games do not depend on their neighbours
    c = mod.play_batch(players, seeds[10:20])
    np.testing.assert_array_equal(c["players"]["total"], a["players"]["total"][10:20])
    # the step API replays the kernel's games exactly
    for g in (0, 17, 39):
        st = mod.replay_game(players, int(seeds[g]))
        assert st.scores()["total"] == a["players"]["total"][g].tolist()
        assert st.decisions == a["games"]["decisions"][g]


@pytest.mark.parametrize("name,players", CASES)
def test_different_seeds_differ(name, players):
    mod = simcore.games[name]
    res = mod.play_batch(players, np.arange(50, dtype=np.uint64))
    assert len({tuple(r) for r in res["players"]["total"].tolist()}) > 10


@pytest.mark.parametrize("name", GAMES)
def test_bad_player_count_and_setting(name):
    mod = simcore.games[name]
    with pytest.raises(ValueError, match="players"):
        mod.new_game(players=max(mod.PLAYERS) + 1, seed=0)
    with pytest.raises(ValueError, match="no_such_setting"):
        mod.make_config(min(mod.PLAYERS), no_such_setting=1)
