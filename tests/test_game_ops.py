"""The C-level game contract (simcore/_game_ops.pxd) and the search written once over it
(simcore/_search.pyx), for every game of ``simcore.games``."""
import math
import random

import pytest

import simcore
import strategies
from simcore import _search
from strategies.agents import RandomAgent, play_python
from strategies.mc import FlatMonteCarloAgent

# every game that exports the C-level hooks (optional in simcore._contract: a pure-Python
# game such as the toy one of tests/extra_games has none)
GAMES = [name for name in simcore.games if hasattr(simcore.games[name], "game_ops")]


def test_the_shipped_games_export_the_c_level_hooks():
    assert set(simcore.BUILTIN_GAMES) <= set(GAMES)


def _players(name):
    return simcore.games[name].PLAYERS


def _expected_returns(st):
    """The win shares the game's tie rule gives, from the Python face of the state."""
    n = st.players
    if hasattr(st, "winners"):          # Akrotiri: the best (total, drachmas), a shared win split
        won = st.winners()
        return [1.0 / len(won) if p in won else 0.0 for p in range(n)]
    if hasattr(st, "winner"):           # Yamatai: one winner (Y-D35)
        return [1.0 if p == st.winner() else 0.0 for p in range(n)]
    tot = st.scores()["total"]           # Hellas: 1/k to each of the k seats tied for first
    best = max(tot)
    k = tot.count(best)
    return [1.0 / k if t == best else 0.0 for t in tot]


def _positions(name, players, seeds, every=7):
    """Positions along random playouts (every ``every`` decisions, and the last one)."""
    mod = simcore.games[name]
    for seed in seeds:
        rnd = random.Random(seed)
        st = mod.new_game(players=players, seed=seed)
        k = 0
        while not st.is_over():
            if k % every == 0:
                yield st.clone()
            legal = st.legal_actions()
            st.apply(legal[rnd.randrange(len(legal))])
            k += 1


@pytest.mark.parametrize("name", GAMES)
def test_ops_agree_with_the_step_api_on_random_playouts(name):
    mod = simcore.games[name]
    for players in _players(name):
        for seed in range(3):
            rnd = random.Random(100 + seed)
            st = mod.new_game(players=players, seed=seed)
            twin = st.clone()               # played through the ops only
            while not st.is_over():
                legal = st.legal_actions()
                assert _search.ops_view(st) == (st.current_player(), False, legal)
                assert _search.ops_view(twin) == _search.ops_view(st)
                a = legal[rnd.randrange(len(legal))]
                st.apply(a)
                _search.ops_apply(twin, a)
                assert twin.decisions == st.decisions
            assert _search.ops_view(st) == (-1, True, [])
            assert twin.to_dict() == st.to_dict()
            ret = _search.ops_returns(st)
            assert ret == pytest.approx(_expected_returns(st)) and sum(ret) == pytest.approx(1.0)


@pytest.mark.parametrize("name", GAMES)
def test_ops_policy_action_is_the_built_in_policy(name):
    mod = simcore.games[name]
    players = _players(name)[0]
    pol = strategies.resolve(name, "balanced").as_policy()
    for k, st in enumerate(_positions(name, players, [3], every=5)):
        a = _search.ops_policy_action(st, [pol] * players, k)
        assert a in st.legal_actions()
        if hasattr(mod, "policy_action"):
            assert a == mod.policy_action(st, pol, k)
        elif hasattr(st, "policy_action"):
            assert a == st.policy_action(pol, k)


