"""Compare's intervals on the real engine: 200 re-runs of a small comparison with fresh seeds (issue 37).

Every re-run is the compare design — every lineup of three Hellas presets in 2-player games, game i of
every lineup from seed i of the re-run's run seed — played with the engines' batch kernel, and analysed
with the calls ``reports.compare.compare_tables`` makes (stacked over the re-runs with a ``rerun``
column, so one call covers them all). The truth is the mean over the re-runs (its own error is the
spread / sqrt(200), a few tenths of a percentage point of coverage).
"""
import numpy as np
import polars as pl
import pytest

RERUNS, GAMES = 200, 40
NAMES = ["balanced", "temple_builder", "city_builder"]


@pytest.fixture(scope="module")
def players():
    import simcore
    import strategies
    from reports.compare import lineups
    from simcore._contract import policy_argument
    from simcore.rng import chunk_seeds

    mod = simcore.games["hellas"]
    pol = {n: policy_argument(mod, strategies.resolve("hellas", n).to_dict()) for n in NAMES}
    cfg = mod.make_config(2)
    frames = []
    for r in range(RERUNS):
        seeds = chunk_seeds(37_000 + r, 0, GAMES)
        for lineup in lineups(NAMES, 2):
            out = mod.play_batch(2, seeds, [pol[n] for n in lineup], config=cfg, events=False)["players"]
            frames.append(pl.DataFrame({
                "rerun": r, "run": "|".join(lineup), "game_index": np.repeat(np.arange(GAMES), 2),
                "seat": np.tile([0, 1], GAMES), "n_players": 2, "strategy": list(lineup) * GAMES,
                "rank": np.asarray(out["rank"]).reshape(-1),
                "win_share": np.asarray(out["win_share"], dtype=np.float64).reshape(-1)}))
    return pl.concat(frames)


def _coverage(table, keys, est, lo, hi):
    t = table.with_columns(pl.col(est).mean().over(keys).alias("__truth"))
    return float(((t[lo] <= t["__truth"]) & (t["__truth"] <= t[hi])).mean())


def test_compare_intervals_cover_over_reruns(players):
    from analysis.ratings import bradley_terry, pairwise_win_matrix
    from analysis.stats import cluster_share_table

    pw = pairwise_win_matrix(players, by="rerun", cluster="game_index").filter(pl.col("strategy") < pl.col("opponent"))
    assert (pw["clusters"] == GAMES).all()
    cover = _coverage(pw, ["strategy", "opponent"], "win_share", "lo", "hi")
    assert 0.93 <= cover <= 0.97, cover
    # each head-to-head interval as wide as the spread of its estimate over the re-runs says (within
    # the ~5% error of a spread from 200 re-runs)
    for _, part in pw.group_by(["strategy", "opponent"]):
        ratio = float((part["hi"] - part["lo"]).mean() / (2 * 1.959964 * part["win_share"].std()))
        assert 0.88 <= ratio <= 1.12, ratio
    allseats = cluster_share_table(players, "win_share", ["rerun", "strategy"], "game_index")
    assert 0.93 <= _coverage(allseats, ["strategy"], "share", "lo", "hi") <= 0.97
    byseat = cluster_share_table(players, "win_share", ["rerun", "strategy", "seat"], "game_index")
    assert 0.93 <= _coverage(byseat, ["strategy", "seat"], "share", "lo", "hi") <= 0.97
    bt = bradley_terry(players, by="rerun", cluster="game_index")
    assert 0.93 <= _coverage(bt, ["strategy"], "elo", "elo_lo", "elo_hi") <= 0.97


def test_compare_tables_use_the_seed_clusters(players):
    from analysis.stats import cluster_share_table
    from reports.compare import compare_tables

    one = players.filter(pl.col("rerun") == 0).drop("rerun").rename({"run": "lineup"})
    t = compare_tables(one, "lineup")
    assert (t["pairwise"]["clusters"] == GAMES).all()
    ref = cluster_share_table(one, "win_share", "strategy", "game_index")
    m = t["win_share_matrix"].sort("strategy")
    assert m["all seats lo"].to_list() == (ref["lo"] * 100).round(1).to_list()
    seat = cluster_share_table(one, "win_share", ["strategy", "n_players", "seat"], "game_index")
    adv = t["win_share_by_seat"].sort("strategy", "seat")
    assert adv["win_lo"].to_numpy() == pytest.approx(seat["lo"].to_numpy())
    # the dominance call reads the clustered head-to-head intervals
    dom = t["dominance"]
    for r in dom.iter_rows(named=True):
        rows = t["pairwise"].filter(pl.col("strategy") == r["strategy"])
        assert r["beats"] == int((rows["lo"] > 0.5).sum())
