"""bench/bench_learned.py (strength per CPU-second, its tiers and anchored levels), the figure it and the
ladder report draw (reports.render.figures_ladder.rating_vs_cpu), and the command line the game-playing
bench scripts share (bench/game_args.py)."""
import math

import numpy as np
import polars as pl
import pytest
from bench_scripts import load_bench


_load = load_bench


learned_tool = _load("bench_learned")


def test_anchors_are_parsed_against_the_ladder_levels():
    assert learned_tool.parse_anchors("1600:400", [100, 400]) == [(1600, 400)]
    assert learned_tool.parse_anchors(" 1600:400 , 3200:400", [400]) == [(1600, 400), (3200, 400)]
    assert learned_tool.parse_anchors("", [400]) == []
    for text, msg in (("1600", "N:M pairs"), ("1600:x", "N:M pairs"), ("1600:800", "not a --levels level"),
                      ("400:100", "already in the ladder"), ("1600:400,1600:100", "already in the ladder")):
        with pytest.raises(ValueError, match=msg):
            learned_tool.parse_anchors(text, [100, 400])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_anchored_level_sits_in_every_seat_against_its_reference(players):
    seatings, rounds = learned_tool.anchor_seatings("top", "ref", players, 10)
    assert rounds == math.ceil(10 / players) and len(seatings) == players
    assert all(g == rounds for _, g in seatings)
    assert sorted(lineup.index("top") for lineup, _ in seatings) == list(range(players))
    assert all(lineup.count("top") == 1 and lineup.count("ref") == players - 1 for lineup, _ in seatings)


def test_interpolation_in_log_cpu_between_the_bracketing_levels():
    plain = [(0.4, 1800.0), (0.1, 1600.0), (1.6, 1900.0)]
    assert learned_tool.interpolate(plain, 0.2) == pytest.approx(1700.0)       # halfway in log CPU
    assert learned_tool.interpolate(plain, 0.8) == pytest.approx(1850.0)
    assert learned_tool.interpolate(plain, 0.05) is None and learned_tool.interpolate(plain, 2.0) is None
    w = learned_tool.bracket({"a": 0.1, "b": 0.4, "c": 1.6}, 0.8)
    assert w == pytest.approx({"b": 0.5, "c": 0.5}) and learned_tool.bracket({"a": 0.1, "b": 0.4}, 0.8) is None


def test_targets_with_a_prior_level_that_is_not_a_plain_level():
    """--prior-levels 100 without 100 in --levels: said in words, not a KeyError."""
    row = lambda e: {"elo": e}  # noqa: E731
    r = {"learned": row(1600), "mcts:iterations=400": row(1800), "mcts:iterations=100,prior=learned": row(1900)}
    cpu = {"learned": 0.005, "mcts:iterations=400": 0.8, "mcts:iterations=100,prior=learned": 0.3}
    lines = learned_tool.target_lines(r, cpu, [400], [100])
    assert lines[0].startswith("learned - MCTS-400: -200 Elo") and "1/160" in lines[0]
    assert "mcts:iterations=100 is not in the ladder: no comparison" in lines[1]
    r["mcts:iterations=1600"], cpu["mcts:iterations=1600"] = row(2000), 3.2
    r["mcts:iterations=100"], cpu["mcts:iterations=100"] = row(1500), 0.2
    lines = learned_tool.target_lines(r, cpu, [100, 400, 1600], [100],
                                      {"mcts:iterations=100,prior=learned": (150.0, 20.0, 280.0, 6)},
                                      (-190.0, -260.0, -120.0, 9))
    assert lines[0].startswith("learned - MCTS-400: -190 Elo [-260, -120] (95% CI, 9 seeds)")
    assert "+150 Elo [+20, +280] (95% CI, 6 seeds) over plain MCTS at its CPU" in lines[1]


