"""The Yamataï engine: rules, step API (:class:`State`) and batch kernel (:func:`play_batch`).

One compilation unit: the rules (``_rules.pxi``) and the built-in policies
(``_policy.pxi``) are included here so the C compiler can inline them into
the kernel. The decision encoding, chance and position format are in
``docs/yamatai_engine.md``; the spec decisions Y-Dn are listed in ``_rules.pxi``.
"""
cimport cython
from libc.string cimport memset, memcpy
from libc.math cimport exp

import itertools

import numpy as np
cimport numpy as cnp

from simcore._types cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t, u128
from simcore._types cimport bit128, popcount128, ctz128, has128
from simcore._rng cimport rng_seed, rng_next, rng_below, rng_uniform, CHANCE_SALT, POLICY_SALT, DETERMINIZE_SALT
from simcore.yamatai._state cimport *
from simcore._lead cimport Snaps, snap_take, lead_stats
from simcore._settings import add_seat_points

from simcore.yamatai.config import (COLOURS, PAYMENTS, SCORE_CATEGORIES, TRIGGERS, default_token_names, make_config)

cnp.import_array()

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_popcount(unsigned int) nogil

cdef int PAY3[20][3]
cdef uint32_t PAY3_OK[64]       # by the token types held (bits): bit k if three-type payment k is payable
for _k, _pay in enumerate(PAYMENTS[6:]):
    PAY3[_k][0], PAY3[_k][1], PAY3[_k][2] = _pay
for _held in range(64):
    PAY3_OK[_held] = sum(1 << _k for _k, _pay in enumerate(PAYMENTS[6:]) if all((_held >> _x) & 1 for _x in _pay))

include "_rules.pxi"

STAGES = ("fleet", "fleet10", "pre", "place", "post", "collect", "after", "remove", "port", "recruit", "over")
PASS = A_PASS
TYPE_NAMES = default_token_names()   # action_text without a config
_USED = (("fleet", U_FLEET), ("raijin", U_RAIJIN), ("nakatsu", U_NAKATSU), ("michimata", U_MICHIMATA),
         ("hetsuka", U_HETSUKA), ("kachiko", U_KACHIKO), ("ebisu", U_EBISU))


cdef class CConfig:
    """A :class:`~simcore.yamatai.config.YamataiConfig` compiled into the C struct."""
    cdef YCfg c
    cdef readonly object py

    def __cinit__(self, cfg):
        cdef int i, k, col
        memset(&self.c, 0, sizeof(YCfg))
        self.py = cfg
        b = cfg.board_data
        c = &self.c
        c.n_players = cfg.players
        c.n_pawns = cfg.pawns
        c.n_islands = b.n_islands
        c.n_sea = b.n_sea
        for i in range(b.n_sea):
            for j in b.sea_nbrs[i]:
                c.sea_nbr[i] |= bit128(j)
        for i in range(b.n_islands):
            for j in b.island_sea[i]:
                c.island_sea[i] |= bit128(j)
            for j in b.island_nbrs[i]:
                c.island_nbr[i] |= (<uint64_t>1) << j
            for j in b.island_sea[i]:
                c.sea_island[j] |= (<uint64_t>1) << i
        for i in range(b.n_sea):
            c.all_sea |= bit128(i)
        for i in range(b.n_islands):
            c.all_isl |= (<uint64_t>1) << i
        for j in b.entries:
            c.entries |= bit128(j)
        for j in b.edges:
            c.edges |= bit128(j)
        c.n_tiles = len(cfg.tiles)
        for i, t in enumerate(cfg.tiles):
            c.tile_kind[i] = t.kind
            c.tile_pp[i] = t.pp
            c.tile_tp[i] = t.trading_post
            for col in range(NCOL):
                c.tile_boats[i][col] = t.boats[col]
                c.tile_need[i] |= (<uint64_t>t.boats[col]) << (8 * col)
            for k in range(21):
                c.tile_fit[i][k] = t.pp / (1.0 + k)
        for i in range(NSPEC):
            c.spec_pp[i] = cfg.spec_pp[i]
        for col in range(NCOL):
            c.buy[col] = cfg.buy_price(col)
            c.sell[col] = cfg.sell_price(col)
            c.sell_susanoo[col] = cfg.sell_price(col, True)
            c.supply[col] = cfg.supply_boats[col]
        pb = cfg.pb
        c.port_cap = int(pb["port_capacity"])
        c.riu_bonus = int(pb["riu_port_bonus"])
        c.trans = int(pb["transactions_per_turn"])
        c.izanagi_trans = int(pb["izanagi_transactions_per_turn"])
        c.start_coins = int(pb["setup"]["start_coins"])
        for i in range(cfg.players):
            c.seat_bonus[i] = cfg.seat_bonus[i]
            c.seat_points[i] = cfg.seat_points[i]
        c.pieces = cfg.pieces
        c.sacred = int(pb["setup"]["sacred_site_tokens"])
        c.coins_per_pp = int(pb["coins_per_pp"])
        c.fuhsi_per_pp = int(pb["fu_hsi_coins_per_pp"])
        c.round_cap = cfg.round_cap
        for k, boats in enumerate(cfg.fleet_boats, 1):
            for col in range(NCOL):
                c.fleet_boats[k][col] = boats[col]
        c.n_bag = len(cfg.token_bag)
        for i, (k, mountain) in enumerate(cfg.token_bag):
            c.bag_type[i] = k
            c.bag_mnt[i] = mountain
        for k in range(1, 4):
            perms = list(itertools.permutations(range(k + 1)))
            c.n_arr[k] = len(perms)
            for i, perm in enumerate(perms):
                for j, x in enumerate(perm):
                    c.arr[k][i][j] = x


