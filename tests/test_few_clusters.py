"""Intervals from few seeds (issue 33): a ladder's games are clustered by seed (game i of every seating
shares seed i), so a strategy's rating interval rests on its clusters G_s — Student's t on G_s - 1
degrees of freedom, and no interval at all from one seed (a one-round ladder), where the sandwich
would claim near-perfect precision."""
import itertools

import numpy as np
import polars as pl

from analysis.ratings import bradley_terry, dominance, pairwise_win_matrix, rating_text, too_few_clusters
from analysis.stats import cluster_share_table, share_interval, wilson_effective_bounds

THETA = {"a": 0.8, "b": 0.3, "c": 0.0, "d": -0.4, "e": -0.7}


def _ladder(rounds, rng, tau=0.5, k=3):
    """A 3-player ladder of the five planted strengths: every block of 3 in its cyclic rotations, game i of
    every seating from seed i. Seed i's deal shifts each strategy's strength by N(0, tau) in every seating
    (the clustering), then Plackett-Luce (Gumbel noise) orders the players."""
    names = np.array(list(THETA))
    th = np.array(list(THETA.values()))
    seatings = [tuple(b[(i + j) % k] for j in range(k))
                for b in itertools.combinations(range(len(names)), k) for i in range(k)]
    u = rng.normal(0.0, tau, size=(rounds, len(names)))
    cols = {"game_index": [], "seat": [], "strategy": [], "rank": [], "run": []}
    for li, s in enumerate(seatings):
        s = np.array(s)
        perf = th[s][None, :] + u[:, s] + rng.gumbel(size=(rounds, k))
        rank = 1 + (perf[:, None, :] > perf[:, :, None]).sum(axis=2)
        cols["game_index"].append(np.repeat(np.arange(rounds), k))
        cols["seat"].append(np.tile(np.arange(k), rounds))
        cols["strategy"].append(names[np.tile(s, rounds)])
        cols["rank"].append(rank.ravel())
        cols["run"].append(np.full(rounds * k, li))
    return pl.DataFrame({c: np.concatenate(v) for c, v in cols.items()}).with_columns(
        (pl.col("rank") == 1).cast(pl.Float64).alias("win_share"))


def test_ratings_from_few_seeds_keep_their_coverage():
    rng = np.random.default_rng(33)
    # the estimand under the seeds' random shifts: the fit of a ladder of 3,000 rounds (the planted
    # strengths, attenuated a little by the shifts)
    truth = bradley_terry(_ladder(3000, rng), cluster="game_index").sort("strategy")["theta"].to_numpy()
    assert np.all(np.diff(truth) < 0)                     # a > b > c > d > e, as planted
    cover = cover_z = total = 0
    for _ in range(100):
        bt = bradley_terry(_ladder(3, rng), cluster="game_index").sort("strategy")
        assert (bt["clusters"] == 3).all()
        t, se = bt["theta"].to_numpy(), bt["se"].to_numpy()
        cover += int(((bt["lo"].to_numpy() <= truth) & (truth <= bt["hi"].to_numpy())).sum())
        cover_z += int(((t - 1.96 * se <= truth) & (truth <= t + 1.96 * se)).sum())
        total += len(truth)
    assert cover >= 0.93 * total, (cover, total)
    # the normal quantile on the same sandwich (the interval before this fix) undercovers with 3 seeds
    assert cover_z < 0.90 * total, (cover_z, total)


def test_one_round_ladder_claims_no_narrow_interval():
    rng = np.random.default_rng(34)
    one = _ladder(1, rng)
    bt = bradley_terry(one, cluster="game_index")
    assert (bt["clusters"] == 1).all() and bt["theta"].is_finite().all()
    assert bt["elo_lo"].is_nan().all() and bt["elo_hi"].is_nan().all()
    assert sorted(too_few_clusters(bt)) == [(s, 1) for s in sorted(THETA)]
    row = bt.row(0, named=True)
    assert rating_text(row) == f"{row['elo']:,.0f} (no interval: 1 seed)"
    # the head-to-head and the win-share intervals from one seed: no bound either (not Wilson on the games)
    pw = pairwise_win_matrix(one, cluster="game_index")
    assert pw["lo"].is_nan().all() and pw["hi"].is_nan().all()
    dom = dominance(pw)           # no interval: nobody beats or loses to anybody (NaN is no bound)
    assert (dom["beats"] == 0).all() and (dom["loses"] == 0).all() and not dom["dominant"].any()
    ws = cluster_share_table(one, "win_share", "strategy", "game_index")
    assert ws["lo"].is_nan().all() and (ws["n"] == 18).all()
    ci = share_interval(one["win_share"].to_numpy(), clusters=one["game_index"].to_numpy())
    assert np.isnan(ci.lo) and np.isnan(ci.hi) and ci.n_clusters == 1
    # two rounds: intervals again, on Student's t with 1 degree of freedom (12.7 standard errors)
    two = bradley_terry(_ladder(2, rng), cluster="game_index")
    assert (two["clusters"] == 2).all() and two["elo_lo"].is_finite().all()
    half = (two["hi"] - two["theta"]).to_numpy()
    assert np.allclose(half, 12.706 * two["se"].to_numpy(), rtol=1e-3)


def test_wilson_effective_bounds_give_no_bound_without_degrees_of_freedom():
    lo, hi = wilson_effective_bounds([0.5, 0.5, 0.5], [0.05, 0.05, 0.0], [100, 100, 100], df=[0, 9, 9])
    assert np.isnan(lo[0]) and np.isnan(hi[0])
    z_lo, z_hi = wilson_effective_bounds(0.5, 0.05, 100)
    assert hi[1] > z_hi and lo[1] < z_lo                  # t on 9 degrees of freedom: wider than z
    assert np.isfinite(lo[2]) and np.isfinite(hi[2])       # no variance but clusters: Wilson on n, as before


def test_one_round_ladder_report_warns(tmp_path):
    from reports.experiments.skill import ladder_sections
    from reports.ladder import LadderPlan, default_pool, play_ladder

    pool = default_pool("hellas", (5,), ["random", "balanced"])
    plan = LadderPlan(game="hellas", players=2, pool=pool, games=1, seed=5, skill=[], skill_games=0,
                      skill_cheap_games=0)
    rs = play_ladder(plan, str(tmp_path / "ladder"), workers=1, log=lambda s: None)
    secs = ladder_sections(plan, rs)
    ratings = next(t.frame for s in secs for t in s.tables if t.name.endswith("compare_ratings"))
    r = {row["strategy"]: row for row in ratings.iter_rows(named=True)}
    # the search level played its 2 games (one seating each way) from seed 0 only; the cheap pair 50 seeds
    assert r["mcts:iterations=5"]["clusters"] == 1 and r["mcts:iterations=5"]["elo_lo"] != r["mcts:iterations=5"]["elo_lo"]
    assert r["random"]["clusters"] == 50 and np.isfinite(r["random"]["elo_lo"])
    warn = secs[1].paragraphs[0]
    assert warn.startswith("**Warning: too few seeds for a rating interval.**")
    assert "mcts:iterations=5 (1 seed)" in warn and "random" not in warn
    assert "no interval: 1 seed" in secs[1].terminal
