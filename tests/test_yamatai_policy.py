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


# ---------------------------------------------------------------- features from constructed positions

from tests.test_yamatai_rules import B, C, S06, W, base, boats, load, turn  # noqa: E402
from simcore.yamatai import reference as R  # noqa: E402

F = {name: k for k, name in enumerate(yamatai.FEATURES)}


def _feature(st, action, name):
    return yamatai.action_feature_values(st, action)[F[name]]


def test_ability_build_scores_the_fleet8_swap_that_makes_a_build():
    # I24 touches s46 B, s47 C, s56 W, s60: S06 (B B W) lacks one bamboo. Swapping this turn's
    # bamboo on s00 with the clay on s47 puts a marked bamboo next to I24: S06 becomes buildable.
    d = boats(base(), s0=B, s47=C, s46=B, s56=W)
    d["row"] = [S06, -1, -1, -1, -1]
    st = load(turn(d, stage="post", fleet=8, marked=[0]))
    swap = R.SWAPBOATS + 128 * 0 + 47
    assert swap in st.legal_actions() and R.PASS in st.legal_actions()     # no build before the swap
    assert _feature(st, swap, "ability_build") == 2.0                      # S06's PP
    assert _feature(st, R.SWAPBOATS + 128 * 0 + 46, "ability_build") == 0.0   # the mark moves, no build
    assert _feature(st, R.SWAPBOATS + 128 * 46 + 56, "ability_build") == 0.0  # recolours, no mark near
    st.apply(swap)          # the build is then the only legal action: applied as a forced step
    assert st.to_dict()["islands"][24]["building"] == 0 and st.to_dict()["built"][0] == [S06]


def test_ability_tokens_counts_the_tokens_a_swap_brings_within_reach():
    d = boats(base(), s0=B, s47=C)
    d["islands"][18]["token"] = 4
    d["islands"][24]["token"] = 1
    st = load(turn(d, stage="post", fleet=8, marked=[0]))
    # one marked boat: at most one token, whatever the islands next to it (E15's position)
    assert _feature(st, R.SWAPBOATS + 47, "ability_tokens") == 1.0
    assert _feature(st, R.SWAPBOATS + 47, "ability_build") == 0.0


def test_token_swap_values_the_token_moved_next_to_this_turns_boats():
    d = boats(base(), s0=B)
    d = turn(d, stage="post", fleet=6, marked=[0])        # far tokens of type 5 on I30 and I33
    d["islands"][2]["token"] = 1                          # I02, next to s00
    d["islands"][30]["token"] = 3
    d["tokens"][0] = [0, 2, 0, 1, 0, 0]                   # a 2nd type-1 token is worth 0, a 2nd type 3 is a pair
    st = load(d)
    assert _feature(st, R.SWAPTOK + 64 * 2 + 30, "token_swap") == 1.0
    assert _feature(st, R.SWAPTOK + 64 * 2 + 33, "token_swap") == 0.5     # type 5: a new type
    assert _feature(st, R.SWAPTOK + 64 * 30 + 33, "token_swap") == 0.0    # neither next to s00


def test_peek_top_is_the_pp_of_the_tile_left_on_top():
    d = turn(base(), fleet=3, hand=(1, 0, 0, 0, 0))
    st = load(d)
    deck = st.to_dict()["deck"]
    tiles = st.config.tiles
    import itertools
    for a, perm in enumerate(itertools.permutations(range(4))):
        want = 0.0 if perm[0] == 3 else tiles[deck[perm[0]]].pp / 5.0
        assert _feature(st, R.ARRANGE + a, "peek_top") == want


def test_fleet_fit_gives_fleets_9_and_10_a_boat_of_slack():
    d = turn(base(), fleet=1)
    d["stage"] = "fleet"
    d["turn_state"]["fleet"] = 0
    d["fleet_taken"] = [0] * len(d["fleet_taken"])
    d["track"] = [9, 10, 2, 1, 3, 4, 5, 6, 7, 8]
    d["face_up"] = 5
    d["hand"] = [0, 0, 0, 0, 0]
    d["row"] = [S06, -1, -1, -1, -1]                      # B B W, 2 PP
    st = load(d)
    assert st.stage == "fleet"
    # fleet 2 (W): lacks B B -> 2 / 3; fleet 9 (W S) lacks B B, less 1 -> 2 / 2; fleet 1 (B): 2 / 3
    assert _feature(st, 2, "fleet_fit") == pytest.approx(2 / 3 / 5)
    assert _feature(st, 9, "fleet_fit") == pytest.approx(2 / 2 / 5)
    assert _feature(st, 10, "fleet_fit") == pytest.approx(2 / 2 / 5)      # W C + one free boat
    assert _feature(st, 1, "fleet_fit") == pytest.approx(2 / 3 / 5)


@pytest.mark.parametrize("players", [2, 4])
def test_kernel_plays_the_first_best_action_of_the_features(players):
    """The kernel's sparse, cached scoring equals w . features (policy_features, no cache) at every
    decision: the first action of highest score is the one play_batch took."""
    weights = dict(strategies.resolve("yamatai", "balanced").weights)
    pol = yamatai.policy_vector(weights)
    w = [weights[name] for name in yamatai.FEATURES]
    seen = set()
    for seed in (3, 11):
        acts = yamatai.play_actions(players, seed, [pol] * players)
        st = yamatai.new_game(players, seed)
        for a in acts:
            legal = st.legal_actions()
            best, arg = -1e300, None
            for x in legal:
                f = yamatai.action_feature_values(st, x)
                sc = 0.0
                for k in range(len(w)):
                    sc += w[k] * f[k]
                if sc > best:
                    best, arg = sc, x
            assert arg == a, f"seed {seed}: kernel took {a}, the features say {arg}"
            seen.add(st.to_dict()["turn_state"]["fleet"] if st.stage == "post" else 0)
            st.apply(a)
    assert {4, 6, 8} <= seen       # the fleet-ability features were exercised in post


def test_every_feature_is_documented_in_the_engine_doc():
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs" / "yamatai_engine.md").read_text(encoding="utf-8")
    for name in yamatai.FEATURES:
        assert f"| `{name}` |" in doc, name


def test_tune_runs_for_yamatai_with_its_own_default_field(tmp_path):
    from strategies import tune
    assert tune.default_field("yamatai") == "balanced,builder,specialist_collector,merchant"
    res = tune.cem("yamatai", players=3, budget=300, population=4, games=24, seed=2, log=lambda *a: None)
    assert res["field"] == ["balanced", "builder", "specialist_collector", "merchant"]
    assert res["n"] >= 30 and 0 <= res["win_share"] <= 1 and res["wins"] == pytest.approx(res["win_share"] * res["n"])
    res["ci"] = (0.0, 1.0)       # what the CLI adds (Wilson) before writing; any interval writes
    s = strategies.resolve("yamatai", str(tune.write_preset(tmp_path / "yamatai_t.toml", "t", res, "yamatai")))
    assert s.weights == res["weights"]
