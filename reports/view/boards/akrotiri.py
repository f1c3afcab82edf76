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
    """The position as ``seat`` sees it: the other seat's map cards, goals and drawn tile as counts."""
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
