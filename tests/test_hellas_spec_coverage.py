"""Spec coverage of Hellas: every rule, decision and worked example of rules/hellas.md has a test.

``COVERAGE`` maps each item of the spec (a rule of a numbered section, a
decision ``H-Dn`` of section 8, a worked example) to the tests that check it,
here and in the other Hellas test files. ``test_coverage_table_*`` check that
every item is mapped and every listed test exists. The spec folder is not in
the repository, so the item list is kept here (``SPEC_ITEMS``).

The new rule tests below build positions with ``from_dict`` on the Minotaur
board (3 players) or the Pegasus board (2 players), apply actions and assert
the outcome the spec prescribes, on both engines (reference and Cython).
Each test first checks the board facts it relies on. One more test plays random
games on both engines and checks every build, temple, monument, three-marble
and quarry step and the final scores against a small oracle written from the
spec alone (``_spec_income``, ``_check_quarry_action``, ``_spec_scores``),
reading the rule data straight from the JSON files.
"""
import ast
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from simcore import hellas
from simcore.hellas import reference as REF
from hellas_engines import CYTHON, REFERENCE
from hellas_engines import position as shared_position

TESTS = Path(__file__).resolve().parent
PASS, F, SPLIT0 = REF.PASS, REF.FIELD0, REF.SPLIT0
CFG3 = REF.load_settings(3)                 # Minotaur
CFG2 = REF.load_settings(2)                 # Pegasus
TEMPLES = CFG3.temples                      # [8, 20, 31, 43, 62], sizes 5, 7, 4, 8, 6

R = "tests/test_hellas_rules.py::"
C = "tests/test_hellas_spec_coverage.py::"
G = "tests/test_golden.py::"
A = "tests/test_all_games.py::"
D = "tests/test_hellas_differential.py::"
DF = "tests/test_data_files.py::"
RG = C + "test_random_games_follow_the_spec_step_by_step"   # random games against a spec oracle

# Every item of rules/hellas.md, with a short statement of what is checked.
SPEC_ITEMS = {
    "1/pieces-per-player": "12 houses, 3 palaces, 3 agoras per player: no more can be built",
    "1/box": "40 quarry tiles, 30 columns, 14 rings, 3 monuments, 12 action cubes, 5 temples 4..8",
    "2/fields": "pieces go on empty building fields only, one per field; never on quarry or temple fields",
    "2/adjacency": "adjacent = sharing an edge of the hex grid",
    "3.1": "Minotaur side for 3-4 players, Pegasus for 2",
    "3.2": "three tiles on three different coastal quarry fields",
    "3.3": "the worker on another empty quarry field",
    "3.4": "10 marble each",
    "3.5": "cubes dealt 6 / 4 / 3 with 2 / 3 / 4 players",
    "3.6": "a start player (H-D4)",
    "4/rounds": "3 rounds",
    "4/turn-order": "from the start player clockwise, one cube per turn",
    "4/space-once": "a space holding a cube cannot be chosen again this round",
    "4/round-end": "the round ends when every cube is placed; cubes come back",
    "4/cubes-per-round": "2p 6/6/5, 3p 4/4/3, 4p 3/3/2",
    "4/not-carried-out-active": "an active-player action the player cannot do: nothing happens",
    "4/not-carried-out-all-players": "an all-players build the active player cannot do: the others still build",
    "4/quarry-in-full": "the quarry action always happens in full: income for all, tiles revealed",
    "4/start-player": "the temple-marker holder starts the next round",
    "5.1": "house: each player from the active one clockwise builds once or passes, 1 coast / 2 inland",
    "5.2": "house and/or agora: one, the other or both on two fields, need not be adjacent, 1 / 2 each",
    "5.3": "palace: 5 coast / 7 inland",
    "5.4/income": "each house next to an active quarry earns its top tile's yield; agoras, palaces "
                  "and closed quarries nothing",
    "5.4/four-tiles": "exactly four tiles are revealed unless a quarry closes",
    "5.4/place-higher": "a tile above at least one active top goes on one such quarry of the player's choice",
    "5.4/new-quarry": "a tile below every active top opens a quarry on the worker's field, the worker moves, "
                      "the highest active quarry closes, the action ends",
    "5.5/costs": "small 4 / 2 columns, medium 6 / 3, large 10 / 5; one ring",
    "5.5/placement": "all columns placed at once, split over temples, never above a temple's size",
    "5.5/not-carried-out": "columns that cannot or will not be placed: no payment, no columns, no ring",
    "5.5/completion-ring": "one extra ring per temple whose last column the player places",
    "5.5/marker": "the first cube on any temple space takes the start marker, carried out or not",
    "5.6": "monument: 7 marble, an empty inland building field",
    "5.7": "three marble",
    "6/groups": "a player's adjacent houses, agoras and palaces form a group (H-D11 any)",
    "6/city": "a group with a palace and a house is a city; its size counts houses, agoras and palaces",
    "6/village-and-lone-palace": "houses without a palace are a village; a palace without a house is no city",
    "6/foreign-pieces": "other players' pieces and monuments never connect groups",
    "6/joined": "cities can be joined by building",
    "6/variant": "city_links = no_agora_chains",
    "7/largest-city": "1 per piece of the single largest city (one city even on a tie)",
    "7/monuments": "3 per (city, adjacent monument) pair",
    "7/temples": "each city scores the columns of every adjacent temple, complete or not",
    "7/rings": "2 per ring, +3 for the most (all tied)",
    "7/marble": "1 per full 5 marble",
    "7/villages": "villages score nothing",
    "7/win": "highest total wins; tied players share the win (1/k each)",
    "example/scoring": "worked example of section 7 (rulebook scoring)",
    "example/quarry": "worked example of section 7 (rulebook quarry)",
    "H-D1": "action display: 13 spaces of the listed kinds on both sides; wide = 15",
    "H-D2": "quarry tiles 1-40 once; rising 1/2/3 and falling 3/2/1 in bands 1-13, 14-27, 28-40",
    "H-D3": "boards: field counts, coast = fewer than 6 neighbours, no two quarries or temples touch",
    "H-D4": "set-up choices drawn from the chance stream (seat 0 starts by default)",
    "H-D5": "start player unchanged when nobody took a temple space",
    "H-D6": "nobody gets the ring bonus when nobody has a ring",
    "H-D7": "worker leaving the board, set-aside tiles counting, empty stack",
    "H-D8": "marble unlimited; rings, columns and monuments limited to the box",
    "H-D9": "marble is public information",
    "H-D10": "removed from the spec (ties share the win is the rulebook's rule: see 7/win)",
    "H-D11": "cities (section 6), city_links any / no_agora_chains",
    "H-D12": "a house next to two active quarries yields for each",
    "H-D13": "a closed quarry field stays occupied",
}

