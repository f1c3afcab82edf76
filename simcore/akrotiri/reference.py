"""Akrotiri in plain Python: the reference engine (spec ``rules/akrotiri.md``, contract ``docs/akrotiri_engine.md``).

Written for reading, not speed: quarters, cells and route nodes are tuples in
dicts and sets, islands are found by a search over land quarters, the route
graph is an adjacency dict. It replays the Cython engine's games decision by
decision (``tests/test_akrotiri_differential.py``) and is the speed baseline.
"""
from collections import deque

from simcore.akrotiri.config import (BUY_CODES, LOAD_CODES, MARKET_VALUES, PURCHASE_PRICE, GOAL_KEYS,
                                     make_config)
from simcore.rng import Xoshiro256

END, PLACE, CUBE, GOAL, SAIL, TRANSPORT, LOAD, EXCAVATE, BUY, ORACLE, SELL, UNLOAD = (
    0, 1, 1025, 1041, 1045, 1191, 1337, 1371, 1515, 1534, 1538, 1542)
T0, T1 = 144, 145
START_CELLS = {(-1, -1), (0, -1), (-1, 0), (0, 0)}
THERA = {(-1, -1), (-1, 0), (0, -1), (0, 0)}
START_LAND = THERA | {(-2, -2), (-2, 1), (1, -2), (1, 1)}
PORT_QUARTER = {T0: (0, 0), T1: (-1, -1)}
OFFSET = ((0, 0), (0, 1), (1, 0), (1, 1))   # local quarter -> (row, col) inside the cell


def in_window(x, y):
    return -8 <= x <= 7 and -8 <= y <= 7


