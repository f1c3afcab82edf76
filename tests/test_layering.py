"""The package structure: imports run one way, no package imports itself in a circle.

design.md: reports -> analysis, strategies, simcore; strategies -> simcore;
analysis alone (frames in, frames out); simcore imports none of the others.
Every import counts, at module level or inside a function: a function-local
import that closes a cycle is still a cycle. So does an import by name,
``import_module("pkg.mod")`` or ``__import__("pkg.mod")``: with a literal name it
is an import of that module; with an f-string (``import_module(f"reports.games.{game}")``,
``f"{__name__}.{game}"``) or a literal plus a name (``"reports.experiments." + kind``) it is an
import of every module whose name starts with its literal prefix.
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


def _by_name(node, name):
    """The module name (or ``prefix*``) a call ``import_module(...)`` / ``__import__(...)`` loads,
    else None: a string literal, or an f-string's literal prefix (``{__name__}`` counts as
    ``name``) or a literal ``"prefix" + ...`` followed by ``*``. A name computed otherwise is not read."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if called not in ("import_module", "__import__") or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if (isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add) and isinstance(arg.left, ast.Constant)
            and isinstance(arg.left.value, str)):          # "reports.experiments." + kind: a prefix too
        return arg.left.value + "*"
    if isinstance(arg, ast.JoinedStr):
        prefix = ""
        for part in arg.values:
            if isinstance(part, ast.Constant):
                prefix += str(part.value)
            elif isinstance(part.value, ast.Name) and part.value.id == "__name__" and not prefix:
                prefix += name
            else:
                return prefix + "*" if prefix else None
        return prefix
    return None