COVERAGE = {
    "1/pieces-per-player": [C + "test_pieces_per_player_limit_builds", R + "test_random_playouts",
                            C + "test_component_counts_in_the_data"],
    "1/box": [C + "test_component_counts_in_the_data", C + "test_board_counts_and_geometry",
              R + "test_random_playouts"],
    "2/fields": [RG, C + "test_builds_go_on_empty_building_fields_only",
                 R + "test_illegal_actions_and_bad_positions_raise", R + "test_random_playouts"],
    "2/adjacency": [C + "test_board_counts_and_geometry"],
    "3.1": [C + "test_board_side_by_player_count", R + "test_settings_defaults_and_errors"],
    "3.2": [C + "test_setup_quarries_worker_marble_and_start", R + "test_setup_follows_the_chance_section"],
    "3.3": [C + "test_setup_quarries_worker_marble_and_start", R + "test_setup_follows_the_chance_section"],
    "3.4": [C + "test_setup_quarries_worker_marble_and_start", R + "test_setup_follows_the_chance_section"],
    "3.5": [R + "test_cube_counts_per_round", C + "test_setup_quarries_worker_marble_and_start"],
    "3.6": [C + "test_setup_quarries_worker_marble_and_start", R + "test_setup_follows_the_chance_section"],
    "4/rounds": [C + "test_game_ends_after_the_third_round", R + "test_cube_counts_per_round",
                 R + "test_random_playouts"],
    "4/turn-order": [C + "test_turns_go_clockwise_one_cube_each", R + "test_start_player_marker"],
    "4/space-once": [C + "test_a_used_space_cannot_be_chosen_again"],
    "4/round-end": [R + "test_start_player_marker", C + "test_a_used_space_cannot_be_chosen_again"],
    "4/cubes-per-round": [R + "test_cube_counts_per_round"],
    "4/not-carried-out-active": [C + "test_monument_not_possible_does_nothing",
                                 R + "test_temple_refused_without_the_marble",
                                 R + "test_temple_refused_without_decision_when_columns_do_not_fit"],
    "4/not-carried-out-all-players": [C + "test_others_build_when_the_active_player_cannot"],
    "4/quarry-in-full": [C + "test_quarry_income_for_every_player_and_tiles_in_full",
                         R + "test_quarry_action_with_an_empty_stack_still_pays_income"],
    "4/start-player": [R + "test_start_player_marker"],
    "5.1": [RG, C + "test_house_action_order_once_each_and_costs", C + "test_house_costs_coast_and_inland"],
    "5.2": [RG, R + "test_house_and_agora_are_two_decisions_per_seat", C + "test_house_and_agora_need_not_touch"],
    "5.3": [RG, R + "test_palace_action_founds_a_city", C + "test_palace_costs_coast_and_inland"],
    "5.4/income": [RG, C + "test_quarry_income_for_every_player_and_tiles_in_full",
                   R + "test_house_next_to_two_quarries_yields_for_each", C + "test_tile_yield_bands"],
    "5.4/four-tiles": [RG, R + "test_quarry_reveals_exactly_four_and_single_choice_is_forced"],
    "5.4/place-higher": [RG, R + "test_worked_quarry_example",
                         R + "test_quarry_reveals_exactly_four_and_single_choice_is_forced",
                         C + "test_closed_quarries_take_no_tile_and_do_not_close_again"],
    "5.4/new-quarry": [RG, R + "test_worked_quarry_example",
                       C + "test_closed_quarries_take_no_tile_and_do_not_close_again"],
    "5.5/costs": [RG, C + "test_large_temple_costs_ten_for_five_columns",
                  R + "test_temple_completion_gives_an_extra_ring", R + "test_temple_split_over_two_temples_and_pass"],
    "5.5/placement": [RG, C + "test_temple_splits_offered_are_exactly_those_that_fit",
                      R + "test_temple_split_over_two_temples_and_pass"],
    "5.5/not-carried-out": [R + "test_temple_split_over_two_temples_and_pass",
                            R + "test_temple_refused_without_decision_when_columns_do_not_fit",
                            R + "test_temple_refused_without_the_marble"],
    "5.5/completion-ring": [RG, R + "test_temple_completion_gives_an_extra_ring",
                            R + "test_temple_split_over_two_temples_and_pass"],
    "5.5/marker": [R + "test_start_player_marker", R + "test_temple_refused_without_decision_when_columns_do_not_fit",
                   R + "test_temple_split_over_two_temples_and_pass"],
    "5.6": [RG, C + "test_monument_on_empty_inland_fields_for_seven", C + "test_monument_not_possible_does_nothing"],
    "5.7": [RG, C + "test_three_marble"],
    "6/groups": [RG, R + "test_city_through_an_agora", C + "test_two_palaces_in_one_city"],
    "6/city": [RG, R + "test_palace_action_founds_a_city", C + "test_two_palaces_in_one_city"],
    "6/village-and-lone-palace": [RG, R + "test_palace_without_a_village_is_not_a_city",
                                  C + "test_villages_score_nothing"],
    "6/foreign-pieces": [RG, C + "test_foreign_pieces_and_monuments_do_not_connect",
                         R + "test_palace_without_a_village_is_not_a_city"],
    "6/joined": [C + "test_building_joins_two_cities"],
    "6/variant": [R + "test_city_links_agora_chains", R + "test_city_through_an_agora"],
    "7/largest-city": [RG, C + "test_largest_city_counts_one_city_only", R + "test_worked_scoring_example"],
    "7/monuments": [RG, R + "test_monument_next_to_two_cities_scores_for_each", R + "test_worked_scoring_example"],
    "7/temples": [RG, R + "test_worked_scoring_example", C + "test_villages_score_nothing"],
    "7/rings": [RG, R + "test_ring_bonus_ties", R + "test_worked_scoring_example"],
    "7/marble": [RG, R + "test_marble_rounds_down_to_full_fives", R + "test_worked_scoring_example"],
    "7/villages": [RG, C + "test_villages_score_nothing"],
    "7/win": [C + "test_tied_players_share_the_win"],
    "example/scoring": [R + "test_worked_scoring_example"],
    "example/quarry": [R + "test_worked_quarry_example"],
    "H-D1": [C + "test_action_display_data", C + "test_action_spaces_offered", R + "test_settings_defaults_and_errors"],
    "H-D2": [C + "test_quarry_tile_data", C + "test_tile_yield_bands",
             R + "test_house_next_to_two_quarries_yields_for_each"],
    "H-D3": [C + "test_board_counts_and_geometry", C + "test_board_side_by_player_count",
             R + "test_settings_defaults_and_errors"],
    "H-D4": [R + "test_setup_follows_the_chance_section", C + "test_setup_quarries_worker_marble_and_start"],
    "H-D5": [R + "test_start_player_when_nobody_takes_a_temple"],
    "H-D6": [R + "test_ring_bonus_ties"],
    "H-D7": [RG, R + "test_worker_leaves_the_board_and_set_aside_tiles_count",
             R + "test_set_aside_tiles_do_not_count_when_switched_off",
             R + "test_quarry_action_with_an_empty_stack_still_pays_income",
             C + "test_stack_running_out_ends_the_tile_phase"],
    "H-D8": [C + "test_ring_supply_is_limited", C + "test_monument_supply_is_limited",
             C + "test_marble_is_unlimited", R + "test_random_playouts"],
    "H-D9": [C + "test_marble_is_public"],
    "H-D10": [C + "test_tied_players_share_the_win"],
    "H-D11": [RG, R + "test_city_through_an_agora", R + "test_city_links_agora_chains",
              R + "test_palace_without_a_village_is_not_a_city",
              C + "test_foreign_pieces_and_monuments_do_not_connect"],
    "H-D12": [R + "test_house_next_to_two_quarries_yields_for_each"],
    "H-D13": [RG, R + "test_forced_worker_move_and_closed_quarry_reopens",
              C + "test_closed_quarries_take_no_tile_and_do_not_close_again"],
}
# Whole games both engines must agree on (golden transcripts, differential runs, generic
# invariants): they back every rule above but assert no single rule, so they are listed apart.
WHOLE_GAME_TESTS = [G + "test_golden_playthrough_is_reproduced", G + "test_golden_playthrough_in_the_reference_engine",
                    D + "test_random_games_agree", D + "test_variants_agree",
                    A + "test_random_playouts_keep_invariants", DF + "test_hellas_quarry_file_edited_in_place"]


