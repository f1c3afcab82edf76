"""``boardlab bench``: engine, reference and runner speed of every game (``reports.bench``)."""
import json
import sys

from reports._args import _positive_int, check_out_file, int_in


def add(sub):
    p = sub.add_parser("bench", help="engine and runner speed of every game",
                       description="Measure play_batch (random and balanced), the reference engine, the runner "
                                   "with 1 and 2 workers and peak memory for every game and player count; "
                                   "print tables and optionally write JSON.")
    p.add_argument("--games", type=int_in(1, 1_000_000, "a batch's result arrays are held in memory"), default=20_000,
                   help="games per random-play kernel batch and runner run (default 20000; the heuristic "
                        "batch is a tenth)")
    p.add_argument("--ref-games", type=int_in(1, 100_000, "the reference engine plays in Python"), default=100, help="games replayed by the reference engine")
    p.add_argument("--repeats", type=int_in(1, 100), default=5, help="timed runs after the warm-up (default 5)")
    p.add_argument("--game", action="append", default=None, help="only this game (repeatable)")
    p.add_argument("--players", type=_positive_int, action="append", default=None,
                   help="only this player count (repeatable)")
    p.add_argument("--no-runner", action="store_true", help="skip the runner measurements")
    p.add_argument("--instructions", action="store_true",
                   help="also count instructions per game under valgrind (slow, load-independent)")
    p.add_argument("--json", default=None, metavar="FILE", help="write all figures as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(func=run)


def run(args):
    from reports.bench import format_tables, run_bench

    if args.json:
        check_out_file(args.json, "--json")
    log = None if args.quiet else (lambda msg: print(f"bench: {msg}", file=sys.stderr, flush=True))
    res = run_bench(games=args.games, ref_games=args.ref_games, repeats=args.repeats, game_names=args.game,
                    players=args.players, runner=not args.no_runner, instructions=args.instructions, log=log)
    print(format_tables(res))
    if args.json:
        from simcore._data import write_text_atomic
        write_text_atomic(args.json, json.dumps(res, indent=1) + "\n")    # a full disk: no 0-byte file
    return 0
