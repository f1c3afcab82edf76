"""The first screen of a study's report: per game, the seat advantage and what to change.

:func:`at_a_glance` reads the study's balance parts (one strategy in every seat, one run per player
count) and its compensation parts, and builds one compact table per game: for each player count
the win share of every player with its 95% interval, the largest gap from the fair share (which
player, how far), and the compensation found and verified on fresh games. Players are named as a
person reads them (``reports.words``): seat 0 is "P1 (starts)".
"""
from __future__ import annotations

import polars as pl

from reports.render.sections import Section, Table
from reports.words import GLOSSARY, glance_text, knob_words, underpowered

#: beside a figure, a cell or on the first line: the estimate cannot answer its question (reports.words)
UNDER = "under-powered"


def _pct(x, digits=1):
    return f"{x * 100:.{digits}f}%"


def _pp(x):
    return f"{x * 100:+.1f}".replace("-", "−")


def _p(seat):
    return f"P{int(seat) + 1}" + (" (starts)" if int(seat) == 0 else "")


def _shares(rows):
    return " · ".join(f"{_p(r['seat'])} {_pct(r['win_share'])} [{_pct(r['win_lo'])[:-1]}–{_pct(r['win_hi'])[:-1]}]"
                      for r in rows)


def _gap(rows):
    worst = max(rows, key=lambda r: abs(r["deviation"]))
    fav = max(rows, key=lambda r: r["win_share"])
    text = f"{_p(worst['seat'])} {_pp(worst['deviation'])} pp [{_pp(worst['dev_lo'])}, {_pp(worst['dev_hi'])}]"
    if underpowered(worst["dev_lo"], worst["dev_hi"], worst.get("n")):
        text += f", {UNDER}"
    elif worst["dev_lo"] <= 0 <= worst["dev_hi"]:
        text += ", within the noise"
    if fav["seat"] != worst["seat"] and len(rows) > 2:       # at 2 players the other one is the mirror
        text += f"; most favoured {_p(fav['seat'])} ({_pp(fav['deviation'])} pp)"
    return text


HOLDS = "holds across bots and assumed rules?"


def _holds(entry, rows):
    """The "holds across" cell: the balance part's largest-gap player under every other condition."""
    if entry is None:
        return "not checked in this study"
    worst = max(rows, key=lambda r: abs(r["deviation"]))
    sign = 1 if worst["dev_lo"] > 0 else -1 if worst["dev_hi"] < 0 else 0
    return glance_text(entry, int(worst["seat"]), sign)


def _change(r):
    """The verified compensation of a compensation result ``r`` (reports/balance.py), in a designer's words."""
    comp = list(r["compensation"])
    ga, gb = r["gap_after"], r["gap_before"]
    given = [(s, c) for s, c in enumerate(comp) if c]
    after = f"gap {ga['gap'] * 100:.1f} pp [{ga['lo'] * 100:.1f}, {ga['hi'] * 100:.1f}], was {gb['gap'] * 100:.1f}"
    if given and ga["gap"] > gb["gap"]:
        return (f"no change shown to help: the search's best ({', '.join(f'{_p(s)} {c:+d}' for s, c in given)}) "
                f"did worse on {r['games']:,} fresh games; search longer")
    if not given and r.get("exact"):
        return f"change nothing: the seats are even within the noise ({after} pp, {r['games']:,} fresh games)"
    if not given:
        return (f"no fairer points found in {r['search_games']:,} search games: the gap stays "
                f"{ga['gap'] * 100:.1f} pp [{ga['lo'] * 100:.1f}, {ga['hi'] * 100:.1f}] ({r['games']:,} fresh "
                f"games); search longer")
    words = ", ".join(f"{_p(s)} {c:+d} {knob_words(r['game'], r['knob'], c)}" for s, c in given)
    verdict = "within 1 pp: met" if r.get("target_met") else ("gap left" if r.get("target_missed") else
                                                             f"{UNDER}: 1 pp not shown either way")
    return f"give {words} → {after} pp ({r['games']:,} fresh games; {verdict})"


