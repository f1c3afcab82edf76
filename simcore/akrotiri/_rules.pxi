# Akrotiri rules on the C structs; included by _engine.pyx.
#
# Spec decisions (rules/akrotiri.md, section 16) as they appear here:
#   A-D1  grid model: a land quarter joins the two quarters across its tile edges that touch
#         the same grid point, so an island is a run of land around one grid point (island())
#   A-D5  start board: cells (7..8, 7..8), Thera = the 4 quarters around point (16, 16),
#         junction R linked to the 8 edge nodes and to the docks T0, T1
#   A-D6  16 x 16 window; a neighbour outside the window keeps an island open (completed())
#   A-D7  4 rotations unless tile_rotation is off; A-D8 seed tiles touch the start board
#   A-D9  seat 0 docks at T0 and reads the board as printed; seat 1 at T1, turned 180 degrees
#   A-D10 a sea move ends on another island (same_island_sail lifts this), any distance
#   A-D11 passing the opponent's through-port costs +1 action; never end on it
#   A-D12 empty-boat bonus movement; lost at the next non-movement action or END
#   A-D13 transports keep the cargo; A-D14 landmark cube automatic, second cube mandatory
#   A-D15 load >= 1 cube from anywhere on the island, unload one cube at a time, any port
#   A-D17 the temple quarter is chosen; A-D18/19/38 only satisfied (card, quarter) pairs
#   A-D20 not on Thera, not on an island holding a temple; corner pieces allowed
#   A-D21 decks mixed per purchase, drawn easy -> medium -> hard; no hand limit
#   A-D22 action_track; A-D23 goal draw at once (1 card left: take it); A-D24 Oracle;
#   A-D25 no tile, no placement; A-D26 free actions any time in the action phase;
#   A-D27 turn_cap; A-D28 goal keeps sequential, seat 0 first;
#   A-D29..A-D32, A-D35 goal conditions (score()); A-D33 goal_values; A-D34 strategist refill

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


cdef inline int cell_index(int X, int Y) noexcept nogil:
    return Y * 16 + X

cdef inline int quarter_index(int R, int C) noexcept nogil:
    return R * 32 + C

cdef inline int is_land(const AState* s, int R, int C) noexcept nogil:
    if R < 0 or R > 31 or C < 0 or C > 31:
        return 0
    return s.land[R * 32 + C]

cdef inline int side_node(int X, int Y, int side) noexcept nogil:
    if side == 0:
        return Y * 16 + X
    if side == 2:
        return (Y + 1) * 16 + X
    if side == 3:
        return 272 + Y * 17 + X
    return 272 + Y * 17 + X + 1

cdef inline int uf_find(const AState* s, int a) noexcept nogil:
    """Root of a route node's component (union by size, no path compression: depth <= log2 NNODE)."""
    while s.uf_parent[a] != a:
        a = s.uf_parent[a]
    return a


cdef inline void add_link(AState* s, int a, int b) noexcept nogil:
    cdef int ra, rb
    s.nbr[a][s.deg[a]] = <uint16_t>b
    s.deg[a] += 1
    s.nbr[b][s.deg[b]] = <uint16_t>a
    s.deg[b] += 1
    ra = uf_find(s, a)
    rb = uf_find(s, b)
    if ra != rb:
        if s.uf_size[ra] < s.uf_size[rb]:
            ra, rb = rb, ra
        s.uf_parent[rb] = <uint16_t>ra
        s.uf_size[ra] += s.uf_size[rb]
        if s.root_comp[rb] != 255:
            merge_ports(s, ra, rb)


cdef void merge_ports(AState* s, int ra, int rb) noexcept nogil:
    """Root rb (holding ports) was joined under ra: its ports get root ra and ra's component."""
    cdef int cb = s.root_comp[rb], ca = s.root_comp[ra], w, q
    cdef uint64_t bits
    if ca == 255:
        ca = cb
        s.root_comp[ra] = <uint8_t>cb
    else:
        for w in range(3):
            s.comp_ports[ca][w] |= s.comp_ports[cb][w]
    s.root_comp[rb] = 255
    for w in range(3):
        bits = s.comp_ports[cb][w]
        while bits:
            q = (w << 6) | <int>__builtin_ctzll(bits)
            bits &= bits - 1
            s.port_root[q] = <uint16_t>ra
            s.port_comp[q] = <uint8_t>ca


cdef inline void port_on(AState* s, int q) noexcept nogil:
    """Port q comes on the table (before its links): a component of its own."""
    cdef int k = s.n_comp
    s.n_comp += 1
    s.comp_ports[k][0] = 0
    s.comp_ports[k][1] = 0
    s.comp_ports[k][2] = 0
    s.comp_ports[k][q >> 6] = (<uint64_t>1) << (q & 63)
    s.port_comp[q] = <uint8_t>k
    s.port_root[q] = <uint16_t>(NODE_PORT + q)
    s.root_comp[NODE_PORT + q] = <uint8_t>k


cdef inline void front_add(AState* s, int cell) noexcept nogil:
    if s.cell[cell] == CELL_EMPTY:
        s.front[cell >> 6] |= (<uint64_t>1) << (cell & 63)


cdef void occupy(AState* s, int cell) noexcept nogil:
    """Cell became occupied: update the placement frontier (in-window neighbours only)."""
    cdef int X = cell & 15, Y = cell >> 4
    s.front[cell >> 6] &= ~((<uint64_t>1) << (cell & 63))
    if X > 0:
        front_add(s, cell - 1)
    if X < 15:
        front_add(s, cell + 1)
    if Y > 0:
        front_add(s, cell - 16)
    if Y < 15:
        front_add(s, cell + 16)


cdef inline void sorted_insert(uint8_t* a, int n, int v) noexcept nogil:
    cdef int k = n - 1
    while k >= 0 and a[k] > v:
        a[k + 1] = a[k]
        k -= 1
    a[k + 1] = <uint8_t>v


cdef uint8_t ISL_MEMB[16][4]   # [land bits of the ring around a grid point][ring slot of q] -> slots of q's island


