"""The Yamataï and Akrotiri report sections (registered in ``reports.report.GAME_SECTIONS``).

Every component analysis — Yamataï fleets, specialists and building tiles,
Akrotiri map cards (by deck and by card) and goals — goes through one
builder, :func:`component_section`, over ``analysis.components``; the game
functions below only say where the takes come from and how to name them.
Names are read from the component data files the run used (the manifest's
``data_status``), so a run with other data files is labelled with its own.
"""
from __future__ import annotations

import json
import os

import polars as pl

from reports import figures as F
from reports.report import Fig, RunSet, Section, Table, _caption_of

CAVEAT = ("Uplifts compare players who took a component with players who did not, under the strategies "
          "played: part of a component's apparent value is the skill of the players who choose it. The "
          "regression holds the other components and the seat fixed (counts centred on the game's mean, "
          "cluster-robust 95% CIs by game); a win effect is the change of the win chance in percentage "
          "points per extra take, a score effect the change of the final score in points.")


# ---------------------------------------------------------------- data files and names

def _data_entry(rs: RunSet, key: str):
    """The manifest's data_status entry for ``key`` (first run that has it), or None."""
    for run in rs.runs.values():
        status = run.manifest.get("data_status") or {}
        entry = status.get(key) or status.get(f"{key}.json")   # runs before 2026-12-02 keyed Akrotiri by file
        if entry:
            return entry if isinstance(entry, dict) else {"file": str(entry)}
    return None


def _package_file(game: str, name: str) -> str:
    import simcore

    return os.path.join(os.path.dirname(os.path.abspath(simcore.__file__)), game, "data", name)


def _load(rs: RunSet, key: str, fallback: str | None = None):
    """(document, where it came from, assumed) for a component data file; (None, text, None) if unreadable."""
    entry = _data_entry(rs, key)
    path = entry.get("file") if entry else (_package_file(rs.game, fallback) if fallback else None)
    if not path or not os.path.exists(path):
        return None, f"{key}: file not found, components shown by number", None
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    assumed = entry.get("assumed") if entry else "assumed" in str(doc.get("status", ""))
    how = "assumed" if assumed else "rulebook / real game"
    where = os.path.basename(path) + ("" if entry else " (package data; not in the manifest's data status)")
    return doc, f"{where} — {how}", assumed


def _data_note(rs, key, fallback=None):
    _, where, _ = _load(rs, key, fallback)
    return f"Component data: {where}."


def _names(rs: RunSet, key: str, fallback: str | None, make) -> dict:
    doc, _, _ = _load(rs, key, fallback)
    if doc is None:
        return {}
    return {i: make(i, t) for i, t in enumerate(doc.get("tiles") or doc.get("cards") or [])}


def _labelled(frame: pl.DataFrame, column: str, names: dict, prefix: str) -> pl.DataFrame:
    labels = {int(k): v for k, v in names.items()}
    return frame.with_columns(pl.col(column).cast(pl.Int64).replace_strict(
        labels, default=pl.lit(prefix) + pl.col(column).cast(pl.String), return_dtype=pl.String).alias("label"))


# ---------------------------------------------------------------- the one component builder

