"""``boardlab balance GAME``: find and verify the seat compensation that makes a game fairest; a
shell over the search of ``reports.balance`` (the ``[[compensation]]`` kind's)."""
import json
import os
import sys

from reports._args import _positive_int, _seed, add_game, check_out_file, check_out_folder
from reports.balance import HEURISTIC_BUDGET, HEURISTIC_VERIFY, SEARCH_BUDGET, balance, plan, table_text, to_json


def add(sub):
    p = sub.add_parser("balance", help="find and verify the seat compensation that makes a game fairest",
                       description="Search integer compensation vectors (seat_points: points on the final "
                                   "total; seat_bonus: the starting resource) for the one that brings every "
                                   "seat's win share closest to fair, on common seeds with races that spend "
                                   "games where candidates are close; then verify it on fresh seeds and print "
                                   "each seat's win share with its 95% CI before and after, and the largest "
                                   "seat gap left.")
    add_game(p)
    p.add_argument("--knob", default="seat_points", help="seat_points (default) or seat_bonus")
    p.add_argument("--strategy", default="balanced",
                   help="strategy of every seat: a preset, a preset file or mcts:iterations=100 (default balanced)")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="engine setting, repeatable; the other knob fixed, e.g. seat_points=0,1")
    p.add_argument("--budget", default=None, metavar="GAMES|TIME",
                   help=f"games the search may play (default {HEURISTIC_BUDGET:,}; {SEARCH_BUDGET} for a "
                        f"searching strategy), or a time for the whole command (90s, 30m, 1h: the search "
                        f"stops at half of it, the verification at its end)")
    p.add_argument("--verify", type=_positive_int, default=None,
                   help=f"fresh games to verify with, before and after each (default {HEURISTIC_VERIFY:,}; "
                        f"half the budget for a searching strategy); with --precision or a time budget, "
                        f"the most it plays")
    p.add_argument("--precision", type=float, default=None, metavar="PP",
                   help="verify until every seat's 95%% interval, before and after, is within ± PP percentage "
                        "points (confidence sequences, valid at that stop: docs/precision.md)")
    p.add_argument("--step", type=_positive_int, default=None,
                   help="the search's first step in the knob's units (default 4; 2 for a searching strategy): "
                        "smaller where one unit moves a seat's share by several points")
    p.add_argument("--start", default=None, metavar="shares|V",
                   help="where the search starts: 'shares' (probe the zero vector and --step units more for "
                        "each seat, start where a linear model of the shares puts the fair vector, at step 1) "
                        "or a vector such as 0,2,2 (default: the zero vector)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the search and verification games (default 0)")
    p.add_argument("--workers", type=_positive_int, default=None, help="threads (default: all cores)")
    p.add_argument("--json", default=None, metavar="FILE", help="write the result as JSON")
    p.add_argument("--out", default=None, metavar="DIR", help="write a report (report.html, report.md, CSV, figures)")
    p.set_defaults(func=run, resumes=False, quick_exit=True)   # no chunks to resume; no slow teardown
    return p


def run(args):
    if args.json:
        check_out_file(args.json, "--json")
    if args.out:
        check_out_folder(args.out)
    from reports.commands._shell import log
    from reports.progress import heartbeat
    from reports.sequential import parse_budget

    games, seconds = parse_budget(args.budget) if args.budget is not None else (None, None)
    if args.precision is not None and not 0 < args.precision < 50:
        raise ValueError(f"--precision {args.precision:g}: give percentage points between 0 and 50, e.g. 0.5")
    p = plan(args.game, args.players, args.knob, args.strategy, games, args.verify, args.seed, args.variant,
             precision=None if args.precision is None else args.precision / 100, seconds=seconds,
             step=args.step, start=args.start)
    with heartbeat(log, lambda: f"balance {args.game}, {args.players} players: searching and verifying",
                   inline=True) as say:
        r = balance(p, workers=args.workers, log=say)
    print(table_text(r))
    if args.json:
        from simcore._data import write_text_atomic
        write_text_atomic(args.json, json.dumps(to_json(r), indent=1))
        print(f"wrote {args.json}")
    if args.out:
        from reports.view.telling import balance_section     # "Games to watch": none kept, and how to get some
        paths = write(r, args.out, command="boardlab " + " ".join(sys.argv[1:]), extra=[balance_section(r)])
        print(f"report: {os.path.abspath(paths['html'])}")
    return 0


def write(r, out, command=None, extra=()):
    """Write the report of one balance result to ``out`` (report.html, report.md, figures, tables);
    ``extra``: more sections, at the end (``reports.api.Balance.report`` too)."""
    import simcore
    from simcore.run import _git_commit
    from reports.balance import VERIFY_START, section
    from reports.findings import with_findings
    from reports.render.sections import Report, Section
    from reports.render.write import write_report

    prov = Section("What was run", paragraphs=[
        f"`{command or 'boardlab balance'}`",
        f"Game {r['game']}, {r['players']} players, strategy {r['strategy']}, variant "
        f"{', '.join(f'{k}={v}' for k, v in r['variant'].items()) or 'default'}, seed {r['seed']}; search budget "
        f"{r['budget']:,} games in blocks of {r['block']:,} (game indices 0…), verification game indices from "
        f"{VERIFY_START:,}. boardlab {simcore.__version__}, git commit "
        f"{(_git_commit()[0] or '')[:10] or 'unknown (no checkout)'}." + _model_text(r)])
    report = Report(f"{r['game'].capitalize()}, {r['players']} players: seat compensation ({r['knob']})",
                    sections=with_findings([section(r), prov, *extra]))
    return write_report(report, out)


def _model_text(r):
    """The model file and SHA-256 a learned strategy (or a search's learned prior) played, for the report."""
    from strategies.learned import model_ref

    ref = model_ref(r.get("strategy_dict"), r["players"])
    return f" Model {ref['file']}, sha256 {ref['sha256']}." if ref else ""
