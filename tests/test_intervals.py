"""Coverage of the reported intervals over re-runs with fresh seeds (issue 37, docs/intervals.md).

Each test re-runs a design at least 200 times, from fixed seeds (the counts are the same every run),
and checks that the 95% intervals the analysis functions report cover the truth 93-97 times in 100,
and that they are no wider than the valid interval (2 z times the estimator's true standard
deviation, known exactly for the simulated outcome processes) by more than 3%. Where the engine is
not the point the outcome process is simulated directly, with the features that matter: seeds
shared by every lineup or level, and ties counted 1/k. The intervals of before issue 37 are
computed alongside and shown to miss (too narrow under shared seeds, too wide with ties).
"""
import math

import numpy as np
import polars as pl
import pytest
from scipy import special

from analysis.balance import gap_interval
from analysis.ratings import pairwise_win_matrix
from analysis.seats import seat_advantage
from analysis.stats import (cluster_share_table, logistic_fit, observed_share_bounds, share_interval,
                            wilson_bounds, z_value)
from analysis.sweep import seat_balance

Z = z_value(0.95)
RERUNS = 400


def _cover(lo, hi, truth):
    return float(np.mean((np.asarray(lo) <= truth) & (truth <= np.asarray(hi))))


# ---------------------------------------------------------------- shared seeds: compare's design

def _shared_seed_draws(rng, reruns, seeds, lineups, p, a):
    """Per re-run, per seed, per lineup a 0/1 outcome with P = p ± a, the sign drawn per seed (shared)."""
    q = p + a * rng.choice([-1.0, 1.0], size=(reruns, seeds, 1))
    return (rng.random((reruns, seeds, lineups)) < q).astype(float)


def test_shared_seed_share_keeps_its_coverage():
    # spread/SE 1.22 for the independent-trials Wilson interval, as issue 37 measured on compare
    seeds, lineups, p = 300, 6, 0.55
    a = math.sqrt((1.22 ** 2 - 1) / (lineups - 1) * p * (1 - p))
    y = _shared_seed_draws(np.random.default_rng(37), RERUNS, seeds, lineups, p, a)
    true_sd = math.sqrt((a * a + (p * (1 - p) - a * a) / lineups) / seeds)
    est = y.mean(axis=(1, 2))
    assert est.std(ddof=1) / true_sd == pytest.approx(1.0, abs=0.1)
    old = wilson_bounds(y.sum(axis=(1, 2)), seeds * lineups)
    cis = [share_interval(r.reshape(-1), clusters=np.repeat(np.arange(seeds), lineups)) for r in y]
    lo, hi = np.array([c.lo for c in cis]), np.array([c.hi for c in cis])
    old_cover, new_cover = _cover(*old, p), _cover(lo, hi, p)
    assert 0.86 <= old_cover <= 0.91            # the intervals before: too narrow
    assert 0.93 <= new_cover <= 0.97
    width = np.mean(hi - lo) / (2 * Z * true_sd)
    assert 0.97 <= width <= 1.03
    # the polars form (what the reports call) gives the same interval
    t = pl.DataFrame({"rerun": np.repeat(np.arange(5), seeds * lineups),
                      "g": np.tile(np.repeat(np.arange(seeds), lineups), 5), "y": y[:5].reshape(-1)})
    tab = cluster_share_table(t, "y", "rerun", "g")
    assert tab["lo"].to_numpy() == pytest.approx(lo[:5]) and tab["hi"].to_numpy() == pytest.approx(hi[:5])
    assert (tab["clusters"] == seeds).all()


def _compare_players(rng, reruns, seeds, theta, luck, seat):
    """A compare design of 2-player games without the engine: every ordered pair of strategies is a lineup,
    game i of every lineup from seed i; seed i gives strategy s a luck ``±luck`` in every lineup."""
    names = list(theta)
    lineups = [(a, b) for a in names for b in names if a != b]
    u = luck * rng.choice([-1.0, 1.0], size=(reruns, seeds, len(names)))
    frames = []
    for a, b in lineups:
        ia, ib = names.index(a), names.index(b)
        pa = special.expit(theta[a] - theta[b] + seat + u[:, :, ia] - u[:, :, ib])
        a_wins = rng.random((reruns, seeds)) < pa
        rank_a = np.where(a_wins, 1, 2)
        frames.append(pl.DataFrame({
            "rerun": np.repeat(np.arange(reruns), seeds * 2), "lineup": f"{a}|{b}",
            "game_index": np.tile(np.repeat(np.arange(seeds), 2), reruns),
            "seat": np.tile([0, 1], reruns * seeds), "strategy": np.tile([a, b], reruns * seeds),
            "rank": np.stack([rank_a, 3 - rank_a], axis=-1).reshape(-1),
            "win_share": np.stack([a_wins, ~a_wins], axis=-1).reshape(-1).astype(float)}))
    return pl.concat(frames)


