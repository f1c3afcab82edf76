# Built-in Akrotiri policies; included by _engine.pyx.
#
# A policy reads only public information plus its own seat's hand, goals and tile
# (spec 15.4): the features below look at the board, the market, its own boat, its
# own drachmas and its own map and goal cards, never at the opponent's hand, goals,
# tile or the order of a pile.
#
# The heuristic is a weighted sum of features per legal action, argmax (ties broken by
# the policy stream), with epsilon noise. What every action's score needs is worked out
# once per decision (Ctx): the satisfied region of each map in hand, which for a card is
# a rectangle of quarters (see map_rect), and, lazily, one entry per destination island.

cdef extern from *:
    """
    /* maxsd: a branch-free running maximum (on equal scores either one, which compare alike) */
    static inline double ak_max(double a, double b) { return a > b ? a : b; }
    """
    double ak_max(double a, double b) nogil
    int __builtin_popcountll(unsigned long long) nogil


cdef enum:
    POL_RANDOM = 0
    POL_HEURISTIC = 1
    NFEAT = 24

# feature indices (names and meaning in features.py, same order)
cdef enum:
    F_EXCAVATE_POINTS = 0
    F_GOAL_FIT = 1
    F_SELL_VALUE = 2
    F_LOAD_VALUE = 3
    F_BUY = 4
    F_BUY_HARD = 5
    F_SAIL_THERA = 6
    F_SAIL_CUBES = 7
    F_SAIL_FIT = 8
    F_ORACLE = 9
    F_PLACE_FIT = 10
    F_END = 11
    F_DIG_COST = 12
    F_SAIL_BUY = 13
    F_ORACLE_NEED = 14
    F_CUBE_VALUE = 15
    F_GOAL_KEEP = 16
    F_BUY_GOLD = 17
    F_MOVE_COST = 18
    F_THERA_ROUTE = 19
    F_SEEK_CUBES = 20
    F_SEEK_THERA = 21
    F_CUBE_REACH = 22
    F_PLACE_REACH = 23

ctypedef struct Policy:
    int kind
    double w[NFEAT]
    double eps

ctypedef struct Ctx:
    int valid                         # the fields below 'version' hold for (version, p)
    uint32_t version
    int p, cargo, room, nhand, nlive, thera_q
    int nafford                       # affordable hand maps that some quarter satisfies (else no sail_fit)
    int cards[NCARD]                  # hand cards
    int rlo[NCARD]                    # satisfied iff rlo < r < rhi and clo < c < chi (per hand slot)
    int rhi[NCARD]
    int clo[NCARD]
    int chi[NCARD]
    int quads                         # quadrants of own temples (bits)
    int place_cell                    # cell whose quarter masks are in place_mask, -1 none
    uint64_t place_mask[4]            # per local quarter of place_cell: hand slots fitting there
    uint64_t row_mask[32]             # per quarter row: hand slots whose rectangle spans it (placements)
    uint64_t col_mask[32]             # per quarter column: likewise
    int n_dest                        # destination islands evaluated so far
    int16_t slot_of[NQ]               # island id -> entry, -1 none (reset entry by entry)
    uint16_t dest_id[NPORT]
    double dest_cubes[NPORT]
    int dest_fit[NPORT]
    double dest_tc[NPORT]             # w[sail_cubes] * dest_cubes / 10 (the score's term, same arithmetic)
    double dest_tf[NPORT]             # w[sail_fit] * dest_fit
    int16_t tie[MAXLEGAL]             # indices of the actions tied for the best score
    uint8_t rect_lm[2][NCARD]         # map_rect() cache per (seat, card): n_lm + 1 when made, 0 none
    int8_t rect[2][NCARD][4]          # ... rlo, rhi, clo, chi (landmarks only change with n_lm)
    uint32_t need_card[2][NCARD]      # ... and per landmark type t (byte t) the icons the card lacks now
    uint32_t need                     # the hand's need_card summed (byte t: icons of type t, < 256)
    # movements from each port on the table to the nearest port of an island holding cubes (dcube) and
    # to a Thera port (dthera), 255 none: port_dists(), made when a weight needs them, kept while valid
    int dist_ok
    uint8_t dcube[NPORT]
    uint8_t dthera[NPORT]
    uint16_t pisl[NPORT]              # per ports_on entry: its island id and its route component's root
    uint16_t proot[NPORT]
    uint32_t stamp                    # marks of root_st / isl_st equal to stamp are set (no clearing)
    uint32_t root_st[NNODE]
    uint32_t isl_st[NQ]
    uint32_t reach_stamp              # roots whose component reaches Thera: reach_st == reach_stamp
    uint32_t reach_st[NNODE]
    uint8_t side_ports[4][4]          # per rotation of the held tile and side: bits of the ports it links


