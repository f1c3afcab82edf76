"""``[[sweep]]``: one run per value of one or two settings or data-file fields, grid or adaptive, with
a balance surface. The sweep's spec, cells and data-file edits are ``reports.sweep``'s."""
import os

import polars as pl

from analysis import sweep as S
from reports.experiments._part import COMMON_KEYS, StudyError, seats_of, variant_of
from reports.plan import PlannedRun
from reports.precision_parts import play_to_precision, precision_paragraph, precision_settings, to_precision
from reports.render.figures_sweep import balance_surface, share_lines
from reports.render.sections import Fig, Section, Table, text_table
from reports.sweep import SweepError, _fmt, _slug, cell_balance, cell_variant, cells_table, crossings, parse_sweep

#: ``budget`` is the adaptive mode's cells; the time a cell may take to reach ``precision``: ``precision_budget``
KEYS = COMMON_KEYS | {"strategy", "seats", "events", "settings", "x", "y", "mode", "target", "budget", "precision",
                      "precision_budget"}


def parse(part, t, ctx):
    variant = variant_of(t.get("variant", {}), f"{ctx.where}: variant", ctx.mod, ctx.players[0])
    seats, strategy = seats_of(t, ctx.where, ctx.players, part.game)
    if isinstance(t.get("budget"), str):
        raise StudyError(f"{ctx.where}: budget is the adaptive mode's cells to add (an integer); the time a cell "
                         f"may take to reach its precision is precision_budget (e.g. precision_budget = \"5m\")")
    precision_settings(part, t, ctx.where, budget_key="precision_budget")   # each cell to it (its games: the cap)
    try:
        return parse_sweep(part, t, ctx.where, ctx.mod, ctx.players, seats or [strategy] * ctx.players[0], variant,
                           ctx.games)
    except SweepError as exc:
        raise StudyError(str(exc)) from None


def run(part, ctx):
    if to_precision(part):
        def play(r):
            play_to_precision(part, r, os.path.join(ctx.base, r.folder), ctx)
            return os.path.join(ctx.base, r.folder)

        return run_sweep(part, ctx.base, play, log=ctx.log)
    return run_sweep(part, ctx.base, ctx.play, log=ctx.log)


def runs(part, rs):
    return rs.runs


def sections(part, rs, figures=None):
    return sweep_sections(part, rs)


def run_sweep(part, base, play, log=print):
    """Play the cells of sweep ``part`` (data-file copies under ``base/<part>/data``); return their RunSet.

    ``play(run) -> folder`` plays a :class:`reports.plan.PlannedRun` (or finds the same run already played) and
    returns its results folder: ``reports.study`` passes one that shares the study's record of
    played runs, so a cell equal to another part's run is played once. Adaptive mode plays cell
    after cell.
    """
    from reports.runset import RunSet

    spec = part.sweep
    dirs, taken = {}, {}
    spec.cells = []

    def one(cell):
        label = spec.label(cell)
        slug = _slug(label, taken)
        variant = cell_variant(spec, cell, part.players, os.path.join(base, part.name, "data", slug))
        folder = play(PlannedRun(label, os.path.join(part.name, slug), part.players, spec.seats, variant,
                              spec.games, part.seed, part.events))
        dirs[label] = folder
        entry = {"cell": cell, "label": label, "folder": folder, "stage": 0, "metric": None}
        spec.cells.append(entry)
        if spec.mode != "adaptive":
            return None
        entry["metric"] = S.metric_value(cell_balance(folder, label, allow_partial=to_precision(part))
                                         .row(0, named=True), spec.metric)
        log(f"{part.title}: {label}: {spec.metric_text} = {entry['metric']:.4f}")
        return entry["metric"]

    if spec.mode == "grid":
        for cell in spec.grid():
            one(cell)
    else:
        order = S.adaptive(spec.grid(), one, spec.threshold, spec.budget,
                           [a.numeric for a in spec.axes], [a.integer for a in spec.axes],
                           [a.resolution for a in spec.axes] if any(a.resolution for a in spec.axes) else None)
        for entry, (_, _, stage) in zip(spec.cells, order):
            entry["stage"] = stage
    return RunSet.from_dirs(dirs, group="cell", allow_partial=to_precision(part))


def quick(part, cap):
    """``--quick``: every cell plays at most ``cap`` games."""
    spec = part.sweep
    spec.games = min(spec.games, cap)
    part.games = (len(spec.grid()) + spec.budget) * spec.games


