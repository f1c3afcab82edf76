"""The Hellas engine: rules, step API (:class:`State`) and batch kernel (:func:`play_batch`).

One compilation unit: the rules (``_rules.pxi``) and the built-in policies
(``_policy.pxi``) are included here so the C compiler can inline them into
the kernel. The decision encoding, chance and position format are in
``docs/hellas_engine.md``; the spec decisions H-Dn are listed in ``_rules.pxi``.
"""
cimport cython
from libc.string cimport memset, memcpy, memcmp
from libc.math cimport exp, INFINITY

import numpy as np
cimport numpy as cnp

from simcore._types cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t, u128
from simcore._types cimport bit128, popcount128, ctz128, has128
from simcore._rng cimport rng_seed, rng_next, rng_below, rng_uniform, CHANCE_SALT, POLICY_SALT, DETERMINIZE_SALT
from simcore.hellas._state cimport *
from simcore._lead cimport Snaps, snap_take, lead_stats

from simcore.hellas.config import SCORE_CATEGORIES, make_config
from simcore._settings import add_seat_points
from simcore import _search

cnp.import_array()

include "_rules.pxi"
include "_policy.pxi"

PHASES = ("choose_space", "build_house", "build_agora", "build_palace", "monument",
          "temple", "quarry_place", "worker_move", "over")
PASS = A_PASS
FIELD = A_FIELD
SPLIT = A_SPLIT
_KIND_CODE = {"house": SK_HOUSE, "house_or_agora": SK_HOUSE_OR_AGORA, "palace": SK_PALACE,
              "quarry": SK_QUARRY, "temple": SK_TEMPLE, "monument": SK_MONUMENT,
              "three_marble": SK_THREE_MARBLE}


cdef class CConfig:
    """A :class:`~simcore.hellas.config.HellasConfig` compiled into the C struct."""
    cdef HCfg c
    cdef readonly object py
    cdef readonly tuple splits          # column count -> tuple of split vectors (for text)

    def __cinit__(self, cfg):
        cdef int i, j, k, t, cols
        memset(&self.c, 0, sizeof(HCfg))
        self.py = cfg
        b = cfg.board_data
        a = cfg.actions
        c = &self.c
        c.n_players = cfg.players
        c.n_fields = len(b.kind)
        quarry_fields, coast_quarries = [], []
        if c.n_fields > NOFIELD:
            raise ValueError(f"board has {c.n_fields} fields; the engine takes at most {NOFIELD}")
        memset(c.nbl, NOFIELD, sizeof(c.nbl))
        for i in range(c.n_fields):
            if len(b.neighbors[i]) > MAXNB:
                raise ValueError(f"board field {i} has {len(b.neighbors[i])} neighbours; the engine takes at most {MAXNB}")
            for k, j in enumerate(sorted(b.neighbors[i])):
                c.nbr[i] |= bit128(j)
                c.nbl[i][k] = j
            c.max_nb = max(c.max_nb, len(b.neighbors[i]))
            if b.coast[i]:
                c.coast |= bit128(i)
            if b.kind[i] == "building":
                c.building |= bit128(i)
                if not b.coast[i]:
                    c.inland_building |= bit128(i)
            elif b.kind[i] == "quarry":
                quarry_fields.append(i)
                if b.coast[i]:
                    coast_quarries.append(i)
        c.nbr_symmetric = all(has128(c.nbr[j], i) for i in range(c.n_fields) for j in b.neighbors[i])
        if len(quarry_fields) > MAXQF:
            raise ValueError(f"board has {len(quarry_fields)} quarry fields; the engine takes at most {MAXQF}")
        c.n_quarry_fields = len(quarry_fields)
        for i, f in enumerate(quarry_fields):
            c.quarry_field[i] = f
        c.n_coast_quarry = len(coast_quarries)
        for i, f in enumerate(coast_quarries):
            c.coast_quarry[i] = f
        c.n_temples = len(b.temple_fields)
        for t in range(c.n_temples):
            c.temple_high_bits |= (<uint64_t>0x80) << (8 * t)
        for t in range(c.n_temples):
            c.temple_field[t] = b.temple_fields[t]
            c.temple_size[t] = b.temple_sizes[t]
        spaces = cfg.spaces
        c.n_spaces = len(spaces)
        for i, sp in enumerate(spaces):
            c.space_kind[i] = _KIND_CODE[sp["action"]]
            c.space_cost[i] = int(sp.get("cost", 0))
            c.space_columns[i] = int(sp.get("columns", 0))
            c.space_marble[i] = int(sp.get("marble", 0))
        costs = a["costs"]
        for k, land in enumerate(("coast", "inland")):
            c.cost_house[k] = int(costs["house"][land])
            c.cost_agora[k] = int(costs["agora"][land])
            c.cost_palace[k] = int(costs["palace"][land])
        c.cost_monument = int(costs["monument"]["inland"])
        for i, n in enumerate(cfg.cubes()):
            c.cubes[i] = n
        c.start_marble = int(a["start_marble"])
        for i in range(cfg.players):
            c.seat_bonus[i] = cfg.seat_bonus[i]
            c.seat_points[i] = cfg.seat_points[i]
        c.max_house = int(a["pieces_per_player"]["house"])
        c.max_agora = int(a["pieces_per_player"]["agora"])
        c.max_palace = int(a["pieces_per_player"]["palace"])
        if c.max_house + c.max_agora + c.max_palace > 31:
            raise ValueError(f"{c.max_house + c.max_agora + c.max_palace} pieces per player; the engine takes at most 31")
        c.supply_columns = int(a["supply"]["columns"])
        c.supply_rings = int(a["supply"]["rings"])
        c.supply_monuments = int(a["supply"]["monuments"])
        c.n_tiles = len(cfg.tiles.numbers)
        for i, num in enumerate(cfg.tiles.numbers):
            c.tiles[i] = num
            c.yield_of[num] = cfg.tiles.yields[num]
        c.start_player = -1 if cfg.start_player == "random" else int(cfg.start_player)
        c.no_temple_next_seat = cfg.no_temple_start == "next_seat"
        c.ring_bonus_all_tied = cfg.ring_bonus_none == "all_tied"
        c.set_aside_counts = bool(cfg.set_aside_counts)
        c.double_yield_once = cfg.double_quarry_yield == "once"
        c.closed_reopens = cfg.closed_quarry == "reopens"
        c.no_agora_chains = cfg.city_links == "no_agora_chains"
        table = cfg.splits()
        for cols, vecs in table.items():
            c.n_splits[cols] = len(vecs)
            for k, v in enumerate(vecs):
                for t in range(c.n_temples):
                    c.splits[cols][k][t] = v[t]
                    c.split_packed[cols][k] |= (<uint64_t>v[t]) << (8 * t)
                    if v[t]:
                        c.split_nzt[cols][k][c.split_nz[cols][k]] = t
                        c.split_nz[cols][k] += 1
        self.splits = tuple(tuple(table.get(i, ())) for i in range(MAXCOL + 1))


