"""Akrotiri rule tests: every test of spec section 15.5, plus the spec's test vectors (sections 2.10, 6, 7.3).

Positions are written as dicts (``docs/akrotiri_engine.md``) and loaded with
``State.from_dict``; the reference engine is checked on the direction vectors too.
"""
import pytest

from simcore import akrotiri
from simcore.akrotiri import reference as ref
from akrotiri_positions import T0, T1, position, seat  # noqa: F401
from simcore.akrotiri.config import BUY_CODES, LOAD_CODES

A = akrotiri
LAKE, TREE, MOUNTAIN, VOLCANO = range(4)
BLUE, GREEN, GREY, ORANGE = range(4)
E02 = 1           # easy map: N tree 1, E volcano 1


def load(d, **settings):
    cfg = akrotiri.make_config(2, **settings)
    return akrotiri.State.from_dict(d, config=cfg)


# A small board: tile 0 (X1, lake) south of the start board, its hub linked to R and its dock p0
# (port 0) on quarter (3, 0); a tree far north (tile 1) and a volcano far east (tile 3); for seat 1
# a tree far south (tile 9) and a volcano far west (tile 7). E02 then fits quarter (3, 0) for both.
BOARD = [(0, 0, 1, 0), (1, -1, -3, 0), (3, 2, -1, 0), (9, 0, 3, 0), (7, -3, 0, 0)]


