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
module parses the spec, builds the cells and tables them; ``reports.experiments.sweep`` plays
and reports a part, ``reports.render.figures_sweep`` draws it.
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


def cell_balance(folder, label="cell", allow_partial=False):
    """:func:`analysis.sweep.seat_balance` of one results folder (one row); ``allow_partial``: a run
    stopped on a target precision before its planned games."""
    from analysis import load_run
    from analysis.seats import seat_sums

    run = load_run(folder, allow_partial=allow_partial)
    players = run.players.with_columns(pl.lit(label).alias("run"),
                                       pl.lit(int(run.manifest["players"]), dtype=pl.Int64).alias("n_players"))
    return S.seat_balance(seat_sums(players, by="run").collect(), "run", alpha=ALPHA)


# ---------------------------------------------------------------- report

def _collected(frame):
    """An analysis result as a DataFrame (as ``reports.runset.collected``; written here so that this
    module imports no other of ``reports`` and its figures, ``reports.render.figures_sweep``, stay one link)."""
    return frame.collect(engine="streaming") if isinstance(frame, pl.LazyFrame) else frame


def cells_table(part, rs):
    """One row per played cell: its setting values, n, every seat's share with its CI, the gap and p."""
    from analysis._common import add_up
    from analysis.seats import seat_sums

    spec = part.sweep
    sums = add_up((_collected(seat_sums(b, by=rs.group)) for b in rs.batches("players")),
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
