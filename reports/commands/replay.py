"""``boardlab replay RUN_DIR --game N``: replay one game of a run from its seed and check it."""
from reports._args import _seed


def add(sub):
    p = sub.add_parser("replay", help="replay one game of a run from its seed",
                       description="Replay game --game of RUN_DIR from its seed, print its transcript "
                                   "and final scores, and check them against the stored players rows.")
    p.add_argument("run_dir", help="results folder")
    p.add_argument("--game", type=_seed, required=True, help="game index in the run")
    p.add_argument("--quiet", action="store_true", help="scores only, no transcript")
    p.add_argument("--states", action="store_true",
                   help="print the readable position (State.describe()) after every decision")
    p.set_defaults(func=run, resumes=False)


def run(args):
    from simcore import run as simrun

    if args.states and args.quiet:
        raise ValueError("--states prints the positions of the transcript: drop --quiet")
    rep = simrun.replay(args.run_dir, args.game)
    m = rep["manifest"]
    print(f"{m['game']}, {m['players']} players, run seed {m['seed']}, game {args.game}, "
          f"game seed {rep['seed']}")
    if args.states:
        from reports.view.positions import transcript_with_states
        for line in transcript_with_states(rep):
            print(line)
    elif not args.quiet:
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
