"""Tests for analysis.outcomes, analysis.games.yamatai and analysis.games.akrotiri on hand-made tables."""

import doctest

import numpy as np
import polars as pl
import pytest

import analysis.games.akrotiri as ak
import analysis.outcomes as gm
import analysis.games.yamatai as ym


@pytest.mark.parametrize("mod", [gm, ym, ak])
def test_doctests(mod):
    res = doctest.testmod(mod, extraglobs={"pl": pl, "np": np})
    assert res.failed == 0 and res.attempted >= 2


def test_game_length_and_triggers():
    g = pl.DataFrame({"n_players": [3] * 6, "rounds": [10, 11, 11, 12, 12, 12],
                      "trigger_boats": [True, True, False, True, True, True],
                      "trigger_last_building": [False, True, True, False, False, False]})
    s, d = gm.game_length(g, "rounds")
    assert s.row(0, named=True)["n_games"] == 6 and s["mean"].item() == pytest.approx(68 / 6)
    assert s["lo"].item() < s["mean"].item() < s["hi"].item()
    assert d["length"].to_list() == [10, 11, 12] and d["share"].to_list() == pytest.approx([1 / 6, 2 / 6, 3 / 6])
    t = gm.end_triggers(g, triggers=["trigger_boats", "trigger_last_building"])
    assert t["ended"].to_list() == [5, 2] and t["share"].sum() > 1       # a game can set two
    assert (t["lo"] <= t["share"]).all() and (t["share"] <= t["hi"]).all()
    c = gm.end_triggers(pl.DataFrame({"end_trigger": [1, 2, 2, 7]}), code="end_trigger",
                        codes={1: "temples", 2: "turn_cap"})
    assert c["trigger"].to_list() == ["temples", "turn_cap", "7"] and c["ended"].to_list() == [1, 2, 1]


def test_top_ties_shared_and_broken():
    p = pl.DataFrame({
        "game_index": [0, 0, 1, 1, 2, 2],
        "total": [5, 5, 5, 5, 7, 3],
        "win_share": [1.0, 0.0, 0.5, 0.5, 1.0, 0.0],
    })
    t = gm.top_ties(p).row(0, named=True)
    assert (t["n_games"], t["tied"], t["shared"], t["broken"]) == (3, 2, 1, 1)
    assert t["tied_lo"] < 2 / 3 < t["tied_hi"]


def _yamatai_events():
    # game 0, 3 players: round 0 picks 7, 2, 5 (seats 0, 1, 2); round 1 picks 2, 5, 7; a build and a recruit
    rows = [(0, 0, 0, 0, 7, 2, 1, 0), (0, 0, 1, 0, 2, 1, 0, 0), (0, 1, 1, 0, 21, 4, 3, 1),
            (0, 0, 2, 0, 5, 1, 1, 0), (0, 2, 2, 0, 9, 4, 0, 0),
            (0, 0, 1, 1, 2, 1, 1, 0), (0, 0, 2, 1, 5, 1, 0, 0), (0, 0, 0, 1, 7, 2, 0, 0)]
    return pl.DataFrame(rows, schema=["game_index", "kind", "seat", "round", "a", "b", "c", "d"], orient="row")


def test_yamatai_adapters_and_turn_order():
    ev = _yamatai_events()
    picks = ym.fleet_picks(ev)
    assert picks.height == 6 and picks["fleet"].to_list() == [7, 2, 5, 2, 5, 7]
    assert picks["pick_position"].to_list() == [0, 1, 2, 0, 1, 2]
    b = ym.buildings_built(ev).row(0, named=True)
    assert (b["tile"], b["island"], b["coins"], b["pp_tokens"]) == (21, 4, 3, 1)
    s = ym.specialists_recruited(ev).row(0, named=True)
    assert (s["specialist"], s["coins"]) == (9, 4) and "c" not in ym.specialists_recruited(ev).columns
    order = {r["fleet"]: r for r in ym.fleet_turn_order(picks).iter_rows(named=True)}
    # only round 0 has a next round: 2 goes first, 5 second, 7 third
    assert {f: order[f]["next_position"] for f in (2, 5, 7)} == {2: 0.0, 5: 1.0, 7: 2.0}
    assert order[2]["first_next"] == 1.0 and order[7]["first_next"] == 0.0
    assert order[2]["n"] == 2 and order[2]["n_next"] == 1
    assert order[7]["ability_use"] == 0.5 and order[7]["pick_position"] == 1.0


