"""The generic sections every game gets: seat advantage, scores, categories, convergence,
variant differences, outcomes, and :func:`run_sections` (those and the game's own, in reading order).

Outcome metrics (Ludii's list is the anchor): how games end, not who wins.

- :func:`outcome_section` — game length (rounds or turns, decisions),
  winning margin and the share of games decided by at most k points, lead
  changes, the round from which the winner led for good, comeback rate and
  drama, each with n and a 95% CI; added up over batches of games
  (``RunSet.batches``), so its memory is that of one batch;
- :func:`rarely_taken_section` — the options (action spaces, components)
  almost never taken, gathered from the take-rate tables of the other sections;
- :func:`outcome_headlines` — lead changes per game and the comeback rate as
  headline statistics of a variant comparison (:func:`variant_section`).

The sentence on strategy dominance of a comparison is ``reports.words.dominance_text``.

Each builder takes a :class:`reports.runset.RunSet` and returns a
:class:`reports.render.sections.Section`::

    from reports.generic import seat_section
    from reports.runset import RunSet
    sec = seat_section(RunSet.from_dirs({"3p": "runs/hellas-3p"}))
    sec.tables[0].frame, sec.figures[0].figure
"""
from __future__ import annotations

import polars as pl

import simcore
from reports.render import figures as F
from reports.render.sections import Fig, Section, Table, caption_of, text_table
from reports.runset import RunSet, collected, fit_sample
from simcore._contract import round_name

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


# ---------------------------------------------------------------- outcomes (how games end)

#: What one snapshot of the lead is, per game (docs/results.md, "The lead").
SNAPSHOT = {
    "hellas": "the end of each of the 3 rounds, scored as if the game ended there (city, monuments, temples, "
              "rings with the +3 for the most, marble // 5)",
    "yamatai": "the end of each round, scored as the game would score then (coins, PP tokens, buildings, "
               "specialists, reservations, boats set aside)",
    "akrotiri": "each round of two turns (seat 0's, then seat 1's), by the running score (maps excavated and "
                "drachmas // 10; the secret goals count only in the final score)",
}

#: Take rates below this share of player-games are flagged as almost never taken.
RARE = 0.02


def _length_column(rs):
    cols = rs.columns("games") if rs.has("games") else []
    return next((c for c in ("rounds", "turns") if c in cols), None)