# ------------------------------------------------------------ the table itself

def _test_names(path):
    tree = ast.parse(path.read_text())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def test_coverage_table_lists_every_spec_item():
    decisions = {f"H-D{i}" for i in range(1, 14)}
    assert decisions <= set(SPEC_ITEMS)
    assert set(COVERAGE) == set(SPEC_ITEMS), set(COVERAGE) ^ set(SPEC_ITEMS)
    assert all(COVERAGE[k] for k in COVERAGE)


def test_coverage_table_names_existing_tests():
    names = {}
    missing = []
    for node in [n for v in COVERAGE.values() for n in v] + WHOLE_GAME_TESTS:
        path, func = node.split("::")
        if path not in names:
            names[path] = _test_names(TESTS.parent / path)
        if func not in names[path]:
            missing.append(node)
    assert not missing
    # and every new test of this file is listed somewhere
    mine = _test_names(Path(__file__)) - {"test_coverage_table_lists_every_spec_item",
                                          "test_coverage_table_names_existing_tests"}
    listed = {n.split("::")[1] for v in COVERAGE.values() for n in v if n.startswith(C)}
    assert mine == listed, mine ^ listed


# ------------------------------------------------------------------ helpers

@pytest.fixture(params=["reference", "cython"])
def eng(request):
    """The engine under test, behind the reference engine's face."""
    return REFERENCE if request.param == "reference" else CYTHON


def nb(a, b, cfg=CFG3):
    return b in cfg.fields[a]["neighbors"]


def position(eng, players=3, phase="choose_space", **parts):
    """A fresh game's position dictionary from the engine under test, with the given parts replaced
    (``hellas_engines.position``)."""
    return shared_position(eng, players, phase, **parts)


def scores(eng, pieces, **kw):
    return eng.RefState.from_dict(position(eng, phase="over", pieces=pieces, **kw)).scores()


HOUSE, HOUSE_AGORA, PALACE, QUARRY, SMALL, MEDIUM, LARGE, MONUMENT, THREE = 0, 3, 4, 5, 8, 9, 10, 11, 12


# ------------------------------------------------------- data (H-D1, H-D2, H-D3)

def test_component_counts_in_the_data():
    actions = json.loads((REF.DATA / "actions.json").read_text())
    assert actions["pieces_per_player"] == {"house": 12, "agora": 3, "palace": 3}
    assert actions["supply"] == {"columns": 30, "rings": 14, "monuments": 3}
    assert actions["start_marble"] == 10
    for n, cubes in actions["cubes_per_player"].items():   # 12 cubes dealt evenly
        assert int(n) * cubes[0] == 12 and int(n) * cubes[1] == 12
    tiles = json.loads((REF.DATA / "quarry_tiles.json").read_text())["tiles"]
    assert len(tiles) == 40
    for cfg in (CFG2, CFG3):
        assert sorted(cfg.fields[t]["temple_size"] for t in cfg.temples) == [4, 5, 6, 7, 8]
        assert sum(cfg.fields[t]["temple_size"] for t in cfg.temples) == 30    # = the columns


def test_action_display_data():
    actions = json.loads((REF.DATA / "actions.json").read_text())
    kinds = [s["action"] for s in actions["spaces"]]
    assert len(kinds) == 13 and sorted(s["id"] for s in actions["spaces"]) == list(range(13))
    assert {k: kinds.count(k) for k in set(kinds)} == {
        "house": 3, "house_or_agora": 1, "palace": 1, "quarry": 3, "temple": 3, "monument": 1, "three_marble": 1}
    temples = sorted((s["cost"], s["columns"]) for s in actions["spaces"] if s["action"] == "temple")
    assert temples == [(4, 2), (6, 3), (10, 5)]
    assert [s["cost"] for s in actions["spaces"] if s["action"] == "monument"] == [7]
    assert [s["marble"] for s in actions["spaces"] if s["action"] == "three_marble"] == [3]
    assert actions["costs"] == {"house": {"coast": 1, "inland": 2}, "agora": {"coast": 1, "inland": 2},
                                "palace": {"coast": 5, "inland": 7}, "monument": {"inland": 7}}
    extra = [s["action"] for s in actions["variants"]["wide"]["extra_spaces"]]
    assert sorted(extra) == ["house_or_agora", "three_marble"]
    # the reasons given in H-D1: 30 columns and 14 rings over three rounds
    assert 3 * sum(c for _, c in temples) == actions["supply"]["columns"]
    assert 3 * len(temples) + 5 == actions["supply"]["rings"]


