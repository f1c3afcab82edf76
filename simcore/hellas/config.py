"""Hellas settings: every spec decision H-Dn as a named setting, and the component data.

A :class:`HellasConfig` is built by :func:`make_config` from a player count and
keyword settings; it loads the board, action display and quarry tiles from
JSON files (package data by default, or a user's own files), validates them,
and says which data is assumed (:meth:`HellasConfig.data_status`).
See ``docs/hellas_engine.md`` for the table of settings.
"""
import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from simcore._settings import SEAT_POINTS_MAX, SEAT_SETTINGS, checked_settings, seat_settings
from simcore._data import data_file, data_stamp, read_json
from simcore._schema import Arr, Bool, Int, Map, Obj, Str, validate

DATA_DIR = Path(__file__).resolve().parent / "data"
PLAYERS = (2, 3, 4)
SCORE_CATEGORIES = ("city", "monuments", "temples", "rings", "marble")

MAX_FIELDS = 127        # the kernel keeps field id 127 free as its "no field" (padding of neighbour lists)
MAX_NEIGHBOURS = 8
MAX_TEMPLES = 8
MAX_SPACES = 16
MAX_COLUMNS = 6
MAX_SPLITS = 210
MAX_TILES = 64

SPACE_KINDS = ("house", "house_or_agora", "palace", "quarry", "temple", "monument", "three_marble")

# setting -> (spec decision, default, allowed values; None = free-form checked elsewhere)
SETTINGS = {
    "board": ("H-D3", "auto", ("auto", "minotaur", "pegasus")),
    "action_display": ("H-D1", "standard", ("standard", "wide")),
    "quarry_yields": ("H-D2", "rising", ("rising", "falling")),
    "start_player": ("H-D4", 0, ("random",)),
    "no_temple_start": ("H-D5", "unchanged", ("unchanged", "next_seat")),
    "ring_bonus_none": ("H-D6", "nobody", ("nobody", "all_tied")),
    "set_aside_counts": ("H-D7", True, (True, False)),
    "double_quarry_yield": ("H-D12", "each", ("each", "once")),
    "closed_quarry": ("H-D13", "occupied", ("occupied", "reopens")),
    "city_links": ("H-D11", "any", ("any", "no_agora_chains")),
    # seat compensation (issue 20): per seat, added to the starting marble / to the final total
    "seat_bonus": ("seat compensation", None, None),
    "seat_points": ("seat compensation", None, None),
}


def _parse_value(key, value):
    """Turn a CLI string (``--variant key=value``) into the setting's type."""
    default = SETTINGS[key][1]
    if isinstance(value, str):
        low = value.strip().lower()
        if isinstance(default, bool):
            if low in ("true", "1", "yes"):
                return True
            if low in ("false", "0", "no"):
                return False
        if key == "start_player" and low.isdigit():
            return int(low)
        return value.strip()
    return value


def _read_json(path, what):
    return read_json(path, what)


# ---- the declared schema of each data file: ranges from the engine's integer widths (_state.pxd)
_FIELD_ID = Int(0, MAX_FIELDS - 1, f"field ids are 8-bit, {MAX_FIELDS} kept free")
BOARD_SCHEMA = Obj(fields=Arr(Obj(
    id=_FIELD_ID, kind=Str("building", "quarry", "temple"), coast=Bool(),
    neighbors=Arr(_FIELD_ID),             # (how many, and whether both ways: load_board)
    temple_size=Int(1, 20, "a temple's columns; the rules' largest has 8"), _optional=("temple_size",)),
    ))                                    # (how many: load_board)
TILES_SCHEMA = Obj(tiles=Arr(Obj(number=Int(1, 255, "tile numbers are 8-bit"),
                                 marble=Int(0, 100, "marble is counted in 16 bits over a game's 40 tiles")),
                             7, MAX_TILES, f"the engine takes 7 to {MAX_TILES} tiles"))
