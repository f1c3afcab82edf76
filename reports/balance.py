"""``boardlab balance``: the seat compensation that makes a game fairest, found and verified (issue 20).

``boardlab balance GAME --players N [--knob seat_bonus|seat_points]
[--strategy S] [--budget GAMES] [--verify GAMES] [--seed S] [--workers W]
[--json FILE] [--out DIR]``

1. **Search** (:class:`analysis.balance.Search`): a pattern search over
   integer compensation vectors (normalised: smallest entry 0), each step a
   race on common game seeds that doubles the games of the candidates still
   in it and drops the ones shown to be worse. ``--budget`` caps its games.
2. **Verification** on fresh seeds (game indices from ``VERIFY_START`` of the
   same seed, never used by the search): the same games without and with the
   compensation, per seat the win share with its 95% Wilson CI before and
   after, and the largest seat gap with a simultaneous 95% CI.

Games are played in this process through the engine's batch kernel
(``play_batch``, which releases the GIL per game) on ``--workers`` threads;
game ``i`` of a block always has the seed of game index ``i``, so every
result is the same for any worker count.

The same search is a study part (``[[compensation]]``, docs/study.md):
:func:`parse_part`, :func:`run_part` and :func:`part_sections` are its hooks
in ``reports/study.py``, :func:`finding` its line in "Findings at a glance".
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import polars as pl

from reports._args import _positive_int, _seed, check_out_file, check_out_folder

KNOBS = ("seat_points", "seat_bonus")
VERIFY_START = 1 << 31          # game index of the first verification game (the search starts at 0)
HEURISTIC_BUDGET, HEURISTIC_VERIFY = 1_000_000, 100_000
SEARCH_BUDGET = 400             # default budget for a searching strategy (kind mcts): thousands of times slower
MAX_BLOCK, MIN_BLOCK, MIN_SEARCH_BLOCK = 2_000, 200, 10
TARGET = 0.01                   # the target: largest seat gap ≤ 1 pp


def _log(line):
    print(line, file=sys.stderr, flush=True)


def knob_words(game, knob, n=2):
    """What ``n`` units of ``knob`` are in ``game``: 'points', 'starting coin', 'starting marble'."""
    from reports.games import plugin

    if knob == "seat_points":
        one, many = "point", "points"
    else:                       # the game's report plug-in names its starting resource
        one, many = plugin(game).SEAT_BONUS_UNIT or ("resource", "resources")
    return ("" if knob == "seat_points" else "starting ") + (one if abs(n) == 1 else many)


# ---------------------------------------------------------------- settings

def block_games(budget, searching):
    """Games per race block: ``budget / 300`` within 200..2,000 (10.. for a searching strategy)."""
    lo = MIN_SEARCH_BLOCK if searching else MIN_BLOCK
    return int(min(MAX_BLOCK, max(lo, budget // 300)))


def plan(game, players, knob="seat_points", strategy="balanced", budget=None, verify=None, seed=0,
         variant=None):
    """Check the settings of a balance search (one-line ValueErrors) and fill in the defaults.

    Returns a dict: game, players, knob, strategy (name), strategy_dict, budget, verify, block, seed,
    variant (dict), base (the knob's vector in the variant), searching (bool).
    """
    import simcore
    import strategies as S
    from simcore.run import check_players, parse_variant

    if game not in simcore.games:
        raise ValueError(f"unknown game '{game}' (known: {', '.join(simcore.games)})")
    players = check_players(game, players)
    if knob not in KNOBS:
        raise ValueError(f"unknown knob '{knob}' (known: {', '.join(KNOBS)})")
    variant = parse_variant(variant) if isinstance(variant, (list, tuple)) else dict(variant or {})
    mod = simcore.games[game]
    mod.make_config(players, **variant)                 # a bad variant fails here, in one line
    base = tuple(mod.make_config(players, **variant).settings().get(knob, (0,) * players))
    strat = S.resolve(game, strategy or "balanced")
    searching = strat.kind == "mcts"
    if budget is None:
        budget = SEARCH_BUDGET if searching else HEURISTIC_BUDGET
    if verify is None:
        verify = max(players, budget // 2) if searching else HEURISTIC_VERIFY
    for name, value in (("budget", budget), ("verify", verify)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
            raise ValueError(f"--{name} must be a positive number of games, not {value}")
    p = {"game": game, "players": players, "knob": knob, "strategy": strat.name, "strategy_dict": strat.to_dict(),
         "budget": int(budget), "verify": int(verify), "block": block_games(int(budget), searching),
         "seed": int(seed), "variant": variant, "base": base, "searching": searching}
    first = _search(p, play=None).first_round_games()
    if budget < first:
        what = f"a {strat.name} seat plays a game thousands of times slower than the heuristics, but " \
            if searching else ""
        raise ValueError(f"--budget {budget:,} is too small: {what}the search's first round plays "
                         f"{first // p['block']} candidates x {p['block']:,} games = {first:,} "
                         f"(give --budget {first:,} or more)")
    return p


def _valid(p):
    import simcore
    from simcore._settings import SEAT_POINTS_MAX

    mod = simcore.games[p["game"]]

    def valid(vector):
        total = [b + c for b, c in zip(p["base"], vector)]
        if max(vector) > SEAT_POINTS_MAX:
            return False
        try:
            mod.make_config(p["players"], **{**p["variant"], p["knob"]: total})
        except ValueError:
            return False
        return True
    return valid


def _search(p, play, log=None):
    from analysis.balance import Search

    return Search(p["players"], play, p["budget"], p["block"], valid=_valid(p),
                  step=2 if p["searching"] else 4, log=log)


# ---------------------------------------------------------------- playing

class Player:
    """Plays blocks of games in this process, on ``workers`` threads (the kernels release the GIL)."""

    def __init__(self, p, workers=None):
        import simcore
        from simcore._contract import policy_argument

        self.p = p
        self.mod = simcore.games[p["game"]]
        self.policies = [policy_argument(self.mod, p["strategy_dict"])] * p["players"]
        if workers is None:
            workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        self.workers = max(1, int(workers))
        self.pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None
        self._configs = {}
        self.games = 0

    def close(self):
        if self.pool is not None:
            self.pool.shutdown()

    def config(self, vector):
        if vector not in self._configs:
            total = [b + c for b, c in zip(self.p["base"], vector)]
            self._configs[vector] = self.mod.make_config(self.p["players"],
                                                         **{**self.p["variant"], self.p["knob"]: total})
        return self._configs[vector]

    def _one(self, job):
        vector, start, stop = job
        from simcore.rng import chunk_seeds

        seeds = chunk_seeds(self.p["seed"], start, stop)
        out = self.mod.play_batch(self.p["players"], seeds, self.policies, config=self.config(vector),
                                  events=False)
        return np.asarray(out["players"]["win_share"], dtype=np.float64)

    def games_of(self, ranges):
        """Per-game win shares of ``[(vector, start, stop)]`` (game indices), one array per range."""
        piece = max(1, min(1_000, math.ceil(max(stop - start for _, start, stop in ranges) / 2)))
        jobs, owner = [], []
        for k, (v, start, stop) in enumerate(ranges):
            for a in range(start, stop, piece):
                jobs.append((v, a, min(stop, a + piece)))
                owner.append(k)
        results = list(self.pool.map(self._one, jobs)) if self.pool else [self._one(j) for j in jobs]
        out = [[] for _ in ranges]
        for k, r in zip(owner, results):
            out[k].append(r)
        self.games += sum(stop - start for _, start, stop in ranges)
        return [np.concatenate(parts) for parts in out]

    def blocks(self, jobs):
        """``Search``'s ``play``: ``[(vector, block)]`` -> per-game win shares of each block."""
        b = self.p["block"]
        return self.games_of([(v, blk * b, (blk + 1) * b) for v, blk in jobs])


# ---------------------------------------------------------------- search + verification

def balance(p, workers=None, log=_log) -> dict:
    """Search and verify (see the module docstring); return the result dict (:func:`to_json`'s superset)."""
    from analysis.balance import gap_interval, seat_rows, verdict

    t0, c0 = time.perf_counter(), time.process_time()
    zero = (0,) * p["players"]
    player = Player(p, workers)
    try:
        log(f"balance {p['game']}, {p['players']} players, knob {p['knob']}, strategy {p['strategy']}: "
            f"search budget {p['budget']:,} games (blocks of {p['block']:,}), then {p['verify']:,} fresh games "
            f"before and after, {player.workers} thread{'s' if player.workers > 1 else ''}")
        res = _search(p, player.blocks, log=log).run()
        log(f"search: best {_vec(res.best)} after {res.steps} steps, {res.games:,} games "
            f"({time.perf_counter() - t0:.1f} s)" + ("" if res.converged else " (budget spent before it settled)"))
        n = p["verify"]
        log(f"verifying {_vec(res.best)} against {_vec(zero)} on {n:,} fresh games each ...")
        vectors = [zero] if res.best == zero else [zero, res.best]
        ws = player.games_of([(v, VERIFY_START, VERIFY_START + n) for v in vectors])
        before, after = ws[0].sum(axis=0), ws[-1].sum(axis=0)
    finally:
        player.close()
    gb, ga = gap_interval(before, n), gap_interval(after, n)
    out = {"game": p["game"], "players": p["players"], "knob": p["knob"], "compensation": list(res.best),
           "before": seat_rows(before, n), "after": seat_rows(after, n), "games": n,
           "gap_before": _gap_dict(gb), "gap_after": _gap_dict(ga), **verdict(ga, TARGET),
           "strategy": p["strategy"], "variant": p["variant"], "seed": p["seed"], "converged": res.converged,
           "search_games": res.games, "search_steps": res.steps, "budget": p["budget"], "block": p["block"],
           "verify_games": len(vectors) * n, "wall_seconds": time.perf_counter() - t0,
           "cpu_seconds": time.process_time() - c0, "verify_start": VERIFY_START,
           "candidates": [{"compensation": list(v), "games": g, "shares": (s / g).tolist()}
                          for v, (s, g) in sorted(res.candidates.items())],
           "trace": [{**t, "vector": list(t["vector"])} for t in res.trace]}
    log(f"done in {out['wall_seconds']:.1f} s (CPU {out['cpu_seconds']:.1f} s)")
    return out


def _gap_dict(g):
    return {"gap": g[0], "lo": g[1], "hi": g[2]}


def to_json(result) -> dict:
    """The documented ``--json`` document: knob, compensation, before, after, games (plus the gap, the
    verdict and the search's settings and candidates)."""
    keys = ("knob", "compensation", "before", "after", "games", "game", "players", "strategy", "variant", "seed",
            "gap_before", "gap_after", "exact", "target", "target_met", "target_missed", "converged",
            "search_games", "budget", "block", "verify_start", "candidates")
    return {k: result[k] for k in keys}


def _vec(v):
    return "(" + ", ".join(str(x) for x in v) + ")"


def _pp(x):
    return f"{x * 100:.2f}"


def conclusion(r) -> str:
    """One or two sentences: balanced exactly or not, the best vector, the remaining gap, the 1 pp target."""
    g = r["gap_after"]
    gap = f"{_pp(g['gap'])} pp [{_pp(g['lo'])}, {_pp(g['hi'])}]"
    zero = not any(r["compensation"])
    if r["exact"]:
        text = (f"{'no compensation is needed' if zero else _vec(r['compensation']) + ' balances the seats'}"
                f" within the noise of {r['games']:,} games: the largest seat gap left is {gap}, "
                f"its 95% CI holds 0.")
    else:
        text = (f"no integer {r['knob']} vector balances exactly: the best found, {_vec(r['compensation'])}, "
                f"leaves a largest seat gap of {gap} (its 95% CI excludes 0).")
    if r["target_met"]:
        text += f" Target ≤ {r['target'] * 100:g} pp: met (upper bound {_pp(g['hi'])} pp)."
    elif r["target_missed"]:
        text += f" Target ≤ {r['target'] * 100:g} pp: missed by this vector (lower bound {_pp(g['lo'])} pp)" + (
            "; the search found no fairer integer vector." if r["converged"] else ".")
    else:
        text += (f" Target ≤ {r['target'] * 100:g} pp: not shown either way with {r['games']:,} games "
                 f"(CI {_pp(g['lo'])}-{_pp(g['hi'])} pp).")
    if not r["converged"]:
        text += " The search's budget ran out before it settled: a larger --budget may find a better vector."
    if not zero and g["gap"] > r["gap_before"]["gap"]:
        text += " " + WORSE.format(before=_pp(r["gap_before"]["gap"]), after=_pp(g["gap"]))
    return text


# when the verification games show the vector found worse than none (a search on too few games)
WORSE = ("On the verification games it is worse than no compensation ({after} pp against {before} pp): the "
         "search played too few games to tell the candidates apart; keep the printed rules or rerun with a "
         "larger --budget.")


def table_text(r) -> str:
    """The terminal table: per seat, share and 95% CI before and after; the gaps; the conclusion."""
    from reports.sections import text_table

    fair = 1.0 / r["players"]
    rows = []
    for b, a, c in zip(r["before"], r["after"], r["compensation"]):
        rows.append([str(b["seat"]), f"{c:+d}" if c else "0", f"{b['share']:.4f}", f"[{b['lo']:.4f}, {b['hi']:.4f}]",
                     f"{a['share']:.4f}", f"[{a['lo']:.4f}, {a['hi']:.4f}]"])
    gb, ga = r["gap_before"], r["gap_after"]
    lines = [f"{r['game']}, {r['players']} players, strategy {r['strategy']}, knob {r['knob']} "
             f"({knob_words(r['game'], r['knob'])} per seat), seed {r['seed']}",
             f"compensation {_vec(r['compensation'])}: found in {r['search_games']:,} search games; verified on "
             f"{r['games']:,} fresh games, the same seeds before and after", "",
             text_table(["seat", r["knob"], "before", "95% CI", "after", "95% CI"], rows),
             "",
             f"largest seat gap |share - {fair:.4f}|: before {_pp(gb['gap'])} pp [{_pp(gb['lo'])}, {_pp(gb['hi'])}], "
             f"after {_pp(ga['gap'])} pp [{_pp(ga['lo'])}, {_pp(ga['hi'])}] (simultaneous 95% CIs)",
             conclusion(r),
             f"n = {r['games']:,} games per column; a k-way tie counts 1/k of a win."]
    return "\n".join(lines)


# ---------------------------------------------------------------- report

def seat_frame(r, prefix="") -> pl.DataFrame:
    """One row per seat: compensation, share and CI before and after, the gaps (the findings read it)."""
    rows = []
    for b, a, c in zip(r["before"], r["after"], r["compensation"]):
        rows.append({"game": r["game"], "players": r["players"], "strategy": r["strategy"], "knob": r["knob"],
                     "seat": b["seat"], "compensation": c, "fair": 1.0 / r["players"],
                     "share_before": b["share"], "lo_before": b["lo"], "hi_before": b["hi"],
                     "share_after": a["share"], "lo_after": a["lo"], "hi_after": a["hi"], "games": r["games"],
                     "gap_before": r["gap_before"]["gap"], "gap_before_lo": r["gap_before"]["lo"],
                     "gap_before_hi": r["gap_before"]["hi"], "gap_after": r["gap_after"]["gap"],
                     "gap_after_lo": r["gap_after"]["lo"], "gap_after_hi": r["gap_after"]["hi"],
                     "exact": r["exact"], "target_met": r["target_met"], "search_games": r["search_games"]})
    return pl.DataFrame(rows)


def candidates_frame(r) -> pl.DataFrame:
    """Every vector the search played: games on the search seeds, share per seat, estimated gap."""
    rows = []
    for c in r["candidates"]:
        shares = c["shares"]
        row = {"compensation": _vec(c["compensation"]), "games": c["games"]}
        for s, x in enumerate(shares):
            row[f"seat_{s}"] = x
        row["gap"] = max(abs(x - 1.0 / r["players"]) for x in shares)
        row["chosen"] = c["compensation"] == list(r["compensation"])
        rows.append(row)
    return pl.DataFrame(rows).sort("gap")


def figures(r):
    """Two figures: the verified shares before and after; the share of every seat per candidate searched."""
    from analysis.stats import wilson_bounds
    from reports import figures as F
    from reports.words import player_name

    fair = 1.0 / r["players"]
    long = []
    for label, rows in ((f"before {_vec([0] * r['players'])}", r["before"]),
                        (f"after {_vec(r['compensation'])}", r["after"])):
        for x in rows:
            long.append({"seat": x["seat"], "win_share": x["share"], "win_lo": x["lo"], "win_hi": x["hi"],
                         "fair_share": fair, "compensation": label})
    f1 = F.win_share_by_seat(pl.DataFrame(long), series="compensation",
                             title=f"{r['game'].capitalize()}, {r['players']} players: win share before and after",
                             caption=f"Verification: {r['games']:,} fresh games each, the same seeds; "
                                     f"{r['knob']} {_vec(r['compensation'])}; 95% Wilson CIs.")
    # per candidate: 2 players: x = player 1's compensation minus player 2's, at its real value (the
    # search steps by 2 or 4 and skips values: an even spacing would hide that); more players: one
    # position per vector, fairest first
    two = r["players"] == 2
    cands = sorted(r["candidates"], key=lambda c: (c["compensation"][0] - c["compensation"][1] if two else
                                                   max(abs(x - fair) for x in c["shares"])))
    fig, axes = F._panels(1, width=max(6.0, 0.55 * len(cands) + 2), height=3.8)
    ax = axes[0][0]
    if two:
        xs = np.array([c["compensation"][0] - c["compensation"][1] for c in cands], dtype=float)
        step = float(np.min(np.diff(xs))) if len(xs) > 1 else 1.0
    else:
        xs, step = np.arange(len(cands), dtype=float), 1.0
    labels = [(f"{int(x):+d}".replace("+0", "0") if two else ",".join(map(str, c["compensation"])))
              for x, c in zip(xs, cands)]
    for s in range(r["players"]):
        y = np.array([c["shares"][s] for c in cands])
        n = np.array([c["games"] for c in cands])
        lo, hi = wilson_bounds(y * n, n)
        off = (s - (r["players"] - 1) / 2) * 0.08 * step
        ax.errorbar(xs + off, y * 100, yerr=F._err(y * 100, lo * 100, hi * 100),
                    fmt="o-" if two else "o", markersize=4,
                    color=F.COLORS[s], capsize=2, linewidth=1, label=player_name(s))
    chosen = next((i for i, c in enumerate(cands) if c["compensation"] == list(r["compensation"])), None)
    if chosen is not None:
        ax.axvspan(xs[chosen] - 0.4 * step, xs[chosen] + 0.4 * step, color="#ffd54f", alpha=0.35, label="chosen")
    ax.axhline(fair * 100, color="#444444", linestyle="--", linewidth=1, label=f"fair share {fair * 100:.1f}%")
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=0 if two else 45, fontsize=8)
    ax.set_xlabel(f"player 1's {r['knob']} minus player 2's" if two
                  else f"{r['knob']} per player, P1 first (candidates, fairest on the left)")
    ax.set_ylabel("win share (% of games, 95% CI)")
    F._legend_outside(ax)
    f2 = F._finish(fig, f"{r['game'].capitalize()}, {r['players']} players: win share per player vs compensation",
                   f"Every vector the search played, on the search's common seeds (games per vector in the "
                   f"candidates table); dashed: the fair share {fair * 100:.1f}%.")
    return [f1, f2]


