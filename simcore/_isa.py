"""Which build of a game's engine this process runs.

On x86-64, setup.py compiles every engine twice from the same C source: the
baseline (``simcore/<game>/_engine``, any x86-64 with popcount) and one for
x86-64-v3 CPUs (``simcore/<game>/_v3/_engine``: AVX2, BMI1/2, LZCNT; Haswell,
2013, and later), about 2-6 % fewer instructions a game. Both are built
without fused multiply-add (``-ffp-contract=off``) and keep every floating
point operation in order, so they play bit-identical games; the tests check
it (tests/test_isa.py).

``load_engine(game)`` runs before the game's package imports ``_engine``: it
puts the x86-64-v3 build in ``sys.modules`` under the baseline's name when
this CPU can run it, so every import of ``simcore.<game>._engine`` (pickles
included) gets the same module. Set ``BOARDLAB_ISA=baseline`` to run the
baseline build anyway, ``BOARDLAB_ISA=x86-64-v3`` to require the other.
"""
import importlib.machinery
import importlib.util
import os
import sys

CHOICES = ("auto", "baseline", "x86-64-v3")
_selected = {}


def requested():
    """The value of BOARDLAB_ISA (default ``auto``); ``ValueError`` for an unknown one."""
    value = os.environ.get("BOARDLAB_ISA", "auto").strip() or "auto"
    if value not in CHOICES:
        raise ValueError(f"BOARDLAB_ISA={value!r} is not a known engine build (known: {', '.join(CHOICES)})")
    return value


def cpu_has_v3():
    """Whether this CPU (and OS) runs x86-64-v3 code; False off x86-64 or without the probe."""
    try:
        from simcore._cpu import x86_64_v3
    except ImportError:
        return False
    return bool(x86_64_v3())


def _v3_path(game):
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), game, "_v3")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(here, "_engine" + suffix)
        if os.path.exists(path):
            return path
    return None


def _built(folder, stem="_engine"):
    return any(os.path.exists(os.path.join(folder, stem + suffix))
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def check_built(game):
    """``ImportError`` in one line when ``simcore/<game>/`` holds no compiled engine.

    The usual cause: Python runs in a clone's root after ``pip install .``, so the source
    tree (no compiled files) shadows the installed package."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), game)
    if _built(here):
        return
    root = os.path.dirname(os.path.dirname(here))
    if os.path.exists(os.path.join(root, "setup.py")):
        raise ImportError(f"boardlab: the {game} engine is not compiled in the source tree {root}, which "
                          f"hides the installed boardlab: run Python from another folder, or build in "
                          f"place with `python setup.py build_ext --inplace`")
    raise ImportError(f"boardlab: the {game} engine is not compiled in {here}: reinstall boardlab "
                      f"(`pip install .` in its checkout)")


def load_engine(game):
    """Choose the build of ``simcore.<game>._engine`` (once per process); returns its name."""
    name = f"simcore.{game}._engine"
    if name in sys.modules:
        return _selected.setdefault(game, "baseline")
    want = requested()
    path = _v3_path(game) if want != "baseline" else None
    runs = path is not None and cpu_has_v3()
    if want == "x86-64-v3" and not runs:
        why = "was not built" if path is None else "needs a CPU with AVX2 and BMI2"
        raise ValueError(f"BOARDLAB_ISA=x86-64-v3: the x86-64-v3 build of the {game} engine {why}; "
                         f"unset BOARDLAB_ISA to take the baseline build")
    check_built(game)       # a source tree without compiled files: say so in one line
    if runs:
        # the same module name as the baseline's: its init function (PyInit__engine) and its
        # types' qualified names are the baseline's too (one C source)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except ImportError:
            del sys.modules[name]
            if want == "x86-64-v3":
                raise
        else:
            _selected[game] = "x86-64-v3"
            return _selected[game]
    _selected[game] = "baseline"
    return _selected[game]


def selected():
    """{game: build} of the engines this process has loaded."""
    return dict(_selected)
