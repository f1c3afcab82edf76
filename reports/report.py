"""Reports: sections of tables and figures built from results folders.

The containers (:class:`Report`, :class:`Section`, :class:`Table`,
:class:`Fig`) live in ``reports.sections``; this module builds the generic
sections, assembles whole reports and writes them (:func:`write_report`:
``report.html`` self-contained with figures embedded as base64 PNG,
``report.md``, ``figures/<name>.png|svg`` and ``tables/<name>.csv``).

The section builders take a :class:`RunSet` — one or more results folders
with a label each, stacked into one table with the label in a column — so
the same code reports one run, the runs of a study, or the variants of a
comparison. Every game gets seat advantage, score distributions, categories
and convergence; a game's own sections and headline statistics come from its
plug-in, ``reports/games/<game>.py`` (found by name, see ``reports.games``).
In a notebook::

    from reports.report import RunSet, seat_section
    rs = RunSet.from_dirs({"3p": "runs/hellas-3p"})
    sec = seat_section(rs)
    sec.tables[0].frame, sec.figures[0].figure
"""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from functools import cached_property

import polars as pl

import simcore
from analysis import load_run
from analysis._common import GAME_KEY
from reports import figures as F
from reports.games import plugin
from reports.sections import Fig, Report, Section, Table, caption_of, text_table

# ---------------------------------------------------------------- run sets

