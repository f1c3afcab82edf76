"""Words and sections of a ``[[robustness]]`` part (``reports.experiments.robustness``): does the seat
advantage, and the compensation found, hold across bots and assumed rules?

A condition's verdict on a seat (intervals simultaneous over the conditions, Bonferroni, as in
``analysis.robustness``): **holds** when its advantage is on the finding's side of fair with the
interval excluding 0, **flips** when on the other side with the interval excluding 0, **unclear**
when the interval holds 0. A compensation **holds** under a condition when the largest seat gap
with it has an interval reaching down to 1 pp (the balance target), else it **misses**.
"""
from __future__ import annotations

import polars as pl

from reports.words import player_label


def _pp(x, digits=1):
    return f"{x:+.{digits}f}".replace("-", "−")


def _short(label):
    """A rule switch's label without its value's long tail (``H-D3 board=pegasus`` stays)."""
    return label if len(label) <= 34 else label[:32] + "…"


def seat_verdicts(entry, seat, sign):
    """``[(condition, kind, status, advantage_pp, change_pp)]`` of ``seat`` under every condition but the
    baseline; ``sign``: +1 (the finding favours the seat), -1 (disfavours) or 0 (no gap shown)."""
    out = []
    for r in entry["table"]:
        if r["seat"] != seat or r["kind"] == "baseline":
            continue
        now = 1 if r["lo_pp"] > 0 else -1 if r["hi_pp"] < 0 else 0
        if sign == 0:
            status = "even" if now == 0 else ("favoured" if now > 0 else "disfavoured")
        else:
            status = "unclear" if now == 0 else ("holds" if now == sign else "flips")
        out.append((r["condition"], r["kind"], status, r["advantage_pp"], r["change_pp"]))
    return out


def _names(labels, most=2):
    labels = [_short(x) for x in labels]
    return ", ".join(labels) if len(labels) <= most else ", ".join(labels[:most]) + f" +{len(labels) - most}"


def glance_text(entry, seat, sign):
    """The first screen's "holds across bots and assumed rules" cell for one player count, terse: per
    kind of condition how many keep the finding about player ``seat`` (``sign``: +1 favoured, -1
    disfavoured, 0 no gap shown), where it flips and how many are unclear (under-powered); then
    under how many conditions the compensation keeps the gap within 1 pp.

    E.g. ``bots: 4/6 hold, 1 flips (random +3.1 pp), 1 unclear · assumed rules: 11/11 hold ·
    compensation ≤ 1 pp under 15/18; misses random 6.0 pp +2``."""
    v = seat_verdicts(entry, seat, sign)
    if not v:
        return "no other condition played"
    ok = "even" if sign == 0 else "holds"
    parts = []
    for kind, word in (("bot", "bots"), ("rule", "assumed rules")):
        mine = [x for x in v if x[1] == kind]
        if not mine:
            continue
        good = sum(x[2] == ok for x in mine)
        bits = [f"{good}/{len(mine)} {'even' if sign == 0 else 'hold'}"]
        flips = [x for x in mine if x[2] in ("flips", "favoured", "disfavoured")]
        if flips:
            bits.append(f"{len(flips)} {'flip' + 's' * (len(flips) == 1) if sign else 'show a gap'} ("
                        + ", ".join(f"{_short(x[0])} {_pp(x[3])} pp" for x in flips[:2])
                        + (f" +{len(flips) - 2}" if len(flips) > 2 else "") + ")")
        unclear = sum(x[2] == "unclear" for x in mine)
        if unclear:
            bits.append(f"{unclear} unclear")
        parts.append(f"{word}: " + ", ".join(bits))
    text = " · ".join(parts)
    if entry.get("missing"):
        text += " (no learned model at this count)"
    comp = entry.get("compensation")
    if comp:
        rows = comp["rows"]
        missed = sorted((r for r in rows if not r["holds"]), key=lambda r: -r["gap_pp"])
        text += (f" · compensation ≤ 1 pp under {len(rows) - len(missed)}/{len(rows)}"
                 + ("" if not missed else "; misses " + ", ".join(
                     f"{_short(r['condition'])} {r['gap_pp']:.1f} pp" for r in missed[:2])
                     + (f" +{len(missed) - 2}" if len(missed) > 2 else "")))
    return text