def _view(name, d, seat):
    """What ``seat`` sees of a position dictionary: the hidden parts as multisets and counts."""
    d = dict(d)
    if name == "hellas":
        d["stack"] = sorted(d["stack"])
        return d
    d.pop("rng")                         # the chance to come is hidden too
    if name == "yamatai":
        ts = d["turn_state"]
        seen = min(len(d["deck"]), 3) if (d["stage"] != "over" and ts["fleet"] == 3
                                            and "fleet" not in ts["used"] and seat == d["_current"]) else 0
        d["deck"] = d["deck"][:seen] + sorted(d["deck"][seen:])
        d["spec_deck"] = sorted(d["spec_deck"])
        d["track"] = d["track"][:d["face_up"]] + sorted(d["track"][d["face_up"]:])
        return d
    # akrotiri: the opponent's maps (per deck), goals and tile join the decks and piles they came from
    o = 1 - seat
    seats = [dict(x) for x in d["seats"]]
    opp = seats[o]
    d["pile"] = sorted(d["pile"] + ([opp["tile"]] if opp["tile"] is not None else []))
    opp["tile"] = opp["tile"] is not None
    deck_of = d["_card_deck"]
    d["decks"] = [sorted(d["decks"][k] + [c for c in opp["hand"] if deck_of[c] == k]) for k in range(3)]
    opp["hand"] = [sum(deck_of[c] == k for c in opp["hand"]) for k in range(3)]
    goals = d["goal_deck"] + opp["goals"]
    hidden_options = (d["phase"] == "keep_goal" and d["current"] == o
                      and not (d["config"]["strategist"] and d["stage"] == "play"))
    if hidden_options:
        goals += d["goal_options"]
        d["goal_options"] = len(d["goal_options"])
    if d["stage"] == "setup":
        if d["phase"] == "keep_goal" and d["current"] == 0 and seat == 0:
            goals += d["deal"][1]
        d["deal"] = d["deal"][seat]
    d["goal_deck"] = sorted(goals)
    opp["goals"] = len(opp["goals"])
    d["seats"] = seats
    return d


def _dict(st):
    d = st.to_dict()
    d["_current"] = st.current_player()
    if "seats" in d:
        d["_card_deck"] = [c["deck"] for c in st.config.data["cards"]]
    return d


@pytest.mark.parametrize("name", GAMES)
def test_determinization_keeps_what_the_seat_sees_and_redraws_the_rest(name):
    players = _players(name)[0]
    changed = 0
    for st in _positions(name, players, [1, 2], every=9):
        before = _dict(st)
        for seat in range(players):
            det = _search.determinized(st, 1000 + seat, seat)
            after = _dict(det)
            assert _view(name, after, seat) == _view(name, before, seat)
            changed += after != before
            assert _dict(_search.determinized(st, 1000 + seat, seat)) == after      # a function of the seed
        assert _dict(st) == before                                                   # the original untouched
    assert changed > 0


@pytest.mark.parametrize("name", GAMES)
def test_determinized_transcript_keeps_the_history(name):
    players = _players(name)[0]
    st = next(p for k, p in enumerate(_positions(name, players, [4], every=11)) if k == 2)
    det = _search.determinized(st, 5)
    assert det.transcript() == st.transcript()
    legal = det.legal_actions()
    det.apply(legal[0])
    assert det.transcript()[:len(st.transcript())] == st.transcript()
    assert len(det.transcript()) > len(st.transcript())


@pytest.mark.parametrize("name", GAMES)
def test_no_peeking_positions_differing_only_in_hidden_information_value_alike(name):
    players = _players(name)[0]
    pols = [strategies.resolve(name, "balanced").with_noise(epsilon=0.1).as_policy()] * players
    checked = 0
    for k, st in enumerate(_positions(name, players, [6], every=13)):
        seat = st.current_player()
        other = _search.determinized(st, 77 + k, seat)      # the same to this seat, hidden parts redrawn
        assert _search.determinized(other, 5, seat).to_dict() == _search.determinized(st, 5, seat).to_dict()
        a1, v1 = _search.playout_values(st, pols, 3, seed=k)
        a2, v2 = _search.playout_values(other, pols, 3, seed=k)
        assert a1 == a2 and list(v1) == list(v2)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def _wilson_low(wins, n, z=1.959964):
    p = wins / n
    return (p + z * z / (2 * n) - z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)


# per game: random rollouts (cheap, and not tied as often as the deterministic heuristics'
# playouts, whose ties flat MC breaks to the lowest action), playouts per action, games
MC_SETTINGS = {"hellas": (4, 16), "yamatai": (6, 12), "akrotiri": (3, 8)}


@pytest.mark.parametrize("name", GAMES)
def test_flat_monte_carlo_beats_random_in_two_player_games(name):
    assert 2 in _players(name)
    playouts, games = MC_SETTINGS.get(name, (4, 12))
    wins = 0.0
    for g in range(games):
        mc = FlatMonteCarloAgent(playouts=playouts, rollout="random", game=name, seed=g)
        seats = [mc, RandomAgent(seed=g)] if g % 2 == 0 else [RandomAgent(seed=g), mc]
        st = play_python(name, seats, seed=500 + g)
        wins += _search.ops_returns(st)[g % 2]
    assert _wilson_low(wins, games) > 0.5, f"flat MC won {wins} of {games} against random"