@pytest.mark.parametrize("players,display,spaces", [(2, "standard", 13), (3, "standard", 13),
                                                    (4, "standard", 13), (2, "wide", 15), (4, "wide", 15)])
def test_action_spaces_offered(eng, players, display, spaces):
    # both board sides show the same display: the first decision offers every space
    st = eng.RefState.new(players=players, seed=3, action_display=display)
    assert st.phase == "choose_space" and st.legal_actions() == list(range(spaces))


def test_quarry_tile_data():
    rising = json.loads((REF.DATA / "quarry_tiles.json").read_text())["tiles"]
    falling = json.loads((REF.DATA / "quarry_tiles_falling.json").read_text())["tiles"]
    for tiles, bands in ((rising, (1, 2, 3)), (falling, (3, 2, 1))):
        numbers = [t["number"] for t in tiles]
        assert sorted(numbers) == list(range(1, 41))        # each once: all different
        for t in tiles:
            band = 0 if t["number"] <= 13 else 1 if t["number"] <= 27 else 2
            assert t["marble"] == bands[band], t


@pytest.mark.parametrize("yields,table", [("rising", {1: 1, 13: 1, 14: 2, 27: 2, 28: 3, 40: 3}),
                                          ("falling", {1: 3, 13: 3, 14: 2, 27: 2, 28: 1, 40: 1})])
def test_tile_yield_bands(eng, yields, table):
    # house 12 touches only quarry 13; the other active quarries touch no house
    assert nb(12, 13) and not any(nb(12, q) for q in (48, 56))
    for top, marble in table.items():
        others = [t for t in (20, 30, 35, 10) if t != top][:2]
        active = {13: ("active", top), 48: ("active", others[0]), 56: ("active", others[1])}
        d = position(eng, pieces=[(12, "house", 1)], quarries=active, marble=[0, 0, 0])
        d["config"]["quarry_yields"] = yields
        st = eng.RefState.from_dict(d)
        st.apply(QUARRY)
        assert st.quarry_log[-1]["income"] == [0, marble, 0], (top, yields)


@pytest.mark.parametrize("cfg,counts", [
    (CFG3, {"fields": 73, ("building", True): 26, ("building", False): 30,
            ("quarry", True): 7, ("quarry", False): 5, ("temple", False): 5}),
    (CFG2, {"fields": 47, ("building", True): 17, ("building", False): 13,
            ("quarry", True): 7, ("quarry", False): 5, ("temple", False): 5}),
], ids=["minotaur", "pegasus"])
def test_board_counts_and_geometry(cfg, counts):
    board = json.loads((REF.DATA / f"board_{cfg.board_name}.json").read_text())
    fields = {f["id"]: f for f in board["fields"]}
    assert len(fields) == counts["fields"] == len(cfg.fields)
    kinds = {}
    for f in fields.values():
        kinds[(f["kind"], f["coast"])] = kinds.get((f["kind"], f["coast"]), 0) + 1
    assert kinds == {k: v for k, v in counts.items() if k != "fields"}
    # hex grid, axial coordinates: neighbours are exactly the fields one edge away
    steps = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}
    at = {(f["q"], f["r"]): i for i, f in fields.items()}
    for i, f in fields.items():
        around = {at[(f["q"] + dq, f["r"] + dr)] for dq, dr in steps if (f["q"] + dq, f["r"] + dr) in at}
        assert set(f["neighbors"]) == around == set(cfg.fields[i]["neighbors"]), i
        assert f["coast"] == (len(around) < 6), i                  # coast = fewer than 6 neighbours
    quarries = [i for i, f in fields.items() if f["kind"] == "quarry"]
    temples = [i for i, f in fields.items() if f["kind"] == "temple"]
    assert not any(nb(a, b, cfg) for a, b in itertools.combinations(quarries, 2))
    assert not any(nb(a, b, cfg) for a, b in itertools.combinations(temples, 2))


@pytest.mark.parametrize("players,building_fields", [(2, 30), (3, 56), (4, 56)])
def test_board_side_by_player_count(eng, players, building_fields):
    # Pegasus (30 building fields) with 2 players, Minotaur (56) with 3-4, seen by the engine:
    # a seat with marble enough is offered every building field for a house
    st = eng.RefState.new(players=players, seed=5)
    st.apply(HOUSE)
    assert st.phase == "build_house"
    assert len(st.legal_actions()) == 1 + building_fields


# ------------------------------------------------------------------ set-up (3)

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_quarries_worker_marble_and_start(eng, players):
    cfg = REF.load_settings(players)
    coast_quarries = {f for f in cfg.quarry_fields if cfg.fields[f]["coast"]}
    cubes = {2: 6, 3: 4, 4: 3}[players]
    workers = set()
    for seed in range(25):
        d = eng.RefState.new(players=players, seed=seed).to_dict()
        q = d["quarries"]
        assert len(q) == 3 and all(x["status"] == "active" for x in q)
        assert len({x["field"] for x in q}) == 3 and {x["field"] for x in q} <= coast_quarries
        assert d["worker"] in cfg.quarry_fields and d["worker"] not in {x["field"] for x in q}
        workers.add(cfg.fields[d["worker"]]["coast"])
        tops = [x["top"] for x in q]
        assert len(d["stack"]) == 37 and not set(tops) & set(d["stack"])
        assert d["marble"] == [10] * players and d["cubes_left"] == [cubes] * players
        # H-D4 default: seat 0 starts
        assert d["start_player"] == 0 and d["turn_seat"] == 0
    assert workers == {True, False}            # the worker may start on the coast or inland


# -------------------------------------------------------------- a round (4)

def test_turns_go_clockwise_one_cube_each(eng):
    # nobody has marble: every build is a forced pass, so each cube is one decision
    st = eng.RefState.from_dict(position(eng, players=4, marble=[0, 0, 0, 0]))
    order = []
    for space in (0, 1, 2, 3, 4, 12):
        order.append(st.current_player())
        st.apply(space)
    assert order == [0, 1, 2, 3, 0, 1]
    assert st.cubes_left == [1, 1, 2, 2] and st.current_player() == 2
    # the three-marble action of seat 1 was carried out by seat 1
    assert st.marble == [0, 3, 0, 0]


