"""Report builders the game plug-ins share: component values, game length.

Every component analysis — Yamataï fleets, specialists and building tiles,
Akrotiri map cards (by deck and by card) and goals — goes through one
builder, :func:`component_section`, over ``analysis.components``; a game's
plug-in (``reports/games/<game>.py``) only says where the takes come from
and how to name them, as a request (``reports.component_data.ComponentValues``)
that :func:`game_sections` builds here. Names are read from the component data
files the run used (the manifest's ``data_status``, ``reports.component_data``),
so a run with other data files is labelled with its own.
"""
from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from reports.component_data import ComponentValues, GameEnd, labelled
from reports.render.figures import (COLORS, _eager, _err, _finish, _grouped_bars, _label, _legend_below,
                                    _legend_outside, _panels, _sel, _subtitle, _values)
from reports.render.sections import Fig, Section, Table, caption_of, text_table

CAVEAT = ("Uplifts compare players who took a component with players who did not, under the strategies "
          "played: part of a component's apparent value is the skill of the players who choose it. The "
          "regression holds the other components and the seat fixed (counts centred on the game's mean, "
          "cluster-robust 95% CIs by game); a win effect is the change of the win chance in percentage "
          "points per extra take, a score effect the change of the final score in points.")


# ---------------------------------------------------------------- a plug-in's sections

def game_sections(plug) -> list:
    """The section builders (``RunSet -> Section``) of a game plug-in (``reports.games.plugin_of``):
    its ``SECTIONS``, each request it returns (``reports.component_data``) built here."""
    return [_built(build) for build in plug.SECTIONS]


def _built(build):
    def section(rs):
        sec = build(rs)
        if isinstance(sec, ComponentValues):
            return component_section(rs, *sec.args, **sec.kwargs)
        if isinstance(sec, GameEnd):
            return game_end_section(rs, *sec.args, **sec.kwargs)
        return sec
    section.__name__ = section.__qualname__ = getattr(build, "__name__", "section")
    return section


# ---------------------------------------------------------------- the one component builder

def component_section(rs, title: str, takes, component: str, what: str,
                      names: dict | None = None, prefix: str = "", relative: bool = False,
                      value: str | None = None, cost: str | None = None, paragraphs=(), name: str = "",
                      extra_tables=(), extra_figures=(), splits=()) -> Section:
    """Take rate, outcome of takers, and regression uplift of each component, with a figure.

    ``takes`` makes the takes from an events frame (e.g.
    ``analysis.games.yamatai.fleet_picks``): one row per take (game keys,
    ``seat``, ``component``); ``what`` names the component in prose ("fleet tile").
    Take rates, outcomes and take shares add up sums over batches of games
    (``RunSet.batches_of``); the regression fits the first ``reports.report.FIT_GAMES``
    games of each run (the caption says so when that is not all of them).
    """
    from analysis._common import add_up, columns
    from analysis.components import (component_regression, component_summary_from_sums, component_take_sums,
                                     player_sums, take_counts, take_shares_from_counts)

    from reports.runset import collected, fit_sample

    name = name or component
    sec = Section(title, paragraphs=list(paragraphs))
    keys = [rs.group, "n_players"]
    base, took, counts = [], [], {split: [] for split in splits}
    if rs.has("events"):
        for ev, p in rs.batches_of(["events", "players"]):
            t = takes(ev)
            base.append(collected(player_sums(p, by=rs.group)))
            took.append(collected(component_take_sums(t, p, component=component, by=rs.group, value=value,
                                                       cost=cost)))
            for split in splits:
                if split in columns(t):
                    counts[split].append(collected(take_counts(t, component=component, split=split, by=rs.group)))
    took = add_up(took, [*keys, component]) if took else pl.DataFrame()
    if took.height == 0:
        sec.paragraphs.append(f"These runs recorded no {what} events (run with events on): nothing to show.")
        return sec
    summ = collected(component_summary_from_sums(took, add_up(base, keys), component=component, by=rs.group,
                                                 value=value, cost=cost))
    sample, note = fit_sample(rs, "players")
    sample_events, _ = fit_sample(rs, "events")
    reg = collected(component_regression(takes(sample_events), sample, component=component, by=rs.group,
                                         relative=relative))
    if names is not None:
        summ, reg = labelled(summ, component, names, prefix), labelled(reg, component, names, prefix)
    else:
        summ = summ.with_columns(pl.col(component).cast(pl.String).alias("label"))
        reg = reg.with_columns(pl.col(component).cast(pl.String).alias("label"))
    series = None
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
    fig = component_values(summ, reg, series=series, title=f"{title}: take rate and marginal value",
                             caption=(f"Look at the middle panel: a {what} right of the line wins more games "
                                       f"than the average one, left of it fewer; a bar that crosses the line is "
                                       f"not told from average. Left: players who took each {what} (95% Wilson CI). Middle and right: "
                                      f"regression effect per extra take on the win chance and on the final "
                                      f"score, {contrast} (95% cluster-robust CIs). {rs.games_text()}.{note}"))
    lead = [rs.group, "n_players", "label"]
    show = [c for c in summ.columns if c not in (component, "label", "series", rs.group, "n_players")]
    sec.tables += [Table(f"{name}_values", summ.select(*lead, *show),
                         f"Per {what}: take rate, final score and win share of takers vs others (95% CIs)."),
                   Table(f"{name}_regression", reg.drop(component, "series", strict=False).select(
                       *lead, *[c for c in reg.columns if c not in (*lead, component, "series")]),
                       f"Regression of win share (logit; `effect` in win-chance units) and of final score "
                       f"(fixed effects; points) on the counts of each {what}.{note}")]
    sec.tables += list(extra_tables)
    for split in splits:
        if counts[split]:
            sh = collected(take_shares_from_counts(add_up(counts[split], [*keys, split, component]),
                                                   component=component, split=split, by=rs.group))
            sh = labelled(sh, component, names, prefix) if names is not None else \
                sh.with_columns(pl.col(component).cast(pl.String).alias("label"))
            sec.tables.append(Table(f"{name}_take_share_by_{split}", sh,
                                    f"Share of the {what} takes of each {split} per kind (95% Wilson CIs).",
                                    show=False))
    sec.figures = [Fig(f"{name}_values", fig, caption_of(fig))] + list(extra_figures)
    sec.terminal = _terminal(title, summ, reg, rs.group)
    return sec


