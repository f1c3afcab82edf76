"""Yamataï rule tests: the worked examples of the spec (§13, E1–E15), every fleet ability and
every specialist, each from a constructed position (``from_dict``), on both engines: the Cython
``State`` and the reference ``RefState`` (the ``engine`` fixture parametrizes every test).

Ids: islands ``I..`` and sea spaces ``s..`` are those of ``board.json`` (spec §14.5);
building tiles are indices in ``buildings.json`` (S01 = 0 … S21 = 20, T1 = 21 … P4 = 27);
specialists are ids of ``specialists.json``. The action encoding is docs/yamatai_engine.md.
"""
import pytest

from simcore import yamatai
from simcore.yamatai import reference as R

B, W, S, C, G = range(5)
S01, S02, S06, S09, S10, S13, T1, P1 = 0, 1, 5, 8, 9, 12, 21, 24
(AMATERASU, IZANAGI, RAIJIN, ANANDA, IZANAMI, RIU, AWASHIMA, KACHIKO, SUSANOO, EBISU, KAGUTSUCHI,
 TOMOE, FU_HSI, MICHIMATA, TOYO_TAMA, HETSUKA, NAKATSU, YASOMA) = range(18)


def place(s, c):
    return R.PLACE + 5 * s + c


def build(t, i):
    return R.BUILD + 64 * t + i


def base(players=3, seed=1):
    """A new game's position with no culture tokens and no mountains: a clean board."""
    d = yamatai.new_game(players, seed).to_dict()
    for isl in d["islands"]:
        isl.update(token=-1, mountain=False)
    return d


def turn(d, stage="pre", fleet=1, hand=(0, 0, 0, 0, 0), far=True, **ts):
    """Put the current pawn in ``stage`` of its turn, having taken ``fleet``.

    With fleet 6 and ``far``, two culture tokens lie on far islands (I30, I33) so that
    fleet 6's swap keeps every window a real decision (no forced steps end the turn).
    """
    if fleet == 6 and far:
        d["islands"][30]["token"] = 5
        d["islands"][33]["token"] = 5
    d["stage"] = stage
    d["hand"] = list(hand)
    pawn = d["order"][d["turn"]]
    d["fleet_taken"][pawn] = fleet
    if fleet in d["track"]:
        if d["track"].index(fleet) < d["face_up"]:
            d["face_up"] -= 1
        d["track"].remove(fleet)
    if "marked" in ts:
        d["marked"] = ts.pop("marked")
    d["turn_state"].update(fleet=fleet, ev_fleet=[fleet, 0, 0, 0], **ts)
    return d


def boats(d, **where):
    """``boats(d, s19=C)``: put boats on the board (placed in earlier turns)."""
    for key, col in where.items():
        d["sea"][int(key[1:])] = col
    return d


ENGINES = {"cython": yamatai.State.from_dict, "reference": R.RefState.from_dict}
_load = ENGINES["cython"]


@pytest.fixture(autouse=True, params=list(ENGINES))
def engine(request):
    """Every test of this file runs on both engines: ``load`` builds the position in either."""
    global _load
    _load = ENGINES[request.param]
    yield request.param
    _load = ENGINES["cython"]


def load(d):
    return _load(d)


def test_e1_fleet5_gives_gold_and_a_sacred_site():
    d = base()
    d["track"] = [5, 1, 2, 3, 4, 6, 7, 8, 9, 10]
    st = load(d)
    gold = st.to_dict()["supply"]["boats"][G]
    st.apply(5)
    after = st.to_dict()
    assert after["hand"] == [0, 0, 0, 0, 1] and after["supply"]["boats"][G] == gold - 1
    legal = st.legal_actions()
    empties = [i for i, x in enumerate(after["islands"]) if x["token"] < 0]
    assert [a - R.SACRED for a in legal if R.SACRED <= a < R.KACHIKO] == empties
    st.apply(R.SACRED + 7)
    assert st.to_dict()["islands"][7]["sacred"] and st.to_dict()["supply"]["sacred"] == 7
    assert not any(R.SACRED <= a < R.KACHIKO for a in st.legal_actions())   # once per turn