def sweep_sections(part, rs):
    """The report of a sweep part: the cells table, the balance surface, the share and gap lines."""
    spec = part.sweep
    table = cells_table(part, rs)
    n = part.players
    games = rs.games_text()
    axes_text = " × ".join(f"`{a.name}` ({', '.join(_fmt(v) for v in a.values)})" for a in spec.axes)
    paras = [(f"Swept {axes_text} at {n} players, {', '.join(dict.fromkeys(spec.seats))} in "
             f"{'every seat' if len(set(spec.seats)) == 1 else 'the seats in order'}; {games}. Every cell plays "
             f"the same seeds (common random numbers). The **largest seat gap** of a cell is the largest |win share "
             f"− 1/{n}| over its seats (a k-way tie counts 1/k); it is **not significant** (n.s., hatched) when "
             f"the chi-square test of equal seat shares does not reject at the 5% level (p ≥ 0.05).")]
    if spec.mode == "adaptive":
        added = sum(1 for e in spec.cells if e["stage"] > 0)
        paras.append(f"Adaptive: after the grid, {added} cell{'s' if added != 1 else ''} (budget {spec.budget}) "
                     f"added one at a time, each the midpoint of the widest interval between neighbouring cells "
                     f"whose `{spec.metric_text}` lies on either side of {spec.threshold:g} (column `stage`: 0 "
                     f"for the grid, k for the k-th added cell).")
    for a in spec.axes:
        if a.path is not None:
            paras.append(f"`{a.name}` edits a copy of `{spec.base_files[a.setting]}` per cell (under "
                         f"`runs/{part.name}/data/`); the copies are recorded as assumed data in each run's manifest.")
    if table.height:
        best = table.sort(["gap", "p"], descending=[False, True]).row(0, named=True)
        ns = table.filter(~pl.col("significant")).height
        paras.append(f"Smallest gap: **{best['cell']}**, {best['gap'] * 100:.1f} pp (player {best['gap_seat'] + 1}, "
                     f"[{best['gap_lo'] * 100:.1f}, {best['gap_hi'] * 100:.1f}]) over {best['n']:,} games, "
                     f"chi-square p = {best['p']:.2g}. {ns} of {table.height} cells show no significant gap.")
        for yv, x0, x1, est in crossings(table, spec):
            where = f" at {spec.axes[1].name} = {_fmt(yv)}" if yv is not None else ""
            paras.append(f"`{spec.metric_text}` crosses {spec.threshold:g}{where} between "
                         f"{spec.axes[0].name} = {_fmt(x0)} and {_fmt(x1)}"
                         + (f" (about {est:.3g} by linear interpolation)." if est is not None else "."))
    caption = (f"Look for the light cells: the settings where the seats are closest to fair (hatched: no "
               f"significant gap). Largest seat gap per cell in percentage points; n.s. and hatched: equal seat shares not rejected "
               f"(chi-square p ≥ 0.05). {games}.")
    figs = [balance_surface(table, spec, caption=caption)]
    figs.append(share_lines(table, spec, n, caption=f"Look where the bands meet the dashed fair share: "
                                                      f"there the players are even. Each player's win share (a k-way tie counts 1/k) with its 95% band (Wilson on the observed "
                                                      f"variance of the per-game shares); dashed: "
                                                      f"the fair share 1/{n}. {games}."))
    figs.append(share_lines(table, spec, n, title="Largest seat gap across the sweep", gap=True,
                            caption="Look for the lowest point: the setting with the smallest seat gap; an "
                                    "open circle is not told from no gap. The largest |win share − fair share| over the seats with that seat's 95% "
                                    f"interval; open circles: not significant (chi-square p ≥ 0.05). {games}."))
    names = ["balance_surface", "seat_shares", "seat_gap"]
    if to_precision(part):
        paras.append(precision_paragraph(rs))
    sec = Section("Sweep", paragraphs=paras,
                  tables=[Table("sweep_cells", table, "Every cell: setting values, games, each seat's win share "
                                "with its 95% interval (Wilson on the observed variance), the largest gap and "
                                "its seat and interval, the "
                                "chi-square test of equal seats.", show=table.height <= 40)],
                  figures=[Fig(nm, f, f.boardlab_caption) for nm, f in zip(names, figs)])
    rows = [[r["cell"], f"{r['n']:,}", f"{r['gap'] * 100:.1f}", f"{r['p']:.2g}",
             "" if r["significant"] else "n.s."] for r in table.iter_rows(named=True)]
    sec.terminal = "Sweep: largest seat gap per cell\n" + text_table(["cell", "games", "gap (pp)", "p", ""], rows)
    return [sec]
