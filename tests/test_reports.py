"""Reports: `boardlab report` and `boardlab compare` end to end on small Hellas runs."""
import base64
import os
import re

import polars as pl
import pytest

hellas = pytest.importorskip("simcore.hellas")

from reports import cli  # noqa: E402
from strategies import resolve_seats  # noqa: E402
from reports.render import figures as F  # noqa: E402
from reports.render import workers as W  # noqa: E402

FIGURES = ["win_share_by_seat", "score_distributions", "category_weights", "outcome_distributions",
           "quarry_distributions",
           "convergence"]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from simcore.run import simulate

    out = str(tmp_path_factory.mktemp("runs") / "hellas-3p")
    simulate("hellas", players=3, games=300, seed=5, out=out, strategies=resolve_seats("hellas", 3, "balanced"),
             progress=False,
             workers=1, chunk_size=100)
    return out


def _one_line_error(capsys, rc):
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2
    assert len(err) == 1 and err[0].startswith("boardlab: error: "), err
    return err[0]


def test_report_writes_every_figure_and_states_provenance(small_run, tmp_path, capsys):
    out = str(tmp_path / "rep")
    assert cli.main(["report", small_run, "--out", out]) == 0
    printed = capsys.readouterr().out
    assert "Win share by player" in printed and "report.html" in printed
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
    for name in FIGURES:
        for ext in ("png", "svg"):
            path = os.path.join(out, "figures", f"{name}.{ext}")
            assert os.path.getsize(path) > 1000, path
        assert f'id="fig-{name}"' in html
        assert f"figures/{name}.png" in md
    # every figure is embedded (self-contained) and is a real PNG
    embedded = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    assert len(embedded) == len(FIGURES)
    assert all(base64.b64decode(b)[:8] == b"\x89PNG\r\n\x1a\n" for b in embedded)
    assert "<link" not in html and "<script src" not in html
    # data status, strategies and weights, seed, version
    assert "Data status: assumed components" in html and "quarry_tiles" in html
    assert "Seed: 5" in html and "boardlab 0.1" in html
    assert "temple_columns=" in html            # the strategy's weights
    assert "boardlab simulate hellas --players 3 --games 300 --seed 5 --strategy balanced" in html
    # each figure has a caption with the number of games
    assert html.count("300 games") >= len(FIGURES)
    for table in ("seat_advantage", "category_logit", "quarry_yield_summary", "games_needed", "data_status"):
        assert os.path.exists(os.path.join(out, "tables", f"{table}.csv"))
    seats = pl.read_csv(os.path.join(out, "tables", "seat_advantage.csv"))
    assert seats["n"].to_list() == [300, 300, 300]
    assert abs(seats["win_share"].sum() - 1) < 1e-9
    # the findings come first and quote the seat table: seat 0's share with its CI, n, the test's verdict
    assert md.index("## Findings at a glance") < md.index("## What was run")
    s0 = seats.row(0, named=True)
    p = pl.read_csv(os.path.join(out, "tables", "seat_equality_test.csv"))["p_value"][0]
    verdict = "rejected" if p < 0.05 else "not rejected at the 5% level"
    assert (f"(300 games): player 1 (starts) wins {s0['win_share'] * 100:.1f}% [{s0['win_lo'] * 100:.1f}%, "
            f"{s0['win_hi'] * 100:.1f}%] against a fair 33.3%") in md
    assert f"Equal seats: {verdict} (chi-square p = {p:.2g})" in md
    found = pl.read_csv(os.path.join(out, "tables", "findings_seats.csv"))
    assert found["games"].to_list() == [300] and found["seat 0 win share"][0] == pytest.approx(s0["win_share"])


def test_report_default_out_is_inside_the_run(small_run, capsys):
    assert cli.main(["report", small_run]) == 0
    assert os.path.exists(os.path.join(small_run, "report", "report.html"))
    capsys.readouterr()


@pytest.mark.parametrize("kind", ["missing", "empty", "file", "partial"])
def test_bad_folders_one_line_exit_2(kind, tmp_path, capsys):
    path = tmp_path / "x"
    if kind == "empty":
        path.mkdir()
    elif kind == "file":
        path.write_text("not a folder")
    elif kind == "partial":
        from simcore.run import simulate
        simulate("hellas", players=2, games=40, seed=1, out=str(path), chunk_size=10, max_chunks=1,
                 progress=False, workers=1)
    msg = _one_line_error(capsys, cli.main(["report", str(path), "--out", str(tmp_path / "r")]))
    assert str(path) in msg
    assert not os.path.exists(tmp_path / "r" / "report.html")


