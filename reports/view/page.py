"""The viewer page: one self-contained HTML file (inline CSS, JS and the game's JSON; no network).

The HTML of a game document only; ``reports.view.record.write_view`` replays a game and writes its page."""
import html
import json
import os

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")


def _static(name):
    with open(os.path.join(STATIC, name), encoding="utf-8") as f:
        return f.read()


def to_json(doc):
    """Compact JSON that is safe inside a <script> element."""
    text = json.dumps(doc, separators=(",", ":"), allow_nan=False, default=_plain)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _plain(x):
    import numpy as np
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    raise TypeError(f"not JSON: {type(x).__name__}")


def render(doc, title=None, play=False):
    """The HTML page of a game document (``reports.view.record.Recorder.document``)."""
    game = doc["game"]
    title = title or f"{doc['title']}, {doc['players']} players"
    sub = doc.get("subtitle", "")
    play_box = ('<div class="box"><div class="controls"><span id="status">starting…</span>'
                '<button id="save" title="save the game to resume it later">save</button></div></div>') if play else ""
    pass_box = ('<div id="passbox" hidden><p id="pass-text"></p><p class="note">The page shows the secrets of '
                'the player at the screen only.</p><button id="pass-ready"></button></div>') if play else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · boardlab</title>
<style>{_static("viewer.css")}</style></head>
<body>
<header><h1>{html.escape(title)}</h1><span class="sub">{html.escape(sub)}</span></header>
{pass_box}<div id="main">
<div id="board"></div>
<div id="side">
{play_box}
<div class="box"><div class="controls">
<button id="first" title="first (Home)">«</button><button id="prev" title="previous (←)">◀</button>
<button id="next" title="next (→)">▶</button><button id="last" title="last (End)">»</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="decision"><span id="stepinfo"></span>
</div></div>
<div class="box" id="playersbox"></div>
<div class="box" id="decision"></div>
<div class="box"><div class="note" id="logtitle"></div><div id="log"></div></div>
</div></div>
<script id="game-data" type="application/json">{to_json(doc)}</script>
<script>{_static(game + ".js")}</script>
<script>{_static("viewer.js")}</script>
</body></html>
"""