def test_e2_buy_wood_then_no_second_transaction():
    st = load(turn(base(), fleet=1, hand=(1, 0, 0, 0, 0)))
    before = st.to_dict()
    st.apply(R.BUY + W)
    d = st.to_dict()
    assert d["coins"][0] == before["coins"][0] - 2
    assert d["supply"]["boats"][W] == before["supply"]["boats"][W] - 1 and d["hand"][W] == 1
    assert not any(R.BUY <= a < R.KEEP for a in st.legal_actions())


def test_e3_chain_entry_and_anchor():
    st = load(turn(base(), fleet=9, hand=(0, 1, 1, 0, 0)))
    st.apply(place(15, S))
    assert place(16, W) in st.legal_actions()
    st.apply(place(16, W))
    # next turn, another player: wood on s17 (anchor s16), then bamboo on s18; no bamboo first on s17
    d = st.to_dict()
    d = turn(d, fleet=6, hand=(1, 1, 0, 0, 0), transactions=1, last=-1)
    d["turn"] = 1
    d["marked"] = []
    st2 = load(turn(d, fleet=6, hand=(1, 1, 0, 0, 0)))
    legal = st2.legal_actions()
    assert place(17, W) in legal and place(17, B) not in legal
    st2.apply(place(17, W))
    assert place(18, B) in st2.legal_actions()


def _e4(with_i11=True):
    d = boats(base(), s15=B, s16=W)
    d["islands"][12]["token"] = 3
    if with_i11:
        d["islands"][11]["token"] = 1
    return load(turn(d, stage="post", fleet=6, marked=[15, 16]))


def test_e4_collect_matching():
    st = _e4()
    assert R.COLLECT + 11 in st.legal_actions() and R.COLLECT + 12 in st.legal_actions()
    assert R.PASS not in st.legal_actions()            # 3b is mandatory
    st.apply(R.COLLECT + 11)
    assert R.COLLECT + 12 in st.legal_actions()        # s15 -> I11, s16 -> I12
    st.apply(R.COLLECT + 12)
    assert st.to_dict()["tokens"][0][1] == 1 and st.to_dict()["tokens"][0][3] == 1
    st2 = _e4(with_i11=False)
    st2.apply(R.COLLECT + 12)
    assert st2.stage == "after"                         # I12 touches only s16: nothing more to collect


def test_e4_matching_blocks_a_second_token_on_one_boat():
    d = boats(base(), s16=W)
    d["islands"][3]["token"] = 0
    d["islands"][12]["token"] = 2
    st = load(turn(d, stage="post", fleet=6, marked=[16]))
    st.apply(R.COLLECT + 3)
    assert st.stage == "after"                          # one boat, one token: the collect ended (forced stop)


def test_e5_build_s10_on_i15():
    d = boats(base(), s19=C)
    d["row"][0] = S10
    st = load(turn(d, fleet=8, hand=(2, 0, 0, 1, 0)))
    for a in (place(25, C), place(26, B), place(36, B)):   # the hand is then empty: placement ends
        st.apply(a)
    assert build(S10, 15) in st.legal_actions()
    st.apply(build(S10, 15))
    d = st.to_dict()
    assert d["islands"][15]["building"] == 0 and d["built"][0] == [S10]
    assert d["sea"][25] == C and d["sea"][26] == B and d["sea"][36] == B   # the boats stay


def _built_on(d, seat, island, tile):
    d["islands"][island]["building"] = seat
    d["built"][seat].append(tile)
    d["pieces"][seat] -= 1


def _e6(tile_on_i03, tile_on_i02=S02):
    d = boats(base(), s17=B, s16=W, s1=W, s2=B)
    _built_on(d, 0, 2, tile_on_i02)
    _built_on(d, 0, 4, S13)
    d["row"][0] = tile_on_i03
    st = load(turn(d, stage="post", fleet=6, marked=[17]))
    coins = st.to_dict()["coins"][0]
    st.apply(build(tile_on_i03, 3))
    return st.to_dict()["coins"][0] - coins


def test_e6_group_coins_and_trading_post():
    assert _e6(S06) == 3           # S06 = B B W, not a trading post
    assert _e6(S01) == 6           # S01 = B W, a trading post: doubled
    assert _e6(S06, tile_on_i02=S01) == 3   # an older trading post in the group has no effect


