"""Akrotiri settings (every spec decision A-Dn with a choice, and the section-13 variants) and data.

A :class:`AkrotiriConfig` is built by :func:`make_config`; it loads the
component data of ``data/`` (copied from ``shared/data/akrotiri``) and the
per-rotation tile layouts both engines use. See ``docs/akrotiri_engine.md``.
"""
import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from simcore._settings import SEAT_SETTINGS, checked_settings, seat_settings, seat_start_check
from simcore._data import data_file, data_stamp, read_json
from simcore._schema import Any, Arr, Int, Map, Obj, Str, validate

DATA_DIR = Path(__file__).resolve().parent / "data"
PLAYERS = (2,)
SCORE_CATEGORIES = ("maps", "goals", "money")

COLOURS = ("blue", "green", "grey", "orange")
LANDMARKS = ("lake", "tree", "mountain", "volcano")   # landmark t has cube colour t (A-D4)
DECKS = ("easy", "medium", "hard")
SIDES = ("N", "E", "S", "W")
QUARTERS = ("NW", "NE", "SW", "SE")                    # local index 2*i + j
ROT_Q = (1, 3, 0, 2)                                   # one clockwise turn: NW->NE, NE->SE, SW->NW, SE->SW
GOAL_KEYS = ("transport_1", "transport_2", "three_landmarks", "no_landmark", "quadrants",
             "largest_complete_island", "isolated", "incomplete_island", "volcano_island",
             "mountain_island", "lake_island", "tree_island")
MARKET_VALUES = (1, 2, 2, 3, 3, 4, 4, 5)
PURCHASE_PRICE = (0, 1, 3, 7)
LOAD_CODES = tuple(c for k in (1, 2, 3) for c in itertools.combinations_with_replacement(range(4), k))
BUY_CODES = tuple(c for k in (1, 2, 3) for c in itertools.combinations_with_replacement(range(3), k))

TURN_CAP_MAX = 32767      # the engines' turn counters are int16

# setting -> (spec decision, default, allowed values; None = checked by a function)
SETTINGS = {
    "goal_values": ("A-D33", "hu", ("hu", "en1")),
    "strategist": ("section 12", False, (True, False)),
    "action_track": ("A-D22", (3, 4, 5, 5, 6, 6), ((3, 4, 5, 5, 6, 6), (3, 4, 5, 5, 5, 5))),
    "tile_rotation": ("A-D7", True, (True, False)),
    "same_island_sail": ("A-D10", False, (True, False)),
    "turn_cap": ("A-D27", 60, None),
    # component data: "default" (the package's data/ folder) or a JSON file of the same format
    "tiles": ("A-D2, A-D3", "default", None),
    "maps": ("A-D36, A-D37", "default", None),
    "goals": ("section 11", "default", None),
    "market": ("A-D4", "default", None),
    "player_board": ("A-D22", "default", None),
    # seat compensation (issue 20): per seat, added to the starting drachmas / to the final total
    "seat_bonus": ("seat compensation", None, None),
    "seat_points": ("seat compensation", None, None),
}
DATA_FILES = ("tiles", "maps", "goals", "market", "player_board")


def _parse_value(key, value):
    default = SETTINGS[key][1]
    if isinstance(value, str):
        low = value.strip().lower()
        if isinstance(default, bool):
            if low in ("true", "1", "yes"):
                return True
            if low in ("false", "0", "no"):
                return False
        if key == "turn_cap" and low.isdigit():
            return int(low)
        if key == "action_track":
            try:
                return tuple(int(x) for x in low.strip("[]() ").split(","))
            except ValueError:
                return value
        return value.strip()
    if key == "action_track" and isinstance(value, (list, tuple)):
        return tuple(value)
    return value


