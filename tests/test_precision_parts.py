"""--precision beyond simulate: balance's verification, the skill part, study parts, and a compensation's
robustness (issue 33, items 1 and 4)."""
import json
import os

import numpy as np
import polars as pl
import pytest

from reports import balance as B
from reports import cli
from reports import verification as V


class _FakePlayer:
    """Plays a synthetic game: per vector, the winner drawn with fixed probabilities; game ``i`` always
    gives the same result for a vector (a generator keyed by the repeat, the vector and the slice)."""

    def __init__(self, rep, truth):
        self.rep, self.truth, self.workers = rep, truth, 2

    def games_of(self, ranges):
        out = []
        for v, a, b in ranges:
            p = self.truth[v]
            rng = np.random.default_rng([self.rep, sum(v) * 7 + len(v), a - V.VERIFY_START])
            win = rng.choice(len(p), size=b - a, p=p)
            out.append(np.eye(len(p))[win])
        return out


def test_sequential_verification_keeps_coverage():
    """200 verifications stopped at ±3 pp on the data: every seat's confidence sequence covers its true
    share in >= 93 % of them, and the gap's simultaneous interval covers the true gap as often."""
    from analysis.precision import gap_interval_cs

    zero, best = (0, 0, 0), (2, 0, 0)
    truth = {zero: np.array([0.30, 0.40, 0.30]), best: np.array([0.34, 0.35, 0.31])}
    gap_true = {v: float(np.max(np.abs(t - 1 / 3))) for v, t in truth.items()}
    p = {"precision": 0.03, "seconds": None, "verify": 1_000_000, "players": 3, "searching": False}
    reps, cover, gap_cover, stops = 200, np.zeros((2, 3)), np.zeros(2), []
    for rep in range(reps):
        ws, stop = V.verify_sequential(_FakePlayer(rep, truth), p, [zero, best], 0.0, lambda line: None)
        assert stop["stop"] == "precision" and stop["interval"] == "cs"
        n = len(ws[0])
        stops.append(n)
        for i, (v, w) in enumerate(zip((zero, best), ws)):
            sums, sq = w.sum(axis=0), (w ** 2).sum(axis=0)
            rows = V.cs_rows(sums, sq, n, stop["n_planned"])
            assert max(r["hi"] - r["share"] for r in rows) <= 0.03 + 1e-12
            cover[i] += [r["lo"] <= t <= r["hi"] for r, t in zip(rows, truth[v])]
            _, lo, hi = gap_interval_cs(sums, sq, n, n_planned=stop["n_planned"])
            gap_cover[i] += lo <= gap_true[v] <= hi
    assert (cover >= 0.93 * reps).all(), cover
    assert (gap_cover >= 0.93 * reps).all(), gap_cover
    # it stopped on the width near the games the target needs, not at the cap
    assert 1_000 < min(stops) and max(stops) < 4_000


def test_balance_precision_on_the_engine_says_its_stop():
    p = B.plan("hellas", 2, budget=20_000, seed=4, precision=0.025)
    r = B.balance(p, workers=1, log=lambda line: None)
    assert r["stop"] == "precision" and r["interval"] == "cs"
    assert "every seat within ±2.5 pp after" in r["stop_reason"]
    assert all(x["hi"] - x["share"] <= 0.025 + 1e-12 for x in r["before"] + r["after"])
    text = B.table_text(r)
    assert "Verification stopped: every seat within ±2.5 pp" in text and "confidence sequences" in text
    # the same fresh games as a fixed verification of that many games, with wider (anytime-valid) intervals
    fixed = B.balance(B.plan("hellas", 2, budget=20_000, seed=4, verify=r["games"]), workers=2,
                      log=lambda line: None)
    assert fixed["compensation"] == r["compensation"]
    for a, b in zip(fixed["after"], r["after"]):
        assert a["share"] == pytest.approx(b["share"], abs=1e-12)
        assert (b["hi"] - b["lo"]) > 1.3 * (a["hi"] - a["lo"])
    assert "Verification stopped" not in B.table_text(fixed)
    doc = B.to_json(r)
    assert doc["stop"] == "precision" and doc["precision"] == 0.025


