"""The ``boardlab`` command line: parse, check the game and player count once, run the command.

The commands are modules, ``reports/commands/<name>.py``, registered by name in
``reports.commands.NAMES``: each has ``add(subparsers)`` (its arguments) and
``run(args)`` (the work; returns the exit code). To add a command, write that file
and add its name to ``NAMES`` (``reports/commands/__init__.py`` says more). A game
command declares ``GAME`` and ``--players`` with ``reports._args.add_game``; this
module then checks them once (``reports._args.resolve_game``) before the command runs.

User errors (bad arguments, unknown names, a folder of another run) print one
line ``boardlab: error: ...`` on stderr and exit with code 2 — never a
traceback. Raise ``UsageError`` (or ``ValueError``) from a command for that.
Set ``BOARDLAB_TRACEBACK=1`` to get the traceback instead.
"""
import argparse
import errno
import os
import signal
import sys
from importlib import import_module

# The analyses' matrix products are tall and thin (rows × a few columns): OpenBLAS's
# threads only spin there (a report's logistic fits took 3.7 s CPU with them, 1.2 s
# without, same wall, same numbers). Set before numpy loads; a user's setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from reports import commands
from reports._args import resolve_game


class UsageError(Exception):
    """A user error: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors in one line (no usage dump) and exits 2."""

    def error(self, message):
        raise UsageError(message)


def build_parser(argv=None):
    """The ``boardlab`` parser; with ``argv`` naming a command, only that command's parser.

    Registering a command imports its module (numpy, polars, the engines…);
    a run of one command does not pay for the others' (``--help``, an unknown
    command or none still get them all).
    """
    from simcore import __version__

    parser = _Parser(prog="boardlab", description="Monte Carlo simulation and balance analytics for board games")
    parser.add_argument("--version", action="version", version=f"boardlab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    names = [argv[0]] if argv and argv[0] in commands.NAMES else commands.NAMES
    for name in names:
        import_module(f"reports.commands.{name}").add(sub)
    return parser


def _one_line(message):
    return " ".join(str(message).split())


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled as Ctrl-C: the run stops, its manifest says 'interrupted'."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _on_signal(signum, frame):
    raise Interrupted(signum)


def _catch_signals():
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) in (signal.SIG_DFL, None):
            signal.signal(sig, _on_signal)


def _say(line):
    """One line on stderr; a stderr that is gone (``2>&1 | tee`` after Ctrl-C) is not an error."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


_OS_HINTS = {errno.ENOSPC: "free some space or write elsewhere", errno.EDQUOT: "free some space or write elsewhere",
             errno.EFBIG: "the file is over the size limit (ulimit -f); write elsewhere",
             errno.ENAMETOOLONG: "give a shorter name", errno.EACCES: "check its permissions",
             errno.EPERM: "check its permissions", errno.ELOOP: "the path has a symbolic link loop",
             errno.EROFS: "the file system is read-only; write elsewhere"}


def os_error_line(exc, resumes=False, out=None):
    """An operating-system error as one line naming the path and what to do.

    An error from a library that gives no path (polars: "File too large (os
    error 27)") names the command's output ``out``, where it was writing.
    """
    import re

    code, what, path = exc.errno, exc.strerror, exc.filename
    if code is None:
        m = re.search(r"\(os error (\d+)\)", str(exc))
        code = int(m.group(1)) if m else None
        what = os.strerror(code) if m else _one_line(exc) or type(exc).__name__
    if path is None:
        path = f"writing under {out}" if out else "(no path given)"
    hint = _OS_HINTS.get(code)
    line = f"{path}: {what}" + (f"; {hint}" if hint else "")
    if resumes and code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        line += "; finished chunks are kept, rerun the same command to resume"
    return line


def _refuse_repeats(parser, argv):
    """An option that takes one value given twice (``--games 10 --games 20``) is an error, not the last one."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    command = sub.choices.get(argv[0]) if sub is not None and argv else None
    if command is None:
        return
    seen = {}
    for token in argv[1:]:
        if token == "--":
            break
        for action in command._actions:
            if type(action) is not argparse._StoreAction or not action.option_strings:
                continue
            if any(token == o or token.startswith(o + "=") for o in action.option_strings if o.startswith("--")):
                if action.dest in seen:
                    raise UsageError(f"argument {action.option_strings[-1]}: given twice; give it once")
                seen[action.dest] = token


