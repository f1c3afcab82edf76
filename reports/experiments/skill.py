"""``[[skill]]`` and ``boardlab ladder``: the levels rated by a ladder, then every seat at each level
(balance per skill level). The ladder's design and play are ``reports.ladder``'s; its sections
(:func:`ladder_sections`: the ratings of ``reports.compare`` and the ladder's figures) and those of
the balance per skill level (:func:`skill_sections`) are here, beside the game's own."""
from __future__ import annotations

import dataclasses
import os

import polars as pl

from reports.experiments._part import COMMON_KEYS, StudyError, check, variant_of
from reports.ladder import (CHEAP_FACTOR, LadderPlan, compute_table, iterations_of, play_ladder, play_skill, ratings_of,
                            too_few_clusters_text)
from reports.precision_parts import precision_keys, precision_of, precision_text, with_run_intervals
from reports.render.figures_ladder import rating_vs_compute, rating_vs_cpu, seat_share_vs_rating
from reports.render.sections import Fig, Section, Table, caption_of, text_table

KEYS = COMMON_KEYS | {"levels", "games", "search_games", "ladder_games", "quick_games", "quick_search_games",
                      "precision", "budget"}


def parse(part, t, ctx):
    variant = variant_of(t.get("variant", {}), f"{ctx.where}: variant", ctx.mod, ctx.players[0])
    part.games = ctx.games
    return parse_skill_part(part, t, ctx.where, ctx.players, variant)


def quick(part, cap):
    quick_skill_part(part, cap)


def run(part, ctx):
    return run_skill_part(part, ctx.base, workers=ctx.workers, log=ctx.log)


def runs(part, rs):
    return rs.runs


def sections(part, rs, figures=None):
    return skill_part_sections(part, rs)


def parse_skill_part(part, t, where, players, variant):
    """Fill ``part`` (a ``reports.study.Part`` of kind "skill") from its table ``t``; StudyError naming the key.

    Keys: ``levels`` (at least two strategies, in any order), ``games`` (self-play games of a level that
    does not search), ``search_games`` (of a level that searches; required when one does),
    ``ladder_games`` (games each level plays in the levels' own ladder, which rates them; default
    ``search_games``), ``quick_games`` (``--quick`` cap of ``games``), ``quick_search_games`` (``--quick``
    cap of ``search_games`` and ``ladder_games``, default 10).
    """
    import strategies

    if len(players) != 1:
        raise StudyError(f"{where}: players must be one player count for a skill part, not {t['players']!r}")
    levels = t.get("levels")
    if not isinstance(levels, list) or len(levels) < 2:
        raise StudyError(f"{where}: levels must be a list of at least two strategies, e.g. [\"random\", "
                         f"\"balanced\", \"mcts:iterations=100\"], not {levels!r}")
    pool = {}
    for name in levels:
        check(name, str, f"{where}: levels", "a strategy name")
        try:
            s = strategies.resolve(part.game, name)
        except (ValueError, KeyError, FileNotFoundError) as exc:
            raise StudyError(f"{where}: levels: {exc}") from None
        if s.searches:                    # the name as written: mcts:iterations=400 stays that
            s = dataclasses.replace(s, name=name.strip())
        if s.name in pool:
            raise StudyError(f"{where}: levels lists {s.name!r} twice")
        pool[s.name] = s
    counts = {}
    for key, default in (("games", part.games or None), ("search_games", None), ("ladder_games", None),
                         ("quick_search_games", 10)):
        v = t.get(key, default)
        if v is None:
            continue
        check(v, int, f"{where}: {key}")
        if v <= 0:
            raise StudyError(f"{where}: {key} must be a positive integer, not {v}")
        counts[key] = v
    if "search_games" not in counts and any(s.searches for s in pool.values()):
        raise StudyError(f"{where}: missing key 'search_games' (self-play games of each level that searches; "
                         f"such a game costs thousands of heuristic ones, so give it explicitly)")
    search = counts.get("search_games", counts["games"])
    part.players, part.variant = players[0], variant
    part.spec = LadderPlan(game=part.game, players=players[0], pool=pool,
                           games=counts.get("ladder_games", search), seed=part.seed, variant=variant,
                           skill=list(pool), skill_games=search, skill_cheap_games=counts["games"])
    part.spec.quick_search_games = counts["quick_search_games"]
    part.spec.precision, part.spec.skill_seconds = precision_keys(t, where)
    part.games = part.spec.total_games()
    return part


