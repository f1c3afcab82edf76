"""Outcome metrics (issue 20): the engines' lead columns, their analysis and report sections."""
import numpy as np
import polars as pl
import pytest

import simcore
import strategies
import reports.runset
from simcore.lead import lead_columns, score_snapshots

# ---------------------------------------------------------------- lead of hand-built snapshots

def test_lead_columns_of_known_snapshots():
    # leader 0, then 1, then 2, then 0 again: three changes; the winner (0) trailed by 3 at rounds 2 and 3
    snaps = [[3, 1, 0], [1, 4, 0], [2, 2, 5], [6, 2, 5]]
    assert lead_columns(snaps, winners=[0]) == {"lead_changes": 3, "led_from": 4, "max_deficit": 3}
    # a tied top changes nothing: 0 leads, tie, 0 leads again
    assert lead_columns([[2, 1], [3, 3], [5, 4]], winners=[0]) == {"lead_changes": 0, "led_from": 1,
                                                                  "max_deficit": 0}
    # a tie for the top counts as leading for "led for good"; a shared win: both seats win
    assert lead_columns([[1, 2], [4, 4]], winners=[0, 1]) == {"lead_changes": 0, "led_from": 1, "max_deficit": 0}
    assert lead_columns([[1, 5], [2, 3], [4, 4]], winners=[0]) == {"lead_changes": 0, "led_from": 3,
                                                                   "max_deficit": 4}


# ---------------------------------------------------------------- kernel against the step API

def _lineups(game, players):
    bal = strategies.resolve(game, "balanced").as_policy()
    return {"balanced": [bal] * players, "random": [None] * players}


@pytest.mark.parametrize("game,n", [("hellas", 12), ("yamatai", 3), ("akrotiri", 6)])
def test_kernel_lead_columns_equal_the_step_api_replay(game, n):
    mod = simcore.games[game]
    checked = {"changes": 0, "behind": 0}
    for players in mod.PLAYERS:
        seeds = np.arange(40, 40 + n, dtype=np.uint64)
        for pols in _lineups(game, players).values():
            res = mod.play_batch(players, seeds, pols, events=False)
            g, p = res["games"], res["players"]
            length = g["turns"] if game == "akrotiri" else g["rounds"]
            for i, seed in enumerate(seeds):
                snaps = score_snapshots(game, players, int(seed), policies=pols)
                assert len(snaps) == int(length[i])             # one snapshot per round, the last is final
                assert snaps[-1] == [int(x) for x in p["total"][i]]
                if game == "yamatai":
                    winners = [int(g["winner"][i])]
                else:
                    winners = [s for s in range(players) if (int(g["winners"][i]) >> s) & 1]
                want = lead_columns(snaps, winners)
                assert {k: int(g[k][i]) for k in want} == want, (players, int(seed), snaps, winners)
                checked["changes"] += want["lead_changes"] > 0
                checked["behind"] += want["max_deficit"] > 0
    assert checked["changes"] > 0 and checked["behind"] > 0        # the cases were exercised


def test_hellas_space_takes_count_the_choices_of_a_replay():
    from simcore import hellas

    pols = _lineups("hellas", 3)["balanced"]
    seeds = np.arange(7, 17, dtype=np.uint64)
    res = hellas.play_batch(3, seeds, pols, events=False)["players"]
    cfg = hellas.make_config(3)
    kinds = ["house", "house_or_agora", "palace", "quarry", "temple", "monument", "three_marble"]
    exact = 0
    for i, seed in enumerate(seeds):
        st = hellas.new_game(players=3, seed=int(seed), config=cfg)
        want = np.zeros((3, len(kinds)), dtype=int)
        for a in hellas.play_actions(3, int(seed), policies=pols, config=cfg):
            if st.to_dict()["phase"] == "choose_space":
                want[st.current_player(), kinds.index(cfg.spaces[a]["action"])] += 1
            st.apply(a)
        got = np.array([[int(res[f"space_{k}"][i, s]) for k in kinds] for s in range(3)])
        # every cube a seat places is one space chosen; a choice forced (one legal space) is no
        # decision of the replay, so the kernel may count more, never fewer
        assert got.sum(axis=1).tolist() == [sum(cfg.cubes())] * 3
        assert (got >= want).all() and (got - want).sum() <= 3
        exact += (got == want).all()
    assert exact >= len(seeds) // 2            # forced choices are rare


