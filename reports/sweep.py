"""``[[sweep]]`` parts of a study: one run per value of one or two engine settings or data-file fields.

``docs/study.md`` documents the keys. An axis is

- an engine setting: ``setting = "quarry_yields"`` (any value the engine takes);
- one seat's entry of a per-seat setting: ``setting = "seat_bonus[1]"`` (the
  other seats keep the part's ``variant``, else 0);
- a field of a component data file: ``field = "quarry_yields:tiles[3].marble"``
  — the setting that takes the file, a colon, a JSON path (``key``, ``[i]``,
  ``[*]`` for every item). Each cell writes a modified copy of the file the
  part would use under ``OUT/runs/<part>/data/<cell>/`` and passes its path, so
  the run's manifest records it like any data file; the copy's ``status``
  says it is an assumed sweep copy of which file.

with ``values = [...]`` or a numeric ``range = [lo, hi, step]``. ``mode =
"grid"`` plays every cell; ``mode = "adaptive"`` plays the grid, then
``budget`` more cells one at a time, each the midpoint of the widest interval
between neighbouring cells whose ``target.metric`` lies on either side of
``target.threshold`` (``analysis.sweep.adaptive``). Every cell plays the same
seeds (common random numbers). The statistics are ``analysis.sweep``'s; this
module plans, plays and reports.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import tempfile
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from analysis import sweep as S
from reports.plan import PlannedRun
from reports.sections import Fig, Section, Table, text_table

AXIS_KEYS = ("setting", "field", "values", "range", "label", "resolution")
MODES = ("grid", "adaptive")
DEFAULT_BUDGET = 8
ALPHA = 0.05


class SweepError(ValueError):
    """A malformed [[sweep]] table (``reports.study`` reports it as a StudyError)."""


def _check(value, typ, where, what=None):
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        names = {int: "an integer", str: "a string", dict: "a table"}
        raise SweepError(f"{where} must be {what or names[typ]}, not {value!r}")
    return value


def _file_slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-") or "cell"


@dataclass
class Axis:
    name: str                   # as written: "seat_bonus[1]", "quarry_yields:tiles[3].marble"
    setting: str                # the engine setting it sets, or whose data file it edits
    values: list
    numeric: bool
    integer: bool
    index: int | None = None    # entry of a per-seat list setting
    path: tuple | None = None   # data-file field: the parsed JSON path
    resolution: float | None = None
    label: str = ""


@dataclass
class SweepSpec:
    axes: list
    mode: str
    metric: tuple               # analysis.sweep.parse_metric
    metric_text: str
    threshold: float | None
    budget: int
    seats: list                 # one strategy name per seat
    variant: dict               # the part's engine settings, under every cell's
    games: int                  # per cell
    base_files: dict = field(default_factory=dict)   # setting -> the data file a field axis edits
    cells: list = field(default_factory=list)         # played: {"cell", "label", "folder", "stage", "metric"}

    def grid(self):
        return S.grid([a.values for a in self.axes])

    def label(self, cell):
        return ", ".join(f"{a.name}={_fmt(v)}" for a, v in zip(self.axes, cell))


def _fmt(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (list, tuple)):
        return ",".join(map(str, v))
    return str(v)


# ---------------------------------------------------------------- parsing

_PATH_TOKEN = re.compile(r"\[(\d+|\*)\]")


def parse_path(text):
    """``"tiles[3].marble"`` -> ``(("key", "tiles"), ("index", 3), ("key", "marble"))``; ValueError if malformed."""
    tokens = []
    if not text or text.startswith(".") or text.endswith(".") or ".." in text:
        raise ValueError(f"bad JSON path {text!r} (like tiles[3].marble or setup.start_coins)")
    for part in text.split("."):
        m = re.match(r"^([^\[\]]*)((?:\[(?:\d+|\*)\])*)$", part)
        if not m or (not m.group(1) and not m.group(2)):
            raise ValueError(f"bad JSON path {text!r} at {part!r} (keys, [i] and [*], like tiles[3].marble)")
        if m.group(1):
            tokens.append(("key", m.group(1)))
        for idx in _PATH_TOKEN.findall(m.group(2)):
            tokens.append(("all", None) if idx == "*" else ("index", int(idx)))
    return tuple(tokens)


def _path_text(tokens):
    out = ""
    for kind, k in tokens:
        out += f".{k}" if kind == "key" else ("[*]" if kind == "all" else f"[{k}]")
    return out.lstrip(".")


def set_field(doc, tokens, value, where=""):
    """Set the field ``tokens`` of the JSON document ``doc`` (in place) to ``value``; ValueError if absent.

    A whole number replacing a whole number stays an int (3.0 -> 3).
    """
    node_path = ""

    def walk(node, toks, seen):
        kind, k = toks[0]
        if kind == "key":
            if not isinstance(node, dict) or k not in node:
                known = ", ".join(map(str, node)) if isinstance(node, dict) else f"a {type(node).__name__}"
                raise ValueError(f"{where}no key '{k}' at '{seen or '(top)'}' ({known})")
            keys = [k]
        else:
            if not isinstance(node, list):
                raise ValueError(f"{where}'{seen or '(top)'}' is not a list")
            if kind == "index" and not 0 <= k < len(node):
                raise ValueError(f"{where}index {k} out of range at '{seen or '(top)'}' ({len(node)} items)")
            keys = range(len(node)) if kind == "all" else [k]
        here = _path_text(((kind, k),))
        for key in keys:
            if len(toks) == 1:
                old = node[key]
                new = value
                if isinstance(old, int) and isinstance(new, float) and new.is_integer():
                    new = int(new)
                node[key] = new
            else:
                walk(node[key], toks[1:], f"{seen}.{here}".lstrip(".") if kind == "key" else f"{seen}{here}")
    walk(doc, tokens, node_path)
    return doc


def data_file_of(mod, players, variant, setting):
    """The component data file that engine ``setting`` takes (as the part would use it), or None.

    Found through the config's ``data_status``: the entry named like the setting, or the
    one whose file the setting replaces (Hellas ``quarry_yields`` -> ``quarry_tiles``).
    """
    cfg = mod.make_config(players, **variant)
    status = cfg.data_status()
    if setting in status and status[setting].get("file"):
        return status[setting]["file"]
    for comp, d in status.items():
        if comp in mod.SETTINGS or not d.get("file"):
            continue
        try:
            other = mod.make_config(players, **{**variant, setting: d["file"]}).data_status()
        except (ValueError, TypeError, KeyError):
            continue
        if os.path.realpath(str(other.get(comp, {}).get("file", ""))) == os.path.realpath(d["file"]):
            return d["file"]
    return None


def _data_settings(mod, players, variant):
    return [s for s in mod.SETTINGS if data_file_of(mod, players, variant, s)]


def _axis(spec, where, mod, players, variant, implicit_setting=None):
    from simcore._settings import SEAT_SETTINGS

    if implicit_setting is not None:        # settings = { NAME = [...] }; a NAME with a colon is a data-file field
        key = "field" if ":" in implicit_setting else "setting"
        if isinstance(spec, list):
            spec = {key: implicit_setting, "values": spec}
        elif isinstance(spec, dict):
            spec = dict(spec, **{key: implicit_setting})
    if not isinstance(spec, dict):
        raise SweepError(f"{where} must be a table like {{ setting = \"quarry_yields\", values = [...] }} "
                                f"or a list of values, not {spec!r}")
    for k in spec:
        if k not in AXIS_KEYS:
            raise SweepError(f"{where}: unknown key '{k}' (known: {', '.join(AXIS_KEYS)})")
    if ("setting" in spec) == ("field" in spec):
        raise SweepError(f"{where}: give either 'setting' (an engine setting) or 'field' "
                                f"(SETTING:JSON.PATH of a data file)")
    try:
        values, numeric, integer = S.axis_values(spec.get("range"), spec.get("values"))
    except ValueError as exc:
        raise SweepError(f"{where}: {exc}") from None
    resolution = spec.get("resolution")
    if resolution is not None and (not S._is_number(resolution) or resolution <= 0):
        raise SweepError(f"{where}: resolution must be a number > 0, not {resolution!r}")
    label = _check(spec.get("label", ""), str, f"{where}: label")
    if "setting" in spec:
        name = _check(spec["setting"], str, f"{where}: setting").strip()
        m = re.match(r"^(\w+)(?:\[(\d+)\])?$", name)
        setting, index = (m.group(1), m.group(2)) if m else (name, None)
        if not m or setting not in mod.SETTINGS:
            raise SweepError(f"{where}: unknown {mod.NAME} setting '{name}' "
                                    f"(known: {', '.join(mod.SETTINGS)}; one seat's entry: seat_bonus[K])")
        if index is not None:
            index = int(index)
            if setting not in SEAT_SETTINGS:
                raise SweepError(f"{where}: '{name}': only the per-seat settings "
                                        f"({', '.join(SEAT_SETTINGS)}) take a seat index")
            if index >= players:
                raise SweepError(f"{where}: '{name}': seat {index} does not exist at {players} players")
            if not integer:
                raise SweepError(f"{where}: '{name}' takes whole numbers, not {values!r}")
        return Axis(name, setting, values, numeric, integer, index=index, resolution=resolution, label=label)
    text = _check(spec["field"], str, f"{where}: field").strip()
    setting, sep, path_text = text.partition(":")
    setting = setting.strip()
    if not sep or not setting or not path_text.strip():
        raise SweepError(f"{where}: field must be SETTING:JSON.PATH, e.g. \"quarry_yields:tiles[3].marble\", "
                                f"not {text!r}")
    if setting not in mod.SETTINGS or data_file_of(mod, players, variant, setting) is None:
        raise SweepError(f"{where}: field {text!r}: '{setting}' is not a data-file setting of {mod.NAME} "
                                f"(data files: {', '.join(_data_settings(mod, players, variant))})")
    try:
        path = parse_path(path_text.strip())
    except ValueError as exc:
        raise SweepError(f"{where}: field: {exc}") from None
    return Axis(text, setting, values, numeric, integer, path=path, resolution=resolution, label=label)


def parse_sweep(part, t, where, mod, players, seats, variant, games):
    """Fill ``part`` (kind ``sweep``) from its table ``t``; StudyError naming the key otherwise."""
    if len(players) != 1:
        raise SweepError(f"{where}: players must be one player count for a sweep, not {t['players']!r}")
    n = players[0]
    if "settings" in t and ("x" in t or "y" in t):
        raise SweepError(f"{where}: give either 'settings' or 'x' (and 'y'), not both")
    if "settings" in t:
        table = t["settings"]
        if not isinstance(table, dict) or not table:
            raise SweepError(f"{where}: settings must be a table of one or two settings, each with a list "
                                    f"of values, e.g. settings = {{ seat_bonus = [\"0,0\", \"1,0\"] }}, not {table!r}")
        if len(table) > 2:
            raise SweepError(f"{where}: settings names {len(table)} settings ({', '.join(table)}); "
                                    f"a sweep has one or two axes")
        axes = [_axis(v, f"{where}: settings.{k}", mod, n, variant, implicit_setting=k) for k, v in table.items()]
    elif "x" in t:
        axes = [_axis(t["x"], f"{where}: x", mod, n, variant)]
        if "y" in t:
            axes.append(_axis(t["y"], f"{where}: y", mod, n, variant))
    else:
        raise SweepError(f"{where}: missing the swept setting: add x = {{ setting = \"...\", values = [...] }}"
                                f" (and y), or settings = {{ NAME = [...] }}" if "y" not in t else
                                f"{where}: y without x: the first axis is x")
    if len(axes) == 2 and axes[0].name == axes[1].name:
        raise SweepError(f"{where}: x and y both sweep '{axes[0].name}'")
    for a in axes:
        plain = a.index is None and a.path is None
        if plain and a.setting in variant:
            raise SweepError(f"{where}: variant sets '{a.setting}', which the sweep varies; remove it there")
        if plain and any(b is not a and b.setting == a.setting for b in axes):
            raise SweepError(f"{where}: '{a.setting}' is both swept whole and in part by the other axis")
    mode = _check(t.get("mode", "grid"), str, f"{where}: mode")
    if mode not in MODES:
        raise SweepError(f"{where}: mode must be one of {', '.join(MODES)}, not {mode!r}")
    target = t.get("target", {})
    _check(target, dict, f"{where}: target", "a table like { metric = \"gap\", threshold = 0.02 }")
    for k in target:
        if k not in ("metric", "threshold"):
            raise SweepError(f"{where}: target: unknown key '{k}' (known: metric, threshold)")
    metric_text = _check(target.get("metric", "gap"), str, f"{where}: target.metric")
    try:
        metric = S.parse_metric(metric_text, n)
    except ValueError as exc:
        raise SweepError(f"{where}: target.metric: {exc}") from None
    threshold = target.get("threshold")
    if threshold is not None and (not S._is_number(threshold) or not np.isfinite(threshold)):
        raise SweepError(f"{where}: target.threshold must be a number, not {threshold!r}")
    budget = _check(t.get("budget", DEFAULT_BUDGET if mode == "adaptive" else 0), int, f"{where}: budget")
    if mode == "adaptive":
        if threshold is None:
            raise SweepError(f"{where}: adaptive mode needs target = {{ metric = \"{metric_text}\", "
                                    f"threshold = ... }} (refined where the metric crosses it)")
        if budget <= 0:
            raise SweepError(f"{where}: budget must be a positive number of cells to add, not {budget}")
        if not any(a.numeric for a in axes):
            raise SweepError(f"{where}: adaptive mode needs a numeric axis (a range or a list of numbers) "
                                    f"to bisect; {', '.join(a.name for a in axes)} take categories")
    elif "budget" in t:
        raise SweepError(f"{where}: budget is the adaptive mode's (mode = \"adaptive\")")
    spec = SweepSpec(axes=axes, mode=mode, metric=metric, metric_text=metric_text,
                     threshold=float(threshold) if threshold is not None else None, budget=budget,
                     seats=list(seats), variant=dict(variant), games=games)
    for a in axes:
        if a.path is not None and a.setting not in spec.base_files:
            spec.base_files[a.setting] = data_file_of(mod, n, variant, a.setting)
    # every grid cell is built once now, so a bad value stops the study before any game
    with tempfile.TemporaryDirectory(prefix="boardlab-sweep-") as tmp:
        labels = {}
        for i, cell in enumerate(spec.grid()):
            label = spec.label(cell)
            try:
                mod.make_config(n, **cell_variant(spec, cell, n, os.path.join(tmp, str(i))))
            except (ValueError, TypeError) as exc:
                msg = str(exc).replace(os.path.join(tmp, str(i)) + os.sep, "(the cell's copy) ")
                raise SweepError(f"{where}: cell {label}: {msg}") from None
            labels[label] = cell
    part.sweep = spec
    part.players = n
    cells = len(labels)
    part.games = (cells + budget) * games      # planned (adaptive: at most)
    return part


# ---------------------------------------------------------------- cells

def _base_list(value, players):
    from simcore._settings import seat_vector

    return list(seat_vector("seat list", value, players, -10**9, 10**9, ""))


def _text(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float) and v.is_integer():
        return str(int(v)) if abs(v) < 2**53 else str(v)
    return str(v)


def write_data_copy(base_file, edits, folder):
    """A copy of ``base_file`` with ``edits`` (``[(path tokens, value)]``) applied, written to ``folder``.

    Its ``status`` line starts with "assumed": it is a designer's hypothesis, whatever the
    original's status (which it quotes). Returns the copy's path.
    """
    from simcore._data import read_json

    doc = read_json(base_file, "data")
    for tokens, value in edits:
        set_field(doc, tokens, value, f"{os.path.basename(base_file)}: ")
    what = "; ".join(f"{_path_text(t)} = {json.dumps(v)}" for t, v in edits)
    original = doc.get("status", "") if isinstance(doc, dict) else ""
    if isinstance(doc, dict):
        doc = {"status": f"assumed (sweep copy of {base_file} with {what}; the original's status: "
                         f"{original or 'none given'})", **{k: v for k, v in doc.items() if k != "status"}}
    os.makedirs(folder, exist_ok=True)
    stem, ext = os.path.splitext(os.path.basename(base_file))
    path = os.path.join(folder, f"{stem}.sweep{ext}")        # the report's data table shows file names
    blob = json.dumps(doc, indent=1)
    old = None
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as fh:
            old = fh.read()
    if old != blob:         # unchanged on a rerun: its stamp, and so the config cache, stay
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(blob)
    return os.path.abspath(path)


def cell_variant(spec, cell, players, data_folder):
    """The engine settings of one cell (strings, as ``--variant`` gives them); data copies go to ``data_folder``."""
    variant = dict(spec.variant)
    lists, edits = {}, {}
    for a, v in zip(spec.axes, cell):
        if a.path is not None:
            edits.setdefault(a.setting, []).append((a.path, v))
        elif a.index is not None:
            lst = lists.setdefault(a.setting, _base_list(variant.get(a.setting), players))
            lst[a.index] = v
        else:
            variant[a.setting] = _text(v)
    for s, lst in lists.items():
        variant[s] = ",".join(_text(x) for x in lst)
    for s, ed in edits.items():
        variant[s] = write_data_copy(spec.base_files[s], ed, data_folder)
    return variant


def _slug(label, taken):
    text = label.replace("[*]", "-all").replace("[", "-").replace("]", "").replace(":", "-")
    slug = _file_slug(text.replace("=", "-").replace(", ", "__"))
    if taken.get(slug, label) != label:
        slug += "-" + hashlib.sha1(label.encode()).hexdigest()[:6]
    taken[slug] = label
    return slug


def cell_balance(folder, label="cell"):
    """:func:`analysis.sweep.seat_balance` of one results folder (one row)."""
    from analysis import load_run
    from analysis.seats import seat_sums

    run = load_run(folder)
    players = run.players.with_columns(pl.lit(label).alias("run"),
                                       pl.lit(int(run.manifest["players"]), dtype=pl.Int64).alias("n_players"))
    return S.seat_balance(seat_sums(players, by="run").collect(), "run", alpha=ALPHA)


def run_sweep(part, base, play, log=print):
    """Play the cells of sweep ``part`` (data-file copies under ``base/<part>/data``); return their RunSet.

    ``play(run) -> folder`` plays a :class:`reports.plan.PlannedRun` (or finds the same run already played) and
    returns its results folder: ``reports.study`` passes one that shares the study's record of
    played runs, so a cell equal to another part's run is played once. Adaptive mode plays cell
    after cell.
    """
    from reports.report import RunSet

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
        entry["metric"] = S.metric_value(cell_balance(folder, label).row(0, named=True), spec.metric)
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
    return RunSet.from_dirs(dirs, group="cell")


def quick(part, cap):
    """``--quick``: every cell plays at most ``cap`` games."""
    spec = part.sweep
    spec.games = min(spec.games, cap)
    part.games = (len(spec.grid()) + spec.budget) * spec.games


# ---------------------------------------------------------------- report

def cells_table(part, rs):
    """One row per played cell: its setting values, n, every seat's share with its CI, the gap and p."""
    from analysis._common import add_up
    from analysis.seats import seat_sums
    from reports.report import collected

    spec = part.sweep
    sums = add_up((collected(seat_sums(b, by=rs.group)) for b in rs.batches("players")),
                  [rs.group, "n_players", "seat"])
    sums = sums.with_columns(pl.col(rs.group).cast(pl.String))
    bal = S.seat_balance(sums, rs.group, alpha=ALPHA)
    by_label = {e["label"]: e for e in spec.cells}
    rows = []
    for r in bal.iter_rows(named=True):
        e = by_label[r[rs.group]]
        row = {a.name: (v if a.integer else float(v)) if a.numeric else _fmt(v) for a, v in zip(spec.axes, e["cell"])}
        if spec.mode == "adaptive":
            row["stage"] = e["stage"]
        row.update({k: v for k, v in r.items() if k != rs.group})
        if spec.threshold is not None or spec.metric_text != "gap":
            row[spec.metric_text if spec.metric_text != "gap" else "metric"] = S.metric_value(r, spec.metric)
        row["cell"] = r[rs.group]
        rows.append(row)
    frame = pl.DataFrame(rows)
    if not frame.height:
        return frame
    keys = [_order_key(a, f"_o{i}") for i, a in enumerate(reversed(spec.axes))]     # y first, then x
    return frame.with_columns(keys).sort([k.meta.output_name() for k in keys]).drop(
        [k.meta.output_name() for k in keys])