cdef void _init_isl_memb() noexcept nogil:
    """The ring around a grid point is NW 0, NE 1, SE 2, SW 3; land quarters next to each other on
    the ring join (A-D1). An island is the run of land slots through q's slot (all 4 if all are land)."""
    cdef int m, st, k, out
    for m in range(16):
        for st in range(4):
            if not (m >> st) & 1:
                ISL_MEMB[m][st] = 0
                continue
            if m == 15:
                ISL_MEMB[m][st] = 15
                continue
            out = 1 << st
            k = (st + 1) & 3
            while (m >> k) & 1 and k != st:
                out |= 1 << k
                k = (k + 1) & 3
            k = (st + 3) & 3
            while (m >> k) & 1 and k != st:
                out |= 1 << k
                k = (k + 3) & 3
            ISL_MEMB[m][st] = <uint8_t>out


_init_isl_memb()

cdef int ISL_FIRST[16]          # [ring slots of an island] -> offset of its smallest quarter from the NW one
for _m in range(16):
    ISL_FIRST[_m] = 0 if _m & 1 else (1 if _m & 2 else (32 if _m & 8 else 33))


cdef inline int island(const AState* s, int q, int* out) noexcept nogil:
    """Quarters of the island of land quarter q, ascending; returns their number n (1..4). out[n:4] hold
    a valid quarter index too (one of the ring's, or q), so a loop may run over all 4 and mask by i < n."""
    cdef int R = q >> 5, C = q & 31
    cdef int b = (R + (R & 1) - 1) * 32 + (C + (C & 1) - 1)   # the ring's NW quarter; NE b+1, SW b+32, SE b+33
    cdef int memb = s.isl_memb[q], n
    # branch-free: each quarter is written at the next free place, which only advances when it belongs
    # (the ring's slots NW 1, NE 2, SE 4, SW 8; ascending quarter order is NW, NE, SW, SE)
    out[3] = q
    out[2] = q
    out[1] = q
    out[0] = b
    n = memb & 1
    out[n] = b + 1
    n += (memb >> 1) & 1
    out[n] = b + 32
    n += (memb >> 3) & 1
    out[n] = b + 33
    n += (memb >> 2) & 1
    return n


cdef inline int island_id(const AState* s, int q) noexcept nogil:
    cdef int buf[4]
    island(s, q, buf)
    return buf[0]


cdef void refresh_point(AState* s, int PR, int PC) noexcept nogil:
    """Recompute isl_memb and isl_id for the land quarters around grid point (PR, PC) (islands only
    change there): an island is the run of land slots of the ring through the quarter's slot (A-D1)."""
    cdef int b = (PR - 1) * 32 + (PC - 1)        # ring slots: NW 0 = b, NE 1 = b+1, SE 2 = b+33, SW 3 = b+32
    cdef int m = (is_land(s, PR - 1, PC - 1) | (is_land(s, PR - 1, PC) << 1) | (is_land(s, PR, PC) << 2)
                  | (is_land(s, PR, PC - 1) << 3))
    cdef int st, q, memb, first, land
    cdef int slot_q[4]
    slot_q[0] = b
    slot_q[1] = b + 1
    slot_q[2] = b + 33
    slot_q[3] = b + 32
    for st in range(4):                    # branch-free: a slot off the land (maybe off the board) rewrites
        land = (m >> st) & 1               # quarter 0's own values instead
        q = slot_q[st] & -land
        memb = ISL_MEMB[m][st]
        s.isl_memb[q] = <uint8_t>((memb & -land) | (s.isl_memb[q] & (land - 1)))
        first = b + ISL_FIRST[memb]
        s.isl_id[q] = <uint16_t>((first & -land) | (s.isl_id[q] & (land - 1)))


cdef void island_ports(const ACfg* c, const AState* s, const int* isl, int n, uint64_t* bits) noexcept nogil:
    """Bits of the ports on the island's quarters."""
    # branch-free: a tile's 4 ports are the 4 bits at 4 * tile (never across a 64-bit word), so a quarter's
    # port bits go in with one shift; T0 and T1 (bits 16, 17 of word 2) sit on two fixed quarters of the
    # start tile (set-up), on this island when their island id is its smallest quarter
    cdef int i, q, t, tile
    cdef uint64_t k
    bits[0] = 0
    bits[1] = 0
    bits[2] = ((<uint64_t>(s.isl_id[s.port_q[PORT_T0]] == isl[0]) << (PORT_T0 & 63))
               | (<uint64_t>(s.isl_id[s.port_q[PORT_T1]] == isl[0]) << (PORT_T1 & 63)))
    for i in range(4):
        q = isl[i]
        t = s.cell[(((q >> 5) >> 1) << 4) | ((q & 31) >> 1)]
        tile = (t < NTILE) & (i < n)
        k = <uint64_t>s.q_ports[q] & (<uint64_t>0 - <uint64_t>tile)
        t = (4 * t) & -tile
        bits[t >> 6] |= k << (t & 63)


cdef int completed(const AState* s, const int* isl, int n) noexcept nogil:
    """Spec 2.5: every cross-edge neighbour of the island's quarters lies in an occupied cell."""
    cdef int i, R, C, R2, C2
    for i in range(n):
        R = isl[i] >> 5
        C = isl[i] & 31
        R2 = R - 1 if (R & 1) == 0 else R + 1
        C2 = C - 1 if (C & 1) == 0 else C + 1
        if R2 < 0 or R2 > 31 or s.cell[cell_index(C >> 1, R2 >> 1)] == CELL_EMPTY:
            return 0
        if C2 < 0 or C2 > 31 or s.cell[cell_index(C2 >> 1, R >> 1)] == CELL_EMPTY:
            return 0
    return 1