def _pair_truth(theta, luck, seat, a, b):
    """P(a finishes ahead of b) over both seatings and the four luck signs (exact)."""
    vals = [special.expit(theta[a] - theta[b] + s * seat + luck * (ua - ub))
            for s in (1, -1) for ua in (-1, 1) for ub in (-1, 1)]
    return float(np.mean(vals))


def test_head_to_head_clustered_by_seed_keeps_its_coverage():
    theta = {"x": 0.3, "y": 0.0, "z": -0.2}
    luck, seat = 0.9, 0.2
    players = _compare_players(np.random.default_rng(3701), 250, 200, theta, luck, seat)
    # what compare does: a lineup is a run, the seed (game_index) is the unit
    pw = pairwise_win_matrix(players.rename({"lineup": "run"}), by="rerun", cluster="game_index")
    pw = pw.filter(pl.col("strategy") < pl.col("opponent"))
    assert (pw["clusters"] == 200).all() and (pw["n"] == 400).all()
    old_lo, old_hi = wilson_bounds(pw["wins"].to_numpy(), pw["n"].to_numpy())
    truth = np.array([_pair_truth(theta, luck, seat, a, b) for a, b in zip(pw["strategy"], pw["opponent"])])
    new_cover = _cover(pw["lo"].to_numpy(), pw["hi"].to_numpy(), truth)
    old_cover = _cover(old_lo, old_hi, truth)
    assert old_cover < 0.92
    assert 0.93 <= new_cover <= 0.97
    # width against the spread of the estimates over the re-runs (the valid width, to within ~5%)
    for (a, b), part in pw.group_by(["strategy", "opponent"]):
        ratio = float(((part["hi"] - part["lo"]).mean()) / (2 * Z * part["win_share"].std()))
        assert 0.9 <= ratio <= 1.1, (a, b, ratio)
    # a strategy's win share over all its seats, clustered by seed as compare does
    tab = cluster_share_table(players, "win_share", ["rerun", "strategy"], "game_index")
    truth_s = {s: np.mean([_pair_truth(theta, luck, seat, s, o) for o in theta if o != s]) for s in theta}
    t = tab["strategy"].replace_strict(truth_s, return_dtype=pl.Float64).to_numpy()
    assert 0.93 <= _cover(tab["lo"].to_numpy(), tab["hi"].to_numpy(), t) <= 0.97


# ---------------------------------------------------------------- ties: the observed variance

def _tied_shares(rng, reruns, games, p_sole, p_two, p_three):
    """Seat 0's win share per game: sole win, 2-way tie (1/2), 3-way tie (1/3), or 0."""
    u = rng.random((reruns, games))
    return np.select([u < p_sole, u < p_sole + p_two, u < p_sole + p_two + p_three], [1.0, 0.5, 1 / 3], 0.0)


def test_ties_narrow_the_seat_interval_to_the_valid_width():
    # 3 players with ties common (random-play Hellas: 17.5% of games tied)
    p_sole, p_two, p_three, games = 0.27, 0.10, 0.04, 1000
    mean = p_sole + p_two / 2 + p_three / 3
    var = p_sole + p_two / 4 + p_three / 9 - mean * mean
    valid = 2 * Z * math.sqrt(var / games)
    w = _tied_shares(np.random.default_rng(3702), RERUNS, games, p_sole, p_two, p_three)
    old_lo, old_hi = wilson_bounds(w.sum(axis=1), games)
    lo, hi = observed_share_bounds(w.sum(axis=1), games, (w * w).sum(axis=1))
    assert np.mean(old_hi - old_lo) / valid > 1.05          # Wilson's p(1-p): too wide with ties
    assert 0.97 <= np.mean(hi - lo) / valid <= 1.03
    assert 0.93 <= _cover(lo, hi, mean) <= 0.97
    # the seat table reports exactly that interval (seat 0 of a 3-player table, ties as 1/k)
    g = 300
    s0 = w[0, :g]
    rest = (1 - s0) / 2
    p = pl.DataFrame({"game_index": np.repeat(np.arange(g), 3), "seat": np.tile([0, 1, 2], g),
                      "total": np.tile([10, 9, 8], g),
                      "win_share": np.stack([s0, rest, rest], axis=1).reshape(-1)})
    row = seat_advantage(p).filter(pl.col("seat") == 0).row(0, named=True)
    lo1, hi1 = observed_share_bounds([s0.sum()], g, [(s0 * s0).sum()])
    assert row["win_lo"] == pytest.approx(float(lo1[0])) and row["win_hi"] == pytest.approx(float(hi1[0]))


