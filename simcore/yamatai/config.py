"""Yamataï settings and component data.

A :class:`YamataiConfig` is built by :func:`make_config` from a player count
and keyword settings; it loads the board, building tiles, specialists and the
player board, fleet tiles and culture tokens from JSON files (package data by default, or a user's own files),
validates them and says which data is assumed (:meth:`YamataiConfig.data_status`).
See ``docs/yamatai_engine.md`` for the table of settings (every decision Y-Dn).
"""
import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from simcore._settings import SEAT_SETTINGS, checked_settings, seat_settings, seat_start_check
from simcore._data import data_file, data_stamp, read_json
from simcore._schema import Arr, Bool, Int, Map, Nullable, Obj, Str, validate

DATA_DIR = Path(__file__).resolve().parent / "data"
PLAYERS = (2, 3, 4)
SCORE_CATEGORIES = ("coins", "pp_tokens", "buildings", "specialists", "reserved", "set_aside")
COLOURS = ("bamboo", "wood", "stone", "clay", "gold")
N_TYPES = 6
MAX_SEA = 128
MAX_ISLANDS = 64
MAX_TILES = 32
N_SPECIALISTS = 18
ABILITIES = ("double_pp_tokens", "extra_transaction", "two_boats_for_gold", "building_toll",
             "share_recruit_coins", "bigger_port", "prestige_bonuses", "remove_sacred_site",
             "better_sale_prices", "extra_culture_token", "isolated_building_bonus", "trade_gold",
             "coins_three_per_pp", "token_for_gold", "edge_entries", "token_for_coins",
             "gold_for_two_boats", "none")
TRIGGERS = ("last_building", "boats", "specialists", "buildings", "round_cap")
# recruit payments: 0..5 a pair of one type, 6..25 three distinct types
PAYMENTS = tuple([(k, k) for k in range(N_TYPES)] + list(itertools.combinations(range(N_TYPES), 3)))

# setting -> (spec decision, default, allowed values; None = checked elsewhere)
SETTINGS = {
    "board": ("Y-D40", "default", ("default",)),
    "buildings": ("Y-D41", "default", ("default",)),
    "specialists": ("Y-D22", "default", ("default",)),
    "player_board": ("Y-D31", "default", ("default",)),
    "fleets": ("§9", "default", ("default",)),
    "culture_tokens": ("Y-D42", "default", ("default",)),
    "round_cap": ("Y-D37", 60, None),
    # seat compensation (issue 20): per seat, added to the starting coins / to the final total
    "seat_bonus": ("seat compensation", None, None),
    "seat_points": ("seat compensation", None, None),
}
DEFAULT_FILES = {"board": "board.json", "buildings": "buildings.json",
                 "specialists": "specialists.json", "player_board": "player_board.json",
                 "fleets": "fleets.json", "culture_tokens": "culture_tokens.json"}
# the fleet tiles' abilities, by number (the rules: what each one does is engine code)
FLEET_ABILITIES = ("none", "reserve_building", "peek_building_deck", "slide_boat", "sacred_site",
                   "swap_culture_tokens", "remove_boats", "swap_boats", "build_discount", "extra_boat")


def _read_json(path, what):
    return read_json(path, what)


# ---- the declared schema of each data file. Coins, points, supplies and hands are 16-bit in the
# engine (_state.pxd: coins, pp, supply, hand are int16_t), pieces, ports and tokens 8-bit; each
# range keeps a whole game inside them: 32 tiles x 50 points + 18 specialists x 50 + coins / 1 <
# 32,767, and coins from at most 120 rounds of sales at 20 and 1,000 at the start.
_PP = Int(0, 50, "points are counted in 16 bits: 32 tiles and 18 specialists of at most 50 keep a total "
                 "below 32,767")
_PRICE = Int(0, 20, "coins are counted in 16 bits over up to 120 rounds of trade")
_ISL = Int(0, MAX_ISLANDS - 1, f"the engine's islands are 0..{MAX_ISLANDS - 1} (a 64-bit mask)")
_SEA = Int(0, MAX_SEA - 1, f"the engine's sea spaces are 0..{MAX_SEA - 1} (a 128-bit mask)")
_BOATS = Arr(Int(0, 4, "a tile asks for at most 4 boats of a colour"), 5, 5, "one count per colour")
BOARD_SCHEMA = Obj(
    islands=Arr(Obj(id=_ISL, island_neighbours=Arr(_ISL), sea_neighbours=Arr(_SEA)), 1, MAX_ISLANDS),
    sea=Arr(Obj(id=_SEA, sea_neighbours=Arr(_SEA), island_neighbours=Arr(_ISL), edge=Bool(),
                _optional=("edge",)), 1, MAX_SEA))