#: set by :func:`main` when the command run says the process may end without the interpreter's teardown
_quick_exit = False


def main(argv=None):
    """Run one ``boardlab`` command; returns the exit code."""
    global _quick_exit
    argv = sys.argv[1:] if argv is None else list(argv)
    os.environ["BOARDLAB_MAIN_PID"] = str(os.getpid())      # its workers die with it (simcore/__init__.py)
    # a Ctrl-C leaves the pool's semaphores to loky's resource tracker, which cleans them up and would
    # say so in four lines of warnings after the command's one line: its flags are taken from ours
    if "ignore:resource_tracker:UserWarning" not in sys.warnoptions:
        sys.warnoptions.append("ignore:resource_tracker:UserWarning")
    parser = build_parser(argv)
    _catch_signals()
    resumes = True                   # a command that plays games keeps its finished chunks
    args = None
    try:
        args = parser.parse_args(argv)
        _refuse_repeats(parser, argv)
        _quick_exit = getattr(args, "quick_exit", False)
        resumes = getattr(args, "resumes", True)
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return 2
        if getattr(args, "resolve_game", False):
            resolve_game(args)           # the one check of game and player count, before any output
        return args.func(args)
    except (UsageError, ValueError, FileNotFoundError) as exc:
        if os.environ.get("BOARDLAB_TRACEBACK") == "1":
            raise
        _say(f"boardlab: error: {_one_line(exc)}")
        return 2
    except BrokenPipeError:          # `boardlab replay … | head`: the reader left; no traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())     # Python's flush at exit would fail again
        return 1
    except KeyboardInterrupt as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        _say(f"boardlab: interrupted ({signal.Signals(signum).name})" + (
            "; finished chunks are kept, rerun the same command to resume" if resumes else ""))
        return 128 + int(signum)
    except OSError as exc:           # a full disk, a name too long, no permission, a symlink loop
        if os.environ.get("BOARDLAB_TRACEBACK") == "1":
            raise
        _say(f"boardlab: error: {os_error_line(exc, resumes, getattr(args, 'out', None))}")
        return 1
    except Exception as exc:  # a dead worker or a lost cluster: finished chunks are safe
        if type(exc).__name__ in ("TerminatedWorkerError", "BrokenProcessPool", "CommClosedError",
                                  "KilledWorker"):
            _say(f"boardlab: error: a worker died ({type(exc).__name__}); finished chunks are kept, "
                 f"rerun the same command to resume")
            return 1
        raise


def console():
    """Entry point of the ``boardlab`` console script (and of ``python -m reports.cli``).

    A command that registered ``quick_exit`` (``report``: its files are
    written and closed, its figure workers joined) leaves with ``os._exit``
    once stdout and stderr are flushed: the interpreter's teardown of
    matplotlib's and polars' objects took 0.15 s of a 2-s report.
    """
    rc = main()
    if _quick_exit:
        pool = sys.modules.get("joblib.externals.loky.reusable_executor")
        ex = getattr(pool, "_executor", None)
        if ex is not None:               # a command that played games: its idle workers and their
            try:                         # memmapping folder end with it (joblib's terminate)
                ex.terminate(kill_workers=True) if hasattr(ex, "terminate") else ex.shutdown(kill_workers=True)
            except Exception:            # already shut down or broken: nothing left to stop
                pass
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(rc)
    return rc


if __name__ == "__main__":
    sys.exit(console())