def quick_skill_part(part, cap):
    """``--quick``: cap the self-play of the levels that do not search at ``cap``, the rest at the part's
    ``quick_search_games`` (or at ``cap`` when smaller)."""
    plan = part.spec
    small = min(getattr(plan, "quick_search_games", 10), cap)
    plan.skill_cheap_games = min(plan.skill_cheap_games, cap)
    plan.skill_games = min(plan.skill_games, small)
    plan.games = min(plan.games, small)
    part.games = plan.total_games()


def run_skill_part(part, base, workers=None, log=print):
    """Play a skill part: the levels' ladder, then their self-play; one RunSet (labels ``ladder/…``,
    ``skill/…``)."""
    from reports.runset import RunSet

    plan = part.spec
    log(f"{part.title}: {plan.summary()}")
    lad = play_ladder(plan, os.path.join(base, part.name, "ladder"), workers=workers, log=log)
    sk = play_skill(plan, os.path.join(base, part.name, "skill"), workers=workers, log=log)
    runs = {f"ladder/{k}": v for k, v in lad.runs.items()}
    runs.update({f"skill/{k}": v for k, v in sk.runs.items()})
    return RunSet(runs, group="run", title=part.title)


def skill_part_sections(part, rs) -> list:
    """The sections of a skill part from its RunSet (:func:`run_skill_part`)."""
    from importlib import import_module

    from reports.components import game_sections
    from reports.games import has_plugin, plugin_of
    from reports.runset import RunSet

    lad = RunSet({k[len("ladder/"):]: v for k, v in rs.runs.items() if k.startswith("ladder/")}, group="lineup")
    sk = RunSet({k[len("skill/"):]: v for k, v in rs.runs.items() if k.startswith("skill/")}, group="level")
    secs = ladder_sections(part.spec, lad)
    secs[0].terminal = secs[2].terminal = ""
    plug = plugin_of(import_module(f"reports.games.{sk.game}") if has_plugin(sk.game) else None)
    return secs + skill_sections(sk, ratings_of(secs[1]), game_sections(plug))


# ---------------------------------------------------------------- the ladder's sections

def cpu_section(plan: LadderPlan, ratings: pl.DataFrame, cpu: dict) -> Section:
    """Rating against CPU seconds a game (strength per CPU-second), table and figure."""
    r = {row["strategy"]: row for row in ratings.iter_rows(named=True)}
    names = [n for n in plan.pool if n in r and n in cpu]
    kind = {n: plan.pool[n].kind if plan.pool[n].kind in ("mcts", "learned") else "heuristic" for n in names}
    prior = {n: bool(plan.pool[n].searches and (plan.pool[n].search or {}).get("prior")) for n in names}
    table = pl.DataFrame({"strategy": names, "kind": [kind[n] for n in names], "prior": [prior[n] for n in names],
                          "cpu": [float(cpu[n]) for n in names], "elo": [r[n]["elo"] for n in names],
                          "elo_lo": [r[n]["elo_lo"] for n in names], "elo_hi": [r[n]["elo_hi"] for n in names]})
    fig = rating_vs_cpu(table, caption=(
        "Bradley–Terry rating (Elo scale, cluster-robust 95% CIs) against process CPU seconds a game with "
        "the strategy in every seat (log axis; measured once on this machine, other load included). A "
        "strategy above the MCTS line is stronger than the search at its cost."))
    shown = table.rename({"cpu": "cpu_seconds_a_game"}).sort("cpu_seconds_a_game")
    return Section("Strength per CPU-second", paragraphs=[
        "What each strategy's strength costs: its rating against the CPU time of a game with it in every "
        "seat. The learned models play without search; a search with a model as its prior spends one model "
        "evaluation per expansion."],
        tables=[Table("ladder_cpu", shown, "Rating and CPU seconds a game of each strategy.")],
        figures=[Fig("ladder_rating_vs_cpu", fig, caption_of(fig))])


