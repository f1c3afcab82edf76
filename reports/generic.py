"""The generic sections every game gets: seat advantage, scores, categories, convergence,
variant differences, and :func:`run_sections` (those, outcomes and the game's own, in reading order).

Each builder takes a :class:`reports.runset.RunSet` and returns a
:class:`reports.render.sections.Section`::

    from reports.generic import seat_section
    from reports.runset import RunSet
    sec = seat_section(RunSet.from_dirs({"3p": "runs/hellas-3p"}))
    sec.tables[0].frame, sec.figures[0].figure
"""
from __future__ import annotations

import polars as pl

from reports.render import figures as F
from reports.render.sections import Fig, Section, Table, caption_of, text_table
from reports.runset import RunSet, collected, fit_sample

def _facet(rs):
    return rs.group if len(rs.runs) > 1 else None


def seat_section(rs: RunSet, series=False) -> Section:
    """Seat advantage: win share per seat with CIs, the equality test, mean scores."""
    from analysis._common import add_up
    from analysis.seats import seat_advantage_from_sums, seat_equality_from_sums, seat_sums

    sums = add_up((collected(seat_sums(b, by=rs.group)) for b in rs.batches("players")),
                  [rs.group, "n_players", "seat"])
    adv = collected(seat_advantage_from_sums(sums, by=rs.group))
    eq = collected(seat_equality_from_sums(sums, by=rs.group))      # no second pass over the players
    fig = F.win_share_by_seat(
        adv, facet=None if series else _facet(rs), series=rs.group if series and len(rs.runs) > 1 else None,
        caption=(f"Mean win share of each seat (a k-way tie counts 1/k) with 95% intervals (Wilson on the observed "
                 f"variance of the per-game shares); "
                 f"dashed line: the fair share 1/n. {rs.games_text()}."))
    sec = Section("Seat advantage", paragraphs=[
        "Does player 1 (who starts: seat 0 in the tables) win more than its fair share? Look for a bar "
        "whose interval misses the dashed fair-share line. `win_share` is the mean win share of the seat, "
        "`deviation` its difference from 1/n; the chi-square test asks whether all seats are equal."],
        tables=[Table("seat_advantage", adv, "Win share, score and margin per seat (95% CIs)."),
                Table("seat_equality_test", eq, "Multinomial goodness-of-fit test of equal seats.")],
        figures=[Fig("win_share_by_seat", fig, caption_of(fig))])
    rows = []
    for r in adv.iter_rows(named=True):
        half = (r["win_hi"] - r["win_lo"]) / 2 * 100
        rows.append([str(r[rs.group]), str(r["n_players"]), f"{r['seat'] + 1}" + (" (starts)" if r["seat"] == 0 else ""),
                     f"{r['win_share'] * 100:.1f}% ±{half:.1f}", f"{r['deviation'] * 100:+.1f}",
                     f"{r['mean_total']:.1f}", f"{r['n']:,}"])
    sec.terminal = "Win share by player (95% CI)\n" + text_table(
        [rs.group, "players", "player", "win share", "vs fair (pp)", "mean score", "games"], rows)
    return sec


def score_section(rs: RunSet) -> Section:
    from analysis._common import add_up
    from analysis.summary import score_counts, score_distribution_from_counts, score_summary_from_counts

    keys = [rs.group, "n_players", "seat", "total"]
    counts = add_up((collected(score_counts(b, by=rs.group)) for b in rs.batches("players")), keys)
    dist = score_distribution_from_counts(counts, by=rs.group)
    summary = score_summary_from_counts(counts, by=rs.group)
    fig = F.score_distributions(dist, facet=_facet(rs), caption=(
        f"Share of games in which each player finished with each total score: look for a curve shifted "
        f"from the others. {rs.games_text()}."))
    return Section("Score distributions", paragraphs=[
        "How the final scores spread, per player: curves that lie on each other mean the seats score "
        "alike; a curve shifted right is a player who scores more. The table gives each player's mean and "
        "spread."],
                   tables=[Table("score_summary", summary, "Final score per seat (points)."),
                           Table("score_distribution", dist, "Share of games per final score and seat.",
                                 show=False)],
                   figures=[Fig("score_distributions", fig, caption_of(fig))])


def category_fit(rs: RunSet):
    """``(table, caption note)``: the category logit on the regression sample (``fit_sample``)."""
    from analysis.categories import category_logit

    sample, note = fit_sample(rs)
    return collected(category_logit(sample, rs.categories, by=rs.group)), note


