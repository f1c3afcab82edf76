"""``boardlab tune GAME``: search heuristic weights (cross-entropy method, or imitation of a teacher)
and write a preset (``strategies.tune``, ``strategies.imitate``)."""
from pathlib import Path

from reports._args import _positive_int, _seed, add_game, check_out_file
from reports.commands._shell import log


def add(sub):
    p = sub.add_parser("tune", help="search heuristic weights (cross-entropy method) and write a preset")
    add_game(p, players=False)
    p.add_argument("--players", type=_positive_int, default=3, help="player count (default 3)")
    p.add_argument("--budget", type=_positive_int, default=None,
                   help="total games, final evaluation included (default 50000)")
    p.add_argument("--population", type=_positive_int, default=None, help="candidates per generation (default 12)")
    p.add_argument("--games", type=_positive_int, default=None, help="games per candidate per generation")
    p.add_argument("--field", default=None,
                   help="opponents, comma-separated: presets, preset files or searches such as "
                        "mcts:iterations=100 (slow) (default: the heuristic presets of "
                        "strategies/presets/GAME.toml, e.g. for hellas balanced,city_builder,temple_builder,"
                        "quarry_baron)")
    p.add_argument("--start", default="balanced", help="preset to start from (default balanced)")
    p.add_argument("--seed", type=_seed, default=0)
    p.add_argument("--name", default=None, help="name of the new preset (default tuned; imitated with --imitate)")
    p.add_argument("--out", default=None,
                   help="preset file to write (default ./<game>_<name>.toml; a file named <game>_*.toml in "
                        "strategies/presets/ becomes a named preset)")
    p.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    g = p.add_argument_group("imitation (fit the weights to a teacher's decisions instead of CEM)")
    g.add_argument("--imitate", default=None, metavar="TEACHER",
                   help="teacher strategy, e.g. mcts:iterations=400: play --positions decisions with it in "
                        "every seat and fit the heuristic's weights to its choices (conditional logit; "
                        "Akrotiri's fixed score terms enter it as an offset)")
    g.add_argument("--positions", type=_positive_int, default=None,
                   help="decisions recorded for --imitate (default 5000)")
    g.add_argument("--target", choices=("best", "visits"), default=None,
                   help="--imitate: fit the teacher's chosen action (best, default) or its visit shares")
    g.add_argument("--eval-games", type=_seed, default=None,
                   help="--imitate: games of the result in one seat against --start (default 2000; 0: none)")
    p.set_defaults(func=run)
    return p


def run(args):
    import strategies
    from analysis.stats import wilson_bounds
    from strategies.tune import cem, write_preset

    imitation_flags = [f for f, v in (("--positions", args.positions), ("--target", args.target),
                                      ("--eval-games", args.eval_games)) if v is not None]
    if args.imitate is None and imitation_flags:
        raise ValueError(f"{imitation_flags[0]} goes with --imitate TEACHER")
    if args.imitate is not None:
        cem_flags = [f for f, v in (("--budget", args.budget), ("--population", args.population),
                                    ("--games", args.games), ("--field", args.field)) if v is not None]
        if cem_flags:
            raise ValueError(f"{cem_flags[0]} is a CEM setting: --imitate fits to the teacher's decisions "
                             f"(size it with --positions)")
    args.name = args.name or ("tuned" if args.imitate is None else "imitated")
    import re
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,63}", args.name):
        raise ValueError(f"--name {args.name!r} is not a preset name: a letter, then up to 63 letters, "
                         f"digits, '_' or '-'")
    out = Path(args.out or f"{args.game}_{args.name}.toml")
    if out.exists() and not args.force:
        raise ValueError(f"{out} exists: pass --force to overwrite it, or another --out")
    check_out_file(out, "--out")
    _not_learned(args)
    if args.imitate is not None:
        return _tune_imitate(args, out)
    res = cem(args.game, args.players, args.budget or 50_000, args.population or 12, args.games, args.field,
              args.start, args.seed)
    res["models"] = _model_lines(args.game, args.players, strategies.split_names(args.field) if args.field else [])
    lo, hi = wilson_bounds(res["wins"], res["n"])      # a k-way tie counts 1/k of a win
    res["ci"] = (float(lo), float(hi))
    width = max(len(k) for k in res["weights"])
    print(f"\ntuned weights ({res['picked']}):")
    for k, v in res["weights"].items():
        print(f"  {k:<{width}}  {v:8.3f}")
    print(f"win share in one seat of {res['players']} vs {', '.join(res['field'])}: {res['win_share']:.3f} "
          f"(95% CI {lo:.3f}-{hi:.3f}, n={res['n']}; fair share {1 / res['players']:.3f}); "
          f"{res['games_used']:,} games in {res['seconds']:.1f} s")
    write_preset(out, args.name, res, args.game)
    _print_written(args, out)
    return 0


