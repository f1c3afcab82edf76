"""Hellas in plain Python: the reference engine and the executable rules.

This module states the rules of ``rules/hellas.md`` (the spec) as readably as
possible, cut into decisions exactly as ``docs/hellas_engine.md`` (the
contract) says, so the Cython engine (``simcore/hellas/_engine.pyx``) can be
checked against it step by step. It imports no Cython module. Component data
(board, action display, quarry tiles, costs, cubes, supply) is read from the
JSON files in ``data/``; nothing of it is written here.

Spec decisions implemented, and where
--------------------------------------
- H-D1  action display: ``load_settings`` (``action_display``: ``standard``
        = the 13 spaces of ``actions.json``, ``wide`` adds its
        ``variants.wide.extra_spaces``); ``RefState._start_action``.
- H-D2  quarry tiles: ``load_settings`` (``quarry_yields``: ``rising`` /
        ``falling`` / a tile JSON path); ``tile_yield``.
- H-D3  boards: ``load_settings`` (``board``: ``auto`` / ``minotaur`` /
        ``pegasus`` / a board JSON path); coast and adjacency from the file.
- H-D4  set-up choices: ``RefState.new`` (tile shuffle, three coastal
        quarries, worker, in the contract's draw order; the start player is
        seat 0 by default, drawn last only with ``start_player = "random"``).
- H-D5  start player when nobody took a temple space: ``RefState._end_round``
        (``no_temple_start``: ``unchanged`` / ``next_seat``).
- H-D6  ring bonus when nobody has a ring: ``ring_points``
        (``ring_bonus_none``: ``nobody`` / ``all_tied``).
- H-D7  worker leaving the board, set-aside tiles, empty stack:
        ``RefState._open_new_quarry``, ``RefState._tile_phase``,
        ``RefState._tiles_counted`` (``set_aside_counts``).
- H-D8  supply: marble unlimited; columns, rings and monuments limited by
        ``actions.json`` ``supply``: ``RefState._temple_possible``,
        ``RefState._carry_out_temple``, ``RefState._monument_fields``.
- H-D9  marble is public: it is simply part of the position.
- H-D11 cities: ``groups``, ``cities`` (``city_links``: ``any`` /
        ``no_agora_chains``).
- H-D12 a house next to two active quarries: ``quarry_income``
        (``double_quarry_yield``: ``each`` / ``once``).
- H-D13 closed quarry field: ``RefState._empty_quarry_fields``
        (``closed_quarry``: ``occupied`` / ``reopens``).

Readings of the contract where it is silent (the Cython engine must match)
--------------------------------------------------------------------------
- ``double_quarry_yield = once``: the docs say "only the higher top" and "at
  its best adjacent quarry"; we read both as the adjacent active quarry whose
  top tile yields the most marble (with ``rising`` yields this is also the
  higher number; with ``falling`` it is not).
- ``closed_quarry = reopens``: the field that just closed is already empty when
  the worker moves in the same quarry action, so it is a legal worker field.
- ``revealed`` holds every tile revealed in the current quarry action, the
  pending ``tile`` and set-aside tiles included; it is emptied when the quarry
  action ends. With ``set_aside_counts = false`` the tiles counted towards the
  four are the revealed tiles that are not in ``set_aside``.
- Rings: a temple action takes one ring plus one per completed temple, each
  only while the ring supply lasts (with H-D1 it never runs out). Temple
  entry needs the cost in marble, the columns in the supply and a fitting
  split; the ring supply is not a condition.
- While the worker is being moved (``worker_move``) it is in the active
  player's hand: ``worker`` is null (``from_dict`` also accepts the field of
  the quarry it just opened).
- When the game is over: ``round`` = 3, ``start_player`` as the last round's
  end set it, ``active``/``space``/``tile`` null; ``turn_seat``,
  ``spaces_used``, ``cubes_left`` (all 0) and ``temple_marker`` stay as the
  last round left them.
- ``config`` in the position dictionary holds the settings as given, checked
  and normalised: ``board`` may be ``auto``; a board or tile path is made
  absolute; ``start_player`` is an int or ``random``; ``set_aside_counts``
  a bool. Monuments are pieces with ``owner`` null; ``monuments_built``
  counts them per builder seat.
- ``build_turn`` is the list of seats (from the active seat clockwise) that
  finished their build turn; ``from_dict`` also reads it as a count.
  ``revealed`` is a list of tiles; ``from_dict`` also reads it as a count
  (the tiles then come from the pending ``quarry_log`` entry).
- ``quarry_log`` entries are created when the quarry action starts (after the
  income) and filled in as its tiles go; a pending entry is part of the
  position dictionary. ``dest`` says ``"new"`` for a tile that opened a
  quarry (the field is in ``opened``) and ``"set_aside"`` for a set-aside
  tile; ``tiles`` lists every tile revealed, more than four when set-aside
  tiles do not count.
- ``transcript`` entries have the Cython engine's shape (``kind`` setup /
  decision / forced / reveal / end) so ``replay`` can check its transcripts.

Examples
--------
>>> from simcore.hellas import reference as ref
>>> st = ref.RefState.new(players=3, seed=7)
>>> st.phase
'choose_space'
>>> while not st.is_over():
...     st.apply(st.legal_actions()[0])
>>> sorted(st.scores())
['city', 'marble', 'monuments', 'rings', 'temples', 'total']
"""
import copy
import itertools
import os
from pathlib import Path

from simcore.rng import Xoshiro256

DATA = Path(__file__).resolve().parent / "data"

ROUNDS = 3
PASS = 16
FIELD0 = 17
SPLIT0 = 145
MAX_FIELDS = 128

PHASES = ("choose_space", "build_house", "build_agora", "build_palace",
          "monument", "temple", "quarry_place", "worker_move", "over")
PIECE_KINDS = ("house", "agora", "palace", "monument")

