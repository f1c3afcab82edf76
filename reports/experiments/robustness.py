"""``[[robustness]]``: does the seat advantage, and the compensation found, hold across bots and
assumed data? (issue 35; the statistics are ``analysis.robustness``'s, the conditions and their play
``reports.robustness``'s, as in ``boardlab robustness``.)

Per player count, every condition plays games ``0..n-1`` of the part's seed (common seeds): the
baseline strategy in every seat, each other bot in every seat (``bots``: ``"random"``,
``"presets"`` = every preset of the game, ``"learned"`` = the model shipped for that player count
when there is one, any strategy name; a searching bot plays ``search_games``) and, with
``rules = true``, the baseline under each assumed rule decision (H-D, Y-D, A-D settings) switched
to each alternative. When the study has a ``[[compensation]]`` part of the same game and player
count, every condition is played again with the compensation it found (its knob added to the
condition's settings), to show whether the compensation holds too. No results folder: the result
is cached as ``runs/<part>/robustness.json``.
"""
from __future__ import annotations

import json
import os
import time

from reports.experiments._part import StudyError, check, finished_result, keep_result, strategy_of

KEYS = {"name", "title", "game", "players", "strategy", "bots", "games", "search_games", "learned_games",
        "rules", "seed", "quick_games"}

#: what the study's first screen reads from the part (reports.firstscreen)
FIRST_SCREEN = "robustness"

#: the gap a compensation is meant to reach (``boardlab balance``'s target): "holds" when the
#: compensated gap's interval reaches down to it
TARGET_PP = 1.0


def parse(part, t, ctx):
    w = ctx.where
    part.players = list(ctx.players)
    s = {"strategy": strategy_of(t.get("strategy", "balanced"), f"{w}: strategy", part.game),
         "rules": check(t.get("rules", True), bool, f"{w}: rules")}
    bots = t.get("bots", ["random", "presets", "learned"])
    check(bots, list, f"{w}: bots", 'a list of strategies, e.g. ["random", "presets", "learned"]')
    for b in bots:
        if b not in ("presets", "learned"):
            strategy_of(b, f"{w}: bots", part.game)
    s["bots"] = [str(b) for b in bots]
    for key, default in (("games", min(ctx.games, 10_000)), ("search_games", 100), ("learned_games", 2_000)):
        v = check(t.get(key, default), int, f"{w}: {key}")
        if v <= 0:
            raise StudyError(f"{w}: {key} must be a positive integer, not {v}")
        s[key] = v
    # the compensation parts of this game (parsed before: robustness follows compensation in KINDS)
    s["compensation"] = {str(p.settings["players"]): p.name for p in ctx.study.parts       # the same bot's
                         if p.kind == "compensation" and p.game == part.game
                         and p.settings.get("strategy") == s["strategy"]}
    part.settings = s
    part.games = _games(part)
    return part


