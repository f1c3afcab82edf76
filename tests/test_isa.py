"""The engines' two builds (simcore/_isa.py): which one loads, and that both play the same games."""
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

import simcore
from simcore import _isa

ROOT = Path(__file__).resolve().parent.parent
X86 = platform.machine() in ("x86_64", "AMD64")


def test_unknown_build_is_refused(monkeypatch):
    monkeypatch.setenv("BOARDLAB_ISA", "avx9000")
    with pytest.raises(ValueError, match="BOARDLAB_ISA='avx9000' is not a known engine build"):
        _isa.requested()


def test_required_build_missing_is_refused(monkeypatch):
    # no engine of that name was built: asking for its x86-64-v3 build names the problem
    monkeypatch.setenv("BOARDLAB_ISA", "x86-64-v3")
    with pytest.raises(ValueError, match="x86-64-v3 build of the nogame engine was not built"):
        _isa.load_engine("nogame")


@pytest.mark.parametrize("game", simcore.BUILTIN_GAMES)
def test_the_fast_build_is_built_and_taken_where_the_cpu_runs_it(game):
    mod = simcore.games[game]
    engine = sys.modules[f"simcore.{game}._engine"]
    if os.environ.get("BOARDLAB_ISA") == "baseline" or not (X86 and _isa.cpu_has_v3()):
        assert _isa.selected()[game] == "baseline"
        assert Path(engine.__file__).parent.name == game
    else:
        # setup.py builds it on x86-64 (unless BOARDLAB_NO_V3=1), and this CPU runs it
        assert _isa.selected()[game] == "x86-64-v3"
        assert Path(engine.__file__).parent.name == "_v3"
    assert mod.State.__module__ == f"simcore.{game}._engine"


def digest(game, n, isa):
    env = dict(os.environ, BOARDLAB_ISA=isa, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "digest.py"), game, "-n", str(n)],
                         env=env, capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    return out.stdout.split()[-1]


@pytest.mark.parametrize("game", simcore.BUILTIN_GAMES)
def test_both_builds_play_the_same_games(game):
    # events included, every seat line-up of the digest (random, heuristics, noise); on a CPU
    # without x86-64-v3 both runs take the baseline build (the test above checks which one loads)
    auto, base = digest(game, 120, "auto"), digest(game, 120, "baseline")
    assert len(auto) == 64
    assert auto == base


def test_a_source_tree_without_compiled_engines_says_what_to_do(tmp_path):
    # python started in a clone's root after `pip install .`: the uncompiled source tree shadows
    # the installed package; the import names the cause and the two ways out in one line
    import shutil
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(_isa.__file__)))
    shutil.copytree(os.path.join(root, "simcore"), tmp_path / "simcore",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    (tmp_path / "setup.py").write_text("")
    r = subprocess.run([sys.executable, "-c", "from simcore import hellas"], cwd=tmp_path,
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""})
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: boardlab: the hellas engine is not compiled in the source tree")
    assert "run Python from another folder" in last and "build_ext --inplace" in last
