"""Build the Cython extensions.

Set BOARDLAB_DEBUG=1 at build time for bounds checks and invariant asserts
(used by the fuzz and debug runs); the default build is the fast one.
BOARDLAB_BUILD=hellas,yamatai limits an in-place rebuild to those games'
extensions (a full build compiles all three, minutes on 2 cores).
BOARDLAB_SCALAR=1 builds the plain-C fallbacks of the SSE2 code, as a CPU
without SSE2 would run them (to check they play the same games).

On x86-64 each engine is also compiled for x86-64-v3 CPUs (AVX2, BMI2;
``simcore/<game>/_v3/``), from the same C file; simcore/_isa.py loads that
build where the CPU runs it (the games are bit-identical). Set
BOARDLAB_NO_V3=1 at build time to skip it (halves the compile time).
"""
import os
import platform
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("BOARDLAB_DEBUG") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": DEBUG,
}
macros = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]
if DEBUG:
    macros.append(("BOARDLAB_DEBUG", "1"))
if os.environ.get("BOARDLAB_SCALAR") == "1":
    macros.append(("BOARDLAB_SCALAR", "1"))     # the plain-C paths of the SSE2 code (what other CPUs run)
# no fused multiply-add: the heuristics' float scores (and so results) stay identical across CPUs
cflags = ["-O0", "-g", "-ffp-contract=off"] if DEBUG else ["-O3", "-ffp-contract=off"]
if platform.machine() in ("x86_64", "AMD64"):
    cflags.append("-mpopcnt")   # hardware popcount for the board masks (every x86-64 since 2008)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from simcore import BUILTIN_GAMES as GAMES  # noqa: E402  (pure Python: the list of shipped games)

# per-engine flags, measured on that engine (bench/README.md): Hellas' hot code (~37 KB run
# every game) and its three seats' memos are about the size of a 32 KB L1; GCC's vectoriser
# and its loops turned into memcpy/memset calls add code (and, in the x86-64-v3 build,
# instructions) for loops of a few iterations. Off: 1.04-1.05x faster (x86-64-v3 build),
# the baseline build unchanged; the same games (only the code changes, no float operation)
GAME_CFLAGS = {"hellas": ["-fno-tree-vectorize", "-fno-tree-loop-distribute-patterns"]}
wanted = [g.strip() for g in os.environ.get("BOARDLAB_BUILD", ",".join(GAMES)).split(",") if g.strip()]
unknown = sorted(set(wanted) - set(GAMES))
if unknown:
    raise SystemExit(f"BOARDLAB_BUILD: unknown game {', '.join(unknown)} (known: {', '.join(GAMES)})")



def write_build_info():
    """simcore/_build_info.py (not committed): the commit this build was made from, so that an
    install from a checkout (``pip install .``) still names it in every run's provenance."""
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    commit, dirty = None, None
    try:
        r = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        if r.returncode == 0:
            commit = r.stdout.strip()
            d = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
            dirty = bool(d.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    text = ('"""Written by setup.py at build time (not committed): the commit boardlab was built from."""\n'
            f"COMMIT = {commit!r}\nDIRTY = {dirty!r}\n")
    path = os.path.join(here, "simcore", "_build_info.py")
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)


write_build_info()

extensions = [
    Extension(
        f"simcore.{game}._engine",
        [f"simcore/{game}/_engine.pyx"],
        include_dirs=[numpy.get_include(), "simcore"],
        define_macros=macros,
        extra_compile_args=cflags + GAME_CFLAGS.get(game, []),
    )
    for game in GAMES if game in wanted
]
# the CPU probe simcore/_isa.py asks (tiny, no numpy)
extensions.append(Extension("simcore._cpu", ["simcore/_cpu.pyx"]))
# search written once over the games' C-level contract (simcore/_game_ops.pxd)
extensions.append(Extension("simcore._search", ["simcore/_search.pyx"],
                            include_dirs=[numpy.get_include(), "simcore"], define_macros=macros,
                            extra_compile_args=cflags))
# information-set MCTS over the same contract
extensions.append(Extension("simcore._mcts", ["simcore/_mcts.pyx"],
                            include_dirs=[numpy.get_include(), "simcore"], define_macros=macros,
                            extra_compile_args=cflags))
# learned models evaluated over the games' feature hooks (simcore/_model.pxd)
extensions.append(Extension("simcore._model", ["simcore/_model.pyx"],
                            include_dirs=[numpy.get_include(), "simcore"], define_macros=macros,
                            extra_compile_args=cflags))
extensions = cythonize(extensions, compiler_directives=directives,
                       annotate=os.environ.get("BOARDLAB_ANNOTATE") == "1")


def v3_extension(game):
    """The x86-64-v3 build of a game's engine: the baseline's C file (Cython's output above)
    included by a one-line wrapper under build/, so that it gets its own object file. Its
    module name ends in _engine like the baseline's (PyInit__engine); simcore/_isa.py loads
    it under the baseline's name. optional: a compiler without -march=x86-64-v3 (gcc < 11)
    skips it and the baseline build serves."""
    here = os.path.dirname(os.path.abspath(__file__))
    wrapper = os.path.join("build", "isa", game, "_engine_v3.c")
    text = f'#include "{os.path.join(here, "simcore", game, "_engine.c")}"\n'
    os.makedirs(os.path.dirname(wrapper), exist_ok=True)
    os.makedirs(os.path.join("simcore", game, "_v3"), exist_ok=True)   # (an in-place build copies there)
    if not os.path.exists(wrapper) or open(wrapper).read() != text:
        with open(wrapper, "w") as f:      # rewritten only when it changes (its age drives rebuilds)
            f.write(text)
    return Extension(
        f"simcore.{game}._v3._engine",
        [wrapper],
        depends=[f"simcore/{game}/_engine.c"],
        include_dirs=[numpy.get_include(), "simcore", f"simcore/{game}"],
        define_macros=macros,
        extra_compile_args=cflags + GAME_CFLAGS.get(game, []) + ["-march=x86-64-v3"],
        optional=True,
    )


if (platform.machine() in ("x86_64", "AMD64") and not DEBUG
        and os.environ.get("BOARDLAB_NO_V3") != "1"):
    extensions += [v3_extension(game) for game in GAMES if game in wanted]

setup(ext_modules=extensions)
