"""Yamataï: which test checks which part of the spec (``rules/yamatai.md``), and tests for the parts
that had none.

``COVERAGE`` maps every numbered rule section, every decision Y-D1 … Y-D42 (§15) and every worked
example E1 … E15 (§13) to the test node ids that assert its outcome; ``test_coverage_table_*``
checks that every listed node exists and that no id of the spec is missing (the ids are kept here:
the spec folder is not part of the repository).

The new tests below build positions the way ``test_yamatai_rules`` does (``from_dict`` of a new
game's dictionary, edited) and run on both engines through the ``load`` fixture (the Cython
``State`` and the reference ``RefState``). Ids: islands ``I..`` and sea spaces ``s..`` of
``board.json`` (spec §14.5), tiles are ``buildings.json`` indices (S01 = 0 … S21 = 20, T1 = 21 …
P4 = 27), specialists are ``specialists.json`` ids, actions as in docs/yamatai_engine.md.
"""
import ast
import itertools
import json
import random
from pathlib import Path

import pytest

from simcore import yamatai
from simcore.yamatai import config as Y
from simcore.yamatai import reference as R
from tests.test_yamatai_rules import _built_on, base, boats, build, place, turn

B, W, S, C, G = range(5)
S02, S06, S13, T1 = 1, 5, 12, 21
(AMATERASU, IZANAGI, RAIJIN, ANANDA, IZANAMI, RIU, AWASHIMA, KACHIKO, SUSANOO, EBISU, KAGUTSUCHI,
 TOMOE, FU_HSI, MICHIMATA, TOYO_TAMA, HETSUKA, NAKATSU, YASOMA) = range(18)

RULES = "tests/test_yamatai_rules.py::"
DATA = "tests/test_yamatai_data.py::"
DIFF = "tests/test_yamatai_differential.py::"
ALL = "tests/test_all_games.py::"
GOLD_T = "tests/test_golden.py::"
HERE = "tests/test_yamatai_spec_coverage.py::"

# Every id of the spec that must appear in COVERAGE: sections 0-16 with their numbered subsections,
# the decisions of §15 and the worked examples of §13.
SECTIONS = ["0", "1", "2", "3", "4", "5", "5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "5.8",
            "6", "6.1", "6.2", "7", "8", "9", "10", "11", "12", "13", "14", "14.1", "14.2", "14.3",
            "14.4", "14.5", "15", "16"]
DECISIONS = [f"Y-D{n}" for n in range(1, 43)]
EXAMPLES = [f"E{n}" for n in range(1, 14)] + ["E13b", "E14", "E15"]

