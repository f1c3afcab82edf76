"""Property tests (Hypothesis) of every engine's invariants, over drawn seeds and random legal play.

For each game of ``simcore.games`` (the shipped ones and the test games of
``tests/extra_games``), Hypothesis draws a player count, a game seed, the seed
of a random chooser and a point of the game; the chooser plays uniformly
random legal actions through the step API, and:

- the game ends (within ``MAX_DECISIONS``), ``legal_actions`` is never empty
  before the end (sorted, distinct, at least two: one is a forced step, applied
  at once) and empty once over; the seat to decide is a seat, -1 once over;
- the final scores equal the reference engine's (``simcore/<game>/reference.py``)
  after the same decisions;
- a clone taken at the drawn point is equal to the original and independent:
  playing the clone to its end leaves the original as it was;
- ``to_dict`` / ``from_dict`` round-trips at the drawn point and at the end
  (the same dict back), and the loaded position plays on exactly as the
  original (its chance stream is part of the position).

Hypothesis runs derandomized (``derandomize=True``): the same examples every
run, as the project's tests must be deterministic.
"""
import random

import numpy as np

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import simcore

GAMES = list(simcore.games)
MAX_DECISIONS = 20_000
PROFILE = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow])

@hs.composite
def games(draw, name):
    """``(module, players, game seed, chooser seed, where)``: ``where`` in [0, 1) picks a decision."""
    mod = simcore.games[name]
    return (mod, draw(hs.sampled_from(mod.PLAYERS)), draw(hs.integers(0, 2 ** 63 - 1)),
            draw(hs.integers(0, 2 ** 32 - 1)), draw(hs.floats(0.0, 1.0, exclude_max=True)))


def _play_on(state, chooser, stop=None):
    """Play random legal actions from ``state`` (in place) to the end, or ``stop`` decisions; the actions."""
    actions = []
    while not state.is_over() and (stop is None or len(actions) < stop):
        legal = state.legal_actions()
        assert len(legal) >= 2, f"{len(legal)} legal actions at a decision before the end"
        assert legal == sorted(set(legal)), "legal actions not sorted and distinct"
        assert 0 <= state.current_player() < state.players
        a = chooser.choice(legal)
        state.apply(a)
        actions.append(a)
        assert len(actions) <= MAX_DECISIONS, f"no end after {MAX_DECISIONS} decisions"
    return actions


def _game(mod, players, seed, chooser_seed):
    st = mod.new_game(players=players, seed=seed)
    actions = _play_on(st, random.Random(chooser_seed))
    return st, actions


def _at(mod, players, seed, chooser_seed, where):
    """The position after ``where`` of the game's decisions (same chooser), and the chooser there."""
    _, actions = _game(mod, players, seed, chooser_seed)
    st = mod.new_game(players=players, seed=seed)
    chooser = random.Random(chooser_seed)
    _play_on(st, chooser, stop=int(where * len(actions)))
    return st, chooser


@pytest.mark.parametrize("name", GAMES)
def test_random_legal_play_ends_and_always_has_a_choice(name):
    @PROFILE
    @given(games(name))
    def prop(case):
        mod, players, seed, chooser_seed, _ = case
        st, actions = _game(mod, players, seed, chooser_seed)
        assert st.is_over() and st.legal_actions() == [] and st.current_player() == -1
        assert len(actions) == st.decisions
        assert set(st.scores()) >= {"total"} and all(len(v) == players for v in st.scores().values())
    prop()


@pytest.mark.parametrize("name", GAMES)
def test_scores_equal_the_reference_engines(name):
    @PROFILE
    @given(games(name))
    def prop(case):
        mod, players, seed, chooser_seed, _ = case
        st, actions = _game(mod, players, seed, chooser_seed)
        ref = mod.reference.replay(players, seed, actions)
        assert ref.is_over()
        assert ref.scores() == st.scores()
    prop()


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_is_equal_and_independent(name):
    @PROFILE
    @given(games(name), hs.integers(0, 2 ** 32 - 1))
    def prop(case, other_seed):
        mod, players, seed, chooser_seed, where = case
        st, _ = _at(mod, players, seed, chooser_seed, where)
        before = st.to_dict()
        legal = st.legal_actions()
        twin = st.clone()
        assert twin.to_dict() == before and twin.legal_actions() == legal
        _play_on(twin, random.Random(other_seed))
        assert twin.is_over()
        assert st.to_dict() == before and st.legal_actions() == legal
    prop()


@pytest.mark.parametrize("name", GAMES)
def test_to_dict_from_dict_round_trips_and_plays_on_alike(name):
    @PROFILE
    @given(games(name))
    def prop(case):
        mod, players, seed, chooser_seed, where = case
        st, chooser = _at(mod, players, seed, chooser_seed, where)
        d = st.to_dict()
        back = type(st).from_dict(d)
        assert back.to_dict() == d and back.legal_actions() == st.legal_actions()
        state = chooser.getstate()
        _play_on(st, chooser)
        chooser.setstate(state)
        _play_on(back, chooser)
        assert back.is_over() and back.scores() == st.scores()
        end = st.to_dict()                      # a finished position loads back too
        assert type(st).from_dict(end).to_dict() == end
    prop()


@pytest.mark.parametrize("name", [g for g in GAMES if hasattr(simcore.games[g], "policy_features")])
def test_policy_features_has_the_contracts_signature(name):
    # policy_features(state, policy) -> (actions, matrix, offsets) for every game; where the engine
    # also gives its own scores (policy_scores), they are matrix @ weights + offsets
    import strategies
    mod = simcore.games[name]
    pol = strategies.resolve(name, "balanced").as_policy()
    w = np.asarray(pol, dtype=float)[:len(mod.FEATURES)]
    st = mod.new_game(players=mod.DEFAULT_PLAYERS, seed=3)
    chooser, seen = random.Random(3), 0
    while not st.is_over():
        actions, matrix, offsets = mod.policy_features(st, pol)
        assert list(actions) == st.legal_actions()
        assert np.shape(matrix) == (len(actions), len(mod.FEATURES)) and np.shape(offsets) == (len(actions),)
        if hasattr(mod, "policy_scores"):
            np.testing.assert_allclose(np.asarray(matrix) @ w + offsets, mod.policy_scores(st, pol)[1], atol=1e-9)
        seen += 1
        st.apply(chooser.choice(st.legal_actions()))
    assert seen > 10
    assert [len(x) for x in mod.policy_features(st, pol)] == [0, 0, 0]
