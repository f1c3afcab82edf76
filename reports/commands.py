"""CLI commands of the reports: ``report``, ``compare``, ``study``, ``demo``.

``reports/cli.py`` registers them (``add_<name>`` delegates here). Each
prints a compact table and where the files are; user errors are
``ValueError`` (one line, exit 2).
"""
from __future__ import annotations

import math
import os
import sys
import time
from pathlib import Path

from reports._args import _positive_int, _seed, check_out_file, check_out_folder


def _log(line):
    print(line, file=sys.stderr, flush=True)


def _where(paths, out):
    return (f"report: {os.path.abspath(paths['html'])}\n"
            f"        {os.path.abspath(paths['md'])}, {len(paths['figures']) // 2} figures (PNG, SVG) in "
            f"{os.path.join(os.path.abspath(out), 'figures')}, {len(paths['tables'])} tables (CSV) in "
            f"{os.path.join(os.path.abspath(out), 'tables')}")


# ---------------------------------------------------------------- report

def add_report(sub):
    p = sub.add_parser("report", help="write the report of a results folder",
                       description="Analyse RUN_DIR and write report.html (self-contained), report.md, "
                                   "figures (PNG, SVG) and tables (CSV) to --out (default RUN_DIR/report).")
    p.add_argument("run_dir", help="results folder of `boardlab simulate`")
    p.add_argument("--out", default=None, help="output folder (default: RUN_DIR/report)")
    p.add_argument("--partial", action="store_true",
                   help="report an interrupted run from its finished chunks (the report says how many games)")
    p.set_defaults(func=cmd_report, quick_exit=True, resumes=False)      # plays nothing


def cmd_report(args):
    from reports.report import BackgroundFigures, run_report, write_report

    if not os.path.isdir(args.run_dir):
        raise ValueError(f"{args.run_dir}: no such results folder")
    out = check_out_folder(args.out or os.path.join(args.run_dir, "report"))
    figures = BackgroundFigures()      # figures render on the second core while the sections are computed
    try:
        report = run_report(args.run_dir, partial=args.partial, figures=figures)
        paths = write_report(report, out, figures=figures)
    finally:
        figures.close()
    print(report.terminal())
    print()
    print(_where(paths, out))
    return 0


# ---------------------------------------------------------------- compare

def add_compare(sub):
    p = sub.add_parser("compare", help="play strategies against each other in every seat and rate them",
                       description="Play every strategy in every seat (seat rotations balanced), then write "
                                   "and print the win-share matrix, Bradley-Terry ratings with CIs and figures.")
    p.add_argument("game", help="game name, e.g. hellas")
    p.add_argument("--players", type=_positive_int, required=True, help="player count")
    p.add_argument("--strategies", required=True,
                   help="comma-separated strategy names, e.g. balanced,city_builder,temple_builder,random")
    p.add_argument("--games", type=_positive_int, required=True,
                   help="games in all (rounded up to a multiple of the number of seatings)")
    p.add_argument("--seed", type=_seed, default=1, help="run seed of every seating (default 1)")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE", help="engine setting")
    p.add_argument("--workers", type=_positive_int, default=None, help="pool size (default: all cores)")
    p.add_argument("--out", default=None, help="output folder (default: compare-GAME-Np)")
    p.set_defaults(func=cmd_compare)


#: a compare report draws the outcome distributions per seating up to this many seatings
MAX_OUTCOME_SERIES = 4


def cmd_compare(args):
    import simcore
    from reports.compare import compare_section, lineups, run_compare
    from reports.outcomes import outcome_section
    from reports.report import Report, provenance_section, with_findings, write_report
    from simcore.run import check_players, parse_variant

    if args.game not in simcore.games:
        raise ValueError(f"unknown game '{args.game}' (known: {', '.join(simcore.games)})")
    from strategies import split_names
    names = [s for s in split_names(args.strategies) if s]
    if len(names) < 2:
        raise ValueError(f"--strategies needs at least two names, not '{args.strategies}'")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"--strategies lists {twice} twice; give each strategy once")
    check_players(args.game, args.players)
    out = check_out_folder(args.out or f"compare-{args.game}-{args.players}p")
    variant = parse_variant(args.variant)
    import strategies as _strategies

    resolved = {name: _strategies.resolve(args.game, name) for name in names}   # fails before any output
    seats = lineups(names, args.players)
    per = math.ceil(args.games / len(seats))
    _log(f"compare: {len(seats)} seatings x {per:,} games -> {out}")
    t0 = time.perf_counter()
    rs = run_compare(args.game, args.players, resolved, args.games, args.seed, os.path.join(out, "runs"),
                     variant=variant, workers=args.workers, log=_log)
    sec = compare_section(rs)
    outcomes = outcome_section(rs, max_series=MAX_OUTCOME_SERIES)
    report = Report(f"{args.game.capitalize()}: strategy comparison at {args.players} players",
                    sections=with_findings([provenance_section(rs), sec, outcomes]))
    paths = write_report(report, out)
    print(report.terminal())
    print()
    print(_where(paths, out))
    _log(f"done in {time.perf_counter() - t0:.1f} s")
    return 0


