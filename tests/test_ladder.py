"""`boardlab ladder` and balance per skill level: the design, the trend test, the study kind, the CLI."""
import itertools
import math
import os

import numpy as np
import polars as pl
import pytest

pytest.importorskip("simcore.hellas")

from analysis.skill import seat_share_trend, trend_verdict  # noqa: E402
from reports import cli  # noqa: E402
from reports.ladder import (  # noqa: E402
    CHEAP_FACTOR, LadderPlan, default_pool, design, parse_levels, play_ladder, play_skill)
from reports.commands.ladder import command_report as ladder_report  # noqa: E402
from reports.commands.study import load_study, study_main  # noqa: E402
from reports.study import StudyError  # noqa: E402


def _run(argv, capsys):
    rc = cli.main(argv)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


# ---------------------------------------------------------------- the design

@pytest.mark.parametrize("m,k", [(9, 3), (6, 4), (5, 2), (4, 3)])
def test_design_is_balanced_by_seat_and_pair(m, k):
    names = [f"s{i}" for i in range(m)]
    seatings, rounds = design(names, k, games=200, searching={"s0"})
    assert len(seatings) == math.comb(m, k) * k
    per_round = math.comb(m - 1, k - 1) * k
    assert rounds == math.ceil(200 / per_round)
    seat = {(n, s): 0 for n in names for s in range(k)}
    pair = {p: 0 for p in itertools.combinations(names, 2)}
    for lineup, games in seatings:
        assert len(set(lineup)) == k
        # only blocks with the searching strategy play the base count; the others CHEAP_FACTOR times it
        assert games == rounds * (1 if "s0" in lineup else CHEAP_FACTOR)
        if "s0" not in lineup:
            continue
        for s, n in enumerate(lineup):
            seat[n, s] += 1
        for a, b in itertools.combinations(sorted(lineup), 2):
            pair[a, b] += 1
    # among the search blocks: s0 in every seat equally often, and every strategy meets s0 equally often
    assert len({seat["s0", s] for s in range(k)}) == 1
    assert len({v for (a, b), v in pair.items() if a == "s0"}) == 1
    # every strategy plays at least `games` games (whole rounds), s0 exactly rounds * per_round
    assert sum(g for lu, g in seatings if "s0" in lu) == rounds * per_round >= 200


def test_design_with_fewer_strategies_than_seats_rotates_with_repeats():
    seatings, rounds = design(["a", "b"], 3, games=6, searching={"b"})
    assert [lu for lu, _ in seatings] == [("a", "b", "a"), ("b", "a", "b")]
    assert rounds == 3 and all(g == 3 for _, g in seatings)


def test_design_refuses_a_name_twice_and_a_single_strategy():
    with pytest.raises(ValueError, match="once"):
        design(["a", "a", "b"], 2, 10)
    with pytest.raises(ValueError, match="two"):
        design(["a"], 2, 10)


def test_default_pool_holds_random_every_preset_the_tuned_one_and_the_levels():
    pool = default_pool("hellas", [100, 400, 1600])
    names = list(pool)
    assert names[0] == "random" and {"balanced", "city_builder", "temple_builder", "quarry_baron",
                                     "tuned"} <= set(names)
    assert names[-3:] == ["mcts:iterations=100", "mcts:iterations=400", "mcts:iterations=1600"]
    assert pool["mcts:iterations=400"].search["iterations"] == 400   # the default count keeps its name


@pytest.mark.parametrize("text", ["", "0,100", "100,x", "100,100", "-5", "1.5"])
def test_parse_levels_refuses(text):
    with pytest.raises(ValueError, match="--levels"):
        parse_levels(text)


def test_parse_levels_sorts():
    assert parse_levels("1600, 100,400") == [100, 400, 1600]


# ---------------------------------------------------------------- the trend test

def _selfplay(levels, share0, games, k=3, seed=0, tie_rate=0.0):
    """Synthetic self-play rows: seat 0 wins with probability share0[level], another seat otherwise;
    a fraction ``tie_rate`` of games end in a k-way tie (1/k each)."""
    rng = np.random.default_rng(seed)
    frames = []
    for level in levels:
        winner = np.where(rng.random(games) < share0[level], 0, 1 + rng.integers(k - 1, size=games))
        shares = (winner[:, None] == np.arange(k)[None, :]).astype(float)
        shares[rng.random(games) < tie_rate] = 1 / k
        frames.append(pl.DataFrame({"level": level, "n_players": k, "game_index": np.repeat(np.arange(games), k),
                                    "seat": np.tile(np.arange(k), games), "win_share": shares.ravel()}))
    return pl.concat(frames)