ctypedef struct MoveK:                # what every movement score of one decision shares
    double vcost[3]                   # 0 + w[move_cost] * cost, for cost 0, 1, 2
    double tr                         # w[thera_route] * cargo
    double st                         # w[sail_thera] * cargo
    double sc                         # w[seek_cubes] with an empty boat, else 0
    double sth                        # w[seek_thera] * cargo
    int seek, here                    # seek: either is non-zero (port_dists made); here: the boat's port
    int base, blocked, mylab, root_t0, thera_buy
    const uint8_t* labels


cdef void map_rect(const ACfg* c, const AState* s, int card, int seat,
                   int* rlo, int* rhi, int* clo, int* chi) noexcept nogil:
    """The quarters where ``card`` is satisfied for ``seat``: the open rectangle rlo < r < rhi, clo < c < chi.

    Same test as satisfied(): each requirement bounds the temple's row or column by the
    n-th nearest landmark of its type; an unmeetable one leaves the rectangle empty.
    """
    cdef int k, t, d, n, cnt
    rlo[0] = -1
    rhi[0] = 32
    clo[0] = -1
    chi[0] = 32
    for k in range(c.n_req[card]):
        t = c.req_type[card][k]
        d = c.req_dir[card][k]
        n = c.req_n[card][k]
        cnt = s.lm_n[t]
        if cnt < n:
            rhi[0] = -1
            return
        if seat == 1:
            d ^= 2
        if d == 0:
            if s.lm_rows[t][n - 1] > rlo[0]:
                rlo[0] = s.lm_rows[t][n - 1]
        elif d == 2:
            if s.lm_rows[t][cnt - n] < rhi[0]:
                rhi[0] = s.lm_rows[t][cnt - n]
        elif d == 1:
            if s.lm_cols[t][cnt - n] < chi[0]:
                chi[0] = s.lm_cols[t][cnt - n]
        elif s.lm_cols[t][n - 1] > clo[0]:
            clo[0] = s.lm_cols[t][n - 1]


cdef inline int rect_has(const Ctx* x, int k, int q) noexcept nogil:
    cdef int r = q >> 5, col = q & 31
    return (x.rlo[k] < r) & (r < x.rhi[k]) & (x.clo[k] < col) & (col < x.chi[k])   # no short-circuit branches


cdef void ctx_init(const ACfg* c, const AState* s, Ctx* x) noexcept nogil:
    """Per-decision context. Movements change nothing it holds but the boat's port, so after a
    movement (same version, same seat) the hand's map regions and the destination entries are kept."""
    cdef int p = s.current, k, tq, live, j, t
    cdef uint64_t bits
    cdef uint32_t nd
    cdef int8_t* r
    x.place_cell = -1
    if x.valid & (x.version == s.version) & (x.p == p) & (s.phase == PH_ACTION):   # one branch, not four
        return
    x.valid = s.phase == PH_ACTION
    x.version = s.version
    x.p = p
    x.cargo = s.cargo[p][0] + s.cargo[p][1] + s.cargo[p][2] + s.cargo[p][3]
    x.room = 3 - x.cargo
    x.thera_q = quarter_index(15, 15)
    x.nhand = 0
    x.need = 0
    x.nafford = 0
    x.nlive = 0
    bits = s.hand[p]
    while bits:                            # hand cards in ascending id
        k = <int>__builtin_ctzll(bits)
        bits &= bits - 1
        x.cards[x.nhand] = k
        r = x.rect[p][k]
        if x.rect_lm[p][k] != s.n_lm + 1:
            map_rect(c, s, k, p, &x.rlo[x.nhand], &x.rhi[x.nhand], &x.clo[x.nhand], &x.chi[x.nhand])
            x.rect_lm[p][k] = s.n_lm + 1
            r[0] = <int8_t>x.rlo[x.nhand]
            r[1] = <int8_t>x.rhi[x.nhand]
            r[2] = <int8_t>x.clo[x.nhand]
            r[3] = <int8_t>x.chi[x.nhand]
            nd = 0
            for j in range(c.n_req[k]):
                t = c.req_type[k][j]
                if s.lm_n[t] < c.req_n[k][j]:
                    nd += <uint32_t>(c.req_n[k][j] - s.lm_n[t]) << (8 * t)
            x.need_card[p][k] = nd
        else:
            x.rlo[x.nhand] = r[0]
            x.rhi[x.nhand] = r[1]
            x.clo[x.nhand] = r[2]
            x.chi[x.nhand] = r[3]
        live = (x.rhi[x.nhand] > x.rlo[x.nhand] + 1) & (x.chi[x.nhand] > x.clo[x.nhand] + 1)
        x.nafford += live & <int>(c.card_cost[k] <= s.drachmas[p])
        x.nlive += live
        x.need += x.need_card[p][k]
        x.nhand += 1
    x.quads = 0
    for k in range(s.n_temples[p]):
        tq = s.temple_q[p][k]
        x.quads |= 1 << ((((tq >> 5) < 16) << 1) | ((tq & 31) < 16))
    for k in range(x.n_dest):
        x.slot_of[x.dest_id[k]] = -1
    x.n_dest = 0
    x.dist_ok = 0


