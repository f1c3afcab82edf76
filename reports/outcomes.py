"""Report sections of outcome metrics (Ludii's list is the anchor): how games end, not who wins.

- :func:`outcome_section` — game length (rounds or turns, decisions),
  winning margin and the share of games decided by at most k points, lead
  changes, the round from which the winner led for good, comeback rate and
  drama, each with n and a 95% CI; added up over batches of games
  (``RunSet.batches``), so its memory is that of one batch;
- :func:`rarely_taken_section` — the options (action spaces, components)
  almost never taken, gathered from the take-rate tables of the other sections;
- :func:`outcome_headlines` — lead changes per game and the comeback rate as
  headline statistics of a variant comparison (``reports.generic.variant_section``).

The sentence on strategy dominance of a comparison is ``reports.words.dominance_text``.
"""
from __future__ import annotations

import polars as pl

import simcore
from reports.render import figures as F
from reports.render.sections import Fig, Section, Table, caption_of, text_table
from simcore._contract import round_name


def collected(frame):
    """An analysis result as a DataFrame (as ``reports.report.collected``; not imported: no cycle)."""
    return frame.collect(engine="streaming") if isinstance(frame, pl.LazyFrame) else frame


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