cdef void legal_tables(ACfg* c) noexcept nogil:
    """The load and buy legality masks (legal_actions() reads a mask instead of testing each code)."""
    cdef int room, h, k, col, d, ok
    for room in range(4):
        for h in range(256):
            c.load_ok[room][h] = 0
            for k in range(34):
                ok = c.load_n[k] <= room
                for col in range(4):
                    if c.load_c[k][col] > ((h >> (2 * col)) & 3):
                        ok = 0
                if ok:
                    c.load_ok[room][h] |= (<uint64_t>1) << k
    for h in range(64):
        c.buy_deck_ok[h] = 0
        for k in range(19):
            ok = 1
            for d in range(3):
                if c.buy_d[k][d] > ((h >> (2 * d)) & 3):
                    ok = 0
            if ok:
                c.buy_deck_ok[h] |= (<uint32_t>1) << k
    for h in range(8):
        c.buy_money_ok[h] = 0
        for k in range(19):
            if PURCHASE[c.buy_n[k]] <= h:
                c.buy_money_ok[h] |= (<uint32_t>1) << k


cdef inline int cap3(int v) noexcept nogil:
    return v if v < 3 else 3


cdef void shuffle(uint64_t* rng, uint8_t* a, int n) noexcept nogil:
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


cdef void log_event(AState* s, int kind, int seat, int deck, int card, int cost, int points,
                    int colour, int price, int quantity, int goal) noexcept nogil:
    cdef Event* e
    if s.n_ev >= MAXEV:
        s.ev_dropped += 1
        return
    e = &s.ev[s.n_ev]
    s.n_ev += 1
    e.kind = kind
    e.seat = seat
    e.turn = s.turns[seat]
    e.deck = deck
    e.card = card
    e.cost = cost
    e.points = points
    e.colour = colour
    e.price = price
    e.quantity = quantity
    e.goal = goal


cdef void draw_tile(AState* s, int seat) noexcept nogil:
    """Top tile into the seat's hand; an empty pile is first refilled from the discards (A-D25)."""
    cdef int i
    if s.pile_pos >= s.pile_n and s.disc_n > 0:
        for i in range(s.disc_n):
            s.pile[i] = s.disc[i]
        s.pile_pos = 0
        s.pile_n = s.disc_n
        s.disc_n = 0
        shuffle(s.rng, s.pile, s.pile_n)
    if s.pile_pos < s.pile_n:
        s.tile[seat] = s.pile[s.pile_pos]
        s.pile_pos += 1


cdef void setup(const ACfg* c, AState* s, uint64_t seed) noexcept nogil:
    cdef int i, d, p, X, Y
    # zero all but the block from nbr to deg (see _state.pxd) and the event rows (only ev[:n_ev] is read)
    memset(s, 0, <size_t>(<char*>&s.nbr[0][0] - <char*>s))
    memset(&s.deg[0], 0, <size_t>(<char*>&s.ev[0] - <char*>&s.deg[0]))
    rng_seed(s.rng, seed, CHANCE_SALT)
    for i in range(NCELL):
        s.cell[i] = CELL_EMPTY
    for i in range(NNODE):
        s.uf_parent[i] = <uint16_t>i
        s.uf_size[i] = 1
    memset(s.root_comp, 255, sizeof(s.root_comp))
    for X in range(7, 9):
        for Y in range(7, 9):
            s.cell[cell_index(X, Y)] = CELL_START
    for X in range(7, 9):
        for Y in range(7, 9):
            occupy(s, cell_index(X, Y))
    for i in range(NQ):
        s.lmark[i] = -1
    # start board land: Thera (quarters 15..16 x 15..16) and the 4 corner pieces
    for X in range(15, 17):
        for Y in range(15, 17):
            s.land[quarter_index(Y, X)] = 1
    s.land[quarter_index(14, 14)] = 1
    s.land[quarter_index(14, 17)] = 1
    s.land[quarter_index(17, 14)] = 1
    s.land[quarter_index(17, 17)] = 1
    for i in range(NPORT):
        s.port_q[i] = -1
    s.port_q[PORT_T0] = quarter_index(16, 16)
    s.port_q[PORT_T1] = quarter_index(15, 15)
    s.n_on = 2
    s.ports_on[0] = PORT_T0
    s.ports_on[1] = PORT_T1
    port_on(s, PORT_T0)
    port_on(s, PORT_T1)
    add_link(s, side_node(7, 7, 0), NODE_R)
    add_link(s, side_node(8, 7, 0), NODE_R)
    add_link(s, side_node(7, 8, 2), NODE_R)
    add_link(s, side_node(8, 8, 2), NODE_R)
    add_link(s, side_node(7, 7, 3), NODE_R)
    add_link(s, side_node(7, 8, 3), NODE_R)
    add_link(s, side_node(8, 7, 1), NODE_R)
    add_link(s, side_node(8, 8, 1), NODE_R)
    add_link(s, NODE_R, NODE_PORT + PORT_T0)
    add_link(s, NODE_R, NODE_PORT + PORT_T1)
    refresh_point(s, 16, 16)
    refresh_point(s, 14, 14)
    refresh_point(s, 14, 18)
    refresh_point(s, 18, 14)
    refresh_point(s, 18, 18)
    # chance (spec 15.3): tiles, easy, medium, hard, goals
    s.pile_n = NTILE
    for i in range(NTILE):
        s.pile[i] = i
    shuffle(s.rng, s.pile, NTILE)
    for d in range(3):
        s.deck_n[d] = c.n_deck[d]
        for i in range(c.n_deck[d]):
            s.deck[d][i] = c.deck_cards[d][i]
        shuffle(s.rng, s.deck[d], s.deck_n[d])
    for i in range(NGOAL):
        s.goal_deck[i] = i
    shuffle(s.rng, s.goal_deck, NGOAL)
    s.goal_tail = NGOAL
    for p in range(2):
        s.port[p] = PORT_T0 + p
        s.drachmas[p] = c.start_drachmas + c.seat_bonus[p]
        s.tile[p] = NO_TILE
    s.placed_cell = -1
    s.blk_x = -1
    s.phase = PH_PLACE
    s.stage = ST_SETUP
    s.current = 0
    draw_tile(s, 0)