cdef void port_bfs(const AState* s, Ctx* x, uint8_t* d) noexcept nogil:
    """Breadth-first over the ports on the table from those with d == 0 (the others 255): a sea move
    reaches every port of the route component, a transport every port of the island."""
    cdef int i, q, L = 0, more = 1
    while more and L < 250:
        x.stamp += 1
        for i in range(s.n_on):
            if d[s.ports_on[i]] <= L:
                x.root_st[x.proot[i]] = x.stamp
                x.isl_st[x.pisl[i]] = x.stamp
        more = 0
        for i in range(s.n_on):
            q = s.ports_on[i]
            if d[q] == 255 and (x.root_st[x.proot[i]] == x.stamp or x.isl_st[x.pisl[i]] == x.stamp):
                d[q] = <uint8_t>(L + 1)
                more = 1
        L += 1


cdef void port_dists(const AState* s, Ctx* x) noexcept nogil:
    """dcube and dthera of every port on the table (the opponent's boat ignored), and the roots of the
    route components that reach Thera (reach_st)."""
    cdef int i, q, n, k
    cdef uint32_t tot, w4
    cdef int isl[4]
    for i in range(s.n_on):
        q = s.ports_on[i]
        x.pisl[i] = s.isl_id[s.port_q[q]]
        x.proot[i] = s.port_root[q]
        n = island(s, s.port_q[q], isl)
        tot = 0
        for k in range(n):
            memcpy(&w4, s.cubes[isl[k]], 4)
            tot |= w4
        x.dcube[q] = 0 if tot != 0 else 255
        x.dthera[q] = 0 if q >= PORT_T0 else 255
    port_bfs(s, x, x.dcube)
    port_bfs(s, x, x.dthera)
    x.reach_stamp = x.stamp + 1
    x.stamp += 1
    for i in range(s.n_on):
        if x.dthera[s.ports_on[i]] != 255:
            x.reach_st[x.proot[i]] = x.reach_stamp
    x.dist_ok = 1


cdef int cube_reach(const AState* s, Ctx* x, int q) noexcept nogil:
    """1 when the island of land quarter q has a port from which a boat can reach Thera."""
    cdef int i, iid = s.isl_id[q]
    if not x.dist_ok:
        port_dists(s, x)
    for i in range(s.n_on):
        if x.pisl[i] == iid and x.dthera[s.ports_on[i]] != 255:
            return 1
    return 0


cdef void side_ports_init(const ACfg* c, int tile, Ctx* x) noexcept nogil:
    """side_ports of the tile in each rotation: the ports its own routes link to each side."""
    cdef int r, k, a, b, i, changed
    cdef int lab[9]
    for r in range(4):
        for i in range(9):
            lab[i] = i
        changed = 1
        while changed:                     # labels over the tile's 9 local nodes (<= 8 links)
            changed = 0
            for k in range(c.n_links[tile]):
                a = c.link_a[tile][r][k]
                b = c.link_b[tile][r][k]
                if lab[a] != lab[b]:
                    lab[a] = lab[b] = lab[a] if lab[a] < lab[b] else lab[b]
                    changed = 1
        for i in range(4):
            x.side_ports[r][i] = 0
            for k in range(c.n_ports[tile]):
                if lab[i] == lab[5 + k]:
                    x.side_ports[r][i] |= <uint8_t>(1 << k)


cdef int place_reach(const AState* s, Ctx* x, int cell, int rot) noexcept nogil:
    """Ports of the held tile placed at (cell, rot) that its routes link to a side whose route
    component already reaches Thera (side_ports_init and port_dists made)."""
    cdef int side, X = cell & 15, Y = cell >> 4, m = 0
    for side in range(4):
        if x.reach_st[uf_find(s, side_node(X, Y, side))] == x.reach_stamp:
            m |= x.side_ports[rot][side]
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