def test_interrupted_run_is_reported_with_partial_and_says_so(tmp_path, capsys):
    from simcore.run import simulate

    path = tmp_path / "x"
    simulate("hellas", players=2, games=40, seed=1, out=str(path), chunk_size=10, max_chunks=2,
             progress=False, workers=1)
    msg = _one_line_error(capsys, cli.main(["report", str(path), "--out", str(tmp_path / "r")]))
    assert "--partial" in msg
    assert cli.main(["report", str(path), "--out", str(tmp_path / "r"), "--partial"]) == 0
    capsys.readouterr()
    md = open(tmp_path / "r" / "report.md", encoding="utf-8").read()
    assert "20 of 40 games (interrupted run: finished chunks only)" in md.splitlines()[0]
    seats = pl.read_csv(tmp_path / "r" / "tables" / "seat_advantage.csv")
    assert seats["n"].to_list() == [20, 20]
    assert "(20 games)" in md and "20 games." in md          # findings and figure captions count what was played


def test_figures_are_notebook_friendly(small_run):
    from matplotlib.figure import Figure

    from analysis import load_run
    from analysis.seats import seat_advantage

    run = load_run(small_run)
    fig = F.win_share_by_seat(seat_advantage(run.players.collect()), caption="c")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert "player" in ax.get_xlabel() and "%" in ax.get_ylabel()
    assert fig._suptitle.get_text() == "Win share by player"


def test_quarry_tiles_by_round_reads_runner_columns(small_run):
    from analysis import load_run
    from analysis.games.hellas import quarry_tiles_by_round

    t = quarry_tiles_by_round(load_run(small_run).events.collect())
    assert t.height > 0 and set(t["round"].to_list()) == {0, 1, 2}


def test_lineups_balanced():
    from reports.compare import lineups

    for names, players in [(["a", "b", "c", "d"], 3), (["a", "b"], 4), (list("abcdefgh"), 4)]:
        ls = lineups(names, players)
        for seat in range(players):
            counts = {n: sum(lu[seat] == n for lu in ls) for n in names}
            assert len(set(counts.values())) == 1, (names, players, seat, counts)
    with pytest.raises(ValueError, match="listed twice"):
        lineups(["a", "a"], 2)


def test_compare_every_strategy_every_seat(tmp_path, capsys):
    out = str(tmp_path / "cmp")
    rc = cli.main(["compare", "hellas", "--players", "3", "--strategies",
                   "balanced,city_builder,temple_builder,random", "--games", "48", "--seed", "3",
                   "--out", out, "--workers", "1"])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "rating" in printed and "balanced" in printed
    counts = pl.read_csv(os.path.join(out, "tables", "compare_seat_counts.csv"))
    assert sorted(counts["strategy"].to_list()) == ["balanced", "city_builder", "random", "temple_builder"]
    seat_cols = [c for c in counts.columns if c.startswith("seat ")]
    assert len(seat_cols) == 3
    values = counts.select(seat_cols).to_numpy()
    assert (values == values[0, 0]).all() and values[0, 0] == 48 // 4   # 24 seatings x 2 games, 6 per seat
    assert counts["balanced"].all()
    # the matrix: win share per strategy and seat, consistent with the counts
    matrix = pl.read_csv(os.path.join(out, "tables", "compare_win_share_matrix.csv"))
    assert set(matrix.columns) >= {"strategy", *seat_cols, "all seats", "all seats lo", "all seats hi"}
    # over all seats: the mean of the seat cells (every seat equally often), inside its CI,
    # counted over whole games (48 games; each strategy sits at 36 of them)
    for r in matrix.iter_rows(named=True):
        assert abs(r["all seats"] - sum(r[c] for c in seat_cols) / 3) < 0.11, r
        assert r["all seats lo"] <= r["all seats"] < r["all seats hi"] and r["all seats hi"] > 0, r
        assert r["all seats games"] == 36, r
    assert "all seats" in printed and "per cell" in printed
    pair = pl.read_csv(os.path.join(out, "tables", "compare_pairwise.csv"))
    back = pair.join(pair, left_on=["strategy", "opponent"], right_on=["opponent", "strategy"])
    assert ((back["win_share"] + back["win_share_right"] - 1).abs() < 1e-9).all()
    ratings = pl.read_csv(os.path.join(out, "tables", "compare_ratings.csv"))
    assert ratings.height == 4 and (ratings["elo_lo"] <= ratings["elo"]).all()
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    assert html.count("data:image/png;base64,") == 3
    top = ratings.sort("elo", descending=True).row(0, named=True)
    assert html.index("Findings at a glance") < html.index("What was run")
    assert f"highest rated {top['strategy']}, Elo {top['elo']:,.0f} [{top['elo_lo']:,.0f}, {top['elo_hi']:,.0f}]" in html
    # dominance: the counts of opponents beaten / lost to agree with the pairwise CIs
    dom = pl.read_csv(os.path.join(out, "tables", "compare_dominance.csv"))
    for r in dom.iter_rows(named=True):
        mine = pair.filter(pl.col("strategy") == r["strategy"])
        assert r["beats"] == (mine["lo"] > 0.5).sum() and r["loses"] == (mine["hi"] < 0.5).sum()
        assert r["dominant"] == (r["beats"] == 3)
    assert ("Dominant strategy" in html) == bool(dom["dominant"].any()) and "head-to-head" in printed
    # outcomes of every seating: 24 seatings x 2 games each, too many to draw, pointed to from the findings
    om = pl.read_csv(os.path.join(out, "tables", "outcome_metrics.csv"))
    margins = om.filter(pl.col("statistic") == "margin")
    assert margins["lineup"].n_unique() == 24 and (margins["n"] == 2).all()
    assert not os.path.exists(os.path.join(out, "figures", "outcome_distributions.png"))
    assert "for each of the 24 lineups are in the section" in html