cdef void place_tile(const ACfg* c, AState* s, int tile, int rot, int cell) noexcept nogil:
    cdef int X = cell & 15, Y = cell >> 4
    cdef int lq, k, a, b, na, nb, q, t
    s.cell[cell] = tile
    s.cell_rot[cell] = rot
    s.placed[s.n_placed] = cell
    s.n_placed += 1
    occupy(s, cell)
    for lq in range(4):
        if (c.land[tile][rot] >> lq) & 1:
            s.land[quarter_index(2 * Y + (lq >> 1), 2 * X + (lq & 1))] = 1
    lq = c.lm_q[tile][rot]
    q = quarter_index(2 * Y + (lq >> 1), 2 * X + (lq & 1))
    s.lmark[q] = c.lm_type[tile]
    s.lm_r[s.n_lm] = q >> 5
    s.lm_c[s.n_lm] = q & 31
    s.lm_t[s.n_lm] = c.lm_type[tile]
    s.n_lm += 1
    t = c.lm_type[tile]
    sorted_insert(s.lm_rows[t], s.lm_n[t], q >> 5)
    sorted_insert(s.lm_cols[t], s.lm_n[t], q & 31)
    s.lm_n[t] += 1
    for lq in range(4):
        s.q_ports[quarter_index(2 * Y + (lq >> 1), 2 * X + (lq & 1))] = 0
    for k in range(c.n_ports[tile]):
        lq = c.port_q[tile][rot][k]
        s.port_q[4 * tile + k] = quarter_index(2 * Y + (lq >> 1), 2 * X + (lq & 1))
        s.q_ports[s.port_q[4 * tile + k]] |= <uint8_t>(1 << k)
        s.ports_on[s.n_on] = 4 * tile + k
        s.n_on += 1
        port_on(s, 4 * tile + k)
    for k in range(c.n_links[tile]):
        a = c.link_a[tile][rot][k]
        b = c.link_b[tile][rot][k]
        na = side_node(X, Y, a) if a < 4 else (544 + cell if a == 4 else NODE_PORT + 4 * tile + a - 5)
        nb = side_node(X, Y, b) if b < 4 else (544 + cell if b == 4 else NODE_PORT + 4 * tile + b - 5)
        add_link(s, na, nb)
    for a in range(2):
        for b in range(2):
            refresh_point(s, 2 * Y + 2 * a, 2 * X + 2 * b)


cdef void reach(const AState* s, int start, int blocked, uint8_t* seen) noexcept nogil:
    """Mark the route nodes reachable from port ``start`` without passing port ``blocked`` (-1: none)."""
    cdef uint16_t queue[NNODE]
    cdef int head = 0, tail = 0, n, m, i
    memset(seen, 0, NNODE)
    if blocked >= 0:
        seen[NODE_PORT + blocked] = 2      # never entered
    seen[NODE_PORT + start] = 1
    queue[tail] = NODE_PORT + start
    tail += 1
    while head < tail:
        n = queue[head]
        head += 1
        for i in range(s.deg[n]):
            m = s.nbr[n][i]
            if seen[m] == 0:
                seen[m] = 1
                queue[tail] = m
                tail += 1


cdef const uint8_t* piece_labels(const AState* cs, int x) noexcept nogil:
    """Label the pieces the route component of port x falls into when x is removed (spec 5.1: a move
    passing the opponent's port x costs 1 more): two ports of the component other than x reach each
    other without passing x iff their labels are equal.

    A pure function of the position, cached in the state (blk_*) until a tile is placed or x changes,
    so the const position is written through a cast; the cache is never part of to_dict.
    """
    cdef AState* s = <AState*>cs
    cdef uint8_t seen[NNODE]
    cdef uint16_t queue[NNODE]
    cdef int i, q, head, tail, n, m, j, lab = 0, word
    cdef uint64_t bits
    if s.blk_x == x and s.blk_placed == s.n_placed:
        return s.blk_label
    s.blk_x = <int16_t>x
    s.blk_placed = s.n_placed
    memset(s.blk_label, 0, NPORT)
    memset(seen, 0, NNODE)
    seen[NODE_PORT + x] = 1
    for word in range(3):
        bits = s.comp_ports[s.port_comp[x]][word]
        while bits:
            q = (word << 6) | <int>__builtin_ctzll(bits)
            bits &= bits - 1
            if seen[NODE_PORT + q]:
                continue
            lab += 1
            seen[NODE_PORT + q] = 1
            queue[0] = NODE_PORT + q
            head = 0
            tail = 1
            while head < tail:
                n = queue[head]
                head += 1
                if n >= NODE_PORT and n < NODE_PORT + NPORT:
                    s.blk_label[n - NODE_PORT] = <uint8_t>lab
                for j in range(s.deg[n]):
                    m = s.nbr[n][j]
                    if not seen[m]:
                        seen[m] = 1
                        queue[tail] = m
                        tail += 1
    return s.blk_label


cdef int landmark_count(const AState* s, int t, int d, int q, int seat) noexcept nogil:
    """count(t, D) of spec 7.3: landmarks of type t in the open half-plane D of quarter q, read by seat."""
    cdef int i, cnt = 0, rt = q >> 5, ct = q & 31
    if seat == 1:
        d ^= 2                             # N <-> S, E <-> W: the card is turned 180 degrees
    for i in range(s.n_lm):
        if s.lm_t[i] != t:
            continue
        if d == 0:
            cnt += s.lm_r[i] < rt
        elif d == 2:
            cnt += s.lm_r[i] > rt
        elif d == 1:
            cnt += s.lm_c[i] > ct
        else:
            cnt += s.lm_c[i] < ct
    return cnt


