"""Yamataï for the viewer: the board from board.json, a compact position, click targets."""
import itertools
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


_ARRANGE = re.compile(r"\bARRANGE (\d+)$")
_PEEKED = re.compile(r" \(top: [^()]*\)$")


def action_text(state, action):
    """The engine's text of ``action``; fleet 3's ``ARRANGE a`` also names where each peeked tile goes
    (rules F3: the top tiles of the building deck, back on top or at the bottom, in order), which only
    the seat that peeked knows (:func:`hide_text` takes it out for the others)."""
    text = state.action_to_str(action)
    m = _ARRANGE.search(text)
    if m is None:
        return text
    deck = state.to_dict()["deck"]
    k = min(3, len(deck))
    order = list(itertools.permutations(range(k + 1)))[int(m.group(1))]   # k marks the cut: above it, on top
    cut = order.index(k)
    names = [t.name for t in state.config.tiles]
    top = ", ".join(names[deck[x]] for x in order[:cut]) or "none"
    bottom = ", ".join(names[deck[x]] for x in order[cut + 1:]) or "none"
    return f"{text} (top: {top} · bottom: {bottom})"


def hide_text(text, seat, actor=None, decided=True, chosen=True):
    """An action's text as ``seat`` may read it (None: no seat's secrets): the tiles fleet 3 peeked at are
    the actor's to know (rules: Fleet 3's owner knows the tiles it arranged). Only :func:`action_text`
    names them, so a transcript line (``actor`` None) has nothing to hide."""
    return text if actor is not None and actor == seat else _PEEKED.sub(" (peeked tiles hidden)", text)


_SEA = re.compile(r"\bs(\d\d)\b")
_ISLAND = re.compile(r"\bI(\d\d)\b")


def target(text):
    """``s<id>`` (sea space) or ``i<id>`` (island) an action's text names, or None."""
    m = _SEA.search(text)
    if m:
        return f"s{int(m.group(1))}"
    m = _ISLAND.search(text)
    return f"i{int(m.group(1))}" if m else None