def component_section(rs: RunSet, title: str, takes: pl.DataFrame, component: str, what: str,
                      names: dict | None = None, prefix: str = "", relative: bool = False,
                      value: str | None = None, cost: str | None = None, paragraphs=(), name: str = "",
                      extra_tables=(), extra_figures=(), splits=()) -> Section:
    """Take rate, outcome of takers, and regression uplift of each component, with a figure.

    ``takes`` holds one row per take (game keys, ``seat``, ``component``);
    ``what`` names the component in prose ("fleet tile").
    """
    from analysis.components import component_regression, component_summary

    name = name or component
    p = rs.players
    sec = Section(title, paragraphs=list(paragraphs))
    if takes.height == 0:
        sec.paragraphs.append(f"These runs recorded no {what} events (run with events on): nothing to show.")
        return sec
    summ = component_summary(takes, p, component=component, by=rs.group, value=value, cost=cost)
    reg = component_regression(takes, p, component=component, by=rs.group, relative=relative)
    if names is not None:
        summ, reg = _labelled(summ, component, names, prefix), _labelled(reg, component, names, prefix)
    else:
        summ = summ.with_columns(pl.col(component).cast(pl.String).alias("label"))
        reg = reg.with_columns(pl.col(component).cast(pl.String).alias("label"))
    series = None
    keys = [rs.group, "n_players"]
    if summ.select(keys).unique().height > 1:
        summ = summ.with_columns(pl.col(rs.group).cast(pl.String).alias("series"))
        reg = reg.with_columns(pl.col(rs.group).cast(pl.String).alias("series"))
        series = "series"
    contrast = (f"relative to the average {what}, given how many were taken (the effects sum to zero)"
                if relative else "against not taking it")
    sec.paragraphs.append(
        f"`take_rate`: share of player-games with at least one {what} of the kind (n = player-games); "
        f"`takers_win` / `others_win`: mean win share (a k-way tie counts 1/k) of players who took it and "
        f"of those who did not, `win_diff` their raw difference. The regression gives the marginal value "
        f"of one more {what} {contrast}. " + CAVEAT)
    fig = F.component_values(summ, reg, series=series, title=f"{title}: take rate and marginal value",
                             caption=(f"Left: players who took each {what} (95% Wilson CI). Middle and right: "
                                      f"regression effect per extra take on the win chance and on the final "
                                      f"score, {contrast} (95% cluster-robust CIs). {rs.games_text()}."))
    lead = [rs.group, "n_players", "label"]
    show = [c for c in summ.columns if c not in (component, "label", "series", rs.group, "n_players")]
    sec.tables += [Table(f"{name}_values", summ.select(*lead, *show),
                         f"Per {what}: take rate, final score and win share of takers vs others (95% CIs)."),
                   Table(f"{name}_regression", reg.drop(component, "series", strict=False).select(
                       *lead, *[c for c in reg.columns if c not in (*lead, component, "series")]),
                       f"Regression of win share (logit; `effect` in win-chance units) and of final score "
                       f"(fixed effects; points) on the counts of each {what}.")]
    sec.tables += list(extra_tables)
    for split in splits:
        if split in takes.columns:
            from analysis.components import take_shares

            sh = take_shares(takes, component=component, split=split, by=rs.group)
            sh = _labelled(sh, component, names, prefix) if names is not None else \
                sh.with_columns(pl.col(component).cast(pl.String).alias("label"))
            sec.tables.append(Table(f"{name}_take_share_by_{split}", sh,
                                    f"Share of the {what} takes of each {split} per kind (95% Wilson CIs).",
                                    show=False))
    sec.figures = [Fig(f"{name}_values", fig, _caption_of(fig))] + list(extra_figures)
    sec.terminal = _terminal(title, summ, reg, rs.group)
    return sec


def _terminal(title, summ, reg, group, most=12):
    """A compact table for the terminal: take rate and both effects; only for a dozen components or fewer."""
    from reports.report import text_table

    if summ["label"].n_unique() > most:
        return ""

    def ci(r, scale, unit):
        if r is None or r["effect"] is None:
            return "—"
        return f"{r['effect'] * scale:+.1f}{unit} [{r['effect_lo'] * scale:+.1f}, {r['effect_hi'] * scale:+.1f}]"
    eff = {(str(r[group]), r["n_players"], r["label"], r["outcome"]): r for r in reg.iter_rows(named=True)}
    rows = []
    for r in summ.iter_rows(named=True):
        k = (str(r[group]), r["n_players"], r["label"])
        rows.append([str(r[group]), r["label"], f"{r['take_rate'] * 100:.1f}%", f"{r['n']:,}",
                     ci(eff.get((*k, "win")), 100, "pp"), ci(eff.get((*k, "total")), 1, "")])
    contrast = reg["contrast"].drop_nulls().first() if reg.height else ""
    return (f"{title}: marginal value per extra take ({contrast}, 95% CI)\n"
            + text_table([group, "component", "take rate", "n", "win chance", "final score"], rows))


# ---------------------------------------------------------------- whole-game: length, triggers, ties