def test_tiers_are_rated_together_and_the_figure_drawn(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(learned_tool, "presets_of", lambda game: ["random", "tuned"])   # a short test, the same paths
    out = tmp_path / "b"
    # levels up to 32: the prior search's CPU (the 2p model's network, several times MCTS-4's) lies between two
    argv = ["--game", "hellas", "--players", "2", "--games", "2", "--levels", "4,8,32", "--prior-levels", "4",
            "--base", "balanced,learned", "--presets-apart", "--anchor", "16:8", "--anchor-games", "2",
            "--cpu-games", "1", "--out", str(out)]
    learned_tool.main(argv + ["--report"])
    text = capsys.readouterr().out
    t = pl.read_csv(out / "hellas-2p-strength-per-cpu.csv")
    want = {"balanced", "learned", "mcts:iterations=4", "mcts:iterations=8", "mcts:iterations=32",
            "mcts:iterations=4,prior=learned", "mcts:iterations=16", "random", "tuned"}
    assert set(t["strategy"]) == want
    top = t.filter(pl.col("strategy") == "mcts:iterations=16").row(0, named=True)
    assert top["n_games"] == 2 and top["seeds"] == 1          # one game in each seat, both from seed 0
    assert (t["cpu"] > 0).all() and t.filter(pl.col("strategy") == "random")["n_games"][0] > 0
    assert (out / "hellas-2p-strength-per-cpu.png").stat().st_size > 10_000
    assert (out / "hellas-2p-report" / "report.html").exists()
    assert "| mcts:iterations=16 |" in text and "interpolated" in text and "95% CI" in text
    learned_tool.main(argv)                                   # a rerun: nothing played or timed again
    again = pl.read_csv(out / "hellas-2p-strength-per-cpu.csv")
    assert again.equals(t)


def test_strength_per_cpu_figure_labels_cover_nothing():
    from reports.render.figures_ladder import rating_vs_cpu, short_label
    assert short_label("mcts:iterations=1600") == "MCTS-1600"
    assert short_label("mcts:iterations=100,prior=learned") == "MCTS-100, model prior"
    assert short_label("learned:/tmp/x/hellas-3p.json") == "learned (hellas-3p.json)" and short_label("tuned") == "tuned"
    names = ["random", "balanced", "city_builder", "temple_builder", "quarry_baron", "tuned", "learned",
             "mcts:iterations=100", "mcts:iterations=400", "mcts:iterations=1600", "mcts:iterations=100,prior=learned"]
    cpu = [1e-5, 2.4e-5, 2.5e-5, 2.5e-5, 2.6e-5, 2.7e-5, 1.5e-3, 0.1, 0.4, 1.6, 0.27]
    elo = [500, 1500, 1310, 1480, 1500, 1650, 1780, 1600, 1800, 1900, 1980]
    lo = [e - 40.0 for e in elo]
    lo[-1] = float("nan")
    t = pl.DataFrame({"strategy": names, "kind": ["random"] + ["heuristic"] * 5 + ["learned"] + ["mcts"] * 4,
                      "prior": [False] * 10 + [True], "cpu": cpu, "elo": elo, "elo_lo": lo,
                      "elo_hi": [e + 40.0 for e in elo]})
    fig = rating_vs_cpu(t)
    ax = fig.axes[0]
    r = fig.canvas.get_renderer()
    boxes = [(tx.get_text(), tx.get_window_extent(r)) for tx in ax.texts]
    assert sorted(b[0] for b in boxes) == sorted([short_label(n) for n in names[:-1]]
                                                 + ["MCTS-100, model prior (no CI: one seed)"])
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1:]:
            assert not ba.overlaps(bb), (a, b)
    legend = [tx.get_text() for tx in fig.legends[0].get_texts()]
    assert "MCTS with the model as prior" in legend and any(x.startswith("no interval") for x in legend)


