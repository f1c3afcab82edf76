"""What a game's report plug-in (``reports/games/<game>.py``) states about its component sections.

A plug-in's section builder (``RunSet -> Section``) may return, instead of a Section, a request: the
arguments of one of the shared builders of ``reports.components`` —
:class:`ComponentValues` for :func:`reports.components.component_section` (take rates, takers'
outcome, regression uplift of each component) and :class:`GameEnd` for
:func:`reports.components.game_end_section` (game length, end triggers, ties). Whoever builds the
game's sections turns its builders into ``RunSet -> Section`` with
:func:`reports.components.game_sections`. A plug-in thus imports only the render layer and this
module, never the shared builders (which import the render layer themselves): the report's import
chain stays one link shorter.

Here too: the component data files a run used (the manifest's ``data_status``) and the names read
from them, and the headline statistics of game length. Nothing here imports another module of
``reports``.
"""
from __future__ import annotations

import json
import os

import polars as pl

import simcore


class SectionRequest:
    """The arguments (after the RunSet) of one of ``reports.components``' builders, as a plug-in's
    section builder returns them."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


class ComponentValues(SectionRequest):
    """``reports.components.component_section(rs, title, takes, component, what, **options)``."""


class GameEnd(SectionRequest):
    """``reports.components.game_end_section(rs, length, unit, **options)``."""


# ---------------------------------------------------------------- data files and names

def data_entry(rs, key: str):
    """The manifest's data_status entry for ``key`` (first run that has it), or None."""
    for run in rs.runs.values():
        status = run.manifest.get("data_status") or {}
        entry = status.get(key) or status.get(f"{key}.json")   # runs before 2026-12-02 keyed Akrotiri by file
        if entry:
            return entry if isinstance(entry, dict) else {"file": str(entry)}
    return None


def _package_file(game: str, name: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(simcore.__file__)), game, "data", name)


def load_data(rs, key: str, fallback: str | None = None):
    """(document, where it came from, assumed) for a component data file; (None, text, None) if unreadable."""
    entry = data_entry(rs, key)
    path = entry.get("file") if entry else (_package_file(rs.game, fallback) if fallback else None)
    if not path or not os.path.exists(path):
        return None, f"{key}: file not found, components shown by number", None
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    assumed = entry.get("assumed") if entry else "assumed" in str(doc.get("status", ""))
    how = "assumed" if assumed else "rulebook / real game"
    where = os.path.basename(path) + ("" if entry else " (package data; not in the manifest's data status)")
    return doc, f"{where} — {how}", assumed


def data_note(rs, key, fallback=None):
    _, where, _ = load_data(rs, key, fallback)
    return f"Component data: {where}."


def component_names(rs, key: str, fallback: str | None, make) -> dict:
    doc, _, _ = load_data(rs, key, fallback)
    if doc is None:
        return {}
    return {i: make(i, t) for i, t in enumerate(doc.get("tiles") or doc.get("cards") or [])}


def labelled(frame: pl.DataFrame, column: str, names: dict, prefix: str) -> pl.DataFrame:
    labels = {int(k): v for k, v in names.items()}
    return frame.with_columns(pl.col(column).cast(pl.Int64).replace_strict(
        labels, default=pl.lit(prefix) + pl.col(column).cast(pl.String), return_dtype=pl.String).alias("label"))



# ---------------------------------------------------------------- headlines

def length_headlines(length, trigger_share=None):
    """Headline statistics of game length (mean of ``length``) and, optionally, an end-trigger share."""
    def build(rs):
        from analysis.summary import mean_stat

        g, out = rs.games, []
        if length in g.columns:
            out.append(mean_stat(g, length, "game_length", by=[rs.group, "n_players"], item=length))
        if trigger_share and trigger_share[0] in g.columns:
            col, code, name = trigger_share
            out.append(mean_stat(g, pl.col(col) == code, "end_trigger", by=[rs.group, "n_players"], item=name,
                                 kind="proportion"))
        return out
    return build