def test_balance_time_budget_stops_search_and_verification(capsys):
    assert cli.main(["balance", "hellas", "--players", "2", "--budget", "4s", "--precision", "0.1",
                     "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "Verification stopped: budget of 4 s spent after" in out and "target ±0.1" in out


@pytest.mark.parametrize("argv, message", [
    (["--budget", "abc"], "--budget 'abc'"),
    (["--precision", "0"], "--precision 0"),
    (["--precision", "60"], "--precision 60"),
])
def test_balance_precision_bad_input_one_line(argv, message, capsys):
    assert cli.main(["balance", "hellas", "--players", "2"] + argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("boardlab: error: ") and message in err[0], err


SKILL = """
[study]
title = "t"
game = "hellas"
seed = 5
games = 1000

[[skill]]
name = "skill"
title = "Skill"
players = 2
levels = ["random", "balanced"]
games = 30000
ladder_games = 20
precision = 4
"""


def test_skill_part_to_precision(tmp_path):
    from reports.commands.study import load_study
    from reports.study import run_study, study_report

    path = tmp_path / "s.toml"
    path.write_text(SKILL)
    study = load_study(str(path))
    part = study.parts[0]
    assert part.spec.precision == 0.04 and "until every seat is within ±4 pp" in part.spec.summary()
    sets = run_study(study, str(tmp_path / "out"), workers=1, log=lambda line: None)
    docs = {}
    for level in ("random", "balanced"):
        folder = tmp_path / "out" / "runs" / "skill" / "skill" / level
        docs[level] = json.loads((folder / "precision.json").read_text())
        assert docs[level]["stop"] == "precision" and docs[level]["games"] < 30_000
        assert all(r["half"] <= 0.04 for r in docs[level]["rows"])
    report = study_report(study, sets)
    trend = next(s for s in report.sections if s.title.endswith("Seat advantage against skill"))
    assert any(p.startswith("**Precision:**") and "random: every seat within ±4 pp" in p for p in trend.paragraphs)
    # the level table shows the runs' own confidence sequences
    levels = next(t.frame for t in trend.tables if t.name.endswith("skill_levels"))
    for r in levels.iter_rows(named=True):
        cs = docs[r["level"]]["rows"][r["seat"]]
        assert r["win_lo"] == pytest.approx(cs["lo"]) and r["win_hi"] == pytest.approx(cs["hi"])


@pytest.mark.parametrize("extra, message", [
    ('budget = "60s"\n', "budget goes with precision"),
    ("precision = 0\n", "precision must be"),
    ('precision = 2\nbudget = "abc"\n', "budget"),
    ("precision = 2\nbudget = 100\n", "budget must be a time"),
])
def test_skill_precision_keys_checked(tmp_path, extra, message):
    from reports.commands.study import load_study
    from reports.study import StudyError

    text = SKILL.replace("precision = 4\n", "") + extra
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(StudyError, match=message):
        load_study(str(path))


def test_balance_part_to_precision(tmp_path):
    from reports.commands.study import load_study
    from reports.study import run_study, study_report

    path = tmp_path / "b.toml"
    path.write_text('[study]\ntitle = "t"\ngame = "hellas"\nseed = 2\ngames = 50000\n\n[[balance]]\nname = "b"\n'
                    'title = "B"\nplayers = 2\nstrategy = "balanced"\nprecision = 3\n')
    study = load_study(str(path))
    sets = run_study(study, str(tmp_path / "out"), workers=1, log=lambda line: None)
    run = next(iter(sets["b"].runs.values()))
    doc = json.loads(open(os.path.join(run.path, "precision.json")).read())
    assert doc["stop"] == "precision" and doc["games"] < 50_000
    assert run.players.select(pl.col("game_index").max()).collect().item() == doc["games"] - 1
    report = study_report(study, sets)
    assert any("**Precision:**" in p and "every seat within ±3 pp" in p for s in report.sections
               for p in s.paragraphs)


# ---------------------------------------------------------------- a compensation's robustness

def test_compensation_table_and_sentence():
    from analysis.robustness import compensation_sentence, compensation_table

    rng = np.random.default_rng(3)
    n = 20_000

    def two(p0):
        w0 = (rng.random(n) < p0).astype(float)
        return np.stack([w0, 1 - w0], axis=1)

    base = two(0.50)
    conds = {"balanced": base, "same": base.copy(), "random": two(0.501), "flipped rule": two(0.45)}
    kinds = {"balanced": "baseline", "same": "rule", "random": "bot", "flipped rule": "rule"}
    t = compensation_table("balanced", conds, kinds)
    st = {r["condition"]: r for r in t.iter_rows(named=True)}
    assert st["balanced"]["status"] == "balances" and st["random"]["status"] == "balances"
    assert st["flipped rule"]["status"] == "gap" and st["flipped rule"]["worst_seat"] in (0, 1)
    assert abs(st["flipped rule"]["gap_pp"] - 5) < 1.5 and st["flipped rule"]["gap_lo_pp"] > 0
    assert st["same"]["same_games"] and not st["random"]["same_games"]
    said = compensation_sentence(t, [2, 0])
    assert said.startswith("The compensation (2, 0) (seat_points) balances under balanced")
    assert "still balances (no seat told from fair) under random;" in said
    assert "leaves seat 0 disfavoured by 4" in said or "leaves seat 0 disfavoured by 5" in said
    assert "pp under flipped rule (largest seat gap" in said
    assert "no game changed under same" in said


def test_robustness_command_with_compensation(tmp_path, capsys):
    csv = str(tmp_path / "r.csv")
    assert cli.main(["robustness", "hellas", "--players", "2", "--games", "800", "--bots", "random", "--no-rules",
                     "--compensation", "2,0", "--workers", "1", "--csv", csv]) == 0
    out = capsys.readouterr().out
    assert "with the compensation (2, 0) (seat_points) on the same games" in out
    assert "The compensation (2, 0) (seat_points)" in out
    comp = pl.read_csv(str(tmp_path / "r-compensation.csv"))
    assert comp["condition"].to_list() == ["balanced", "random"] and (comp["n"] == 800).all()


@pytest.mark.parametrize("value, message", [("2,x", "one integer per seat"), ("1,2,3", "3 numbers for 2 players")])
def test_robustness_compensation_bad_input(value, message, capsys):
    assert cli.main(["robustness", "hellas", "--players", "2", "--games", "10", "--bots", "random",
                     "--no-rules", "--compensation", value]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("boardlab: error: ") and message in err[0], err


@pytest.mark.parametrize("argv, message", [
    (["--budget", "30s"], "--budget goes with --precision"),
    (["--precision", "2", "--budget", "500"], "give a time"),
    (["--precision", "-1"], "--precision -1"),
])
def test_ladder_precision_bad_input_one_line(argv, message, capsys, tmp_path):
    assert cli.main(["ladder", "hellas", "--players", "2", "--levels", "2", "--strategies", "random",
                     "--out", str(tmp_path / "l")] + argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("boardlab: error: ") and message in err[0], err


def test_robustness_finds_the_compensation_on_other_seeds(capsys):
    assert cli.main(["robustness", "hellas", "--players", "2", "--games", "1000", "--bots", "random", "--no-rules",
                     "--compensation", "find", "--seed", "4", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    head = next(line for line in out.splitlines() if line.startswith("hellas, 2 players, strategy balanced"))
    assert "seed 5" in head                    # the search's seed: the table's games (seed 4) are fresh
    vec = out.split("compensation (", 1)[1].split(")", 1)[0]
    assert f"The compensation ({vec}) (seat_points)" in out
