"""Yamataï report plug-in: fleet, specialist and building-tile values, game length."""
from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from reports.render.figures import _eager, _finish, _label, _sel, _subtitle, _values
from reports.component_data import ComponentValues, GameEnd, component_names, data_note, labelled, length_headlines
from reports.render.sections import Fig, Section, Table, caption_of


def _fleet_names(rs):
    return component_names(rs, "fleets", "fleets.json",
                  lambda i, t: f"{t.get('number', i + 1)} {t.get('ability', '')}".strip())


def yamatai_fleet_section(rs) -> ComponentValues:
    """Fleet values: pick rates by round and seat, takers' outcome, regression, turn-order effect."""
    from analysis.components import take_shares
    from analysis.games.yamatai import fleet_picks, fleet_turn_order

    from reports.runset import collected

    picks = fleet_picks(rs.scan("events")) if rs.has("events") else None
    # names are keyed by fleet number (1-10), the file lists them in order
    names = {i + 1: v for i, v in _fleet_names(rs).items()}
    paras = [data_note(rs, "fleets", "fleets.json"),
             "Every pawn takes one fleet per round, so fleet counts are exhaustive: the regression reports "
             "each fleet against the average pick. `next_position` is where the fleet's number puts the pawn "
             "in the next round's order (0 = first; picks of the last round left out)."]
    extra_t, extra_f = [], []
    if picks is not None:
        by_round = labelled(collected(take_shares(picks, component="fleet", split="round", by=rs.group)), "fleet",
                            names, "fleet ")
        by_seat = labelled(collected(take_shares(picks, component="fleet", split="seat", by=rs.group)), "fleet",
                           names, "fleet ")
        order = labelled(collected(fleet_turn_order(picks, by=rs.group)), "fleet", names, "fleet ")
        extra_t = [Table("fleet_turn_order", order.select(rs.group, "n_players", "label",
                                                          *order.columns[3:-1]),
                         "Per fleet: mean pick position this round, ability use, boats, and the place its "
                         "number gives in the next round (95% CIs)."),
                   Table("fleet_pick_rate_by_seat", by_seat, "Share of each seat's picks per fleet (95% CIs)."),
                   Table("fleet_pick_rate_by_round", by_round, "Share of each round's picks per fleet.", show=False)]
        fig = take_share_heatmap(by_round.sort(rs.group, "fleet", "round")
                                 .with_columns(pl.col("round") + 1), "round",      # rounds read from 1
                                   facet=rs.group if len(rs.runs) > 1 else None,
                                   title="Fleet pick rate by round", xlabel="round", caption=(
                                       f"Share (%) of each round's fleet picks that took each fleet. "
                                       f"{rs.games_text()}."))
        extra_f.append(Fig("fleet_pick_rate", fig, caption_of(fig)))
    return ComponentValues("Fleet values (Yamataï)", fleet_picks, "fleet", "fleet tile", names=names,
                           prefix="fleet ", relative=True, value="boats",
                           paragraphs=paras, extra_tables=extra_t, extra_figures=extra_f)


def yamatai_specialist_section(rs) -> ComponentValues:
    from analysis.games.yamatai import specialists_recruited

    names = component_names(rs, "specialists", "specialists.json",
                   lambda i, t: f"{t.get('name', i)} ({t.get('pp', '?')} PP)")
    return ComponentValues("Specialist values (Yamataï)", specialists_recruited, "specialist", "specialist",
                           names=names, prefix="specialist ", value="coins",
                           splits=("round", "seat"),
                           paragraphs=[data_note(rs, "specialists", "specialists.json"),
                                       "`value_per_take`: coins taken from the specialist when recruited."])


def yamatai_building_section(rs) -> ComponentValues:
    from analysis.games.yamatai import buildings_built

    names = component_names(rs, "buildings", "buildings.json",
                   lambda i, t: f"{t.get('id', i)} {t.get('kind', '')} {t.get('pp', '?')} PP".replace("  ", " "))
    return ComponentValues("Building-tile values (Yamataï)", buildings_built, "tile", "building tile",
                           names=names, prefix="tile ", value="pp_tokens",
                           splits=("round", "seat"),
                           paragraphs=[data_note(rs, "buildings", "buildings.json"),
                                       "`value_per_take`: PP tokens gained by the build."], name="building")


def yamatai_end_section(rs) -> GameEnd:
    trig = [c for c in rs.columns("games") if c.startswith("trigger_")] if rs.has("games") else []
    return GameEnd("rounds", "rounds", triggers=trig)


#: The report sections of a Yamataï run, after the generic ones (builders: RunSet -> Section, or a request
#: of reports.component_data that reports.components.game_sections builds).
SECTIONS = [yamatai_fleet_section, yamatai_specialist_section, yamatai_building_section, yamatai_end_section]

#: Extra headline statistics for variant comparisons (long format of ``analysis.summary.headline_stats``).
HEADLINES = length_headlines("rounds")

#: Headline figures ``boardlab regress`` checks beyond win shares and scores:
#: (statistic name, table, column, per seat?).
REGRESS_METRICS = [("rounds", "games", "rounds", False)]


# ---------------------------------------------------------------- figures

def take_share_heatmap(shares: pl.DataFrame, split: str, label: str = "label", value: str = "share",
                       facet: str | None = None, title: str = "Pick rate", xlabel: str | None = None,
                       caption: str | None = None) -> Figure:
    """Share of the takes per component (rows) and ``split`` cell (columns), as heat maps.

    ``shares`` is ``analysis.components.take_shares`` with a ``label``
    column, in the row order to show; ``facet`` gives one panel per value
    (stacked), e.g. the run.
    """
    shares = _eager(shares)
    labels = shares[label].unique(maintain_order=True).to_list()
    cells = sorted(shares[split].unique().to_list())
    facets = _values(shares, facet)
    fig = Figure(figsize=(max(5.5, 0.55 * len(cells) + 3), len(facets) * max(3.0, 0.3 * len(labels) + 1.0) + 0.6),
                 layout="constrained")
    axes = fig.subplots(len(facets), 1, squeeze=False, sharex=True)[:, 0]
    li, ci = {x: i for i, x in enumerate(labels)}, {x: i for i, x in enumerate(cells)}
    for ax, fv in zip(axes, facets):
        grid = np.full((len(labels), len(cells)), np.nan)
        for r in _sel(shares, facet, fv).iter_rows(named=True):
            grid[li[r[label]], ci[r[split]]] = r[value] * 100
        im = ax.imshow(grid, aspect="auto", cmap="viridis", interpolation="nearest", vmin=0)
        ax.set_xticks(range(len(cells)), [str(c) for c in cells])
        ax.set_yticks(range(len(labels)), labels)
        top = np.nanmax(grid) if np.isfinite(grid).any() else 1.0
        for i in range(len(labels)):
            for j in range(len(cells)):
                if not np.isnan(grid[i, j]):
                    ax.text(j, i, f"{grid[i, j]:.0f}", ha="center", va="center", fontsize=7,
                            color="white" if grid[i, j] < top * 0.6 else "black")
        if fv is not None:
            _subtitle(ax, _label(fv, facet))
        fig.colorbar(im, ax=ax, label="% of the cell's takes")
    axes[-1].set_xlabel(xlabel or split)
    return _finish(fig, title, caption)
