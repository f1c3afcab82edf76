"""Strength per CPU-second: the learned model against the heuristics and the search.

    python bench/bench_learned.py [--game hellas] [--players 3] [--games 150] [--levels 100,400]
                                  [--prior-levels 100] [--presets] [--extra NAMES] [--base NAMES]
                                  [--cpu-games 6]
                                  [--out DIR] [--figure FILE.png] [--record]

1. **CPU a game**: each agent plays ``--cpu-games`` games in every seat (self-play,
   ``play_batch`` in this process, process CPU time; the heuristics and ``learned``
   play 100 times as many); seconds a game.
2. **Ladder**: ``random``, ``balanced``, ``learned``, MCTS at ``--levels`` iterations and the
   search with the model as its prior (``mcts:iterations=N,prior=learned``) at ``--prior-levels``,
   in the balanced incomplete-block design of ``boardlab ladder`` (``reports/ladder.py``: every set of
   ``players`` distinct strategies in its cyclic seat rotations, blocks without a search 50 times
   the games), one worker, from one seed: Bradley–Terry ratings on the Elo scale with
   cluster-robust 95 % CIs (``reports/compare.py``).
3. The table: rating [CI], CPU seconds a game, and the issue's targets: ``learned`` at least
   MCTS-400's rating - 50 at most 1/100 of its CPU; the search with the prior at least +100 over
   the plain search at equal CPU (the plain levels bracket it; the rating of MCTS at the prior
   search's CPU is interpolated in log CPU between them).

4. The figure (``--figure``, default ``OUT/GAME-Np-strength-per-cpu.png``): each rating with its CI
   against the CPU a game, log axis (``reports.render.figures_ladder.rating_vs_cpu``, the figure the
   ladder report draws when its pool holds a model). ``--presets`` puts every preset in the ladder;
   ``--base`` replaces the cheap strategies (e.g. ``balanced,learned``: no ``random``, whose games
   against a search tell little), ``--extra`` adds more (e.g. ``learned:OLD.json``).

The runs are kept under ``--out`` (a rerun resumes). Everything is drawn from ``--seed``.
"""
import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import strategies  # noqa: E402
from strategies.cost import cpu_per_game  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="hellas")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=150, help="ladder games per strategy, at least")
    ap.add_argument("--levels", default="100,400")
    ap.add_argument("--prior-levels", default="100")
    ap.add_argument("--extra", default="", help="more strategies for the ladder, comma-separated")
    ap.add_argument("--base", default="random,balanced,learned",
                    help="the cheap strategies of the ladder, comma-separated (default random,balanced,learned; "
                         "learned must stay)")
    ap.add_argument("--presets", action="store_true", help="every heuristic preset of the game in the ladder")
    ap.add_argument("--figure", default=None,
                    help="the strength-per-CPU figure (PNG; default OUT/GAME-Np-strength-per-cpu.png)")
    ap.add_argument("--cpu-games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/bench-learned")
    ap.add_argument("--record", action="store_true",
                    help="write the figures into the shipped model's manifest (its 'strength')")
    args = ap.parse_args()

    from reports.compare import compare_tables
    from reports.ladder import LadderPlan, play_ladder

    g, k = args.game, args.players
    levels = [int(x) for x in args.levels.split(",") if x]
    prior_levels = [int(x) for x in args.prior_levels.split(",") if x]
    names = strategies.split_names(args.base) + [f"mcts:iterations={n}" for n in levels]
    if "learned" not in names:
        ap.error("--base must list learned")
    names += [f"mcts:iterations={n},prior=learned" for n in prior_levels]
    if args.presets:
        at = names.index("learned")
        names[at:at] = [n for n in strategies.presets(g) if n not in names]
    names += strategies.split_names(args.extra) if args.extra else []
    pool = {}
    for n in names:
        s = strategies.resolve(g, n)
        pool[n] = s if s.name == n else strategies.Strategy(**{**s.__dict__, "name": n})
    load = os.getloadavg()[0]
    print(f"{g} {k}p; load {load:.1f} on {os.cpu_count()} cores", flush=True)

    cpu = {}
    for n, s in pool.items():
        m = args.cpu_games * (1 if s.kind == "mcts" else 100)
        cpu[n] = cpu_per_game(g, k, s, m, args.seed + 7)
        print(f"  cpu  {n:<34} {cpu[n] * 1e3:10.3f} ms a game ({m} games, every seat)", flush=True)

    plan = LadderPlan(g, k, pool, games=args.games, seed=args.seed)
    t0 = time.perf_counter()
    rs = play_ladder(plan, os.path.join(args.out, f"{g}-{k}p"), workers=1,
                     log=lambda m: print("  " + m, file=sys.stderr, flush=True))
    t = compare_tables(rs.players, rs.group)
    r = {row["strategy"]: row for row in t["ratings"].iter_rows(named=True)}
    print(f"ladder: {sum(rs.n_games().values()):,} games, {time.perf_counter() - t0:.0f} s; "
          f"load {os.getloadavg()[0]:.1f}\n")
    print(f"| strategy | Elo [95% CI] | games | CPU s a game (every seat) |")
    print(f"|---|---|---|---|")
    for n in names:
        row = r[n]
        print(f"| {n} | {row['elo']:.0f} [{row['elo_lo']:.0f}, {row['elo_hi']:.0f}] | {row['n_games']:,} | "
              f"{cpu[n]:.4g} |")
    print()
    import polars as pl
    from reports.render.workers import save
    from reports.render.figures_ladder import rating_vs_cpu
    table = pl.DataFrame({"strategy": names, "kind": [pool[n].kind if pool[n].kind in ("mcts", "learned")
                                                      else "heuristic" for n in names],
                          "prior": [bool(pool[n].searches and (pool[n].search or {}).get("prior")) for n in names],
                          "cpu": [cpu[n] for n in names], "elo": [r[n]["elo"] for n in names],
                          "elo_lo": [r[n]["elo_lo"] for n in names], "elo_hi": [r[n]["elo_hi"] for n in names]})
    fig = rating_vs_cpu(table, title=f"{g} {k} players: strength per CPU-second", caption=(
        f"Ladder ratings (Bradley-Terry, Elo scale, cluster-robust 95% CIs; {sum(rs.n_games().values()):,} "
        f"games) against process CPU seconds a game with the strategy in every seat (load {load:.1f})."))
    stem = args.figure[:-4] if args.figure and args.figure.endswith(".png") else (
        args.figure or os.path.join(args.out, f"{g}-{k}p-strength-per-cpu"))
    print("figure:", save(fig, stem, svg=False)[0])
    if args.record:
        import json
        from strategies.learned import shipped
        path = shipped(g)[k]
        mp = path.with_name(path.name[:-len(".json")] + ".manifest.json")
        man = json.loads(mp.read_text())
        man["strength"] = {
            "bench": " ".join(["python bench/bench_learned.py"] + sys.argv[1:]),
            "ladder_games": int(sum(rs.n_games().values())), "load": round(load, 1),
            "elo_95ci": {n: [round(r[n]["elo"]), round(r[n]["elo_lo"]), round(r[n]["elo_hi"])] for n in names},
            "cpu_seconds_a_game": {n: float(f"{cpu[n]:.4g}") for n in names}}
        mp.write_text(json.dumps(man, indent=1) + "\n")
    if 400 in levels:
        m4 = r["mcts:iterations=400"]
        le = r["learned"]
        print(f"learned - MCTS-400: {le['elo'] - m4['elo']:+.0f} Elo (target >= -50); CPU ratio "
              f"1/{cpu['mcts:iterations=400'] / cpu['learned']:.0f} (target <= 1/100)")
    plain = sorted((cpu[f"mcts:iterations={n}"], r[f"mcts:iterations={n}"]["elo"]) for n in levels)
    for n in prior_levels:
        name = f"mcts:iterations={n},prior=learned"
        c = cpu[name]
        if len(plain) >= 2 and plain[0][0] <= c <= plain[-1][0]:
            for (c0, e0), (c1, e1) in zip(plain, plain[1:]):
                if c0 <= c <= c1:
                    at = e0 + (e1 - e0) * (math.log(c) - math.log(c0)) / (math.log(c1) - math.log(c0))
            print(f"{name}: {r[name]['elo'] - at:+.0f} Elo over plain MCTS at its CPU ({c:.3g} s a game; "
                  f"interpolated) (target >= +100)")
        else:
            same = f"mcts:iterations={n}"
            print(f"{name}: {r[name]['elo'] - r[same]['elo']:+.0f} Elo over {same} at {c / cpu[same]:.2f}x "
                  f"its CPU (no plain level brackets its CPU)")


if __name__ == "__main__":
    main()
