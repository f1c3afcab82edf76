"""``boardlab balance``: the seat compensation that makes a game fairest, found and verified (issue 20).

``boardlab balance GAME --players N [--knob seat_bonus|seat_points]
[--strategy S] [--budget GAMES] [--verify GAMES] [--step K] [--start shares|V]
[--seed S] [--workers W] [--json FILE] [--out DIR]``

1. **Search** (:class:`analysis.balance.Search`): a pattern search over
   integer compensation vectors (normalised: smallest entry 0), each step a
   race on common game seeds that doubles the games of the candidates still
   in it and drops the ones shown to be worse. ``--budget`` caps its games.
   ``--start shares`` first probes the shares (the zero vector and ``--step``
   units more for each seat in turn) and starts where a linear model of them
   puts the fair vector, at step 1; ``--start V`` starts at the vector V.
2. **Verification** on fresh seeds (game indices from ``VERIFY_START`` of the
   same seed, never used by the search): the same games without and with the
   compensation, per seat the win share with its 95% CI before and
   after, and the largest seat gap with a simultaneous 95% CI.

Games are played in this process through the engine's batch kernel
(``play_batch``, which releases the GIL per game) on ``--workers`` threads;
game ``i`` of a block always has the seed of game index ``i``, so every
result is the same for any worker count.

The same search is a study part (``[[compensation]]``, docs/study.md):
``reports.experiments.compensation`` parses, plays and reports it; the command is
``reports.commands.balance``; :func:`finding` is its line in "Findings at a glance".
"""
from __future__ import annotations

import sys
import time

import numpy as np
import polars as pl

from reports.verification import (MAX_BLOCK, MIN_BLOCK, VERIFY_START, Player, _duration, cs_rows, verify_fixed,
                                  verify_sequential)
from reports.words import knob_words

KNOBS = ("seat_points", "seat_bonus")
HEURISTIC_BUDGET, HEURISTIC_VERIFY = 1_000_000, 100_000
MAX_GAMES = 10 ** 10              # --budget and --verify: beyond, days to years of work (refused)
SEARCH_BUDGET = 400             # default budget for a searching strategy (kind mcts): thousands of times slower
MIN_SEARCH_BLOCK = 10
TARGET = 0.01                   # the target: largest seat gap ≤ 1 pp
PRECISION_VERIFY_CAP = 10_000_000   # verification games at most with --precision or a time budget
SEARCH_TIME_SHARE = 0.5         # a time budget: the search's share of it


