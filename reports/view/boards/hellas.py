"""Hellas for the viewer: the board from the board's data file, a compact position, click targets."""
import json
import re

KINDS = {"house": "h", "agora": "a", "palace": "p", "monument": "m"}
QUARRY = {"active": "a", "closed": "c"}


def board(config):
    """The static board: every field of the config's board file (hex axial q, r) and the action spaces."""
    with open(config.board_data.path) as f:
        doc = json.load(f)
    fields = [[x["id"], x["q"], x["r"], x["kind"][0], int(bool(x.get("coast"))), x.get("temple_size", 0)]
              for x in doc["fields"]]
    return {"name": doc.get("name", config.board_name), "status": doc.get("status", ""), "fields": fields,
            "spaces": [s["action"] for s in config.spaces]}


def position(state):
    """What the board and the player panels show of ``state`` (all public: the stack only as a count)."""
    d = state.to_dict()
    return {"round": d["round"], "phase": d["phase"], "marble": d["marble"], "rings": d["rings"],
            "cubes": d["cubes_left"], "income": d["income"], "used": d["spaces_used"],
            "pieces": [[p["field"], -1 if p["owner"] is None else p["owner"], KINDS[p["kind"]]]
                       for p in d["pieces"]],
            "temples": [[t["field"], t["columns"]] for t in d["temples"]],
            "quarries": [[q["field"], QUARRY.get(q["status"], q["status"][0]), q["top"]] for q in d["quarries"]],
            "worker": d["worker"], "stack": len(d["stack"]), "set_aside": d["set_aside"],
            "revealed": d["revealed"], "tile": d["tile"], "supply": d["supply"]}


def hide(pos, seat):
    """The position as ``seat`` may see it (Hellas hides only the stack's order: already a count)."""
    return pos


_FIELD = re.compile(r"field (\d+)")


def target(text):
    """The board element an action's text points at (``f<field>``), or None."""
    m = _FIELD.search(text)
    return f"f{m.group(1)}" if m else None
