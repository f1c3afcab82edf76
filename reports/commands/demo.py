"""``boardlab demo``: the built-in study (``reports/studies/demo.toml``), played and reported; bound to the
registered kinds and the games to watch as ``boardlab study`` is (``reports.commands.study``, which a
command does not import: each command is one link above the experiments)."""
from importlib import import_module

from reports._args import _positive_int, check_out_folder
from reports.commands._shell import log, print_report


def add(sub):
    p = sub.add_parser("demo", help="the built-in Hellas, Yamatai and Akrotiri balance study: play it and "
                                    "write its report",
                       description="Run the built-in study (reports/studies/demo.toml): Hellas seat advantage "
                                   "at 2, 3 and 4 players, rising vs falling quarry yields, a strategy "
                                   "comparison and the seat advantage per skill level (random, balanced, "
                                   "learned); Yamatai seat advantage and fleet, specialist and building-tile "
                                   "values at 2, 3 and 4 players and its presets compared; Akrotiri seat "
                                   "advantage and map-card, goal and market values; per game, the seat "
                                   "compensation that makes it fairest (what to change), verified. Under 10 "
                                   "minutes on 2 cores, --quick about 1 minute.")
    p.add_argument("--out", default="boardlab-demo", help="output folder (default: boardlab-demo)")
    p.add_argument("--quick", action="store_true", help="small runs (under a minute)")
    p.add_argument("--workers", type=_positive_int, default=None, help="pool size (default: all cores)")
    p.set_defaults(func=run, quick_exit=True)    # files written and closed: no 2-s interpreter teardown


def run(args):
    from reports.experiments import KINDS
    from reports.study import demo_path, load_study, study_main
    from reports.view.telling import study_section

    kinds = {name: import_module(f"reports.experiments.{name}") for name in KINDS}     # as `boardlab study`'s
    study, out = load_study(demo_path(), kinds), check_out_folder(args.out)
    report, paths, secs = study_main(study, out, workers=args.workers, quick_games=0 if args.quick else None,
                                     log=log, watch=study_section)
    print_report(report, paths, out)
    print(f"({secs:.0f} s)")
    return 0