def _not_learned(args):
    """Tuning fits a heuristic preset's weights: a learned model may be an opponent (--field) or the
    prior of a searching teacher, not the start nor the teacher itself (one-line errors)."""
    import strategies
    from simcore._contract import LEARNED

    for flag, name in (("--start", args.start), ("--imitate", args.imitate)):
        if name is not None and strategies.resolve(args.game, name).policy_kind is LEARNED:
            raise ValueError(f"{flag} {name}: tune fits a heuristic preset's weights, and a learned model has "
                             f"none (boardlab train makes one); tune against it with --field {name}, or "
                             f"imitate the search it guides with --imitate mcts:prior={name}")


def _model_lines(game, players, names):
    """The model files (with their SHA-256) of the learned strategies among ``names``, as a result's
    preset file records them: the model a seat plays or a search's prior."""
    import strategies
    from strategies.learned import model_ref

    out = []
    for name in names:
        ref = model_ref(strategies.resolve(game, name).to_dict(), players)
        if ref:
            out.append(f"{name} uses the model {ref['file']} (sha256 {ref['sha256']})")
    return out


def _print_written(args, out):
    import strategies
    in_presets = out.resolve().parent == strategies.PRESET_DIR.resolve() and out.name.startswith(args.game + "_")
    print(f"wrote {out} (use it as --strategy {args.name if in_presets else out})")


def _tune_imitate(args, out):
    import strategies
    from analysis.stats import wilson_bounds
    from strategies import imitate

    teacher = strategies.resolve(args.game, args.imitate)       # unknown names fail before any game
    if not imitate.supports(args.game):
        imitate.action_features(args.game, None, None)          # the one-line error naming the games
    res = imitate.imitate(args.game, args.players, teacher, args.positions or 5000, args.seed, args.start,
                          args.target or "best", 2000 if args.eval_games is None else args.eval_games,
                          log=log)
    res["teacher"] = args.imitate
    res["models"] = _model_lines(args.game, args.players, [args.imitate])
    width = max(len(k) for k in res["weights"])
    temp = res.get("temperature")
    print(f"\nimitated weights (fit {res['round']}"
          + ("" if temp is None else f"; scores are weights . features + the engine's offset, fitted at "
             f"temperature {temp:g}") + "):")
    for k, v in res["weights"].items():
        print(f"  {k:<{width}}  {v:8.3f}")
    print(f"held-out top-1 agreement with {args.imitate}: {res['agreement']:.3f} ({args.start}: "
          f"{res['base_agreement']:.3f}; n={res['held_out']} decisions held out: the last games)")
    if "n" in res:
        lo, hi = wilson_bounds(res["wins"], res["n"])
        res["ci"] = (float(lo), float(hi))
        print(f"win share in one seat of {res['players']} vs {args.start}: {res['win_share']:.3f} "
              f"(95% CI {lo:.3f}-{hi:.3f}, n={res['n']}; fair share {1 / res['players']:.3f})")
    print(f"{res['positions']:,} decisions of {res['games']} games in {res['collect_seconds']:.1f} s; "
          f"{res['seconds']:.1f} s in all")
    imitate.write_preset(out, args.name, res, args.game)
    _print_written(args, out)
    return 0