def test_compare_report_draws_the_outcomes_of_few_seatings(tmp_path):
    out = str(tmp_path / "cmp")
    assert cli.main(["compare", "hellas", "--players", "2", "--strategies", "balanced,random",
                     "--games", "40", "--seed", "5", "--out", out, "--workers", "1"]) == 0
    om = pl.read_csv(os.path.join(out, "tables", "outcome_metrics.csv"))
    players = pl.read_parquet(os.path.join(out, "runs", "lineup-000", "players", "*.parquet"))
    totals = players.group_by("game_index").agg(pl.col("total").sort(descending=True).head(2))
    margin = totals["total"].list.first() - totals["total"].list.get(1)
    row = om.filter((pl.col("lineup") == "balanced|random") & (pl.col("statistic") == "margin")).row(0, named=True)
    assert row["n"] == 20 and abs(row["estimate"] - margin.mean()) < 1e-9
    assert os.path.exists(os.path.join(out, "figures", "outcome_distributions.png"))
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    assert "<b>random|balanced</b> outcomes (20 games)" in html or "random|balanced</strong> outcomes (20 games)" in html


def test_compare_unknown_strategy_one_line(tmp_path, capsys):
    rc = cli.main(["compare", "hellas", "--players", "3", "--strategies", "balanced,balnced",
                   "--games", "10", "--out", str(tmp_path / "c")])
    msg = _one_line_error(capsys, rc)
    assert "balnced" in msg


# ---------------------------------------------------------------- Yamatai and Akrotiri

GAME_REPORTS = {
    # game: (players, games, figures of the game's own sections, tables, data files the report must name)
    "yamatai": (3, 200, ["fleet_values", "fleet_pick_rate", "specialist_values", "building_values", "game_length"],
                ["fleet_values", "fleet_regression", "fleet_turn_order", "fleet_pick_rate_by_seat",
                 "specialist_values", "specialist_regression", "building_values", "building_regression",
                 "end_triggers", "ties_for_first"],
                ["specialists.json", "buildings.json", "fleets.json"]),
    "akrotiri": (2, 40, ["map_deck_values", "map_card_values", "goal_values", "market_prices", "game_length"],
                 ["map_deck_values", "map_deck_regression", "map_excavation_by_deck", "map_excavation_by_card",
                  "map_card_values", "goal_values", "goal_scoring", "market_prices", "end_triggers",
                  "ties_for_first"],
                 ["maps.json", "goals.json", "market.json"]),
}


