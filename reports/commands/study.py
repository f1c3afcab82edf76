"""``boardlab study STUDY.toml``: run every part of a study file and write one report across the runs;
a shell over ``reports.study`` (which runs each part through its kind in ``reports.experiments``).

Here the runner is bound to the registered kinds (:func:`kinds`) and to the viewer's "Games to
watch": :func:`load_study` and :func:`study_main` are ``reports.study``'s with those handed over
(for Python callers too: ``reports.api``, the tests). ``boardlab demo`` binds them the same way.
"""
import os
from importlib import import_module

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


def kinds():
    """The study-part kinds registered in ``reports.experiments.KINDS``, loaded: ``{name: module}``."""
    from reports.experiments import KINDS

    return {name: import_module(f"reports.experiments.{name}") for name in KINDS}


def load_study(path):
    """``reports.study.load_study`` with the registered kinds."""
    from reports import study

    return study.load_study(path, kinds())


def study_main(path_or_study, out, workers=None, quick_games=None, log=print):
    """Load (unless given) with the registered kinds, run and report a study with its games to watch
    (``reports.study.study_main``); return (report, paths, seconds)."""
    from reports import study
    from reports.view.telling import study_section

    loaded = path_or_study if isinstance(path_or_study, study.Study) else load_study(path_or_study)
    return study.study_main(loaded, out, workers=workers, quick_games=quick_games, log=log, watch=study_section)


def run(args):
    study = load_study(args.study)
    out = check_out_folder(args.out or os.path.splitext(os.path.basename(args.study))[0])
    return run_study(study, out, args.workers, args.quick)


def run_study(study, out, workers, quick):
    """Run, report and print a loaded study."""
    report, paths, secs = study_main(study, out, workers=workers, quick_games=0 if quick else None, log=log)
    print_report(report, paths, out)
    print(f"({secs:.0f} s)")
    return 0
