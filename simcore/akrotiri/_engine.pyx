"""The Akrotiri engine: rules, step API (:class:`State`) and batch kernel (:func:`play_batch`).

One compilation unit: the rules (``_rules.pxi``, which lists the spec decisions
A-Dn) and the built-in policies (``_policy.pxi``) are included here. The decision
encoding, chance and position format are in ``docs/akrotiri_engine.md``.
"""
cimport cython
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free

import numpy as np
cimport numpy as cnp

from simcore._types cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from simcore._rng cimport rng_seed, rng_next, rng_below, rng_uniform, CHANCE_SALT, POLICY_SALT, DETERMINIZE_SALT
from simcore.akrotiri._state cimport *
from simcore._lead cimport Snaps, snap_take, lead_stats
from simcore._settings import add_seat_points

from simcore.akrotiri.config import (BUY_CODES, COLOURS, DECKS, GOAL_KEYS, LANDMARKS, LOAD_CODES,
                                     QUARTERS, SCORE_CATEGORIES, make_config)

cnp.import_array()

cdef int MARKET[8]
MARKET[:] = [1, 2, 2, 3, 3, 4, 4, 5]
cdef int PURCHASE[4]
PURCHASE[:] = [0, 1, 3, 7]

include "_rules.pxi"
include "_policy.pxi"

PHASES = ("place_tile", "second_cube", "keep_goal", "action", "over")
EVENT_KINDS = ("map_bought", "map_excavated", "goal_kept", "goal_scored", "good_sold")
END, PLACE, CUBE, GOAL, SAIL, TRANSPORT, LOAD, EXCAVATE, BUY, ORACLE, SELL, UNLOAD = (
    A_END, A_PLACE, A_CUBE, A_GOAL, A_SAIL, A_TRANSPORT, A_LOAD, A_EXCAVATE, A_BUY, A_ORACLE, A_SELL, A_UNLOAD)
_SIDE = {"N": 0, "E": 1, "S": 2, "W": 3, "C": 4}


cdef class CConfig:
    """An :class:`~simcore.akrotiri.config.AkrotiriConfig` compiled into the C struct."""
    cdef ACfg c
    cdef readonly object py

    def __cinit__(self, cfg):
        memset(&self.c, 0, sizeof(ACfg))
        self.py = cfg
        c = &self.c
        data = cfg.data
        for t, rots in enumerate(data["layouts"]):
            c.lm_type[t] = rots[0].landmark
            c.n_ports[t] = len(rots[0].ports)
            c.n_links[t] = len(rots[0].links)
            for r, lay in enumerate(rots):
                for q in lay.land:
                    c.land[t][r] |= 1 << q
                c.lm_q[t][r] = lay.landmark_quarter
                for k, q in enumerate(lay.ports):
                    c.port_q[t][r][k] = q
                for k, (a, b) in enumerate(lay.links):
                    c.link_a[t][r][k] = _SIDE[a] if isinstance(a, str) else 5 + a
                    c.link_b[t][r][k] = _SIDE[b] if isinstance(b, str) else 5 + b
        for i, card in enumerate(data["cards"]):
            d = card["deck"]
            c.card_deck[i] = d
            c.card_cost[i] = card["cost"]
            c.card_points[i] = card["points"]
            c.n_req[i] = len(card["require"])
            for k, (dr, ty, n) in enumerate(card["require"]):
                c.req_dir[i][k] = dr
                c.req_type[i][k] = ty
                c.req_n[i][k] = n
            c.deck_cards[d][c.n_deck[d]] = i
            c.n_deck[d] += 1
        for g, pts in enumerate(cfg.goal_points()):
            c.goal_points[g] = pts
        for k, code in enumerate(LOAD_CODES):
            c.load_n[k] = len(code)
            for col in code:
                c.load_c[k][col] += 1
        for k, code in enumerate(BUY_CODES):
            c.buy_n[k] = len(code)
            for d in code:
                c.buy_d[k][d] += 1
        legal_tables(c)
        for i, v in enumerate(cfg.action_track):
            c.action_track[i] = v
        c.rotation = bool(cfg.tile_rotation)
        c.same_island_sail = bool(cfg.same_island_sail)
        c.strategist = bool(cfg.strategist)
        c.en1 = cfg.goal_values == "en1"
        c.turn_cap = cfg.turn_cap
        c.start_drachmas = data["start_drachmas"]
        for p in range(2):
            c.seat_bonus[p] = cfg.seat_bonus[p]
            c.seat_points[p] = cfg.seat_points[p]