@pytest.mark.parametrize("game", sorted(GAME_REPORTS))
def test_game_report_has_component_values(game, tmp_path, capsys):
    from simcore.run import simulate

    players, games, figures, tables, files = GAME_REPORTS[game]
    run = str(tmp_path / game)
    simulate(game, players=players, games=games, seed=3, out=run, strategies=resolve_seats(game, players, "balanced"),
             progress=False, workers=1)
    out = str(tmp_path / "rep")
    assert cli.main(["report", run, "--out", out]) == 0
    assert "Win share by player" in capsys.readouterr().out
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    generic = [f for f in FIGURES if f != "quarry_distributions"]
    for name in generic + figures:
        assert os.path.getsize(os.path.join(out, "figures", f"{name}.png")) > 1000, name
        assert f'id="fig-{name}"' in html
    for name in tables:
        assert os.path.exists(os.path.join(out, "tables", f"{name}.csv")), name
    # which component data was used, and that it is assumed
    assert "Data status: assumed components" in html
    for f in files:
        assert f in html, f
    assert html.count(f"{games:,} games") >= len(generic + figures)
    # every estimate with its n and CI; ties explicit
    values = pl.read_csv(os.path.join(out, "tables", f"{tables[0]}.csv"))
    assert {"n", "takers", "take_lo", "take_hi", "win_lo", "win_hi", "win_diff_lo", "win_diff_hi"} <= set(values.columns)
    assert (values["n"] == games * players).all()
    assert ((values["take_lo"] <= values["take_rate"]) & (values["take_rate"] <= values["take_hi"])).all()
    reg = pl.read_csv(os.path.join(out, "tables", f"{tables[1]}.csv"))
    assert set(reg["outcome"].to_list()) == {"win", "total"} and (reg["n_games"] == games).all()
    est = reg.drop_nulls("coef")
    assert est.height > 0 and ((est["lo"] <= est["coef"]) & (est["coef"] <= est["hi"])).all()
    ties = pl.read_csv(os.path.join(out, "tables", "ties_for_first.csv"))
    assert ties["n_games"].to_list() == [games] and ties["tied"].item() == ties["shared"].item() + ties["broken"].item()
    trig = pl.read_csv(os.path.join(out, "tables", "end_triggers.csv"))
    assert (trig["n_games"] == games).all() and trig["ended"].sum() >= games


@pytest.mark.parametrize("game", sorted(GAME_REPORTS))
def test_game_report_without_events_says_so(game, tmp_path, capsys):
    from simcore.run import simulate

    run = str(tmp_path / game)
    simulate(game, players=2, games=20, seed=4, out=run, progress=False, workers=1, events=False)
    out = str(tmp_path / "rep")
    assert cli.main(["report", run, "--out", out]) == 0
    capsys.readouterr()
    md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
    assert md.count("recorded no") >= 3
    assert os.path.exists(os.path.join(out, "figures", "game_length.png"))    # from the games table alone


def test_data_status_names_its_runs_briefly_and_exactly():
    from reports.provenance import summarize_labels

    runs = ["balance/2 players", "balance/3 players", "balance/4 players", "yields/rising", "yields/falling"] + \
        [f"strategies/{a}|{b}" for a in "xyz" for b in "xyz" if a != b]
    assert summarize_labels(runs, runs) == "all 11"
    # a board used by 3 and 4 players only: the other balance run is left out, the strategy family is summed up
    assert summarize_labels(runs[1:], runs) == \
        "balance/3 players, balance/4 players, yields/rising, yields/falling, strategies/* (all 6)"
    assert summarize_labels(["yields/falling"], runs) == "yields/falling"
    assert summarize_labels(runs[5:7], runs) == "strategies/x|y, strategies/x|z"   # part of a family: by name
    assert summarize_labels(["only"], ["only"]) == "only"


def test_findings_say_p_below_float_range_not_zero():
    # 100,000 games with a 6-point seat gap give a chi-square p that underflows to 0.0
    from reports.findings import findings_section
    from reports.render.sections import Section, Table

    adv = pl.DataFrame({"run": ["2 players"] * 2, "seat": [0, 1], "n": [100_000] * 2,
                        "win_share": [0.438, 0.562], "win_lo": [0.435, 0.559], "win_hi": [0.441, 0.565],
                        "fair_share": [0.5, 0.5], "deviation": [-0.062, 0.062],
                        "dev_lo": [-0.065, 0.059], "dev_hi": [-0.059, 0.065]})
    found = []
    for p in (0.0, 3.4e-7):
        eq = pl.DataFrame({"run": ["2 players"], "p_value": [p]})
        sec = Section("Balance — Seats", tables=[Table("seat_advantage", adv), Table("seat_equality_test", eq)])
        found.append(" ".join(findings_section([sec]).paragraphs))
    assert "Equal seats: rejected (chi-square p < 1e-300)" in found[0] and "p = 0" not in found[0]
    assert "Equal seats: rejected (chi-square p = 3.4e-07)" in found[1]


