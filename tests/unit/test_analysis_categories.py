"""Tests for analysis.categories."""

import doctest

import numpy as np
import polars as pl
import pytest

import analysis.categories as cat
from _analysis_synth import CATS, make_players


def test_doctests():
    res = doctest.testmod(cat, extraglobs={"pl": pl, "np": np})
    assert res.failed == 0 and res.attempted >= 4


def test_profile_shares_and_winner_means():
    p = make_players(2000, 3, seed=21)
    prof = cat.category_profile(p.lazy(), CATS).collect()
    assert prof.height == 3 * len(CATS)
    for role in ("winner", "other", "all"):
        assert prof.filter(pl.col("role") == role)["share"].sum() == pytest.approx(1.0)
    allp = prof.filter(pl.col("role") == "all")
    assert allp["mean"].to_numpy() == pytest.approx(p.select(CATS).mean().row(0))
    assert allp["n"].to_list() == [6000] * 5
    win = prof.filter(pl.col("role") == "winner")["mean"].to_numpy()
    other = prof.filter(pl.col("role") == "other")["mean"].to_numpy()
    assert np.all(win > other)  # every category adds to the total that decides


def test_logit_coefficients_scale_with_spread():
    # the winner is decided by the plain total, so every point counts the same:
    # standardized coefficients are proportional to each category's SD
    p = make_players(4000, 3, seed=22, means=(12.0, 2.0, 6.0, 4.0, 1.0))
    out = cat.category_logit(p, CATS)
    assert (out["method"] == "mle").all() and not out["separated"].any()
    per_point = (out["coef"] / out["sd"]).to_numpy()
    assert per_point.max() / per_point.min() < 1.2
    order = np.argsort(out["coef"].to_numpy())
    assert np.array_equal(order, np.argsort(out["sd"].to_numpy()))
    assert (out["lo"] < out["coef"]).all() and (out["coef"] < out["hi"]).all()
    assert (out["n"] == 12000).all() and (out["n_games"] == 4000).all()


def test_decisive_category():
    p = make_players(1500, 3, seed=23, decide="temples")
    cf = cat.category_counterfactual(p, CATS).filter(pl.col("category") == "temples")
    assert cf["p_lost"].item() == 1.0 and cf["lost"].item() == 1500
    others = cat.category_counterfactual(p, CATS).filter(pl.col("category") != "temples")
    assert (others["p_lost"] < 0.5).all()
    lg = cat.category_logit(p, CATS)
    assert lg["separated"].all() and (lg["method"] == "firth").all()
    assert lg["coef"].is_finite().all()
    assert lg.sort("coef", descending=True)["category"][0] == "temples"


def test_counterfactual_ties_are_explicit():
    # game 0: without b, players tie (shared); game 1: without a, loser wins
    p = pl.DataFrame({
        "game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
        "a": [3, 3, 10, 2], "b": [2, 0, 0, 5], "total": [5, 3, 10, 7],
    })
    out = cat.category_counterfactual(p, ["a", "b"])
    a = out.filter(pl.col("category") == "a").row(0, named=True)
    b = out.filter(pl.col("category") == "b").row(0, named=True)
    assert (a["kept"], a["shared"], a["lost"]) == (1, 0, 1)
    # a k-way tie counts 1/k: the sole winner caught to a 2-way tie loses half the win
    assert (b["kept"], b["shared"], b["lost"]) == (1, 1, 0.5)
    assert b["p_changed"] == 0.5 and b["p_lost"] == 0.25


def test_grouping_and_zero_variance_category():
    p = make_players(600, 2, seed=24).with_columns(
        pl.lit(0).cast(pl.Int16).alias("marble"),
        (pl.col("game_index") % 2).alias("variant"),
    )
    out = cat.category_logit(p, CATS, by="variant")
    assert out.height == 10
    assert out.filter(pl.col("category") == "marble")["coef"].is_nan().all()
    assert out.filter(pl.col("category") != "marble")["coef"].is_finite().all()
