"""``boardlab robustness GAME``: each seat's advantage across bots and assumed rules (``reports.robustness``)."""
from reports._args import _positive_int, _seed, add_game, int_in


def add(sub):
    p = sub.add_parser("robustness", help="does each seat's advantage hold across bots and assumed rules?",
                       description="Each seat's advantage (win share - 1/N) under a baseline strategy, again "
                                   "under other bots in every seat and under each assumed rule decision "
                                   "(H-D, A-D, Y-D settings) switched to its alternatives, all on the same "
                                   "seeds; one sentence per seat (docs/precision.md).")
    add_game(p)
    p.add_argument("--games", type=int_in(1, 10_000_000, "games per condition, many conditions"), default=20_000, help="games per condition (default 20000)")
    p.add_argument("--search-games", type=int_in(1, 100_000, "a searching bot's games"), default=200,
                   help="games of a searching bot (default 200)")
    p.add_argument("--strategy", default="balanced", help="the baseline strategy (default balanced)")
    p.add_argument("--bots", default=None,
                   help="comma-separated bots (default: random, the presets, mcts:iterations=50)")
    p.add_argument("--no-rules", action="store_true", help="bots only, no rule switches")
    p.add_argument("--seed", type=_seed, default=0, help="seed of every condition's games (default 0)")
    p.add_argument("--workers", type=_positive_int, default=None, help="threads (default: all cores)")
    p.add_argument("--csv", default=None, metavar="FILE", help="write the table as CSV")
    p.add_argument("--compensation", default=None, metavar="A,B,...",
                   help="a compensation (one integer per seat, as boardlab balance prints it), or 'find' "
                        "(boardlab balance with the baseline strategy first, on seed --seed + 1 so that the "
                        "table's games are fresh: a search of 10 x --games games, verified on --games): every condition is played again with it; does it still "
                        "balance? (FILE-compensation.csv)")
    p.add_argument("--knob", default="seat_points", help="the compensation's knob (default seat_points)")
    p.set_defaults(func=run)


def run(args):
    import strategies
    from reports import robustness

    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if args.bots else None
    for name in [args.strategy] + (bots or []):
        strategies.resolve(args.game, name)          # an unknown name is a one-line error before any game
    argv = [args.game, "--players", str(args.players), "--games", str(args.games),
            "--search-games", str(args.search_games), "--strategy", args.strategy, "--seed", str(args.seed)]
    if bots:
        argv += ["--bots", ",".join(bots)]
    if args.no_rules:
        argv.append("--no-rules")
    if args.workers:
        argv += ["--workers", str(args.workers)]
    if args.csv:
        argv += ["--csv", args.csv]
    if args.compensation:
        from reports.balance import KNOBS

        if args.knob not in KNOBS:
            raise ValueError(f"unknown knob '{args.knob}' (known: {', '.join(KNOBS)})")
        comp = args.compensation.replace(" ", "")
        if comp.lower() == "find":
            comp = ",".join(map(str, find_compensation(args)))
        argv += ["--compensation", comp, "--knob", args.knob]
    return robustness.main(argv)


def find_compensation(args):
    """``boardlab balance`` with the baseline strategy (search 10 x ``--games``, verification ``--games``,
    the defaults for a searching strategy) on seed ``--seed`` + 1: the robustness table then plays games
    the search never saw (no winner's curse). Prints its table and returns the vector found."""
    import sys

    from reports.balance import balance, plan, table_text

    searching = __import__("strategies").resolve(args.game, args.strategy).searches
    budget, verify = (None, None) if searching else (10 * args.games, args.games)
    from reports._args import SEED_MAX

    p = plan(args.game, args.players, args.knob, args.strategy, budget, verify, (args.seed + 1) % (SEED_MAX + 1))
    r = balance(p, workers=args.workers, log=lambda line: print(line, file=sys.stderr, flush=True))
    print(table_text(r))
    print()
    return r["compensation"]
