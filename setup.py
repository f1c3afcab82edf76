"""Build the Cython extensions.

Set BOARDLAB_DEBUG=1 at build time for bounds checks and invariant asserts
(used by the fuzz and debug runs); the default build is the fast one.
BOARDLAB_GAMES=hellas,yamatai limits an in-place rebuild to those games'
extensions (a full build compiles all three, minutes on 2 cores).
BOARDLAB_SCALAR=1 builds the plain-C fallbacks of the SSE2 code, as a CPU
without SSE2 would run them (to check they play the same games).
"""
import os
import platform

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

GAMES = ("hellas", "yamatai", "akrotiri")
wanted = [g.strip() for g in os.environ.get("BOARDLAB_GAMES", ",".join(GAMES)).split(",") if g.strip()]
unknown = sorted(set(wanted) - set(GAMES))
if unknown:
    raise SystemExit(f"BOARDLAB_GAMES: unknown game {', '.join(unknown)} (known: {', '.join(GAMES)})")

extensions = [
    Extension(
        f"simcore.{game}._engine",
        [f"simcore/{game}/_engine.pyx"],
        include_dirs=[numpy.get_include(), "simcore"],
        define_macros=macros,
        extra_compile_args=cflags,
    )
    for game in GAMES if game in wanted
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            annotate=os.environ.get("BOARDLAB_ANNOTATE") == "1"))
