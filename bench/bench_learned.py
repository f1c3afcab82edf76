"""Strength per CPU-second: the learned model against the heuristics and the search.

    python bench/bench_learned.py [--game hellas] [--players 3] [--games 150] [--levels 100,400]
                                  [--prior-levels 100] [--presets | --presets-apart] [--extra NAMES]
                                  [--base NAMES] [--anchor 1600:400] [--anchor-games 20]
                                  [--cpu-games 6] [--anchor-cpu-games 1]
                                  [--out DIR] [--figure FILE.png] [--report] [--record]

1. **CPU a game**: each agent plays ``--cpu-games`` games in every seat (self-play,
   ``play_batch`` in this process, process CPU time; the heuristics and ``learned``
   play 100 times as many, an anchored level ``--anchor-cpu-games``); seconds a game, kept in
   ``OUT/GAME-Np-cpu.json`` (a rerun measures only what is new).
2. **Ladder**: ``random``, ``balanced``, ``learned``, MCTS at ``--levels`` iterations and the
   search with the model as its prior (``mcts:iterations=N,prior=learned``) at ``--prior-levels``,
   in the balanced incomplete-block design of ``boardlab ladder`` (``reports/ladder.py``: every set of
   ``players`` distinct strategies in its cyclic seat rotations, blocks without a search 50 times
   the games), one worker, from one seed. Two cheaper tiers join it when a full block design would
   cost too much:

   - ``--presets-apart``: every preset of the game rated in a ladder of its own with the ``--base``
     strategies that do not search (the same design, no search, so every block plays 50 times the
     games); joined to the main ladder through those base strategies.
   - ``--anchor N:M`` (comma-separated pairs): MCTS-N plays only against MCTS-M (which must be a
     ``--levels`` level): one seat of MCTS-N and the others MCTS-M, in the ``players`` seat rotations,
     ``--anchor-games`` games of MCTS-N at least (rounded up to whole rotations). MCTS-1600 costs 4
     times MCTS-400: anchored, every one of its games is spent on the comparison that places it.

   All tiers are played from the same run seed (game i of every seating from seed i) and rated
   together: one Bradley–Terry fit over every game, Elo scale, 95 % CIs clustered by game index
   (``reports/compare.py``; with few rounds Student's t on the seeds less one makes them wide).
3. The table: rating [CI], games, seeds (independent units), CPU seconds a game, and the issue's
   targets: ``learned`` at least MCTS-400's rating - 50 at most 1/100 of its CPU; the search with the
   prior at least +100 over the plain search at equal CPU (the plain levels, anchored ones included,
   bracket it; the rating of MCTS at the prior search's CPU is interpolated in log CPU between them).
4. The figure (``--figure``, default ``OUT/GAME-Np-strength-per-cpu.png``): each rating with its CI
   against the CPU a game, log axis (``reports.render.figures_ladder.rating_vs_cpu``, the figure the
   ladder report draws when its pool holds a model). ``--report`` also writes the ladder report's
   sections (ratings, rating against compute, strength per CPU-second) to ``OUT/GAME-Np-report/``.
   ``--presets`` puts every preset in the main ladder; ``--base`` replaces the cheap strategies
   (e.g. ``balanced,learned``: no ``random``, whose games against a search tell little), ``--extra``
   adds more (e.g. ``learned:OLD.json``).

The runs are kept under ``--out`` (a rerun resumes, and with every game played only redraws the
figure and the table). Everything is drawn from ``--seed``.
"""
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from game_args import game_parser, parse_game_args  # noqa: E402

import strategies  # noqa: E402
from strategies.cost import cpu_per_game  # noqa: E402


def presets_of(game):
    """The names of ``game``'s presets, random included (``strategies.presets``)."""
    return list(strategies.presets(game))


def parse_anchors(text, levels):
    """``"1600:400"`` -> ``[(1600, 400)]``; ValueError when a pair is malformed, its reference is not a
    ``levels`` level or its level is one."""
    out = []
    for part in (p.strip() for p in str(text or "").split(",")):
        if not part:
            continue
        top, _, ref = part.partition(":")
        try:
            top, ref = int(top), int(ref)
        except ValueError:
            raise ValueError(f"--anchor takes N:M pairs of MCTS iterations (e.g. 1600:400), not {part!r}") from None
        if ref not in levels:
            raise ValueError(f"--anchor {part}: MCTS-{ref} is not a --levels level ({levels})")
        if top in levels or top == ref or any(top == t for t, _ in out):
            raise ValueError(f"--anchor {part}: MCTS-{top} is already in the ladder")
        out.append((top, ref))
    return out


