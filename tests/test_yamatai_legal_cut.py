"""The deterministic seats' legal-action variant (legal_actions_cut) against the full builder.

play_batch gives a seat whose choice is deterministic (heuristic, no temperature, no epsilon) only
the first two actions of the fleet 6/4/8 block outside stage post, and of fleet 6's and 8's swaps
in post: choose_action stops at the block's first action outside post and reads the swaps from the
position in post, and two keep an n == 1 forced step apart from a real choice. Over the positions of random and heuristic games, the cut list is exactly that prefix of the full list, and
choose_action picks the same action from either.
"""
import numpy as np
import pytest

import strategies
from simcore import yamatai
from simcore.yamatai import _engine

BLOCK = _engine.FLEET_ABILITY_BLOCK
SLIDE, SWAPBOATS = _engine.FLEET4_SLIDES, _engine.FLEET8_SWAPS
PRESETS = ("balanced", "builder", "specialist_collector", "merchant")


def _claimed_length(stage, full):
    if stage == "post" and not any(a >= BLOCK and not SLIDE <= a < SWAPBOATS for a in full):
        return len(full)
    before = sum(1 for a in full if a < BLOCK)
    return before + min(2, len(full) - before)


def _check_game(players, seed, policies, deciders):
    st = yamatai.new_game(players, seed)
    cut_positions = 0
    for a in yamatai.play_actions(players, seed, policies):
        full = st.legal_actions()
        for pol in deciders:
            got_full, cut, choice_full, choice_cut = _engine._legal_cut_check(st, pol)
            assert got_full == full
            assert cut == full[:_claimed_length(st.stage, full)], (
                f"seed {seed}, stage {st.stage}: the cut list is not the claimed prefix")
            assert choice_cut == choice_full, f"seed {seed}, stage {st.stage}: the choice differs"
        cut_positions += len(cut) < len(full)
        st.apply(a)
    return cut_positions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cut_list_is_the_claimed_prefix_and_the_choice_is_the_same(players):
    pols = [strategies.resolve("yamatai", name).as_policy() for name in PRESETS]
    seeds = [int(x) for x in np.random.SeedSequence(300 + players).generate_state(16, np.uint64)]
    cut_positions = 0
    for g, seed in enumerate(seeds):
        # random games reach odd positions, heuristic games the ones the kernel meets
        seats = [None] * players if g % 2 else [pols[(g // 2 + k) % len(pols)] for k in range(players)]
        cut_positions += _check_game(players, seed, seats, pols)
    assert cut_positions >= 20        # the fleet 6/4/8 block was cut often enough to test anything