def test_e7_torii_and_mountain():
    d = boats(base(), s47=S, s48=W, s60=B, s61=B)
    d["islands"][24]["building"] = "torii"
    d["built"][1].append(T1)
    d["islands"][25]["mountain"] = True
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[60]))
    st.apply(build(S06, 25))
    assert st.to_dict()["pp_tokens"][0] == 2


def test_e8_port_keeps_one_and_sets_aside_the_rest():
    d = turn(base(), stage="port", fleet=1, hand=(1, 0, 0, 0, 1))
    st = load(d)
    assert st.legal_actions() == [R.PASS, R.KEEP + B, R.KEEP + G]
    st.apply(R.KEEP + G)
    d = st.to_dict()
    assert d["port"][0] == [0, 0, 0, 0, 1] and d["set_aside"][0] == 1
    assert st.scores()["set_aside"][0] == 0
    d["set_aside"][0] = 2
    d = turn(d, stage="recruit", fleet=1)
    assert load(d).scores()["set_aside"][0] == -1


def _recruit(izanami_owner):
    d = base()
    d["tokens"][0] = [1, 1, 1, 0, 0, 0]
    d["slots"][0] = YASOMA
    d["slot_coins"][0] = 4
    if izanami_owner is not None:
        d["spec_owner"][IZANAMI] = izanami_owner
    st = load(turn(d, stage="recruit", fleet=1))
    before = st.to_dict()["coins"]
    st.apply(R.RECRUIT + 26 * 0 + 6)    # payment 6 = types 0, 1, 2
    after = st.to_dict()
    return [a - b for a, b in zip(after["coins"], before)], after


def test_e9_recruit_takes_the_coins_and_izanami_shares():
    gain, d = _recruit(None)
    assert gain[0] == 4 and d["tokens"][0] == [0] * 6 and d["spec_owner"][YASOMA] == 0
    gain, _ = _recruit(2)
    assert gain[0] == 2 and gain[2] == 2
    gain, _ = _recruit(0)               # the recruiter owns Izanami: nothing shared
    assert gain[0] == 4


def _e10(coins):
    d = boats(base(), s11=B, s12=W, s22=B)
    _built_on(d, 1, 13, S02)
    d["spec_owner"][ANANDA] = 1
    d["coins"][0] = coins
    d["row"][0] = S06
    return load(turn(d, stage="post", fleet=6, marked=[22]))


def test_e10_ananda_toll():
    assert build(S06, 9) not in _e10(1).legal_actions()
    st = _e10(2)
    st.apply(build(S06, 9))
    d = st.to_dict()
    assert d["coins"][0] == 0 and d["coins"][1] == 12


def test_e11_kagutsuchi_isolated_building():
    d = boats(base(), s25=B, s26=B, s36=W)
    d["spec_owner"][KAGUTSUCHI] = 0
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[25]))
    st.apply(build(S06, 15))
    assert st.to_dict()["pp_tokens"][0] == 1


def _scoring(extra=None):
    d = base()
    d["coins"][0], d["pp_tokens"][0], d["set_aside"][0] = 23, 5, 5
    d["built"][0] = [R_TILE[3], R_TILE[4], R_TILE[6]]
    d["spec_owner"][RAIJIN] = 0        # 2 PP
    d["spec_owner"][RIU] = 0           # 3 PP
    d["reserved"][0] = [R_TILE["r"]]
    d["row"] = [-1 if t == R_TILE["r"] else t for t in d["row"]]
    d["deck"] = [t for t in d["deck"] if t not in d["built"][0] + d["reserved"][0]]
    if extra is not None:
        d["spec_owner"][extra] = 0
    return load(d).scores()


# tiles with PP 3, 4 and 6, and one more to reserve (S02 = 3, S04 = 4, S21 = 6, S13)
R_TILE = {3: 1, 4: 3, 6: 20, "r": 12}


def test_e12_scoring():
    sc = _scoring()
    assert [sc[k][0] for k in yamatai.SCORE_CATEGORIES] == [4, 5, 13, 5, -1, -2] and sc["total"][0] == 24
    assert _scoring(FU_HSI)["total"][0] == 28
    assert _scoring(AMATERASU)["total"][0] == 30


