"""Package contracts of the analysis statistics: no simcore imports; lazy in,
lazy out; eager in, eager out."""

import ast
import pathlib

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analysis.games.akrotiri as ak
import analysis.categories as cat
import analysis.components as cp
import analysis.convergence as cv
import analysis.outcomes as gm
import analysis.games.hellas as qy
import analysis.ratings as rt
import analysis.seats as seats
import analysis.games.yamatai as ym
from _analysis_synth import CATS, make_component_games, make_players
from test_analysis_game_adapters import _akrotiri_events, _yamatai_events
from test_analysis_hellas import make_events

ROOT = pathlib.Path(__file__).resolve().parents[2] / "analysis"


def test_analysis_never_imports_simcore():
    for path in ROOT.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] == "simcore" for n in names), path.name


PLAYERS = make_players(200, 3, seed=61, strategies=["a", "b"]).with_columns(
    pl.col("total").alias("marble_income")
)
EVENTS = make_events(50, 3, seed=62)[0]
C_PLAYERS, C_TAKES = make_component_games(200, 3, {"a": 1.0, "b": 0.0}, seed=63)
GAMES = pl.DataFrame({"rounds": [3, 4, 4], "trigger_x": [True, False, True]})
Y_EVENTS, A_EVENTS = _yamatai_events(), _akrotiri_events()

CALLS = [
    (seats.seat_advantage, PLAYERS),
    (seats.seat_equality_test, PLAYERS),
    (seats.with_margin, PLAYERS),
    (seats.add_strategy_mix, PLAYERS),
    (lambda f: cat.category_profile(f, CATS), PLAYERS),
    (lambda f: cat.category_logit(f, CATS), PLAYERS),
    (lambda f: cat.category_counterfactual(f, CATS), PLAYERS),
    (rt.pairwise_comparisons, PLAYERS),
    (rt.pairwise_win_matrix, PLAYERS),
    (rt.bradley_terry, PLAYERS),
    (cv.seat_convergence, PLAYERS),
    (lambda f: cv.seat_games_needed(f, 0.05), PLAYERS),
    (qy.marble_income_by_seat, PLAYERS),
    (qy.with_quarry_luck, PLAYERS),
    (qy.quarry_luck_effect, PLAYERS),
    (qy.quarry_yield_distribution, EVENTS),
    (qy.quarry_yield_summary, EVENTS),
    (qy.quarry_closures_by_round, EVENTS),
    (qy.quarry_closures_per_game, EVENTS),
    (qy.quarry_tiles_by_round, EVENTS),
    (qy.income_from_events, EVENTS),
    (lambda f: cp.component_summary(C_TAKES, f, value="value", cost="cost"), C_PLAYERS),
    (lambda f: cp.take_shares(f, split="round"), C_TAKES),
    (lambda f: cp.component_regression(C_TAKES, f), C_PLAYERS),
    (lambda f: gm.game_length(f, "rounds")[0], GAMES),
    (lambda f: gm.game_length(f, "rounds")[1], GAMES),
    (lambda f: gm.end_triggers(f, triggers=["trigger_x"]), GAMES),
    (gm.top_ties, PLAYERS),
    (ym.fleet_picks, Y_EVENTS),
    (ym.buildings_built, Y_EVENTS),
    (ym.specialists_recruited, Y_EVENTS),
    (lambda f: ym.fleet_turn_order(ym.fleet_picks(f)), Y_EVENTS),
    (ak.maps_bought, A_EVENTS),
    (ak.maps_excavated, A_EVENTS),
    (ak.goals, A_EVENTS),
    (ak.goods_sold, A_EVENTS),
    (ak.map_excavation, A_EVENTS),
    (lambda f: ak.goal_scoring(ak.goals(f)), A_EVENTS),
    (lambda f: ak.market_prices(ak.goods_sold(f))[0], A_EVENTS),
]


@pytest.mark.parametrize("fn,table", CALLS)
def test_frame_kind_is_kept(fn, table):
    eager = fn(table)
    lazy = fn(table.lazy())
    assert isinstance(eager, pl.DataFrame) and isinstance(lazy, pl.LazyFrame)
    # float sums may differ in the last bits between plans
    assert_frame_equal(lazy.collect(), eager, rel_tol=1e-9, abs_tol=1e-12)
    assert eager.height > 0


def test_clear_error_for_missing_columns():
    with pytest.raises(ValueError, match="win_share"):
        seats.seat_advantage(PLAYERS.drop("win_share"))
