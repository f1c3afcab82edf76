"""CPU per decision of search settings, on the same positions: to pair searches at equal CPU.

    python bench/bench_search_cpu.py "iterations=100;iterations=100,prior=learned;iterations=130"
                                     [--game akrotiri] [--players 2] [--games 6] [--share 0.1] [--seed 11]

The positions: ``--games`` games of ``balanced`` self-play dealt from ``game_seeds(seed, i)``, each
decision with two or more legal actions kept with probability ``--share`` (seeded). Each setting
(``;``-separated, the keys of ``mcts:...``) searches every position twice
(:class:`strategies.mcts.MCTSAgent`); printed: process CPU milliseconds a decision and the ratio to
the first setting. A shared machine slows every setting alike only roughly: run the settings in
one process, compare the ratios, and repeat.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from game_args import game_parser, parse_game_args  # noqa: E402

import numpy as np  # noqa: E402


def main(argv=None):
    ap = game_parser(__doc__, seed=11)
    ap.add_argument("settings")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--share", type=float, default=0.1)
    args, mod = parse_game_args(ap, argv)

    import strategies
    from simcore._contract import SEARCH_TYPES
    from simcore.rng import game_seeds
    from strategies.mcts import MCTSAgent
    from strategies.train import _player

    agents = []
    for spec in args.settings.split(";"):
        try:            # each key read with its type (reuse and cutoff whole numbers), as mcts:... reads it
            kw = {k: SEARCH_TYPES[k](v) for k, v in (x.split("=", 1) for x in spec.split(","))}
            agents.append((spec, MCTSAgent(game=args.game, seed=1, **kw)))
        except (KeyError, ValueError, TypeError) as exc:
            ap.error(f"setting {spec!r}: {exc} (keys: {', '.join(SEARCH_TYPES)})")
    cfg = mod.make_config(args.players)
    move = _player(args.game, strategies.resolve(args.game, "balanced"), args.seed)
    rng = np.random.default_rng(np.random.SeedSequence([args.seed, 0x637075]))
    pos = []
    for gs in game_seeds(args.seed, 0, args.games):
        st = mod.State.new(cfg, int(gs))
        while not st.is_over():
            if len(st.legal_actions()) > 1 and rng.random() < args.share:
                pos.append(st.clone())
            st.apply(move(st))
    print(f"{args.game} {args.players}p: {len(pos)} positions; load {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    first = None
    for spec, ag in agents:
        t = time.process_time()
        for _ in range(2):
            for p in pos:
                ag.search(p)
        ms = (time.process_time() - t) / (2 * len(pos)) * 1e3
        first = first or ms
        print(f"  {spec:<40} {ms:7.2f} ms a decision  x{ms / first:.2f}")


if __name__ == "__main__":
    main()
