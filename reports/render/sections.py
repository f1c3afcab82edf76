"""The building blocks of a report: sections of paragraphs, tables and figures.

A :class:`Report` is a title and a list of :class:`Section` s; a section holds
paragraphs, :class:`Table` s (polars DataFrames) and :class:`Fig` s
(matplotlib Figures with a caption). ``reports.report`` assembles them and
writes them; the game plug-ins (``reports.games.<game>``) build their own.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl



@dataclass
class Table:
    name: str
    frame: pl.DataFrame
    caption: str = ""
    show: bool = True          # False: CSV only (too long to print)


@dataclass
class Fig:
    name: str
    figure: object             # matplotlib.figure.Figure
    caption: str = ""
    title: str = ""


@dataclass
class Section:
    title: str
    paragraphs: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    terminal: str = ""         # compact text for the terminal summary
    findings: list = field(default_factory=list)    # lines for "Findings at a glance" (balance, ladder)


@dataclass
class Report:
    title: str
    sections: list = field(default_factory=list)
    intro: list = field(default_factory=list)

    def terminal(self):
        return "\n\n".join(s.terminal for s in self.sections if s.terminal)


def caption_of(fig):
    """The caption a figure carries (``boardlab_caption``, else its last text)."""
    if getattr(fig, "boardlab_caption", None):
        return fig.boardlab_caption
    texts = [t.get_text() for t in fig.texts]
    return texts[-1] if texts else ""


# ---------------------------------------------------------------- text tables

def text_table(header, rows) -> str:
    """A compact fixed-width table: first column left-aligned, the others right-aligned."""
    cols = list(zip(*([header] + rows))) if rows else [[h] for h in header]
    widths = [max(len(str(x)) for x in c) for c in cols]

    def line(cells):
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])
