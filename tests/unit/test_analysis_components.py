"""Tests for analysis.components: planted component values are recovered inside their CIs."""

import doctest

import numpy as np
import polars as pl
import pytest

import analysis.components as cp
from _analysis_synth import make_component_games

VALUES = {"a": 3.0, "b": 0.0, "c": -2.0, "d": 1.0}


def test_doctests():
    res = doctest.testmod(cp, extraglobs={"pl": pl, "np": np})
    assert res.failed == 0 and res.attempted >= 2


def _rows(frame, outcome):
    return {r["component"]: r for r in frame.filter(pl.col("outcome") == outcome).iter_rows(named=True)}


def test_regression_recovers_planted_points_and_null_covers_zero():
    players, takes = make_component_games(3000, 3, VALUES, seed=71)
    reg = cp.component_regression(takes, players)
    tot = _rows(reg, "total")
    for c, v in VALUES.items():
        r = tot[c]
        assert r["lo"] <= v <= r["hi"], (c, v, r)
        assert r["hi"] - r["lo"] < 0.6                   # precise enough to mean something
        assert r["n"] == 9000 and r["n_games"] == 3000 and r["method"] == "ols-fe"
    win = _rows(reg, "win")
    assert win["a"]["effect_lo"] > 0 and win["d"]["effect_lo"] > 0 and win["c"]["effect_hi"] < 0
    assert win["b"]["lo"] <= 0 <= win["b"]["hi"]          # a component worth nothing
    # the win effect orders the components as the planted points do
    order = sorted(VALUES, key=lambda c: win[c]["effect"])
    assert order == sorted(VALUES, key=VALUES.get)
    assert set(reg["contrast"].to_list()) == {"vs not taking"}


@pytest.mark.parametrize("players_n, kw", [
    (4, {"exhaustive": 6}),      # every player takes 6 (like one fleet a round): counts are collinear
    (2, {"rate": 0.6}),          # the number taken varies (like goals kept): held fixed
])
def test_relative_values_are_against_the_average_component(players_n, kw):
    players, takes = make_component_games(3000, players_n, VALUES, seed=72, **kw)
    reg = cp.component_regression(takes, players, relative=True)
    tot = _rows(reg, "total")
    mean = np.mean(list(VALUES.values()))
    for c, v in VALUES.items():
        assert tot[c]["lo"] <= v - mean <= tot[c]["hi"], (c, tot[c])
    assert tot["a"]["lo"] > 0 and tot["c"]["hi"] < 0
    assert sum(r["coef"] for r in tot.values()) == pytest.approx(0, abs=1e-9)
    assert sum(r["coef"] for r in _rows(reg, "win").values()) == pytest.approx(0, abs=1e-9)
    assert set(reg["contrast"].to_list()) == {"vs average"}


def test_summary_counts_rates_and_takers_outcomes():
    players, takes = make_component_games(800, 3, VALUES, seed=73, rate=0.4)
    s = cp.component_summary(takes, players, value="value", cost="cost")
    assert s["component"].to_list() == sorted(VALUES)
    per_player = takes.group_by("game_index", "seat", "component").len()
    joined = players.join(per_player.filter(pl.col("component") == "a"), on=["game_index", "seat"], how="left")
    took = joined.filter(pl.col("len").is_not_null())
    row = s.filter(pl.col("component") == "a").row(0, named=True)
    assert row["n"] == 2400 and row["n_games"] == 800
    assert row["takers"] == took.height and row["n_takes"] == took["len"].sum()
    assert row["take_rate"] == pytest.approx(took.height / 2400)
    assert row["take_lo"] < row["take_rate"] < row["take_hi"]
    assert row["takers_total"] == pytest.approx(took["total"].cast(pl.Float64).mean())
    assert row["takers_win"] == pytest.approx(took["win_share"].cast(pl.Float64).mean())
    others = joined.filter(pl.col("len").is_null())
    assert row["others_win"] == pytest.approx(others["win_share"].cast(pl.Float64).mean())
    assert row["win_diff_lo"] > 0 and row["total_diff_lo"] > 0           # 'a' is worth 3 points
    b = s.filter(pl.col("component") == "b").row(0, named=True)
    assert b["total_diff_lo"] <= 0 <= b["total_diff_hi"]                   # 'b' is worth nothing
    for r in s.iter_rows(named=True):
        v = VALUES[r["component"]]
        assert r["value_per_take"] == pytest.approx(v)
        assert r["value_per_cost"] == pytest.approx(v / (v + 6))


def test_take_shares_sum_to_one_per_cell():
    _, takes = make_component_games(300, 3, VALUES, seed=74)
    sh = cp.take_shares(takes, split="round")
    sums = sh.group_by("round").agg(pl.col("share").sum())["share"]
    assert np.allclose(sums.to_numpy(), 1.0)
    assert (sh["lo"] <= sh["share"]).all() and (sh["share"] <= sh["hi"]).all()
    seat = cp.take_shares(takes, split="seat")
    assert seat.filter(pl.col("seat") == 0)["n_takes"].sum() == takes.filter(pl.col("seat") == 0).height


def test_groups_are_kept_apart_and_missing_columns_named():
    p1, t1 = make_component_games(300, 3, VALUES, seed=75)
    p2, t2 = make_component_games(300, 2, VALUES, seed=76)
    lab = lambda f, x: f.with_columns(pl.lit(x).alias("run"))  # noqa: E731
    players = pl.concat([lab(p1, "x"), lab(p2, "y")])
    takes = pl.concat([lab(t1, "x"), lab(t2, "y")])
    s = cp.component_summary(takes, players, by="run")
    assert s.select("run", "n_players").unique().sort("run").rows() == [("x", 3), ("y", 2)]
    assert s.filter(pl.col("run") == "y")["n"].unique().to_list() == [600]
    reg = cp.component_regression(takes, players, by="run")
    assert reg.filter(pl.col("run") == "x")["n_games"].unique().to_list() == [300]
    with pytest.raises(ValueError, match="win_share"):
        cp.component_summary(takes, players.drop("win_share"))


def test_component_nobody_took_differently_has_null_estimates():
    players, takes = make_component_games(200, 2, {"a": 1.0, "b": 0.0}, seed=77)
    # 'z' is taken once by every player: no variation within a game
    every = players.select("game_index", "seat").with_columns(
        pl.lit("z").alias("component"), pl.lit(0, dtype=pl.Int16).alias("round"),
        pl.lit(0.0).alias("value"), pl.lit(1.0).alias("cost"))
    reg = cp.component_regression(pl.concat([takes, every]), players)
    z = reg.filter(pl.col("component") == "z")
    assert z.height == 2 and z["coef"].is_null().all()
    assert reg.filter(pl.col("component") == "a")["coef"].is_not_null().all()