def category_section(rs: RunSet, fit=None) -> Section:
    """Category profile, logit weights and counterfactual; ``fit``: a future of :func:`category_fit`."""
    from analysis._common import add_up
    from analysis.categories import (category_profile_from_sums, category_sums, counterfactual_counts,
                                     counterfactual_from_counts)

    cats = rs.categories
    if not cats:
        return Section("Scoring categories", paragraphs=["This game's players table names no scoring categories."])
    keys = [rs.group, "n_players"]
    sums, counts = [], []
    for b in rs.batches("players"):
        sums.append(collected(category_sums(b, cats, by=rs.group)))
        counts.append(collected(counterfactual_counts(b, cats, by=rs.group)))
    prof = collected(category_profile_from_sums(add_up(sums, [*keys, "role", "category"]), cats, by=rs.group))
    logit, note = fit.result() if fit is not None else category_fit(rs)
    # a category that scores the same in every game of a group has no coefficient (NaN): left out, said so
    flat = sorted(set(logit.filter(~((pl.col("sd") > 0) & pl.col("sd").is_finite()).fill_null(True))["category"]))
    logit = logit.filter(((pl.col("sd") > 0) & pl.col("sd").is_finite()).fill_null(False))
    cf = collected(counterfactual_from_counts(add_up(counts, [*keys, "category"]), cats, by=rs.group))
    fig = F.category_weights(logit, prof, series=rs.group if len(rs.runs) > 1 else None, caption=(
        f"Look at the right panel: the longer a bar, the more that category decides who wins; a category "
        f"with many points on the left but a short bar on the right is scored by everyone alike. "
        f"Left: winners' mean points per category. Right: standardized logistic-regression "
        f"coefficient of the win share on all categories at once (cluster-robust 95% CIs). In both panels a "
        f"k-way tie for first counts 1/k of a win, as in the seat tables. {rs.games_text()}.{note}"))
    return Section("Scoring categories", paragraphs=[
        "Which categories make the winner: the standardized coefficient is the change in log-odds "
        "of winning per standard deviation of a category's points, the others held fixed; the "
        "counterfactual says how much of the win would change hands if the category did not count. "
        "Everywhere a k-way tie for first counts 1/k of a win (the seat tables' definition)."]
        + ([f"{', '.join(f'`{c}`' for c in flat)}: the same score for every player in every game of a run (no "
            f"variance), so no coefficient there; those rows are left out of the regression table and "
            f"figure."] if flat else []),
        tables=[Table("category_logit", logit, "Standardized logit coefficients per category." + note),
                Table("category_counterfactual", cf, "Share of the win that changes hands if a category did "
                      "not count (a k-way tie counts 1/k; 95% CIs)."),
                Table("category_profile", prof, "Mean points per category for winners, others, all (a tied "
                      "winner counts 1/k as a winner).",
                      show=False)],
        figures=[Fig("category_weights", fig, caption_of(fig))])


def convergence_section(rs: RunSet, half_width=0.01) -> Section:
    from analysis._common import add_up
    from analysis.convergence import games_needed_from_counts, seat_convergence_batches, seat_counts

    batches = list(rs.batches("players"))
    counts = add_up((collected(seat_counts(b, by=rs.group)) for b in batches), [rs.group, "n_players", "seat"])
    conv = seat_convergence_batches(batches, counts, by=rs.group)
    need = collected(games_needed_from_counts(counts, half_width, by=rs.group))
    fig = F.convergence(conv, facet=_facet(rs), caption=(
        f"Seat win shares on the first N games (top, 95% band) and the CI half-width (bottom; "
        f"dotted: the 1/√N slope). {rs.games_text()}."))
    return Section("Convergence", paragraphs=[
        f"How precise the seat win shares are, and how many games a ±{half_width * 100:g} "
        f"percentage-point interval needs."],
        tables=[Table("games_needed", need, f"Games for a ±{half_width * 100:g} pp CI on every seat."),
                Table("seat_convergence", conv, "Win shares after the first N games.", show=False)],
        figures=[Fig("convergence", fig, caption_of(fig))])