def test_e13_tie_break_by_the_last_round_played():
    d = base()
    d["coins"] = [0, 0, 0]
    d["built"] = [[1, 3], [0], [1 + 2, 1]]      # seat 0: 3 + 4, seat 1: 1, seat 2: 4 + 3
    d["built"][2] = [12, 1]                      # S13 (4) + S02 (3)
    d["last_order"] = [1, 2, 0]                  # P2 1st, P3 2nd, P1 3rd
    d["order"] = [1, 2, 0]
    d["fleet_taken"] = [2, 4, 9]                 # E13b: the fleets taken would put P1 first
    d["stage"] = "over"
    d["triggers"] = ["boats"]
    st = load(d)
    assert st.scores()["total"][0] == st.scores()["total"][2]
    assert st.winner() == 2


def test_e14_fleet_track_refresh_as_a_queue():
    d = base(players=4, seed=3)
    d["track"] = [3, 7, 1, 9, 5, 2, 10, 4, 6, 8]
    st = load(d)
    for f in (3, 1, 9, 5):
        assert f in st.legal_actions()
        st.apply(f)
        while st.stage != "fleet" and not st.is_over():
            st.apply(R.PASS if R.PASS in st.legal_actions() else st.legal_actions()[0])
    d = st.to_dict()
    assert d["track"][:6] == [7, 2, 10, 4, 6, 8] and sorted(d["track"][6:]) == [1, 3, 5, 9]
    assert d["face_up"] == 5
    assert [d["fleet_taken"][p] for p in d["order"]] == [0, 0, 0, 0]
    owner_by_fleet = {3: 0, 1: 1, 9: 2, 5: 3}
    assert d["order"] == [owner_by_fleet[f] for f in (1, 3, 5, 9)]


def test_e15_fleet8_swap_carries_the_mark():
    d = boats(base(), s0=B, s47=C)
    d["islands"][18]["token"] = 4
    d["islands"][24]["token"] = 1
    st = load(turn(d, stage="post", fleet=8, marked=[0]))
    assert R.PASS in st.legal_actions() and R.COLLECT + 18 not in st.legal_actions()
    st.apply(R.SWAPBOATS + 128 * 0 + 47)
    d = st.to_dict()
    assert d["marked"] == [47] and d["sea"][47] == B and d["sea"][0] == C
    assert st.legal_actions() == [R.COLLECT + 18, R.COLLECT + 24]       # 3b is now mandatory


def test_e15_variant_same_colour_swap():
    d = boats(base(), s0=B, s47=B)
    d["islands"][18]["token"] = 4
    d["islands"][24]["token"] = 1
    st = load(turn(d, stage="post", fleet=8, marked=[0]))
    st.apply(R.SWAPBOATS + 47)
    assert st.to_dict()["marked"] == [47] and R.COLLECT + 18 in st.legal_actions()


# ---------------------------------------------------------------- fleets

def test_fleet1_has_no_ability_and_leads_next_round():
    d = turn(base(), fleet=1, hand=(1, 0, 0, 0, 0))
    st = load(d)
    ability = [(R.RESERVE, R.COLLECT),                 # fleet 2 reserve, fleet 3 arrangements
               (R.SACRED, R.SACRED + 64),              # fleet 5
               (R.REMOVE, R.PLACE),                    # fleet 7
               (R.SWAPTOK, 1 << 30)]                   # fleets 6, 4, 8 (token swap, slide, boat swap)
    legal = st.legal_actions()
    assert legal and not [a for a in legal if any(lo <= a < hi for lo, hi in ability)]
    # the same position with fleet 2 does offer its ability: the check sees ability actions
    assert any(R.RESERVE <= a < R.RESERVE + 5 for a in load(turn(base(), fleet=2, hand=(1, 0, 0, 0, 0)))
               .legal_actions())


def _fleet2(**ts):
    d = boats(base(), s25=B, s26=B, s36=W)
    d["row"][0] = S06
    return load(turn(d, stage="post", **ts))


