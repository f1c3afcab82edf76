"""Akrotiri spec coverage: every rule section, decision A-D1..A-D38 and worked example of the spec
(``rules/akrotiri.md``) mapped to the tests that check it, plus the tests that were missing.

``COVERAGE`` maps a spec item to test node ids; ``test_coverage_table_*`` check that every listed
test exists and that every decision id of the spec is mapped. New tests build positions as dicts
and run them on both engines: the Cython engine through ``State.from_dict`` and the reference
engine through ``ref_load`` below (a test-side loader: the reference engine has no ``from_dict``).
"""
import ast
from pathlib import Path

import numpy as np
import pytest

from simcore import akrotiri
from simcore.akrotiri import reference as ref
from akrotiri_positions import T0, T1, position, seat  # noqa: F401
from simcore.akrotiri.config import BUY_CODES, LOAD_CODES, load_data

TESTS = Path(__file__).resolve().parent
ME = "tests/test_akrotiri_spec_coverage.py"
RULES = "tests/test_akrotiri_rules.py"
DATA = "tests/test_akrotiri_data.py"
DIFF = "tests/test_akrotiri_differential.py"
STRAT = "tests/test_akrotiri_strategies.py"
GOLD = "tests/test_golden.py"
ALL = "tests/test_all_games.py"


def _me(*names):
    return [f"{ME}::{n}" for n in names]


COVERAGE = {
    # ---- sections of the spec
    "0": [  # sources and tags: non-binding
        f"{DATA}::test_data_status_names_the_files_used",
    ],
    "1": [
        *_me("test_component_counts_of_section_1", "test_setup_follows_section_3_and_the_chance_order"),
    ],
    "2.1": [
        *_me("test_placement_stays_inside_the_window", "test_worked_example_of_section_2_10_on_both_engines"),
    ],
    "2.2": [
        *_me("test_rotation_turns_quarters_sides_and_ports_clockwise", "test_quarters_of_one_tile_never_join"),
    ],
    "2.3": [
        *_me("test_every_start_board_edge_node_reaches_thera", "test_sea_move_goes_any_distance_through_junctions"),
    ],
    "2.4": [
        *_me("test_quarters_of_one_tile_never_join", "test_islands_merge_across_tile_edges_and_count_tiles"),
    ],
    "2.5": [
        *_me("test_completed_island_and_the_window_border"),
    ],
    "2.6": [
        f"{RULES}::test_direction_vectors_of_section_7_3",
        f"{RULES}::test_seat_1_reads_the_map_turned_180_degrees",
        *_me("test_direction_vectors_of_section_7_3_on_both_engines"),
    ],
    "2.7": [
        *_me("test_g05_counts_quadrants"),
    ],
    "2.8": [
        *_me("test_g01_g02_transport_distance"),
    ],
    "2.9": [
        *_me("test_g07_isolated_temples"),
    ],
    "2.10": [
        f"{RULES}::test_worked_example_of_section_2_10",
        *_me("test_worked_example_of_section_2_10_on_both_engines", "test_pictures_of_section_2_10"),
    ],
    "3": [
        *_me("test_setup_follows_section_3_and_the_chance_order", "test_seed_tiles_touch_the_start_board"),
    ],
    "4": [
        f"{RULES}::test_one_temple_gives_4_actions_on_the_next_turn",
        *_me(
            "test_placement_is_mandatory_and_needs_an_occupied_neighbour",
            "test_cubes_on_a_new_tile",
            "test_end_of_turn_draw_and_reshuffle",
            "test_a_player_without_a_tile_skips_placement",
        ),
    ],
    "5": [
        *_me(
            "test_free_actions_cost_nothing_even_after_the_last_action",
            "test_actions_are_optional_and_end_is_always_legal",
        ),
    ],
    "5.1": [
        f"{RULES}::test_passing_the_opponents_port_costs_one_more_and_ending_on_it_is_illegal",
        *_me("test_passing_cost_follows_the_board_and_the_opponent_over_turns"),
        *_me("test_sea_move_must_change_island", "test_sea_move_goes_any_distance_through_junctions"),
    ],
    "5.2": [
        *_me("test_transport_stays_on_the_island_and_keeps_the_cargo"),
    ],
    "5.3": [
        f"{RULES}::test_empty_boat_moves_twice_and_loses_the_bonus",
        *_me("test_bonus_movement_may_be_a_transport_and_pays_for_passing"),
    ],
    "5.4": [
        f"{RULES}::test_load_at_most_3",
        *_me("test_load_from_any_quarter_of_the_island"),
    ],
    "5.5": [
        f"{RULES}::test_excavation_needs_a_fitting_map_one_temple_per_island_and_not_thera",
        f"{RULES}::test_one_temple_gives_4_actions_on_the_next_turn",
        *_me(
            "test_excavation_effects",
            "test_temple_quarter_is_chosen_among_satisfied_quarters",
            "test_no_excavation_after_six_temples_or_on_an_own_temple_island",
            "test_excavation_on_a_corner_piece",
            "test_goal_draw_at_the_3rd_and_5th_temple",
        ),
    ],
    "5.6": [
        f"{RULES}::test_map_prices_1_3_7_and_buying_only_at_thera",
        *_me("test_buying_maps_mixed_decks_repeat_no_limit"),
    ],
    "5.7": [
        f"{RULES}::test_oracle_takes_the_last_tile_when_the_pile_runs_out",
        f"{RULES}::test_oracle_once_per_turn_and_no_draw_after_it",
        *_me("test_oracle_preconditions_and_reshuffle", "test_end_of_turn_draw_and_reshuffle"),
    ],
    "5.8": [
        f"{RULES}::test_selling_example_pays_3_3_2",
        f"{RULES}::test_selling_only_at_thera",
        *_me("test_selling_example_on_both_engines"),
    ],
    "5.9": [
        *_me("test_unload_anywhere_onto_the_port_quarter"),
    ],
    "6": [
        f"{RULES}::test_selling_example_pays_3_3_2",
        *_me("test_selling_example_on_both_engines", "test_cubes_on_a_new_tile"),
    ],
    "7.1": [
        *_me("test_map_card_data"),
    ],
    "7.2": [
        *_me("test_counts_are_minimums", "test_direction_vectors_of_section_7_3_on_both_engines"),
    ],
    "7.3": [
        f"{RULES}::test_direction_vectors_of_section_7_3",
        f"{RULES}::test_tree_on_the_temple_quarter_does_not_count_for_a_map",
        f"{RULES}::test_a_map_is_satisfied_exactly_on_the_policys_rectangle",
        *_me("test_direction_vectors_of_section_7_3_on_both_engines"),
    ],
    "7.4": [
        f"{RULES}::test_excavation_needs_a_fitting_map_one_temple_per_island_and_not_thera",
        *_me("test_temple_quarter_is_chosen_among_satisfied_quarters"),
    ],
    "8.1": [
        *_me("test_excavation_effects"),
    ],
    "8.2": [
        f"{RULES}::test_one_temple_gives_4_actions_on_the_next_turn",
        *_me("test_action_track"),
    ],
    "9": [
        *_me(
            "test_g01_g02_transport_distance",
            "test_landmark_goals",
            "test_g05_counts_quadrants",
            "test_g06_largest_completed_island",
            "test_g07_isolated_temples",
            "test_completed_island_and_the_window_border",
            "test_goal_values_hu_and_en1",
        ),
    ],
    "10": [
        f"{RULES}::test_the_end_gives_equal_turns",
        *_me("test_turn_cap_ends_after_seat_1", "test_end_trigger_by_either_seat_on_both_engines"),
    ],
    "11": [
        f"{RULES}::test_tie_break_by_drachmas_then_shared_win",
        f"{RULES}::test_batch_win_share_follows_the_tie_break",
        *_me("test_scoring_categories"),
    ],
    "12": [
        *_me("test_strategist_display"),
    ],
    "13": [
        f"{DIFF}::test_variants_agree",
        *_me(
            "test_variant_keys_and_defaults",
            "test_turn_cap_accepts_any_positive_integer",
            "test_action_track",
            "test_tile_rotation_variant",
            "test_same_island_sail_variant",
            "test_turn_cap_ends_after_seat_1",
            "test_goal_values_hu_and_en1",
            "test_strategist_display",
        ),
    ],
    "14": [
        f"{DATA}::test_data_status_names_the_files_used",
        f"{DATA}::test_bad_component_files_name_the_problem",
        *_me("test_component_counts_of_section_1", "test_map_card_data"),
    ],
    "15.1": [  # non-binding
        *_me("test_reference_loader_matches_from_dict"),
        f"{DIFF}::test_random_games_agree",
        f"{ALL}::test_to_dict_round_trip_mid_game",
    ],
    "15.2": [  # non-binding
        f"{DIFF}::test_random_games_agree",
    ],
    "15.3": [
        f"{GOLD}::test_golden_playthrough_is_reproduced",
        f"{GOLD}::test_golden_playthrough_in_the_reference_engine",
        *_me("test_setup_follows_section_3_and_the_chance_order", "test_end_of_turn_draw_and_reshuffle"),
    ],
    "15.4": [
        f"{STRAT}::test_policy_ignores_the_opponents_hidden_cards",
    ],
    "16": [
        *_me("test_coverage_table_lists_every_decision"),
    ],
    "17": [  # recorded ambiguities, each resolved by a decision A-Dn
        *_me("test_coverage_table_lists_every_decision"),
    ],
    # ---- decisions (section 16)
    "A-D1": [
        *_me(
            "test_quarters_of_one_tile_never_join",
            "test_worked_example_of_section_2_10_on_both_engines",
            "test_islands_merge_across_tile_edges_and_count_tiles",
        ),
    ],
    "A-D2": [
        *_me("test_component_counts_of_section_1"),
    ],
    "A-D3": [
        *_me("test_component_counts_of_section_1"),
    ],
    "A-D4": [
        *_me("test_component_counts_of_section_1", "test_cubes_on_a_new_tile"),
    ],
    "A-D5": [
        *_me(
            "test_every_start_board_edge_node_reaches_thera",
            "test_g06_largest_completed_island",
            "test_setup_follows_section_3_and_the_chance_order",
        ),
    ],
    "A-D6": [
        *_me("test_placement_stays_inside_the_window", "test_completed_island_and_the_window_border"),
    ],
    "A-D7": [
        *_me("test_rotation_turns_quarters_sides_and_ports_clockwise", "test_tile_rotation_variant"),
    ],
    "A-D8": [
        *_me("test_seed_tiles_touch_the_start_board"),
    ],
    "A-D9": [
        *_me("test_setup_follows_section_3_and_the_chance_order"),
    ],
    "A-D10": [
        *_me("test_sea_move_must_change_island", "test_same_island_sail_variant"),
    ],
    "A-D11": [
        *_me("test_passing_cost_follows_the_board_and_the_opponent_over_turns"),
        f"{RULES}::test_passing_the_opponents_port_costs_one_more_and_ending_on_it_is_illegal",
        *_me("test_bonus_movement_may_be_a_transport_and_pays_for_passing"),
    ],
    "A-D12": [
        f"{RULES}::test_empty_boat_moves_twice_and_loses_the_bonus",
        *_me(
            "test_bonus_movement_may_be_a_transport_and_pays_for_passing",
            "test_free_actions_cost_nothing_even_after_the_last_action",
        ),
    ],
    "A-D13": [
        *_me("test_transport_stays_on_the_island_and_keeps_the_cargo"),
    ],
    "A-D14": [
        *_me("test_cubes_on_a_new_tile"),
    ],
    "A-D15": [
        f"{RULES}::test_load_at_most_3",
        *_me("test_load_from_any_quarter_of_the_island", "test_unload_anywhere_onto_the_port_quarter"),
    ],
    "A-D16": [
        *_me("test_bank_has_no_limit"),
    ],
    "A-D17": [
        *_me("test_temple_quarter_is_chosen_among_satisfied_quarters"),
    ],
    "A-D18": [
        f"{RULES}::test_direction_vectors_of_section_7_3",
        *_me("test_direction_vectors_of_section_7_3_on_both_engines"),
    ],
    "A-D19": [
        *_me("test_counts_are_minimums", "test_map_card_data"),
    ],
    "A-D20": [
        f"{RULES}::test_excavation_needs_a_fitting_map_one_temple_per_island_and_not_thera",
        *_me("test_excavation_on_a_corner_piece"),
    ],
    "A-D21": [
        *_me("test_buying_maps_mixed_decks_repeat_no_limit"),
    ],
    "A-D22": [
        *_me("test_action_track"),
    ],
    "A-D23": [
        *_me("test_goal_draw_at_the_3rd_and_5th_temple", "test_goal_draw_from_a_deck_of_one_card"),
    ],
    "A-D24": [
        f"{RULES}::test_oracle_takes_the_last_tile_when_the_pile_runs_out",
        *_me("test_oracle_preconditions_and_reshuffle"),
    ],
    "A-D25": [
        *_me("test_a_player_without_a_tile_skips_placement", "test_end_of_turn_draw_and_reshuffle"),
    ],
    "A-D26": [
        *_me(
            "test_actions_are_optional_and_end_is_always_legal",
            "test_free_actions_cost_nothing_even_after_the_last_action",
        ),
    ],
    "A-D27": [
        *_me("test_turn_cap_ends_after_seat_1", "test_turn_cap_accepts_any_positive_integer"),
    ],
    "A-D28": [
        *_me("test_setup_follows_section_3_and_the_chance_order"),
    ],
    "A-D29": [
        *_me("test_g01_g02_transport_distance"),
    ],
    "A-D30": [
        *_me("test_g07_isolated_temples"),
    ],
    "A-D31": [
        *_me("test_completed_island_and_the_window_border"),
    ],
    "A-D32": [
        *_me("test_landmark_goals"),
    ],
    "A-D33": [
        *_me("test_goal_values_hu_and_en1"),
    ],
    "A-D34": [
        *_me("test_strategist_display"),
    ],
    "A-D35": [
        *_me("test_g06_largest_completed_island"),
    ],
    "A-D36": [
        *_me("test_map_card_data"),
    ],
    "A-D37": [
        *_me("test_map_card_data"),
    ],
    "A-D38": [
        f"{RULES}::test_excavation_needs_a_fitting_map_one_temple_per_island_and_not_thera",
        *_me("test_temple_quarter_is_chosen_among_satisfied_quarters"),
    ],
    # ---- worked examples, test vectors and the list of 15.5
    "ex 2.10 tile #0 east of the start board": [
        f"{RULES}::test_worked_example_of_section_2_10",
        *_me("test_worked_example_of_section_2_10_on_both_engines"),
    ],
    "ex 6 selling 2 blue 1 grey pays 8": [
        f"{RULES}::test_selling_example_pays_3_3_2",
        *_me("test_selling_example_on_both_engines"),
    ],
    "ex 7.3 vectors": [
        f"{RULES}::test_direction_vectors_of_section_7_3",
        *_me("test_direction_vectors_of_section_7_3_on_both_engines"),
    ],
    "15.5 selling example": [
        f"{RULES}::test_selling_example_pays_3_3_2",
        *_me("test_selling_example_on_both_engines"),
    ],
    "15.5 1 temple gives 4 actions": [
        f"{RULES}::test_one_temple_gives_4_actions_on_the_next_turn",
        *_me("test_action_track"),
    ],
    "15.5 landmark on the temple quarter": [
        f"{RULES}::test_tree_on_the_temple_quarter_does_not_count_for_a_map",
        *_me("test_direction_vectors_of_section_7_3_on_both_engines"),
    ],
    "15.5 above the row counts as N": [
        f"{RULES}::test_direction_vectors_of_section_7_3",
        *_me("test_direction_vectors_of_section_7_3_on_both_engines"),
    ],
    "15.5 seat 1 reads turned 180": [
        f"{RULES}::test_seat_1_reads_the_map_turned_180_degrees",
        *_me("test_direction_vectors_of_section_7_3_on_both_engines"),
    ],
    "15.5 one temple per island, none on Thera": [
        f"{RULES}::test_excavation_needs_a_fitting_map_one_temple_per_island_and_not_thera",
        *_me("test_no_excavation_after_six_temples_or_on_an_own_temple_island"),
    ],
    "15.5 Oracle last tile": [
        f"{RULES}::test_oracle_takes_the_last_tile_when_the_pile_runs_out",
        *_me("test_oracle_preconditions_and_reshuffle"),
    ],
    "15.5 equal turns": [
        f"{RULES}::test_the_end_gives_equal_turns",
        *_me("test_end_trigger_by_either_seat_on_both_engines"),
    ],
    "15.5 tie-break": [
        f"{RULES}::test_tie_break_by_drachmas_then_shared_win",
        f"{RULES}::test_batch_win_share_follows_the_tie_break",
    ],
    "15.5 map prices and Thera only": [
        f"{RULES}::test_map_prices_1_3_7_and_buying_only_at_thera",
        *_me("test_buying_maps_mixed_decks_repeat_no_limit"),
    ],
    "15.5 selling only at Thera": [
        f"{RULES}::test_selling_only_at_thera",
        *_me("test_selling_example_on_both_engines"),
    ],
    "15.5 load at most 3": [
        f"{RULES}::test_load_at_most_3",
        *_me("test_load_from_any_quarter_of_the_island"),
    ],
    "15.5 empty boat bonus": [
        f"{RULES}::test_empty_boat_moves_twice_and_loses_the_bonus",
        *_me("test_bonus_movement_may_be_a_transport_and_pays_for_passing"),
    ],
    "15.5 passing the opponent's port": [
        f"{RULES}::test_passing_the_opponents_port_costs_one_more_and_ending_on_it_is_illegal",
        *_me("test_bonus_movement_may_be_a_transport_and_pays_for_passing"),
    ],
    "15.5 Oracle once per turn, no draw after": [
        f"{RULES}::test_oracle_once_per_turn_and_no_draw_after_it",
        *_me("test_oracle_preconditions_and_reshuffle"),
    ],
}