_COST = Int(0, 100, "marble is counted in 16 bits")
_COUNT = Int(0, 100, "pieces and cubes are counted in 8 bits")
ACTIONS_SCHEMA = Obj(
    spaces=Arr(Obj(id=Int(0, MAX_SPACES - 1), action=Str()), 1, MAX_SPACES),
    costs=Obj(house=Obj(coast=_COST, inland=_COST), agora=Obj(coast=_COST, inland=_COST),
              palace=Obj(coast=_COST, inland=_COST), monument=Obj(inland=_COST)),
    cubes_per_player=Map(Arr(Int(0, MAX_SPACES, "cubes placed on the action spaces"), 3, 3)),
    start_marble=Int(0, 1000, "marble is counted in 16 bits"),
    pieces_per_player=Obj(house=_COUNT, agora=_COUNT, palace=_COUNT),
    supply=Obj(columns=_COUNT, rings=_COUNT, monuments=_COUNT))


def _is_assumed(doc):
    status = str(doc.get("status", "")).lower()
    return "assumed" in status


@dataclass(frozen=True)
class Board:
    name: str
    path: str
    assumed: bool
    coast: tuple          # per field: bool
    kind: tuple           # per field: "building" | "quarry" | "temple"
    neighbors: tuple      # per field: tuple of field ids
    temple_fields: tuple  # ascending field ids
    temple_sizes: tuple


@dataclass(frozen=True)
class Tiles:
    path: str
    assumed: bool
    numbers: tuple        # in file order
    yields: dict          # number -> marble