def test_sweep_cells_cover_with_ties():
    # every re-run one cell of a 2-player sweep: each seat's interval from the sums with their squares
    p_sole, p_tie, games = 0.46, 0.12, 800
    mean = p_sole + p_tie / 2
    w = _tied_shares(np.random.default_rng(3703), 250, games, p_sole, p_tie, 0.0)
    sums = pl.DataFrame({
        "cell": np.repeat(np.arange(250), 2), "n_players": 2, "seat": np.tile([0, 1], 250), "n": games,
        "wins": np.stack([w.sum(axis=1), games - w.sum(axis=1)], axis=1).reshape(-1),
        "wins_ss": np.stack([(w * w).sum(axis=1), ((1 - w) ** 2).sum(axis=1)], axis=1).reshape(-1)})
    t = seat_balance(sums, "cell")
    assert 0.93 <= _cover(t["lo_0"].to_numpy(), t["hi_0"].to_numpy(), mean) <= 0.97
    assert 0.93 <= _cover(t["lo_1"].to_numpy(), t["hi_1"].to_numpy(), 1 - mean) <= 0.97
    var = p_sole + p_tie / 4 - mean * mean
    assert 0.97 <= float((t["hi_0"] - t["lo_0"]).mean()) / (2 * Z * math.sqrt(var / games)) <= 1.03


# ---------------------------------------------------------------- balance: the gap with 2 players

def _old_gap_interval(sums, n, level=0.95):
    """The gap interval before issue 37: Wilson per seat at 1 - alpha / N (Bonferroni) even with N = 2."""
    sums = np.asarray(sums, dtype=float)
    fair = 1 / len(sums)
    lo, hi = wilson_bounds(sums, n, 1 - (1 - level) / len(sums))
    near = np.where(lo > fair, lo - fair, np.where(hi < fair, fair - hi, 0.0))
    far = np.maximum(np.abs(lo - fair), np.abs(hi - fair))
    return float(near.max()), float(far.max())


def test_two_player_gap_interval_is_exact_width():
    p_sole, p_tie, games = 0.47, 0.10, 20_000        # seat 0's share 0.52: a gap of 2 pp
    mean = p_sole + p_tie / 2
    gap = abs(mean - 0.5)
    var = p_sole + p_tie / 4 - mean * mean
    valid = 2 * Z * math.sqrt(var / games)
    w = _tied_shares(np.random.default_rng(3704), RERUNS, games, p_sole, p_tie, 0.0)
    new, old = [], []
    for r in w:
        s = np.array([r.sum(), games - r.sum()])
        q = np.array([(r * r).sum(), ((1 - r) ** 2).sum()])
        new.append(gap_interval(s, games, squares=q)[1:])
        old.append(_old_gap_interval(s, games))
    new, old = np.array(new), np.array(old)
    assert np.mean(old[:, 1] - old[:, 0]) / valid > 1.15             # Bonferroni over one number: too wide
    assert _cover(old[:, 0], old[:, 1], gap) >= _cover(new[:, 0], new[:, 1], gap)
    assert 0.93 <= _cover(new[:, 0], new[:, 1], gap) <= 0.97
    assert 0.97 <= np.mean(new[:, 1] - new[:, 0]) / valid <= 1.03
    # without ties (no squares), 10^5 games: 0.620 pp wide where Bonferroni gave 0.709 pp (issue 37)
    g, lo, hi = gap_interval([51_000.0, 49_000.0], 100_000)
    assert (hi - lo) * 100 == pytest.approx(0.620, abs=0.002)
    assert (np.subtract(*_old_gap_interval([51_000.0, 49_000.0], 100_000)[::-1])) * 100 == \
        pytest.approx(0.709, abs=0.002)


