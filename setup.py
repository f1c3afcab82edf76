"""Build the Cython extensions.

Set BOARDLAB_DEBUG=1 at build time for bounds checks and invariant asserts
(used by the fuzz and debug runs); the default build is the fast one.
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
# no fused multiply-add: the heuristics' float scores (and so results) stay identical across CPUs
cflags = ["-O0", "-g", "-ffp-contract=off"] if DEBUG else ["-O3", "-ffp-contract=off"]
if platform.machine() in ("x86_64", "AMD64"):
    cflags.append("-mpopcnt")   # hardware popcount for the board masks (every x86-64 since 2008)

extensions = [
    Extension(
        "simcore.hellas._engine",
        ["simcore/hellas/_engine.pyx"],
        include_dirs=[numpy.get_include(), "simcore"],
        define_macros=macros,
        extra_compile_args=cflags,
    ),
    Extension(
        "simcore.yamatai._engine",
        ["simcore/yamatai/_engine.pyx"],
        include_dirs=[numpy.get_include(), "simcore"],
        define_macros=macros,
        extra_compile_args=cflags,
    ),
    Extension(
        "simcore.akrotiri._engine",
        ["simcore/akrotiri/_engine.pyx"],
        include_dirs=[numpy.get_include(), "simcore"],
        define_macros=macros,
        extra_compile_args=cflags,
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            annotate=os.environ.get("BOARDLAB_ANNOTATE") == "1"))
