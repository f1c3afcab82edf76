"""Akrotiri positions written as dicts (docs/akrotiri_engine.md), shared by the rule and spec-coverage tests."""
T0, T1 = 144, 145      # Thera's two ports


def seat(port, **kw):
    """A seat at ``port`` with 2 drachmas, empty cargo and hand, turn 1; ``kw`` replaces keys."""
    d = {"port": port, "cargo": [0, 0, 0, 0], "drachmas": 2, "temples": [], "hand": [], "excavated": [],
         "goals": [], "tile": None, "turns": 1}
    d.update(kw)
    return d


def position(tiles=(), seats=None, **kw):
    """A position in seat 0's action phase; ``tiles`` = (tile, x, y, rot). Tiles, map cards and goals
    not on the table or held are in their piles and decks; ``kw`` replaces keys."""
    placed = [t[0] for t in tiles]
    seats = seats or [seat(T0), seat(T1)]
    held = [c for s in seats for c in s["hand"] + s["excavated"]]
    goals = [g for s in seats for g in s["goals"]]
    d = {"game": "akrotiri", "config": {"players": 2}, "phase": "action", "current": 0, "stage": "play",
         "actions": 3, "bonus": False, "oracle_used": False, "end_trigger": None, "decisions": 0,
         "tiles": [{"tile": t, "x": x, "y": y, "rot": r} for t, x, y, r in tiles], "cubes": [],
         "market_out": [0, 0, 0, 0],
         "pile": [t for t in range(36) if t not in placed and t not in [s["tile"] for s in seats]],
         "discard": [], "decks": [[c for c in range(12 * k, 12 * k + 12) if c not in held] for k in range(3)],
         "goal_deck": [g for g in range(12) if g not in goals],
         "display": [], "goal_options": [], "placed_cell": None, "seats": seats, "rng": [1, 2, 3, 4]}
    d.update(kw)
    return d
