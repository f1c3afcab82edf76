"""In-process A/B of two builds of a game's engine: paired batches, ratio old/new.

    PYTHONPATH=. python bench/ab.py hellas /tmp/base .               # two checkouts, 200 pairs of 500 games
    PYTHONPATH=. python bench/ab.py hellas /tmp/base . --pairs 300
    PYTHONPATH=. python bench/ab.py yamatai old/_engine.so new/_engine.so -n 200
    BOARDLAB_ISA=baseline PYTHONPATH=. python bench/ab.py hellas /tmp/base .   # the baseline builds

OLD and NEW are each an engine ``.so`` file or a checkout whose engine is
built in place; in a checkout the build is chosen as simcore/_isa.py chooses
it (the x86-64-v3 build ``simcore/<game>/_v3/_engine*.so`` where this CPU runs
it and ``BOARDLAB_ISA`` does not say ``baseline``, else
``simcore/<game>/_engine*.so``). Both are copied to a temporary folder and
loaded into this one process under distinct module names, so they run side by
side with the same Python code (this checkout's ``simcore`` and
``strategies``: the builds' own Python files are not used, so compare builds
whose ``play_batch`` takes the same arguments).

First both play one batch (also the warm-up); their arrays must be identical
(a speed-up must not change the games), else the tool stops. Then, for each of
``--pairs`` pairs, both play the same fixed seeds (``-n`` games, default 500,
the ``--preset`` in every seat, the game's default player count, ``events=False``),
in alternating order, each batch timed with the thread's CPU clock
(``time.thread_time``). Printed: each build's median µs/game, the median of the
per-pair ratios old/new with its interquartile range (above 1: the new build
is faster), and the median ratio of the fast half and of the slow half of the
pairs (split by the old build's time).

How to read it: this machine's speed drifts by 1.3-1.6x within minutes (a
shared core, not the clock), far more than the changes measured, but both
batches of a pair run within a few tens of milliseconds of each other, so
their ratio survives the drift. Two identical builds give a median of
0.98-1.01 (IQR about +-3-5 % with 200 pairs of 500 Hellas games): trust a
median outside that, and more pairs for a smaller step. The slow half is the
machine in its contended phases (a busy sibling sharing L1/L2): a smaller
code or data footprint shows there first. The copies run at other addresses
than a normal import would, which moves code alignment no more than a rebuild.
"""
import argparse
import glob
import importlib.machinery
import importlib.util
import inspect
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # before numpy: no BLAS threads spinning beside the timing
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from simcore import BUILTIN_GAMES as GAMES  # noqa: E402  (the package face only: no engine is loaded)


class ABError(Exception):
    """A one-line reason the comparison cannot run."""


def want_v3():
    """Whether a checkout's x86-64-v3 build is the one to take (as simcore/_isa.py decides)."""
    from simcore import _isa
    try:
        want = _isa.requested()
    except ValueError as exc:
        raise ABError(str(exc)) from None
    if want == "baseline":
        return False
    if not _isa.cpu_has_v3():
        if want == "x86-64-v3":
            raise ABError("BOARDLAB_ISA=x86-64-v3 but this CPU does not run x86-64-v3 code")
        return False
    return True


def engine_path(spec, game, v3):
    """The engine .so named by spec: the file itself, or the chosen build in checkout spec."""
    p = Path(spec)
    if p.is_file():
        if not p.name.startswith("_engine") or not p.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            raise ABError(f"{spec}: not an engine extension module (_engine*.so)")
        p = p.resolve()
        folder = p.parent.parent if p.parent.name == "_v3" else p.parent
        if folder.name in GAMES and folder.name != game:
            raise ABError(f"{spec}: the {folder.name} engine, not the {game} one")
        return p
    if not p.is_dir():
        raise ABError(f"{spec}: no such file or folder")
    if not (p / "simcore").is_dir():
        raise ABError(f"{spec}: not a boardlab checkout (no simcore/ folder) nor an engine .so")
    folders = [p / "simcore" / game / "_v3", p / "simcore" / game] if v3 else [p / "simcore" / game]
    for folder in folders:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            found = sorted(glob.glob(str(folder / ("_engine" + suffix))))
            if found:
                return Path(found[0]).resolve()
    raise ABError(f"{spec}: no built {game} engine in {folders[0]} (build it in place: python setup.py build_ext --inplace)")


def load(path, tag, tmp):
    """Load a copy of engine `path` as module `boardlab_ab_<tag>._engine` (its init is PyInit__engine)."""
    copy = Path(tmp) / tag / path.name
    copy.parent.mkdir()
    shutil.copyfile(path, copy)     # a second path: the same file loaded twice gets its own copy
    name = f"boardlab_ab_{tag}._engine"
    spec = importlib.util.spec_from_file_location(name, copy)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError as exc:
        raise ABError(f"{path}: cannot be loaded ({exc})") from None
    if not hasattr(module, "play_batch"):
        raise ABError(f"{path}: has no play_batch")
    return module