COVERAGE = {
    # ---- sections
    # §0 (how to read, tags, data status) is not a rule; the data-status part is the data test
    "0": [DATA + "test_data_status_names_every_file_and_whether_it_is_assumed"],
    "1": [HERE + "test_components_and_supply_at_set_up", HERE + "test_board_geometry_is_the_designed_one",
          DATA + "test_default_bag_is_the_rulebook_one"],
    "2": [HERE + "test_board_geometry_is_the_designed_one", RULES + "test_e7_torii_and_mountain",
          HERE + "test_a_collected_mountain_island_stays_a_mountain_and_becomes_empty"],
    "3": [HERE + "test_components_and_supply_at_set_up", RULES + "test_pawns_per_player_count",
          HERE + "test_two_players_second_pair_of_pawns_in_either_order"],
    "4": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
          RULES + "test_e14_fleet_track_refresh_as_a_queue", RULES + "test_last_building_completes_the_round",
          HERE + "test_end_of_round_coins_on_specialists_then_refill"],
    "5": [HERE + "test_windows_for_free_actions", HERE + "test_trade_only_before_the_first_boat"],
    "5.1": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
            RULES + "test_e1_fleet5_gives_gold_and_a_sacred_site",
            RULES + "test_fleet10_extra_boat_is_optional",
            HERE + "test_fleet_boats_missing_from_the_supply_are_not_given",
            HERE + "test_fleet10_with_no_boat_left_gives_nothing"],
    "5.2": [HERE + "test_played_positions_follow_the_spec_oracle",
            HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
            RULES + "test_e2_buy_wood_then_no_second_transaction", HERE + "test_trade_prices_and_limits",
            RULES + "test_izanagi_two_transactions", RULES + "test_tomoe_gold_trade",
            RULES + "test_susanoo_sale_prices", HERE + "test_susanoo_clay_and_unchanged_buy_prices",
            HERE + "test_trade_only_before_the_first_boat", HERE + "test_port_boats_join_the_next_hand"],
    "5.3": [HERE + "test_played_positions_follow_the_spec_oracle", RULES + "test_e3_chain_entry_and_anchor",
            HERE + "test_chain_follows_the_previous_boat", HERE + "test_first_boat_on_an_empty_entry_or_anchor",
            RULES + "test_toyo_tama_edge_entries", HERE + "test_no_boat_placed_skips_collect_and_build"],
    "5.4": [HERE + "test_played_positions_follow_the_spec_oracle", RULES + "test_e4_collect_matching",
            RULES + "test_e4_matching_blocks_a_second_token_on_one_boat", RULES + "test_e5_build_s10_on_i15",
            RULES + "test_e10_ananda_toll", RULES + "test_fleet9_build_with_one_boat_missing",
            HERE + "test_build_needs_a_boat_placed_this_turn_next_to_the_island",
            HERE + "test_tile_boats_are_a_multiset_contained_in_the_island_boats",
            HERE + "test_step_3b_is_mandatory_when_only_a_build_is_possible",
            HERE + "test_standard_tile_needs_a_piece_prestige_never_runs_out",
            HERE + "test_fleet9_allows_one_missing_boat_not_two",
            HERE + "test_fleet9_can_make_step_3b_mandatory", HERE + "test_collect_may_stop_after_one_token",
            HERE + "test_e10_toll_is_paid_before_the_bonuses",
            HERE + "test_build_leaves_the_row_slot_empty_and_another_players_reservation_is_not_mine"],
    "5.5": [RULES + "test_e8_port_keeps_one_and_sets_aside_the_rest", RULES + "test_riu_port_of_three",
            HERE + "test_port_boats_join_the_next_hand", HERE + "test_set_aside_boats_never_return"],
    "5.6": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
            RULES + "test_e9_recruit_takes_the_coins_and_izanami_shares", HERE + "test_recruit_payments",
            HERE + "test_recruit_leaves_the_slot_empty_and_ends_the_turn"],
    "5.7": [HERE + "test_windows_for_free_actions", HERE + "test_stage_sequence_of_a_turn"],
    "5.8": [HERE + "test_played_positions_follow_the_spec_oracle", HERE + "test_windows_for_free_actions",
            HERE + "test_fleet_ability_windows"],
    "6": [RULES + "test_e6_group_coins_and_trading_post", RULES + "test_e7_torii_and_mountain"],
    "6.1": [HERE + "test_played_positions_follow_the_spec_oracle",
            RULES + "test_e6_group_coins_and_trading_post", RULES + "test_e7_torii_and_mountain",
            RULES + "test_e11_kagutsuchi_isolated_building", RULES + "test_kagutsuchi_not_next_to_own_building",
            HERE + "test_groups_are_own_standard_buildings_only",
            HERE + "test_one_pp_token_per_prestige_neighbour"],
    "6.2": [HERE + "test_played_positions_follow_the_spec_oracle", RULES + "test_awashima_prestige_bonuses",
            RULES + "test_awashima_absent_prestige_gives_nothing",
            HERE + "test_prestige_build_gives_nobody_a_bonus", HERE + "test_awashima_example_of_section_6_2",
            HERE + "test_awashima_counts_a_group_once",
            HERE + "test_awashima_prestige_gets_no_kagutsuchi_token"],
    "7": [HERE + "test_played_positions_follow_the_spec_oracle",
          RULES + "test_fleet1_has_no_ability_and_leads_next_round",
          RULES + "test_fleet2_reserve_is_not_buildable_this_turn_and_costs_at_the_end",
          RULES + "test_fleet3_arrange_top_and_bottom", RULES + "test_fleet4_slide_moves_a_boat_and_its_mark",
          RULES + "test_fleet5_sacred_site_blocks_building", RULES + "test_fleet6_swap_tokens",
          RULES + "test_fleet7_removes_up_to_two_boats", RULES + "test_e15_fleet8_swap_carries_the_mark",
          RULES + "test_fleet9_build_with_one_boat_missing", RULES + "test_fleet10_extra_boat_is_optional",
          HERE + "test_fleet_tiles_data"],
    "8": [HERE + "test_played_positions_follow_the_spec_oracle", RULES + "test_amaterasu_doubles_pp_tokens",
          RULES + "test_izanagi_two_transactions", RULES + "test_raijin_two_boats_for_gold",
          RULES + "test_e10_ananda_toll", RULES + "test_izanami_keeps_half", RULES + "test_riu_port_of_three",
          RULES + "test_awashima_prestige_bonuses", RULES + "test_kachiko_removes_a_sacred_site",
          RULES + "test_susanoo_sale_prices", RULES + "test_ebisu_extra_token_from_anywhere",
          RULES + "test_e11_kagutsuchi_isolated_building", RULES + "test_tomoe_gold_trade",
          RULES + "test_fu_hsi_coins_per_three", RULES + "test_michimata_token_for_gold",
          RULES + "test_toyo_tama_edge_entries", RULES + "test_hetsuka_token_for_coins",
          RULES + "test_nakatsu_gold_for_two_boats", RULES + "test_yasoma_scores_seven",
          HERE + "test_specialist_pp_values", HERE + "test_kachiko_needs_two_coins",
          HERE + "test_michimata_needs_gold_in_the_supply",
          HERE + "test_two_players_own_pawns_are_not_opponents",
          HERE + "test_two_players_izanami_shares_with_the_other_player"],
    "9": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
          RULES + "test_e14_fleet_track_refresh_as_a_queue",
          HERE + "test_end_of_round_coins_on_specialists_then_refill",
          HERE + "test_two_players_both_pawns_move_by_fleet_number"],
    "10": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
           RULES + "test_last_building_completes_the_round", HERE + "test_trigger_specialists",
           HERE + "test_trigger_buildings", HERE + "test_trigger_boats_counts_the_supply_only",
           HERE + "test_triggers_wait_for_the_end_of_the_round", HERE + "test_round_cap_is_60_rounds",
           HERE + "test_every_trigger_that_fired_is_recorded", DIFF + "test_short_round_cap_agrees"],
    "11": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules", RULES + "test_e12_scoring",
           RULES + "test_e13_tie_break_by_the_last_round_played",
           HERE + "test_highest_total_wins_whatever_the_order",
           HERE + "test_two_player_tie_break_by_the_earlier_pawn", HERE + "test_what_scores_nothing",
           HERE + "test_win_share_goes_to_the_tie_break_winner",
           HERE + "test_two_players_reserved_tile_buildable_on_the_other_pawns_turn",
           ALL + "test_random_playouts_keep_invariants"],
    # §12's "worth recording" (fleet per turn, triggers, category scores): the events test
    "12": ["tests/test_yamatai_policy.py::test_events_columns", HERE + "test_stage_sequence_of_a_turn",
           HERE + "test_windows_for_free_actions",
           DIFF + "test_random_games_agree", DIFF + "test_positions_load_into_either_engine",
           ALL + "test_illegal_action_is_refused", ALL + "test_to_dict_round_trip_mid_game",
           GOLD_T + "test_golden_playthrough_is_reproduced",
           HERE + "test_hidden_information_does_not_move_the_heuristic"],
    # §13 is the table of worked examples: each one is listed under its own id E1 … E15 below
    "13": [RULES + "test_e1_fleet5_gives_gold_and_a_sacred_site",
           RULES + "test_e2_buy_wood_then_no_second_transaction", RULES + "test_e3_chain_entry_and_anchor",
           RULES + "test_e4_collect_matching", RULES + "test_e5_build_s10_on_i15",
           RULES + "test_e6_group_coins_and_trading_post", RULES + "test_e7_torii_and_mountain",
           RULES + "test_e8_port_keeps_one_and_sets_aside_the_rest",
           RULES + "test_e9_recruit_takes_the_coins_and_izanami_shares", RULES + "test_e10_ananda_toll",
           RULES + "test_e11_kagutsuchi_isolated_building", RULES + "test_e12_scoring",
           RULES + "test_e13_tie_break_by_the_last_round_played",
           RULES + "test_e14_fleet_track_refresh_as_a_queue", RULES + "test_e15_fleet8_swap_carries_the_mark"],
    "14": [HERE + "test_player_board_data", HERE + "test_building_tiles_data",
           HERE + "test_specialist_pp_values", HERE + "test_culture_token_names_are_placeholders",
           HERE + "test_board_geometry_is_the_designed_one"],
    "14.1": [HERE + "test_player_board_data", HERE + "test_trade_prices_and_limits"],
    "14.2": [HERE + "test_building_tiles_data"],
    "14.3": [HERE + "test_specialist_pp_values"],
    "14.4": [DATA + "test_default_bag_is_the_rulebook_one", HERE + "test_culture_token_names_are_placeholders"],
    "14.5": [HERE + "test_board_geometry_is_the_designed_one"],
    # §15 is the list of decisions, each listed under its own id below; §16 (ambiguous passages of the
    # Hungarian text) is filled in after the table from the decisions that settle each passage
    "15": [HERE + "test_coverage_table_names_every_spec_id"],
    "16": [],
    # ---- decisions
    "Y-D1": [HERE + "test_once_per_turn_resets_at_each_pawn_turn", RULES + "test_izanagi_two_transactions"],
    "Y-D2": [HERE + "test_played_positions_follow_the_spec_oracle", HERE + "test_windows_for_free_actions",
             HERE + "test_fleet_ability_windows"],
    "Y-D3": [HERE + "test_played_positions_follow_the_spec_oracle",
             HERE + "test_trade_only_before_the_first_boat"],
    "Y-D4": [HERE + "test_port_boats_join_the_next_hand",
             RULES + "test_e8_port_keeps_one_and_sets_aside_the_rest"],
    "Y-D5": [HERE + "test_played_positions_follow_the_spec_oracle",
             HERE + "test_chain_follows_the_previous_boat", RULES + "test_e3_chain_entry_and_anchor"],
    "Y-D6": [RULES + "test_e15_fleet8_swap_carries_the_mark", RULES + "test_e15_variant_same_colour_swap",
             RULES + "test_fleet4_slide_moves_a_boat_and_its_mark",
             HERE + "test_fleet7_removal_takes_the_mark_away"],
    "Y-D7": [HERE + "test_played_positions_follow_the_spec_oracle", RULES + "test_e4_collect_matching",
             RULES + "test_e4_matching_blocks_a_second_token_on_one_boat",
             HERE + "test_collect_may_stop_after_one_token"],
    "Y-D8": [HERE + "test_played_positions_follow_the_spec_oracle",
             HERE + "test_step_3b_is_mandatory_when_only_a_build_is_possible",
             HERE + "test_fleet9_can_make_step_3b_mandatory", HERE + "test_e10_toll_is_paid_before_the_bonuses",
             HERE + "test_no_boat_placed_skips_collect_and_build", RULES + "test_e4_collect_matching",
             RULES + "test_e15_fleet8_swap_carries_the_mark"],
    "Y-D9": [HERE + "test_recruited_once_per_turn_ability_from_the_next_turn"],
    "Y-D10": [HERE + "test_played_positions_follow_the_spec_oracle",
              HERE + "test_tile_boats_are_a_multiset_contained_in_the_island_boats",
              RULES + "test_e5_build_s10_on_i15"],
    "Y-D11": [RULES + "test_fleet2_reserve_is_not_buildable_this_turn_and_costs_at_the_end",
              HERE + "test_build_leaves_the_row_slot_empty_and_another_players_reservation_is_not_mine",
              HERE + "test_two_players_reserved_tile_buildable_on_the_other_pawns_turn"],
    "Y-D12": [HERE + "test_played_positions_follow_the_spec_oracle", RULES + "test_e10_ananda_toll",
              RULES + "test_ananda_owner_builds_freely",
              HERE + "test_ananda_toll_once_per_build_and_on_prestige",
              HERE + "test_two_players_own_pawns_are_not_opponents",
              HERE + "test_groups_are_own_standard_buildings_only"],
    "Y-D13": [HERE + "test_played_positions_follow_the_spec_oracle", RULES + "test_awashima_prestige_bonuses",
              HERE + "test_awashima_example_of_section_6_2", HERE + "test_awashima_counts_a_group_once",
              HERE + "test_awashima_prestige_gets_no_kagutsuchi_token"],
    "Y-D14": [RULES + "test_e11_kagutsuchi_isolated_building",
              RULES + "test_kagutsuchi_not_next_to_own_building",
              HERE + "test_kagutsuchi_token_is_doubled_by_amaterasu"],
    "Y-D15": [HERE + "test_standard_tile_needs_a_piece_prestige_never_runs_out"],
    "Y-D16": [RULES + "test_fleet5_sacred_site_blocks_building", RULES + "test_kachiko_removes_a_sacred_site",
              HERE + "test_sacred_sites_only_on_empty_islands_and_limited"],
    "Y-D17": [RULES + "test_ebisu_extra_token_from_anywhere", HERE + "test_ebisu_once_per_turn"],
    "Y-D18": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
              RULES + "test_e9_recruit_takes_the_coins_and_izanami_shares", RULES + "test_izanami_keeps_half",
              HERE + "test_recruiting_izanami_herself_shares_nothing",
              HERE + "test_two_players_izanami_shares_with_the_other_player"],
    "Y-D19": [HERE + "test_played_positions_follow_the_spec_oracle", RULES + "test_raijin_two_boats_for_gold",
              RULES + "test_nakatsu_gold_for_two_boats",
              HERE + "test_raijin_and_nakatsu_use_the_supply_and_are_not_transactions"],
    "Y-D20": [HERE + "test_spent_culture_tokens_leave_the_game"],
    "Y-D21": [RULES + "test_izanagi_two_transactions", HERE + "test_izanagi_any_mix_with_tomoe_gold"],
    "Y-D22": [HERE + "test_specialist_pp_values", RULES + "test_yasoma_scores_seven"],
    "Y-D23": [HERE + "test_recruit_payments"],
    "Y-D24": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
              HERE + "test_end_of_round_coins_on_specialists_then_refill"],
    "Y-D25": [RULES + "test_fleet10_extra_boat_is_optional",
              HERE + "test_fleet10_with_no_boat_left_gives_nothing"],
    "Y-D26": [HERE + "test_played_positions_follow_the_spec_oracle",
              RULES + "test_fleet2_reserve_is_not_buildable_this_turn_and_costs_at_the_end",
              RULES + "test_fleet3_arrange_top_and_bottom", RULES + "test_fleet7_removes_up_to_two_boats",
              HERE + "test_fleet2_no_limit_on_reservations", HERE + "test_fleet3_with_fewer_than_three_tiles",
              HERE + "test_fleet3_with_an_empty_deck_has_nothing_to_look_at",
              HERE + "test_fleet4_moves_any_boat", HERE + "test_fleet6_needs_two_token_islands",
              HERE + "test_sacred_sites_only_on_empty_islands_and_limited"],
    "Y-D27": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
              RULES + "test_e14_fleet_track_refresh_as_a_queue",
              HERE + "test_end_of_round_coins_on_specialists_then_refill"],
    "Y-D28": [RULES + "test_fleet6_swap_tokens",
              HERE + "test_a_collected_mountain_island_stays_a_mountain_and_becomes_empty",
              HERE + "test_components_and_supply_at_set_up"],
    "Y-D29": [HERE + "test_sacred_sites_only_on_empty_islands_and_limited",
              HERE + "test_coins_and_pp_tokens_are_unlimited",
              HERE + "test_fleet_boats_missing_from_the_supply_are_not_given",
              HERE + "test_components_and_supply_at_set_up"],
    "Y-D30": [RULES + "test_fleet7_removes_up_to_two_boats", HERE + "test_trade_prices_and_limits",
              HERE + "test_raijin_and_nakatsu_use_the_supply_and_are_not_transactions",
              HERE + "test_set_aside_boats_never_return"],
    "Y-D31": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
              HERE + "test_trade_prices_and_limits", HERE + "test_player_board_data",
              HERE + "test_susanoo_clay_and_unchanged_buy_prices"],
    "Y-D32": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
              HERE + "test_triggers_wait_for_the_end_of_the_round",
              RULES + "test_last_building_completes_the_round"],
    "Y-D33": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
              HERE + "test_trigger_boats_counts_the_supply_only"],
    "Y-D34": [RULES + "test_last_building_completes_the_round"],
    "Y-D35": [HERE + "test_played_games_follow_the_turn_round_and_scoring_rules",
              RULES + "test_e13_tie_break_by_the_last_round_played",
              HERE + "test_two_player_tie_break_by_the_earlier_pawn"],
    "Y-D36": [HERE + "test_what_scores_nothing"],
    "Y-D37": [HERE + "test_round_cap_is_60_rounds", DIFF + "test_short_round_cap_agrees"],
    "Y-D38": [HERE + "test_hidden_information_does_not_move_the_heuristic"],
    "Y-D39": [RULES + "test_pawns_per_player_count", HERE + "test_components_and_supply_at_set_up"],
    "Y-D40": [HERE + "test_board_geometry_is_the_designed_one", HERE + "test_the_board_is_read_from_its_file"],
    "Y-D41": [HERE + "test_building_tiles_data"],
    "Y-D42": [HERE + "test_culture_token_names_are_placeholders",
              DATA + "test_a_culture_tokens_file_sets_the_bag_on_both_engines"],
    # ---- worked examples (§13)
    "E1": [RULES + "test_e1_fleet5_gives_gold_and_a_sacred_site"],
    "E2": [RULES + "test_e2_buy_wood_then_no_second_transaction"],
    "E3": [RULES + "test_e3_chain_entry_and_anchor"],
    "E4": [RULES + "test_e4_collect_matching"],
    "E5": [RULES + "test_e5_build_s10_on_i15"],
    "E6": [RULES + "test_e6_group_coins_and_trading_post"],
    "E7": [RULES + "test_e7_torii_and_mountain"],
    "E8": [RULES + "test_e8_port_keeps_one_and_sets_aside_the_rest"],
    "E9": [RULES + "test_e9_recruit_takes_the_coins_and_izanami_shares"],
    "E10": [RULES + "test_e10_ananda_toll", HERE + "test_e10_toll_is_paid_before_the_bonuses"],
    "E11": [RULES + "test_e11_kagutsuchi_isolated_building"],
    "E12": [RULES + "test_e12_scoring"],
    "E13": [RULES + "test_e13_tie_break_by_the_last_round_played"],
    "E13b": [RULES + "test_e13_tie_break_by_the_last_round_played"],
    "E14": [RULES + "test_e14_fleet_track_refresh_as_a_queue"],
    "E15": [RULES + "test_e15_fleet8_swap_carries_the_mark", RULES + "test_e15_variant_same_colour_swap",
            HERE + "test_e15_build_next_to_the_far_boat"],
}

# §16: 16.1 component counts -> set-up and data tests; 16.2 -> Y-D31, 16.3 -> Y-D7, 16.4 -> Y-D4,
# 16.5 -> Y-D27, 16.6 -> Y-D13, 16.7 -> Y-D12, 16.8 -> Y-D14, 16.9 -> Y-D17, 16.10 -> Y-D18,
# 16.11 -> Y-D35, 16.12 -> Y-D33, 16.13 fleet 1, 16.14 -> Y-D19, 16.15 (a spelling) none,
# 16.16 -> Y-D41, 16.17 -> Y-D16, 16.18 -> Y-D25, 16.19 -> Y-D3
COVERAGE["16"] = sorted({HERE + "test_components_and_supply_at_set_up",
                         RULES + "test_fleet1_has_no_ability_and_leads_next_round"}
                        | {node for d in (31, 7, 4, 27, 13, 12, 14, 17, 18, 35, 33, 19, 41, 16, 25, 3)
                           for node in COVERAGE[f"Y-D{d}"]})

ROOT = Path(__file__).resolve().parents[1]