cdef int best_fit(const ACfg* c, const AState* s, const Ctx* x, const int* isl, int n, int q) noexcept nogil:
    """Points of the best affordable map in hand satisfied somewhere on the island of land quarter q
    (quarters isl[:n]); 0: none, or no dig site."""
    cdef int k, best = 0, card, pts, hit, r0, r1, c0, c1, sat
    cdef int R = q >> 5, C = q & 31, memb = s.isl_memb[q]
    cdef int R0 = R + (R & 1) - 1, C0 = C + (C & 1) - 1     # the island's ring: rows R0, R0 + 1, columns C0, C0 + 1
    if (isl[0] == x.thera_q) | has_temple(s, isl, n):
        return 0
    for k in range(x.nhand):               # branch-free: the ring's quarters inside the map's rectangle as
        card = x.cards[k]                  # ring slot bits (NW 1, NE 2, SE 4, SW 8), the maximum by a select
        pts = c.card_points[card]
        r0 = (x.rlo[k] < R0) & (R0 < x.rhi[k])
        r1 = (x.rlo[k] < R0 + 1) & (R0 + 1 < x.rhi[k])
        c0 = (x.clo[k] < C0) & (C0 < x.chi[k])
        c1 = (x.clo[k] < C0 + 1) & (C0 + 1 < x.chi[k])
        sat = (r0 & c0) | ((r0 & c1) << 1) | ((r1 & c1) << 2) | ((r1 & c0) << 3)
        hit = ((sat & memb) != 0) & (c.card_cost[card] <= s.drachmas[x.p]) & (pts > best)
        best += (pts - best) & -hit
    return best


cdef int dest_new(const ACfg* c, const AState* s, const Policy* pol, Ctx* x, int q, int iid) noexcept nogil:
    """A new Ctx entry for island iid (of port q): cube value a visit could load and the best dig there."""
    cdef int j, n, i, col, take, left
    cdef uint32_t tot, w4
    cdef int isl[4]
    cdef int cnt[4]
    cdef double v = 0
    j = x.n_dest
    x.n_dest += 1
    x.dest_id[j] = <uint16_t>iid
    x.slot_of[iid] = <int16_t>j
    n = island(s, s.port_q[q], isl)
    tot = 0
    for i in range(4):                     # the 4 colour counts as bytes of one word (each < 256)
        memcpy(&w4, s.cubes[isl[i]], 4)
        tot += w4 & (<uint32_t>0 - <uint32_t>(i < n))
    if (tot != 0) & (x.room > 0):
        for col in range(4):
            cnt[col] = (tot >> (8 * col)) & 255
        if cnt[0] + cnt[1] + cnt[2] + cnt[3] <= x.room:
            for col in range(4):
                v += cnt[col] * MARKET[s.out[col] - 1 if s.out[col] > 0 else 0]
        else:
            left = x.room                  # the cubes a visit could load, dearest colour first
            while left > 0:
                take = -1
                for col in range(4):
                    if cnt[col] > 0 and (take < 0 or s.out[col] > s.out[take]):
                        take = col
                v += MARKET[s.out[take] - 1]
                cnt[take] -= 1
                left -= 1
    x.dest_cubes[j] = v
    x.dest_fit[j] = best_fit(c, s, x, isl, n, s.port_q[q]) if x.nafford > 0 else 0
    # with a full boat the score leaves sail_cubes out; adding 0.0 instead changes at most the sign
    # of a zero, which no comparison of scores sees
    x.dest_tc[j] = pol.w[F_SAIL_CUBES] * x.dest_cubes[j] / 10.0 if x.room > 0 else 0.0
    x.dest_tf[j] = pol.w[F_SAIL_FIT] * x.dest_fit[j]
    return j


cdef int goal_gain(const ACfg* c, const AState* s, const Ctx* x, const int* isl, int n, int q) noexcept nogil:
    """Points the seat's held goals gain from a temple on quarter q of this island (per-temple goals
    whose test is local: G03, G04, G05, G08, G09..G12; the others count 0)."""
    cdef int g, types = 0, i, nt, total = 0, quad
    cdef int goals = s.goals[x.p]
    if goals == 0:
        return 0
    for i in range(n):
        if s.lmark[isl[i]] >= 0:
            types |= 1 << s.lmark[isl[i]]
    nt = (types & 1) + ((types >> 1) & 1) + ((types >> 2) & 1) + ((types >> 3) & 1)
    for g in range(NGOAL):
        if not (goals >> g) & 1:
            continue
        if g == 2:
            total += c.goal_points[g] * (nt >= 3)
        elif g == 3:
            total += c.goal_points[g] * (nt == 0)
        elif g == 4:
            quad = 1 << ((((q >> 5) < 16) << 1) | ((q & 31) < 16))
            total += c.goal_points[g] * ((x.quads & quad) == 0)
        elif g == 7:
            total += c.goal_points[g] * (not completed(s, isl, n))
        elif g == 8:
            total += c.goal_points[g] * ((types >> 3) & 1)
        elif g == 9:
            total += c.goal_points[g] * ((types >> 2) & 1)
        elif g == 10:
            total += c.goal_points[g] * (types & 1)
        elif g == 11:
            total += c.goal_points[g] * ((types >> 1) & 1)
    return total


