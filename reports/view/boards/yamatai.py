"""Yamataï for the viewer: the board from board.json, a compact position, click targets."""
import json
import re


def board(config):
    """The static board: islands and sea spaces (hex, odd-r offset x, y), clusters and entries."""
    with open(config.board_data.path) as f:
        doc = json.load(f)
    islands = [[i["id"], i["x"], i["y"], i["cluster"]] for i in doc["islands"]]
    sea = [[s["id"], s["x"], s["y"], s.get("entry") or "", int(bool(s.get("edge")))] for s in doc["sea"]]
    return {"status": doc.get("status", ""), "islands": islands, "sea": sea,
            "tiles": [t.name for t in config.tiles], "specialists": list(config.spec_names),
            "tokens": list(config.token_names)}


def position(state):
    """Boats, buildings, tokens on the board, and each seat's resources (decks only as counts)."""
    d = state.to_dict()
    islands = []
    for isl in d["islands"]:
        b = isl["building"]          # None, "torii", "palace", or the seat whose building stands there
        kind = 0 if b is None else {"torii": 2, "palace": 3}.get(b, 1)
        islands.append([isl["token"], kind, b if kind == 1 else -1, int(isl["sacred"]), int(isl["mountain"])])
    n = len(d["coins"])
    specs = [[k for k, o in enumerate(d["spec_owner"]) if o == p] for p in range(n)]
    return {"round": d["round"], "stage": d["stage"], "order": d["order"], "pawn_owner": d["pawn_owner"],
            "fleet_taken": d["fleet_taken"], "track": d["track"][:d["face_up"]], "hidden_fleets":
            len(d["track"]) - d["face_up"], "sea": d["sea"], "islands": islands, "supply": d["supply"],
            "row": d["row"], "deck": len(d["deck"]), "slots": d["slots"], "slot_coins": d["slot_coins"],
            "spec_deck": len(d["spec_deck"]), "specs": specs, "coins": d["coins"], "pp": d["pp_tokens"],
            "set_aside": d["set_aside"], "pieces": d["pieces"], "port": d["port"], "tokens": d["tokens"],
            "built": d["built"], "reserved": d["reserved"], "hand": d["hand"], "triggers": d["triggers"]}


def hide(pos, seat):
    """Yamataï hides only the decks and the face-down fleets (already counts)."""
    return pos


_SEA = re.compile(r"\bs(\d\d)\b")
_ISLAND = re.compile(r"\bI(\d\d)\b")


def target(text):
    """``s<id>`` (sea space) or ``i<id>`` (island) an action's text names, or None."""
    m = _SEA.search(text)
    if m:
        return f"s{int(m.group(1))}"
    m = _ISLAND.search(text)
    return f"i{int(m.group(1))}" if m else None
