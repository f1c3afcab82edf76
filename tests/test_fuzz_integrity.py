"""Issue 34: a fuzz test that keeps bad input from ever becoming a traceback, a crash or a silent acceptance.

Hypothesis draws broken data files, manifests, study files and command lines;
each batch is run in a fresh Python process (``_fuzz_runner`` below, through
``reports.cli.main`` or the loaders), so a segfault or a hang shows as the
batch's death or timeout, naming the case. The properties:

- a data file is refused with one line naming the file, or accepted; what is
  accepted fits its schema and plays two games without crashing;
- a manifest, a study file or a command line gives exit 0 or one line
  ``boardlab: error: ...`` (exit 1 or 2): never a traceback;
- a results folder whose manifest was changed is never reported on silently:
  ``check`` finds the change or the change was harmless (a session note).

Bounded: ``max_examples`` small and no shrinking across processes; about
half a minute in all on the CI machine.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# one drawn example a test, each a batch of cases run in one fresh process; no shrinking (each
# try is a process): a failure names its case, and the run time stays bounded
FUZZ = settings(max_examples=1, deadline=None, database=None, derandomize=True, phases=[Phase.generate],
                suppress_health_check=list(HealthCheck))

# A value a careless edit or a hostile file may put anywhere.
ODD = st.one_of(
    st.integers(min_value=-2 ** 70, max_value=2 ** 70),
    st.sampled_from([0, -1, 1, 127, 128, 255, 256, 32767, 32768, 65535, 2 ** 31, 2 ** 63, 10 ** 6]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
    st.text(max_size=5), st.lists(st.integers(-3, 300), max_size=4), st.just({}),
)

_RUNNER = textwrap.dedent(r'''
    import io, json, os, sys, traceback, contextlib
    sys.path[:0] = [sys.argv[2], sys.argv[3]]
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    cases = json.load(open(sys.argv[1]))
    NEGATIVE_OK = {"reserved", "set_aside", "total", "seat_points"}     # penalties: a total may be below 0
    out = []
    for case in cases:
        err = io.StringIO()
        res = {"name": case["name"]}
        try:
            if case["kind"] == "data":
                import numpy as np
                import simcore
                mod = simcore.get_game(case["game"])
                try:
                    cfg = mod.make_config(case["players"], **{case["key"]: case["path"]})
                    r = mod.play_batch(case["players"], np.arange(4, dtype=np.uint64), config=cfg)
                    res["rc"] = 0
                    # accepted: the results must be possible (a wrapped 16-bit count shows as a huge
                    # negative total, a negative count of things)
                    for col, v in r["players"].items():
                        v = np.asarray(v)
                        if v.dtype.kind in "iu" and v.size and (
                                v.min() < (-1000 if col in NEGATIVE_OK else 0) or v.max() > 30000):
                            res["silent"] = f"accepted, but column {col} holds {v.min()}..{v.max()}"
                except ValueError as exc:
                    res["rc"], res["err"] = 2, "boardlab: error: " + str(exc)
            elif case["kind"] == "study":
                from reports.commands.study import load_study
                try:
                    load_study(case["path"])
                    res["rc"] = 0
                except ValueError as exc:
                    res["rc"], res["err"] = 2, "boardlab: error: " + str(exc)
            else:
                from reports.cli import main
                with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                    res["rc"] = main(case["argv"])
                res["err"] = err.getvalue()
        except BaseException:
            res["rc"], res["traceback"] = None, traceback.format_exc()[-1500:]
        out.append(res)
        print(json.dumps(res), flush=True)
''')


def _run_batch(tmp_path, cases, timeout=240):
    """Run ``cases`` in one fresh process; return their results, or fail naming the case that killed it."""
    spec = tmp_path / "cases.json"
    spec.write_text(json.dumps(cases))
    runner = tmp_path / "_fuzz_runner.py"
    runner.write_text(_RUNNER)
    try:
        proc = subprocess.run([sys.executable, str(runner), str(spec), ROOT, HERE], cwd=str(tmp_path),
                              capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, PYTHONHASHSEED="0"))
    except subprocess.TimeoutExpired as exc:
        done = (exc.stdout or b"").decode().count("\n") if isinstance(exc.stdout, bytes) else (exc.stdout or "").count("\n")
        pytest.fail(f"hang: case {cases[done]['name']} did not end in {timeout} s")
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or len(results) != len(cases):
        pytest.fail(f"crash (exit {proc.returncode}) at case {cases[len(results)]['name']}: {proc.stderr[-800:]}")
    for r in results:
        assert "traceback" not in r, f"{r['name']}: {r['traceback']}"
        assert "silent" not in r, f"{r['name']}: {r['silent']}"
        lines = [x for x in (r.get("err") or "").strip().splitlines() if x]
        if r["rc"] == 1 and r["name"].startswith("check ") and not lines:
            continue                    # `check` found problems: listed on stdout, exit 1
        if r["rc"] != 0:
            assert r["rc"] in (1, 2) and len(lines) == 1 and lines[0].startswith("boardlab: error: "), r
    return results


# ---------------------------------------------------------------- data files

DATA = [("hellas", 3, "board", "board_minotaur.json"), ("hellas", 3, "quarry_yields", "quarry_tiles.json"),
        ("yamatai", 3, "board", "board.json"), ("yamatai", 3, "buildings", "buildings.json"),
        ("yamatai", 3, "specialists", "specialists.json"), ("yamatai", 3, "player_board", "player_board.json"),
        ("yamatai", 3, "fleets", "fleets.json"), ("yamatai", 3, "culture_tokens", "culture_tokens.json"),
        ("akrotiri", 2, "tiles", "tiles.json"), ("akrotiri", 2, "maps", "maps.json"),
        ("akrotiri", 2, "goals", "goals.json"), ("akrotiri", 2, "player_board", "player_board.json")]


def _leaves(doc, path=()):
    """Every (path) to a number, string, bool or null in ``doc``, and every object key."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield path + (k,)
            yield from _leaves(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):
            yield from _leaves(v, path + (i,))