def test_fleet2_reserve_is_not_buildable_this_turn_and_costs_at_the_end():
    st = _fleet2(fleet=2, marked=[25])
    assert build(S06, 15) in st.legal_actions()
    st.apply(R.RESERVE + 0)
    d = st.to_dict()
    assert d["reserved"][0] == [S06] and d["row"][0] == -1 and st.scores()["reserved"][0] == -1
    # the same turn: not buildable (here the turn then ended by force: nothing else was possible)
    st = _fleet2(fleet=6, marked=[25], reserved_now=[S06])
    d = st.to_dict()
    d["row"][0], d["reserved"][0] = -1, [S06]
    d["turn_state"]["reserved_now"] = [S06]
    assert build(S06, 15) not in load(d).legal_actions()
    d["turn_state"]["reserved_now"] = []                  # a later turn
    st = load(d)
    st.apply(build(S06, 15))
    assert st.scores()["reserved"][0] == 0 and st.to_dict()["reserved"][0] == []


def test_fleet3_arrange_top_and_bottom():
    d = turn(base(), fleet=3)
    deck = d["deck"]
    st = load(d)
    arr = [a - R.ARRANGE for a in st.legal_actions() if R.ARRANGE <= a < R.RAIJIN]
    assert arr == list(range(24))
    # permutation (2, 3, 0, 1): tile 2 on top, then the divider; tiles 0 and 1 to the bottom
    k = R.arrangements(3).index((2, 3, 0, 1))
    st.apply(R.ARRANGE + k)
    assert st.to_dict()["deck"] == [deck[2]] + deck[3:] + [deck[0], deck[1]]


def test_fleet4_slide_moves_a_boat_and_its_mark():
    d = boats(base(), s16=W)
    d["islands"][4]["token"] = 2          # I04 touches s17, not s16
    st = load(turn(d, stage="post", fleet=4, marked=[16]))
    slides = [a for a in st.legal_actions() if R.SLIDE <= a < R.SWAPBOATS]
    assert slides == [R.SLIDE + 128 * 16 + t for t in (15, 17)]
    st.apply(R.SLIDE + 128 * 16 + 17)
    d = st.to_dict()
    assert d["sea"][16] == -1 and d["sea"][17] == W
    assert d["tokens"][0][2] == 1         # the mark moved to s17: I04 was collected (by force, the only choice)


def test_fleet5_sacred_site_blocks_building():
    d = boats(base(), s25=B, s26=B, s36=W)
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=5, marked=[25]))
    st.apply(R.SACRED + 15)
    assert build(S06, 15) not in st.legal_actions()


def test_fleet6_swap_tokens():
    d = base()
    d["islands"][3]["token"] = 1
    d["islands"][30]["token"] = 5
    d["islands"][30]["mountain"] = True
    st = load(turn(d, fleet=6, far=False))
    assert [a for a in st.legal_actions() if R.SWAPTOK <= a < R.SLIDE] == [R.SWAPTOK + 64 * 3 + 30]
    st.apply(R.SWAPTOK + 64 * 3 + 30)
    d = st.to_dict()
    assert d["islands"][3]["token"] == 5 and d["islands"][30]["token"] == 1 and d["islands"][30]["mountain"]


def test_fleet7_removes_up_to_two_boats():
    d = boats(base(), s16=W, s40=C, s50=B)
    st = load(turn(d, fleet=7))
    supply = st.to_dict()["supply"]["boats"]
    st.apply(R.REMOVE + 16)
    assert st.stage == "remove" and st.legal_actions() == [R.PASS, R.REMOVE + 40, R.REMOVE + 50]
    st.apply(R.REMOVE + 40)
    d = st.to_dict()
    assert st.stage == "pre" and d["sea"][16] == -1 and d["sea"][40] == -1
    assert d["supply"]["boats"][W] == supply[W] + 1 and d["supply"]["boats"][C] == supply[C] + 1
    assert not any(R.REMOVE <= a < R.PLACE for a in st.legal_actions())


