"""Seat compensation (issue 20, item 1): ``seat_bonus`` and ``seat_points`` in every engine."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import simcore
import strategies
from analysis.stats import wilson_bounds
from simcore.rng import game_seeds
from differential import replay_both

ROOT = Path(__file__).resolve().parents[1]
# game -> (player count, starting resource in to_dict, the rules' start amount)
GAMES = {"hellas": (3, "marble", 10), "yamatai": (3, "coins", 10), "akrotiri": (2, "drachmas", 2)}


def _resource(d, key):
    """Per seat, the starting resource in a position dict (a per-seat list, or one dict per seat)."""
    if key in d:
        return list(d[key])
    return [seat[key] for seat in d["seats"]]


def _without(d, key):
    """A position dict without the config and the resource (everything a bonus must leave alone)."""
    out = {k: v for k, v in d.items() if k not in ("config", key)}
    if "seats" in out:
        out["seats"] = [{k: v for k, v in s.items() if k != key} for s in out["seats"]]
    return out


def _vector(players, seat, value):
    return tuple(value if p == seat else 0 for p in range(players))


@pytest.mark.parametrize("game", GAMES)
def test_defaults_leave_settings_and_config_as_before(game):
    mod = simcore.games[game]
    players, _, _ = GAMES[game]
    cfg = mod.make_config(players)
    assert cfg == mod.make_config(players, seat_bonus=[0] * players, seat_points="0," * (players - 1) + "0")
    # at their default the two settings stay out of the record (run ids and baselines unchanged)
    assert not {"seat_bonus", "seat_points"} & set(cfg.settings())
    bonus = mod.make_config(players, seat_bonus=_vector(players, 1, 3), seat_points=_vector(players, 0, 2))
    s = bonus.settings()
    assert s["seat_bonus"] == list(_vector(players, 1, 3)) and s["seat_points"] == list(_vector(players, 0, 2))
    assert mod.make_config(**s) == bonus        # the record rebuilds the same config (regress, resume)


@pytest.mark.parametrize("game", GAMES)
def test_bonus_changes_exactly_that_seats_start(game):
    mod = simcore.games[game]
    players, key, start = GAMES[game]
    for seat in range(players):
        for seed in (1, 2):
            d0 = mod.new_game(players, seed).to_dict()
            d1 = mod.new_game(players, seed, seat_bonus=_vector(players, seat, 7)).to_dict()
            want = [start + (7 if p == seat else 0) for p in range(players)]
            assert _resource(d0, key) == [start] * players
            assert _resource(d1, key) == want
            assert _without(d1, key) == _without(d0, key)
    # a negative bonus down to the start amount is allowed: the seat starts with nothing
    d = mod.new_game(players, 3, seat_bonus=_vector(players, 0, -start)).to_dict()
    assert _resource(d, key)[0] == 0


@pytest.mark.parametrize("game", GAMES)
def test_points_change_exactly_the_totals(game):
    mod = simcore.games[game]
    players, _, _ = GAMES[game]
    points = tuple(range(1, players + 1))
    # step API: the same decisions, the same categories, the totals moved by the points
    for seed in (4, 5):
        plain, comp = mod.new_game(players, seed), mod.new_game(players, seed, seat_points=points)
        for a in mod.play_actions(players, seed):
            plain.apply(a)
            comp.apply(a)
        s0, s1 = plain.scores(), comp.scores()
        assert s1.pop("seat_points") == list(points) and "seat_points" not in s0
        assert [t - p for t, p in zip(s1.pop("total"), points)] == s0.pop("total")
        assert s1 == s0
        assert comp.to_dict()["config"]["seat_points"] == list(points)
    # kernel with random play (it never looks at scores): same games, totals moved, winners on new totals
    seeds = np.asarray(game_seeds(11, 0, 400), dtype=np.uint64)
    a = mod.play_batch(players, seeds, None, events=False)
    b = mod.play_batch(players, seeds, None, events=False, seat_points=points)
    pa, pb = a["players"], b["players"]
    np.testing.assert_array_equal(pb["total"], pa["total"] + np.asarray(points, dtype=np.int16))
    np.testing.assert_array_equal(pb["seat_points"], np.tile(np.asarray(points, np.int16), (len(seeds), 1)))
    cats = list(mod.SCORE_CATEGORIES)
    for c in cats:
        np.testing.assert_array_equal(pb[c], pa[c])
    assert "seat_points" not in pa
    np.testing.assert_array_equal(pb["total"], sum(pb[c].astype(int) for c in cats) + pb["seat_points"])
    np.testing.assert_array_equal(a["games"]["decisions"], b["games"]["decisions"])
    best = pb["total"].max(axis=1, keepdims=True)
    assert np.all(pb["win_share"][pb["total"] < best] == 0)
    np.testing.assert_allclose(pb["win_share"].sum(axis=1), 1.0, rtol=1e-6)
    # the points are the seats' only difference, so the higher seats win more often than before
    assert pb["win_share"][:, -1].sum() > pa["win_share"][:, -1].sum()


@pytest.mark.parametrize("game", GAMES)
def test_reference_engine_agrees(game):
    mod = simcore.games[game]
    players, key, start = GAMES[game]
    settings = {"seat_bonus": _vector(players, players - 1, 9), "seat_points": _vector(players, 0, -3)}
    balanced = [strategies.resolve(game, "balanced").as_policy()] * players
    for seed in (21, 22, 23):
        for pol in (None, balanced):
            cy = replay_both(mod, players, seed, pol, **settings)
            assert cy.scores()["seat_points"] == list(settings["seat_points"])
    ref = mod.reference.RefState.new(players=players, seed=7, **settings)
    held = [s[key] for s in ref.seats] if game == "akrotiri" else getattr(ref, key)
    assert held == [start + b for b in settings["seat_bonus"]]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("key,value,words", [
    ("seat_bonus", "2", "values, one per seat"),
    ("seat_bonus", "1,2,3,4,5", "values, one per seat"),
    ("seat_bonus", "1,x", "whole numbers"),
    ("seat_bonus", "1.5,0", "whole numbers"),
    ("seat_bonus", "-500,0", "values must be"),
    ("seat_bonus", "101,0", "values must be"),
    ("seat_points", "0,101", "values must be"),
    ("seat_points", 3, "must list"),
])
def test_bad_values_refused(game, key, value, words):
    mod = simcore.games[game]
    players, _, _ = GAMES[game]
    if isinstance(value, str) and words in ("whole numbers", "values must be") and value.count(",") + 1 != players:
        value = ",".join(value.split(",") + ["0"] * (players - 1 - value.count(",")))
    with pytest.raises(ValueError, match=words) as exc:
        mod.make_config(players, **{key: value})
    msg = str(exc.value)
    assert key in msg and "\n" not in msg


@pytest.mark.parametrize("game", GAMES)
def test_bonus_below_the_start_names_the_range(game):
    mod = simcore.games[game]
    players, _, start = GAMES[game]
    with pytest.raises(ValueError, match=rf"seat_bonus values must be {-start}\.\.100 .*below 0"):
        mod.make_config(players, seat_bonus=_vector(players, 0, -start - 1))


@pytest.mark.parametrize("variant,words", [("seat_bonus=2,0,0,0,0", "seat_bonus needs 3 values"),
                                           ("seat_points=0,0,500", "seat_points values must be -100..100")])
def test_cli_refuses_in_one_line(tmp_path, variant, words):
    cmd = [sys.executable, "-m", "reports.cli", "simulate", "hellas", "--players", "3", "--games", "10",
           "--seed", "1", "--variant", variant, "--out", str(tmp_path / "run")]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.stderr
    assert not (tmp_path / "run" / "manifest.json").exists()


def test_cli_run_records_and_resumes_with_the_settings(tmp_path):
    import json

    import polars as pl

    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "reports.cli", "simulate", "hellas", "--players", "2", "--games", "60",
           "--seed", "5", "--workers", "1", "--variant", "seat_bonus=2,0", "--variant", "seat_points=0,1",
           "--out", str(out)]
    first = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["settings"]["seat_bonus"] == [2, 0] and manifest["settings"]["seat_points"] == [0, 1]
    players = pl.read_parquet(out / "players")
    assert players.filter(pl.col("seat") == 1)["seat_points"].unique().to_list() == [1]
    again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert json.loads((out / "manifest.json").read_text())["run_id"] == manifest["run_id"]
    assert pl.read_parquet(out / "players").equals(players)


@pytest.mark.parametrize("game,bonus", [("hellas", 40), ("yamatai", 60), ("akrotiri", 60)])
def test_large_bonus_raises_the_win_share(game, bonus):
    mod = simcore.games[game]
    players, _, _ = GAMES[game]
    n = 3000
    seeds = np.asarray(game_seeds(2027, 0, n), dtype=np.uint64)
    pol = [strategies.resolve(game, "balanced").as_policy()] * players
    share = {}
    for b in (0, bonus):
        res = mod.play_batch(players, seeds, pol, events=False, seat_bonus=_vector(players, 1, b))
        wins = float(res["players"]["win_share"][:, 1].sum())
        lo, hi = wilson_bounds(np.array([wins]), np.array([n]))
        share[b] = (float(lo[0]), float(hi[0]))
    # with the bonus, seat 1's 95% interval lies wholly above the one without it
    assert share[bonus][0] > share[0][1], share