BUILDINGS_SCHEMA = Obj(tiles=Arr(Obj(id=Str(), kind=Str("standard", "torii", "palace"), boat_vector=_BOATS, pp=_PP,
                                     trading_post=Bool(), _optional=("trading_post",)),
                                 5, MAX_TILES, f"the engine takes 5..{MAX_TILES} tiles"))
SPECIALISTS_SCHEMA = Obj(tiles=Arr(Obj(id=Int(0, N_SPECIALISTS - 1), name=Str(), ability=Str(*ABILITIES), pp=_PP),
                                   N_SPECIALISTS, N_SPECIALISTS, f"the rules have {N_SPECIALISTS} specialists"))
# (the tiles' count, order and abilities are checked by load_fleets, which names the spec's order)
FLEETS_SCHEMA = Obj(tiles=Arr(Obj(number=Int(1, len(FLEET_ABILITIES)), ability=Str(),
                                  boat_vector=Arr(Int(0, 2, "a fleet tile gives at most 2 boats a colour")))))
_TOKENS = Int(0, MAX_ISLANDS, "one culture token an island")
TOKENS_SCHEMA = Obj(types=Arr(Obj(id=Int(0, N_TYPES - 1), name=Str(), count=_TOKENS, mountain_tokens=_TOKENS),
                              N_TYPES, N_TYPES, f"the rules have {N_TYPES} token types"),
                    blank=Obj(count=_TOKENS, mountain_tokens=_TOKENS))
_TRADE = Obj(buy=_PRICE, sell=_PRICE)
_PER_PLAYERS = {str(p) for p in PLAYERS}
PLAYER_BOARD_SCHEMA = Obj(
    trade=Obj(bamboo=_TRADE, wood=_TRADE, stone=_TRADE, clay=_TRADE, gold=Nullable(_TRADE)),
    transactions_per_turn=Int(1, 10, "transactions a turn"), izanagi_transactions_per_turn=Int(1, 10),
    tomoe_gold_price=_TRADE, susanoo_sell_price=Map(_PRICE, keys=set(COLOURS)),
    port_capacity=Int(0, 20, "boats a port holds (8-bit counts, and a bonus on top)"),
    riu_port_bonus=Int(0, 20, "boats a port holds (8-bit counts)"),
    coins_per_pp=Int(1, 100, "coins are divided by it at the end (0 would divide by zero)"),
    fu_hsi_coins_per_pp=Int(1, 100, "coins are divided by it at the end (0 would divide by zero)"),
    setup=Obj(start_coins=Int(0, 1000, "coins are counted in 16 bits"),
              standard_buildings_per_player=Map(Int(1, MAX_ISLANDS, "one building an island"), keys=_PER_PLAYERS),
              pawns_per_player=Map(Int(1, 2, "the engine seats at most 4 pawns"), keys=_PER_PLAYERS),
              boat_supply=Obj(**{c: Int(0, 1000, "boats are counted in 16 bits") for c in COLOURS}),
              sacred_site_tokens=Int(0, MAX_ISLANDS, "at most one an island (8-bit count)")))


def _assumed(doc):
    return "assumed" in str(doc.get("status", "")).lower()


@dataclass(frozen=True)
class Board:
    path: str
    assumed: bool
    n_islands: int
    n_sea: int
    island_nbrs: tuple      # island -> island ids
    island_sea: tuple       # island -> sea ids
    sea_nbrs: tuple         # sea -> sea ids
    entries: tuple          # sea ids
    edges: tuple            # sea ids (entries included)


