"""Tree reuse (the search setting ``reuse``): strength at equal CPU, and CPU at equal strength.

    python bench/bench_tree_reuse.py [--games 200] [--iterations 100] [--reference 400] [--levels 200,300]
                                     [--games-only hellas,yamatai] [--players 2] [--skip-equal-strength]

For each game (2 players unless ``--players``; every seat searching):

1. **Reuse at work**: one searching seat against ``balanced`` for 2 games, from Python with the
   kernel's decider (``simcore._mcts.SearchDecider``): the share of its searched decisions that went
   on from a retained subtree and the visits such a root brought on average.
2. **Equal CPU**: MCTS-N with reuse against MCTS-N without (N = ``--iterations``), head to head,
   the same seeds played in both seatings; the reusing seat's win share with its 95 % interval (t over
   the deals, each deal's seatings averaged: they share its seed), and the CPU per decision of each (self-play, the two alternated in the same minutes;
   the process's CPU time, searched and forced decisions both counted).
3. **Equal strength**: MCTS-L with reuse against MCTS-R without (R = ``--reference``, each L of
   ``--levels``), head to head as above: the reusing seat's win share with its interval, and the
   CPU a decision of each, so the CPU saved where the interval holds 0.5.

Everything is played in the kernel's game loop, as a run plays it. The figures are in
bench/README.md.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import simcore  # noqa: E402
import strategies  # noqa: E402
from simcore import _mcts, _search  # noqa: E402
from simcore.rng import game_seeds  # noqa: E402


def _load():
    return os.getloadavg()[0]


def _policy(name, iterations, reuse):
    return strategies.resolve(name, f"mcts:iterations={iterations}" + (",reuse=1" if reuse else "")).as_policy()


def reuse_at_work(name, players, iterations, games=2):
    """(share of searched decisions that went on from a retained subtree, mean visits retained)."""
    mod = simcore.games[name]
    dec = _mcts.SearchDecider(mod.game_ops(), _policy(name, iterations, True), players)
    bal = strategies.resolve(name, "balanced")
    for seed in game_seeds(91, 0, games):
        st = mod.new_game(players=players, seed=int(seed))
        while not st.is_over():
            if st.current_player() == 0 and len(st.legal_actions()) > 1:
                a = dec.decide(st, _mcts.decision_seed(int(seed), st.decisions))
            else:
                a = _search.ops_policy_action(st, [bal.as_policy()] * players, int(seed) + st.decisions)
            st.apply(a)
    s = dec.stats()
    return s["reused"] / max(s["decisions"], 1), s["retained_visits"] / max(s["reused"], 1), s["decisions"]


def head_to_head(name, players, a, b, games, base=0):
    """``a``'s win share against ``b`` (one seat ``a``, the others ``b``; ``a`` in every seat in turn,
    the same seeds for each seating): (share, games, low, high). A deal's games share its seed, so the
    interval is the t interval over deals of their mean share (``bench_one_seat.summary``), not Wilson
    on the games as if they were independent."""
    from bench_one_seat import summary

    mod = simcore.games[name]
    per = max(1, games // players)
    seeds = np.asarray(game_seeds(4242 + base, 0, per), dtype=np.uint64)
    wins = []
    for seat in range(players):
        pols = [b] * players
        pols[seat] = a
        wins.append(mod.play_batch(players, seeds, pols, events=False)["players"]["win_share"][:, seat])
    _, share, lo, hi = summary(np.mean(wins, axis=0))
    return share, players * per, lo, hi


def cpu_per_decision(name, players, pols, games=4, rounds=2):
    """CPU seconds a decision of each policy in ``pols`` (self-play: every seat the same), the policies
    alternated game batch by game batch so that they share the machine's load."""
    mod = simcore.games[name]
    cpu = [0.0] * len(pols)
    dec = [0] * len(pols)
    for r in range(rounds):
        seeds = np.asarray(game_seeds(77, r * games, (r + 1) * games), dtype=np.uint64)
        for i, p in enumerate(pols):
            t0 = time.process_time()
            out = mod.play_batch(players, seeds, [p] * players, events=False)
            cpu[i] += time.process_time() - t0
            dec[i] += int(np.sum(out["games"]["decisions"]))
    return [c / d for c, d in zip(cpu, dec)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per match (split over the seatings)")
    ap.add_argument("--iterations", type=int, default=100, help="equal CPU: the iterations of both sides")
    ap.add_argument("--reference", type=int, default=400, help="equal strength: the iterations without reuse")
    ap.add_argument("--levels", default="200,300", help="equal strength: the iterations with reuse")
    ap.add_argument("--games-only", default=None, help="comma-separated games (default: all)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--timing-games", type=int, default=4, help="self-play games a timing round per policy")
    ap.add_argument("--seed", type=int, default=0, help="mixed into the head-to-head seeds (another sample)")
    ap.add_argument("--skip-equal-cpu", action="store_true")
    ap.add_argument("--skip-equal-strength", action="store_true")
    args = ap.parse_args()
    names = [n for n in simcore.games if hasattr(simcore.games[n], "game_ops")]
    if args.games_only:
        names = [n.strip() for n in args.games_only.split(",")]
    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    P, N = args.players, args.iterations
    print(f"tree reuse, {P} players, every seat searching (load {_load():.1f} at start)", flush=True)
    for name in names:
        t_game = time.process_time()
        share, visits, n_dec = reuse_at_work(name, P, N)
        print(f"\n{name}: MCTS-{N} with reuse against balanced, {n_dec} searched decisions: {share:.0%} went on "
              f"from a retained subtree, bringing {visits:.0f} visits on average", flush=True)
        if not args.skip_equal_cpu:
            on, off = _policy(name, N, True), _policy(name, N, False)
            w, n, lo, hi = head_to_head(name, P, on, off, args.games, base=args.seed * 100_003)
            c_on, c_off = cpu_per_decision(name, P, [on, off], args.timing_games)
            print(f"  equal CPU: MCTS-{N} reuse v MCTS-{N}: win share {w:.3f} [{lo:.3f}, {hi:.3f}] n={n}; "
                  f"CPU/decision {c_on * 1e3:.2f} ms v {c_off * 1e3:.2f} ms (ratio {c_on / c_off:.2f})", flush=True)
        if not args.skip_equal_strength:
            ref = _policy(name, args.reference, False)
            for lvl in levels:
                on = _policy(name, lvl, True)
                w, n, lo, hi = head_to_head(name, P, on, ref, args.games, base=lvl + args.seed * 100_003)
                c_on, c_ref = cpu_per_decision(name, P, [on, ref], args.timing_games)
                verdict = "weaker" if hi < 0.5 else "stronger" if lo > 0.5 else "equal within CI"
                print(f"  equal strength: MCTS-{lvl} reuse v MCTS-{args.reference}: win share {w:.3f} "
                      f"[{lo:.3f}, {hi:.3f}] n={n} ({verdict}); CPU/decision {c_on * 1e3:.2f} ms v "
                      f"{c_ref * 1e3:.2f} ms (saves {1 - c_on / c_ref:.0%})", flush=True)
        print(f"  ({time.process_time() - t_game:.0f} CPU s, load {_load():.1f})", flush=True)


if __name__ == "__main__":
    main()
