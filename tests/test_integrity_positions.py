"""Issue 34, positions: ``State.from_dict`` checks a position like a data file, and every position the
engines produce round-trips, finished games included."""
import numpy as np
import pytest

from simcore import akrotiri, hellas, yamatai


def _positions(game, players, seed, every=7):
    """Positions along a random game, and its finished position."""
    st = game.new_game(players=players, seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    while not st.is_over():
        if n % every == 0:
            yield st
        acts = st.legal_actions()
        st.apply(acts[int(rng.integers(len(acts)))])
        n += 1
    yield st


@pytest.mark.parametrize("game, players", [(yamatai, 2), (yamatai, 3), (yamatai, 4), (hellas, 3), (akrotiri, 2)])
def test_every_engine_position_round_trips_finished_ones_included(game, players):
    finished = 0
    for seed in range(2):
        for st in _positions(game, players, seed):
            d = st.to_dict()
            back = type(st).from_dict(d)
            assert back.to_dict() == d
            assert back.is_over() == st.is_over()
            finished += st.is_over()
    assert finished == 2


def test_a_finished_yamatai_game_round_trips():
    """The issue's case: from_dict(to_dict()) of a finished game raised "'turn' out of range"."""
    st = list(_positions(yamatai, 4, 0))[-1]
    assert st.is_over() and st.to_dict()["turn"] == 4
    assert type(st).from_dict(st.to_dict()).scores() == st.scores()
    d = st.to_dict()
    d["turn"] = 5
    with pytest.raises(ValueError, match="'turn' must be 0..3 \\(4 once the game is over\\), not 5"):
        type(st).from_dict(d)


def _akrotiri_with_temple():
    for st in _positions(akrotiri, 2, 3, every=1):
        d = st.to_dict()
        if any(s["temples"] for s in d["seats"]):
            return st, d
    raise AssertionError("no temple in the game")


def test_an_akrotiri_temple_on_thera_is_refused():
    st, d = _akrotiri_with_temple()
    seat = next(p for p, s in enumerate(d["seats"]) if s["temples"])
    d["seats"][seat]["temples"][0] = [0, 0]              # a quarter of Thera
    with pytest.raises(ValueError, match="is on Thera, where no temple can stand"):
        type(st).from_dict(d)
    d["seats"][seat]["temples"][0] = [-9, -9]            # water, far from any tile
    with pytest.raises(ValueError, match="not on land"):
        type(st).from_dict(d)


def test_two_akrotiri_temples_on_one_quarter_are_refused():
    st, d = _akrotiri_with_temple()
    seat = next(p for p, s in enumerate(d["seats"]) if s["temples"])
    d["seats"][seat]["temples"].append(list(d["seats"][seat]["temples"][0]))
    with pytest.raises(ValueError, match="there twice"):
        type(st).from_dict(d)