cdef int satisfied(const ACfg* c, const AState* s, int card, int q, int seat) noexcept nogil:
    """Spec 7.3: the exact per-direction, per-type test for a temple on quarter q."""
    # count(t, D) >= n  <=>  the n-th nearest landmark of type t on the far side of the temple's row
    # (or column) lies strictly beyond it: the n-th smallest row < rt for N, the n-th largest > rt for S,
    # likewise over columns for W and E. Same result as comparing landmark_count() with n.
    cdef int k, t, d, n, cnt, rt = q >> 5, ct = q & 31
    for k in range(c.n_req[card]):
        t = c.req_type[card][k]
        d = c.req_dir[card][k]
        n = c.req_n[card][k]
        cnt = s.lm_n[t]
        if cnt < n:
            return 0
        if seat == 1:
            d ^= 2
        if d == 0:
            if s.lm_rows[t][n - 1] >= rt:
                return 0
        elif d == 2:
            if s.lm_rows[t][cnt - n] <= rt:
                return 0
        elif d == 1:
            if s.lm_cols[t][cnt - n] <= ct:
                return 0
        elif s.lm_cols[t][n - 1] >= ct:
            return 0
    return 1


cdef inline int has_temple(const AState* s, const int* isl, int n) noexcept nogil:
    cdef int i, r = 0
    for i in range(4):                     # no early exit, fixed trip count: no data-dependent branch
        r |= s.temple_at[isl[i]] & -(i < n)
    return r


cdef inline int at_thera(const AState* s, int p) noexcept nogil:
    return (s.port[p] == PORT_T0) | (s.port[p] == PORT_T1)


cdef int legal_actions(const ACfg* c, const AState* s, int16_t* out) noexcept nogil:
    cdef int n = 0, p = s.current, X, Y, cell, r, col, lq, tile, rot, k, q, i, d, ok
    cdef int isl[4]
    cdef int nisl, my_isl, base, opp, room, cost, cnt, nrot, j, root, blocked, my_lab = 0
    cdef uint64_t ib[3]
    cdef uint64_t excl[3]
    cdef uint64_t bits
    cdef uint32_t tot, w4
    cdef int have[4]
    if s.phase == PH_OVER:
        return 0
    if s.phase == PH_PLACE:
        nrot = 4 if c.rotation else 1
        if s.stage == ST_PLAY:             # the frontier: empty cells next to an occupied one, ascending
            for i in range(4):
                bits = s.front[i]
                while bits:
                    cell = (i << 6) | <int>__builtin_ctzll(bits)
                    bits &= bits - 1
                    if nrot == 4:
                        out[n] = A_PLACE + cell * 4
                        out[n + 1] = A_PLACE + cell * 4 + 1
                        out[n + 2] = A_PLACE + cell * 4 + 2
                        out[n + 3] = A_PLACE + cell * 4 + 3
                        n += 4
                    else:
                        out[n] = A_PLACE + cell * 4
                        n += 1
            return n
        for cell in range(NCELL):
            if s.cell[cell] != CELL_EMPTY:
                continue
            X = cell & 15
            Y = cell >> 4
            ok = ((X > 0 and s.cell[cell - 1] == CELL_START) or (X < 15 and s.cell[cell + 1] == CELL_START)
                  or (Y > 0 and s.cell[cell - 16] == CELL_START) or (Y < 15 and s.cell[cell + 16] == CELL_START))
            if ok:
                for r in range(nrot):
                    out[n] = A_PLACE + cell * 4 + r
                    n += 1
        return n
    if s.phase == PH_CUBE:
        tile = s.cell[s.placed_cell]
        rot = s.cell_rot[s.placed_cell]
        for col in range(4):               # branch-free: every code written, kept when legal
            for lq in range(4):
                out[n] = A_CUBE + col * 4 + lq
                n += (s.out[col] < 8) & ((c.land[tile][rot] >> lq) & 1) & (lq != c.lm_q[tile][rot])
        return n
    if s.phase == PH_GOAL:
        for i in range(s.n_options):
            out[n] = A_GOAL + i
            n += 1
        return n
    # action phase
    out[n] = A_END
    n += 1
    opp = s.port[1 - p]
    nisl = island(s, s.port_q[s.port[p]], isl)
    my_isl = isl[0]
    base = 0 if s.bonus else 1
    if s.actions >= base:
        # reachable = same route component; the opponent's port only blocks when it is a
        # through-port of that component, and then one search that avoids it finds the 1-action moves
        # the +1 of passing the opponent's port only matters when the actions left are just the base cost
        root = s.port_root[s.port[p]]
        blocked = (s.actions == base) & (s.deg[NODE_PORT + opp] >= 2) & (s.port_root[opp] == root)
        if blocked:
            lab = piece_labels(s, opp)
            my_lab = lab[s.port[p]]
        island_ports(c, s, isl, nisl, ib)
        k = s.port_comp[s.port[p]]
        excl[0] = 0                       # never the boat's own port or the opponent's
        excl[1] = 0
        excl[2] = 0
        excl[s.port[p] >> 6] |= (<uint64_t>1) << (s.port[p] & 63)
        excl[opp >> 6] |= (<uint64_t>1) << (opp & 63)
        for i in range(3):                # sea moves: the ports of the component, not on this island
            bits = s.comp_ports[k][i] & ~excl[i]
            if not c.same_island_sail:
                bits &= ~ib[i]
            if blocked:
                while bits:               # written always, kept when on the boat's side of the block
                    q = (i << 6) | <int>__builtin_ctzll(bits)
                    bits &= bits - 1
                    out[n] = A_SAIL + q
                    n += lab[q] == my_lab
            else:
                while bits:
                    out[n] = A_SAIL + ((i << 6) | <int>__builtin_ctzll(bits))
                    n += 1
                    bits &= bits - 1
        for i in range(3):                # transports: the other ports of this island
            bits = ib[i] & ~excl[i]
            while bits:
                out[n] = A_TRANSPORT + ((i << 6) | <int>__builtin_ctzll(bits))
                n += 1
                bits &= bits - 1
    if s.actions >= 1:
        room = 3 - (s.cargo[p][0] + s.cargo[p][1] + s.cargo[p][2] + s.cargo[p][3])
        tot = 0
        for i in range(4):                # the 4 colour counts as bytes of one word (each < 256)
            memcpy(&w4, s.cubes[isl[i]], 4)
            tot += w4 & (<uint32_t>0 - <uint32_t>(i < nisl))
        for col in range(4):
            have[col] = (tot >> (8 * col)) & 255
        if room > 0 and have[0] + have[1] + have[2] + have[3] > 0:
            bits = c.load_ok[room][cap3(have[0]) | (cap3(have[1]) << 2) | (cap3(have[2]) << 4) | (cap3(have[3]) << 6)]
            while bits:                   # load codes in ascending order
                out[n] = A_LOAD + <int>__builtin_ctzll(bits)
                n += 1
                bits &= bits - 1
        if ((my_isl != quarter_index(15, 15)) & (s.n_temples[p] < 6) & (s.hand[p] != 0)
                & (has_temple(s, isl, nisl) == 0)):
            bits = s.hand[p]
            while bits:                   # hand cards in ascending id
                k = <int>__builtin_ctzll(bits)
                bits &= bits - 1
                if c.card_cost[k] <= s.drachmas[p]:
                    for i in range(nisl):
                        if satisfied(c, s, k, isl[i], p):
                            out[n] = A_EXCAVATE + k * 4 + i
                            n += 1
        if at_thera(s, p):
            bits = (c.buy_money_ok[s.drachmas[p] if s.drachmas[p] < 7 else 7]
                    & c.buy_deck_ok[cap3(s.deck_n[0] - s.deck_pos[0]) | (cap3(s.deck_n[1] - s.deck_pos[1]) << 2)
                                    | (cap3(s.deck_n[2] - s.deck_pos[2]) << 4)])
            while bits:                   # buy codes in ascending order
                out[n] = A_BUY + <int>__builtin_ctzll(bits)
                n += 1
                bits &= bits - 1
        if not s.oracle_used and s.tile[p] == NO_TILE and (s.pile_pos < s.pile_n or s.disc_n > 0):
            for k in range(4):
                out[n] = A_ORACLE + k
                n += 1
    if at_thera(s, p):
        for col in range(4):               # branch-free: written always, kept for a colour on board
            out[n] = A_SELL + col
            n += s.cargo[p][col] != 0
    for col in range(4):
        out[n] = A_UNLOAD + col
        n += s.cargo[p][col] != 0
    return n


