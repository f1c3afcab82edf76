"""The first screen of a study's report: per game and player count, the seats and what to change."""
import polars as pl

from reports.firstscreen import at_a_glance, glossary_section, mark_quick, with_first_screen
from reports.render.html import _anchor, render_html
from reports.render.sections import Fig, Report, Section
from reports.commands.study import load_study
from reports.study import run_study, study_report

STUDY = '''
[study]
title = "t"
game = "hellas"
seed = 5
games = 400

[[balance]]
name = "seats"
title = "Seats"
players = [2, 3]
strategy = "balanced"

[[compensation]]
name = "fix2"
title = "Fix at 2"
players = 2
budget = 3000
verify = 400
'''


def test_every_player_count_gets_its_seats_and_its_answer(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(STUDY)
    study = load_study(str(path))
    sets = run_study(study, str(tmp_path / "out"), workers=1, log=lambda line: None)
    report = study_report(study, sets)
    sections = with_first_screen(study, sets, report.sections)
    first = sections[0]
    assert first.title == "At a glance: Hellas" and sections[-1].title == "Glossary"
    t = first.tables[0].frame
    assert t["players"].to_list() == ["2 (400 games)", "3 (400 games)"] and t["game"].to_list() == ["Hellas", ""]
    two, three = t.row(0, named=True), t.row(1, named=True)
    assert two["win share per player [95% CI]"].startswith("P1 (starts) ")
    assert " · P2 " in two["win share per player [95% CI]"] and " · P3 " in three["win share per player [95% CI]"]
    # the answer of the compensation part at 2 players; none was searched at 3
    r = sets["fix2"]
    assert "fresh games" in two["what to change (verified)"] and f"{r['games']:,}" in two["what to change (verified)"]
    assert three["what to change (verified)"] == "not searched in this study"
    # the largest gap names the player whose share is farthest from fair, with its sign
    adv = next(tb.frame for s in report.sections for tb in s.tables if tb.name == "seats_seat_advantage")
    a3 = adv.filter(pl.col("n_players") == 3).to_dicts()
    worst = max(a3, key=lambda x: abs(x["deviation"]))
    assert three["largest gap from fair (pp) [95% CI]"].startswith(f"P{worst['seat'] + 1}")
    assert "**Hellas**: `balanced` in every seat" in first.tables[0].caption
    assert "assumed data" in first.tables[0].caption
    html = render_html(Report("t", sections=sections))
    assert html.index("At a glance") < html.index("What was run")
    assert 'href="#top"' in html and "<details>" in html
    # a folded section still shows its first figure or table before the fold
    for sec in sections[1:]:
        items = len(sec.figures) + len(sec.tables)
        if items > 2 and sec.title != "Glossary":
            part = html[html.index(f'id="{_anchor(sec.title)}"'):]
            part = part[:part.index("<details>")]
            assert "<figure" in part or "<table" in part, sec.title


def test_a_quick_run_says_so_first_and_beside_each_figure():
    from matplotlib.figure import Figure
    rep = Report("t", sections=[Section("A", figures=[Fig("f", Figure(), caption="c")])])
    mark_quick(rep)
    assert rep.intro[0].startswith("**Quick run (--quick)")
    assert rep.sections[0].figures[0].caption.startswith("**Quick run")
    html = render_html(rep)
    assert html.index("Quick run (--quick)") < html.index("<h2")


def test_the_glossary_explains_the_columns_people_asked_about():
    g = glossary_section().tables[0].frame
    text = " ".join(g["term"].to_list() + g["meaning"].to_list())
    for word in ("win_lo", "dev_lo", "coef", "Wilson", "fair share", "player 1 (starts)"):
        assert word in text


def test_no_balance_part_no_first_screen(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[study]\ntitle = "t"\ngame = "hellas"\nseed = 1\ngames = 60\n\n[[compare]]\nname = "c"\n'
                    'title = "C"\nplayers = 2\nstrategies = ["balanced", "random"]\n')
    study = load_study(str(path))
    sets = run_study(study, str(tmp_path / "out"), workers=1, log=lambda line: None)
    assert at_a_glance(study, sets, study_report(study, sets).sections) is None


ROBUST = STUDY + '''
[[robustness]]
name = "holds"
title = "Holds"
players = [2, 3]
bots = ["random", "city_builder"]
games = 600
'''


def test_the_first_screen_says_where_the_finding_and_the_compensation_hold(tmp_path):
    from reports.render.robustness import seat_verdicts

    path = tmp_path / "s.toml"
    path.write_text(ROBUST)
    study = load_study(str(path))
    assert [p.kind for p in study.parts] == ["balance", "compensation", "robustness"]
    sets = run_study(study, str(tmp_path / "out"), workers=1, log=lambda line: None)
    r = sets["holds"]
    two = r["by_players"]["2"]
    labels = [c for c in two["conditions"]]
    # the baseline, the two bots, and every assumed Hellas rule switched (H-D tags)
    assert labels[:3] == ["balanced", "random", "city_builder"]
    assert len(labels) > 3 and all(lab.startswith("H-D") for lab in labels[3:])
    # the compensation of the study's part is replayed under every condition at 2 players, not at 3
    comp = two["compensation"]
    assert comp["vector"] == list(sets["fix2"]["compensation"]) and len(comp["rows"]) == len(labels)
    assert "compensation" not in r["by_players"]["3"]
    # the verdicts follow the intervals: a condition whose interval holds 0 is "unclear"
    for cond, kind, status, adv, _ in seat_verdicts(two, 0, -1):
        row = next(x for x in two["table"] if x["condition"] == cond and x["seat"] == 0)
        if row["lo_pp"] <= 0 <= row["hi_pp"]:
            assert status == "unclear"
        else:
            assert status == ("holds" if row["hi_pp"] < 0 else "flips")
    report = study_report(study, sets)
    first = with_first_screen(study, sets, report.sections)[0]
    t = first.tables[0].frame
    cell = t.row(0, named=True)["holds across bots and assumed rules?"]
    assert cell.startswith("bots: ") and " · assumed rules: " in cell and " · compensation ≤ 1 pp under " in cell
    assert "compensation" not in t.row(1, named=True)["holds across bots and assumed rules?"]
    # a rerun reads the cached result instead of playing again
    lines = []
    run_study(study, str(tmp_path / "out"), workers=1, log=lines.append)
    assert any("Holds: finished before" in line for line in lines)


def test_under_powered_estimates_say_so_beside_the_figure_and_first():
    from matplotlib.figure import Figure

    from reports.firstscreen import mark_underpowered
    from reports.words import underpowered

    assert underpowered(-0.004, 0.016) and not underpowered(0.004, 0.016) and not underpowered(-0.003, 0.003)
    assert underpowered(0.01, 0.02, n=50) and underpowered(0.005, 0.02, null=0.01)
    wide = pl.DataFrame({"seat": [0, 1], "n": [400, 400], "dev_lo": [-0.03, -0.07], "dev_hi": [0.07, -0.01]})
    tight = pl.DataFrame({"seat": [0, 1], "n": [10**5, 10**5], "dev_lo": [-0.003, 0.01], "dev_hi": [0.003, 0.02]})
    from reports.render.sections import Table
    rep = Report("t", sections=[Section("Wide", tables=[Table("a", wide, "cap")], figures=[Fig("f", Figure(), caption="c")]),
                                Section("Tight", tables=[Table("b", tight, "cap")], figures=[Fig("g", Figure(), caption="c")])])
    assert mark_underpowered(rep) == ["Wide"]
    assert rep.intro[0].startswith("**Under-powered estimates in 1 section**")
    assert rep.sections[0].underpowered == 1 and not getattr(rep.sections[1], "underpowered", 0)
    assert "Wide ⚠</a>" in render_html(rep)
    assert rep.sections[0].figures[0].caption.startswith("**Under-powered: 1 of 2 estimates**")
    assert rep.sections[1].figures[0].caption == "c"
    mark_quick(rep := Report("t", sections=[Section("Wide", tables=[Table("a", wide, "cap")])]))
    mark_underpowered(rep)
    assert rep.intro[0].startswith("**Quick run") and "Under-powered estimates" in rep.intro[0]


def test_the_markdown_report_has_contents_and_links_back():
    from reports.render.html import render_markdown

    first = Section("At a glance: Hellas", paragraphs=["p"])
    first.first_screen = True
    rep = Report("t", sections=[first, Section("Seat advantage", paragraphs=["q"]), Section("Glossary")])
    md = render_markdown(rep)
    assert md.index("## At a glance") < md.index("## Contents") < md.index("## Seat advantage")
    for title in ("At a glance: Hellas", "Seat advantage", "Glossary"):
        assert f"[{title}](#{_anchor(title)})" in md and f'<a id="{_anchor(title)}"></a>' in md
    assert md.count("[↑ contents](#contents)") == 3 and md.splitlines()[0] == '# t <a id="top"></a>'
