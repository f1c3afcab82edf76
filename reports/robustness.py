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

from analysis.robustness import robustness_table, sentences

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


def run(game, players, games=20_000, search_games=200, seed=0, strategy="balanced", bots=None, rules=True,
        workers=None, log=None):
    """Play every condition; return ``(table, sentences, conditions)``."""
    import strategies

    workers = workers or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    conds = conditions(game, players, strategy, bots, rules)
    shares, kinds = {}, {}
    for c in conds:
        n = search_games if strategies.resolve(game, c["strategy"]).searches else games
        t0 = time.perf_counter()
        shares[c["label"]] = play(game, players, c, n, seed, workers)
        kinds[c["label"]] = c["kind"]
        if log:
            log(f"{c['label']}: {n:,} games, {time.perf_counter() - t0:.1f} s")
    table = robustness_table(strategy, shares, kinds)
    return table, sentences(table), conds


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
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    table, said, _ = run(a.game, a.players, a.games, a.search_games, a.seed, a.strategy,
                         a.bots.split(",") if a.bots else None, not a.no_rules, a.workers,
                         log=lambda s: print(s, file=sys.stderr, flush=True))
    print(f"{a.game}, {a.players} players, seed {a.seed}: each seat's advantage (win share - 1/{a.players}), "
          f"intervals at the Bonferroni level over the conditions; change: paired with {a.strategy} on the same games")
    print(table_text(table))
    print()
    for s in said:
        print(s)
    print(f"({time.perf_counter() - t0:.0f} s)")
    if a.csv:
        table.write_csv(a.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