def test_game_ends_after_the_third_round(eng):
    # round 3 (index 2), the last cube: seat 2 takes three marble, then the game is scored
    used = [s for s in range(13) if s not in (THREE, 6, 7, 11)][:8]
    d = position(eng, round=2, cubes_left=[0, 0, 1], spaces_used=used, turn_seat=2, start_player=0,
                 pieces=[(23, "house", 2), (24, "palace", 2)], marble=[4, 5, 12])
    st = eng.RefState.from_dict(d)
    assert st.legal_actions() == sorted(s for s in range(13) if s not in used)
    st.apply(THREE)
    assert st.is_over() and st.current_player() == -1 and st.legal_actions() == []
    assert st.round == 3 and st.marble == [4, 5, 15]
    sc = st.scores()
    assert sc["city"] == [0, 0, 2] and sc["marble"] == [0, 1, 3] and sc["total"] == [0, 1, 5]


def test_a_used_space_cannot_be_chosen_again(eng):
    st = eng.RefState.from_dict(position(eng, marble=[0, 0, 0]))
    st.apply(THREE)
    assert st.legal_actions() == [s for s in range(13) if s != THREE]
    st.apply(HOUSE)                          # seat 1; seats 1 and 2 cannot pay, seat 0 passes
    st.apply(PASS)
    st.apply(LARGE)                          # seat 2, cannot pay
    assert st.current_player() == 0
    assert st.legal_actions() == [s for s in range(13) if s not in (THREE, HOUSE, LARGE)]
    with pytest.raises(ValueError):
        st.apply(HOUSE)
    # every cube placed: a new round with every space free and the cubes back
    while st.round == 0:                     # PASS (16) comes before any field or split
        st.apply(st.legal_actions()[0])
    assert st.round == 1 and st.cubes_left == [4, 4, 4] and st.legal_actions() == list(range(13))


def test_others_build_when_the_active_player_cannot(eng):
    st = eng.RefState.from_dict(position(eng, marble=[0, 10, 10]))
    st.apply(HOUSE)
    # seat 0 (active) cannot pay: its pass is forced; seats 1 and 2 still build
    assert (st.phase, st.current_player()) == ("build_house", 1)
    st.apply(F + 0)
    assert (st.phase, st.current_player()) == ("build_house", 2)
    st.apply(F + 5)
    assert st.phase == "choose_space" and st.current_player() == 1
    assert st.pieces == {0: ("house", 1), 5: ("house", 2)} and st.marble == [0, 9, 8]


def test_quarry_income_for_every_player_and_tiles_in_full(eng):
    # seat 0 (active) owns only an agora; seat 1 has houses 12 and 21 next to quarry 13;
    # seat 2's house 47 touches quarry 48 (active) and 56 (closed)
    assert nb(12, 13) and nb(21, 13) and nb(47, 48) and nb(47, 56) and nb(23, 22)
    assert not nb(12, 48) and not nb(21, 48)
    quarries = {13: ("active", 10), 22: ("active", 25), 48: ("active", 30), 56: ("closed", 35)}
    pieces = [(23, "agora", 0), (12, "house", 1), (21, "house", 1), (47, "house", 2)]
    st = eng.RefState.from_dict(position(eng, pieces=pieces, quarries=quarries, stack=[11, 12, 14, 15, 16],
                                         marble=[0, 0, 0]))
    st.apply(QUARRY)
    # income with the tops before the tiles: 2 houses x yield 1 (top 10); 3 (top 30); the
    # closed quarry and the agora yield nothing
    assert st.quarry_log[-1]["income"] == [0, 2, 3] and st.marble == [0, 2, 3]
    # the active player still reveals four tiles (each above the 10 only: no decision)
    assert st.quarry_log[-1]["tiles"] == [11, 12, 14, 15] and st.stack[0] == 16
    assert st.quarries[13]["top"] == 15 and st.decisions == 1 and st.phase == "choose_space"


# ------------------------------------------------------ building actions (5.1-5.3)

def test_pieces_per_player_limit_builds(eng):
    twelve = CFG3.building_fields[:12]
    pieces = [(f, "house", 0) for f in twelve]
    st = eng.RefState.from_dict(position(eng, pieces=pieces))
    st.apply(HOUSE)
    # seat 0 has no house left: its pass is forced, seat 1 decides
    assert (st.phase, st.current_player()) == ("build_house", 1)
    # in a house/agora action the same seat still builds its agora
    st = eng.RefState.from_dict(position(eng, pieces=pieces))
    st.apply(HOUSE_AGORA)
    assert (st.phase, st.current_player()) == ("build_agora", 0)
    st.apply(F + 60)
    assert st.pieces[60] == ("agora", 0) and st.marble[0] == 8
    st = eng.RefState.from_dict(position(eng, pieces=[(60, "agora", 0), (61, "agora", 0), (5, "agora", 0)]))
    st.apply(HOUSE_AGORA)
    st.apply(F + 0)                         # the house
    assert (st.phase, st.current_player()) == ("build_house", 1)     # no agora decision
    st = eng.RefState.from_dict(position(eng, pieces=[(60, "palace", 0), (61, "palace", 0), (5, "palace", 0)],
                                         marble=[20, 0, 0]))
    st.apply(PALACE)
    assert st.phase == "choose_space" and st.marble == [20, 0, 0] and len(st.pieces) == 3


def test_builds_go_on_empty_building_fields_only(eng):
    pieces = [(23, "house", 1), (24, "agora", 2), (25, "monument", None), (0, "palace", 1)]
    occupied = {23, 24, 25, 0}
    for space, phase in ((HOUSE, "build_house"), (HOUSE_AGORA, "build_house"), (PALACE, "build_palace")):
        st = eng.RefState.from_dict(position(eng, pieces=pieces))
        st.apply(space)
        assert st.phase == phase
        expect = [PASS] + [F + f for f in CFG3.building_fields if f not in occupied]
        assert st.legal_actions() == expect
    st.apply(F + 5)
    assert not any(CFG3.fields[f]["kind"] != "building" for f in st.pieces)


def test_house_action_order_once_each_and_costs(eng):
    # seat 1's turn (seat 0 took the three-marble space): builders 1, 2, 0, once each
    d = position(eng, cubes_left=[3, 4, 4], spaces_used=[THREE], turn_seat=1)
    st = eng.RefState.from_dict(d)
    st.apply(1)                              # a house space
    seen = []
    for field in (0, 5, 1):                  # coast, inland, coast
        seen.append(st.current_player())
        assert st.phase == "build_house"
        st.apply(F + field)
    assert seen == [1, 2, 0]
    assert st.phase == "choose_space" and st.current_player() == 2
    assert st.pieces == {0: ("house", 1), 5: ("house", 2), 1: ("house", 0)}
    assert st.marble == [9, 9, 8]