def game_end_section(rs: RunSet, length: str, unit: str, triggers=None, code=None, codes=None) -> Section:
    """Game length, end triggers and ties for first."""
    from analysis.games import end_triggers, game_length, top_ties

    g, p = rs.games, rs.players
    sec = Section("Game length, end triggers and ties")
    if not g.height or length not in g.columns:
        sec.paragraphs.append(f"The games table has no `{length}` column.")
        return sec
    summ, dist = game_length(g, length, by=rs.group)
    trig = None
    if code and code in g.columns:
        trig = end_triggers(g, code=code, codes=codes, by=rs.group)
    elif triggers:
        cols = [c for c in triggers if c in g.columns]
        trig = end_triggers(g, triggers=cols, by=rs.group) if cols else None
    ties = top_ties(p, by=rs.group)
    series = rs.group if len(rs.runs) > 1 else None
    fig = F.game_length(dist, trig, series=series, unit=unit, caption=(
        f"Left: share of games per length in {unit}. Right: share of games ended by each trigger "
        f"(95% Wilson CIs). {rs.games_text()}."))
    sec.paragraphs.append(
        f"Game length in {unit} (t interval of the mean), which end condition fired, and how often the top "
        f"total was tied: `shared` ties split the win (1/k each), `broken` ones were decided by the game's "
        f"tie-break, so the win shares above hide them.")
    sec.tables = [Table("game_length", summ, f"Game length ({unit})."),
                  Table("game_length_distribution", dist, "Share of games per length.", show=False),
                  Table("ties_for_first", ties, "Games whose top total was tied, shared or broken (95% CIs).")]
    if trig is not None:
        sec.tables.insert(1, Table("end_triggers", trig, "Share of games ended by each trigger (95% CIs)."))
    sec.figures = [Fig("game_length", fig, _caption_of(fig))]
    lines = []
    for r in summ.iter_rows(named=True):
        key = (r[rs.group], r["n_players"])
        tr = trig.filter((pl.col(rs.group) == key[0]) & (pl.col("n_players") == key[1])) if trig is not None else None
        ended = ", ".join(f"{t['trigger'].removeprefix('trigger_')} {t['share'] * 100:.1f}%"
                          for t in tr.iter_rows(named=True) if t["ended"]) if tr is not None else ""
        tie = ties.filter((pl.col(rs.group) == key[0]) & (pl.col("n_players") == key[1])).row(0, named=True)
        lines.append(f"{key[0]}: {r['mean']:.1f} {unit} [{r['lo']:.1f}, {r['hi']:.1f}] over {r['n_games']:,} games; "
                     f"ended by {ended or '—'}; top total tied in {tie['tied_share'] * 100:.1f}% "
                     f"({tie['shared']:,} shared, {tie['broken']:,} broken by the tie-break)")
    sec.terminal = "Game length (95% CI), end triggers and ties\n" + "\n".join(lines)
    return sec


# ---------------------------------------------------------------- Yamataï

def _fleet_names(rs):
    return _names(rs, "fleets", "fleets.json",
                  lambda i, t: f"{t.get('number', i + 1)} {t.get('ability', '')}".strip())


def yamatai_fleet_section(rs: RunSet) -> Section:
    """Fleet values: pick rates by round and seat, takers' outcome, regression, turn-order effect."""
    from analysis.components import take_shares
    from analysis.yamatai import fleet_picks, fleet_turn_order

    picks = fleet_picks(rs.events) if rs.events.height else pl.DataFrame()
    # names are keyed by fleet number (1-10), the file lists them in order
    names = {i + 1: v for i, v in _fleet_names(rs).items()}
    paras = [_data_note(rs, "fleets", "fleets.json"),
             "Every pawn takes one fleet per round, so fleet counts are exhaustive: the regression reports "
             "each fleet against the average pick. `next_position` is where the fleet's number puts the pawn "
             "in the next round's order (0 = first; picks of the last round left out)."]
    extra_t, extra_f = [], []
    if picks.height:
        by_round = _labelled(take_shares(picks, component="fleet", split="round", by=rs.group), "fleet", names,
                             "fleet ")
        by_seat = _labelled(take_shares(picks, component="fleet", split="seat", by=rs.group), "fleet", names,
                            "fleet ")
        order = _labelled(fleet_turn_order(picks, by=rs.group), "fleet", names, "fleet ")
        extra_t = [Table("fleet_turn_order", order.select(rs.group, "n_players", "label",
                                                          *order.columns[3:-1]),
                         "Per fleet: mean pick position this round, ability use, boats, and the place its "
                         "number gives in the next round (95% CIs)."),
                   Table("fleet_pick_rate_by_seat", by_seat, "Share of each seat's picks per fleet (95% CIs)."),
                   Table("fleet_pick_rate_by_round", by_round, "Share of each round's picks per fleet.", show=False)]
        fig = F.take_share_heatmap(by_round.sort(rs.group, "fleet", "round"), "round",
                                   facet=rs.group if len(rs.runs) > 1 else None,
                                   title="Fleet pick rate by round", xlabel="round (0-based)", caption=(
                                       f"Share (%) of each round's fleet picks that took each fleet. "
                                       f"{rs.games_text()}."))
        extra_f.append(Fig("fleet_pick_rate", fig, _caption_of(fig)))
    return component_section(rs, "Fleet values (Yamataï)", picks, "fleet", "fleet tile", names=names,
                             prefix="fleet ", relative=True, value="boats" if picks.height else None,
                             paragraphs=paras, extra_tables=extra_t, extra_figures=extra_f)