def _need(cond, msg):
    if not cond:
        raise ValueError(f"bad yamatai position: {msg}")


def action_text(int a, tiles=None, spec_names=None, token_names=None):
    """The contract's name of action ``a`` (``PLACE s12 wood``, ``BUILD S10 I15``, ...).

    ``tiles`` and ``token_names`` are a config's (``cfg.tiles``, ``cfg.token_names``);
    without them tiles are numbered and token types named as in the package data.
    """
    names = token_names or TYPE_NAMES
    tn = (lambda t: tiles[t].name) if tiles else (lambda t: f"tile {t}")
    if a == A_PASS:
        return "PASS"
    if 1 <= a <= 10:
        return f"FLEET {a}"
    if A_TAKE <= a < A_BUY:
        return f"TAKE {COLOURS[a - A_TAKE]}"
    if A_BUY <= a < A_SELL:
        return f"BUY {COLOURS[a - A_BUY]}"
    if A_SELL <= a < A_KEEP:
        return f"SELL {COLOURS[a - A_SELL]}"
    if A_KEEP <= a < A_RESERVE:
        return f"KEEP {COLOURS[a - A_KEEP]}"
    if A_RESERVE <= a < A_ARRANGE:
        return f"RESERVE slot {a - A_RESERVE}"
    if A_ARRANGE <= a < A_RAIJIN:
        return f"ARRANGE {a - A_ARRANGE}"
    if A_RAIJIN <= a < A_NAKATSU:
        return f"RAIJIN {COLOURS[(a - A_RAIJIN) // 5]} {COLOURS[(a - A_RAIJIN) % 5]}"
    if A_NAKATSU <= a < A_MICHIMATA:
        return f"NAKATSU {COLOURS[(a - A_NAKATSU) // 5]} {COLOURS[(a - A_NAKATSU) % 5]}"
    if A_MICHIMATA <= a < A_HETSUKA:
        return f"MICHIMATA {names[a - A_MICHIMATA]}"
    if A_HETSUKA <= a < A_HETSUKA + 6:
        return f"HETSUKA {names[a - A_HETSUKA]}"
    if A_RECRUIT <= a < A_RECRUIT + 130:
        slot, k = divmod(a - A_RECRUIT, 26)
        return f"RECRUIT slot {slot} paying " + "+".join(names[x] for x in PAYMENTS[k])
    if A_COLLECT <= a < A_EBISU:
        return f"COLLECT I{a - A_COLLECT:02d}"
    if A_EBISU <= a < A_SACRED:
        return f"EBISU I{a - A_EBISU:02d}"
    if A_SACRED <= a < A_KACHIKO:
        return f"SACRED I{a - A_SACRED:02d}"
    if A_KACHIKO <= a < A_REMOVE:
        return f"KACHIKO I{a - A_KACHIKO:02d}"
    if A_REMOVE <= a < A_PLACE:
        return f"REMOVE s{a - A_REMOVE:02d}"
    if A_PLACE <= a < A_BUILD:
        return f"PLACE s{(a - A_PLACE) // 5:02d} {COLOURS[(a - A_PLACE) % 5]}"
    if A_BUILD <= a < A_SWAPTOK:
        return f"BUILD {tn((a - A_BUILD) >> 6)} I{(a - A_BUILD) & 63:02d}"
    if A_SWAPTOK <= a < A_SLIDE:
        return f"SWAPTOK I{(a - A_SWAPTOK) >> 6:02d} I{(a - A_SWAPTOK) & 63:02d}"
    if A_SLIDE <= a < A_SWAPBOATS:
        return f"SLIDE s{(a - A_SLIDE) >> 7:02d} s{(a - A_SLIDE) & 127:02d}"
    if A_SWAPBOATS <= a < A_END:
        return f"SWAPBOATS s{(a - A_SWAPBOATS) >> 7:02d} s{(a - A_SWAPBOATS) & 127:02d}"
    return f"unknown action {a}"


include "_policy.pxi"


# ------------------------------------------------------------------ the shell's hooks (docs/adding_a_game.md)

ctypedef YState GState
ctypedef YCfg GCfg
ctypedef int32_t GAction
cdef enum:
    G_MAXP = MAXP
cdef const char* G_NAME = "yamatai"
ctypedef struct GPolicies:     # the seats' policies (their hooks in _policy_api.pxi)
    Policy pol[MAXP]

cdef inline bint g_over(const YState* s) noexcept nogil:
    return s.stage == ST_OVER

cdef inline int g_current(const YState* s) noexcept nogil:
    return -1 if s.stage == ST_OVER else me(s)

