"""``boardlab report RUN_DIR``: the report of one results folder (``reports.report.run_report``)."""
import os

from reports._args import check_out_folder
from reports.commands._shell import log, print_report  # noqa: F401


def add(sub):
    p = sub.add_parser("report", help="write the report of a results folder",
                       description="Analyse RUN_DIR and write report.html (self-contained), report.md, "
                                   "figures (PNG, SVG) and tables (CSV) to --out (default RUN_DIR/report).")
    p.add_argument("run_dir", help="results folder of `boardlab simulate`")
    p.add_argument("--out", default=None, help="output folder (default: RUN_DIR/report)")
    p.add_argument("--partial", action="store_true",
                   help="report an interrupted run from its finished chunks (the report says how many games)")
    p.set_defaults(func=run, quick_exit=True, resumes=False)      # plays nothing


def run(args):
    from reports.render.workers import BackgroundFigures
    from reports.render.write import write_report
    from reports.report import run_report
    from reports.view.telling import games_section

    if not os.path.isdir(args.run_dir):
        raise ValueError(f"{args.run_dir}: no such results folder")
    out = check_out_folder(args.out or os.path.join(args.run_dir, "report"))
    figures = BackgroundFigures(log=log)      # figures render on the second core while the sections are computed
    try:
        report = run_report(args.run_dir, partial=args.partial, figures=figures)
        report.sections += [s for s in [games_section(args.run_dir, out)] if s is not None]   # viewer pages
        paths = write_report(report, out, figures=figures)
    finally:
        figures.close()
    print_report(report, paths, out)
    return 0