def test_house_costs_coast_and_inland(eng):
    st = eng.RefState.from_dict(position(eng, marble=[1, 2, 0]))
    st.apply(HOUSE)
    coast = [F + f for f in CFG3.building_fields if CFG3.fields[f]["coast"]]
    assert st.legal_actions() == [PASS] + coast         # 1 marble: coast only
    st.apply(PASS)
    assert st.legal_actions() == [PASS] + [F + f for f in CFG3.building_fields]
    st.apply(F + 5)                                      # inland: 2
    assert st.marble == [1, 0, 0] and st.pieces == {5: ("house", 1)}


def test_house_and_agora_need_not_touch(eng):
    assert not nb(0, 60) and CFG3.fields[60]["coast"] is False and CFG3.fields[0]["coast"]
    st = eng.RefState.from_dict(position(eng, marble=[3, 1, 0]))
    st.apply(HOUSE_AGORA)
    st.apply(F + 0)                          # house on the coast: 1
    assert st.phase == "build_agora" and F + 60 in st.legal_actions()
    st.apply(F + 60)                         # agora inland, far away: 2
    assert st.pieces == {0: ("house", 0), 60: ("agora", 0)} and st.marble[0] == 0
    # seat 1, 1 marble: an agora alone, on the coast only
    assert (st.phase, st.current_player()) == ("build_house", 1)
    st.apply(PASS)
    assert st.phase == "build_agora"
    assert st.legal_actions() == [PASS] + [F + f for f in CFG3.building_fields
                                           if CFG3.fields[f]["coast"] and f != 0]
    st.apply(F + 1)
    assert st.pieces[1] == ("agora", 1) and st.marble == [0, 0, 0]


def test_palace_costs_coast_and_inland(eng):
    st = eng.RefState.from_dict(position(eng, marble=[6, 7, 4]))
    st.apply(PALACE)
    coast = [F + f for f in CFG3.building_fields if CFG3.fields[f]["coast"]]
    assert st.legal_actions() == [PASS] + coast         # 6 marble: only the coast's 5
    st.apply(F + 0)
    assert st.legal_actions() == [PASS] + [F + f for f in CFG3.building_fields if f != 0]
    st.apply(F + 5)
    # seat 2 has 4 marble, less than any palace: forced pass
    assert st.phase == "choose_space" and st.marble == [1, 0, 4]
    assert st.pieces == {0: ("palace", 0), 5: ("palace", 1)}


# ------------------------------------------------------------------- quarry (5.4)

def test_closed_quarries_take_no_tile_and_do_not_close_again(eng):
    # closed quarries 56 (top 2) and 67 (top 39): 10 is below every ACTIVE top, so it opens a
    # new quarry (not onto the closed 2); the highest active quarry (31, not the closed 39) closes
    quarries = {13: ("active", 20), 22: ("active", 25), 48: ("active", 31),
                56: ("closed", 2), 67: ("closed", 39)}
    st = eng.RefState.from_dict(position(eng, quarries=quarries, worker=71, stack=[10, 30]))
    st.apply(QUARRY)
    assert st.quarries[71] == {"status": "active", "top": 10}
    assert st.quarries[48]["status"] == "closed"
    assert st.quarries[56] == {"status": "closed", "top": 2} and st.quarries[67] == {"status": "closed", "top": 39}
    # H-D13: the worker may go to any empty quarry field, never a closed one
    assert st.phase == "worker_move"
    assert st.legal_actions() == [F + f for f in CFG3.quarry_fields if f not in (13, 22, 48, 56, 67, 71)]
    st.apply(F + 15)
    assert st.worker == 15 and st.stack[0] == 30 and st.phase == "choose_space"


def test_stack_running_out_ends_the_tile_phase(eng):
    quarries = {13: ("active", 10), 22: ("active", 25), 48: ("active", 30)}
    d = position(eng, quarries=quarries, stack=[21, 22])
    d["stack"] = [21, 22]
    st = eng.RefState.from_dict(d)
    st.apply(QUARRY)
    assert st.phase == "choose_space" and st.stack == [] and st.quarry_log[-1]["tiles"] == [21, 22]
    assert st.quarries[13]["top"] == 22


# ------------------------------------------------------------------ temples (5.5)

def test_large_temple_costs_ten_for_five_columns(eng):
    st = eng.RefState.from_dict(position(eng, marble=[10, 10, 10]))
    st.apply(LARGE)
    assert st.phase == "temple"
    split = REF.temple_splits(5, 5).index((0, 0, 0, 5, 0))   # temple 43, size 8
    st.apply(SPLIT0 + split)
    assert st.temple_columns[43] == 5 and st.marble[0] == 0 and st.rings == [1, 0, 0]
    assert st.supply["columns"] == 25


def test_temple_splits_offered_are_exactly_those_that_fit(eng):
    temples = {8: 4, 20: 3, 31: 4, 43: 6, 62: 6}      # room 1, 4, 0, 2, 0
    st = eng.RefState.from_dict(position(eng, temples=temples, marble=[10, 10, 10]))
    st.apply(LARGE)
    room = [CFG3.fields[t]["temple_size"] - temples[t] for t in TEMPLES]
    assert room == [1, 4, 0, 2, 0]
    vectors = [x for x in itertools.product(range(6), repeat=5) if sum(x) == 5]
    fits = [x for x in vectors if all(a <= r for a, r in zip(x, room))]
    assert [REF.temple_splits(5, 5)[a - SPLIT0] for a in st.legal_actions()[1:]] == fits
    assert st.legal_actions()[0] == PASS and len(fits) == 5
    st.apply(SPLIT0 + REF.temple_splits(5, 5).index((1, 4, 0, 0, 0)))
    # completes 8 and 20: one ring + two extra
    assert st.rings == [3, 0, 0] and st.temple_columns[8] == 5 and st.temple_columns[20] == 7


# ----------------------------------------------------------- monument, marble (5.6-5.7)

def test_monument_on_empty_inland_fields_for_seven(eng):
    st = eng.RefState.from_dict(position(eng, pieces=[(5, "house", 1), (0, "house", 2)], marble=[7, 10, 10]))
    st.apply(MONUMENT)
    assert st.phase == "monument"
    inland = [F + f for f in CFG3.building_fields if not CFG3.fields[f]["coast"] and f != 5]
    assert st.legal_actions() == [PASS] + inland
    st.apply(F + 60)
    assert st.pieces[60] == ("monument", None) and st.marble[0] == 0
    assert st.supply["monuments"] == 2 and st.monuments_built == [1, 0, 0]


