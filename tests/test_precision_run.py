"""``simulate --precision``: stops on the width or the budget, says which, and its folder is a run (issue 33)."""
import json
import os

import numpy as np
import polars as pl
import pytest

import strategies
from reports.sequential import simulate_to_precision


def _seats(game, players, name):
    return strategies.resolve_seats(game, players, name)


def _shares(out, players):
    tab = pl.read_parquet(os.path.join(out, "players", "*.parquet"))
    return tab.sort("game_index", "seat")["win_share"].to_numpy().reshape(-1, players)


def test_stops_on_precision_and_the_folder_agrees(tmp_path):
    out = str(tmp_path / "r")
    res = simulate_to_precision("hellas", 2, 5, out, strategies=_seats("hellas", 2, "random"), workers=1,
                                precision=0.03, method="fixed", events=False, progress=False, chunk_size=250)
    assert res["stop"] == "precision"
    assert all(r["half"] <= 0.03 for r in res["rows"])
    w = _shares(out, 2)
    assert len(w) == res["games"]
    # the estimate is the plain mean of the folder's games (no control) and the half-width is z*sd/sqrt(n)
    for s, r in enumerate(res["rows"]):
        assert r["mean"] == pytest.approx(w[:, s].mean(), abs=1e-12)
        assert r["half"] == pytest.approx(1.959964 * w[:, s].std(ddof=1) / np.sqrt(len(w)), rel=1e-5)
    # the previous look was still too wide: it did not play on needlessly (batches of at most 25% more)
    assert res["games"] <= 1.25 * (1.959964 * 0.5 / 0.03) ** 2 + 500
    saved = json.load(open(os.path.join(out, "precision.json")))
    assert saved["stop"] == "precision" and saved["games"] == res["games"]
    # resuming with a tighter target continues the same run: the first games are the same bits
    res2 = simulate_to_precision("hellas", 2, 5, out, strategies=_seats("hellas", 2, "random"), workers=1,
                                 precision=0.02, method="fixed", events=False, progress=False)
    w2 = _shares(out, 2)
    assert res2["games"] > res["games"]
    assert np.array_equal(w2[:len(w)], w)


def test_budget_of_games_is_a_stop_and_says_so(tmp_path):
    out = str(tmp_path / "r")
    res = simulate_to_precision("hellas", 3, 1, out, strategies=_seats("hellas", 3, "random"), workers=1,
                                precision=0.002, budget_games=1500, events=False, progress=False, chunk_size=500)
    assert res["stop"] == "games" and res["games"] == 1500
    assert "budget of 1,500 games" in res["reason"] and "target ±0.2" in res["reason"]
    assert json.load(open(os.path.join(out, "manifest.json")))["status"] == "complete"


def test_budget_of_seconds_is_a_stop(tmp_path):
    out = str(tmp_path / "r")
    res = simulate_to_precision("hellas", 3, 1, out, strategies=_seats("hellas", 3, "random"), workers=1,
                                precision=0.001, budget_seconds=2.0, events=False, progress=False, chunk_size=200)
    assert res["stop"] == "seconds"
    assert 0 < res["games"] < 1_000_000


def test_control_variate_run_reports_effective_n(tmp_path):
    """A control on the same seeds: the interval holds the folder's plain mean within a few half-widths,
    and the effective n is reported (a control played by the same strategy is the same games: huge)."""
    out = str(tmp_path / "r")
    seats = _seats("hellas", 2, "random")
    res = simulate_to_precision("hellas", 2, 3, out, strategies=seats, workers=1, precision=0.015,
                                control=seats, control_games=200_000, method="fixed", events=False,
                                progress=False, chunk_size=500)
    assert res["stop"] == "precision"
    # a control identical to the expensive agent explains everything after the first chunk (whose
    # coefficient is 0): plain play would need (1.96 * 0.5 / 0.015)^2 = 4,268 games
    assert res["games"] <= 2500
    assert all(r["effective_n"] > 2 * r["n"] for r in res["rows"])
    w = _shares(out, 2)
    assert os.path.isdir(out + "-control")
    for s, r in enumerate(res["rows"]):
        assert abs(r["mean"] - w[:, s].mean()) < 3 * 1.96 * 0.5 / np.sqrt(len(w))


@pytest.mark.parametrize("argv,message", [
    (["--precision", "0"], "--precision 0"),
    (["--precision", "1", "--budget", "abc"], "--budget 'abc'"),
    (["--control", "balanced"], "go with --precision"),
    ([], "needs --games"),
])
def test_cli_bad_input_one_line(tmp_path, capsys, argv, message):
    from reports.cli import main

    rc = main(["simulate", "hellas", "--players", "2", "--seed", "1", "--out", str(tmp_path / "r")] + argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("boardlab: error:") and message in err[0], err


def test_engine_planted_effect_sequential_coverage():
    """Hellas 2p `balanced`: seat 0's real handicap (the truth from 100,000 games of another seed) is
    covered by >= 93 of 100 sequential runs stopped at ±4 pp, with either interval."""
    import simcore
    from analysis.precision import SequentialControl
    from simcore.rng import chunk_seeds

    mod = simcore.games["hellas"]
    pol = strategies.resolve("hellas", "balanced").as_policy()

    def shares(seed, a, b):
        out = mod.play_batch(2, chunk_seeds(seed, a, b), [pol, pol], events=False)["players"]["win_share"]
        return np.asarray(out, dtype=float).reshape(-1, 2)

    truth = shares(999, 0, 100_000)[:, 0].mean()
    assert truth < 0.47                                     # a planted (real) effect, not a fair seat
    per = 1600
    w = shares(1, 0, 100 * per)
    for method in ("fixed", "cs"):
        cover, stops = 0, []
        for r in range(100):
            x = w[r * per:(r + 1) * per]
            seq = SequentialControl(2, method=method, n_planned=(1.96 * 0.5 / 0.04) ** 2 * 2.4)
            k = 0
            while True:
                seq.add(x[k:k + 100])
                k += 100
                row = seq.summary()[0]
                if row["half"] <= 0.04 or k >= per:
                    break
            stops.append(k)
            cover += row["lo"] <= truth <= row["hi"]
        assert cover >= 93, (method, cover)
        assert max(stops) < per, method                    # every run stopped on the width