def run_sections(rs: RunSet, figures=None, game_sections=()) -> list:
    """The generic sections, outcomes, then the game's own (``game_sections``: its plug-in's ``SECTIONS``),
    the rarely taken options, then convergence.

    ``figures`` (a :class:`BackgroundFigures`, whose workers were forked before
    any thread here) renders each section's figures as soon as the section is
    built. Sections are built in the order of their figures' rendering cost
    (convergence, outcomes, the game's own, then the one- and two-panel
    figures), so the slow renders run on the other core while the rest is
    computed; the category logit, the longest fit, runs in a thread from the
    start (numpy and polars release the GIL in their array work). The list
    comes back in the reading order above.
    """
    from concurrent.futures import ThreadPoolExecutor

    from reports.outcomes import option_take_section, outcome_section, rarely_taken_section

    order = [seat_section, score_section, category_section, outcome_section, option_take_section,
             *game_sections]
    built = {}
    with ThreadPoolExecutor(1) as ahead:
        fit = ahead.submit(category_fit, rs) if rs.categories else None
        for build in [convergence_section, outcome_section, *game_sections, seat_section,
                      category_section, score_section, option_take_section]:
            built[build] = sec = category_section(rs, fit) if build is category_section else build(rs)
            if sec is not None and figures is not None:
                figures.add([sec])
    secs = [built[build] for build in order if built[build] is not None]
    rare = rarely_taken_section(secs)
    return secs + ([rare] if rare is not None else []) + [built[convergence_section]]


def variant_section(rs: RunSet, baseline=None, title="Variant comparison", headlines=None) -> Section:
    """Each headline statistic per variant, the difference to the baseline and its CI (``headlines``: the
    game plug-in's ``HEADLINES``, a builder of its own extra statistics)."""
    from analysis.summary import headline_pairs, headline_stats, variant_differences

    head = [collected(headline_stats(rs.scan("players"), by=rs.group, categories=rs.categories))]
    head += list(headlines(rs)) if headlines else []
    from reports.outcomes import outcome_headlines

    head += outcome_headlines(rs)
    head = pl.concat([h.with_columns(pl.col(rs.group).cast(pl.String)) for h in head], how="vertical_relaxed")
    baseline = baseline or rs.labels[0]
    # game i of every variant is played from one seed: the built-in headlines are paired by game (issue 37)
    paired = headline_pairs(rs.scan("players"), variant=rs.group, baseline=baseline, categories=rs.categories)
    diff = variant_differences(head, variant=rs.group, baseline=baseline, paired=paired)
    wide = head.pivot(on=rs.group, index=["n_players", "statistic", "item"], values="estimate")
    fig = F.variant_differences(diff, variant=rs.group, title=f"Variant minus baseline '{baseline}'", caption=(
        f"Each headline statistic of the variant minus the baseline '{baseline}', with 95% CIs: paired by "
        f"game (t on the per-game differences; game i of every variant has one seed) where every game "
        f"pairs, else z test for shares, Welch t for means. {rs.games_text()}."))
    rows = []
    for r in diff.iter_rows(named=True):
        scale = F.UNITS.get(r["statistic"], ("", "", 1.0))[2]
        unit = "pp" if scale == 100 else ""
        rows.append([r["statistic"], r["item"], f"{r['base_estimate'] * scale:.2f}", f"{r['estimate'] * scale:.2f}",
                     f"{r['diff'] * scale:+.2f}{unit} [{r['diff_lo'] * scale:+.2f}, {r['diff_hi'] * scale:+.2f}]",
                     f"{r['p_holm']:.3g}" if r["p_holm"] > 0 else "<1e-300"])
    variants = ", ".join(x for x in rs.labels if x != baseline)
    sec = Section(title, paragraphs=[
        f"Variants: {', '.join(rs.labels)} (baseline '{baseline}'). The variants are played on the same "
        f"game seeds (common random numbers), so the built-in headline statistics are compared game by "
        f"game (paired: `paired = true`); the others as independent samples (docs/intervals.md); p-values "
        f"are Holm-corrected per variant."],
        tables=[Table("headline_by_variant", wide, "Headline statistics per variant."),
                Table("variant_differences", diff, f"Differences to '{baseline}' (95% CIs, Holm p-values).")],
        figures=[Fig("variant_differences", fig, caption_of(fig))])
    sec.terminal = (f"{title}: {variants} minus {baseline} (95% CI)\n"
                    + text_table(["statistic", "item", baseline, variants if "," not in variants else "variant",
                                  "difference [CI]", "p (Holm)"], rows))
    return sec