def _rc(int q):
    return [(q >> 5) - 16, (q & 31) - 16]


# the quarters of Thera (data/thera.json, piece "thera"): no temple stands there
_THERA_QUARTERS = frozenset((-1 + i // 2, -1 + i % 2) for i in range(4))


def _qi(rc):
    r, c = rc
    return (int(r) + 16) * 32 + int(c) + 16


# ------------------------------------------------------------------ the shell's hooks (docs/adding_a_game.md)

ctypedef AState GState
ctypedef ACfg GCfg
ctypedef int16_t GAction
cdef enum:
    G_MAXP = 2
cdef const char* G_NAME = "akrotiri"
ctypedef struct GPolicies:     # the seats' policies (their hooks in _policy_api.pxi)
    Policy pol[2]
    Ctx ctx             # the policies' shared context (caches of one game)

cdef inline bint g_over(const AState* s) noexcept nogil:
    return s.phase == PH_OVER

cdef inline int g_current(const AState* s) noexcept nogil:
    return -1 if s.phase == PH_OVER else s.current

cdef inline int g_n_players(const ACfg* c, const AState* s) noexcept nogil:
    return 2

cdef inline int g_legal_play(const ACfg* c, AState* s, int16_t* buf, const bint* cut) noexcept nogil:
    return legal_actions(c, s, buf)         # (no shortened list)

include "../_engine_shell.pxi"
include "../_step_api.pxi"


cdef class State(StepState):
    """An Akrotiri position with the step API (see ``docs/akrotiri_engine.md``).

    Examples
    --------
    >>> from simcore import akrotiri
    >>> st = akrotiri.new_game(seed=7)
    >>> while not st.is_over():
    ...     st.apply(st.legal_actions()[0])
    >>> sorted(st.scores())
    ['goals', 'maps', 'money', 'total']
    """

    cdef list _setup_entries(self):
        log = [{"kind": "setup", "seed": self.seed, "text": f"set-up from seed {self.seed}"}]
        self._log_tiles(log, NO_TILE, NO_TILE)
        return log

    cdef _log_tiles(self, list log, int t0, int t1):
        cdef int p
        for p in range(2):
            if self.s.tile[p] != NO_TILE and self.s.tile[p] != (t0 if p == 0 else t1):
                log.append({"kind": "tile", "seat": p, "tile": int(self.s.tile[p]),
                            "text": f"seat {p} takes tile {self.s.tile[p]}"})

    cdef _logged_step(self, list log, int action, str kind):
        cdef int t0 = self.s.tile[0], t1 = self.s.tile[1]
        log.append({"kind": kind, "seat": int(self.s.current), "action": action,
                    "text": self.action_to_str(action)})
        apply_action(&self.cc.c, &self.s, action)
        self._log_tiles(log, t0, t1)

    # -- queries
    @property
    def phase(self):
        return PHASES[self.s.phase]

    @property
    def players(self):
        return 2

    @property
    def decisions(self):
        return int(self.s.decisions)

    @property
    def turns(self):
        return [int(self.s.turns[0]), int(self.s.turns[1])]

    def scores(self):
        """Points per category and seat: ``{"maps": [...], "goals", "money", "total"}``."""
        cdef int16_t out[N_SC][2]
        cdef int16_t gout[2][NGOAL]
        score(&self.cc.c, &self.s, out, gout)
        names = SCORE_CATEGORIES + ("total",)
        return add_seat_points({name: [int(out[k][0]), int(out[k][1])] for k, name in enumerate(names)},
                               self.cc.py)

    def goal_scores(self):
        """Per seat: goal key -> points (0 for goals not held)."""
        cdef int16_t out[N_SC][2]
        cdef int16_t gout[2][NGOAL]
        score(&self.cc.c, &self.s, out, gout)
        return [{k: int(gout[p][g]) for g, k in enumerate(GOAL_KEYS)} for p in range(2)]

    def winners(self):
        """Seats with the best (total, drachmas); both on a shared win (spec 11)."""
        sc = self.scores()["total"]
        key = [(sc[p], self.s.drachmas[p]) for p in range(2)]
        best = max(key)
        return [p for p in range(2) if key[p] == best]

    def landmark_count(self, int landmark, direction, int r, int c, int seat):
        """Spec 7.3 count(t, D): landmarks of type ``landmark`` in direction ``direction`` ("N", "E", "S", "W")
        of quarter ``(r, c)``, as seat ``seat`` reads the card."""
        return landmark_count(&self.s, landmark, "NESW".index(direction), _qi((r, c)), seat)

    def map_fits(self, card, int r, int c, int seat):
        """Spec 7.2: map ``card`` (index or id like "E01") is satisfied for ``seat`` at quarter ``(r, c)``."""
        if isinstance(card, str):
            card = [x["id"] for x in self.cc.py.data["cards"]].index(card)
        return bool(satisfied(&self.cc.c, &self.s, card, _qi((r, c)), seat))

    def map_region(self, card, int seat):
        """The quarters where map ``card`` is satisfied for ``seat``, as the open rectangle the policy uses:
        ``(rlo, rhi, clo, chi)`` in spec coordinates, satisfied iff ``rlo < r < rhi`` and ``clo < c < chi``
        (``None`` when no quarter can satisfy it)."""
        cdef int rlo, rhi, clo, chi
        if isinstance(card, str):
            card = [x["id"] for x in self.cc.py.data["cards"]].index(card)
        map_rect(&self.cc.c, &self.s, card, seat, &rlo, &rhi, &clo, &chi)
        if rhi <= rlo + 1 or chi <= clo + 1:
            return None
        return (rlo - 16, rhi - 16, clo - 16, chi - 16)

    def policy_action(self, policy, seed=0):
        """The action the built-in ``policy`` (vector or None) picks here, its noise drawn from ``seed``."""
        cdef int16_t buf[MAXLEGAL]
        cdef uint64_t prng[4]
        cdef Policy pol
        cdef Ctx ctx
        ctx_reset(&ctx)
        load_policy(&pol, policy)
        rng_seed(prng, <uint64_t>int(seed), POLICY_SALT)
        n = legal_actions(&self.cc.c, &self.s, buf)
        if n == 0:
            raise ValueError("the game is over: no action to choose")
        return int(choose_action(&self.cc.c, &self.s, &pol, prng, buf, n, &ctx))

    # -- text
    def action_to_str(self, int a):
        """Human-readable text of action ``a`` in the current decision."""
        p = self.s.current
        who = f"seat {p}: "
        ph = self.s.phase
        if ph == PH_PLACE and A_PLACE <= a < A_CUBE:
            cell, rot = divmod(a - A_PLACE, 4)
            return who + f"place tile {self.s.tile[p]} on cell ({cell % 16 - 8}, {cell // 16 - 8}), rotation {rot}"
        if ph == PH_CUBE and A_CUBE <= a < A_GOAL:
            col, q = divmod(a - A_CUBE, 4)
            return who + f"second cube: {COLOURS[col]} on the {QUARTERS[q]} quarter"
        if ph == PH_GOAL and A_GOAL <= a < A_GOAL + self.s.n_options:
            return who + f"keep goal G{self.s.options[a - A_GOAL] + 1:02d}"
        if ph != PH_ACTION:
            return who + f"unknown action {a}"
        if a == A_END:
            return who + "end the turn"
        if A_SAIL <= a < A_TRANSPORT:
            return who + f"sail to port {_port_name(a - A_SAIL)}"
        if A_TRANSPORT <= a < A_LOAD:
            return who + f"transport to port {_port_name(a - A_TRANSPORT)}"
        if A_LOAD <= a < A_EXCAVATE:
            return who + "load " + ", ".join(COLOURS[x] for x in LOAD_CODES[a - A_LOAD])
        if A_EXCAVATE <= a < A_BUY:
            card, i = divmod(a - A_EXCAVATE, 4)
            return who + f"excavate with map {self.cc.py.data['cards'][card]['id']} on island quarter {i}"
        if A_BUY <= a < A_ORACLE:
            return who + "buy maps: " + ", ".join(DECKS[d] for d in BUY_CODES[a - A_BUY])
        if A_ORACLE <= a < A_SELL:
            return who + f"consult the Oracle for a {LANDMARKS[a - A_ORACLE]}"
        if A_SELL <= a < A_UNLOAD:
            return who + f"sell a {COLOURS[a - A_SELL]} cube"
        if A_UNLOAD <= a < N_ACTIONS:
            return who + f"unload a {COLOURS[a - A_UNLOAD]} cube"
        return who + f"unknown action {a}"

    def describe(self):
        """A readable multi-line summary of the position."""
        d = self.to_dict()
        sc = self.scores()
        lines = [f"Akrotiri, phase {d['phase']}" + ("" if d["phase"] == "over" else f", player {d['current'] + 1} to decide")
                 + f", {len(d['tiles'])} tiles placed, market out {d['market_out']}"]
        for p, x in enumerate(d["seats"]):
            lines.append(f"  player {p + 1} (seat {p}): turn {x['turns']}, port {_port_name(x['port'])}, cargo {x['cargo']}, "
                         f"{x['drachmas']} drachmas, temples {len(x['temples'])}, maps in hand {len(x['hand'])}, "
                         f"score now {sc['total'][p]}")
        return "\n".join(lines)

    def __repr__(self):
        return f"<akrotiri.State {PHASES[self.s.phase]} player {self.s.current + 1} (seat {self.s.current})>"

    # -- position dictionary
    def to_dict(self):
        """The full position as a JSON-serialisable dict (see ``docs/akrotiri_engine.md``)."""
        s = &self.s
        tiles = []
        for i in range(s.n_placed):
            cell = s.placed[i]
            tiles.append({"tile": int(s.cell[cell]), "x": cell % 16 - 8, "y": cell // 16 - 8,
                          "rot": int(s.cell_rot[cell])})
        cubes = [{"r": q // 32 - 16, "c": q % 32 - 16, "cubes": [int(s.cubes[q][k]) for k in range(4)]}
                 for q in range(NQ) if s.cubes[q][0] or s.cubes[q][1] or s.cubes[q][2] or s.cubes[q][3]]
        seats = []
        for p in range(2):
            seats.append({"port": int(s.port[p]), "cargo": [int(s.cargo[p][k]) for k in range(4)],
                          "drachmas": int(s.drachmas[p]),
                          "temples": [_rc(s.temple_q[p][k]) for k in range(s.n_temples[p])],
                          "hand": [k for k in range(NCARD) if (s.hand[p] >> k) & 1],
                          "excavated": [k for k in range(NCARD) if (s.excavated[p] >> k) & 1],
                          "goals": [g for g in range(NGOAL) if (s.goals[p] >> g) & 1],
                          "tile": None if s.tile[p] == NO_TILE else int(s.tile[p]),
                          "turns": int(s.turns[p]), "sold": int(s.sold[p]), "income": int(s.income[p])})
        return {
            "game": "akrotiri", "format": 1, "config": self.cc.py.settings(),
            "phase": PHASES[s.phase], "current": int(s.current) if s.phase != PH_OVER else None,
            "stage": "over" if s.phase == PH_OVER else ("setup" if s.stage == ST_SETUP else "play"),
            "actions": int(s.actions), "bonus": bool(s.bonus), "oracle_used": bool(s.oracle_used),
            "end_trigger": [None, "temples", "turn_cap"][s.end_trigger], "decisions": int(s.decisions),
            "tiles": tiles, "cubes": cubes, "market_out": [int(s.out[k]) for k in range(4)],
            "pile": [int(s.pile[i]) for i in range(s.pile_pos, s.pile_n)],
            "discard": [int(s.disc[i]) for i in range(s.disc_n)],
            "decks": [[int(s.deck[d][i]) for i in range(s.deck_pos[d], s.deck_n[d])] for d in range(3)],
            "goal_deck": [int(s.goal_deck[i]) for i in range(s.goal_head, s.goal_tail)],
            "display": [int(s.display[i]) for i in range(s.n_display)],
            "goal_options": [int(s.options[i]) for i in range(s.n_options)],
            "deal": [[int(s.deal[p][i]) for i in range(2)] for p in range(2)],
            "placed_cell": None if s.placed_cell < 0 else int(s.placed_cell),
            "seats": seats,
            "rng": [int(s.rng[i]) for i in range(4)],
            "events": self.events(),
            "events_dropped": int(s.ev_dropped),
        }

    def events(self):
        """The events so far, as dicts (kinds: ``EVENT_KINDS``)."""
        out = []
        for i in range(self.s.n_ev):
            e = self.s.ev[i]
            out.append({"kind": EVENT_KINDS[e.kind], "seat": e.seat, "turn": e.turn, "deck": e.deck,
                        "card": e.card, "cost": e.cost, "points": e.points, "colour": e.colour,
                        "price": e.price, "quantity": e.quantity, "goal": e.goal})
        return out

    @staticmethod
    def from_dict(d, config=None):
        """Rebuild a position from :meth:`to_dict` output.

        Raises
        ------
        ValueError
            Naming what is wrong (unknown tile, a tile twice, a bad seat, ...).
        """
        from simcore._positions import checked
        return checked(lambda d, config: _from_dict(d, config), d, config, "akrotiri")


def _port_name(int q):
    if q == PORT_T0:
        return "T0"
    if q == PORT_T1:
        return "T1"
    return f"p{q % 4} of tile {q // 4}"


def _need(cond, msg):
    if not cond:
        raise ValueError("bad akrotiri position: " + msg)


cdef State _from_dict(d, config):
    cdef State st = State.__new__(State)
    cdef int i, k, p, cell
    _need(isinstance(d, dict), "expected a dict")
    _need(d.get("game", "akrotiri") == "akrotiri", f"game is {d.get('game')!r}, not 'akrotiri'")
    if config is None:
        settings = dict(d.get("config") or {})
        players = settings.pop("players", 2)
        config = make_config(players, **settings)
    st.cc = compiled(config)
    st.seed = d.get("seed")
    c = &st.cc.c
    s = &st.s
    setup(c, s, 0)
    s.tile[0] = NO_TILE
    s.pile_pos = 0
    s.pile_n = 0
    try:
        seen = set()
        for t in d["tiles"]:
            tile, x, y, rot = int(t["tile"]), int(t["x"]), int(t["y"]), int(t["rot"])
            _need(0 <= tile < NTILE and tile not in seen, f"tile {tile} unknown or placed twice")
            _need(-8 <= x < 8 and -8 <= y < 8 and 0 <= rot < 4, f"tile {tile}: cell or rotation out of range")
            cell = (y + 8) * 16 + x + 8
            _need(s.cell[cell] == CELL_EMPTY, f"cell ({x}, {y}) is occupied twice")
            seen.add(tile)
            place_tile(c, s, tile, rot, cell)
        for x in d.get("cubes", []):
            q = _qi((x["r"], x["c"]))
            _need(0 <= q < NQ and s.land[q], f"cubes on quarter ({x['r']}, {x['c']}), which is not land")
            for k in range(4):
                s.cubes[q][k] = int(x["cubes"][k])
        for k in range(4):
            s.out[k] = int(d["market_out"][k])
            _need(0 <= s.out[k] <= 8, "market_out must be 0..8")
        for i, t in enumerate(d["pile"]):
            s.pile[i] = int(t)
        s.pile_n = len(d["pile"])
        for i, t in enumerate(d["discard"]):
            s.disc[i] = int(t)
        s.disc_n = len(d["discard"])
        for dk in range(3):
            s.deck_pos[dk] = 0
            s.deck_n[dk] = len(d["decks"][dk])
            for i, cd in enumerate(d["decks"][dk]):
                s.deck[dk][i] = int(cd)
        s.goal_head = 0
        s.goal_tail = len(d["goal_deck"])
        for i, g in enumerate(d["goal_deck"]):
            s.goal_deck[i] = int(g)
        s.n_display = len(d.get("display", []))
        for i, g in enumerate(d.get("display", [])):
            s.display[i] = int(g)
        s.n_options = len(d.get("goal_options", []))
        for i, g in enumerate(d.get("goal_options", [])):
            s.options[i] = int(g)
        for p in range(2):
            for i in range(2):
                s.deal[p][i] = int(d.get("deal", [[0, 0], [0, 0]])[p][i])
        pc = d.get("placed_cell")
        s.placed_cell = -1 if pc is None else int(pc)
        _need(len(d["seats"]) == 2, "seats must list 2 seats")
        for p, x in enumerate(d["seats"]):
            s.port[p] = int(x["port"])
            _need(0 <= s.port[p] < NPORT and s.port_q[s.port[p]] >= 0, f"seat {p}'s port {s.port[p]} is not on the table")
            for k in range(4):
                s.cargo[p][k] = int(x["cargo"][k])
            _need(sum(x["cargo"]) <= 3, f"seat {p} carries more than 3 cubes")
            s.drachmas[p] = int(x["drachmas"])
            _need(s.drachmas[p] >= 0, f"seat {p} has negative drachmas")
            s.n_temples[p] = len(x["temples"])
            _need(s.n_temples[p] <= 6, f"seat {p} has more than 6 temples")
            for k, rc in enumerate(x["temples"]):
                s.temple_q[p][k] = _qi(rc)
                _need(0 <= s.temple_q[p][k] < NQ, f"seat {p}: temple {rc} outside the window")
                # a temple stands on a land quarter of a tile's island, one a quarter (spec: excavate)
                _need((int(rc[0]), int(rc[1])) not in _THERA_QUARTERS,
                      f"seat {p}: temple {list(rc)} is on Thera, where no temple can stand")
                _need(s.land[s.temple_q[p][k]], f"seat {p}: temple {list(rc)} is not on land")
                _need(not s.temple_at[s.temple_q[p][k]], f"temple {list(rc)} is there twice")
                s.temple_at[s.temple_q[p][k]] = 1
            s.hand[p] = 0
            for k in x["hand"]:
                s.hand[p] |= (<uint64_t>1) << int(k)
            s.excavated[p] = 0
            for k in x["excavated"]:
                s.excavated[p] |= (<uint64_t>1) << int(k)
            s.goals[p] = 0
            for g in x["goals"]:
                s.goals[p] |= <uint16_t>(1 << int(g))
            s.tile[p] = NO_TILE if x["tile"] is None else int(x["tile"])
            s.turns[p] = int(x["turns"])
            s.sold[p] = int(x.get("sold", 0))
            s.income[p] = int(x.get("income", 0))
        phase = d["phase"]
        _need(phase in PHASES, f"unknown phase {phase!r} (known: {', '.join(PHASES)})")
        s.phase = PHASES.index(phase)
        s.stage = ST_SETUP if d.get("stage") == "setup" else ST_PLAY
        s.current = -1 if d.get("current") is None else int(d["current"])
        _need(s.phase == PH_OVER or s.current in (0, 1), "current must be seat 0 or 1")
        s.actions = int(d.get("actions", 0))
        s.bonus = bool(d.get("bonus"))
        s.oracle_used = bool(d.get("oracle_used"))
        s.end_trigger = [None, "temples", "turn_cap"].index(d.get("end_trigger"))
        s.decisions = int(d.get("decisions", 0))
        rng = d.get("rng")
        if rng is not None:
            for i in range(4):
                s.rng[i] = int(rng[i])
        for e in d.get("events", [])[:MAXEV]:
            log_event(s, EVENT_KINDS.index(e["kind"]), e["seat"], e["deck"], e["card"], e["cost"], e["points"],
                      e["colour"], e["price"], e["quantity"], e["goal"])
            s.ev[s.n_ev - 1].turn = e["turn"]
        s.ev_dropped = int(d.get("events_dropped", 0))
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"bad akrotiri position: missing or malformed entry ({exc!r})") from None
    st._begin(LOG_POSITION)
    return st


# ------------------------------------------------------------------ batch kernel

cdef inline void running_total(const ACfg* c, const AState* s, int16_t out[2]) noexcept nogil:
    """The score so far without the goals: maps excavated, drachmas // 10, seat points. The goals are
    secret and score at the end only (spec 9); evaluating them on the board at every round would cost
    about 15% of a game, so the lead's snapshots leave them to the final score."""
    cdef int p, k
    for p in range(2):
        out[p] = <int16_t>(s.drachmas[p] // 10 + c.seat_points[p])
        for k in range(NCARD):
            if (s.excavated[p] >> k) & 1:
                out[p] += c.card_points[k]


cdef int play_game(const ACfg* c, AState* s, uint64_t seed, GPolicies* block,
                   int16_t* record, int max_record, Decider** ext, Snaps* snaps=NULL) noexcept nogil:
    """Play one whole game with the seats' policies (``block``: loaded by make_policies, its
    context reused from game to game); return the number of decisions. A seat with an external decider (``ext`` not
    NULL and its entry set: a search agent) takes its decisions from it, seeded by the game seed
    and the decision's number. When ``snaps`` is not NULL, the seats' running totals after each round
    (seat 1's turn: :func:`running_total` at seat 0's next decision, simcore/_lead.pxd) are recorded
    there; the final score is the caller's."""
    cdef int16_t buf[MAXLEGAL]
    cdef uint64_t prng[4]
    cdef int n, a, k = 0, rnd
    cdef int16_t now[2]
    cdef const Policy* pol = block.pol
    cdef Ctx* ctx = &block.ctx
    ctx_new_game(ctx)
    setup(c, s, seed)
    rng_seed(prng, seed, POLICY_SALT)
    n = advance(c, s, buf, NULL)
    rnd = s.turns[0]
    if snaps != NULL:
        snaps.n = 0
    while n > 0:
        if snaps != NULL and s.turns[0] != rnd:
            if rnd > 0:                 # not the end of set-up (turn 0): a round of two turns ended
                running_total(c, s, now)
                snap_take(snaps, now, 2)
            rnd = s.turns[0]
        if ext != NULL and ext[s.current] != NULL:
            a = ext[s.current].decide(ext[s.current].ctx, c, s, decision_seed(seed, s.decisions))
        else:
            a = choose_action(c, s, &pol[s.current], prng, buf, n, ctx)
        if record != NULL and k < max_record:
            record[k] = a
        k += 1
        apply_action(c, s, a)
        s.decisions += 1
        n = advance(c, s, buf, NULL)
    return k


def play_batch(players, seeds, policies=None, config=None, events=True, **settings):
    """Play one game per seed with the built-in policies; return columnar results.

    Parameters
    ----------
    players : int
        2 (Akrotiri is a two-player game).
    seeds : array of uint64
        One game seed per game.
    policies : None or sequence of 2
        Per seat: ``None`` (uniformly random legal actions) or a policy vector
        (``features.policy_vector``).
    config : AkrotiriConfig, optional
    events : bool
        Also return the event rows (maps bought and excavated, goals kept and
        scored, goods sold).

    Returns
    -------
    dict
        ``{"games": {col: (G,)}, "players": {col: (G, 2)}, "events": {col: (E,)}}``.
    """
    cfg = _resolve_config(players, config, settings)
    cdef CConfig cc = compiled(cfg)
    cdef const ACfg* c = &cc.c
    cdef cnp.uint64_t[::1] sd = np.ascontiguousarray(seeds, dtype=np.uint64).reshape(-1)
    cdef Py_ssize_t G = sd.shape[0], g, e = 0
    cdef int p, k, i, nwin, better
    cdef Decider* ext[2]
    cdef Decider** dx = NULL
    cdef bint want_events = bool(events)
    cdef Py_ssize_t E_max = G * (MAXEV + 2 * NGOAL) if want_events else 0
    sc_arr = np.zeros((N_SC, G, 2), dtype=np.int16)
    cdef int16_t[:, :, ::1] sc = sc_arr
    goal_arr = np.zeros((NGOAL, G, 2), dtype=np.int16)
    cdef int16_t[:, :, ::1] gsc = goal_arr
    share_a = np.zeros((G, 2), dtype=np.float32)
    cdef float[:, ::1] share = share_a
    rank_a = np.zeros((G, 2), dtype=np.int8)
    cdef int8_t[:, ::1] rank = rank_a
    pl16 = {key: np.zeros((G, 2), dtype=np.int16) for key in
            ("drachmas", "temples", "maps_in_hand", "maps_excavated", "cubes_sold", "sales_income", "turns")}
    cdef int16_t[:, ::1] drach = pl16["drachmas"], ntem = pl16["temples"], inhand = pl16["maps_in_hand"]
    cdef int16_t[:, ::1] nexc = pl16["maps_excavated"], nsold = pl16["cubes_sold"], inc = pl16["sales_income"]
    cdef int16_t[:, ::1] nturn = pl16["turns"]
    g_dec_a = np.zeros(G, dtype=np.int32)
    g_turns_a = np.zeros(G, dtype=np.int16)
    g_trig_a = np.zeros(G, dtype=np.int8)
    g_tiles_a = np.zeros(G, dtype=np.int8)
    g_win_a = np.zeros(G, dtype=np.uint8)
    g_nwin_a = np.zeros(G, dtype=np.int8)
    g_drop_a = np.zeros(G, dtype=np.int16)
    cdef int32_t[::1] g_dec = g_dec_a
    cdef int16_t[::1] g_turns = g_turns_a, g_drop = g_drop_a
    cdef int8_t[::1] g_trig = g_trig_a, g_tiles = g_tiles_a, g_nwin = g_nwin_a
    cdef uint8_t[::1] g_win = g_win_a
    ev_cols = {key: np.zeros(E_max, dtype=np.int8) for key in
               ("kind", "seat", "deck", "card", "cost", "points", "colour", "price", "quantity", "goal")}
    ev_game_a = np.zeros(E_max, dtype=np.int32)
    ev_turn_a = np.zeros(E_max, dtype=np.int16)
    cdef int32_t[::1] ev_game = ev_game_a
    cdef int16_t[::1] ev_turn = ev_turn_a
    cdef int8_t[::1] ev_kind = ev_cols["kind"], ev_seat = ev_cols["seat"], ev_deck = ev_cols["deck"]
    cdef int8_t[::1] ev_card = ev_cols["card"], ev_cost = ev_cols["cost"], ev_points = ev_cols["points"]
    cdef int8_t[::1] ev_colour = ev_cols["colour"], ev_price = ev_cols["price"], ev_qty = ev_cols["quantity"]
    cdef int8_t[::1] ev_goal = ev_cols["goal"]
    cdef AState* st = <AState*>malloc(sizeof(AState))
    cdef GPolicies* pols = <GPolicies*>malloc(sizeof(GPolicies))
    cdef int16_t out[N_SC][2]
    cdef int16_t gout[2][NGOAL]
    cdef Event* ev
    cdef Snaps snaps
    lead_a = np.zeros((3, G), dtype=np.int16)
    cdef int16_t[:, ::1] lead = lead_a
    try:
        if st == NULL or pols == NULL:
            raise MemoryError()
        keep = load_seats(pols, ext, policies, 2)
        if keep is not None:
            dx = ext
        with nogil:
            for g in range(G):
                g_dec[g] = play_game(c, st, sd[g], pols, NULL, 0, dx, &snaps)
                score(c, st, out, gout)
                nwin = 0
                for p in range(2):
                    better = (out[SC_TOTAL][1 - p] > out[SC_TOTAL][p] or
                              (out[SC_TOTAL][1 - p] == out[SC_TOTAL][p] and st.drachmas[1 - p] > st.drachmas[p]))
                    rank[g, p] = 1 + better
                    if not better:
                        nwin += 1
                        g_win[g] |= <uint8_t>(1 << p)
                g_nwin[g] = nwin
                snap_take(&snaps, &out[SC_TOTAL][0], 2)
                lead_stats(&snaps, 2, g_win[g], &lead[0, g], &lead[1, g], &lead[2, g])
                for p in range(2):
                    share[g, p] = (1.0 / nwin) if rank[g, p] == 1 else 0.0
                    for k in range(N_SC):
                        sc[k, g, p] = out[k][p]
                    for k in range(NGOAL):
                        gsc[k, g, p] = gout[p][k]
                    drach[g, p] = st.drachmas[p]
                    ntem[g, p] = st.n_temples[p]
                    inhand[g, p] = 0
                    nexc[g, p] = 0
                    for k in range(NCARD):
                        inhand[g, p] += (st.hand[p] >> k) & 1
                        nexc[g, p] += (st.excavated[p] >> k) & 1
                    nsold[g, p] = st.sold[p]
                    inc[g, p] = st.income[p]
                    nturn[g, p] = st.turns[p]
                g_turns[g] = st.turns[0] if st.turns[0] > st.turns[1] else st.turns[1]
                g_trig[g] = st.end_trigger
                g_tiles[g] = st.n_placed
                g_drop[g] = st.ev_dropped         # events past MAXEV, not recorded (as the state's counter)
                if want_events:
                    for i in range(st.n_ev):
                        ev = &st.ev[i]
                        ev_game[e] = <int32_t>g
                        ev_kind[e] = ev.kind
                        ev_seat[e] = ev.seat
                        ev_turn[e] = ev.turn
                        ev_deck[e] = ev.deck
                        ev_card[e] = ev.card
                        ev_cost[e] = ev.cost
                        ev_points[e] = ev.points
                        ev_colour[e] = ev.colour
                        ev_price[e] = ev.price
                        ev_qty[e] = ev.quantity
                        ev_goal[e] = ev.goal
                        e += 1
                    for p in range(2):
                        for k in range(NGOAL):
                            if (st.goals[p] >> k) & 1:
                                ev_game[e] = <int32_t>g
                                ev_kind[e] = EV_GOAL_SCORED
                                ev_seat[e] = p
                                ev_turn[e] = st.turns[p]
                                ev_deck[e] = -1
                                ev_card[e] = -1
                                ev_colour[e] = -1
                                ev_points[e] = <int8_t>gout[p][k]
                                ev_goal[e] = k
                                e += 1
    finally:
        free(st)
        free(pols)
    games = {"seed": np.asarray(sd).copy(), "decisions": g_dec_a, "turns": g_turns_a,
             "end_trigger": g_trig_a, "tiles_placed": g_tiles_a, "winners": g_win_a, "n_winners": g_nwin_a,
             "events_dropped": g_drop_a,
             "lead_changes": lead_a[0], "led_from": lead_a[1], "max_deficit": lead_a[2]}
    names = SCORE_CATEGORIES + ("total",)
    pl = add_seat_points({name: sc_arr[j] for j, name in enumerate(names)}, cfg, G)
    pl.update({f"goal_{key}": goal_arr[j] for j, key in enumerate(GOAL_KEYS)})
    pl.update(rank=rank_a, win_share=share_a, **pl16)
    evd = {"game": ev_game_a[:e], "turn": ev_turn_a[:e]}
    evd.update({key: v[:e] for key, v in ev_cols.items()})
    return {"games": games, "players": pl, "events": evd}


include "_policy_api.pxi"
include "_model_features.pxi"