@dataclass
class RunSet:
    """Results folders with a label each, stacked; the label is in column ``group``."""

    runs: dict                 # label -> analysis.Run
    group: str = "run"
    title: str = ""

    @classmethod
    def from_dirs(cls, dirs, group="run", title="", allow_partial=False):
        """``{label: folder}`` (or one folder) -> RunSet; ValueError names a bad folder.

        ``allow_partial``: accept interrupted runs (their finished chunks only).
        """
        if isinstance(dirs, (str, os.PathLike)):
            dirs = {os.path.basename(os.path.normpath(os.fspath(dirs))) or "run": dirs}
        from simcore._manifest import read_manifest

        for path in dirs.values():     # a manifest with a bad key is named here, not as a polars error later
            if os.path.isfile(os.path.join(path, "manifest.json")):
                read_manifest(path)
        runs = {label: load_run(path, allow_partial=allow_partial) for label, path in dirs.items()}
        games = {r.manifest.get("game") for r in runs.values()}
        if len(games) > 1:
            raise ValueError(f"a run set holds one game, got {sorted(map(str, games))}")
        return cls(runs=runs, group=group, title=title)

    @property
    def game(self):
        return next(iter(self.runs.values())).manifest.get("game", "?")

    @property
    def labels(self):
        return list(self.runs)

    def scan(self, table):
        """The stacked ``table`` as a LazyFrame over the runs' Parquet parts (nothing read yet).

        The sections build their queries on these, so a query reads only the columns it
        uses and a report's memory follows what its analyses keep, not the game count.
        """
        cache = self.__dict__.setdefault("_scans", {})
        if table not in cache:
            frames = [self._decorate(label, run, getattr(run, table), table) for label, run in self.runs.items()]
            frames = [lf for lf in frames if lf is not None]
            cache[table] = self._keyed(pl.concat(frames, how="diagonal_relaxed")) if frames else pl.LazyFrame()
        return cache[table]

    def batches(self, table, games=None):
        """The stacked ``table`` as LazyFrames of about ``games`` games each, in table order.

        A batch is consecutive Parquet parts of one run (a part holds whole games), with
        the columns :meth:`scan` adds; a section that adds up per-game results batch by
        batch holds one batch's rows at a time, whatever the run's size.
        """
        for (lf,) in self.batches_of([table], games):
            yield lf

    def batches_of(self, tables, games=None):
        """Tuples of batches of several ``tables``, one per table, over the same Parquet parts.

        Every table of a run has one part per finished chunk (``analysis.load_run``), so
        the batches of a tuple hold the same games: e.g. the events and the players of
        them. A run that lacks one of the tables gives no batch.
        """
        games = BATCH_GAMES if games is None else games
        n = self.n_games()
        for label, run in self.runs.items():
            files = [run.files.get(t) or [] for t in tables]
            if not all(files) or len({len(f) for f in files}) > 1:
                continue
            step = max(1, games * len(files[0]) // max(n[label], 1))
            for i in range(0, len(files[0]), step):
                lfs = [self._decorate(label, run, pl.scan_parquet(f[i:i + step]), t) for t, f in zip(tables, files)]
                if all(lf is not None for lf in lfs):
                    yield tuple(self._keyed(lf) for lf in lfs)

    def _decorate(self, label, run, lf, table):
        """``lf`` (rows of run ``label``) with the group column and, per game, ``n_players``."""
        if not lf.collect_schema().names():
            return None
        lf = lf.with_columns(pl.lit(label).alias(self.group))
        if table in ("players", "games", "events"):
            lf = lf.with_columns(pl.lit(int(run.manifest["players"]), dtype=pl.Int64).alias("n_players"))
        return lf

    def _keyed(self, out):
        out = out.with_columns(pl.col(self.group).cast(pl.Enum(list(self.runs))))
        if "game_index" in out.collect_schema().names():
            # runs stacked in label order, each in game order (parts in chunk order, rows
            # game-major): (run number, game_index) ascends through the table
            out = out.with_columns(
                ((pl.col(self.group).to_physical().cast(pl.Int64) * (1 << 40))
                 + pl.col("game_index").cast(pl.Int64)).set_sorted().alias(GAME_KEY))
        return out

    def has(self, table):
        """Whether any run wrote ``table`` (a run with ``--no-events`` has no events)."""
        return bool(self.scan(table).collect_schema().names())

    def columns(self, table):
        return self.scan(table).collect_schema().names()

    def _stack(self, table):
        return self.scan(table).collect() if self.has(table) else pl.DataFrame()

    @cached_property
    def players(self):
        return self._stack("players")

    @cached_property
    def games(self):
        return self._stack("games")

    @cached_property
    def events(self):
        return self._stack("events")

    @cached_property
    def categories(self):
        """The game's scoring categories (its ``SCORE_CATEGORIES``); for a game this
        installation does not know, the players columns between ``strategy`` and ``total``."""
        cols = self.columns("players")
        if self.game in simcore.games:
            return [c for c in simcore.games[self.game].SCORE_CATEGORIES if c in cols]
        if "strategy" in cols and "total" in cols:
            return cols[cols.index("strategy") + 1: cols.index("total")]
        return []

    def n_games(self):
        """Games in each run's tables (of an interrupted run: its finished chunks)."""
        if not hasattr(self, "_n_games"):
            self._n_games = {label: int(run.games.select(pl.len()).collect().item())
                             for label, run in self.runs.items()}
        return self._n_games

    def games_text(self):
        """'20,000 games' or '20,000 games per run (3 runs, 60,000 in all)'."""
        n = self.n_games()
        vals = set(n.values())
        total = sum(n.values())
        if len(n) == 1:
            return f"{total:,} games"
        if len(vals) == 1:
            return f"{next(iter(vals)):,} games per {self.group} ({len(n)} {self.group}s, {total:,} in all)"
        return f"{min(vals):,}–{max(vals):,} games per {self.group} ({total:,} in all)"


# ---------------------------------------------------------------- sections

#: Row-level regressions (category logit, quarry luck) are fitted on the games
#: with ``game_index`` below this in each run: the first games of a run are a
#: reproducible simple random sample (every game has its own seed), their CIs
#: are those of that sample, and the caption says so. Runs this size or smaller
#: are fitted whole.
FIT_GAMES = 1_000_000

#: Sections that add up per-game results do it over batches of about this many
#: games (``RunSet.batches``), so their memory is that of one batch.
BATCH_GAMES = 500_000


def fit_sample(rs, table="players", limit=None):
    """``(scan, note)``: the table restricted to the regression sample, and a caption note ("" if whole)."""
    limit = FIT_GAMES if limit is None else limit
    lf = rs.scan(table)
    if max(rs.n_games().values()) <= limit:
        return lf, ""
    return (lf.filter(pl.col("game_index") < limit),
            f" Regression fitted on the first {limit:,} games of each run (a reproducible sample; "
            f"CIs are the sample's).")


def collected(frame):
    """An analysis result as a DataFrame (the sections pass LazyFrames, so results come back lazy)."""
    return frame.collect(engine="streaming") if isinstance(frame, pl.LazyFrame) else frame


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
        "Does the first player (seat 0) win more than its fair share? `win_share` is the mean win "
        "share of the seat, `deviation` its difference from 1/n; the chi-square test asks whether "
        "all seats are equal."],
        tables=[Table("seat_advantage", adv, "Win share, score and margin per seat (95% CIs)."),
                Table("seat_equality_test", eq, "Multinomial goodness-of-fit test of equal seats.")],
        figures=[Fig("win_share_by_seat", fig, caption_of(fig))])
    rows = []
    for r in adv.iter_rows(named=True):
        half = (r["win_hi"] - r["win_lo"]) / 2 * 100
        rows.append([str(r[rs.group]), str(r["n_players"]), str(r["seat"]),
                     f"{r['win_share'] * 100:.1f}% ±{half:.1f}", f"{r['deviation'] * 100:+.1f}",
                     f"{r['mean_total']:.1f}", f"{r['n']:,}"])
    sec.terminal = "Win share by seat (95% CI)\n" + text_table(
        [rs.group, "players", "seat", "win share", "vs fair (pp)", "mean score", "games"], rows)
    return sec


