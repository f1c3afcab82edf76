"""``precision`` and ``budget`` on the study parts [[compare]], [[variants]] and [[sweep]] (issue 33): each
run (lineup, variant, cell) plays until every seat's 95% interval is within the target — a confidence
sequence, valid at that stop — its games the cap, or its time budget is spent; the progress shows the
half-width and the time left, the report says how each run stopped."""
import json
import os

import polars as pl
import pytest

from reports.commands.study import load_study
from reports.study import run_study, study_report

HEAD = '[study]\ntitle = "t"\ngame = "hellas"\nseed = 2\ngames = 50000\n\n'


def _play(tmp_path, text):
    path = tmp_path / "s.toml"
    path.write_text(HEAD + text)
    study = load_study(str(path))
    lines = []
    sets = run_study(study, str(tmp_path / "out"), workers=1, log=lines.append)
    return study, sets, lines


def _docs(rs):
    return {label: json.loads(open(os.path.join(run.path, "precision.json")).read()) for label, run in rs.runs.items()}


def _assert_stopped_on_width(rs, pp, cap):
    for label, doc in _docs(rs).items():
        assert doc["stop"] == "precision" and doc["method"] == "cs", label
        assert doc["games"] < cap and all(r["half"] <= pp / 100 for r in doc["rows"])
        assert doc["reason"] == f"every seat within ±{pp:g} pp after {doc['games']:,} games"
        n = rs.runs[label].players.select(pl.col("game_index").max()).collect().item() + 1
        assert n == doc["games"]                      # the folder holds exactly the games played


def _precision_paragraph(report):
    return next(p for s in report.sections for p in s.paragraphs if p.startswith("**Precision:**"))


def test_variants_part_to_precision(tmp_path):
    study, sets, lines = _play(tmp_path, '[[variants]]\nname = "v"\ntitle = "V"\nplayers = 2\nstrategy = "balanced"\n'
                                         'precision = 4\noptions = { rising = { quarry_yields = "rising" }, '
                                         'falling = { quarry_yields = "falling" } }\n')
    rs = sets["v"]
    assert set(rs.runs) == {"rising", "falling"}
    _assert_stopped_on_width(rs, 4, 50_000)
    # the variants play on to the same games (paired differences over all of them)
    assert len({doc["games"] for doc in _docs(rs).values()}) == 1
    # the progress: games, the widest half-width now, the target and the time left
    assert any(line.startswith("  V: rising: precision: ") and "pp now (target ±4)" in line and "left" in line
               for line in lines)
    para = _precision_paragraph(study_report(study, sets))
    assert "rising: every seat within ±4 pp after" in para and "falling: every seat within ±4 pp" in para


def test_compare_part_to_precision(tmp_path):
    study, sets, lines = _play(tmp_path, '[[compare]]\nname = "c"\ntitle = "C"\nplayers = 2\n'
                                         'strategies = ["balanced", "city_builder"]\nprecision = 4\n')
    rs = sets["c"]
    assert set(rs.runs) == {"balanced|city_builder", "city_builder|balanced"}
    _assert_stopped_on_width(rs, 4, 25_000)           # each lineup's cap: its share of the games
    assert os.path.basename(next(iter(rs.runs.values())).path) == "lineup-000"   # the compare layout
    report = study_report(study, sets)
    assert "balanced|city_builder: every seat within ±4 pp" in _precision_paragraph(report)
    ratings = next(t.frame for s in report.sections for t in s.tables if t.name.endswith("compare_ratings"))
    assert set(ratings["strategy"]) == {"balanced", "city_builder"} and ratings["elo_lo"].is_finite().all()


def test_sweep_part_to_precision_with_a_time_budget(tmp_path):
    study, sets, lines = _play(tmp_path, '[[sweep]]\nname = "sw"\ntitle = "SW"\nplayers = 2\nstrategy = "balanced"\n'
                                         'x = { setting = "seat_points[1]", values = [0, 2] }\nprecision = 4\n'
                                         'precision_budget = "10m"\n')
    rs = sets["sw"]
    assert len(rs.runs) == 2
    _assert_stopped_on_width(rs, 4, 50_000)
    para = _precision_paragraph(study_report(study, sets))
    assert para.count("every seat within ±4 pp") == 2


def test_a_run_out_of_time_says_so(tmp_path):
    # a target far out of reach and a tiny time budget: the run stops on the clock and says so
    study, sets, lines = _play(tmp_path, '[[variants]]\nname = "v"\ntitle = "V"\nplayers = 2\n'
                                         'strategy = "balanced"\nprecision = 0.2\nbudget = "1s"\n'
                                         'options = { rising = { quarry_yields = "rising" }, '
                                         'falling = { quarry_yields = "falling" } }\n')
    for doc in _docs(sets["v"]).values():
        assert doc["stop"] == "seconds" and doc["reason"].startswith("budget of 1 s")
        assert "target ±0.2" in doc["reason"]
    assert "budget of 1 s" in _precision_paragraph(study_report(study, sets))


@pytest.mark.parametrize("part,extra,message", [
    ('[[compare]]\nname = "c"\nplayers = 2\nstrategies = ["balanced", "random"]\n', "precision = 0\n",
     "precision must be percentage points"),
    ('[[variants]]\nname = "v"\nplayers = 2\noptions = { a = { quarry_yields = "rising" }, b = { quarry_yields = '
     '"falling" } }\n', 'budget = "5m"\n', "budget goes with precision"),
    ('[[sweep]]\nname = "s"\nplayers = 2\nx = { setting = "seat_points[1]", values = [0, 2] }\n',
     'precision = 2\nprecision_budget = 100\n', "precision_budget must be a time per run"),
    ('[[sweep]]\nname = "s"\nplayers = 2\nx = { setting = "seat_points[1]", values = [0, 2] }\n',
     'precision = 2\nbudget = "5m"\n', "budget is the adaptive mode's cells.*precision_budget"),
])
def test_precision_keys_checked(tmp_path, part, extra, message):
    from reports.experiments._part import StudyError

    path = tmp_path / "s.toml"
    path.write_text(HEAD + part + extra)
    with pytest.raises(StudyError, match=message):
        load_study(str(path))
