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
from reports.words import GLOSSARY, knob_words


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
    if worst["dev_lo"] <= 0 <= worst["dev_hi"]:
        text += ", within the noise"
    if fav["seat"] != worst["seat"]:
        text += f"; most favoured {_p(fav['seat'])} ({_pp(fav['deviation'])} pp)"
    return text


def _change(r):
    """The verified compensation of a compensation result ``r`` (reports/balance.py), in a designer's words."""
    comp = list(r["compensation"])
    ga, gb = r["gap_after"], r["gap_before"]
    given = [(s, c) for s, c in enumerate(comp) if c]
    after = f"largest gap {ga['gap'] * 100:.1f} pp [{ga['lo'] * 100:.1f}, {ga['hi'] * 100:.1f}], was {gb['gap'] * 100:.1f}"
    if given and ga["gap"] > gb["gap"]:
        return (f"no change shown to help: the search's best ({', '.join(f'{_p(s)} {c:+d}' for s, c in given)}) "
                f"did worse on {r['games']:,} fresh games; search longer")
    if not given and r.get("exact"):
        return f"change nothing: the seats are even within the noise ({after} pp, {r['games']:,} fresh games)"
    if not given:
        return (f"no fairer points found in {r['search_games']:,} search games: {after} pp remains "
                f"({r['games']:,} fresh games); search longer")
    words = ", ".join(f"{_p(s)} {c:+d} {knob_words(r['game'], r['knob'], c)}" for s, c in given)
    verdict = "within 1 pp: met" if r.get("target_met") else ("gap left" if r.get("target_missed") else
                                                             "1 pp not shown either way")
    return f"give {words} → {after} pp on {r['games']:,} fresh games ({verdict})"


def at_a_glance(study, sets, sections, quick=False) -> Section | None:
    """The "At a glance" section (one table per game), or None when the study has no balance part."""
    seat_tables = {t.name: t.frame for s in sections for t in s.tables if t.name.endswith("seat_advantage")}
    comp = {}
    for part in study.parts:
        if part.first_screen == "compensation":
            r = sets.get(part.name)
            if isinstance(r, dict) and "compensation" in r:
                comp[(r["game"], int(r["players"]))] = r
    tables, paras = [], []
    games = []
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
        rows = []
        for n in sorted(adv["n_players"].unique().to_list()):
            part_rows = adv.filter(pl.col("n_players") == n).sort("seat").to_dicts()
            r = comp.get((part.game, int(n)))
            rows.append({"players": f"{int(n)} ({int(part_rows[0]['n']):,} games)",
                         "win share per player [95% CI]": _shares(part_rows),
                         "largest gap from fair (pp) [95% CI]": _gap(part_rows),
                         "what to change (verified)": _change(r) if r else "not searched in this study"})
        name = part.game.capitalize().replace("Yamatai", "Yamataï")
        games.append(name)
        data = ("assumed data: " + ", ".join(assumed)) if assumed else "the real game's data"
        tables.append(Table(f"glance_{part.game}", pl.DataFrame(rows),
                            f"**{name}** — bot: `{bots[0]}` in every seat; {data}."))
    if not tables:
        return None
    lead = ("Per game and player count: each player's win share, the largest gap from the fair share 1/n "
            "(pp = percentage points; an interval holding 0 shows no gap) and what to change, searched and then "
            "checked on fresh games. Details below; terms in the Glossary.")
    if quick:
        lead = "**Quick run: not settled.** " + lead
    paras.append(lead)
    sec = Section("At a glance: " + ", ".join(games), paragraphs=paras, tables=tables)
    sec.first_screen = True
    lines = ["At a glance (win share per player, 95% CI; largest gap; what to change, verified)"]
    for t in tables:
        lines.append(t.caption.split(" — ")[0].strip("*"))
        for r in t.frame.iter_rows(named=True):
            where = r["players"].replace(" (", " players (", 1)
            lines.append(f"  {where}: {r['win share per player [95% CI]']}")
            lines.append(f"    largest gap {r['largest gap from fair (pp) [95% CI]']}; {r['what to change (verified)']}")
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


def random_note(report):
    """A random-play run says so on the first line and beside every figure."""
    report.intro.insert(0, "**Random play: every player picks uniformly among its legal moves.** A floor, not "
                           "how people play: seat advantages here say little about real games (`--strategy "
                           "balanced` for a heuristic player).")
    for sec in report.sections:
        for f in sec.figures:
            f.caption = "**Random play.** " + (f.caption or "")
