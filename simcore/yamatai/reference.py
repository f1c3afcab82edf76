"""Yamataï in plain Python: the reference engine.

Written from the spec (``rules/yamatai.md``) and the contract
(``docs/yamatai_engine.md``) as readably as possible; it shares no rule code
with the Cython engine, only the data loading (``config.py``) and the random
generator (``simcore/rng.py``). The differential test replays the Cython
engine's games here and compares every legal-action list and the scores.

Spec decisions, where they act: Y-D1 (turn = pawn's turn: ``_start_turn``),
Y-D2/Y-D3 (windows ``pre``/``post``/``after``; trades in ``pre`` only), Y-D4
(port joins the hand at turn start), Y-D5 (chain), Y-D6 (marks follow boats),
Y-D7 (collect matching), Y-D8 (mandatory 3b), Y-D10 (multiset), Y-D11
(row or earlier reservation), Y-D12 (groups, Ananda), Y-D13 (Awashima),
Y-D14 (Kagutsuchi), Y-D16 (sacred sites), Y-D17 (Ebisu), Y-D18 (Izanami),
Y-D19 (Raijin, Nakatsu), Y-D21 (Izanagi), Y-D23 (payment), Y-D24 (coins
before refill), Y-D25 (fleet 10), Y-D26 (fleet details), Y-D27 (queue),
Y-D29/Y-D30 (supplies), Y-D32–Y-D35 (end and tie-break), Y-D37 (cap).
"""
import itertools

from simcore.rng import Xoshiro256
from simcore.yamatai.config import PAYMENTS, SCORE_CATEGORIES, TRIGGERS, make_config

PASS = 0
TAKE, BUY, SELL, KEEP, RESERVE, ARRANGE = 11, 16, 21, 26, 31, 36
RAIJIN, NAKATSU, MICHIMATA, HETSUKA, RECRUIT = 60, 85, 110, 116, 128
COLLECT, EBISU, SACRED, KACHIKO, REMOVE, PLACE, BUILD = 320, 384, 448, 512, 576, 704, 1344
SWAPTOK, SLIDE, SWAPBOATS = 3392, 7488, 23872

# specialist ids (ability order of the spec, §8)
AMATERASU, IZANAGI, RAIJIN_S, ANANDA, IZANAMI, RIU, AWASHIMA, KACHIKO_S, SUSANOO, EBISU_S, \
    KAGUTSUCHI, TOMOE, FU_HSI, MICHIMATA_S, TOYO_TAMA, HETSUKA_S, NAKATSU_S, YASOMA = range(18)
GOLD = 4
USED = ("fleet", "raijin", "nakatsu", "michimata", "hetsuka", "kachiko", "ebisu")   # to_dict order
NEEDS = [[pay.count(x) for x in range(6)] for pay in PAYMENTS]   # tokens of each type a payment takes


def arrangements(k):
    return list(itertools.permutations(range(k + 1)))