# ------------------------------------------------------------------ the shell's hooks (docs/adding_a_game.md)

ctypedef HState GState
ctypedef HCfg GCfg
ctypedef int16_t GAction
cdef enum:
    G_MAXP = MAXP
cdef const char* G_NAME = "hellas"
ctypedef struct GPolicies:     # the seats' policies (their hooks in _policy_api.pxi)
    Policy pol[MAXP]
    SMemo sm                   # their shared decision context (pol[p].x.sm points here)

cdef inline bint g_over(const HState* s) noexcept nogil:
    return s.phase == PH_OVER

cdef inline int g_current(const HState* s) noexcept nogil:
    return -1 if s.phase == PH_OVER else s.current

cdef inline int g_n_players(const HCfg* c, const HState* s) noexcept nogil:
    return s.n_players

cdef inline int g_legal_play(const HCfg* c, HState* s, int16_t* buf, const bint* cut) noexcept nogil:
    return legal_actions(c, s, buf)         # (no shortened list)

include "../_engine_shell.pxi"
include "../_step_api.pxi"


cdef class State(StepState):
    """A Hellas position with the step API (see ``docs/hellas_engine.md``).

    Examples
    --------
    >>> from simcore import hellas
    >>> st = hellas.new_game(players=3, seed=7)
    >>> while not st.is_over():
    ...     st.apply(st.legal_actions()[0])
    >>> sorted(st.scores())
    ['city', 'marble', 'monuments', 'rings', 'temples', 'total']
    """

    cdef list _setup_entries(self):
        quarries = [(f, self.s.quarry_top[f]) for f in self._quarry_fields()
                    if self.s.quarry_status[f] == Q_ACTIVE]
        text = ("set-up: quarries " + ", ".join(f"{t} on field {f}" for f, t in quarries)
                + f"; worker on field {self.s.worker}; seat {self.s.start_player} starts")
        return [{"kind": "setup", "seed": self.seed, "quarries": quarries,
                 "worker": int(self.s.worker), "start_player": int(self.s.start_player), "text": text}]

    def _quarry_fields(self):
        return [self.cc.c.quarry_field[i] for i in range(self.cc.c.n_quarry_fields)]

    def _revealed_tiles(self):
        """Every tile revealed in the quarry action under way (set-aside ones too), as the reference lists them."""
        if self.s.phase not in (PH_QUARRY_PLACE, PH_WORKER_MOVE) or self.s.n_qlog == 0:
            return []
        q = &self.s.qlog[self.s.n_qlog - 1]
        return [int(q.tiles[k]) for k in range(min(q.n_revealed, MAXREV))]

    # -- queries
    @property
    def phase(self):
        return PHASES[self.s.phase]

    @property
    def round(self):
        return int(self.s.round)

    @property
    def players(self):
        return int(self.s.n_players)

    @property
    def marble(self):
        return [int(self.s.marble[p]) for p in range(self.s.n_players)]

    def scores(self):
        """Points per category and seat: ``{"city": [...], ..., "total": [...]}``."""
        cdef int16_t out[N_SC][MAXP]
        score(&self.cc.c, &self.s, out)
        names = SCORE_CATEGORIES + ("total",)
        return add_seat_points({name: [int(out[k][p]) for p in range(self.s.n_players)] for k, name in enumerate(names)},
                               self.cc.py)

    def quarry_log(self):
        """One dict per quarry action so far (income, tiles, where each went, ...)."""
        out = []
        for i in range(self.s.n_qlog):
            q = self.s.qlog[i]
            n = min(q.n_revealed, MAXREV)
            out.append({"round": q.round, "seat": q.seat,
                        "income": [q.income[p] for p in range(self.s.n_players)],
                        "tiles": [q.tiles[k] for k in range(n)],
                        "dest": [_dest_name(q.dest[k]) for k in range(n)],
                        "opened": None if q.opened < 0 else q.opened,
                        "closed": None if q.closed < 0 else q.closed,
                        "worker_to": {-1: None, -2: "off"}.get(q.worker_to, q.worker_to)})
        return out

    # -- the transcript's texts
    cdef _logged_step(self, list log, int action, str kind):
        cdef int pos = self.s.stack_pos
        log.append({"kind": kind, "seat": int(self.s.current), "action": action,
                    "text": self.action_to_str(action)})
        apply_action(&self.cc.c, &self.s, action)
        for i in range(pos, self.s.stack_pos):
            log.append({"kind": "reveal", "tile": int(self.s.stack[i]),
                        "text": f"tile {self.s.stack[i]} revealed"})

    def determinize(self, seed):
        """A clone whose face-down tile stack is reshuffled from ``seed`` (hidden information)."""
        return _search.determinized(self, seed)

    # -- text
    def action_to_str(self, int a):
        """Human-readable text of action ``a`` in the current decision."""
        c = &self.cc.c
        p = self.s.current
        ph = self.s.phase
        spaces = self.cc.py.spaces
        who = f"seat {p}: "
        if ph == PH_CHOOSE:
            if not 0 <= a < c.n_spaces:
                return who + f"unknown action {a}"
            sp = spaces[a]
            extra = f" ({sp['cost']} marble, {sp['columns']} columns)" if sp["action"] == "temple" else ""
            return who + f"take space {a}: {sp['action'].replace('_', ' ')}{extra}"
        if a == A_PASS:
            what = {PH_BUILD_HOUSE: "no house", PH_BUILD_AGORA: "no agora", PH_BUILD_PALACE: "no palace",
                    PH_MONUMENT: "no monument", PH_TEMPLE: "temple action not carried out"}
            return who + "pass (" + what.get(ph, "nothing") + ")"
        f = a - A_FIELD
        if ph in (PH_BUILD_HOUSE, PH_BUILD_AGORA, PH_BUILD_PALACE) and 0 <= f < c.n_fields:
            piece = {PH_BUILD_HOUSE: "house", PH_BUILD_AGORA: "agora", PH_BUILD_PALACE: "palace"}[ph]
            land = "coast" if has128(c.coast, f) else "inland"
            return who + f"build {piece} on field {f} ({land}, {build_cost(c, ph, f)} marble)"
        if ph == PH_MONUMENT and 0 <= f < c.n_fields:
            return who + f"build monument on field {f} (inland, {c.cost_monument} marble)"
        if ph == PH_QUARRY_PLACE and 0 <= f < c.n_fields:
            return who + f"put tile {self.s.tile} on the quarry at field {f} (was {self.s.quarry_top[f]})"
        if ph == PH_WORKER_MOVE and 0 <= f < c.n_fields:
            return who + f"move the worker to field {f}"
        if ph == PH_TEMPLE and a >= A_SPLIT:
            cols = c.space_columns[self.s.space]
            k = a - A_SPLIT
            if k < len(self.splits_for(cols)):
                vec = self.splits_for(cols)[k]
                parts = [f"{x} on temple at field {c.temple_field[t]} (size {c.temple_size[t]})"
                         for t, x in enumerate(vec) if x]
                return who + f"pay {c.space_cost[self.s.space]} marble, place columns: " + ", ".join(parts)
        return who + f"unknown action {a}"

    def splits_for(self, int cols):
        return self.cc.splits[cols]

    def describe(self):
        """A readable multi-line summary of the position."""
        d = self.to_dict()
        sc = self.scores()
        lines = [f"Hellas, {d['config']['players']} players, board {self.cc.py.board_name}, "
                 f"round {min(d['round'], 2) + 1} of 3, phase {d['phase']}"
                 + ("" if d["phase"] == "over" else f", player {self.s.current + 1} to decide")]
        for p in range(self.s.n_players):
            pieces = [x for x in d["pieces"] if x["owner"] == p]
            lines.append(f"  player {p + 1} (seat {p}): marble {d['marble'][p]}, rings {d['rings'][p]}, cubes {d['cubes_left'][p]}, "
                         f"houses {sum(x['kind'] == 'house' for x in pieces)}, "
                         f"agoras {sum(x['kind'] == 'agora' for x in pieces)}, "
                         f"palaces {sum(x['kind'] == 'palace' for x in pieces)}; score now {sc['total'][p]}")
        lines.append("  quarries: " + ", ".join(f"field {q['field']} {q['status']} {q['top']}" for q in d["quarries"])
                     + f"; worker {d['worker']}; {len(d['stack'])} tiles face down")
        lines.append("  temples: " + ", ".join(f"field {t['field']} {t['columns']}/{self.cc.c.temple_size[i]}"
                                              for i, t in enumerate(d["temples"])))
        return "\n".join(lines)

    def __repr__(self):
        # as describe() and the reports say them: round 1 of 3, player 1 = seat 0 (docs/results.md)
        return (f"<hellas.State {PHASES[self.s.phase]} round {min(self.s.round, 2) + 1} of 3, "
                f"player {self.s.current + 1} (seat {self.s.current})>")

    # -- position dictionary
    def to_dict(self):
        """The full position as a JSON-serialisable dict (see ``docs/hellas_engine.md``)."""
        c = &self.cc.c
        s = &self.s
        n = s.n_players
        pieces = []
        for f in range(c.n_fields):
            if has128(s.monuments, f):
                pieces.append({"field": f, "kind": "monument", "owner": None})
            for p in range(n):
                for kind, m in (("house", s.houses[p]), ("agora", s.agoras[p]), ("palace", s.palaces[p])):
                    if has128(m, f):
                        pieces.append({"field": f, "kind": kind, "owner": p})
        quarries = [{"field": f, "status": "active" if s.quarry_status[f] == Q_ACTIVE else "closed",
                     "top": int(s.quarry_top[f])}
                    for f in self._quarry_fields() if s.quarry_status[f] != Q_EMPTY]
        opt = lambda v: None if v < 0 else int(v)
        return {
            "game": "hellas", "format": 1, "config": self.cc.py.settings(),
            "round": int(s.round), "phase": PHASES[s.phase],
            "start_player": int(s.start_player), "turn_seat": int(s.turn_seat),
            "active": opt(s.active), "space": opt(s.space),
            "build_turn": [(s.active + k) % n for k in range(s.build_turn)] if s.active >= 0 else [],
            "temple_marker": opt(s.temple_marker),
            "spaces_used": [i for i in range(c.n_spaces) if (s.spaces_used >> i) & 1],
            "cubes_left": [int(s.cubes_left[p]) for p in range(n)],
            "marble": [int(s.marble[p]) for p in range(n)],
            "rings": [int(s.rings[p]) for p in range(n)],
            "monuments_built": [int(s.monuments_built[p]) for p in range(n)],
            "income": [int(s.income[p]) for p in range(n)],
            "pieces": pieces,
            "temples": [{"field": c.temple_field[t], "columns": int(s.temple_cols[t])} for t in range(c.n_temples)],
            "quarries": quarries,
            "worker": opt(s.worker),
            "stack": [int(s.stack[i]) for i in range(s.stack_pos, s.n_stack)],
            "set_aside": [int(s.set_aside[i]) for i in range(s.n_set_aside)],
            "revealed": self._revealed_tiles(), "tile": int(s.tile) if s.tile else None,
            "supply": {"columns": int(s.supply_columns), "rings": int(s.supply_rings),
                       "monuments": int(s.supply_monuments)},
            "rng": [int(s.rng[i]) for i in range(4)],
            "decisions": int(s.decisions),
            "quarry_log": self.quarry_log(),
        }

    @staticmethod
    def from_dict(d, config=None):
        """Rebuild a position from :meth:`to_dict` output (or a hand-written one).

        Missing optional keys take their natural value (no pieces, full supply, ...).

        Raises
        ------
        ValueError
            Naming what is wrong: unknown field, two pieces on one field,
            negative marble, too many pieces, a temple over its size, ...
        """
        from simcore._positions import checked
        return checked(lambda d, config: _from_dict(d, config), d, config, "hellas")