def _log(line):
    print(line, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- settings

def default_step(searching):
    """The search's first step when none is given: 2 for a searching strategy, else 4."""
    return 2 if searching else 4


def block_games(budget, searching):
    """Games per race block: ``budget / 300`` within 200..2,000 (10.. for a searching strategy)."""
    lo = MIN_SEARCH_BLOCK if searching else MIN_BLOCK
    return int(min(MAX_BLOCK, max(lo, budget // 300)))


def plan(game, players, knob="seat_points", strategy="balanced", budget=None, verify=None, seed=0,
         variant=None, precision=None, seconds=None, step=None, start=None):
    """Check the settings of a balance search (one-line ValueErrors) and fill in the defaults.

    ``precision`` (a share: 0.01 = 1 pp): the verification plays until every seat's 95% confidence
    sequence, before and after, is within ± precision; ``verify`` is then its cap in games.
    ``seconds``: a wall-time budget of the whole command (the search stops at half of it, the
    verification at its end); ``budget`` stays the search's cap in games.
    ``step``: the search's first step in the knob's units (default 2 for a searching strategy, else 4);
    a smaller one where one unit already moves a seat by several points of win share.
    ``start``: None (the zero vector), ``"shares"`` (a probe of the shares picks it; ``step`` is the
    probe's move) or a vector (a sequence of ints or ``"0,1,2"``), normalised.

    Returns a dict: game, players, knob, strategy (name), strategy_dict, budget, verify, block, seed,
    variant (dict), base (the knob's vector in the variant), searching (bool), precision, seconds, step,
    start.
    """
    import simcore
    import strategies as S
    from analysis.balance import parse_start
    from simcore.run import check_players, parse_variant

    mod = simcore.get_game(game)
    players = check_players(game, players)
    if knob not in KNOBS:
        raise ValueError(f"unknown knob '{knob}' (known: {', '.join(KNOBS)})")
    variant = parse_variant(variant) if isinstance(variant, (list, tuple)) else dict(variant or {})
    mod.make_config(players, **variant)                 # a bad variant fails here, in one line
    base = tuple(mod.make_config(players, **variant).settings().get(knob, (0,) * players))
    strat = S.resolve(game, strategy or "balanced")
    searching = strat.searches
    if precision is not None and not 0 < precision < 0.5:
        raise ValueError(f"--precision must be between 0 and 50 percentage points, not {precision * 100:g}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"--budget time must be positive, not {seconds:g} s")
    from simcore._settings import SEAT_POINTS_MAX

    if step is None:
        step = default_step(searching)
    elif isinstance(step, bool) or not isinstance(step, (int, np.integer)) or not 1 <= step <= SEAT_POINTS_MAX:
        raise ValueError(f"--step must be a whole number of the knob's units from 1 to {SEAT_POINTS_MAX}, "
                         f"not {step!r}")
    try:
        start = parse_start(start, players)
    except ValueError as e:
        raise ValueError(f"--{e}") from None
    block_budget = budget if budget is not None else (SEARCH_BUDGET if searching else HEURISTIC_BUDGET)
    if budget is None:
        budget = block_budget if seconds is None else MAX_GAMES     # a time budget: the clock stops the search
    if verify is None:
        if precision is not None or seconds is not None:    # a cap: the target or the clock stops it first
            verify = PRECISION_VERIFY_CAP
        else:
            verify = max(players, budget // 2) if searching else HEURISTIC_VERIFY
    for name, value in (("budget", budget), ("verify", verify)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
            raise ValueError(f"--{name} must be a positive number of games, not {value}")
        if value > MAX_GAMES:
            raise ValueError(f"--{name} {value:,} games is beyond {MAX_GAMES:,} (the engines play 10^5 to 10^6 "
                             f"games a second on a core: {MAX_GAMES:.0e} is already days); give fewer")
    p = {"game": game, "players": players, "knob": knob, "strategy": strat.name, "strategy_dict": strat.to_dict(),
         "budget": int(budget), "verify": int(verify), "block": block_games(int(block_budget), searching),
         "seed": int(seed), "variant": variant, "base": base, "searching": searching,
         "precision": precision, "seconds": seconds, "step": int(step), "start": start}
    if isinstance(start, tuple) and not _valid(p)(start):
        raise ValueError(f"--start {_vec(start)}: the engine refuses this {knob} vector "
                         f"(each entry at most {SEAT_POINTS_MAX}; a seat_bonus must leave a valid start)")
    first = _search(p, play=None).first_round_games()
    if budget < first:
        what = f"a {strat.name} seat plays a game thousands of times slower than the heuristics, but " \
            if searching else ""
        if start == "shares":
            s = _search(p, play=None)
            what += (f"the probe of --start shares plays {s.probe_zero_blocks * p['block']:,} games of the zero "
                     f"vector and {s.probe_blocks * p['block']:,} of {p['players']} others = {first:,}")
        else:
            what += (f"the search's first round plays {first // p['block']} candidates x {p['block']:,} games "
                     f"= {first:,}")
        raise ValueError(f"--budget {budget:,} is too small: {what} (give --budget {first:,} or more)")
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
                  step=p.get("step") or default_step(p["searching"]), log=log, start=p.get("start"))


# ---------------------------------------------------------------- playing

# ---------------------------------------------------------------- search + verification

def balance(p, workers=None, log=_log) -> dict:
    """Search and verify (see the module docstring); return the result dict (:func:`to_json`'s superset)."""
    from analysis.balance import gap_interval, seat_rows, verdict

    t0, c0 = time.perf_counter(), time.process_time()
    zero = (0,) * p["players"]
    player = Player(p, workers)
    seconds = p.get("seconds")
    try:
        if seconds is not None and not p["searching"]:
            # a time budget: blocks sized from this strategy's measured speed, not from the games
            # default (2,000-game blocks of a 26 ms strategy outlast a short budget's first round)
            candidates = _search(p, play=None).first_round_games() // p["block"]
            p = player.p = {**p, "block": player.block_for(p, SEARCH_TIME_SHARE * seconds, candidates)}
        log(f"balance {p['game']}, {p['players']} players, knob {p['knob']}, strategy {p['strategy']}: "
            + (f"search budget {p['budget']:,} games" if seconds is None else
               f"time budget {_duration(seconds)} (the search {SEARCH_TIME_SHARE:.0%} of it)")
            + f" (blocks of {p['block']:,}), then "
            + (f"{p['verify']:,} fresh games" if p.get("precision") is None and seconds is None else
               "fresh games until " + (f"every seat is within ±{p['precision'] * 100:g} pp"
                                        if p.get("precision") is not None else "the budget is spent"))
            + f" before and after, {player.workers} thread{'s' if player.workers > 1 else ''}")
        search = _search(p, player.blocks, log=log)
        if seconds is not None:
            player.clock(search, t0 + SEARCH_TIME_SHARE * seconds)
        res = search.run()
        log(f"search: best {_vec(res.best)} after {res.steps} steps, {res.games:,} games "
            f"({time.perf_counter() - t0:.1f} s)" + ("" if res.converged else " (budget spent before it settled)"))
        vectors = [zero] if res.best == zero else [zero, res.best]
        if p.get("precision") is None and seconds is None:
            n = p["verify"]
            ws = verify_fixed(player, vectors, n, t0, log)
            stop = {"stop": "games", "reason": f"{n:,} fresh games, as planned", "interval": "fixed"}
        else:
            ws, stop = verify_sequential(player, p, vectors, t0, log)
            n = len(ws[0])
        before, after = ws[0].sum(axis=0), ws[-1].sum(axis=0)
        sq_before, sq_after = (ws[0] ** 2).sum(axis=0), (ws[-1] ** 2).sum(axis=0)   # observed variance (ties)
    finally:
        player.close()
    if stop["interval"] == "cs":
        from analysis.precision import gap_interval_cs

        npl = stop["n_planned"]
        rows_b, rows_a = cs_rows(before, sq_before, n, npl), cs_rows(after, sq_after, n, npl)
        gb = gap_interval_cs(before, sq_before, n, n_planned=npl)
        ga = gap_interval_cs(after, sq_after, n, n_planned=npl)
    else:
        rows_b, rows_a = seat_rows(before, n, squares=sq_before), seat_rows(after, n, squares=sq_after)
        gb, ga = gap_interval(before, n, squares=sq_before), gap_interval(after, n, squares=sq_after)
    out = {"game": p["game"], "players": p["players"], "knob": p["knob"], "compensation": list(res.best),
           "before": rows_b, "after": rows_a, "games": n,
           "gap_before": _gap_dict(gb), "gap_after": _gap_dict(ga), **verdict(ga, TARGET),
           "strategy": p["strategy"], "strategy_dict": p["strategy_dict"], "variant": p["variant"], "seed": p["seed"],
           "converged": res.converged,
           "search_games": res.games, "search_steps": res.steps, "budget": p["budget"], "block": p["block"],
           "start": None if p.get("start") is None else (p["start"] if isinstance(p["start"], str)
                                                         else list(p["start"])),
           "probe": res.probe,
           "verify_games": len(vectors) * n, "wall_seconds": time.perf_counter() - t0,
           "cpu_seconds": time.process_time() - c0, "verify_start": VERIFY_START,
           "precision": p.get("precision"), "seconds": seconds, "stop": stop["stop"],
           "stop_reason": stop["reason"], "interval": stop["interval"],
           "candidates": [{"compensation": list(v), "games": g, "shares": (s / g).tolist()}
                          for v, (s, g) in sorted(res.candidates.items())],
           "trace": [{**t, "vector": list(t["vector"])} for t in res.trace]}
    log(f"done in {out['wall_seconds']:.1f} s (CPU {out['cpu_seconds']:.1f} s): {stop['reason']}")
    return out


def _gap_dict(g):
    return {"gap": g[0], "lo": g[1], "hi": g[2]}


def to_json(result) -> dict:
    """The documented ``--json`` document: knob, compensation, before, after, games (plus the gap, the
    verdict and the search's settings and candidates)."""
    keys = ("knob", "compensation", "before", "after", "games", "game", "players", "strategy", "strategy_dict",
            "variant", "seed",
            "gap_before", "gap_after", "exact", "target", "target_met", "target_missed", "converged",
            "search_games", "budget", "block", "verify_start", "candidates", "precision", "seconds", "stop",
            "stop_reason", "interval", "start", "probe")
    return {k: result.get(k) for k in keys}


def stop_text(r) -> str:
    """How the verification stopped and which intervals it reports (empty for a plain fixed-n verification)."""
    if r.get("precision") is None and r.get("seconds") is None:
        return ""
    kind = ("95% confidence sequences (valid at this stop on the data)" if r.get("interval") == "cs" else
            "95% fixed-n intervals (the stop did not look at the games)")
    return f"Verification stopped: {r['stop_reason']}; {kind}."


def start_text(r) -> str:
    """Where the search started, when not at the zero vector (empty otherwise)."""
    probe, start = r.get("probe"), r.get("start")
    if probe:
        own = [probe["jacobian"][j][j] * 100 for j in range(r["players"])] if "jacobian" in probe else []
        head = (f"Start from the shares: a probe ({probe.get('zero_games', probe['games_each']):,} search games of "
                f"the zero vector, {probe['games_each']:,} of each seat with {probe['step']} unit(s) more)")
        if probe.get("fallback"):
            return head + f" gave no start ({probe['fallback']}): the search started from the zero vector."
        return (head + f" found one unit moving its own seat by {', '.join(f'{d:+.2f}' for d in own)} pp and "
                f"put the fair vector at ({', '.join(f'{x:.2f}' for x in probe['solution'])}): the search "
                f"started at {_vec(probe['start'])}, step 1.")
    if isinstance(start, (list, tuple)) and any(start):
        return f"The search started at {_vec(start)}."
    return ""


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
    from reports.render.sections import text_table

    fair = 1.0 / r["players"]
    rows = []
    for b, a, c in zip(r["before"], r["after"], r["compensation"]):
        rows.append([str(b["seat"]), f"{c:+d}" if c else "0", f"{b['share']:.4f}", f"[{b['lo']:.4f}, {b['hi']:.4f}]",
                     f"{a['share']:.4f}", f"[{a['lo']:.4f}, {a['hi']:.4f}]"])
    gb, ga = r["gap_before"], r["gap_after"]
    lines = [f"{r['game']}, {r['players']} players, strategy {r['strategy']}, knob {r['knob']} "
             f"({knob_words(r['game'], r['knob'])} per seat), seed {r['seed']}",
             f"compensation {_vec(r['compensation'])}: found in {r['search_games']:,} search games; verified on "
             f"{r['games']:,} fresh games, the same seeds before and after"] + \
        ([start_text(r)] if start_text(r) else []) + ([stop_text(r)] if stop_text(r) else []) + ["",
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
    from reports.render import figures as F
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
                                     f"{r['knob']} {_vec(r['compensation'])}; a k-way tie counts 1/k; 95% CIs (Wilson "
                                     f"on the observed variance of the per-game shares).")
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
                   f"candidates table; a k-way tie counts 1/k); dashed: the fair share {fair * 100:.1f}%.")
    return [f1, f2]


def section(r, title=None):
    """The report section of one balance result (tables, figures, the conclusion)."""
    from reports.render.sections import Fig, Section, Table

    paras = [
        f"Strategy **{r['strategy']}** in every seat; knob `{r['knob']}` ({knob_words(r['game'], r['knob'])} added "
        f"per seat, vectors normalised so the smallest entry is 0). The search played {r['search_games']:,} games "
        f"(common seeds for every candidate, races that stop spending games on candidates shown worse); the "
        f"compensation found was then verified on {r['games']:,} fresh games, the same seeds without and with it.",
        conclusion(r)[0].upper() + conclusion(r)[1:]] + ([start_text(r)] if start_text(r) else []) + \
        ([stop_text(r)] if stop_text(r) else [])
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