def test_fleet9_build_with_one_boat_missing():
    d = boats(base(), s25=B, s26=B)
    d["row"][0] = S06
    assert build(S06, 15) not in load(turn(dict(d), stage="post", fleet=6, marked=[25])).legal_actions()
    d = boats(base(), s25=B, s26=B)
    d["row"][0] = S06
    assert build(S06, 15) in load(turn(d, stage="post", fleet=9, marked=[25])).legal_actions()



def _fleet9_pick(d, a):
    """Play ``a`` in stage post with fleet 9 (the boat on s25 placed this turn; None: nothing to
    play, the forced steps end the turn), pass to the end of the turn and return the turn's fleet
    pick event."""
    n = len(d["events"]["fleets"])
    st = load(turn(d, stage="post", fleet=9, marked=[25]))
    if a is not None:
        st.apply(a)
    for _ in range(5):
        if len(st.to_dict()["events"]["fleets"]) > n:
            break
        assert R.PASS in st.legal_actions()
        st.apply(R.PASS)
    ev = st.to_dict()["events"]["fleets"]
    assert len(ev) == n + 1 and ev[n]["fleet"] == 9
    return ev[n]


def test_fleet9_ability_used_only_by_a_build_that_lacks_a_boat():
    # S06 needs B B W. With B B next to I15 the build lacks the W: the discount is used
    d = boats(base(), s25=B, s26=B)
    d["row"][0] = S06
    assert _fleet9_pick(d, build(S06, 15))["ability_used"] is True
    # with the W there too the build needs no discount: not used
    d = boats(base(), s25=B, s26=B, s36=W)
    d["row"][0] = S06
    assert _fleet9_pick(d, build(S06, 15))["ability_used"] is False
    # no build at all: not used
    d = boats(base(), s25=B, s26=B)
    d["row"][0] = S06
    st = load(turn(dict(d), stage="post", fleet=9, marked=[25]))
    assert R.PASS not in st.legal_actions()             # a build is possible: step 3b is mandatory
    d["row"] = [-1] * 5                                 # nothing to build: the turn passes
    assert _fleet9_pick(d, None)["ability_used"] is False


def test_fleet9_ability_used_in_play_batch_events_has_a_build():
    """play_batch: a fleet 9 pick marked used always has a building of that seat in that round."""
    import numpy as np
    import strategies
    pol = strategies.resolve("yamatai", "balanced").as_policy()
    for players in (2, 4):
        res = yamatai.play_batch(players, np.arange(60, dtype=np.uint64), [pol] * players, events=True)
        ev = res["events"]
        rows = list(zip(*(ev[k].tolist() for k in ("game", "kind", "round", "seat", "a", "c"))))
        builds = {(g, r, p) for g, k, r, p, _, _ in rows if k == 1}
        used = [(g, r, p) for g, k, r, p, a, c in rows if k == 0 and a == 9 and c]
        assert used and all(u in builds for u in used)
        assert all(c in (0, 1) for g, k, r, p, a, c in rows if k == 0)