def load_board(path):
    doc = validate(_read_json(path, "board"), BOARD_SCHEMA, path, "board",
                   like=DATA_DIR / "board.json")
    where = f"board file {path}"
    try:
        isl, sea = doc["islands"], doc["sea"]
        ni, ns = len(isl), len(sea)
        if not 0 < ni <= MAX_ISLANDS or not 0 < ns <= MAX_SEA:
            raise ValueError(f"{where}: {ni} islands and {ns} sea spaces; the engine takes "
                             f"1..{MAX_ISLANDS} and 1..{MAX_SEA}")
        inb = tuple(tuple(int(x) for x in i["island_neighbours"]) for i in isl)
        isea = tuple(tuple(int(x) for x in i["sea_neighbours"]) for i in isl)
        snb = tuple(tuple(int(x) for x in s["sea_neighbours"]) for s in sea)
        entries = tuple(int(s["id"]) for s in sea if s.get("entry"))
        edges = tuple(int(s["id"]) for s in sea if s.get("edge"))
        if [int(i["id"]) for i in isl] != list(range(ni)) or [int(s["id"]) for s in sea] != list(range(ns)):
            raise ValueError(f"{where}: island and sea ids must be dense 0..n-1 in order")
        for s in sea:
            for i in s["island_neighbours"]:
                if not 0 <= int(i) < ni:
                    raise ValueError(f"{where}: field sea[{s['id']}].island_neighbours names island {i}; "
                                     f"the board's islands are 0..{ni - 1}")
                if int(s["id"]) not in isea[int(i)]:
                    raise ValueError(f"{where}: sea {s['id']} and island {i} disagree on adjacency")
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{where}: missing or bad field {exc}") from None
    for a, nb in enumerate(inb):
        if any(not 0 <= b < ni or a not in inb[b] for b in nb):
            raise ValueError(f"{where}: island {a} has a bad or one-way neighbour")
    for a, nb in enumerate(snb):
        if any(not 0 <= b < ns or a not in snb[b] for b in nb):
            raise ValueError(f"{where}: sea space {a} has a bad or one-way neighbour")
    if not entries:
        raise ValueError(f"{where}: no entry space")
    for a, sn in enumerate(isea):
        if any(not 0 <= b < ns for b in sn):
            raise ValueError(f"{where}: field islands[{a}].sea_neighbours names a sea space beyond 0..{ns - 1}")
    return Board(str(path), _assumed(doc), ni, ns, inb, isea, snb, entries, edges)


@dataclass(frozen=True)
class Tile:
    name: str
    kind: int          # 0 standard, 1 torii, 2 palace
    boats: tuple       # per colour
    pp: int
    trading_post: bool


