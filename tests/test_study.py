"""Study files: the parser's errors name file and key; a tiny study and `boardlab demo --quick` end to end."""
import os
import re

import polars as pl
import pytest

pytest.importorskip("simcore.hellas")

from reports import cli  # noqa: E402
from reports.commands.study import load_study  # noqa: E402
from reports.study import StudyError, demo_path  # noqa: E402

GOOD = """
[study]
game = "hellas"
seed = 3
games = 60

[[balance]]
name = "bal"
players = [2, 3]
strategy = "balanced"

[[variants]]
name = "qy"
players = 3
strategy = "balanced"
baseline = "rising"
options = { rising = { quarry_yields = "rising" }, falling = { quarry_yields = "falling" } }
"""


def _write(tmp_path, text, name="study.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_example_and_demo_files_parse():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ex = load_study(os.path.join(here, "docs", "examples", "hellas_balance.toml"))
    assert [p.kind for p in ex.parts] == ["balance", "balance", "variants", "compare"]
    demo = load_study(demo_path())
    assert {r.players for r in demo.parts[0].runs} == {2, 3, 4}
    # parts of one game together, in file order: Hellas, Yamatai, Akrotiri
    assert [(p.game, p.kind) for p in demo.parts] == [
        ("hellas", "balance"), ("hellas", "variants"), ("hellas", "compare"),
        ("hellas", "compensation"), ("hellas", "compensation"), ("hellas", "compensation"),
        ("hellas", "compensation"), ("hellas", "compensation"), ("hellas", "skill"),
        ("hellas", "robustness"),
        ("yamatai", "balance"), ("yamatai", "compare"), ("yamatai", "compensation"),
        ("yamatai", "compensation"), ("yamatai", "compensation"), ("yamatai", "robustness"),
        ("akrotiri", "balance"), ("akrotiri", "compensation"), ("akrotiri", "robustness")]
    # every balance part's player counts are checked across bots and assumed rules (the first screen)
    robust = {(p.game, n) for p in demo.parts if p.kind == "robustness" for n in p.players}
    for p in demo.parts:
        if p.kind == "balance":
            assert {(p.game, r.players) for r in p.runs} <= robust, p.name
    # "what to change" at every player count of every game's balance part (the first screen)
    comp = {(p.game, p.settings["players"]) for p in demo.parts if p.first_screen == "compensation"}
    assert {p.kind for p in demo.parts if p.first_screen} == {"balance", "compensation", "robustness"}
    for p in demo.parts:
        if p.first_screen == "seats":
            assert {(p.game, r.players) for r in p.runs} <= comp, p.name
    assert demo.quick_games > 0
    by_part = {(p.game, p.kind): p for p in demo.parts}
    assert 0 < by_part["yamatai", "compare"].quick_games < demo.quick_games   # the part's own cap
    assert by_part["akrotiri", "balance"].quick_games == 0     # none of its own: the study's applies


def test_parts_of_other_games_and_their_quick_caps(tmp_path):
    from reports.study import quick

    text = GOOD + """
[[balance]]
name = "ak"
game = "akrotiri"
players = 2
strategy = "balanced"
games = 50
quick_games = 7

[[compare]]
name = "ym"
game = "yamatai"
players = 2
strategies = ["balanced", "builder"]
games = 40
"""
    study = load_study(_write(tmp_path, text))
    assert [p.game for p in study.parts] == ["hellas", "hellas", "akrotiri", "yamatai"]
    quick(study)
    ak = next(p for p in study.parts if p.name == "ak")
    assert [r.games for r in ak.runs] == [7]
    assert next(p for p in study.parts if p.name == "ym").games == 40      # under the study's cap (1000)


@pytest.mark.parametrize("text, key, expected", [
    ("[study]\ngame = 'hellas'\ngames = 10\n[[balance]]\nplayers = 3\n", "[study] missing key 'seed'", "integer"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = '10'\n[[balance]]\nplayers = 3\n", "[study] games", "integer"),
    ("[study]\ngame = 'chess'\nseed = 1\ngames = 10\n[[balance]]\nplayers = 3\n", "[study] game", "known: hellas"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\ncolour = 1\n[[balance]]\nplayers = 3\n",
     "[study] unknown key 'colour'", "known:"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n", "no runs", "[[balance]]"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nname = 'b'\nplayers = 7\n",
     "[[balance]] 'b': players", "2, 3, 4"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nname = 'b'\n", "[[balance]] 'b'",
     "missing key 'players'"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nplayers = 3\nstrategy = 'balnced'\n",
     "[[balance]] #1: strategy", "unknown strategy 'balnced'"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nplayers = 3\nvariant = { quarry_yeilds = 'x' }\n",
     "[[balance]] #1: variant", "quarry_yeilds"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nplayers = 3\nplayerz = 3\n",
     "[[balance]] #1: unknown key 'playerz'", "known:"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[variants]]\nname = 'v'\nplayers = 3\n"
     "options = { a = { quarry_yields = 'rising' } }\n", "[[variants]] 'v': options", "at least two"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[variants]]\nname = 'v'\nplayers = 3\nbaseline = 'c'\n"
     "options = { a = { quarry_yields = 'rising' }, b = { quarry_yields = 'falling' } }\n",
     "[[variants]] 'v': baseline", "not one of the options"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[variants]]\nname = 'v'\nplayers = 3\n"
     "options = { a = { quarry_yields = 'rising' }, b = { quarry_yields = 'upside' } }\n",
     "[[variants]] 'v': options.b", "quarry_yields"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[compare]]\nname = 'c'\nplayers = 3\nstrategies = ['random']\n",
     "[[compare]] 'c': strategies", "at least two"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[compare]]\nname = 'c'\nplayers = [2, 3]\n"
     "strategies = ['random', 'balanced']\n", "[[compare]] 'c': players", "one player count"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nplayers = 3\nseats = ['random']\n",
     "[[balance]] #1: seats", "one strategy per seat"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nname = 'x'\nplayers = 3\n"
     "[[balance]]\nname = 'x'\nplayers = 2\n", "[[balance]] 'x'", "used twice"),
    ("[study\ngame = 'hellas'\n", "not valid TOML", ""),
    ("balance = 3\n[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n", "'balance'", "[[balance]]"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nname = 'g'\ngame = 'go'\nplayers = 2\n",
     "[[balance]] 'g': game", "known: hellas"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nname = 'a'\ngame = 'akrotiri'\nplayers = 3\n",
     "[[balance]] 'a': players", "(2)"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nname = 'a'\ngame = 'yamatai'\nplayers = 3\n"
     "strategy = 'quarry_baron'\n", "[[balance]] 'a': strategy", "quarry_baron"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nname = 'q'\nplayers = 3\nquick_games = 0\n",
     "[[balance]] 'q': quick_games", "positive"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nname = 'f'\nplayers = 3\nfit_games = 10\n",
     "[[balance]] 'f': fit_games", "at least 1,000"),
    ("[study]\ngame = 'hellas'\nseed = 1\ngames = 10\n[[balance]]\nname = 'f'\nplayers = 3\nfit_games = '2k'\n",
     "[[balance]] 'f': fit_games", "integer"),
])
def test_malformed_files_name_file_and_key(tmp_path, text, key, expected):
    path = _write(tmp_path, text)
    with pytest.raises(StudyError) as exc:
        load_study(path)
    msg = str(exc.value)
    assert msg.startswith(path), msg
    assert key in msg and expected in msg, msg