def ladder_sections(plan: LadderPlan, rs, cpu: dict | None = None) -> list:
    """The ladder's design, its ratings (``reports.compare``) and the rating-against-compute figure;
    with ``cpu`` (``reports.ladder.measure_cpu``) the rating against CPU a game too."""
    from reports.compare import compare_section

    seatings, rounds = plan.seatings()
    n = rs.n_games()
    played = pl.DataFrame({"strategy": list(plan.pool),
                           "kind": [s.kind for s in plan.pool.values()],
                           "playouts": [iterations_of(s) for s in plan.pool.values()],
                           "games": [sum(n["|".join(lu)] for lu, _ in seatings if name in lu)
                                     for name in plan.pool]})
    cheap = sum(1 for lu, _ in seatings if not any(x in plan.searching for x in lu))
    k = plan.players
    design_sec = Section("Ladder design", paragraphs=[
        f"{len(plan.pool)} strategies; every set of {min(k, len(plan.pool))} distinct ones is a block, played "
        f"in its cyclic seat rotations ({len(seatings)} seatings), so every strategy sits in every seat "
        f"equally often and every pair meets in the same number of blocks. {rounds} game{'s' * (rounds > 1)} "
        f"per seating; the {cheap} seatings without a searching seat play {CHEAP_FACTOR} times that (they "
        f"cost next to nothing). Every seating is played from the same run seed (common random numbers). "
        f"Compute per decision: MCTS-n runs n playouts (iterations); random and the heuristic presets run "
        f"none (0)."],
        tables=[Table("ladder_games", played, "Games each strategy played in the ladder.")])
    ratings = compare_section(rs, title="Ratings")
    few = too_few_clusters_text(ratings_of(ratings), plan)       # a search level from one seed: no interval
    if few:
        ratings.paragraphs.insert(0, few)
        ratings.terminal = few + "\n" + (ratings.terminal or "")
    comp = compute_table(ratings_of(ratings), plan.pool)
    fig = rating_vs_compute(comp, caption=(
        f"Look at how far each step of search lifts the rating: a level whose interval overlaps the one before it is "
        f"not shown stronger. Bradley–Terry rating (Elo scale, 1500 = the field's average, cluster-robust 95% CIs) against "
        f"playouts per decision: MCTS-n runs n, random and the heuristic presets none (drawn at 0; the axis "
        f"is linear below 10 and logarithmic above). {sum(n.values()):,} games."))
    comp_sec = Section("Rating against compute", paragraphs=[
        "How much strength each step of search buys: the rating of every strategy of the ladder against "
        "the playouts it runs per decision."],
        tables=[Table("ladder_compute", comp, "Rating and playouts per decision of each strategy.")],
        figures=[Fig("ladder_rating_vs_compute", fig, caption_of(fig))])
    if cpu:
        return [design_sec, ratings, comp_sec, cpu_section(plan, ratings_of(ratings), cpu)]
    return [design_sec, ratings, comp_sec]


# ---------------------------------------------------------------- balance per skill level

def level_ratings(ratings: pl.DataFrame, levels):
    """``{level: (elo, lo, hi)}`` of the skill levels from a ladder's ratings table."""
    r = {row["strategy"]: (row["elo"], row["elo_lo"], row["elo_hi"]) for row in ratings.iter_rows(named=True)}
    missing = [lv for lv in levels if lv not in r]
    if missing:
        raise ValueError(f"no ladder rating for skill level(s) {', '.join(missing)}")
    return {lv: r[lv] for lv in levels}


