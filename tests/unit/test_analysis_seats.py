"""Tests for analysis.seats with planted seat effects and ties."""

import doctest

import numpy as np
import polars as pl
import pytest

import analysis.seats as seats
from _analysis_synth import make_players


def planted(n_games, probs, tie_rate, seed, rep_size=None):
    """Players table where the winner is drawn from ``probs``; with
    ``tie_rate`` the winner ties with a uniformly chosen other seat.
    Returns the table and each seat's true expected win share."""
    rng = np.random.default_rng(seed)
    probs = np.asarray(probs)
    n = len(probs)
    win = rng.choice(n, size=n_games, p=probs)
    tie = rng.random(n_games) < tie_rate
    other = (win + rng.integers(1, n, n_games)) % n
    total = rng.integers(0, 20, size=(n_games, n))
    total[np.arange(n_games), win] = 30
    total[np.arange(n_games)[tie], other[tie]] = 30
    best = total == total.max(1, keepdims=True)
    share = best / best.sum(1, keepdims=True)
    df = pl.DataFrame({
        "game_index": np.repeat(np.arange(n_games), n),
        "seat": np.tile(np.arange(n, dtype=np.int8), n_games),
        "total": total.ravel().astype(np.int16),
        "win_share": share.ravel().astype(np.float32),
    })
    if rep_size:
        df = df.with_columns((pl.col("game_index") // rep_size).alias("rep"))
    true = (1 - tie_rate) * probs + tie_rate * 0.5 * (probs + (1 - probs) / (n - 1))
    return df, true


def test_doctests():
    res = doctest.testmod(seats, extraglobs={"pl": pl, "np": np})
    assert res.failed == 0 and res.attempted >= 5


def test_planted_seat_effect_is_detected_and_covered():
    probs = [0.42, 0.30, 0.28]
    p, true = planted(6000, probs, 0.1, seed=1)
    adv = seats.seat_advantage(p)
    assert adv["n"].to_list() == [6000] * 3
    lo, hi = adv["win_lo"].to_numpy(), adv["win_hi"].to_numpy()
    assert np.all((lo <= true) & (true <= hi))
    assert adv["dev_lo"][0] > 0  # seat 0 is significantly above 1/3
    test = seats.seat_equality_test(p)
    assert test["p_value"].item() < 1e-6 and test["g_p_value"].item() < 1e-6
    assert test["n_games"].item() == 6000


def test_no_seat_effect_is_not_flagged_and_test_is_calibrated():
    p, _ = planted(300 * 400, [0.25] * 4, 0.1, seed=2, rep_size=300)
    test = seats.seat_equality_test(p, by="rep")
    assert test.height == 400
    rate = (test["p_value"] < 0.05).mean()
    assert 0.01 <= rate <= 0.08  # ties make it mildly conservative, never liberal
    one, _ = planted(5000, [0.25] * 4, 0.1, seed=3)
    assert seats.seat_equality_test(one)["p_value"].item() > 0.01


def test_win_share_ci_coverage_with_grouping():
    p, true = planted(200 * 1000, [0.4, 0.35, 0.25], 0.0, seed=4, rep_size=200)
    adv = seats.seat_advantage(p.lazy(), by="rep").collect()
    t = np.asarray(true)[adv["seat"].to_numpy()]
    cover = np.mean((adv["win_lo"].to_numpy() <= t) & (t <= adv["win_hi"].to_numpy()))
    assert 0.93 <= cover <= 0.97


def test_mean_total_ci_coverage():
    p = make_players(100 * 1000, 2, seed=5).with_columns((pl.col("game_index") // 100).alias("rep"))
    adv = seats.seat_advantage(p, by="rep")
    cover = ((adv["total_lo"] <= 23.0) & (adv["total_hi"] >= 23.0)).mean()
    assert 0.93 <= cover <= 0.97


def test_ties_share_the_win():
    p = pl.DataFrame({
        "game_index": [0, 0, 0, 1, 1, 1],
        "seat": [0, 1, 2, 0, 1, 2],
        "total": [20, 20, 20, 10, 12, 12],
        "win_share": [1 / 3, 1 / 3, 1 / 3, 0.0, 0.5, 0.5],
    })
    adv = seats.seat_advantage(p)
    assert adv["win_share"].to_list() == pytest.approx([1 / 6, 5 / 12, 5 / 12])
    assert adv["tied_wins"].to_list() == [1, 2, 2]
    assert adv["sole_wins"].to_list() == [0, 0, 0]
    assert adv["mean_margin"].to_list() == pytest.approx([-1.0, 0.0, 0.0])
    assert adv["n_players"].to_list() == [3, 3, 3]  # counted per game when absent


def test_groups_by_player_count_and_mix():
    a = make_players(300, 2, seed=6, strategies=["x", "y"])
    b = make_players(300, 4, seed=7, strategies=["x", "y"])
    p = pl.concat([a, b.with_columns(pl.col("game_index") + 10_000)])
    adv = seats.seat_advantage(seats.add_strategy_mix(p, ordered=False), by="strategy_mix")
    assert set(adv["n_players"].unique()) == {2, 4}
    assert adv.filter(pl.col("n_players") == 2)["strategy_mix"].n_unique() == 3
    # every game counted once per seat
    assert adv.filter(pl.col("seat") == 0)["n"].sum() == 600


def test_float_aggregates_are_the_same_bits_whatever_the_row_order():
    """Win shares of tied games (1/3, 1/2) summed, the chi-square over seats, an SD: shuffling the rows
    (and so the threads' split of each group) leaves every bit of the results as it was."""
    from analysis._common import ordered_mean, ordered_sd, ordered_sum

    p = make_players(4000, 3, seed=58)
    assert p.filter((pl.col("win_share") > 0) & (pl.col("win_share") < 1)).height > 100     # ties are there
    v = pl.col("win_share").cast(pl.Float64)
    aggs = [ordered_sum(v).alias("s"), ordered_mean(v).alias("m"), ordered_sd(pl.col("total").cast(pl.Float64) / 7)
            .alias("sd")]
    want_test = seats.seat_equality_test(p)
    want = p.group_by("seat").agg(aggs).sort("seat")
    for seed in range(4):
        q = p.sample(fraction=1.0, shuffle=True, seed=seed)
        assert q.group_by("seat").agg(aggs).sort("seat").equals(want)
        assert seats.seat_equality_test(q).equals(want_test)
    plain = p.group_by("seat").agg(v.sum().alias("s"), (pl.col("total") / 7).std().alias("sd")).sort("seat")
    assert np.allclose(want["s"], plain["s"], rtol=1e-13) and np.allclose(want["sd"], plain["sd"], rtol=1e-13)
    one = pl.DataFrame({"g": [1, 2, 2], "x": [3.0, None, 2.0]}).group_by("g").agg(ordered_sd(pl.col("x"))).sort("g")
    assert one["x"].to_list() == [None, None]          # fewer than two values: no SD, as polars' std()


def test_equality_test_from_batch_sums_equals_the_direct_one():
    """The report tests equal seats from its per-seat sums (batches added up), not from a second pass."""
    from analysis._common import add_up

    p = make_players(3000, 4, seed=59, seat_bonus=np.array([1.0, 0.0, 0.0, 0.0]))
    halves = [p.filter(pl.col("game_index") < 1500), p.filter(pl.col("game_index") >= 1500)]
    sums = add_up([seats.seat_sums(h) for h in halves], ["n_players", "seat"])
    got, want = seats.seat_equality_from_sums(sums), seats.seat_equality_test(p)
    assert got["n_games"].to_list() == want["n_games"].to_list() == [3000]
    for col in ("chi2", "p_value", "g_stat", "g_p_value", "max_abs_deviation"):
        assert got[col].item() == pytest.approx(want[col].item(), rel=1e-12)
    assert want["p_value"].item() < 1e-3          # the planted seat-0 bonus is found


def test_win_shares_are_summed_exactly():
    """1/3 stored as float32 is 0.33333334: a float sum of 30,000 of them is off by ~3e-4; share_sum
    counts each tie share as the exact 1/k, in any row order, and numpy's path agrees bit for bit."""
    from analysis._common import share_sum, share_sum_np

    w = np.array([1 / 3] * 30000 + [0.5] * 10 + [1.0] * 7 + [0.25] * 4 + [0.0] * 9, dtype=np.float32)
    df = pl.DataFrame({"g": np.zeros(w.size, dtype=np.int64), "w": w})
    exact = 10000 + 5 + 7 + 1
    got = df.group_by("g").agg(share_sum(pl.col("w"))).item(0, "w")
    assert got == exact and share_sum_np(w) == exact
    assert abs(float(w.astype(np.float64).sum()) - exact) > 1e-4        # what a plain sum gives
    for seed in range(3):
        assert df.sample(fraction=1.0, shuffle=True, seed=seed).group_by("g").agg(
            share_sum(pl.col("w"))).item(0, "w") == exact