def test_trend_test_finds_a_known_trend_and_says_the_advantage_grows():
    elo = {"weak": 1200.0, "mid": 1500.0, "strong": 1800.0}
    players = _selfplay(elo, {"weak": 0.36, "mid": 0.42, "strong": 0.50}, games=3000, tie_rate=0.05)
    t = seat_share_trend(players, elo)
    s0 = t.filter(pl.col("seat") == 0).row(0, named=True)
    assert s0["n"] == 9000 and s0["n_levels"] == 3
    assert s0["slope"] > 0 and s0["slope_lo"] > 0 and s0["p_value"] < 1e-6
    assert abs(s0["share_min"] - 0.36) < 0.03 and abs(s0["share_max"] - 0.50) < 0.03
    assert trend_verdict(s0) == "grows"
    # seat 0's gain is the others' loss
    assert all(r["slope"] < 0 for r in t.filter(pl.col("seat") > 0).iter_rows(named=True))


def test_trend_test_without_a_trend_holds_and_keeps_its_level():
    elo = {"weak": 1200.0, "mid": 1500.0, "strong": 1800.0}
    p = []
    for seed in range(200):
        players = _selfplay(elo, dict.fromkeys(elo, 0.40), games=600, seed=seed, tie_rate=0.05)
        p.append(seat_share_trend(players, elo).filter(pl.col("seat") == 0)["p_value"][0])
    p = np.array(p)
    # no trend: the test rejects at 5% in about 5% of 200 replications (binomial 95% range 2%-8.5%)
    assert 0.015 <= (p < 0.05).mean() <= 0.09
    s0 = seat_share_trend(_selfplay(elo, dict.fromkeys(elo, 0.40), games=3000, seed=1, tie_rate=0.05),
                          elo).filter(pl.col("seat") == 0).row(0, named=True)
    assert (trend_verdict(s0) == "holds") == (s0["p_value"] >= 0.05)


def test_trend_test_counts_a_tie_as_one_kth_and_shrinking_advantage():
    # every game a 3-way tie at the strong level: seat 0's share there is exactly 1/3 (fair)
    elo = {"weak": 1300.0, "strong": 1700.0}
    a = _selfplay(["weak"], {"weak": 0.5}, games=2000, seed=1)
    b = _selfplay(["strong"], {"strong": 0.5}, games=2000, seed=2, tie_rate=1.0)
    s0 = seat_share_trend(pl.concat([a, b]), elo).filter(pl.col("seat") == 0).row(0, named=True)
    assert s0["share_max"] == pytest.approx(1 / 3, abs=1e-6)
    assert trend_verdict(s0) == "shrinks"


def test_trend_needs_a_rating_for_every_level():
    players = _selfplay(["a", "b"], {"a": 0.4, "b": 0.4}, games=10)
    with pytest.raises(ValueError, match="no rating"):
        seat_share_trend(players, {"a": 1500})


# ---------------------------------------------------------------- a real ladder

def _plan(pool_names, players=2, games=20, skill=(), skill_games=0, levels=(50,)):
    pool = default_pool("hellas", levels, pool_names)
    return LadderPlan(game="hellas", players=players, pool=pool, games=games, seed=5, skill=list(skill),
                      skill_games=skill_games, skill_cheap_games=skill_games * 10)