def at_a_glance(study, sets, sections, quick=False) -> Section | None:
    """The "At a glance" section (one table per game), or None when the study has no balance part."""
    seat_tables = {t.name: t.frame for s in sections for t in s.tables if t.name.endswith("seat_advantage")}
    comp, robust = {}, {}
    for part in study.parts:
        if part.first_screen == "compensation":
            r = sets.get(part.name)
            if isinstance(r, dict) and "compensation" in r:
                comp[(r["game"], int(r["players"]))] = r
        elif part.first_screen == "robustness":
            r = sets.get(part.name)
            if isinstance(r, dict) and "by_players" in r:
                for n, entry in r["by_players"].items():
                    robust[(part.game, int(n))] = entry
    all_rows, notes, games = [], [], []
    for part in study.parts:
        if part.first_screen != "seats" or f"{part.name}_seat_advantage" not in seat_tables:
            continue
        adv = seat_tables[f"{part.name}_seat_advantage"]
        rs = sets[part.name]
        manifests = [run.manifest for run in rs.runs.values()]
        bots = sorted({s["name"] for m in manifests for s in m.get("strategies", [])})
        if len(bots) != 1:          # a mixed line-up is no answer about the seats
            continue
        assumed = sorted({k for m in manifests for k, d in (m.get("data_status") or {}).items()
                          if isinstance(d, dict) and d.get("assumed")})
        name = part.game.capitalize().replace("Yamatai", "Yamataï")
        for i, n in enumerate(sorted(adv["n_players"].unique().to_list())):
            part_rows = adv.filter(pl.col("n_players") == n).sort("seat").to_dicts()
            r = comp.get((part.game, int(n)))
            row = {"game": name if i == 0 else "",
                   "players": f"{int(n)} ({int(part_rows[0]['n']):,} games)",
                   "win share per player [95% CI]": _shares(part_rows),
                   "largest gap from fair (pp) [95% CI]": _gap(part_rows),
                   "what to change (verified)": _change(r) if r else "not searched in this study"}
            if any(p.first_screen == "robustness" for p in study.parts):
                row[HOLDS] = _holds(robust.get((part.game, int(n))), part_rows)
            all_rows.append(row)
        games.append(name)
        data = ("assumed data " + ", ".join(assumed)) if assumed else "the real game's data"
        notes.append(f"**{name}**: `{bots[0]}` in every seat, {data}")
    if not all_rows:
        return None
    table = Table("glance", pl.DataFrame(all_rows), "Bot and data — " + "; ".join(notes) + ".")
    lead = ("Per game and player count: each player's win share, the largest gap from the fair share 1/n "
            "(pp = percentage points), what to change (searched, then checked on fresh games) and whether it "
            "holds with other bots and assumed rules; 95% intervals in brackets; terms in the Glossary.")
    weak = sum(UNDER in str(v) for row in table.frame.iter_rows() for v in row)
    if weak:
        lead = (f"**{weak} cell{'s' * (weak != 1)} under-powered** (the interval cannot tell no gap from "
                f"1 pp). ") + lead
    if quick:
        lead = "**Quick run: not settled.** " + lead
    sec = Section("At a glance: " + ", ".join(games), paragraphs=[lead], tables=[table])
    sec.first_screen = True
    lines = ["At a glance (win share per player, 95% CI; largest gap; what to change, verified)"]
    for r in table.frame.iter_rows(named=True):
        if r["game"]:
            lines.append(r["game"])
        where = r["players"].replace(" (", " players (", 1)
        lines.append(f"  {where}: {r['win share per player [95% CI]']}")
        lines.append(f"    largest gap {r['largest gap from fair (pp) [95% CI]']}; {r['what to change (verified)']}")
        if HOLDS in r:
            lines.append(f"    across bots and assumed rules: {r[HOLDS]}")
    sec.terminal = "\n".join(lines)
    return sec