def test_monument_not_possible_does_nothing(eng):
    st = eng.RefState.from_dict(position(eng, marble=[6, 10, 10]))
    st.apply(MONUMENT)
    assert st.phase == "choose_space" and st.current_player() == 1
    assert st.marble == [6, 10, 10] and st.pieces == {} and st.decisions == 1
    assert MONUMENT not in st.legal_actions()       # the cube is on the space all the same


def test_three_marble(eng):
    st = eng.RefState.from_dict(position(eng, marble=[0, 4, 9]))
    st.apply(THREE)
    assert st.marble == [3, 4, 9] and st.current_player() == 1


# --------------------------------------------------------------- supply (H-D8, H-D9)

def test_ring_supply_is_limited(eng):
    # 13 of 14 rings handed out: completing temple 31 earns 2 rings, only 1 is left
    d = position(eng, temples={31: 2}, rings=[5, 4, 4])
    st = eng.RefState.from_dict(d)
    st.apply(SMALL)
    st.apply(SPLIT0 + REF.temple_splits(2, 5).index((0, 0, 2, 0, 0)))
    assert st.temple_columns[31] == 4 and st.marble[0] == 6
    assert st.rings == [6, 4, 4] and st.supply["rings"] == 0


def test_monument_supply_is_limited(eng):
    pieces = [(60, "monument", None), (61, "monument", None), (5, "monument", None)]
    st = eng.RefState.from_dict(position(eng, pieces=pieces, marble=[20, 10, 10]))
    st.apply(MONUMENT)
    assert st.phase == "choose_space" and st.marble[0] == 20
    assert sum(1 for k, _ in st.pieces.values() if k == "monument") == 3


def test_marble_is_unlimited(eng):
    st = eng.RefState.from_dict(position(eng, marble=[300, 10, 10]))
    st.apply(THREE)
    assert st.marble[0] == 303


def test_marble_is_public(eng):
    # every seat's marble and every quarry income are part of the public position
    quarries = {13: ("active", 10), 22: ("active", 25), 48: ("active", 30)}
    st = eng.RefState.from_dict(position(eng, pieces=[(12, "house", 2)], quarries=quarries, stack=[11, 12, 14, 15],
                                         marble=[1, 2, 3]))
    st.apply(QUARRY)
    d = st.to_dict()
    assert d["marble"] == [1, 2, 4] and d["quarry_log"][-1]["income"] == [0, 0, 1]
    text = st.describe()
    assert all(f"player {s + 1} (seat {s}): marble {m}" in text for s, m in enumerate(d["marble"]))


# ------------------------------------------------------- cities and scoring (6, 7)

def test_two_palaces_in_one_city(eng):
    assert nb(23, 24) and nb(24, 25) and not nb(23, 25)
    sc = scores(eng, [(23, "house", 0), (24, "palace", 0), (25, "palace", 0)])
    assert sc["city"] == [3, 0, 0]


def test_foreign_pieces_and_monuments_do_not_connect(eng):
    assert nb(23, 24) and nb(24, 25) and not nb(23, 25)
    for middle in ((24, "agora", 1), (24, "house", 1), (24, "monument", None)):
        sc = scores(eng, [(23, "house", 0), middle, (25, "palace", 0)])
        assert sc["city"][0] == 0, middle
    sc = scores(eng, [(23, "house", 0), (24, "agora", 0), (25, "palace", 0)])
    assert sc["city"][0] == 3                # the same chain in one colour is a city


def test_building_joins_two_cities(eng):
    # city A = house 9 + palace 10, city B = house 24 + palace 25; field 16 touches 9 and 24
    a, b = (9, 10), (24, 25)
    assert nb(9, 10) and nb(24, 25) and nb(16, 9) and nb(16, 24)
    assert not any(nb(x, y) for x in a for y in b)
    pieces = [(9, "house", 0), (10, "palace", 0), (24, "house", 0), (25, "palace", 0)]
    st = eng.RefState.from_dict(position(eng, pieces=pieces, marble=[10, 0, 0]))
    assert st.scores()["city"][0] == 2
    st.apply(HOUSE)
    st.apply(F + 16)
    assert st.scores()["city"][0] == 5


def test_largest_city_counts_one_city_only(eng):
    # seat 0: cities of 3 (23, 24, 25) and 2 (60, 61): scores 3; seat 1: two cities of 2: scores 2
    assert not any(nb(x, y) for x in (23, 24, 25) for y in (60, 61)) and nb(60, 61)
    assert nb(2, 3) and nb(64, 70) and not any(nb(x, y) for x in (2, 3) for y in (64, 70))
    pieces = [(23, "house", 0), (24, "agora", 0), (25, "palace", 0), (60, "house", 0), (61, "palace", 0),
              (2, "house", 1), (3, "palace", 1), (64, "house", 1), (70, "palace", 1)]
    assert scores(eng, pieces)["city"] == [3, 2, 0]


def test_villages_score_nothing(eng):
    # seat 0: a village of houses next to temple 31 (4 columns) and monument 24; seat 1: a
    # lone palace next to the same temple; seat 2: a city there, which scores it
    assert nb(32, 31) and nb(23, 31) and nb(23, 32) and nb(23, 24) and nb(30, 31) and nb(40, 31)
    assert nb(40, 49) and not any(nb(x, 24) for x in (40, 49))
    pieces = [(32, "house", 0), (23, "house", 0), (24, "monument", None), (30, "palace", 1),
              (40, "house", 2), (49, "palace", 2)]
    sc = scores(eng, pieces, temples={31: 4}, marble=[0, 0, 0])
    assert sc["city"] == [0, 0, 2] and sc["temples"] == [0, 0, 4] and sc["monuments"] == [0, 0, 0]
    assert sc["total"] == [0, 0, 6]


def test_tied_players_share_the_win():
    # Cython batch results: a k-way tie on the highest total gives each of the k a share 1/k
    seeds = np.arange(400, dtype=np.uint64)
    res = hellas.play_batch(3, seeds, events=False)
    total, share = res["players"]["total"], res["players"]["win_share"]
    top = total == total.max(axis=1, keepdims=True)
    k = top.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(share, np.where(top, 1.0 / k, 0.0), rtol=1e-6)
    np.testing.assert_array_equal(res["games"]["n_winners"], k[:, 0])
    assert (k > 1).any()                    # the seeds include ties


# ------------------------------------------- random games checked against the spec