def load_board(spec):
    """Load and check a board: ``minotaur``, ``pegasus`` or a path to a board JSON."""
    path = DATA_DIR / f"board_{spec}.json" if spec in ("minotaur", "pegasus") else Path(spec)
    doc = _read_json(path, "board")
    where = f"board file {path}"
    fl = doc.get("fields") if isinstance(doc, dict) else None
    if isinstance(fl, list) and not 0 < len(fl) <= MAX_FIELDS:
        raise ValueError(f"{where}: {len(fl)} fields; the engine takes 1 to {MAX_FIELDS}")
    validate(doc, BOARD_SCHEMA, path, "board", like=DATA_DIR / "board_minotaur.json")
    try:
        fields = doc["fields"]
    except (KeyError, TypeError):
        raise ValueError(f"{where}: missing 'fields' list") from None
    n = len(fields)
    if not 0 < n <= MAX_FIELDS:
        raise ValueError(f"{where}: {n} fields; the engine takes 1 to {MAX_FIELDS}")
    kind, coast, nbrs, sizes = [None] * n, [None] * n, [None] * n, {}
    for i, f in enumerate(fields):
        try:
            fid = int(f["id"])
            k = f["kind"]
            c = bool(f["coast"])
            nb = tuple(int(x) for x in f["neighbors"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}: field #{i} lacks id/kind/coast/neighbors ({exc})") from None
        if fid != i:
            raise ValueError(f"{where}: field ids must be 0..{n - 1} in order (found {fid} at #{i})")
        if k not in ("building", "quarry", "temple"):
            raise ValueError(f"{where}: field {fid} has unknown kind '{k}' (building, quarry, temple)")
        if any(not 0 <= x < n or x == fid for x in nb) or len(set(nb)) != len(nb):
            raise ValueError(f"{where}: field {fid} has a bad or repeated neighbour in {list(nb)}")
        if len(nb) > MAX_NEIGHBOURS:
            raise ValueError(f"{where}: field {fid} has {len(nb)} neighbours; the engine takes at most {MAX_NEIGHBOURS}")
        kind[i], coast[i], nbrs[i] = k, c, nb
        if k == "temple":
            try:
                sizes[fid] = int(f["temple_size"])
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{where}: temple field {fid} lacks temple_size") from None
    for i in range(n):
        for j in nbrs[i]:
            if i not in nbrs[j]:
                raise ValueError(f"{where}: field {i} lists {j} as neighbour but not the reverse")
    temples = tuple(sorted(sizes))
    if not 0 < len(temples) <= MAX_TEMPLES:
        raise ValueError(f"{where}: {len(temples)} temples; the engine takes 1 to {MAX_TEMPLES}")
    if sum(1 for i in range(n) if kind[i] == "quarry" and coast[i]) < 3:
        raise ValueError(f"{where}: needs at least 3 coastal quarry fields for the set-up")
    return Board(name=str(doc.get("name", path.stem)), path=str(path), assumed=_is_assumed(doc),
                 coast=tuple(coast), kind=tuple(kind), neighbors=tuple(nbrs),
                 temple_fields=temples, temple_sizes=tuple(sizes[t] for t in temples))


def load_tiles(spec):
    """Load and check quarry tiles: ``rising``, ``falling`` or a path to a tile JSON."""
    names = {"rising": "quarry_tiles.json", "falling": "quarry_tiles_falling.json"}
    path = DATA_DIR / names[spec] if spec in names else Path(spec)
    doc = validate(_read_json(path, "quarry tile"), TILES_SCHEMA, path, "quarry tile",
                   like=DATA_DIR / "quarry_tiles.json")
    where = f"quarry tile file {path}"
    try:
        tiles = [(int(t["number"]), int(t["marble"])) for t in doc["tiles"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: each tile needs an integer 'number' and 'marble' ({exc})") from None
    numbers = [t[0] for t in tiles]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"{where}: tile numbers must all differ")
    if not 7 <= len(tiles) <= MAX_TILES:
        raise ValueError(f"{where}: {len(tiles)} tiles; the engine takes 7 to {MAX_TILES}")
    if any(not 1 <= num <= 255 for num in numbers) or any(not 0 <= m <= 100 for _, m in tiles):
        raise ValueError(f"{where}: numbers must be 1..255 and marble 0..100")
    return Tiles(path=str(path), assumed=_is_assumed(doc), numbers=tuple(numbers), yields=dict(tiles))


def column_splits(columns, n_temples):
    """All ways to split ``columns`` over ``n_temples`` temples, in the contract's order."""
    return [x for x in itertools.product(range(columns + 1), repeat=n_temples) if sum(x) == columns]


@dataclass(frozen=True)
class HellasConfig:
    """Resolved settings and component data of a Hellas game (immutable, hashable)."""

    players: int
    board: str = "auto"
    action_display: str = "standard"
    quarry_yields: str = "rising"
    start_player: object = 0
    no_temple_start: str = "unchanged"
    ring_bonus_none: str = "nobody"
    set_aside_counts: bool = True
    double_quarry_yield: str = "each"
    closed_quarry: str = "occupied"
    city_links: str = "any"
    seat_bonus: tuple = ()        # one int per seat, added to the starting marble
    seat_points: tuple = ()       # one int per seat, added to the final total
    # every data file's (path, mtime, size): an edited file makes another config
    data_stamp: tuple = field(default=(), repr=False)
    # loaded data (not settings)
    board_data: Board = field(default=None, compare=False, repr=False)
    tiles: Tiles = field(default=None, compare=False, repr=False)
    actions: dict = field(default=None, compare=False, repr=False, hash=False)

    def settings(self):
        """The settings as a JSON-serialisable dict (what a manifest records)."""
        # the seat settings only when not all zero: run ids and baselines from before them still match
        return seat_settings({"players": self.players, **{k: getattr(self, k) for k in SETTINGS
                                                          if k not in SEAT_SETTINGS}}, self)

    @property
    def board_name(self):
        return self.board_data.name

    @property
    def spaces(self):
        """The action spaces in use: list of dicts from ``actions.json``."""
        spaces = list(self.actions["spaces"])
        if self.action_display == "wide":
            spaces += self.actions["variants"]["wide"]["extra_spaces"]
        return spaces

    def data_status(self):
        """Which component data this configuration uses and whether it is assumed."""
        return {
            "board": {"file": self.board_data.path, "name": self.board_data.name,
                      "assumed": self.board_data.assumed},
            "quarry_tiles": {"file": self.tiles.path, "assumed": self.tiles.assumed},
            "actions": {"file": str(DATA_DIR / "actions.json"), "assumed": True,
                        "display": self.action_display,
                        "note": self.actions.get("status", "")},
        }

    def cubes(self):
        return tuple(int(c) for c in self.actions["cubes_per_player"][str(self.players)])

    def splits(self):
        """Column count -> list of split vectors (temples in ascending field order)."""
        t = len(self.board_data.temple_fields)
        counts = sorted({int(s["columns"]) for s in self.spaces if s["action"] == "temple"})
        return {c: column_splits(c, t) for c in counts}


def _check_actions(doc, players):
    where = f"action file {DATA_DIR / 'actions.json'}"
    try:
        spaces = doc["spaces"]
        cubes = doc["cubes_per_player"][str(players)]
        doc["costs"]["house"]["coast"], doc["costs"]["palace"]["inland"], doc["costs"]["monument"]["inland"]
        doc["start_marble"], doc["pieces_per_player"]["house"], doc["supply"]["columns"]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{where}: missing key {exc}") from None
    if len(cubes) != 3:
        raise ValueError(f"{where}: cubes_per_player[{players}] must list 3 rounds")
    for s in spaces:
        if s.get("action") not in SPACE_KINDS:
            raise ValueError(f"{where}: space {s.get('id')} has unknown action '{s.get('action')}'")


@lru_cache(maxsize=64)
def _make(players, items):
    kw = dict(items)
    board_spec = kw["board"]
    if board_spec == "auto":
        board_spec = "pegasus" if players == 2 else "minotaur"
    actions = validate(_read_json(DATA_DIR / "actions.json", "action"), ACTIONS_SCHEMA,
                       DATA_DIR / "actions.json", "action")
    _check_actions(actions, players)
    cfg = HellasConfig(players=players, **kw, board_data=load_board(board_spec),
                       tiles=load_tiles(kw["quarry_yields"]), actions=actions)
    spaces = cfg.spaces
    if len(spaces) > MAX_SPACES or [int(s["id"]) for s in spaces] != list(range(len(spaces))):
        raise ValueError(f"action display '{cfg.action_display}': space ids must be 0..n-1, n <= {MAX_SPACES}")
    per_round = [c * players for c in cfg.cubes()]
    if max(per_round) > len(spaces):
        raise ValueError(f"{players} players place {max(per_round)} cubes in a round but only "
                         f"{len(spaces)} action spaces exist")
    for c, splits in cfg.splits().items():
        if c > MAX_COLUMNS or len(splits) > MAX_SPLITS:
            raise ValueError(f"a temple space gives {c} columns over {len(cfg.board_data.temple_fields)} "
                             f"temples: too many splits for the engine")
    return cfg


def _check_value(key, value, players):
    value = _parse_value(key, value)
    allowed = SETTINGS[key][2]
    if key == "start_player" and isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < players:
            raise ValueError(f"start_player must be 'random' or a seat 0..{players - 1}, not {value}")
    elif key in ("board", "quarry_yields") and value not in allowed:
        value = data_file(key, value, allowed)
    elif value not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(map(str, allowed))}, not {value!r}")
    return value


def _bonus_range(kw):
    start = int(_read_json(DATA_DIR / "actions.json", "action")["start_marble"]) if kw["seat_bonus"] else 0
    return -start, SEAT_POINTS_MAX, f"no seat starts below 0 marble, the rules give {start}"


def make_config(players=3, **settings):
    """Validated :class:`HellasConfig` for ``players`` with the given settings.

    Parameters
    ----------
    players : int
        2, 3 or 4.
    **settings
        Any of ``SETTINGS`` (see ``docs/hellas_engine.md``). String values as
        given on a command line are converted (``set_aside_counts=false``).

    Raises
    ------
    ValueError
        Naming the bad key or value and what is allowed.
    """
    players, kw = checked_settings("hellas", players, PLAYERS, settings, SETTINGS, _check_value, _bonus_range)
    stamp = data_stamp(DATA_DIR, [kw[k] for k in ("board", "quarry_yields")])
    return _make(players, tuple(sorted(kw.items())) + (("data_stamp", stamp),))