def load_buildings(path):
    doc = validate(_read_json(path, "buildings"), BUILDINGS_SCHEMA, path, "buildings",
                   like=DATA_DIR / "buildings.json")
    where = f"buildings file {path}"
    kinds = {"standard": 0, "torii": 1, "palace": 2}
    try:
        tiles = tuple(Tile(str(t["id"]), kinds[t["kind"]], tuple(int(x) for x in t["boat_vector"]),
                           int(t["pp"]), bool(t.get("trading_post", False))) for t in doc["tiles"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: each tile needs id, kind (standard/torii/palace), boat_vector, pp ({exc})") from None
    if not 5 <= len(tiles) <= MAX_TILES:
        raise ValueError(f"{where}: {len(tiles)} tiles; the engine takes 5..{MAX_TILES}")
    for t in tiles:
        if len(t.boats) != 5 or any(not 0 <= b <= 4 for b in t.boats):
            raise ValueError(f"{where}: tile {t.name} needs 5 boat counts of 0..4")
    return tiles, _assumed(doc)


def load_specialists(path):
    doc = validate(_read_json(path, "specialists"), SPECIALISTS_SCHEMA, path, "specialists",
                   like=DATA_DIR / "specialists.json")
    where = f"specialists file {path}"
    try:
        tiles = sorted(doc["tiles"], key=lambda t: int(t["id"]))
        abilities = tuple(t["ability"] for t in tiles)
        names = tuple(str(t["name"]) for t in tiles)
        pp = tuple(int(t["pp"]) for t in tiles)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: each specialist needs id, name, ability, pp ({exc})") from None
    if abilities != ABILITIES:
        raise ValueError(f"{where}: the 18 specialists must have ids 0..17 with the abilities "
                         f"in the spec's order ({', '.join(ABILITIES)})")
    return names, pp, _assumed(doc)


def load_fleets(path):
    """Boats of fleet tiles 1..10 (one count per colour each), checked against the abilities."""
    doc = validate(_read_json(path, "fleets"), FLEETS_SCHEMA, path, "fleets",
                   like=DATA_DIR / "fleets.json")
    where = f"fleets file {path}"
    try:
        tiles = sorted(doc["tiles"], key=lambda t: int(t["number"]))
        numbers = [int(t["number"]) for t in tiles]
        abilities = tuple(str(t["ability"]) for t in tiles)
        boats = tuple(tuple(int(x) for x in t["boat_vector"]) for t in tiles)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: each tile needs number, ability, boat_vector ({exc})") from None
    if numbers != list(range(1, len(FLEET_ABILITIES) + 1)) or abilities != FLEET_ABILITIES:
        raise ValueError(f"{where}: the tiles must be numbered 1..{len(FLEET_ABILITIES)} with the abilities "
                         f"in the spec's order ({', '.join(FLEET_ABILITIES)})")
    for n, b in zip(numbers, boats):
        if len(b) != len(COLOURS) or any(not 0 <= x <= 2 for x in b) or sum(b) == 0:
            raise ValueError(f"{where}: fleet {n} needs {len(COLOURS)} boat counts of 0..2, at least one boat")
    return boats, _assumed(doc)


def load_culture_tokens(path):
    """The culture-token bag in its unshuffled order: ``((type or -1, mountain), ...)``, and the type names.

    Types in id order, each ``count`` tokens of which the first
    ``mountain_tokens`` have the border calling a mountain tile, then the
    blank tokens the same way (the order the set-up shuffle starts from).
    """
    doc = validate(_read_json(path, "culture tokens"), TOKENS_SCHEMA, path, "culture tokens",
                   like=DATA_DIR / "culture_tokens.json")
    where = f"culture tokens file {path}"
    try:
        types = sorted(doc["types"], key=lambda t: int(t["id"]))
        groups = [(int(t["id"]), int(t["count"]), int(t["mountain_tokens"])) for t in types]
        groups.append((-1, int(doc["blank"]["count"]), int(doc["blank"]["mountain_tokens"])))
        names = tuple(str(t["name"]) for t in types)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: needs types (id, name, count, mountain_tokens) and blank "
                         f"(count, mountain_tokens) ({exc})") from None
    if [g[0] for g in groups[:-1]] != list(range(N_TYPES)):
        raise ValueError(f"{where}: the rules have {N_TYPES} token types, ids 0..{N_TYPES - 1}")
    bag = []
    for k, count, mountains in groups:
        if not 0 <= mountains <= count:
            what = "blank" if k < 0 else f"type {k}"
            raise ValueError(f"{where}: {what} has {count} tokens and {mountains} mountain tokens")
        bag += [(k, int(j < mountains)) for j in range(count)]
    return tuple(bag), names, _assumed(doc)


def default_token_names():
    """Names of the culture-token types in the package data (placeholders, Y-D42)."""
    return load_culture_tokens(DATA_DIR / DEFAULT_FILES["culture_tokens"])[1]


@dataclass(frozen=True)
class YamataiConfig:
    """Resolved settings and component data of a Yamataï game (immutable, hashable)."""

    players: int
    board: str = "default"
    buildings: str = "default"
    specialists: str = "default"
    player_board: str = "default"
    fleets: str = "default"
    culture_tokens: str = "default"
    round_cap: int = 60
    seat_bonus: tuple = ()        # one int per seat, added to the starting coins
    seat_points: tuple = ()       # one int per seat, added to the final total
    # every data file's (path, mtime, size): an edited file makes another config
    data_stamp: tuple = field(default=(), repr=False)
    board_data: Board = field(default=None, compare=False, repr=False)
    tiles: tuple = field(default=None, compare=False, repr=False)
    spec_names: tuple = field(default=None, compare=False, repr=False)
    spec_pp: tuple = field(default=None, compare=False, repr=False)
    pb: dict = field(default=None, compare=False, repr=False, hash=False)
    fleet_boats: tuple = field(default=None, compare=False, repr=False)   # fleet n -> boats per colour
    token_bag: tuple = field(default=None, compare=False, repr=False)     # (type or -1, mountain) unshuffled
    token_names: tuple = field(default=None, compare=False, repr=False)
    assumed: dict = field(default=None, compare=False, repr=False, hash=False)

    def settings(self):
        """The settings as a JSON-serialisable dict (what a manifest records)."""
        # the seat settings only when not all zero: run ids and baselines from before them still match
        return seat_settings({"players": self.players, **{k: getattr(self, k) for k in SETTINGS
                                                          if k not in SEAT_SETTINGS}}, self)

    # player-board numbers
    def buy_price(self, c):
        if c == 4:
            return int(self.pb["tomoe_gold_price"]["buy"])
        return int(self.pb["trade"][COLOURS[c]]["buy"])

    def sell_price(self, c, susanoo=False):
        if c == 4:
            return int(self.pb["tomoe_gold_price"]["sell"])
        if susanoo and COLOURS[c] in self.pb["susanoo_sell_price"]:
            return int(self.pb["susanoo_sell_price"][COLOURS[c]])
        return int(self.pb["trade"][COLOURS[c]]["sell"])

    @property
    def supply_boats(self):
        return tuple(int(self.pb["setup"]["boat_supply"][c]) for c in COLOURS)

    @property
    def pieces(self):
        return int(self.pb["setup"]["standard_buildings_per_player"][str(self.players)])

    @property
    def pawns(self):
        return self.players * int(self.pb["setup"]["pawns_per_player"][str(self.players)])

    def data_status(self):
        """Which component data this configuration uses and whether it is assumed."""
        return {k: {"file": str(self._path(k)), "assumed": self.assumed[k]} for k in DEFAULT_FILES}

    def _path(self, key):
        v = getattr(self, key)
        return DATA_DIR / DEFAULT_FILES[key] if v == "default" else Path(v)


@lru_cache(maxsize=32)
def _make(players, items):
    kw = dict(items)
    cfg = YamataiConfig(players=players, **kw)
    board = load_board(cfg._path("board"))
    tiles, t_assumed = load_buildings(cfg._path("buildings"))
    names, pp, s_assumed = load_specialists(cfg._path("specialists"))
    pb = validate(_read_json(cfg._path("player_board"), "player board"), PLAYER_BOARD_SCHEMA,
                  cfg._path("player_board"), "player board", like=DATA_DIR / "player_board.json")
    try:
        for c in COLOURS[:4]:
            int(pb["trade"][c]["buy"]), int(pb["trade"][c]["sell"])
        pb["setup"]["boat_supply"], pb["setup"]["standard_buildings_per_player"][str(players)]
        int(pb["setup"]["start_coins"]), int(pb["port_capacity"]), int(pb["riu_port_bonus"])
        int(pb["transactions_per_turn"]), int(pb["izanagi_transactions_per_turn"])
        int(pb["setup"]["sacred_site_tokens"]), pb["tomoe_gold_price"]["buy"]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"player board file {cfg._path('player_board')}: missing or bad {exc}") from None
    seat_start_check(kw["seat_bonus"], int(pb["setup"]["start_coins"]), "coins")
    if players * int(pb["setup"]["pawns_per_player"][str(players)]) > 4:
        raise ValueError(f"player board file {cfg._path('player_board')}: field setup.pawns_per_player.{players} "
                         f"gives {players} players more than the engine's 4 pawns")
    fleet_boats, f_assumed = load_fleets(cfg._path("fleets"))
    bag, token_names, c_assumed = load_culture_tokens(cfg._path("culture_tokens"))
    if board.n_islands != len(bag):
        raise ValueError(f"the board has {board.n_islands} islands but there are {len(bag)} culture tokens "
                         f"({cfg._path('board')}, {cfg._path('culture_tokens')})")
    assumed = {"board": board.assumed, "buildings": t_assumed, "specialists": s_assumed,
               "player_board": _assumed(pb), "fleets": f_assumed, "culture_tokens": c_assumed}
    return YamataiConfig(players=players, **kw, board_data=board, tiles=tiles, spec_names=names,
                         spec_pp=pp, pb=pb, fleet_boats=fleet_boats, token_bag=bag, token_names=token_names,
                         assumed=assumed)