def test_lazy_sections_equal_the_eager_analyses(small_run):
    """The sections query lazy scans (a per-game key, blocked fits); their tables equal the analyses of the collected table."""
    from analysis.categories import category_counterfactual, category_logit
    from analysis.games.hellas import marble_income_by_seat, quarry_closures_per_game, quarry_yield_summary
    from analysis.seats import seat_advantage
    from reports.games.hellas import hellas_quarry_section
    from reports.generic import category_section, seat_section
    from reports.runset import RunSet

    rs = RunSet.from_dirs({"r": small_run})
    keys = rs.scan("players").select("game_key").collect()["game_key"]
    assert keys.is_sorted() and keys.n_unique() * 3 == len(keys)       # one key per game, ascending
    p = rs.players.drop("game_key")                                     # eager, no per-game key
    ev, g = rs.events.drop("game_key"), rs.games.drop("game_key")
    want = {"seat_advantage": seat_advantage(p, by="run"),
            "category_logit": category_logit(p, rs.categories, by="run"),
            "category_counterfactual": category_counterfactual(p, rs.categories, by="run"),
            "marble_income_by_seat": marble_income_by_seat(p, by="run"),
            "quarry_closures": quarry_closures_per_game(ev, g.select("run", "game_index"), by="run"),
            "quarry_yield_summary": quarry_yield_summary(ev, by="run")}
    got = {t.name: t.frame for s in (seat_section(rs), category_section(rs), hellas_quarry_section(rs))
           for t in s.tables}
    from polars.testing import assert_frame_equal

    for name, frame in want.items():
        assert_frame_equal(got[name], frame, rel_tol=1e-12, abs_tol=1e-14, check_dtypes=False)


def test_background_figures_render_what_save_renders(tmp_path):
    """Figures handed to ``BackgroundFigures`` section by section (rendered in forked workers while the
    caller goes on) end up where ``write_report`` puts them, byte for byte the PNGs of ``figures.save``;
    a figure it never saw is rendered in ``finish``."""
    from reports.render.workers import BackgroundFigures
    from reports.render.sections import Fig, Section

    def fig(k):
        f = F.Figure(figsize=(3, 2))
        f.add_subplot().plot(range(k + 2), label=str(k))
        return Fig(f"f{k}", f)
    secs = [Section("a", figures=[fig(0), fig(1)]), Section("b", figures=[fig(2)]), Section("c", figures=[fig(3)])]
    late = fig(4)
    bg = BackgroundFigures(workers=2)
    for sec in secs:
        bg.add([sec])
    figs = [f for sec in secs for f in sec.figures] + [late]
    bg.add_figures(figs)
    bg.finish()
    for f in figs:
        bg.move(f, str(tmp_path / f.name))
    bg.close()
    assert not os.path.exists(bg.dir)
    for f in figs:
        W.save(f.figure, str(tmp_path / f"{f.name}-direct"))
        png = (tmp_path / f"{f.name}.png").read_bytes()
        assert png[:4] == b"\x89PNG" and png == (tmp_path / f"{f.name}-direct.png").read_bytes()
        assert os.path.getsize(tmp_path / f"{f.name}.svg") > 0