def _dest_name(int v):
    return {-1: None, -2: "set_aside", -3: "new"}.get(v, v)


def _need(cond, msg):
    if not cond:
        raise ValueError("bad hellas position: " + msg)


cdef State _from_dict(d, config):
    cdef State st = State.__new__(State)
    _need(isinstance(d, dict), "expected a dict")
    _need(d.get("game", "hellas") == "hellas", f"game is {d.get('game')!r}, not 'hellas'")
    if config is None:
        settings = dict(d.get("config") or {})
        _need("players" in settings, "config.players is missing")
        players = settings.pop("players")
        config = make_config(players, **settings)
    st.cc = compiled(config)
    st.seed = d.get("seed")
    c = &st.cc.c
    s = &st.s
    memset(s, 0, sizeof(HState))
    n = config.players
    s.n_players = n

    def seat(v, what, allow_none=False):
        if v is None and allow_none:
            return -1
        _need(isinstance(v, int) and 0 <= v < n, f"{what} must be a seat 0..{n - 1}, not {v!r}")
        return v

    def per_seat(key, default, lo=0, hi=10 ** 4):
        v = d.get(key, [default] * n)
        _need(isinstance(v, list) and len(v) == n, f"{key} must list {n} values")
        for x in v:
            _need(isinstance(x, int) and not isinstance(x, bool), f"{key} must hold whole numbers, not {x!r}")
            _need(x >= lo, f"{key} must not be negative ({x})")
            _need(x <= hi, f"{key} value {x} is too large (at most {hi})")
        return v

    phase = d.get("phase", "choose_space")
    _need(phase in PHASES, f"unknown phase {phase!r} (known: {', '.join(PHASES)})")
    s.phase = PHASES.index(phase)
    rnd = d.get("round", 0)
    _need(isinstance(rnd, int) and 0 <= rnd <= 3, f"round must be 0..3, not {rnd!r}")
    _need((rnd == 3) == (phase == "over"), "round 3 goes with phase 'over' and only with it")
    s.round = rnd
    s.start_player = seat(d.get("start_player", 0), "start_player")
    s.turn_seat = seat(d.get("turn_seat", s.start_player), "turn_seat")
    s.active = seat(d.get("active"), "active", True)
    s.temple_marker = seat(d.get("temple_marker"), "temple_marker", True)
    sp = d.get("space")
    _need(sp is None or (isinstance(sp, int) and 0 <= sp < c.n_spaces), f"unknown action space {sp!r}")
    s.space = -1 if sp is None else sp
    bt = d.get("build_turn", [])
    if isinstance(bt, list):        # the seats that finished, from the active seat clockwise (also read as a count)
        _need(s.active >= 0 or not bt, "build_turn must be empty outside a building action")
        _need(bt == [(s.active + k) % n for k in range(len(bt))],
              f"build_turn={bt} must be the seats after active {d.get('active')} in order")
        bt = len(bt)
    _need(isinstance(bt, int) and 0 <= bt < n, f"build_turn must be 0..{n - 1} seats")
    s.build_turn = bt
    for i in d.get("spaces_used", []):
        _need(isinstance(i, int) and 0 <= i < c.n_spaces, f"unknown action space {i!r} in spaces_used")
        s.spaces_used |= <uint16_t>(1 << i)
    for p, v in enumerate(per_seat("cubes_left", 0, 0, 16)):
        s.cubes_left[p] = v
    for p, v in enumerate(per_seat("rings", 0, 0, c.supply_rings)):
        s.rings[p] = v
    for p, v in enumerate(per_seat("monuments_built", 0, 0, c.supply_monuments)):
        s.monuments_built[p] = v
    for p, v in enumerate(per_seat("marble", c.start_marble, 0, 30000)):
        s.marble[p] = v
    for p, v in enumerate(per_seat("income", 0, 0, 30000)):
        s.income[p] = v
    # pieces
    for x in d.get("pieces", []):
        _need(isinstance(x, dict), f"a piece must be a dict, not {x!r}")
        f = x.get("field")
        kind = x.get("kind")
        _need(isinstance(f, int) and 0 <= f < c.n_fields, f"unknown field id {f!r}")
        _need(kind in ("house", "agora", "palace", "monument"), f"unknown piece kind {kind!r} on field {f}")
        _need(has128(c.building, f), f"field {f} is not a building field ({kind} cannot stand there)")
        _need(not has128(s.occupied, f), f"two pieces on field {f}")
        s.occupied |= bit128(f)
        if kind == "monument":
            _need(not has128(c.coast, f), f"monument on coastal field {f}")
            s.monuments |= bit128(f)
            continue
        p = seat(x.get("owner"), f"owner of the {kind} on field {f}")
        s.own[p] |= bit128(f)
        if kind == "house":
            s.houses[p] |= bit128(f)
            s.n_houses[p] += 1
        elif kind == "agora":
            s.agoras[p] |= bit128(f)
            s.n_agoras[p] += 1
        else:
            s.palaces[p] |= bit128(f)
            s.n_palaces[p] += 1
    for p in range(n):
        _need(s.n_houses[p] <= c.max_house, f"seat {p} has {s.n_houses[p]} houses (at most {c.max_house})")
        _need(s.n_agoras[p] <= c.max_agora, f"seat {p} has {s.n_agoras[p]} agoras (at most {c.max_agora})")
        _need(s.n_palaces[p] <= c.max_palace, f"seat {p} has {s.n_palaces[p]} palaces (at most {c.max_palace})")
    # temples
    tf = [c.temple_field[t] for t in range(c.n_temples)]
    cols_total = 0
    for x in d.get("temples", []):
        f = x.get("field") if isinstance(x, dict) else None
        _need(f in tf, f"{f!r} is not a temple field (temples: {tf})")
        t = tf.index(f)
        v = x.get("columns", 0)
        _need(isinstance(v, int) and 0 <= v <= c.temple_size[t],
              f"temple {f} holds 0..{c.temple_size[t]} columns, not {v!r}")
        s.temple_cols[t] = v
        cols_total += v
    _need(cols_total <= c.supply_columns, f"{cols_total} columns in temples; the box has {c.supply_columns}")
    # quarries and tiles
    numbers = set(st.cc.py.tiles.numbers)
    seen = []
    active = 0
    qfields = [c.quarry_field[i] for i in range(c.n_quarry_fields)]
    for x in d.get("quarries", []):
        f = x.get("field") if isinstance(x, dict) else None
        _need(f in qfields, f"{f!r} is not a quarry field")
        _need(s.quarry_status[f] == Q_EMPTY, f"quarry field {f} listed twice")
        status = x.get("status")
        _need(status in ("active", "closed"), f"quarry status must be active or closed, not {status!r}")
        top = x.get("top")
        _need(top in numbers, f"quarry tile {top!r} on field {f} is not a tile number")
        s.quarry_status[f] = Q_ACTIVE if status == "active" else Q_CLOSED
        s.quarry_top[f] = top
        active += status == "active"
        seen.append(top)
    _need(active <= 3, f"{active} active quarries (at most 3)")
    w = d.get("worker")
    _need(w is None or w in qfields, f"worker on {w!r}, which is not a quarry field")
    _need(w is None or worker_target(c, s, w), f"worker on field {w}, which holds a quarry")
    s.worker = -1 if w is None else w
    stack = d.get("stack", [])
    aside = d.get("set_aside", [])
    _need(isinstance(stack, list) and isinstance(aside, list), "stack and set_aside must be lists")
    for v in stack + aside:
        _need(v in numbers, f"tile {v!r} is not a tile number")
    tile = d.get("tile")
    _need(tile is None or tile in numbers, f"pending tile {tile!r} is not a tile number")
    alltiles = seen + stack + aside + ([tile] if tile is not None else [])
    _need(len(set(alltiles)) == len(alltiles), "a tile number appears twice (quarries, stack, set_aside, tile)")
    _need(len(stack) + 1 <= MAXTILES, "stack too long")
    # the stack is stored after the tiles already drawn, so stack_pos counts draws
    s.stack_pos = c.n_tiles - len(stack) if len(stack) <= c.n_tiles else 0
    s.n_stack = s.stack_pos + len(stack)
    drawn = [v for v in st.cc.py.tiles.numbers if v not in set(stack)]
    for i in range(s.stack_pos):
        s.stack[i] = drawn[i] if i < len(drawn) else 0
    for i, v in enumerate(stack):
        s.stack[s.stack_pos + i] = v
    for i, v in enumerate(aside):
        s.set_aside[i] = v
    s.n_set_aside = len(aside)
    s.tile = 0 if tile is None else tile
    rev = d.get("revealed", [])
    if isinstance(rev, list):       # every tile of this quarry action (also read as the count towards four)
        _need(all(isinstance(t, int) for t in rev), f"revealed={rev!r} must list tile numbers")
        rev = len(rev) if c.set_aside_counts else len([t for t in rev if t not in aside])
    _need(isinstance(rev, int) and 0 <= rev <= 4, f"revealed must be 0..4 tiles counted, not {rev!r}")
    s.revealed = rev
    sup = d.get("supply") or {}
    s.supply_columns = sup.get("columns", c.supply_columns - cols_total)
    s.supply_rings = sup.get("rings", c.supply_rings - sum(s.rings[p] for p in range(n)))
    s.supply_monuments = sup.get("monuments", c.supply_monuments - popcount128(s.monuments))
    _need(s.supply_columns >= 0 and s.supply_rings >= 0 and s.supply_monuments >= 0,
          "supply must not be negative")
    dec = d.get("decisions", 0)
    _need(isinstance(dec, int) and dec >= 0, "decisions must be a whole number >= 0")
    s.decisions = dec
    rng = d.get("rng")
    if rng is None:
        rng_seed(s.rng, 0, CHANCE_SALT)
    else:
        _need(isinstance(rng, list) and len(rng) == 4 and all(isinstance(x, int) and 0 <= x < 2 ** 64 for x in rng),
              "rng must list 4 unsigned 64-bit integers")
        for i in range(4):
            s.rng[i] = rng[i]
    for i, q in enumerate(d.get("quarry_log", [])[:MAXQLOG]):
        _load_qlog(&s.qlog[i], q, n)
        s.n_qlog = i + 1
    # the current decision
    if s.phase == PH_OVER:
        s.current = -1
    elif s.phase == PH_CHOOSE:
        s.current = s.turn_seat
    elif s.phase in (PH_BUILD_HOUSE, PH_BUILD_AGORA, PH_BUILD_PALACE):
        _need(s.active >= 0 and s.space >= 0, f"phase {phase} needs 'active' and 'space'")
        s.current = (s.active + s.build_turn) % n
    else:
        _need(s.active >= 0 and s.space >= 0, f"phase {phase} needs 'active' and 'space'")
        s.current = s.active
    if s.phase == PH_QUARRY_PLACE:
        _need(tile is not None, "phase quarry_place needs the pending 'tile'")
        if s.n_qlog == 0:
            s.n_qlog = 1
            _load_qlog(&s.qlog[0], {"round": rnd, "seat": s.active}, n)
    if s.phase == PH_WORKER_MOVE:
        _need(s.worker < 0, "phase worker_move: the worker must be off its field (worker: null)")
        if s.n_qlog == 0:
            s.n_qlog = 1
            _load_qlog(&s.qlog[0], {"round": rnd, "seat": s.active}, n)
    if s.phase != PH_OVER:
        buf = st.legal_actions()
        _need(len(buf) > 0, f"no legal action in phase {phase}")
    st._begin(LOG_POSITION)
    return st