def section(r, title=None):
    """The report section of one balance result (tables, figures, the conclusion)."""
    from reports.sections import Fig, Section, Table

    paras = [
        f"Strategy **{r['strategy']}** in every seat; knob `{r['knob']}` ({knob_words(r['game'], r['knob'])} added "
        f"per seat, vectors normalised so the smallest entry is 0). The search played {r['search_games']:,} games "
        f"(common seeds for every candidate, races that stop spending games on candidates shown worse); the "
        f"compensation found was then verified on {r['games']:,} fresh games, the same seeds without and with it.",
        conclusion(r)[0].upper() + conclusion(r)[1:]]
    f1, f2 = figures(r)
    sec = Section(title or f"{r['game'].capitalize()}, {r['players']} players: seat compensation",
                  paragraphs=paras,
                  tables=[Table("compensation", seat_frame(r), "Per seat: the compensation, the win share and "
                                "its 95% CI before and after (verification games), and the largest seat gap "
                                "(simultaneous 95% CI)."),
                          Table("compensation_candidates", candidates_frame(r),
                                "Every vector the search played, on its common seeds (the chosen one marked).")],
                  figures=[Fig("compensation_before_after", f1), Fig("compensation_candidates", f2)])
    sec.terminal = table_text(r)
    sec.findings = [finding(sec.tables[0].frame)]
    return sec