def _set(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    if value is _DELETE and isinstance(doc, dict):
        del doc[path[-1]]
    else:
        doc[path[-1]] = None if value is _DELETE else value


_DELETE = object()


@st.composite
def broken_data_files(draw):
    cases = []
    for game, players, key, name in DATA:
        with open(os.path.join(ROOT, "simcore", game, "data", name)) as f:
            doc = json.load(f)
        paths = [p for p in _leaves(doc) if not any(str(x) in ("status", "sources", "note", "notes", "text", "source")
                                                    for x in p)]
        for _ in range(draw(st.integers(1, 3))):
            path = draw(st.sampled_from(paths))
            try:
                _set(doc, path, draw(st.one_of(ODD, st.just(_DELETE))))
            except (KeyError, IndexError, TypeError):
                pass              # an earlier change removed the parent
            paths = [p for p in _leaves(doc)]
        cases.append((game, players, key, name, doc))
    return cases


@FUZZ
@seed(34)
@given(broken_data_files())
def test_fuzz_data_files(tmp_path_factory, cases):
    from simcore import _schema  # noqa: F401   (the loaders use it; imported here so a syntax error shows)
    tmp = tmp_path_factory.mktemp("data")
    batch = []
    for k, (game, players, key, name, doc) in enumerate(cases * 4):
        path = tmp / f"{k}-{name}"
        path.write_text(json.dumps(doc, allow_nan=True))
        batch.append({"name": f"{game} {key} #{k}", "kind": "data", "game": game, "players": players,
                      "key": key, "path": str(path)})
    for r, case in zip(_run_batch(tmp, batch), batch):
        if r["rc"] != 0:
            assert case["path"] in r["err"], r


# ---------------------------------------------------------------- results folders and manifests

@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from simcore.run import simulate
    out = tmp_path_factory.mktemp("fuzzrun") / "run"
    simulate("hellas", players=3, games=300, seed=5, out=str(out), chunk_size=100, workers=1, progress=False)
    return out


MANIFEST_KEYS = ["game", "players", "seed", "games", "events", "strategies", "chunking", "variant", "settings",
                 "run_id", "parts", "status", "format", "tables"]


# what a careless edit makes a manifest say: another, plausible run
PLAUSIBLE = st.one_of(st.tuples(st.just("game"), st.sampled_from(["yamatai", "akrotiri"])),
                      st.tuples(st.just("players"), st.sampled_from([2, 4])),
                      st.tuples(st.just("seed"), st.integers(0, 2 ** 40).filter(lambda s: s != 5)),
                      st.tuples(st.just("games"), st.sampled_from([200, 299, 301, 400])),
                      st.tuples(st.just("events"), st.just(False)))


@FUZZ
@seed(35)
@given(PLAUSIBLE, st.lists(st.tuples(st.sampled_from(MANIFEST_KEYS), st.one_of(ODD, st.just(_DELETE))), max_size=2),
       st.lists(st.tuples(st.sampled_from(["chunk_size", "n_chunks", "file_digits"]), ODD), max_size=1),
       st.integers(0, 2))
def test_fuzz_manifests(tmp_path_factory, small_run, plausible, edits, chunk_edits, foreign_chunk):
    import shutil
    tmp = tmp_path_factory.mktemp("manifests")
    batch = []
    other = tmp / "other"                       # a run of another seed: its parts must never pass for ours
    from simcore.run import simulate
    simulate("hellas", players=3, games=300, seed=6, out=str(other), chunk_size=100, workers=1, progress=False)
    for k in range(6):
        out = tmp / f"run{k}"
        shutil.copytree(small_run, out)
        m = json.load(open(out / "manifest.json"))
        # even runs: the plausible edit (and maybe more); odd runs: a part of the other run copied in
        todo = ([plausible] + edits) if k % 2 == 0 else edits
        if k % 2:
            shutil.copy(other / "players" / f"part-0000{foreign_chunk}.parquet",
                        out / "players" / f"part-0000{foreign_chunk}.parquet")
        for key, value in todo:
            if key == "players" and isinstance(value, int) and isinstance(m.get("strategies"), list):
                m["strategies"] = (m["strategies"] * 4)[:value]
            _set(m, (key,), value)
        for key, value in chunk_edits:
            if isinstance(m.get("chunking"), dict):
                m["chunking"][key] = value
        (out / "manifest.json").write_text(json.dumps(m, allow_nan=True))
        for argv in (["check", str(out)], ["report", str(out), "--out", str(tmp / f"rep{k}")],
                     ["replay", str(out), "--game", "150", "--quiet"],
                     ["simulate", "hellas", "--players", "3", "--games", "300", "--seed", "5", "--chunk-size",
                      "100", "--out", str(out), "--no-progress", "--workers", "1"]):
            batch.append({"name": f"{argv[0]} of manifest edit {edits}/{chunk_edits}", "kind": "cli", "argv": argv})
    results = _run_batch(tmp, batch)
    # a manifest describing another run, or a folder holding another run's part, is never reported on
    # nor checked as whole (check, report: the first two commands of each folder)
    for r in results[0::4] + results[1::4]:
        assert r["rc"] != 0, r


# ---------------------------------------------------------------- study files

STUDY_KEYS = ["game", "seed", "games", "players", "strategy", "seats", "strategies", "variant", "name", "knob",
              "budget", "verify", "quick_games", "events"]
PART_KINDS = ["balance", "compare", "variants", "skill", "compensation", "sweep", "nonsense"]


@FUZZ
@seed(36)
@given(st.lists(st.tuples(st.sampled_from(PART_KINDS),
                          st.dictionaries(st.sampled_from(STUDY_KEYS), st.one_of(ODD, st.sampled_from(
                              ["hellas", "balanced", "random", "mcts:iterations=3000000000", "[3, 3]"])),
                              max_size=5)), min_size=1, max_size=6),
       st.dictionaries(st.sampled_from(["game", "seed", "games"]), st.one_of(ODD, st.just("hellas")), max_size=3))
def test_fuzz_study_files(tmp_path_factory, parts, head):
    tmp = tmp_path_factory.mktemp("studies")
    batch = []

    def toml_value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) and v != v:
            return "nan"
        if isinstance(v, float) and v in (float("inf"), float("-inf")):
            return "inf" if v > 0 else "-inf"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(toml_value(x) for x in v) + "]"
        return "{}"
    for k in range(len(parts)):
        lines = ["[study]"] + [f"{key} = {toml_value(v)}" for key, v in {"game": "hellas", **head}.items() if v is not None]
        for kind, t in parts[k:] + parts[:k]:
            lines.append(f"[[{kind}]]")
            lines += [f"{key} = {toml_value(v)}" for key, v in t.items() if v is not None]
        path = tmp / f"s{k}.toml"
        path.write_text("\n".join(lines) + "\n")
        batch.append({"name": f"study {path.name}: {lines}", "kind": "study", "path": str(path)})
    _run_batch(tmp, batch)