# ---------------------------------------------------------------- analysis of a hand-built table

def test_outcome_summary_of_a_known_table():
    from analysis.outcomes import margin_counts, outcome_counts, outcome_summary

    games = pl.DataFrame({"game_index": [0, 1, 2, 3], "rounds": [3, 3, 3, 3], "decisions": [10, 12, 14, 16],
                          "lead_changes": [0, 1, 2, 0], "led_from": [1, 3, 2, 1], "max_deficit": [0, 4, 2, 0]})
    players = pl.DataFrame({"game_index": [0, 0, 1, 1, 2, 2, 3, 3], "total": [9, 4, 6, 6, 7, 5, 3, 2]})
    counts = pl.concat([outcome_counts(games, "rounds"), margin_counts(players)], how="diagonal_relaxed")
    s = {r["statistic"]: r for r in outcome_summary(counts, length="rounds").iter_rows(named=True)}
    assert s["length"]["estimate"] == 3 and s["decisions"]["estimate"] == 13
    assert s["margin"]["estimate"] == (5 + 0 + 2 + 1) / 4
    assert s["decided_by_le_0"]["estimate"] == 0.25 and s["decided_by_le_2"]["estimate"] == 0.75
    assert s["lead_changes"]["estimate"] == 0.75 and s["any_lead_change"]["estimate"] == 0.5
    assert s["comeback"]["estimate"] == 0.5 and s["late_comeback"]["estimate"] == 0.25   # game 1 led from round 3
    assert s["drama"]["n"] == 2 and s["drama"]["estimate"] == 3.0                        # deficits 4 and 2
    assert s["max_deficit"]["estimate"] == 1.5 and s["led_from"]["estimate"] == 7 / 4
    sd = np.std([0, 1, 2, 0], ddof=1)
    half = s["lead_changes"]["hi"] - 0.75
    assert half == pytest.approx(3.182446305 * sd / 2, rel=1e-6)                          # t(3) interval
    assert 0 < s["comeback"]["lo"] < 0.5 < s["comeback"]["hi"] < 1                         # Wilson


def test_margin_counts_do_not_depend_on_row_order():
    from analysis.outcomes import margin_counts

    rng = np.random.default_rng(3)
    p = pl.DataFrame({"game_index": np.repeat(np.arange(200), 3), "total": rng.integers(0, 40, 600)})
    fast = margin_counts(p).sort("value")                      # game-major rows: the array path
    slow = margin_counts(p.sample(fraction=1.0, shuffle=True, seed=1)).sort("value")   # the group-by path
    assert fast.equals(slow) and fast["n_games"].sum() == 200
    t = p["total"].to_numpy().reshape(200, 3).copy()
    t.sort(axis=1)
    want = np.bincount(t[:, 2] - t[:, 1])
    assert dict(zip(fast["value"].to_list(), fast["n_games"].to_list())) == {
        v: int(c) for v, c in enumerate(want) if c}


def test_option_takes_add_up_over_batches():
    from analysis._common import add_up
    from analysis.components import option_sums, option_takes_from_sums

    p = pl.DataFrame({"game_index": [0, 0, 1, 1], "n_players": [2] * 4, "space_palace": [0, 2, 1, 0]})
    whole = option_takes_from_sums(option_sums(p, ["space_palace"]))
    parts = add_up([option_sums(p[:2], ["space_palace"]), option_sums(p[2:], ["space_palace"])],
                   ["n_players", "option"])
    split = option_takes_from_sums(parts)
    assert whole["take_rate"].item() == 0.5 == split["take_rate"].item()
    assert whole["per_game"].item() == 0.75 == split["per_game"].item()
    assert split["per_game_hi"].item() == pytest.approx(whole["per_game_hi"].item())


def test_dominance_finds_the_strategy_that_beats_every_other():
    from analysis.ratings import dominance, pairwise_win_matrix

    # x finishes ahead of y and z in every game; y and z split
    rows = []
    for g in range(60):
        order = ["x", "y", "z"] if g % 2 else ["x", "z", "y"]
        for seat, name in enumerate(np.roll(order, g % 3)):
            rows.append({"game_index": g, "seat": seat, "strategy": str(name), "rank": order.index(str(name)) + 1})
    dom = dominance(pairwise_win_matrix(pl.DataFrame(rows)))
    top = dom.row(0, named=True)
    assert top["strategy"] == "x" and top["dominant"] and top["beats"] == 2
    assert dom.filter(pl.col("strategy") != "x")["dominant"].to_list() == [False, False]
    assert dom.filter(pl.col("strategy") == "y")["loses"].item() == 1