def skill_sections(skill_rs, ratings: pl.DataFrame, game_sections=()) -> list:
    """Balance per skill level: seat advantage, the trend against the rating, categories, the game's own
    (``game_sections``: its plug-in's ``SECTIONS``)."""
    from analysis.skill import seat_share_trend, trend_verdict
    from reports.generic import category_section, seat_section
    from reports.runset import collected

    levels = skill_rs.labels
    elo = level_ratings(ratings, levels)
    seat = seat_section(skill_rs, series=True)
    seat.title = "Seat advantage by skill level"
    adv = seat.tables[0].frame.with_columns(pl.col("level").cast(pl.String))
    shares = adv.join(pl.DataFrame({"level": levels, "elo": [elo[lv][0] for lv in levels],
                                    "elo_lo": [elo[lv][1] for lv in levels],
                                    "elo_hi": [elo[lv][2] for lv in levels]}), on="level", how="left")
    shares = with_run_intervals(shares, prec := precision_of(skill_rs))   # levels played to a target precision
    trend = seat_share_trend(skill_rs.scan("players"), {lv: e[0] for lv, e in elo.items()})
    games = skill_rs.n_games()
    n_text = ", ".join(f"{lv} {games[lv]:,}" for lv in levels)
    fig = seat_share_vs_rating(shares, trend, caption=(
        f"Look at each player's distance from the dashed fair share as the rating grows: towards it, the seat "
        f"advantage shrinks with skill; wide bars (few search games) settle nothing. "
        f"Mean win share of each player (a k-way tie counts 1/k; 95% CIs, Wilson on the observed variance) with every seat at one level, "
        f"against that level's ladder rating; lines: the fitted trend (fractional logit of the seat's win share "
        f"on the rating); dashed: the fair share. Games per level: {n_text}."))
    tie = collected(skill_rs.scan("players").filter(pl.col("seat") == 0)
                    .group_by("level").agg(pl.len().alias("games"),
                                           (pl.col("win_share").cast(pl.Float64).is_between(0, 1, closed="none"))
                                           .sum().alias("seat0_tied"))).with_columns(pl.col("level").cast(pl.String))
    tie = tie.sort(pl.col("level").replace_strict({str(lv): i for i, lv in enumerate(levels)}, default=len(levels)),
                   "level")                     # the group-by's row order is not fixed: the levels' order
    t0 = trend.filter(pl.col("seat") == 0).row(0, named=True)
    verdict = trend_verdict(t0)
    weakest = min(levels, key=lambda lv: elo[lv][0])
    strongest = max(levels, key=lambda lv: elo[lv][0])
    s_lo = shares.filter((pl.col("level") == weakest) & (pl.col("seat") == 0)).row(0, named=True)
    s_hi = shares.filter((pl.col("level") == strongest) & (pl.col("seat") == 0)).row(0, named=True)
    p_text = f"{t0['p_value']:.2g}" if t0["p_value"] == t0["p_value"] else "n/a"
    words = {"grows": "grows", "shrinks": "shrinks", "reverses": "reverses (crosses the fair share)",
             "holds": "holds (no significant trend)"}
    finding = (f"seat 0's advantage **{words[verdict]}** as skill rises: it wins "
               f"{s_lo['win_share'] * 100:.1f}% [{s_lo['win_lo'] * 100:.1f}, {s_lo['win_hi'] * 100:.1f}] at "
               f"{weakest} (Elo {elo[weakest][0]:,.0f}, {s_lo['n']:,} games) and {s_hi['win_share'] * 100:.1f}% "
               f"[{s_hi['win_lo'] * 100:.1f}, {s_hi['win_hi'] * 100:.1f}] at {strongest} (Elo "
               f"{elo[strongest][0]:,.0f}, {s_hi['n']:,} games), fair {t0['fair_share'] * 100:.1f}%; trend "
               f"{t0['slope']:+.3f} log-odds per 100 Elo [{t0['slope_lo']:+.3f}, {t0['slope_hi']:+.3f}], "
               f"p = {p_text} (fractional logit of seat 0's win share on the level's rating, ties as 1/k, "
               f"robust SEs, {t0['n']:,} games over {t0['n_levels']} levels)")
    others = []
    for r in trend.filter((pl.col("seat") > 0) & (pl.col("p_holm") < 0.05)).iter_rows(named=True):
        edge = "advantage" if r["share_max"] >= r["fair_share"] else "disadvantage"
        others.append(f"seat {r['seat']}'s {edge} {trend_verdict(r)} ({r['share_min'] * 100:.1f}% → "
                      f"{r['share_max'] * 100:.1f}% fitted, {r['slope']:+.3f} per 100 Elo, Holm p = "
                      f"{r['p_holm']:.2g})")
    if others:
        finding += "; among the other seats, " + ", ".join(others)
    trend_sec = Section("Seat advantage against skill", paragraphs=[
        "Does the seat advantage change as players get better? For each seat, a fractional logistic "
        "regression of its win share in a game (1 for a sole win, 1/k for a k-way tie for first, 0 otherwise) "
        "on the ladder rating of the level every seat played, with robust (sandwich) standard errors; the "
        "slope is the change in log-odds per 100 Elo, p-values Holm-corrected across the seats. The ratings "
        "are taken as known (their own CIs are in the table, not carried into the slope). The verdict reads "
        "the fitted share at the weakest and the strongest level against the fair share: the advantage "
        "*grows* or *shrinks* when the slope is significant (p < 0.05) and the distance from fair rises or "
        "falls, *holds* when the slope is not significant.",
        f"**Finding:** {finding}."] + ([precision_text(prec, levels)] if prec else []),
        tables=[Table("skill_seat_trend", trend.with_columns(
                    pl.Series("verdict", [trend_verdict(r) for r in trend.iter_rows(named=True)])),
                    "Trend of each seat's win share against the level's rating (per 100 Elo, 95% CIs)."),
                Table("skill_levels", shares.select("level", "elo", "elo_lo", "elo_hi", "n_players", "seat", "n",
                                                    "win_share", "win_lo", "win_hi", "fair_share", "tied_wins")
                      .sort("elo", "seat"), "Seat win share at each level with the level's rating (95% CIs)."),
                Table("skill_ties", tie, "Games per level in which seat 0 tied for first (counted 1/k).")],
        figures=[Fig("skill_seat_share_vs_rating", fig, caption_of(fig))])
    trend_sec.findings = [f"S{finding[1:]}."]
    rows = [[lv, f"{elo[lv][0]:,.0f}", f"{games[lv]:,}",
             *[f"{r['win_share'] * 100:.1f} ±{(r['win_hi'] - r['win_lo']) * 50:.1f}"
               for r in shares.filter(pl.col("level") == lv).sort("seat").iter_rows(named=True)]]
            for lv in sorted(levels, key=lambda lv: elo[lv][0])]
    trend_sec.terminal = ("Balance per skill level: win share % by seat (95% CI) with every seat at one level\n"
                          + text_table(["level", "Elo", "games", *[f"seat {s}" for s in
                                                                     sorted(adv["seat"].unique().to_list())]], rows)
                          + f"\nSeat 0's advantage {words[verdict]}: trend {t0['slope']:+.3f} log-odds per 100 Elo "
                            f"[{t0['slope_lo']:+.3f}, {t0['slope_hi']:+.3f}], p = {p_text}")
    seat.terminal = ""
    secs = [trend_sec, seat, category_section(skill_rs)]
    secs += [build(skill_rs) for build in game_sections]
    for s in secs[2:]:
        s.title = f"{s.title} by skill level"
        s.terminal = ""
    return secs
