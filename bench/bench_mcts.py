"""ISMCTS cost per iteration against one heuristic playout from the same positions, per game.

    python bench/bench_mcts.py [--iterations 400] [--positions 6] [--strength GAMES]

For each game (its DEFAULT_PLAYERS), a few mid-game positions (random play
from fixed seeds): the thread CPU time of ``simcore._mcts.search`` with N
iterations, and of ``simcore._search.playout_values`` with about N playouts
in all (the playout is the floor an iteration cannot go under), alternated,
in the same minutes. Prints µs an iteration, µs a playout, their ratio
(target <= 1.5) and iterations per second on one core. ``--strength N``
also plays N games per game of one MCTS seat (N iterations as given) against
``balanced`` in every other seat, seats rotated, and prints its win share with
a 95 % Wilson interval (2 players: the target is 0.85; 3: 0.60).
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import simcore  # noqa: E402
import strategies  # noqa: E402
from analysis.stats import wilson_bounds  # noqa: E402
from simcore import _mcts, _search  # noqa: E402
from strategies.agents import play_python  # noqa: E402


def positions(mod, players, k, moves=30):
    out = []
    for seed in range(k):
        st = mod.new_game(players=players, seed=100 + seed)
        r = random.Random(seed)
        for _ in range(moves):
            if st.is_over():
                break
            st.apply(r.choice(st.legal_actions()))
        if not st.is_over():
            out.append(st)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--strength", type=int, default=0, metavar="GAMES",
                    help="also play GAMES games of MCTS against balanced per game and player count")
    args = ap.parse_args()
    print(f"{'game':<10}{'players':>8}{'us/iteration':>14}{'us/playout':>12}{'ratio':>8}{'iterations/s':>14}")
    for name in simcore.games:
        mod = simcore.games[name]
        if not hasattr(mod, "game_ops"):
            continue
        p = mod.DEFAULT_PLAYERS
        pols = [strategies.resolve(name, "balanced").with_noise(epsilon=0.05).as_policy()] * p
        t_it = t_po = 0.0
        n_it = n_po = 0
        for rep in range(args.repeats):
            for st in positions(mod, p, args.positions):
                per = max(1, round(args.iterations / len(st.legal_actions())))
                t0 = time.thread_time()
                _mcts.search(st, args.iterations, 0.7, pols, seed=rep)
                t1 = time.thread_time()
                _search.playout_values(st, pols, per, rep)
                t2 = time.thread_time()
                t_it += t1 - t0
                n_it += args.iterations
                t_po += t2 - t1
                n_po += per * len(st.legal_actions())
        us_it, us_po = t_it / n_it * 1e6, t_po / n_po * 1e6
        print(f"{name:<10}{p:>8}{us_it:>14.1f}{us_po:>12.1f}{us_it / us_po:>8.2f}{1e6 / us_it:>14,.0f}")
    if args.strength:
        print(f"\nMCTS-{args.iterations} in one seat, balanced in the others, seats rotated")
        print(f"{'game':<10}{'players':>8}{'games':>7}{'win share':>11}{'95% CI':>18}{'fair':>7}{'s':>7}")
        for name in simcore.games:
            mod = simcore.games[name]
            if not hasattr(mod, "game_ops"):
                continue
            for p in sorted({min(mod.PLAYERS), 3} & set(mod.PLAYERS)):
                t0 = time.perf_counter()
                share = strength(name, p, args.iterations, args.strength)
                lo, hi = wilson_bounds(share * args.strength, args.strength)
                print(f"{name:<10}{p:>8}{args.strength:>7}{share:>11.3f}{f'[{lo:.3f}, {hi:.3f}]':>18}"
                      f"{1 / p:>7.2f}{time.perf_counter() - t0:>7.0f}")


def strength(name, players, iterations, games):
    """Mean win share of one MCTS seat against ``balanced`` in the others (ties as the game's rule gives)."""
    bal = strategies.resolve(name, "balanced")
    total = 0.0
    for g in range(games):
        seat = g % players
        agents = [strategies.PolicyAgent(bal, name, seed=g * 10 + s) for s in range(players)]
        agents[seat] = strategies.MCTSAgent(iterations, game=name, seed=g)
        total += _search.ops_returns(play_python(name, agents, seed=1000 + g))[seat]
    return total / games


if __name__ == "__main__":
    main()
