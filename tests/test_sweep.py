"""[[sweep]] study parts: grid planning, adaptive refinement, data-file fields, the gap statistics, errors."""
import json
import math
import os

import polars as pl
import pytest

from analysis import sweep as S

pytest.importorskip("simcore.hellas")

from reports import cli  # noqa: E402
from reports.commands.study import load_study  # noqa: E402
from reports.study import StudyError, quick  # noqa: E402

HEAD = "[study]\ngame = 'hellas'\nseed = 5\ngames = 40\n"


def _json(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _write(tmp_path, text, name="study.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# ---------------------------------------------------------------- the statistics

def test_gap_and_significance_on_a_hand_built_table():
    # cell a: 300 games, wins 130/90/80 -> shares .433/.300/.267, chi2 = (900+100+400)/100 = 14, df 2
    # cell b: wins 105/100/95 (a tie split in halves in seat 0) -> chi2 = (25+0+25)/100 = 0.5
    sums = pl.DataFrame({"cell": ["a"] * 3 + ["b"] * 3, "n_players": [3] * 6, "seat": [0, 1, 2] * 2,
                         "n": [300] * 6, "wins": [130.0, 90.0, 80.0, 104.5, 100.5, 95.0]})
    out = S.seat_balance(sums, "cell")
    a, b = out.row(0, named=True), out.row(1, named=True)
    assert a["n"] == 300 and a["fair"] == pytest.approx(1 / 3)
    assert a["share_0"] == pytest.approx(130 / 300) and a["share_2"] == pytest.approx(80 / 300)
    assert a["gap"] == pytest.approx(130 / 300 - 1 / 3) and a["gap_seat"] == 0
    assert a["chi2"] == pytest.approx(14.0) and a["df"] == 2
    assert a["p"] == pytest.approx(math.exp(-7.0))       # chi-square sf with 2 df is exp(-x/2)
    assert a["significant"] is True
    # the gap's interval is seat 0's Wilson interval minus the fair share
    assert a["gap_lo"] == pytest.approx(a["lo_0"] - 1 / 3) and a["gap_hi"] == pytest.approx(a["hi_0"] - 1 / 3)
    assert b["chi2"] == pytest.approx((4.5 ** 2 + 0.5 ** 2 + 5 ** 2) / 100)
    assert b["p"] == pytest.approx(math.exp(-b["chi2"] / 2)) and b["significant"] is False
    assert b["gap_seat"] == 2 and b["gap"] == pytest.approx(1 / 3 - 95 / 300)
    assert b["gap_lo"] == 0.0          # seat 2's interval covers 1/3
    assert S.metric_value(a, S.parse_metric("deviation[2]", 3)) == pytest.approx(80 / 300 - 1 / 3)
    assert S.metric_value(b, S.parse_metric("share[1]", 3)) == pytest.approx(100.5 / 300)


def test_axis_values_and_grid():
    assert S.axis_values([0, 6, 2]) == ([0, 2, 4, 6], True, True)
    assert S.axis_values([0.1, 0.3, 0.1]) == ([0.1, 0.2, 0.3], True, False)     # no 0.30000000000000004
    assert S.axis_values(values=["0,1", "1,0"]) == (["0,1", "1,0"], False, False)
    assert S.grid([[1, 2, 3], ["r", "f"]]) == [(1, "r"), (2, "r"), (3, "r"), (1, "f"), (2, "f"), (3, "f")]
    for bad, msg in (([3, 1, 1], "empty"), ([0, 1, 0], "step"), ([0, 1000, 1], "at most"), ([0, 1], "three")):
        with pytest.raises(ValueError, match=msg):
            S.axis_values(bad)
    with pytest.raises(ValueError, match="twice"):
        S.axis_values(values=[1, 1])


def test_adaptive_refines_to_a_known_crossing_one_cell_at_a_time():
    seen = []

    def metric(cell):
        seen.append(cell)
        return cell[0] - 13.3            # crosses 0 between 13 and 14

    out = S.adaptive(S.grid([list(range(0, 41, 10))]), metric, 0.0, budget=20, numeric=[True], integer=[True])
    assert [c for c, _, _ in out] == seen                       # played in order, each once
    assert [c[0] for c, _, s in out if s == 0] == [0, 10, 20, 30, 40]
    added = [c[0] for c, _, s in out if s > 0]
    assert added == [15, 12, 13, 14]                            # bisection of (10, 20), then of what straddles
    assert [s for _, _, s in out if s > 0] == [1, 2, 3, 4]
    # no interval is left: 13 and 14 are neighbours, the crossing is bracketed
    # a budget stops it early
    short = S.adaptive(S.grid([list(range(0, 41, 10))]), lambda c: c[0] - 13.3, 0.0, budget=2,
                       numeric=[True], integer=[True])
    assert [c[0] for c, _, s in short if s > 0] == [15, 12]


def test_adaptive_in_two_dimensions_and_float_resolution():
    # the crossing moves with y: x* = 2 + 3y; y is categorical (not refined)
    def metric(cell):
        return cell[0] - (2 + 3 * {"a": 0, "b": 1}[cell[1]]) - 0.5

    out = S.adaptive(S.grid([[0, 8], ["a", "b"]]), metric, 0.0, budget=50, numeric=[True, False],
                     integer=[True, False])
    for y, star in (("a", 2.5), ("b", 5.5)):
        xs = sorted(c[0] for c, _, _ in out if c[1] == y)
        below = max(x for x in xs if x < star)
        above = min(x for x in xs if x > star)
        assert above - below == 1, (y, xs)
    assert all(c[1] in ("a", "b") for c, _, _ in out)
    # float axis: bisected until the half-interval is below the resolution
    f = S.adaptive([(0.0,), (1.0,)], lambda c: c[0] - 0.3, 0.0, budget=100, numeric=[True], integer=[False],
                   resolution=[0.01])
    xs = sorted(c[0] for c, _, _ in f)
    lo, hi = max(x for x in xs if x < 0.3), min(x for x in xs if x > 0.3)
    assert hi - lo < 0.02 and len(f) < 12
    # nothing straddles: no refinement
    assert len(S.adaptive([(0,), (4,)], lambda c: 1.0, 0.0, budget=5, numeric=[True], integer=[True])) == 2


# ---------------------------------------------------------------- planning and errors

def test_grid_planning_from_a_study_file(tmp_path):
    text = HEAD + """
[[sweep]]
name = "sw"
players = 2
strategy = "balanced"
x = { setting = "seat_bonus[0]", range = [0, 4, 2] }
y = { setting = "quarry_yields", values = ["rising", "falling"] }
games = 30

[[sweep]]
name = "short"
players = 3
settings = { seat_points = ["0,0,0", "0,1,2"] }
"""
    study = load_study(_write(tmp_path, text))
    sw, short = study.parts
    assert sw.kind == "sweep" and sw.players == 2
    cells = sw.sweep.grid()
    assert cells == [(0, "rising"), (2, "rising"), (4, "rising"), (0, "falling"), (2, "falling"), (4, "falling")]
    assert sw.sweep.label(cells[1]) == "seat_bonus[0]=2, quarry_yields=rising"
    assert sw.games == 6 * 30 and short.games == 2 * 40
    assert study.total_games() == 6 * 30 + 2 * 40
    quick(study, 10)
    assert sw.sweep.games == 10 and study.total_games() == 6 * 10 + 2 * 10
    from reports.sweep import cell_variant
    v = cell_variant(sw.sweep, (4, "falling"), 2, str(tmp_path))
    assert v == {"seat_bonus": "4,0", "quarry_yields": "falling"}
    assert cell_variant(short.sweep, ("0,1,2",), 3, str(tmp_path)) == {"seat_points": "0,1,2"}


def test_seat_entries_keep_the_variant_and_two_fields_edit_one_copy(tmp_path):
    text = HEAD + """
[[sweep]]
name = "seat"
players = 3
variant = { seat_bonus = "1,0,0" }
x = { setting = "seat_bonus[2]", values = [0, 3] }

[[sweep]]
name = "two"
players = 3
variant = { quarry_yields = "falling" }
x = { field = "quarry_yields:tiles[0].marble", values = [0, 5] }
y = { field = "quarry_yields:tiles[1].number", values = [90, 91] }
"""
    from reports.sweep import cell_variant

    seat, two = load_study(_write(tmp_path, text)).parts
    assert cell_variant(seat.sweep, (3,), 3, str(tmp_path)) == {"seat_bonus": "1,0,3"}
    v = cell_variant(two.sweep, (5, 91), 3, str(tmp_path / "c"))
    doc = _json(v["quarry_yields"])
    falling = _json(two.sweep.base_files["quarry_yields"])
    assert two.sweep.base_files["quarry_yields"].endswith("quarry_tiles_falling.json")     # the variant's file
    assert doc["tiles"][0] == {**falling["tiles"][0], "marble": 5}
    assert doc["tiles"][1] == {**falling["tiles"][1], "number": 91}
    assert doc["tiles"][2:] == falling["tiles"][2:]
    assert "tiles[0].marble = 5; tiles[1].number = 91" in doc["status"]


BAD = [
    ("players = 2\nx = { setting = 'quarry_yeilds', values = ['rising'] }", "x: unknown hellas setting"),
    ("players = 2\nx = { setting = 'seat_bonus[0]', range = [4, 0, 1] }", "x: range [4, 0, 1] is empty"),
    ("players = 2\nsettings = { seat_bonus = ['0,0'], seat_points = ['0,0'], quarry_yields = ['rising'] }",
     "3 settings"),
    ("players = 2\nsettings = { seat_bonus = ['0,0'] }\nx = { setting = 'seat_points[0]', values = [1] }",
     "either 'settings' or 'x'"),
    ("players = 2\nstrategy = 'balanced'", "missing the swept setting"),
    ("players = 2\ny = { setting = 'seat_bonus[0]', values = [1] }", "y without x"),
    ("players = [2, 3]\nx = { setting = 'seat_bonus[0]', values = [1] }", "one player count"),
    ("players = 2\nx = { setting = 'seat_bonus[2]', values = [1] }", "seat 2 does not exist"),
    ("players = 2\nx = { setting = 'quarry_yields[0]', values = [1] }", "only the per-seat settings"),
    ("players = 2\nx = { setting = 'seat_bonus[0]', values = [500] }", "cell seat_bonus[0]=500: seat_bonus values"),
    ("players = 2\nx = { setting = 'seat_bonus[0]', values = [1], step = 2 }", "x: unknown key 'step'"),
    ("players = 2\nx = { setting = 'seat_bonus[0]', field = 'board:fields[0].coast', values = [1] }",
     "either 'setting'"),
    ("players = 2\nmode = 'adaptive'\nx = { setting = 'seat_bonus[0]', range = [0, 4, 1] }", "needs target"),
    ("players = 2\nmode = 'adaptive'\ntarget = { threshold = 0.02 }\n"
     + "x = { setting = 'quarry_yields', values = ['rising', 'falling'] }", "needs a numeric axis"),
    ("players = 2\nmode = 'bisect'\nx = { setting = 'seat_bonus[0]', values = [1] }", "mode must be one of"),
    ("players = 2\nbudget = 3\nx = { setting = 'seat_bonus[0]', values = [1] }", "budget is the adaptive"),
    ("players = 2\ntarget = { metric = 'gap[0]', threshold = 0.1 }\nx = { setting = 'seat_bonus[0]', values = [1] }",
     "unknown metric"),
    ("players = 2\nx = { field = 'start_player:x', values = [1] }", "not a data-file setting of hellas"),
    ("players = 2\nx = { field = 'quarry_yields:tiles[99].marble', values = [1] }", "index 99 out of range"),
    ("players = 2\nx = { field = 'quarry_yields:tiles[0].yield', values = [1] }", "no key 'yield'"),
    ("players = 2\nx = { field = 'quarry_yields:tiles[0]..marble', values = [1] }", "bad JSON path"),
    ("players = 2\nx = { field = 'quarry_yields:tiles[*].marble', values = [500] }",
     "quarry tile file (the cell's copy) quarry_tiles.sweep.json: field tiles[0].marble is 500; allowed 0..100"),
    ("players = 2\nvariant = { quarry_yields = 'falling' }\nx = { setting = 'quarry_yields', values = ['rising'] }",
     "variant sets 'quarry_yields'"),
]


@pytest.mark.parametrize("body, expected", BAD)
def test_bad_sweep_keys_name_the_key(tmp_path, body, expected):
    path = _write(tmp_path, HEAD + "[[sweep]]\nname = 's'\n" + body + "\n")
    with pytest.raises(StudyError) as exc:
        load_study(path)
    msg = str(exc.value)
    assert msg.startswith(f"{path}: [[sweep]] 's'"), msg
    assert expected in msg and "\n" not in msg, msg


def test_cli_sweep_error_is_one_line_exit_2(tmp_path, capsys):
    path = _write(tmp_path, HEAD + "[[sweep]]\nname = 's'\nplayers = 2\nx = { setting = 'nope', values = [1] }\n")
    assert cli.main(["study", path, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("boardlab: error: ") and "unknown hellas setting 'nope'" in err[0]


# ---------------------------------------------------------------- played

def test_data_file_field_changes_the_played_game(tmp_path, capsys):
    text = HEAD + """
[[sweep]]
name = "tiles"
players = 3
strategy = "balanced"
settings = { "quarry_yields:tiles[*].marble" = [0, 2] }
"""
    out = str(tmp_path / "out")
    assert cli.main(["study", _write(tmp_path, text), "--out", out, "--workers", "1"]) == 0
    runs = os.path.join(out, "runs", "tiles")
    cells = sorted(d for d in os.listdir(runs) if d != "data")
    assert len(cells) == 2
    income = {}
    for d in cells:
        m = _json(os.path.join(runs, d, "manifest.json"))
        path = m["variant"]["quarry_yields"]
        # the copy lives in the part's folder, is recorded as the run's data file, and says it is assumed
        assert path.startswith(os.path.abspath(os.path.join(runs, "data")))
        assert m["data_status"]["quarry_tiles"] == {"file": path, "assumed": True}
        doc = _json(path)
        assert doc["status"].startswith("assumed (sweep copy of ") and "tiles[*].marble" in doc["status"]
        value = {t["marble"] for t in doc["tiles"]}
        assert len(value) == 1
        ev = pl.read_parquet(os.path.join(runs, d, "events", "*.parquet"))
        cols = [f"income_{i}" for i in range(3)]
        income[value.pop()] = ev.select(pl.sum_horizontal(cols)).to_series()
    # with every tile worth 0 no quarry pays; with 2 every payment is even and some are paid
    assert income[0].max() == 0
    assert income[2].max() > 0 and (income[2] % 2 == 0).all()
    cells_csv = pl.read_csv(os.path.join(out, "tables", "tiles_sweep_cells.csv"))
    assert cells_csv.height == 2 and cells_csv["n"].to_list() == [40, 40]


def test_adaptive_sweep_end_to_end_report_and_resume(tmp_path, capsys):
    text = HEAD + """
[[balance]]
name = "bal"
players = 2
strategy = "balanced"

[[sweep]]
name = "pts"
players = 2
strategy = "balanced"
mode = "adaptive"
x = { setting = "seat_points[0]", range = [0, 8, 4] }
target = { metric = "deviation[0]", threshold = 0 }
budget = 2
"""
    path = _write(tmp_path, text)
    out = str(tmp_path / "out")
    assert cli.main(["study", path, "--out", out, "--workers", "1"]) == 0
    log = capsys.readouterr().err
    # seat_points[0]=0 is the balance run at 2 players: played once
    assert "seat_points[0]=0: the same games as bal/2 players (played once)" in log, log
    table = pl.read_csv(os.path.join(out, "tables", "pts_sweep_cells.csv"))
    assert table.height == 3 + 2
    assert sorted(table.filter(pl.col("stage") == 0)["seat_points[0]"].to_list()) == [0, 4, 8]
    # each added cell is the first refinement of the cells played before it (the grid's, then the added ones)
    rows = table.sort("stage").iter_rows(named=True)
    known = {}
    for r in rows:
        cell = (r["seat_points[0]"],)
        if r["stage"] > 0:
            assert S.refinements(known, 0.0, [True], [True], [8 / 256], [8.0])[0] == cell
            lo, hi = max(c for c in known if c < cell), min(c for c in known if c > cell)
            assert min(known[lo], known[hi]) < 0 < max(known[lo], known[hi])
        known[cell] = r["deviation[0]"]
    for seat in (0, 1):
        assert (table[f"lo_{seat}"] <= table[f"share_{seat}"]).all()
        assert (table[f"share_{seat}"] <= table[f"hi_{seat}"]).all()
    assert ((table["p"] < 0.05) == table["significant"]).all()
    for fig in ("balance_surface", "seat_shares", "seat_gap"):
        assert os.path.isfile(os.path.join(out, "figures", f"pts_{fig}.png"))
    with open(os.path.join(out, "report.html"), encoding="utf-8") as fh:
        html = fh.read()
    assert "Balance surface" in html and "crosses 0" in html
    best = table.sort("gap").row(0, named=True)
    assert f"the smallest largest seat gap is at {best['cell']}, {best['gap'] * 100:.1f} pp" in html
    assert html.index("Findings at a glance") < html.index("Balance surface")
    # a rerun plays nothing new and makes the same choices
    assert cli.main(["study", path, "--out", out, "--workers", "1"]) == 0
    again = pl.read_csv(os.path.join(out, "tables", "pts_sweep_cells.csv"))
    assert again.equals(table)


def test_example_sweep_file_parses():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    study = load_study(os.path.join(here, "docs", "examples", "hellas_sweep.toml"))
    grid, adaptive, flat = study.parts
    assert [p.kind for p in study.parts] == ["sweep"] * 3
    assert len(grid.sweep.grid()) == 10 and [a.name for a in grid.sweep.axes] == ["seat_bonus[0]", "quarry_yields"]
    assert adaptive.sweep.mode == "adaptive" and adaptive.sweep.metric == ("deviation", 0)
    assert flat.sweep.axes[0].path == (("key", "tiles"), ("all", None), ("key", "marble"))
    # planned: every grid cell, and the adaptive part's budget at most
    assert study.total_games() == 10 * 20000 + (5 + 4) * 20000 + 3 * 10000