def test_cli_study_errors_one_line_exit_2(tmp_path, capsys):
    for path in (str(tmp_path / "missing.toml"), _write(tmp_path, "[study]\ngame = 1\n")):
        assert cli.main(["study", path, "--out", str(tmp_path / "o")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("boardlab: error: ") and path in err[0], err


def test_small_study_report_with_variant_differences(tmp_path, capsys):
    out = str(tmp_path / "out")
    assert cli.main(["study", _write(tmp_path, GOOD), "--out", out, "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "falling" in printed and "difference" in printed
    diff = pl.read_csv(os.path.join(out, "tables", "qy_variant_differences.csv"))
    assert set(diff["variant"].to_list()) == {"falling"} and set(diff["baseline"].to_list()) == {"rising"}
    assert {"win_share", "mean_score", "quarry_yield", "quarry_closures"} <= set(diff["statistic"].to_list())
    assert (diff["diff_lo"] <= diff["diff"]).all() and (diff["diff"] <= diff["diff_hi"]).all()
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    assert "quarry_yields=falling" in html and "quarry_tiles_falling.json" in html
    assert os.path.exists(os.path.join(out, "figures", "bal_win_share_by_seat.png"))
    assert os.path.exists(os.path.join(out, "figures", "qy_variant_differences.svg"))
    # a rerun resumes: nothing new to play, same report
    assert cli.main(["study", _write(tmp_path, GOOD), "--out", out, "--workers", "1"]) == 0
    capsys.readouterr()


def test_fit_games_fits_the_regressions_on_a_sample_only(tmp_path, capsys):
    """`fit_games`: the category logit on the first N games of each run, said in the caption; the seat
    shares still count every game."""
    text = ("[study]\ngame = 'hellas'\nseed = 5\ngames = 1500\n[[balance]]\nname = 'b'\nplayers = 2\n"
            "strategy = 'balanced'\nfit_games = 1000\n")
    out = str(tmp_path / "out")
    assert cli.main(["study", _write(tmp_path, text), "--out", out, "--workers", "1"]) == 0
    capsys.readouterr()
    logit = pl.read_csv(os.path.join(out, "tables", "b_category_logit.csv"))
    assert set(logit["n_games"].to_list()) == {1000} and set(logit["n"].to_list()) == {2000}
    seats = pl.read_csv(os.path.join(out, "tables", "b_seat_advantage.csv"))
    assert set(seats["n"].to_list()) == {1500}, seats
    md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
    assert "Regression fitted on the first 1,000 games of each run" in md


def test_demo_quick_end_to_end(tmp_path, capsys):
    out = str(tmp_path / "demo")
    # its speed (under a minute on 2 cores) is measured by hand, not asserted here
    assert cli.main(["demo", "--quick", "--out", out]) == 0
    printed = capsys.readouterr().out
    assert os.path.abspath(os.path.join(out, "report.html")) in printed
    assert "Win share by player" in printed and "rating" in printed and "falling" in printed
    # compact table, not raw floats
    assert not re.search(r"\d\.\d{6,}", printed), printed
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    figs = os.listdir(os.path.join(out, "figures"))
    pngs = [f for f in figs if f.endswith(".png")]
    assert len(pngs) >= 10 and len(pngs) == len([f for f in figs if f.endswith(".svg")])
    assert html.count("data:image/png;base64,") == len(pngs)
    for name in ("win_share_by_seat", "score_distributions", "category_weights", "quarry_distributions",
                 "convergence", "variant_differences", "compare_ratings",
                 "yamatai_fleet_values", "yamatai_fleet_pick_rate", "yamatai_specialist_values",
                 "yamatai_building_values", "yamatai_game_length", "yamatai_strategies_compare_ratings",
                 "akrotiri_map_deck_values", "akrotiri_map_card_values", "akrotiri_goal_values",
                 "akrotiri_market_prices", "akrotiri_game_length",
                 "skill_skill_seat_share_vs_rating", "skill_ladder_rating_vs_compute"):
        assert any(name in f for f in pngs), name
    assert "Seat 0&#x27;s advantage" in html or "Seat 0's advantage" in html
    assert "Fleet values" in html and "Map-card values" in html and "Goal-card values" in html
    assert "specialists.json" in html and "maps.json" in html
    assert "Data status: assumed components" in html and "Seed: 2016" in html
    # "what to change": the compensation found and verified, per game, in the findings
    md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
    glance = next(c for c in md.split("\n## ") if c.startswith("Findings at a glance"))
    for game in ("Hellas, 2 players", "Yamatai, 3 players", "Akrotiri, 2 players"):
        assert f"{game} — what to change" in glance, game
    assert sum("compensation_before_after" in f for f in pngs) == 9      # every game's player counts, 2 learned
    # the first screen: per game, every player count with its answer; a quick run says so first
    first = md.split("\n## ")[1]
    assert first.startswith("At a glance: Hellas, Yamataï, Akrotiri")
    assert md.split("\n## ")[0].count("Quick run (--quick)") == 1
    rows = [line for line in first.splitlines() if line.startswith("| ") and "games)" in line]
    assert len(rows) == 7 and not any("not searched" in line for line in rows)


def test_a_run_planned_twice_is_played_once(tmp_path, capsys):
    # GOOD's variants baseline (3 players, balanced, quarry_yields=rising, the engine's default)
    # is the same run as its balance part at 3 players; a falling option is not
    study = load_study(_write(tmp_path, GOOD))
    assert study.total_games() == 3 * 60
    out = str(tmp_path / "out")
    assert cli.main(["study", _write(tmp_path, GOOD), "--out", out, "--workers", "1"]) == 0
    log = capsys.readouterr().err
    assert "rising: the same games as bal/3 players (played once)" in log, log
    assert "180 games" in log
    runs = sorted(os.listdir(os.path.join(out, "runs", "qy")))
    assert len(runs) == 1 and "falling" in runs[0]
    # the variant comparison still has its baseline, read from the balance run's folder
    diff = pl.read_csv(os.path.join(out, "tables", "qy_variant_differences.csv"))
    assert set(diff["baseline"].to_list()) == {"rising"} and diff.height > 0


COIN_KIND = '''"""[[coin]]: a toy study-part kind (a test's): flips a fair coin, keeps no results folder."""
import random

from reports.experiments._part import StudyError, check
from reports.render.sections import Section

KEYS = {"name", "title", "game", "players", "flips", "seed"}


def parse(part, t, ctx):
    flips = check(t.get("flips", 10), int, f"{ctx.where}: flips")
    if flips <= 0:
        raise StudyError(f"{ctx.where}: flips must be a positive integer, not {flips}")
    part.players, part.settings, part.games = ctx.players[0], {"flips": flips}, flips
    return part


def quick(part, cap):
    part.settings["flips"] = part.games = min(part.settings["flips"], cap)


def run(part, ctx):
    rng = random.Random(part.seed)
    heads = sum(rng.random() < 0.5 for _ in range(part.settings["flips"]))
    ctx.log(f"{part.title}: {heads} heads")
    return {"heads": heads, "flips": part.settings["flips"]}


def runs(part, result):
    return {}


def sections(part, result, figures=None):
    sec = Section("Coin", paragraphs=[f"{result['heads']} heads in {result['flips']} flips."])
    sec.findings = [f"{result['heads']} heads of {result['flips']}"]
    return [sec]
'''


def test_a_study_part_kind_is_one_file_and_one_registration_line(tmp_path, monkeypatch):
    """issue 31: a new kind is a module in reports/experiments/ and its name in KINDS; the study
    parses, caps, plays and reports it through that interface alone."""
    import random
    import sys

    import reports.experiments as experiments
    from reports.render.write import write_report
    from reports.study import quick, run_study, study_report

    folder = tmp_path / "kinds"
    folder.mkdir()
    (folder / "coin.py").write_text(COIN_KIND)                                    # the new file
    monkeypatch.setattr(experiments, "__path__", [*experiments.__path__, str(folder)])
    monkeypatch.setattr(experiments, "KINDS", [*experiments.KINDS, "coin"])        # its registration line
    try:
        path = _write(tmp_path, '[study]\ngame = "hellas"\nseed = 5\ngames = 100\n\n'
                                '[[coin]]\nname = "toss"\ntitle = "Coin toss"\nplayers = 3\nflips = 400\n')
        study = load_study(path)
        assert [(p.kind, p.name, p.players, p.games) for p in study.parts] == [("coin", "toss", 3, 400)]
        assert study.total_games() == 400
        quick(study, 50)
        assert study.parts[0].settings["flips"] == study.parts[0].games == 50
        lines = []
        sets = run_study(study, str(tmp_path / "out"), log=lines.append)
        rng = random.Random(5)
        expected = sum(rng.random() < 0.5 for _ in range(50))
        assert sets == {"toss": {"heads": expected, "flips": 50}}
        assert lines == [f"Coin toss: {expected} heads"]
        report = study_report(study, sets)
        assert [s.title for s in report.sections] == ["Findings at a glance", "What was run", "Coin toss — Coin"]
        assert f"**Coin toss**: {expected} heads of 50" in report.sections[0].paragraphs
        paths = write_report(report, str(tmp_path / "out"))
        assert f"{expected} heads in 50 flips." in open(paths["md"], encoding="utf-8").read()
        with pytest.raises(StudyError, match=r"\[\[coin\]\] 'toss': unknown key 'flip' \(known: flips, game, "
                                             r"name, players, seed, title\)"):
            load_study(_write(tmp_path, '[study]\ngame = "hellas"\nseed = 5\ngames = 100\n\n'
                                        '[[coin]]\nname = "toss"\nplayers = 3\nflip = 4\n', "bad.toml"))
        with pytest.raises(StudyError, match="flips must be a positive integer, not 0"):
            load_study(_write(tmp_path, '[study]\ngame = "hellas"\nseed = 5\ngames = 100\n\n'
                                        '[[coin]]\nplayers = 3\nflips = 0\n', "bad2.toml"))
    finally:
        sys.modules.pop("reports.experiments.coin", None)


def test_the_study_names_no_kind():
    """issue 31: reports/study.py dispatches every kind through reports.experiments, by no name."""
    text = open(os.path.join(os.path.dirname(__file__), "..", "reports", "study.py"), encoding="utf-8").read()
    assert not re.search(r"kind\s*==|kind\s+in\s*\(", text)
    from reports.experiments import KINDS

    for kind in KINDS:
        assert not re.search(rf"[\"']{kind}[\"']", text), kind
