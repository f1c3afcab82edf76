"""``boardlab view RUN --game I [--out FILE]``: one game of a results folder as a self-contained HTML page."""


def add(sub):
    from reports._args import _seed
    p = sub.add_parser("view", help="write one game of a run as an HTML page: board, scores, the bots' reasoning",
                       description="Replay game --game of RUN_DIR and write one self-contained HTML page "
                                   "(no server, no network) that draws the board after every decision, each "
                                   "player's resources and score by category, and for each decision the legal "
                                   "actions with the deciding agent's view of them (a heuristic's score or a "
                                   "search's visit shares). Step with the buttons, the slider or the arrow keys.")
    p.add_argument("run_dir", help="results folder")
    p.add_argument("--game", type=_seed, required=True, help="game index in the run")
    p.add_argument("--out", default=None, help="the HTML file (default RUN_DIR/view/game-I.html)")
    p.add_argument("--no-agent-view", action="store_true",
                   help="skip the agents' views (faster for search seats: their searches are run again)")
    p.set_defaults(func=run, resumes=False)


def run(args):
    import os
    from reports.view.record import write_view

    if args.out is not None and os.path.isdir(args.out):
        raise ValueError(f"--out {args.out} is a folder; give the HTML file's path")
    out = write_view(args.run_dir, args.game, args.out, view=not args.no_agent_view)
    print(f"wrote {out} ({os.path.getsize(out) / 1e6:.2f} MB); open it in a browser")
    return 0