# ---- the declared schema of each data file: ranges from the engine's integer widths (_state.pxd:
# card cost and points are 8-bit, logged as int8; goal points int16; a tile's land an 8-bit mask)
_QUARTER = Str("NW", "NE", "SW", "SE")
_NODE = Str()
TILES_SCHEMA = Obj(tiles=Arr(Obj(
    landmark=Str(*("lake", "tree", "mountain", "volcano")), landmark_quarter=_QUARTER,
    land=Arr(_QUARTER, 1, 4, "a tile has 1 to 4 land quarters, its landmark's among them"),
    ports=Arr(Obj(id=Str(), quarter=_QUARTER), 0, 4, "the engine keeps 4 ports a tile"),
    routes=Arr(Arr(_NODE, 2, 2), 0, 8, "the engine keeps 8 routes a tile")), 36, 36, "the rules have 36 tiles"))
_CARD_NUMBER = Int(0, 100, "map card numbers are 8-bit in the engine (and logged as int8)")
MAPS_SCHEMA = Obj(cards=Arr(Obj(
    id=Str(), deck=Str("easy", "medium", "hard"), cost=_CARD_NUMBER, points=_CARD_NUMBER,
    require=Map(Map(Int(1, 4, "a side asks for 1 to 4 of a landmark"), keys={"lake", "tree", "mountain", "volcano"}),
                keys={"N", "E", "S", "W"})), 36, 36, "the rules have 36 map cards"))
GOALS_SCHEMA = Obj(cards=Arr(Obj(key=Str(), points_by_edition=Obj(
    hu=Int(0, 100, "goal points are 16-bit; 12 goals of at most 100 keep a total in range"),
    en1=Int(0, 100, "goal points are 16-bit; 12 goals of at most 100 keep a total in range"))), 12, 12))
PLAYER_BOARD_SCHEMA = Obj(start_drachmas=Int(0, 100, "drachmas are counted in 16 bits over a game of sales"),
                          boat_capacity=Int(1, 3, "the boat has 3 holds"))
SCHEMAS = {"tiles.json": TILES_SCHEMA, "maps.json": MAPS_SCHEMA, "goals.json": GOALS_SCHEMA,
           "player_board.json": PLAYER_BOARD_SCHEMA}


def _read(name, path=None):
    """A data file: ``path``, or ``data/<name>`` when it is None or "default"; checked against its schema."""
    path = DATA_DIR / name if path in (None, "default") else Path(path)
    doc = read_json(path, name)
    if not isinstance(doc, dict):
        raise ValueError(f"{name} file {path} must hold a JSON object")
    validate(doc, SCHEMAS.get(name, Any()), path, name.removesuffix(".json"), like=DATA_DIR / name)
    return doc


def _data_path(key, value):
    return str(DATA_DIR / f"{key}.json") if value == "default" else value


def rotate_quarter(q, rot):
    for _ in range(rot):
        q = ROT_Q[q]
    return q


@dataclass(frozen=True)
class TileLayout:
    """One tile in one orientation; quarters are local indices 0..3 (NW NE SW SE)."""
    land: tuple          # local quarters that are land
    landmark: int        # landmark type 0..3
    landmark_quarter: int
    ports: tuple         # port k -> local quarter
    links: tuple         # (node, node) with nodes "N" "E" "S" "W" "C" or port index 0..3