def _check_value(key, value, players):
    if key == "round_cap":
        try:
            value = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"round_cap must be a whole number, not {value!r}") from None
        if not 1 <= value <= 120:
            raise ValueError(f"round_cap must be 1..120, not {value}")
        return value
    value = str(value).strip()
    return value if value == "default" else data_file(key, value)


def make_config(players=3, **settings):
    """Validated :class:`YamataiConfig` for ``players`` with the given settings.

    Parameters
    ----------
    players : int
        2, 3 or 4.
    **settings
        Any of ``SETTINGS`` (see ``docs/yamatai_engine.md``): ``board``,
        ``buildings``, ``specialists``, ``player_board``, ``fleets``,
        ``culture_tokens`` (``default`` or a JSON path) and ``round_cap``.

    Raises
    ------
    ValueError
        Naming the bad key or value and what is allowed.
    """
    # the bonus's range depends on the start amount in the player-board file: checked in _make
    # (seat_start_check)
    players, kw = checked_settings("yamatai", players, PLAYERS, settings, SETTINGS, _check_value,
                                   lambda kw: (-32768, 32767, "the engines count coins in 16 bits"))
    stamp = data_stamp(DATA_DIR, [kw[k] for k in DEFAULT_FILES])
    return _make(players, tuple(sorted(kw.items())) + (("data_stamp", stamp),))
