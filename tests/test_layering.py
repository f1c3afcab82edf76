"""The package structure: imports run one way, no package imports itself in a circle.

design.md: reports -> analysis, strategies, simcore; strategies -> simcore;
analysis alone (frames in, frames out); simcore imports none of the others.
Every import counts, at module level or inside a function: a function-local
import that closes a cycle is still a cycle.
"""
import ast
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("simcore", "strategies", "analysis", "reports")
MAY_IMPORT = {
    "simcore": set(),
    "strategies": {"simcore"},
    "analysis": set(),
    "reports": {"simcore", "strategies", "analysis"},
}


def _module_name(path):
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules():
    """{module name: path} of every Python file of the four packages."""
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            out[_module_name(path)] = path
    return out


def _imports(path, name, known):
    """(line, imported module) for every import in ``path``, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for a in node.names:               # `from pkg import module` imports the module
                sub = f"{base}.{a.name}"
                out.append((node.lineno, sub if sub in known else base))
    return out


def _graph():
    mods = _modules()
    graph = {}
    for name, path in mods.items():
        deps = set()
        for _, target in _imports(path, name, mods):
            while target and target not in mods:   # `simcore.hellas._engine` -> the nearest Python module
                target = target.rpartition(".")[0]
            if target and target != name:
                deps.add(target)
        graph[name] = deps
    return mods, graph


def test_imports_go_down_the_layers_only():
    mods = _modules()
    wrong = []
    for name, path in mods.items():
        top = name.split(".")[0]
        for line, target in _imports(path, name, mods):
            other = target.split(".")[0]
            if other in PACKAGES and other != top and other not in MAY_IMPORT[top]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not wrong, "imports that go up a layer:\n" + "\n".join(wrong)


def _cycles(graph, members):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v] & members:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(members):
        if v not in index:
            visit(v)
    return out


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_inside_a_package(package):
    _, graph = _graph()
    members = {m for m in graph if m == package or m.startswith(package + ".")}
    # a package's __init__ that re-exports its modules is not a cycle with them
    sub = {m: {d for d in graph[m] if not (d == package and m != package)} for m in members}
    cycles = _cycles(sub, members)
    assert not cycles, f"import cycles in {package}: {cycles}"


def test_the_game_names_stand_together_in_one_place():
    """The list of shipped games is written once (simcore.BUILTIN_GAMES); everything else derives it."""
    import simcore

    names = simcore.BUILTIN_GAMES
    places = []
    for path in list(_modules().values()) + [ROOT / "setup.py"]:
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if all(f'"{n}"' in line or f"'{n}'" in line for n in names):
                places.append(f"{path.relative_to(ROOT)}:{i}")
    assert places == ["simcore/__init__.py:" + str(_line_of(ROOT / "simcore/__init__.py", "BUILTIN_GAMES = ("))]


def _line_of(path, text):
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return i
    raise AssertionError(f"{text!r} not in {path}")


def test_the_checker_sees_an_upward_import(tmp_path, monkeypatch):
    """The rule above is not vacuous: a simcore module importing reports is caught."""
    bad = ROOT / "simcore" / "_layering_probe.py"
    bad.write_text("def f():\n    import reports.cli\n", encoding="utf-8")
    try:
        with pytest.raises(AssertionError, match="_layering_probe.py:2 imports reports.cli"):
            test_imports_go_down_the_layers_only()
    finally:
        os.unlink(bad)


def test_the_checker_sees_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph, set(graph)) == [["a", "b", "c"]]
