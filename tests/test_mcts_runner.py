"""Search seats (kind "mcts") in the kernels' game loops, the runner and the CLI."""
import json

import numpy as np
import pytest

import simcore
import strategies
from simcore import _mcts
from simcore.rng import chunk_seeds
from simcore.run import default_chunk_size, replay, simulate

GAMES = [name for name in simcore.games if hasattr(simcore.games[name], "game_ops")]


def _seats(name, players, spec="mcts:iterations=12"):
    return [strategies.resolve(name, spec)] + [strategies.resolve(name, "balanced")] * (players - 1)


@pytest.mark.parametrize("name", GAMES)
def test_kernel_search_seat_decides_as_the_search_of_each_position(name):
    """Every decision the kernel takes for a search seat is ``_mcts.search``'s best at that position,
    seeded by (game seed, decision number); the other seats play their preset."""
    mod = simcore.games[name]
    players = min(mod.PLAYERS)
    seats = _seats(name, players)
    pols = [s.as_policy() for s in seats]
    seed = int(chunk_seeds(7, 0, 1)[0])
    actions = mod.play_actions(players, seed, pols)
    st = mod.new_game(players=players, seed=seed)
    rollout = [pols[0].rollout] * players
    searched = 0
    for a in actions:
        if st.current_player() == 0 and len(st.legal_actions()) > 1:
            r = _mcts.search(st, 12, pols[0].c, rollout, seed=_mcts.decision_seed(seed, st.decisions),
                             bias=pols[0].bias, points=pols[0].points)
            assert r["best"] == a
            searched += 1
        st.apply(a)
    assert st.is_over() and searched > 5
    final = mod.replay_game(players, seed, policies=pols)
    assert final.to_dict() == st.to_dict()


@pytest.mark.parametrize("name", GAMES)
def test_play_batch_with_a_search_seat_is_deterministic_and_leaves_other_runs_alone(name):
    mod = simcore.games[name]
    players = min(mod.PLAYERS)
    pols = [s.as_policy() for s in _seats(name, players)]
    seeds = chunk_seeds(3, 0, 3)
    a = mod.play_batch(players, seeds, pols, events=True)
    b = mod.play_batch(players, seeds, pols, events=True)
    for table in ("games", "players"):
        for col in a[table]:
            assert np.array_equal(a[table][col], b[table][col]), (table, col)
    heur = [strategies.resolve(name, "balanced").as_policy()] * players
    plain = mod.play_batch(players, seeds, heur, events=False)["players"]["total"]
    assert not np.array_equal(plain, a["players"]["total"])        # the search seat did play differently
    assert np.array_equal(plain, mod.play_batch(players, seeds, heur, events=False)["players"]["total"])


def test_search_beats_random_play():
    # 4 Hellas 2p games: a small search against uniformly random play wins them all
    pols = [strategies.resolve("hellas", "mcts:iterations=30").as_policy(), None]
    out = simcore.games["hellas"].play_batch(2, chunk_seeds(5, 0, 4), pols, events=False)
    assert out["players"]["win_share"][:, 0].tolist() == [1.0] * 4


def test_names_settings_and_manifest_dict():
    s = strategies.resolve("hellas", "mcts:c=0.5,iterations=800")
    assert s.kind == "mcts" and s.name == "mcts:iterations=800,c=0.5"
    assert strategies.resolve("hellas", "mcts").name == "mcts"
    d = s.to_dict()
    assert d["iterations"] == 800 and d["c"] == 0.5 and d["bias"] == 10.0 and d["cutoff"] == 0
    assert d["rollout"]["name"] == "balanced" and d["rollout"]["epsilon"] == 0.05
    back = strategies.from_dict(json.loads(json.dumps(d)))
    assert back.to_dict() == d
    assert back.as_policy().iterations == 800
    r = strategies.resolve("hellas", "mcts:rollout=random,iterations=50").to_dict()
    assert r["rollout"]["kind"] == "random"
    assert strategies.split_names("mcts:iterations=800,c=0.5,balanced, random") == [
        "mcts:iterations=800,c=0.5", "balanced", "random"]


@pytest.mark.parametrize("spec, message", [
    ("mcts:iterations=0", "iterations must be a whole number >= 1, not 0"),
    ("mcts:iterations=ten", "iterations must be a whole number, not 'ten'"),
    ("mcts:c=-1", r"c \(exploration\) must be a number 0..10,000 .*, not -1.0"),
    ("mcts:bias=-2", "bias must be a number 0..10,000"),
    ("mcts:cutoff=-1", "cutoff must be a whole number >= 0 and <= 1,000,000"),
    ("mcts:rollout=balnced", "unknown strategy 'balnced'"),
    ("mcts:rollout=mcts", "must be a random, heuristic or learned strategy"),
    ("mcts:depth=3", "'depth=3' is not a search setting"),
    ("mcts:rollout_epsilon=2", r"rollout_epsilon must be a number in \[0, 1\]"),
])
def test_bad_search_settings_are_one_line_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        strategies.resolve("hellas", spec)