def test_background_figures_render_here_what_a_worker_cannot(tmp_path, monkeypatch):
    """A figure that does not pickle (a lambda formatter) is rendered in ``finish``, and one a worker
    fails on is rendered again there: every figure ends up written, the PNGs those of ``workers.save``."""
    from matplotlib.ticker import FuncFormatter

    from reports import report as R
    from reports.render.sections import Fig

    parent, save = os.getpid(), W.save

    def flaky(fig, stem, svg=True):           # fails in the workers only
        if os.getpid() != parent and fig.axes[0].get_title() == "fails":
            raise RuntimeError("worker failure")
        return save(fig, stem, svg)

    monkeypatch.setattr(W, "save", flaky)
    figs = []
    for name, title in (("plain", "ok"), ("lambda", "ok"), ("broken", "fails")):
        f = F.Figure(figsize=(3, 2))
        ax = f.add_subplot()
        ax.plot([1, 3, 2])
        ax.set_title(title)
        if name == "lambda":
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.1f}"))
        figs.append(Fig(name, f))
    bg = R.BackgroundFigures(workers=2)
    assert len(bg.procs) == 1
    bg.add_figures(figs)
    assert bg.local == [bg.stems[id(figs[1])]] and len(bg.sent) == 2     # the lambda one stays here
    bg.finish()
    assert bg.procs == []
    for f in figs:
        bg.move(f, str(tmp_path / f.name))
    bg.close()
    for f in figs:
        save(f.figure, str(tmp_path / f"{f.name}-direct"))
        assert (tmp_path / f"{f.name}.png").read_bytes() == (tmp_path / f"{f.name}-direct.png").read_bytes()


def test_background_figures_close_stops_workers_finish_never_reached():
    """An error in a section leaves ``finish`` unreached: ``close`` stops the workers and drops the queue."""
    from reports import report as R
    from reports.render.sections import Fig

    bg = R.BackgroundFigures(workers=2)
    procs = list(bg.procs)
    f = F.Figure(figsize=(3, 2))
    f.add_subplot().plot([0, 1])
    bg.add_figures([Fig("a", f)])
    bg.close()
    for proc in procs:
        proc.join(timeout=10)
        assert not proc.is_alive()
    assert not os.path.exists(bg.dir)


def test_saved_figures_are_the_same_bytes_every_time(tmp_path):
    """PNG and SVG of one figure are byte-identical across saves (no date, ids salted by the file name)."""
    def fig():
        f = F.Figure(figsize=(3, 2))
        ax = f.add_subplot()
        ax.plot([1, 3, 2], label="a")
        ax.legend()
        return f
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    W.save(fig(), str(tmp_path / "a" / "x"))
    W.save(fig(), str(tmp_path / "b" / "x"))
    for ext in ("png", "svg"):
        assert (tmp_path / "a" / f"x.{ext}").read_bytes() == (tmp_path / "b" / f"x.{ext}").read_bytes()
    assert b"<dc:date>" not in (tmp_path / "a" / "x.svg").read_bytes()


def test_count_labels_on_log_axes_are_plain_text():
    assert [F._count_label(v) for v in (1, 10, 100, 1e3, 2e4, 1e5, 1e6, 5e7, 1e9)] == \
        ["1", "10", "100", "1k", "20k", "100k", "1M", "50M", "1G"]


def test_convergence_figure_labels_decades_without_mathtext(small_run):
    from reports.generic import convergence_section
    from reports.runset import RunSet

    fig = convergence_section(RunSet.from_dirs(small_run)).figures[0].figure
    W.save(fig, os.path.join(os.path.dirname(small_run), "conv"))     # draws: the tick labels are set
    labels = [t.get_text() for t in fig.axes[1].get_xticklabels() if t.get_visible() and t.get_text()]
    assert "100" in labels and not any("$" in t for t in labels)
    assert len(fig.axes[0].xaxis.get_minor_locator().tick_values(10, 1000)) == 0    # no minor ticks


def test_figure_workers_leave_signals_to_the_report(capfd):
    """A worker ignores Ctrl-C (the report process stops it) and dies of SIGTERM without a traceback,
    even under the CLI's SIGTERM handler."""
    import signal

    from reports import cli
    from reports import report as R
    from reports.render.sections import Fig

    before = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    cli._catch_signals()                       # the handler a `boardlab report` process has
    try:
        bg = R.BackgroundFigures(workers=2)
    finally:
        signal.signal(signal.SIGTERM, before)
    proc = bg.procs[0]
    f = F.Figure(figsize=(2, 2))
    f.add_subplot().plot([0, 1])
    bg.add_figures([Fig("a", f)])
    assert bg.done.get() == (bg.sent[0], True)     # the worker rendered it: its handlers are set
    os.kill(proc.pid, signal.SIGINT)
    proc.join(timeout=0.5)
    assert proc.is_alive()
    os.kill(proc.pid, signal.SIGTERM)
    proc.join(timeout=10)
    assert proc.exitcode == -signal.SIGTERM
    bg.close()
    assert "Traceback" not in capfd.readouterr().err
