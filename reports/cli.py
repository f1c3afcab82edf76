"""The ``boardlab`` command line.

Each command is two small functions: ``add_<name>(subparsers)`` declares its
arguments, ``cmd_<name>(args)`` runs it and returns an exit code. To add a
command, write both and list ``add_<name>`` in ``COMMANDS``.

User errors (bad arguments, unknown names, a folder of another run) print one
line ``boardlab: error: ...`` on stderr and exit with code 2 — never a
traceback. Raise ``UsageError`` (or ``ValueError``) from a command for that.
Set ``BOARDLAB_TRACEBACK=1`` to get the traceback instead.
"""
import argparse
import os
import signal
import sys

# The analyses' matrix products are tall and thin (rows × a few columns): OpenBLAS's
# threads only spin there (a report's logistic fits took 3.7 s CPU with them, 1.2 s
# without, same wall, same numbers). Set before numpy loads; a user's setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from reports._args import _int, _positive_int, _seed, check_out_folder, seat_strategies  # noqa: F401


class UsageError(Exception):
    """A user error: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors in one line (no usage dump) and exits 2."""

    def error(self, message):
        raise UsageError(message)


# ---------------------------------------------------------------- simulate

def add_simulate(sub):
    p = sub.add_parser("simulate", help="play many games and write a results folder",
                       description="Play GAMES games and write manifest.json and Parquet tables "
                                   "(games, players, events) to --out. Rerunning the same command "
                                   "on an interrupted folder plays only the missing chunks.")
    p.add_argument("game", help="game name, e.g. hellas")
    p.add_argument("--players", type=_positive_int, required=True, help="player count")
    p.add_argument("--games", type=_positive_int, required=True, help="number of games (1e6 and 1_000_000 work)")
    p.add_argument("--strategy", default=None, help="strategy for every seat (default: random)")
    p.add_argument("--seat-strategies", default=None,
                   help="comma-separated strategy per seat, e.g. balanced,city_builder,random")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="engine setting, repeatable (e.g. city_links=no_agora_chains)")
    p.add_argument("--seed", type=_seed, required=True, help="run seed")
    p.add_argument("--workers", type=_positive_int, default=None, help="pool size (default: all cores)")
    p.add_argument("--chunk-size", type=_positive_int, default=None,
                   help="games per task and per Parquet part (default from --games)")
    p.add_argument("--backend", choices=("loky", "threading", "dask"), default="loky",
                   help="joblib backend (default: loky processes)")
    p.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="dask.distributed scheduler (implies --backend dask)")
    p.add_argument("--no-events", action="store_true", help="do not write the events table")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--out", required=True, help="results folder")
    p.set_defaults(func=cmd_simulate)


def cmd_simulate(args):
    import strategies
    from simcore import run as simrun

    seat = seat_strategies(args)
    check_out_folder(args.out)
    if args.scheduler and args.backend not in ("loky", "dask"):
        raise UsageError(f"--scheduler needs --backend dask, not {args.backend}")
    simrun.check_players(args.game, args.players)
    seats = strategies.resolve_seats(args.game, args.players, args.strategy, seat)
    result = simrun.simulate(args.game, players=args.players, games=args.games, seed=args.seed,
                             out=args.out, strategies=seats,
                             variant=args.variant, workers=args.workers, chunk_size=args.chunk_size,
                             backend=args.backend, scheduler=args.scheduler,
                             events=not args.no_events, progress=not args.no_progress)
    print(run_table(result))
    return 0


def run_table(result):
    """The end-of-run summary of ``simcore.run.simulate``'s result, as text (win shares with Wilson CIs)."""
    import simcore
    from analysis.stats import wilson_bounds

    plan = result.plan
    lines = [f"run      {result.out}  ({plan.game}, {plan.players} players, seed {plan.seed})",
             f"games    {result.games:,}" + (f"  ({result.games_run:,} played now, resumed)" if result.resumed else ""),
             f"wall     {result.wall_seconds:.2f} s",
             f"speed    {result.games_per_second:,.0f} games/s",
             "",
             f"{'seat':>4}  {'strategy':<16}{'win share':>10}  {'95% CI (Wilson)':>18}"]
    lo, hi = wilson_bounds(result.win_share, max(result.games, 1))
    for seat, ws in enumerate(result.win_share):
        p = ws / result.games if result.games else float("nan")
        name = plan.strategies[seat]["name"]
        lines.append(f"{seat:>4}  {name:<16}{p:>10.4f}  [{lo[seat]:.4f}, {hi[seat]:.4f}]")
    lines.append(f"n = {result.games:,} games; ties: {simcore.games[plan.game].TIE_RULE}")
    return "\n".join(lines)