def _order_key(a, name):
    """Sort key of an axis column: numeric axes by value, categorical ones in the file's order."""
    if a.numeric:
        return pl.col(a.name).alias(name)
    return pl.col(a.name).replace_strict([_fmt(v) for v in a.values], list(range(len(a.values))),
                                         default=len(a.values)).alias(name)


def _positions(axis, values):
    """x positions of an axis' values: the values themselves when numeric, else 0, 1, 2, ..."""
    if axis.numeric:
        return list(values), None
    order = [_fmt(v) for v in axis.values]
    return [order.index(v) for v in values], order


def balance_surface(table, spec, title="Balance surface: largest seat gap", caption=None):
    """Heat map of the largest seat gap per cell (pp); cells whose gap is not significant are hatched and marked."""
    from matplotlib.patches import Rectangle

    from reports import figures as F

    xa = spec.axes[0]
    ya = spec.axes[1] if len(spec.axes) > 1 else None
    xs = sorted(set(table[xa.name].to_list()), key=lambda v: _positions(xa, [v])[0][0])
    ys = sorted(set(table[ya.name].to_list()), key=lambda v: _positions(ya, [v])[0][0]) if ya else [None]
    gap = np.full((len(ys), len(xs)), np.nan)
    ns = np.zeros_like(gap, dtype=bool)
    for r in table.iter_rows(named=True):
        i = ys.index(r[ya.name]) if ya else 0
        j = xs.index(r[xa.name])
        gap[i, j] = r["gap"] * 100
        ns[i, j] = not r["significant"]
    fig = F.Figure(figsize=(max(5.5, 0.9 * len(xs) + 2.5), 0.6 * len(ys) + 1.8 if ya else 2.2),
                   layout="constrained")
    ax = fig.subplots()
    cmap = F.matplotlib.colormaps["YlOrRd"].with_extremes(bad="#eeeeee")
    im = ax.imshow(np.ma.masked_invalid(gap), cmap=cmap, aspect="auto", origin="lower",
                   vmin=0, vmax=max(1.0, float(np.nanmax(gap)) if np.isfinite(gap).any() else 1.0))
    top = np.nanmax(gap) if np.isfinite(gap).any() else 1.0
    for i in range(len(ys)):
        for j in range(len(xs)):
            if not np.isfinite(gap[i, j]):
                continue
            dark = gap[i, j] > 0.6 * top
            text = f"{gap[i, j]:.1f}" + ("\nn.s." if ns[i, j] else "")
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
            if ns[i, j]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                                                            edgecolor="#555555", linewidth=0))
    ax.set_xticks(range(len(xs)), [_fmt(v) for v in xs], rotation=45 if len(xs) > 8 else 0)
    ax.set_xlabel(xa.label or xa.name)
    if ya:
        ax.set_yticks(range(len(ys)), [_fmt(v) for v in ys])
        ax.set_ylabel(ya.label or ya.name)
    else:
        ax.set_yticks([])
    fig.colorbar(im, ax=ax, label="largest seat gap (pp)", shrink=0.9)
    return F._finish(fig, title, caption)


