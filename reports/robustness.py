"""Play a robustness table: each seat's advantage across bots and assumed rules (issue 33, item 4).

    python -m reports.robustness GAME --players N [--games 20000] [--strategy balanced]
                                 [--bots random,PRESETS,mcts:iterations=50] [--search-games 200]
                                 [--no-rules] [--seed 0] [--workers W] [--csv FILE]

Conditions (``analysis.robustness``): the baseline strategy in every seat with
the default settings; every other bot in every seat (``--bots``, default the
random player, the game's presets and MCTS-50, which plays ``--search-games``
games); and, with the baseline strategy, each engine setting with an assumed
rule decision (an H-D, A-D or Y-D tag in ``SETTINGS``) switched to each of its
alternatives, one at a time. All play games ``0..n-1`` of the same seed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from analysis.robustness import compensation_sentence, compensation_table, robustness_table, sentences

RULE_TAGS = ("H-D", "A-D", "Y-D")


def rule_switches(mod) -> list:
    """``[(label, key, value)]``: every alternative of a setting tagged as an assumed rule decision."""
    out = []
    for key, (tag, default, alts) in mod.SETTINGS.items():
        if not alts or not any(str(tag).startswith(t) for t in RULE_TAGS):
            continue
        for v in alts:
            if v != default:
                shown = ",".join(map(str, v)) if isinstance(v, tuple) else v
                out.append((f"{tag} {key}={shown}", key, v))
    return out


def conditions(game, players, strategy="balanced", bots=None, rules=True):
    """``[{label, kind, strategy, settings}]``, the baseline first."""
    import simcore
    import strategies

    mod = simcore.games[game]
    if bots is None:
        bots = ["random"] + [n for n in strategies.presets(game) if n not in ("random", strategy)] \
            + ["mcts:iterations=50"]
    out = [{"label": strategy, "kind": "baseline", "strategy": strategy, "settings": {}}]
    out += [{"label": b, "kind": "bot", "strategy": b, "settings": {}} for b in bots if b != strategy]
    if rules:
        out += [{"label": lab, "kind": "rule", "strategy": strategy, "settings": {k: v}}
                for lab, k, v in rule_switches(mod)]
    return out


def play(game, players, cond, games, seed, workers=1, piece=2000):
    """Per-game win shares ``(games, players)`` of one condition, games ``0..games-1`` of ``seed``."""
    import simcore
    import strategies
    from simcore._contract import policy_argument
    from simcore.rng import chunk_seeds

    mod = simcore.games[game]
    strat = strategies.resolve(game, cond["strategy"])
    pol = policy_argument(mod, strat.to_dict())
    config = mod.make_config(players, **cond["settings"])
    if strat.searches:
        piece = 10
    piece = max(1, min(piece, -(-games // max(1, workers))))     # every worker gets a piece (the games are the same)

    def one(a):
        b = min(games, a + piece)
        out = mod.play_batch(players, chunk_seeds(seed, a, b), [pol] * players, config=config, events=False)
        return np.asarray(out["players"]["win_share"], dtype=float).reshape(b - a, players)

    starts = list(range(0, games, piece))
    if workers > 1:
        with ThreadPoolExecutor(workers) as ex:
            parts = list(ex.map(one, starts))
    else:
        parts = [one(a) for a in starts]
    return np.concatenate(parts)


def compensated(game, players, cond, compensation, knob="seat_points"):
    """``cond`` with ``compensation`` added to its ``knob`` (the condition's own value of it as the base);
    None when the engine refuses the result under that condition."""
    import simcore

    mod = simcore.games[game]
    try:
        base = mod.make_config(players, **cond["settings"]).settings().get(knob, (0,) * players)
        total = tuple(int(b) + int(c) for b, c in zip(base, compensation))
        mod.make_config(players, **{**cond["settings"], knob: total})
    except (ValueError, TypeError):
        return None
    return {**cond, "settings": {**cond["settings"], knob: total}}


def run(game, players, games=20_000, search_games=200, seed=0, strategy="balanced", bots=None, rules=True,
        workers=None, log=None, compensation=None, knob="seat_points"):
    """Play every condition; return ``(table, sentences, conditions)``, and with ``compensation`` (one
    integer per seat on ``knob``) also ``(comp_table, comp_sentence)``: every condition played again
    with it on the same games."""
    import strategies

    workers = workers or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    conds = conditions(game, players, strategy, bots, rules)
    if compensation is not None and len(compensation) != players:
        raise ValueError(f"--compensation gives {len(compensation)} numbers for {players} players")
    shares, kinds, comp = {}, {}, {}
    for c in conds:
        n = search_games if strategies.resolve(game, c["strategy"]).searches else games
        t0 = time.perf_counter()
        shares[c["label"]] = play(game, players, c, n, seed, workers)
        kinds[c["label"]] = c["kind"]
        if compensation is not None:
            cc = compensated(game, players, c, compensation, knob)
            if cc is not None:
                comp[c["label"]] = play(game, players, cc, n, seed, workers)
        if log:
            log(f"{c['label']}: {n:,} games{' x 2 (with the compensation)' if c['label'] in comp else ''}, "
                f"{time.perf_counter() - t0:.1f} s")
    table = robustness_table(strategy, shares, kinds)
    if compensation is None:
        return table, sentences(table), conds
    ctab = compensation_table(strategy, comp, kinds)
    return table, sentences(table), conds, (ctab, compensation_sentence(ctab, compensation, knob))


def compensation_text(ctab) -> str:
    lines = [f"{'condition':<34}{'kind':>9}{'n':>8}{'gap pp':>8}{'interval':>16}{'worst seat':>12}{'status':>10}"]
    for r in ctab.iter_rows(named=True):
        ci = "[{:.2f}, {:.2f}]".format(r["gap_lo_pp"], r["gap_hi_pp"])
        lines.append(f"{r['condition'][:33]:<34}{r['kind']:>9}{r['n']:>8,}{r['gap_pp']:>8.2f}{ci:>16}"
                     f"{r['worst_seat']:>5} {r['worst_pp']:>+6.2f}{r['status']:>10}")
    return "\n".join(lines)


def table_text(table) -> str:
    lines = [f"{'condition':<34}{'kind':>9}{'seat':>5}{'n':>8}{'adv. pp':>9}{'interval':>17}{'change pp':>11}"
             f"{'status':>10}"]
    for r in table.iter_rows(named=True):
        same = " (same games)" if r["same_games"] and r["status"] != "baseline" else ""
        ci = "[{:+.2f}, {:+.2f}]".format(r["lo_pp"], r["hi_pp"])
        lines.append(f"{r['condition'][:33]:<34}{r['kind']:>9}{r['seat']:>5}{r['n']:>8,}{r['advantage_pp']:>+9.2f}"
                     f"{ci:>17}{r['change_pp']:>+11.2f}{r['status']:>10}{same}")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--search-games", type=int, default=200)
    ap.add_argument("--strategy", default="balanced")
    ap.add_argument("--bots", default=None, help="comma-separated (default: random, the presets, mcts:iterations=50)")
    ap.add_argument("--no-rules", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--csv", default=None)
    ap.add_argument("--compensation", default=None, help="one integer per seat, e.g. 2,0,0")
    ap.add_argument("--knob", default="seat_points")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    comp = None
    if a.compensation:
        try:
            comp = [int(x) for x in a.compensation.split(",")]
        except ValueError:
            raise ValueError(f"--compensation {a.compensation}: give one integer per seat, e.g. 2,0,0") from None
    out = run(a.game, a.players, a.games, a.search_games, a.seed, a.strategy,
              a.bots.split(",") if a.bots else None, not a.no_rules, a.workers,
              log=lambda s: print(s, file=sys.stderr, flush=True), compensation=comp, knob=a.knob)
    table, said = out[0], out[1]
    print(f"{a.game}, {a.players} players, seed {a.seed}: each seat's advantage (win share - 1/{a.players}), "
          f"intervals at the Bonferroni level over the conditions; change: paired with {a.strategy} on the same games")
    print(table_text(table))
    print()
    for s in said:
        print(s)
    if comp is not None:
        ctab, csent = out[3]
        print()
        print(f"with the compensation {tuple(comp)} ({a.knob}) on the same games: the largest seat gap "
              f"|share - 1/{a.players}| and its interval (simultaneous over the seats, Bonferroni over the "
              f"conditions); status balances: no seat told from fair")
        print(compensation_text(ctab))
        print()
        print(csent)
    print(f"({time.perf_counter() - t0:.0f} s)")
    if a.csv:
        table.write_csv(a.csv)
        if comp is not None:
            root, ext = os.path.splitext(a.csv)
            ctab.write_csv(root + "-compensation" + (ext or ".csv"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