def difference(a, b):
    """The first table/column where two play_batch results differ, or None."""
    for part in sorted(set(a) | set(b)):
        if part not in a or part not in b:
            return part
        for key in sorted(set(a[part]) | set(b[part])):
            x, y = a[part].get(key), b[part].get(key)
            if x is None or y is None:
                return f"{part}/{key}"
            x, y = np.asarray(x), np.asarray(y)
            if x.dtype != y.dtype or x.shape != y.shape or x.tobytes() != y.tobytes():
                return f"{part}/{key}"
    return None


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def median(xs):
    xs = sorted(xs)
    k = len(xs)
    return xs[k // 2] if k % 2 else 0.5 * (xs[k // 2 - 1] + xs[k // 2])


def run(game, old, new, games=500, pairs=200, preset="balanced", players=None, out=print):
    """Compare the engine builds `old` and `new` (paths or checkouts); returns the ratios old/new per pair."""
    if game not in GAMES:
        raise ABError(f"unknown game '{game}' (known: {', '.join(GAMES)})")
    v3 = want_v3()
    paths = engine_path(old, game, v3), engine_path(new, game, v3)
    import simcore
    import strategies
    simcore.games[game]     # the game's package first: an engine's init imports it (and would
                            # otherwise find itself, half made, under the package's engine name)
    try:
        pol = strategies.resolve(game, preset).as_policy()
    except (KeyError, ValueError) as exc:
        raise ABError(f"preset {preset!r} of {game}: {exc}") from None
    if players is None:
        players = inspect.signature(simcore.games[game].new_game).parameters["players"].default
    pols = [pol] * players
    with tempfile.TemporaryDirectory(prefix="boardlab_ab_") as tmp:
        mods = load(paths[0], "old", tmp), load(paths[1], "new", tmp)
        first = np.arange(games, dtype=np.uint64)
        res = [m.play_batch(players, first, pols, events=False) for m in mods]
        diff = difference(*res)
        if diff is not None:
            raise ABError(f"the two builds play different games (first batch of {games}: {diff} differs); "
                          f"a speed-up must leave the games as they were")
        t_old, t_new = [], []
        for r in range(pairs):
            seeds = first + np.uint64((r + 1) * games)
            order = (0, 1) if r % 2 == 0 else (1, 0)
            t = [0.0, 0.0]
            for i in order:
                t0 = time.thread_time()
                mods[i].play_batch(players, seeds, pols, events=False)
                t[i] = (time.thread_time() - t0) / games * 1e6
            t_old.append(t[0])
            t_new.append(t[1])
    ratios = [a / b for a, b in zip(t_old, t_new)]
    by_old = sorted(range(pairs), key=t_old.__getitem__)
    fast, slow = by_old[:pairs // 2], by_old[pairs // 2:]
    build = ["x86-64-v3" if p.parent.name == "_v3" else "baseline" for p in paths]
    out(f"{game} {players}p {preset}, {pairs} pairs of {games}-game batches (thread CPU time); "
        f"same games on the first batch")
    out(f"  old ({build[0]} build) {paths[0]}: median {median(t_old):.2f} µs/game [min {min(t_old):.2f}]")
    out(f"  new ({build[1]} build) {paths[1]}: median {median(t_new):.2f} µs/game [min {min(t_new):.2f}]")
    out(f"  old/new per pair: median {median(ratios):.3f} IQR [{quantile(ratios, 0.25):.3f}-{quantile(ratios, 0.75):.3f}] "
        f"(above 1: new is faster)")
    if pairs >= 2:
        out(f"  fast half (old < {t_old[by_old[pairs // 2]]:.1f} µs): {median([ratios[i] for i in fast]):.3f}; "
            f"slow half: {median([ratios[i] for i in slow]):.3f}")
    return ratios


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help=f"the game ({', '.join(GAMES)})")
    ap.add_argument("old", help="the old build: an engine .so file or a checkout built in place")
    ap.add_argument("new", help="the new build: the same")
    ap.add_argument("-n", "--games", type=int, default=500, help="games per batch (default 500)")
    ap.add_argument("--pairs", type=int, default=200, help="pairs of batches (default 200)")
    ap.add_argument("-p", "--players", type=int, help="players (default: the game's default count)")
    ap.add_argument("--preset", default="balanced", help="the preset in every seat (default balanced)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.pairs < 1:
        ap.error("-n and --pairs must be at least 1")
    try:
        run(args.game, args.old, args.new, args.games, args.pairs, args.preset, args.players)
    except ABError as exc:
        raise SystemExit(f"ab.py: {exc}") from None


if __name__ == "__main__":
    main()
