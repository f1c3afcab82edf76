"""Every code block of README.md and docs/*.md is run or checked.

- ``python`` blocks run, in a fresh interpreter whose working folder is a temporary copy of the
  places they name (``docs/examples``, a small ``runs/hellas-3p``), this checkout first on the path.
- Shell blocks (``bash`` or unlabelled, whose lines are commands): every ``boardlab`` line is parsed
  by the CLI's own parser (the command, its flags and their values must exist); the commands of the
  README's "Using it" block and the set-up lines run in small versions below.
- A block may be left out only with a reason: the line before its fence is
  ``<!-- not run: REASON -->``.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
NOT_RUN = re.compile(r"^<!-- not run: (.+\S) -->$")
COMMAND = re.compile(r"^(?:[A-Z_]+=\S+ )*(boardlab|python|pip)\b")


def blocks(path):
    """(language, first line number, text, reason it is not run or None) of each fenced block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        prev = lines[i - 1].strip() if i else ""
        reason = NOT_RUN.match(prev)
        out.append((m.group(1), i + 1, "\n".join(lines[i + 1:j]), reason.group(1) if reason else None))
        i = j + 1
    return out


def command_lines(text):
    """The command lines of a shell block (continuations joined, comments dropped), or [] if it is no shell."""
    joined = text.replace("\\\n", " ")
    cmds = []
    for line in joined.splitlines():
        line = line.split("  #")[0].strip()
        if not line or line.startswith("#"):
            continue
        if not COMMAND.match(line):
            return []          # a file layout, an output, a format: not commands
        cmds.append(line)
    return cmds


def all_blocks():
    for path in DOCS:
        if path.name == "notebook.md":      # the notebook's rendering: tests/test_docs_notebook.py
            continue
        for lang, line, text, reason in blocks(path):
            yield pytest.param(path, lang, line, text, reason, id=f"{path.name}:{line}")


def python_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["MPLBACKEND"] = "Agg"
    return env


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder like a clone's root for the snippets: docs/examples and a small runs/hellas-3p."""
    d = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "docs" / "examples", d / "docs" / "examples")
    subprocess.run([sys.executable, "-m", "reports.cli", "simulate", "hellas", "--players", "3", "--games", "300",
                    "--seed", "1", "--strategy", "balanced", "--out", "runs/hellas-3p", "--no-progress"],
                   cwd=d, env=python_env(), check=True, capture_output=True)
    return d


def _parse(cmd):
    from reports.cli import UsageError, build_parser

    words = shlex.split(cmd)
    words = [w for w in words if not re.match(r"^[A-Z_]+=", w) or words.index(w) > 0]
    while words and re.match(r"^[A-Z_]+=", words[0]):
        words.pop(0)
    assert words[0] == "boardlab"
    argv = [w for w in words[1:] if not (w.startswith("[") or w.endswith("]") or "|" in w)]
    try:
        build_parser(argv).parse_args(argv)
    except UsageError as e:
        raise AssertionError(f"`{cmd}`: {e}") from None


@pytest.mark.parametrize("path,lang,line,text,reason", list(all_blocks()))
def test_block(path, lang, line, text, reason, workdir):
    if reason is not None:
        assert len(reason) > 10, f"{path.name}:{line}: say why the block is not run"
        return
    if lang == "python":
        r = subprocess.run([sys.executable, "-c", text], cwd=workdir, env=python_env(), capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0, f"{path.name}:{line}: the python block fails:\n{r.stderr[-2000:]}"
        return
    if lang in ("", "bash", "sh", "console"):
        for cmd in command_lines(text):
            if cmd.split()[0] == "boardlab" or "boardlab " in cmd.split("&&")[-1]:
                for part in cmd.split("&&"):
                    part = part.strip()
                    if part.startswith("boardlab") or re.match(r"^[A-Z_]+=\S+ boardlab", part):
                        if "[" in part and "]" in part and "|" in part:
                            continue      # a synopsis line: [--flag a|b] alternatives, not a command
                        _parse(part)


def _cli(*args, cwd):
    r = subprocess.run([sys.executable, "-m", "reports.cli", *args], cwd=cwd, env=python_env(),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"boardlab {' '.join(args)}:\n{r.stderr[-2000:]}"
    return r


def test_the_readme_commands_run_in_small_versions(workdir):
    # README "Using it": simulate -> replay -> report, a seated strategy, compare; small sizes
    d = workdir
    r = _cli("simulate", "yamatai", "--players", "4", "--games", "200", "--seed", "1", "--strategy", "balanced",
             "--out", "runs/yamatai-4p", "--no-progress", cwd=d)
    assert "balanced" in r.stdout
    _cli("replay", "runs/hellas-3p", "--game", "123", "--quiet", cwd=d)
    r = _cli("compare", "hellas", "--players", "3", "--strategies", "balanced,random", "--games", "60",
             "--out", "cmp", cwd=d)
    assert "rating" in r.stdout


def test_a_random_play_simulation_says_so(workdir):
    # the README's first example plays random play: the terminal says so
    r = _cli("simulate", "hellas", "--players", "2", "--games", "100", "--seed", "1", "--out", "runs/random",
             "--no-progress", cwd=workdir)
    assert "random play" in r.stdout


def test_readme_opens_with_the_two_setup_lines():
    text = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert text[2:6] == ["```", "pip install . && boardlab demo", 'pip install -e ".[test,cluster]" && python -m pytest -q',
                         "```"]