def test_small_ladder_orders_random_balanced_mcts_and_reports(tmp_path):
    # 2-player Hellas: MCTS-50 beats balanced in ~85% of games, balanced beats random in all
    plan = _plan(["random", "balanced"], games=20, skill=["random", "balanced", "mcts:iterations=50"],
                 skill_games=12)
    rs = play_ladder(plan, str(tmp_path / "ladder"), workers=2, log=lambda s: None)
    skill = play_skill(plan, str(tmp_path / "skill"), workers=1, log=lambda s: None)
    report = ladder_report(plan, rs, skill, commands=["boardlab ladder ..."])
    tables = {t.name: t.frame for s in report.sections for t in s.tables}
    elo = dict(zip(tables["compare_ratings"]["strategy"], tables["compare_ratings"]["elo"]))
    assert elo["random"] < elo["balanced"] < elo["mcts:iterations=50"]
    comp = tables["ladder_compute"]
    assert dict(zip(comp["strategy"], comp["playouts"])) == {"random": 0, "balanced": 0, "mcts:iterations=50": 50}
    # 5 rounds of 4 games a strategy; (random, balanced) is a cheap block: 50x its 2 x 5 games
    games = dict(zip(tables["ladder_games"]["strategy"], tables["ladder_games"]["games"]))
    assert games == {"random": 500 + 10, "balanced": 500 + 10, "mcts:iterations=50": 20}
    trend = tables["skill_seat_trend"]
    assert trend.height == 2 and set(trend["verdict"]) <= {"grows", "shrinks", "reverses", "holds"}
    lv = tables["skill_levels"]
    assert set(lv["level"]) == {"random", "balanced", "mcts:iterations=50"}
    assert dict(zip(lv.filter(pl.col("seat") == 0)["level"], lv.filter(pl.col("seat") == 0)["n"])) == \
        {"random": 120, "balanced": 120, "mcts:iterations=50": 12}
    findings = report.sections[0]
    assert findings.title == "Findings at a glance"
    assert any(p.startswith("**Balance per skill level**: Seat 0's advantage **") and "p = " in p
               for p in findings.paragraphs)
    assert "skill_seat_advantage" in tables and "skill_category_logit" in tables


def test_ladder_results_do_not_depend_on_the_workers(tmp_path):
    plan = _plan(["random", "balanced", "city_builder"], games=3, levels=(5,))
    frames = []
    for w in (1, 2):
        rs = play_ladder(plan, str(tmp_path / f"w{w}"), workers=w, log=lambda s: None)
        frames.append(rs.players.drop("lineup").sort("game_key", "seat"))
    assert frames[0].equals(frames[1])


# ---------------------------------------------------------------- the CLI

@pytest.mark.parametrize("args,words", [
    (["ladder", "nosuchgame", "--players", "3"], "unknown game 'nosuchgame'"),
    (["ladder", "akrotiri", "--players", "3"], "akrotiri is played by 2 players, not 3"),
    (["ladder", "hellas", "--players", "3", "--levels", "100,abc"], "--levels must be MCTS iteration counts"),
    (["ladder", "hellas", "--players", "3", "--levels", "0"], "--levels must be MCTS iteration counts"),
    (["ladder", "hellas", "--players", "3", "--skill", "balanced,godlike"], "skill level 'godlike' is not in"),
    (["ladder", "hellas", "--players", "3", "--skill", "balanced"], "at least two levels"),
    (["ladder", "hellas", "--players", "3", "--strategies", "balnced"], "unknown strategy 'balnced'"),
    (["ladder", "hellas", "--players", "3", "--variant", "quarry_yields=sideways"], "quarry_yields"),
    (["ladder", "hellas", "--players", "3", "--games", "0"], "games"),
])
def test_ladder_bad_input_is_one_line_exit_2(tmp_path, capsys, args, words):
    rc, out, err = _run(args + ["--out", str(tmp_path / "o")], capsys)
    assert rc == 2 and out == ""
    assert err.startswith("boardlab: error: ") and err.count("\n") == 1 and words in err
    assert not (tmp_path / "o").exists()


def test_ladder_command_end_to_end(tmp_path, capsys):
    out = tmp_path / "lad"
    argv = ["ladder", "hellas", "--players", "2", "--strategies", "random,balanced", "--levels", "20",
            "--games", "2", "--skill", "random,balanced", "--skill-games", "5", "--workers", "1", "--out", str(out)]
    rc, text, err = _run(argv, capsys)
    assert rc == 0, err
    assert "ladder: 6/6 seatings" in err and "Bradley" in text and "Seat 0's advantage" in text
    assert (out / "report.html").exists() and (out / "report.md").exists()
    for name in ("compare_ratings", "ladder_compute", "skill_seat_trend", "skill_levels"):
        assert (out / "tables" / f"{name}.csv").exists()
    assert (out / "figures" / "ladder_rating_vs_compute.png").exists()
    assert (out / "figures" / "skill_seat_share_vs_rating.png").exists()
    md = (out / "report.md").read_text()
    assert "boardlab ladder hellas --players 2" in md
    # a rerun resumes (nothing left to play) and reports the same; other settings on the folder are refused
    ratings = (out / "tables" / "compare_ratings.csv").read_text()
    assert _run(argv, capsys)[0] == 0
    assert (out / "tables" / "compare_ratings.csv").read_text() == ratings
    ties = pl.read_csv(out / "tables" / "skill_ties.csv")
    levels = pl.read_csv(out / "tables" / "skill_levels.csv").filter(pl.col("seat") == 0)
    assert ties["level"].to_list() == ["random", "balanced"]       # the levels' order, every time
    assert ties.join(levels, on="level").select((pl.col("games") == pl.col("n")).all()).item()
    argv[argv.index("--games") + 1] = "5"
    rc, _, err = _run(argv, capsys)
    last = err.strip().splitlines()[-1]
    assert rc == 2 and last.startswith("boardlab: error: ") and "new output folder" in last
    assert "Traceback" not in err


