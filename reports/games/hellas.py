"""Hellas report plug-in: quarry yields, closures, income by seat, quarry luck."""
from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from reports.render.figures import _eager, _finish, _grouped_bars, _legend_outside, _panels, _subtitle, _values
from reports.render.sections import Fig, Section, Table, caption_of


def hellas_quarry_section(rs, series=None) -> Section:
    """Hellas quarries: yields, closures, income by seat, quarry luck (tile data assumed, H-D2)."""
    from analysis._common import add_up
    from analysis.games.hellas import (
        marble_income_from_sums,
        marble_income_sums,
        quarry_closure_counts,
        quarry_closures_from_counts,
        quarry_luck_effect,
        quarry_yield_counts,
        quarry_yield_distribution_from_counts,
        quarry_yield_summary_from_counts,
    )

    from reports.runset import collected, fit_sample

    sec = Section("Quarries (Hellas)", paragraphs=[
        "The quarry-tile numbers are **assumed** (spec H-D2): these distributions follow from the "
        "tile file named in the data status, not from the printed game."])
    tables, figs = [], []
    if rs.has("events"):
        # counts per batch of games (``RunSet.batches``), added up: one batch's events at a time
        yields, closing = [], []
        for b in rs.batches("events"):
            yields.append(collected(quarry_yield_counts(b, by=rs.group)))
            closing.append(collected(quarry_closure_counts(b, by=rs.group)))
        yields = add_up(yields, [rs.group, "round", "quarry_yield"])
        closing = add_up(closing, [rs.group, "closures"]) if closing else pl.DataFrame()
        ydist = collected(quarry_yield_distribution_from_counts(yields, by=rs.group, per_round=False))
        ysum = collected(quarry_yield_summary_from_counts(yields, by=rs.group))
        cl = collected(quarry_closures_from_counts(closing, _games_per_group(rs), by=rs.group))
        fig = quarry_distributions(ydist, cl, series=rs.group if len(rs.runs) > 1 else None, caption=(
            f"Left: marble one quarry action pays out to all players. Right: quarries closed per game. "
            f"{rs.games_text()}."))
        figs.append(Fig("quarry_distributions", fig, caption_of(fig)))
        tables += [Table("quarry_yield_summary", ysum, "Marble per quarry action, by round."),
                   Table("quarry_closures", cl, "Quarries closed per game."),
                   Table("quarry_yield_distribution", ydist, "Yield per quarry action.", show=False)]
    else:
        sec.paragraphs.append("These runs wrote no events table (`--no-events`): no quarry distributions.")
    if "marble_income" in rs.columns("players"):
        keys = [rs.group, "n_players", "seat"]
        sums = add_up((collected(marble_income_sums(b, by=rs.group)) for b in rs.batches("players")), keys)
        tables.append(Table("marble_income_by_seat", collected(marble_income_from_sums(sums, by=rs.group)),
                            "Quarry marble income per seat."))
        sample, note = fit_sample(rs)
        tables.append(Table("quarry_luck_effect", collected(quarry_luck_effect(sample, by=rs.group)),
                            "How quarry income above expectation moves the chance of winning." + note))
    sec.tables, sec.figures = tables, figs
    return sec


def _games_per_group(rs):
    """Games per run (column ``n_games``), for the games without a closure: counted in the games
    table, batch by batch (a batch holds whole games), or in the events when there is none."""
    from analysis._common import add_up

    from reports.runset import collected

    n_games = pl.col("game_index").n_unique().cast(pl.Int64).alias("n_games")
    table = "games" if rs.has("games") else "events"
    return add_up((collected(b.group_by(rs.group).agg(n_games)) for b in rs.batches(table)), [rs.group])


def hellas_headlines(rs):
    """Extra headline statistics for Hellas: quarry yield per action, closures per game."""
    from analysis.summary import mean_stat

    from reports.runset import collected

    out = []
    if rs.has("events"):
        inc = [c for c in rs.columns("events") if c.startswith("income_")]
        out.append(collected(mean_stat(rs.scan("events"), pl.sum_horizontal(inc), "quarry_yield",
                                       by=[rs.group, "n_players"])))
    if "quarries_closed" in rs.columns("games"):
        out.append(collected(mean_stat(rs.scan("games"), "quarries_closed", "quarry_closures",
                                       by=[rs.group, "n_players"])))
    return out


#: The report sections of a Hellas run, after the generic ones (builders: RunSet -> Section).
SECTIONS = [hellas_quarry_section]

#: Extra headline statistics for variant comparisons (long format of ``analysis.summary.headline_stats``).
HEADLINES = hellas_headlines

#: Headline figures ``boardlab regress`` checks beyond win shares and scores:
#: (statistic name, table, column, per seat?).
REGRESS_METRICS = [
    ("quarry_income", "players", "marble_income", True),
    ("quarry_income_per_game", "players", "marble_income", False),
    ("quarries_closed", "games", "quarries_closed", False),
]


# ---------------------------------------------------------------- figures

def quarry_distributions(yields: pl.DataFrame, closures: pl.DataFrame, series: str | None = None,
                         title: str = "Quarry yields and closures",
                         caption: str | None = None) -> Figure:
    """Distribution of the marble a quarry action pays out (left) and of quarries closed per game (right).

    ``yields`` is ``analysis.games.hellas.quarry_yield_distribution(per_round=False)``;
    ``closures`` is ``analysis.games.hellas.quarry_closures_per_game``.
    """
    yields, closures = _eager(yields), _eager(closures)
    fig, axes = _panels(2, width=4.6)
    names = _values(yields, series)
    _grouped_bars(axes[0][0], yields, "quarry_yield", "share", series, names)
    axes[0][0].set_xlabel("marble paid out per quarry action (marble, all players)")
    axes[0][0].set_ylabel("share of quarry actions (%)")
    _subtitle(axes[0][0], "yield per quarry action")
    _grouped_bars(axes[0][1], closures, "closures", "share", series, _values(closures, series))
    axes[0][1].set_xlabel("quarries closed per game (quarries)")
    axes[0][1].set_ylabel("share of games (%)")
    _subtitle(axes[0][1], "closures per game")
    if series and len(names) > 1:
        _legend_outside(axes[0][-1])
    return _finish(fig, title, caption)