def finding(frame) -> str:
    """The "Findings at a glance" line of a ``compensation`` table (:func:`seat_frame`)."""
    from reports.words import player_name
    rows = frame.sort("seat").to_dicts()
    r0 = rows[0]
    game, knob = r0["game"], r0["knob"]
    given = [(x["seat"], x["compensation"]) for x in rows if x["compensation"]]
    worse = bool(given) and r0["gap_after"] > r0["gap_before"]
    if worse:       # the search's best did not hold on fresh games: no change is shown to help
        change = ("no change shown to help yet (the search's best, " + ", ".join(
            f"{player_name(s)} {c:+d} {knob_words(game, knob, c)}" for s, c in given) + ", did worse than none "
            "on the verification games)")
    elif given:
        change = "give " + ", ".join(f"{player_name(s)} {c:+d} {knob_words(game, knob, c)}" for s, c in given)
    else:
        change = "change nothing"
    shares = "; ".join(f"{player_name(x['seat'])} {x['share_after'] * 100:.1f}% [{x['lo_after'] * 100:.1f}, "
                       f"{x['hi_after'] * 100:.1f}] (was {x['share_before'] * 100:.1f}%)" for x in rows)
    where = f"{game.capitalize()}, {r0['players']} players"
    text = (f"**{where} — what to change** ({r0['strategy']} play): {change} "
            f"({knob} {_vec([x['compensation'] for x in rows])}). Verified on {r0['games']:,} fresh games: "
            f"{shares}; largest seat gap {r0['gap_after'] * 100:.1f} pp [{r0['gap_after_lo'] * 100:.1f}, "
            f"{r0['gap_after_hi'] * 100:.1f}], was {r0['gap_before'] * 100:.1f} pp "
            f"[{r0['gap_before_lo'] * 100:.1f}, {r0['gap_before_hi'] * 100:.1f}]")
    text += "." if r0["exact"] else f"; no integer {knob} vector balances exactly."
    if worse:
        text += " " + WORSE.format(before=f"{r0['gap_before'] * 100:.1f}", after=f"{r0['gap_after'] * 100:.1f}")
    return text