# ---------------------------------------------------------------- study / demo

def add_study(sub):
    p = sub.add_parser("study", help="run a balance study defined in a TOML file and report it",
                       description="Run every part of STUDY.toml (docs/study.md) and write one report "
                                   "across the runs. A rerun on the same --out resumes.")
    p.add_argument("study", help="study file (TOML), see docs/study.md")
    p.add_argument("--out", default=None, help="output folder (default: the study file's name)")
    p.add_argument("--workers", type=_positive_int, default=None, help="pool size (default: all cores)")
    p.add_argument("--quick", action="store_true", help="cap every run at the file's quick_games")
    p.set_defaults(func=cmd_study)


def cmd_study(args):
    from reports.study import load_study

    study = load_study(args.study)
    out = check_out_folder(args.out or os.path.splitext(os.path.basename(args.study))[0])
    return _run_study(study, out, args.workers, args.quick)


def _run_study(study, out, workers, quick):
    from reports.study import study_main

    report, paths, secs = study_main(study, out, workers=workers, quick_games=0 if quick else None, log=_log)
    print(report.terminal())
    print()
    print(_where(paths, out))
    print(f"({secs:.0f} s)")
    return 0


def add_demo(sub):
    p = sub.add_parser("demo", help="the built-in Hellas, Yamatai and Akrotiri balance study: play it and "
                                    "write its report",
                       description="Run the built-in study (reports/studies/demo.toml): Hellas seat advantage "
                                   "at 2, 3 and 4 players, rising vs falling quarry yields, a strategy "
                                   "comparison and the seat advantage per skill level (random, balanced, "
                                   "MCTS-100); Yamatai seat advantage and fleet, specialist and building-tile "
                                   "values at 2, 3 and 4 players and its presets compared; Akrotiri seat "
                                   "advantage and map-card, goal and market values; per game, the seat "
                                   "compensation that makes it fairest (what to change), verified. Under 10 "
                                   "minutes on 2 cores, --quick about 1 minute.")
    p.add_argument("--out", default="boardlab-demo", help="output folder (default: boardlab-demo)")
    p.add_argument("--quick", action="store_true", help="small runs (under a minute)")
    p.add_argument("--workers", type=_positive_int, default=None, help="pool size (default: all cores)")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args):
    from reports.study import demo_path, load_study

    return _run_study(load_study(demo_path()), check_out_folder(args.out), args.workers, args.quick)


# ---------------------------------------------------------------- ladder

def add_ladder(sub):
    # reports/ladder.py: the ladder's design, play and report
    from reports.ladder import add_arguments

    add_arguments(sub).set_defaults(func=cmd_ladder)


def cmd_ladder(args):
    from reports.ladder import ladder_main

    t0 = time.perf_counter()
    report, paths, out = ladder_main(args, log=_log)
    print(report.terminal())
    print()
    print(_where(paths, out))
    _log(f"done in {time.perf_counter() - t0:.1f} s")
    return 0


# ---------------------------------------------------------------- tune

def add_tune(sub):
    p = sub.add_parser("tune", help="search heuristic weights (cross-entropy method) and write a preset")
    p.add_argument("game", help="game name, e.g. hellas")
    p.add_argument("--players", type=_positive_int, default=3)
    p.add_argument("--budget", type=_positive_int, default=None,
                   help="total games, final evaluation included (default 50000)")
    p.add_argument("--population", type=_positive_int, default=None, help="candidates per generation (default 12)")
    p.add_argument("--games", type=_positive_int, default=None, help="games per candidate per generation")
    p.add_argument("--field", default=None,
                   help="opponents, comma-separated: presets, preset files or searches such as "
                        "mcts:iterations=100 (slow) (default: the heuristic presets of "
                        "strategies/presets/GAME.toml, e.g. for hellas balanced,city_builder,temple_builder,"
                        "quarry_baron)")
    p.add_argument("--start", default="balanced", help="preset to start from (default balanced)")
    p.add_argument("--seed", type=_seed, default=0)
    p.add_argument("--name", default=None, help="name of the new preset (default tuned; imitated with --imitate)")
    p.add_argument("--out", default=None,
                   help="preset file to write (default ./<game>_<name>.toml; a file named <game>_*.toml in "
                        "strategies/presets/ becomes a named preset)")
    p.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    g = p.add_argument_group("imitation (fit the weights to a teacher's decisions instead of CEM)")
    g.add_argument("--imitate", default=None, metavar="TEACHER",
                   help="teacher strategy, e.g. mcts:iterations=400: play --positions decisions with it in "
                        "every seat and fit the heuristic's weights to its choices (conditional logit; "
                        "Akrotiri's fixed score terms enter it as an offset)")
    g.add_argument("--positions", type=_positive_int, default=None,
                   help="decisions recorded for --imitate (default 5000)")
    g.add_argument("--target", choices=("best", "visits"), default=None,
                   help="--imitate: fit the teacher's chosen action (best, default) or its visit shares")
    g.add_argument("--eval-games", type=_seed, default=None,
                   help="--imitate: games of the result in one seat against --start (default 2000; 0: none)")
    p.set_defaults(func=cmd_tune)
    return p