def anchor_seatings(top, ref, players, games):
    """One seat of ``top``, the others ``ref``, in the ``players`` seat rotations, each played
    ``ceil(games / players)`` times: ``([(lineup, games), ...], rounds)`` (``reports.ladder.design``'s form)."""
    base = (top,) + (ref,) * (players - 1)
    rounds = max(1, math.ceil(games / players))
    return [(tuple(base[(i + j) % players] for j in range(players)), rounds) for i in range(players)], rounds


def interpolate(plain, c):
    """The rating of the plain search at CPU ``c`` from ``[(cpu, elo), ...]``, linear in log CPU between
    the two levels that bracket it; ``None`` outside them."""
    plain = sorted(plain)
    for (c0, e0), (c1, e1) in zip(plain, plain[1:]):
        if c0 <= c <= c1:
            return e0 + (e1 - e0) * (math.log(c) - math.log(c0)) / (math.log(c1) - math.log(c0))
    return None


def bracket(cpu_of, c):
    """``{level: weight}``: the plain search at CPU ``c`` as the log-CPU interpolation of the two levels of
    ``cpu_of`` (``{name: cpu}``) that bracket it (weights summing to 1); ``None`` outside them."""
    plain = sorted((v, n) for n, v in cpu_of.items())
    for (c0, n0), (c1, n1) in zip(plain, plain[1:]):
        if c0 <= c <= c1:
            w = (math.log(c) - math.log(c0)) / (math.log(c1) - math.log(c0))
            return {n0: 1 - w, n1: w}
    return None


def _ci(found):
    _, lo, hi, sd = found
    return f" [{lo:+.0f}, {hi:+.0f}] (95% CI, {sd} seeds)"


def target_lines(r, cpu, levels, prior_levels, at_cpu=None, vs400=None):
    """The issue's targets in words, from the ratings ``r`` (``{name: row}``) and ``cpu``. ``at_cpu``:
    ``{prior level name: (difference, lo, hi, seeds)}`` of it against the plain search at its CPU
    (:func:`differences` with :func:`bracket`'s weights); ``vs400``: ``learned`` - MCTS-400 the same way.
    Given, their estimate and interval are said instead of the ratings' difference."""
    lines = []
    if "mcts:iterations=400" in r and "learned" in r:
        m4, le = r["mcts:iterations=400"], r["learned"]
        d = vs400[0] if vs400 else le["elo"] - m4["elo"]
        lines.append(f"learned - MCTS-400: {d:+.0f} Elo{_ci(vs400) if vs400 else ''} (target >= -50); CPU ratio "
                     f"1/{cpu['mcts:iterations=400'] / cpu['learned']:.0f} (target <= 1/100)")
    plain = [(cpu[f"mcts:iterations={n}"], r[f"mcts:iterations={n}"]["elo"]) for n in levels]
    for n in prior_levels:
        name = f"mcts:iterations={n},prior=learned"
        c = cpu[name]
        at = interpolate(plain, c)
        same = f"mcts:iterations={n}"
        if at is not None:
            found = (at_cpu or {}).get(name)
            d = found[0] if found else r[name]["elo"] - at
            lines.append(f"{name}: {d:+.0f} Elo{_ci(found) if found else ''} over plain MCTS at its CPU ({c:.3g} s "
                         f"a game; interpolated) (target >= +100)")
        elif same in r:
            lines.append(f"{name}: {r[name]['elo'] - r[same]['elo']:+.0f} Elo over {same} at {c / cpu[same]:.2f}x "
                         f"its CPU (no plain level brackets its CPU)")
        else:
            lines.append(f"{name}: {r[name]['elo']:.0f} Elo at {c:.3g} s a game (no plain level brackets its CPU "
                         f"and {same} is not in the ladder: no comparison)")
    return lines


