"""Tests for analysis.games.hellas on synthetic events with known answers."""

import doctest

import numpy as np
import polars as pl
import pytest

import analysis.games.hellas as qy
from _analysis_synth import make_players


def make_events(n_games, n_players, seed, close_rate=(0.1, 0.3, 0.5), income_mean=(1.0, 2.0, 3.0)):
    """Three quarry actions per round; incomes Poisson with a per-round mean;
    a quarry closes with a per-round probability (the 2nd tile opens it)."""
    rng = np.random.default_rng(seed)
    rows = []
    g = np.repeat(np.arange(n_games), 9)
    rnd = np.tile(np.repeat(np.arange(3), 3), n_games)
    m = len(g)
    inc = rng.poisson(np.asarray(income_mean)[rnd][:, None], size=(m, 4))
    inc[:, n_players:] = 0
    closes = rng.random(m) < np.asarray(close_rate)[rnd]
    tiles = rng.integers(1, 41, size=(m, 4))
    dest = rng.integers(0, 6, size=(m, 4))  # active quarries on fields 0..5
    dest[closes, 1] = rng.integers(6, 12, closes.sum())  # the worker's empty field
    opened = np.where(closes, dest[:, 1], -1)
    tiles[closes, 2:] = 0
    dest[closes, 2:] = -1
    data = {"game_index": g.astype(np.int64), "round": rnd.astype(np.int8),
            "seat": rng.integers(0, n_players, m).astype(np.int8)}
    for k in range(4):
        data[f"income_{k}"] = inc[:, k].astype(np.int16)
    for k in range(4):
        data[f"tile_{k}"] = tiles[:, k].astype(np.int8)
        data[f"dest_{k}"] = dest[:, k].astype(np.int8)
    data["opened"] = opened.astype(np.int8)
    data["closed"] = np.where(closes, rng.integers(0, 12, m), -1).astype(np.int8)
    data["worker_to"] = np.where(closes, rng.integers(0, 12, m), -1).astype(np.int8)
    return pl.DataFrame(data), inc, closes


def test_doctests():
    res = doctest.testmod(qy, extraglobs={"pl": pl, "np": np})
    assert res.failed == 0 and res.attempted >= 6


def test_yields():
    ev, inc, _ = make_events(2000, 3, seed=51)
    dist = qy.quarry_yield_distribution(ev)
    for r in range(3):
        d = dist.filter(pl.col("round") == r)
        assert d["share"].sum() == pytest.approx(1.0)
        assert d["n_actions"].sum() == 6000
    summ = qy.quarry_yield_summary(ev.lazy()).collect()
    truth = np.array([3.0, 6.0, 9.0])  # 3 seats × the round's mean
    assert np.all((summ["lo"].to_numpy() <= truth) & (truth <= summ["hi"].to_numpy()))
    assert summ["mean"].to_numpy() == pytest.approx(inc.sum(1).reshape(-1, 3, 3).mean((0, 2)))
    overall = qy.quarry_yield_summary(ev, per_round=False)
    assert overall.height == 1 and overall["n_actions"].item() == 18000


def test_closures():
    ev, _, closes = make_events(3000, 4, seed=52)
    by_round = qy.quarry_closures_by_round(ev)
    assert by_round["closures"].sum() == closes.sum()
    truth = np.array([0.3, 0.9, 1.5])  # 3 actions × the round's closure rate
    se = np.sqrt(truth / 3000)
    assert np.all(np.abs(by_round["per_game"].to_numpy() - truth) < 4 * se)
    assert by_round["share_of_closures"].sum() == pytest.approx(1.0)
    per_game = qy.quarry_closures_per_game(ev)
    assert per_game["n_games"].sum() == 3000
    mean = (per_game["closures"] * per_game["share"]).sum()
    assert mean == pytest.approx(closes.sum() / 3000)
    # games without quarry actions count as zero closures when the games table is given
    games = pl.DataFrame({"game_index": np.arange(3100, dtype=np.int64)})
    pg = qy.quarry_closures_per_game(ev, games=games)
    assert pg["n_games"].sum() == 3100
    assert pg.filter(pl.col("closures") == 0)["n_games"].item() == per_game.filter(pl.col("closures") == 0)["n_games"].item() + 100


def test_tile_fates():
    ev, _, closes = make_events(500, 2, seed=53)
    t = qy.quarry_tiles_by_round(ev)
    assert t.filter(pl.col("fate") == "opened")["n_tiles"].sum() == closes.sum()
    assert t["n_tiles"].sum() == int((ev.select(pl.col("^tile_.*$")) > 0).sum().sum_horizontal().item())