def _imports(path, name, known, by_name=True):
    """(line, imported module) for every import in ``path``, relative imports resolved; an import by
    name of ``prefix*`` (an f-string) imports every known module under that prefix (left out with
    ``by_name=False``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and by_name:
            target = _by_name(node, name)
            if target and target.endswith("*"):
                out += [(node.lineno, m) for m in sorted(known) if m.startswith(target[:-1]) and m != name]
            elif target:
                out.append((node.lineno, target))
        elif isinstance(node, ast.Import):
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


def _graph(by_name=True):
    mods = _modules()
    graph = {}
    for name, path in mods.items():
        deps = set()
        for _, target in _imports(path, name, mods, by_name):
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


def _faces(mods):
    """The packages whose ``__init__`` only hands names on (defines no function or class)."""
    out = set()
    for name, path in mods.items():
        if path.name == "__init__.py":
            tree = ast.parse(path.read_text(encoding="utf-8"))
            if not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for n in tree.body):
                out.add(name)
    return out


def _depth(graph, members, faces=frozenset()):
    """The longest chain of imports among ``members`` (modules counted), and one such chain. A module's
    import of its own package is left out only when that package's ``__init__`` is a face (``faces``:
    it defines nothing); an ``__init__`` that holds code is a link of the chain like any module."""
    memo = {}

    def longest(v, seen):
        if v in memo:
            return memo[v]
        best = [v]
        for w in sorted(graph[v] & members):
            if w in seen or (w in faces and v.startswith(w + ".")):
                continue
            chain = [v] + longest(w, seen | {v})
            if len(chain) > len(best):
                best = chain
        memo[v] = best
        return best
    return max((longest(v, frozenset()) for v in sorted(members)), key=len)


#: issue 31: the application layer is at most this many modules deep, counting every import, those by
#: name too (reports.cli -> a command, a command -> a kind, an experiment -> a game's plug-in are links
#: of the chain like any other import): cli -> command -> experiment -> plug-in or section builder ->
#: render leaf. The study runner (reports.study) gets the kinds as data from the command that loads
#: them; a plug-in returns requests that reports.components builds (bench/README.md, "Import depth of
#: reports/").
MAX_REPORTS_DEPTH = 5


def _reports_chain():
    mods, graph = _graph()
    members = {m for m in graph if m.startswith("reports.")}
    return _depth(graph, members, _faces(mods))


def test_reports_imports_stay_shallow():
    chain = _reports_chain()
    assert len(chain) <= MAX_REPORTS_DEPTH, \
        f"reports/ imports {len(chain)} deep (at most {MAX_REPORTS_DEPTH}): {' -> '.join(chain)}"


def test_the_depth_counts_imports_by_name():
    """A chain that runs through import_module is as long as its modules: probes that chain one
    module more than the limit, half of them by name, fail the depth test, which names the chain."""
    n = MAX_REPORTS_DEPTH + 1
    paths = [ROOT / "reports" / f"_depth_probe_{i}.py" for i in range(n)]
    try:
        for i, path in enumerate(paths[:-1]):
            nxt = f"reports._depth_probe_{i + 1}"
            path.write_text(f"def f():\n    return __import__({nxt!r})\n" if i % 2 else
                            f"def f():\n    import {nxt}\n", encoding="utf-8")
        paths[-1].write_text("X = 1\n", encoding="utf-8")
        with pytest.raises(AssertionError, match=r"_depth_probe_0 -> reports\._depth_probe_1 -> .*_depth_probe_"
                                                 + str(n - 1)):
            test_reports_imports_stay_shallow()
    finally:
        for path in paths:
            if path.exists():
                os.unlink(path)


def test_the_depth_counts_a_package_that_holds_code():
    """A module's import of its own package is a link when the package's __init__ defines something."""
    graph = {"p": {"q"}, "p.a": {"p"}, "q": set()}
    assert _depth(graph, set(graph), faces=set()) == ["p.a", "p", "q"]
    assert _depth(graph, set(graph), faces={"p"}) == ["p", "q"]


def test_the_checker_reads_imports_by_name(tmp_path):
    """import_module / __import__ with a literal name, an f-string prefix or a literal + a name are imports too."""
    probe = tmp_path / "probe.py"
    probe.write_text("import importlib\nfrom importlib import import_module\n"
                     "def f(game):\n"
                     "    import_module(f'reports.games.{game}')\n"
                     "    importlib.import_module('analysis.stats')\n"
                     "    __import__(f'{__name__}.sub')\n"
                     "    import_module('strategies.' + game)\n"
                     "    import_module(game)\n", encoding="utf-8")
    known = {"reports.games.hellas": None, "reports.games.yamatai": None, "reports.gamesx": None,
             "analysis.stats": None, "pkg.probe.sub": None, "strategies.presets": None}
    found = {target for _, target in _imports(probe, "pkg.probe", known)}
    assert found == {"importlib", "reports.games.hellas", "reports.games.yamatai", "analysis.stats", "pkg.probe.sub",
                     "strategies.presets"}


def test_the_checker_sees_a_cycle_hidden_by_import_module():
    """Two reports modules that import each other, one by name: the cycle test fails."""
    a, b = ROOT / "reports" / "_layering_probe_a.py", ROOT / "reports" / "_layering_probe_b.py"
    a.write_text("def f():\n    return __import__('reports._layering_probe_b')\n", encoding="utf-8")
    b.write_text("from importlib import import_module\n\n\ndef g(n):\n"
                 "    return import_module(f'reports._layering_probe_{n}')\n", encoding="utf-8")
    try:
        with pytest.raises(AssertionError, match="_layering_probe_a.*_layering_probe_b"):
            test_no_import_cycle_inside_a_package("reports")
    finally:
        os.unlink(a)
        os.unlink(b)


#: issue 31: no grab-bag module in the application layer
MAX_REPORTS_LINES = 500


def test_no_reports_module_is_a_grab_bag():
    long = {f"{path.relative_to(ROOT)}: {n}" for path in (ROOT / "reports").rglob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_REPORTS_LINES}
    assert not long, f"reports/ modules over {MAX_REPORTS_LINES} lines: {sorted(long)}"


def _engine_sources(game):
    """The source files of a compiled engine's folder (its data/ files aside): .py, .pyx, .pxi, .pxd."""
    folder = ROOT / "simcore" / game
    return sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix in (".py", ".pyx", ".pxi", ".pxd"))


def test_every_engine_folder_has_the_same_files():
    """issue 31: one engine shell. Every built-in engine folder holds the same source files (data
    files aside), so a hook one engine has (a .pxi of the shell's) is there in every other one."""
    import simcore

    files = {game: _engine_sources(game) for game in simcore.BUILTIN_GAMES}
    every = sorted(set().union(*files.values()))
    missing = {game: [f for f in every if f not in have] for game, have in files.items()}
    missing = {game: lack for game, lack in missing.items() if lack}
    assert not missing, f"engine folders lack files the others have: {missing}"