def _spec_data(players):
    """Rule data read straight from the files (not through an engine's settings)."""
    board = json.loads((REF.DATA / f"board_{'pegasus' if players == 2 else 'minotaur'}.json").read_text())
    fields = {f["id"]: f for f in board["fields"]}
    tiles = json.loads((REF.DATA / "quarry_tiles.json").read_text())["tiles"]
    actions = json.loads((REF.DATA / "actions.json").read_text())
    return fields, {t["number"]: t["marble"] for t in tiles}, actions


def _spec_income(fields, yields, d):
    active = {q["field"]: q["top"] for q in d["quarries"] if q["status"] == "active"}
    income = [0] * len(d["marble"])
    for p in d["pieces"]:
        if p["kind"] == "house":
            income[p["owner"]] += sum(yields[active[n]] for n in fields[p["field"]]["neighbors"] if n in active)
    return income


def _spec_scores(fields, d):
    """Section 7 with section 6's groups (city_links any), written from the spec alone."""
    n = len(d["marble"])
    owner = {p["field"]: (p["kind"], p["owner"]) for p in d["pieces"]}
    monuments = [f for f, (k, _) in owner.items() if k == "monument"]
    temples = {t["field"]: t["columns"] for t in d["temples"]}
    out = {k: [] for k in ("city", "monuments", "temples", "rings", "marble", "total")}
    most = max(d["rings"])
    for seat in range(n):
        mine = {f for f, (k, o) in owner.items() if o == seat}
        cities, seen = [], set()
        for f in sorted(mine):
            if f in seen:
                continue
            group, todo = set(), [f]
            while todo:
                g = todo.pop()
                if g in group:
                    continue
                group.add(g)
                todo += [h for h in fields[g]["neighbors"] if h in mine]
            seen |= group
            kinds = {owner[g][0] for g in group}
            if "house" in kinds and "palace" in kinds:
                cities.append(group)
        near = [set().union(*(fields[g]["neighbors"] for g in c)) for c in cities]
        city = max((len(c) for c in cities), default=0)
        mon = 3 * sum(1 for nbs in near for m in monuments if m in nbs)
        tem = sum(cols for nbs in near for t, cols in temples.items() if t in nbs)
        rings = 2 * d["rings"][seat] + (3 if most > 0 and d["rings"][seat] == most else 0)
        marble = d["marble"][seat] // 5
        for k, v in zip(out, (city, mon, tem, rings, marble, city + mon + tem + rings + marble)):
            out[k].append(v)
    return out


def _check_quarry_action(fields, yields, before, log):
    """One quarry action against 5.4, H-D7 and H-D13, from the position before it."""
    assert log["income"] == _spec_income(fields, yields, before)
    tops = {q["field"]: q["top"] for q in before["quarries"] if q["status"] == "active"}
    taken = {q["field"] for q in before["quarries"]}
    assert log["tiles"] == before["stack"][:len(log["tiles"])]       # revealed from the top
    assert len(log["dest"]) == len(log["tiles"])
    for i, (t, dest) in enumerate(zip(log["tiles"], log["dest"])):
        if dest == "new":
            assert t < min(tops.values()) and before["worker"] is not None
            assert i == len(log["tiles"]) - 1                           # the action ends at once
            assert log["opened"] == before["worker"]
            assert log["closed"] == max(tops, key=tops.get)             # the highest closes
            empty = [f for f, x in fields.items() if x["kind"] == "quarry" and f not in taken]
            if log["worker_to"] == "off":
                assert empty == [before["worker"]]                      # H-D7: no empty field left
            else:
                assert log["worker_to"] in empty and log["worker_to"] != before["worker"]
            return
        if dest == "set_aside":                                         # H-D7
            assert before["worker"] is None and t < min(tops.values())
        else:
            assert dest in tops and tops[dest] < t
            tops[dest] = t
    assert log["closed"] is None and log["opened"] is None
    assert len(log["tiles"]) == 4 or len(log["tiles"]) == len(before["stack"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_follow_the_spec_step_by_step(eng, players):
    fields, yields, actions = _spec_data(players)
    spaces = {s["id"]: s for s in actions["spaces"]}
    costs = actions["costs"]
    sizes = {f: x["temple_size"] for f, x in fields.items() if x["kind"] == "temple"}
    order = sorted(sizes)
    checked = {"quarry": 0, "build": 0, "temple": 0, "monument": 0, "three_marble": 0}
    for seed in range(8):
        st = eng.RefState.new(players=players, seed=seed)
        rnd = np.random.default_rng(seed)
        pending = []                                     # (position before, quarry_log index)
        while not st.is_over():
            before = st.to_dict()
            legal = st.legal_actions()
            a = int(legal[rnd.integers(len(legal))])
            seat, phase = st.current_player(), st.phase
            st.apply(a)
            after = st.to_dict()
            lost = before["marble"][seat] - after["marble"][seat]
            if phase == "choose_space":
                kind = spaces[a]["action"]
                if kind == "quarry":
                    pending.append((before, len(before["quarry_log"])))
                elif kind == "three_marble":
                    assert lost == -3
                    checked["three_marble"] += 1
            elif phase.startswith("build_") and a != PASS:
                f = a - F
                assert fields[f]["kind"] == "building" and all(p["field"] != f for p in before["pieces"])
                kind = phase[len("build_"):]
                assert lost == costs[kind]["coast" if fields[f]["coast"] else "inland"]
                checked["build"] += 1
            elif phase == "monument" and a != PASS:
                f = a - F
                assert fields[f]["kind"] == "building" and not fields[f]["coast"] and lost == 7
                checked["monument"] += 1
            elif phase == "temple" and a != PASS:
                sp = spaces[before["space"]]
                split = REF.temple_splits(sp["columns"], len(order))[a - SPLIT0]
                cols = {t["field"]: t["columns"] for t in before["temples"]}
                new = {t["field"]: t["columns"] for t in after["temples"]}
                assert [new[t] - cols[t] for t in order] == list(split)
                assert all(new[t] <= sizes[t] for t in order)
                completed = sum(1 for t in order if cols[t] < sizes[t] == new[t])
                assert lost == sp["cost"]
                assert after["rings"][seat] - before["rings"][seat] == 1 + completed
                checked["temple"] += 1
        final = st.to_dict()
        for before, i in pending:
            _check_quarry_action(fields, yields, before, final["quarry_log"][i])
            checked["quarry"] += 1
        assert st.scores() == _spec_scores(fields, final)
    assert all(checked.values()), checked            # every kind of step was met