def put(tile, r, c):
    """(tile, x, y, rot) that puts ``tile``'s landmark on quarter (r, c)."""
    from simcore.akrotiri.config import load_data
    lay = load_data()["layouts"][tile]
    rot = next(k for k in range(4) if lay[k].landmark_quarter == 2 * (r % 2) + c % 2)
    return (tile, c // 2, r // 2, rot)


def excavation_actions(st):
    return [a for a in st.legal_actions() if A.EXCAVATE <= a < A.BUY]


# ------------------------------------------------------------------ section 6 market

def test_selling_example_pays_3_3_2():
    d = position(seats=[seat(T0, cargo=[2, 0, 1, 0], drachmas=0), seat(T1)], market_out=[5, 0, 2, 0])
    st = load(d)
    for a in (A.SELL + BLUE, A.SELL + BLUE, A.SELL + GREY):
        st.apply(a)
    assert st.to_dict()["seats"][0]["drachmas"] == 8
    assert st.to_dict()["market_out"] == [3, 0, 1, 0]
    d["market_out"] = [5, 0, 3, 0]
    st = load(d)
    for a in (A.SELL + BLUE, A.SELL + BLUE, A.SELL + GREY):
        st.apply(a)
    assert st.to_dict()["seats"][0]["drachmas"] == 8


def test_selling_only_at_thera():
    st = load(position(BOARD, seats=[seat(0, cargo=[1, 0, 0, 0]), seat(T1)], market_out=[1, 0, 0, 0]))
    legal = st.legal_actions()
    assert not any(A.SELL <= a < A.UNLOAD for a in legal)
    assert A.UNLOAD + BLUE in legal
    st = load(position(BOARD, seats=[seat(T0, cargo=[1, 0, 0, 0]), seat(T1)], market_out=[1, 0, 0, 0]))
    assert A.SELL + BLUE in st.legal_actions()


# ------------------------------------------------------------------ maps

def test_map_prices_1_3_7_and_buying_only_at_thera():
    st = load(position(seats=[seat(T0, drachmas=7), seat(T1)]))
    buys = [a for a in st.legal_actions() if A.BUY <= a < A.ORACLE]
    assert len(buys) == 19
    st.apply(A.BUY + BUY_CODES.index((0, 1, 2)))
    me = st.to_dict()["seats"][0]
    assert me["drachmas"] == 0 and len(me["hand"]) == 3
    st = load(position(seats=[seat(T0, drachmas=3), seat(T1)]))
    buys = [BUY_CODES[a - A.BUY] for a in st.legal_actions() if A.BUY <= a < A.ORACLE]
    assert sorted({len(b) for b in buys}) == [1, 2]
    st.apply(A.BUY + BUY_CODES.index((1, 1)))
    assert st.to_dict()["seats"][0]["drachmas"] == 0
    st = load(position(seats=[seat(T0, drachmas=1), seat(T1)]))
    st.apply(A.BUY + BUY_CODES.index((2,)))
    assert st.to_dict()["seats"][0]["drachmas"] == 0
    st = load(position(BOARD, seats=[seat(0, drachmas=7), seat(T1)]))
    assert not any(A.BUY <= a < A.ORACLE for a in st.legal_actions())


@pytest.mark.parametrize("engine", ["cython", "reference"])
def test_direction_vectors_of_section_7_3(engine):
    # landmarks placed by tiles: volcano (0, 5), lake (3, 0), tree (3, 2), tree (1, 2)
    tiles = [put(3, 0, 5), put(0, 3, 0), put(1, 3, 2)]
    st = load(position(tiles))
    d = st.to_dict()
    if engine == "cython":
        count = lambda t, D, r, c, s: st.landmark_count(t, D, r, c, s)                     # noqa: E731
    else:
        rs = ref.RefState.new(2, 0)
        rs.landmark = {}
        rs.landmark.update({(0, 5): VOLCANO, (3, 0): LAKE, (3, 2): TREE})
        count = lambda t, D, r, c, s: rs.landmark_count(t, "NESW".index(D), (r, c), s)   # noqa: E731
    if engine == "cython":
        # the three tiles put their landmarks exactly where the spec's vectors want them
        positions = _landmarks(st)
        assert positions == {(0, 5): VOLCANO, (3, 0): LAKE, (3, 2): TREE}, positions
    # volcano (0, 5) lies N and E of (3, 2), not S
    assert count(VOLCANO, "N", 3, 2, 0) == 1 and count(VOLCANO, "E", 3, 2, 0) == 1
    assert count(VOLCANO, "S", 3, 2, 0) == 0
    # lake (3, 0): W only (same row: neither N nor S)
    assert count(LAKE, "W", 3, 2, 0) == 1
    assert count(LAKE, "N", 3, 2, 0) == 0 and count(LAKE, "S", 3, 2, 0) == 0 and count(LAKE, "E", 3, 2, 0) == 0
    # a tree on the temple's own quarter never counts
    assert all(count(TREE, D, 3, 2, 0) == 0 for D in "NESW")
    # seat 1 reads the card turned 180 degrees: the volcano is S and W
    assert count(VOLCANO, "S", 3, 2, 1) == 1 and count(VOLCANO, "W", 3, 2, 1) == 1
    assert count(VOLCANO, "N", 3, 2, 1) == 0 and count(VOLCANO, "E", 3, 2, 1) == 0
    # a landmark above the temple's row counts as N whatever its column
    for c in (-10, 0, 2, 5, 12):
        assert count(VOLCANO, "N", 3, c, 0) == 1


def _landmarks(st):
    from simcore.akrotiri.config import load_data
    lay = load_data()["layouts"]
    out = {}
    for t in st.to_dict()["tiles"]:
        L = lay[t["tile"]][t["rot"]]
        q = L.landmark_quarter
        out[(2 * t["y"] + q // 2, 2 * t["x"] + q % 2)] = L.landmark
    return out


def test_tree_on_the_temple_quarter_does_not_count_for_a_map():
    # tile 1 (tree) rotated so that its tree lands on quarter (3, 2); N: tree 2 needs two other trees
    st = load(position([put(1, 3, 2)]))
    assert _landmarks(st)[(3, 2)] == TREE
    assert st.landmark_count(TREE, "N", 3, 2, 0) == 0
    assert st.landmark_count(TREE, "N", 4, 2, 0) == 1          # from the quarter below it does count


def test_excavation_needs_a_fitting_map_one_temple_per_island_and_not_thera():
    me = seat(0, hand=[E02], drachmas=5)
    st = load(position(BOARD, seats=[me, seat(T1)]))
    assert st.map_fits("E02", 3, 0, 0)
    assert excavation_actions(st) == [A.EXCAVATE + E02 * 4 + 0]
    # the opponent's temple on the island forbids a second one
    st = load(position(BOARD, seats=[me, seat(T1, temples=[[3, 0]], excavated=[30])]))
    assert excavation_actions(st) == []
    # not on Thera, even with a card that fits Thera's quarters
    st = load(position(BOARD, seats=[seat(T0, hand=[E02], drachmas=5), seat(T1)]))
    assert st.map_fits("E02", 0, 0, 0)
    assert excavation_actions(st) == []
    # not without the money
    st = load(position(BOARD, seats=[seat(0, hand=[E02], drachmas=1), seat(T1)]))
    assert excavation_actions(st) == []


def test_seat_1_reads_the_map_turned_180_degrees():
    board = [(0, 0, 1, 0), (1, -1, -3, 0), (3, 2, -1, 0)]    # tree north, volcano east only
    st = load(position(board))
    assert st.map_fits("E02", 3, 0, 0) and not st.map_fits("E02", 3, 0, 1)


def test_one_temple_gives_4_actions_on_the_next_turn():
    st = load(position(BOARD, seats=[seat(0, hand=[E02], drachmas=5), seat(T1)]))
    st.apply(A.EXCAVATE + E02 * 4)
    d = st.to_dict()
    assert d["seats"][0]["temples"] == [[3, 0]] and d["seats"][0]["drachmas"] == 3
    assert d["actions"] == 2                   # the count of this turn does not change
    st.apply(A.END)
    while st.current_player() == 1:
        st.apply(A.END if A.END in st.legal_actions() else st.legal_actions()[0])
    assert st.current_player() == 0 and st.to_dict()["actions"] == 4


@pytest.mark.parametrize("trigger", [0, 1])
def test_the_end_gives_equal_turns(trigger):
    # five temples already stand, on land quarters of BOARD away from the sixth's island (3, 0)
    dummy = [[-6, -2], [-2, 4], [0, -6], [6, 0], [-2, 1]]
    seats = [seat(0, turns=5), seat(T1, turns=4)]
    seats[trigger].update(temples=dummy, excavated=[20, 21, 22, 23, 24], hand=[E02], drachmas=5, port=0)
    seats[1 - trigger]["port"] = T0 if trigger == 1 else T1
    if trigger == 1:
        seats[1]["turns"] = 5
    st = load(position(BOARD, seats=seats, current=trigger))
    st.apply(A.EXCAVATE + E02 * 4)
    assert st.to_dict()["end_trigger"] == "temples"
    st.apply(A.END)
    if trigger == 0:
        assert not st.is_over() and st.current_player() == 1
        while not st.is_over():
            st.apply(A.END if A.END in st.legal_actions() else st.legal_actions()[0])
    assert st.is_over()
    assert st.turns[0] == st.turns[1] == 5


def test_tie_break_by_drachmas_then_shared_win():
    over = dict(phase="over", current=None, stage="over")
    st = load(position(seats=[seat(T0, drachmas=12), seat(T1, drachmas=15)], **over))
    assert st.scores()["total"] == [1, 1]
    assert st.winners() == [1]
    st = load(position(seats=[seat(T0, drachmas=15), seat(T1, drachmas=15)], **over))
    assert st.winners() == [0, 1]


def test_batch_win_share_follows_the_tie_break():
    import numpy as np
    res = akrotiri.play_batch(2, np.arange(300, dtype=np.uint64), turn_cap=8)
    pl = res["players"]
    for g in range(300):
        t, m, w = pl["total"][g], pl["drachmas"][g], pl["win_share"][g]
        if t[0] == t[1] and m[0] == m[1]:
            assert list(w) == [0.5, 0.5]
        else:
            best = 0 if (t[0], m[0]) > (t[1], m[1]) else 1
            assert w[best] == 1.0 and w[1 - best] == 0.0


# ------------------------------------------------------------------ boat

def test_load_at_most_3():
    cubes = [{"r": 3, "c": 0, "cubes": [3, 3, 0, 0]}]
    st = load(position(BOARD, seats=[seat(0, cargo=[0, 0, 2, 0]), seat(T1)], cubes=cubes,
                       market_out=[3, 3, 2, 0]))
    loads = [LOAD_CODES[a - A.LOAD] for a in st.legal_actions() if A.LOAD <= a < A.EXCAVATE]
    assert sorted(loads) == [(0,), (1,)]
    st.apply(A.LOAD + LOAD_CODES.index((1,)))
    assert st.to_dict()["seats"][0]["cargo"] == [0, 1, 2, 0]
    assert not any(A.LOAD <= a < A.EXCAVATE for a in st.legal_actions())
    st = load(position(BOARD, seats=[seat(0), seat(T1)], cubes=cubes, market_out=[3, 3, 0, 0]))
    loads = [LOAD_CODES[a - A.LOAD] for a in st.legal_actions() if A.LOAD <= a < A.EXCAVATE]
    assert max(len(x) for x in loads) == 3 and (0, 0, 0) in loads and (0, 0, 0, 0) not in loads


def test_empty_boat_moves_twice_and_loses_the_bonus():
    cubes = [{"r": 3, "c": 0, "cubes": [1, 0, 0, 0]}]
    st = load(position(BOARD, cubes=cubes, market_out=[1, 0, 0, 0]))
    st.apply(A.SAIL + 0)                       # empty boat: one action, two movements
    d = st.to_dict()
    assert d["actions"] == 2 and d["bonus"]
    st.apply(A.SAIL + T0)                      # the bonus movement is free
    d = st.to_dict()
    assert d["actions"] == 2 and not d["bonus"]
    st.apply(A.SAIL + 0)
    assert st.to_dict()["actions"] == 1 and st.to_dict()["bonus"]
    st.apply(A.LOAD + LOAD_CODES.index((0,)))  # a non-movement action ends the bonus
    d = st.to_dict()
    assert d["actions"] == 0 and not d["bonus"]
    assert not any(A.SAIL <= a < A.LOAD for a in st.legal_actions())
    # the end of the turn ends it too
    st = load(position(BOARD))
    st.apply(A.SAIL + 0)
    assert st.to_dict()["bonus"]
    st.apply(A.END)
    assert not st.to_dict()["bonus"]
    # a loaded boat gets one movement per action
    st = load(position(BOARD, seats=[seat(T0, cargo=[1, 0, 0, 0]), seat(T1)], market_out=[1, 0, 0, 0]))
    st.apply(A.SAIL + 0)
    assert st.to_dict()["actions"] == 2 and not st.to_dict()["bonus"]


def test_passing_the_opponents_port_costs_one_more_and_ending_on_it_is_illegal():
    # tile 18 (template I) turned once: N-p0-S, p0 (port 72) is a through-port between R and
    # tile 0 further south, whose hub dock is port 0
    tiles = [(18, 0, 1, 1), (0, 0, 2, 0)]
    loaded = [1, 0, 0, 0]
    st = load(position(tiles, seats=[seat(T0, cargo=loaded), seat(T1)], market_out=[1, 0, 0, 0]))
    assert A.SAIL + 72 in st.legal_actions() and A.SAIL + 0 in st.legal_actions()
    st.apply(A.SAIL + 0)
    assert st.to_dict()["actions"] == 2
    st = load(position(tiles, seats=[seat(T0, cargo=loaded), seat(72)], market_out=[1, 0, 0, 0]))
    assert A.SAIL + 72 not in st.legal_actions()
    st.apply(A.SAIL + 0)
    assert st.to_dict()["actions"] == 1
    st = load(position(tiles, seats=[seat(T0, cargo=loaded), seat(72)], market_out=[1, 0, 0, 0], actions=1))
    assert A.SAIL + 0 not in st.legal_actions()


# ------------------------------------------------------------------ Oracle

def test_oracle_takes_the_last_tile_when_the_pile_runs_out():
    d = position(pile=[3, 7])                 # two volcanoes, no lake
    d["discard"] = [t for t in range(36) if t not in (3, 7)]
    st = load(d)
    st.apply(A.ORACLE + LAKE)
    d = st.to_dict()
    assert d["seats"][0]["tile"] == 7 and d["pile"] == [] and d["discard"][-1] == 3
    d = position(pile=[3, 12, 7])             # 12 is a lake
    st = load(d)
    st.apply(A.ORACLE + LAKE)
    assert st.to_dict()["seats"][0]["tile"] == 12 and st.to_dict()["pile"] == [7]


def test_oracle_once_per_turn_and_no_draw_after_it():
    st = load(position())
    assert [a for a in st.legal_actions() if A.ORACLE <= a < A.SELL] == [A.ORACLE + k for k in range(4)]
    st.apply(A.ORACLE + TREE)
    d = st.to_dict()
    tile, pile = d["seats"][0]["tile"], d["pile"]
    assert not any(A.ORACLE <= a < A.SELL for a in st.legal_actions())
    st.apply(A.END)
    d = st.to_dict()
    assert d["seats"][0]["tile"] == tile and d["pile"] == pile
    st = load(position(oracle_used=True))
    assert not any(A.ORACLE <= a < A.SELL for a in st.legal_actions())


# ------------------------------------------------------------------ section 2.10 worked example, players

def test_worked_example_of_section_2_10():
    st = load(position([(0, 1, -1, 0)]))
    rs = ref.RefState.new(2, 0)
    rs._place(0, 0, 1, -1)
    assert rs.island((-2, 2)) == [(-2, 1), (-2, 2)] and not rs.completed(rs.island((-2, 2)))
    assert rs.island((-1, 2)) == [(-1, 2)] and not rs.completed([(-1, 2)])
    assert 0 in rs._reach(T0, None)
    # in the Cython engine port 0 is one sea move from Thera
    assert A.SAIL + 0 in st.legal_actions()


def test_two_players_only():
    with pytest.raises(ValueError, match="akrotiri takes 2 players, not 3"):
        akrotiri.make_config(3)
    with pytest.raises(ValueError, match="akrotiri takes 2 players, not 3"):
        akrotiri.new_game(players=3)


def test_a_map_is_satisfied_exactly_on_the_policys_rectangle():
    # spec 7.3 per-direction counts are thresholds on the temple's row or column, so the satisfied
    # quarters form an open rectangle; the heuristic relies on it (State.map_region)
    import strategies
    v = strategies.resolve("akrotiri", "balanced").as_policy()
    checked = 0
    for seed in (3, 11):
        st = akrotiri.new_game(seed=seed)
        for step, a in enumerate(akrotiri.play_actions(2, seed, [v, v])):
            if step in (30, 120) and not st.is_over():
                for card in range(36):
                    for seat in (0, 1):
                        region = st.map_region(card, seat)
                        for r in range(-16, 16, 3):
                            for c in range(-16, 16, 2):
                                inside = region is not None and region[0] < r < region[1] and region[2] < c < region[3]
                                assert st.map_fits(card, r, c, seat) == inside, (seed, step, card, seat, r, c)
                                checked += inside
            st.apply(a)
    assert checked > 100


def test_play_batch_reports_events_dropped(tmp_path):
    """play_batch's games.events_dropped is the state's counter of events past the buffer (MAXEV = 384;
    no game within the turn cap comes near it, so it is 0 here), and the runner writes it."""
    import numpy as np

    import strategies
    from simcore import run as simrun

    v = strategies.resolve("akrotiri", "balanced").as_policy()
    seeds = np.arange(40, dtype=np.uint64)
    for pols in (None, [v, v]):
        for events in (True, False):
            r = A.play_batch(2, seeds, policies=pols, events=events)
            col = r["games"]["events_dropped"]
            assert col.dtype == np.int16 and col.shape == (40,)
            assert (col == 0).all()
    r = A.play_batch(2, seeds[:3], policies=[v, v], events=True)
    for g in range(3):
        st = A.new_game(seed=int(seeds[g]))
        for a in A.play_actions(2, int(seeds[g]), [v, v]):
            st.apply(a)
        assert st.to_dict()["events_dropped"] == r["games"]["events_dropped"][g]
    out = tmp_path / "run"
    simrun.simulate("akrotiri", out=str(out), players=2, games=20, seed=3, progress=False)
    from analysis import load_run
    games = load_run(str(out)).games.collect()
    assert "events_dropped" in games.columns and games["events_dropped"].sum() == 0
