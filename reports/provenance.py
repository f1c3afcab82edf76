"""The "What was run" section: data status, strategies and their weights, seeds, versions and the
commands that reproduce the runs."""
from __future__ import annotations

import os

import polars as pl

from reports.render.sections import Section, Table
from reports.runset import RunSet
from simcore._contract import searches

def _reproduce(label, m, folder):
    strat = [s["name"] for s in m.get("strategies", [])]
    cmd = [f"boardlab simulate {m.get('game')} --players {m.get('players')} --games {m.get('games')} "
           f"--seed {m.get('seed')}"]
    if strat and len(set(strat)) == 1:
        cmd.append(f"--strategy {strat[0]}")
    elif strat:
        cmd.append(f"--seat-strategies {','.join(strat)}")
    for k, v in (m.get("variant") or {}).items():
        cmd.append(f"--variant {k}={v}")
    if not m.get("events", True):
        cmd.append("--no-events")
    cmd.append(f"--out {folder}")
    return " ".join(cmd)


def summarize_labels(labels, among):
    """Name the runs ``labels`` (a subset of ``among``) briefly and exactly.

    "all 65" when they are all of ``among``; otherwise the labels, where every run
    of a ``prefix/…`` family is in, that family as "prefix/* (all N)".
    """
    labels, among = list(dict.fromkeys(labels)), list(dict.fromkeys(among))
    if len(among) > 1 and set(labels) == set(among):
        return f"all {len(among)}"
    family = lambda label: label.split("/", 1)[0] if "/" in label else None
    size = {}
    for label in among:
        size[family(label)] = size.get(family(label), 0) + 1
    chosen = {}
    for label in labels:
        chosen.setdefault(family(label), []).append(label)
    out = []
    for label in labels:
        f = family(label)
        if f is not None and len(chosen[f]) == size[f] and size[f] > 2:
            if chosen[f][0] == label:
                out.append(f"{f}/* (all {size[f]})")
        else:
            out.append(label)
    return ", ".join(out)


def provenance_section(rs: RunSet, extra=None, commands=None) -> Section:
    """What was run: data status, strategies and weights, seeds, versions, commands."""
    runs, status, strats = [], {}, {}
    for label, run in rs.runs.items():
        m = run.manifest
        runs.append({
            rs.group: label, "game": m.get("game"), "players": m.get("players"),
            "strategies (seat 0, 1, …)": ", ".join(s["name"] for s in m.get("strategies", [])),
            "variant": ", ".join(f"{k}={v}" for k, v in (m.get("variant") or {}).items()) or "default",
            "seed": m.get("seed"), "games": m.get("games"), "run_id": m.get("run_id"),
            "status": m.get("status"), "wall_s": m.get("wall_seconds"),
            "boardlab": (m.get("versions") or {}).get("boardlab"),
            "git_commit": ((m.get("git_commit") or "")[:10] or "unknown (no checkout)")
            + (" (dirty)" if m.get("git_dirty") else ""),
        })
        for comp, d in (m.get("data_status") or {}).items():
            d = d if isinstance(d, dict) else {"value": d}
            key = (comp, os.path.basename(str(d.get("file", ""))), bool(d.get("assumed")), str(d.get("note", "")),
                   m.get("game"))
            status.setdefault(key, []).append(label)
        for s in m.get("strategies", []):
            w = ", ".join(f"{k}={v:g}" for k, v in (s.get("weights") or {}).items()) or "—"
            if searches(s):                     # a search: its settings, and the rollout policy by name
                w = (", ".join(f"{k}={s.get(k)}" for k in ("iterations", "c", "bias", "cutoff"))
                     + f", rollout={(s.get('rollout') or {}).get('name')} "
                       f"(epsilon {(s.get('rollout') or {}).get('epsilon', 0):g})")
            key = (s.get("name"), s.get("kind"), s.get("temperature", 0), s.get("epsilon", 0), w, m.get("game"))
            strats.setdefault(key, None)
    games = list(dict.fromkeys(k[4] for k in status)) or [rs.game]
    several = len(set(games) | {k[5] for k in strats}) > 1
    game_labels = {}
    for label, run in rs.runs.items():
        game_labels.setdefault(run.manifest.get("game"), []).append(label)
    data = pl.DataFrame([{**({"game": k[4]} if several else {}), "component": k[0], "file": k[1],
                          "assumed": k[2], "note": k[3],
                          f"{rs.group}s": summarize_labels(v, game_labels.get(k[4], v))}
                         for k, v in status.items()]) if status else \
        pl.DataFrame({"component": [], "file": [], "assumed": []})
    st = pl.DataFrame([{**({"game": k[5]} if several else {}), "strategy": k[0], "kind": k[1],
                        "temperature": float(k[2] or 0), "epsilon": float(k[3] or 0), "weights": k[4]}
                       for k in strats])
    assumed = sorted({f"{k[4]} {k[0]}" if several else k[0] for k in status if k[2]})
    seeds = sorted({r["seed"] for r in runs})
    paras = []
    if assumed:
        paras.append(f"**Data status: assumed components — {', '.join(assumed)}.** The printed game's "
                     f"values are not public; boardlab's are designed from the component counts, so every "
                     f"number below holds for these assumed data (see the table) and must be read as such.")
    else:
        paras.append("**Data status:** every component data file used is marked as the real game's.")
    paras.append(f"Seed{'s' if len(seeds) > 1 else ''}: {', '.join(map(str, seeds))}. "
                 f"Versions: boardlab {runs[0]['boardlab']}, git commit {runs[0]['git_commit']}.")
    if extra:
        paras += list(extra)
    if commands:
        paras.append("To reproduce it:\n\n```\n" + "\n".join(commands) + "\n```\n\nEach run folder's "
                     "`manifest.json` holds its complete settings; the `runs` table lists them.")
    else:
        paras.append("To reproduce a run:\n\n```\n" + "\n".join(
            _reproduce(label, run.manifest, run.path) for label, run in rs.runs.items()) + "\n```")
    sec = Section("What was run (data status, strategies, seeds, versions)", paragraphs=paras, tables=[
        Table("data_status", data, "Component data used, and whether it is assumed."),
        Table("strategies", st, "Strategies and their weights."),
        Table("runs", pl.DataFrame(runs), "Runs: strategies per seat, variant, seed, games, version.")])
    sec.terminal = "Data status: " + (f"ASSUMED {', '.join(assumed)}" if assumed else "real data") + \
        f"; seed {', '.join(map(str, seeds))}; boardlab {runs[0]['boardlab']} ({runs[0]['git_commit']})"
    return sec


def provenance_without_runs(extra, commands):
    """"What was run" of a study with compensation parts only (no results folder to list)."""
    import simcore
    from simcore.run import _git_commit

    paras = list(extra) + [f"boardlab {simcore.__version__}, git commit {(_git_commit()[0] or '')[:10] or 'unknown (no checkout)'}."]
    if commands:
        paras.append("To reproduce it:\n\n```\n" + "\n".join(commands) + "\n```")
    return Section("What was run", paragraphs=paras)