def _test_names(path):
    """Names of the module-level ``test_`` functions of a test file (parsed, not imported)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def test_coverage_table_lists_only_existing_tests():
    names = {}
    for ids in COVERAGE.values():
        for node in ids:
            path, _, func = node.partition("::")
            assert func, node
            if path not in names:
                names[path] = _test_names(path)
            assert func in names[path], f"{node} does not exist"


def test_coverage_table_names_every_spec_id():
    wanted = SECTIONS + DECISIONS + EXAMPLES
    assert len(DECISIONS) == 42 and len(EXAMPLES) == 16
    missing = [k for k in wanted if not COVERAGE.get(k)]
    assert missing == []
    assert set(COVERAGE) == set(wanted), set(COVERAGE) ^ set(wanted)


# ------------------------------------------------------------------ engines

ENGINES = {"cython": yamatai.State.from_dict, "reference": R.RefState.from_dict}
NEW = {"cython": lambda p, s: yamatai.new_game(p, s), "reference": lambda p, s: R.RefState.new(players=p, seed=s)}


@pytest.fixture(params=list(ENGINES))
def engine(request):
    return request.param


@pytest.fixture
def load(engine):
    return ENGINES[engine]


def _legal_range(st, lo, hi):
    return [a for a in st.legal_actions() if lo <= a < hi]


def _to_stage(st, stage):
    """Apply PASS (or the first legal action) until ``stage``; returns the state."""
    for _ in range(100):
        if st.stage == stage or st.is_over():
            return st
        st.apply(R.PASS if R.PASS in st.legal_actions() else st.legal_actions()[0])
    raise AssertionError(f"stage {stage} not reached")


def _end_of_round(d, fleets):
    """The last pawn of the round in its recruit step; pawns took ``fleets`` (one per pawn)."""
    d["turn"] = len(d["order"]) - 1
    d["stage"] = "recruit"
    d["fleet_taken"] = list(fleets)
    d["track"] = [f for f in d["track"] if f not in fleets]
    d["face_up"] = 5 - len(fleets)
    d["tokens"][d["pawn_owner"][d["order"][-1]]][0] = 2     # a payable pair: the recruit step is a decision
    return d


def _round_ended(load, d):
    """``d`` at the last recruit step of a 3-pawn round (fleets 7, 1, 5 taken), loaded, and the round ended."""
    st = load(_end_of_round(d, [7, 1, 5]))
    st.apply(R.PASS)
    return st


# ------------------------------------------------------------------ §1, §3 set-up

@pytest.mark.parametrize("players", [2, 3, 4])
def test_components_and_supply_at_set_up(engine, players):
    for seed in range(4):
        st = NEW[engine](players, seed)
        d = st.to_dict()
        assert d["coins"] == [10] * players and d["pp_tokens"] == [0] * players
        assert d["pieces"] == [{2: 10, 3: 8, 4: 6}[players]] * players
        assert d["tokens"] == [[0] * 6] * players and d["hand"] == [0] * 5
        assert d["supply"] == {"boats": [22, 19, 16, 13, 10], "sacred": 8}
        assert len(set(d["slots"])) == 5 and d["slot_coins"] == [0] * 5 and len(d["spec_deck"]) == 13
        assert sorted(d["slots"] + d["spec_deck"]) == list(range(18))
        assert len(d["row"]) == 5 and sorted(d["row"] + d["deck"]) == list(range(28))
        assert sorted(d["track"]) == list(range(1, 11)) and d["face_up"] == 5
        assert st.legal_actions() == sorted(d["track"][:5])
        isl = d["islands"]
        assert sum(i["token"] >= 0 for i in isl) == 30 and sum(i["token"] < 0 for i in isl) == 4
        assert sum(i["mountain"] for i in isl) == 7
        assert sum(i["mountain"] and i["token"] < 0 for i in isl) == 1      # the blank mountain token
        for k in range(6):                                                  # 5 of each type, one a mountain
            assert sum(i["token"] == k for i in isl) == 5
            assert sum(i["token"] == k and i["mountain"] for i in isl) == 1
        assert not any(i["building"] or i["sacred"] for i in isl) and d["sea"] == [-1] * 72
        # seats (Y-D39): position in round 1's order; in 2 players each seat has one of the first two turns
        if players == 2:
            assert d["pawn_owner"] == [0, 1, 0, 1] and d["order"][:2] == [0, 1]
        else:
            assert d["order"] == list(range(players))
        assert st.current_player() == 0


def test_two_players_second_pair_of_pawns_in_either_order():
    # §3.7: each player has one of the first two turns; the second pair is shuffled separately
    firsts = {tuple(yamatai.new_game(2, seed).to_dict()["order"]) for seed in range(40)}
    assert firsts == {(0, 1, 2, 3), (0, 1, 3, 2)}
    assert {tuple(R.RefState.new(players=2, seed=seed).order) for seed in range(40)} == firsts


def test_coins_and_pp_tokens_are_unlimited(load):
    d = boats(base(), s19=B, s20=B, s26=W)
    d["islands"][6]["building"] = "torii"           # a PP token for the build
    d["built"][1].append(T1)
    d["coins"][0], d["pp_tokens"][0] = 500, 40      # more than the 73 coins and 24 PP tokens of the box
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[26]))
    st.apply(build(S06, 8))
    assert st.to_dict()["pp_tokens"][0] == 41 and st.to_dict()["coins"][0] == 500
    st = load(turn(base(), fleet=1, hand=(0, 0, 0, 1, 0)))
    d = st.to_dict()
    d["coins"][0] = 500
    st = load(d)
    st.apply(R.SELL + C)
    assert st.to_dict()["coins"][0] == 503


# ------------------------------------------------------------------ §5.1 fleet

def test_fleet_boats_missing_from_the_supply_are_not_given(load):
    d = base()
    d["track"] = [6, 1, 2, 3, 4, 5, 7, 8, 9, 10]
    d["supply"]["boats"][W] = 0
    st = load(d)
    st.apply(6)                                    # fleet 6 shows W B
    after = st.to_dict()
    assert after["hand"] == [1, 0, 0, 0, 0] and after["supply"]["boats"] == [21, 0, 16, 13, 10]
    assert after["coins"][0] == 10                 # no compensation


def test_fleet10_with_no_boat_left_gives_nothing(load):
    d = base()
    d["track"] = [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    d["supply"]["boats"] = [0, 0, 0, 0, 1]
    st = load(d)
    st.apply(10)
    assert st.stage == "fleet10" and st.legal_actions() == [R.PASS, R.TAKE + G]   # gold included
    d["supply"]["boats"] = [0, 0, 0, 0, 0]
    st = load(d)
    decisions = st.to_dict()["decisions"]
    st.apply(10)
    after = st.to_dict()
    assert after["hand"] == [0] * 5 and after["supply"]["boats"] == [0] * 5
    assert after["decisions"] == decisions + 1     # no fleet-10 choice was asked


# ------------------------------------------------------------------ §5.2 trade

def test_trade_prices_and_limits(load):
    hand = (1, 1, 1, 1, 1)
    st = load(turn(base(), fleet=1, hand=hand))
    legal = st.legal_actions()
    assert [a for a in legal if R.BUY <= a < R.KEEP] == [R.BUY + c for c in range(4)] + [R.SELL + c for c in range(4)]
    for c, buy, sell in ((B, 1, 1), (W, 2, 1), (S, 3, 2), (C, 4, 3)):
        st = load(turn(base(), fleet=1, hand=hand))
        supply = st.to_dict()["supply"]["boats"][c]
        st.apply(R.BUY + c)
        d = st.to_dict()
        assert d["coins"][0] == 10 - buy and d["supply"]["boats"][c] == supply - 1 and d["hand"][c] == 2
        st = load(turn(base(), fleet=1, hand=hand))
        st.apply(R.SELL + c)
        d = st.to_dict()
        # a sold boat goes back to the supply (Y-D30)
        assert d["coins"][0] == 10 + sell and d["supply"]["boats"][c] == supply + 1 and d["hand"][c] == 0
    # not enough coins, or the colour missing from the supply
    d = turn(base(), fleet=1, hand=hand)
    d["coins"][0] = 3
    d["supply"]["boats"][W] = 0
    legal = load(d).legal_actions()
    assert R.BUY + C not in legal and R.BUY + S in legal and R.BUY + W not in legal and R.SELL + W in legal


def test_susanoo_clay_and_unchanged_buy_prices(load):
    d = turn(base(), fleet=1, hand=(0, 0, 0, 1, 0), transactions=2)
    d["spec_owner"][SUSANOO] = 0
    st = load(d)
    st.apply(R.SELL + C)
    assert st.to_dict()["coins"][0] == 17
    st.apply(R.BUY + S)
    assert st.to_dict()["coins"][0] == 14
    assert R.SELL + S not in load(turn(base(), fleet=1, hand=(0, 0, 0, 0, 1))).legal_actions()


def test_izanagi_any_mix_with_tomoe_gold(load):
    d = turn(base(), fleet=1, transactions=2)
    d["spec_owner"][IZANAGI] = d["spec_owner"][TOMOE] = 0
    st = load(d)
    st.apply(R.BUY + G)
    after = st.to_dict()
    assert after["coins"][0] == 5 and after["hand"][G] == 1 and after["supply"]["boats"][G] == 9
    st.apply(R.BUY + B)                      # the second transaction
    assert st.to_dict()["coins"][0] == 4
    assert not any(R.BUY <= a < R.KEEP for a in st.legal_actions())


def test_trade_only_before_the_first_boat(load):
    d = turn(base(), fleet=1, hand=(3, 0, 0, 0, 0))
    d["spec_owner"][HETSUKA] = 0
    d["tokens"][0][5] = 3                    # Hetsuka keeps every window a real decision
    st = load(d)
    assert R.BUY + W in st.legal_actions() and R.SELL + B in st.legal_actions()
    st.apply(place(15, B))
    assert st.stage == "place" and not any(R.BUY <= a < R.KEEP for a in st.legal_actions())
    st.apply(R.PASS)
    assert st.stage == "post" and not any(R.BUY <= a < R.KEEP for a in st.legal_actions())
    st.apply(R.PASS)
    assert st.stage == "after" and not any(R.BUY <= a < R.KEEP for a in st.legal_actions())


def test_port_boats_join_the_next_hand(load):
    d = base()
    d["port"][1] = [0, 0, 1, 0, 0]
    d["tokens"][0][0] = 2                    # a payable pair: the recruit step is a decision
    st = load(turn(d, stage="recruit", fleet=1))
    st.apply(R.PASS)                         # seat 0 ends its turn: seat 1's turn starts
    after = st.to_dict()
    assert st.current_player() == 1 and after["hand"] == [0, 0, 1, 0, 0] and after["port"][1] == [0] * 5
    st.apply(next(f for f in st.legal_actions() if f != 10))
    assert R.SELL + S in st.legal_actions()  # a boat out of the port may be sold
    coins = st.to_dict()["coins"][1]
    st.apply(R.SELL + S)
    assert st.to_dict()["coins"][1] == coins + 2


# ------------------------------------------------------------------ §5.3 placing boats

def test_first_boat_on_an_empty_entry_or_anchor(load):
    d = boats(base(), s15=W, s40=C)
    st = load(turn(d, fleet=1, hand=(1, 0, 0, 1, 0)))
    firsts = sorted({(a - R.PLACE) // 5 for a in _legal_range(st, R.PLACE, R.BUILD) if (a - R.PLACE) % 5 == B})
    assert firsts == [0, 32, 49, 62]                         # the empty entries; s15 is taken
    clay = sorted((a - R.PLACE) // 5 for a in _legal_range(st, R.PLACE, R.BUILD) if (a - R.PLACE) % 5 == C)
    assert clay == [0, 32, 34, 35, 41, 49, 51, 52, 62]       # entries and the clay anchor's empty neighbours
    assert place(16, B) not in st.legal_actions() and place(16, C) not in st.legal_actions()   # no entry, no anchor


def test_chain_follows_the_previous_boat(load):
    st = load(turn(base(), fleet=1, hand=(3, 3, 0, 0, 0)))
    for s, c in ((15, W), (16, B), (17, W), (24, B), (34, W)):   # any colour after the first
        assert place(s, c) in st.legal_actions(), s
        st.apply(place(s, c))
    nxt = sorted({(a - R.PLACE) // 5 for a in _legal_range(st, R.PLACE, R.BUILD)})
    assert nxt == [33, 35, 40]             # s34's empty neighbours; s18 and s25 touch earlier boats only
    assert st.to_dict()["marked"] == [15, 16, 17, 24, 34]


def test_no_boat_placed_skips_collect_and_build(load):
    d = boats(base(), s16=W, s25=B, s26=B, s36=W)
    d["islands"][11]["token"] = 2            # next to an old boat
    d["row"][0] = S06                        # buildable on I15 with the old boats
    d["spec_owner"][HETSUKA] = 0
    d["tokens"][0][5] = 3
    st = load(turn(d, fleet=1, hand=(0, 0, 0, 0, 0)))
    st.apply(R.PASS)                         # end placement with no boat
    assert st.stage == "post"
    assert st.legal_actions() == [R.PASS] + [R.HETSUKA + 5]


# ------------------------------------------------------------------ §5.4 collect or build

def test_collect_may_stop_after_one_token(load):
    d = boats(base(), s15=B, s16=W)
    d["islands"][11]["token"] = 1
    d["islands"][12]["token"] = 3
    st = load(turn(d, stage="post", fleet=6, marked=[15, 16]))
    assert R.PASS not in st.legal_actions()
    st.apply(R.COLLECT + 12)
    assert st.stage == "collect" and st.legal_actions() == [R.PASS, R.COLLECT + 11]
    st.apply(R.PASS)
    d = st.to_dict()
    assert st.stage == "after" and d["tokens"][0][3] == 1 and d["islands"][11]["token"] == 1


def test_build_needs_a_boat_placed_this_turn_next_to_the_island(load):
    d = boats(base(), s25=B, s26=B, s36=W, s0=C)
    d["row"][0] = S06
    assert build(S06, 15) not in load(turn(d, stage="post", fleet=6, marked=[0])).legal_actions()
    d = boats(base(), s25=B, s26=B, s36=W, s42=C)
    d["row"][0] = S06
    # the placed boat (clay on s42) is not one of the tile's boats: still legal
    assert build(S06, 15) in load(turn(d, stage="post", fleet=6, marked=[42])).legal_actions()


def test_tile_boats_are_a_multiset_contained_in_the_island_boats(load):
    d = boats(base(), s25=B, s26=W, s36=W)          # S06 needs B B W: one bamboo is missing
    d["row"][0] = S06
    assert build(S06, 15) not in load(turn(d, stage="post", fleet=6, marked=[25])).legal_actions()
    d = boats(base(), s25=B, s26=W, s36=W, s41=B)   # extra wood allowed
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[25]))
    assert build(S06, 15) in st.legal_actions()
    st.apply(build(S06, 15))
    assert [st.to_dict()["sea"][s] for s in (25, 26, 36, 41)] == [B, W, W, B]   # the boats stay


def test_fleet9_allows_one_missing_boat_not_two(load):
    d = boats(base(), s25=B)
    d["row"][0] = S06
    assert build(S06, 15) not in load(turn(d, stage="post", fleet=9, marked=[25])).legal_actions()
    d = boats(base(), s25=W, s26=B)
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=9, marked=[25]))
    st.apply(build(S06, 15))
    assert st.to_dict()["built"][0] == [S06]


def test_step_3b_is_mandatory_when_only_a_build_is_possible(load):
    d = boats(base(), s25=B, s26=B, s36=W)
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[25]))
    legal = st.legal_actions()
    assert build(S06, 15) in legal and R.PASS not in legal and not _legal_range(st, R.COLLECT, R.EBISU)


def test_standard_tile_needs_a_piece_prestige_never_runs_out(load):
    d = boats(base(), s25=B, s26=B, s36=W)
    d["row"][0] = S06
    d["pieces"][0] = 0
    legal = load(turn(d, stage="post", fleet=6, marked=[25])).legal_actions()
    assert build(S06, 15) not in legal and R.PASS in legal        # no build: the step may be skipped
    d = boats(base(), s25=B, s26=W, s36=G)
    d["row"][0] = T1
    d["pieces"][0] = 0
    st = load(turn(d, stage="post", fleet=6, marked=[25]))
    st.apply(build(T1, 15))
    assert st.to_dict()["islands"][15]["building"] == "torii" and st.to_dict()["pieces"][0] == 0


def test_build_leaves_the_row_slot_empty_and_another_players_reservation_is_not_mine(load):
    d = boats(base(), s25=B, s26=B, s36=W)
    d["row"][2] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[25]))
    st.apply(build(S06, 15))
    assert st.to_dict()["row"][2] == -1 and st.to_dict()["row"].count(-1) == 1   # not refilled
    d = boats(base(), s25=B, s26=B, s36=W)
    d["reserved"][1] = [S06]
    d["row"] = [t if t != S06 else -1 for t in d["row"]]
    assert build(S06, 15) not in load(turn(d, stage="post", fleet=6, marked=[25])).legal_actions()


def test_two_players_reserved_tile_buildable_on_the_other_pawns_turn(load):
    d = base(players=2)
    d["order"] = [0, 2, 1, 3]
    d["row"] = [t if t != S06 else -1 for t in d["row"]]
    d["reserved"][0] = [S06]
    d = boats(d, s25=B, s26=B, s35=W)
    d["port"][0] = [0, 1, 0, 0, 0]                 # seat 0's next pawn places a wood next to s35
    d["tokens"][0][0] = 2                          # a payable pair: the recruit step is a decision
    st = load(turn(d, stage="recruit", fleet=2, reserved_now=[S06]))
    st.apply(R.PASS)
    assert st.current_player() == 0 and st.to_dict()["turn"] == 1
    st.apply(next(f for f in st.legal_actions() if f not in (6, 10)))
    st = _to_stage(st, "pre") if st.stage != "pre" else st
    st.apply(place(41, W))                         # anchored on the wood on s35, next to I15
    st.apply(R.PASS)                               # end placement
    if st.stage == "post":                         # the fleet's ability kept W2 open
        assert build(S06, 15) in st.legal_actions()
        st.apply(build(S06, 15))
    # else the reserved tile was the only legal action of step 3b, applied by force
    after = st.to_dict()
    assert after["built"][0] == [S06] and after["reserved"][0] == [] and after["islands"][15]["building"] == 0
    sc = st.scores()
    assert sc["buildings"][0] == 2 and sc["reserved"][0] == 0     # a built reserved tile scores its PP (S06: 2)


def test_ananda_toll_once_per_build_and_on_prestige(load):
    def position(tile, colours, coins):
        d = boats(base(), s19=colours[0], s20=colours[1], s26=colours[2])
        _built_on(d, 1, 5, S02)
        _built_on(d, 1, 6, S13)                   # I08 touches both of Ananda's owner's buildings
        d["spec_owner"][ANANDA] = 1
        d["coins"][0] = coins
        d["row"][0] = tile
        return load(turn(d, stage="post", fleet=6, marked=[26]))
    st = position(S06, (B, B, W), 10)
    st.apply(build(S06, 8))
    assert st.to_dict()["coins"][:2] == [8, 12]       # 2, not 2 per neighbouring building
    st = position(T1, (B, W, G), 10)
    st.apply(build(T1, 8))
    assert st.to_dict()["coins"][:2] == [8, 12]       # a torii pays too
    assert build(T1, 8) not in position(T1, (B, W, G), 1).legal_actions()


def test_e10_toll_is_paid_before_the_bonuses(load):
    # E10 where the build also grows the builder's own group (+2 coins): the toll is due first, so
    # 1 coin is not enough even though the bonus would cover it; with 2 coins: 2 - 2 + 2
    def position(coins):
        d = boats(base(), s19=B, s20=B, s26=W)
        _built_on(d, 1, 5, S02)                   # Ananda's owner next to I08
        _built_on(d, 0, 6, S13)                   # the builder's own building next to I08
        d["spec_owner"][ANANDA] = 1
        d["coins"][0] = coins
        d["row"][0] = S06
        return load(turn(d, stage="post", fleet=6, marked=[26]))
    assert build(S06, 8) not in position(1).legal_actions()
    assert R.PASS in position(1).legal_actions()          # no legal build: step 3b may be skipped (Y-D8)
    st = position(2)
    assert R.PASS not in st.legal_actions()
    st.apply(build(S06, 8))
    assert st.to_dict()["coins"][:2] == [2, 12]
    ev = st.to_dict()["events"]["buildings"][-1]
    assert ev["island"] == 8 and ev["coins"] == 0


def test_fleet9_can_make_step_3b_mandatory(load):
    d = boats(base(), s25=B, s26=B)                       # S06 (B B W) lacks its wood
    d["row"][0] = S06
    assert R.PASS in load(turn(d, stage="post", fleet=6, marked=[25])).legal_actions()
    assert R.PASS not in load(turn(d, stage="post", fleet=9, marked=[25])).legal_actions()


def test_awashima_prestige_gets_no_kagutsuchi_token(load):
    d = boats(base(), s25=B, s26=W, s36=G)
    d["spec_owner"][AWASHIMA] = d["spec_owner"][KAGUTSUCHI] = 0
    d["row"][0] = T1
    st = load(turn(d, stage="post", fleet=6, marked=[25]))
    st.apply(build(T1, 15))                               # I15 has no island neighbours
    assert st.to_dict()["pp_tokens"][0] == 0 and st.to_dict()["coins"][0] == 10


def test_two_players_own_pawns_are_not_opponents(load):
    d = base(players=2)
    d["turn"] = 2                                      # pawn 2: seat 0's second pawn
    d = boats(d, s19=B, s20=B, s26=W)
    _built_on(d, 0, 5, S02)
    d["spec_owner"][ANANDA] = 0
    d["coins"][0] = 0
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[26]))
    assert st.current_player() == 0 and build(S06, 8) in st.legal_actions()
    st.apply(build(S06, 8))
    assert st.to_dict()["coins"] == [2, 10]            # no toll; group {I05, I08}: +2


def test_fleet7_removal_takes_the_mark_away(load):
    d = boats(base(), s15=B)
    d["islands"][11]["token"] = 0
    st = load(turn(d, stage="post", fleet=7, marked=[15]))
    assert R.COLLECT + 11 in st.legal_actions() and R.PASS not in st.legal_actions()
    st.apply(R.REMOVE + 15)
    d = st.to_dict()
    assert d["marked"] == [] and d["sea"][15] == -1
    # nothing placed this turn is left: step 3b was skipped and I11 keeps its token
    assert R.COLLECT + 11 not in st.legal_actions() and d["islands"][11]["token"] == 0
    assert st.to_dict()["tokens"][0] == [0] * 6


def test_e15_build_next_to_the_far_boat(load):
    # E15: after the swap the player may also build on an empty island next to s47 (I25: s47 s48 s60 s61)
    d = boats(base(), s0=B, s47=C, s48=W, s60=B)
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=8, marked=[0]))
    assert build(S06, 25) not in st.legal_actions()
    st.apply(R.SWAPBOATS + 128 * 0 + 47)
    # the build is now the only legal action of step 3b (mandatory): applied by force
    after = st.to_dict()
    assert after["built"][0] == [S06] and after["islands"][25]["building"] == 0


# ------------------------------------------------------------------ §5.5 port, §5.6 recruit

def test_set_aside_boats_never_return(load):
    st = load(turn(base(), stage="port", fleet=1, hand=(2, 0, 1, 0, 0)))
    supply = st.to_dict()["supply"]["boats"]
    st.apply(R.KEEP + S)
    st = _to_stage(st, "fleet")
    d = st.to_dict()
    assert d["set_aside"][0] == 2 and d["port"][0] == [0, 0, 1, 0, 0] and d["supply"]["boats"] == supply


def test_recruit_payments(load):
    d = base()
    d["tokens"][0] = [2, 1, 1, 0, 0, 0]
    st = load(turn(d, stage="recruit", fleet=1))
    pays = sorted({(a - R.RECRUIT) % 26 for a in _legal_range(st, R.RECRUIT, R.COLLECT)})
    triples = list(itertools.combinations(range(6), 3))
    assert pays == [0, 6 + triples.index((0, 1, 2))]    # a pair of type 0, or one of each of 0, 1, 2
    assert len(_legal_range(st, R.RECRUIT, R.COLLECT)) == 2 * 5
    d = base()
    d["tokens"][0] = [1, 1, 0, 0, 0, 0]                  # neither a pair nor three types
    st = load(turn(d, stage="recruit", fleet=1))
    assert st.current_player() == 1                     # nothing payable: the recruit step passed by force


def test_recruit_leaves_the_slot_empty_and_ends_the_turn(load):
    d = base()
    d["tokens"][0] = [4, 0, 0, 0, 0, 0]
    d["slot_coins"] = [2, 2, 2, 2, 2]
    st = load(turn(d, stage="recruit", fleet=1))
    spec = d["slots"][1]
    st.apply(R.RECRUIT + 26 * 1 + 0)
    after = st.to_dict()
    assert after["slots"][1] == -1 and after["slot_coins"][1] == 0 and after["spec_owner"][spec] == 0
    assert after["tokens"][0][0] == 2 and st.current_player() == 1 and st.stage == "fleet"


def test_recruiting_izanami_herself_shares_nothing(load):
    d = base()
    d["tokens"][0] = [2, 0, 0, 0, 0, 0]
    d["slots"][0] = IZANAMI
    d["slot_coins"][0] = 6
    st = load(turn(d, stage="recruit", fleet=1))
    st.apply(R.RECRUIT + 0)
    assert st.to_dict()["coins"] == [16, 10, 10] and st.to_dict()["spec_owner"][IZANAMI] == 0


def test_two_players_izanami_shares_with_the_other_player(load):
    d = base(players=2)
    d["tokens"][0] = [0, 2, 0, 0, 0, 0]
    d["slot_coins"][2] = 8
    d["spec_owner"][IZANAMI] = 1
    st = load(turn(d, stage="recruit", fleet=1))
    st.apply(R.RECRUIT + 26 * 2 + 1)
    assert st.to_dict()["coins"] == [14, 14]


def test_spent_culture_tokens_leave_the_game(load):
    d = base()
    d["tokens"][0] = [3, 0, 1, 0, 0, 0]
    d["spec_owner"][HETSUKA] = d["spec_owner"][MICHIMATA] = 0
    st = load(turn(d, fleet=1))
    st.apply(R.HETSUKA + 0)
    st.apply(R.MICHIMATA + 2)
    st = _to_stage(st, "recruit")
    st.apply(R.RECRUIT + 0)                              # pays the last two type-0 tokens
    after = st.to_dict()
    assert after["tokens"][0] == [0] * 6
    assert all(i["token"] < 0 for i in after["islands"])   # none went back to an island


# ------------------------------------------------------------------ §5.8 windows, Y-D1, Y-D9

def test_windows_for_free_actions(load):
    d = boats(base())
    d["islands"][11]["token"] = 0
    d["islands"][12]["token"] = 1
    d["spec_owner"][HETSUKA] = 0
    d["tokens"][0][5] = 2                    # a pair: the recruit step is a real decision
    st = load(turn(d, fleet=1, hand=(3, 0, 0, 0, 0)))
    het = R.HETSUKA + 5
    assert st.stage == "pre" and het in st.legal_actions()                 # W1
    st.apply(place(15, B))
    assert st.stage == "place" and het not in st.legal_actions()           # inside the chain
    st.apply(place(16, B))
    st.apply(R.PASS)
    assert st.stage == "post" and het in st.legal_actions()                # W2
    st.apply(R.COLLECT + 11)
    assert st.stage == "collect" and het not in st.legal_actions()         # inside a collect
    st.apply(R.PASS)
    assert st.stage == "after" and het in st.legal_actions()               # W3
    st.apply(R.PASS)
    assert st.stage == "port" and het not in st.legal_actions()            # after W3: none
    st.apply(R.PASS)
    assert st.stage == "recruit" and het not in st.legal_actions()


def test_fleet_ability_windows(load):
    # Y-D2's own example: a boat on an entry cannot be slid on with fleet 4 inside the chain
    d = boats(base())
    d["islands"][11]["token"] = 0
    d["islands"][12]["token"] = 1
    st = load(turn(d, fleet=4, hand=(3, 0, 0, 0, 0)))
    assert _legal_range(st, R.SLIDE, R.SWAPBOATS) == []                      # no boat on the board yet
    st.apply(place(15, B))
    assert st.stage == "place" and not _legal_range(st, R.SLIDE, R.SWAPBOATS)
    st.apply(place(16, B))
    st.apply(R.PASS)
    assert st.stage == "post" and R.SLIDE + 128 * 16 + 17 in st.legal_actions()   # W2
    st.apply(R.COLLECT + 11)
    assert st.stage == "collect" and not _legal_range(st, R.SLIDE, R.SWAPBOATS)
    st.apply(R.PASS)
    assert st.stage == "after" and R.SLIDE + 128 * 16 + 17 in st.legal_actions()  # W3
    st.apply(R.SLIDE + 128 * 16 + 17)
    # used once: W3 offers only PASS now, applied by force, so the port step is reached
    assert st.stage == "port" and st.to_dict()["sea"][17] == B and st.to_dict()["sea"][16] == -1


def test_stage_sequence_of_a_turn(load):
    d = boats(base())
    d["islands"][12]["token"] = 1
    d["islands"][11]["token"] = 2
    d["tokens"][0] = [0, 0, 2, 0, 0, 1]      # a pair to recruit with; Hetsuka keeps W3 a decision
    d["spec_owner"][HETSUKA] = 0
    d["hand"] = [1, 0, 0, 0, 0]              # a bamboo out of the port
    d["track"] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    st = load(d)
    seen = [st.stage]
    for a in (1, R.BUY + W, place(15, B), place(16, W), R.PASS, R.COLLECT + 12, R.PASS, R.PASS, R.KEEP + B):
        assert a in st.legal_actions(), (st.stage, a)
        st.apply(a)
        seen.append(st.stage)
    assert seen == ["fleet", "pre", "pre", "place", "place", "post", "collect", "after", "port", "recruit"]
    st.apply(R.RECRUIT + 2)
    assert st.stage == "fleet" and st.current_player() == 1


def test_once_per_turn_resets_at_each_pawn_turn(load):
    d = base(players=2)
    d["order"] = [0, 2, 1, 3]                 # seat 0 plays twice in a row (it took fleets 1 and 2 before)
    d["spec_owner"][HETSUKA] = 0
    d["tokens"][0][5] = 1
    d["tokens"][0][4] = 1
    st = load(turn(d, fleet=1))
    st.apply(R.HETSUKA + 5)
    assert not _legal_range(st, R.HETSUKA, R.RECRUIT)      # once this turn
    st = _to_stage(st, "fleet")
    assert st.current_player() == 0 and st.to_dict()["turn"] == 1
    st.apply(next(f for f in st.legal_actions() if f != 10))
    st = _to_stage(st, "pre") if st.stage not in ("pre",) else st
    assert R.HETSUKA + 4 in st.legal_actions()             # the other pawn's turn: usable again
    assert st.to_dict()["turn_state"]["transactions"] == 1


def test_recruited_once_per_turn_ability_from_the_next_turn(load):
    d = base(players=2)
    d["order"] = [0, 2, 1, 3]
    d["tokens"][0] = [2, 0, 0, 0, 0, 1]
    d["slots"][0] = HETSUKA
    st = load(turn(d, stage="recruit", fleet=1))
    st.apply(R.RECRUIT + 0)                               # recruiting ends the turn
    assert st.to_dict()["spec_owner"][HETSUKA] == 0 and st.current_player() == 0
    st.apply(next(f for f in st.legal_actions() if f != 10))
    st = _to_stage(st, "pre") if st.stage != "pre" else st
    assert R.HETSUKA + 5 in st.legal_actions()


# ------------------------------------------------------------------ §6 bonuses

def test_groups_are_own_standard_buildings_only(load):
    def gain(setup, island, marked, sea):
        d = boats(base(), **sea)
        setup(d)
        d["row"][0] = S06
        st = load(turn(d, stage="post", fleet=6, marked=[marked]))
        st.apply(build(S06, island))
        return st.to_dict()["coins"][0] - 10, st.to_dict()["pp_tokens"][0]
    i08 = dict(s19=B, s20=B, s26=W)
    assert gain(lambda d: None, 8, 26, i08) == (0, 0)                          # a lone building: no coins
    assert gain(lambda d: _built_on(d, 1, 5, S02), 8, 26, i08) == (0, 0)       # an opponent's does not connect

    def torii_between(d):
        _built_on(d, 0, 5, S02)
        d["islands"][6]["building"] = "torii"
        d["built"][1].append(T1)
    assert gain(torii_between, 8, 26, i08) == (2, 1)      # group {I05, I08}: the torii on I06 is not in it

    def chain(d):
        _built_on(d, 0, 16, S02)
        _built_on(d, 0, 21, S13)
    # I16 - I21 - I23: a chain is a group (I23: s44 s54 s55)
    assert gain(chain, 23, 55, dict(s44=B, s54=B, s55=W)) == (3, 0)


def test_prestige_build_gives_nobody_a_bonus(load):
    d = boats(base(), s19=B, s20=W, s26=G)
    _built_on(d, 1, 5, S02)
    _built_on(d, 0, 6, S13)
    d["islands"][8]["mountain"] = True
    d["row"][0] = T1
    st = load(turn(d, stage="post", fleet=6, marked=[26]))
    st.apply(build(T1, 8))
    after = st.to_dict()
    assert after["coins"] == [10, 10, 10] and after["pp_tokens"] == [0, 0, 0]
    assert after["built"][0] == sorted([S13, T1])


def test_one_pp_token_per_prestige_neighbour(load):
    for awashima, tile, colours in ((False, S06, (B, B, W)), (True, T1, (B, W, G))):
        d = boats(base(), s19=colours[0], s20=colours[1], s26=colours[2])
        d["islands"][5]["building"] = "torii"
        d["islands"][6]["building"] = "palace"        # I08 touches both
        d["built"][1] += [T1 + 1, T1 + 3]
        if awashima:
            d["spec_owner"][AWASHIMA] = 0
        d["row"][0] = tile
        st = load(turn(d, stage="post", fleet=6, marked=[26]))
        st.apply(build(tile, 8))
        assert st.to_dict()["pp_tokens"][0] == 2 and st.to_dict()["coins"][0] == 10


def test_awashima_example_of_section_6_2(load):
    # {X, Y} = {I21, I16} touches the torii on I23 at I21; Z = I30 is alone; {V, W} = {I05, I06} far away
    d = boats(base(), s44=B, s54=W, s55=G)
    for isl, tile in ((21, S02), (16, S13), (30, 2), (5, 3), (6, 4)):
        _built_on(d, 0, isl, tile)
    d["spec_owner"][AWASHIMA] = 0
    d["row"][0] = T1
    st = load(turn(d, stage="post", fleet=6, marked=[55]))
    st.apply(build(T1, 23))
    after = st.to_dict()
    assert after["coins"][0] == 10 + 4 and after["pp_tokens"][0] == 0
    # later: a standard building on I31, next to Z (I30) and the torii, touching no other own building
    after = boats(after, s59=B, s68=B, s69=W)
    after["row"][1] = S06
    st = load(turn(after, stage="post", fleet=6, marked=[59]))
    st.apply(build(S06, 31))
    d2 = st.to_dict()
    assert d2["coins"][0] == 14 + 2 and d2["pp_tokens"][0] == 1     # group {Z, new}; +1 for the torii


def test_awashima_counts_a_group_once(load):
    d = boats(base(), s44=B, s54=W, s55=G)
    _built_on(d, 0, 30, S02)
    _built_on(d, 0, 31, S13)                 # one group touching the torii's island at two islands
    d["spec_owner"][AWASHIMA] = 0
    d["row"][0] = T1
    st = load(turn(d, stage="post", fleet=6, marked=[55]))
    st.apply(build(T1, 23))
    assert st.to_dict()["coins"][0] == 10 + 3


def test_kagutsuchi_token_is_doubled_by_amaterasu(load):
    d = boats(base(), s25=B, s26=B, s36=W)
    d["spec_owner"][KAGUTSUCHI] = d["spec_owner"][AMATERASU] = 0
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[25]))
    st.apply(build(S06, 15))
    assert st.to_dict()["pp_tokens"][0] == 1 and st.scores()["pp_tokens"][0] == 2


# ------------------------------------------------------------------ §7 fleets, Y-D26

def test_fleet2_no_limit_on_reservations(load):
    d = base()
    d["reserved"][0] = [d["row"][4]]
    d["row"][4] = -1
    st = load(turn(d, fleet=2))
    assert _legal_range(st, R.RESERVE, R.ARRANGE) == [R.RESERVE + k for k in range(4)]
    st.apply(R.RESERVE + 0)
    assert len(st.to_dict()["reserved"][0]) == 2 and st.scores()["reserved"][0] == -2


def test_fleet3_with_fewer_than_three_tiles(load):
    d = turn(base(), fleet=3)
    d["deck"] = d["deck"][:2]
    st = load(d)
    assert _legal_range(st, R.ARRANGE, R.RAIJIN) == [R.ARRANGE + a for a in range(6)]   # all 2 tiles: 3!
    top = d["deck"]
    st.apply(R.ARRANGE + R.arrangements(2).index((1, 0, 2)))     # swap them, both on top
    assert st.to_dict()["deck"] == [top[1], top[0]]
    d["deck"] = d["deck"][:1]
    assert len(_legal_range(load(d), R.ARRANGE, R.RAIJIN)) == 2


def test_fleet3_with_an_empty_deck_has_nothing_to_look_at(load):
    d = turn(base(), fleet=3, hand=(1, 0, 0, 0, 0))
    d["deck"] = []
    assert not _legal_range(load(d), R.ARRANGE, R.RAIJIN)


def test_fleet4_moves_any_boat(load):
    d = boats(base(), s40=C, s0=B)                # boats of earlier turns, not this player's
    st = load(turn(d, fleet=4))
    slides = _legal_range(st, R.SLIDE, R.SWAPBOATS)
    assert slides == [R.SLIDE + 128 * 0 + 1] + [R.SLIDE + 128 * 40 + t for t in (34, 35, 41, 51, 52)]
    st.apply(R.SLIDE + 128 * 40 + 52)
    d = st.to_dict()
    assert d["sea"][40] == -1 and d["sea"][52] == C and d["marked"] == []


def test_fleet6_needs_two_token_islands(load):
    d = base()
    d["islands"][3]["token"] = 1
    st = load(turn(d, fleet=6, far=False, hand=(1, 0, 0, 0, 0)))
    assert not _legal_range(st, R.SWAPTOK, R.SLIDE)


def test_sacred_sites_only_on_empty_islands_and_limited(load):
    d = base()
    d["islands"][9]["token"] = 2
    _built_on(d, 1, 7, S02)
    d["islands"][20]["mountain"] = True
    d["islands"][21]["sacred"] = True
    d["supply"]["sacred"] = 7
    st = load(turn(d, fleet=5, hand=(1, 0, 0, 0, 0)))
    targets = [a - R.SACRED for a in _legal_range(st, R.SACRED, R.KACHIKO)]
    assert targets == [i for i in range(34) if i not in (7, 9, 21)]        # a mountain island is empty
    d["supply"]["sacred"] = 0
    assert not _legal_range(load(d), R.SACRED, R.KACHIKO)


def test_fleet_tiles_data():
    cfg = yamatai.make_config(3)
    vec = lambda *cs: tuple(sum(c == k for c in cs) for k in range(5))   # noqa: E731
    assert cfg.fleet_boats == (vec(B), vec(W), vec(S), vec(C), vec(G), vec(W, B), vec(S, B), vec(C, B),
                               vec(S, W), vec(C, W))
    doc = json.loads((Y.DATA_DIR / "fleets.json").read_text())
    assert [t["ability"] for t in doc["tiles"]] == [
        "none", "reserve_building", "peek_building_deck", "slide_boat", "sacred_site", "swap_culture_tokens",
        "remove_boats", "swap_boats", "build_discount", "extra_boat"]


# ------------------------------------------------------------------ §8 specialists

def test_kachiko_needs_two_coins(load):
    d = base()
    d["islands"][15]["sacred"] = True
    d["coins"][0] = 1
    d["spec_owner"][KACHIKO] = 0
    assert not _legal_range(load(turn(d, fleet=1, hand=(1, 0, 0, 0, 0))), R.KACHIKO, R.REMOVE)
    d["coins"][0] = 2
    assert _legal_range(load(turn(d, fleet=1, hand=(1, 0, 0, 0, 0))), R.KACHIKO, R.REMOVE) == [R.KACHIKO + 15]


def test_michimata_needs_gold_in_the_supply(load):
    d = base()
    d["tokens"][0][1] = 1
    d["spec_owner"][MICHIMATA] = 0
    d["supply"]["boats"][G] = 0
    assert not _legal_range(load(turn(d, fleet=1, hand=(1, 0, 0, 0, 0))), R.MICHIMATA, R.HETSUKA)


def test_raijin_and_nakatsu_use_the_supply_and_are_not_transactions(load):
    d = base()
    d["spec_owner"][RAIJIN] = 0
    d["supply"]["boats"][G] = 0
    assert not _legal_range(load(turn(d, fleet=1, hand=(2, 0, 0, 0, 0))), R.RAIJIN, R.NAKATSU)
    d = base()
    d["spec_owner"][RAIJIN] = 0
    st = load(turn(d, fleet=1, hand=(1, 0, 0, 0, 1)))
    st.apply(R.RAIJIN + 5 * B + G)                       # gold may be one of the two
    after = st.to_dict()
    assert after["hand"] == [0, 0, 0, 0, 1] and after["supply"]["boats"] == [23, 19, 16, 13, 10]
    assert after["turn_state"]["transactions"] == 1 and R.SELL + G not in st.legal_actions()
    d = base()
    d["spec_owner"][NAKATSU] = 0
    d["supply"]["boats"][S] = 1
    st = load(turn(d, fleet=1, hand=(0, 0, 0, 0, 1)))
    nak = _legal_range(st, R.NAKATSU, R.MICHIMATA)
    assert R.NAKATSU + 5 * S + S not in nak and R.NAKATSU + 5 * B + S in nak and len(nak) == 9
    st.apply(R.NAKATSU + 5 * B + S)
    after = st.to_dict()
    assert after["hand"] == [1, 0, 1, 0, 0] and after["supply"]["boats"] == [21, 19, 0, 13, 11]
    assert after["turn_state"]["transactions"] == 1


def test_ebisu_once_per_turn(load):
    d = boats(base(), s16=W)
    d["islands"][3]["token"] = 0
    d["islands"][30]["token"] = 4
    d["islands"][33]["token"] = 5
    d["spec_owner"][EBISU] = 0
    st = load(turn(d, stage="post", fleet=6, marked=[16], far=False))
    st.apply(R.COLLECT + 3)
    assert st.legal_actions() == [R.PASS, R.EBISU + 30, R.EBISU + 33]
    st.apply(R.EBISU + 33)
    # no second Ebisu token: the collect (PASS only), the windows and the port went by force
    after = st.to_dict()
    assert after["tokens"][0] == [1, 0, 0, 0, 0, 1] and after["islands"][30]["token"] == 4
    assert st.current_player() == 1


def test_specialist_pp_values():
    cfg = yamatai.make_config(3)
    assert cfg.spec_pp == (1, 3, 2, 3, 3, 3, 3, 4, 2, 2, 2, 3, 1, 2, 2, 2, 3, 7) and sum(cfg.spec_pp) == 48
    doc = json.loads((Y.DATA_DIR / "specialists.json").read_text())
    assert doc["status"].startswith("assumed")


def test_a_collected_mountain_island_stays_a_mountain_and_becomes_empty(load):
    d = boats(base(), s25=B, s26=B, s36=W)
    d["islands"][15].update(token=2, mountain=True)
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[25]))
    assert build(S06, 15) not in st.legal_actions()       # a token on it: not empty
    st.apply(R.COLLECT + 15)
    after = st.to_dict()
    assert after["islands"][15] == {"token": -1, "building": None, "sacred": False, "mountain": True}
    assert after["tokens"][0][2] == 1                     # a mountain token is an ordinary token of its type
    after = boats(after, s41=B)
    st = load(turn(after, stage="post", fleet=6, marked=[41]))
    st.apply(build(S06, 15))
    assert st.to_dict()["pp_tokens"][0] == 1              # the mountain bonus


# ------------------------------------------------------------------ §9 end of round, §10 triggers

def test_end_of_round_coins_on_specialists_then_refill(load):
    d = base()
    d["slots"][0] = -1
    d["slot_coins"] = [0, 2, 4, 0, 6]
    d["row"][1] = -1
    nxt_spec, nxt_tile = d["spec_deck"][0], d["deck"][0]
    d = _end_of_round(d, [7, 1, 5])
    untaken = list(d["track"])
    st = load(d)
    st.apply(R.PASS)
    after = st.to_dict()
    assert after["slots"][0] == nxt_spec and after["slot_coins"] == [0, 4, 6, 2, 8]
    assert after["row"][1] == nxt_tile and len(after["deck"]) == len(d["deck"]) - 1
    assert after["order"] == [1, 2, 0] and after["round"] == 1 and not st.is_over()
    assert after["track"][:7] == untaken and sorted(after["track"][7:]) == [1, 5, 7] and after["face_up"] == 5


def test_two_players_both_pawns_move_by_fleet_number(load):
    d = _end_of_round(base(players=2), [6, 2, 9, 1])
    st = load(d)
    st.apply(R.PASS)
    assert st.to_dict()["order"] == [3, 1, 0, 2] and st.current_player() == 1


def test_trigger_specialists(load):
    d = base()
    d["slots"][3] = -1
    d["spec_deck"] = []
    st = _round_ended(load, d)
    assert st.is_over() and sorted(st.triggers) == ["specialists"]
    d = base()
    d["spec_deck"] = []                                   # an empty deck alone does not end the game
    st = _round_ended(load, d)
    assert not st.is_over()


def test_trigger_buildings(load):
    d = base()
    d["row"][3] = -1
    d["deck"] = []
    st = _round_ended(load, d)
    assert st.is_over() and sorted(st.triggers) == ["buildings"]


def test_trigger_boats_counts_the_supply_only(load):
    d = base()
    d["supply"]["boats"][C] = 0
    st = _round_ended(load, d)
    assert st.is_over() and sorted(st.triggers) == ["boats"]
    d = boats(base(), s40=C)
    d["supply"]["boats"][C] = 1                           # board, hands and ports do not count
    d["port"][1][C] = 5
    d["set_aside"][2] = 6
    st = _round_ended(load, d)
    assert not st.is_over() and sorted(st.triggers) == []


def test_triggers_wait_for_the_end_of_the_round(load):
    d = base()
    d["supply"]["boats"][C] = 0
    d["tokens"][0][0] = 2
    st = load(turn(d, stage="recruit", fleet=1))
    st.apply(R.PASS)                                      # the first pawn's turn ends
    assert not st.is_over() and st.current_player() == 1 and sorted(st.triggers) == []
    seats = set()
    while not st.is_over():
        seats.add(st.current_player())
        st.apply(R.PASS if R.PASS in st.legal_actions() else st.legal_actions()[0])
    assert seats == {1, 2} and st.round == 1 and "boats" in st.triggers


def test_every_trigger_that_fired_is_recorded(load):
    d = base()
    d["slots"][0] = -1
    d["spec_deck"] = []
    d["row"][0] = -1
    d["deck"] = []
    d["supply"]["boats"][G] = 0
    d["pieces"][1] = 0
    d["triggers"] = ["last_building"]
    st = _round_ended(load, d)
    assert st.is_over() and sorted(st.triggers) == ["boats", "buildings", "last_building", "specialists"]


def test_round_cap_is_60_rounds(load):
    assert yamatai.make_config(3).round_cap == 60
    for played, over in ((58, False), (59, True)):
        d = base()
        d["round"] = played
        st = _round_ended(load, d)
        assert st.is_over() is over and sorted(st.triggers) == (["round_cap"] if over else [])


# ------------------------------------------------------------------ §11 scoring

def _final(d, totals_from):
    d["stage"] = "over"
    d["triggers"] = ["boats"]
    totals_from(d)
    return d


def test_highest_total_wins_whatever_the_order(load):
    def f(d):
        d["coins"] = [0, 0, 0]
        d["built"][2] = [S13]
        d["last_order"] = d["order"] = [0, 1, 2]
    st = load(_final(base(), f))
    assert st.scores()["total"] == [0, 0, 4] and st.winner() == 2


def test_two_player_tie_break_by_the_earlier_pawn(load):
    def f(d):
        d["coins"] = [0, 0]
        d["built"] = [[S02], [9]]                # S02 and S10: 3 PP each
        d["last_order"] = d["order"] = [3, 0, 2, 1]     # seat 1's pawn 3 played first
    st = load(_final(base(players=2), f))
    assert st.scores()["total"] == [3, 3] and st.winner() == 1
    d = _final(base(players=2), f)
    d["last_order"] = d["order"] = [2, 1, 3, 0]         # seat 0's pawn 2 first
    assert load(d).winner() == 0


def test_what_scores_nothing(load):
    d = base()
    plain = load(d).scores()
    d["hand"] = [3, 2, 1, 1, 1]
    d["port"][0] = [1, 0, 0, 0, 1]
    d["tokens"][0] = [2, 2, 2, 2, 2, 2]
    d["pieces"][0] = 8
    d["set_aside"][0] = 1                                # a single set-aside boat costs nothing either
    assert load(d).scores() == plain


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_share_goes_to_the_tie_break_winner(players):
    import numpy as np
    seeds = np.arange(200, dtype=np.uint64)
    res = yamatai.play_batch(players, seeds)
    share = res["players"]["win_share"]
    total = res["players"]["total"]
    ties = 0
    for g in range(len(seeds)):
        w = int(res["games"]["winner"][g])
        assert share[g].tolist() == [1.0 if p == w else 0.0 for p in range(players)]
        assert total[g, w] == total[g].max()
        ties += int((total[g] == total[g].max()).sum() > 1)
        if g < 40:
            st = yamatai.replay_game(players, int(seeds[g]))
            assert st.winner() == w and st.scores()["total"] == total[g].tolist()
    assert ties > 0                              # some games were decided by the tie-break


# ------------------------------------------------------------------ Y-D38 hidden information

def test_hidden_information_does_not_move_the_heuristic():
    """The policy features of every legal action (what the built-in heuristic scores) do not change
    when the hidden parts are shuffled: the building deck, the specialist deck and the face-down
    fleets. Positions where fleet 3 was taken this turn keep the deck (its owner looks at it)."""
    import strategies
    pol = strategies.resolve("yamatai", "balanced").as_policy()
    rnd = random.Random(7)
    checked = peeked = 0
    for players in (2, 3, 4):
        for seed in range(3):
            st = yamatai.new_game(players, seed)
            for k, a in enumerate(yamatai.play_actions(players, seed, [pol] * players)):
                if k % 5 == 0:
                    d = st.to_dict()
                    e = json.loads(json.dumps(d))
                    if d["turn_state"]["fleet"] != 3:
                        rnd.shuffle(e["deck"])
                    elif _legal_range(st, R.ARRANGE, R.RAIJIN):
                        # the one place the deck may be read (its user looks at it): the features
                        # do see a changed deck there, so this check can see one
                        f = dict(e, deck=e["deck"][::-1])
                        peeked += any(list(yamatai.action_feature_values(yamatai.State.from_dict(f), x))
                                      != list(yamatai.action_feature_values(st, x)) for x in st.legal_actions())
                    rnd.shuffle(e["spec_deck"])
                    down = e["track"][e["face_up"]:]
                    rnd.shuffle(down)
                    e["track"] = e["track"][:e["face_up"]] + down
                    other = yamatai.State.from_dict(e)
                    assert other.legal_actions() == st.legal_actions()
                    for x in st.legal_actions():
                        assert list(yamatai.action_feature_values(other, x)) == list(yamatai.action_feature_values(st, x)), (
                            players, seed, k, st.stage, x)
                    checked += 1
                st.apply(a)
    assert checked > 100 and peeked > 0


# ------------------------------------------------------------------ §14 data

def test_player_board_data():
    cfg = yamatai.make_config(3)
    assert [cfg.buy_price(c) for c in range(5)] == [1, 2, 3, 4, 5]
    assert [cfg.sell_price(c) for c in range(5)] == [1, 1, 2, 3, 5]
    assert [cfg.sell_price(c, susanoo=True) for c in range(4)] == [1, 1, 6, 7]
    pb = cfg.pb
    assert pb["trade"]["gold"] is None and pb["port_capacity"] == 1 and pb["riu_port_bonus"] == 2
    assert pb["transactions_per_turn"] == 1 and pb["izanagi_transactions_per_turn"] == 2
    assert pb["setup"]["start_coins"] == 10 and pb["coins_per_pp"] == 5 and pb["fu_hsi_coins_per_pp"] == 3


def test_building_tiles_data():
    cfg = yamatai.make_config(3)
    tiles = cfg.tiles
    assert len(tiles) == 28 and [t.kind for t in tiles] == [0] * 21 + [1] * 3 + [2] * 4
    assert tiles[9].boats == (2, 0, 0, 1, 0) and tiles[9].pp == 3          # S10 = B B C, the build example
    assert sum(t.trading_post for t in tiles) == 6 and not any(t.trading_post for t in tiles[21:])
    assert [sum(t.boats[c] for t in tiles) for c in range(5)] == [23, 20, 15, 14, 11]
    assert all(t.boats[G] >= 1 for t in tiles[21:])
    assert [sum(t.boats) for t in tiles[21:]] == [3, 3, 3, 4, 4, 4, 4]
    weight = (1, 2, 3, 4, 5)
    for t in tiles:
        w = -(-sum(n * weight[c] for c, n in enumerate(t.boats)) // 2)
        assert t.pp == (w + 2 if t.kind else max(1, w - 1) if t.trading_post else w)


def test_culture_token_names_are_placeholders():
    cfg = yamatai.make_config(3)
    assert cfg.token_names == ("orange", "green", "violet", "blue", "beige", "white")
    assert sorted({k for k, _ in cfg.token_bag}) == [-1, 0, 1, 2, 3, 4, 5]


def test_board_geometry_is_the_designed_one():
    b = yamatai.make_config(3).board_data
    assert b.n_islands == 34 and b.n_sea == 72
    assert tuple(b.entries) == (0, 15, 32, 49, 62) and len(b.edges) == 28
    assert [tuple(b.sea_nbrs[e]) for e in b.entries] == [(1,), (16,), (33,), (50,), (63,)]
    assert set(b.entries) <= set(b.edges)
    assert sum(len(n) for n in b.sea_nbrs) == 2 * 112
    assert sum(len(n) for n in b.island_nbrs) == 2 * 24
    for s in range(72):                                  # symmetric relations
        assert all(s in b.sea_nbrs[t] for t in b.sea_nbrs[s])
    for i in range(34):
        assert all(i in b.island_nbrs[j] for j in b.island_nbrs[i])
    degrees = [len(b.island_sea[i]) for i in range(34)]
    assert {k: degrees.count(k) for k in set(degrees)} == {2: 2, 3: 4, 4: 16, 5: 11, 6: 1}
    touched = {s for i in range(34) for s in b.island_sea[i]}
    assert touched == set(range(72))                     # every sea space touches an island
    assert all(b.sea_nbrs[e] and any(e in b.island_sea[i] for i in range(34)) for e in b.entries)
    doc = json.loads((Y.DATA_DIR / "board.json").read_text())
    assert sorted(len(c) for c in doc["island_clusters"]) == [1] + [2] * 6 + [3] * 4 + [4, 5]
    seen, todo = {0}, [0]                                # the sea is connected
    while todo:
        for t in b.sea_nbrs[todo.pop()]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    assert seen == set(range(72))


# ------------------------------------------------------------------ a third opinion over played positions

class _Oracle:
    """§5.2-§5.4, §5.8, §6, §7 and §8 written out once more from the spec, on position dictionaries
    only (no engine code), to check the positions of played games: the trades, the free actions of
    each window, the first and further boats, the legal collects and builds, whether step 3b may be
    skipped, and the coins and PP tokens each build hands out."""

    def __init__(self, players):
        cfg = yamatai.make_config(players)
        self.b, self.tiles = cfg.board_data, cfg.tiles

    @staticmethod
    def me(d):
        return d["pawn_owner"][d["order"][d["turn"]]]

    def first_boats(self, d):
        b, me = self.b, self.me(d)
        edges = set(b.edges) if d["spec_owner"][TOYO_TAMA] == me else set()
        out = set()
        for c in range(5):
            if not d["hand"][c]:
                continue
            for s in range(b.n_sea):
                if d["sea"][s] >= 0:
                    continue
                if s in b.entries or s in edges or any(d["sea"][t] == c for t in b.sea_nbrs[s]):
                    out.add(R.PLACE + 5 * s + c)
        return out

    def trades(self, d):
        me, out = self.me(d), set()
        if d["turn_state"]["transactions"] <= 0:
            return out
        cfg = yamatai.make_config(len(d["coins"]))
        tomoe = d["spec_owner"][TOMOE] == me
        for c in range(5):
            if c == G and not tomoe:
                continue
            if d["supply"]["boats"][c] and d["coins"][me] >= cfg.buy_price(c):
                out.add(R.BUY + c)
            if d["hand"][c]:
                out.add(R.SELL + c)
        return out

    def next_boats(self, d):
        last = d["turn_state"]["last"]
        return {R.PLACE + 5 * s + c for s in self.b.sea_nbrs[last] if d["sea"][s] < 0 for c in range(5) if d["hand"][c]}

    def free_actions(self, d):
        """§5.8 / §7 / §8: the free actions a window offers."""
        b, me, ts = self.b, self.me(d), d["turn_state"]
        used, hand, supply, out = set(ts["used"]), d["hand"], d["supply"]["boats"], set()
        boats_at = [s for s in range(b.n_sea) if d["sea"][s] >= 0]
        empty = [i for i in range(b.n_islands) if d["islands"][i]["token"] < 0
                 and d["islands"][i]["building"] is None and not d["islands"][i]["sacred"]]
        tokens = [i for i in range(b.n_islands) if d["islands"][i]["token"] >= 0]
        f = ts["fleet"] if "fleet" not in used else 0
        if f == 2:
            out |= {R.RESERVE + k for k in range(5) if d["row"][k] >= 0}
        elif f == 3 and d["deck"]:
            out |= {R.ARRANGE + x for x in range(len(list(itertools.permutations(range(min(3, len(d["deck"])) + 1)))))}
        elif f == 4:
            out |= {R.SLIDE + 128 * s + t for s in boats_at for t in b.sea_nbrs[s] if d["sea"][t] < 0}
        elif f == 5 and d["supply"]["sacred"] > 0:
            out |= {R.SACRED + i for i in empty}
        elif f == 6:
            out |= {R.SWAPTOK + 64 * i + j for i, j in itertools.combinations(tokens, 2)}
        elif f == 7:
            out |= {R.REMOVE + s for s in boats_at}
        elif f == 8:
            out |= {R.SWAPBOATS + 128 * s + t for s, t in itertools.combinations(boats_at, 2)}
        owns = {k for k in range(18) if d["spec_owner"][k] == me}
        if RAIJIN in owns and "raijin" not in used and supply[G] > 0:
            out |= {R.RAIJIN + 5 * c1 + c2 for c1 in range(5) for c2 in range(c1, 5)
                    if (hand[c1] >= 2 if c1 == c2 else hand[c1] and hand[c2])}
        if NAKATSU in owns and "nakatsu" not in used and hand[G] > 0:
            out |= {R.NAKATSU + 5 * c1 + c2 for c1 in range(4) for c2 in range(c1, 4)
                    if (supply[c1] >= 2 if c1 == c2 else supply[c1] and supply[c2])}
        mine = d["tokens"][me]
        if MICHIMATA in owns and "michimata" not in used and supply[G] > 0:
            out |= {R.MICHIMATA + k for k in range(6) if mine[k]}
        if HETSUKA in owns and "hetsuka" not in used:
            out |= {R.HETSUKA + k for k in range(6) if mine[k]}
        if KACHIKO in owns and "kachiko" not in used and d["coins"][me] >= 2:
            out |= {R.KACHIKO + i for i in range(b.n_islands) if d["islands"][i]["sacred"]}
        return out

    def _matches(self, d, islands):
        marked = set(d["marked"])
        # brute force over assignments: at most a handful of islands, each to a distinct marked boat
        options = [[s for s in self.b.island_sea[i] if s in marked] for i in islands]
        return any(len(set(p)) == len(p) for p in itertools.product(*options))

    def collects(self, d):
        taken = d["turn_state"]["collected"]
        return {R.COLLECT + i for i in range(self.b.n_islands)
                if d["islands"][i]["token"] >= 0 and self._matches(d, taken + [i])}

    def builds(self, d):
        b, me, marked = self.b, self.me(d), set(d["marked"])
        ananda = d["spec_owner"][ANANDA]
        tiles = [t for t in d["row"] if t >= 0]
        tiles += [t for t in d["reserved"][me] if t not in d["turn_state"]["reserved_now"]]
        out = set()
        for i in range(b.n_islands):
            isl = d["islands"][i]
            if isl["token"] >= 0 or isl["building"] is not None or isl["sacred"]:
                continue
            if not marked & set(b.island_sea[i]):
                continue
            if ananda >= 0 and ananda != me and d["coins"][me] < 2 and any(
                    d["islands"][j]["building"] == ananda for j in b.island_nbrs[i]):
                continue
            have = [sum(d["sea"][s] == c for s in b.island_sea[i]) for c in range(5)]
            for t in tiles:
                tile = self.tiles[t]
                if tile.kind == 0 and d["pieces"][me] == 0:
                    continue
                missing = sum(max(0, tile.boats[c] - have[c]) for c in range(5))
                if missing <= (1 if d["turn_state"]["fleet"] == 9 else 0):
                    out.add(R.BUILD + 64 * t + i)
        return out

    def _group(self, d, me, start, new=None):
        own = {j for j in range(self.b.n_islands) if d["islands"][j]["building"] == me} | {new}
        seen, todo = {start}, [start]
        while todo:
            for j in self.b.island_nbrs[todo.pop()]:
                if j in own and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return seen

    def build_gain(self, d, action):
        """(coins, PP tokens) the builder gains by ``action``, and the Ananda owner's toll."""
        b, me = self.b, self.me(d)
        t, i = divmod(action - R.BUILD, 64)
        tile = self.tiles[t]
        nbrs = b.island_nbrs[i]
        prestige = sum(d["islands"][j]["building"] in ("torii", "palace") for j in nbrs)
        mountain = int(d["islands"][i]["mountain"])
        ananda = d["spec_owner"][ANANDA]
        toll = 2 if ananda >= 0 and ananda != me and any(d["islands"][j]["building"] == ananda for j in nbrs) else 0
        coins = pp = 0
        if tile.kind == 0:
            pp = prestige + mountain
            group = self._group(d, me, i, new=i)
            if len(group) >= 2:
                coins = len(group) * (2 if tile.trading_post else 1)
            if d["spec_owner"][KAGUTSUCHI] == me and not any(d["islands"][j]["building"] == me for j in nbrs):
                pp += 1
        elif d["spec_owner"][AWASHIMA] == me:
            pp = prestige + mountain
            members = set()
            for j in nbrs:
                if d["islands"][j]["building"] == me:
                    members |= self._group(d, me, j)
            n = 1 + len(members)
            coins = n if n >= 2 else 0
        return coins - toll, pp, (ananda, toll)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_played_positions_follow_the_spec_oracle(players):
    import strategies
    oracle = _Oracle(players)
    pol = strategies.resolve("yamatai", "builder").as_policy()
    counts = dict(first=0, post=0, builds=0, awashima=0, toll=0, free=0)
    for seed in range(24):
        seats = [None] * players if seed % 2 else [pol] * players
        st = yamatai.new_game(players, seed)
        for a in yamatai.play_actions(players, seed, seats):
            d = st.to_dict()
            legal = set(st.legal_actions())
            if st.stage in ("pre", "post", "after"):
                free = {x for x in legal if R.RESERVE <= x < R.RECRUIT or R.SACRED <= x < R.PLACE or x >= R.SWAPTOK}
                assert free == oracle.free_actions(d), (seed, d["round"], st.stage)
                counts["free"] += bool(free)
            if st.stage == "pre":
                assert {x for x in legal if R.PLACE <= x < R.BUILD} == oracle.first_boats(d), (seed, d["round"])
                assert {x for x in legal if R.BUY <= x < R.KEEP} == oracle.trades(d)
                counts["first"] += 1
            elif st.stage == "place":
                assert set(legal) == {R.PASS} | oracle.next_boats(d)
            elif st.stage == "post":
                coll, blds = oracle.collects(d), oracle.builds(d)
                assert {x for x in legal if R.COLLECT <= x < R.EBISU} == coll, (seed, d["round"])
                assert {x for x in legal if R.BUILD <= x < R.SWAPTOK} == blds, (seed, d["round"])
                assert (R.PASS in legal) == (not coll and not blds)
                counts["post"] += 1
            elif st.stage == "collect":
                assert {x for x in legal if R.COLLECT <= x < R.EBISU} == oracle.collects(d)
            if R.BUILD <= a < R.SWAPTOK:
                me = oracle.me(d)
                coins, pp, (owner, toll) = oracle.build_gain(d, a)
            st.apply(a)
            if R.BUILD <= a < R.SWAPTOK:
                after = st.to_dict()
                ev = after["events"]["buildings"][-1]
                assert (ev["coins"], ev["pp_tokens"]) == (coins, pp), (seed, a)
                if after["turn"] == d["turn"] and after["round"] == d["round"]:   # no end of round since
                    assert after["pp_tokens"][me] - d["pp_tokens"][me] == pp
                    if toll:
                        assert after["coins"][owner] - d["coins"][owner] == toll
                counts["builds"] += 1
                counts["toll"] += bool(toll)
                counts["awashima"] += d["spec_owner"][AWASHIMA] == me and (a - R.BUILD) // 64 >= 21
    assert counts["first"] > 1000 and counts["post"] > 500 and counts["builds"] > 150, counts
    assert counts["toll"] >= 1 and counts["awashima"] >= 1, counts     # both rare cases were met
    assert counts["free"] > 300, counts