def cell_of(q):
    return (q[1] // 2, q[0] // 2)


def side_node(x, y, side):
    return {"N": ("H", x, y), "S": ("H", x, y + 1), "W": ("V", x, y), "E": ("V", x + 1, y)}[side]


class RefState:
    """An Akrotiri position and its step API."""

    @classmethod
    def new(cls, players=2, seed=0, **settings):
        self = cls()
        self.cfg = make_config(players, **settings)
        data = self.cfg.data
        self.layouts = data["layouts"]
        self.cards = data["cards"]
        self.goal_pts = self.cfg.goal_points()
        self.rng = Xoshiro256(seed)
        self.transcript = [{"kind": "setup", "seed": int(seed)}]
        # board
        self.cells = {c: "start" for c in START_CELLS}
        self.land = set(START_LAND)
        self.landmark = {}                      # quarter -> type
        self.cubes = {}                         # quarter -> [4]
        self.adj = {}
        for a, b in ([("H", -1, -1), "R"], [("H", 0, -1), "R"], [("H", -1, 1), "R"], [("H", 0, 1), "R"],
                     [("V", -1, -1), "R"], [("V", -1, 0), "R"], [("V", 1, -1), "R"], [("V", 1, 0), "R"],
                     ["R", ("P", T0)], ["R", ("P", T1)]):
            self._link(a, b)
        self.port_quarter = dict(PORT_QUARTER)
        self.out = [0, 0, 0, 0]
        # chance, in the order of spec 15.3
        self.pile = self._shuffle(list(range(36)))
        self.discard = []
        self.decks = [self._shuffle([i for i, c in enumerate(self.cards) if c["deck"] == d]) for d in range(3)]
        self.goal_deck = self._shuffle(list(range(12)))
        self.seats = [{"port": T0 + p, "cargo": [0] * 4, "drachmas": data["start_drachmas"] + self.cfg.seat_bonus[p],
                       "temples": [], "hand": [], "excavated": [], "goals": [], "tile": None, "turns": 0}
                      for p in range(2)]
        self.display = []
        self.options = []
        self.phase = "place_tile"
        self.stage = "setup"
        self.current = 0
        self.actions = 0
        self.bonus = False
        self.oracle_used = False
        self.end_trigger = None
        self.placed = None
        self.decisions = 0
        self._draw_tile(0)
        self._settle()
        return self

    # ---- helpers
    def _shuffle(self, a):
        for i in range(len(a) - 1, 0, -1):
            j = self.rng.below(i + 1)
            a[i], a[j] = a[j], a[i]
        return a

    def _link(self, a, b):
        self.adj.setdefault(a, []).append(b)
        self.adj.setdefault(b, []).append(a)

    def _draw_tile(self, seat):
        if not self.pile and self.discard:
            self.pile = self._shuffle(self.discard)
            self.discard = []
        if self.pile:
            self.seats[seat]["tile"] = self.pile.pop(0)
            self.transcript.append({"kind": "tile", "seat": seat, "tile": self.seats[seat]["tile"]})

    def island(self, q):
        """The island of land quarter ``q``: sorted list of quarters."""
        seen = {q}
        todo = [q]
        while todo:
            r, c = todo.pop()
            for n in ((r - 1, c) if r % 2 == 0 else (r + 1, c), (r, c - 1) if c % 2 == 0 else (r, c + 1)):
                if n in self.land and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return sorted(seen)

    def _port_island(self, port):
        return self.island(self.port_quarter[port])

    def _temple_quarters(self):
        return {tuple(t) for s in self.seats for t in s["temples"]}

    # ---- queries
    def current_player(self):
        return -1 if self.phase == "over" else self.current

    def is_over(self):
        return self.phase == "over"

    def legal_actions(self):
        """Sorted legal actions of the current decision (cached until the next step)."""
        if getattr(self, "_cache", None) is None:
            self._cache = self._legal()
        return list(self._cache)

    def _legal(self):
        if self.phase == "over":
            return []
        p = self.current
        me = self.seats[p]
        if self.phase == "place_tile":
            rots = range(4) if self.cfg.tile_rotation else (0,)
            anchors = START_CELLS if self.stage == "setup" else self.cells   # A-D8: seeds touch the start board
            free = {(x + dx, y + dy) for x, y in anchors for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
            cells = sorted((y + 8) * 16 + (x + 8) for x, y in free if in_window(x, y) and (x, y) not in self.cells)
            return [PLACE + cell * 4 + r for cell in cells for r in rots]
        if self.phase == "second_cube":
            tile, rot, x, y = self.placed
            lay = self.layouts[tile][rot]
            return [CUBE + col * 4 + q for col in range(4) if self.out[col] < 8
                    for q in lay.land if q != lay.landmark_quarter]
        if self.phase == "keep_goal":
            return [GOAL + i for i in range(len(self.options))]
        # action phase
        out = [END]
        port = me["port"]
        opp = self.seats[1 - p]["port"]
        isl = self._port_island(port)
        base = 0 if self.bonus else 1
        if self.actions >= base:
            reach1 = self._reach(port, opp)
            reach2 = self._reach(port, None)
            for q in sorted(self.port_quarter):
                if q == port or q == opp:
                    continue
                same = self.port_quarter[q] in isl
                if not same or self.cfg.same_island_sail:
                    cost = base + (0 if q in reach1 else 1)
                    if q in reach2 and cost <= self.actions:
                        out.append(SAIL + q)
                if same and base <= self.actions:
                    out.append(TRANSPORT + q)
        if self.actions >= 1:
            room = 3 - sum(me["cargo"])
            have = [sum(self.cubes.get(q, [0] * 4)[col] for q in isl) for col in range(4)]
            for k, code in enumerate(LOAD_CODES):
                if len(code) <= room and all(code.count(col) <= have[col] for col in range(4)):
                    out.append(LOAD + k)
            if isl != sorted(THERA) and len(me["temples"]) < 6 and not (set(isl) & self._temple_quarters()):
                for card in sorted(me["hand"]):
                    if self.cards[card]["cost"] > me["drachmas"]:
                        continue
                    for i, q in enumerate(isl):
                        if self.satisfied(card, q, p):
                            out.append(EXCAVATE + card * 4 + i)
            if port in (T0, T1):
                for k, code in enumerate(BUY_CODES):
                    if PURCHASE_PRICE[len(code)] <= me["drachmas"] and all(
                            code.count(d) <= len(self.decks[d]) for d in range(3)):
                        out.append(BUY + k)
            if not self.oracle_used and me["tile"] is None and (self.pile or self.discard):
                out += [ORACLE + t for t in range(4)]
        if port in (T0, T1):
            out += [SELL + col for col in range(4) if me["cargo"][col]]
        out += [UNLOAD + col for col in range(4) if me["cargo"][col]]
        return sorted(out)

    def _reach(self, start, blocked):
        """Ports reachable from ``start`` by sea, never passing through port ``blocked``."""
        s = ("P", start)
        seen = {s}
        todo = deque([s])
        while todo:
            n = todo.popleft()
            for m in self.adj.get(n, []):
                if m in seen or m == ("P", blocked):
                    continue
                seen.add(m)
                todo.append(m)
        return {n[1] for n in seen if isinstance(n, tuple) and n[0] == "P"}

    def landmark_count(self, t, d, q, seat):
        """count(t, D) of spec 7.3 for a temple on quarter ``q`` = (r, c); ``d`` 0..3 = N E S W on the card."""
        rt, ct = q
        if seat == 1:
            d = (d + 2) % 4                     # the card is read from the other side of the table
        return sum(1 for (rl, cl), typ in self.landmark.items() if typ == t and (
            (d == 0 and rl < rt) or (d == 2 and rl > rt) or (d == 1 and cl > ct) or (d == 3 and cl < ct)))

    def satisfied(self, card, q, seat):
        """Spec 7.3: the map ``card`` read by ``seat`` fits a temple on quarter ``q``."""
        return all(self.landmark_count(t, d, q, seat) >= n for d, t, n in self.cards[card]["require"])

    # ---- acting
    def apply(self, action):
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} for seat {self.current} in phase {self.phase}")
        self.transcript.append({"kind": "decision", "seat": self.current, "action": int(action)})
        self._do(action)
        self.decisions += 1
        self._settle()

    def _settle(self):
        while self.phase != "over":
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self.transcript.append({"kind": "forced", "seat": self.current, "action": legal[0]})
            self._do(legal[0])
        if self.transcript[-1]["kind"] != "end":
            self.transcript.append({"kind": "end", "scores": self.scores()})

    def _place(self, tile, rot, x, y):
        lay = self.layouts[tile][rot]
        self.cells[(x, y)] = (tile, rot)
        for lq in lay.land:
            self.land.add((2 * y + OFFSET[lq][0], 2 * x + OFFSET[lq][1]))
        self.landmark[(2 * y + OFFSET[lay.landmark_quarter][0], 2 * x + OFFSET[lay.landmark_quarter][1])] = lay.landmark
        for k, lq in enumerate(lay.ports):
            self.port_quarter[4 * tile + k] = (2 * y + OFFSET[lq][0], 2 * x + OFFSET[lq][1])

        def node(n):
            if isinstance(n, int):
                return ("P", 4 * tile + n)
            if n == "C":
                return ("C", x, y)
            return side_node(x, y, n)
        for a, b in lay.links:
            self._link(node(a), node(b))

    def _take_cube(self, col, q):
        self.out[col] += 1
        self.cubes.setdefault(q, [0] * 4)[col] += 1

    def _begin_turn(self, p):
        self.current = p
        me = self.seats[p]
        me["turns"] += 1
        self.actions = self.cfg.action_track[len(me["temples"])]
        self.oracle_used = False
        self.bonus = False
        self.phase = "place_tile" if me["tile"] is not None else "action"

    def _after_cubes(self):
        p = self.current
        if self.stage == "setup":
            if p == 0:
                self.current = 1
                self._draw_tile(1)
                self.phase = "place_tile"
                return
            for s in self.seats:                        # maps: seat 0 easy, medium, seat 1 easy, medium
                s["hand"].append(self.decks[0].pop(0))
                s["hand"].append(self.decks[1].pop(0))
            self.deal = [self.goal_deck[0:2], self.goal_deck[2:4]]
            del self.goal_deck[0:4]
            self.current = 0
            self.options = list(self.deal[0])
            self.phase = "keep_goal"
            return
        self.phase = "action"

    def _do(self, a):
        self._cache = None
        p = self.current
        me = self.seats[p]
        if self.phase == "place_tile":
            cell, rot = divmod(a - PLACE, 4)
            x, y = cell % 16 - 8, cell // 16 - 8
            tile = me["tile"]
            me["tile"] = None
            self._place(tile, rot, x, y)
            lay = self.layouts[tile][rot]
            lq = (2 * y + OFFSET[lay.landmark_quarter][0], 2 * x + OFFSET[lay.landmark_quarter][1])
            if self.out[lay.landmark] < 8:
                self._take_cube(lay.landmark, lq)
            self.placed = (tile, rot, x, y)
            if any(self.out[c] < 8 for c in range(4)):
                self.phase = "second_cube"
            else:
                self._after_cubes()
            return
        if self.phase == "second_cube":
            col, lq = divmod(a - CUBE, 4)
            tile, rot, x, y = self.placed
            self._take_cube(col, (2 * y + OFFSET[lq][0], 2 * x + OFFSET[lq][1]))
            self.placed = None
            self._after_cubes()
            return
        if self.phase == "keep_goal":
            i = a - GOAL
            keep = self.options[i]
            me["goals"].append(keep)
            if self.cfg.strategist and self.stage == "play":
                self.display.pop(i)
                if self.goal_deck:
                    self.display.append(self.goal_deck.pop(0))
            else:
                self.goal_deck += [g for g in self.options if g != keep]
            self.options = []
            if self.stage == "setup":
                if p == 0:
                    self.current = 1
                    self.options = list(self.deal[1])
                    return
                if self.cfg.strategist:
                    self.display = self.goal_deck[:4]
                    del self.goal_deck[:4]
                self._draw_tile(0)
                self._draw_tile(1)
                self.stage = "play"
                self._begin_turn(0)
                return
            self.phase = "action"
            return
        # action phase
        if a == END:
            self.bonus = False
            if not self.oracle_used and me["tile"] is None:
                self._draw_tile(p)
            if p == 1 and (self.end_trigger is not None or me["turns"] >= self.cfg.turn_cap):
                if self.end_trigger is None:
                    self.end_trigger = "turn_cap"
                self.phase = "over"
                self.current = -1
                return
            self._begin_turn(1 - p)
            return
        if SAIL <= a < LOAD:
            q = a - SAIL if a < TRANSPORT else a - TRANSPORT
            base = 0 if self.bonus else 1
            cost = base
            if a < TRANSPORT and q not in self._reach(me["port"], self.seats[1 - p]["port"]):
                cost += 1
            self.actions -= cost
            if self.bonus:
                self.bonus = False
            elif sum(me["cargo"]) == 0:
                self.bonus = True
            me["port"] = q
            return
        if SELL <= a < UNLOAD:
            col = a - SELL
            me["cargo"][col] -= 1
            me["drachmas"] += MARKET_VALUES[self.out[col] - 1]
            self.out[col] -= 1
            return
        if UNLOAD <= a:
            col = a - UNLOAD
            me["cargo"][col] -= 1
            q = self.port_quarter[me["port"]]
            self.cubes.setdefault(q, [0] * 4)[col] += 1
            return
        # the other actions cost 1 and end a pending bonus
        self.actions -= 1
        self.bonus = False
        if LOAD <= a < EXCAVATE:
            isl = self._port_island(me["port"])
            for col in LOAD_CODES[a - LOAD]:
                q = next(q for q in isl if self.cubes.get(q, [0] * 4)[col] > 0)
                self.cubes[q][col] -= 1
                me["cargo"][col] += 1
            return
        if EXCAVATE <= a < BUY:
            card, i = divmod(a - EXCAVATE, 4)
            q = self._port_island(me["port"])[i]
            me["hand"].remove(card)
            me["temples"].append(q)
            me["drachmas"] -= self.cards[card]["cost"]
            me["excavated"].append(card)
            n = len(me["temples"])
            if n in (3, 5):
                if self.cfg.strategist:
                    self.options = list(self.display)
                else:
                    self.options = self.goal_deck[:2]
                    del self.goal_deck[:2]
                if self.options:
                    self.phase = "keep_goal"
            if n == 6 and self.end_trigger is None:
                self.end_trigger = "temples"
            return
        if BUY <= a < ORACLE:
            code = BUY_CODES[a - BUY]
            me["drachmas"] -= PURCHASE_PRICE[len(code)]
            for d in code:
                me["hand"].append(self.decks[d].pop(0))
            return
        if ORACLE <= a < SELL:
            t = a - ORACLE
            self.oracle_used = True
            if not self.pile:
                self.pile = self._shuffle(self.discard)
                self.discard = []
            while self.pile:
                tile = self.pile.pop(0)
                if self.layouts[tile][0].landmark == t or not self.pile:
                    me["tile"] = tile
                    self.transcript.append({"kind": "tile", "seat": p, "tile": tile})
                    break
                self.discard.append(tile)
            return
        raise ValueError(f"unknown action {a}")

    # ---- scoring
    def _components(self, without_start=False):
        comp = {}
        k = 0
        for n in self.adj:
            if n in comp or (without_start and n in ("R", ("P", T0), ("P", T1))):
                continue
            comp[n] = k
            todo = [n]
            while todo:
                m = todo.pop()
                for o in self.adj[m]:
                    if o not in comp and not (without_start and o in ("R", ("P", T0), ("P", T1))):
                        comp[o] = k
                        todo.append(o)
            k += 1
        return comp

    def _island_ports(self):
        out = {}
        for port, q in self.port_quarter.items():
            out.setdefault(tuple(self.island(q)), []).append(port)
        return out

    def transport_distance(self):
        """Spec 2.8: island (tuple of quarters) -> transports from Thera (islands with ports only)."""
        comp = self._components()
        iports = self._island_ports()
        dist = {comp[("P", T0)]: 0, comp[("P", T1)]: 0}
        frontier = [comp[("P", T0)], comp[("P", T1)]]
        d = 0
        while frontier:
            nxt = []
            for isl, ports in iports.items():
                comps = {comp[("P", q)] for q in ports}
                if any(c in frontier for c in comps):
                    for c in comps:
                        if c not in dist:
                            dist[c] = d + 1
                            nxt.append(c)
            frontier = nxt
            d += 1
        return {isl: min((dist[comp[("P", q)]] for q in ports if comp[("P", q)] in dist), default=None)
                for isl, ports in iports.items()}

    def completed(self, isl):
        for r, c in isl:
            for n in ((r - 1, c) if r % 2 == 0 else (r + 1, c), (r, c - 1) if c % 2 == 0 else (r, c + 1)):
                if cell_of(n) not in self.cells:      # empty or outside the window: open
                    return False
        return True

    def goal_scores(self):
        """Per seat: goal key -> points (0 for goals not held)."""
        dist = self.transport_distance()
        comp2 = self._components(without_start=True)
        iports = self._island_ports()
        out = []
        for p, me in enumerate(self.seats):
            isls = [tuple(self.island(tuple(t))) for t in me["temples"]]
            res = {k: 0 for k in GOAL_KEYS}
            for g in me["goals"]:
                key, pts = GOAL_KEYS[g], self.goal_pts[g]
                total = 0
                for t, isl in zip(me["temples"], isls):
                    types = {self.landmark[q] for q in isl if q in self.landmark}
                    d = dist.get(isl)
                    if key == "transport_1":
                        total += pts * (d == 1)
                    elif key == "transport_2":
                        ok = d == 2 if self.cfg.goal_values == "hu" else (d is not None and d >= 2)
                        total += pts * ok
                    elif key == "three_landmarks":
                        total += pts * (len(types) >= 3)
                    elif key == "no_landmark":
                        total += pts * (not types)
                    elif key == "incomplete_island":
                        total += pts * (not self.completed(isl))
                    elif key in ("volcano_island", "mountain_island", "lake_island", "tree_island"):
                        want = ("lake", "tree", "mountain", "volcano").index(key.split("_")[0])
                        total += pts * (want in types)
                    elif key == "isolated":
                        mine = {comp2[("P", q)] for q in iports.get(isl, [])}
                        linked = any(other != isl and mine & {comp2[("P", q)] for q in iports.get(other, [])}
                                     for other in isls)
                        total += pts * (not linked)
                if key == "quadrants":
                    total = pts * len({(r < 0, c < 0) for r, c in me["temples"]})
                elif key == "largest_complete_island":
                    sizes = [len({"start" if cell_of(q) in START_CELLS else cell_of(q) for q in isl})
                             for isl in isls if self.completed(isl)]
                    total = pts * max(sizes, default=0)
                res[key] += total
            out.append(res)
        return out

    def scores(self):
        gs = self.goal_scores()
        sc = {"maps": [], "goals": [], "money": [], "total": []}
        for p, me in enumerate(self.seats):
            sc["maps"].append(sum(self.cards[c]["points"] for c in me["excavated"]))
            sc["goals"].append(sum(gs[p].values()))
            sc["money"].append(me["drachmas"] // 10)
            sc["total"].append(sc["maps"][p] + sc["goals"][p] + sc["money"][p] + self.cfg.seat_points[p])
        if any(self.cfg.seat_points):   # not a category: the categories plus it make the total
            sc["seat_points"] = list(self.cfg.seat_points)
        return sc


def replay(players, seed, actions, **settings):
    """Play a game from its decisions (ints) or check a transcript (dicts); ``ValueError`` at the first disagreement."""
    st = RefState.new(players=players, seed=seed, **settings)
    actions = list(actions)
    entries = actions if actions and isinstance(actions[0], dict) else None
    decisions = [e["action"] for e in entries if e["kind"] == "decision"] if entries else actions
    for i, a in enumerate(decisions):
        try:
            st.apply(a)
        except ValueError as exc:
            raise ValueError(f"replay: decision {i}: {exc}") from None
    if entries:
        key = lambda e: (e["kind"], e.get("seat"), e.get("action"), e.get("tile"), e.get("scores"))  # noqa: E731
        theirs = [key(e) for e in entries if e["kind"] != "setup"]
        mine = [key(e) for e in st.transcript if e["kind"] != "setup"]
        for i, (a, b) in enumerate(zip(theirs, mine)):
            if a != b:
                raise ValueError(f"transcript entry {i + 1}: {a} where the reference has {b}")
        if len(theirs) != len(mine):
            raise ValueError(f"transcript has {len(theirs)} entries, the reference {len(mine)}")
    return st