cdef double goal_keep_value(const ACfg* c, const AState* s, const Ctx* x, int g) noexcept nogil:
    """Rough worth of keeping goal g: its points per temple times (own temples meeting it now, for the
    local landmark goals, plus half the temples still to dig)."""
    cdef int k, n, i, types, nt, now = 0, left = 6 - s.n_temples[x.p]
    cdef int isl[4]
    cdef double pts = c.goal_points[g]
    if g == 4:
        now = (x.quads & 1) + ((x.quads >> 1) & 1) + ((x.quads >> 2) & 1) + ((x.quads >> 3) & 1)
        return pts * (now + 0.5 * left if now + 0.5 * left < 4 else 4)
    if g == 5:
        return pts * 3
    for k in range(s.n_temples[x.p]):
        n = island(s, s.temple_q[x.p][k], isl)
        types = 0
        for i in range(n):
            if s.lmark[isl[i]] >= 0:
                types |= 1 << s.lmark[isl[i]]
        nt = (types & 1) + ((types >> 1) & 1) + ((types >> 2) & 1) + ((types >> 3) & 1)
        if g == 2:
            now += nt >= 3
        elif g == 3:
            now += nt == 0
        elif g == 8:
            now += (types >> 3) & 1
        elif g == 9:
            now += (types >> 2) & 1
        elif g == 10:
            now += types & 1
        elif g == 11:
            now += (types >> 1) & 1
    return pts * (now + 0.5 * left)


cdef void move_init(const AState* s, const Policy* pol, const Ctx* x, MoveK* mk) noexcept nogil:
    """The terms every movement score of this decision shares (each computed as the score computes it)."""
    cdef int k = s.port[1 - x.p], cost
    mk.base = 0 if s.bonus else 1
    for cost in range(3):
        mk.vcost[cost] = 0
        mk.vcost[cost] += pol.w[F_MOVE_COST] * cost
    mk.tr = pol.w[F_THERA_ROUTE] * x.cargo
    mk.st = pol.w[F_SAIL_THERA] * x.cargo
    mk.sc = pol.w[F_SEEK_CUBES] if x.cargo == 0 else 0.0
    mk.sth = pol.w[F_SEEK_THERA] * x.cargo
    mk.here = s.port[x.p]
    mk.seek = (mk.sc != 0) | (mk.sth != 0)
    if mk.seek and not x.dist_ok:
        port_dists(s, x)
    mk.root_t0 = s.port_root[PORT_T0] if x.cargo > 0 else 0xffff   # no root: thera_route needs cargo
    mk.thera_buy = x.nhand < 2 and s.drachmas[x.p] >= 1
    mk.blocked = s.deg[NODE_PORT + k] >= 2 and s.port_root[k] == s.port_root[s.port[x.p]]
    mk.mylab = 0
    if mk.blocked:
        mk.labels = piece_labels(s, k)
        mk.mylab = mk.labels[s.port[x.p]]


cdef inline double move_value(const ACfg* c, const AState* s, const Policy* pol, Ctx* x, const MoveK* mk,
                              int q, int label_test) noexcept nogil:
    """A sea move or transport to port q: move_cost, thera_route, then sail_thera and sail_buy (Thera)
    or sail_cubes and sail_fit (the destination island's entry), summed in this order. label_test: a
    sea move while the opponent's port blocks, so passing it costs 1 more."""
    cdef int j, cost = mk.base
    cdef double v
    if label_test and mk.labels[q] != mk.mylab:
        cost += 1
    v = mk.vcost[cost]
    v += mk.tr * <double>(s.port_root[q] == mk.root_t0)   # tr or a zero; v is never -0.0 (vcost is 0 + ...),
                                                          # so adding a zero of either sign keeps it
    if q >= PORT_T0:                       # T0 or T1
        v += mk.st
        if mk.thera_buy:
            v += pol.w[F_SAIL_BUY]
        return v
    j = x.slot_of[s.isl_id[s.port_q[q]]]
    if j < 0:
        j = dest_new(c, s, pol, x, q, s.isl_id[s.port_q[q]])
    v += x.dest_tc[j]
    v += x.dest_tf[j]
    return v


cdef inline double seek_value(const Ctx* x, const MoveK* mk, int q) noexcept nogil:
    """seek_cubes and seek_thera of a movement to port q (mk.seek set: port_dists made)."""
    return (mk.sc * <double>(x.dcube[q] < x.dcube[mk.here])
            + mk.sth * <double>(x.dthera[q] < x.dthera[mk.here]))


cdef double place_value(const ACfg* c, const AState* s, const Policy* pol, Ctx* x, int a) noexcept nogil:
    """place_fit: maps in hand satisfied at a land quarter of the placed tile (existing landmarks)."""
    cdef int cell = (a - A_PLACE) >> 2, rot = (a - A_PLACE) & 3, lq, k, q, X, Y, n = 0
    cdef uint64_t m = 0
    if cell != x.place_cell:
        x.place_cell = cell
        X = cell & 15
        Y = cell >> 4
        for lq in range(4):
            q = quarter_index(2 * Y + (lq >> 1), 2 * X + (lq & 1))
            x.place_mask[lq] = 0
            for k in range(x.nhand):
                if rect_has(x, k, q):
                    x.place_mask[lq] |= (<uint64_t>1) << k
    for lq in range(4):
        if (c.land[s.tile[x.p]][rot] >> lq) & 1:
            m |= x.place_mask[lq]
    while m:
        n += 1
        m &= m - 1
    if pol.w[F_PLACE_REACH] == 0:
        return pol.w[F_PLACE_FIT] * n
    if not x.dist_ok:
        port_dists(s, x)
    side_ports_init(c, s.tile[x.p], x)
    return pol.w[F_PLACE_FIT] * n + pol.w[F_PLACE_REACH] * place_reach(s, x, cell, rot)