# ---------------------------------------------------------------- command lines

NUMBERS = st.sampled_from(["0", "-1", "1", "3", "20", "1e30", "1e13", "2.5", "nan", "inf", "abc", "1_000",
                           "9223372036854775808", "", "0x10"])
SEATS = st.sampled_from(["random", "balanced", "mcts:iterations=3000000000", "mcts:iterations=5,iterations=6",
                         "mcts:c=nan", "mcts:cutoff=-1", "mcts:iterations=0", "mcts:points=2", "nosuch", "",
                         "mcts:iterations=2"])


@FUZZ
@seed(37)
@given(st.lists(st.tuples(st.sampled_from(["simulate", "ladder", "compare", "balance", "regress", "replay"]),
                          NUMBERS, NUMBERS, NUMBERS, st.lists(SEATS, min_size=1, max_size=4)),
                min_size=6, max_size=6))
def test_fuzz_command_lines(tmp_path_factory, lines):
    tmp = tmp_path_factory.mktemp("cli")
    batch = []
    for k, (cmd, a, b, c, seats) in enumerate(lines):
        out = str(tmp / f"o{k}")
        if cmd == "simulate":
            argv = ["simulate", "hellas", "--players", a, "--games", b, "--seed", c, "--out", out,
                    "--seat-strategies", ",".join(seats), "--no-progress", "--workers", "1"]
        elif cmd == "ladder":
            argv = ["ladder", "hellas", "--players", a, "--games", b, "--strategies", ",".join(seats), "--out", out]
        elif cmd == "compare":
            argv = ["compare", "hellas", "--players", a, "--games", b, "--strategies", ",".join(seats),
                    "--out", out]
        elif cmd == "balance":
            argv = ["balance", "hellas", "--players", a, "--budget", b, "--verify", c, "--workers", "1"]
        elif cmd == "regress":
            argv = ["regress", os.path.join(ROOT, "baselines", "hellas-3p.json"), "--effect-sd", a,
                    "--effect-share", b, "--games", c]
        else:
            argv = ["replay", out, "--game", a]
        batch.append({"name": " ".join(argv), "kind": "cli", "argv": argv})
    # every drawn number is either refused at once or small (at most 20 games): the batch ends quickly
    _run_batch(tmp, batch, timeout=300)


