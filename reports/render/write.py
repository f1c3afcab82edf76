"""Writing a report: report.html (self-contained), report.md, figures/*.png|svg, tables/*.csv."""
from __future__ import annotations

import os

import polars as pl

from reports.render.sections import Report
from reports.render.workers import BackgroundFigures

def write_report(report: Report, out, figures=None) -> dict:
    """Write report.html, report.md, figures/*.png|svg and tables/*.csv under ``out``.

    Returns the paths: ``{"html", "md", "figures": [...], "tables": [...]}``.
    Figures are closed (their memory freed) once written. ``figures``: the
    :class:`BackgroundFigures` the sections were built with (its renders are
    waited for and moved here; the figures it has not seen are rendered too);
    without one, all are rendered here, on up to two processes.
    """
    from reports.render import html as H

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
    # its heartbeat goes on while the pages are written (57 figures embedded: seconds on a busy machine)
    figures._current = "writing report.html and report.md"
    figures._progress(f"report: writing report.html ({len(figs)} figures embedded) and report.md", force=True)
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
    figures.close()
    return paths


def _csv_safe(frame):
    """CSV has no nested types or enums: lists joined, categoricals as strings."""
    out = frame
    for name, dtype in frame.schema.items():
        if isinstance(dtype, (pl.Enum, pl.Categorical)):
            out = out.with_columns(pl.col(name).cast(pl.String))
        elif isinstance(dtype, pl.List):
            out = out.with_columns(pl.col(name).cast(pl.List(pl.String)).list.join(","))
    return out