def write(r, out, command=None):
    """Write the report of one balance result to ``out`` (report.html, report.md, figures, tables)."""
    import simcore
    from reports.report import Report, write_report
    from reports.sections import Section

    prov = Section("What was run", paragraphs=[
        f"`{command or 'boardlab balance'}`",
        f"Game {r['game']}, {r['players']} players, strategy {r['strategy']}, variant "
        f"{', '.join(f'{k}={v}' for k, v in r['variant'].items()) or 'default'}, seed {r['seed']}; search budget "
        f"{r['budget']:,} games in blocks of {r['block']:,} (game indices 0…), verification game indices from "
        f"{VERIFY_START:,}. boardlab {simcore.__version__}."])
    report = Report(f"{r['game'].capitalize()}, {r['players']} players: seat compensation ({r['knob']})",
                    sections=with_findings_of([section(r), prov]))
    return write_report(report, out)


def with_findings_of(sections):
    from reports.report import with_findings

    return with_findings(sections)


# ---------------------------------------------------------------- the command

def add_parser(sub):
    p = sub.add_parser("balance", help="find and verify the seat compensation that makes a game fairest",
                       description="Search integer compensation vectors (seat_points: points on the final "
                                   "total; seat_bonus: the starting resource) for the one that brings every "
                                   "seat's win share closest to fair, on common seeds with races that spend "
                                   "games where candidates are close; then verify it on fresh seeds and print "
                                   "each seat's win share with its 95% CI before and after, and the largest "
                                   "seat gap left.")
    p.add_argument("game", help="game name, e.g. hellas")
    p.add_argument("--players", type=_positive_int, required=True, help="player count")
    p.add_argument("--knob", default="seat_points", help="seat_points (default) or seat_bonus")
    p.add_argument("--strategy", default="balanced",
                   help="strategy of every seat: a preset, a preset file or mcts:iterations=100 (default balanced)")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE", help="engine setting")
    p.add_argument("--budget", type=_positive_int, default=None,
                   help=f"games the search may play (default {HEURISTIC_BUDGET:,}; {SEARCH_BUDGET} for a "
                        f"searching strategy)")
    p.add_argument("--verify", type=_positive_int, default=None,
                   help=f"fresh games to verify with, before and after each (default {HEURISTIC_VERIFY:,}; "
                        f"half the budget for a searching strategy)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the search and verification games (default 0)")
    p.add_argument("--workers", type=_positive_int, default=None, help="threads (default: all cores)")
    p.add_argument("--json", default=None, metavar="FILE", help="write the result as JSON")
    p.add_argument("--out", default=None, metavar="DIR", help="write a report (report.html, report.md, CSV, figures)")
    p.set_defaults(func=cmd_balance)
    return p


