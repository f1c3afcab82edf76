"""``boardlab compare GAME``: strategies in every seat, rated; a shell over ``reports.experiments.compare``."""
import math
import os
import time

from reports._args import _positive_int, _seed, add_game, check_out_folder
from reports.commands._shell import log, print_report


def add(sub):
    p = sub.add_parser("compare", help="play strategies against each other in every seat and rate them",
                       description="Play every strategy in every seat (seat rotations balanced), then write "
                                   "and print the win-share matrix, Bradley-Terry ratings with CIs and figures.")
    add_game(p)
    p.add_argument("--strategies", required=True,
                   help="comma-separated strategy names, e.g. balanced,city_builder,temple_builder,random")
    p.add_argument("--games", type=_positive_int, required=True,
                   help="games in all (rounded up to a multiple of the number of seatings)")
    p.add_argument("--seed", type=_seed, default=1, help="run seed of every seating (default 1)")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE", help="engine setting")
    p.add_argument("--workers", type=_positive_int, default=None, help="pool size (default: all cores)")
    p.add_argument("--out", default=None, help="output folder (default: compare-GAME-Np)")
    p.set_defaults(func=run)


def run(args):
    import strategies
    from reports.compare import lineups
    from reports.experiments import compare
    from reports.render.write import write_report
    from simcore.run import parse_variant

    names = [s for s in strategies.split_names(args.strategies) if s]
    if len(names) < 2:
        raise ValueError(f"--strategies needs at least two names, not '{args.strategies}'")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"--strategies lists {twice} twice; give each strategy once")
    out = check_out_folder(args.out or f"compare-{args.game}-{args.players}p")
    variant = parse_variant(args.variant)
    resolved = {name: strategies.resolve(args.game, name) for name in names}   # fails before any output
    part = compare.command_part(args.game, args.players, resolved, args.games, args.seed, variant)
    seats = lineups(names, args.players)
    log(f"compare: {len(seats)} seatings x {math.ceil(args.games / len(seats)):,} games -> {out}")
    t0 = time.perf_counter()
    rs = compare.play(part, os.path.join(out, "runs"), args.workers, log)
    report = compare.command_report(part, rs)
    from reports.view.telling import watch_section        # viewer pages of a few telling games
    report.sections += [s for s in [watch_section([("", rs.runs)], out, log=log)] if s is not None]
    print_report(report, write_report(report, out), out)
    log(f"done in {time.perf_counter() - t0:.1f} s")
    return 0