def degenerate(players, group):
    """The strategies that won none or all of their comparisons: with one, the ratings' fit
    (``analysis.ratings.bradley_terry``) adds a virtual draw between every pair, which pulls the thinly
    played strategies towards the average; :func:`differences` fits without it."""
    import polars as pl

    from analysis.ratings import pairwise_comparisons

    p = players.with_columns(pl.col(group).cast(pl.String)).rename({group: "run"}).drop("game_key", strict=False)
    comp = pairwise_comparisons(p).filter(pl.col("strategy_a") != pl.col("strategy_b"))
    comp = comp.collect() if isinstance(comp, pl.LazyFrame) else comp
    both = pl.concat([comp.select(pl.col("strategy_a").alias("s"), pl.col("score_a").cast(pl.Float64).alias("w")),
                      comp.select(pl.col("strategy_b").alias("s"), (1 - pl.col("score_a").cast(pl.Float64)).alias("w"))])
    t = both.group_by("s").agg(pl.col("w").sum(), pl.len().alias("n"))
    return sorted(t.filter((pl.col("w") <= 0) | (pl.col("w") >= pl.col("n")))["s"].to_list())


def differences(players, group, pairs, level=0.95):
    """``[(elo difference, lo, hi, seeds)]``, one per ``(a, b)`` of ``pairs``, from one Bradley–Terry fit over
    every game (the ratings' fit, without virtual draws: :func:`degenerate`) with its cluster-robust (by seed, ``game_index``) sandwich covariance:
    the interval of ``a - b`` uses ``var(a) + var(b) - 2 cov(a, b)``, Student's t on the seeds of the rarest
    strategy involved less one. ``b`` may be ``{name: weight}`` (weights summing to 1: e.g. the plain search
    interpolated between two levels, :func:`bracket`). Narrower than the two ratings' intervals side by
    side: those also carry the uncertainty of the field's average, which a difference does not."""
    import numpy as np
    import polars as pl

    from analysis.ratings import ELO_SCALE, _fit_bt, pairwise_comparisons
    from analysis.stats import t_ppf

    p = players.with_columns(pl.col(group).cast(pl.String)).rename({group: "run"}).drop("game_key", strict=False)
    comp = pairwise_comparisons(p).filter(pl.col("strategy_a") != pl.col("strategy_b"))
    comp = comp.collect() if isinstance(comp, pl.LazyFrame) else comp
    names = sorted(set(comp["strategy_a"]) | set(comp["strategy_b"]))
    code = {n: i for i, n in enumerate(names)}
    a = comp["strategy_a"].replace_strict(code, return_dtype=pl.Int64).to_numpy()
    b = comp["strategy_b"].replace_strict(code, return_dtype=pl.Int64).to_numpy()
    y = comp["score_a"].to_numpy().astype(float)
    game = np.unique(comp["game_index"].to_numpy(), return_inverse=True)[1].astype(np.int64)
    k = len(names)
    theta, _, _, cov = _fit_bt(a, b, y, game, k, 0.0, True, full=True)      # the sandwich, clustered by seed
    out = []
    for x, z in pairs:
        w = np.zeros(k)
        w[code[x]] += 1.0
        for n, wn in ({z: 1.0} if isinstance(z, str) else z).items():
            w[code[n]] -= wn
        seeds = min(np.unique(game[(a == m) | (b == m)]).size for m in np.flatnonzero(w))
        d = ELO_SCALE * float(w @ theta)
        if seeds < 2:
            out.append((d, float("nan"), float("nan"), seeds))
            continue
        h = t_ppf(0.5 + level / 2, seeds - 1) * ELO_SCALE * math.sqrt(max(float(w @ cov @ w), 0.0))
        out.append((d, d - h, d + h, seeds))
    return out