def test_fleet10_extra_boat_is_optional():
    d = base()
    d["track"] = [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    st = load(d)
    st.apply(10)
    assert st.stage == "fleet10" and st.legal_actions() == [R.PASS] + [R.TAKE + c for c in range(5)]
    st.apply(R.TAKE + G)
    assert st.to_dict()["hand"] == [0, 1, 0, 1, 1]
    d["track"] = [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    st = load(d)
    st.apply(10)
    st.apply(R.PASS)
    assert st.to_dict()["hand"] == [0, 1, 0, 1, 0]


def test_fleet10_ability_used_is_the_extra_boat_taken():
    for first, taken in ((R.TAKE + G, True), (R.PASS, False)):
        d = base()
        d["track"] = [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        st = load(d)
        st.apply(10)
        st.apply(first)
        for _ in range(12):                          # pass to the end of the turn: the pick is then logged
            if st.to_dict()["events"]["fleets"]:
                break
            st.apply(R.PASS if R.PASS in st.legal_actions() else st.legal_actions()[0])
        ev = st.to_dict()["events"]["fleets"]
        assert len(ev) == 1 and ev[0]["fleet"] == 10
        assert ev[0]["extra_boat"] is taken and ev[0]["ability_used"] is taken
        assert ev[0]["boats"] == 2 + taken           # C W, plus the extra boat


# ---------------------------------------------------------------- specialists

def _owned(spec, stage="pre", fleet=1, hand=(0, 0, 0, 0, 0), d=None, **ts):
    d = d or base()
    d["spec_owner"][spec] = 0
    return load(turn(d, stage=stage, fleet=fleet, hand=hand, **ts))


def test_amaterasu_doubles_pp_tokens():
    d = base()
    d["pp_tokens"][0] = 3
    d["spec_owner"][AMATERASU] = 0
    assert load(d).scores()["pp_tokens"][0] == 6


def test_izanagi_two_transactions():
    d = base()
    d["spec_owner"][IZANAGI] = 0
    # the last pawn of round 1 ends its turn; round 2 starts with seat 0 (fleet 1)
    d["turn"], d["stage"], d["fleet_taken"] = 2, "recruit", [1, 5, 7]
    d["track"], d["face_up"] = [2, 3, 4, 6, 8, 9, 10], 2
    st = load(d)
    assert st.round == 1 and st.current_player() == 0
    assert st.to_dict()["turn_state"]["transactions"] == 2
    st.apply(st.to_dict()["track"][0])
    while st.stage != "pre":
        st.apply(R.PASS)
    st.apply(R.BUY + B)
    assert R.BUY + B in st.legal_actions()
    st.apply(R.SELL + B)
    assert not any(R.BUY <= a < R.KEEP for a in st.legal_actions())


def test_raijin_two_boats_for_gold():
    st = _owned(RAIJIN, hand=(1, 0, 1, 0, 0))
    assert [a for a in st.legal_actions() if R.RAIJIN <= a < R.NAKATSU] == [R.RAIJIN + 5 * B + S]
    st.apply(R.RAIJIN + 5 * B + S)
    assert st.to_dict()["hand"] == [0, 0, 0, 0, 1]


def test_ananda_owner_builds_freely():
    d = boats(base(), s11=B, s12=W, s22=B)
    _built_on(d, 0, 13, S02)
    d["coins"][0] = 0
    d["row"][0] = S06
    st = _owned(ANANDA, stage="post", fleet=6, d=d, marked=[22])
    assert build(S06, 9) in st.legal_actions()


def test_izanami_keeps_half():
    gain, _ = _recruit(1)
    assert gain == [2, 2, 0]


def test_riu_port_of_three():
    st = _owned(RIU, stage="port", hand=(2, 1, 1, 0, 0))
    for a in (R.KEEP + B, R.KEEP + B, R.KEEP + W):
        st.apply(a)
    d = st.to_dict()
    assert d["port"][0] == [2, 1, 0, 0, 0] and d["set_aside"][0] == 1


def test_awashima_prestige_bonuses():
    d = boats(base(), s1=W, s2=G, s16=B, s17=B)
    _built_on(d, 0, 2, S02)      # group {I02}
    _built_on(d, 0, 4, S13)      # group {I04}
    d["islands"][3]["mountain"] = True
    d["row"][0] = T1
    st = _owned(AWASHIMA, stage="post", fleet=6, d=d, marked=[16])
    st.apply(build(T1, 3))
    d = st.to_dict()
    assert d["coins"][0] == 10 + 3 and d["pp_tokens"][0] == 1 and d["islands"][3]["building"] == "torii"


def test_awashima_absent_prestige_gives_nothing():
    d = boats(base(), s1=W, s2=G, s16=B, s17=B)
    _built_on(d, 0, 2, S02)
    d["row"][0] = T1
    st = load(turn(d, stage="post", fleet=6, marked=[16]))
    st.apply(build(T1, 3))
    assert st.to_dict()["coins"][0] == 10 and st.to_dict()["pp_tokens"][0] == 0


def test_kachiko_removes_a_sacred_site():
    d = base()
    d["islands"][15]["sacred"] = True
    d["supply"]["sacred"] = 7
    st = _owned(KACHIKO, d=d)
    st.apply(R.KACHIKO + 15)
    d = st.to_dict()
    assert not d["islands"][15]["sacred"] and d["supply"]["sacred"] == 8 and d["coins"][0] == 8


def test_susanoo_sale_prices():
    st = _owned(SUSANOO, hand=(0, 0, 1, 0, 0))
    st.apply(R.SELL + S)
    assert st.to_dict()["coins"][0] == 16


def test_ebisu_extra_token_from_anywhere():
    d = boats(base(), s16=W)
    d["islands"][3]["token"] = 0
    d["islands"][30]["token"] = 4
    st = _owned(EBISU, stage="post", fleet=6, d=d, marked=[16], far=False)
    assert not any(R.EBISU <= a < R.SACRED for a in st.legal_actions())
    st.apply(R.COLLECT + 3)
    assert st.legal_actions() == [R.PASS, R.EBISU + 30]
    st.apply(R.EBISU + 30)
    assert st.to_dict()["tokens"][0] == [1, 0, 0, 0, 1, 0]


def test_kagutsuchi_not_next_to_own_building():
    d = boats(base(), s17=B, s16=W, s1=W, s2=B)
    _built_on(d, 0, 2, S02)
    d["row"][0] = S06
    st = _owned(KAGUTSUCHI, stage="post", fleet=6, d=d, marked=[17])
    st.apply(build(S06, 3))
    assert st.to_dict()["pp_tokens"][0] == 0


def test_tomoe_gold_trade():
    st = _owned(TOMOE, hand=(0, 0, 0, 0, 1))
    assert R.BUY + G in st.legal_actions() and R.SELL + G in st.legal_actions()
    st.apply(R.SELL + G)
    assert st.to_dict()["coins"][0] == 15
    assert R.SELL + G not in load(turn(base(), hand=(0, 0, 0, 0, 1))).legal_actions()


def test_fu_hsi_coins_per_three():
    d = base()
    d["coins"][0] = 14
    d["spec_owner"][FU_HSI] = 0
    assert load(d).scores()["coins"][0] == 4


def test_michimata_token_for_gold():
    d = base()
    d["tokens"][0][2] = 1
    st = _owned(MICHIMATA, d=d)
    st.apply(R.MICHIMATA + 2)
    assert st.to_dict()["tokens"][0][2] == 0 and st.to_dict()["hand"][G] == 1


def test_toyo_tama_edge_entries():
    d = base()
    plain = load(turn(base(), hand=(1, 0, 0, 0, 0)))
    assert place(8, B) not in plain.legal_actions()
    st = _owned(TOYO_TAMA, d=d, hand=(1, 0, 0, 0, 0))
    assert place(8, B) in st.legal_actions() and place(9, B) not in st.legal_actions()


def test_hetsuka_token_for_coins():
    d = base()
    d["tokens"][0][5] = 1
    st = _owned(HETSUKA, d=d)
    st.apply(R.HETSUKA + 5)
    assert st.to_dict()["coins"][0] == 14


def test_nakatsu_gold_for_two_boats():
    st = _owned(NAKATSU, hand=(0, 0, 0, 0, 1))
    assert len([a for a in st.legal_actions() if R.NAKATSU <= a < R.MICHIMATA]) == 10
    st.apply(R.NAKATSU + 5 * S + S)
    assert st.to_dict()["hand"] == [0, 0, 2, 0, 0]


def test_yasoma_scores_seven():
    d = base()
    d["spec_owner"][YASOMA] = 1
    assert load(d).scores()["specialists"][1] == 7


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pawns_per_player_count(players):
    d = yamatai.new_game(players, 5).to_dict()
    assert len(d["order"]) == (4 if players == 2 else players)
    if players == 2:
        assert d["order"][:2] == [0, 1] and sorted(d["order"][2:]) == [2, 3]
        assert d["pawn_owner"] == [0, 1, 0, 1]


def test_last_building_completes_the_round():
    d = boats(base(), s25=B, s26=B, s36=W)
    d["pieces"][0] = 1
    d["row"][0] = S06
    st = load(turn(d, stage="post", fleet=6, marked=[25]))
    st.apply(build(S06, 15))
    assert sorted(st.triggers) == ["last_building"] and not st.is_over()
    seats = set()
    while not st.is_over():
        seats.add(st.current_player())
        st.apply(st.legal_actions()[0])
    assert {1, 2} <= seats and st.round == 1
