"""Tests for analysis.ratings (pairwise matrix, Bradley–Terry)."""

import doctest

import numpy as np
import polars as pl
import pytest
from scipy import special

import analysis.ratings as rt
from _analysis_synth import make_plackett_luce

THETA = {"a": 0.6, "b": 0.2, "c": -0.1, "d": -0.7}
CENTRED = {k: v - np.mean(list(THETA.values())) for k, v in THETA.items()}


def test_doctests():
    res = doctest.testmod(rt, extraglobs={"pl": pl, "np": np})
    assert res.failed == 0 and res.attempted >= 5


def test_bradley_terry_recovers_planted_strengths():
    p = make_plackett_luce(3000, 4, THETA, seed=31)
    bt = rt.bradley_terry(p)
    assert bt["strategy"].to_list() == ["a", "b", "c", "d"]
    assert bt.sort("theta", descending=True)["strategy"].to_list() == ["a", "b", "c", "d"]
    truth = np.array([CENTRED[s] for s in bt["strategy"]])
    assert np.all((bt["lo"].to_numpy() <= truth) & (truth <= bt["hi"].to_numpy()))
    assert bt["theta"].sum() == pytest.approx(0.0, abs=1e-9)
    assert not bt["regularized"].any() and bt["converged"].all()
    assert bt["elo"][0] > 1500 > bt["elo"][3]


def test_bradley_terry_ci_coverage():
    p = make_plackett_luce(150 * 1000, 3, THETA, seed=32, rep_size=150)
    bt = rt.bradley_terry(p.lazy(), by="rep").collect()
    truth = bt["strategy"].replace_strict(CENTRED, return_dtype=pl.Float64)
    cover = ((bt["lo"] <= truth) & (truth <= bt["hi"])).mean()
    assert 0.93 <= cover <= 0.97


def test_win_matrix_matches_planted_pairwise_probabilities():
    p = make_plackett_luce(4000, 2, THETA, seed=33)
    m = rt.pairwise_win_matrix(p)
    assert m.height == 12
    for row in m.iter_rows(named=True):
        truth = special.expit(THETA[row["strategy"]] - THETA[row["opponent"]])
        assert row["lo"] <= truth <= row["hi"]
    ab = m.filter((pl.col("strategy") == "a") & (pl.col("opponent") == "b")).row(0, named=True)
    ba = m.filter((pl.col("strategy") == "b") & (pl.col("opponent") == "a")).row(0, named=True)
    assert ab["win_share"] + ba["win_share"] == pytest.approx(1.0)
    assert ab["n"] == ba["n"] == ab["n_games"]  # two players: one comparison per game


def test_comparisons_count_and_ties():
    p = make_plackett_luce(50, 4, THETA, seed=34)
    c = rt.pairwise_comparisons(p)
    assert c.height == 50 * 6
    tie = pl.DataFrame({"game_index": [0, 0], "seat": [0, 1], "strategy": ["a", "b"], "rank": [1, 1]})
    assert rt.pairwise_comparisons(tie)["score_a"].item() == 0.5


def test_degenerate_data_is_regularized():
    # 'a' wins every comparison: the MLE does not exist
    p = pl.DataFrame({
        "game_index": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3,
        "strategy": ["a", "b", "b", "a", "a", "c"], "rank": [1, 2, 2, 1, 1, 2],
    })
    bt = rt.bradley_terry(p)
    assert bt["regularized"].all()
    assert bt["theta"].is_finite().all()
    # 'c' played one game (one cluster): no interval; the others have two or three
    assert bt.filter(pl.col("clusters") >= 2)["se"].is_finite().all()
    assert bt.filter(pl.col("strategy") == "c")["elo_lo"].is_nan().all()
    assert bt.sort("theta")["strategy"][-1] == "a"


def test_regularized_standard_errors_are_not_narrower_than_the_model_based_ones():
    # 'z' finishes behind everyone in every game: the cluster-robust sandwich alone gives it
    # a standard error near 0 (its residuals are all ~0); the regularized fit keeps the
    # model-based one (prior included) where that is larger
    p = make_plackett_luce(3000, 3, {**THETA, "z": -40.0}, seed=35)
    bt = rt.bradley_terry(p).sort("strategy")
    model = rt.bradley_terry(p, robust=False).sort("strategy")
    z = bt.filter(pl.col("strategy") == "z").row(0, named=True)
    assert z["wins"] == 0 and bt["regularized"].all()
    assert np.all(bt["se"].to_numpy() >= model["se"].to_numpy() - 1e-12)
    assert z["se"] == pytest.approx(model.filter(pl.col("strategy") == "z")["se"].item())
    assert z["elo_hi"] - z["elo_lo"] > 100      # the strength of a strategy that never wins is barely known


def test_dominance_breaks_ties_by_name_whatever_the_row_order():
    """Two strategies with the same record are listed by name, and a strategy's weakest opponent among
    equal shares is the first by name: the same table from any order of the pairwise rows."""
    from analysis.ratings import dominance

    pw = pl.DataFrame({"strategy": ["b", "b", "a", "a", "c", "c"], "opponent": ["a", "c", "b", "c", "b", "a"],
                       "n": [100] * 6, "win_share": [.5, .5, .5, .5, .5, .5], "lo": [.4] * 6, "hi": [.6] * 6})
    want = dominance(pw)
    assert want["strategy"].to_list() == ["a", "b", "c"]
    assert want["weakest_against"].to_list() == ["b", "a", "a"]
    for seed in range(5):
        assert dominance(pw.sample(fraction=1.0, shuffle=True, seed=seed)).equals(want)


def test_the_prior_draws_only_between_strategies_that_met():
    """A ladder where the weakest level never wins gets the prior; a rare top level, met only by its
    neighbour, must keep what its own games say. With virtual draws between every pair it also 'drew'
    with the levels it never played, the never-winning one too, and lost 11 % of its measured lead."""
    rng = np.random.default_rng(7)
    rows, g = [], 0

    def games(x, y, n, p_x):
        nonlocal g
        for _ in range(n):
            x_wins = rng.random() < p_x
            rows.extend([(g, 0, x, 1 if x_wins else 2), (g, 1, y, 2 if x_wins else 1)])
            g += 1
    games("random", "weak", 400, 0.0)          # random never wins: the estimate needs the prior
    games("weak", "mid", 2000, 0.3)
    games("weak", "other", 1000, 0.5)
    games("mid", "top", 60, 0.25)              # the rare level, anchored by 60 games
    p = pl.DataFrame(rows, schema=["game_index", "seat", "strategy", "rank"], orient="row")
    bt = rt.bradley_terry(p)
    assert bt["regularized"].all()
    theta = dict(zip(bt["strategy"], bt["theta"]))
    own = rt.bradley_terry(p.filter(pl.col("game_index") >= 3400))     # the mid-top games alone
    assert not own["regularized"].any()
    lead = dict(zip(own["strategy"], own["theta"]))
    want = lead["top"] - lead["mid"]
    got = theta["top"] - theta["mid"]
    # one virtual draw against 60 real games shrinks the lead by a few per cent (every pair: by 11 %)
    assert 0.95 * want < got <= want, (got, want)
    # and every strategy still has a finite strength, the never-winning one last
    assert bt["theta"].is_finite().all() and bt.sort("theta")["strategy"][0] == "random"