def _akrotiri_events():
    cols = ["game_index", "turn", "kind", "seat", "deck", "card", "cost", "points", "colour", "price", "quantity",
            "goal"]
    rows = [
        (0, 0, 2, 0, -1, -1, 0, 0, -1, 0, 0, 4),        # seat 0 keeps goal 4
        (0, 0, 2, 1, -1, -1, 0, 0, -1, 0, 0, 7),
        (0, 2, 0, 0, 1, 14, 4, 4, -1, 3, 2, -1),         # buys 2 cards for 3: a medium ...
        (0, 2, 0, 0, 2, 30, 6, 6, -1, 3, 2, -1),         # ... and a hard
        (0, 3, 4, 1, -1, -1, 0, 0, 2, 4, 1, -1),         # seat 1 sells grey for 4
        (0, 4, 1, 0, 1, 14, 4, 4, -1, 0, 1, -1),         # excavates the medium card it bought
        (0, 5, 1, 1, 0, 3, 2, 2, -1, 0, 1, -1),          # seat 1 excavates a dealt easy card
        (0, 6, 4, 0, -1, -1, 0, 0, 2, 3, 1, -1),
        (0, 9, 3, 0, -1, -1, 0, 6, -1, 0, 0, 4),         # end: goal 4 scores 6, goal 7 nothing
        (0, 9, 3, 1, -1, -1, 0, 0, -1, 0, 0, 7),
    ]
    return pl.DataFrame(rows, schema=cols, orient="row")


def test_akrotiri_maps_excavation_and_points_per_drachma():
    ev = _akrotiri_events()
    bought = ak.maps_bought(ev)
    assert bought["price_per_card"].to_list() == [1.5, 1.5] and bought["deck_name"].to_list() == ["medium", "hard"]
    assert ak.maps_excavated(ev)["card"].to_list() == [14, 3]
    deck = {r["deck_name"]: r for r in ak.map_excavation(ev, per="deck").iter_rows(named=True)}
    assert (deck["medium"]["bought"], deck["medium"]["excavated"]) == (1, 1)
    assert deck["medium"]["points_per_drachma"] == pytest.approx(4 / (1.5 + 4))
    assert (deck["hard"]["excavated"], deck["hard"]["points_per_drachma"]) == (0, 0.0)
    # the dealt easy card was never bought: counted apart, no rate
    assert deck["easy"]["bought"] == 0 and deck["easy"]["excavated_unbought"] == 1
    assert deck["easy"]["excavation_rate"] is None
    card = ak.map_excavation(ev, per="card")
    assert card["card"].to_list() == [3, 14, 30]
    with pytest.raises(ValueError, match="per"):
        ak.map_excavation(ev, per="colour")


def test_akrotiri_goals_and_market():
    ev = _akrotiri_events()
    g = ak.goals(ev).sort("seat")
    assert g.select("seat", "goal", "points", "scored").rows() == [(0, 4, 6, True), (1, 7, 0, False)]
    sc = {r["goal"]: r for r in ak.goal_scoring(g).iter_rows(named=True)}
    assert sc[4]["scored_rate"] == 1.0 and sc[7]["scored_rate"] == 0.0 and sc[4]["points_when_scored"] == 6
    summ, dist = ak.market_prices(ak.goods_sold(ev))
    grey = summ.row(0, named=True)
    assert (grey["colour"], grey["n_sold"], grey["mean_price"]) == (2, 2, 3.5)
    assert dist["share"].to_list() == [0.5, 0.5]


def test_fleet_order_of_a_stacked_table_equals_the_windows():
    """With the sorted game key of a RunSet, pick places and the turn order come from runs of rows, not
    windows per (game, round): the same numbers as the windows, here on random games of 2-4 pawns a round."""
    from analysis._common import GAME_KEY

    rng = np.random.default_rng(7)
    rows = []
    for g in range(300):
        for rnd in range(int(rng.integers(1, 5))):
            for pos, fleet in enumerate(rng.permutation(10)[:int(rng.integers(2, 5))] + 1):
                rows.append((g, 0, int(rng.integers(0, 3)), rnd, int(fleet), int(rng.integers(0, 3)), pos % 2, 0))
    ev = pl.DataFrame(rows, schema=["game_index", "kind", "seat", "round", "a", "b", "c", "d"], orient="row")
    keyed = ev.with_columns(pl.col("game_index").cast(pl.Int64).set_sorted().alias(GAME_KEY))
    plain, fast = ym.fleet_picks(ev), ym.fleet_picks(keyed)
    assert fast["pick_position"].to_list() == plain["pick_position"].to_list()
    assert fast["pick_position"].max() == 3
    a, b = ym.fleet_turn_order(plain), ym.fleet_turn_order(fast)
    assert a.equals(b) and a["n_next"].sum() < a["n"].sum()