def cmd_tune(args):
    import strategies
    from analysis.stats import wilson_bounds
    from simcore.run import check_players
    from strategies.tune import cem, write_preset

    check_players(args.game, args.players)     # bad game or player count fails before the output checks
    imitation_flags = [f for f, v in (("--positions", args.positions), ("--target", args.target),
                                      ("--eval-games", args.eval_games)) if v is not None]
    if args.imitate is None and imitation_flags:
        raise ValueError(f"{imitation_flags[0]} goes with --imitate TEACHER")
    if args.imitate is not None:
        cem_flags = [f for f, v in (("--budget", args.budget), ("--population", args.population),
                                    ("--games", args.games), ("--field", args.field)) if v is not None]
        if cem_flags:
            raise ValueError(f"{cem_flags[0]} is a CEM setting: --imitate fits to the teacher's decisions "
                             f"(size it with --positions)")
    args.name = args.name or ("tuned" if args.imitate is None else "imitated")
    import re
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,63}", args.name):
        raise ValueError(f"--name {args.name!r} is not a preset name: a letter, then up to 63 letters, "
                         f"digits, '_' or '-'")
    out = Path(args.out or f"{args.game}_{args.name}.toml")
    if out.exists() and not args.force:
        raise ValueError(f"{out} exists: pass --force to overwrite it, or another --out")
    check_out_file(out, "--out")
    if args.imitate is not None:
        return _tune_imitate(args, out)
    res = cem(args.game, args.players, args.budget or 50_000, args.population or 12, args.games, args.field,
              args.start, args.seed)
    lo, hi = wilson_bounds(res["wins"], res["n"])      # a k-way tie counts 1/k of a win
    res["ci"] = (float(lo), float(hi))
    width = max(len(k) for k in res["weights"])
    print(f"\ntuned weights ({res['picked']}):")
    for k, v in res["weights"].items():
        print(f"  {k:<{width}}  {v:8.3f}")
    print(f"win share in one seat of {res['players']} vs {', '.join(res['field'])}: {res['win_share']:.3f} "
          f"(95% CI {lo:.3f}-{hi:.3f}, n={res['n']}; fair share {1 / res['players']:.3f}); "
          f"{res['games_used']:,} games in {res['seconds']:.1f} s")
    write_preset(out, args.name, res, args.game)
    _print_written(args, out)
    return 0


def _print_written(args, out):
    import strategies
    in_presets = out.resolve().parent == strategies.PRESET_DIR.resolve() and out.name.startswith(args.game + "_")
    print(f"wrote {out} (use it as --strategy {args.name if in_presets else out})")


def _tune_imitate(args, out):
    import strategies
    from analysis.stats import wilson_bounds
    from strategies import imitate

    teacher = strategies.resolve(args.game, args.imitate)       # unknown names fail before any game
    if not imitate.supports(args.game):
        imitate.action_features(args.game, None, None)          # the one-line error naming the games
    res = imitate.imitate(args.game, args.players, teacher, args.positions or 5000, args.seed, args.start,
                          args.target or "best", 2000 if args.eval_games is None else args.eval_games,
                          log=_log)
    res["teacher"] = args.imitate
    width = max(len(k) for k in res["weights"])
    temp = res.get("temperature")
    print(f"\nimitated weights (fit {res['round']}"
          + ("" if temp is None else f"; scores are weights . features + the engine's offset, fitted at "
             f"temperature {temp:g}") + "):")
    for k, v in res["weights"].items():
        print(f"  {k:<{width}}  {v:8.3f}")
    print(f"held-out top-1 agreement with {args.imitate}: {res['agreement']:.3f} ({args.start}: "
          f"{res['base_agreement']:.3f}; n={res['held_out']} decisions held out: the last games)")
    if "n" in res:
        lo, hi = wilson_bounds(res["wins"], res["n"])
        res["ci"] = (float(lo), float(hi))
        print(f"win share in one seat of {res['players']} vs {args.start}: {res['win_share']:.3f} "
              f"(95% CI {lo:.3f}-{hi:.3f}, n={res['n']}; fair share {1 / res['players']:.3f})")
    print(f"{res['positions']:,} decisions of {res['games']} games in {res['collect_seconds']:.1f} s; "
          f"{res['seconds']:.1f} s in all")
    imitate.write_preset(out, args.name, res, args.game)
    _print_written(args, out)
    return 0
