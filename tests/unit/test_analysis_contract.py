"""Package contracts of the analysis statistics: no simcore imports; lazy in,
lazy out; eager in, eager out."""

import ast
import pathlib

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analysis.categories as cat
import analysis.convergence as cv
import analysis.quarry as qy
import analysis.ratings as rt
import analysis.seats as seats
from _analysis_synth import make_players
from test_analysis_quarry import make_events

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

CALLS = [
    (seats.seat_advantage, PLAYERS),
    (seats.seat_equality_test, PLAYERS),
    (seats.with_margin, PLAYERS),
    (seats.add_strategy_mix, PLAYERS),
    (cat.category_profile, PLAYERS),
    (cat.category_logit, PLAYERS),
    (cat.category_counterfactual, PLAYERS),
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