cdef void begin_turn(const ACfg* c, AState* s, int p) noexcept nogil:
    s.current = p
    s.turns[p] += 1
    s.actions = c.action_track[s.n_temples[p]]
    s.oracle_used = 0
    s.bonus = 0
    s.phase = PH_PLACE if s.tile[p] != NO_TILE else PH_ACTION


cdef void after_cubes(const ACfg* c, AState* s) noexcept nogil:
    cdef int p = s.current, i
    s.placed_cell = -1
    if s.stage == ST_PLAY:
        s.phase = PH_ACTION
        return
    if p == 0:
        s.current = 1
        draw_tile(s, 1)
        s.phase = PH_PLACE
        return
    for p in range(2):                     # maps: seat 0 easy, medium; seat 1 easy, medium
        for i in range(2):
            s.hand[p] |= (<uint64_t>1) << s.deck[i][s.deck_pos[i]]
            s.deck_pos[i] += 1
    for p in range(2):                     # goals: 2 to seat 0, then 2 to seat 1
        for i in range(2):
            s.deal[p][i] = s.goal_deck[s.goal_head]
            s.goal_head += 1
    s.current = 0
    s.n_options = 2
    s.options[0] = s.deal[0][0]
    s.options[1] = s.deal[0][1]
    s.phase = PH_GOAL


cdef void take_cube(AState* s, int col, int q) noexcept nogil:
    s.out[col] += 1
    s.cubes[q][col] += 1