DEFAULTS = {
    "board": "auto",
    "action_display": "standard",
    "quarry_yields": "rising",
    "start_player": 0,
    "no_temple_start": "unchanged",
    "ring_bonus_none": "nobody",
    "set_aside_counts": True,
    "double_quarry_yield": "each",
    "closed_quarry": "occupied",
    "city_links": "any",
    "seat_bonus": None,         # per seat: marble added to the start (issue 20); None = all 0
    "seat_points": None,        # per seat: points added to the final total
}
CHOICES = {
    "board": ("auto", "minotaur", "pegasus", "a path to a board JSON"),
    "action_display": ("standard", "wide"),
    "quarry_yields": ("rising", "falling", "a path to a tile JSON"),
    "start_player": ("a seat number 0..players-1", "random"),
    "no_temple_start": ("unchanged", "next_seat"),
    "ring_bonus_none": ("nobody", "all_tied"),
    "set_aside_counts": (True, False),
    "double_quarry_yield": ("each", "once"),
    "closed_quarry": ("occupied", "reopens"),
    "city_links": ("any", "no_agora_chains"),
    "seat_bonus": ("one whole number per seat, the start marble + it >= 0",),
    "seat_points": ("one whole number per seat, -100..100",),
}


# ----------------------------------------------------------------- settings

def _bad(key, value):
    allowed = ", ".join(str(c) for c in CHOICES[key])
    return ValueError(f"bad hellas setting {key}={value!r} (allowed: {allowed})")


def _read_json(path, key):
    from simcore._data import read_json
    return read_json(path, f"hellas setting {key}")


def _load_board(value, players):
    name = ("pegasus" if players == 2 else "minotaur") if value == "auto" else value
    if name in ("minotaur", "pegasus"):
        data = _read_json(DATA / f"board_{name}.json", "board")
    elif isinstance(value, (str, os.PathLike)) and os.path.isfile(value):
        value = str(Path(value).resolve())
        data = _read_json(value, "board")
    else:
        raise _bad("board", value)
    fields = {}
    try:
        for f in data["fields"]:
            fid = int(f["id"])
            if not 0 <= fid < MAX_FIELDS or fid in fields:
                raise ValueError(f"field id {fid} repeated or outside 0..{MAX_FIELDS - 1}")
            if f["kind"] not in ("building", "quarry", "temple"):
                raise ValueError(f"field {fid} has unknown kind {f['kind']!r}")
            fields[fid] = {
                "kind": f["kind"],
                "coast": bool(f["coast"]),
                "neighbors": tuple(sorted(int(n) for n in f["neighbors"])),
                "temple_size": int(f["temple_size"]) if f["kind"] == "temple" else 0,
            }
        for fid, f in fields.items():
            for n in f["neighbors"]:
                if n not in fields or fid not in fields[n]["neighbors"]:
                    raise ValueError(f"field {fid} lists neighbour {n}, which does not list it back")
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"bad hellas setting board={value!r}: malformed board ({exc})") from None
    if sum(1 for f in fields.values() if f["kind"] == "quarry" and f["coast"]) < 3:
        raise ValueError(f"bad hellas setting board={value!r}: fewer than 3 coastal quarry fields")
    return value, data.get("name", Path(str(name)).stem), fields