# ---------------------------------------------------------------- report sections on real runs

@pytest.fixture(scope="module")
def hellas_run(tmp_path_factory):
    from simcore.run import simulate

    out = str(tmp_path_factory.mktemp("runs") / "h3")
    simulate("hellas", players=3, games=600, seed=11, out=out, strategies=strategies.resolve_seats(
        "hellas", 3, "balanced"), progress=False, workers=1, chunk_size=100)
    return out


def test_outcome_section_batches_equal_the_whole_run(hellas_run, monkeypatch):
    import reports.report as R
    from reports.generic import outcome_section

    rs = R.RunSet.from_dirs({"h3": hellas_run})
    whole = outcome_section(rs).tables[0].frame
    monkeypatch.setattr(reports.runset, "BATCH_GAMES", 100)
    rs = R.RunSet.from_dirs({"h3": hellas_run})
    sec = outcome_section(rs)
    got = sec.tables[0].frame
    assert got.equals(whole)
    g = rs.games
    s = {r["statistic"]: r for r in got.iter_rows(named=True)}
    assert s["lead_changes"]["n"] == 600
    assert s["lead_changes"]["estimate"] == pytest.approx(g["lead_changes"].mean())
    assert s["comeback"]["estimate"] == pytest.approx((g["led_from"] > 1).mean())
    assert s["drama"]["estimate"] == pytest.approx(g.filter(pl.col("max_deficit") > 0)["max_deficit"].mean())
    tops = rs.players.group_by("game_index").agg(pl.col("total").sort(descending=True).head(2))
    margins = tops["total"].list.first() - tops["total"].list.last()
    assert s["margin"]["estimate"] == pytest.approx(margins.mean())
    assert "Outcome metrics" in sec.terminal


def test_run_report_has_outcomes_findings_and_space_takes(hellas_run, tmp_path):
    from reports.render.write import write_report
    from reports.report import run_report

    rep = run_report(hellas_run)
    titles = [s.title for s in rep.sections]
    assert "Outcomes: length, margin and the lead" in titles and "Action spaces taken" in titles
    found = rep.sections[0]
    assert found.title == "Findings at a glance" and any("outcomes (600 games)" in p for p in found.paragraphs)
    takes = next(s for s in rep.sections if s.title == "Action spaces taken").tables[0].frame
    assert takes["label"].to_list()[:3] == ["house", "house or agora", "palace"]
    assert takes.filter(pl.col("label") == "quarry")["n"].item() == 1800
    paths = write_report(rep, str(tmp_path / "rep"))
    with open(paths["html"], encoding="utf-8") as fh:
        html = fh.read()
    assert "lead changes" in html and "outcome_distributions" in html


def test_rarely_taken_lists_only_options_whose_ci_is_below_the_threshold():
    from reports.generic import rarely_taken_section
    from reports.render.sections import Section, Table

    f = pl.DataFrame({"run": ["a"] * 3, "n_players": [3] * 3, "label": ["often", "rare", "unclear"],
                      "n": [1000] * 3, "take_rate": [0.5, 0.001, 0.015], "take_lo": [0.47, 0.0002, 0.009],
                      "take_hi": [0.53, 0.006, 0.025]})
    sec = rarely_taken_section([Section("Spaces", tables=[Table("option_take_rates", f, "")])])
    assert sec.tables[0].frame["option"].to_list() == ["rare"]
    assert rarely_taken_section([Section("No takes", tables=[Table("x", pl.DataFrame({"a": [1]}), "")])]) is None


def test_variant_comparison_has_lead_headlines(hellas_run):
    import reports.report as R

    rs = R.RunSet.from_dirs({"a": hellas_run, "b": hellas_run}, group="variant")
    diff = R.variant_section(rs).tables[1].frame
    rows = {r["statistic"]: r for r in diff.iter_rows(named=True) if r["statistic"] in ("lead_changes", "comeback")}
    assert set(rows) == {"lead_changes", "comeback"}
    g = rs.runs["a"].games.collect()
    assert rows["comeback"]["estimate"] == pytest.approx((g["led_from"] > 1).mean())
    assert rows["lead_changes"]["diff"] == 0 and rows["comeback"]["diff"] == 0       # the same games twice