cdef void apply_action(const ACfg* c, AState* s, int a) noexcept nogil:
    cdef int p = s.current, cell, rot, tile, X, Y, lq, col, q, i, k, card, cost, nisl, d, t
    cdef int isl[4]
    if not ((s.phase == PH_ACTION) & (a >= A_SAIL) & (a < A_LOAD)):
        s.version += 1
    if s.phase == PH_PLACE:
        cell = (a - A_PLACE) >> 2
        rot = (a - A_PLACE) & 3
        tile = s.tile[p]
        s.tile[p] = NO_TILE
        place_tile(c, s, tile, rot, cell)
        X = cell & 15
        Y = cell >> 4
        lq = c.lm_q[tile][rot]
        if s.out[c.lm_type[tile]] < 8:
            take_cube(s, c.lm_type[tile], quarter_index(2 * Y + (lq >> 1), 2 * X + (lq & 1)))
        s.placed_cell = cell
        if s.out[0] < 8 or s.out[1] < 8 or s.out[2] < 8 or s.out[3] < 8:
            s.phase = PH_CUBE
        else:
            after_cubes(c, s)
        return
    if s.phase == PH_CUBE:
        col = (a - A_CUBE) >> 2
        lq = (a - A_CUBE) & 3
        cell = s.placed_cell
        X = cell & 15
        Y = cell >> 4
        take_cube(s, col, quarter_index(2 * Y + (lq >> 1), 2 * X + (lq & 1)))
        after_cubes(c, s)
        return
    if s.phase == PH_GOAL:
        i = a - A_GOAL
        k = s.options[i]
        s.goals[p] |= <uint16_t>(1 << k)
        log_event(s, EV_GOAL_KEPT, p, -1, -1, 0, 0, -1, 0, 0, k)
        if c.strategist and s.stage == ST_PLAY:
            for t in range(i, s.n_display - 1):
                s.display[t] = s.display[t + 1]
            s.n_display -= 1
            if s.goal_head < s.goal_tail:
                s.display[s.n_display] = s.goal_deck[s.goal_head]
                s.goal_head += 1
                s.n_display += 1
        else:
            for t in range(s.n_options):
                if t != i:
                    s.goal_deck[s.goal_tail] = s.options[t]
                    s.goal_tail += 1
        s.n_options = 0
        if s.stage == ST_SETUP:
            if p == 0:
                s.current = 1
                s.n_options = 2
                s.options[0] = s.deal[1][0]
                s.options[1] = s.deal[1][1]
                return
            if c.strategist:
                while s.n_display < 4 and s.goal_head < s.goal_tail:
                    s.display[s.n_display] = s.goal_deck[s.goal_head]
                    s.goal_head += 1
                    s.n_display += 1
            draw_tile(s, 0)
            draw_tile(s, 1)
            s.stage = ST_PLAY
            begin_turn(c, s, 0)
            return
        s.phase = PH_ACTION
        return
    # action phase
    if a == A_END:
        s.bonus = 0
        if not s.oracle_used and s.tile[p] == NO_TILE:
            draw_tile(s, p)
        if p == 1 and (s.end_trigger != 0 or s.turns[1] >= c.turn_cap):
            if s.end_trigger == 0:
                s.end_trigger = 2
            s.phase = PH_OVER
            s.current = -1
            return
        begin_turn(c, s, 1 - p)
        return
    if a >= A_SAIL and a < A_LOAD:
        cost = 0 if s.bonus else 1
        if a < A_TRANSPORT:
            q = a - A_SAIL
            k = s.port[1 - p]
            if s.deg[NODE_PORT + k] >= 2 and s.port_root[k] == s.port_root[s.port[p]]:
                if piece_labels(s, k)[q] != piece_labels(s, k)[s.port[p]]:
                    cost += 1
        else:
            q = a - A_TRANSPORT
        s.actions -= cost
        if s.bonus:
            s.bonus = 0
        elif s.cargo[p][0] + s.cargo[p][1] + s.cargo[p][2] + s.cargo[p][3] == 0:
            s.bonus = 1
        s.port[p] = q
        return
    if a >= A_SELL and a < A_UNLOAD:
        col = a - A_SELL
        s.cargo[p][col] -= 1
        k = MARKET[s.out[col] - 1]
        s.drachmas[p] += k
        s.income[p] += k
        s.sold[p] += 1
        s.out[col] -= 1
        log_event(s, EV_SOLD, p, -1, -1, 0, 0, col, k, 1, -1)
        return
    if a >= A_UNLOAD:
        col = a - A_UNLOAD
        s.cargo[p][col] -= 1
        s.cubes[s.port_q[s.port[p]]][col] += 1
        return
    s.actions -= 1
    s.bonus = 0
    if a >= A_LOAD and a < A_EXCAVATE:
        nisl = island(s, s.port_q[s.port[p]], isl)
        k = a - A_LOAD
        for col in range(4):
            for t in range(c.load_c[k][col]):
                for i in range(nisl):
                    if s.cubes[isl[i]][col] > 0:
                        s.cubes[isl[i]][col] -= 1
                        break
                s.cargo[p][col] += 1
        return
    if a >= A_EXCAVATE and a < A_BUY:
        card = (a - A_EXCAVATE) >> 2
        i = (a - A_EXCAVATE) & 3
        island(s, s.port_q[s.port[p]], isl)
        s.hand[p] &= ~((<uint64_t>1) << card)
        s.excavated[p] |= (<uint64_t>1) << card
        s.temple_q[p][s.n_temples[p]] = isl[i]
        s.temple_at[isl[i]] = 1
        s.n_temples[p] += 1
        s.drachmas[p] -= c.card_cost[card]
        log_event(s, EV_EXCAVATED, p, c.card_deck[card], card, c.card_cost[card], c.card_points[card], -1, 0, 1, -1)
        k = s.n_temples[p]
        if k == 3 or k == 5:
            if c.strategist:
                s.n_options = s.n_display
                for t in range(s.n_display):
                    s.options[t] = s.display[t]
            else:
                s.n_options = 0
                while s.n_options < 2 and s.goal_head < s.goal_tail:
                    s.options[s.n_options] = s.goal_deck[s.goal_head]
                    s.goal_head += 1
                    s.n_options += 1
            if s.n_options > 0:
                s.phase = PH_GOAL
        if k == 6 and s.end_trigger == 0:
            s.end_trigger = 1
        return
    if a >= A_BUY and a < A_ORACLE:
        k = a - A_BUY
        s.drachmas[p] -= PURCHASE[c.buy_n[k]]
        for d in range(3):
            for t in range(c.buy_d[k][d]):
                card = s.deck[d][s.deck_pos[d]]
                s.deck_pos[d] += 1
                s.hand[p] |= (<uint64_t>1) << card
                log_event(s, EV_BOUGHT, p, d, card, c.card_cost[card], c.card_points[card], -1,
                          PURCHASE[c.buy_n[k]], c.buy_n[k], -1)
        return
    if a >= A_ORACLE and a < A_SELL:
        t = a - A_ORACLE
        s.oracle_used = 1
        if s.pile_pos >= s.pile_n:
            for i in range(s.disc_n):
                s.pile[i] = s.disc[i]
            s.pile_pos = 0
            s.pile_n = s.disc_n
            s.disc_n = 0
            shuffle(s.rng, s.pile, s.pile_n)
        while s.pile_pos < s.pile_n:
            tile = s.pile[s.pile_pos]
            s.pile_pos += 1
            if c.lm_type[tile] == t or s.pile_pos >= s.pile_n:
                s.tile[p] = tile
                break
            s.disc[s.disc_n] = tile
            s.disc_n += 1
        return


# ------------------------------------------------------------------ scoring

cdef int components(const AState* s, int16_t* comp, int without_start) noexcept nogil:
    """Label the route components (spec 2.8; without_start: no R, T0, T1, spec 2.9)."""
    cdef uint16_t queue[NNODE]
    cdef int k = 0, n, head, tail, m, i, v
    for n in range(NNODE):
        comp[n] = -1
    for v in range(NNODE):
        if comp[v] >= 0 or s.deg[v] == 0:
            continue
        if without_start and (v == NODE_R or v == NODE_PORT + PORT_T0 or v == NODE_PORT + PORT_T1):
            continue
        comp[v] = k
        head = 0
        tail = 1
        queue[0] = v
        while head < tail:
            n = queue[head]
            head += 1
            for i in range(s.deg[n]):
                m = s.nbr[n][i]
                if comp[m] >= 0:
                    continue
                if without_start and (m == NODE_R or m == NODE_PORT + PORT_T0 or m == NODE_PORT + PORT_T1):
                    continue
                comp[m] = k
                queue[tail] = m
                tail += 1
        k += 1
    return k