def quick(part, cap):
    s = part.settings
    s["games"] = min(s["games"], max(cap // 4, 100))       # tries the pipeline: dozens of conditions
    s["learned_games"] = min(s["learned_games"], max(cap // 20, 50))
    s["search_games"] = min(s["search_games"], 10)
    part.games = _games(part)


def _games(part):
    """An upper bound of the games the part plays (every condition, with and without compensation)."""
    import simcore

    from reports.robustness import rule_switches

    s = part.settings
    n_rules = len(rule_switches(simcore.games[part.game])) if s["rules"] else 0
    total = 0
    for n in part.players:
        bots, _ = bots_for(part.game, n, s["strategy"], s["bots"])
        per = (1 + n_rules) * s["games"] + sum(_games_of(part.game, b, s) for b in bots)
        total += per * (2 if str(n) in s["compensation"] else 1)
    return total


def _games_of(game, name, s):
    """The games a condition of bot ``name`` plays."""
    import strategies

    if name == "learned":
        return s["learned_games"]
    return s["search_games"] if strategies.resolve(game, name).searches else s["games"]


def bots_for(game, players, strategy, names):
    """The bot names of ``names`` for ``players``: "presets" expanded, "learned" only when shipped."""
    import strategies
    from strategies.learned import shipped

    out, missing = [], []
    for b in names:
        if b == "presets":
            out += [n for n in strategies.presets(game) if n != "random"]
        elif b == "learned":        # "no model at this count" only said where the game has some
            (out if players in shipped(game) else missing if shipped(game) else []).append("learned")
        else:
            out.append(b)
    return [b for b in dict.fromkeys(out) if b != strategy], missing


def _compensation(base, part, players, log):
    """The compensation result of the study's part for ``players`` (None when there is none)."""
    name = part.settings["compensation"].get(str(players))
    if not name:
        return None
    path = os.path.join(base, name, "compensation.json")
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)["result"]
    except (OSError, ValueError, KeyError):
        log(f"{part.title}: no compensation result at {path}; the compensation is not checked")
        return None


def run(part, ctx):
    from reports.progress import heartbeat

    s = part.settings
    folder = os.path.join(ctx.base, part.name)
    comps = {n: _compensation(ctx.base, part, n, ctx.log) for n in part.players}
    spec = {"game": part.game, "players": part.players, "seed": part.seed,
            **{k: v for k, v in s.items() if k != "compensation"},
            "compensation": {str(n): (c or {}).get("compensation") for n, c in comps.items()}}
    key, done = finished_result(folder, "robustness.json", spec, ctx.log, part.title)
    if done is not None:
        return done
    workers = ctx.workers or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    result = {"game": part.game, "strategy": s["strategy"], "seed": part.seed, "by_players": {}}
    t_part, now = time.perf_counter(), ["the first condition"]
    with heartbeat(ctx.log, lambda: f"  {part.title}: playing {now[0]}") as say:
        for n in part.players:
            result["by_players"][str(n)] = _play_count(part, n, comps[n], workers, say, now)
    keep_result(folder, "robustness.json", key, spec, result)
    ctx.log(f"{part.title}: {len(part.players)} player counts ({time.perf_counter() - t_part:.0f} s)")
    return result


def _play_count(part, n, comp, workers, say, now):
    """Every condition at ``n`` players (again with the compensation ``comp`` when there is one):
    the entry of ``result["by_players"]``."""
    import simcore

    from analysis.robustness import robustness_table
    from reports.robustness import conditions, play

    s = part.settings
    bots, missing = bots_for(part.game, n, s["strategy"], s["bots"])
    conds = conditions(part.game, n, s["strategy"], bots, s["rules"])
    total = None
    if comp:
        base = simcore.games[part.game].make_config(n, **comp.get("variant", {})).settings().get(
            comp["knob"], (0,) * n)
        total = tuple(int(a) + int(b) for a, b in zip(base, comp["compensation"]))
    shares, kinds, comp_shares, games = {}, {}, {}, {}
    for i, c in enumerate(conds, 1):
        g = _games_of(part.game, c["strategy"], s)
        now[0] = f"{n} players, {c['label']} ({g:,} games)"
        t0 = time.perf_counter()
        shares[c["label"]] = play(part.game, n, c, g, part.seed, workers)
        kinds[c["label"]], games[c["label"]] = c["kind"], g
        if total is not None:
            now[0] = f"{n} players, {c['label']} with the compensation ({g:,} games)"
            cc = dict(c, settings={**c["settings"], comp["knob"]: total})
            comp_shares[c["label"]] = play(part.game, n, cc, g, part.seed, workers)
        say(f"  {part.title}: {n} players: {c['label']}: {g:,} games"
            f"{' with and without the compensation' if total is not None else ''} "
            f"({i} of {len(conds)} conditions, {time.perf_counter() - t0:.1f} s)")
    table = robustness_table(s["strategy"], shares, kinds)
    entry = {"table": table.to_dicts(), "missing": missing, "games": games,
             "conditions": [c["label"] for c in conds]}
    if total is not None:
        entry["compensation"] = {"knob": comp["knob"], "vector": list(comp["compensation"]),
                                 "rows": _comp_rows(shares, comp_shares, kinds)}
    return entry


def _comp_rows(shares, comp_shares, kinds):
    """Per condition: the largest seat gap without and with the compensation, intervals simultaneous
    over the conditions (Bonferroni) and over the seats (``analysis.balance.gap_interval``)."""
    import numpy as np

    from analysis.balance import gap_interval

    k = max(1, len(comp_shares) - 1)
    level = 1 - 0.05 / k
    rows = []
    for label, w in comp_shares.items():
        w0 = np.asarray(shares[label], dtype=float)
        w = np.asarray(w, dtype=float)
        g0 = gap_interval(w0.sum(0), len(w0), level, (w0 ** 2).sum(0))
        g1 = gap_interval(w.sum(0), len(w), level, (w ** 2).sum(0))
        rows.append({"condition": label, "kind": kinds.get(label, ""), "n": len(w),
                     "gap_before_pp": 100 * g0[0], "gap_pp": 100 * g1[0], "lo_pp": 100 * g1[1],
                     "hi_pp": 100 * g1[2], "holds": bool(100 * g1[1] <= TARGET_PP)})
    return rows


def runs(part, result):
    return {}


def sections(part, result, figures=None):
    from reports.render.robustness import robustness_sections
    return robustness_sections(part, result)