def outcome_section(rs, max_series=None) -> Section:
    """Game length, margin, lead changes, led-for-good round, comebacks and drama (95% CIs).

    ``max_series``: draw the distributions only up to that many runs (a compare report's many
    seatings would be unreadable lines; the table has them all)."""
    from analysis._common import add_up
    from analysis.outcomes import (
        LEAD_COLUMNS,
        margin_counts,
        outcome_counts,
        outcome_distribution,
        outcome_summary,
    )

    
    length = _length_column(rs)
    keys = [rs.group, "n_players", "metric", "value"]
    counts = []
    if rs.has("games"):
        counts += [collected(outcome_counts(b, length, by=rs.group)) for b in rs.batches("games")]
    if rs.has("players"):
        counts += [collected(margin_counts(b, by=rs.group)) for b in rs.batches("players")]
    counts = [c.with_columns(pl.col(rs.group).cast(pl.String), pl.col("n_players").cast(pl.Int64),
                             pl.col("value").cast(pl.Int64), pl.col("n_games").cast(pl.Int64))
              for c in counts if c.height]
    sec = Section("Outcomes: length, margin and the lead")
    if not counts:
        sec.paragraphs.append("These runs have no games to summarise.")
        return sec
    total = add_up(counts, keys).with_columns(pl.col(rs.group).cast(pl.Enum(rs.labels)))
    summary = outcome_summary(total, by=rs.group, length=length)
    dist = outcome_distribution(total, ["margin", "lead_changes", "led_from", "max_deficit"], by=rs.group)
    has_lead = set(LEAD_COLUMNS) <= set(rs.columns("games"))
    unit = round_name(simcore.games[rs.game]) if rs.game in simcore.games else "rounds"
    where = SNAPSHOT.get(rs.game, "the end of each round, scored as if the game ended there")
    sec.paragraphs.append(
        "How games end, whoever wins (Ludii's outcome metrics). The *margin* is the winner's total minus the "
        "next total (0: the top total was tied). The lead is read from score snapshots at " + where + ", then the "
        "final score: a *lead change* is a snapshot whose sole leader is not the last sole leader (a tie for the "
        "top changes nothing); the winner *led for good* from the first snapshot after which a winner always "
        "held the top (ties included); a *comeback* is a game whose winner trailed at some round end, a *late "
        "comeback* one whose winner trailed at the last round end; *drama* is how many points the winner was "
        "behind at worst, in comeback games. Means with t intervals (n = games; drama: n = comeback games), "
        "shares with Wilson intervals.")
    if not has_lead:
        sec.paragraphs.append("These runs have no lead columns (`lead_changes`, `led_from`, `max_deficit`: runs made "
                              "before the engines wrote them); rerun `boardlab simulate` for the lead metrics.")
    sec.tables = [Table("outcome_metrics", summary.drop("successes"),
                        "Outcome metrics with n and 95% CIs (shares as fractions)."),
                  Table("outcome_distribution", dist, "Share of games per value of each outcome metric.",
                        show=False)]
    if max_series is None or len(rs.runs) <= max_series:
        fig = F.outcome_distributions(dist, series=rs.group if len(rs.runs) > 1 else None, unit=unit, caption=(
            f"Share of games per winning margin, per number of lead changes, and per round from which the "
            f"winner led for good. {rs.games_text()}."))
        sec.figures = [Fig("outcome_distributions", fig, caption_of(fig))]
    rows = []
    for r in summary.iter_rows(named=True):
        scale, unit_ = (100, "%") if r["kind"] == "share" else (1, "")
        rows.append([str(r[rs.group]), r["statistic"], f"{r['estimate'] * scale:.2f}{unit_}",
                     f"[{r['lo'] * scale:.2f}, {r['hi'] * scale:.2f}]" if r["lo"] is not None else "—",
                     f"{r['n']:,}"])
    sec.terminal = "Outcome metrics (95% CI)\n" + text_table([rs.group, "statistic", "estimate", "95% CI", "n"], rows)
    return sec


def option_take_section(rs, columns=None, title="Action spaces taken", what="action space") -> Section | None:
    """Take rate of each option a seat may choose, from per-seat count columns of the players table.

    ``columns``: ``{players column: option name}``; default: every ``space_*``
    column (Hellas: times the seat chose an action space of that kind). The
    take rate is the share of player-games with at least one take (Wilson CI,
    n = player-games); ``per_game`` the mean takes per player-game (t CI).
    Added up over batches. ``None`` when the players table has none of them.
    """
    from analysis._common import add_up
    from analysis.components import option_sums, option_takes_from_sums

    
    cols = rs.columns("players") if rs.has("players") else []
    if columns is None:
        columns = {c: c.removeprefix("space_").replace("_", " ") for c in cols if c.startswith("space_")}
    columns = {c: n for c, n in columns.items() if c in cols}
    if not columns:
        return None
    sums = add_up((collected(option_sums(b, list(columns), by=rs.group)) for b in rs.batches("players")),
                  [rs.group, "n_players", "option"])
    takes = option_takes_from_sums(sums, by=rs.group).with_columns(
        pl.col("option").replace_strict(columns, default=pl.col("option")).alias("label"))
    order = {c: i for i, c in enumerate(columns)}
    takes = takes.sort(rs.group, "n_players", pl.col("option").replace_strict(order, return_dtype=pl.Int64))
    takes = takes.select(rs.group, "n_players", "label", *[c for c in takes.columns
                                                           if c not in (rs.group, "n_players", "label", "option")])
    sec = Section(title, paragraphs=[
        (f"How often a seat chose each kind of {what}: `take_rate` is the share of player-games with at least "
         f"one (n = player-games, 95% Wilson CI), `per_game` the mean number per player-game (t CI). Options "
         f"almost never taken are listed under \"Options almost never taken\".")],
        tables=[Table("option_take_rates", takes, f"Take rate of each {what} kind per player-game (95% CIs).")])
    rows = [[str(r[rs.group]), r["label"],
             f"{r['take_rate'] * 100:.1f}% [{r['take_lo'] * 100:.1f}, {r['take_hi'] * 100:.1f}]",
             f"{r['per_game']:.2f}", f"{r['n']:,}"] for r in takes.iter_rows(named=True)]
    sec.terminal = f"{title} (95% CI)\n" + text_table([rs.group, what, "take rate", "per game", "n"], rows)
    return sec