cdef void score(const ACfg* c, const AState* s, int16_t out[N_SC][2], int16_t goal_out[2][NGOAL]) noexcept nogil:
    cdef int16_t comp2[NNODE]
    cdef int16_t dist[NNODE]
    cdef int16_t isl_min[NQ]
    cdef int port_isl[NPORT]
    cdef int isl[4]
    cdef int isl2[4]
    cdef int p, k, g, q, q2, i, j, n, n2, changed, pts, total, types, nt, best, pieces, okc, linked, na, jj
    cdef int pa[NPORT]
    cdef int cells[4]
    cdef int INF = 10000
    cdef int tq, quad
    for p in range(2):
        for g in range(NGOAL):
            goal_out[p][g] = 0
    if s.goals[0] != 0 or s.goals[1] != 0:
        # route components with the start board (spec 2.8) are the union-find roots (port_root);
        # the ones without it (spec 2.9) only matter for G07
        if ((s.goals[0] | s.goals[1]) >> 6) & 1:
            components(s, comp2, 1)
        for q in range(NPORT):
            port_isl[q] = -1
        for j in range(s.n_on):
            q = s.ports_on[j]
            port_isl[q] = s.isl_id[s.port_q[q]]
        if (s.goals[0] | s.goals[1]) & 3:  # G01, G02: sea distance from Thera
            for i in range(NQ):
                isl_min[i] = INF
            for j in range(s.n_on):
                dist[s.port_root[s.ports_on[j]]] = INF
            dist[s.port_root[PORT_T0]] = 0
            dist[s.port_root[PORT_T1]] = 0
            changed = 1
            while changed:             # relaxed to the fixpoint (the least distances; order is immaterial)
                changed = 0
                for j in range(s.n_on):
                    q = s.ports_on[j]
                    if dist[s.port_root[q]] < isl_min[port_isl[q]]:
                        isl_min[port_isl[q]] = dist[s.port_root[q]]
                for j in range(s.n_on):
                    q = s.ports_on[j]
                    if isl_min[port_isl[q]] + 1 < dist[s.port_root[q]]:
                        dist[s.port_root[q]] = isl_min[port_isl[q]] + 1
                        changed = 1
        for p in range(2):
            for g in range(NGOAL):
                if not (s.goals[p] >> g) & 1:
                    continue
                pts = c.goal_points[g]
                total = 0
                if g == 4:                 # G05 quadrants
                    quad = 0
                    for k in range(s.n_temples[p]):
                        tq = s.temple_q[p][k]
                        quad |= 1 << ((((tq >> 5) < 16) << 1) | ((tq & 31) < 16))
                    total = pts * ((quad & 1) + ((quad >> 1) & 1) + ((quad >> 2) & 1) + ((quad >> 3) & 1))
                elif g == 5:               # G06 largest completed island
                    best = 0
                    for k in range(s.n_temples[p]):
                        n = island(s, s.temple_q[p][k], isl)
                        if not completed(s, isl, n):
                            continue
                        pieces = 0
                        for i in range(n):
                            okc = (((isl[i] >> 5) >> 1) << 4) | ((isl[i] & 31) >> 1)
                            if s.cell[okc] == CELL_START:
                                okc = -1
                            for j in range(pieces):
                                if cells[j] == okc:
                                    break
                            else:
                                cells[pieces] = okc
                                pieces += 1
                        if pieces > best:
                            best = pieces
                    total = pts * best
                else:
                    for k in range(s.n_temples[p]):
                        n = island(s, s.temple_q[p][k], isl)
                        types = 0
                        for i in range(n):
                            if s.lmark[isl[i]] >= 0:
                                types |= 1 << s.lmark[isl[i]]
                        nt = (types & 1) + ((types >> 1) & 1) + ((types >> 2) & 1) + ((types >> 3) & 1)
                        if g == 0:
                            total += pts * (isl_min[isl[0]] == 1)
                        elif g == 1:
                            if c.en1:
                                total += pts * (isl_min[isl[0]] >= 2 and isl_min[isl[0]] < INF)
                            else:
                                total += pts * (isl_min[isl[0]] == 2)
                        elif g == 2:
                            total += pts * (nt >= 3)
                        elif g == 3:
                            total += pts * (nt == 0)
                        elif g == 6:       # G07 isolated
                            linked = 0
                            na = 0             # the ports of this temple's island
                            for jj in range(s.n_on):
                                if port_isl[s.ports_on[jj]] == isl[0]:
                                    pa[na] = s.ports_on[jj]
                                    na += 1
                            for j in range(s.n_temples[p]):
                                n2 = island(s, s.temple_q[p][j], isl2)
                                if isl2[0] == isl[0]:
                                    continue
                                for jj in range(s.n_on):
                                    q2 = s.ports_on[jj]
                                    if port_isl[q2] == isl2[0]:
                                        for i in range(na):
                                            if comp2[NODE_PORT + pa[i]] == comp2[NODE_PORT + q2]:
                                                linked = 1
                            total += pts * (not linked)
                        elif g == 7:
                            total += pts * (not completed(s, isl, n))
                        elif g == 8:
                            total += pts * ((types >> 3) & 1)
                        elif g == 9:
                            total += pts * ((types >> 2) & 1)
                        elif g == 10:
                            total += pts * (types & 1)
                        else:
                            total += pts * ((types >> 1) & 1)
                goal_out[p][g] = total
    for p in range(2):
        out[SC_MAPS][p] = 0
        for k in range(NCARD):
            if (s.excavated[p] >> k) & 1:
                out[SC_MAPS][p] += c.card_points[k]
        out[SC_GOALS][p] = 0
        for g in range(NGOAL):
            out[SC_GOALS][p] += goal_out[p][g]
        out[SC_MONEY][p] = s.drachmas[p] // 10
        out[SC_TOTAL][p] = out[SC_MAPS][p] + out[SC_GOALS][p] + out[SC_MONEY][p] + c.seat_points[p]
