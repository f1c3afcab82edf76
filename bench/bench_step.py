"""Step API speed: µs a step of ``legal_actions()`` + ``apply()`` from a Python loop, per game.

Random playouts with fixed seeds (game seeds 0..G-1, the choices from a fixed
``random.Random``), the set-up (``new_game``) not counted. Beside it, in the same
run, the old way: the same loop that also builds the legal list a second time and
renders the step's text (``action_to_str``), which is what ``apply`` did per step
before the step API was written once (it now checks legality in C and makes the
transcript's texts only when ``transcript()`` is asked for). ``--against DIR``
also times the loop on another checkout's build (in a subprocess).

    PYTHONPATH=. python bench/bench_step.py [--games 40] [--repeats 5] [--against /work/main]

Prints one line per game and player count: steps timed, µs a step (median of the
repeats, with the min-max range), the old way's µs a step, their ratio.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

# the checkout whose build is timed (--against sets it for its subprocess)
sys.path.insert(0, os.environ.get("BOARDLAB_BENCH_ROOT") or os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import simcore  # noqa: E402


def _games(mod, players, n):
    return [mod.new_game(players=players, seed=seed) for seed in range(n)]


def time_steps(mod, players, games, old_way=False):
    """``(steps, seconds)`` of random play through the step API from fresh games."""
    states = _games(mod, players, games)
    rnd = random.Random(12345).random
    steps = 0
    t0 = time.perf_counter()
    if old_way:
        for st in states:
            while not st.is_over():
                legal = st.legal_actions()
                a = legal[int(rnd() * len(legal))]
                st.legal_actions()          # apply's own legality list
                getattr(st, "action_to_str", str)(a)    # the step's transcript text
                st.apply(a)
                steps += 1
    else:
        for st in states:
            while not st.is_over():
                legal = st.legal_actions()
                st.apply(legal[int(rnd() * len(legal))])
                steps += 1
    return steps, time.perf_counter() - t0


def measure(games, repeats, players_of=None):
    rows = []
    for name, mod in simcore.games.items():
        for players in (players_of or {}).get(name, mod.PLAYERS):
            new, old = [], []
            for _ in range(repeats):
                steps, dt = time_steps(mod, players, games)
                new.append(dt / steps * 1e6)
                _, dt = time_steps(mod, players, games, old_way=True)
                old.append(dt / steps * 1e6)
            rows.append({"game": name, "players": players, "steps": steps, "us": statistics.median(new),
                         "lo": min(new), "hi": max(new), "old_us": statistics.median(old)})
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40, help="games per measurement (default 40)")
    p.add_argument("--repeats", type=int, default=5, help="repeats, median taken (default 5)")
    p.add_argument("--against", metavar="DIR", help="also time the loop on this checkout's build")
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)   # (for --against's subprocess)
    args = p.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        print("bench_step: --games and --repeats must be >= 1", file=sys.stderr)
        return 2
    rows = measure(args.games, args.repeats)
    if args.json:
        print(json.dumps(rows))
        return 0
    other = {}
    if args.against:
        if not os.path.isdir(os.path.join(args.against, "simcore")):
            print(f"bench_step: --against {args.against}: not a checkout (no simcore/ there)", file=sys.stderr)
            return 2
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--json", "--games", str(args.games),
                              "--repeats", str(args.repeats)], capture_output=True, text=True, check=True,
                             cwd=args.against, env=dict(os.environ, PYTHONPATH=os.path.abspath(args.against),
                                      BOARDLAB_BENCH_ROOT=os.path.abspath(args.against)))
        other = {(r["game"], r["players"]): r["us"] for r in json.loads(out.stdout)}
    print(f"step API, random play: legal_actions() + apply() from Python ({args.games} games, "
          f"median of {args.repeats})")
    head = f"{'game':<10}{'players':>8}{'steps':>8}{'µs/step':>9}{'range':>13}{'old way':>9}{'ratio':>7}"
    if other:
        head += f"{'against':>9}{'ratio':>7}"
    print(head)
    for r in rows:
        line = (f"{r['game']:<10}{r['players']:>8}{r['steps']:>8} {r['us']:>8.2f}"
                f" {r['lo']:>5.2f}-{r['hi']:<6.2f} {r['old_us']:>8.2f} {r['old_us'] / r['us']:>6.2f}")
        if other:
            o = other.get((r["game"], r["players"]))
            line += f" {o:>8.2f} {o / r['us']:>6.2f}" if o else f"{'-':>9}{'-':>7}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
