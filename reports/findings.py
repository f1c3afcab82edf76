"""Findings at a glance: the report's answers first, read from the tables of its sections.

:func:`findings_section` reads the seat-advantage, seat-equality, rating, sweep and outcome tables
by name (``*seat_advantage``, ``*compare_ratings``...) and each section's own ``findings`` lines;
:func:`with_findings` puts it in front of a report's sections.
"""
from __future__ import annotations

import polars as pl

from reports.render.sections import Section, Table
from reports.words import dominance_text, player_name

def _pct(x):
    return f"{x * 100:.1f}%"


def _pp(x):
    return f"{x * 100:+.1f}".replace("-", "−")


def findings_section(sections) -> Section | None:
    """The report's answers first: seat advantage per run and the strongest strategy, with n and CIs.

    Read from the seat-advantage, seat-equality and rating tables of ``sections``
    (so it says nothing the sections below do not show in full); ``None`` when
    there are none.
    """
    paras, rows = [], []
    for sec in sections:
        context = sec.title.rsplit(" — ", 1)[0] if " — " in sec.title else ""
        tables = {t.name: t.frame for t in sec.tables}
        adv = next((f for n, f in tables.items() if n.endswith("seat_advantage")), None)
        eq = next((f for n, f in tables.items() if n.endswith("seat_equality_test")), None)
        if adv is not None and adv.height:
            group = adv.columns[0]
            for key in dict.fromkeys(adv[group].to_list()):
                part = adv.filter(pl.col(group) == key).sort("seat")
                s0 = part.row(0, named=True)
                worst = max(part.iter_rows(named=True), key=lambda r: abs(r["deviation"]))
                where = ", ".join(x for x in (context, str(key)) if x)
                fav = max(part.iter_rows(named=True), key=lambda r: r["win_share"])
                text = (f"**{where}** ({s0['n']:,} games): {player_name(0)} wins {_pct(s0['win_share'])} "
                        f"[{_pct(s0['win_lo'])}, {_pct(s0['win_hi'])}] against a fair {_pct(s0['fair_share'])} "
                        f"({_pp(s0['deviation'])} pp [{_pp(s0['dev_lo'])}, {_pp(s0['dev_hi'])}])")
                if fav["seat"] != 0:
                    text += (f"; the most favoured is {player_name(fav['seat'])}, {_pct(fav['win_share'])} "
                             f"[{_pct(fav['win_lo'])}, {_pct(fav['win_hi'])}] ({_pp(fav['deviation'])} pp)")
                if worst["seat"] not in (0, fav["seat"]):
                    text += (f"; the largest gap is {player_name(worst['seat'])}, {_pct(worst['win_share'])} "
                             f"({_pp(worst['deviation'])} pp [{_pp(worst['dev_lo'])}, {_pp(worst['dev_hi'])}])")
                p_value = None
                if eq is not None and group in eq.columns:
                    e = eq.filter(pl.col(group) == key)
                    p_value = e["p_value"][0] if e.height else None
                if p_value is not None and p_value == p_value:
                    verdict = "rejected" if p_value < 0.05 else "not rejected at the 5% level"
                    p_text = f"= {p_value:.2g}" if p_value > 0 else "< 1e-300"    # 0: below float range
                    text += f". Equal seats: {verdict} (chi-square p {p_text})"
                paras.append(text + ".")
                rows.append({"where": where, "games": s0["n"], "seat 0 win share": s0["win_share"],
                             "seat 0 lo": s0["win_lo"], "seat 0 hi": s0["win_hi"], "fair": s0["fair_share"],
                             "largest gap seat": worst["seat"], "largest gap (pp)": worst["deviation"] * 100,
                             "gap lo": worst["dev_lo"] * 100, "gap hi": worst["dev_hi"] * 100,
                             "equal seats p": p_value})
        # a section's own lines (reports/balance.py, reports/ladder.py); a line without its own bold
        # label gets the section's context
        paras += [x if x.startswith("**") or not context else f"**{context}**: {x}" for x in sec.findings]
        paras += _outcome_findings(tables, context)
        dom = next((f for n, f in tables.items() if n.endswith("compare_dominance")), None)
        if dom is not None and dom.height >= 2:
            paras.append(f"**{context or 'Strategies'}**: " + dominance_text(dom))
        ratings = next((f for n, f in tables.items() if n.endswith("compare_ratings")), None)
        if ratings is not None and ratings.height >= 2:
            from analysis.ratings import rating_text

            r = ratings.sort("elo", descending=True)
            a, b = r.row(0, named=True), r.row(1, named=True)
            sure = a["elo_lo"] > b["elo_hi"]
            dominant = dom is not None and dom.filter(pl.col("dominant") & (pl.col("strategy") == a["strategy"])).height
            if sure:
                tail = " (their 95% intervals do not overlap)."
            elif dominant:      # the head-to-head test is the sharper one; say which answer stands
                tail = (" (their rating intervals overlap, but head-to-head each pair's interval is above ½: "
                        f"{a['strategy']} is the stronger, as the line above says).")
            elif any(x["elo_lo"] != x["elo_lo"] for x in (a, b)):     # NaN: too few seeds for an interval
                tail = " (too few seeds for a rating interval: which of the two is stronger is not shown)."
            else:
                tail = " (their 95% intervals overlap: which of the two is stronger is not shown)."
            paras.append(f"**{context or 'Strategies'}**: highest rated {a['strategy']}, Elo {rating_text(a)} "
                         f"over {a['n_games']:,} games; next {b['strategy']}, {rating_text(b)}" + tail)
        cells = next((f for n, f in tables.items() if n.endswith("sweep_cells")), None)
        if cells is not None and cells.height:      # a [[sweep]] part (reports.sweep)
            best = cells.sort(["gap", "p"], descending=[False, True]).row(0, named=True)
            ns = cells.filter(~pl.col("significant")).height
            paras.append(f"**{context or 'Sweep'}** ({cells.height} cells, {cells['n'].sum():,} games): the "
                         f"smallest largest seat gap is at {best['cell']}, {_pct(best['gap'])[:-1]} pp "
                         f"[{_pct(best['gap_lo'])[:-1]}, {_pct(best['gap_hi'])[:-1]}] (seat {best['gap_seat']}, "
                         f"{best['n']:,} games, chi-square p = {best['p']:.2g}); {ns} of {cells.height} cells "
                         f"show no significant gap (p ≥ 0.05).")
    if not paras:
        return None
    intro = ("Win shares count a k-way tie as 1/k; brackets are 95% confidence intervals; the sections "
             "below give every seat, the tests and the figures. All figures hold for the data and "
             "strategies listed under \"What was run\".")
    return Section("Findings at a glance", paragraphs=[intro] + paras,
                   tables=[Table("findings_seats", pl.DataFrame(rows), "Seat 0 (player 1, who starts) and the largest "
                                 "seat gap, per run (shares as fractions, gaps in percentage points; seats "
                                 "counted from 0 as in the data files).")] if rows else [])