# every decision id of the spec's section 16 (kept here: the spec folder is not in the repository)
DECISIONS = [f"A-D{k}" for k in range(1, 39)]
SECTIONS = ["0", "1", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "3", "4", "5", "5.1",
            "5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "5.8", "5.9", "6", "7.1", "7.2", "7.3", "7.4", "8.1", "8.2", "9",
            "10", "11", "12", "13", "14", "15.1", "15.2", "15.3", "15.4", "16", "17"]


def _test_names(rel):
    tree = ast.parse((TESTS.parent / rel).read_text())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def test_coverage_table_names_existing_tests():
    names = {}
    missing = []
    for item, nodes in COVERAGE.items():
        assert nodes, f"{item}: no test listed"
        for node in nodes:
            rel, name = node.split("::")
            if rel not in names:
                names[rel] = _test_names(rel)
            if name not in names[rel]:
                missing.append(f"{item}: {node}")
    assert missing == []


def test_coverage_table_lists_every_decision():
    assert [k for k in DECISIONS + SECTIONS if k not in COVERAGE] == []
    assert len(DECISIONS) == 38


# ================================================================== engine harness

END, PLACE, CUBE, GOAL, SAIL, TRANSPORT, LOAD, EXCAVATE, BUY, ORACLE, SELL, UNLOAD = (
    ref.END, ref.PLACE, ref.CUBE, ref.GOAL, ref.SAIL, ref.TRANSPORT, ref.LOAD, ref.EXCAVATE, ref.BUY, ref.ORACLE,
    ref.SELL, ref.UNLOAD)
ENGINES = ["cython", "reference"]
LAKE, TREE, MOUNTAIN, VOLCANO = range(4)
BLUE, GREEN, GREY, ORANGE = range(4)
LAY = load_data()["layouts"]
CARDS = [c["id"] for c in load_data()["cards"]]


def card(name):
    return CARDS.index(name)


def over(tiles, seats, **kw):
    """A finished position (for scoring)."""
    return position(tiles, seats, phase="over", current=None, stage="over", **kw)


def ref_load(d, **settings):
    """The reference engine in position ``d`` (the fields ``State.from_dict`` reads), forced steps applied."""
    rs = ref.RefState.new(2, 0, **settings)          # the start board alone, seat 0 holding a seed tile
    for t in d["tiles"]:
        rs._place(t["tile"], t["rot"], t["x"], t["y"])
    rs.cubes = {(x["r"], x["c"]): list(x["cubes"]) for x in d["cubes"]}
    rs.out = list(d["market_out"])
    rs.pile, rs.discard = list(d["pile"]), list(d["discard"])
    rs.decks = [list(k) for k in d["decks"]]
    rs.goal_deck, rs.display = list(d["goal_deck"]), list(d.get("display", []))
    rs.options = list(d.get("goal_options", []))
    rs.deal = [list(x) for x in d.get("deal", [[0, 0], [0, 0]])]
    rs.seats = [{"port": s["port"], "cargo": list(s["cargo"]), "drachmas": s["drachmas"],
                 "temples": [tuple(t) for t in s["temples"]], "hand": list(s["hand"]),
                 "excavated": list(s["excavated"]), "goals": list(s["goals"]), "tile": s["tile"],
                 "turns": s["turns"]} for s in d["seats"]]
    rs.phase = d["phase"]
    rs.stage = "setup" if d.get("stage") == "setup" else "play"
    rs.current = -1 if d.get("current") is None else d["current"]
    rs.actions, rs.bonus, rs.oracle_used = d.get("actions", 0), bool(d.get("bonus")), bool(d.get("oracle_used"))
    rs.end_trigger, rs.decisions = d.get("end_trigger"), d.get("decisions", 0)
    rs.placed = None
    if d.get("placed_cell") is not None:
        cell = d["placed_cell"]
        x, y = cell % 16 - 8, cell // 16 - 8
        t = next(t for t in d["tiles"] if (t["x"], t["y"]) == (x, y))
        rs.placed = (t["tile"], t["rot"], x, y)
    if d.get("rng") is not None:
        rs.rng.s = [int(w) for w in d["rng"]]
    rs.transcript = [{"kind": "position"}]
    rs._cache = None
    rs._settle()
    return rs


def load(d, engine, **settings):
    if engine == "cython":
        return akrotiri.State.from_dict(d, config=akrotiri.make_config(2, **settings))
    return ref_load(d, **settings)


