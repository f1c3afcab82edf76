"""``boardlab regress BASELINE``: the balance regression check against a recorded baseline
(``reports.regress``)."""
import json
import os

from reports._args import _positive_int, _seed, check_out_file, resolve_game, seat_strategies
from reports.regress import (DEFAULT_ALPHA, DEFAULT_EFFECT_SD, DEFAULT_EFFECT_SHARE, BaselineError, Study, check,
                             load_baseline, record, write_baseline)
from reports.render.regress_text import format_markdown, format_record, format_text


def add(sub):
    p = sub.add_parser("regress", help="balance regression check against a recorded baseline",
                       description="Rerun the study recorded in BASELINE and compare: exit 0 when the results "
                                   "are identical or no statistic changed significantly, 1 when one did "
                                   "(Holm-corrected), 2 on a malformed baseline. --update re-records it.")
    p.add_argument("baseline", help="baseline JSON file, e.g. baselines/hellas-3p.json")
    p.add_argument("--update", action="store_true",
                   help="re-record the baseline (a new file needs --game and --players)")
    p.add_argument("--alpha", type=float, default=DEFAULT_ALPHA,
                   help=f"family-wise significance level (Holm; default {DEFAULT_ALPHA})")
    p.add_argument("--games", type=_positive_int, default=None, help="games of the rerun (default: the baseline's)")
    p.add_argument("--seed", type=_seed, default=None, help="run seed of the rerun (default: the baseline's)")
    p.add_argument("--effect-share", type=float, default=DEFAULT_EFFECT_SHARE,
                   help=f"win-share change the study should detect (default {DEFAULT_EFFECT_SHARE})")
    p.add_argument("--effect-sd", type=float, default=DEFAULT_EFFECT_SD,
                   help=f"change of a mean, in baseline standard deviations, the study should detect "
                        f"(default {DEFAULT_EFFECT_SD})")
    p.add_argument("--workers", type=_positive_int, default=1, help="runner pool size (default 1)")
    p.add_argument("--md", default=None, metavar="FILE", help="also write the result as Markdown")
    p.add_argument("--json", default=None, metavar="FILE", help="also write the comparison rows as JSON")
    g = p.add_argument_group("study (with --update)")
    g.add_argument("--game", default=None)
    g.add_argument("--players", type=_positive_int, default=None)
    g.add_argument("--strategy", default=None, help="strategy for every seat")
    g.add_argument("--seat-strategies", default=None, help="comma-separated strategy per seat")
    g.add_argument("--variant", action="append", default=None, metavar="KEY=VALUE", help="engine setting, repeatable")
    p.set_defaults(func=run, resumes=False)     # its run folder is temporary


def _study_for_update(args):
    from simcore.run import parse_variant

    if args.game:
        resolve_game(args)             # the one check of game and player count
    study = None
    if os.path.exists(args.baseline):
        try:
            study = Study.from_dict(load_baseline(args.baseline)["study"])
        except BaselineError:
            study = None  # a malformed file is simply replaced
    if study is None:
        if not args.game or not args.players:
            raise ValueError(f"{args.baseline} holds no baseline yet: give --game and --players "
                             f"(and --strategy, --variant, --seed, --games) to record one")
        study = Study(game=args.game, players=args.players, strategies=["random"] * args.players)
    if args.game:
        study.game = args.game
    if args.players:
        if args.players != study.players and not (args.strategy or args.seat_strategies):
            study.strategies = [study.strategies[0]] * args.players
        study.players = args.players
    if args.strategy:
        study.strategies = [args.strategy] * study.players
    if args.seat_strategies:
        from strategies import split_names
        study.strategies = split_names(args.seat_strategies)
    if args.variant is not None:
        study.variant = parse_variant(args.variant)
    if args.seed is not None:
        study.seed = args.seed
    if args.games is not None:
        study.games = args.games
    return study


def run(args):
    seat_strategies(args)                      # --strategy and --seat-strategies together: refused
    for flag in ("md", "json"):
        if getattr(args, flag):
            check_out_file(getattr(args, flag), f"--{flag}")
    if os.path.isdir(args.baseline):
        raise ValueError(f"BASELINE {args.baseline} is a folder, not a baseline JSON file")
    if not 0 < args.alpha < 1:
        raise ValueError(f"--alpha must be between 0 and 1, not {args.alpha}")
    if args.update:
        study = _study_for_update(args)
        doc = record(study, workers=args.workers)
        write_baseline(args.baseline, doc)
        print(format_record(Study.from_dict(doc["study"]), doc, args.baseline))
        return 0
    for flag in ("game", "players", "strategy", "seat_strategies", "variant"):
        if getattr(args, flag):
            raise ValueError(f"--{flag.replace('_', '-')} changes the study: use it with --update "
                             f"(a check reruns the baseline's study; --games and --seed may vary)")
    for name, value, low, high in (("--effect-share", args.effect_share, 1e-4, 1.0),
                                   ("--effect-sd", args.effect_sd, 1e-3, 100.0)):
        if not low <= value <= high:
            raise ValueError(f"{name} must be {low:g}..{high:g}, not {value!r}")
    baseline = load_baseline(args.baseline)
    try:
        res = check(baseline, games=args.games, seed=args.seed, workers=args.workers, alpha=args.alpha,
                    effect_share=args.effect_share, effect_sd=args.effect_sd)
    except BaselineError:
        raise
    except ValueError as exc:        # its study no longer runs (a strategy or setting gone): name the file
        raise BaselineError(f"baseline {args.baseline}: {exc}") from None
    print(format_text(res))
    from simcore._data import write_text_atomic
    if args.md:
        write_text_atomic(args.md, format_markdown(res))
    if args.json:
        write_text_atomic(args.json, json.dumps(
            {"verdict": res.verdict, "exit_code": res.exit_code, "identical": res.identical,
             "digest": res.outcome.digest, "study": res.study.to_dict(), "notes": res.notes,
             "rows": res.rows}, indent=1))
    return res.exit_code