cdef inline int g_n_players(const YCfg* c, const YState* s) noexcept nogil:
    return s.n_players

cdef inline int g_legal_play(const YCfg* c, YState* s, int32_t* buf, const bint* cut) noexcept nogil:
    # a seat flagged in cut (a deterministic heuristic) gets the shortened list (legal_actions_cut)
    return legal_actions_cut(c, s, buf, cut != NULL and cut[me(s)])

include "../_engine_shell.pxi"
include "../_step_api.pxi"


cdef class State(StepState):
    """A Yamataï position with the step API (see ``docs/yamatai_engine.md``).

    Examples
    --------
    >>> from simcore import yamatai
    >>> st = yamatai.new_game(players=3, seed=7)
    >>> while not st.is_over():
    ...     st.apply(st.legal_actions()[0])
    >>> sorted(st.scores())[:3]
    ['buildings', 'coins', 'pp_tokens']
    """

    cdef list _setup_entries(self):
        d = self.to_dict()
        text = (f"set-up: specialists {d['slots']}, building row {[self.cc.py.tiles[t].name for t in d['row']]}, "
                f"fleets {d['track'][:5]} face up; order of pawns {d['order']}")
        return [{"kind": "setup", "seed": self.seed, "order": d["order"], "slots": d["slots"],
                 "row": d["row"], "track": d["track"], "text": text}]

    # -- queries
    @property
    def stage(self):
        return STAGES[self.s.stage]

    @property
    def phase(self):
        return STAGES[self.s.stage]

    @property
    def round(self):
        return int(self.s.round)

    @property
    def players(self):
        return int(self.s.n_players)

    @property
    def triggers(self):
        return [name for k, name in enumerate(TRIGGERS) if self.s.triggers & (1 << k)]

    def scores(self):
        """Points per category and seat: ``{"coins": [...], ..., "total": [...]}``."""
        cdef int16_t out[N_SC][MAXP]
        score(&self.cc.c, &self.s, out)
        names = SCORE_CATEGORIES + ("total",)
        return add_seat_points({name: [int(out[k][p]) for p in range(self.s.n_players)] for k, name in enumerate(names)},
                               self.cc.py)

    def winner(self):
        """The winning seat (ties: earliest pawn in the last round played, Y-D35)."""
        cdef int16_t out[N_SC][MAXP]
        score(&self.cc.c, &self.s, out)
        return int(winner(&self.s, out))

    def events(self):
        """Fleet picks, buildings built and specialists recruited so far."""
        s = &self.s
        fl = [{"round": f.round, "seat": f.seat, "fleet": f.fleet, "boats": f.gained, "ability_used": bool(f.used),
               "extra_boat": bool(f.extra)} for f in s.flog[:s.n_flog]]
        bl = [{"round": b.round, "seat": b.seat, "tile": b.tile, "island": b.island, "coins": b.coins, "pp_tokens": b.pp}
              for b in s.blog[:s.n_blog]]
        rl = [{"round": r.round, "seat": r.seat, "specialist": r.spec, "coins": r.coins} for r in s.rlog[:s.n_rlog]]
        return {"fleets": fl, "buildings": bl, "recruits": rl}

    # -- the transcript's texts
    cdef _logged_step(self, list log, int action, str kind):
        cdef int rnd = self.s.round
        log.append({"kind": kind, "seat": self.current_player(), "action": action,
                    "text": self.action_to_str(action)})
        apply_action(&self.cc.c, &self.s, action)
        if self.s.round != rnd and self.s.stage != ST_OVER:
            log.append({"kind": "round", "round": int(self.s.round),
                        "track": [int(self.s.track[i]) for i in range(self.s.n_track)],
                        "order": [int(self.s.order[i]) for i in range(self.s.n_pawns)],
                        "text": f"round {self.s.round + 1}: fleets "
                                f"{[int(self.s.track[i]) for i in range(5)]} face up"})

    cdef dict _end_entry(self):
        sc = self.scores()
        return {"kind": "end", "scores": sc, "triggers": self.triggers, "winner": self.winner(),
                "text": "game over (" + ", ".join(self.triggers) + "): totals " + ", ".join(
                    f"seat {p} {t}" for p, t in enumerate(sc["total"]))}

    # -- text
    def action_to_str(self, int a):
        """Human-readable text of action ``a`` in the current decision."""
        who = f"seat {self.current_player()}: "
        st = self.s.stage
        if a == A_PASS:
            what = {ST_FLEET10: "decline the extra boat", ST_PRE: "end placement", ST_PLACE: "end placement",
                    ST_POST: "skip collect/build", ST_COLLECT: "stop collecting", ST_AFTER: "to the port",
                    ST_REMOVE: "no second boat", ST_PORT: "done (rest set aside)", ST_RECRUIT: "no recruit"}
            return who + "PASS (" + what.get(st, "") + ")"
        if A_RECRUIT <= a < A_RECRUIT + 130 and st == ST_RECRUIT:
            slot = (a - A_RECRUIT) // 26
            sp = self.s.slots[slot]
            if sp >= 0:
                return who + action_text(a, token_names=self.cc.py.token_names) + f" ({self.cc.py.spec_names[sp]}, {self.s.slot_coins[slot]} coins)"
        return who + action_text(a, self.cc.py.tiles, token_names=self.cc.py.token_names)

    def describe(self):
        """A readable multi-line summary of the position."""
        d = self.to_dict()
        sc = self.scores()
        cfg = self.cc.py
        lines = [f"Yamatai, {cfg.players} players, round {d['round'] + 1}, stage {d['stage']}"
                 + ("" if d["stage"] == "over" else f", player {self.current_player() + 1} to decide")]
        lines.append(f"  fleets face up {d['track'][:d['face_up']]}; building row "
                     f"{[cfg.tiles[t].name if t >= 0 else '-' for t in d['row']]}; specialists "
                     + ", ".join(f"{cfg.spec_names[x]} ({k})" if x >= 0 else "-"
                                 for x, k in zip(d["slots"], d["slot_coins"])))
        lines.append(f"  supply {dict(zip(COLOURS, d['supply']['boats']))}, sacred {d['supply']['sacred']}; "
                     f"{sum(x >= 0 for x in d['sea'])} boats on the board")
        for p in range(cfg.players):
            specs = [cfg.spec_names[k] for k in range(NSPEC) if d["spec_owner"][k] == p]
            lines.append(f"  player {p + 1} (seat {p}): coins {d['coins'][p]}, PP tokens {d['pp_tokens'][p]}, pieces {d['pieces'][p]}, "
                         f"tokens {d['tokens'][p]}, port {d['port'][p]}, set aside {d['set_aside'][p]}, "
                         f"built {[cfg.tiles[t].name for t in d['built'][p]]}, specialists {specs}; "
                         f"score now {sc['total'][p]}")
        if d["stage"] != "over":
            lines.append(f"  hand {dict(zip(COLOURS, d['hand']))}, fleet {d['turn_state']['fleet']}")
        return "\n".join(lines)

    def __repr__(self):
        # as describe() and the reports say them: round and player from 1 (docs/results.md)
        return (f"<yamatai.State {STAGES[self.s.stage]} round {self.s.round + 1}, "
                f"player {self.current_player() + 1} (seat {self.current_player()})>")

    # -- position dictionary
    def to_dict(self):
        """The full position as a JSON-serialisable dict (see ``docs/yamatai_engine.md``)."""
        c = &self.cc.c
        s = &self.s
        n = s.n_players
        bname = {B_NONE: None, B_TORII: "torii", B_PALACE: "palace"}
        islands = [{"token": int(s.token[i]), "building": bname.get(s.building[i], int(s.building[i])),
                    "sacred": bool((s.sacred >> i) & 1), "mountain": bool((s.mountain >> i) & 1)}
                   for i in range(c.n_islands)]
        sea = []
        for sp in range(c.n_sea):
            sea.append(boat_at(s, sp))
        bits = lambda m: [t for t in range(32) if (m >> t) & 1]
        return {
            "game": "yamatai", "format": 1, "config": self.cc.py.settings(),
            "round": int(s.round), "stage": STAGES[s.stage], "turn": int(s.turn),
            "order": [int(s.order[k]) for k in range(s.n_pawns)],
            "last_order": [int(s.last_order[k]) for k in range(s.n_pawns)],
            "pawn_owner": [int(s.pawn_owner[k]) for k in range(s.n_pawns)],
            "fleet_taken": [int(s.fleet_taken[k]) for k in range(s.n_pawns)],
            "track": [int(s.track[k]) for k in range(s.n_track)], "face_up": int(s.face_up),
            "sea": sea, "marked": [sp for sp in range(c.n_sea) if has128(s.marked, sp)],
            "islands": islands,
            "supply": {"boats": [int(s.supply[k]) for k in range(NCOL)], "sacred": int(s.sacred_supply)},
            "row": [int(s.row[k]) for k in range(5)], "deck": [int(s.deck[k]) for k in range(s.n_deck)],
            "slots": [int(s.slots[k]) for k in range(5)], "slot_coins": [int(s.slot_coins[k]) for k in range(5)],
            "spec_deck": [int(s.spec_deck[k]) for k in range(s.n_spec_deck)],
            "spec_owner": [int(s.spec_owner[k]) for k in range(NSPEC)],
            "coins": [int(s.coins[p]) for p in range(n)], "pp_tokens": [int(s.pp[p]) for p in range(n)],
            "set_aside": [int(s.set_aside[p]) for p in range(n)], "pieces": [int(s.pieces[p]) for p in range(n)],
            "port": [[int(s.port[p][k]) for k in range(NCOL)] for p in range(n)],
            "tokens": [[int(s.tokens[p][k]) for k in range(NTYPE)] for p in range(n)],
            "built": [bits(s.built[p]) for p in range(n)], "reserved": [bits(s.reserved[p]) for p in range(n)],
            "hand": [int(s.hand[k]) for k in range(NCOL)],
            "turn_state": {"fleet": int(s.fleet), "transactions": int(s.transactions),
                           "used": [name for name, bit in _USED if s.used & bit], "last": int(s.last),
                           "collected": [i for i in range(c.n_islands) if (s.collected >> i) & 1],
                           "reserved_now": bits(s.reserved_now), "kept": int(s.kept),
                           "return_stage": STAGES[s.return_stage], "ev_fleet": [int(x) for x in s.ev_fleet[:4]]},
            "triggers": self.triggers, "decisions": int(s.decisions),
            "rng": [int(s.rng[i]) for i in range(4)],
            "events": self.events(),
        }

    @staticmethod
    def from_dict(d, config=None):
        """The position of a :meth:`to_dict` dictionary (checked; ``ValueError`` names the problem).

        Handy for constructed positions in tests: start from ``new_game(...).to_dict()``,
        change fields, load. The current decision must have a legal action. Every number
        given must be kept as given (``simcore._positions``).
        """
        from simcore._positions import checked
        return checked(State._from_dict_unchecked, d, config, "yamatai")

    @staticmethod
    def _from_dict_unchecked(d, config=None):
        _need(isinstance(d, dict) and d.get("game") == "yamatai", "not a yamatai position dictionary")
        if config is None:
            settings = dict(d.get("config") or {})
            players = settings.pop("players", None)
            _need(players is not None, "config lacks 'players'")
            config = make_config(players, **settings)
        cdef State st = State.__new__(State)
        st.cc = compiled(config)
        st.seed = None
        cdef YCfg* c = &st.cc.c
        cdef YState* s = &st.s
        cdef int i, k, p, sp
        memset(s, 0, sizeof(YState))
        n = config.players
        s.n_players = n
        s.n_pawns = c.n_pawns
        try:
            s.round = int(d["round"])
            _need(d["stage"] in STAGES, f"unknown stage {d['stage']!r}")
            s.stage = STAGES.index(d["stage"])
            s.turn = int(d["turn"])
            for key in ("order", "last_order", "pawn_owner", "fleet_taken"):
                _need(len(d[key]) == c.n_pawns, f"'{key}' must list {c.n_pawns} pawns")
            _need(sorted(d["order"]) == list(range(c.n_pawns)), "'order' must be a permutation of the pawns")
            # a finished game has passed its last pawn: turn == the pawn count (to_dict of a game over)
            _need(0 <= s.turn < c.n_pawns or (s.stage == ST_OVER and s.turn == c.n_pawns),
                  f"'turn' must be 0..{c.n_pawns - 1} ({c.n_pawns} once the game is over), not {s.turn}")
            for k in range(c.n_pawns):
                s.order[k] = d["order"][k]
                s.last_order[k] = d["last_order"][k]
                s.pawn_owner[k] = d["pawn_owner"][k]
                s.fleet_taken[k] = d["fleet_taken"][k]
            _need(len(d["track"]) <= NFLEET and 0 <= d["face_up"] <= len(d["track"]), "bad fleet track")
            s.n_track = len(d["track"])
            for k, f in enumerate(d["track"]):
                _need(1 <= f <= NFLEET, f"fleet {f!r}")
                s.track[k] = f
            s.face_up = d["face_up"]
            _need(len(d["sea"]) == c.n_sea, f"'sea' must list {c.n_sea} spaces")
            for sp, col in enumerate(d["sea"]):
                _need(-1 <= col < NCOL, f"sea space {sp}: colour {col!r}")
                if col >= 0:
                    put_boat(s, sp, col)
            for sp in d["marked"]:
                _need(0 <= sp < c.n_sea and has128(s.occ, sp), f"marked space {sp} holds no boat")
                s.marked |= bit128(sp)
            _need(len(d["islands"]) == c.n_islands, f"'islands' must list {c.n_islands} islands")
            for i, isl in enumerate(d["islands"]):
                _need(-1 <= isl["token"] < NTYPE, f"island {i}: token {isl['token']!r}")
                s.token[i] = isl["token"]
                bld = isl["building"]
                if bld is None:
                    s.building[i] = B_NONE
                elif bld == "torii":
                    s.building[i] = B_TORII
                elif bld == "palace":
                    s.building[i] = B_PALACE
                else:
                    _need(isinstance(bld, int) and 0 <= bld < n, f"island {i}: building {bld!r}")
                    s.building[i] = bld
                if isl["sacred"]:
                    s.sacred |= (<uint64_t>1) << i
                if isl["mountain"]:
                    s.mountain |= (<uint64_t>1) << i
            for k in range(NCOL):
                s.supply[k] = d["supply"]["boats"][k]
            s.sacred_supply = d["supply"]["sacred"]
            _need(len(d["row"]) == 5 and len(d["slots"]) == 5, "row and slots have 5 places")
            for k in range(5):
                _need(-1 <= d["row"][k] < c.n_tiles, f"row tile {d['row'][k]!r}")
                s.row[k] = d["row"][k]
                _need(-1 <= d["slots"][k] < NSPEC, f"specialist {d['slots'][k]!r}")
                s.slots[k] = d["slots"][k]
                s.slot_coins[k] = d["slot_coins"][k]
            s.n_deck = len(d["deck"])
            for k, t in enumerate(d["deck"]):
                _need(0 <= t < c.n_tiles, f"deck tile {t!r}")
                s.deck[k] = t
            s.n_spec_deck = len(d["spec_deck"])
            for k, t in enumerate(d["spec_deck"]):
                _need(0 <= t < NSPEC, f"specialist {t!r}")
                s.spec_deck[k] = t
            for k in range(NSPEC):
                _need(-1 <= d["spec_owner"][k] < n, f"specialist {k} owner {d['spec_owner'][k]!r}")
                s.spec_owner[k] = d["spec_owner"][k]
            for p in range(n):
                s.coins[p] = d["coins"][p]
                s.pp[p] = d["pp_tokens"][p]
                s.set_aside[p] = d["set_aside"][p]
                s.pieces[p] = d["pieces"][p]
                for k in range(NCOL):
                    s.port[p][k] = d["port"][p][k]
                for k in range(NTYPE):
                    s.tokens[p][k] = d["tokens"][p][k]
                for t in d["built"][p]:
                    s.built[p] |= (<uint32_t>1) << t
                for t in d["reserved"][p]:
                    s.reserved[p] |= (<uint32_t>1) << t
            for k in range(NCOL):
                s.hand[k] = d["hand"][k]
            ts = d["turn_state"]
            s.fleet = ts["fleet"]
            s.transactions = ts["transactions"]
            for name, bit in _USED:
                if name in ts["used"]:
                    s.used |= bit
            s.last = ts["last"]
            _need(s.stage != ST_PLACE or (0 <= s.last < c.n_sea and has128(s.occ, s.last)),
                  "stage place needs the last boat placed ('last')")
            for i in ts["collected"]:
                s.collected |= (<uint64_t>1) << i
            for t in ts["reserved_now"]:
                s.reserved_now |= (<uint32_t>1) << t
            s.kept = ts["kept"]
            s.return_stage = STAGES.index(ts.get("return_stage", "fleet"))
            for k, x in enumerate(ts.get("ev_fleet", [s.fleet, 0, 0, 0])[:4]):
                s.ev_fleet[k] = x
            for k, name in enumerate(TRIGGERS):
                if name in d["triggers"]:
                    s.triggers |= 1 << k
            s.decisions = d.get("decisions", 0)
            rng = d.get("rng")
            if rng is None:
                rng_seed(s.rng, 0, CHANCE_SALT)
            else:
                _need(len(rng) == 4 and all(isinstance(x, int) and 0 <= x < 2 ** 64 for x in rng),
                      "rng must list 4 unsigned 64-bit integers")
                for i in range(4):
                    s.rng[i] = rng[i]
            ev = d.get("events") or {}
            for f in ev.get("fleets", [])[:MAXFLOG]:
                s.flog[s.n_flog] = FLog(f["round"], f["seat"], f["fleet"], f["boats"], f["ability_used"], f["extra_boat"])
                s.n_flog += 1
            for b in ev.get("buildings", [])[:MAXBLOG]:
                s.blog[s.n_blog] = BLog(b["round"], b["seat"], b["tile"], b["island"], b["coins"], b["pp_tokens"])
                s.n_blog += 1
            for r in ev.get("recruits", [])[:MAXRLOG]:
                s.rlog[s.n_rlog] = RLog(r["round"], r["seat"], r["specialist"], r["coins"])
                s.n_rlog += 1
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"bad yamatai position: missing or bad field {exc!r}") from None
        s.current = -1 if s.stage == ST_OVER else me(s)
        if s.stage != ST_OVER:
            _need(len(st.legal_actions()) > 0, f"no legal action in stage {d['stage']}")
        st._begin(LOG_POSITION)
        return st