cdef void _load_qlog(QLog* q, dict x, int n):
    memset(q, 0, sizeof(QLog))
    q.round = x.get("round", 0)
    q.seat = x.get("seat", 0)
    inc = x.get("income", [0] * n)
    for p in range(min(n, len(inc))):
        q.income[p] = inc[p]
    tiles = x.get("tiles", [])
    q.n_revealed = len(tiles)
    dests = list(x.get("dest", []))
    for k in range(MAXREV):
        q.dest[k] = -1
    for k, t in enumerate(tiles[:MAXREV]):
        q.tiles[k] = t
        dest = dests[k] if k < len(dests) else None
        q.dest[k] = {None: -1, "set_aside": -2, "new": -3}.get(dest, dest)
    q.opened = -1 if x.get("opened") is None else x["opened"]
    q.closed = -1 if x.get("closed") is None else x["closed"]
    wt = x.get("worker_to")
    q.worker_to = -1 if wt is None else (-2 if wt == "off" else wt)


# ------------------------------------------------------------------ batch kernel

cdef enum:
    N_SPACE_KINDS = 7           # SK_HOUSE .. SK_THREE_MARBLE

#: The players columns of action-space takes, in SK_ order (play_batch).
SPACE_KIND_COLUMNS = ("space_house", "space_house_or_agora", "space_palace", "space_quarry", "space_temple",
                      "space_monument", "space_three_marble")


