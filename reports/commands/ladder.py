"""``boardlab ladder GAME``: rate random, the presets and MCTS levels against each other, then the
balance per skill level; a shell over ``reports.ladder`` and the ``[[skill]]`` kind
(``reports.experiments.skill``: the sections)."""
import os
import time
from importlib import import_module

from reports._args import _positive_int, _seed, add_game, check_out_folder
from reports.commands._shell import log, print_report
from reports.ladder import (CHEAP_FACTOR, DEFAULT_LEVELS, SKILL_CHEAP_FACTOR, LadderPlan, _eta, check_plan,
                            default_pool, estimate_seconds, level_name, mcts_level, parse_levels, play_ladder,
                            play_skill, ratings_of, measure_cpu, wants_cpu)


def add(sub):
    p = sub.add_parser(
        "ladder", help="rate random, the presets and MCTS levels against each other; balance per skill level",
        description=(
            "Play a round-robin of random, every preset of GAME (the tuned one too) and MCTS at --levels "
            "iterations, rate them (Bradley-Terry, 95%% CIs) and draw the ratings against the playouts per "
            "decision; then play every seat at each --skill level and report the seat win shares, scoring "
            "categories and the game's component values per level, and whether the seat advantage grows, "
            "shrinks or holds as skill rises (a trend test). Design: every set of PLAYERS distinct "
            "strategies is a block played in its cyclic seat rotations (each strategy in every seat equally "
            "often, every pair meeting equally often); --games is rounded up to whole rounds of one game per "
            "seating; blocks without a searching seat play %d times the games (they cost next to nothing). "
            "Writes report.html, report.md, figures and CSV tables to --out; a rerun resumes. "
            "docs/ladder.md has the details and the costs." % CHEAP_FACTOR))
    add_game(p)
    p.add_argument("--levels", default=",".join(map(str, DEFAULT_LEVELS)),
                   help="MCTS iterations per decision of the search levels (default 100,400,1600)")
    p.add_argument("--strategies", default=None,
                   help="the strategies besides the MCTS levels, comma-separated (default: random and every "
                        "preset of the game)")
    p.add_argument("--games", type=_positive_int, default=None,
                   help="games each strategy plays in the ladder, at least (default 1000; --quick: one round, "
                        "i.e. one game per seating)")
    p.add_argument("--skill", default=None,
                   help="skill levels for balance per level, comma-separated ladder strategies or MCTS "
                        "iterations, or 'none' (default: random, balanced and every MCTS level but the top "
                        "one, whose self-play costs PLAYERS times its ladder seat)")
    p.add_argument("--skill-games", type=_positive_int, default=None,
                   help=f"self-play games of each searching skill level (default 800, --quick 20); levels "
                        f"that do not search play {SKILL_CHEAP_FACTOR} times that")
    p.add_argument("--precision", type=float, default=None, metavar="PP",
                   help="play each skill level's self-play until every seat's 95%% interval is within ± PP "
                        "percentage points (confidence sequences, docs/precision.md); --skill-games is the cap")
    p.add_argument("--budget", default=None, metavar="TIME",
                   help="with --precision: the time each skill level may take (90s, 5m)")
    p.add_argument("--seed", type=_seed, default=1, help="run seed of every run (default 1)")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE", help="engine setting")
    p.add_argument("--workers", type=_positive_int, default=None, help="pool size (default: all cores)")
    p.add_argument("--quick", action="store_true", help="a small ladder (one round) and short self-play runs")
    p.add_argument("--out", default=None, help="output folder (default: ladder-GAME-Np)")
    p.set_defaults(func=run, quick_exit=True)    # files written and closed: no interpreter teardown
    return p


def plan_from_args(args) -> LadderPlan:
    from simcore.run import parse_variant
    from strategies import split_names

    levels = parse_levels(args.levels)
    names = None if args.strategies is None else [s for s in split_names(args.strategies) if s]
    if names is not None and len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"--strategies lists {twice} twice; give each strategy of the pool once")
    pool = default_pool(args.game, levels, names)
    variant = parse_variant(args.variant)
    args.game_module.make_config(args.players, **variant)     # a bad setting fails before any game
    if args.skill is None:
        skill = [n for n in ("random", "balanced") if n in pool] + [mcts_level(args.game, n).name
                                                                    for n in levels[:-1]]
    elif args.skill.strip().lower() in ("none", ""):
        skill = []
    else:
        skill = list(dict.fromkeys(level_name(pool, t) for t in args.skill.split(",")))
    sg = args.skill_games or (20 if args.quick else 800)
    plan = LadderPlan(game=args.game, players=args.players, pool=pool,
                      games=args.games or (1 if args.quick else 1000), seed=args.seed, variant=variant,
                      skill=skill, skill_games=sg, skill_cheap_games=sg * SKILL_CHEAP_FACTOR)
    if args.budget is not None and args.precision is None:
        raise ValueError("--budget goes with --precision PP (the time a skill level may take to reach it)")
    if args.precision is not None:
        from reports.sequential import parse_budget

        if not 0 < args.precision < 50:
            raise ValueError(f"--precision {args.precision:g}: give percentage points between 0 and 50, e.g. 2")
        plan.precision = args.precision / 100
        if args.budget is not None:
            games, plan.skill_seconds = parse_budget(args.budget)
            if games is not None:
                raise ValueError(f"--budget {args.budget}: give a time (90s, 5m); --skill-games caps the games")
    check_plan(plan)
    return plan