def _terminal(title, summ, reg, group, most=12):
    """A compact table for the terminal: take rate and both effects; only for a dozen components or fewer."""
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

def game_end_section(rs, length: str, unit: str, triggers=None, code=None, codes=None) -> Section:
    """Game length, end triggers and ties for first."""
    from analysis.outcomes import end_triggers, game_length, top_ties

    from reports.runset import collected

    # lazy scans: each query reads its columns and aggregates as it goes
    g, p = rs.scan("games"), rs.scan("players")
    sec = Section("Game length, end triggers and ties")
    if not rs.has("games") or length not in rs.columns("games"):
        sec.paragraphs.append(f"The games table has no `{length}` column.")
        return sec
    summ, dist = map(collected, game_length(g, length, by=rs.group))
    trig = None
    if code and code in rs.columns("games"):
        trig = collected(end_triggers(g, code=code, codes=codes, by=rs.group))
    elif triggers:
        cols = [c for c in triggers if c in rs.columns("games")]
        trig = collected(end_triggers(g, triggers=cols, by=rs.group)) if cols else None
    ties = collected(top_ties(p, by=rs.group))
    series = rs.group if len(rs.runs) > 1 else None
    fig = game_length_figure(dist, trig, series=series, unit=unit, caption=(
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
    sec.figures = [Fig("game_length", fig, caption_of(fig))]
    lines = []
    for r in summ.iter_rows(named=True):
        key = (r[rs.group], r["n_players"])
        tr = trig.filter((pl.col(rs.group) == key[0]) & (pl.col("n_players") == key[1])) if trig is not None else None
        ended = ", ".join(f"{t['trigger'].removeprefix('trigger_')} {t['share'] * 100:.1f}%"
                          for t in tr.iter_rows(named=True) if t["ended"]) if tr is not None else ""
        tie = ties.filter((pl.col(rs.group) == key[0]) & (pl.col("n_players") == key[1])).row(0, named=True)
        ci = (f"[{r['lo']:.1f}, {r['hi']:.1f}]" if r["lo"] is not None and r["hi"] is not None
              else "(no interval: too few games)")
        lines.append(f"{key[0]}: {r['mean']:.1f} {unit} {ci} over {r['n_games']:,} games; "
                     f"ended by {ended or '—'}; top total tied in {tie['tied_share'] * 100:.1f}% "
                     f"({tie['shared']:,} shared, {tie['broken']:,} broken by the tie-break)")
    sec.terminal = "Game length (95% CI), end triggers and ties\n" + "\n".join(lines)
    return sec


# ---------------------------------------------------------------- figures

def _forest(ax, frame, labels, est, lo, hi, series, names, scale=1.0, key="label"):
    """Horizontal estimates with CIs, one row per label, series side by side."""
    h = 0.8 / max(1, len(names))
    y0 = np.arange(len(labels))
    for i, sv in enumerate(names):
        d = _sel(frame, series, sv)
        idx = {c: j for j, c in enumerate(d[key].to_list())}

        def col(c):
            return np.array([d[c][idx[x]] if x in idx and d[c][idx[x]] is not None else np.nan
                             for x in labels], dtype=float) * scale
        m, a, b = col(est), col(lo), col(hi)
        y = y0 + (i - (len(names) - 1) / 2) * h
        ax.errorbar(m, y, xerr=_err(m, a, b), fmt="o", color=COLORS[i % 10], ecolor=COLORS[i % 10],
                    markersize=4, capsize=2, linewidth=1, label=_label(sv, series) or None)
    ax.set_yticks(y0, labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)


def component_values(summary: pl.DataFrame, regression: pl.DataFrame, label: str = "label",
                     series: str | None = None, title: str = "Component values",
                     caption: str | None = None) -> Figure:
    """Take rate (left), marginal win uplift (middle) and score effect (right) of each component.

    ``summary`` is ``analysis.components.component_summary`` and
    ``regression`` ``analysis.components.component_regression``, each with a
    ``label`` column naming the component.
    """
    summary, regression = _eager(summary), _eager(regression)
    labels = summary[label].unique(maintain_order=True).to_list()
    names = _values(summary, series)
    fig = Figure(figsize=(12.5, max(3.2, 0.28 * len(labels) * max(1, len(names)) ** 0.5 + 1.6)),
                 layout="constrained")
    axes = fig.subplots(1, 3, sharey=True)
    for ax in axes:
        ax.grid(True, color="#e5e5e5", linewidth=0.6)
        ax.set_axisbelow(True)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    _forest(axes[0], summary, labels, "take_rate", "take_lo", "take_hi", series, names, 100, label)
    axes[0].set_xlim(left=0)
    axes[0].set_xlabel("players who took it (% of player-games, 95% CI)")
    _subtitle(axes[0], "take rate")
    contrast = regression["contrast"].drop_nulls().first() if regression.height else "vs not taking"
    for ax, outcome, scale, xl in ((axes[1], "win", 100, "win chance per extra take (pp, 95% CI)"),
                                   (axes[2], "total", 1, "final score per extra take (points, 95% CI)")):
        d = regression.filter(pl.col("outcome") == outcome)
        _forest(ax, d, labels, "effect", "effect_lo", "effect_hi", series, names, scale, label)
        ax.axvline(0, color="#444444", linewidth=0.8)
        ax.set_xlabel(xl)
        _subtitle(ax, f"marginal value ({contrast})")
    if series and len(names) > 1:
        _legend_below(fig, axes[0])          # under the panels: it covered points of the fleet forest
    return _finish(fig, title, caption)


def game_length_figure(dist: pl.DataFrame, triggers: pl.DataFrame | None = None, series: str | None = None,
                unit: str = "rounds", title: str = "Game length and end triggers",
                caption: str | None = None) -> Figure:
    """Distribution of game length (left) and share of games per end trigger with CIs (right).

    ``dist`` and ``triggers`` come from ``analysis.outcomes.game_length`` and
    ``analysis.outcomes.end_triggers``.
    """
    dist = _eager(dist)
    n_ax = 2 if triggers is not None else 1
    fig, axes = _panels(n_ax, width=4.8)
    names = _values(dist, series)
    _grouped_bars(axes[0][0], dist, "length", "share", series, names)
    axes[0][0].set_xlabel(f"game length ({unit})")
    axes[0][0].set_ylabel("share of games (%)")
    _subtitle(axes[0][0], "length")
    if triggers is not None:
        triggers = _eager(triggers)
        ax = axes[0][1]
        trig = triggers["trigger"].unique(maintain_order=True).to_list()
        tn = _values(triggers, series)
        w = 0.8 / max(1, len(tn))
        for i, sv in enumerate(tn):
            d = _sel(triggers, series, sv)
            idx = {t: j for j, t in enumerate(d["trigger"].to_list())}
            x = np.arange(len(trig)) + (i - (len(tn) - 1) / 2) * w
            y = np.array([d["share"][idx[t]] if t in idx else np.nan for t in trig]) * 100
            lo = np.array([d["lo"][idx[t]] if t in idx else np.nan for t in trig]) * 100
            hi = np.array([d["hi"][idx[t]] if t in idx else np.nan for t in trig]) * 100
            ax.bar(x, y, width=w * 0.95, color=COLORS[i % 10], alpha=0.8, label=_label(sv, series) or None)
            ax.errorbar(x, y, yerr=_err(y, lo, hi), fmt="none", ecolor="black", capsize=2)
        ax.set_xticks(range(len(trig)), [t.removeprefix("trigger_") for t in trig], rotation=20, ha="right")
        ax.set_ylabel("games ended by it (%, 95% CI)")
        _subtitle(ax, "end triggers (a game may set several)")
    if series and len(names) > 1:
        _legend_outside(axes[0][-1])
    return _finish(fig, title, caption)