def measure(pool, g, k, games_of, seed, path, log=print):
    """``{name: CPU seconds a game}``, kept in ``path`` (JSON) so that a rerun measures only what is new."""
    done = {}
    if os.path.exists(path):
        with open(path) as f:
            done = json.load(f)
    out, warm = {}, False
    for n, s in pool.items():
        key, m = json.dumps(s.to_dict(), sort_keys=True), games_of(n, s)
        if n in done and done[n]["strategy"] == key and done[n]["games"] == m:
            out[n] = done[n]["seconds"]
        else:
            if not warm and not s.searches:      # the first timing would carry the engine's first-call costs
                cpu_per_game(g, k, s, 2, seed)
                warm = True
            out[n] = cpu_per_game(g, k, s, m, seed)
            done[n] = {"strategy": key, "games": m, "seconds": out[n], "load": round(os.getloadavg()[0], 1)}
            with open(path + ".tmp", "w") as f:
                json.dump(done, f, indent=1)
            os.replace(path + ".tmp", path)
        log(f"  cpu  {n:<34} {out[n] * 1e3:10.3f} ms a game ({m} games, every seat; load {done[n]['load']})")
    return out


def main(argv=None):
    ap = game_parser(__doc__, game="hellas", players=3)
    ap.add_argument("--games", type=int, default=150, help="ladder games per strategy, at least")
    ap.add_argument("--levels", default="100,400")
    ap.add_argument("--prior-levels", default="100")
    ap.add_argument("--extra", default="", help="more strategies for the ladder, comma-separated")
    ap.add_argument("--base", default="random,balanced,learned",
                    help="the cheap strategies of the ladder, comma-separated (default random,balanced,learned; "
                         "learned must stay)")
    ap.add_argument("--presets", action="store_true", help="every heuristic preset of the game in the ladder")
    ap.add_argument("--presets-apart", action="store_true",
                    help="every preset in a ladder without search, with the --base strategies that do not search")
    ap.add_argument("--anchor", default="", help="MCTS levels played only against a --levels level: N:M,...")
    ap.add_argument("--anchor-games", type=int, default=20, help="games of each anchored level, at least")
    ap.add_argument("--figure", default=None,
                    help="the strength-per-CPU figure (PNG; default OUT/GAME-Np-strength-per-cpu.png)")
    ap.add_argument("--report", action="store_true", help="the ladder report's sections in OUT/GAME-Np-report/")
    ap.add_argument("--cpu-games", type=int, default=6)
    ap.add_argument("--anchor-cpu-games", type=int, default=1)
    ap.add_argument("--out", default="/tmp/bench-learned")
    ap.add_argument("--record", action="store_true",
                    help="write the figures into the shipped model's manifest (its 'strength')")
    args, _ = parse_game_args(ap, argv)

    from reports.compare import compare_tables
    from reports.ladder import LadderPlan, play_ladder
    from reports.runset import RunSet

    g, k = args.game, args.players
    levels = [int(x) for x in args.levels.split(",") if x]
    prior_levels = [int(x) for x in args.prior_levels.split(",") if x]
    if args.presets and args.presets_apart:
        ap.error("give --presets or --presets-apart, not both")
    try:
        anchors = parse_anchors(args.anchor, levels)
    except ValueError as exc:
        ap.error(str(exc))
    base = strategies.split_names(args.base)
    names = base + [f"mcts:iterations={n}" for n in levels]
    if "learned" not in names:
        ap.error("--base must list learned")
    names += [f"mcts:iterations={n},prior=learned" for n in prior_levels]
    if args.presets:
        at = names.index("learned")
        names[at:at] = [n for n in presets_of(g) if n not in names]
    names += strategies.split_names(args.extra) if args.extra else []
    pool = {}
    for n in names + [f"mcts:iterations={t}" for t, _ in anchors] + (
            [n for n in presets_of(g) if n not in names] if args.presets_apart else []):
        s = strategies.resolve(g, n)
        pool[n] = s if s.name == n else strategies.Strategy(**{**s.__dict__, "name": n})
    order = list(pool)                   # the table's order: the main ladder, the anchored levels, the presets
    load = os.getloadavg()[0]
    print(f"{g} {k}p; load {load:.1f} on {os.cpu_count()} cores", flush=True)
    anchored = {f"mcts:iterations={t}" for t, _ in anchors}
    os.makedirs(args.out, exist_ok=True)
    cpu = measure(pool, g, k, lambda n, s: (args.anchor_cpu_games if n in anchored else args.cpu_games)
                  * (1 if s.searches else 100), args.seed + 7, os.path.join(args.out, f"{g}-{k}p-cpu.json"),
                  log=lambda m: print(m, flush=True))

    # the tiers: (label, plan, folder); the main ladder's folder is the one of before (a rerun resumes)
    tiers = [("", LadderPlan(g, k, {n: pool[n] for n in names}, games=args.games, seed=args.seed),
              os.path.join(args.out, f"{g}-{k}p"))]
    if args.presets_apart:
        cheap = [n for n in base if not pool[n].searches]
        cheap += [n for n in presets_of(g) if n not in cheap]
        tiers.append(("presets/", LadderPlan(g, k, {n: pool[n] for n in cheap}, games=args.games, seed=args.seed),
                      os.path.join(args.out, f"{g}-{k}p-presets")))
    for top, ref in anchors:
        a, b = f"mcts:iterations={top}", f"mcts:iterations={ref}"
        plan = LadderPlan(g, k, {a: pool[a], b: pool[b]}, games=args.anchor_games, seed=args.seed)
        plan.seatings = (lambda a=a, b=b: anchor_seatings(a, b, k, args.anchor_games))
        tiers.append((f"anchor-{top}-{ref}/", plan, os.path.join(args.out, f"{g}-{k}p-anchor-{top}-{ref}")))
    t0 = time.perf_counter()
    runs, played = {}, []
    for label, plan, folder in tiers:
        print(f"  {label or 'main/'} {plan.summary()}", file=sys.stderr, flush=True)
        part = play_ladder(plan, folder, workers=1, log=lambda m: print("  " + m, file=sys.stderr, flush=True))
        runs.update({label + key: run for key, run in part.runs.items()})
        played.append((label, plan, [label + key for key in part.runs]))
    rs = RunSet(runs, group="lineup", title=f"{g} ladder")
    t = compare_tables(rs.players, rs.group)
    r = {row["strategy"]: row for row in t["ratings"].iter_rows(named=True)}
    import polars as pl
    seeds = dict(rs.players.group_by("strategy").agg(pl.col("game_index").n_unique()).iter_rows())
    n_all = sum(rs.n_games().values())
    print(f"ladder: {n_all:,} games, {time.perf_counter() - t0:.0f} s; load {os.getloadavg()[0]:.1f}\n")
    print("| strategy | Elo [95% CI] | games | seeds | CPU s a game (every seat) |")
    print("|---|---|---|---|---|")
    for n in order:
        row = r[n]
        print(f"| {n} | {row['elo']:.0f} [{row['elo_lo']:.0f}, {row['elo_hi']:.0f}] | {row['n_games']:,} | "
              f"{seeds[n]:,} | {cpu[n]:.4g} |")
    print()
    pairs = [(n, "mcts:iterations=400") for n in order if n != "mcts:iterations=400"
             and (n == "learned" or pool[n].searches)] if "mcts:iterations=400" in pool else []
    plain = {f"mcts:iterations={n}": cpu[f"mcts:iterations={n}"] for n in levels + [t for t, _ in anchors]}
    at_cpu = {f"mcts:iterations={n},prior=learned": bracket(plain, cpu[f"mcts:iterations={n},prior=learned"])
              for n in prior_levels}
    at_cpu = {n: w for n, w in at_cpu.items() if w}
    found = differences(rs.players, rs.group, pairs + list(at_cpu.items()))
    for (x, z), (d, lo, hi, sd) in zip(pairs, found):
        print(f"{x} - {z}: {d:+.0f} Elo [{lo:+.0f}, {hi:+.0f}] (95% CI, sandwich covariance, {sd} seeds)")
    at_cpu = dict(zip(at_cpu, found[len(pairs):]))
    odd = degenerate(rs.players, rs.group)
    if odd:
        print(f"({', '.join(odd)} won none or all of its comparisons: the ratings' fit adds one virtual draw between "
              f"every pair, which pulls the thinly played strategies towards 1500; the differences and the targets "
              f"are from the fit without it)")
    print()
    from reports.render.workers import save
    from reports.render.figures_ladder import rating_vs_cpu
    table = pl.DataFrame({"strategy": order, "kind": [pool[n].kind if pool[n].kind in ("mcts", "learned")
                                                      else "heuristic" for n in order],
                          "prior": [bool(pool[n].searches and (pool[n].search or {}).get("prior")) for n in order],
                          "cpu": [cpu[n] for n in order], "elo": [r[n]["elo"] for n in order],
                          "elo_lo": [r[n]["elo_lo"] for n in order], "elo_hi": [r[n]["elo_hi"] for n in order],
                          "n_games": [r[n]["n_games"] for n in order], "seeds": [seeds[n] for n in order]})
    table.write_csv(os.path.join(args.out, f"{g}-{k}p-strength-per-cpu.csv"))
    how = " MCTS-" + ", MCTS-".join(f"{a} only against MCTS-{b}" for a, b in anchors) + ";" if anchors else ""
    fig = rating_vs_cpu(table, title=f"{g} {k} players: strength per CPU-second", caption=(
        f"Ladder ratings (Bradley-Terry, Elo scale, 95% CIs clustered by seed; {n_all:,} games;{how} "
        f"seats rotated) against process CPU seconds a game with the strategy in every seat (load {load:.1f})."))
    stem = args.figure[:-4] if args.figure and args.figure.endswith(".png") else (
        args.figure or os.path.join(args.out, f"{g}-{k}p-strength-per-cpu"))
    print("figure:", save(fig, stem, svg=False)[0])
    if args.report:
        print("report:", write_sections(rs, pool, cpu, played, os.path.join(args.out, f"{g}-{k}p-report"))["html"])
    if args.record:
        from strategies.learned import shipped
        path = shipped(g)[k]
        mp = path.with_name(path.name[:-len(".json")] + ".manifest.json")
        man = json.loads(mp.read_text())
        man["strength"] = {
            "bench": " ".join(["python bench/bench_learned.py"] + (sys.argv[1:] if argv is None else list(argv))),
            "ladder_games": int(n_all), "load": round(load, 1),
            "elo_95ci": {n: [round(r[n]["elo"]), round(r[n]["elo_lo"]), round(r[n]["elo_hi"])] for n in order},
            "cpu_seconds_a_game": {n: float(f"{cpu[n]:.4g}") for n in order}}
        mp.write_text(json.dumps(man, indent=1) + "\n")
    vs400 = dict(zip(pairs, found)).get(("learned", "mcts:iterations=400"))
    for line in target_lines(r, cpu, levels + [t for t, _ in anchors], prior_levels, at_cpu, vs400):
        print(line)


