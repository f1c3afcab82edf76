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

from reports.words import _pp, glance_text, player_label, seat_verdicts  # noqa: F401   (the first screen's words)


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