def _expected_scores(cfg, d):
    """§11 from a final position dictionary."""
    out = {k: [] for k in yamatai.SCORE_CATEGORIES + ("total",)}
    for p in range(cfg.players):
        owns = [d["spec_owner"][k] == p for k in range(18)]
        v = {"coins": d["coins"][p] // (3 if owns[FU_HSI] else 5),
             "pp_tokens": d["pp_tokens"][p] * (2 if owns[AMATERASU] else 1),
             "buildings": sum(cfg.tiles[t].pp for t in d["built"][p]),
             "specialists": sum(cfg.spec_pp[k] for k in range(18) if owns[k]),
             "reserved": -len(d["reserved"][p]),
             "set_aside": -(d["set_aside"][p] // 2)}
        for k in yamatai.SCORE_CATEGORIES:
            out[k].append(v[k])
        out["total"].append(sum(v.values()))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_played_games_follow_the_turn_round_and_scoring_rules(players):
    """Over random and heuristic games, from position dictionaries: the boats of a fleet (§5.1), the
    trade prices (§5.2), the recruit coins with Izanami (§5.6), each end of round (§9: coins on the
    specialists before the refill, the refills, the order by fleet number, the fleet queue, the
    triggers of §10) and the final scores and winner (§11)."""
    import strategies
    cfg = yamatai.make_config(players)
    pol = strategies.resolve("yamatai", "merchant").as_policy()
    seen = dict(fleet=0, trade=0, recruit=0, izanami=0, rounds=0, games=0)
    for seed in range(16):
        st = yamatai.new_game(players, seed)
        for a in yamatai.play_actions(players, seed, [None] * players if seed % 2 else [pol] * players):
            d = st.to_dict()
            me = d["pawn_owner"][d["order"][d["turn"]]]
            stage = st.stage
            st.apply(a)
            after = st.to_dict()
            same_turn = after["turn"] == d["turn"] and after["round"] == d["round"] and not st.is_over()
            if stage == "fleet" and same_turn and after["stage"] in ("pre", "fleet10"):
                want = [min(n, s) if s >= n else 0 for n, s in zip(cfg.fleet_boats[a - 1], d["supply"]["boats"])]
                assert [x - y for x, y in zip(after["hand"], d["hand"])] == want
                seen["fleet"] += 1
            if stage == "pre" and R.BUY <= a < R.KEEP and same_turn and after["stage"] == "pre":
                c = (a - R.BUY) % 5
                susanoo = d["spec_owner"][SUSANOO] == me
                price = cfg.buy_price(c) if a < R.SELL else -cfg.sell_price(c, susanoo)
                assert d["coins"][me] - after["coins"][me] == price
                seen["trade"] += 1
            slots, coins = list(d["slots"]), list(d["slot_coins"])
            if R.RECRUIT <= a < R.COLLECT:
                slot = (a - R.RECRUIT) // 26
                pile, iz = coins[slot], d["spec_owner"][IZANAMI]
                share = pile // 2 if iz >= 0 and iz != me else 0
                gain = [0] * players
                gain[me] += pile - share
                if share:
                    gain[iz] += share
                    seen["izanami"] += 1
                assert [x - y for x, y in zip(after["coins"], d["coins"])] == gain
                slots[slot], coins[slot] = -1, 0
                seen["recruit"] += 1
            if after["round"] == d["round"] + 1 or (st.is_over() and stage != "over"):
                # an end of round happened after this action (§9)
                spec_deck, triggers = list(d["spec_deck"]), set(d["triggers"])
                coins = [c + 2 if s >= 0 else c for s, c in zip(slots, coins)]
                for k in range(5):
                    if slots[k] < 0:
                        if spec_deck:
                            slots[k], coins[k] = spec_deck.pop(0), 0
                        else:
                            triggers.add("specialists")
                if 0 in after["pieces"]:
                    triggers.add("last_building")
                if any(x == 0 for x in after["supply"]["boats"]):
                    triggers.add("boats")
                # the row: the empty slots (some may have been emptied by forced steps after this
                # action) are filled in slot order from the top of the deck
                deck = list(d["deck"])
                if R.ARRANGE <= a < R.RAIJIN:         # fleet 3 put tiles back first (docs: ARRANGE)
                    k = min(3, len(deck))
                    perm = list(itertools.permutations(range(k + 1)))[a - R.ARRANGE]
                    cut = perm.index(k)
                    deck = [deck[x] for x in perm[:cut]] + deck[k:] + [deck[x] for x in perm[cut + 1:]]
                drawn = len(deck) - len(after["deck"])
                assert after["deck"] == deck[drawn:], (seed, stage, a)
                assert [t for k, t in enumerate(after["row"]) if t != d["row"][k]] == deck[:drawn]
                if -1 in after["row"]:
                    triggers.add("buildings")
                    assert after["deck"] == []
                assert after["slots"] == slots and after["slot_coins"] == coins and after["spec_deck"] == spec_deck
                assert set(after["triggers"]) == triggers | ({"round_cap"} if after["round"] >= 60 else set())
                taken = dict(enumerate(d["fleet_taken"]))
                if stage == "fleet":                  # the last pawn's fleet, and the rest forced
                    taken[d["order"][d["turn"]]] = a
                if not st.is_over():
                    assert after["order"] == sorted(taken, key=taken.get)
                    untaken = [f for f in d["track"] if not (stage == "fleet" and f == a)]
                    assert after["track"][:len(untaken)] == untaken and after["face_up"] == 5
                    assert sorted(after["track"][len(untaken):]) == sorted(taken.values())
                    assert after["fleet_taken"] == [0] * len(taken)
                else:
                    assert after["last_order"] == d["order"]
                seen["rounds"] += 1
        final = st.to_dict()
        assert st.is_over() and final["triggers"]
        exp = _expected_scores(cfg, final)
        assert st.scores() == exp
        first = [min(k for k, pw in enumerate(final["last_order"]) if final["pawn_owner"][pw] == p)
                 for p in range(players)]
        assert st.winner() == min(range(players), key=lambda p: (-exp["total"][p], first[p]))
        seen["games"] += 1
    assert all(v > 0 for v in seen.values()), seen


def test_the_board_is_read_from_its_file(load, engine, tmp_path):
    # Y-D40: engines read the graph from data. A board file where s01 is a sixth entry and s16 and
    # s17 are no longer connected changes the first boats and the chain accordingly.
    doc = json.loads((Y.DATA_DIR / "board.json").read_text())
    doc["sea"][1]["entry"] = "F"
    doc["sea"][16]["sea_neighbours"].remove(17)
    doc["sea"][17]["sea_neighbours"].remove(16)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(doc))
    d = (yamatai.new_game(3, 1, board=str(path)) if engine == "cython"
         else R.RefState.new(players=3, seed=1, board=str(path))).to_dict()
    for isl in d["islands"]:
        isl.update(token=-1, mountain=False)
    for position, changed in ((d, True), (base(), False)):
        st = load(turn(position, fleet=1, hand=(3, 0, 0, 0, 0)))
        assert (place(1, B) in st.legal_actions()) is changed
        st.apply(place(15, B))
        st.apply(place(16, B))
        assert st.to_dict()["hand"][B] == 1
        # with s16 - s17 cut, s16 has no empty neighbour left: placement ended by force
        assert (place(17, B) in st.legal_actions()) is not changed
        assert (st.stage == "place") is not changed