# ---------------------------------------------------------------- every range check, each option

# Each option with a range check, the words its refusal must hold, and the numbers outside its range
# (of the right type, so only the range check can refuse them). A range check removed lets one of the
# drawn numbers through: the command then runs or fails elsewhere, and the batch fails naming the case.
_SIM = ["simulate", "hellas", "--players", "2", "--games", "3", "--seed", "1", "--no-progress", "--workers", "1"]
_BASE = os.path.join(ROOT, "baselines", "hellas-3p.json")
_NEG = st.integers(-2 ** 70, 0)
_FLOATS_OUT = lambda lo, hi: st.one_of(st.floats(max_value=lo, exclude_max=True),  # noqa: E731
                                       st.floats(min_value=hi, exclude_min=True, allow_infinity=False))
RANGES = [
    (_SIM, "--seed", "--seed", st.one_of(st.integers(-2 ** 70, -1), st.integers(2 ** 63, 2 ** 70))),
    (_SIM, "--games", "--games", _NEG),
    (_SIM, "--players", "players", st.one_of(st.integers(-2 ** 40, 1), st.integers(5, 2 ** 40))),
    (_SIM, "--chunk-size", "--chunk-size", _NEG),
    (_SIM, "--workers", "--workers", _NEG),
    (_SIM, "--seat-strategies=mcts:iterations={},random", "iterations",
     st.one_of(st.integers(-2 ** 40, 0), st.integers(10_000_001, 2 ** 40))),
    (_SIM, "--seat-strategies=mcts:iterations=5,c={},random", "c (exploration)", _FLOATS_OUT(0, 10_000)),
    (_SIM, "--seat-strategies=mcts:iterations=5,cutoff={},random", "cutoff",
     st.one_of(st.integers(-2 ** 40, -1), st.integers(1_000_001, 2 ** 40))),
    (_SIM, "--seat-strategies=mcts:iterations=5,points={},random", "points", _FLOATS_OUT(0, 1)),
    (["replay", "RUN", "--quiet"], "--game", "game", st.one_of(st.integers(-2 ** 70, -1), st.integers(300, 2 ** 62))),
    (["compare", "hellas", "--players", "2", "--strategies", "random,balanced"], "--games", "--games", _NEG),
    (["balance", "hellas", "--players", "2", "--workers", "1"], "--verify", "--verify", _NEG),
    (["regress", _BASE], "--alpha", "--alpha", st.one_of(st.floats(max_value=0), st.floats(min_value=1))),
    (["regress", _BASE], "--effect-sd", "--effect-sd", _FLOATS_OUT(0.001, 100)),
    (["regress", _BASE], "--effect-share", "--effect-share", _FLOATS_OUT(0.0001, 1)),
    (["bench", "--game", "hellas", "--no-runner", "--quiet"], "--repeats", "--repeats",
     st.one_of(_NEG, st.integers(101, 2 ** 40))),
    (["train", "hellas", "--players", "2", "--out", "OUT.json"], "--positions", "--positions",
     st.one_of(_NEG, st.integers(10_000_001, 2 ** 40))),
    (["play", "hellas", "--seats", "human,balanced", "--no-browser"], "--port", "--port",
     st.one_of(st.integers(-2 ** 40, -1), st.integers(65536, 2 ** 40))),
    (["play", "hellas", "--seats", "human,balanced", "--no-browser"], "--bot-delay", "--bot-delay",
     _FLOATS_OUT(0, 60)),
]


