"""``boardlab train GAME --players N``: a learned model from a search's decisions (``strategies/train.py``)."""
from reports._args import _seed, add_game, int_in


def add(sub):
    p = sub.add_parser("train", help="train a learned model from a search's decisions",
                       description="Play games with the teacher in every seat, record its visit shares at "
                                   "each decision and fit a small network to them (strategies/train.py). "
                                   "Writes FILE (the weights) and FILE's .manifest.json. The positions are "
                                   "kept in FILE.chunks/: after Ctrl-C the same command resumes; the same "
                                   "settings give the same file, bit for bit.")
    add_game(p)
    p.add_argument("--teacher", default="mcts:iterations=1600",
                   help="the strategy whose decisions are learned (default mcts:iterations=1600)")
    p.add_argument("--positions", type=int_in(1, 10_000_000, "every position is a search"), default=4000,
                   help="decisions recorded, whole games (default 4000)")
    p.add_argument("--seed", type=_seed, default=1, help="seed of the games and the fit (default 1)")
    p.add_argument("--play", default=None,
                   help="a heuristic preset or learned: it plays the games and the teacher searches only "
                        "a share --label of their decisions (default: the teacher plays every decision)")
    p.add_argument("--label", type=float, default=1.0,
                   help="with --play: the share of the decisions the teacher labels (default 1)")
    p.add_argument("--hidden", type=int_in(1, 1024, "one layer of that many units"), default=None,
                   help="hidden units (default 32)")
    p.add_argument("--max-actions", type=int, default=0,
                   help="fit each training decision on at most about this many actions (the visited ones, "
                        "the heuristic's best, a few at random); 0: all (default)")
    p.add_argument("--steps", type=int_in(1, 100_000, "Adam steps (epochs with --batch)"), default=None,
                   help="the fit's Adam steps, or epochs with --batch (default 1500)")
    p.add_argument("--batch", type=int, default=0,
                   help="decisions per minibatch of the fit; 0: full batch (default)")
    p.add_argument("--lr", type=float, default=None, help="the fit's learning rate (default 0.003)")
    p.add_argument("--l2", type=float, default=None, help="the fit's L2 penalty on the weights (default 0.01)")
    p.add_argument("--ensemble", type=int_in(1, 64, "networks averaged"), default=1,
                   help="fit this many networks (seeds drawn from --seed) and average their scores (default 1)")
    p.add_argument("--ties", choices=("first", "seeded"), default="first",
                   help="how the learned seat breaks exact ties between best-scored actions: the lower action "
                        "(default), or one drawn from the decision's seed (written in the model file)")
    p.add_argument("--prune", action="store_true",
                   help="drop the hidden units that no recorded action activates (the same scores on the "
                        "recorded positions, a cheaper decision; recorded in the manifest)")
    p.add_argument("--out", required=True, help="the model file, e.g. strategies/models/hellas-3p.json")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.set_defaults(func=run)


def run(args):
    from strategies.train import train
    train(args.game, args.players, teacher=args.teacher, positions=args.positions, seed=args.seed,
          out=args.out, progress=not args.no_progress, play=args.play, label=args.label, hidden=args.hidden,
          max_actions=args.max_actions, steps=args.steps, batch=args.batch, lr=args.lr, l2=args.l2,
          ensemble=args.ensemble, ties=args.ties, prune=args.prune)
    return 0