def test_preset_file_with_kind_mcts(tmp_path):
    path = tmp_path / "strong.toml"
    path.write_text('[deep]\nkind = "mcts"\niterations = 64\nc = 0.4\nrollout = "city_builder"\n'
                    'description = "a deeper search"\n')
    s = strategies.resolve("hellas", f"{path}:deep")
    d = s.to_dict()
    assert (s.kind, s.name, d["iterations"], d["c"], d["rollout"]["name"]) == ("mcts", "deep", 64, 0.4, "city_builder")
    path.write_text('[deep]\nkind = "mcts"\niterations = 0\n')
    with pytest.raises(ValueError, match=r"strong.toml: \[deep\]'?: iterations must be"):
        strategies.resolve("hellas", str(path))
    path.write_text('[deep]\nkind = "mcts"\nweights = {}\n')
    with pytest.raises(ValueError, match="unknown key 'weights'"):
        strategies.resolve("hellas", str(path))


def test_chunks_of_a_search_run_are_small():
    mcts = [strategies.resolve("hellas", "mcts:iterations=400").to_dict()]
    assert default_chunk_size(1000, mcts) == 10
    assert default_chunk_size(100_000, mcts) == 200            # at most 500 chunks
    assert default_chunk_size(5, mcts * 3) == 3
    assert default_chunk_size(1000, [strategies.resolve("hellas", "balanced").to_dict()]) == 1000
    learned = [strategies.resolve("hellas", "learned").to_dict()]
    assert default_chunk_size(9604, learned) == 500          # not one chunk on one thread (10,000)
    assert default_chunk_size(400, learned) == 400
    assert default_chunk_size(1_000_000, learned) == 2000      # at most 500 chunks


def test_simulate_replay_and_workers_with_a_search_seat(tmp_path):
    seats = _seats("hellas", 3, "mcts:iterations=10")
    one = simulate("hellas", 3, 6, 11, tmp_path / "one", strategies=seats, workers=1, chunk_size=2,
                   progress=False)
    two = simulate("hellas", 3, 6, 11, tmp_path / "two", strategies=seats, workers=2, chunk_size=2,
                   progress=False)
    import polars as pl
    a = pl.read_parquet(tmp_path / "one" / "players" / "*.parquet")
    b = pl.read_parquet(tmp_path / "two" / "players" / "*.parquet")
    assert a.sort(["game_index", "seat"]).equals(b.sort(["game_index", "seat"]))
    manifest = json.loads((tmp_path / "one" / "manifest.json").read_text())
    assert manifest["strategies"][0]["kind"] == "mcts" and manifest["strategies"][0]["iterations"] == 10
    r = replay(str(tmp_path / "one"), 4)
    assert r["stored"] and r["mismatches"] == []
    assert one.games == two.games == 6


@pytest.mark.parametrize("name", GAMES)
def test_rollout_cutoff_scores_the_position_as_it_stands(name):
    mod = simcore.games[name]
    players = max(mod.PLAYERS)
    st = mod.new_game(players=players, seed=21)
    pols = [strategies.resolve(name, "balanced").with_noise(epsilon=0.05).as_policy()] * players
    full = _mcts.search(st, 60, 0.7, pols, seed=4)
    cut = _mcts.search(st, 60, 0.7, pols, seed=4, cutoff=3)
    for r in (full, cut):
        assert r["visits"].sum() == 60 and np.all((0 <= r["values"]) & (r["values"] <= 1))
    # three rollout decisions from the opening: the leaders on points now are not who wins at the end
    assert not np.array_equal(full["values"], cut["values"])
    assert _mcts.search(st, 60, 0.7, pols, seed=4, cutoff=3)["values"].tolist() == cut["values"].tolist()
    with pytest.raises(ValueError, match="cutoff must be a whole number >= 0 and <= 1,000,000"):
        _mcts.search(st, 10, cutoff=-1)


def test_a_search_run_of_100_games_says_how_long_it_will_take(tmp_path):
    from simcore.run import check_size, plan_run
    seats = [s.to_dict() for s in _seats("hellas", 2, "mcts:iterations=5")]
    line = check_size(plan_run("hellas", 2, 100, 1, strategies=seats), str(tmp_path), 2)
    assert line.startswith("simulate: 100 games: about ") and "from 2 games played first" in line
    assert check_size(plan_run("hellas", 2, 99, 1, strategies=seats), str(tmp_path), 2) is None


def test_a_finished_search_run_is_not_probed_again(tmp_path, monkeypatch, capsys):
    from simcore import run as simrun
    seats = [s.to_dict() for s in _seats("hellas", 2, "mcts:iterations=2")]
    out = str(tmp_path / "run")
    simrun.simulate("hellas", players=2, games=100, seed=1, out=out, strategies=seats, workers=1,
                    progress=True)
    assert "simulate: 100 games: about " in capsys.readouterr().err
    probes = []
    from simcore import _run_size
    monkeypatch.setattr(_run_size, "_probe", lambda plan: probes.append(plan) or (1.0, 1.0))
    again = simrun.simulate("hellas", players=2, games=100, seed=1, out=out, strategies=seats, workers=1,
                            progress=True)
    assert probes == [] and "about" not in capsys.readouterr().err
    assert again.games_run == 0
    # a run of the same folder with more games is another run: probed (then refused as a mismatch)
    with pytest.raises(simrun.RunMismatch):
        simrun.simulate("hellas", players=2, games=101, seed=1, out=out, strategies=seats, workers=1)
    assert len(probes) == 1