def view(st):
    """The position of either engine in one comparable form."""
    if isinstance(st, ref.RefState):
        seats = st.seats
        d = {"phase": st.phase, "current": None if st.phase == "over" else st.current, "actions": st.actions,
             "bonus": st.bonus, "oracle_used": st.oracle_used, "end_trigger": st.end_trigger,
             "cubes": {q: list(v) for q, v in st.cubes.items() if any(v)}, "market_out": list(st.out),
             "pile": list(st.pile), "discard": list(st.discard), "decks": [list(k) for k in st.decks],
             "goal_deck": list(st.goal_deck), "display": list(st.display), "goal_options": list(st.options),
             "tiles": {(x, y): v for (x, y), v in st.cells.items() if v != "start"}}
    else:
        x = st.to_dict()
        seats = x["seats"]
        d = {k: x[k] for k in ("phase", "current", "actions", "bonus", "oracle_used", "end_trigger", "market_out",
                               "pile", "discard", "decks", "goal_deck", "display", "goal_options")}
        d["cubes"] = {(c["r"], c["c"]): c["cubes"] for c in x["cubes"]}
        d["tiles"] = {(t["x"], t["y"]): (t["tile"], t["rot"]) for t in x["tiles"]}
    d["seats"] = [{"port": s["port"], "cargo": list(s["cargo"]), "drachmas": s["drachmas"],
                   "temples": [tuple(t) for t in s["temples"]], "hand": sorted(s["hand"]),
                   "excavated": sorted(s["excavated"]), "goals": sorted(s["goals"]), "tile": s["tile"],
                   "turns": s["turns"]} for s in seats]
    return d


def turns(st):
    return [s["turns"] for s in view(st)["seats"]]


def of(st, lo, hi):
    return [a for a in st.legal_actions() if lo <= a < hi]


