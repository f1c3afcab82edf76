"""Akrotiri for the viewer: the tile catalogue and start board from the data files, a compact
position (placed tiles, cubes, temples, boats), click targets."""
import json
import os
import re

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                    "simcore", "akrotiri", "data")
QUARTERS = ("NW", "NE", "SW", "SE")


def _file(config, key, default):
    spec = config.settings().get(key, "default") if key else "default"
    return os.path.join(DATA, default) if spec == "default" else spec


def board(config):
    """The tiles as drawn (land quarters, landmark, ports, routes) and Thera's start board."""
    with open(_file(config, "tiles", "tiles.json")) as f:
        doc = json.load(f)
    with open(os.path.join(DATA, "thera.json")) as f:
        thera = json.load(f)
    tiles = {}
    for t in doc["tiles"]:
        tiles[t["id"]] = {"land": [QUARTERS.index(q) for q in t["land"]], "lm": t["landmark"],
                          "lq": QUARTERS.index(t["landmark_quarter"]),
                          "ports": [[p["id"], QUARTERS.index(p["quarter"]), p["at"]] for p in t["ports"]],
                          "routes": t["routes"]}
    return {"status": doc.get("status", ""), "tiles": tiles,
            "thera": {"quarters": [[q["r"], q["c"], int(q["land"])] for q in thera["quarters"]],
                      "ports": [[p["id"], p["r"], p["c"]] for p in thera["ports"]]},
            "colours": ["blue", "green", "grey", "orange"]}


def position(state):
    """Placed tiles, cubes, each seat's boat, cargo, temples, money and cards (hands and goals kept:
    :func:`hide` removes another seat's)."""
    d = state.to_dict()
    seats = [{"port": x["port"], "cargo": x["cargo"], "drachmas": x["drachmas"], "temples": x["temples"],
              "hand": x["hand"], "goals": x["goals"], "tile": x["tile"], "excavated": len(x["excavated"]),
              "turns": x["turns"]} for x in d["seats"]]
    return {"phase": d["phase"], "current": d["current"], "actions": d["actions"], "bonus": int(bool(d["bonus"])),
            "tiles": [[t["tile"], t["x"], t["y"], t["rot"]] for t in d["tiles"]],
            "cubes": [[c["r"], c["c"], c["cubes"]] for c in d["cubes"]], "market_out": d["market_out"],
            "pile": len(d["pile"]), "decks": [len(k) for k in d["decks"]], "display": d["display"],
            "goal_options": d["goal_options"], "placed": d["placed_cell"], "seats": seats,
            "end": d.get("end_trigger")}


def hide(pos, seat):
    """The position as ``seat`` sees it: the other seat's map cards, goals and drawn tile as counts
    (``seat`` None: every seat's, as a screen being passed shows it)."""
    out = dict(pos)
    out["seats"] = []
    for p, x in enumerate(pos["seats"]):
        x = dict(x)
        if p != seat:
            x["hand"] = len(x["hand"]) if isinstance(x["hand"], list) else x["hand"]
            x["goals"] = len(x["goals"]) if isinstance(x["goals"], list) else x["goals"]
            x["tile"] = None if x["tile"] is None else -1
        out["seats"].append(x)
    if pos.get("current") is not None and pos["current"] != seat:
        out["goal_options"] = len(pos["goal_options"])
    return out


_ACTOR = re.compile(r"^seat (\d+)(?=: | takes tile )")
_TAKES = re.compile(r"takes tile \d+")
_GOAL = re.compile(r"keep goal G\d+")
_MAP = re.compile(r"excavate with map \S+ on")
_TILE = re.compile(r"place tile \d+ on")


def hide_text(text, seat, actor=None, decided=True, chosen=True):
    """An action's or a transcript line's text as ``seat`` may read it (None: no seat's secrets).

    Secret to the other seat (rules 15.4): the drawn tile until it is placed, the goal cards
    (the options and the one kept) and the map cards in hand, so an option to excavate with a
    map is shown only once it was chosen (the excavation shows the card). ``actor``: the seat
    whose decision it is (default: the ``seat N`` the text begins with); ``decided``: the
    decision was made (its tile is on the board); ``chosen``: this option is the one made.
    """
    if actor is None:
        m = _ACTOR.match(text)
        actor = int(m.group(1)) if m else None
    if actor is None or actor == seat:
        return text
    text = _TAKES.sub("takes a tile (hidden)", text)
    text = _GOAL.sub("keep a goal (hidden)", text)
    if not (decided and chosen):
        text = _MAP.sub("excavate with a map from the hand (hidden) on", text)
    if not decided:
        text = _TILE.sub("place its tile on", text)
    return text


_CELL = re.compile(r"cell \((-?\d+), (-?\d+)\)")
_PORT = re.compile(r"port (p\d) of tile (\d+)")
_THERA = re.compile(r"port (T\d)")


def target(text):
    """``c<x>,<y>`` (a cell), ``p<tile>.<k>`` (a port) or ``T0``/``T1``, or None."""
    m = _CELL.search(text)
    if m:
        return f"c{m.group(1)},{m.group(2)}"
    m = _PORT.search(text)
    if m:
        return f"p{m.group(2)}.{m.group(1)[1:]}"
    m = _THERA.search(text)
    return m.group(1) if m else None