class RefState:
    """A Yamataï position; attributes are the fields of the position dictionary."""

    @classmethod
    def new(cls, players=3, seed=0, **settings):
        cfg = make_config(players, **settings)
        st = cls()
        st.cfg = cfg
        st.seed = int(seed)
        b = cfg.board_data
        rng = Xoshiro256(seed)
        st.rng = rng

        def shuffle(x):
            for i in range(len(x) - 1, 0, -1):
                j = rng.below(i + 1)
                x[i], x[j] = x[j], x[i]
            return x
        P = players
        st.players = P
        spec = shuffle(list(range(18)))
        st.slots, st.spec_deck = spec[:5], spec[5:]
        st.slot_coins = [0] * 5
        tiles = shuffle(list(range(len(cfg.tiles))))
        st.row, st.deck = tiles[:5], tiles[5:]
        fleets = shuffle(list(range(1, 11)))
        st.track, st.face_up = fleets, 5
        tokens = shuffle([(k, bool(m)) for k, m in cfg.token_bag])
        st.islands = [{"token": t, "building": None, "sacred": False, "mountain": m} for t, m in tokens]
        if P == 2:
            st.pawn_owner = [0, 1, 0, 1]
            st.order = [0, 1, 3, 2] if rng.below(2) else [0, 1, 2, 3]
        else:
            st.pawn_owner = list(range(P))
            st.order = list(range(P))
        st.last_order = list(st.order)
        st.fleet_taken = [0] * len(st.pawn_owner)
        st.sea = [-1] * b.n_sea
        st.marked = set()
        st.supply = list(cfg.supply_boats)
        st.sacred_supply = int(cfg.pb["setup"]["sacred_site_tokens"])
        st.spec_owner = [-1] * 18
        st.coins = [int(cfg.pb["setup"]["start_coins"]) + cfg.seat_bonus[p] for p in range(P)]
        st.pp_tokens = [0] * P
        st.set_aside = [0] * P
        st.pieces = [cfg.pieces] * P
        st.port = [[0] * 5 for _ in range(P)]
        st.tokens = [[0] * 6 for _ in range(P)]
        st.built = [[] for _ in range(P)]
        st.reserved = [[] for _ in range(P)]
        st.hand = [0] * 5
        st.round = 0
        st.turn = 0
        st.triggers = set()
        st.decisions = 0
        st.over = False
        st.events = []
        st._legal = None
        st._start_turn()
        st._run_forced()
        return st

    # ------------------------------------------------------------ position dictionary
    def to_dict(self):
        """The position in the format of the Cython engine's ``State.to_dict`` (docs/yamatai_engine.md)."""
        names = {"fleet": [], "build": [], "recruit": []}
        for e in self.events:
            names[e[0]].append(e[1:])
        events = {
            "fleets": [{"round": r, "seat": p, "fleet": f, "boats": g, "ability_used": bool(u), "extra_boat": bool(x)}
                       for r, p, f, g, u, x in names["fleet"]],
            "buildings": [{"round": r, "seat": p, "tile": t, "island": i, "coins": c, "pp_tokens": pp}
                          for r, p, t, i, c, pp in names["build"]],
            "recruits": [{"round": r, "seat": p, "specialist": s, "coins": c} for r, p, s, c, _, _ in names["recruit"]],
        }
        return {
            "game": "yamatai", "format": 1, "config": self.cfg.settings(),
            "round": self.round, "stage": "over" if self.over else self.stage, "turn": self.turn,
            "order": list(self.order), "last_order": list(self.last_order), "pawn_owner": list(self.pawn_owner),
            "fleet_taken": list(self.fleet_taken), "track": list(self.track), "face_up": self.face_up,
            "sea": list(self.sea), "marked": sorted(self.marked), "islands": [dict(i) for i in self.islands],
            "supply": {"boats": list(self.supply), "sacred": self.sacred_supply},
            "row": list(self.row), "deck": list(self.deck), "slots": list(self.slots),
            "slot_coins": list(self.slot_coins), "spec_deck": list(self.spec_deck),
            "spec_owner": list(self.spec_owner), "coins": list(self.coins), "pp_tokens": list(self.pp_tokens),
            "set_aside": list(self.set_aside), "pieces": list(self.pieces),
            "port": [list(x) for x in self.port], "tokens": [list(x) for x in self.tokens],
            "built": [sorted(x) for x in self.built], "reserved": [sorted(x) for x in self.reserved],
            "hand": list(self.hand),
            "turn_state": {"fleet": self.fleet, "transactions": self.transactions,
                           "used": [u for u in USED if u in self.used], "last": self.last,
                           "collected": sorted(self.collected), "reserved_now": sorted(self.reserved_now),
                           "kept": self.kept, "return_stage": self.return_stage or "fleet",
                           "ev_fleet": list(self.ev_fleet or (0, 0, 0, 0))},
            "triggers": [t for t in TRIGGERS if t in self.triggers], "decisions": self.decisions,
            "rng": list(self.rng.s), "events": events,
        }

    @classmethod
    def from_dict(cls, d, config=None):
        """The position of a ``to_dict`` dictionary (either engine's); forced steps are then applied.

        It trusts the dictionary (the Cython ``State.from_dict`` is the one that checks it) but for
        a missing or mistyped field, which raises ``ValueError``.
        """
        if not isinstance(d, dict) or d.get("game") != "yamatai":
            raise ValueError("bad yamatai position: not a yamatai position dictionary")
        try:
            if config is None:
                settings = dict(d["config"])
                config = make_config(settings.pop("players"), **settings)
            st = cls()
            st.cfg = config
            st.seed = None
            st.players = config.players
            for key in ("round", "turn", "face_up", "decisions"):
                setattr(st, key, int(d[key]))
            for key in ("order", "last_order", "pawn_owner", "fleet_taken", "track", "sea", "row", "deck",
                        "slots", "slot_coins", "spec_deck", "spec_owner", "coins", "pp_tokens", "set_aside",
                        "pieces", "hand"):
                setattr(st, key, [int(x) for x in d[key]])
            st.port = [[int(x) for x in row] for row in d["port"]]
            st.tokens = [[int(x) for x in row] for row in d["tokens"]]
            st.built = [sorted(int(t) for t in row) for row in d["built"]]
            st.reserved = [sorted(int(t) for t in row) for row in d["reserved"]]
            st.islands = [{"token": int(i["token"]), "building": i["building"], "sacred": bool(i["sacred"]),
                           "mountain": bool(i["mountain"])} for i in d["islands"]]
            st.marked = {int(s) for s in d["marked"]}
            st.supply = [int(x) for x in d["supply"]["boats"]]
            st.sacred_supply = int(d["supply"]["sacred"])
            st.stage = d["stage"]
            st.over = st.stage == "over"
            st.triggers = set(d["triggers"])
            ts = d["turn_state"]
            st.fleet = int(ts["fleet"])
            st.transactions = int(ts["transactions"])
            st.used = set(ts["used"])
            st.last = int(ts["last"])
            st.collected = sorted(int(i) for i in ts["collected"])
            st.reserved_now = sorted(int(t) for t in ts["reserved_now"])
            st.kept = int(ts["kept"])
            st.return_stage = ts.get("return_stage", "fleet")
            st.ev_fleet = [int(x) for x in ts.get("ev_fleet", (st.fleet, 0, 0, 0))]
            st.rng = Xoshiro256(0)
            if d.get("rng") is not None:
                st.rng.s = [int(x) for x in d["rng"]]
            ev = d.get("events") or {}
            st.events = ([("fleet", e["round"], e["seat"], e["fleet"], e["boats"], int(e["ability_used"]),
                           int(e["extra_boat"])) for e in ev.get("fleets", [])]
                         + [("build", e["round"], e["seat"], e["tile"], e["island"], e["coins"], e["pp_tokens"])
                            for e in ev.get("buildings", [])]
                         + [("recruit", e["round"], e["seat"], e["specialist"], e["coins"], 0, 0)
                            for e in ev.get("recruits", [])])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"bad yamatai position: missing or bad field {exc!r}") from None
        st._legal = None
        st._run_forced()
        return st

    # ------------------------------------------------------------ helpers
    @property
    def pawn(self):
        return self.order[self.turn]

    @property
    def me(self):
        return self.pawn_owner[self.pawn]

    def owns(self, spec, p=None):
        return self.spec_owner[spec] == (self.me if p is None else p)

    def current_player(self):
        return -1 if self.over else self.me

    def is_over(self):
        return self.over

    def _start_turn(self):
        p = self.me
        for c in range(5):
            self.hand[c] += self.port[p][c]
            self.port[p][c] = 0
        self.stage = "fleet"
        self.fleet = 0
        self.transactions = 2 if self.owns(IZANAGI) else 1
        self.used = set()
        self.last = -1
        self.marked = set()
        self.collected = []
        self.reserved_now = []
        self.kept = 0
        self.return_stage = None
        self.ev_fleet = None

    # ------------------------------------------------------------ board queries
    def _b(self):
        return self.cfg.board_data

    def empty_island(self, i):
        isl = self.islands[i]
        return isl["token"] < 0 and isl["building"] is None and not isl["sacred"]

    def first_boat_places(self, c):
        """Empty spaces that may take a first boat of colour c: entries (edges with Toyo Tama) or anchored."""
        b = self._b()
        starts = set(b.entries) | (set(b.edges) if self.owns(TOYO_TAMA) else set())
        anchored = {t for s in range(b.n_sea) if self.sea[s] == c for t in b.sea_nbrs[s]}
        return sorted(s for s in starts | anchored if self.sea[s] < 0)

    def has_matching(self, islands):
        b = self._b()
        match = {}  # boat -> island

        def augment(i, seen):
            for s in b.island_sea[i]:
                if s in self.marked and s not in seen:
                    seen.add(s)
                    if s not in match or augment(match[s], seen):
                        match[s] = i
                        return True
            return False
        return all(augment(i, set()) for i in islands)

    def collectable(self):
        b = self._b()
        out = []
        for i in range(b.n_islands):
            if self.islands[i]["token"] < 0:
                continue
            if not any(s in self.marked for s in b.island_sea[i]):
                continue
            if self.has_matching(self.collected + [i]):
                out.append(i)
        return out

    def group(self, p, start, extra=()):
        """Islands of p's standard buildings connected to ``start`` (plus ``extra`` islands)."""
        b = self._b()
        mine = {i for i in range(b.n_islands) if self.islands[i]["building"] == p} | set(extra)
        seen, todo = {start}, [start]
        while todo:
            i = todo.pop()
            for j in b.island_nbrs[i]:
                if j in mine and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return seen

    def ananda_toll(self, i):
        o = self.spec_owner[ANANDA]
        if o < 0 or o == self.me:
            return None
        if any(self.islands[j]["building"] == o for j in self._b().island_nbrs[i]):
            return o
        return None

    def builds(self):
        """Legal (tile, island) builds, ascending."""
        b = self._b()
        p = self.me
        if not self.marked:
            return []
        # islands: empty, next to a boat placed this turn, and the Ananda toll affordable
        sites = {}
        for i in range(b.n_islands):
            if not self.empty_island(i) or not any(s in self.marked for s in b.island_sea[i]):
                continue
            if self.ananda_toll(i) is not None and self.coins[p] < 2:
                continue
            have = [0] * 5
            for s in b.island_sea[i]:
                if self.sea[s] >= 0:
                    have[self.sea[s]] += 1
            sites[i] = have
        tiles = [t for t in self.row if t >= 0] + [t for t in self.reserved[p] if t not in self.reserved_now]
        allowed_missing = 1 if self.fleet == 9 else 0
        out = []
        for t in sorted(tiles):
            tile = self.cfg.tiles[t]
            if tile.kind == 0 and self.pieces[p] == 0:
                continue
            for i, have in sites.items():
                if sum(max(0, tile.boats[c] - have[c]) for c in range(5)) <= allowed_missing:
                    out.append((t, i))
        return out

    # ------------------------------------------------------------ legal actions
    def free_actions(self):
        b = self._b()
        p = self.me
        out = []
        if "fleet" not in self.used:
            f = self.fleet
            if f == 2:
                out += [RESERVE + k for k in range(5) if self.row[k] >= 0]
            elif f == 3 and self.deck:
                out += [ARRANGE + a for a in range(len(arrangements(min(3, len(self.deck)))))]
            elif f == 4:
                for s in range(b.n_sea):
                    if self.sea[s] >= 0:
                        out += [SLIDE + 128 * s + t for t in b.sea_nbrs[s] if self.sea[t] < 0]
            elif f == 5 and self.sacred_supply > 0:
                out += [SACRED + i for i in range(b.n_islands) if self.empty_island(i)]
            elif f == 6:
                tok = [i for i in range(b.n_islands) if self.islands[i]["token"] >= 0]
                out += [SWAPTOK + 64 * i + j for i, j in itertools.combinations(tok, 2)]
            elif f == 7:
                out += [REMOVE + s for s in range(b.n_sea) if self.sea[s] >= 0]
            elif f == 8:
                boats = [s for s in range(b.n_sea) if self.sea[s] >= 0]
                out += [SWAPBOATS + 128 * s + t for s, t in itertools.combinations(boats, 2)]
        h = self.hand
        if self.owns(RAIJIN_S) and "raijin" not in self.used and self.supply[GOLD] > 0:
            for c1 in range(5):
                for c2 in range(c1, 5):
                    if (h[c1] >= 2) if c1 == c2 else (h[c1] and h[c2]):
                        out.append(RAIJIN + 5 * c1 + c2)
        if self.owns(NAKATSU_S) and "nakatsu" not in self.used and h[GOLD] > 0:
            for c1 in range(4):
                for c2 in range(c1, 4):
                    if (self.supply[c1] >= 2) if c1 == c2 else (self.supply[c1] and self.supply[c2]):
                        out.append(NAKATSU + 5 * c1 + c2)
        if self.owns(MICHIMATA_S) and "michimata" not in self.used and self.supply[GOLD] > 0:
            out += [MICHIMATA + k for k in range(6) if self.tokens[p][k]]
        if self.owns(HETSUKA_S) and "hetsuka" not in self.used:
            out += [HETSUKA + k for k in range(6) if self.tokens[p][k]]
        if self.owns(KACHIKO_S) and "kachiko" not in self.used and self.coins[p] >= 2:
            out += [KACHIKO + i for i in range(b.n_islands) if self.islands[i]["sacred"]]
        return out

    def legal_actions(self):
        """Sorted legal actions (cached until the next action is applied)."""
        if self._legal is None:
            self._legal = self._legal_actions()
        return list(self._legal)

    def _legal_actions(self):
        if self.over:
            return []
        b = self._b()
        p = self.me
        st = self.stage
        out = []
        if st == "fleet":
            out = list(self.track[:self.face_up])
        elif st == "fleet10":
            out = [PASS] + [TAKE + c for c in range(5) if self.supply[c] > 0]
        elif st == "pre":
            out = [PASS]
            if self.transactions > 0:
                for c in range(5):
                    if c == GOLD and not self.owns(TOMOE):
                        continue
                    if self.supply[c] > 0 and self.coins[p] >= self.cfg.buy_price(c):
                        out.append(BUY + c)
                    if self.hand[c] > 0:
                        out.append(SELL + c)
            out += self.free_actions()
            for c in range(5):
                if self.hand[c]:
                    out += [PLACE + 5 * s + c for s in self.first_boat_places(c)]
        elif st == "place":
            out = [PASS]
            for s in b.sea_nbrs[self.last]:
                if self.sea[s] < 0:
                    out += [PLACE + 5 * s + c for c in range(5) if self.hand[c]]
        elif st == "post":
            coll = self.collectable()
            builds = self.builds()
            out = [COLLECT + i for i in coll] + [BUILD + 64 * t + i for t, i in builds]
            if not out:
                out.append(PASS)
            out += self.free_actions()
        elif st == "collect":
            out = [PASS] + [COLLECT + i for i in self.collectable()]
            if self.owns(EBISU_S) and "ebisu" not in self.used:
                out += [EBISU + i for i in range(b.n_islands) if self.islands[i]["token"] >= 0]
        elif st == "after":
            out = [PASS] + self.free_actions()
        elif st == "remove":
            out = [PASS] + [REMOVE + s for s in range(b.n_sea) if self.sea[s] >= 0]
        elif st == "port":
            out = [PASS]
            if self.kept < self.port_capacity():
                out += [KEEP + c for c in range(5) if self.hand[c]]
        elif st == "recruit":
            out = [PASS]
            mine = self.tokens[p]
            payable = [k for k, need in enumerate(NEEDS) if all(mine[x] >= need[x] for x in range(6))]
            for slot in range(5):
                if self.slots[slot] >= 0:
                    out += [RECRUIT + 26 * slot + k for k in payable]
        return sorted(out)

    def port_capacity(self):
        return int(self.cfg.pb["port_capacity"]) + (int(self.cfg.pb["riu_port_bonus"]) if self.owns(RIU) else 0)

    # ------------------------------------------------------------ applying
    def apply(self, action):
        if action not in self.legal_actions():  # noqa: the cached list
            raise ValueError(f"illegal action {action} in stage {self.stage}")
        self._apply(action)
        self.decisions += 1
        self._run_forced()

    def _run_forced(self):
        while not self.over:
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self._apply(legal[0])

    def _apply(self, a):
        self._legal = None
        st = self.stage
        p = self.me
        b = self._b()
        cfg = self.cfg
        if st == "fleet":
            self.track.remove(a)
            self.face_up -= 1
            self.fleet = a
            self.fleet_taken[self.pawn] = a
            gained = 0
            for c, n in enumerate(cfg.fleet_boats[a - 1]):
                if n and self.supply[c] >= n:
                    self.supply[c] -= n
                    self.hand[c] += n
                    gained += n
            self.ev_fleet = [a, gained, 0, 0]
            self.stage = "fleet10" if a == 10 and sum(self.supply) > 0 else "pre"
            return
        if st == "fleet10":
            if a != PASS:
                c = a - TAKE
                self.supply[c] -= 1
                self.hand[c] += 1
                self.ev_fleet[1] += 1
                self.ev_fleet[2] = 1    # fleet 10's ability is the optional extra boat: taking it is using it
                self.ev_fleet[3] = 1
            self.stage = "pre"
            return
        if st == "remove":
            if a != PASS:
                self._remove_boat(a - REMOVE)
            self.stage = self.return_stage
            return
        if st in ("pre", "post", "after") and self._free_action(a):
            return
        if st in ("pre", "place"):
            if a == PASS:
                self.stage = "post"
                return
            if BUY <= a < BUY + 5:
                c = a - BUY
                self.coins[p] -= cfg.buy_price(c)
                self.supply[c] -= 1
                self.hand[c] += 1
                self.transactions -= 1
                return
            if SELL <= a < SELL + 5:
                c = a - SELL
                self.coins[p] += cfg.sell_price(c, self.owns(SUSANOO))
                self.supply[c] += 1
                self.hand[c] -= 1
                self.transactions -= 1
                return
            s, c = divmod(a - PLACE, 5)
            self.sea[s] = c
            self.hand[c] -= 1
            self.marked.add(s)
            self.last = s
            self.stage = "place"
            return
        if st == "post":
            if a == PASS:
                self.stage = "after"
            elif COLLECT <= a < COLLECT + 64:
                self._take_token(a - COLLECT)
                self.collected.append(a - COLLECT)
                self.stage = "collect"
            else:
                t, i = divmod(a - BUILD, 64)
                self._build(t, i)
                self.stage = "after"
            return
        if st == "collect":
            if a == PASS:
                self.stage = "after"
            elif a >= EBISU:
                self._take_token(a - EBISU)
                self.used.add("ebisu")
            else:
                self._take_token(a - COLLECT)
                self.collected.append(a - COLLECT)
            return
        if st == "after":
            self.stage = "port"
            return
        if st == "port":
            if a == PASS:
                self.set_aside[p] += sum(self.hand)
                self.hand = [0] * 5
                self.stage = "recruit"
            else:
                c = a - KEEP
                self.hand[c] -= 1
                self.port[p][c] += 1
                self.kept += 1
            return
        if st == "recruit":
            if a != PASS:
                slot, k = divmod(a - RECRUIT, 26)
                pay = PAYMENTS[k]
                for x in pay:
                    self.tokens[p][x] -= 1
                spec = self.slots[slot]
                coins = self.slot_coins[slot]
                iz = self.spec_owner[IZANAMI]
                if iz >= 0 and iz != p:
                    self.coins[iz] += coins // 2
                    coins -= coins // 2
                self.coins[p] += coins
                self.spec_owner[spec] = p
                self.slots[slot] = -1
                self.slot_coins[slot] = 0
                self.events.append(("recruit", self.round, p, spec, coins, 0, 0))
            self._end_turn()
            return
        raise AssertionError(f"unhandled action {a} in stage {st}")

    def _free_action(self, a):
        """Apply ``a`` if it is a free action; return whether it was one."""
        p = self.me
        b = self._b()
        if RESERVE <= a < RESERVE + 5:
            t = self.row[a - RESERVE]
            self.row[a - RESERVE] = -1
            self.reserved[p].append(t)
            self.reserved_now.append(t)
        elif ARRANGE <= a < ARRANGE + 24:
            k = min(3, len(self.deck))
            perm = arrangements(k)[a - ARRANGE]
            peek = self.deck[:k]
            cut = perm.index(k)
            top = [peek[x] for x in perm[:cut]]
            bottom = [peek[x] for x in perm[cut + 1:]]
            self.deck = top + self.deck[k:] + bottom
        elif SLIDE <= a < SWAPBOATS:
            s, t = divmod(a - SLIDE, 128)
            self.sea[t], self.sea[s] = self.sea[s], -1
            if s in self.marked:
                self.marked.discard(s)
                self.marked.add(t)
        elif SACRED <= a < SACRED + 64:
            self.islands[a - SACRED]["sacred"] = True
            self.sacred_supply -= 1
        elif SWAPTOK <= a < SLIDE:
            i, j = divmod(a - SWAPTOK, 64)
            I, J = self.islands[i], self.islands[j]
            I["token"], J["token"] = J["token"], I["token"]
        elif REMOVE <= a < REMOVE + 128:
            self._remove_boat(a - REMOVE)
            self.return_stage = self.stage
            self.stage = "remove"
        elif a >= SWAPBOATS:
            s, t = divmod(a - SWAPBOATS, 128)
            self.sea[s], self.sea[t] = self.sea[t], self.sea[s]
            ms, mt = s in self.marked, t in self.marked
            self.marked.discard(s)
            self.marked.discard(t)
            if ms:
                self.marked.add(t)
            if mt:
                self.marked.add(s)
        elif RAIJIN <= a < RAIJIN + 25:
            c1, c2 = divmod(a - RAIJIN, 5)
            for c in (c1, c2):
                self.hand[c] -= 1
                self.supply[c] += 1
            self.supply[GOLD] -= 1
            self.hand[GOLD] += 1
            self.used.add("raijin")
            return True
        elif NAKATSU <= a < NAKATSU + 25:
            c1, c2 = divmod(a - NAKATSU, 5)
            self.hand[GOLD] -= 1
            self.supply[GOLD] += 1
            for c in (c1, c2):
                self.supply[c] -= 1
                self.hand[c] += 1
            self.used.add("nakatsu")
            return True
        elif MICHIMATA <= a < MICHIMATA + 6:
            self.tokens[p][a - MICHIMATA] -= 1
            self.supply[GOLD] -= 1
            self.hand[GOLD] += 1
            self.used.add("michimata")
            return True
        elif HETSUKA <= a < HETSUKA + 6:
            self.tokens[p][a - HETSUKA] -= 1
            self.coins[p] += 4
            self.used.add("hetsuka")
            return True
        elif KACHIKO <= a < KACHIKO + 64:
            self.islands[a - KACHIKO]["sacred"] = False
            self.sacred_supply += 1
            self.coins[p] -= 2
            self.used.add("kachiko")
            return True
        else:
            return False
        self.used.add("fleet")
        self.ev_fleet[2] = 1
        return True

    def _remove_boat(self, s):
        self.supply[self.sea[s]] += 1
        self.sea[s] = -1
        self.marked.discard(s)

    def _take_token(self, i):
        self.tokens[self.me][self.islands[i]["token"]] += 1
        self.islands[i]["token"] = -1

    def _build(self, t, i):
        p = self.me
        b = self._b()
        tile = self.cfg.tiles[t]
        coins0, pp0 = self.coins[p], self.pp_tokens[p]
        if self.fleet == 9:
            # fleet 9's ability is passive (a build may lack one of the tile's boats): the fleet
            # pick's event records it as used when this build lacks one, i.e. was possible only
            # with it; a build the island's boats allow anyway does not use it
            have = [0] * 5
            for s in b.island_sea[i]:
                if self.sea[s] >= 0:
                    have[self.sea[s]] += 1
            if sum(max(0, tile.boats[c] - have[c]) for c in range(5)) > 0:
                self.ev_fleet[2] = 1
        o = self.ananda_toll(i)
        if o is not None:
            self.coins[p] -= 2
            self.coins[o] += 2
        self.built[p].append(t)
        if t in self.row:
            self.row[self.row.index(t)] = -1
        else:
            self.reserved[p].remove(t)
        prestige_nbrs = sum(1 for j in b.island_nbrs[i] if self.islands[j]["building"] in ("torii", "palace"))
        mountain = 1 if self.islands[i]["mountain"] else 0
        if tile.kind == 0:
            self.islands[i]["building"] = p
            self.pp_tokens[p] += prestige_nbrs + mountain
            g = self.group(p, i)
            if len(g) >= 2:
                self.coins[p] += len(g) * (2 if tile.trading_post else 1)
            if self.owns(KAGUTSUCHI) and not any(self.islands[j]["building"] == p for j in b.island_nbrs[i]):
                self.pp_tokens[p] += 1
            self.pieces[p] -= 1
            if self.pieces[p] == 0:
                self.triggers.add("last_building")
        else:
            self.islands[i]["building"] = "torii" if tile.kind == 1 else "palace"
            if self.owns(AWASHIMA):
                self.pp_tokens[p] += prestige_nbrs + mountain
                seen = set()
                for j in b.island_nbrs[i]:
                    if self.islands[j]["building"] == p and j not in seen:
                        seen |= self.group(p, j)
                n = 1 + len(seen)
                if n >= 2:
                    self.coins[p] += n
        self.events.append(("build", self.round, p, t, i, self.coins[p] - coins0, self.pp_tokens[p] - pp0))

    def _end_turn(self):
        p = self.me
        self.events.append(("fleet", self.round, p) + tuple(self.ev_fleet))
        self.marked = set()
        self.turn += 1
        if self.turn < len(self.order):
            self._start_turn()
            return
        self._end_round()

    def _end_round(self):
        # 1. specialists
        for k in range(5):
            if self.slots[k] >= 0:
                self.slot_coins[k] += 2
        for k in range(5):
            if self.slots[k] < 0:
                if self.spec_deck:
                    self.slots[k] = self.spec_deck.pop(0)
                    self.slot_coins[k] = 0
                else:
                    self.triggers.add("specialists")
        # 2. buildings
        for k in range(5):
            if self.row[k] < 0:
                if self.deck:
                    self.row[k] = self.deck.pop(0)
                else:
                    self.triggers.add("buildings")
        self.round += 1
        if any(x == 0 for x in self.supply):
            self.triggers.add("boats")
        if self.round >= self.cfg.round_cap:
            self.triggers.add("round_cap")
        self.last_order = list(self.order)
        if self.triggers:
            self.over = True
            self.stage = "over"
            return
        # 3.-5. order, fleet queue, returned fleets
        self.order = sorted(self.order, key=lambda pw: self.fleet_taken[pw])
        returned = sorted(self.fleet_taken)
        for i in range(len(returned) - 1, 0, -1):
            j = self.rng.below(i + 1)
            returned[i], returned[j] = returned[j], returned[i]
        self.track = self.track + returned
        self.face_up = 5
        self.fleet_taken = [0] * len(self.pawn_owner)
        self.turn = 0
        self._start_turn()

    # ------------------------------------------------------------ scoring
    def scores(self):
        cfg = self.cfg
        out = {k: [] for k in SCORE_CATEGORIES + ("total",)}
        for p in range(self.players):
            per = int(cfg.pb["fu_hsi_coins_per_pp"]) if self.owns(FU_HSI, p) else int(cfg.pb["coins_per_pp"])
            v = {"coins": self.coins[p] // per,
                 "pp_tokens": self.pp_tokens[p] * (2 if self.owns(AMATERASU, p) else 1),
                 "buildings": sum(cfg.tiles[t].pp for t in self.built[p]),
                 "specialists": sum(cfg.spec_pp[s] for s in range(18) if self.spec_owner[s] == p),
                 "reserved": -len(self.reserved[p]),
                 "set_aside": -(self.set_aside[p] // 2)}
            for k in SCORE_CATEGORIES:
                out[k].append(v[k])
            out["total"].append(sum(v.values()) + cfg.seat_points[p])
        if any(cfg.seat_points):        # not a category: the categories plus it make the total
            out["seat_points"] = list(cfg.seat_points)
        return out

    def winner(self):
        """The winning seat (ties: the earliest pawn in the last round played, Y-D35)."""
        tot = self.scores()["total"]
        pos = [min(k for k, pw in enumerate(self.last_order) if self.pawn_owner[pw] == p)
               for p in range(self.players)]
        return min(range(self.players), key=lambda p: (-tot[p], pos[p]))


def replay(players, seed, actions, **settings):
    """Apply decisions (ints, or transcript entries of kind ``decision``) to a new game."""
    if actions and isinstance(actions[0], dict):
        actions = [e["action"] for e in actions if e["kind"] == "decision"]
    st = RefState.new(players=players, seed=seed, **settings)
    for i, a in enumerate(actions):
        try:
            st.apply(a)
        except ValueError as exc:
            raise ValueError(f"decision {i}: {exc}") from None
    return st
