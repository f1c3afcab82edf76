"""``boardlab regress``: identical reruns pass, rule and strategy changes are caught, seeds differ
without false alarms at the nominal rate, malformed baselines give one-line errors (exit 2)."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from reports import regress
from reports.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, "simcore", "hellas", "data")

hellas = pytest.importorskip("simcore.hellas")


def _run(argv, capsys):
    rc = main(argv)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def _record(path, capsys, *study):
    rc, out, err = _run(["regress", str(path), "--update", *study], capsys)
    assert rc == 0, err
    return json.loads(path.read_text())


def _one_line_error(rc, err, *words):
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boardlab: error: "), err
    for w in words:
        assert w in lines[0], lines[0]


# ---------------------------------------------------------------- end to end

def test_unchanged_is_identical_and_markdown(tmp_path, capsys):
    base = tmp_path / "b.json"
    doc = _record(base, capsys, "--game", "hellas", "--players", "3", "--games", "2000", "--seed", "5")
    assert doc["study"] == {"game": "hellas", "players": 3, "strategies": ["random"] * 3,
                            "variant": {}, "seed": 5, "games": 2000}
    keys = {f"{r['statistic']}/{r['item']}" for r in doc["statistics"]}
    assert {"win_share/seat 0", "score.total/seat 2", "score.temples/seat 1", "quarry_income/seat 0",
            "quarries_closed/game"} <= keys
    md = tmp_path / "r.md"
    rc, out, err = _run(["regress", str(base), "--md", str(md)], capsys)
    assert rc == 0, err
    assert "identical" in out
    assert "identical" in md.read_text()
    # re-recording the same study gives the same digest (bit-for-bit reproducible)
    again = _record(base, capsys)
    assert again["digest"] == doc["digest"] and again["statistics"] == doc["statistics"]


def test_digest_independent_of_workers(tmp_path):
    study = regress.Study("hellas", 2, ["random", "random"], {}, seed=3, games=3000)
    assert regress.run_study(study, workers=1).digest == regress.run_study(study, workers=2).digest


def test_other_seed_passes_with_note(tmp_path, capsys):
    base = tmp_path / "b.json"
    _record(base, capsys, "--game", "hellas", "--players", "3", "--games", "3000", "--seed", "1")
    md = tmp_path / "r.md"
    rc, out, err = _run(["regress", str(base), "--seed", "2", "--md", str(md)], capsys)
    assert rc == 0, out
    assert "differ from the baseline, but no statistic changed significantly" in out
    text = md.read_text()
    assert "| statistic | item | baseline | now | difference |" in text and "p (Holm)" in text


def test_changed_quarry_tile_file_is_significant(tmp_path, capsys):
    tiles = tmp_path / "tiles.json"
    shutil.copy(os.path.join(DATA, "quarry_tiles.json"), tiles)
    base = tmp_path / "b.json"
    _record(base, capsys, "--game", "hellas", "--players", "3", "--games", "3000",
            "--variant", f"quarry_yields={tiles}")
    rc, out, _ = _run(["regress", str(base)], capsys)
    assert rc == 0 and "identical" in out
    shutil.copy(os.path.join(DATA, "quarry_tiles_falling.json"), tiles)  # the rule data changed
    js = tmp_path / "r.json"
    # a fresh process, as in CI (configs are cached by path within a process)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-m", "reports.cli", "regress", str(base), "--json", str(js)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    rc, out = proc.returncode, proc.stdout
    assert rc == 1, out + proc.stderr
    assert "SIGNIFICANT CHANGE" in out
    rows = {r["key"]: r for r in json.loads(js.read_text())["rows"]}
    assert rows["quarry_income_per_game/game"]["significant"]


def test_changed_rule_setting_is_significant(tmp_path, capsys):
    base = tmp_path / "b.json"
    doc = _record(base, capsys, "--game", "hellas", "--players", "3", "--games", "3000")
    # the engine's rule changes under the baseline: simulate it by editing the recorded study
    doc["study"]["variant"] = {"quarry_yields": "falling"}
    base.write_text(json.dumps(doc))
    rc, out, _ = _run(["regress", str(base)], capsys)
    assert rc == 1, out
    assert "engine settings changed since the baseline: quarry_yields" in out


def test_changed_strategy_weight_is_significant(tmp_path, capsys):
    import strategies

    bal = strategies.resolve("hellas", "balanced")

    def write(weights):
        lines = ["[mine]", 'kind = "heuristic"', "[mine.weights]"]
        lines += [f"{k} = {float(v)!r}" for k, v in weights.items()]
        toml.write_text("\n".join(lines) + "\n")

    toml = tmp_path / "mine.toml"
    write(bal.weights)
    base = tmp_path / "b.json"
    _record(base, capsys, "--game", "hellas", "--players", "3", "--games", "2000", "--strategy", str(toml))
    changed = dict(bal.weights, city_growth=0.5 * bal.weights["city_growth"])
    write(changed)
    rc, out, _ = _run(["regress", str(base)], capsys)
    assert rc == 1, out
    assert "strategy mine changed since the baseline: weights.city_growth" in out


def test_small_study_reports_power(tmp_path, capsys):
    base = tmp_path / "b.json"
    _record(base, capsys, "--game", "hellas", "--players", "2", "--games", "300")
    rc, out, _ = _run(["regress", str(base), "--seed", "9"], capsys)
    assert rc == 0
    assert "study too small for the chosen effect" in out and "games needed (baseline and rerun of that size)" in out
    assert "(low power)" in out


# ---------------------------------------------------------------- malformed baselines

@pytest.mark.parametrize("content, words", [
    ("{not json", ["not valid JSON"]),
    ("[]", ["must hold a JSON object"]),
    ('{"kind": "something"}', ["not a boardlab regress baseline"]),
    ('{"kind": "boardlab-regress-baseline", "format": 1, "study": {"game": "hellas"}}', ["study lacks 'players'"]),
])
def test_malformed_baseline_one_line_exit_2(tmp_path, capsys, content, words):
    base = tmp_path / "b.json"
    base.write_text(content)
    _one_line_error(*_run(["regress", str(base)], capsys)[::2], *words)


def test_baseline_field_errors(tmp_path, capsys):
    base = tmp_path / "b.json"
    doc = _record(base, capsys, "--game", "hellas", "--players", "2", "--games", "100")
    for key, bad, words in [("digest", {"value": "abc"}, ["digest.value"]),
                            ("statistics", [], ["'statistics' must be a non-empty list"]),
                            ("statistics", [{"statistic": "x"}], ["statistics[0] lacks"]),
                            ("format", 99, ["format 99"])]:
        base.write_text(json.dumps(dict(doc, **{key: bad})))
        _one_line_error(*_run(["regress", str(base)], capsys)[::2], *words)
    _one_line_error(*_run(["regress", str(tmp_path / "none.json")], capsys)[::2], "not found", "--update")
    _one_line_error(*_run(["regress", str(tmp_path / "new.json"), "--update"], capsys)[::2], "--game")
    base.write_text(json.dumps(doc))
    _one_line_error(*_run(["regress", str(base), "--players", "3"], capsys)[::2], "--update")
    base.write_text(json.dumps(dict(doc, study=dict(doc["study"], game="nope"))))
    _one_line_error(*_run(["regress", str(base)], capsys)[::2], "unknown game 'nope'")


# ---------------------------------------------------------------- the statistics path

def _stats(players, seeds):
    r = hellas.play_batch(players, np.asarray(seeds, dtype=np.uint64), events=False)
    return regress.statistics("hellas", r["games"], r["players"])


def test_independent_seeds_false_positive_rate():
    """Pairs of independent runs: family-wise and per-test rejection rates stay near alpha."""
    rng = np.random.default_rng(2024)
    trials, n, alpha = 80, 400, 0.05
    family = 0
    raw = []
    for _ in range(trials):
        a = rng.integers(0, 2**63, n, dtype=np.uint64)
        b = rng.integers(0, 2**63, n, dtype=np.uint64)
        rows = regress.compare(_stats(3, a), _stats(3, b), alpha=alpha)
        family += any(r["significant"] for r in rows)
        raw += [r["p_value"] for r in rows]
    raw = np.array(raw)
    # Holm controls the family-wise rate at alpha: at most ~alpha * trials (+ binomial slack)
    assert family <= 10, family
    # the raw tests are calibrated: about alpha of the p-values fall below alpha
    assert 0.02 <= (raw < alpha).mean() <= 0.09, (raw < alpha).mean()


def test_compare_synthetic_shares_and_means():
    rng = np.random.default_rng(7)
    rejected = 0
    for _ in range(300):
        x1, x2 = rng.binomial(5000, 0.3), rng.binomial(5000, 0.3)
        base = [{"statistic": "win_share", "item": "seat 0", "kind": "share", "n": 5000,
                 "estimate": x1 / 5000, "sd": 0.46, "successes": float(x1)}]
        new = [dict(base[0], estimate=x2 / 5000, successes=float(x2))]
        rejected += regress.compare(base, new)[0]["significant"]
    assert rejected <= 30  # nominal 5 % of 300 = 15
    # a real change of 3 points on 5000 games per side is found
    base = [{"statistic": "win_share", "item": "seat 0", "kind": "share", "n": 5000, "estimate": 0.30,
             "sd": 0.46, "successes": 1500.0},
            {"statistic": "score.total", "item": "seat 0", "kind": "mean", "n": 5000, "estimate": 30.0,
             "sd": 5.0}]
    new = [dict(base[0], estimate=0.33, successes=1650.0), dict(base[1], estimate=30.4)]
    rows = regress.compare(base, new)
    assert [r["significant"] for r in rows] == [True, True]
    assert rows[0]["test"] == "z" and rows[1]["test"] == "welch"
    assert rows[0]["diff_lo"] < 0.03 < rows[0]["diff_hi"]
    # small counts use Fisher's exact test
    small = [dict(base[0], n=40, estimate=0.05, successes=2.0)]
    assert regress.compare(small, [dict(small[0], estimate=0.1, successes=4.0)])[0]["test"] == "exact"
    # a statistic the rerun no longer has is a significant change
    assert regress.compare(base, new[:1])[1]["significant"]


def test_digest_depends_on_every_column_not_order():
    a = {"t": {"x": np.arange(5, dtype=np.int16), "y": np.ones(5, dtype=np.float32)}}
    b = {"t": {"y": np.ones(5, dtype=np.float32), "x": np.arange(5, dtype=np.int16)}}
    c = {"t": {"x": np.arange(5, dtype=np.int32), "y": np.ones(5, dtype=np.float32)}}
    d = {"t": {"x": np.arange(5, dtype=np.int16)[::-1].copy(), "y": np.ones(5, dtype=np.float32)}}
    assert regress.digest_tables(a) == regress.digest_tables(b)
    assert len({regress.digest_tables(t) for t in (a, c, d)}) == 3


@pytest.mark.parametrize("name, game, players, headline", [
    ("hellas-3p", "hellas", 3, "quarries_closed/game"),
    ("yamatai-4p", "yamatai", 4, "rounds/game"),
    ("akrotiri-2p", "akrotiri", 2, "turns/game"),
])
def test_committed_baselines_are_valid(name, game, players, headline):
    doc = regress.load_baseline(os.path.join(ROOT, "baselines", f"{name}.json"))
    assert doc["study"]["game"] == game and doc["study"]["players"] == players
    keys = {f"{r['statistic']}/{r['item']}" for r in doc["statistics"]}
    assert headline in keys and f"win_share/seat {players - 1}" in keys and f"score.total/seat 0" in keys


@pytest.mark.parametrize("game, players, column", [("yamatai", 2, "rounds"), ("akrotiri", 2, "turns")])
def test_game_length_is_a_recorded_statistic(game, players, column):
    import simcore
    import strategies

    pol = strategies.resolve(game, "balanced").as_policy()
    res = simcore.games[game].play_batch(players, np.arange(300, dtype=np.uint64), [pol] * players)
    rows = {f"{r['statistic']}/{r['item']}": r for r in regress.statistics(game, res["games"], res["players"])}
    row = rows[f"{column}/game"]
    length = np.asarray(res["games"][column], dtype=np.float64)
    assert row["n"] == 300 and row["estimate"] == pytest.approx(length.mean())
    assert row["sd"] == pytest.approx(length.std(ddof=1)) and row["sd"] > 0