cdef double action_value(const ACfg* c, const AState* s, const Policy* pol, Ctx* x, int a) noexcept nogil:
    cdef int p = x.p, k, col, card, n, i
    cdef double v = 0
    cdef int isl[4]
    cdef MoveK mk
    if a == A_END:
        return pol.w[F_END]
    if s.phase == PH_PLACE:
        return place_value(c, s, pol, x, a)
    if s.phase == PH_CUBE:
        col = (a - A_CUBE) >> 2
        if pol.w[F_CUBE_REACH] == 0:
            return pol.w[F_CUBE_VALUE] * MARKET[s.out[col]]
        k = (a - A_CUBE) & 3
        return pol.w[F_CUBE_VALUE] * MARKET[s.out[col]] + pol.w[F_CUBE_REACH] * cube_reach(
            s, x, quarter_index(2 * (s.placed_cell >> 4) + (k >> 1), 2 * (s.placed_cell & 15) + (k & 1)))
    if s.phase == PH_GOAL:
        return pol.w[F_GOAL_KEEP] * goal_keep_value(c, s, x, s.options[a - A_GOAL])
    if a >= A_SAIL and a < A_LOAD:
        move_init(s, pol, x, &mk)
        k = a - A_SAIL if a < A_TRANSPORT else a - A_TRANSPORT
        v = move_value(c, s, pol, x, &mk, k, a < A_TRANSPORT and mk.blocked)
        if mk.seek:
            v += seek_value(x, &mk, k)
        return v
    if a >= A_LOAD and a < A_EXCAVATE:
        k = a - A_LOAD
        for col in range(4):
            v += c.load_c[k][col] * MARKET[s.out[col] - 1]
        return pol.w[F_LOAD_VALUE] * v
    if a >= A_EXCAVATE and a < A_BUY:
        card = (a - A_EXCAVATE) >> 2
        i = (a - A_EXCAVATE) & 3
        v = pol.w[F_EXCAVATE_POINTS] * c.card_points[card] + pol.w[F_DIG_COST] * c.card_cost[card]
        if pol.w[F_GOAL_FIT] != 0 and s.goals[p] != 0:
            n = island(s, s.port_q[s.port[p]], isl)
            v += pol.w[F_GOAL_FIT] * goal_gain(c, s, x, isl, n, isl[i])
        return v
    if a >= A_BUY and a < A_ORACLE:
        k = a - A_BUY
        if x.nlive >= 2 or s.drachmas[p] - PURCHASE[c.buy_n[k]] < 2:
            return -5.0          # keep money for the excavation cost (maps no board quarter fits don't count)
        return pol.w[F_BUY] * c.buy_n[k] + pol.w[F_BUY_HARD] * (c.buy_d[k][1] + c.buy_d[k][2]) \
            + pol.w[F_BUY_GOLD] * c.buy_d[k][2] - 0.5 * PURCHASE[c.buy_n[k]]
    if a >= A_ORACLE and a < A_SELL:
        k = a - A_ORACLE
        n = 0                    # icons of this landmark type that the hand's maps cannot meet now
        for i in range(x.nhand):
            card = x.cards[i]
            for col in range(c.n_req[card]):
                if c.req_type[card][col] == k and s.lm_n[k] < c.req_n[card][col]:
                    n += c.req_n[card][col] - s.lm_n[k]
        return pol.w[F_ORACLE] + pol.w[F_ORACLE_NEED] * n
    if a >= A_SELL and a < A_UNLOAD:
        col = a - A_SELL
        return pol.w[F_SELL_VALUE] * MARKET[s.out[col] - 1]
    return -3.0          # unload


cdef inline void take_best(double v, int i, double* bv, int* ties, Ctx* x) noexcept nogil:
    # branch-free: a better score restarts the tie list at 0; i is written at the list's end either way
    # and kept (the count advances) only for a better or an equal score (x.tie[ties] is never read)
    cdef int gt = v > bv[0], ge = v >= bv[0], t = ties[0] & (gt - 1)
    x.tie[t] = <int16_t>i
    ties[0] = t + ge
    bv[0] = ak_max(bv[0], v)