cdef int play_game(const HCfg* c, HState* s, uint64_t seed, GPolicies* block,
                   int16_t* record, int max_record, Decider** ext, Snaps* snaps=NULL,
                   uint8_t* took=NULL) noexcept nogil:
    """Play one whole game with the seats' policies; return the number of decisions.

    When ``snaps`` is not NULL, the seats' totals as each round ends (``score``
    on the position, simcore/_lead.pxd) are recorded there; the final score is
    the caller's. When ``took`` is not NULL, ``took[seat * N_SPACE_KINDS + kind]`` counts the
    action spaces of each kind the seat chose. When ``record`` is not NULL, the decisions' actions are written there. A
    seat with an external decider (``ext`` not NULL and its entry set: a search
    agent) takes its decisions from it, seeded by the game seed and the
    decision's number.
    """
    cdef int16_t buf[MAXLEGAL]
    cdef uint64_t prng[4]
    cdef int n, a, k = 0, ph, rnd = 0
    cdef u128 fields
    cdef int16_t now[N_SC][MAXP]
    cdef const Policy* pol = block.pol
    setup(c, s, seed)
    rng_seed(prng, seed, POLICY_SALT)
    if snaps != NULL:
        snaps.n = 0
    while s.phase != PH_OVER:
        if snaps != NULL and s.round != rnd:       # a round ended (the last one ends the game: final score)
            rnd = s.round
            score(c, s, now)
            snap_take(snaps, &now[SC_TOTAL][0], s.n_players)
        # the steps of advance(), except that a heuristic's build decisions are
        # taken from the mask of legal fields (choose_build) instead of the list
        ph = s.phase
        if ((ph == PH_BUILD_HOUSE or ph == PH_BUILD_AGORA or ph == PH_BUILD_PALACE)
                and c.nbr_symmetric and build_by_mask(&pol[s.current])):
            fields = build_fields(c, s)
            if not fields:
                apply_action(c, s, A_PASS)      # forced
                continue
            a = choose_build(c, s, &pol[s.current], prng, fields)
        else:
            n = legal_actions(c, s, buf)
            if n == 1:
                if took != NULL and ph == PH_CHOOSE:
                    took[s.current * N_SPACE_KINDS + c.space_kind[buf[0]]] += 1
                apply_action(c, s, buf[0])
                continue
            if n == 0:
                break
            if ext != NULL and ext[s.current] != NULL:
                a = ext[s.current].decide(ext[s.current].ctx, c, s, decision_seed(seed, s.decisions))
            else:
                a = choose_action(c, s, &pol[s.current], prng, buf, n)
            if took != NULL and ph == PH_CHOOSE:
                took[s.current * N_SPACE_KINDS + c.space_kind[a]] += 1
        if record != NULL and k < max_record:
            record[k] = a
        k += 1
        apply_action(c, s, a)
        s.decisions += 1
    return k


