"""A bench script (``bench/<name>.py``) loaded as a module, for the tests of its pieces."""
import importlib.util
from pathlib import Path


def load_bench(name):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).parents[1] / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