cdef int choose_place(const ACfg* c, const AState* s, const Policy* pol, uint64_t* prng,
                      const int16_t* buf, int n, Ctx* x) noexcept nogil:
    """The heuristic's placement: place_value() of every legal placement, with the hand slots fitting
    a quarter taken from per-row and per-column masks of the map rectangles (same scores, same ties)."""
    cdef int i, k, r, a, cell, land, cnt, ties = 0, lo, hi, R0, C0, step
    cdef const uint8_t* lands = c.land[s.tile[x.p]]
    cdef uint64_t m, q0 = 0, q1 = 0, q2 = 0, q3 = 0, bit
    cdef uint64_t sel[4][4]
    cdef double v, bv = -1e300, w = pol.w[F_PLACE_FIT], wr = pol.w[F_PLACE_REACH]
    if wr != 0:
        if not x.dist_ok:
            port_dists(s, x)
        side_ports_init(c, s.tile[x.p], x)
    memset(x.row_mask, 0, sizeof(x.row_mask))
    memset(x.col_mask, 0, sizeof(x.col_mask))
    for k in range(x.nhand):
        bit = (<uint64_t>1) << k
        lo = x.rlo[k] + 1 if x.rlo[k] >= 0 else 0
        hi = x.rhi[k] if x.rhi[k] <= 32 else 32
        for r in range(lo, hi):
            x.row_mask[r] |= bit
        lo = x.clo[k] + 1 if x.clo[k] >= 0 else 0
        hi = x.chi[k] if x.chi[k] <= 32 else 32
        for r in range(lo, hi):
            x.col_mask[r] |= bit
    # branch-free per action: the land quarters' masks selected by the rotation's land bits (a cell where
    # no map fits gives cnt 0 and w * 0, as before); with rotations legal_actions() lists every
    # cell's 4 rotations together, so a cell's quarter masks are read once per 4 actions
    step = 4 if c.rotation else 1
    for r in range(4):                    # per rotation and local quarter: all ones where the quarter is land
        for k in range(4):
            sel[r][k] = <uint64_t>0 - <uint64_t>((lands[r] >> k) & 1)
    i = 0
    while i < n:
        a = buf[i] - A_PLACE
        cell = a >> 2
        R0 = (cell >> 4) << 1
        C0 = (cell & 15) << 1
        q0 = x.row_mask[R0] & x.col_mask[C0]
        q1 = x.row_mask[R0] & x.col_mask[C0 + 1]
        q2 = x.row_mask[R0 + 1] & x.col_mask[C0]
        q3 = x.row_mask[R0 + 1] & x.col_mask[C0 + 1]
        for r in range(step):
            land = (buf[i + r] - A_PLACE) & 3
            m = (q0 & sel[land][0]) | (q1 & sel[land][1]) | (q2 & sel[land][2]) | (q3 & sel[land][3])
            cnt = __builtin_popcountll(m)
            v = w * cnt
            if wr != 0:
                v += wr * place_reach(s, x, cell, land)
            take_best(v, i + r, &bv, &ties, x)
        i += step
    if ties == 1:
        return buf[x.tie[0]]
    return buf[x.tie[rng_below(prng, ties)]]


cdef int choose_act(const ACfg* c, const AState* s, const Policy* pol, uint64_t* prng,
                    const int16_t* buf, int n, Ctx* x) noexcept nogil:
    """The heuristic's action-phase pick: action_value() of every legal action, the movements (which
    come first after END) with their shared terms computed once, the Oracle's needs once."""
    cdef int i = 0, a, ties = 0, k
    cdef double bv = -1e300
    cdef MoveK mk
    while i < n and buf[i] < A_SAIL:
        take_best(pol.w[F_END], i, &bv, &ties, x)
        i += 1
    if i < n and buf[i] < A_LOAD:
        move_init(s, pol, x, &mk)
        if mk.seek:                        # (the same loops with the seek terms)
            while i < n and buf[i] < A_TRANSPORT:
                take_best(move_value(c, s, pol, x, &mk, buf[i] - A_SAIL, mk.blocked)
                          + seek_value(x, &mk, buf[i] - A_SAIL), i, &bv, &ties, x)
                i += 1
            while i < n and buf[i] < A_LOAD:
                take_best(move_value(c, s, pol, x, &mk, buf[i] - A_TRANSPORT, 0)
                          + seek_value(x, &mk, buf[i] - A_TRANSPORT), i, &bv, &ties, x)
                i += 1
        if mk.blocked:                     # (two loops: the label test only where it can matter)
            while i < n and buf[i] < A_TRANSPORT:
                take_best(move_value(c, s, pol, x, &mk, buf[i] - A_SAIL, 1), i, &bv, &ties, x)
                i += 1
        else:
            while i < n and buf[i] < A_TRANSPORT:
                take_best(move_value(c, s, pol, x, &mk, buf[i] - A_SAIL, 0), i, &bv, &ties, x)
                i += 1
        while i < n and buf[i] < A_LOAD:
            take_best(move_value(c, s, pol, x, &mk, buf[i] - A_TRANSPORT, 0), i, &bv, &ties, x)
            i += 1
    while i < n:
        a = buf[i]
        if a >= A_ORACLE and a < A_SELL:
            # icons of this landmark type that the hand's maps cannot meet now (ctx_init)
            take_best(pol.w[F_ORACLE] + pol.w[F_ORACLE_NEED] * <int>((x.need >> (8 * (a - A_ORACLE))) & 255),
                      i, &bv, &ties, x)
        elif a >= A_UNLOAD:                # as in action_value()
            take_best(-3.0, i, &bv, &ties, x)
        elif a >= A_SELL:
            take_best(pol.w[F_SELL_VALUE] * MARKET[s.out[a - A_SELL] - 1], i, &bv, &ties, x)
        elif a >= A_BUY and a < A_ORACLE:
            k = a - A_BUY
            if x.nlive >= 2 or s.drachmas[x.p] - PURCHASE[c.buy_n[k]] < 2:
                take_best(-5.0, i, &bv, &ties, x)
            else:
                take_best(pol.w[F_BUY] * c.buy_n[k] + pol.w[F_BUY_HARD] * (c.buy_d[k][1] + c.buy_d[k][2])
                          + pol.w[F_BUY_GOLD] * c.buy_d[k][2] - 0.5 * PURCHASE[c.buy_n[k]], i, &bv, &ties, x)
        else:
            take_best(action_value(c, s, pol, x, a), i, &bv, &ties, x)
        i += 1
    if ties == 1:
        return buf[x.tie[0]]
    return buf[x.tie[rng_below(prng, ties)]]


