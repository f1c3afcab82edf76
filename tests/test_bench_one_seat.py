"""bench/bench_one_seat.py: one strategy against another in every seat, deal by deal, resumable."""
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "bench", "bench_one_seat.py")


def _run(*argv):
    return subprocess.run([sys.executable, TOOL, *argv], capture_output=True, text=True, cwd=ROOT)


def test_one_seat_scores_every_rotation_and_resumes(tmp_path):
    import simcore
    import strategies
    from simcore.rng import game_seeds

    out = str(tmp_path / "h2h")
    r = _run("balanced", "random", "--players", "3", "--deals", "6", "--batch", "3", "--seed", "2", "--out", out)
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert "deals 6 (games 18)" in last
    share = float(last.split("A's share ")[1].split()[0])
    # the same deals played here: balanced in each seat in turn, its mean win share per deal
    mod = simcore.games["hellas"]
    pa, pb = (strategies.resolve("hellas", n).as_policy() for n in ("balanced", "random"))
    ws = np.zeros(6)
    for seat in range(3):
        pols = [pb] * 3
        pols[seat] = pa
        ws += mod.play_batch(3, game_seeds(2, 0, 6), pols, events=False)["players"]["win_share"][:, seat]
    assert abs(share - ws.mean() / 3) < 5e-5 and share > 0.6          # random rarely wins
    again = _run("balanced", "random", "--players", "3", "--deals", "6", "--batch", "3", "--seed", "2", "--out", out)
    assert again.stdout.strip().splitlines()[-1].split("; CPU")[0] == last.split("; CPU")[0]


def test_bad_settings_are_one_line(tmp_path):
    out = str(tmp_path / "h2h")
    assert _run("balanced", "random", "--deals", "1", "--out", out).returncode == 0
    for argv in (["balanced", "nosuch"], ["balanced", "random", "--players", "9"],
                 ["balanced", "random", "--game", "chess"], ["random", "balanced", "--deals", "1", "--out", out]):
        r = _run(*argv)
        assert r.returncode != 0 and r.stderr.count("\n") == 1 and "error:" in r.stderr, (argv, r.stderr)


def test_tree_reuse_head_to_head_intervals_are_over_deals():
    """bench_tree_reuse.head_to_head plays A in every seat on the same deals: its interval is the t
    interval over the deals' mean shares (the games of a deal share its seed), as bench_one_seat's."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from bench_scripts import load_bench

    import strategies
    from bench_one_seat import summary

    tool = load_bench("bench_tree_reuse")
    a, b = (strategies.resolve("hellas", n).as_policy() for n in ("balanced", "city_builder"))
    share, n, lo, hi = tool.head_to_head("hellas", 3, a, b, 30)
    assert n == 30 and lo < share < hi
    mod = tool.simcore.games["hellas"]
    seeds = np.asarray(tool.game_seeds(4242, 0, 10), dtype=np.uint64)
    deals = np.mean([mod.play_batch(3, seeds, [a if s == seat else b for s in range(3)],
                                    events=False)["players"]["win_share"][:, seat] for seat in range(3)], axis=0)
    assert (share, lo, hi) == summary(deals)[1:]