def play_batch(players, seeds, policies=None, config=None, events=True, **settings):
    """Play one game per seed with the built-in policies; return columnar results.

    Parameters
    ----------
    players : int
        2, 3 or 4 (must match ``config`` when both are given).
    seeds : array of uint64
        One game seed per game (see ``simcore.rng.game_seeds``).
    policies : None or sequence
        One entry per seat: ``None`` for uniformly random legal actions, or a
        policy vector from :func:`policy_vector`. ``None`` = all random.
    config : HellasConfig, optional
        Settings and data; default ``make_config(players, **settings)``.
    events : bool
        Also return one row per quarry action.

    Returns
    -------
    dict
        ``{"games": {col: (G,)}, "players": {col: (G, players)}, "events": {col: (E,) or (E, 4)}}``;
        the columns are listed in ``docs/results.md``.
    """
    cfg = _resolve_config(players, config, settings)
    cdef CConfig cc = compiled(cfg)
    cdef const HCfg* c = &cc.c
    cdef cnp.uint64_t[::1] sd = np.ascontiguousarray(seeds, dtype=np.uint64).reshape(-1)
    cdef Py_ssize_t G = sd.shape[0], g, e = 0
    cdef int P = cfg.players, p, k, i, most, nwin
    cdef Snaps snaps
    cdef GPolicies pols
    cdef Decider* ext[MAXP]
    keep = load_seats(&pols, ext, policies, P)
    cdef Decider** dx = ext if keep is not None else NULL
    cdef int n_quarry_spaces = sum(1 for sp in cfg.spaces if sp["action"] == "quarry")
    cdef Py_ssize_t E_max = G * min(3 * n_quarry_spaces, MAXQLOG) if events else 0
    names = SCORE_CATEGORIES + ("total",)
    sc_arr = np.zeros((N_SC, G, P), dtype=np.int16)
    cdef int16_t[:, :, ::1] sc = sc_arr
    cols8 = {key: np.zeros((G, P), dtype=np.int8) for key in
             ("rank", "houses", "agoras", "palaces", "monuments_built", "ring_count", "columns")}
    cdef int8_t[:, ::1] rank = cols8["rank"], nh = cols8["houses"], na = cols8["agoras"], np_ = cols8["palaces"]
    cdef int8_t[:, ::1] nm = cols8["monuments_built"], nr = cols8["ring_count"], ncol = cols8["columns"]
    marble_left_a = np.zeros((G, P), dtype=np.int16)
    income_a = np.zeros((G, P), dtype=np.int16)
    share_a = np.zeros((G, P), dtype=np.float32)
    cdef int16_t[:, ::1] marble_left = marble_left_a, income = income_a
    cdef float[:, ::1] share = share_a
    g_decisions_a = np.zeros(G, dtype=np.int16)
    g_qa_a = np.zeros(G, dtype=np.int8)
    g_closed_a = np.zeros(G, dtype=np.int8)
    g_tiles_a = np.zeros(G, dtype=np.int8)
    g_aside_a = np.zeros(G, dtype=np.int8)
    g_worker_off_a = np.zeros(G, dtype=np.bool_)
    g_winners_a = np.zeros(G, dtype=np.uint8)
    g_nwin_a = np.zeros(G, dtype=np.int8)
    g_start_a = np.zeros(G, dtype=np.int8)
    g_final_start_a = np.zeros(G, dtype=np.int8)
    lead_a = np.zeros((3, G), dtype=np.int16)
    cdef int16_t[:, ::1] lead = lead_a
    took_a = np.zeros((G, MAXP * N_SPACE_KINDS), dtype=np.uint8)
    cdef uint8_t[:, ::1] took = took_a
    cdef int16_t[::1] g_decisions = g_decisions_a
    cdef int8_t[::1] g_qa = g_qa_a, g_closed = g_closed_a, g_tiles = g_tiles_a, g_aside = g_aside_a
    cdef int8_t[::1] g_nwin = g_nwin_a, g_start = g_start_a, g_final_start = g_final_start_a
    cdef uint8_t[::1] g_winners = g_winners_a
    cdef cnp.npy_bool[::1] g_worker_off = g_worker_off_a
    ev_game_a = np.zeros(E_max, dtype=np.int32)
    ev_round_a = np.zeros(E_max, dtype=np.int8)
    ev_seat_a = np.zeros(E_max, dtype=np.int8)
    ev_income_a = np.zeros((E_max, 4), dtype=np.int16)
    ev_nrev_a = np.zeros(E_max, dtype=np.int8)
    ev_tiles_a = np.zeros((E_max, 4), dtype=np.uint8)
    ev_dest_a = np.full((E_max, 4), -1, dtype=np.int8)
    ev_opened_a = np.zeros(E_max, dtype=np.int8)
    ev_closed_a = np.zeros(E_max, dtype=np.int8)
    ev_worker_a = np.zeros(E_max, dtype=np.int8)
    cdef int32_t[::1] ev_game = ev_game_a
    cdef int8_t[::1] ev_round = ev_round_a, ev_seat = ev_seat_a, ev_nrev = ev_nrev_a
    cdef int8_t[::1] ev_opened = ev_opened_a, ev_closed = ev_closed_a, ev_worker = ev_worker_a
    cdef int16_t[:, ::1] ev_income = ev_income_a
    cdef uint8_t[:, ::1] ev_tiles = ev_tiles_a
    cdef int8_t[:, ::1] ev_dest = ev_dest_a
    cdef HState st
    cdef int16_t out[N_SC][MAXP]
    cdef QLog* q
    cdef bint want_events = bool(events)
    with nogil:
        for g in range(G):
            play_game(c, &st, sd[g], &pols, NULL, 0, dx, &snaps, &took[g, 0])
            score(c, &st, out)
            snap_take(&snaps, &out[SC_TOTAL][0], P)
            most = -1
            for p in range(P):
                if out[SC_TOTAL][p] > most:
                    most = out[SC_TOTAL][p]
            nwin = 0
            for p in range(P):
                if out[SC_TOTAL][p] == most:
                    nwin += 1
                    g_winners[g] |= <uint8_t>(1 << p)
            g_nwin[g] = nwin
            lead_stats(&snaps, P, g_winners[g], &lead[0, g], &lead[1, g], &lead[2, g])
            for p in range(P):
                for k in range(N_SC):
                    sc[k, g, p] = out[k][p]
                rank[g, p] = 1
                for i in range(P):
                    if out[SC_TOTAL][i] > out[SC_TOTAL][p]:
                        rank[g, p] += 1
                share[g, p] = (1.0 / nwin) if out[SC_TOTAL][p] == most else 0.0
                marble_left[g, p] = st.marble[p]
                income[g, p] = st.income[p]
                nh[g, p] = st.n_houses[p]
                na[g, p] = st.n_agoras[p]
                np_[g, p] = st.n_palaces[p]
                nm[g, p] = st.monuments_built[p]
                nr[g, p] = st.rings[p]
                ncol[g, p] = st.columns_placed[p]
            g_decisions[g] = st.decisions
            g_qa[g] = st.n_qlog
            g_tiles[g] = st.stack_pos
            g_aside[g] = st.n_set_aside
            g_worker_off[g] = st.worker < 0
            g_final_start[g] = st.start_player
            g_start[g] = st.first_player
            for i in range(st.n_qlog):
                q = &st.qlog[i]
                if q.closed >= 0:
                    g_closed[g] += 1
                if want_events:
                    ev_game[e] = <int32_t>g
                    ev_round[e] = q.round
                    ev_seat[e] = q.seat
                    ev_nrev[e] = q.n_revealed
                    ev_opened[e] = q.opened
                    ev_closed[e] = q.closed
                    ev_worker[e] = q.worker_to
                    for k in range(4):
                        ev_income[e, k] = q.income[k] if k < P else 0
                        ev_tiles[e, k] = q.tiles[k]
                        ev_dest[e, k] = q.dest[k]
                    e += 1
    games = {"seed": np.asarray(sd).copy(), "decisions": g_decisions_a, "rounds": np.full(G, 3, np.int8),
             "quarry_actions": g_qa_a, "quarries_closed": g_closed_a, "tiles_drawn": g_tiles_a,
             "tiles_set_aside": g_aside_a, "worker_left_board": g_worker_off_a,
             "start_player": g_start_a, "final_start_player": g_final_start_a,
             "winners": g_winners_a, "n_winners": g_nwin_a,
             "lead_changes": lead_a[0], "led_from": lead_a[1], "max_deficit": lead_a[2]}
    pl = add_seat_points({name: sc_arr[k] for k, name in enumerate(names)}, cfg, G)
    pl.update(rank=cols8["rank"], win_share=share_a, marble_left=marble_left_a, marble_income=income_a,
              houses=cols8["houses"], agoras=cols8["agoras"], palaces=cols8["palaces"],
              monuments_built=cols8["monuments_built"], ring_count=cols8["ring_count"],
              columns=cols8["columns"])
    took3 = took_a.reshape(G, MAXP, N_SPACE_KINDS)[:, :P, :]
    pl.update({name: took3[:, :, k].astype(np.int8) for k, name in enumerate(SPACE_KIND_COLUMNS)})
    ev = {"game": ev_game_a[:e], "round": ev_round_a[:e], "seat": ev_seat_a[:e], "income": ev_income_a[:e],
          "n_revealed": ev_nrev_a[:e], "tiles": ev_tiles_a[:e], "dest": ev_dest_a[:e],
          "opened": ev_opened_a[:e], "closed": ev_closed_a[:e], "worker_to": ev_worker_a[:e]}
    return {"games": games, "players": pl, "events": ev}


include "_policy_api.pxi"
include "_model_features.pxi"