def score_section(rs: RunSet) -> Section:
    from analysis._common import add_up
    from analysis.summary import score_counts, score_distribution_from_counts, score_summary_from_counts

    keys = [rs.group, "n_players", "seat", "total"]
    counts = add_up((collected(score_counts(b, by=rs.group)) for b in rs.batches("players")), keys)
    dist = score_distribution_from_counts(counts, by=rs.group)
    summary = score_summary_from_counts(counts, by=rs.group)
    fig = F.score_distributions(dist, facet=_facet(rs), caption=(
        f"Share of games in which each seat finished with each total score. {rs.games_text()}."))
    return Section("Score distributions",
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


def run_sections(rs: RunSet, figures=None) -> list:
    """The generic sections, outcomes, then the game's own, the rarely taken options, then convergence.

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
             *plugin(rs.game).SECTIONS]
    built = {}
    with ThreadPoolExecutor(1) as ahead:
        fit = ahead.submit(category_fit, rs) if rs.categories else None
        for build in [convergence_section, outcome_section, *plugin(rs.game).SECTIONS, seat_section,
                      category_section, score_section, option_take_section]:
            built[build] = sec = category_section(rs, fit) if build is category_section else build(rs)
            if sec is not None and figures is not None:
                figures.add([sec])
    secs = [built[build] for build in order if built[build] is not None]
    rare = rarely_taken_section(secs)
    return secs + ([rare] if rare is not None else []) + [built[convergence_section]]


def variant_section(rs: RunSet, baseline=None, title="Variant comparison") -> Section:
    """Each headline statistic per variant, the difference to the baseline and its CI."""
    from analysis.summary import headline_stats, variant_differences

    head = [collected(headline_stats(rs.scan("players"), by=rs.group, categories=rs.categories))]
    extra = plugin(rs.game).HEADLINES
    head += list(extra(rs)) if extra else []
    from reports.outcomes import outcome_headlines

    head += outcome_headlines(rs)
    head = pl.concat([h.with_columns(pl.col(rs.group).cast(pl.String)) for h in head], how="vertical_relaxed")
    baseline = baseline or rs.labels[0]
    diff = variant_differences(head, variant=rs.group, baseline=baseline)
    wide = head.pivot(on=rs.group, index=["n_players", "statistic", "item"], values="estimate")
    fig = F.variant_differences(diff, variant=rs.group, title=f"Variant minus baseline '{baseline}'", caption=(
        f"Each headline statistic of the variant minus the baseline '{baseline}', with 95% CIs "
        f"(z test for shares, Welch t for means). {rs.games_text()}."))
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
        f"game seeds (common random numbers); the intervals below treat them as independent samples, "
        f"right as far as a game's outcomes under two variants are uncorrelated (measured |r| < 0.05 in "
        f"Hellas: docs/intervals.md); p-values are Holm-corrected per variant."],
        tables=[Table("headline_by_variant", wide, "Headline statistics per variant."),
                Table("variant_differences", diff, f"Differences to '{baseline}' (95% CIs, Holm p-values).")],
        figures=[Fig("variant_differences", fig, caption_of(fig))])
    sec.terminal = (f"{title}: {variants} minus {baseline} (95% CI)\n"
                    + text_table(["statistic", "item", baseline, variants if "," not in variants else "variant",
                                  "difference [CI]", "p (Holm)"], rows))
    return sec


# ---------------------------------------------------------------- provenance

def _reproduce(label, m, folder):
    strat = [s["name"] for s in m.get("strategies", [])]
    cmd = [f"boardlab simulate {m.get('game')} --players {m.get('players')} --games {m.get('games')} "
           f"--seed {m.get('seed')}"]
    if strat and len(set(strat)) == 1:
        cmd.append(f"--strategy {strat[0]}")
    elif strat:
        cmd.append(f"--seat-strategies {','.join(strat)}")
    for k, v in (m.get("variant") or {}).items():
        cmd.append(f"--variant {k}={v}")
    if not m.get("events", True):
        cmd.append("--no-events")
    cmd.append(f"--out {folder}")
    return " ".join(cmd)


def summarize_labels(labels, among):
    """Name the runs ``labels`` (a subset of ``among``) briefly and exactly.

    "all 65" when they are all of ``among``; otherwise the labels, where every run
    of a ``prefix/…`` family is in, that family as "prefix/* (all N)".
    """
    labels, among = list(dict.fromkeys(labels)), list(dict.fromkeys(among))
    if len(among) > 1 and set(labels) == set(among):
        return f"all {len(among)}"
    family = lambda label: label.split("/", 1)[0] if "/" in label else None
    size = {}
    for label in among:
        size[family(label)] = size.get(family(label), 0) + 1
    chosen = {}
    for label in labels:
        chosen.setdefault(family(label), []).append(label)
    out = []
    for label in labels:
        f = family(label)
        if f is not None and len(chosen[f]) == size[f] and size[f] > 2:
            if chosen[f][0] == label:
                out.append(f"{f}/* (all {size[f]})")
        else:
            out.append(label)
    return ", ".join(out)


def provenance_section(rs: RunSet, extra=None, commands=None) -> Section:
    """What was run: data status, strategies and weights, seeds, versions, commands."""
    runs, status, strats = [], {}, {}
    for label, run in rs.runs.items():
        m = run.manifest
        runs.append({
            rs.group: label, "game": m.get("game"), "players": m.get("players"),
            "strategies (seat 0, 1, …)": ", ".join(s["name"] for s in m.get("strategies", [])),
            "variant": ", ".join(f"{k}={v}" for k, v in (m.get("variant") or {}).items()) or "default",
            "seed": m.get("seed"), "games": m.get("games"), "run_id": m.get("run_id"),
            "status": m.get("status"), "wall_s": m.get("wall_seconds"),
            "boardlab": (m.get("versions") or {}).get("boardlab"),
            "git_commit": ((m.get("git_commit") or "none")[:10] + (" (dirty)" if m.get("git_dirty") else "")),
        })
        for comp, d in (m.get("data_status") or {}).items():
            d = d if isinstance(d, dict) else {"value": d}
            key = (comp, os.path.basename(str(d.get("file", ""))), bool(d.get("assumed")), str(d.get("note", "")),
                   m.get("game"))
            status.setdefault(key, []).append(label)
        for s in m.get("strategies", []):
            w = ", ".join(f"{k}={v:g}" for k, v in (s.get("weights") or {}).items()) or "—"
            if s.get("kind") == "mcts":         # a search: its settings, and the rollout policy by name
                w = (", ".join(f"{k}={s.get(k)}" for k in ("iterations", "c", "bias", "cutoff"))
                     + f", rollout={(s.get('rollout') or {}).get('name')} "
                       f"(epsilon {(s.get('rollout') or {}).get('epsilon', 0):g})")
            key = (s.get("name"), s.get("kind"), s.get("temperature", 0), s.get("epsilon", 0), w, m.get("game"))
            strats.setdefault(key, None)
    games = list(dict.fromkeys(k[4] for k in status)) or [rs.game]
    several = len(set(games) | {k[5] for k in strats}) > 1
    game_labels = {}
    for label, run in rs.runs.items():
        game_labels.setdefault(run.manifest.get("game"), []).append(label)
    data = pl.DataFrame([{**({"game": k[4]} if several else {}), "component": k[0], "file": k[1],
                          "assumed": k[2], "note": k[3],
                          f"{rs.group}s": summarize_labels(v, game_labels.get(k[4], v))}
                         for k, v in status.items()]) if status else \
        pl.DataFrame({"component": [], "file": [], "assumed": []})
    st = pl.DataFrame([{**({"game": k[5]} if several else {}), "strategy": k[0], "kind": k[1],
                        "temperature": float(k[2] or 0), "epsilon": float(k[3] or 0), "weights": k[4]}
                       for k in strats])
    assumed = sorted({f"{k[4]} {k[0]}" if several else k[0] for k in status if k[2]})
    seeds = sorted({r["seed"] for r in runs})
    paras = []
    if assumed:
        paras.append(f"**Data status: assumed components — {', '.join(assumed)}.** The printed game's "
                     f"values are not public; boardlab's are designed from the component counts, so every "
                     f"number below holds for these assumed data (see the table) and must be read as such.")
    else:
        paras.append("**Data status:** every component data file used is marked as the real game's.")
    paras.append(f"Seed{'s' if len(seeds) > 1 else ''}: {', '.join(map(str, seeds))}. "
                 f"Versions: boardlab {runs[0]['boardlab']}, git commit {runs[0]['git_commit']}.")
    if extra:
        paras += list(extra)
    if commands:
        paras.append("To reproduce it:\n\n```\n" + "\n".join(commands) + "\n```\n\nEach run folder's "
                     "`manifest.json` holds its complete settings; the `runs` table lists them.")
    else:
        paras.append("To reproduce a run:\n\n```\n" + "\n".join(
            _reproduce(label, run.manifest, run.path) for label, run in rs.runs.items()) + "\n```")
    sec = Section("What was run (data status, strategies, seeds, versions)", paragraphs=paras, tables=[
        Table("data_status", data, "Component data used, and whether it is assumed."),
        Table("strategies", st, "Strategies and their weights."),
        Table("runs", pl.DataFrame(runs), "Runs: strategies per seat, variant, seed, games, version.")])
    sec.terminal = "Data status: " + (f"ASSUMED {', '.join(assumed)}" if assumed else "real data") + \
        f"; seed {', '.join(map(str, seeds))}; boardlab {runs[0]['boardlab']} ({runs[0]['git_commit']})"
    return sec


# ---------------------------------------------------------------- findings at a glance

def _pct(x):
    return f"{x * 100:.1f}%"


def _pp(x):
    return f"{x * 100:+.1f}".replace("-", "−")


def findings_section(sections) -> Section | None:
    """The report's answers first: seat advantage per run and the strongest strategy, with n and CIs.

    Read from the seat-advantage, seat-equality and rating tables of ``sections``
    (so it says nothing the sections below do not show in full); ``None`` when
    there are none.
    """
    paras, rows = [], []
    for sec in sections:
        context = sec.title.rsplit(" — ", 1)[0] if " — " in sec.title else ""
        tables = {t.name: t.frame for t in sec.tables}
        adv = next((f for n, f in tables.items() if n.endswith("seat_advantage")), None)
        eq = next((f for n, f in tables.items() if n.endswith("seat_equality_test")), None)
        if adv is not None and adv.height:
            group = adv.columns[0]
            for key in dict.fromkeys(adv[group].to_list()):
                part = adv.filter(pl.col(group) == key).sort("seat")
                s0 = part.row(0, named=True)
                worst = max(part.iter_rows(named=True), key=lambda r: abs(r["deviation"]))
                where = ", ".join(x for x in (context, str(key)) if x)
                text = (f"**{where}** ({s0['n']:,} games): seat 0 wins {_pct(s0['win_share'])} "
                        f"[{_pct(s0['win_lo'])}, {_pct(s0['win_hi'])}] against a fair {_pct(s0['fair_share'])} "
                        f"({_pp(s0['deviation'])} pp [{_pp(s0['dev_lo'])}, {_pp(s0['dev_hi'])}])")
                if worst["seat"] != 0:
                    text += (f"; the largest gap is seat {worst['seat']}, {_pct(worst['win_share'])} "
                             f"({_pp(worst['deviation'])} pp [{_pp(worst['dev_lo'])}, {_pp(worst['dev_hi'])}])")
                p_value = None
                if eq is not None and group in eq.columns:
                    e = eq.filter(pl.col(group) == key)
                    p_value = e["p_value"][0] if e.height else None
                if p_value is not None and p_value == p_value:
                    verdict = "rejected" if p_value < 0.05 else "not rejected at the 5% level"
                    p_text = f"= {p_value:.2g}" if p_value > 0 else "< 1e-300"    # 0: below float range
                    text += f". Equal seats: {verdict} (chi-square p {p_text})"
                paras.append(text + ".")
                rows.append({"where": where, "games": s0["n"], "seat 0 win share": s0["win_share"],
                             "seat 0 lo": s0["win_lo"], "seat 0 hi": s0["win_hi"], "fair": s0["fair_share"],
                             "largest gap seat": worst["seat"], "largest gap (pp)": worst["deviation"] * 100,
                             "gap lo": worst["dev_lo"] * 100, "gap hi": worst["dev_hi"] * 100,
                             "equal seats p": p_value})
        # a section's own lines (reports/balance.py, reports/ladder.py); a line without its own bold
        # label gets the section's context
        paras += [x if x.startswith("**") or not context else f"**{context}**: {x}" for x in sec.findings]
        paras += _outcome_findings(tables, context)
        dom = next((f for n, f in tables.items() if n.endswith("compare_dominance")), None)
        if dom is not None and dom.height >= 2:
            from reports.outcomes import dominance_text

            paras.append(f"**{context or 'Strategies'}**: " + dominance_text(dom))
        ratings = next((f for n, f in tables.items() if n.endswith("compare_ratings")), None)
        if ratings is not None and ratings.height >= 2:
            r = ratings.sort("elo", descending=True)
            a, b = r.row(0, named=True), r.row(1, named=True)
            sure = a["elo_lo"] > b["elo_hi"]
            paras.append(f"**{context or 'Strategies'}**: strongest {a['strategy']}, Elo {a['elo']:,.0f} "
                         f"[{a['elo_lo']:,.0f}, {a['elo_hi']:,.0f}] over {a['n_games']:,} games; next "
                         f"{b['strategy']}, {b['elo']:,.0f} [{b['elo_lo']:,.0f}, {b['elo_hi']:,.0f}]"
                         + (" (their 95% intervals do not overlap)." if sure else
                            " (their 95% intervals overlap)."))
        cells = next((f for n, f in tables.items() if n.endswith("sweep_cells")), None)
        if cells is not None and cells.height:      # a [[sweep]] part (reports.sweep)
            best = cells.sort(["gap", "p"], descending=[False, True]).row(0, named=True)
            ns = cells.filter(~pl.col("significant")).height
            paras.append(f"**{context or 'Sweep'}** ({cells.height} cells, {cells['n'].sum():,} games): the "
                         f"smallest largest seat gap is at {best['cell']}, {_pct(best['gap'])[:-1]} pp "
                         f"[{_pct(best['gap_lo'])[:-1]}, {_pct(best['gap_hi'])[:-1]}] (seat {best['gap_seat']}, "
                         f"{best['n']:,} games, chi-square p = {best['p']:.2g}); {ns} of {cells.height} cells "
                         f"show no significant gap (p ≥ 0.05).")
    if not paras:
        return None
    intro = ("Win shares count a k-way tie as 1/k; brackets are 95% confidence intervals; the sections "
             "below give every seat, the tests and the figures. All figures hold for the data and "
             "strategies listed under \"What was run\".")
    return Section("Findings at a glance", paragraphs=[intro] + paras,
                   tables=[Table("findings_seats", pl.DataFrame(rows), "Seat 0 and the largest seat gap, per run "
                                 "(shares as fractions, gaps in percentage points).")] if rows else [])


#: above this many runs in one outcome table, the findings point to the section instead of a line each
MAX_OUTCOME_FINDINGS = 4


def _outcome_findings(tables, context):
    """One sentence per run from an ``outcome_metrics`` table: margin, close games, comebacks, lead changes."""
    om = next((f for n, f in tables.items() if n.endswith("outcome_metrics")), None)
    if om is None or not om.height:
        return []
    group, out = om.columns[0], []
    keys = list(dict.fromkeys(om[group].to_list()))
    if len(keys) > MAX_OUTCOME_FINDINGS:        # e.g. a comparison's many seatings: the section has them all
        where = f"**{context}** outcomes" if context else "Outcomes"
        return [f"{where}: margin, close games, comebacks and lead changes for each of the {len(keys)} "
                f"{group}s are in the section \"Outcomes: length, margin and the lead\"."]
    for key in keys:
        st = {r["statistic"]: r for r in om.filter(pl.col(group) == key).iter_rows(named=True)}

        def ci(name, share=False, digits=1, st=st):
            r = st[name]
            f = _pct if share else (lambda v, d=digits: f"{v:.{d}f}")
            if r["lo"] is None or r["hi"] is None:          # one game: no interval
                return f"{f(r['estimate'])} (n = {r['n']})"
            return f"{f(r['estimate'])} [{f(r['lo'])}, {f(r['hi'])}]"
        bits = []
        if "margin" in st:
            bits.append(f"winning margin {ci('margin')} points")
        if "decided_by_le_2" in st:
            bits.append(f"decided by ≤ 2 points in {ci('decided_by_le_2', True)}")
        if "comeback" in st:
            text = f"the winner trailed at some round end in {ci('comeback', True)}"
            if "late_comeback" in st:
                text += f" (in the last one: {ci('late_comeback', True)})"
            if "drama" in st and st["drama"]["n"]:
                text += f", by {ci('drama')} points at worst"
            bits.append(text)
        if "lead_changes" in st:
            bits.append(f"{ci('lead_changes', digits=2)} lead changes per game")
        if bits:
            n = max(r["n"] for r in st.values())
            where = ", ".join(x for x in (context, str(key)) if x)
            out.append(f"**{where}** outcomes ({n:,} games): " + "; ".join(bits) + ".")
    return out


def with_findings(sections):
    """``sections`` with "Findings at a glance" in front, when there is anything to say."""
    found = findings_section(sections)
    return ([found] if found else []) + list(sections)


# ---------------------------------------------------------------- whole reports

def run_report(run_dir, label=None, partial=False, figures=None) -> Report:
    """The report of one results folder (``boardlab report RUN_DIR``).

    ``partial``: report an interrupted run from its finished chunks (the title says so);
    ``figures``: a :class:`BackgroundFigures` that renders each section's figures
    while the next sections are computed (give the same one to :func:`write_report`).
    """
    label = label or os.path.basename(os.path.normpath(os.fspath(run_dir))) or "run"
    rs = RunSet.from_dirs({label: run_dir}, allow_partial=partial)
    m = rs.runs[label].manifest
    if m.get("status") != "complete" and not partial:
        raise ValueError(f"{run_dir}: run is {m.get('status')}; rerun the same `boardlab simulate` command "
                         f"to finish it, or pass --partial to report its finished games only")
    strat = ", ".join(s["name"] for s in m.get("strategies", []))
    n = rs.n_games()[label]
    played = f"{m['games']:,} games" if n == m["games"] else \
        f"{n:,} of {m['games']:,} games (interrupted run: finished chunks only)"
    title = f"{m['game'].capitalize()} — {m['players']} players, {played} ({strat})"
    return Report(title, sections=with_findings([provenance_section(rs)] + run_sections(rs, figures)))


def write_report(report: Report, out, figures=None) -> dict:
    """Write report.html, report.md, figures/*.png|svg and tables/*.csv under ``out``.

    Returns the paths: ``{"html", "md", "figures": [...], "tables": [...]}``.
    Figures are closed (their memory freed) once written. ``figures``: the
    :class:`BackgroundFigures` the sections were built with (its renders are
    waited for and moved here; the figures it has not seen are rendered too);
    without one, all are rendered here, on up to two processes.
    """
    from reports import html as H

    os.makedirs(os.path.join(out, "figures"), exist_ok=True)
    os.makedirs(os.path.join(out, "tables"), exist_ok=True)
    paths = {"figures": [], "tables": []}
    used = set()
    for sec in report.sections:
        for item in sec.tables + sec.figures:   # tables and figures live in separate folders
            base, k = item.name, 2
            while (type(item), item.name) in used:
                item.name = f"{base}_{k}"
                k += 1
            used.add((type(item), item.name))
        for t in sec.tables:
            path = os.path.join(out, "tables", f"{t.name}.csv")
            _csv_safe(t.frame).write_csv(path)
            t.csv = os.path.relpath(path, out)
            paths["tables"].append(path)
    figs = [f for sec in report.sections for f in sec.figures]
    stems = [os.path.join(out, "figures", f.name) for f in figs]
    if figures is None:                        # none queued yet: finish() splits them over the cores
        figures = BackgroundFigures()
    figures.add_figures(figs)
    figures.finish()
    for f, stem in zip(figs, stems):
        figures.move(f, stem)
    figures.close()
    for f, stem in zip(figs, stems):
        png, svg = f"{stem}.png", f"{stem}.svg"
        with open(png, "rb") as fh:
            f.png_bytes = fh.read()
        f.png, f.svg = os.path.relpath(png, out), os.path.relpath(svg, out)
        f.title = f.title or (f.figure._suptitle.get_text() if f.figure._suptitle else f.name)
        paths["figures"] += [png, svg]
        f.figure.clear()
    paths["html"] = os.path.join(out, "report.html")
    paths["md"] = os.path.join(out, "report.md")
    with open(paths["html"], "w", encoding="utf-8") as fh:
        fh.write(H.render_html(report))
    with open(paths["md"], "w", encoding="utf-8") as fh:
        fh.write(H.render_markdown(report))
    return paths


class BackgroundFigures:
    """Renders figures in worker processes while this process computes the next sections.

    A report's figures need nothing but themselves to be rendered. At
    creation, one worker per other core is forked (``boardlab report`` makes
    it before the analysis starts any thread); each section's figures are pickled to them as the
    section is built (:meth:`add`; a few milliseconds a figure), and the
    workers render them into a scratch folder while this process goes on, so
    the rendering overlaps the analysis instead of following it. :meth:`finish`
    renders here what the workers have not taken yet, waits for them, and
    renders again here whatever a worker failed on (or a figure that cannot be
    pickled). :meth:`move` puts a figure's files where :func:`write_report`
    wants them. Without ``fork`` (or with one core) everything is rendered in
    :meth:`finish`.
    """

    def __init__(self, workers=None):
        import multiprocessing as mp

        if workers is None:
            workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        self.fork = workers >= 2 and "fork" in mp.get_all_start_methods()
        self.dir = tempfile.mkdtemp(prefix="boardlab-figures-")
        self.stems = {}          # id(Fig) -> scratch stem
        self.figures = {}        # scratch stem -> matplotlib Figure
        self.local = []          # stems rendered here (no worker, or the figure does not pickle)
        self.sent = []           # stems handed to the workers
        self.procs = []
        if self.fork:
            import matplotlib.backends.backend_agg  # noqa: F401   imported once here, not in every worker
            import matplotlib.backends.backend_svg  # noqa: F401

            ctx = mp.get_context("fork")
            self.jobs, self.done = ctx.Queue(), ctx.SimpleQueue()
            for _ in range(workers - 1):
                proc = ctx.Process(target=_render_jobs, args=(self.jobs, self.done), daemon=True)
                proc.start()
                self.procs.append(proc)

    def add(self, sections):
        """Queue the figures of ``sections`` for the workers."""
        self.add_figures([f for sec in sections for f in sec.figures])

    def add_figures(self, figs):
        """Queue ``figs`` (:class:`Fig`; those queued before are skipped) for the workers."""
        import pickle

        for f in figs:
            if id(f) in self.stems:
                continue
            stem = self.stems[id(f)] = os.path.join(self.dir, f"fig{len(self.stems)}")
            self.figures[stem] = f.figure
            blob = None
            if self.procs:
                try:
                    blob = pickle.dumps(f.figure, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:        # a plug-in's figure with a lambda in it: rendered here
                    blob = None
            if blob is None:
                self.local.append(stem)
            else:
                self.jobs.put((stem, blob))
                self.sent.append(stem)

    def finish(self):
        """Render here what no worker has taken, then what is local; wait; render what a worker failed on."""
        import queue

        mine, ok = set(), set()
        if self.procs:
            while True:              # the workers and this process share what is left, oldest first
                try:
                    stem, _ = self.jobs.get(timeout=0.05)
                except queue.Empty:
                    break
                F.save(self.figures[stem], stem)
                mine.add(stem)
        for stem in self.local:
            F.save(self.figures[stem], stem)
            mine.add(stem)
        if self.procs:
            for _ in self.procs:
                self.jobs.put(None)
            while self.procs:        # read the reports while waiting: a worker never blocks on a full pipe
                ok |= self._rendered()
                for proc in self.procs:
                    proc.join(timeout=0.02)
                self.procs = [proc for proc in self.procs if proc.exitcode is None]
            ok |= self._rendered()
            self.jobs.close()
        for stem in self.sent:       # a worker failed or died on it
            if stem not in ok and stem not in mine:
                F.save(self.figures[stem], stem)
        self.local, self.sent = [], []

    def _rendered(self):
        """The stems the workers have reported rendered since the last call."""
        ok = set()
        while not self.done.empty():
            stem, worked = self.done.get()
            if worked:
                ok.add(stem)
        return ok

    def move(self, fig, stem):
        """Move ``fig``'s rendered PNG and SVG to ``stem``.png / .svg."""
        src = self.stems[id(fig)]
        for ext in (".png", ".svg"):
            shutil.move(src + ext, stem + ext)

    def close(self):
        if self.procs:               # finish() was not reached (an error in a section): stop the workers
            for proc in self.procs:
                proc.terminate()
            self.jobs.cancel_join_thread()    # what is still unsent is dropped, not waited for at exit
            self.procs = []
        shutil.rmtree(self.dir, ignore_errors=True)


def _render_jobs(jobs, done):
    """A figure worker: render each ``(stem, pickled figure)`` of ``jobs`` until ``None``; report each to ``done``."""
    import pickle
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the parent's: it stops the workers (close)
    for name in ("SIGTERM", "SIGHUP"):                 # the CLI's handlers would print a traceback here
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    while (job := jobs.get()) is not None:
        stem, blob = job
        try:
            F.save(pickle.loads(blob), stem)
            done.put((stem, True))
        except Exception:
            done.put((stem, False))


def _csv_safe(frame):
    """CSV has no nested types or enums: lists joined, categoricals as strings."""
    out = frame
    for name, dtype in frame.schema.items():
        if isinstance(dtype, (pl.Enum, pl.Categorical)):
            out = out.with_columns(pl.col(name).cast(pl.String))
        elif isinstance(dtype, pl.List):
            out = out.with_columns(pl.col(name).cast(pl.List(pl.String)).list.join(","))
    return out


