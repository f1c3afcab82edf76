"""Render a :class:`reports.report.Report` as self-contained HTML and as Markdown.

The HTML embeds every figure as a base64 PNG (``data:`` URI) and carries its
own CSS, so the file opens from disk with no server and no other file; the
Markdown links the PNGs in ``figures/``. Tables show at most
:data:`MAX_ROWS` rows; each is also a CSV in ``tables/``.
"""
from __future__ import annotations

import base64
import datetime as _dt
import html
import math
import re

import polars as pl

MAX_ROWS = 60

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:1100px;
margin:1em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.6em;border-bottom:2px solid #1f77b4;padding-bottom:.2em}
h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ddd}
.scroll{overflow-x:auto;margin:.5em 0 1.2em;max-width:100%}
table{border-collapse:collapse;font-size:.82em}
th,td{border:1px solid #ddd;padding:2px 7px;text-align:right;white-space:nowrap}
td.long{white-space:normal;min-width:24em;text-align:left}
th{background:#f3f6fa}td:first-child,th:first-child{text-align:left}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #eee}
figcaption,.cap{font-size:.85em;color:#555}
pre{background:#f6f8fa;padding:.6em;overflow-x:auto;font-size:.85em}
.status{background:#fff6e0;border-left:4px solid #f0a000;padding:.5em 1em}
nav.toc{position:fixed;top:0;left:0;bottom:0;width:250px;overflow-y:auto;background:#f7f9fb;
border-right:1px solid #e3e7ec;padding:.8em .6em .8em .9em;font-size:.8em;line-height:1.3;box-sizing:border-box}
nav.toc ol{padding-left:1.3em;margin:.3em 0}nav.toc li{margin-bottom:.25em}nav.toc a{color:#1a4f7a;text-decoration:none}
nav.toc a:hover{text-decoration:underline}nav.toc .toc-title{font-weight:bold;color:#333}
@media (min-width:1000px){body{margin-left:280px}}
@media (max-width:999px){nav.toc{position:static;width:auto;border:1px solid #e3e7ec;margin:1em 0}}
h2 .top{font-size:.7em;font-weight:normal;margin-left:.8em;color:#888;text-decoration:none}
table.glance{font-size:.74em;width:100%;line-height:1.28}table.glance td{white-space:normal;text-align:left;
vertical-align:top;padding:2px 4px}table.glance th{text-align:left;white-space:normal;padding:2px 4px}
table.glance td:nth-child(1){width:5%;font-weight:bold}table.glance td:nth-child(2){width:7%}
table.glance td:nth-child(3){width:20%}table.glance td:nth-child(4){width:15%}table.glance td:nth-child(5){width:24%}
.glance-cap{font-size:.8em;margin:.3em 0 .1em;color:#444}section.first p,h2.first+p{font-size:.9em;margin:.3em 0}.glance .scroll{margin:.2em 0 .4em}
h1{margin:.2em 0 .4em}section.first h2,h2.first{margin-top:.6em}p.status{margin:.4em 0}
details{margin:.6em 0 1em}details>summary{cursor:pointer;color:#1a4f7a;font-size:.92em}
p.first{font-size:1.02em}
"""


def fmt(value) -> str:
    """A table cell: integers with separators, floats to 4 significant digits."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if value == 0:
            return "0"
        a = abs(value)
        if a >= 1000:
            return f"{value:,.0f}"
        if a < 1e-3:
            return f"{value:.2e}"
        return f"{value:.4g}"
    return str(value)


def _inline(text: str) -> str:
    """Markdown-lite to HTML: **bold**, *italic*, `code` (nothing is formatted inside code)."""
    parts = re.split(r"(`[^`]+`)", html.escape(text))
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{part[1:-1]}</code>")
            continue
        part = re.sub(r"\[([^\]]+)\]\(([\w./-]+\.html)\)", r'<a href="\2">\1</a>', part)   # a local page
        part = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", part)
        out.append(re.sub(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", r"<em>\1</em>", part))
    return "".join(out)


def _para_html(text: str) -> str:
    out = []
    for block in re.split(r"```", text):
        out.append(block)
    parts = []
    for i, block in enumerate(out):
        if i % 2:
            parts.append(f"<pre>{html.escape(block.strip())}</pre>")
        elif block.strip():
            cls = ' class="status"' if block.strip().startswith("**Data status") else ""
            parts.append(f"<p{cls}>{_inline(block.strip())}</p>")
    return "\n".join(parts)


def table_html(frame: pl.DataFrame, max_rows: int = MAX_ROWS) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in frame.columns)
    rows = []
    for r in frame.head(max_rows).iter_rows():
        rows.append("<tr>" + "".join(_cell(fmt(v)) for v in r) + "</tr>")
    more = f'<p class="cap">… {frame.height - max_rows:,} more rows in the CSV</p>' if frame.height > max_rows else ""
    # wide tables scroll sideways inside their box instead of running past the page's edge
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>{more}'


def _cell(text):
    # a long text cell (a strategy's weights) wraps instead of widening the table
    return f'<td class="long">{html.escape(text)}</td>' if len(text) > 40 else f"<td>{html.escape(text)}</td>"


def table_markdown(frame: pl.DataFrame, max_rows: int = MAX_ROWS) -> str:
    def cell(v):
        return fmt(v).replace("|", "\\|")
    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    for r in frame.head(max_rows).iter_rows():
        lines.append("| " + " | ".join(cell(v) for v in r) + " |")
    if frame.height > max_rows:
        lines.append(f"\n… {frame.height - max_rows:,} more rows in the CSV")
    return "\n".join(lines)


def _anchor(title):
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


#: a section with more figures and tables than this shows its first figure and folds the rest
FOLD_AFTER = 1
#: "Findings at a glance" shows this many paragraphs and folds the rest
FINDINGS_SHOWN = 3


def _figure_html(f):
    data = base64.b64encode(getattr(f, "png_bytes", b"")).decode("ascii")
    return (f'<figure id="fig-{f.name}"><img alt="{html.escape(f.title or f.name)}" '
            f'src="data:image/png;base64,{data}"><figcaption><strong>{html.escape(f.title)}.'
            f'</strong> {_inline(f.caption)} (<code>{html.escape(getattr(f, "svg", ""))}</code>)'
            f'</figcaption></figure>')


def _table_html(t):
    if not t.show:
        return f'<p class="cap">{_inline(t.caption)} Table: <code>{html.escape(getattr(t, "csv", ""))}</code></p>'
    if t.name == "glance" or t.name.startswith("glance_"):   # the first screen: a compact table, cells wrap
        return (f'<p class="glance-cap">{_inline(t.caption)}</p>'
                + table_html(t.frame).replace("<table>", '<table class="glance">').replace(' class="long"', ""))
    return (f'<p class="cap"><strong>{html.escape(t.name)}</strong> — {_inline(t.caption)} '
            f'(<code>{html.escape(getattr(t, "csv", ""))}</code>)</p>' + table_html(t.frame))


def _section_html(sec):
    first = getattr(sec, "first_screen", False)
    cls = ' class="first"' if first else ""
    body = [f'<h2{cls} id="{_anchor(sec.title)}">{html.escape(sec.title)}<a class="top" href="#top">↑ top</a></h2>']
    paras = list(sec.paragraphs)
    if sec.title == "Findings at a glance" and len(paras) > FINDINGS_SHOWN + 1:
        body += [_para_html(p) for p in paras[:FINDINGS_SHOWN + 1]]
        body.append(f"<details><summary>All {len(paras) - 1} findings</summary>"
                    + "\n".join(_para_html(p) for p in paras[FINDINGS_SHOWN + 1:]) + "</details>")
    else:
        body += [_para_html(p) for p in paras]
    items = [_figure_html(f) for f in sec.figures] + [_table_html(t) for t in sec.tables]
    if first or len(items) <= FOLD_AFTER + 1:
        body += items
    else:
        nf, nt = len(sec.figures), len(sec.tables)
        more_f, more_t = (nf - 1, nt) if nf else (0, nt - 1)
        what = " and ".join(x for x in (f"{more_f} more figure{'s' * (more_f != 1)}" if more_f else "",
                                        f"{more_t} table{'s' * (more_t != 1)}" if more_t else "") if x)
        body.append(items[0])
        body.append(f"<details><summary>Show {what}</summary>" + "\n".join(items[1:]) + "</details>")
    return body


def _warn(sec):
    """The contents' mark of a section with under-powered estimates (``reports.firstscreen``)."""
    return " ⚠" if getattr(sec, "underpowered", 0) else ""


def render_html(report) -> str:
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    body = [f'<h1 id="top">{html.escape(report.title)}</h1>']
    body += [_para_html(p).replace("<p>", '<p class="status">', 1) if i == 0 else _para_html(p)
             for i, p in enumerate(report.intro)]
    nav = ('<nav class="toc"><div class="toc-title"><a href="#top">Contents</a></div><ol>'
           + "".join(f'<li><a href="#{_anchor(s.title)}">{html.escape(s.title)}{_warn(s)}</a></li>'
                     for s in report.sections)
           + "</ol></nav>")
    for sec in report.sections:
        body += _section_html(sec)
    body.append(f'<p class="cap">Written {now} by boardlab.</p>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(report.title)}</title><style>{CSS}</style></head><body>\n" + nav + "\n"
            + "\n".join(body) + "\n</body></html>\n")


def _toc_markdown(report):
    """The Markdown report's contents: a link per section (explicit anchors, as in the HTML)."""
    lines = ['<a id="contents"></a>', "", "## Contents", ""]
    lines += [f"{i}. [{s.title}](#{_anchor(s.title)}){_warn(s)}" for i, s in enumerate(report.sections, 1)]
    return lines + [""]


def render_markdown(report) -> str:
    """The report as Markdown: the first screen's sections, then the contents, then the rest; every
    section ends with a link back to the contents (figures are links to ``figures/``)."""
    lines = [f'# {report.title} <a id="top"></a>', ""]       # the title stays the first line
    for p in report.intro:
        lines += [p, ""]
    toc = False
    for sec in report.sections:
        if not toc and not getattr(sec, "first_screen", False):      # after the first screen's panel
            lines += _toc_markdown(report)
            toc = True
        lines += [f'<a id="{_anchor(sec.title)}"></a>', "", f"## {sec.title}", ""]
        for p in sec.paragraphs:
            lines += [p, ""]
        for f in sec.figures:
            lines += [f"![{f.title}]({f.png})", "", f"*{f.title}.* {f.caption} ([SVG]({f.svg}))", ""]
        for t in sec.tables:
            if not t.show:
                lines += [f"{t.caption} Table: [{t.csv}]({t.csv})", ""]
                continue
            lines += [f"**{t.name}** — {t.caption} ([CSV]({t.csv}))", "", table_markdown(t.frame), ""]
        lines += ["[↑ contents](#contents) · [↑ top](#top)", ""]
    return "\n".join(lines)