def glossary_section() -> Section:
    """Every statistic the report uses, in plain words (reports/words.py)."""
    frame = pl.DataFrame({"term": list(GLOSSARY), "meaning": list(GLOSSARY.values())})
    return Section("Glossary", paragraphs=["The words and statistics of this report."],
                   tables=[Table("glossary", frame, "Terms used in the report.")])


def with_first_screen(study, sets, sections, quick=False):
    """``sections`` with "At a glance" in front and the glossary at the end."""
    first = at_a_glance(study, sets, sections, quick=quick)
    return ([first] if first else []) + list(sections) + [glossary_section()]


QUICK_NOTE = ("Quick run (--quick): small samples, wide intervals; these numbers try the pipeline and settle "
              "nothing. Run without --quick for the answers.")


def mark_quick(report):
    """A quick run says so on the report's first line and beside every figure."""
    report.intro.insert(0, f"**{QUICK_NOTE}**")
    for sec in report.sections:
        for f in sec.figures:
            f.caption = "**Quick run: small samples.** " + (f.caption or "")


def _flagged(table):
    """``(under-powered, estimates)`` of a table whose rows are seat estimates with intervals."""
    f, c = table.frame, set(table.frame.columns)
    if f.height == 0:
        return 0, 0
    if {"dev_lo", "dev_hi", "n"} <= c:
        rows = [(r["dev_lo"], r["dev_hi"], r["n"], 0.0) for r in f.select("dev_lo", "dev_hi", "n").iter_rows(named=True)]
    elif {"win_lo", "win_hi", "fair_share", "n"} <= c:
        rows = [(r["win_lo"] - r["fair_share"], r["win_hi"] - r["fair_share"], r["n"], 0.0)
                for r in f.select("win_lo", "win_hi", "fair_share", "n").iter_rows(named=True)]
    elif {"gap_after_lo", "gap_after_hi", "games"} <= c:      # a compensation: one gap, the 1 pp target
        r = f.row(0, named=True)
        rows = [(r["gap_after_lo"], r["gap_after_hi"], r["games"], 0.01)]
    elif table.name.startswith("robustness_") and not table.name.endswith("_compensation"):
        cells = [v for col in f.columns if len(col) <= 3 and col.startswith("P") for v in f[col].to_list()]
        return sum(v == "unclear" for v in cells), len(cells)
    else:
        return 0, 0
    flagged = [1 for lo, hi, n, null in rows
               if lo is not None and hi is not None and underpowered(lo, hi, n, null=null)]
    return len(flagged), len(rows)


def mark_underpowered(report):
    """Every section whose seat estimates cannot answer their question (``reports.words.underpowered``)
    says so beside each of its figures and tables, and the report's first line names them."""
    named = []
    for sec in report.sections:
        if getattr(sec, "first_screen", False) or sec.title == "Findings at a glance":
            continue
        k = m = 0
        for t in sec.tables:
            a, b = _flagged(t)
            k, m = k + a, m + b
        if not k:
            continue
        note = (f"**Under-powered: {k} of {m} estimates** cannot tell no effect from 1 pp (or rest on fewer "
                f"than 100 games): read them as unsettled (Glossary).")
        for f in sec.figures:
            f.caption = note + " " + (f.caption or "")
        for t in sec.tables:
            if _flagged(t)[0]:
                t.caption = note + " " + (t.caption or "")
        named.append(sec.title)
        sec.underpowered = k
    if not named:
        return []
    line = (f"**Under-powered estimates in {len(named)} section{'s' * (len(named) != 1)}**: marked ⚠ in "
            f"the contents and beside their figures (too few games to tell no effect from 1 pp).")
    if report.intro and report.intro[0].startswith(("**Quick run", "**Random play")):
        report.intro[0] += " " + line
    else:
        report.intro.insert(0, line)
    return named


def random_note(report):
    """A random-play run says so on the first line and beside every figure."""
    report.intro.insert(0, "**Random play: every player picks uniformly among its legal moves.** A floor, not "
                           "how people play: seat advantages here say little about real games (`--strategy "
                           "balanced` for a heuristic player).")
    for sec in report.sections:
        for f in sec.figures:
            f.caption = "**Random play.** " + (f.caption or "")