def seat_table(entry, players) -> pl.DataFrame:
    """One row per condition: its kind, games, and every player's advantage (pp) with its interval."""
    rows = {}
    for r in entry["table"]:
        row = rows.setdefault(r["condition"], {"condition": r["condition"], "kind": r["kind"], "games": r["n"]})
        row[f"{player_label(r['seat'])} pp [CI]"] = (f"{_pp(r['advantage_pp'])} [{_pp(r['lo_pp'])}, "
                                                    f"{_pp(r['hi_pp'])}]")
        row[f"{player_label(r['seat'])}"] = r["status"]
    return pl.DataFrame(list(rows.values()))


def comp_table(entry) -> pl.DataFrame:
    comp = entry["compensation"]
    return pl.DataFrame([{"condition": r["condition"], "kind": r["kind"], "games": r["n"],
                          "gap without (pp)": round(r["gap_before_pp"], 2),
                          "gap with (pp)": round(r["gap_pp"], 2),
                          "gap with [CI]": f"[{r['lo_pp']:.1f}, {r['hi_pp']:.1f}]",
                          "holds": r["holds"]} for r in comp["rows"]])


def robustness_sections(part, result):
    from reports.render.sections import Section, Table

    paras = [f"Does the seat advantage hold when the players play differently, or when an assumed rule is "
             f"read the other way? Every condition below plays the same games (games 0..n−1 of seed "
             f"{result['seed']}): **{result['strategy']}** in every seat (the baseline), each other bot in every "
             f"seat, and {result['strategy']} under each assumed rule decision of the spec switched to its "
             f"alternative. Per player, the advantage is the win share minus the fair share (pp), with an "
             f"interval that holds for all conditions at once (Bonferroni); a status says whether the "
             f"baseline's finding for that player *holds*, *flips* or is *unclear* (interval holding 0)."]
    tables, findings, lines = [], [], []
    for n, entry in result["by_players"].items():
        n = int(n)
        tables.append(Table(f"robustness_{n}p", seat_table(entry, n),
                            f"{n} players: each player's advantage (pp) under every condition, simultaneous "
                            f"95% intervals; status against the baseline ({result['strategy']})."))
        base = [r for r in entry["table"] if r["kind"] == "baseline"]
        worst = max(base, key=lambda r: abs(r["advantage_pp"]))
        sign = 1 if worst["lo_pp"] > 0 else -1 if worst["hi_pp"] < 0 else 0
        text = glance_text(entry, worst["seat"], sign)
        findings.append(f"{n} players, {player_label(worst['seat'])} ({_pp(worst['advantage_pp'])} pp under "
                        f"{result['strategy']}): {text}.")
        lines.append(f"  {n} players: {player_label(worst['seat'])} {_pp(worst['advantage_pp'])} pp: {text}")
        if entry.get("compensation"):
            c = entry["compensation"]
            tables.append(Table(f"robustness_{n}p_compensation", comp_table(entry),
                                f"{n} players: the largest seat gap without and with the compensation "
                                f"found ({c['knob']} {tuple(c['vector'])}) under every condition; holds: its "
                                f"interval reaches 1 pp or less."))
    import strategies

    played = {r["condition"] for e in result["by_players"].values() for r in e["table"] if r["kind"] == "bot"}
    if not any(strategies.resolve(result["game"], b).searches for b in played if b != "learned"):
        paras.append(f"No searching bot here: a few hundred search games would leave intervals of several pp "
                     f"(under-powered). `boardlab robustness {result['game']} --players N --bots "
                     f"mcts:iterations=50` plays one; the skill parts compare MCTS levels.")
    if not any(r["kind"] == "rule" for e in result["by_players"].values() for r in e["table"]):
        paras.append("No assumed rule of this game has an alternative in the engine: only bots are varied "
                     "(its assumed data files can be swapped with `--variant`).")
    paras += findings
    sec = Section("Robustness across bots and assumed rules", paragraphs=paras, tables=tables)
    sec.findings = findings
    sec.terminal = "Robustness across bots and assumed rules\n" + "\n".join(lines)
    return [sec]
