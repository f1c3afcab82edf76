"""Tests for analysis.convergence."""

import doctest

import numpy as np
import polars as pl
import pytest

import analysis.convergence as cv
from analysis.seats import seat_advantage
from analysis.stats import observed_share_bounds
from _analysis_synth import make_players


def test_doctests():
    res = doctest.testmod(cv, extraglobs={"pl": pl, "np": np})
    assert res.failed == 0 and res.attempted >= 3


def test_checkpoints_are_log_spaced_and_end_at_n():
    pts = cv.log_checkpoints(12345, start=10, per_decade=5)
    assert pts[0] == 10 and pts[-1] == 12345 and pts == sorted(set(pts))
    ratios = np.diff(np.log10(pts[:-1]))
    assert np.allclose(ratios, 0.2, atol=0.02)
    assert cv.log_checkpoints(5) == [5]


def test_seat_curve_ends_at_full_estimate_and_shrinks_like_root_n():
    p = make_players(4000, 3, seed=41, seat_bonus=[0.5, 0, 0])
    curve = cv.seat_convergence(p.lazy()).collect()
    last = curve.filter(pl.col("games") == 4000).sort("seat")
    full = seat_advantage(p)
    assert last["win_share"].to_numpy() == pytest.approx(full["win_share"].to_numpy())
    assert last["hi"].to_numpy() == pytest.approx(full["win_hi"].to_numpy())
    s0 = curve.filter(pl.col("seat") == 0).sort("games")
    slope = np.polyfit(np.log(s0["games"].to_numpy()), np.log(s0["half_width"].to_numpy()), 1)[0]
    assert -0.6 < slope < -0.4
    # each checkpoint matches a direct computation on the first N games
    n = s0["games"][3]
    first = p.filter((pl.col("game_index") < n) & (pl.col("seat") == 0))
    w = first["win_share"].to_numpy()
    lo, hi = observed_share_bounds([w.sum()], n, [(w * w).sum()])      # the seat table's interval (issue 37)
    assert s0["lo"][3] == pytest.approx(float(lo[0])) and s0["hi"][3] == pytest.approx(float(hi[0]))


def test_mean_kind_matches_t_interval():
    rng = np.random.default_rng(42)
    x = rng.normal(5, 2, 300)
    t = pl.DataFrame({"game_index": np.arange(300), "x": x})
    out = cv.cumulative_estimates(t, "x", kind="mean", checkpoints=[50])
    row = out.filter(pl.col("n") == 50).row(0, named=True)
    from scipy import stats
    ci = stats.t.interval(0.95, 49, loc=x[:50].mean(), scale=stats.sem(x[:50]))
    assert (row["lo"], row["hi"]) == pytest.approx(ci)


def test_games_needed_reaches_the_precision():
    p = make_players(500, 2, seed=43)
    need = cv.seat_games_needed(p, 0.02).row(0, named=True)
    assert need["n_games"] == 500 and need["half_width_now"] > 0.02
    assert need["games_more"] == need["games_needed"] - 500
    q = make_players(need["games_needed"], 2, seed=44)
    now = cv.seat_games_needed(q, 0.02)["half_width_now"].item()
    assert now == pytest.approx(0.02, abs=0.0015)