# ---------------------------------------------------------------- skill levels on one seed

def test_skill_trend_clustered_by_seed():
    # 4 levels, every level's game i from seed i: a seed's tiles favour seat 0 at every level; no trend
    rng = np.random.default_rng(3705)
    levels, games, reruns = np.array([1400.0, 1500.0, 1650.0, 1800.0]), 300, RERUNS
    xs = np.repeat((levels - levels.mean()) / 100, games)
    design = np.column_stack([np.ones_like(xs), xs])
    seed = np.tile(np.arange(games), len(levels))
    slopes, new, old = [], [], []
    for _ in range(reruns):
        u = rng.normal(0, 2.0, size=games)                      # the seed's effect, shared by the levels
        y = (rng.random(games * len(levels)) < special.expit(-0.6 + np.tile(u, len(levels)))).astype(float)
        fit_new = logistic_fit(design, y, groups=seed)
        fit_old = logistic_fit(design, y, groups=np.arange(len(y)))
        slopes.append(fit_new.coef[1])
        new.append(fit_new.se[1])
        old.append(fit_old.se[1])
    slopes, new, old = map(np.array, (slopes, new, old))
    assert 0.93 <= _cover(slopes - Z * new, slopes + Z * new, 0.0) <= 0.97
    assert np.mean(old) / slopes.std(ddof=1) > 1.2                      # rows taken as independent: too wide
    assert np.mean(new) / slopes.std(ddof=1) == pytest.approx(1.0, abs=0.07)
    # seat_share_trend clusters its fit by game_index, the seed the levels share
    from analysis.skill import seat_share_trend

    y = (rng.random(games * len(levels)) < 0.4).astype(float)
    names = np.repeat(["a", "b", "c", "d"], games)
    p = pl.DataFrame({"level": np.repeat(names, 2), "game_index": np.repeat(seed, 2), "n_players": 2,
                      "seat": np.tile([0, 1], len(y)), "win_share": np.stack([y, 1 - y], axis=1).reshape(-1)})
    row = seat_share_trend(p, dict(zip("abcd", levels))).filter(pl.col("seat") == 0).row(0, named=True)
    fit = logistic_fit(design, y, groups=seed)
    assert row["slope_hi"] - row["slope"] == pytest.approx(Z * fit.se[1])


# ---------------------------------------------------------------- one definition of a win

def _tie_heavy_players(games=3000, n=3, seed=3706):
    """A players table with many ties for first (small integer scores), ranks and shares as the runner's."""
    rng = np.random.default_rng(seed)
    pts = rng.poisson([2.0, 1.0, 1.5], size=(games, n, 3))
    total = pts.sum(axis=2)
    top = total == total.max(axis=1, keepdims=True)
    share = top / top.sum(axis=1, keepdims=True)
    return pl.DataFrame({
        "game_index": np.repeat(np.arange(games), n), "seat": np.tile(np.arange(n), games), "n_players": n,
        "a": pts[:, :, 0].reshape(-1), "b": pts[:, :, 1].reshape(-1), "c": pts[:, :, 2].reshape(-1),
        "total": total.reshape(-1), "win_share": share.reshape(-1)})


def test_category_figures_count_a_tie_as_a_fraction():
    from analysis._common import GAME_KEY
    from analysis.categories import category_counterfactual, category_profile

    p = _tie_heavy_players()
    games = p["game_index"].n_unique()
    assert ((p["win_share"] > 0) & (p["win_share"] < 1)).sum() > 0.2 * games       # ties are common
    prof = category_profile(p, ["a", "b", "c"])
    win = prof.filter(pl.col("role") == "winner")
    # a k-way tie counts 1/k: the winners add up to one per game, and their mean is share-weighted
    assert (win["n"] == games).all()
    w = p["win_share"].to_numpy()
    assert win.filter(pl.col("category") == "a")["mean"].item() == pytest.approx(
        float((w * p["a"].to_numpy()).sum() / w.sum()))
    assert (prof.filter(pl.col("role") == "all")["n"] == p.height).all()
    # the counterfactual: the general path and the whole-games path agree, and its lost win is fractional
    slow = category_counterfactual(p, ["a", "b", "c"])
    fast = category_counterfactual(p.with_columns(pl.col("game_index").cast(pl.Int64).set_sorted().alias(GAME_KEY)),
                                   ["a", "b", "c"])
    assert slow.select("category", "n_games", "kept", "shared").equals(fast.select("category", "n_games", "kept",
                                                                                   "shared"))
    assert slow["lost"].to_numpy() == pytest.approx(fast["lost"].to_numpy())
    assert slow["lost_hi"].to_numpy() == pytest.approx(fast["lost_hi"].to_numpy())
    assert (slow["lost"] != slow["lost"].round()).any()                       # half wins moved by ties
    # a direct count for one category: the win share that changes hands, per game
    tot = p["total"].to_numpy().reshape(-1, 3)
    alt = tot - p["b"].to_numpy().reshape(-1, 3)
    top = alt == alt.max(axis=1, keepdims=True)
    moved = np.clip(w.reshape(-1, 3) - top / top.sum(axis=1, keepdims=True), 0, None).sum(axis=1)
    assert slow.filter(pl.col("category") == "b")["p_lost"].item() == pytest.approx(moved.mean())