cdef void ctx_reset(Ctx* x) noexcept nogil:
    """Once before a Ctx is first used."""
    memset(x.slot_of, 0xff, sizeof(x.slot_of))
    memset(x.rect_lm, 0, sizeof(x.rect_lm))
    x.n_dest = 0
    x.valid = 0
    x.dist_ok = 0
    x.stamp = 0
    x.reach_stamp = 0
    memset(x.root_st, 0, sizeof(x.root_st))
    memset(x.isl_st, 0, sizeof(x.isl_st))
    memset(x.reach_st, 0, sizeof(x.reach_st))


cdef void ctx_new_game(Ctx* x) noexcept nogil:
    """Before each game with a Ctx used before: nothing of the last game's position is kept."""
    cdef int k
    for k in range(x.n_dest):
        x.slot_of[x.dest_id[k]] = -1
    memset(x.rect_lm, 0, sizeof(x.rect_lm))
    x.n_dest = 0
    x.valid = 0
    x.dist_ok = 0


cdef int choose_action(const ACfg* c, const AState* s, const Policy* pol, uint64_t* prng,
                       const int16_t* buf, int n, Ctx* x) noexcept nogil:
    """Random: a uniform legal action. Heuristic: epsilon-uniform, else the best score, exact ties
    broken uniformly (one draw among the tied actions)."""
    cdef int i, ties = 0
    cdef double v, bv = -1e300
    if pol.kind == POL_RANDOM or (pol.eps > 0 and rng_uniform(prng) < pol.eps):
        return buf[rng_below(prng, n)]
    if ((s.phase == PH_PLACE and (pol.w[F_PLACE_FIT] == 0 or s.hand[s.current] == 0)
         and pol.w[F_PLACE_REACH] == 0)
            or (s.phase == PH_CUBE and pol.w[F_CUBE_VALUE] == 0 and pol.w[F_CUBE_REACH] == 0)):
        return buf[rng_below(prng, n)]     # every action scores 0: all tie
    if s.phase != PH_CUBE or pol.w[F_CUBE_REACH] != 0:   # else the second cube's score reads only the market
        ctx_init(c, s, x)
    if s.phase == PH_PLACE:
        return choose_place(c, s, pol, prng, buf, n, x)
    if s.phase == PH_ACTION:
        return choose_act(c, s, pol, prng, buf, n, x)
    for i in range(n):
        take_best(action_value(c, s, pol, x, buf[i]), i, &bv, &ties, x)
    if ties == 1:
        return buf[x.tie[0]]
    return buf[x.tie[rng_below(prng, ties)]]


cdef void load_policy(Policy* pol, spec) except *:
    memset(pol, 0, sizeof(Policy))
    if spec is None:
        pol.kind = POL_RANDOM
        return
    v = np.asarray(spec, dtype=np.float64).reshape(-1)
    if v.shape[0] != NFEAT + 1:
        raise ValueError(f"an akrotiri policy vector has {NFEAT + 1} entries (weights, then epsilon), not {v.shape[0]}")
    pol.kind = POL_HEURISTIC
    for i in range(NFEAT):
        pol.w[i] = v[i]
    pol.eps = v[NFEAT]
