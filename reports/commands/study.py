"""``boardlab study STUDY.toml``: run every part of a study file and write one report across the runs;
a shell over ``reports.study`` (which runs each part through its kind in ``reports.experiments``)."""
import os

from reports._args import _positive_int, check_out_folder
from reports.commands._shell import log, print_report


def add(sub):
    p = sub.add_parser("study", help="run a balance study defined in a TOML file and report it",
                       description="Run every part of STUDY.toml (docs/study.md) and write one report "
                                   "across the runs. A rerun on the same --out resumes.")
    p.add_argument("study", help="study file (TOML), see docs/study.md")
    p.add_argument("--out", default=None, help="output folder (default: the study file's name)")
    p.add_argument("--workers", type=_positive_int, default=None, help="pool size (default: all cores)")
    p.add_argument("--quick", action="store_true", help="cap every run at the file's quick_games")
    p.set_defaults(func=run, quick_exit=True)    # files written and closed: no 2-s interpreter teardown


def run(args):
    from reports.study import load_study

    study = load_study(args.study)
    out = check_out_folder(args.out or os.path.splitext(os.path.basename(args.study))[0])
    return run_study(study, out, args.workers, args.quick)


def run_study(study, out, workers, quick):
    """Run, report and print a loaded study (``boardlab study`` and ``boardlab demo``)."""
    from reports.study import study_main

    report, paths, secs = study_main(study, out, workers=workers, quick_games=0 if quick else None, log=log)
    print_report(report, paths, out)
    print(f"({secs:.0f} s)")
    return 0