def test_game_scripts_share_their_arguments_and_refuse_bad_ones(capsys):
    h2h, search_cpu = _load("bench_head_to_head"), _load("bench_search_cpu")
    for main, argv in ((h2h.main, ["random", "balanced", "--game", "chess"]),
                       (search_cpu.main, ["iterations=10", "--game", "hellas", "--players", "5"]),
                       (learned_tool.main, ["--game", "yamatai", "--players", "1"])):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2
    err = [x for x in capsys.readouterr().err.splitlines() if "error:" in x]
    assert len(err) == 3 and "unknown game 'chess'" in err[0]
    assert "--players 5: hellas is played by 2, 3, 4" in err[1] and "--players 1: yamatai" in err[2]
    h2h.main(["random", "balanced", "--game", "hellas", "--players", "2", "--pairs", "4", "--batch", "2"])
    out = capsys.readouterr().out
    assert "hellas 2p: random vs balanced" in out and "    4 pairs: random scores" in out
    search_cpu.main(["iterations=5;iterations=10", "--game", "hellas", "--players", "2", "--games", "1",
                     "--share", "0.2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("hellas 2p:") and lines[-1].strip().startswith("iterations=10")


def test_a_difference_interval_from_the_fits_covariance():
    """Two strategies: their centred ratings are +d/2 and -d/2, so the difference's interval is twice a
    rating's (same fit, same seeds); with a third, the difference is narrower than the two intervals added."""
    from analysis.ratings import bradley_terry
    rng = np.random.default_rng(4)
    rows = []
    for gi in range(40):                                  # 40 seeds, 3 seatings each: seed-level clusters
        for lineup in (("x", "y", "y"), ("y", "x", "y"), ("y", "y", "x")):
            ranks = rng.permutation(3) + 1 if rng.random() < 0.6 else np.array([1, 2, 3])
            rows += [{"run": "|".join(lineup), "game_index": gi, "seat": s, "strategy": lineup[s],
                      "rank": int(ranks[s])} for s in range(3)]
    p = pl.DataFrame(rows)
    bt = {r["strategy"]: r for r in bradley_terry(p, cluster="game_index").iter_rows(named=True)}
    (d, lo, hi, seeds), (d2, lo2, hi2, _) = learned_tool.differences(
        p.rename({"run": "lineup"}), "lineup", [("x", "y"), ("x", {"x": 0.5, "y": 0.5})])
    assert seeds == 40 and d == pytest.approx(bt["x"]["elo"] - bt["y"]["elo"])
    assert hi - lo == pytest.approx(2 * (bt["x"]["elo_hi"] - bt["x"]["elo_lo"]), rel=1e-6)
    # x against the mid-point of x and y: half the difference, half its interval
    assert d2 == pytest.approx(d / 2) and hi2 - lo2 == pytest.approx((hi - lo) / 2, rel=1e-6)
    assert learned_tool.degenerate(p.rename({"run": "lineup"}), "lineup") == []
    last = pl.DataFrame([{"run": "x|y|z", "game_index": gi, "seat": s, "strategy": "xyz"[s], "rank": s + 1}
                         for gi in range(5) for s in range(3)])         # z never finishes ahead of anyone
    both = pl.concat([p, last]).rename({"run": "lineup"})
    assert learned_tool.degenerate(both, "lineup") == ["z"]
    (d3, lo3, hi3, _), = learned_tool.differences(both, "lineup", [("x", "y")])
    assert abs(d3 - d) < 30 and lo3 < d3 < hi3           # z's record leaves x - y where the games put it


def test_head_to_head_is_two_players_and_resumes_only_its_own_pairs(tmp_path, capsys):
    """Swapping seats 0 and 1 cancels the seat in 2-player games only (bench_one_seat.py rotates A through
    every seat); the kept batches of --out are refused to a run of other strategies or another seed."""
    h2h = _load("bench_head_to_head")
    with pytest.raises(SystemExit) as e:
        h2h.main(["random", "balanced", "--game", "hellas", "--players", "3"])
    assert e.value.code == 2 and "bench_one_seat.py" in capsys.readouterr().err
    out = str(tmp_path / "h2h")
    argv = ["random", "balanced", "--game", "hellas", "--pairs", "4", "--batch", "2", "--out", out]
    h2h.main(argv)
    first = [x for x in capsys.readouterr().out.splitlines() if "pairs:" in x][-1]
    h2h.main(argv)                                            # resumed: the same estimate, nothing played
    assert [x for x in capsys.readouterr().out.splitlines() if "pairs:" in x][-1].split("; ")[0] == \
        first.split("; ")[0]
    for other in (["balanced", "random"], ["random", "balanced", "--seed", "2"], ["random", "nosuch"]):
        with pytest.raises(SystemExit) as e:
            h2h.main(other + ["--game", "hellas", "--pairs", "4", "--batch", "2", "--out", out])
        assert e.value.code == 2
        err = [x for x in capsys.readouterr().err.splitlines() if "error:" in x]
        assert len(err) == 1 and ("other settings" in err[0] or "nosuch" in err[0]), err


def test_search_cpu_reads_each_setting_with_its_type(capsys):
    """reuse and cutoff are whole numbers (as mcts:... reads them); an unknown key is one error line."""
    search_cpu = _load("bench_search_cpu")
    search_cpu.main(["iterations=5,reuse=1;iterations=5,cutoff=3", "--game", "hellas", "--players", "2",
                     "--games", "1", "--share", "0.2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].strip().startswith("iterations=5,reuse=1") and lines[-1].strip().startswith("iterations=5,cutoff")
    with pytest.raises(SystemExit) as e:
        search_cpu.main(["iterations=5,nosuch=1", "--game", "hellas", "--players", "2"])
    err = [x for x in capsys.readouterr().err.splitlines() if "error:" in x]
    assert e.value.code == 2 and len(err) == 1 and "nosuch" in err[0]