@lru_cache(maxsize=16)
def load_data(tiles="default", maps="default", goals="default", market="default", player_board="default",
              stamp=()):
    """The component data: tiles (with the 4 rotated layouts), maps, goals, market, board.

    Each argument is "default" (the package data) or a JSON path; a bad file
    raises ValueError naming it. The engine's tables are sized for the
    rulebook's counts: 36 tiles, 36 map cards (12 per deck), the 12 goals.
    ``stamp`` (the files' :func:`~simcore._data.data_stamp`) only keys the cache.
    """
    where = {k: f"{k} file {_data_path(k, v)}" for k, v in
             dict(tiles=tiles, maps=maps, goals=goals, market=market, player_board=player_board).items()}
    tiles_doc = _read("tiles.json", tiles)
    try:
        tiles_doc = tiles_doc["tiles"]
        layouts = []
        for t in tiles_doc:
            lm = LANDMARKS.index(t["landmark"])
            if t["landmark_quarter"] not in t["land"]:
                raise ValueError(f"{where['tiles']}: tile {t.get('id')}: its landmark_quarter "
                                 f"{t['landmark_quarter']} is not one of its land quarters {t['land']}")
            port_ids = [p["id"] for p in t["ports"]]
            per_rot = []
            for rot in range(4):
                land = tuple(sorted(rotate_quarter(QUARTERS.index(q), rot) for q in t["land"]))
                ports = tuple(rotate_quarter(QUARTERS.index(p["quarter"]), rot) for p in t["ports"])

                def node(n):
                    if n in SIDES:
                        return SIDES[(SIDES.index(n) + rot) % 4]
                    if n == "C":
                        return "C"
                    return port_ids.index(n)
                links = tuple((node(a), node(b)) for a, b in t["routes"])
                per_rot.append(TileLayout(land, lm, rotate_quarter(QUARTERS.index(t["landmark_quarter"]), rot),
                                          ports, links))
            layouts.append(tuple(per_rot))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where['tiles']}: each tile needs landmark, landmark_quarter, land, ports "
                         f"(id, quarter), routes with known names ({exc})") from None
    if len(layouts) != 36 or any(len(t[0].ports) > 4 or len(t[0].links) > 8 for t in layouts):
        raise ValueError(f"{where['tiles']}: needs 36 tiles of at most 4 ports and 8 routes each")
    maps_doc = _read("maps.json", maps)
    try:
        cards = []
        for c in maps_doc["cards"]:
            req = tuple((SIDES.index(d), LANDMARKS.index(t), int(n))
                        for d in SIDES for t, n in sorted(c["require"].get(d, {}).items(),
                                                          key=lambda kv: LANDMARKS.index(kv[0])))
            cards.append({"id": c["id"], "deck": DECKS.index(c["deck"]), "cost": int(c["cost"]),
                          "points": int(c["points"]), "require": req})
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"{where['maps']}: each card needs id, deck ({'/'.join(DECKS)}), cost, points and "
                         f"require (side -> landmark -> count) ({exc})") from None
    if [sum(c["deck"] == d for c in cards) for d in range(3)] != [12, 12, 12]:
        raise ValueError(f"{where['maps']}: needs 12 cards in each deck ({', '.join(DECKS)})")
    goals_doc = _read("goals.json", goals)
    try:
        goal_cards = goals_doc["cards"]
        keys = tuple(g["key"] for g in goal_cards)
        for g in goal_cards:
            for ed in ("hu", "en1"):
                int(g["points_by_edition"][ed])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where['goals']}: each card needs key and points_by_edition (hu, en1) ({exc})") from None
    if keys != GOAL_KEYS:
        raise ValueError(f"{where['goals']}: the 12 goals must be, in order: {', '.join(GOAL_KEYS)}")
    market_doc = _read("market.json", market)
    try:
        ok = (tuple(market_doc["colours"]) == COLOURS and tuple(market_doc["square_values"]) == MARKET_VALUES
              and all(COLOURS.index(market_doc["landmark_colour"][lm]) == i for i, lm in enumerate(LANDMARKS)))
    except (KeyError, TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"{where['market']}: colours must be {', '.join(COLOURS)}, square_values "
                         f"{list(MARKET_VALUES)}, landmark_colour the colour of each landmark in that order")
    board = _read("player_board.json", player_board)
    try:
        start, capacity = int(board["start_drachmas"]), int(board["boat_capacity"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where['player_board']}: needs start_drachmas and boat_capacity ({exc})") from None
    if not 0 <= start <= 100 or not 1 <= capacity <= 3:
        raise ValueError(f"{where['player_board']}: start_drachmas 0..100 and boat_capacity 1..3, "
                         f"not {start} and {capacity}")
    return {"layouts": tuple(layouts), "cards": tuple(cards), "goals": goal_cards,
            "start_drachmas": start, "capacity": capacity}


@dataclass(frozen=True)
class AkrotiriConfig:
    """Resolved settings of an Akrotiri game (immutable, hashable)."""

    players: int = 2
    goal_values: str = "hu"
    strategist: bool = False
    action_track: tuple = (3, 4, 5, 5, 6, 6)
    tile_rotation: bool = True
    same_island_sail: bool = False
    turn_cap: int = 60
    tiles: str = "default"
    maps: str = "default"
    goals: str = "default"
    market: str = "default"
    player_board: str = "default"
    seat_bonus: tuple = ()        # one int per seat, added to the starting drachmas
    seat_points: tuple = ()       # one int per seat, added to the final total
    # every data file's (path, mtime, size): an edited file makes another config
    data_stamp: tuple = field(default=(), repr=False)
    data: dict = field(default=None, compare=False, repr=False, hash=False)

    def settings(self):
        """The settings as a JSON-serialisable dict (what a manifest records)."""
        out = {"players": self.players}
        for k in SETTINGS:
            v = getattr(self, k)
            out[k] = list(v) if isinstance(v, tuple) else v
        # the seat settings only when not all zero: run ids and baselines from before them still match
        for k in SEAT_SETTINGS:
            del out[k]
        return seat_settings(out, self)

    def goal_points(self):
        """Points per goal card (per temple, quadrant or tile) in this edition."""
        return tuple(int(g["points_by_edition"][self.goal_values]) for g in self.data["goals"])

    def data_status(self):
        """Which component data this configuration uses and whether it is assumed.

        The Thera start board (``thera.json``, assumed, A-D5) is built into both
        engines; its entry says so, as it cannot be replaced by a setting.
        """
        out = {}
        for key in DATA_FILES:
            path = _data_path(key, getattr(self, key))
            out[key] = {"file": path, "assumed": "assumed" in str(_read(f"{key}.json", path).get("status", ""))}
        out["thera"] = {"file": str(DATA_DIR / "thera.json"), "assumed": True,
                        "note": "the start board's layout is built into the engines (not a setting)"}
        return out


def _check_value(key, value, players):
    value = _parse_value(key, value)
    if key in DATA_FILES:
        value = str(value).strip()
        return value if value == "default" else data_file(key, value)
    if key == "turn_cap":
        # any positive number of turns (spec 13); the engines count turns in 16 bits
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= TURN_CAP_MAX:
            raise ValueError(f"turn_cap must be a whole number 1..{TURN_CAP_MAX:,}, not {value!r}")
    elif value not in SETTINGS[key][2]:
        raise ValueError(f"{key} must be one of {', '.join(map(str, SETTINGS[key][2]))}, not {value!r}")
    return value


def make_config(players=2, **settings):
    """Validated :class:`AkrotiriConfig`.

    Parameters
    ----------
    players : int
        Must be 2: Akrotiri is a two-player game.
    **settings
        Any of ``SETTINGS`` (see ``docs/akrotiri_engine.md``); CLI strings are converted.

    Raises
    ------
    ValueError
        Naming the bad key or value and what is allowed.
    """
    # the bonus's range depends on the start amount in the data: checked in _make (seat_start_check)
    players, kw = checked_settings("akrotiri", players, PLAYERS, settings, SETTINGS, _check_value,
                                   lambda kw: (-32768, 32767, "the engines count drachmas in 16 bits"))
    stamp = data_stamp(DATA_DIR, [kw[k] for k in DATA_FILES])
    return _make(players, tuple(sorted(kw.items())) + (("data_stamp", stamp),))


@lru_cache(maxsize=64)
def _make(players, items):
    kw = dict(items)
    data = load_data(**{k: kw[k] for k in DATA_FILES}, stamp=kw["data_stamp"])
    seat_start_check(kw["seat_bonus"], data["start_drachmas"], "drachmas")
    return AkrotiriConfig(players=players, **kw, data=data)