def put(tile, r, c):
    """(tile, x, y, rot) that puts ``tile``'s landmark on quarter (r, c)."""
    rot = next(k for k in range(4) if LAY[tile][k].landmark_quarter == 2 * (r % 2) + c % 2)
    return (tile, c // 2, r // 2, rot)


def cell(x, y):
    return (y + 8) * 16 + (x + 8)


# ================================================================== set-up (section 3, 15.3, A-D5, A-D8, A-D9, A-D28)

def _shuffled(rng, a):
    for i in range(len(a) - 1, 0, -1):
        j = rng.below(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game_seed", [5, 91])
def test_setup_follows_section_3_and_the_chance_order(engine, game_seed):
    from simcore.rng import Xoshiro256
    rng = Xoshiro256(game_seed)
    # 15.3: tiles, then the easy, medium and hard decks, then the goal deck
    tiles = _shuffled(rng, list(range(36)))
    decks = [_shuffled(rng, list(range(12 * k, 12 * k + 12))) for k in range(3)]
    goals = _shuffled(rng, list(range(12)))
    st = akrotiri.new_game(2, game_seed) if engine == "cython" else ref.RefState.new(2, game_seed)
    v = view(st)
    assert v["phase"] == "place_tile" and v["current"] == 0
    assert v["seats"][0]["tile"] == tiles[0] and v["seats"][1]["tile"] is None
    assert [s["port"] for s in v["seats"]] == [T0, T1]                 # A-D9
    assert [s["drachmas"] for s in v["seats"]] == [2, 2] and v["market_out"] == [0, 0, 0, 0]
    lay = LAY[tiles[0]]
    st.apply(st.legal_actions()[0])                                   # seat 0's seed tile
    if view(st)["phase"] == "second_cube":
        st.apply(st.legal_actions()[0])
    v = view(st)
    assert v["current"] == 1 and v["seats"][1]["tile"] == tiles[1]
    # the seed tile got its cubes as in a turn: the landmark cube and a second one
    assert sum(v["market_out"]) == 2 and v["market_out"][lay[0].landmark] >= 1
    st.apply(st.legal_actions()[-1])
    if view(st)["phase"] == "second_cube":
        st.apply(st.legal_actions()[-1])
    v = view(st)
    # maps: seat 0 easy, seat 0 medium, seat 1 easy, seat 1 medium, from the tops
    assert v["seats"][0]["hand"] == sorted([decks[0][0], decks[1][0]])
    assert v["seats"][1]["hand"] == sorted([decks[0][1], decks[1][1]])
    assert v["decks"] == [decks[0][2:], decks[1][2:], decks[2]]
    # goals: the top two to seat 0, then two to seat 1; each keeps one, seat 0 first (A-D28)
    assert v["phase"] == "keep_goal" and v["current"] == 0 and v["goal_options"] == goals[0:2]
    st.apply(GOAL + 1)
    v = view(st)
    assert v["current"] == 1 and v["goal_options"] == goals[2:4]
    st.apply(GOAL + 0)
    v = view(st)
    assert [s["goals"] for s in v["seats"]] == [[goals[1]], [goals[2]]]
    assert v["goal_deck"] == goals[4:] + [goals[0], goals[3]]          # the others to the bottom, seat 0 first
    # hand tiles, seat 0 first; seat 0 begins with 3 actions to come
    assert [s["tile"] for s in v["seats"]] == [tiles[2], tiles[3]] and v["pile"] == tiles[4:]
    assert v["phase"] == "place_tile" and v["current"] == 0 and turns(st) == [1, 0]


@pytest.mark.parametrize("engine", ENGINES)
def test_seed_tiles_touch_the_start_board(engine):
    # A-D8: both seed tiles go next to the start board, the second one not next to the first
    st = akrotiri.new_game(2, 3) if engine == "cython" else ref.RefState.new(2, 3)
    around = {(-2, -1), (-2, 0), (1, -1), (1, 0), (-1, -2), (0, -2), (-1, 1), (0, 1)}
    assert st.legal_actions() == sorted(PLACE + cell(x, y) * 4 + r for x, y in around for r in range(4))
    st.apply(PLACE + cell(1, 0) * 4)
    if view(st)["phase"] == "second_cube":
        st.apply(st.legal_actions()[0])
    assert view(st)["current"] == 1
    assert st.legal_actions() == sorted(PLACE + cell(x, y) * 4 + r for x, y in around - {(1, 0)} for r in range(4))


# ================================================================== the turn (section 4, A-D25)

@pytest.mark.parametrize("engine", ENGINES)
def test_placement_is_mandatory_and_needs_an_occupied_neighbour(engine):
    me = seat(T0, tile=5, cargo=[1, 0, 0, 0])          # no free action before the tile is down (A-D26)
    st = load(position([(0, 0, 1, 0)], seats=[me, seat(T1)], phase="place_tile", market_out=[1, 0, 0, 0]), engine)
    cells = {(-2, -1), (-2, 0), (1, -1), (1, 0), (-1, -2), (0, -2), (-1, 1), (1, 1), (0, 2)}
    assert st.legal_actions() == sorted(PLACE + cell(x, y) * 4 + r for x, y in cells for r in range(4))
    assert END not in st.legal_actions()


@pytest.mark.parametrize("engine", ENGINES)
def test_placement_stays_inside_the_window(engine):
    # A-D6: a tile on the east border (x = 7): its east neighbour is outside; nothing wraps to x = -8
    me = seat(T0, tile=5)
    st = load(position([(0, 7, 0, 0), (3, 3, -8, 0)], seats=[me, seat(T1)], phase="place_tile"), engine)
    cells = {(-2, -1), (-2, 0), (1, -1), (1, 0), (-1, -2), (0, -2), (-1, 1), (0, 1),
             (6, 0), (7, -1), (7, 1), (2, -8), (4, -8), (3, -7)}
    assert st.legal_actions() == sorted(PLACE + cell(x, y) * 4 + r for x, y in cells for r in range(4))


@pytest.mark.parametrize("engine", ENGINES)
def test_cubes_on_a_new_tile(engine):
    # tile 0 (lake on NW) on cell (0, 1): the landmark cube (blue, A-D4) goes on (2, 0) by itself
    me = seat(T0, tile=0)
    d = position(seats=[me, seat(T1)], phase="place_tile", market_out=[2, 0, 5, 0])
    st = load(d, engine)
    st.apply(PLACE + cell(0, 1) * 4)
    v = view(st)
    assert v["cubes"] == {(2, 0): [1, 0, 0, 0]} and v["market_out"] == [3, 0, 5, 0]
    assert v["phase"] == "second_cube"
    # the second cube: any colour the market has, on any land quarter but the landmark's
    assert st.legal_actions() == [CUBE + col * 4 + q for col in range(4) for q in (1, 2, 3)]
    st.apply(CUBE + GREY * 4 + 3)
    v = view(st)
    assert v["cubes"] == {(2, 0): [1, 0, 0, 0], (3, 1): [0, 0, 1, 0]} and v["market_out"] == [3, 0, 6, 0]
    assert v["phase"] == "action" and v["actions"] == 3
    # the landmark's colour exhausted: no landmark cube, the second cube still comes (A-D14)
    st = load(dict(d, market_out=[8, 0, 5, 0]), engine)
    st.apply(PLACE + cell(0, 1) * 4)
    assert view(st)["cubes"] == {}
    assert st.legal_actions() == [CUBE + col * 4 + q for col in (1, 2, 3) for q in (1, 2, 3)]
    # every colour exhausted: no cube at all, straight to the actions
    st = load(dict(d, market_out=[8, 8, 8, 8]), engine)
    st.apply(PLACE + cell(0, 1) * 4)
    v = view(st)
    assert v["cubes"] == {} and v["phase"] == "action"


@pytest.mark.parametrize("engine", ENGINES)
def test_end_of_turn_draw_and_reshuffle(engine):
    from simcore.rng import Xoshiro256
    # a seat without a tile draws the top tile at the end of its turn
    st = load(position(pile=[9, 4, 7], discard=[]), engine)
    st.apply(END)
    assert view(st)["seats"][0]["tile"] == 9 and view(st)["pile"] == [4, 7]
    # an empty pile: the discards are shuffled into a new pile first (15.3: Fisher-Yates on the chance stream)
    st = load(position(pile=[], discard=[3, 8, 12, 20, 30]), engine)
    st.apply(END)
    rng = Xoshiro256(0)
    rng.s = [1, 2, 3, 4]
    new = _shuffled(rng, [3, 8, 12, 20, 30])
    v = view(st)
    assert v["seats"][0]["tile"] == new[0] and v["pile"] == new[1:] and v["discard"] == []
    # both piles empty: no tile (A-D25)
    st = load(position(pile=[], discard=[]), engine)
    st.apply(END)
    assert view(st)["seats"][0]["tile"] is None


@pytest.mark.parametrize("engine", ENGINES)
def test_a_player_without_a_tile_skips_placement(engine):
    # A-D25: seat 1 holds no tile (the piles are empty): its turn starts in the action phase
    st = load(position(pile=[], discard=[]), engine)
    st.apply(END)
    v = view(st)
    assert v["current"] == 1 and v["phase"] == "action" and v["actions"] == 3 and turns(st) == [1, 2]
    # with a tile it starts with the placement
    st = load(position(seats=[seat(T0), seat(T1, tile=6)], pile=[], discard=[]), engine)
    st.apply(END)
    assert view(st)["phase"] == "place_tile" and view(st)["current"] == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_actions_are_optional_and_end_is_always_legal(engine):
    # A-D26: END with actions left ends the turn and the rest is lost
    st = load(position(actions=3), engine)
    assert END in st.legal_actions()
    st.apply(END)
    assert view(st)["current"] == 1 and view(st)["actions"] == 3
    st = load(position(actions=0, seats=[seat(T0, cargo=[1, 0, 0, 0]), seat(T1)], market_out=[1, 0, 0, 0]), engine)
    assert st.legal_actions() == [END, SELL + BLUE, UNLOAD + BLUE]


# ================================================================== actions (section 5)

# tile 0 on (0, 1) and tile 34 (D4, mountain on NW) on (0, 2): the island {(3, 0), (4, 0)} with port 0 on (3, 0)
# and port 138 on (4, 0)
TWO = [(0, 0, 1, 0), (34, 0, 2, 0)]

# tile 18 (I) on (0, 1): N ends at p1 = port 73 (NW quarter (2, 0)); W-p0-E passes p0 = port 72, also on (2, 0).
# Tile 0 (X1) on (-1, 1): its hub joins N (the start board's S_w, so R) and E (tile 18's W), and its dock
# port 0 on (3, -2) is an island of its own. So 72 and 73 are on one island, both reached from Thera.
PORTAGE = [(18, 0, 1, 0), (0, -1, 1, 0)]
LOADED = [1, 0, 0, 0]


@pytest.mark.parametrize("engine", ENGINES)
def test_sea_move_must_change_island(engine):
    st = load(position(PORTAGE, seats=[seat(73, cargo=LOADED), seat(T1)], market_out=LOADED), engine)
    sails = of(st, SAIL, TRANSPORT)
    assert SAIL + 0 in sails and SAIL + T0 in sails and SAIL + 72 not in sails      # A-D10
    assert of(st, TRANSPORT, LOAD) == [TRANSPORT + 72]


@pytest.mark.parametrize("engine", ENGINES)
def test_same_island_sail_variant(engine):
    st = load(position(PORTAGE, seats=[seat(73, cargo=LOADED), seat(T1)], market_out=LOADED), engine,
              same_island_sail=True)
    assert SAIL + 72 in of(st, SAIL, TRANSPORT) and SAIL + 73 not in of(st, SAIL, TRANSPORT)
    st.apply(SAIL + 72)
    assert view(st)["seats"][0]["port"] == 72 and view(st)["actions"] == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_sea_move_goes_any_distance_through_junctions(engine):
    # from port 73 to port 0: through R, the hub of tile 0 and past no port; one action
    st = load(position(PORTAGE, seats=[seat(73, cargo=LOADED), seat(T1)], market_out=LOADED), engine)
    st.apply(SAIL + 0)
    v = view(st)
    assert v["seats"][0]["port"] == 0 and v["actions"] == 2 and v["seats"][0]["cargo"] == LOADED


@pytest.mark.parametrize("engine", ENGINES)
def test_transport_stays_on_the_island_and_keeps_the_cargo(engine):
    st = load(position(PORTAGE, seats=[seat(73, cargo=LOADED), seat(T1)], market_out=LOADED), engine)
    st.apply(TRANSPORT + 72)
    v = view(st)
    assert v["seats"][0]["port"] == 72 and v["seats"][0]["cargo"] == LOADED and v["actions"] == 2   # A-D13
    assert not v["bonus"]
    # not onto the opponent's port
    st = load(position(PORTAGE, seats=[seat(73, cargo=LOADED), seat(72)], market_out=LOADED), engine)
    assert of(st, TRANSPORT, LOAD) == []
    # across the island, from a port on one quarter to a port on another: port 0 on (3, 0) to tile 34's port
    # 138 on (4, 0) of the TWO board (their routes do not meet: 138 is a dock at the end of tile 34's W arm)
    st = load(position(TWO, seats=[seat(0, cargo=LOADED), seat(T1)], market_out=LOADED), engine)
    assert of(st, TRANSPORT, LOAD) == [TRANSPORT + 138] and SAIL + 138 not in st.legal_actions()
    st.apply(TRANSPORT + 138)
    assert view(st)["seats"][0]["port"] == 138 and view(st)["actions"] == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_bonus_movement_may_be_a_transport_and_pays_for_passing(engine):
    # empty boat: sail T0 -> 73 for one action, then the transport 73 -> 72 is the free second movement
    st = load(position(PORTAGE), engine)
    st.apply(SAIL + 73)
    assert view(st)["actions"] == 2 and view(st)["bonus"]
    st.apply(TRANSPORT + 72)
    v = view(st)
    assert v["actions"] == 2 and not v["bonus"] and v["seats"][0]["port"] == 72
    # a transport as the first movement grants the bonus too
    st = load(position(PORTAGE, seats=[seat(73), seat(T1)]), engine)
    st.apply(TRANSPORT + 72)
    assert view(st)["actions"] == 2 and view(st)["bonus"]
    # any action that is not a movement ends the bonus: buying maps, consulting the Oracle
    for a in (BUY + BUY_CODES.index((0,)), ORACLE + TREE):
        st = load(position(PORTAGE, bonus=True, actions=2), engine)
        st.apply(a)
        assert view(st)["actions"] == 1 and not view(st)["bonus"]
    # the bonus movement passing the opponent's through-port costs 1 (A-D11): tile 18 turned once has
    # N-p0-S with p0 = port 72 between R and tile 0's hub below; tile 3 east of the start board is not behind it
    tiles = [(18, 0, 1, 1), (0, 0, 2, 0), (3, 1, 0, 0)]
    st = load(position(tiles, seats=[seat(T0), seat(72)], bonus=True, actions=0), engine)
    assert SAIL + 12 in st.legal_actions() and SAIL + 0 not in st.legal_actions()
    st = load(position(tiles, seats=[seat(T0), seat(72)], bonus=True, actions=1), engine)
    st.apply(SAIL + 0)
    # the move cost the last action: nothing is left to do, so the turn ended by a forced END
    v = view(st)
    assert v["seats"][0]["port"] == 0 and v["current"] == 1 and turns(st) == [1, 2]


@pytest.mark.parametrize("engine", ENGINES)
def test_free_actions_cost_nothing_even_after_the_last_action(engine):
    st = load(position(actions=0, seats=[seat(T0, cargo=[2, 0, 0, 1], drachmas=0), seat(T1)],
                       market_out=[4, 0, 0, 3]), engine)
    st.apply(SELL + BLUE)
    st.apply(UNLOAD + ORANGE)
    v = view(st)
    assert v["actions"] == 0 and v["seats"][0]["drachmas"] == 3 and v["seats"][0]["cargo"] == [1, 0, 0, 0]
    assert v["cubes"] == {(0, 0): [0, 0, 0, 1]} and v["market_out"] == [3, 0, 0, 3]


@pytest.mark.parametrize("engine", ENGINES)
def test_load_from_any_quarter_of_the_island(engine):
    cubes = [{"r": 4, "c": 0, "cubes": [0, 2, 0, 0]}, {"r": 3, "c": 1, "cubes": [0, 0, 1, 0]}]
    st = load(position(TWO, seats=[seat(0), seat(T1)], cubes=cubes, market_out=[0, 2, 1, 0]), engine)
    loads = [LOAD_CODES[a - LOAD] for a in of(st, LOAD, EXCAVATE)]
    assert sorted(loads) == [(1,), (1, 1)]         # (3, 1) is another island: its grey cube is out of reach
    st.apply(LOAD + LOAD_CODES.index((1, 1)))
    v = view(st)
    assert v["seats"][0]["cargo"] == [0, 2, 0, 0] and v["cubes"] == {(3, 1): [0, 0, 1, 0]} and v["actions"] == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_unload_anywhere_onto_the_port_quarter(engine):
    st = load(position(TWO, seats=[seat(0, cargo=[0, 1, 1, 0]), seat(T1)], market_out=[0, 1, 1, 0]), engine)
    assert of(st, SELL, UNLOAD) == []
    st.apply(UNLOAD + GREEN)
    v = view(st)
    assert v["cubes"] == {(3, 0): [0, 1, 0, 0]} and v["actions"] == 3 and v["market_out"] == [0, 1, 1, 0]
    # at Thera too: T1 lies on quarter (-1, -1) (A-D5)
    st = load(position(seats=[seat(T1, cargo=[1, 0, 0, 0]), seat(T0)], market_out=[1, 0, 0, 0]), engine)
    st.apply(UNLOAD + BLUE)
    assert view(st)["cubes"] == {(-1, -1): [1, 0, 0, 0]}


@pytest.mark.parametrize("engine", ENGINES)
def test_selling_example_on_both_engines(engine):
    d = position(seats=[seat(T0, cargo=[2, 0, 1, 0], drachmas=0), seat(T1)], market_out=[5, 0, 2, 0])
    st = load(d, engine)
    for a in (SELL + BLUE, SELL + BLUE, SELL + GREY):
        st.apply(a)
    assert view(st)["seats"][0]["drachmas"] == 8 and view(st)["market_out"] == [3, 0, 1, 0]
    st = load(dict(d, market_out=[5, 0, 3, 0]), engine)
    for a in (SELL + BLUE, SELL + BLUE, SELL + GREY):
        st.apply(a)
    assert view(st)["seats"][0]["drachmas"] == 8
    # selling only at Thera
    st = load(position(TWO, seats=[seat(0, cargo=[1, 0, 0, 0]), seat(T1)], market_out=[1, 0, 0, 0]), engine)
    assert of(st, SELL, UNLOAD) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_bank_has_no_limit(engine):
    st = load(position(seats=[seat(T0, cargo=[1, 0, 0, 0], drachmas=298), seat(T1)], market_out=[8, 0, 0, 0]), engine)
    st.apply(SELL + BLUE)
    assert view(st)["seats"][0]["drachmas"] == 303


# ------------------------------------------------------------ excavation (5.5, 7.4, 8, A-D17, A-D20, A-D23, A-D38)

E02, E03, E06 = card("E02"), card("E03"), card("E06")
# the rules file's small board: tile 0 south of the start board (port 0 on (3, 0)), a tree far north,
# a volcano far east; E02 (N tree 1, E volcano 1) fits quarter (3, 0) for seat 0
BOARD = [(0, 0, 1, 0), (1, -1, -3, 0), (3, 2, -1, 0), (9, 0, 3, 0), (7, -3, 0, 0)]
# five temples already built, on land quarters of BOARD away from the island of (3, 0) (a position
# is checked like a data file: every temple stands on land)
DUMMY = [[-6, -2], [-2, 4], [0, -6], [6, 0], [-2, 1]]


@pytest.mark.parametrize("engine", ENGINES)
def test_excavation_effects(engine):
    st = load(position(BOARD, seats=[seat(0, hand=[E02, E03], drachmas=5), seat(T1)]), engine)
    assert of(st, EXCAVATE, BUY) == [EXCAVATE + E02 * 4]
    st.apply(EXCAVATE + E02 * 4)
    me = view(st)["seats"][0]
    assert me["temples"] == [(3, 0)] and me["drachmas"] == 3 and me["hand"] == [E03] and me["excavated"] == [E02]
    assert view(st)["actions"] == 2 and view(st)["phase"] == "action"      # no goal at the first temple
    assert st.scores()["maps"] == [2, 0]                                    # the excavated card scores, the hand not


# island {(3, 0), (4, 0)} of TWO, a lake far south-east and a volcano far north
SITES = TWO + [put(4, 10, 10), put(3, -10, 5)]


@pytest.mark.parametrize("engine", ENGINES)
def test_temple_quarter_is_chosen_among_satisfied_quarters(engine):
    # E03 (E lake 1, S mountain 1): the mountain is on (4, 0), so only (3, 0) has it to the S;
    # E06 (N volcano 1, S lake 1) fits both quarters. Quarter index i: 0 = (3, 0), 1 = (4, 0).
    st = load(position(SITES, seats=[seat(0, hand=[E03, E06], drachmas=5), seat(T1)]), engine)
    assert of(st, EXCAVATE, BUY) == [EXCAVATE + E03 * 4, EXCAVATE + E06 * 4, EXCAVATE + E06 * 4 + 1]
    st.apply(EXCAVATE + E06 * 4 + 1)
    assert view(st)["seats"][0]["temples"] == [(4, 0)]
    assert of(st, EXCAVATE, BUY) == []                                      # the island now holds a temple


@pytest.mark.parametrize("engine", ENGINES)
def test_no_excavation_after_six_temples_or_on_an_own_temple_island(engine):
    st = load(position(BOARD, seats=[seat(0, hand=[E02], drachmas=5, temples=[[3, 0]], excavated=[20]),
                                     seat(T1)]), engine)
    assert of(st, EXCAVATE, BUY) == []
    six = DUMMY + [[7, 1]]
    st = load(position(BOARD, seats=[seat(0, hand=[E02], drachmas=5, temples=six, excavated=list(range(20, 26))),
                                     seat(T1)], end_trigger="temples"), engine)
    assert of(st, EXCAVATE, BUY) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_excavation_on_a_corner_piece(engine):
    # A-D20: tile 0 turned once on (1, -1) puts its dock (port 0) on (-2, 2), which joins the start
    # board's corner piece (-2, 1). A tree far north and a volcano far east: E02 fits both quarters.
    tiles = [(0, 1, -1, 1), put(1, -12, 0), put(3, 10, 12)]
    st = load(position(tiles, seats=[seat(0, hand=[E02], drachmas=2), seat(T1)]), engine)
    assert of(st, EXCAVATE, BUY) == [EXCAVATE + E02 * 4, EXCAVATE + E02 * 4 + 1]
    st.apply(EXCAVATE + E02 * 4)
    assert view(st)["seats"][0]["temples"] == [(-2, 1)]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("before", [2, 3, 4])
def test_goal_draw_at_the_3rd_and_5th_temple(engine, before):
    me = seat(0, hand=[E02], drachmas=5, temples=DUMMY[:before], excavated=list(range(24, 24 + before)), goals=[0])
    st = load(position(BOARD, seats=[me, seat(T1)], goal_deck=[4, 7, 9, 11]), engine)
    st.apply(EXCAVATE + E02 * 4)
    v = view(st)
    if before == 3:                                   # the 4th temple reveals a number, no goal
        assert v["phase"] == "action" and v["goal_deck"] == [4, 7, 9, 11]
        return
    # the 3rd and the 5th: draw 2 at once (A-D23), keep 1, the other to the bottom
    assert v["phase"] == "keep_goal" and v["current"] == 0 and v["goal_options"] == [4, 7]
    st.apply(GOAL + 1)
    v = view(st)
    assert v["seats"][0]["goals"] == [0, 7] and v["goal_deck"] == [9, 11, 4] and v["phase"] == "action"
    assert v["actions"] == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_goal_draw_from_a_deck_of_one_card(engine):
    # A-D23: only one card left: it is taken
    me = seat(0, hand=[E02], drachmas=5, temples=DUMMY[:2], excavated=[24, 25], goals=[0, 1, 2])
    st = load(position(BOARD, seats=[me, seat(T1, goals=[3, 4, 5, 6, 7, 8, 9, 10])], goal_deck=[11]), engine)
    st.apply(EXCAVATE + E02 * 4)
    v = view(st)
    assert v["seats"][0]["goals"] == [0, 1, 2, 11] and v["goal_deck"] == [] and v["phase"] == "action"


@pytest.mark.parametrize("engine", ENGINES)
def test_strategist_display(engine):
    # section 12 and A-D34: the 3rd temple takes one of the 4 face-up goals; the display is refilled
    me = seat(0, hand=[E02], drachmas=5, temples=DUMMY[:2], excavated=[24, 25], goals=[0])
    st = load(position(BOARD, seats=[me, seat(T1, goals=[1])], goal_deck=[9, 10, 11], display=[5, 6, 7, 8]),
              engine, strategist=True)
    st.apply(EXCAVATE + E02 * 4)
    v = view(st)
    assert v["phase"] == "keep_goal" and v["goal_options"] == [5, 6, 7, 8]
    st.apply(GOAL + 2)
    v = view(st)
    assert v["seats"][0]["goals"] == [0, 7] and sorted(v["display"]) == [5, 6, 8, 9] and v["goal_deck"] == [10, 11]
    # at set-up the deal is unchanged (2 each, keep 1) and 4 goals are revealed after it
    from simcore.rng import Xoshiro256
    rng = Xoshiro256(17)
    _shuffled(rng, list(range(36)))
    for k in range(3):
        _shuffled(rng, list(range(12)))
    goals = _shuffled(rng, list(range(12)))
    st = akrotiri.new_game(2, 17, strategist=True) if engine == "cython" else ref.RefState.new(2, 17, strategist=True)
    while view(st)["phase"] != "keep_goal":
        st.apply(st.legal_actions()[0])
    assert view(st)["goal_options"] == goals[0:2]
    st.apply(GOAL + 0)
    assert view(st)["goal_options"] == goals[2:4]
    st.apply(GOAL + 0)
    v = view(st)
    assert v["display"] == goals[4:8] and v["goal_deck"] == goals[8:] + [goals[1], goals[3]]


# ------------------------------------------------------------------ buying maps (5.6, A-D21)

@pytest.mark.parametrize("engine", ENGINES)
def test_buying_maps_mixed_decks_repeat_no_limit(engine):
    hand = [0, 1, 2, 3, 12, 13, 14, 15, 24, 25]                   # ten cards: no hand limit
    d = position(seats=[seat(T0, drachmas=10, hand=hand), seat(T1)])
    st = load(d, engine)
    decks = view(st)["decks"]
    st.apply(BUY + BUY_CODES.index((0, 1, 2)))                    # one card from each deck, each the top card
    v = view(st)
    assert v["seats"][0]["hand"] == sorted(hand + [decks[0][0], decks[1][0], decks[2][0]])
    assert v["seats"][0]["drachmas"] == 3 and v["actions"] == 2
    st.apply(BUY + BUY_CODES.index((2, 2)))                       # the action again in the same turn
    v = view(st)
    hand = v["seats"][0]["hand"]
    assert v["seats"][0]["drachmas"] == 0 and decks[2][1] in hand and decks[2][2] in hand
    # an empty deck cannot be chosen; a deck with one card gives one
    st = load(dict(d, decks=[[4], [16, 17], []]), engine)
    buys = sorted(BUY_CODES[a - BUY] for a in of(st, BUY, ORACLE))
    assert buys == [(0,), (0, 1), (0, 1, 1), (1,), (1, 1)]


# ------------------------------------------------------------------ Oracle (5.7, A-D24)

@pytest.mark.parametrize("engine", ENGINES)
def test_oracle_preconditions_and_reshuffle(engine):
    # not while holding a tile
    st = load(position(seats=[seat(T0, tile=5), seat(T1)], pile=[t for t in range(36) if t != 5]), engine)
    assert of(st, ORACLE, SELL) == []
    # both piles empty: not allowed
    st = load(position(pile=[], discard=[]), engine)
    assert of(st, ORACLE, SELL) == []
    # an empty pile is reshuffled from the discards before the search (lake tiles: 0, 4, 8, 12, ...)
    from simcore.rng import Xoshiro256
    discard = [1, 2, 3, 5, 8, 6, 7]
    st = load(position(pile=[], discard=list(discard)), engine)
    st.apply(ORACLE + LAKE)
    rng = Xoshiro256(0)
    rng.s = [1, 2, 3, 4]
    new = _shuffled(rng, list(discard))
    k = new.index(8)
    v = view(st)
    assert v["seats"][0]["tile"] == 8 and v["pile"] == new[k + 1:] and v["discard"] == new[:k]
    assert v["oracle_used"] and v["actions"] == 2
    # no match in the pile: the last tile turned over is taken, no reshuffle during the search
    st = load(position(pile=[1, 2, 3], discard=[5, 6, 8]), engine)
    st.apply(ORACLE + LAKE)
    v = view(st)
    assert v["seats"][0]["tile"] == 3 and v["pile"] == [] and v["discard"] == [5, 6, 8, 1, 2]
    # after the Oracle: no second one this turn, and no draw at the end of the turn
    assert of(st, ORACLE, SELL) == []
    st.apply(END)
    v = view(st)
    assert v["seats"][0]["tile"] == 3 and v["pile"] == [] and v["discard"] == [5, 6, 8, 1, 2]
    # the next turn: the tile is placed, and the Oracle may be consulted again (4.3 resets oracle_used)
    st.apply(END)                                    # seat 1 (its end-of-turn draw reshuffles the discards)
    assert view(st)["current"] == 0 and view(st)["phase"] == "place_tile"
    st.apply(st.legal_actions()[0])
    if view(st)["phase"] == "second_cube":
        st.apply(st.legal_actions()[0])
    assert not view(st)["oracle_used"] and of(st, ORACLE, SELL) == [ORACLE + k for k in range(4)]


# ------------------------------------------------------------------ action track (8.2, A-D22, section 13)

@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("track", [None, (3, 4, 5, 5, 5, 5)])
def test_action_track(engine, track):
    want = track or (3, 4, 5, 5, 6, 6)
    settings = {} if track is None else {"action_track": list(track)}
    for k in range(6):
        me = seat(T0, temples=DUMMY[:k] if k < 6 else [], excavated=list(range(24, 24 + k)))
        st = load(position(BOARD, seats=[me, seat(T1)], current=1), engine, **settings)
        st.apply(END)
        v = view(st)
        assert v["current"] == 0 and v["phase"] == "action" and v["actions"] == want[k], k


# ------------------------------------------------------------------ end of game and scoring (10, 11, A-D27)

@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("trigger", [0, 1])
def test_end_trigger_by_either_seat_on_both_engines(engine, trigger):
    seats = [seat(T0, turns=5), seat(T1, turns=4 + trigger)]
    seats[trigger].update(temples=DUMMY, excavated=[20, 21, 22, 23, 24], hand=[E02], drachmas=5, port=0)
    st = load(position(BOARD, seats=seats, current=trigger), engine)
    st.apply(EXCAVATE + E02 * 4)
    v = view(st)
    assert v["end_trigger"] == "temples" and v["phase"] == "action" and v["current"] == trigger
    assert len(st.legal_actions()) > 1                # the player finishes the turn normally
    st.apply(END)
    if trigger == 0:                                  # seat 1 takes one more turn
        v = view(st)
        assert v["phase"] != "over" and v["current"] == 1
        st.apply(END)
    assert view(st)["phase"] == "over" and turns(st) == [5, 5]


@pytest.mark.parametrize("engine", ENGINES)
def test_turn_cap_ends_after_seat_1(engine):
    # A-D27: with turn_cap 7 the game ends after seat 1's 7th turn, and not after seat 0's
    st = load(position(seats=[seat(T0, turns=7), seat(T1, turns=6)]), engine, turn_cap=7)
    st.apply(END)
    assert view(st)["current"] == 1 and turns(st) == [7, 7]
    st.apply(END)
    v = view(st)
    assert v["phase"] == "over" and v["end_trigger"] == "turn_cap" and turns(st) == [7, 7]
    st = load(position(seats=[seat(T0, turns=60), seat(T1, turns=60)], current=1), engine)
    st.apply(END)
    assert view(st)["phase"] == "over" and view(st)["end_trigger"] == "turn_cap"


@pytest.mark.parametrize("engine", ENGINES)
def test_scoring_categories(engine):
    # maps: the excavated cards' points (cards in hand score nothing); money: drachmas // 10
    s0 = seat(T0, drachmas=29, excavated=[card("E01"), card("H12")], hand=[card("M01")], temples=DUMMY[:2])
    s1 = seat(T1, drachmas=9, excavated=[card("M07")], temples=DUMMY[2:3])
    st = load(over(BOARD, [s0, s1]), engine)
    assert st.scores() == {"maps": [10, 5], "goals": [0, 0], "money": [2, 0], "total": [12, 5]}


# ------------------------------------------------------------------ goals (section 9, 2.4-2.9, A-D29..A-D35)

G = {k: i for i, k in enumerate(("transport_1", "transport_2", "three_landmarks", "no_landmark", "quadrants",
                                 "largest_complete_island", "isolated", "incomplete_island", "volcano_island",
                                 "mountain_island", "lake_island", "tree_island"))}


def goal_points(engine, tiles, temples0, goals0, temples1=(), goals1=(), **settings):
    s0 = seat(T0, temples=[list(t) for t in temples0], excavated=list(range(24, 24 + len(temples0))), goals=goals0)
    s1 = seat(T1, temples=[list(t) for t in temples1], excavated=list(range(12, 12 + len(temples1))),
              goals=list(goals1))
    st = load(over(tiles, [s0, s1]), engine, **settings)
    return [{k: v for k, v in g.items() if v} for g in st.goal_scores()]


# G01 board: tile 10 turned twice on (1, 0): its W arm (the start board's E_s, so R) joins the hub and
# dock p0 = port 40 on (0, 3); its E arm ends at dock p1 = port 41, also on (0, 3). Tile 30 turned once
# on (2, 0): its W arm ends at port 120 on (1, 4). So island {(0, 3), (0, 4)} is at distance 0, island
# {(1, 3), (1, 4)} (port 120, in the component of port 41) at 1, and {(0, 5)} (docks on dead ends) at inf.
D1 = [(10, 1, 0, 2), (30, 2, 0, 1)]
# G02 board: tile 13 turned twice on (-1, 1): N (the start board's S_w) ends at port 53 on (2, -2), which
# joins the corner piece (1, -2); the hub (W, S, E) holds port 52 on the same quarter, so this island is
# at 0 and the hub network at 1. Tile 20 turned once on (-1, 2): N reaches that hub and ends at port 82 on
# (4, -1), island {(3, -1), (4, -1), (4, 0)} at distance 1; tile 24 on (0, 2): port 96 on (4, 0) (same
# island) is linked by W to tile 20's port 80 on (5, -1): island {(5, -1), (5, 0)} is at distance 2.
D2 = [(13, -1, 1, 2), (20, -1, 2, 1), (24, 0, 2, 0)]
# a chain to distance 3, west of the start board: tile 32 turned 3 times on (-1, 1) links N (S_w, so R) to port 130
# and W to port 129, both on (2, -2); tile 2's hub on (-2, 1) takes W to port 8 on (3, -4) and, through tile 21
# (turned 3 times, on (-2, 2)), to port 86 on (4, -4): island {(3, -4), (4, -5), (4, -4)} at 1, also holding port
# 24 of tile 6 (turned once, on (-3, 2)), whose hub reaches tile 21's port 84 on (5, -3): island {(5, -3), (6, -3)}
# at 2. Its port 85 (tile 21's S) reaches tile 3's hub (turned 3 times, on (-2, 3)) and port 12 on (6, -4):
# island {(5, -5), (5, -4), (6, -4)} at 3.
D3 = [(32, -1, 1, 3), (2, -2, 1, 1), (21, -2, 2, 3), (3, -2, 3, 3), (6, -3, 2, 1)]


@pytest.mark.parametrize("engine", ENGINES)
def test_g01_g02_transport_distance(engine):
    t1, t2 = G["transport_1"], G["transport_2"]
    assert goal_points(engine, D1, [(1, 3)], [t1, t2]) == [{"transport_1": 3}, {}]
    assert goal_points(engine, D1, [(0, 3)], [t1, t2]) == [{}, {}]            # d = 0: nothing
    assert goal_points(engine, D1, [(0, 5)], [t1, t2]) == [{}, {}]            # unreachable: nothing
    # per temple (A-D29): a temple reached with fewer transports scores 0, the others still score
    assert goal_points(engine, D1, [(0, 3), (1, 4)], [t1]) == [{"transport_1": 3}, {}]
    assert goal_points(engine, D2, [(5, 0), (3, -1), (2, -2)], [t1, t2]) == [{"transport_1": 3, "transport_2": 5}, {}]
    # en1: G02 scores 6 for 2 <= d < inf
    assert goal_points(engine, D2, [(5, -1)], [t2], goal_values="en1") == [{"transport_2": 6}, {}]
    assert goal_points(engine, D1, [(0, 5)], [t2], goal_values="en1") == [{}, {}]
    # exactly 2 ([HU]) against 2 or more (en1), on the chain to distance 3
    assert goal_points(engine, D3, [(6, -4), (6, -3)], [t1, t2]) == [{"transport_2": 5}, {}]
    assert goal_points(engine, D3, [(6, -4), (6, -3), (4, -4)], [t1, t2], goal_values="en1") == [
        {"transport_1": 3, "transport_2": 12}, {}]


# three tiles whose landmarks meet around the grid point between rows 3|4 and columns 1|2: the lake of
# tile 0 on (3, 1), the tree of tile 1 on (3, 2), the mountain of tile 2 on (4, 1); cell (1, 2) stays empty
LANDMARKS3 = [put(0, 3, 1), put(1, 3, 2), put(2, 4, 1)]
LANDMARK_GOALS = [G[k] for k in ("three_landmarks", "no_landmark", "volcano_island", "mountain_island",
                                 "lake_island", "tree_island")]


@pytest.mark.parametrize("engine", ENGINES)
def test_landmark_goals(engine):
    # temple on (3, 1), the lake's own quarter (A-D32: it counts for the goals), and one on (2, 0): tile 0's
    # NW quarter, an island of one quarter with no landmark (the lake is on another quarter of the same tile)
    lay = LAY[0][LANDMARKS3[0][3]]
    assert lay.land == (0, 1, 2, 3)
    got = goal_points(engine, LANDMARKS3, [(3, 1), (2, 0)], LANDMARK_GOALS, [(3, 2)], [G["three_landmarks"]])
    assert got == [{"three_landmarks": 6, "no_landmark": 3, "mountain_island": 2, "lake_island": 2, "tree_island": 2},
                   {"three_landmarks": 6}]                   # seat 1's temple on the same (merged) island
    # the fourth cell with a volcano on (4, 2): four types, G09 too
    assert goal_points(engine, LANDMARKS3 + [put(3, 4, 2)], [(3, 1)], LANDMARK_GOALS) == [
        {"three_landmarks": 6, "volcano_island": 2, "mountain_island": 2, "lake_island": 2, "tree_island": 2}, {}]
    # two types are not enough for G03
    assert goal_points(engine, LANDMARKS3[:2], [(3, 1)], [G["three_landmarks"], G["tree_island"]]) == [
        {"tree_island": 2}, {}]
    got = goal_points(engine, LANDMARKS3, [(3, 1), (2, 0)], LANDMARK_GOALS, goal_values="en1")
    assert got[0] == {"three_landmarks": 3, "no_landmark": 4, "mountain_island": 2, "lake_island": 2, "tree_island": 2}


@pytest.mark.parametrize("engine", ENGINES)
def test_quarters_of_one_tile_never_join(engine):
    # A-D1: tile 0 alone far away; its lake is on NW (10, 10); a temple on NE (10, 11) is on another island
    tiles = [(0, 5, 5, 0)]
    got = goal_points(engine, tiles, [(10, 11)], [G["lake_island"], G["no_landmark"], G["largest_complete_island"]])
    assert got == [{"no_landmark": 3}, {}]
    assert goal_points(engine, tiles, [(10, 10)], [G["lake_island"]]) == [{"lake_island": 2}, {}]


@pytest.mark.parametrize("engine", ENGINES)
def test_g05_counts_quadrants(engine):
    # rows < 0 are north, columns < 0 west (2.7): (3, 1) and (0, 4) are SE, (-1, 5) NE, (5, -1) SW, (-3, -3) NW
    tiles = LANDMARKS3 + [put(15, 0, 4), put(3, -1, 5), put(7, 5, -1), put(11, -3, -3)]
    temples = [(3, 1), (0, 4), (-1, 5), (5, -1), (-3, -3)]
    for n, want in ((1, 2), (2, 2), (3, 4), (4, 6), (5, 8)):
        assert goal_points(engine, tiles, temples[:n], [G["quadrants"]]) == [{"quadrants": want} if want else {}, {}]


# the corner piece (-2, 1) with the cells (1, -1), (0, -2), (1, -2) all occupied by all-land tiles: the island
# {(-3, 1), (-3, 2), (-2, 1), (-2, 2)} is closed (every neighbour cell occupied) and 4 tiles big, the start board
# counting 1 (A-D35). Tile 9 on (3, 3) is open on every side.
CLOSED = [(0, 1, -1, 0), (3, 0, -2, 0), (6, 1, -2, 0), (9, 3, 3, 0)]


@pytest.mark.parametrize("engine", ENGINES)
def test_g06_largest_completed_island(engine):
    g6, g8 = G["largest_complete_island"], G["incomplete_island"]
    assert goal_points(engine, CLOSED, [(-2, 2), (6, 6)], [g6, g8]) == [
        {"largest_complete_island": 4, "incomplete_island": 2}, {}]
    # no temple on a completed island: G06 scores 0 (A-D35)
    assert goal_points(engine, CLOSED, [(6, 6)], [g6]) == [{}, {}]
    # the same corner with one cell empty is open
    assert goal_points(engine, CLOSED[:2] + CLOSED[3:], [(-2, 2)], [g6, g8]) == [{"incomplete_island": 2}, {}]


@pytest.mark.parametrize("engine", ENGINES)
def test_islands_merge_across_tile_edges_and_count_tiles(engine):
    # four all-land tiles around the grid point (rows 7|8, columns 7|8): one island of 4 quarters from 4 tiles,
    # closed; with a tile whose quarter there is sea (tile 1 turned twice on (3, 4): land NW SW SE, its NE (8, 7)
    # is sea) it has 3 quarters from 3 tiles
    four = [(0, 3, 3, 0), (3, 4, 3, 0), (6, 3, 4, 0), (9, 4, 4, 0)]
    assert goal_points(engine, four, [(7, 7)], [G["largest_complete_island"]]) == [{"largest_complete_island": 4}, {}]
    three = [(0, 3, 3, 0), (3, 4, 3, 0), (1, 3, 4, 2), (9, 4, 4, 0)]
    assert 1 not in LAY[1][2].land
    assert goal_points(engine, three, [(7, 7)], [G["largest_complete_island"]]) == [{"largest_complete_island": 3}, {}]


@pytest.mark.parametrize("engine", ENGINES)
def test_completed_island_and_the_window_border(engine):
    # A-D6: the island around the grid point (rows -1|0, column 15|16) has its other two cells outside the
    # window; it stays open, though every cell inside the window around it is occupied
    tiles = [(0, 7, -1, 0), (3, 7, 0, 0)]
    got = goal_points(engine, tiles, [(-1, 15)], [G["largest_complete_island"], G["incomplete_island"]])
    assert got == [{"incomplete_island": 2}, {}]


# G07 board: tile 0 on (0, 1) (port 0 on (3, 0)) and tile 3 on (0, 2) (port 12 on (4, 1)): their hubs are
# joined by sea without the start board, and {(3, 0), (4, 0)} and {(3, 1), (4, 1)} are two islands. Tile 4 on
# (1, 0) has its dock port 16 on (1, 2), joining the corner piece (1, 1); its hub reaches the others only via R.
G07 = [(0, 0, 1, 0), (3, 0, 2, 0), (4, 1, 0, 0)]


@pytest.mark.parametrize("engine", ENGINES)
def test_g07_isolated_temples(engine):
    iso = G["isolated"]
    assert goal_points(engine, G07, [(3, 0), (4, 1), (1, 2)], [iso]) == [{"isolated": 2}, {}]
    # two temples on one island do not cancel each other (A-D30); a link through Thera does not count
    assert goal_points(engine, G07, [(3, 0), (4, 0), (1, 2)], [iso]) == [{"isolated": 6}, {}]
    # the opponent's temples do not matter
    assert goal_points(engine, G07, [(3, 0), (1, 2)], [iso], [(4, 1)], [iso]) == [{"isolated": 4}, {"isolated": 2}]
    assert goal_points(engine, G07, [(3, 0), (1, 2)], [iso], goal_values="en1") == [{"isolated": 6}, {}]
    # transports do not connect (2.9): on the G02 board island {(1, -2), (2, -2)} (ports 52, 53) and island
    # {(5, -1), (5, 0)} (ports 80, 81) share no sea component; island {(3, -1), (4, -1), (4, 0)} has a port in
    # the component of each (82 with 52, 96 with 80)
    assert goal_points(engine, D2, [(2, -2), (5, 0)], [iso]) == [{"isolated": 4}, {}]
    assert goal_points(engine, D2, [(2, -2), (5, 0), (4, -1)], [iso]) == [{}, {}]


def test_goal_values_hu_and_en1():
    hu = akrotiri.make_config().goal_points()
    en1 = akrotiri.make_config(goal_values="en1").goal_points()
    assert hu == (3, 5, 6, 3, 2, 1, 2, 2, 2, 2, 2, 2)
    assert en1 == (3, 6, 3, 4, 2, 1, 3, 2, 2, 2, 2, 2)


# ------------------------------------------------------------------ geometry (2.1-2.3, 2.10, A-D5, A-D7)

@pytest.mark.parametrize("engine", ENGINES)
def test_every_start_board_edge_node_reaches_thera(engine):
    # A-D5: R joins all 8 edge nodes; tile 0's hub meets every side, so its dock is one sea move from T0
    for x, y in ((-2, -1), (-2, 0), (1, -1), (1, 0), (-1, -2), (0, -2), (-1, 1), (0, 1)):
        st = load(position([(0, x, y, 0)], seats=[seat(T0, cargo=LOADED), seat(T1)], market_out=LOADED), engine)
        assert of(st, SAIL, TRANSPORT) == [SAIL + 0], (x, y)
        assert of(st, TRANSPORT, LOAD) == []          # T1, on the same island, holds the opponent's boat
    st = load(position([(0, 1, 0, 0)], seats=[seat(T0, cargo=LOADED), seat(0)], market_out=LOADED), engine)
    assert of(st, SAIL, TRANSPORT) == [] and of(st, TRANSPORT, LOAD) == [TRANSPORT + T1]


def test_rotation_turns_quarters_sides_and_ports_clockwise():
    cw_q = {0: 1, 1: 3, 3: 2, 2: 0}                             # NW -> NE -> SE -> SW -> NW
    cw_s = {"N": "E", "E": "S", "S": "W", "W": "N", "C": "C"}
    for t in range(36):
        for r in range(4):
            a, b = LAY[t][r], LAY[t][(r + 1) % 4]
            assert b.land == tuple(sorted(cw_q[q] for q in a.land))
            assert b.landmark_quarter == cw_q[a.landmark_quarter] and b.landmark == a.landmark
            assert b.ports == tuple(cw_q[q] for q in a.ports)
            assert b.links == tuple((cw_s.get(x, x), cw_s.get(y, y)) for x, y in a.links)


@pytest.mark.parametrize("engine", ENGINES)
def test_tile_rotation_variant(engine):
    me = seat(T0, tile=5)
    d = position([(0, 0, 1, 0)], seats=[me, seat(T1)], phase="place_tile")
    rots = {a % 4 for a in load(d, engine).legal_actions()}
    assert rots == {0, 1, 2, 3}
    legal = load(d, engine, tile_rotation=False).legal_actions()
    assert {(a - PLACE) % 4 for a in legal} == {0} and len(legal) == 9


@pytest.mark.parametrize("engine", ENGINES)
def test_worked_example_of_section_2_10_on_both_engines(engine):
    tiles = [(0, 1, -1, 0)]
    lay = LAY[0][0]
    assert lay.land == (0, 1, 2, 3) and lay.landmark == LAKE and lay.landmark_quarter == 0 and lay.ports == (2,)
    # p0's d = 0: one sea move from Thera, and G01 gives it nothing
    st = load(position(tiles, seats=[seat(T0, cargo=LOADED), seat(T1)], market_out=LOADED), engine)
    assert SAIL + 0 in st.legal_actions()
    # (-2, 2) with the corner piece b: 2 tiles, a lake, open (cell (1, -2) is empty)
    g = [G["lake_island"], G["incomplete_island"], G["largest_complete_island"], G["transport_1"], G["no_landmark"]]
    assert goal_points(engine, tiles, [(-2, 1)], g) == [{"lake_island": 2, "incomplete_island": 2}, {}]
    # p0's island {(-1, 2)}: no landmark, open
    assert goal_points(engine, tiles, [(-1, 2)], g) == [{"incomplete_island": 2, "no_landmark": 3}, {}]
    # closing the corner (cells (0, -2) and (1, -2)) shows the size: 2 tiles + start board... each all land
    closed = tiles + [(3, 0, -2, 0), (6, 1, -2, 0)]
    got = goal_points(engine, closed, [(-2, 1)], [G["largest_complete_island"]])
    assert got == [{"largest_complete_island": 4}, {}]


# ------------------------------------------------------------------ map test (7, A-D18, A-D19)

def _fits(st, name, r, c, s):
    if isinstance(st, ref.RefState):
        return st.satisfied(card(name), (r, c), s)
    return st.map_fits(name, r, c, s)


def _count(st, t, D, r, c, s):
    if isinstance(st, ref.RefState):
        return st.landmark_count(t, "NESW".index(D), (r, c), s)
    return st.landmark_count(t, D, r, c, s)


@pytest.mark.parametrize("engine", ENGINES)
def test_direction_vectors_of_section_7_3_on_both_engines(engine):
    st = load(position([put(3, 0, 5), put(0, 3, 0), put(1, 3, 2)]), engine)
    # volcano (0, 5): N and E of (3, 2), not S; for seat 1 S and W
    assert [_count(st, VOLCANO, D, 3, 2, 0) for D in "NESW"] == [1, 1, 0, 0]
    assert [_count(st, VOLCANO, D, 3, 2, 1) for D in "NESW"] == [0, 0, 1, 1]
    # lake (3, 0): W only; tree (3, 2) on the temple's quarter: nowhere
    assert [_count(st, LAKE, D, 3, 2, 0) for D in "NESW"] == [0, 0, 0, 1]
    assert [_count(st, TREE, D, 3, 2, 0) for D in "NESW"] == [0, 0, 0, 0]
    # above the temple's row: N whatever the column
    assert all(_count(st, VOLCANO, "N", 3, c, 0) == 1 for c in (-16, -3, 5, 15))
    # N: tree 2 with one tree at (0, 5) fails; a second tree at (1, 2), same column, makes it
    one = load(position([put(1, 0, 5)]), engine)
    two = load(position([put(1, 0, 5), put(5, 1, 2)]), engine)
    assert _count(one, TREE, "N", 3, 2, 0) == 1 and _count(two, TREE, "N", 3, 2, 0) == 2
    # temple (2, 2), lake (1, 2): across a tile edge, the lake is N
    st = load(position([put(0, 1, 2)]), engine)
    assert [_count(st, LAKE, D, 2, 2, 0) for D in "NESW"] == [1, 0, 0, 0]
    # a whole card: M01 (N tree 2, E volcano 1, S lake 1) at (3, 2) with the two trees, a volcano E, a lake S
    st = load(position([put(1, 0, 5), put(5, 1, 2), put(3, 3, 9), put(0, 9, 2)]), engine)
    assert _fits(st, "M01", 3, 2, 0) and not _fits(st, "M01", 3, 2, 1) and not _fits(st, "M01", 1, 2, 0)


@pytest.mark.parametrize("engine", ENGINES)
def test_counts_are_minimums(engine):
    # A-D19: E02 (N tree 1, E volcano 1) with two trees N and two volcanoes E still fits
    st = load(position([put(1, -8, 0), put(5, -10, 3), put(3, 2, 10), put(7, 8, 12)]), engine)
    assert _fits(st, "E02", 3, 0, 0) and _fits(st, "E02", -7, 9, 0)
    assert not _fits(st, "E02", -10, 0, 0) and not _fits(st, "E02", 3, 12, 0)


# ------------------------------------------------------------ data and variants (1, 7.1, 13, 14, A-D2..4, A-D36, A-D37)

def test_component_counts_of_section_1():
    import json
    from simcore.akrotiri.config import DATA_DIR
    tiles = json.loads((DATA_DIR / "tiles.json").read_text())["tiles"]
    assert len(tiles) == 36
    names = ("lake", "tree", "mountain", "volcano")
    assert [sum(1 for t in tiles if t["landmark"] == lm) for lm in names] == [9] * 4
    templates = {k: sum(1 for t in tiles if t["template"] == k) for k in ("X1", "X2", "T", "I", "LL", "LD", "D4")}
    assert templates == {"X1": 5, "X2": 5, "T": 8, "I": 6, "LL": 4, "LD": 6, "D4": 2}          # A-D2
    assert sorted(len(t["land"]) for t in tiles) == [3] * 22 + [4] * 14
    assert sum(len(t["ports"]) for t in tiles) == 83
    portless = [t["landmark"] for t in tiles if not any(p["quarter"] == t["landmark_quarter"] for p in t["ports"])]
    assert sorted(portless) == sorted(names * 2)                   # 28 with a port there, 8 without: 2 per type
    for t in tiles:
        assert t["landmark_quarter"] in t["land"] and all(p["quarter"] in t["land"] for p in t["ports"])
        ends = [n for r in t["routes"] for n in r if n in "NESW"]
        assert sorted(ends) == ["E", "N", "S", "W"]                  # every side ends exactly one route
    colour = {"tree": "green", "lake": "blue", "mountain": "grey", "volcano": "orange"}        # A-D4
    assert all(t["colour"] == colour[t["landmark"]] for t in tiles)
    market = json.loads((DATA_DIR / "market.json").read_text())
    assert market["square_values"] == [1, 2, 2, 3, 3, 4, 4, 5] and market["landmark_colour"] == colour
    board = json.loads((DATA_DIR / "player_board.json").read_text())
    assert board["start_drachmas"] == 2 and board["boat_capacity"] == 3
    cfg = akrotiri.make_config()
    assert cfg.data["start_drachmas"] == 2 and cfg.data["capacity"] == 3
    # section 14: every file says whether it is rulebook data or assumed
    status = {n: json.loads((DATA_DIR / f"{n}.json").read_text())["status"]
              for n in ("tiles", "thera", "maps", "goals", "market", "player_board")}
    assert {n for n, v in status.items() if v.startswith("assumed")} == {"tiles", "thera", "maps", "player_board"}
    assert status["goals"] == status["market"] == "rulebook"
    # A-D5: the start board built into the engines is the one of thera.json
    thera = json.loads((DATA_DIR / "thera.json").read_text())
    assert {(q["r"], q["c"]) for q in thera["quarters"] if q["land"]} == ref.START_LAND
    assert {(q["r"], q["c"]) for q in thera["quarters"] if q["piece"] == "thera"} == ref.THERA
    assert {p["id"]: (p["r"], p["c"]) for p in thera["ports"]} == {"T0": (0, 0), "T1": (-1, -1)}
    assert len(thera["edge_points"]) == 8 and thera["counts_as_tiles"] == 1 and thera["landmarks"] == []
    assert sorted(map(tuple, thera["cells"])) == sorted(ref.START_CELLS)
    assert len(cfg.data["goals"]) == 12


def test_map_card_data():
    cards = load_data()["cards"]
    assert [sum(c["deck"] == d for c in cards) for d in range(3)] == [12, 12, 12]
    for c in cards:
        icons = sum(n for _, _, n in c["require"])
        types = [t for _, t, _ in c["require"]]
        assert len(types) == len(set(types)), c["id"]                  # 7.1: a type in one direction only
        assert c["points"] == icons and c["cost"] == icons, c["id"]    # A-D37
        n_max = max(n for _, _, n in c["require"])
        lo, hi, top = {0: (2, 3, 1), 1: (4, 5, 2), 2: (6, 7, 3)}[c["deck"]]
        assert lo <= icons <= hi and n_max <= top, c["id"]             # A-D36
    easy = [c for c in cards if c["deck"] == 0]
    assert sorted(sum(n for _, _, n in c["require"]) for c in easy) == [2] * 6 + [3] * 6
    e01 = cards[card("E01")]
    assert sorted(e01["require"]) == [(0, LAKE, 1), (2, TREE, 1), (3, MOUNTAIN, 1)] and e01["cost"] == 3


def test_variant_keys_and_defaults():
    s = akrotiri.make_config().settings()
    keys = ("goal_values", "strategist", "action_track", "tile_rotation", "same_island_sail", "turn_cap")
    assert {k: s[k] for k in keys} == {"goal_values": "hu", "strategist": False, "action_track": [3, 4, 5, 5, 6, 6],
                                       "tile_rotation": True, "same_island_sail": False, "turn_cap": 60}
    assert akrotiri.make_config(turn_cap=12).turn_cap == 12
    for bad in ({"goal_values": "en2"}, {"action_track": [3, 4, 5, 6, 6, 6]}, {"turn_cap": 0}):
        with pytest.raises(ValueError):
            akrotiri.make_config(**bad)


def test_turn_cap_accepts_any_positive_integer():
    # section 13: any positive integer (the engines count turns in 16 bits: up to 32,767)
    assert akrotiri.make_config(turn_cap=500).turn_cap == 500
    assert akrotiri.make_config(turn_cap=32767).turn_cap == 32767
    for bad in (0, -3, 32768, 2.5, True):
        with pytest.raises(ValueError, match="turn_cap"):
            akrotiri.make_config(turn_cap=bad)
    # long random games run to the cap, and the reference engine replays one of them to the same scores
    res = akrotiri.play_batch(2, np.arange(6, dtype=np.uint64), None, turn_cap=300)
    turns, trigger = res["games"]["turns"], res["games"]["end_trigger"]
    assert (turns <= 300).all() and ((turns == 300) == (trigger == 2)).all() and (turns == 300).any()
    g = int(np.flatnonzero(turns == 300)[0])
    actions = akrotiri.play_actions(2, g, None, turn_cap=300)
    py = ref.RefState.new(players=2, seed=g, turn_cap=300)
    for a in actions:
        py.apply(a)
    assert py.is_over() and py.scores()["total"] == res["players"]["total"][g].tolist()


def test_pictures_of_section_2_10():
    # the seven pictured tiles in their printed orientation: routes, land, ports and landmark
    def links(t):
        return {frozenset(x) for x in LAY[t][0].links}
    NW, NE, SW, SE = range(4)
    want = {
        0: ({"N", "C"}, {"E", "C"}, {"S", "C"}, {"W", "C"}, {"C", 0}),
        5: ({"N", "C"}, {"S", "C"}, {"W", "C"}, {"E", 0}, {0, "C"}, {"C", 1}),
        10: ({"N", "C"}, {"E", "C"}, {"S", "C"}, {"C", 0}, {"W", 1}),
        18: ({"W", 0}, {0, "E"}, {"N", 1}, {"S", 2}),
        24: ({"N", 0}, {0, "W"}, {"E", 1}, {1, "S"}),
        28: ({"N", 0}, {0, "W"}, {"E", 1}, {"S", 2}),
        34: ({"N", 3}, {"E", 0}, {"S", 1}, {"W", 2}),
    }
    for t, routes in want.items():
        assert links(t) == {frozenset(r) for r in routes}, t
    shape = {0: ((NW, NE, SW, SE), (SW,), LAKE, NW), 5: ((NW, NE, SW), (NE, SW), TREE, NE),
             10: ((NW, SW, SE), (SW, SW), MOUNTAIN, NW), 18: ((NW, NE, SW, SE), (NW, NW, SW), MOUNTAIN, SW),
             24: ((NW, NE, SW, SE), (NW, SE), LAKE, NW), 28: ((NW, NE, SE), (NW, SE, SE), LAKE, NW),
             34: ((NW, NE, SW, SE), (SE, SW, NW, NE), MOUNTAIN, NW)}
    for t, (land, ports, lm, lq) in shape.items():
        lay = LAY[t][0]
        assert (lay.land, lay.ports, lay.landmark, lay.landmark_quarter) == (land, ports, lm, lq), t


@pytest.mark.parametrize("engine", ENGINES)
def test_passing_cost_follows_the_board_and_the_opponent_over_turns(engine):
    # 5.1 on a changing position: tile 18 turned once on (0, 1) passes port 72 between R and tile 0's hub on
    # (0, 2). With seat 1 on 72, seat 0's sail to port 0 costs 2; once seat 1 has left, 1. With seat 1 back
    # on 72, a hub tile on (-1, 2), next to the hub tile on (-1, 1), opens a way round 72: 1 again.
    tiles = [(18, 0, 1, 1), (0, 0, 2, 0), (3, 1, 0, 0), (4, -1, 1, 0)]
    bypass = {cell(-1, 2), cell(1, 2), cell(0, 3)}       # the cells next to tile 0's open sides

    def sail_cost(st):
        probe = st.clone() if engine == "cython" else ref_load(_ref_dict(st))
        before = view(probe)["actions"]
        probe.apply(SAIL + 0)
        return before - view(probe)["actions"]

    def place(st, where=None):
        assert view(st)["phase"] == "place_tile"
        st.apply(next(a for a in st.legal_actions() if ((a - PLACE) // 4 == where if where is not None
                                                          else (a - PLACE) // 4 not in bypass)))
        if view(st)["phase"] == "second_cube":
            st.apply(st.legal_actions()[0])

    seats = [seat(T0, cargo=LOADED), seat(72, cargo=[0, 1, 0, 0])]
    st = load(position(tiles, seats=seats, market_out=[1, 1, 0, 0], pile=[8, 9, 1, 20, 21]), engine)
    cost = [sail_cost(st)]
    st.apply(END)                                    # seat 0 draws tile 8
    st.apply(SAIL + 12)                              # seat 1 leaves 72
    st.apply(END)                                    # and draws tile 9
    place(st)
    assert view(st)["seats"][1]["port"] == 12
    cost.append(sail_cost(st))
    st.apply(END)                                    # seat 0 draws tile 1 (X1: a hub on all four sides)
    place(st)
    st.apply(SAIL + 72)                              # seat 1 back on 72
    st.apply(END)
    other = st.clone() if engine == "cython" else ref_load(_ref_dict(st))
    place(st, cell(-1, 2))
    cost.append(sail_cost(st))
    place(other)                                     # the same tile elsewhere: 72 still has to be passed
    cost.append(sail_cost(other))
    assert cost == [2, 1, 1, 2]


def _ref_dict(rs):
    """A position dict of the reference engine's state, enough for ``ref_load``."""
    tiles = [{"tile": t, "x": x, "y": y, "rot": r} for (x, y), v in rs.cells.items() if v != "start" for t, r in [v]]
    v = view(rs)
    d = position(seats=[seat(**s) for s in v["seats"]])
    d.update(tiles=tiles, cubes=[{"r": r, "c": c, "cubes": k} for (r, c), k in v["cubes"].items()],
             market_out=v["market_out"], pile=v["pile"], discard=v["discard"], decks=v["decks"],
             goal_deck=v["goal_deck"], display=v["display"], goal_options=v["goal_options"], phase=v["phase"],
             current=v["current"], actions=v["actions"], bonus=v["bonus"], oracle_used=v["oracle_used"],
             end_trigger=v["end_trigger"], rng=list(rs.rng.s))
    return d


def test_reference_loader_matches_from_dict():
    # the harness itself: a Cython position loaded into the reference engine lists the same legal actions and
    # continues the same way (both engines draw chance from the position's rng words)
    import random
    checked = 0
    for game_seed in (1, 2, 3):
        st = akrotiri.new_game(2, game_seed)
        r = random.Random(game_seed)
        for step in range(400):
            if st.is_over():
                break
            if step % 37 == 5:
                d = st.to_dict()
                rs = ref_load(d)
                cy = akrotiri.State.from_dict(d)
                assert view(rs) == view(cy) and rs.legal_actions() == cy.legal_actions(), (game_seed, step)
                for _ in range(30):
                    if cy.is_over():
                        break
                    a = r.choice(cy.legal_actions())
                    cy.apply(a)
                    rs.apply(a)
                    assert view(rs) == view(cy) and rs.legal_actions() == cy.legal_actions(), (game_seed, step)
                assert rs.scores() == cy.scores()
                checked += 1
            st.apply(r.choice(st.legal_actions()))
    assert checked >= 20