def outcome_headlines(rs) -> list:
    """Lead changes per game (mean) and the comeback rate (share) per run, in the headline format
    (``analysis.summary.mean_stat``); empty when the runs have no lead columns."""
    from analysis.summary import mean_stat

    
    if not rs.has("games") or not {"lead_changes", "led_from"} <= set(rs.columns("games")):
        return []
    g, by = rs.scan("games"), [rs.group, "n_players"]
    return [collected(mean_stat(g, "lead_changes", "lead_changes", by=by)),
            collected(mean_stat(g, pl.col("led_from") > 1, "comeback", by=by, kind="proportion"))]


def rarely_taken_section(sections, threshold=RARE) -> Section | None:
    """Options almost never taken: every take-rate table of ``sections`` read for rates below ``threshold``.

    A take-rate table is one with ``take_rate``, ``take_lo`` and ``take_hi``
    (``analysis.components.component_summary`` and :func:`option_take_section`);
    an option is flagged when its whole 95% interval lies below ``threshold``.
    ``None`` when no section has such a table.
    """
    found, rows, least = False, [], []
    for sec in sections:
        for t in sec.tables:
            f = t.frame
            if not {"take_rate", "take_lo", "take_hi"} <= set(f.columns) or not f.height:
                continue
            found = True
            label = "label" if "label" in f.columns else next((c for c in f.columns if c not in (
                "n_players",) and f.schema[c] in (pl.String, pl.Int64, pl.Int32, pl.Int16, pl.Int8)), None)
            group = f.columns[0]
            low = f.sort("take_rate").row(0, named=True)
            least.append(f"{sec.title}: {low[label] if label else '?'} {low['take_rate'] * 100:.1f}% "
                         f"[{low['take_lo'] * 100:.1f}, {low['take_hi'] * 100:.1f}]"
                         + (f" ({group} {low[group]})" if f[group].n_unique() > 1 else ""))
            for r in f.filter(pl.col("take_hi") < threshold).iter_rows(named=True):
                rows.append({"section": sec.title, "table": t.name, "run": str(r[group]),
                             "option": str(r[label]) if label else "?", "n": r.get("n"),
                             "take_rate": r["take_rate"], "take_lo": r["take_lo"], "take_hi": r["take_hi"]})
    if not found:
        return None
    sec = Section("Options almost never taken", paragraphs=[
        f"Every option of the take-rate tables above whose whole 95% interval lies below {threshold:.0%} of "
        f"player-games: an option this rare under the strategies played is a candidate for a rule or cost "
        f"change (or a strategy that undervalues it). " + (f"{len(rows)} found." if rows else "None found."),
        "The least taken option of each table: " + "; ".join(least) + "."])
    if rows:
        sec.tables = [Table("rarely_taken", pl.DataFrame(rows),
                            f"Options taken in under {threshold:.0%} of player-games (95% CI).")]
    if rows:
        sec.terminal = f"Options almost never taken (< {threshold:.0%} of player-games, 95% CI)\n" + text_table(
            ["section", "option", "take rate", "n"],
            [[r["section"], r["option"],
              f"{r['take_rate'] * 100:.2f}% [{r['take_lo'] * 100:.2f}, {r['take_hi'] * 100:.2f}]",
              f"{r['n']:,}" if r["n"] is not None else "?"] for r in rows])
    return sec