def yamatai_specialist_section(rs: RunSet) -> Section:
    from analysis.yamatai import specialists_recruited

    takes = specialists_recruited(rs.events) if rs.events.height else pl.DataFrame()
    names = _names(rs, "specialists", "specialists.json",
                   lambda i, t: f"{t.get('name', i)} ({t.get('pp', '?')} PP)")
    return component_section(rs, "Specialist values (Yamataï)", takes, "specialist", "specialist",
                             names=names, prefix="specialist ", value="coins" if takes.height else None,
                             splits=("round", "seat"),
                             paragraphs=[_data_note(rs, "specialists", "specialists.json"),
                                         "`value_per_take`: coins taken from the specialist when recruited."])


def yamatai_building_section(rs: RunSet) -> Section:
    from analysis.yamatai import buildings_built

    takes = buildings_built(rs.events) if rs.events.height else pl.DataFrame()
    names = _names(rs, "buildings", "buildings.json",
                   lambda i, t: f"{t.get('id', i)} {t.get('kind', '')} {t.get('pp', '?')} PP".replace("  ", " "))
    return component_section(rs, "Building-tile values (Yamataï)", takes, "tile", "building tile",
                             names=names, prefix="tile ", value="pp_tokens" if takes.height else None,
                             splits=("round", "seat"),
                             paragraphs=[_data_note(rs, "buildings", "buildings.json"),
                                         "`value_per_take`: PP tokens gained by the build."], name="building")


def yamatai_end_section(rs: RunSet) -> Section:
    trig = [c for c in rs.games.columns if c.startswith("trigger_")] if rs.games.height else []
    return game_end_section(rs, "rounds", "rounds", triggers=trig)


# ---------------------------------------------------------------- Akrotiri

def _map_names(rs):
    return _names(rs, "maps", "maps.json", lambda i, t: f"{t.get('id', i)} ({t.get('points', '?')} pts)")


def akrotiri_map_section(rs: RunSet) -> Section:
    """Map cards by deck and by card: excavation rate, points per drachma, uplift."""
    from analysis.akrotiri import DECKS, map_excavation, maps_excavated

    ev = rs.events
    dug = maps_excavated(ev) if ev.height else pl.DataFrame()
    paras = [_data_note(rs, "maps", "maps.json"),
             "Excavation rate: share of *bought* cards that were excavated (n = cards bought). Cards dealt at "
             "set-up have no event in the results (the engine writes map_bought and map_excavated only), so "
             "their excavations are counted apart (`excavated_unbought`) and left out of the rate. Points per "
             "drachma: points of the excavated cards over all drachmas spent on the bought cards (their share "
             "of the purchase price, plus the excavation cost when excavated); delta-method 95% CIs."]
    extra = []
    if ev.height:
        deck = map_excavation(ev, per="deck", by=rs.group)
        card = _labelled(map_excavation(ev, per="card", by=rs.group), "card", _map_names(rs), "map ")
        extra = [Table("map_excavation_by_deck", deck, "Per deck: excavation rate and points per drachma."),
                 Table("map_excavation_by_card", card.select(rs.group, "n_players", "deck_name", "label",
                                                              *card.columns[5:-1]),
                       "Per map card: excavation rate and points per drachma.")]
    # decks by number (easy, medium, hard), not alphabetically
    by_deck = component_section(rs, "Map-card values by deck (Akrotiri)", dug, "deck", "excavated map card",
                                names=dict(enumerate(DECKS)),
                                value="points" if dug.height else None, cost="cost" if dug.height else None,
                                paragraphs=paras, extra_tables=extra, name="map_deck", splits=("seat",))
    return by_deck