def share_lines(table, spec, players, title="Win share by seat across the sweep", caption=None, gap=False):
    """Each seat's win share (or, ``gap=True``, the largest seat gap) against x with 95% CI bands;
    one panel per y value."""
    from matplotlib.ticker import MaxNLocator

    from reports import figures as F

    xa = spec.axes[0]
    ya = spec.axes[1] if len(spec.axes) > 1 else None
    ys = sorted(set(table[ya.name].to_list()), key=lambda v: _positions(ya, [v])[0][0]) if ya else [None]
    fig, axes = F._panels(len(ys), width=4.4, sharey=True)
    target = spec.threshold
    for ax, yv in zip(axes[0], ys):
        d = table.filter(pl.col(ya.name) == yv) if ya else table
        pos, names = _positions(xa, d[xa.name].to_list())
        order = np.argsort(pos, kind="stable")
        x = np.asarray(pos, dtype=float)[order]
        series = [("gap", "gap_lo", "gap_hi", "largest gap")] if gap else [
            (f"share_{s}", f"lo_{s}", f"hi_{s}", f"seat {s}") for s in range(players)]
        for k, (est, lo, hi, name) in enumerate(series):
            col = F.COLORS[k % 10] if not gap else "#d62728"
            ax.plot(x, d[est].to_numpy()[order] * 100, marker="o", markersize=3.5, color=col, label=name)
            ax.fill_between(x, d[lo].to_numpy()[order] * 100, d[hi].to_numpy()[order] * 100, color=col,
                            alpha=0.18, linewidth=0)
        if gap:
            ns = ~d["significant"].to_numpy()[order]
            ax.scatter(x[ns], d["gap"].to_numpy()[order][ns] * 100, s=40, facecolors="white", edgecolors="#d62728",
                       zorder=3, label="not significant (p ≥ 0.05)")
            if target is not None and spec.metric[0] == "gap":
                ax.axhline(target * 100, color="#444444", linestyle=":", linewidth=1, label="target")
        else:
            ax.axhline(100 / players, color="#444444", linestyle="--", linewidth=1, label="fair share")
            if target is not None and spec.metric[0] in ("share", "deviation"):
                level = target + (1 / players if spec.metric[0] == "deviation" else 0)
                ax.axhline(level * 100, color=F.COLORS[spec.metric[1] % 10], linestyle=":", linewidth=1,
                           label=f"target ({spec.metric_text})")
        if names is not None:
            ax.set_xticks(range(len(names)), names, rotation=30 if len(names) > 5 else 0)
        elif xa.integer:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(xa.label or xa.name)
        ax.set_ylabel("largest seat gap (pp, 95% CI)" if gap else "win share (% of games, 95% CI)")
        if ya:
            F._subtitle(ax, f"{ya.label or ya.name} = {_fmt(yv)}")
    axes[0][0].legend(fontsize=8)
    return F._finish(fig, title, caption)


