"""The heuristic throughput targets of the issues, on one core: CPU time of `play_batch` with `balanced` everywhere.

    PYTHONPATH=. python bench/targets.py              # Hellas 3p, Yamatai 4p, Akrotiri 2p
    PYTHONPATH=. python bench/targets.py akrotiri -r 10
    PYTHONPATH=. python bench/targets.py hellas --against /tmp/base   # ratio to another checkout's build
    PYTHONPATH=. python bench/targets.py hellas --against-isa baseline   # x86-64-v3 build vs baseline

Each game: one warm-up batch, then ``-r`` batches (default 5) of fresh seeds
(20,000 games for Hellas, 5,000 for the others), timed with the calling
thread's CPU clock (``time.thread_time``), so other processes on the machine
do not count; a shared core still slows it through caches. Prints the median,
min and max µs/game, the games per CPU second of each, and whether every batch
met the target. Compare builds by instruction counts (`boardlab bench
--instructions`); this is the figure the targets are stated in.

The machine's speed drifts (a shared VM: the same build measures 44 or 78
µs/game a few minutes apart), so ``--against DIR`` also times the build in
another checkout (e.g. a ``git worktree`` of the commit before a change, built
in place) in fresh processes, alternating with this one batch by batch, and
prints the ratio of each pair: the figure that survives the drift.
``--against-isa baseline`` does the same between this checkout's two engine
builds (simcore/_isa.py). Each line names the build it timed.
"""
import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

# the games with a stated speed target (issue 3): players, games a batch, games per CPU second
TARGETS = {
    "hellas": (3, 20_000, 20_000),
    "yamatai": (4, 5_000, 5_000),
    "akrotiri": (2, 5_000, 5_000),
}


def measure(game, repeats=5):
    players, games, target = TARGETS[game]
    return players, target, sorted(one_batch(game, r) for r in range(repeats))


def timed_batch(root, game, r, isa=None):
    """CPU µs/game of one batch (seeds of repeat r) in a fresh process importing the build in root
    (with BOARDLAB_ISA=isa when given)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import targets; "
            "print(targets.one_batch(sys.argv[2], int(sys.argv[3])))")
    env = dict(os.environ, PYTHONPATH=str(root), OPENBLAS_NUM_THREADS="1")
    if isa:
        env["BOARDLAB_ISA"] = isa
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).resolve().parent), game, str(r)],
                         env=env, cwd=str(root), capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"timing the build in {root} failed: {out.stderr.strip().splitlines()[-1:]}")
    return float(out.stdout.split()[-1])


def one_batch(game, r):
    """A warm-up, then one timed batch of repeat r's seeds (as measure() plays them); CPU µs/game."""
    import simcore
    import strategies

    players, games, _ = TARGETS[game]
    mod = simcore.games[game]
    pols = [strategies.resolve(game, "balanced").as_policy()] * players
    seeds = np.arange(games, dtype=np.uint64)
    mod.play_batch(players, seeds[:200], pols, events=False)
    t = time.thread_time()
    mod.play_batch(players, seeds + np.uint64((r + 1) * games), pols, events=False)
    return (time.thread_time() - t) / games * 1e6


def against(game, other, repeats, isa=None):
    """(this build's µs, the other's µs, ratios other/this), batch by batch in alternating processes;
    the other is checkout `other`, or this one's engine build `isa` (simcore/_isa.py)."""
    here = Path(__file__).resolve().parent.parent
    mine, theirs = [], []
    for r in range(repeats):
        mine.append(timed_batch(here, game, r))
        theirs.append(timed_batch(other or here, game, r, isa))
    return mine, theirs, sorted(b / a for a, b in zip(mine, theirs))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help=f"games (default: {', '.join(TARGETS)})")
    ap.add_argument("-r", "--repeats", type=int, default=5, help="timed batches per game (default 5)")
    ap.add_argument("--against", metavar="DIR", help="also time the build in checkout DIR, alternating, and print the ratios")
    ap.add_argument("--against-isa", metavar="BUILD", choices=("baseline", "x86-64-v3"),
                    help="the same, against this checkout's engine build BUILD (BOARDLAB_ISA)")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error(f"--repeats must be at least 1, not {args.repeats}")
    if args.against and not (Path(args.against) / "simcore").is_dir():
        ap.error(f"--against {args.against}: not a boardlab checkout (no simcore/ folder)")
    for g in args.games:
        if g not in TARGETS:
            ap.error(f"unknown game '{g}' (known: {', '.join(TARGETS)})")
    with open("/proc/loadavg") as f:
        print(f"load average {' '.join(f.read().split()[:3])}")
    import simcore._isa
    for g in args.games or list(TARGETS):
        players, target, us = measure(g, args.repeats)
        build = simcore._isa.selected().get(g, "?")
        rates = [1e6 / u for u in us]
        met = "met in every batch" if min(rates) >= target else \
            ("met on the median" if 1e6 / us[len(us) // 2] >= target else "not met")
        print(f"{g} {players}p balanced ({build} build): CPU µs/game median {us[len(us) // 2]:.1f} [{us[0]:.1f}-{us[-1]:.1f}] "
              f"-> {min(rates):,.0f}-{max(rates):,.0f} games/CPU s; target {target:,}/s: {met}", flush=True)
        if args.against or args.against_isa:
            mine, theirs, ratios = against(g, args.against, args.repeats, args.against_isa)
            other = args.against or f"the {args.against_isa} build"
            print(f"  alternating with {other}, {args.repeats} pairs of batches: this build "
                  f"{sorted(mine)[len(mine) // 2]:.1f} µs/game, that one {sorted(theirs)[len(theirs) // 2]:.1f}; "
                  f"that/this per pair median {ratios[len(ratios) // 2]:.2f}x [{ratios[0]:.2f}-{ratios[-1]:.2f}]",
                  flush=True)


if __name__ == "__main__":
    sys.exit(main())