def write_sections(rs, pool, cpu, tiers, out):
    """The ladder report's sections over every tier (``[(label, plan, run labels)]``): the design in
    words, the ratings, the rating against compute and the strength per CPU-second
    (``reports.experiments.skill``'s builders); returns ``write_report``'s paths."""
    from reports.compare import compare_section
    from reports.experiments.skill import cpu_section
    from reports.ladder import compute_table, ratings_of
    from reports.render.figures_ladder import rating_vs_compute
    from reports.render.sections import Fig, Report, Section, caption_of
    from reports.render.write import write_report

    from types import SimpleNamespace

    n = rs.n_games()
    words = []
    for label, plan, keys in tiers:
        seatings, rounds = plan.seatings()
        words.append(f"{label.rstrip('/') or 'main'}: {', '.join(plan.pool)} ({len(seatings)} seatings, "
                     f"{sum(n[key] for key in keys):,} games, {rounds} round{'s' * (rounds > 1)})")
    design = Section("Ladder design", paragraphs=[
        "The ladder in tiers, every seating in its cyclic seat rotations, game i of every seating from seed i, "
        "all rated in one Bradley–Terry fit: " + "; ".join(words) + "."])
    ratings = compare_section(rs, title="Ratings")
    comp = compute_table(ratings_of(ratings), pool)
    fig = rating_vs_compute(comp, caption=f"Bradley–Terry rating (Elo scale, 95% CIs clustered by seed) against "
                                          f"playouts per decision. {sum(n.values()):,} games.")
    comp_sec = Section("Rating against compute", figures=[Fig("ladder_rating_vs_compute", fig, caption_of(fig))])

    rep = Report(f"{rs.game.capitalize()}: strength per CPU-second", sections=[
        design, ratings, comp_sec, cpu_section(SimpleNamespace(pool=pool), ratings_of(ratings), cpu)])
    return write_report(rep, out)


if __name__ == "__main__":
    main()