@FUZZ
@seed(38)
@given(st.tuples(*[st.lists(values, min_size=3, max_size=3) for *_, values in RANGES]))
def test_fuzz_every_range_check_refuses_naming_its_option(tmp_path_factory, small_run, drawn):
    tmp = tmp_path_factory.mktemp("ranges")
    batch, words = [], []
    for k, ((base, flag, word, _), values) in enumerate(zip(RANGES, drawn)):
        for j, v in enumerate(values):
            text = repr(v) if isinstance(v, float) else str(v)
            out = str(tmp / f"o{k}-{j}")
            argv = [a.replace("RUN", str(small_run)).replace("OUT", out) for a in base]
            if flag in argv:                          # the base's own value of the option gives way
                del argv[argv.index(flag):argv.index(flag) + 2]
            argv += [flag.format(text)] if "{}" in flag else [f"{flag}={text}"]
            if argv[0] == "simulate":
                argv += ["--out", out]
            batch.append({"name": " ".join(argv), "kind": "cli", "argv": argv})
            words.append(word)
    for r, word in zip(_run_batch(tmp, batch, timeout=300), words):
        # refused, in one line naming the option: never run, never refused by something else
        assert r["rc"] == 2 and word in r["err"], f"{r['name']}: not refused naming {word!r}: {r}"
