"""Akrotiri report plug-in: map-card, goal and market values, game length."""
from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from reports.render.figures import _eager, _finish, _grouped_bars, _legend_outside, _panels, _values
from reports.component_data import (ComponentValues, GameEnd, component_names, data_note, labelled, length_headlines,
                                    load_data)
from reports.render.sections import Fig, Section, Table, caption_of


def _map_names(rs):
    return component_names(rs, "maps", "maps.json", lambda i, t: f"{t.get('id', i)} ({t.get('points', '?')} pts)")


def akrotiri_map_section(rs) -> ComponentValues:
    """Map cards by deck and by card: excavation rate, points per drachma, uplift."""
    from analysis.games.akrotiri import DECKS, map_excavation, maps_excavated

    from reports.runset import collected

    has = rs.has("events")
    ev = rs.scan("events")
    paras = [data_note(rs, "maps", "maps.json"),
             "Excavation rate: share of *bought* cards that were excavated (n = cards bought). Cards dealt at "
             "set-up have no event in the results (the engine writes map_bought and map_excavated only), so "
             "their excavations are counted apart (`excavated_unbought`) and left out of the rate. Points per "
             "drachma: points of the excavated cards over all drachmas spent on the bought cards (their share "
             "of the purchase price, plus the excavation cost when excavated); delta-method 95% CIs."]
    extra = []
    if has:
        deck = collected(map_excavation(ev, per="deck", by=rs.group))
        card = labelled(collected(map_excavation(ev, per="card", by=rs.group)), "card", _map_names(rs), "map ")
        extra = [Table("map_excavation_by_deck", deck, "Per deck: excavation rate and points per drachma."),
                 Table("map_excavation_by_card", card.select(rs.group, "n_players", "deck_name", "label",
                                                              *card.columns[5:-1]),
                       "Per map card: excavation rate and points per drachma.")]
    # decks by number (easy, medium, hard), not alphabetically
    by_deck = ComponentValues("Map-card values by deck (Akrotiri)", maps_excavated, "deck",
                              "excavated map card", names=dict(enumerate(DECKS)), value="points", cost="cost",
                              paragraphs=paras, extra_tables=extra, name="map_deck", splits=("seat",))
    return by_deck


def akrotiri_card_section(rs) -> ComponentValues:
    from analysis.games.akrotiri import maps_excavated

    return ComponentValues("Map-card values by card (Akrotiri)", maps_excavated, "card",
                           "excavated map card", names=_map_names(rs), prefix="map ", relative=True,
                           value="points", name="map_card",
                           paragraphs=[data_note(rs, "maps", "maps.json"),
                                       "Each card against the average excavated card, given how many maps "
                                       "the player excavated: the number of excavations is the player's "
                                       "progress (temples), which the by-deck section credits to the decks."])


def akrotiri_goal_section(rs) -> ComponentValues:
    from analysis.games.akrotiri import goal_scoring, goals

    from reports.runset import collected

    g = collected(goals(rs.scan("events"))) if rs.has("events") else pl.DataFrame()
    names = component_names(rs, "goals", "goals.json", lambda i, t: f"{t.get('id', i)} {t.get('key', '')}".strip())
    extra = []
    if g.height:
        sc = labelled(goal_scoring(g, by=rs.group), "goal", names, "goal ")
        extra = [Table("goal_scoring", sc.select(rs.group, "n_players", "label", *sc.columns[3:-1]),
                       "Per goal kept: how often it scored (95% Wilson CI) and its points (95% t CI).")]
    return ComponentValues("Goal-card values (Akrotiri)", goals, "goal", "goal card kept", names=names,
                           prefix="goal ", relative=True, value="points",
                           paragraphs=[data_note(rs, "goals", "goals.json"),
                                       "A goal is taken when kept; `value_per_take` is the points it scored "
                                       "at the end (0 when its condition failed). Every player keeps one goal "
                                       "at set-up and one more at its 3rd and 5th temple, so the number kept "
                                       "measures progress: each goal is compared with the average goal kept, "
                                       "given how many the player kept."],
                           extra_tables=extra, name="goal", splits=("seat",))


def akrotiri_market_section(rs) -> Section:
    from analysis.games.akrotiri import goods_sold, market_prices

    doc, where, _ = load_data(rs, "market", "market.json")
    colours = dict(enumerate((doc or {}).get("colours") or ["blue", "green", "grey", "orange"]))
    sec = Section("Market prices realised (Akrotiri)", paragraphs=[f"Component data: {where}."])
    from reports.runset import collected

    if not rs.has("events"):
        sec.paragraphs.append("These runs recorded no events: no prices.")
        return sec
    sales = collected(goods_sold(rs.scan("events"))).with_columns(pl.col("colour").cast(pl.Int64).replace_strict(
        colours, default=pl.col("colour").cast(pl.String), return_dtype=pl.String))
    summ, dist = market_prices(sales, by=rs.group)
    fig = price_distribution(dist.group_by("colour", "price").agg(pl.col("n_sold").sum()).with_columns(
        (pl.col("n_sold") / pl.col("n_sold").sum().over("colour")).alias("share")).sort("colour", "price"),
        caption=f"Share of each colour's cubes sold at each price (all runs pooled). {rs.games_text()}.")
    sec.tables = [Table("market_prices", summ, "Price per cube sold, per colour (95% t CIs)."),
                  Table("market_price_distribution", dist, "Share of cubes sold per price.", show=False)]
    sec.figures = [Fig("market_prices", fig, caption_of(fig))]
    return sec


def akrotiri_end_section(rs) -> GameEnd:
    from analysis.games.akrotiri import END_TRIGGERS

    return GameEnd("turns", "turns", code="end_trigger",
                   codes=END_TRIGGERS)


#: The report sections of an Akrotiri run, after the generic ones (builders: RunSet -> Section, or a request
#: of reports.component_data that reports.components.game_sections builds).
SECTIONS = [akrotiri_map_section, akrotiri_card_section, akrotiri_goal_section, akrotiri_market_section,
            akrotiri_end_section]

#: Extra headline statistics for variant comparisons (long format of ``analysis.summary.headline_stats``).
HEADLINES = length_headlines("turns", ("end_trigger", 2, "turn_cap"))

#: Headline figures ``boardlab regress`` checks beyond win shares and scores:
#: (statistic name, table, column, per seat?).
REGRESS_METRICS = [("turns", "games", "turns", False), ("temples", "players", "temples", True)]


# ---------------------------------------------------------------- figures

def price_distribution(dist: pl.DataFrame, label: str = "colour", title: str = "Market prices realised",
                       caption: str | None = None) -> Figure:
    """Share of the cubes of each colour sold at each price (one group of bars per price).

    ``dist`` is the distribution of ``analysis.games.akrotiri.market_prices``.
    """
    dist = _eager(dist)
    fig, axes = _panels(1, width=6.5)
    ax = axes[0][0]
    _grouped_bars(ax, dist, "price", "share", label, _values(dist, label))
    ax.set_xlabel("price realised (drachmas per cube)")
    ax.set_ylabel("share of the colour's cubes sold (%)")
    _legend_outside(ax, title=label)
    return _finish(fig, title, caption)
