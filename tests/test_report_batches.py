"""Report sections that add up per-batch sums equal the analyses of the whole collected table."""
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import reports.runset
from strategies import resolve_seats


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    from simcore.run import simulate

    root = tmp_path_factory.mktemp("runs")
    dirs = {}
    for label, seed in (("a", 5), ("b", 6)):
        dirs[label] = str(root / label)
        simulate("hellas", players=3, games=300, seed=seed, out=dirs[label],
                 strategies=resolve_seats("hellas", 3, "balanced"), progress=False, workers=1, chunk_size=100)
    return dirs


def test_batched_sections_equal_the_whole_table(two_runs, monkeypatch):
    import reports.report as R
    from analysis.categories import category_counterfactual, category_profile
    from analysis.convergence import seat_convergence, seat_games_needed
    from analysis.seats import seat_advantage
    from analysis.summary import score_distribution

    monkeypatch.setattr(reports.runset, "BATCH_GAMES", 100)          # one 100-game part a batch: 3 per run
    rs = R.RunSet.from_dirs(two_runs)
    assert [b.select(pl.len()).collect().item() for b in rs.batches("players")] == [300] * 6
    p = rs.players.drop("game_key")
    cats = rs.categories
    summary = (p.group_by(["run", "n_players", "seat"])
               .agg(pl.len().alias("n"), pl.col("total").mean().alias("mean"), pl.col("total").std().alias("sd"),
                    pl.col("total").quantile(0.1).alias("p10"), pl.col("total").median().alias("median"),
                    pl.col("total").quantile(0.9).alias("p90"))
               .sort(["run", "n_players", "seat"]))
    want = {"seat_advantage": seat_advantage(p, by="run"),
            "score_summary": summary,
            "score_distribution": score_distribution(p, by="run"),
            "category_profile": category_profile(p, cats, by="run"),
            "category_counterfactual": category_counterfactual(p, cats, by="run"),
            "seat_convergence": seat_convergence(p, by="run"),
            "games_needed": seat_games_needed(p, 0.01, by="run")}
    got = {t.name: t.frame for s in (R.seat_section(rs), R.score_section(rs), R.category_section(rs),
                                     R.convergence_section(rs)) for t in s.tables}
    for name, frame in want.items():
        assert_frame_equal(got[name], frame, rel_tol=1e-12, abs_tol=1e-14, check_dtypes=False)
    assert got["seat_convergence"]["games"].max() == 300 and got["score_summary"]["n"].to_list() == [300] * 6


def test_batched_hellas_quarry_section_equals_the_whole_table(two_runs, monkeypatch):
    import reports.report as R
    from analysis.games.hellas import (
        marble_income_by_seat,
        quarry_closures_per_game,
        quarry_yield_distribution,
        quarry_yield_summary,
    )
    from reports.games.hellas import hellas_quarry_section

    rs = R.RunSet.from_dirs(two_runs)
    whole = {"quarry_yield_summary": quarry_yield_summary(rs.events, by="run"),
             "quarry_closures": quarry_closures_per_game(rs.events, rs.games, by="run"),
             "quarry_yield_distribution": quarry_yield_distribution(rs.events, by="run", per_round=False),
             "marble_income_by_seat": marble_income_by_seat(rs.players, by="run")}
    monkeypatch.setattr(reports.runset, "BATCH_GAMES", 100)          # one 100-game part a batch: 3 per run
    got = {t.name: t.frame for t in hellas_quarry_section(R.RunSet.from_dirs(two_runs)).tables}
    for name, frame in whole.items():
        assert_frame_equal(got[name], frame, rel_tol=1e-12, abs_tol=1e-14, check_dtypes=False)
    assert got["quarry_closures"].group_by("run").agg(pl.col("n_games").sum()).sort("run")["n_games"].to_list() \
        == [300, 300]


@pytest.mark.parametrize("game,players", [("yamatai", 3), ("akrotiri", 2)])
def test_batched_component_sections_equal_the_whole_table(game, players, tmp_path, monkeypatch):
    import reports.report as R
    from analysis.components import component_summary, take_shares
    from importlib import import_module

    from simcore.run import simulate

    out = str(tmp_path / game)
    simulate(game, players=players, games=240, seed=3, out=out, strategies=resolve_seats(game, players, "balanced"),
             progress=False, workers=1, chunk_size=80)
    whole = R.RunSet.from_dirs({"r": out})
    ev, p = whole.events, whole.players
    monkeypatch.setattr(reports.runset, "BATCH_GAMES", 80)           # one 80-game part a batch: 3 batches
    rs = R.RunSet.from_dirs({"r": out})
    assert len(list(rs.batches_of(["events", "players"]))) == 3
    from reports.components import game_sections
    from reports.games import plugin_of

    sec = game_sections(plugin_of(import_module(f"reports.games.{game}")))[0](rs)    # a request, built
    got = {t.name: t.frame for t in sec.tables}
    if game == "yamatai":
        from analysis.games.yamatai import fleet_picks as make
        component, value, cost, name, splits = "fleet", "boats", None, "fleet", ()
    else:
        from analysis.games.akrotiri import maps_excavated as make
        component, value, cost, name, splits = "deck", "points", "cost", "map_deck", ("seat",)
    takes = make(ev)
    want = component_summary(takes, p, component=component, by="run", value=value, cost=cost)
    cols = [c for c in want.columns if c not in ("run", "n_players", component)]
    assert got[f"{name}_values"].height == want.height > 0
    assert_frame_equal(got[f"{name}_values"].select(cols), want.select(cols), rel_tol=1e-12, abs_tol=1e-14,
                       check_dtypes=False)
    for split in splits:
        sh = take_shares(takes, component=component, split=split, by="run")
        assert_frame_equal(got[f"{name}_take_share_by_{split}"].drop("label"), sh, rel_tol=1e-12, abs_tol=1e-14,
                           check_dtypes=False)