def test_income_and_seats():
    ev, inc, _ = make_events(400, 3, seed=54)
    income = qy.income_from_events(ev, n_seats=3)
    assert income.height == 1200
    got = income.sort(["game_index", "seat"])["marble_income"].to_numpy()
    assert np.array_equal(got, inc[:, :3].reshape(400, 9, 3).sum(1).ravel())
    p = make_players(400, 3, seed=55).drop("marble").join(income, on=["game_index", "seat"])
    p = p.with_columns((pl.col("total") + pl.col("marble_income") // 5).alias("total"))
    out = qy.marble_income_by_seat(p)
    assert out["n"].to_list() == [400] * 3
    assert out["income_share"].sum() == pytest.approx(1.0, abs=0.02)
    assert (out["corr_total"] > 0).all()


def test_income_share_sums_are_the_same_whatever_the_row_order():
    """The share sums come from exact counts of (income, paid) pairs: shuffled rows, one thread or
    several, give the same bits; and they equal the shares' exact sum to a few ulps."""
    import math

    p = _luck_players(3000, False, seed=57)
    p = p.with_columns(pl.when(pl.col("game_index") % 50 == 0).then(0).otherwise(pl.col("marble_income"))
                       .cast(pl.Int16).alias("marble_income"))            # games that paid no marble: no share
    want = qy.marble_income_sums(p).sort("seat")
    for seed in range(3):
        got = qy.marble_income_sums(p.sample(fraction=1.0, shuffle=True, seed=seed)).sort("seat")
        assert got["share_s"].to_list() == want["share_s"].to_list()
        assert got.equals(want)
    paid = p.group_by("game_index").agg(pl.col("marble_income").cast(pl.Int64).sum().alias("paid"))
    rows = p.join(paid, on="game_index").filter(pl.col("paid") > 0)
    assert want["share_n"].to_list() == rows.group_by("seat").len().sort("seat")["len"].to_list()
    for seat, s in zip(want["seat"], want["share_s"]):
        r = rows.filter(pl.col("seat") == seat)
        exact = math.fsum(a / b for a, b in zip(r["marble_income"], r["paid"]))
        assert s == pytest.approx(exact, rel=1e-14)


def _luck_players(n_games, effect, seed):
    rng = np.random.default_rng(seed)
    p = make_players(n_games, 3, seed=seed, strategies=["s", "t"])
    income = rng.poisson(15, p.height)
    p = p.with_columns(pl.Series("marble_income", income.astype(np.int16)))
    if effect:  # marble points follow income: lucky players score more
        p = p.with_columns((pl.col("total") + pl.col("marble_income") // 3).alias("total"))
        tot = p["total"].to_numpy().reshape(n_games, 3)
        best = tot == tot.max(1, keepdims=True)
        p = p.with_columns(pl.Series("win_share", (best / best.sum(1, keepdims=True)).ravel()))
    return p


def test_quarry_luck_moves_win_probability():
    p = _luck_players(3000, True, seed=56)
    lucky = qy.with_quarry_luck(p)
    means = lucky.group_by(["seat", "strategy"]).agg(pl.col("luck").mean().abs())
    assert (means["luck"] < 1e-9).all()
    eff = qy.quarry_luck_effect(p).row(0, named=True)
    assert eff["lo"] > 0 and eff["p_value"] < 1e-6 and eff["delta_win_prob"] > 0.02
    assert eff["n"] == 9000 and eff["n_games"] == 3000


def test_no_quarry_luck_effect():
    p = _luck_players(3000, False, seed=57)
    eff = qy.quarry_luck_effect(p).row(0, named=True)
    assert eff["lo"] < 0 < eff["hi"] and eff["p_value"] > 0.01
    assert abs(eff["delta_win_prob"]) < 0.02


def test_yield_summary_from_counts_matches_polars_on_the_rows():
    """quarry_yield_summary works from value counts; its statistics equal polars' on the raw yields."""
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 10, 57, 400):
        inc = rng.integers(0, 9, size=(n, 2))
        ev = pl.DataFrame({"game_index": np.arange(n), "round": rng.integers(0, 3, n),
                           "income_0": inc[:, 0], "income_1": inc[:, 1]})
        got = qy.quarry_yield_summary(ev, per_round=False)
        y = pl.Series((inc[:, 0] + inc[:, 1]).astype(float))
        want = {"n_actions": n, "mean": y.mean(), "sd": y.std(), "median": y.median(),
                "p90": y.quantile(0.9), "max": y.max(), "share_zero": float((y == 0).mean())}
        for k, w in want.items():
            g = got[k][0]
            assert (g is None and w is None) or g == pytest.approx(w, rel=1e-12), (n, k, g, w)