def cmd_balance(args):
    if args.json:
        check_out_file(args.json, "--json")
    if args.out:
        check_out_folder(args.out)
    p = plan(args.game, args.players, args.knob, args.strategy, args.budget, args.verify, args.seed, args.variant)
    r = balance(p, workers=args.workers)
    print(table_text(r))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(to_json(r), fh, indent=1)
        print(f"wrote {args.json}")
    if args.out:
        paths = write(r, args.out, command="boardlab " + " ".join(sys.argv[1:]))
        print(f"report: {os.path.abspath(paths['html'])}")
    return 0


# ---------------------------------------------------------------- the study part [[compensation]]

PART_KEYS = {"name", "title", "game", "players", "strategy", "knob", "budget", "verify", "seed", "variant",
             "quick_games"}


def part_spec(part):
    """What determines a compensation part's result (its cache key)."""
    s = part.settings
    return {k: s[k] for k in ("game", "players", "knob", "strategy", "budget", "verify", "seed", "variant")}


def quick_settings(settings, cap):
    """``--quick``: the search budget at most 10 x ``cap`` and the verification at most 5 x ``cap`` games."""
    s = dict(settings)
    s["budget"] = min(s["budget"], 10 * cap)
    s["verify"] = min(s["verify"], 5 * cap)
    try:
        part_plan(s)
    except ValueError:          # below the search's first round (a searching strategy): keep the file's
        s["budget"] = settings["budget"]
    return s