# ------------------------------------------------------------------ batch kernel

cdef int play_game(const YCfg* c, YState* s, uint64_t seed, GPolicies* block,
                   int32_t* record, int max_record, Decider** ext, Snaps* snaps=NULL) noexcept nogil:
    """Play one whole game with the seats' policies; return the number of decisions.

    When ``snaps`` is not NULL, the seats' totals as each round ends (``score``
    on the position at the next round's first decision, simcore/_lead.pxd) are
    recorded there; the final score is the caller's.

    A seat with an external decider (``ext`` not NULL and its entry set: a
    search agent) takes its decisions from it, seeded by the game seed and the
    decision's number."""
    cdef int32_t buf[MAXLEGAL]
    cdef uint64_t prng[4]
    cdef int n, a, k = 0, p
    cdef bint cut[MAXP]
    cdef int rnd = 0
    cdef int16_t now[N_SC][MAXP]
    cdef const Policy* pol = block.pol
    if snaps != NULL:
        snaps.n = 0
    for p in range(c.n_players):
        # deterministic seats: the fleet 4/6/8 blocks outside post are never scored (legal_actions_cut)
        cut[p] = pol[p].kind != 0 and pol[p].epsilon <= 0.0 and pol[p].temperature <= 0.0
    setup(c, s, seed)
    rng_seed(prng, seed, POLICY_SALT)
    n = advance(c, s, buf, cut)
    while n > 0:
        if snaps != NULL and s.round != rnd:
            rnd = s.round
            score(c, s, now)
            snap_take(snaps, &now[SC_TOTAL][0], s.n_players)
        if ext != NULL and ext[me(s)] != NULL:
            a = ext[me(s)].decide(ext[me(s)].ctx, c, s, decision_seed(seed, s.decisions))
        else:
            a = choose_action(c, s, &pol[me(s)], prng, buf, n)
        if record != NULL and k < max_record:
            record[k] = a
        k += 1
        apply_action(c, s, a)
        s.decisions += 1
        n = advance(c, s, buf, cut)
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
        One entry per seat: ``None`` for uniformly random legal actions.
    config : YamataiConfig, optional
        Settings and data; default ``make_config(players, **settings)``.
    events : bool
        Also return one row per fleet pick, building built and specialist recruited.

    Returns
    -------
    dict
        ``{"games": {col: (G,)}, "players": {col: (G, players)}, "events": {col: (E,)}}``.
    """
    cfg = _resolve_config(players, config, settings)
    cdef CConfig cc = compiled(cfg)
    cdef const YCfg* c = &cc.c
    cdef cnp.uint64_t[::1] sd = np.ascontiguousarray(seeds, dtype=np.uint64).reshape(-1)
    cdef Py_ssize_t G = sd.shape[0], g, e = 0, E_cap
    cdef int P = cfg.players, p, k, i, w, r
    cdef GPolicies pols
    cdef Decider* ext[MAXP]
    keep = load_seats(&pols, ext, policies, P)
    cdef Decider** dx = ext if keep is not None else NULL
    names = SCORE_CATEGORIES + ("total",)
    sc_arr = np.zeros((N_SC, G, P), dtype=np.int16)
    cdef int16_t[:, :, ::1] sc = sc_arr
    rank_a = np.zeros((G, P), dtype=np.int8)
    share_a = np.zeros((G, P), dtype=np.float32)
    coins_a = np.zeros((G, P), dtype=np.int16)
    pp_a = np.zeros((G, P), dtype=np.int16)
    nb_a = np.zeros((G, P), dtype=np.int8)
    ns_a = np.zeros((G, P), dtype=np.int8)
    aside_a = np.zeros((G, P), dtype=np.int16)
    tok_a = np.zeros((G, P), dtype=np.int16)
    first_a = np.zeros((G, P), dtype=np.int8)
    cdef int8_t[:, ::1] rank = rank_a, nb = nb_a, ns = ns_a, first = first_a
    cdef float[:, ::1] share = share_a
    cdef int16_t[:, ::1] coins = coins_a, ppt = pp_a, aside = aside_a, tok = tok_a
    g_dec_a = np.zeros(G, dtype=np.int32)
    g_rounds_a = np.zeros(G, dtype=np.int16)
    g_trig_a = np.zeros(G, dtype=np.uint8)
    g_win_a = np.zeros(G, dtype=np.int8)
    g_tie_a = np.zeros(G, dtype=np.bool_)
    g_boats_a = np.zeros(G, dtype=np.int16)
    cdef int32_t[::1] g_dec = g_dec_a
    cdef int16_t[::1] g_rounds = g_rounds_a, g_boats = g_boats_a
    cdef uint8_t[::1] g_trig = g_trig_a
    cdef int8_t[::1] g_win = g_win_a
    cdef cnp.npy_bool[::1] g_tie = g_tie_a
    E_cap = G * 64 if events else 0
    ev = {key: np.zeros(E_cap, dtype=np.int8) for key in ("kind", "seat")}
    ev["game"] = np.zeros(E_cap, dtype=np.int32)
    for key in ("round", "a", "b", "c", "d"):
        ev[key] = np.zeros(E_cap, dtype=np.int16)
    cdef int32_t[::1] ev_game = ev["game"]
    cdef int8_t[::1] ev_kind = ev["kind"], ev_seat = ev["seat"]
    cdef int16_t[::1] ev_round = ev["round"], ev_a = ev["a"], ev_b = ev["b"], ev_c = ev["c"], ev_d = ev["d"]
    cdef YState st
    cdef int16_t out[N_SC][MAXP]
    cdef Snaps snaps
    lead_a = np.zeros((3, G), dtype=np.int16)
    cdef int16_t[:, ::1] lead = lead_a
    cdef bint want = bool(events)
    cdef int n_ev
    for g in range(G):
        with nogil:
            play_game(c, &st, sd[g], &pols, NULL, 0, dx, &snaps)
            score(c, &st, out)
            w = winner(&st, out)
            g_win[g] = w
            snap_take(&snaps, &out[SC_TOTAL][0], P)
            lead_stats(&snaps, P, (<uint32_t>1) << w, &lead[0, g], &lead[1, g], &lead[2, g])
            for p in range(P):
                if p != w and out[SC_TOTAL][p] == out[SC_TOTAL][w]:
                    g_tie[g] = True
                for k in range(N_SC):
                    sc[k, g, p] = out[k][p]
                share[g, p] = 1.0 if p == w else 0.0
                coins[g, p] = st.coins[p]
                ppt[g, p] = st.pp[p]
                nb[g, p] = __builtin_popcount(st.built[p])
                aside[g, p] = st.set_aside[p]
                first[g, p] = -1
                for k in range(NSPEC):
                    if st.spec_owner[k] == p:
                        ns[g, p] += 1
                for k in range(NTYPE):
                    tok[g, p] += st.tokens[p][k]
            # rank by (total, tie-break position)
            for k in range(st.n_pawns):
                p = st.pawn_owner[st.last_order[k]]
                if first[g, p] < 0:
                    first[g, p] = k
            for p in range(P):
                r = 1
                for i in range(P):
                    if out[SC_TOTAL][i] > out[SC_TOTAL][p] or (
                            out[SC_TOTAL][i] == out[SC_TOTAL][p] and first[g, i] < first[g, p]):
                        r += 1
                rank[g, p] = r
            g_dec[g] = st.decisions
            g_rounds[g] = st.round
            g_trig[g] = st.triggers
            g_boats[g] = popcount128(st.occ)
        if want:
            n_ev = st.n_flog + st.n_blog + st.n_rlog
            if e + n_ev > E_cap:
                E_cap = 2 * (e + n_ev)
                for key in ev:
                    ev[key] = np.resize(ev[key], E_cap)
                ev_game = ev["game"]
                ev_kind = ev["kind"]
                ev_seat = ev["seat"]
                ev_round = ev["round"]
                ev_a = ev["a"]
                ev_b = ev["b"]
                ev_c = ev["c"]
                ev_d = ev["d"]
            with nogil:
                for i in range(st.n_flog):
                    ev_game[e] = <int32_t>g
                    ev_kind[e] = 0
                    ev_round[e] = st.flog[i].round
                    ev_seat[e] = st.flog[i].seat
                    ev_a[e] = st.flog[i].fleet
                    ev_b[e] = st.flog[i].gained
                    ev_c[e] = st.flog[i].used
                    ev_d[e] = st.flog[i].extra
                    e += 1
                for i in range(st.n_blog):
                    ev_game[e] = <int32_t>g
                    ev_kind[e] = 1
                    ev_round[e] = st.blog[i].round
                    ev_seat[e] = st.blog[i].seat
                    ev_a[e] = st.blog[i].tile
                    ev_b[e] = st.blog[i].island
                    ev_c[e] = st.blog[i].coins
                    ev_d[e] = st.blog[i].pp
                    e += 1
                for i in range(st.n_rlog):
                    ev_game[e] = <int32_t>g
                    ev_kind[e] = 2
                    ev_round[e] = st.rlog[i].round
                    ev_seat[e] = st.rlog[i].seat
                    ev_a[e] = st.rlog[i].spec
                    ev_b[e] = st.rlog[i].coins
                    ev_c[e] = 0
                    ev_d[e] = 0
                    e += 1
    games = {"seed": np.asarray(sd).copy(), "decisions": g_dec_a, "rounds": g_rounds_a,
             "triggers": g_trig_a, "winner": g_win_a, "tie_broken": g_tie_a, "boats_on_board": g_boats_a,
             "lead_changes": lead_a[0], "led_from": lead_a[1], "max_deficit": lead_a[2]}
    for k, name in enumerate(TRIGGERS):
        games["trigger_" + name] = (g_trig_a & (1 << k)) != 0
    pl = add_seat_points({name: sc_arr[k] for k, name in enumerate(names)}, cfg, G)
    pl.update(rank=rank_a, win_share=share_a, coins_left=coins_a, pp_token_count=pp_a,
              buildings_built=nb_a, specialists_recruited=ns_a, boats_set_aside=aside_a,
              culture_tokens_left=tok_a, last_round_position=first_a)
    events_out = {key: v[:e] for key, v in ev.items()}
    return {"games": games, "players": pl, "events": events_out}


FLEET_ABILITY_BLOCK = A_SWAPTOK     # the fleet 6/4/8 actions (SWAPTOK, SLIDE, SWAPBOATS) sort last
FLEET4_SLIDES = A_SLIDE
FLEET8_SWAPS = A_SWAPBOATS


def _legal_cut_check(State st, policy):
    """Test hook: ``(full, cut, choice_full, choice_cut)`` in position ``st``.

    ``full`` is legal_actions, ``cut`` legal_actions_cut (the list play_batch gives a deterministic
    seat), and the choices are choose_action of ``policy`` (a policy vector) on each list, from the
    same policy stream.
    """
    cdef int32_t buf[MAXLEGAL]
    cdef int32_t buf2[MAXLEGAL]
    cdef uint64_t prng[4]
    cdef Policy pol
    cdef int n, n2, a, a2
    if st.s.stage == ST_OVER:
        raise ValueError("the game is over")
    load_policy(&pol, policy)
    n = legal_actions(&st.cc.c, &st.s, buf)
    n2 = legal_actions_cut(&st.cc.c, &st.s, buf2, True)
    rng_seed(prng, 1, POLICY_SALT)
    a = choose_action(&st.cc.c, &st.s, &pol, prng, buf, n)
    rng_seed(prng, 1, POLICY_SALT)
    a2 = choose_action(&st.cc.c, &st.s, &pol, prng, buf2, n2)
    return [int(buf[i]) for i in range(n)], [int(buf2[i]) for i in range(n2)], int(a), int(a2)


include "_policy_api.pxi"
include "_model_features.pxi"