def _command(args, out):
    parts = [f"boardlab ladder {args.game} --players {args.players} --levels {args.levels}"]
    for flag in ("strategies", "games", "skill", "skill_games", "precision", "budget"):
        v = getattr(args, flag)
        if v is not None:
            parts.append(f"--{flag.replace('_', '-')} {v}")
    parts += [f"--seed {args.seed}"] + [f"--variant {v}" for v in args.variant]
    parts += ["--quick"] * bool(args.quick) + [f"--out {out}"]
    return " ".join(parts)


def run(args):
    """Plan, play and report ``boardlab ladder``."""
    from reports.render.write import write_report
    from simcore.run import _resolve_workers

    t0 = time.perf_counter()
    plan = plan_from_args(args)
    out = check_out_folder(args.out or f"ladder-{args.game}-{args.players}p")
    log(f"ladder: {plan.game}, {plan.players} players: {plan.summary()} -> {out}")
    est = estimate_seconds(plan, args.workers)
    if est:
        log(f"ladder: about {_eta(est[0])} on {_resolve_workers(args.workers)} workers ({est[1]}; the report "
            f"takes a little more)")
    rs = play_ladder(plan, os.path.join(out, "runs", "ladder"), workers=args.workers, log=log)
    skill_rs = play_skill(plan, os.path.join(out, "runs", "skill"), workers=args.workers, log=log) \
        if plan.skill else None
    from reports.progress import heartbeat
    from reports.view.telling import watch_section        # viewer pages of a few telling games

    cpu = measure_cpu(plan, os.path.join(out, "runs", "cpu"), log=log) if wants_cpu(plan.pool) else None
    log("analysing and writing the report (a line every second or so) ...")
    groups = [("Ladder", rs.runs)] + ([("Balance per skill level", skill_rs.runs)] if skill_rs is not None else [])
    with heartbeat(log, lambda: "report: analysing, drawing and writing", inline=True):     # issue 35: no silent wait
        report = command_report(plan, rs, skill_rs, commands=[_command(args, out)], cpu=cpu)
        report.sections += [s for s in [watch_section(groups, out, log=log)] if s is not None]
        paths = write_report(report, out)
    print_report(report, paths, out)
    log(f"done in {time.perf_counter() - t0:.1f} s")
    return 0


def command_report(plan, rs, skill_rs=None, commands=None, cpu=None):
    """The report of ``boardlab ladder``: what was run, the ladder, and the balance per skill level."""
    from reports.findings import with_findings
    from reports.experiments.skill import ladder_sections, skill_sections     # matplotlib: not at the CLI's start
    from reports.components import game_sections
    from reports.games import has_plugin, plugin_of
    from reports.provenance import provenance_section
    from reports.render.sections import Report
    from reports.runset import RunSet

    runs = {f"ladder/{k}": v for k, v in rs.runs.items()}
    if skill_rs is not None:
        runs.update({f"skill/{k}": v for k, v in skill_rs.runs.items()})
    prov = provenance_section(RunSet(runs, group="run"), commands=commands, extra=[
        f"Ladder: {plan.summary()}."])
    secs = [prov] + ladder_sections(plan, rs, cpu)
    if skill_rs is not None:
        plug = plugin_of(import_module(f"reports.games.{skill_rs.game}") if has_plugin(skill_rs.game) else None)
        for sec in skill_sections(skill_rs, ratings_of(secs[2]), game_sections(plug)):
            for item in sec.tables + sec.figures:       # e.g. skill_seat_advantage: apart from the ladder's
                item.name = item.name if item.name.startswith("skill_") else f"skill_{item.name}"
            sec.title = f"Balance per skill level — {sec.title}"     # the findings name it so
            secs.append(sec)
    title = f"{plan.game.capitalize()}: skill ladder at {plan.players} players"
    return Report(title, sections=with_findings(secs))