def akrotiri_card_section(rs: RunSet) -> Section:
    from analysis.akrotiri import maps_excavated

    dug = maps_excavated(rs.events) if rs.events.height else pl.DataFrame()
    return component_section(rs, "Map-card values by card (Akrotiri)", dug, "card", "excavated map card",
                             names=_map_names(rs), prefix="map ", relative=True,
                             value="points" if dug.height else None, name="map_card",
                             paragraphs=[_data_note(rs, "maps", "maps.json"),
                                         "Each card against the average excavated card, given how many maps "
                                         "the player excavated: the number of excavations is the player's "
                                         "progress (temples), which the by-deck section credits to the decks."])


def akrotiri_goal_section(rs: RunSet) -> Section:
    from analysis.akrotiri import goal_scoring, goals

    g = goals(rs.events) if rs.events.height else pl.DataFrame()
    names = _names(rs, "goals", "goals.json", lambda i, t: f"{t.get('id', i)} {t.get('key', '')}".strip())
    extra = []
    if g.height:
        sc = _labelled(goal_scoring(g, by=rs.group), "goal", names, "goal ")
        extra = [Table("goal_scoring", sc.select(rs.group, "n_players", "label", *sc.columns[3:-1]),
                       "Per goal kept: how often it scored (95% Wilson CI) and its points (95% t CI).")]
    return component_section(rs, "Goal-card values (Akrotiri)", g, "goal", "goal card kept", names=names,
                             prefix="goal ", relative=True, value="points" if g.height else None,
                             paragraphs=[_data_note(rs, "goals", "goals.json"),
                                         "A goal is taken when kept; `value_per_take` is the points it scored "
                                         "at the end (0 when its condition failed). Every player keeps one goal "
                                         "at set-up and one more at its 3rd and 5th temple, so the number kept "
                                         "measures progress: each goal is compared with the average goal kept, "
                                         "given how many the player kept."],
                             extra_tables=extra, name="goal", splits=("seat",))


def akrotiri_market_section(rs: RunSet) -> Section:
    from analysis.akrotiri import goods_sold, market_prices

    doc, where, _ = _load(rs, "market", "market.json")
    colours = dict(enumerate((doc or {}).get("colours") or ["blue", "green", "grey", "orange"]))
    sec = Section("Market prices realised (Akrotiri)", paragraphs=[f"Component data: {where}."])
    if not rs.events.height:
        sec.paragraphs.append("These runs recorded no events: no prices.")
        return sec
    sales = goods_sold(rs.events).with_columns(pl.col("colour").cast(pl.Int64).replace_strict(
        colours, default=pl.col("colour").cast(pl.String), return_dtype=pl.String))
    summ, dist = market_prices(sales, by=rs.group)
    fig = F.price_distribution(dist.group_by("colour", "price").agg(pl.col("n_sold").sum()).with_columns(
        (pl.col("n_sold") / pl.col("n_sold").sum().over("colour")).alias("share")).sort("colour", "price"),
        caption=f"Share of each colour's cubes sold at each price (all runs pooled). {rs.games_text()}.")
    sec.tables = [Table("market_prices", summ, "Price per cube sold, per colour (95% t CIs)."),
                  Table("market_price_distribution", dist, "Share of cubes sold per price.", show=False)]
    sec.figures = [Fig("market_prices", fig, _caption_of(fig))]
    return sec


def akrotiri_end_section(rs: RunSet) -> Section:
    from analysis.akrotiri import END_TRIGGERS

    return game_end_section(rs, "turns", "turns", code="end_trigger",
                            codes=END_TRIGGERS)