def part_plan(s):
    return plan(s["game"], s["players"], s["knob"], s["strategy"], s["budget"], s["verify"], s["seed"],
                s["variant"])


def run_part(part, folder, workers=None, log=_log):
    """Play a ``[[compensation]]`` part (or read its finished result from ``folder``); return the result."""
    spec = part_spec(part)
    key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]
    path = os.path.join(folder, "compensation.json")
    if os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as fh:
                done = json.load(fh)
            if done.get("key") == key:
                log(f"{part.title}: finished before ({path})")
                return done["result"]
        except (OSError, ValueError):
            pass
    t0 = time.perf_counter()
    r = balance(part_plan(part.settings), workers=workers, log=lambda line: None)
    os.makedirs(folder, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump({"key": key, "spec": spec, "result": r}, fh)
    os.replace(tmp, path)
    log(f"{part.title}: {_vec(r['compensation'])} after {r['search_games']:,} search games, verified on "
        f"{r['games']:,} ({time.perf_counter() - t0:.0f} s)")
    return r


def part_sections(part, result):
    return [section(result, title="Seat compensation")]


def parse_part(t, where, study, game):
    """The settings of a ``[[compensation]]`` table ``t`` (keys checked by the study loader), checked.

    ValueError (the study names the file and part) for a bad value. Returns the settings dict that
    :func:`run_part` plays: game, players, knob, strategy, budget, verify, seed, variant, quick_games.
    """
    players = t.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be one player count for a compensation search, not {players!r}")
    s = {"game": game, "players": players}
    for key, default in (("knob", "seat_points"), ("strategy", "balanced")):
        s[key] = t.get(key, default)
        if not isinstance(s[key], str):
            raise ValueError(f"{key} must be a string, not {s[key]!r}")
    for key in ("budget", "verify", "quick_games", "seed"):
        value = t.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0
                                  or (value == 0 and key != "seed")):
            raise ValueError(f"{key} must be a positive integer, not {value!r}")
    variant = t.get("variant", {})
    if not isinstance(variant, dict):
        raise ValueError(f"variant must be a table of engine settings, not {variant!r}")
    s["variant"] = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in variant.items()}
    s["seed"] = t.get("seed", study.seed)
    p = plan(game, players, s["knob"], s["strategy"], t.get("budget"), t.get("verify"), s["seed"], s["variant"])
    s.update(budget=p["budget"], verify=p["verify"], strategy=p["strategy"])
    s["quick_games"] = t.get("quick_games", 0)
    return s


def part_games(settings):
    """The games a part plays at most: the search budget and the verification before and after."""
    return settings["budget"] + 2 * settings["verify"]


def provenance(extra, commands):
    """"What was run" of a study with compensation parts only (no results folder to list)."""
    import simcore
    from reports.sections import Section
    from simcore.run import _git_commit

    paras = list(extra) + [f"boardlab {simcore.__version__}, git commit {(_git_commit()[0] or 'none')[:10]}."]
    if commands:
        paras.append("To reproduce it:\n\n```\n" + "\n".join(commands) + "\n```")
    return Section("What was run", paragraphs=paras)
