"""Yamataï heuristic policy, presets and events."""
import numpy as np
import pytest

import strategies
from simcore import yamatai

PRESETS = ("balanced", "builder", "specialist_collector", "merchant")


def test_feature_names_match_the_kernel_and_are_documented():
    assert yamatai.FEATURES == yamatai.C_FEATURES
    for name in yamatai.FEATURES:
        assert len(yamatai.FEATURE_DOCS[name]) > 20
    w = dict.fromkeys(yamatai.FEATURES, 1.0)
    assert yamatai.policy_vector(w, 0.5, 0.1).tolist()[-2:] == [0.5, 0.1]
    with pytest.raises(ValueError, match="nope"):
        yamatai.policy_vector({**w, "nope": 1.0})
    with pytest.raises(ValueError, match="policy vector"):
        yamatai.play_batch(2, np.arange(2, dtype=np.uint64), [np.zeros(3), None])


@pytest.mark.parametrize("name", PRESETS)
def test_preset_beats_random_in_two_players(name):
    pol = strategies.resolve("yamatai", name).as_policy()
    seeds = np.random.SeedSequence(7).generate_state(200, np.uint64)
    a = yamatai.play_batch(2, seeds[0::2], [pol, None], events=False)["players"]["win_share"][:, 0]
    b = yamatai.play_batch(2, seeds[1::2], [None, pol], events=False)["players"]["win_share"][:, 1]
    assert np.concatenate([a, b]).mean() >= 0.9


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_batch_is_replayed_by_the_step_api(players):
    pol = strategies.resolve("yamatai", "balanced").with_noise(temperature=0.3, epsilon=0.05).as_policy()
    seeds = np.arange(6, dtype=np.uint64) + 50
    res = yamatai.play_batch(players, seeds, [pol] * players)
    for g in (0, 5):
        st = yamatai.replay_game(players, int(seeds[g]), [pol] * players)
        assert st.scores()["total"] == res["players"]["total"][g].tolist()
        ev = st.events()
        rows = res["events"]["game"] == g
        assert rows.sum() == len(ev["fleets"]) + len(ev["buildings"]) + len(ev["recruits"])


def test_events_columns():
    res = yamatai.play_batch(4, np.arange(20, dtype=np.uint64))
    ev = res["events"]
    assert ev["game"].dtype == np.int32
    fleets = ev["kind"] == 0
    # one fleet pick per pawn turn; fleet numbers 1..10
    assert set(np.unique(ev["a"][fleets])) <= set(range(1, 11))
    per_game = np.bincount(ev["game"][fleets], minlength=20)
    assert (per_game == res["games"]["rounds"] * 4).all()
    builds = ev["kind"] == 1
    assert np.bincount(ev["game"][builds], minlength=20).tolist() == res["players"]["buildings_built"].sum(1).tolist()
    pl = res["players"]
    assert pl["win_share"].dtype == np.float32 and (pl["win_share"].sum(1) == 1).all()
    assert sorted(pl["rank"][0].tolist()) == [1, 2, 3, 4]
