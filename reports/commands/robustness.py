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
    return robustness.main(argv)