# ---------------------------------------------------------------- variants on one seed: paired

def test_paired_variant_difference_keeps_coverage_at_the_valid_width():
    # a score-only change: game i of the variant ends as under the baseline 85% of the time
    from analysis.stats import paired_differences, two_proportion_ztest

    rng = np.random.default_rng(3707)
    games = 2000
    yb = (rng.random((RERUNS, games)) < 0.4).astype(float)
    keep = rng.random((RERUNS, games)) < 0.85
    yv = np.where(keep, yb, (rng.random((RERUNS, games)) < 0.5).astype(float))
    true_diff, var_d = 0.15 * 0.1, 0.15 * 0.5 - (0.15 * 0.1) ** 2
    valid = 2 * Z * math.sqrt(var_d / games)
    t = pl.DataFrame({"variant": np.repeat(["base", "var"], RERUNS * games),
                      "rerun": np.tile(np.repeat(np.arange(RERUNS), games), 2),
                      "game_index": np.tile(np.arange(games), 2 * RERUNS),
                      "value": np.concatenate([yb.reshape(-1), yv.reshape(-1)])})
    out = paired_differences(t, "variant", "base", "game_index", "rerun")
    assert (out["n_pairs"] == games).all() and out["corr"].mean() > 0.6
    assert 0.93 <= _cover(out["diff_lo"], out["diff_hi"], true_diff) <= 0.97
    assert 0.97 <= float((out["diff_hi"] - out["diff_lo"]).mean()) / valid <= 1.03
    # the independent-samples interval: valid, but far wider than it need be
    ind = two_proportion_ztest(pl.DataFrame({"x1": yb.sum(1), "n1": games, "x2": yv.sum(1), "n2": games}),
                               "x1", "n1", "x2", "n2")
    assert float((ind["diff_hi"] - ind["diff_lo"]).mean()) / valid > 2.0


def test_variant_differences_use_the_paired_interval():
    from analysis.summary import headline_pairs, headline_stats, variant_differences

    p = _tie_heavy_players(games=1500)
    # a score-only variant: 1 point more for seat 2 (winners and ties recomputed)
    tot = p["total"].to_numpy().reshape(-1, 3) + np.array([0, 0, 1])
    top = tot == tot.max(axis=1, keepdims=True)
    v = p.with_columns(pl.Series("total", tot.reshape(-1)),
                       pl.Series("win_share", (top / top.sum(axis=1, keepdims=True)).reshape(-1)))
    both = pl.concat([p.with_columns(pl.lit("base").alias("variant")), v.with_columns(pl.lit("plus").alias("variant"))])
    head = headline_stats(both, by="variant", categories=["a", "b", "c"])
    plain = variant_differences(head, baseline="base")
    paired = variant_differences(head, baseline="base",
                                 paired=headline_pairs(both, baseline="base", categories=["a", "b", "c"]))
    assert paired["paired"].all() and not plain["paired"].any()
    assert paired["diff"].to_list() == plain["diff"].to_list()
    w2 = paired.filter((pl.col("statistic") == "win_share") & (pl.col("item") == "seat 2")).row(0, named=True)
    i2 = plain.filter((pl.col("statistic") == "win_share") & (pl.col("item") == "seat 2")).row(0, named=True)
    assert w2["diff_hi"] - w2["diff_lo"] < 0.6 * (i2["diff_hi"] - i2["diff_lo"])
    assert w2["diff_lo"] <= w2["diff"] <= w2["diff_hi"]