# ---------------------------------------------------------------- replay

def add_replay(sub):
    p = sub.add_parser("replay", help="replay one game of a run from its seed",
                       description="Replay game --game of RUN_DIR from its seed, print its transcript "
                                   "and final scores, and check them against the stored players rows.")
    p.add_argument("run_dir", help="results folder")
    p.add_argument("--game", type=_seed, required=True, help="game index in the run")
    p.add_argument("--quiet", action="store_true", help="scores only, no transcript")
    p.set_defaults(func=cmd_replay, resumes=False)


def cmd_replay(args):
    from simcore import run as simrun

    rep = simrun.replay(args.run_dir, args.game)
    m = rep["manifest"]
    print(f"{m['game']}, {m['players']} players, run seed {m['seed']}, game {args.game}, "
          f"game seed {rep['seed']}")
    if not args.quiet:
        for step in rep["transcript"]:
            print(step["text"] if isinstance(step, dict) else str(step))
    scores = rep["scores"]
    cols = list(scores)
    print()
    width = {c: max(9, len(c), *(len(str(v)) for v in scores[c])) + 1 for c in cols}
    print("seat  " + "".join(f"{c:>{width[c]}}" for c in cols))
    for seat in range(m["players"]):
        print(f"{seat:>4}  " + "".join(f"{scores[c][seat]:>{width[c]}}" for c in cols))
    if rep["stored"] is None:
        print("stored rows: chunk not written yet, nothing to compare")
        return 0
    if rep["mismatches"]:
        print("MISMATCH with the stored players rows:")
        for line in rep["mismatches"]:
            print("  " + line)
        return 1
    print("scores equal the stored players rows")
    return 0


# ---------------------------------------------------------------- main

def add_tune(sub):
    # implemented in reports/commands.py over strategies.tune (search of heuristic weights)
    from reports.commands import add_tune
    add_tune(sub)


def add_regress(sub):
    # implemented in reports/regress.py (balance regression check against a baseline)
    from reports.regress import add_parser
    add_parser(sub)


def add_report(sub):
    # reports/commands.py: report, compare, study, demo
    from reports.commands import add_report as add
    add(sub)


def add_compare(sub):
    from reports.commands import add_compare as add
    add(sub)


def add_study(sub):
    from reports.commands import add_study as add
    add(sub)


def add_demo(sub):
    from reports.commands import add_demo as add
    add(sub)


def add_balance(sub):
    # implemented in reports/balance.py (seat compensation search and verification)
    from reports.balance import add_parser
    add_parser(sub)


def add_ladder(sub):
    # reports/ladder.py (strategy ladder and balance per skill level), run from reports/commands.py
    from reports.commands import add_ladder as add
    add(sub)


def add_bench(sub):
    # implemented in reports/bench.py (engine, reference and runner speed)
    from reports.bench import add_parser
    add_parser(sub)


def add_train(sub):
    # reports/train.py (a learned model from a search: strategies/train.py)
    from reports.train import add_parser
    add_parser(sub)


COMMANDS = [add_simulate, add_replay, add_tune, add_regress, add_report, add_compare, add_study, add_demo,
            add_balance, add_bench, add_ladder, add_train]


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
    named = {add.__name__.removeprefix("add_"): add for add in COMMANDS}
    for add in [named[argv[0]]] if argv and argv[0] in named else COMMANDS:
        add(sub)
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


#: set by :func:`main` when the command run says the process may end without the interpreter's teardown
_quick_exit = False


def main(argv=None):
    """Run one ``boardlab`` command; returns the exit code."""
    global _quick_exit
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    _catch_signals()
    resumes = True                   # a command that plays games keeps its finished chunks
    try:
        args = parser.parse_args(argv)
        _quick_exit = getattr(args, "quick_exit", False)
        resumes = getattr(args, "resumes", True)
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return 2
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
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(rc)
    return rc


if __name__ == "__main__":
    sys.exit(console())