def _load_tiles(value):
    if value in ("rising", "falling"):
        name = "quarry_tiles.json" if value == "rising" else "quarry_tiles_falling.json"
        data = _read_json(DATA / name, "quarry_yields")
    elif isinstance(value, (str, os.PathLike)) and os.path.isfile(value):
        value = str(Path(value).resolve())
        data = _read_json(value, "quarry_yields")
    else:
        raise _bad("quarry_yields", value)
    try:
        tiles = [(int(t["number"]), int(t["marble"])) for t in data["tiles"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"bad hellas setting quarry_yields={value!r}: malformed tiles ({exc})") from None
    numbers = [n for n, _ in tiles]
    if len(set(numbers)) != len(numbers) or len(tiles) < 3:
        raise ValueError(f"bad hellas setting quarry_yields={value!r}: tile numbers must be "
                         "all different and at least 3")
    return value, tiles


def _as_bool(key, value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise _bad(key, value)


class Settings:
    """Resolved Hellas settings plus the component data they select.

    Attributes are the settings of the docs' Settings table (resolved) and
    ``players``, ``fields`` (id -> kind, coast, neighbors, temple_size),
    ``tiles`` (list of (number, marble) in file order), ``spaces``
    (id -> space dict), ``costs``, ``cubes`` (per round), ``start_marble``,
    ``pieces_per_player``, ``supply``, ``temples`` (temple field ids,
    ascending) and ``splits`` (columns -> list of split vectors).
    Also readable as a mapping: ``cfg["board"]``.
    """

    def __getitem__(self, key):
        return getattr(self, key)

    def as_dict(self):
        """The ``config`` of the position dictionary."""
        from simcore._settings import SEAT_SETTINGS, seat_settings
        d = {"players": self.players}
        d.update({k: getattr(self, k) for k in DEFAULTS if k not in SEAT_SETTINGS})
        return seat_settings(d, self)        # the seat settings only when not all 0, as the engine


def load_settings(players=3, **settings):
    """Resolve Hellas settings and load the component data they name.

    Parameters
    ----------
    players : int
        2, 3 or 4.
    **settings
        Any key of the docs' Settings table; missing keys take the default.

    Returns
    -------
    Settings

    Raises
    ------
    ValueError
        For an unknown key or a bad value, naming the key and the allowed values.
    """
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ValueError(f"bad hellas setting players={players!r} (allowed: 2, 3, 4)")
    unknown = sorted(set(settings) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown hellas setting {unknown[0]!r} (known: {', '.join(DEFAULTS)})")
    s = dict(DEFAULTS)
    s.update(settings)
    cfg = Settings()
    cfg.players = players
    for key in ("action_display", "no_temple_start", "ring_bonus_none",
                "double_quarry_yield", "closed_quarry", "city_links"):
        if s[key] not in CHOICES[key]:
            raise _bad(key, s[key])
        setattr(cfg, key, s[key])
    cfg.set_aside_counts = _as_bool("set_aside_counts", s["set_aside_counts"])
    sp = s["start_player"]
    if sp != "random":
        if isinstance(sp, str) and sp.isdigit():
            sp = int(sp)
        if isinstance(sp, bool) or not isinstance(sp, int) or not 0 <= sp < players:
            raise _bad("start_player", sp)
    cfg.start_player = sp
    cfg.board, cfg.board_name, cfg.fields = _load_board(s["board"], players)
    cfg.quarry_yields, cfg.tiles = _load_tiles(s["quarry_yields"])
    cfg.tile_marble = dict(cfg.tiles)

    actions = _read_json(DATA / "actions.json", "action_display")
    spaces = [dict(sp_) for sp_ in actions["spaces"]]
    if cfg.action_display == "wide":
        spaces += [dict(sp_) for sp_ in actions["variants"]["wide"]["extra_spaces"]]
    cfg.spaces = {int(sp_["id"]): sp_ for sp_ in spaces}
    cfg.costs = actions["costs"]
    cfg.cubes = list(actions["cubes_per_player"][str(players)])
    cfg.start_marble = int(actions["start_marble"])
    from simcore._settings import SEAT_POINTS_MAX, seat_vector
    cfg.seat_bonus = seat_vector("seat_bonus", s["seat_bonus"], players, -cfg.start_marble, SEAT_POINTS_MAX,
                                 "no seat starts below 0 marble")
    cfg.seat_points = seat_vector("seat_points", s["seat_points"], players, -SEAT_POINTS_MAX, SEAT_POINTS_MAX,
                                  "points added to a seat's final total")
    cfg.pieces_per_player = dict(actions["pieces_per_player"])
    cfg.supply = dict(actions["supply"])

    cfg.building_fields = sorted(f for f, d in cfg.fields.items() if d["kind"] == "building")
    cfg.quarry_fields = sorted(f for f, d in cfg.fields.items() if d["kind"] == "quarry")
    cfg.temples = sorted(f for f, d in cfg.fields.items() if d["kind"] == "temple")
    cfg.splits = {}
    for sp_ in cfg.spaces.values():
        if sp_["action"] == "temple":
            c = int(sp_["columns"])
            cfg.splits[c] = temple_splits(c, len(cfg.temples))
    return cfg


def temple_splits(columns, n_temples):
    """All splits of ``columns`` over the temples, in the contract's order (``SPLIT k``)."""
    return [x for x in itertools.product(range(columns + 1), repeat=n_temples)
            if sum(x) == columns]


def tile_yield(cfg, number):
    """Marble a quarry whose top tile shows ``number`` yields per adjacent house (H-D2)."""
    return cfg.tile_marble[number]


def action_name(a):
    """Readable name of an action number."""
    if 0 <= a < PASS:
        return f"SPACE {a}"
    if a == PASS:
        return "PASS"
    if FIELD0 <= a < SPLIT0:
        return f"FIELD {a - FIELD0}"
    return f"SPLIT {a - SPLIT0}"


# --------------------------------------------------------- groups and cities

def groups(cfg, pieces, seat):
    """A seat's groups (H-D11): its houses, agoras and palaces joined by adjacency.

    With ``city_links = "no_agora_chains"`` two neighbouring agoras do not join.
    Returns a list of sets of field ids.
    """
    own = {f: k for f, (k, o) in pieces.items() if o == seat and k != "monument"}
    seen, out = set(), []
    for start in sorted(own):
        if start in seen:
            continue
        group, todo = set(), [start]
        seen.add(start)
        while todo:
            f = todo.pop()
            group.add(f)
            for n in cfg.fields[f]["neighbors"]:
                if n in own and n not in seen:
                    if (cfg.city_links == "no_agora_chains"
                            and own[f] == "agora" and own[n] == "agora"):
                        continue
                    seen.add(n)
                    todo.append(n)
        out.append(group)
    return out


def cities(cfg, pieces, seat):
    """A seat's cities: groups with at least one palace and at least one house."""
    out = []
    for g in groups(cfg, pieces, seat):
        kinds = {pieces[f][0] for f in g}
        if "palace" in kinds and "house" in kinds:
            out.append(g)
    return out


def touches(cfg, city, field):
    """Whether a city lies next to a field (a monument or a temple)."""
    return any(field in cfg.fields[f]["neighbors"] for f in city)


def ring_points(cfg, rings):
    """2 per ring, +3 to every seat with the most rings (H-D6 when nobody has one)."""
    most = max(rings)
    if most == 0:
        bonus = cfg.ring_bonus_none == "all_tied"
        return [3 if bonus else 0 for _ in rings]
    return [2 * r + (3 if r == most else 0) for r in rings]


def quarry_income(cfg, pieces, quarries):
    """Marble each seat earns from a quarry action (H-D12)."""
    income = [0] * cfg.players
    active = {f: q["top"] for f, q in quarries.items() if q["status"] == "active"}
    for f, (kind, owner) in pieces.items():
        if kind != "house":
            continue
        yields = [tile_yield(cfg, active[n]) for n in cfg.fields[f]["neighbors"] if n in active]
        if not yields:
            continue
        income[owner] += sum(yields) if cfg.double_quarry_yield == "each" else max(yields)
    return income


def score(cfg, pieces, temple_columns, rings, marble):
    """Scores of every seat, by category (spec section 7)."""
    out = {k: [] for k in ("city", "monuments", "temples", "rings", "marble", "total")}
    monuments = [f for f, (k, _) in pieces.items() if k == "monument"]
    ring = ring_points(cfg, rings)
    for seat in range(cfg.players):
        cs = cities(cfg, pieces, seat)
        city = max((len(c) for c in cs), default=0)
        mon = 3 * sum(1 for c in cs for m in monuments if touches(cfg, c, m))
        tem = sum(n for c in cs for t, n in temple_columns.items() if touches(cfg, c, t))
        mar = marble[seat] // 5
        out["city"].append(city)
        out["monuments"].append(mon)
        out["temples"].append(tem)
        out["rings"].append(ring[seat])
        out["marble"].append(mar)
        out["total"].append(city + mon + tem + ring[seat] + mar + cfg.seat_points[seat])
    if any(cfg.seat_points):            # not a category: the categories plus it make the total
        out["seat_points"] = list(cfg.seat_points)
    return out


# ------------------------------------------------------------------ the state

class RefState:
    """A Hellas position and its step API (``docs/hellas_engine.md``)."""

    # ---- set-up

    @classmethod
    def new(cls, players=3, seed=0, **settings):
        """Set up a game exactly as the docs' Chance section (H-D4).

        Parameters
        ----------
        players : int
        seed : int
            The game seed; chance is drawn from its chance stream.
        **settings
            See ``load_settings``.
        """
        cfg = load_settings(players, **settings)
        st = cls._blank(cfg)
        rng = Xoshiro256(seed)
        stack = [n for n, _ in cfg.tiles]
        for i in range(len(stack) - 1, 0, -1):
            j = rng.below(i + 1)
            stack[i], stack[j] = stack[j], stack[i]
        remaining = [f for f in cfg.quarry_fields if cfg.fields[f]["coast"]]
        for _ in range(3):
            field = remaining.pop(rng.below(len(remaining)))
            st.quarries[field] = {"status": "active", "top": stack.pop(0)}
        st.stack = stack
        empty = st._empty_quarry_fields()
        st.worker = empty[rng.below(len(empty))] if empty else None
        st.start_player = rng.below(players) if cfg.start_player == "random" else cfg.start_player
        st.transcript.append({"kind": "setup", "seed": seed,
                              "quarries": [(f, q["top"]) for f, q in sorted(st.quarries.items())],
                              "worker": st.worker, "start_player": st.start_player})
        st._start_round()
        st._run_forced()
        return st

    @classmethod
    def _blank(cls, cfg):
        st = cls.__new__(cls)
        st.cfg = cfg
        n = cfg.players
        st.round = 0
        st.phase = "choose_space"
        st.start_player = 0
        st.turn_seat = 0
        st.active = None
        st.space = None
        st.build_turn = []
        st.temple_marker = None
        st.spaces_used = []
        st.cubes_left = [0] * n
        st.marble = [cfg.start_marble + cfg.seat_bonus[p] for p in range(n)]
        st.rings = [0] * n
        st.monuments_built = [0] * n
        st.pieces = {}                      # field -> (kind, owner or None)
        st.temple_columns = {t: 0 for t in cfg.temples}
        st.quarries = {}                    # field -> {"status", "top"}
        st.worker = None
        st.stack = []
        st.set_aside = []
        st.revealed = []
        st.tile = None
        st.supply = {"columns": int(cfg.supply["columns"]), "rings": int(cfg.supply["rings"]),
                     "monuments": int(cfg.supply["monuments"])}
        st.decisions = 0
        st.quarry_log = []
        st.transcript = []                  # entries as the Cython transcript(), see replay()
        return st

    # ---- the step API

    def current_player(self):
        """The seat deciding now, or -1 when the game is over."""
        if self.phase == "over":
            return -1
        if self.phase in ("build_house", "build_agora", "build_palace"):
            return self._builder()
        if self.phase == "choose_space":
            return self.turn_seat
        return self.active

    def is_over(self):
        return self.phase == "over"

    def legal_actions(self):
        """Sorted legal actions of the current decision (empty when over)."""
        p = self.phase
        if p == "over":
            return []
        if p == "choose_space":
            return sorted(s for s in self.cfg.spaces if s not in self.spaces_used)
        if p in ("build_house", "build_agora", "build_palace"):
            kind = p[len("build_"):]
            return [PASS] + [FIELD0 + f for f in self._build_fields(self._builder(), kind)]
        if p == "monument":
            return [PASS] + [FIELD0 + f for f in self._monument_fields(self.active)]
        if p == "temple":
            return [PASS] + [SPLIT0 + k for k in self._fitting_splits()]
        if p == "quarry_place":
            return [FIELD0 + f for f in self._places_for(self.tile)]
        if p == "worker_move":
            return [FIELD0 + f for f in self._empty_quarry_fields()]
        raise AssertionError(p)

    def apply(self, action):
        """Apply a decision, then every forced step that follows.

        Raises
        ------
        ValueError
            When the action is not legal here.
        """
        legal = self.legal_actions()
        if action not in legal:
            raise ValueError(f"illegal action {action} in phase {self.phase} for seat "
                             f"{self.current_player()} (legal: {legal})")
        self.decisions += 1
        self._step(int(action), forced=False)
        self._run_forced()

    def scores(self):
        """Per-seat scores by category: city, monuments, temples, rings, marble, total."""
        return score(self.cfg, self.pieces, self.temple_columns, self.rings, self.marble)

    def clone(self):
        return copy.deepcopy(self)

    # ---- the machinery between decisions

    def _run_forced(self):
        # Forced steps: a decision with a single legal action is taken for the player.
        while self.phase != "over":
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self._step(legal[0], forced=True)

    def _step(self, action, forced):
        self.transcript.append({"kind": "forced" if forced else "decision",
                                "seat": self.current_player(), "action": action,
                                "text": action_name(action)})
        stack = list(self.stack)
        self._step_rules(action)
        for t in stack[:len(stack) - len(self.stack)]:     # tiles are revealed from the front
            self.transcript.append({"kind": "reveal", "tile": t})
        if self.phase == "over":
            self.transcript.append({"kind": "end", "scores": self.scores()})

    def _step_rules(self, action):
        p = self.phase
        if p == "choose_space":
            self._choose_space(action)
        elif p in ("build_house", "build_agora", "build_palace"):
            self._build(p[len("build_"):], action)
        elif p == "monument":
            if action != PASS:
                self._build_monument(action - FIELD0)
            self._end_action()
        elif p == "temple":
            if action != PASS:
                self._carry_out_temple(action - SPLIT0)
            self._end_action()
        elif p == "quarry_place":
            self._place_tile(action - FIELD0)
            self._tile_phase()
        elif p == "worker_move":
            self._move_worker(action - FIELD0)
            self._end_action()

    # ---- rounds and turns

    def _start_round(self):
        self.cubes_left = [self.cfg.cubes[self.round]] * self.cfg.players
        self.spaces_used = []
        self.temple_marker = None
        self.turn_seat = self.start_player
        self.active = None
        self.space = None
        self.phase = "choose_space"

    def _end_round(self):
        # The marker under a temple space names the next start player (H-D5 otherwise).
        if self.temple_marker is not None:
            self.start_player = self.temple_marker
        elif self.cfg.no_temple_start == "next_seat":
            self.start_player = (self.start_player + 1) % self.cfg.players
        self.round += 1
        if self.round < ROUNDS:
            self._start_round()
        else:
            self.active = None
            self.space = None
            self.phase = "over"

    def _next_turn(self):
        n = self.cfg.players
        for k in range(1, n + 1):
            seat = (self.turn_seat + k) % n
            if self.cubes_left[seat] > 0:
                self.turn_seat = seat
                self.phase = "choose_space"
                return
        self._end_round()

    def _choose_space(self, s):
        seat = self.turn_seat
        self.cubes_left[seat] -= 1
        self.spaces_used.append(s)
        self.active = seat
        self.space = s
        kind = self.cfg.spaces[s]["action"]
        # The first cube on any temple space takes the start marker, carried out or not.
        if kind == "temple" and self.temple_marker is None:
            self.temple_marker = seat
        self._start_action(kind)

    def _start_action(self, kind):
        sp = self.cfg.spaces[self.space]
        self.build_turn = []
        if kind in ("house", "house_or_agora"):
            self.phase = "build_house"
        elif kind == "palace":
            self.phase = "build_palace"
        elif kind == "quarry":
            self._quarry()
        elif kind == "temple":
            if self._temple_possible():
                self.phase = "temple"
            else:
                self._end_action()
        elif kind == "monument":
            self.phase = "monument"
        elif kind == "three_marble":
            self.marble[self.active] += int(sp["marble"])
            self._end_action()
        else:
            raise ValueError(f"unknown action {kind!r} on space {self.space} in actions.json")

    def _end_action(self):
        self.active = None
        self.space = None
        self.build_turn = []
        self.revealed = []
        self.tile = None
        self._next_turn()

    # ---- all-players building actions (5.1-5.3)

    def _builder(self):
        return (self.active + len(self.build_turn)) % self.cfg.players

    def _pieces_left(self, seat, kind):
        used = sum(1 for k, o in self.pieces.values() if k == kind and o == seat)
        return self.cfg.pieces_per_player[kind] - used

    def _cost(self, kind, field):
        return self.cfg.costs[kind]["coast" if self.cfg.fields[field]["coast"] else "inland"]

    def _build_fields(self, seat, kind):
        """Empty building fields where ``seat`` can pay for a ``kind`` (if it has one left)."""
        if self._pieces_left(seat, kind) <= 0:
            return []
        return [f for f in self.cfg.building_fields
                if f not in self.pieces and self._cost(kind, f) <= self.marble[seat]]

    def _build(self, kind, action):
        seat = self._builder()
        if action != PASS:
            f = action - FIELD0
            self.marble[seat] -= self._cost(kind, f)
            self.pieces[f] = (kind, seat)
        if kind == "house" and self.cfg.spaces[self.space]["action"] == "house_or_agora":
            self.phase = "build_agora"      # same seat: the agora after the house
            return
        self.build_turn.append(seat)
        if len(self.build_turn) == self.cfg.players:
            self._end_action()
        else:
            self.phase = "build_palace" if kind == "palace" else "build_house"

    # ---- monument (5.6)

    def _monument_fields(self, seat):
        cost = self.cfg.costs["monument"]["inland"]
        if self.supply["monuments"] <= 0 or self.marble[seat] < cost:
            return []
        return [f for f in self.cfg.building_fields
                if not self.cfg.fields[f]["coast"] and f not in self.pieces]

    def _build_monument(self, f):
        self.marble[self.active] -= self.cfg.costs["monument"]["inland"]
        self.pieces[f] = ("monument", None)
        self.supply["monuments"] -= 1
        self.monuments_built[self.active] += 1

    # ---- temple (5.5)

    def _temple_space(self):
        sp = self.cfg.spaces[self.space]
        return int(sp["cost"]), int(sp["columns"])

    def _fitting_splits(self):
        _, c = self._temple_space()
        room = [self.cfg.fields[t]["temple_size"] - self.temple_columns[t] for t in self.cfg.temples]
        return [k for k, x in enumerate(self.cfg.splits[c])
                if all(xi <= r for xi, r in zip(x, room))]

    def _temple_possible(self):
        cost, c = self._temple_space()
        return (self.marble[self.active] >= cost and self.supply["columns"] >= c
                and bool(self._fitting_splits()))

    def _carry_out_temple(self, k):
        cost, c = self._temple_space()
        split = self.cfg.splits[c][k]
        seat = self.active
        self.marble[seat] -= cost
        self.supply["columns"] -= c
        rings = 1
        for t, x in zip(self.cfg.temples, split):
            if x:
                self.temple_columns[t] += x
                if self.temple_columns[t] == self.cfg.fields[t]["temple_size"]:
                    rings += 1          # the temple's last column: one extra ring
        rings = min(rings, self.supply["rings"])
        self.rings[seat] += rings
        self.supply["rings"] -= rings

    # ---- quarry (5.4)

    def _active_quarries(self):
        return {f: q["top"] for f, q in self.quarries.items() if q["status"] == "active"}

    def _empty_quarry_fields(self):
        """Quarry fields that can take the worker or a new quarry (H-D13)."""
        reopens = self.cfg.closed_quarry == "reopens"
        out = []
        for f in self.cfg.quarry_fields:
            if f == self.worker:
                continue
            q = self.quarries.get(f)
            if q is None or (reopens and q["status"] == "closed"):
                out.append(f)
        return out

    def _places_for(self, t):
        return sorted(f for f, top in self._active_quarries().items() if top < t)

    def _tiles_counted(self):
        if self.cfg.set_aside_counts:
            return len(self.revealed)
        return sum(1 for t in self.revealed if t not in self.set_aside)

    def _quarry(self):
        income = quarry_income(self.cfg, self.pieces, self.quarries)
        for seat, m in enumerate(income):
            self.marble[seat] += m
        self.quarry_log.append({"round": self.round, "seat": self.active, "income": income,
                                "tiles": [], "dest": [], "opened": None, "closed": None,
                                "worker_to": None})
        self.revealed = []
        self._tile_phase()

    def _tile_phase(self):
        """Reveal tiles until four count, a quarry closes or the stack is empty."""
        log = self.quarry_log[-1]
        while self._tiles_counted() < 4 and self.stack:
            t = self.stack.pop(0)
            self.revealed.append(t)
            log["tiles"].append(t)
            if self._places_for(t):
                self.tile = t
                self.phase = "quarry_place"
                return
            if self.worker is not None:
                self._open_new_quarry(t)
                return
            # H-D7: the worker is off the board, so the tile is set aside unplayed.
            self.set_aside.append(t)
            log["dest"].append("set_aside")
        self._end_action()

    def _place_tile(self, f):
        self.quarries[f]["top"] = self.tile
        self.quarry_log[-1]["dest"].append(f)
        self.tile = None

    def _open_new_quarry(self, t):
        log = self.quarry_log[-1]
        active = self._active_quarries()
        field = self.worker
        self.quarries[field] = {"status": "active", "top": t}
        log["dest"].append("new")
        log["opened"] = field
        if active:
            richest = max(active, key=lambda f: active[f])
            self.quarries[richest]["status"] = "closed"
            log["closed"] = richest
        self.worker = None              # in the active player's hand until it moves
        if self._empty_quarry_fields():
            self.phase = "worker_move"
        else:
            # H-D7: no empty quarry field left, the worker leaves the board.
            log["worker_to"] = "off"
            self._end_action()

    def _move_worker(self, f):
        self.worker = f
        self.quarry_log[-1]["worker_to"] = f

    # ---- the position dictionary

    def to_dict(self):
        """The position dictionary of the docs (JSON-ready)."""
        return {
            "game": "hellas", "format": 1,
            "config": self.cfg.as_dict(),
            "round": self.round, "phase": self.phase,
            "start_player": self.start_player, "turn_seat": self.turn_seat,
            "active": self.active, "space": self.space,
            "build_turn": list(self.build_turn),
            "temple_marker": self.temple_marker,
            "spaces_used": list(self.spaces_used),
            "cubes_left": list(self.cubes_left),
            "marble": list(self.marble), "rings": list(self.rings),
            "monuments_built": list(self.monuments_built),
            "pieces": [{"field": f, "kind": k, "owner": o}
                       for f, (k, o) in sorted(self.pieces.items())],
            "temples": [{"field": t, "columns": self.temple_columns[t]} for t in self.cfg.temples],
            "quarries": [{"field": f, "status": q["status"], "top": q["top"]}
                         for f, q in sorted(self.quarries.items())],
            "worker": self.worker,
            "stack": list(self.stack), "set_aside": list(self.set_aside),
            "revealed": list(self.revealed), "tile": self.tile,
            "supply": dict(self.supply),
            "decisions": self.decisions,
            "quarry_log": copy.deepcopy(self.quarry_log),
        }

    @classmethod
    def from_dict(cls, d):
        """Rebuild a position from ``to_dict`` output; ``ValueError`` naming the problem."""
        return _from_dict(cls, d)

    # ---- reading

    def describe(self):
        """A readable multi-line summary of the position."""
        cfg = self.cfg
        lines = [f"Hellas, {cfg.players} players, board {cfg.board_name}, "
                 f"round {min(self.round + 1, ROUNDS)}/{ROUNDS}, phase {self.phase}"
                 + ("" if self.is_over() else f", player {self.current_player() + 1} to decide")]
        if self.space is not None:
            lines.append(f"action: space {self.space} ({cfg.spaces[self.space]['action']}) "
                         f"by seat {self.active}")
        lines.append(f"start player {self.start_player}, temple marker {self.temple_marker}, "
                     f"spaces used {sorted(self.spaces_used)}")
        sc = self.scores()
        for seat in range(cfg.players):
            mine = [k for k, o in self.pieces.values() if o == seat]
            sizes = sorted((len(c) for c in cities(cfg, self.pieces, seat)), reverse=True)
            lines.append(
                f"player {seat + 1} (seat {seat}): marble {self.marble[seat]}, rings {self.rings[seat]}, "
                f"cubes {self.cubes_left[seat]}, houses {mine.count('house')}, "
                f"agoras {mine.count('agora')}, palaces {mine.count('palace')}, "
                f"cities {sizes}, score {sc['total'][seat]}")
        quarries = ", ".join(f"{f}:{q['top']}" + ("" if q["status"] == "active" else "(closed)")
                             for f, q in sorted(self.quarries.items()))
        lines.append(f"quarries {quarries}; worker {self.worker}; "
                     f"{len(self.stack)} tiles face down, set aside {self.set_aside}")
        if self.tile is not None:
            lines.append(f"revealed {self.revealed}, tile {self.tile} to place")
        temples = ", ".join(f"{t}:{self.temple_columns[t]}/{cfg.fields[t]['temple_size']}"
                            for t in cfg.temples)
        lines.append(f"temples {temples}; monuments on "
                     f"{sorted(f for f, (k, _) in self.pieces.items() if k == 'monument')}")
        lines.append(f"supply {self.supply}; decisions {self.decisions}")
        return "\n".join(lines)

    __str__ = describe


# ------------------------------------------------------- from_dict, checked

def _need(cond, msg):
    if not cond:
        raise ValueError(f"bad hellas position: {msg}")


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _seat(x, n, name, nullable=False):
    if x is None and nullable:
        return None
    _need(_is_int(x) and 0 <= x < n, f"{name}={x!r} is not a seat 0..{n - 1}"
          + (" or null" if nullable else ""))
    return x


def _from_dict(cls, d):
    _need(isinstance(d, dict), "not a dict")
    _need(d.get("game") == "hellas", f"game={d.get('game')!r}, expected 'hellas'")
    _need(d.get("format") == 1, f"format={d.get('format')!r}, expected 1")
    keys = ("config", "round", "phase", "start_player", "turn_seat", "active", "space",
            "build_turn", "temple_marker", "spaces_used", "cubes_left", "marble", "rings",
            "monuments_built", "pieces", "temples", "quarries", "worker", "stack",
            "set_aside", "revealed", "tile", "supply", "decisions", "quarry_log")
    for k in keys:
        _need(k in d, f"missing key {k!r}")
    conf = dict(d["config"])
    _need("players" in conf, "config has no 'players'")
    cfg = load_settings(conf.pop("players"), **conf)
    n = cfg.players
    st = cls._blank(cfg)

    _need(_is_int(d["round"]) and 0 <= d["round"] <= ROUNDS, f"round={d['round']!r} not in 0..3")
    _need(d["phase"] in PHASES, f"phase={d['phase']!r} (known: {', '.join(PHASES)})")
    _need((d["round"] == ROUNDS) == (d["phase"] == "over"), "round 3 if and only if phase 'over'")
    st.round, st.phase = d["round"], d["phase"]
    st.start_player = _seat(d["start_player"], n, "start_player")
    st.turn_seat = _seat(d["turn_seat"], n, "turn_seat")
    st.active = _seat(d["active"], n, "active", nullable=True)
    st.temple_marker = _seat(d["temple_marker"], n, "temple_marker", nullable=True)
    sp = d["space"]
    _need(sp is None or sp in cfg.spaces, f"space={sp!r} is not a space id ({sorted(cfg.spaces)})")
    st.space = sp
    in_action = st.phase not in ("choose_space", "over")
    _need((st.active is not None) == in_action and (sp is not None) == in_action,
          f"active and space must be set exactly when an action is under way (phase {st.phase})")
    if in_action:
        _need(st.turn_seat == st.active, "turn_seat must equal active during an action")
        kind = cfg.spaces[sp]["action"]
        allowed = {"build_house": ("house", "house_or_agora"), "build_agora": ("house_or_agora",),
                   "build_palace": ("palace",), "monument": ("monument",), "temple": ("temple",),
                   "quarry_place": ("quarry",), "worker_move": ("quarry",)}[st.phase]
        _need(kind in allowed, f"phase {st.phase} does not fit space {sp} ({kind})")
        _need(sp in d["spaces_used"], f"space {sp} under way but not in spaces_used")

    bt = d["build_turn"]
    if _is_int(bt) and st.phase.startswith("build_"):
        bt = [(st.active + i) % n for i in range(bt)]    # also read as a count
    elif _is_int(bt) and bt == 0:
        bt = []
    _need(isinstance(bt, list), "build_turn must be a list of seats")
    st.build_turn = [_seat(x, n, "build_turn entry") for x in bt]
    if st.phase.startswith("build_"):
        expect = [(st.active + i) % n for i in range(len(bt))]
        _need(st.build_turn == expect and len(bt) < n,
              f"build_turn={bt} must be the seats after active {st.active} in order, not all of them")
    else:
        _need(not bt, "build_turn must be empty outside a building action")

    used = d["spaces_used"]
    _need(isinstance(used, list) and all(s in cfg.spaces for s in used) and len(set(used)) == len(used),
          f"spaces_used={used!r} must be distinct space ids")
    st.spaces_used = list(used)
    for name in ("cubes_left", "marble", "rings", "monuments_built"):
        v = d[name]
        _need(isinstance(v, list) and len(v) == n and all(_is_int(x) and x >= 0 for x in v),
              f"{name}={v!r} must be {n} non-negative integers")
        setattr(st, name, list(v))
    if st.round == ROUNDS:
        _need(not any(st.cubes_left), "cubes_left must be all 0 when the game is over")
    else:
        cubes = cfg.cubes[st.round]
        _need(all(c <= cubes for c in st.cubes_left), f"cubes_left above {cubes} in round {st.round}")
        _need(sum(cubes - c for c in st.cubes_left) == len(used),
              "spaces_used must hold one space per cube placed this round")
        if st.phase == "choose_space":
            _need(st.cubes_left[st.turn_seat] > 0, f"turn_seat {st.turn_seat} has no cube left")

    for p in d["pieces"]:
        f, kind, owner = p.get("field"), p.get("kind"), p.get("owner")
        _need(f in cfg.fields and cfg.fields[f]["kind"] == "building",
              f"piece on field {f!r}, which is not a building field")
        _need(f not in st.pieces, f"two pieces on field {f}")
        _need(kind in PIECE_KINDS, f"piece kind {kind!r} (known: {', '.join(PIECE_KINDS)})")
        if kind == "monument":
            _need(owner is None, f"monument on field {f} must have owner null")
            _need(not cfg.fields[f]["coast"], f"monument on coastal field {f}")
        else:
            _seat(owner, n, f"owner of the {kind} on field {f}")
        st.pieces[f] = (kind, owner)
    for seat in range(n):
        for kind, limit in cfg.pieces_per_player.items():
            have = sum(1 for k, o in st.pieces.values() if k == kind and o == seat)
            _need(have <= limit, f"seat {seat} has {have} {kind}s, more than {limit}")
    n_mon = sum(1 for k, _ in st.pieces.values() if k == "monument")
    _need(n_mon == sum(st.monuments_built), "monuments on the board must equal sum(monuments_built)")

    seen_t = set()
    for t in d["temples"]:
        f, c = t.get("field"), t.get("columns")
        _need(f in st.temple_columns and f not in seen_t, f"temple entry for field {f!r} is not a temple")
        size = cfg.fields[f]["temple_size"]
        _need(_is_int(c) and 0 <= c <= size, f"temple {f} holds {c!r} columns (size {size})")
        seen_t.add(f)
        st.temple_columns[f] = c
    _need(seen_t == set(cfg.temples), f"temples must list every temple field {cfg.temples}")

    numbers = set(cfg.tile_marble)
    for q in d["quarries"]:
        f, status, top = q.get("field"), q.get("status"), q.get("top")
        _need(f in cfg.fields and cfg.fields[f]["kind"] == "quarry" and f not in st.quarries,
              f"quarry on field {f!r}, which is not a free quarry field")
        _need(status in ("active", "closed"), f"quarry {f} status {status!r} (known: active, closed)")
        _need(top in numbers, f"quarry {f} top {top!r} is not a tile number")
        st.quarries[f] = {"status": status, "top": top}
    w = d["worker"]
    _need(w is None or (w in cfg.fields and cfg.fields[w]["kind"] == "quarry"),
          f"worker={w!r} is not a quarry field or null")
    st.worker = w
    if st.phase == "worker_move":
        opened = d["quarry_log"][-1].get("opened") if d["quarry_log"] else None
        _need(w is None or w == opened, "in worker_move the worker is in hand (null)")
        st.worker = None
    elif w is not None:
        q = st.quarries.get(w)
        _need(q is None or (cfg.closed_quarry == "reopens" and q["status"] == "closed"),
              f"worker on field {w}, which is not an empty quarry field")

    revealed = d["revealed"]
    if _is_int(revealed):
        # Also read as a count: the tiles are then those of the pending quarry_log entry.
        log = d["quarry_log"]
        tiles = list(log[-1].get("tiles", [])) if st.phase in ("quarry_place", "worker_move") and log else []
        _need(revealed <= len(tiles), f"revealed={revealed} but the quarry_log entry shows {tiles}")
        revealed = tiles
    for name, v in (("stack", d["stack"]), ("set_aside", d["set_aside"]), ("revealed", revealed)):
        _need(isinstance(v, list) and all(x in numbers for x in v), f"{name}={v!r} holds unknown tiles")
        setattr(st, name, list(v))
    tops = [q["top"] for q in st.quarries.values()]
    shown = st.stack + st.set_aside + tops
    _need(len(set(shown)) == len(shown), "a tile number appears twice (stack, set_aside, quarry tops)")
    st.tile = d["tile"]
    _need((st.tile is not None) == (st.phase == "quarry_place"), "tile is set exactly in quarry_place")
    if st.tile is not None:
        _need(st.tile in numbers and st.tile not in shown, f"tile={st.tile!r} unknown or already shown")
        _need(st.revealed and st.revealed[-1] == st.tile, "the pending tile must be the last revealed")
        _need(any(top < st.tile for top in st._active_quarries().values()),
              f"no active quarry lower than the pending tile {st.tile}")
    _need(not st.revealed or st.phase in ("quarry_place", "worker_move"),
          "revealed must be empty outside a quarry action")
    _need(sum(1 for q in st.quarries.values() if q["status"] == "active") >= 1
          or not st.quarries, "no active quarry")

    sup = d["supply"]
    _need(isinstance(sup, dict) and set(sup) == {"columns", "rings", "monuments"},
          f"supply={sup!r} needs columns, rings, monuments")
    for k in ("columns", "rings", "monuments"):
        _need(_is_int(sup[k]) and 0 <= sup[k] <= int(cfg.supply[k]),
              f"supply {k}={sup[k]!r} not in 0..{cfg.supply[k]}")
    st.supply = dict(sup)
    _need(sup["columns"] + sum(st.temple_columns.values()) == int(cfg.supply["columns"]),
          "supply columns plus columns in temples must equal the box's columns")
    _need(sup["rings"] + sum(st.rings) == int(cfg.supply["rings"]),
          "supply rings plus players' rings must equal the box's rings")
    _need(sup["monuments"] + n_mon == int(cfg.supply["monuments"]),
          "supply monuments plus monuments built must equal the box's monuments")
    _need(_is_int(d["decisions"]) and d["decisions"] >= 0, f"decisions={d['decisions']!r}")
    st.decisions = d["decisions"]
    log = d["quarry_log"]
    _need(isinstance(log, list) and all(isinstance(e, dict) for e in log), "quarry_log must be a list of dicts")
    if st.phase in ("quarry_place", "worker_move"):
        _need(log and log[-1].get("seat") == st.active, "a quarry action under way needs its quarry_log entry")
    st.quarry_log = copy.deepcopy(log)
    if st.phase != "over":
        legal = st.legal_actions()
        _need(legal, f"no legal action in phase {st.phase}")
    return st


# ------------------------------------------------------------------- replay

def replay(players, seed, actions, **settings):
    """Play a game from its decisions, or check a whole transcript against this engine.

    Parameters
    ----------
    players, seed, **settings
        As ``RefState.new``.
    actions : list
        Either the decisions (ints; forced steps are taken automatically), or
        a transcript: dicts as ``RefState.transcript`` and the Cython engine's
        ``State.transcript()`` (``kind`` setup / decision / forced / reveal /
        end). A transcript is checked entry by entry: the set-up, every
        decision's seat and legality, every forced step, every revealed tile
        and the final scores must agree.

    Returns
    -------
    RefState

    Raises
    ------
    ValueError
        Naming the first action or transcript entry that does not agree, with its index.
    """
    st = RefState.new(players=players, seed=seed, **settings)
    actions = list(actions)
    if actions and isinstance(actions[0], dict):
        return _check_transcript(st, actions)
    for i, a in enumerate(actions):
        try:
            st.apply(a)
        except ValueError as exc:
            raise ValueError(f"replay: decision {i}: {exc}") from None
    return st


def _entry_key(e):
    """What two engines' transcript entries must agree on (not the free text)."""
    kind = e.get("kind")
    if kind == "setup":
        return (kind, [tuple(int(x) for x in q) for q in e["quarries"]], e["worker"], e["start_player"])
    if kind in ("decision", "forced"):
        return (kind, int(e["seat"]), int(e["action"]))
    if kind == "reveal":
        return (kind, int(e["tile"]))
    if kind == "end":
        sc = e["scores"]
        return (kind, {k: [int(x) for x in sc[k]] for k in sorted(sc)})
    return (kind,)


def _check_transcript(st, entries):
    for i, e in enumerate(entries):
        if e.get("kind") != "decision":
            continue
        if e["seat"] != st.current_player():
            raise ValueError(f"transcript entry {i}: seat {e['seat']} decides, "
                             f"the reference expects seat {st.current_player()} ({st.phase})")
        try:
            st.apply(e["action"])
        except ValueError as exc:
            raise ValueError(f"transcript entry {i}: {exc}") from None
    theirs = [_entry_key(e) for e in entries]
    mine = [_entry_key(e) for e in st.transcript]
    for i, (a, b) in enumerate(zip(theirs, mine)):
        if a != b:
            raise ValueError(f"transcript entry {i}: {a} where the reference has {b}")
    if len(theirs) != len(mine):
        raise ValueError(f"transcript has {len(theirs)} entries, the reference {len(mine)} "
                         f"(first extra: {(theirs + mine)[min(len(theirs), len(mine))]})")
    return st
