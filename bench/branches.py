"""Instructions and mispredicted branches per game of a heuristic ``play_batch``, by source line.

    PYTHONPATH=. python bench/branches.py hellas              # 3 players, balanced, totals per game
    PYTHONPATH=. python bench/branches.py hellas -p 3 --lines 30 --sort Bcm
    PYTHONPATH=. python bench/branches.py akrotiri --by function
    PYTHONPATH=. python bench/branches.py hellas --cache 32 --lines 20 --sort I1mr   # L1 misses too

Runs ``valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes`` on two
child processes that play ``n`` and ``2n`` games (seeds 0.., ``events=False``,
the same preset in every seat) and divides the difference by ``n``, so
start-up and import cancel out. Prints per game: instructions (Ir),
conditional branches (Bc) and the ones cachegrind's predictor model gets
wrong (Bcm). ``--lines K`` lists the K costliest lines of the game's Cython
sources (the ``.pyx``/``.pxi`` line each C line came from, by Cython's
markers in ``_engine.c``); ``--by function`` sums them per ``cdef``
function instead (inlined code counts where it is written).

``--cache KB`` also simulates the caches (``--cache-sim=yes``) with L1s of KB
kilobytes each (``--I1`` and ``--D1`` ``KB*1024,8,64``: 8 ways, 64-byte lines;
32 is Zen 3's L1, 16 models a busy SMT sibling taking half) and prints the L1
misses per game: instruction fetches (I1mr), data reads (D1mr) and writes
(D1mw); they can be listed and sorted by line or function like the branches.
A change of code layout alone moves I1mr by a few hundred a game.

The model predictor is simpler than a real CPU's, so the absolute Bcm is a
guide; compare builds by it. A mispredicted branch costs a modern core some
15-20 cycles, the time of a few dozen instructions.
OpenBLAS threads are switched off in the children (their spinning would
otherwise be counted).
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import simcore  # noqa: E402  (the package face only: no engine is loaded here)

GAMES = simcore.BUILTIN_GAMES
# the player counts the speed targets are stated for; a game not named here: its DEFAULT_PLAYERS
PLAYERS = {"yamatai": 4}
CHILD = """
import sys, numpy as np, simcore, strategies
game, n, p, preset = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
pol = [strategies.resolve(game, preset).as_policy()] * p
simcore.games[game].play_batch(p, np.arange(n, dtype=np.uint64), pol, events=False)
"""
CACHE_EVENTS = ("I1mr", "D1mr", "D1mw")
MARKER = re.compile(r'/\* "([^"]+)":(\d+)')


def run_cachegrind(game, n, players, preset, out, cache_kb=None):
    # a fixed hash seed and no address randomisation: the same binary then gives the same
    # counts (the model predictor's tables are indexed by address, and Python's start-up
    # work varies with the hash seed; both moved Bcm by ~10 % and Ir by ~1 % from run to run)
    # The child gets a fixed environment (PATH and the BOARDLAB_ settings only): the
    # environment's size moves the stack, and with it the cache sets of the stack data
    # (--cache: D1 misses moved by ~10 % with an extra variable)
    env = {k: v for k, v in os.environ.items() if k == "PATH" or k.startswith("BOARDLAB_")}
    # (and no .pyc written: a first run that writes them would differ from the second)
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if cache_kb:
        l1 = f"{cache_kb * 1024},8,64"
        sim = ["--cache-sim=yes", f"--I1={l1}", f"--D1={l1}", "--LL=33554432,16,64"]
    else:
        sim = ["--cache-sim=no"]
    cmd = (["setarch", "-R"] if shutil.which("setarch") else []) + [
        "valgrind", "--tool=cachegrind", *sim, "--branch-sim=yes",
        f"--cachegrind-out-file={out}", sys.executable, "-c", CHILD, game, str(n), str(players), preset]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"cachegrind run failed:\n{r.stderr[-2000:]}")


def parse(out):
    """(totals, {c line of _engine.c: Counter}) of a cachegrind output file."""
    events, cur, per, totals = None, None, collections.defaultdict(collections.Counter), collections.Counter()
    with open(out) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line[:3] in ("fl=", "fi=", "fe="):
                cur = line[3:].strip()
            elif line.startswith("summary:"):
                totals.update(dict(zip(events, map(int, line.split()[1:]))))
            elif line[:1].isdigit():
                parts = line.split()
                counts = dict(zip(events, map(int, parts[1:])))
                if cur and cur.endswith("_engine.c"):
                    per[int(parts[0])].update(counts)
    return totals, per


def source_lines(csrc):
    """C line -> (source file, line) of the Cython code it was generated from."""
    cur, mp = None, {}
    with open(csrc) as f:
        for i, line in enumerate(f, 1):
            m = MARKER.search(line)
            if m:
                cur = (m.group(1), int(m.group(2)))
            mp[i] = cur
    return mp


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=list(GAMES))
    ap.add_argument("-p", "--players", type=int, help="players (default: the game's target count)")
    ap.add_argument("-n", "--games", type=int, default=200, help="n: the runs play n and 2n games (default 200)")
    ap.add_argument("--preset", default="balanced")
    ap.add_argument("--lines", type=int, default=0, metavar="K", help="list the K costliest source lines")
    ap.add_argument("--by", choices=("line", "function"), default="line")
    ap.add_argument("--sort", choices=("Ir", "Bc", "Bcm") + CACHE_EVENTS, default="Bcm")
    ap.add_argument("--cache", type=int, metavar="KB", help="simulate the caches too, with L1s of KB kilobytes (e.g. 32, 16)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, not {args.games}")
    if args.cache is not None and (args.cache < 1 or args.cache & (args.cache - 1)):
        ap.error(f"--cache must be a power of two (KB), not {args.cache}")
    if args.sort in CACHE_EVENTS and not args.cache:
        ap.error(f"--sort {args.sort} needs --cache")
    events = ("Ir", "Bc", "Bcm") + (CACHE_EVENTS if args.cache else ())
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    players = args.players or PLAYERS.get(args.game) or simcore.games[args.game].DEFAULT_PLAYERS
    with tempfile.TemporaryDirectory() as tmp:
        outs = []
        for n in (args.games, 2 * args.games):
            outs.append(os.path.join(tmp, f"cg.{n}"))
            run_cachegrind(args.game, n, players, args.preset, outs[-1], args.cache)
        (t1, p1), (t2, p2) = parse(outs[0]), parse(outs[1])
    n = args.games
    per_game = {e: (t2[e] - t1[e]) / n for e in events}
    print(f"{args.game} {players}p {args.preset}: per game Ir {per_game['Ir']:,.0f}  Bc {per_game['Bc']:,.0f}  "
          f"Bcm {per_game['Bcm']:,.0f} ({100 * per_game['Bcm'] / max(per_game['Bc'], 1):.1f}% of Bc)  "
          f"[difference of {2 * n} and {n} games, cachegrind]")
    if args.cache:
        print(f"  L1 misses per game with {args.cache} KB L1s (8-way, 64 B lines): I1 {per_game['I1mr']:,.0f}  "
              f"D1 {per_game['D1mr'] + per_game['D1mw']:,.0f} (reads {per_game['D1mr']:,.0f}, "
              f"writes {per_game['D1mw']:,.0f})")
    if not args.lines:
        return
    csrc = ROOT / "simcore" / args.game / "_engine.c"
    mp = source_lines(csrc)
    agg = collections.defaultdict(collections.Counter)
    for ln in set(p1) | set(p2):
        for e in events:
            agg[mp.get(ln)][e] += (p2[ln][e] - p1[ln][e]) / n
    texts = {}

    def text(fn, ln):
        if fn not in texts:
            path = ROOT / fn if (ROOT / fn).exists() else ROOT / "simcore" / args.game / Path(fn).name
            texts[fn] = path.read_text().split("\n") if path.exists() else []
        t = texts[fn]
        return t[ln - 1] if 0 < ln <= len(t) else ""

    if args.by == "function":
        fagg = collections.defaultdict(collections.Counter)
        for k, c in agg.items():
            name = "?"
            if k:
                fn, ln = k
                for i in range(ln, 0, -1):
                    s = text(fn, i)
                    if s.startswith("cdef ") and "(" in s:
                        name = f"{Path(fn).name}:{s.split('(')[0].split()[-1]}"
                        break
            fagg[name].update(c)
        rows = [(name, c) for name, c in fagg.items()]
    else:
        rows = [(f"{Path(k[0]).name}:{k[1]}  {text(*k).strip()[:70]}" if k else "?", c) for k, c in agg.items()]
    rows.sort(key=lambda r: -r[1][args.sort])
    extra = CACHE_EVENTS if args.cache else ()
    print(f"{'Ir':>8} {'Bc':>7} {'Bcm':>6}" + "".join(f" {e:>6}" for e in extra)
          + f"  {'function' if args.by == 'function' else 'source line'}")
    for name, c in rows[:args.lines]:
        print(f"{c['Ir']:8,.0f} {c['Bc']:7,.0f} {c['Bcm']:6,.0f}" + "".join(f" {c[e]:6,.0f}" for e in extra)
              + f"  {name}")


if __name__ == "__main__":
    main()
