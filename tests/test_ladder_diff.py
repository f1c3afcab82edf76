"""bench/ladder_diff.py: the Elo difference of two strategies of a finished ladder and its bootstrap interval."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    import strategies
    from reports.compare import compare_tables
    from reports.ladder import LadderPlan, play_ladder

    pool = {n: strategies.resolve("hellas", n) for n in ("random", "city_builder", "balanced", "tuned")}
    folder = tmp_path_factory.mktemp("ladder") / "hellas-3p"
    rs = play_ladder(LadderPlan("hellas", 3, pool, games=4, seed=3), str(folder), workers=1)
    ratings = compare_tables(rs.players, rs.group)["ratings"]
    return folder, dict(zip(ratings["strategy"].to_list(), ratings["elo"].to_list())), rs


def _interval(out):
    return tuple(float(x) for x in out.split("95% [")[1].split("]")[0].split(","))


def test_difference_is_the_ladders_and_the_interval_holds_it(ladder, capsys, monkeypatch):
    import ladder_diff

    folder, elo, _ = ladder
    p = ladder_diff.load(str(folder))
    d = ladder_diff.difference(p, "balanced", "random")
    assert d == pytest.approx(elo["balanced"] - elo["random"], abs=1e-6)
    assert d > 200                                    # random loses nearly every comparison
    monkeypatch.setattr(sys, "argv", ["ladder_diff.py", str(folder), "balanced", "random", "--resamples", "40"])
    ladder_diff.main()
    lo, hi = _interval(capsys.readouterr().out)
    assert 0 < lo < d < hi
    monkeypatch.setattr(sys, "argv", ["ladder_diff.py", str(folder), "balanced", "tuned", "--resamples", "40"])
    ladder_diff.main()
    lo2, hi2 = _interval(capsys.readouterr().out)
    assert hi2 - lo2 > 0 and lo2 < elo["balanced"] - elo["tuned"] < hi2


def test_ladder_vs_ref_bootstraps_as_ladder_diff(ladder, capsys, monkeypatch):
    """bench/ladder_vs_ref.py's distances to the reference: the same resamples as ladder_diff.py's for
    the same generator (one bootstrap, bench/ladder_diff.py's), printed per strategy."""
    import ladder_diff
    import ladder_vs_ref
    import numpy as np

    folder, elo, rs = ladder
    names = ["random", "city_builder", "balanced", "tuned"]
    ladder_vs_ref.summarize(rs, names, "balanced", 30, boot_seed=5)
    lines = {x.split(" - ")[0]: x for x in capsys.readouterr().out.splitlines() if " - balanced: " in x}
    assert sorted(lines) == ["city_builder", "random", "tuned"]
    p = ladder_diff.load(str(folder))
    fits = ladder_diff.resampled(p, 30, np.random.default_rng(5))
    for n, line in lines.items():
        d = [e[n] - e["balanced"] for e in fits]
        want = np.percentile(d, [2.5, 97.5])
        assert _interval(line) == pytest.approx(tuple(np.round(want)), abs=1.0), (n, line)
        assert f"- balanced: {elo[n] - elo['balanced']:+.0f} Elo" in line


def test_unknown_strategy_or_folder_is_one_line(ladder, tmp_path):
    folder, _, _ = ladder
    for argv in ([str(folder), "balanced", "nosuch"], [str(tmp_path), "balanced", "random"],
                 [str(folder), "balanced", "random", "--resamples", "1"]):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "ladder_diff.py"), *argv],
                           capture_output=True, text=True, cwd=ROOT)
        assert r.returncode != 0 and r.stderr.count("\n") == 1 and "error:" in r.stderr, r.stderr