def crossings(table, spec):
    """Where the target metric crosses the threshold between neighbouring cells along x (per y):
    ``[(y, x0, x1, x estimated by linear interpolation or None)]``."""
    if spec.threshold is None:
        return []
    col = spec.metric_text if spec.metric_text != "gap" else "metric"
    xa, ya = spec.axes[0], spec.axes[1] if len(spec.axes) > 1 else None
    out = []
    for yv in (sorted(set(table[ya.name].to_list()), key=lambda v: _positions(ya, [v])[0][0]) if ya else [None]):
        d = table.filter(pl.col(ya.name) == yv) if ya else table
        pos, _ = _positions(xa, d[xa.name].to_list())
        pts = sorted(zip(pos, d[xa.name].to_list(), d[col].to_list()))
        for (p0, x0, v0), (p1, x1, v1) in itertools.pairwise(pts):
            a, b = v0 - spec.threshold, v1 - spec.threshold
            if a * b < 0 or (a == 0 and b != 0):
                est = p0 + (p1 - p0) * a / (a - b) if xa.numeric and a != b else None
                out.append((yv, x0, x1, est))
    return out


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
        paras.append(f"Smallest gap: **{best['cell']}**, {best['gap'] * 100:.1f} pp (seat {best['gap_seat']}, "
                     f"[{best['gap_lo'] * 100:.1f}, {best['gap_hi'] * 100:.1f}]) over {best['n']:,} games, "
                     f"chi-square p = {best['p']:.2g}. {ns} of {table.height} cells show no significant gap.")
        for yv, x0, x1, est in crossings(table, spec):
            where = f" at {spec.axes[1].name} = {_fmt(yv)}" if yv is not None else ""
            paras.append(f"`{spec.metric_text}` crosses {spec.threshold:g}{where} between "
                         f"{spec.axes[0].name} = {_fmt(x0)} and {_fmt(x1)}"
                         + (f" (about {est:.3g} by linear interpolation)." if est is not None else "."))
    caption = (f"Largest seat gap per cell in percentage points; n.s. and hatched: equal seat shares not rejected "
               f"(chi-square p ≥ 0.05). {games}.")
    figs = [balance_surface(table, spec, caption=caption)]
    figs.append(share_lines(table, spec, n, caption=f"Each seat's win share with its 95% band (Wilson on the observed "
                                                      f"variance of the per-game shares); dashed: "
                                                      f"the fair share 1/{n}. {games}."))
    figs.append(share_lines(table, spec, n, title="Largest seat gap across the sweep", gap=True,
                            caption="The largest |win share − fair share| over the seats with that seat's 95% "
                                    f"interval; open circles: not significant (chi-square p ≥ 0.05). {games}."))
    names = ["balance_surface", "seat_shares", "seat_gap"]
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
