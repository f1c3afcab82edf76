"""``boardlab simulate GAME``: play many games and write a results folder (``simcore.run.simulate``)."""
from reports._args import _positive_int, _seed, add_game, check_out_folder, seat_strategies


def add(sub):
    p = sub.add_parser("simulate", help="play many games and write a results folder",
                       description="Play GAMES games and write manifest.json and Parquet tables "
                                   "(games, players, events) to --out. Rerunning the same command "
                                   "on an interrupted folder plays only the missing chunks.")
    add_game(p)
    p.add_argument("--games", type=_positive_int, default=None,
                   help="number of games (1e6 and 1_000_000 work); required unless --precision")
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
    p.add_argument("--precision", type=float, default=None, metavar="PP",
                   help="play until every seat's 95%% interval is within ± PP percentage points "
                        "(docs/precision.md); --games, if given, is the budget")
    p.add_argument("--budget", default=None, metavar="GAMES|TIME",
                   help="with --precision: stop after this many games (20000) or this time (90s, 30m, 1h)")
    p.add_argument("--control", default=None, metavar="STRATEGY",
                   help="with --precision: a cheap strategy played on the same seeds as a control variate")
    p.add_argument("--control-games", type=_positive_int, default=100_000,
                   help="games of the control (default 100000)")
    p.add_argument("--interval", choices=("cs", "fixed"), default="cs",
                   help="with --precision: confidence sequence (default, valid at any stop) or the "
                        "fixed-n interval with the Chow-Robbins width rule")
    p.set_defaults(func=run)


def run(args):
    import strategies
    from simcore import run as simrun

    seat = seat_strategies(args)
    check_out_folder(args.out)
    if args.scheduler and args.backend not in ("loky", "dask"):
        raise ValueError(f"--scheduler needs --backend dask, not {args.backend}")
    seats = strategies.resolve_seats(args.game, args.players, args.strategy, seat)
    if args.precision is not None or args.budget is not None or args.control is not None:
        from reports.sequential import run_command

        return run_command(args, seats)
    if args.games is None:
        raise ValueError("simulate needs --games N (or --precision PP)")
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
             f"{'player':<12}  {'strategy':<16}{'win share':>10}  {'95% CI (Wilson)':>18}"]
    lo, hi = wilson_bounds(result.win_share, max(result.games, 1))
    for seat, ws in enumerate(result.win_share):
        p = ws / result.games if result.games else float("nan")
        name = plan.strategies[seat]["name"]
        who = f"{seat + 1}" + (" (starts)" if seat == 0 else "")       # player 1 = seat 0 (docs/results.md)
        lines.append(f"{who:<12}  {name:<16}{p:>10.4f}  [{lo[seat]:.4f}, {hi[seat]:.4f}]")
    if all(s["name"] == "random" for s in plan.strategies):
        lines.append("random play: every seat picks uniformly among its legal moves (a floor, not how people "
                     "play); --strategy balanced for a heuristic player")
    lines.append(f"n = {result.games:,} games; ties: {simcore.games[plan.game].TIE_RULE}")
    return "\n".join(lines)
