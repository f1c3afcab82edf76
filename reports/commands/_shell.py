"""What the command shells share: progress lines on stderr and the closing lines of a written report."""
import os
import sys


def log(line):
    """One progress line on stderr."""
    print(line, file=sys.stderr, flush=True)


def where(paths, out):
    """Where a written report's files are (``reports.render.write.write_report``'s ``paths``)."""
    return (f"report: {os.path.abspath(paths['html'])}\n"
            f"        {os.path.abspath(paths['md'])}, {len(paths['figures']) // 2} figures (PNG, SVG) in "
            f"{os.path.join(os.path.abspath(out), 'figures')}, {len(paths['tables'])} tables (CSV) in "
            f"{os.path.join(os.path.abspath(out), 'tables')}")


def print_report(report, paths, out):
    """The report's terminal summary, then where its files are."""
    print(report.terminal())
    print()
    print(where(paths, out))
