"""``boardlab play GAME --players N --seats human,mcts:iterations=400,balanced``: play against the bots
in the browser (a local server on 127.0.0.1, ``reports/play/server.py``)."""
import os


def add(sub):
    from reports._args import _positive_int, _seed
    p = sub.add_parser("play", help="play a game against the bots in the browser (local server)",
                       description="Start a local web server on 127.0.0.1 and open the game's page: you play the "
                                   "'human' seats by clicking on the board or on the list of legal actions; the "
                                   "bots' moves are shown one at a time with their view of the options. The game "
                                   "is saved after every move (resume with --resume FOLDER) and, once over, "
                                   "written as a results folder (FOLDER/results) that replay, view and report read.")
    p.add_argument("game", nargs="?", help="game name, e.g. hellas (not with --resume)")
    p.add_argument("--players", type=_positive_int, default=None, help="player count (default: one per seat)")
    p.add_argument("--seats", default=None,
                   help="one per seat, comma-separated: human or a strategy, e.g. human,mcts:iterations=400,balanced")
    p.add_argument("--seed", type=_seed, default=None, help="seed (default: a random one, printed)")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE", help="engine setting, repeatable")
    p.add_argument("--out", default=None, help="the game's folder (default ./play-GAME-SEED)")
    p.add_argument("--resume", default=None, metavar="FOLDER", help="go on with the saved game of FOLDER")
    p.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765; 0: any free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser (print the address only)")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="least seconds between two bot moves, so each can be seen (default 0.6)")
    p.set_defaults(func=run, resumes=False)


def session_from_args(args, log=print):
    import secrets

    import simcore
    from strategies import split_names
    from simcore.run import check_players, parse_variant
    from reports.play.server import Session, load_save, HUMAN

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be from 0 to 65535, not {args.port}")
    if not 0 <= args.bot_delay <= 60:           # nan too
        raise ValueError(f"--bot-delay must be from 0 to 60 seconds, not {args.bot_delay}")
    if args.resume:
        if args.game or args.seats or args.players or args.seed is not None or args.variant or args.out:
            raise ValueError("--resume FOLDER takes the game, seats, seed and variant from the folder: give nothing else")
        saved = load_save(args.resume)
        return Session(saved["game"], saved["players"], saved["seats"], saved["run_seed"], saved["variant"],
                       os.path.abspath(args.resume), decisions=saved["decisions"], views=saved["views"],
                       bot_delay=args.bot_delay, log=log)
    if not args.game:
        raise ValueError("name the game (e.g. boardlab play hellas --seats human,balanced,balanced) or give --resume FOLDER")
    simcore.get_game(args.game)            # a game simcore does not know: its own one-line error
    if not args.seats:
        raise ValueError("give --seats, one per seat, with at least one 'human', e.g. --seats human,balanced,balanced")
    seats = split_names(args.seats)
    players = args.players if args.players is not None else len(seats)
    check_players(args.game, players)
    if len(seats) != players:
        raise ValueError(f"--seats names {len(seats)} seats for {players} players: give one per seat")
    if HUMAN not in seats:
        raise ValueError("no seat is 'human': name at least one, e.g. --seats human,balanced")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    folder = os.path.abspath(args.out or f"play-{args.game}-{seed}")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ValueError(f"--out {folder} is a file: give a folder")
    if os.path.isdir(folder) and os.listdir(folder):
        if os.path.exists(os.path.join(folder, "save.json")):
            raise ValueError(f"{folder} holds a saved game: go on with --resume {folder}, or give another --out")
        raise ValueError(f"{folder} is not empty: give a new or empty folder with --out")
    variant = parse_variant(args.variant)
    session = Session(args.game, players, seats, seed, variant, folder, bot_delay=args.bot_delay, log=log)
    os.makedirs(folder, exist_ok=True)
    session.save()
    return session


def run(args):
    from reports.play.server import serve

    session = session_from_args(args)
    try:
        serve(session, port=args.port, open_browser=not args.no_browser)
    except KeyboardInterrupt:
        print(f"stopped; the game is saved in {session.folder}"
              + ("" if session.state.is_over() else f" (resume: boardlab play --resume {session.folder})"))
        return 0
    return 0