# ---------------------------------------------------------------- the study kind

SKILL = """
[study]
game = "hellas"
seed = 3
games = 40

[[skill]]
name = "skill"
players = 3
levels = ["random", "balanced", "mcts:iterations=400"]
search_games = 4
ladder_games = 6
quick_search_games = 2
"""


def test_skill_part_parses_and_quick_caps_it(tmp_path):
    from reports.study import quick

    path = tmp_path / "s.toml"
    path.write_text(SKILL)
    study = load_study(str(path))
    (part,) = study.parts
    plan = part.spec
    assert part.kind == "skill" and list(plan.pool) == ["random", "balanced", "mcts:iterations=400"]
    assert plan.skill_runs() == [("random", 40), ("balanced", 40), ("mcts:iterations=400", 4)]
    assert plan.games == 6 and part.games == plan.total_games() == study.total_games()
    quick(study)
    assert plan.skill_runs() == [("random", 40), ("balanced", 40), ("mcts:iterations=400", 2)]
    assert plan.games == 2


@pytest.mark.parametrize("change,words", [
    (("levels = [\"random\", \"balanced\", \"mcts:iterations=400\"]", "levels = [\"balanced\"]"),
     "levels must be a list of at least two"),
    (("levels = [\"random\", \"balanced\", \"mcts:iterations=400\"]", "levels = [\"random\", \"balnced\"]"),
     "unknown strategy 'balnced'"),
    (("search_games = 4\n", ""), "missing key 'search_games'"),
    (("search_games = 4", "search_games = 0"), "search_games must be a positive integer"),
    (("ladder_games = 6", "ladder_games = \"six\""), "ladder_games must be an integer"),
    (("players = 3", "players = [2, 3]"), "players must be one player count"),
    (("quick_search_games = 2", "iterations = 5"), "unknown key 'iterations'"),
    (("levels = [\"random\", \"balanced\", \"mcts:iterations=400\"]",
      "levels = [\"balanced\", \"balanced\"]"), "twice"),
])
def test_skill_part_bad_keys_are_refused(tmp_path, change, words):
    path = tmp_path / "s.toml"
    assert change[0] in SKILL
    path.write_text(SKILL.replace(*change))
    with pytest.raises(StudyError, match=words.replace("[", r"\[")) as exc:
        load_study(str(path))
    assert str(path) in str(exc.value) and "[[skill]] 'skill'" in str(exc.value)


def test_skill_study_runs_and_reports(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(SKILL.replace("mcts:iterations=400", "mcts:iterations=20"))
    report, paths, _ = study_main(str(path), str(tmp_path / "out"), workers=1, log=lambda s: None)
    names = {t.name for s in report.sections for t in s.tables}
    assert {"skill_compare_ratings", "skill_skill_seat_trend", "skill_seat_advantage"} <= names
    assert any("Seat 0's advantage **" in p for p in report.sections[0].paragraphs)
    assert os.path.exists(paths["html"])


def test_skill_part_of_akrotiri_reports_its_card_values_per_level(tmp_path):
    # the game's own sections (map cards, goals, market) split by level: the "level" column reaches them
    path = tmp_path / "ak.toml"
    path.write_text("""
[study]
game = "akrotiri"
seed = 2
games = 60

[[skill]]
name = "ak"
players = 2
levels = ["random", "balanced"]
ladder_games = 4
""")
    report, _, _ = study_main(str(path), str(tmp_path / "out"), workers=1, log=lambda s: None)
    tables = {t.name: t.frame for s in report.sections for t in s.tables}
    deck = next(f for n, f in tables.items() if "map" in n and "deck" in n)
    assert set(deck["level"].cast(pl.String)) == {"random", "balanced"}
    trend = tables["ak_skill_seat_trend"]
    assert trend["n"].to_list() == [120, 120]