#: above this many runs in one outcome table, the findings point to the section instead of a line each
MAX_OUTCOME_FINDINGS = 4


def _outcome_findings(tables, context):
    """One sentence per run from an ``outcome_metrics`` table: margin, close games, comebacks, lead changes."""
    om = next((f for n, f in tables.items() if n.endswith("outcome_metrics")), None)
    if om is None or not om.height:
        return []
    group, out = om.columns[0], []
    keys = list(dict.fromkeys(om[group].to_list()))
    if len(keys) > MAX_OUTCOME_FINDINGS:        # e.g. a comparison's many seatings: the section has them all
        where = f"**{context}** outcomes" if context else "Outcomes"
        return [f"{where}: margin, close games, comebacks and lead changes for each of the {len(keys)} "
                f"{group}s are in the section \"Outcomes: length, margin and the lead\"."]
    for key in keys:
        st = {r["statistic"]: r for r in om.filter(pl.col(group) == key).iter_rows(named=True)}

        def ci(name, share=False, digits=1, st=st):
            r = st[name]
            f = _pct if share else (lambda v, d=digits: f"{v:.{d}f}")
            if r["lo"] is None or r["hi"] is None:          # one game: no interval
                return f"{f(r['estimate'])} (n = {r['n']})"
            return f"{f(r['estimate'])} [{f(r['lo'])}, {f(r['hi'])}]"
        bits = []
        if "margin" in st:
            bits.append(f"winning margin {ci('margin')} points")
        if "decided_by_le_2" in st:
            bits.append(f"decided by ≤ 2 points in {ci('decided_by_le_2', True)}")
        if "comeback" in st:
            text = f"the winner trailed at some round end in {ci('comeback', True)}"
            if "late_comeback" in st:
                text += f" (in the last one: {ci('late_comeback', True)})"
            if "drama" in st and st["drama"]["n"]:
                text += f", by {ci('drama')} points at worst"
            bits.append(text)
        if "lead_changes" in st:
            bits.append(f"{ci('lead_changes', digits=2)} lead changes per game")
        if bits:
            n = max(r["n"] for r in st.values())
            where = ", ".join(x for x in (context, str(key)) if x)
            out.append(f"**{where}** outcomes ({n:,} games): " + "; ".join(bits) + ".")
    return out


def with_findings(sections):
    """``sections`` with "Findings at a glance" in front, when there is anything to say."""
    found = findings_section(sections)
    return ([found] if found else []) + list(sections)


