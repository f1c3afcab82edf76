# The Yamatai rules on the C structs (included by _engine.pyx).
#
# Spec decisions made here (rules/yamatai.md, section 15):
#   Y-D1  a turn is one pawn's turn: once-per-turn bits reset in start_turn.
#   Y-D2  free actions only in the windows ST_PRE (W1), ST_POST (W2), ST_AFTER (W3).
#   Y-D3  trades only in ST_PRE, before the first boat.
#   Y-D4  port boats join the hand at the start of the owner's next turn; KEEP up to capacity.
#   Y-D5  each further boat next to the previous one (s.last).
#   Y-D6  the "placed this turn" mark (s.marked) follows slides and swaps; removal clears it.
#   Y-D7  collect one island at a time; the collected islands must match into distinct marked boats.
#   Y-D8  step 3b is mandatory (no PASS in ST_POST) when a collect or a build is possible.
#   Y-D9  recruiting is the last step: a new specialist acts from the owner's next turn on.
#   Y-D10 the island's boats contain the tile's multiset (fleet 9: one boat may lack).
#   Y-D11 build from the row or from an own reservation of an earlier turn (reserved_now).
#   Y-D12 groups = own standard buildings; Ananda 2 coins per build, checked before.
#   Y-D13 Awashima: PP tokens and group coins for prestige pieces, never in a group.
#   Y-D14 Kagutsuchi +1 PP token when no own standard building is adjacent.
#   Y-D15 standard pieces limited; prestige pieces never run out.
#   Y-D16 sacred sites on empty islands; they block building only.
#   Y-D17 Ebisu once per turn in ST_COLLECT (after the first token), any island.
#   Y-D18 Izanami: half of the recruited tile's coins, except for her owner and herself.
#   Y-D19 Raijin needs gold in the supply; Nakatsu two non-gold boats in the supply.
#   Y-D20 paid/discarded tokens leave the game.   Y-D21 Izanagi: 2 transactions, any mix.
#   Y-D23 payment: 2 of a type or 3 distinct.     Y-D24 +2 coins before refilling.
#   Y-D25 fleet 10's extra boat optional, any colour in supply (ST_FLEET10).
#   Y-D26 fleet details (reservations unlimited, peek min(3, deck), ...).
#   Y-D27 fleet track as a queue; returned tiles shuffled at the end.
#   Y-D29/Y-D30 boats and sacred sites limited; coins/PP unlimited; removed/sold boats to supply.
#   Y-D32..Y-D34 triggers at round preparation; the round is completed.
#   Y-D35 tie-break: earliest pawn in the last round played.   Y-D37 round cap.

cdef inline bint owns(const YState* s, int spec, int p) noexcept nogil:
    return s.spec_owner[spec] == p


cdef inline int me(const YState* s) noexcept nogil:
    return s.pawn_owner[s.order[s.turn]]


cdef inline bint island_empty(const YState* s, int i) noexcept nogil:
    return s.token[i] < 0 and s.building[i] == B_NONE and not ((s.sacred >> i) & 1)


cdef inline int port_capacity(const YCfg* c, const YState* s, int p) noexcept nogil:
    return c.port_cap + (c.riu_bonus if owns(s, SP_RIU, p) else 0)


cdef inline int buy_price(const YCfg* c, int col) noexcept nogil:
    return c.buy[col]


cdef inline int sell_price(const YCfg* c, const YState* s, int col, int p) noexcept nogil:
    if owns(s, SP_SUSANOO, p):
        return c.sell_susanoo[col]
    return c.sell[col]


# ---------------------------------------------------------------- collect matching

cdef bint augment(const YCfg* c, const YState* s, int i, u128* seen, int16_t* match_of) noexcept nogil:
    cdef u128 m = c.island_sea[i] & s.marked & ~seen[0]
    cdef int b
    while m:
        b = ctz128(m)
        m &= m - 1
        if has128(seen[0], b):
            continue
        seen[0] |= bit128(b)
        if match_of[b] < 0 or augment(c, s, match_of[b], seen, match_of):
            match_of[b] = i
            return True
    return False


cdef bint has_matching(const YCfg* c, const YState* s, uint64_t islands) noexcept nogil:
    cdef int16_t match_of[MAXSEA]
    cdef u128 seen, m = s.marked
    cdef int i
    while m:        # augment only reads match_of at marked spaces
        match_of[ctz128(m)] = -1
        m &= m - 1
    while islands:
        i = __builtin_ctzll(islands)
        islands &= islands - 1
        seen = 0
        if not augment(c, s, i, &seen, match_of):
            return False
    return True


cdef inline uint64_t islands_by_marked(const YCfg* c, const YState* s) noexcept nogil:
    """Islands next to at least one boat placed this turn."""
    cdef u128 m = s.marked
    cdef uint64_t isl = 0
    while m:
        isl |= c.sea_island[ctz128(m)]
        m &= m - 1
    return isl


cdef int collectable(const YCfg* c, const YState* s, int32_t* out) noexcept nogil:
    cdef int i, n = 0
    cdef uint64_t cand = islands_by_marked(c, s)
    while cand:
        i = __builtin_ctzll(cand)
        cand &= cand - 1
        if s.token[i] < 0:
            continue
        # with nothing collected yet, the island's own marked neighbour is a matching
        if s.collected == 0 or has_matching(c, s, s.collected | ((<uint64_t>1) << i)):
            out[n] = A_COLLECT + i
            n += 1
    return n


# ---------------------------------------------------------------- building

cdef uint64_t own_buildings(const YCfg* c, const YState* s, int p) noexcept nogil:
    """Islands holding p's buildings, 8 islands a word (bytes equal to p; zeros past n_islands masked)."""
    cdef uint64_t m = 0, w, y
    cdef uint64_t pp = (<uint64_t>p) * <uint64_t>0x0101010101010101
    cdef int i
    for i in range(0, c.n_islands, 8):
        memcpy(&w, &s.building[i], 8)
        w ^= pp
        # high bit of a byte of y: the byte of w is not 0 (exact, no carries across bytes)
        y = ((w & <uint64_t>0x7F7F7F7F7F7F7F7F) + <uint64_t>0x7F7F7F7F7F7F7F7F) | w
        m |= ((((~y) & <uint64_t>0x8080808080808080) * <uint64_t>0x0002040810204081) >> 56) << i
    return m & c.all_isl


cdef uint64_t group_of(const YCfg* c, uint64_t mine, int start) noexcept nogil:
    """The connected part of ``mine | start`` that holds ``start``."""
    cdef uint64_t g = (<uint64_t>1) << start, frontier = g, nxt
    cdef int i
    mine |= g
    while frontier:
        nxt = 0
        while frontier:
            i = __builtin_ctzll(frontier)
            frontier &= frontier - 1
            nxt |= c.island_nbr[i] & mine
        frontier = nxt & ~g
        g |= nxt
    return g


cdef int ananda_toll(const YCfg* c, const YState* s, int i, int p) noexcept nogil:
    """Ananda's owner when building on island i costs p the toll, else -1."""
    cdef int o = s.spec_owner[SP_ANANDA]
    cdef uint64_t m
    cdef int j
    if o < 0 or o == p:
        return -1
    m = c.island_nbr[i]
    while m:
        j = __builtin_ctzll(m)
        m &= m - 1
        if s.building[j] == o:
            return o
    return -1


cdef inline uint64_t pack_boats(const int* h) noexcept nogil:
    return (<uint64_t>h[0]) | (<uint64_t>h[1]) << 8 | (<uint64_t>h[2]) << 16 | (<uint64_t>h[3]) << 24 \
        | (<uint64_t>h[4]) << 32


cdef inline int boats_missing(uint64_t need, uint64_t have) noexcept nogil:
    """sum over colours of max(0, need - have), one byte per colour (need <= 4, have < 128)."""
    cdef uint64_t d = (need | <uint64_t>0x8080808080) - have
    cdef uint64_t sel = d & <uint64_t>0x8080808080
    d &= sel - (sel >> 7)
    return <int>(((d * <uint64_t>0x0101010101) >> 32) & 0xFF)


cdef int builds(const YCfg* c, const YState* s, int32_t* out) noexcept nogil:
    """BUILD actions, ascending."""
    cdef int p = me(s), n = 0, t, i, col, allow, k
    cdef uint32_t tiles = 0
    cdef int h[NCOL]
    cdef uint64_t have[MAXISL]
    cdef uint64_t cand = 0, im
    for k in range(5):
        if s.row[k] >= 0:
            tiles |= (<uint32_t>1) << s.row[k]
    tiles |= s.reserved[p] & ~s.reserved_now
    if tiles == 0 or s.marked == 0:
        return 0
    im = islands_by_marked(c, s)
    while im:
        i = __builtin_ctzll(im)
        im &= im - 1
        if island_empty(s, i):
            if s.coins[p] < 2 and ananda_toll(c, s, i, p) >= 0:
                continue
            cand |= (<uint64_t>1) << i
            for col in range(NCOL):
                h[col] = popcount128(c.island_sea[i] & s.boat[col])
            have[i] = pack_boats(h)
    allow = 1 if s.fleet == 9 else 0
    while tiles:
        t = __builtin_ctz(tiles)
        tiles &= tiles - 1
        if c.tile_kind[t] == 0 and s.pieces[p] == 0:
            continue
        im = cand
        while im:
            i = __builtin_ctzll(im)
            im &= im - 1
            if boats_missing(c.tile_need[t], have[i]) <= allow:
                out[n] = A_BUILD + 64 * t + i
                n += 1
    return n


cdef void do_build(const YCfg* c, YState* s, int t, int i) noexcept nogil:
    cdef int p = me(s), k, j, o, prestige_nbrs = 0, mountain, n
    cdef int coins0 = s.coins[p], pp0 = s.pp[p]
    cdef int h[NCOL]
    cdef uint64_t m, mine, g, seen
    if s.fleet == 9:
        # fleet 9's ability is passive (a build may lack one of the tile's boats): the fleet pick's
        # event records it as used when this build lacks one, i.e. was possible only with it; a
        # build the island's boats allow anyway does not use it (as in reference.py)
        for k in range(NCOL):
            h[k] = popcount128(c.island_sea[i] & s.boat[k])
        if boats_missing(c.tile_need[t], pack_boats(h)) > 0:
            s.ev_fleet[2] = 1
    o = ananda_toll(c, s, i, p)
    if o >= 0:
        s.coins[p] -= 2
        s.coins[o] += 2
    s.built[p] |= (<uint32_t>1) << t
    if s.reserved[p] & ((<uint32_t>1) << t):
        s.reserved[p] &= ~((<uint32_t>1) << t)
    else:
        for k in range(5):
            if s.row[k] == t:
                s.row[k] = -1
    m = c.island_nbr[i]
    while m:
        j = __builtin_ctzll(m)
        m &= m - 1
        if s.building[j] == B_TORII or s.building[j] == B_PALACE:
            prestige_nbrs += 1
    mountain = <int>((s.mountain >> i) & 1)
    mine = own_buildings(c, s, p)
    if c.tile_kind[t] == 0:
        s.building[i] = p
        s.pp[p] += prestige_nbrs + mountain
        g = group_of(c, mine, i)
        n = __builtin_popcountll(g)
        if n >= 2:
            s.coins[p] += n * (2 if c.tile_tp[t] else 1)
        if owns(s, SP_KAGUTSUCHI, p) and (c.island_nbr[i] & mine) == 0:
            s.pp[p] += 1
        s.pieces[p] -= 1
        if s.pieces[p] == 0:
            s.triggers |= T_LAST_BUILDING
    else:
        s.building[i] = B_TORII if c.tile_kind[t] == 1 else B_PALACE
        if owns(s, SP_AWASHIMA, p):
            s.pp[p] += prestige_nbrs + mountain
            seen = 0
            m = c.island_nbr[i] & mine
            while m:
                j = __builtin_ctzll(m)
                m &= m - 1
                if not ((seen >> j) & 1):
                    seen |= group_of(c, mine, j)
            n = 1 + __builtin_popcountll(seen)
            if n >= 2:
                s.coins[p] += n
    if s.n_blog < MAXBLOG:
        s.blog[s.n_blog].round = <int8_t>s.round
        s.blog[s.n_blog].seat = p
        s.blog[s.n_blog].tile = t
        s.blog[s.n_blog].island = i
        s.blog[s.n_blog].coins = s.coins[p] - coins0
        s.blog[s.n_blog].pp = s.pp[p] - pp0
        s.n_blog += 1


# ---------------------------------------------------------------- legal actions

cdef inline int emit_mask(int32_t* buf, int n, u128 m, int base) noexcept nogil:
    """Append ``base + s`` for every set bit ``s`` of ``m``, ascending; return the new length."""
    cdef uint64_t lo = <uint64_t>m, hi = <uint64_t>(m >> 64)
    while lo:
        buf[n] = base + __builtin_ctzll(lo)
        lo &= lo - 1
        n += 1
    while hi:
        buf[n] = base + 64 + __builtin_ctzll(hi)
        hi &= hi - 1
        n += 1
    return n


cdef inline u128 sea_nbrs_of(const YCfg* c, u128 m) noexcept nogil:
    """Sea spaces next to at least one space of ``m``."""
    cdef u128 out = 0
    cdef uint64_t lo = <uint64_t>m, hi = <uint64_t>(m >> 64)
    while lo:
        out |= c.sea_nbr[__builtin_ctzll(lo)]
        lo &= lo - 1
    while hi:
        out |= c.sea_nbr[64 + __builtin_ctzll(hi)]
        hi &= hi - 1
    return out


cdef int legal_actions(const YCfg* c, const YState* s, int32_t* buf) noexcept nogil:
    """The sorted legal actions of the current decision."""
    return legal_actions_cut(c, s, buf, False)


cdef int legal_actions_cut(const YCfg* c, const YState* s, int32_t* buf, bint cut) noexcept nogil:
    """legal_actions; with ``cut``, only the first two actions of the fleet 4/6/8 block outside
    ST_POST, and of fleet 6's and fleet 8's swaps in ST_POST.

    A seat whose choice is deterministic (heuristic, no temperature, no epsilon) never scores those
    actions outside ST_POST (choose_action stops at the first one), and enumerates fleet 6's and 8's
    swaps in ST_POST from the position (best_swaptok, best_swap), so only the block's first action
    and whether it has more than one (n == 1 is a forced step) can matter.
    """
    cdef int n = 0, p, k, col, c1, c2, i, j, sp, t, nb = 0, nc = 0, lim
    cdef int st = s.stage
    cdef bint window, free_fleet
    cdef int32_t tmp_c[MAXISL]
    cdef int32_t tmp_b[MAXTILES * MAXISL]
    cdef u128 m, m2, free, any_ok
    cdef u128 ok[NCOL]
    cdef uint64_t im, im2
    if st == ST_OVER:
        return 0
    p = me(s)
    if st == ST_FLEET:
        im = 0
        for i in range(s.face_up):
            im |= (<uint64_t>1) << s.track[i]
        while im:
            buf[n] = __builtin_ctzll(im)
            im &= im - 1
            n += 1
        return n
    if st == ST_FLEET10:
        buf[n] = A_PASS
        n += 1
        for col in range(NCOL):
            if s.supply[col] > 0:
                buf[n] = A_TAKE + col
                n += 1
        return n
    if st == ST_PLACE:
        buf[n] = A_PASS
        n += 1
        m = c.sea_nbr[s.last] & ~s.occ
        while m:
            sp = ctz128(m)
            m &= m - 1
            for col in range(NCOL):
                if s.hand[col] > 0:
                    buf[n] = A_PLACE + 5 * sp + col
                    n += 1
        return n
    if st == ST_COLLECT:
        buf[n] = A_PASS
        n += 1
        n += collectable(c, s, buf + n)
        if owns(s, SP_EBISU, p) and not (s.used & U_EBISU):
            for i in range(c.n_islands):
                if s.token[i] >= 0:
                    buf[n] = A_EBISU + i
                    n += 1
        return n
    if st == ST_REMOVE:
        buf[n] = A_PASS
        n += 1
        return emit_mask(buf, n, s.occ, A_REMOVE)
    if st == ST_PORT:
        buf[n] = A_PASS
        n += 1
        if s.kept < port_capacity(c, s, p):
            for col in range(NCOL):
                if s.hand[col] > 0:
                    buf[n] = A_KEEP + col
                    n += 1
        return n
    if st == ST_RECRUIT:
        buf[n] = A_PASS
        n += 1
        nc = 0          # the payments the player can make, ascending: bit i of im for payment i
        im = 0
        k = 0           # the types held, as bits
        for i in range(NTYPE):
            if s.tokens[p][i] > 0:
                k |= 1 << i
                if s.tokens[p][i] >= 2:
                    im |= (<uint64_t>1) << i
        im |= (<uint64_t>PAY3_OK[k]) << 6
        while im:
            tmp_c[nc] = __builtin_ctzll(im)
            im &= im - 1
            nc += 1
        if nc == 0:
            return n
        for k in range(5):
            if s.slots[k] < 0:
                continue
            for i in range(nc):
                buf[n] = A_RECRUIT + 26 * k + tmp_c[i]
                n += 1
        return n
    # the windows ST_PRE, ST_POST, ST_AFTER
    if st == ST_POST:
        nc = collectable(c, s, tmp_c)
        nb = builds(c, s, tmp_b)
    if st != ST_POST or nc + nb == 0:
        buf[n] = A_PASS
        n += 1
    if st == ST_PRE and s.transactions > 0:
        for col in range(NCOL):
            if (col < 4 or owns(s, SP_TOMOE, p)) and s.supply[col] > 0 and s.coins[p] >= buy_price(c, col):
                buf[n] = A_BUY + col
                n += 1
        for col in range(NCOL):
            if (col < 4 or owns(s, SP_TOMOE, p)) and s.hand[col] > 0:
                buf[n] = A_SELL + col
                n += 1
    free_fleet = not (s.used & U_FLEET)
    if free_fleet and s.fleet == 2:
        for k in range(5):
            if s.row[k] >= 0:
                buf[n] = A_RESERVE + k
                n += 1
    if free_fleet and s.fleet == 3 and s.n_deck > 0:
        k = s.n_deck if s.n_deck < 3 else 3
        for i in range(c.n_arr[k]):
            buf[n] = A_ARRANGE + i
            n += 1
    if owns(s, SP_RAIJIN, p) and not (s.used & U_RAIJIN) and s.supply[4] > 0:
        for c1 in range(NCOL):
            for c2 in range(c1, NCOL):
                if (s.hand[c1] >= 2) if c1 == c2 else (s.hand[c1] > 0 and s.hand[c2] > 0):
                    buf[n] = A_RAIJIN + 5 * c1 + c2
                    n += 1
    if owns(s, SP_NAKATSU, p) and not (s.used & U_NAKATSU) and s.hand[4] > 0:
        for c1 in range(4):
            for c2 in range(c1, 4):
                if (s.supply[c1] >= 2) if c1 == c2 else (s.supply[c1] > 0 and s.supply[c2] > 0):
                    buf[n] = A_NAKATSU + 5 * c1 + c2
                    n += 1
    if owns(s, SP_MICHIMATA, p) and not (s.used & U_MICHIMATA) and s.supply[4] > 0:
        for k in range(NTYPE):
            if s.tokens[p][k] > 0:
                buf[n] = A_MICHIMATA + k
                n += 1
    if owns(s, SP_HETSUKA, p) and not (s.used & U_HETSUKA):
        for k in range(NTYPE):
            if s.tokens[p][k] > 0:
                buf[n] = A_HETSUKA + k
                n += 1
    for i in range(nc):
        buf[n] = tmp_c[i]
        n += 1
    if free_fleet and s.fleet == 5 and s.sacred_supply > 0:
        for i in range(c.n_islands):
            if island_empty(s, i):
                buf[n] = A_SACRED + i
                n += 1
    if owns(s, SP_KACHIKO, p) and not (s.used & U_KACHIKO) and s.coins[p] >= 2:
        im = s.sacred
        while im:
            i = __builtin_ctzll(im)
            im &= im - 1
            buf[n] = A_KACHIKO + i
            n += 1
    if free_fleet and s.fleet == 7:
        n = emit_mask(buf, n, s.occ, A_REMOVE)
    if st == ST_PRE:
        # first boats: an empty entry (Toyo Tama: edge) space, or next to a boat of its colour
        free = c.all_sea & ~s.occ
        m = c.entries
        if owns(s, SP_TOYOTAMA, p):
            m |= c.edges
        any_ok = 0
        for col in range(NCOL):
            ok[col] = 0
            if s.hand[col] > 0:
                ok[col] = free & (m | sea_nbrs_of(c, s.boat[col]))
                any_ok |= ok[col]
        while any_ok:
            sp = ctz128(any_ok)
            any_ok &= any_ok - 1
            for col in range(NCOL):
                if has128(ok[col], sp):
                    buf[n] = A_PLACE + 5 * sp + col
                    n += 1
    for i in range(nb):
        buf[n] = tmp_b[i]
        n += 1
    lim = n + 2 if cut and (st != ST_POST or s.fleet != 4) else MAXLEGAL
    if free_fleet and s.fleet == 6:
        im = 0
        for i in range(c.n_islands):
            if s.token[i] >= 0:
                im |= (<uint64_t>1) << i
        while im:
            i = __builtin_ctzll(im)
            im &= im - 1
            im2 = im
            while im2:
                buf[n] = A_SWAPTOK + 64 * i + __builtin_ctzll(im2)
                im2 &= im2 - 1
                n += 1
            if n >= lim:
                break
    if free_fleet and s.fleet == 4:
        m = s.occ
        while m and n < lim:
            sp = ctz128(m)
            m &= m - 1
            n = emit_mask(buf, n, c.sea_nbr[sp] & ~s.occ, A_SLIDE + 128 * sp)
    if free_fleet and s.fleet == 8:
        m = s.occ
        while m and n < lim:
            sp = ctz128(m)
            m &= m - 1
            n = emit_mask(buf, n, m, A_SWAPBOATS + 128 * sp)
    return n if n < lim else lim


# ---------------------------------------------------------------- applying

cdef inline void put_boat(YState* s, int sp, int col) noexcept nogil:
    s.boat[col] |= bit128(sp)
    s.occ |= bit128(sp)


cdef inline int boat_at(const YState* s, int sp) noexcept nogil:
    cdef int col
    for col in range(NCOL):
        if has128(s.boat[col], sp):
            return col
    return -1


cdef inline void lift_boat(YState* s, int sp, int col) noexcept nogil:
    s.boat[col] &= ~bit128(sp)
    s.occ &= ~bit128(sp)


cdef void start_turn(const YCfg* c, YState* s) noexcept nogil:
    cdef int p = me(s), col
    s.current = p
    for col in range(NCOL):
        s.hand[col] += s.port[p][col]
        s.port[p][col] = 0
    s.stage = ST_FLEET
    s.fleet = 0
    s.transactions = c.izanagi_trans if owns(s, SP_IZANAGI, p) else c.trans
    s.used = 0
    s.last = -1
    s.marked = 0
    s.collected = 0
    s.reserved_now = 0
    s.kept = 0
    s.return_stage = 0
    s.ev_fleet[0] = 0
    s.ev_fleet[1] = 0
    s.ev_fleet[2] = 0
    s.ev_fleet[3] = 0


cdef void shuffle8(uint64_t* rng, int8_t* x, int n) noexcept nogil:
    cdef int i, j
    cdef int8_t tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, i + 1)
        tmp = x[i]
        x[i] = x[j]
        x[j] = tmp


cdef void end_round(const YCfg* c, YState* s) noexcept nogil:
    cdef int k, i, j, np_ = s.n_pawns
    cdef int8_t ret[MAXPAWN]
    cdef int8_t tmp
    for k in range(5):
        if s.slots[k] >= 0:
            s.slot_coins[k] += 2
    for k in range(5):
        if s.slots[k] < 0:
            if s.n_spec_deck > 0:
                s.slots[k] = s.spec_deck[0]
                s.slot_coins[k] = 0
                for i in range(s.n_spec_deck - 1):
                    s.spec_deck[i] = s.spec_deck[i + 1]
                s.n_spec_deck -= 1
            else:
                s.triggers |= T_SPECIALISTS
    for k in range(5):
        if s.row[k] < 0:
            if s.n_deck > 0:
                s.row[k] = s.deck[0]
                for i in range(s.n_deck - 1):
                    s.deck[i] = s.deck[i + 1]
                s.n_deck -= 1
            else:
                s.triggers |= T_BUILDINGS
    s.round += 1
    for k in range(NCOL):
        if s.supply[k] == 0:
            s.triggers |= T_BOATS
    if s.round >= c.round_cap:
        s.triggers |= T_ROUND_CAP
    for k in range(np_):
        s.last_order[k] = s.order[k]
    if s.triggers:
        s.stage = ST_OVER
        s.current = -1
        return
    # next order: ascending fleet number (insertion sort of the pawns)
    for k in range(1, np_):
        tmp = s.order[k]
        i = k - 1
        while i >= 0 and s.fleet_taken[s.order[i]] > s.fleet_taken[tmp]:
            s.order[i + 1] = s.order[i]
            i -= 1
        s.order[i + 1] = tmp
    for k in range(np_):
        ret[k] = s.order[k]
    for k in range(np_):
        ret[k] = s.fleet_taken[s.order[k]]      # ascending fleet numbers
    shuffle8(s.rng, ret, np_)
    for k in range(np_):
        s.track[s.n_track] = ret[k]
        s.n_track += 1
        s.fleet_taken[k] = 0
    s.face_up = 5
    s.turn = 0
    start_turn(c, s)


cdef void end_turn(const YCfg* c, YState* s) noexcept nogil:
    cdef int p = me(s)
    cdef FLog* f
    if s.n_flog < MAXFLOG:
        f = &s.flog[s.n_flog]
        f.round = <int8_t>s.round
        f.seat = p
        f.fleet = s.ev_fleet[0]
        f.gained = s.ev_fleet[1]
        f.used = s.ev_fleet[2]
        f.extra = s.ev_fleet[3]
        s.n_flog += 1
    s.marked = 0
    s.turn += 1
    if s.turn < s.n_pawns:
        start_turn(c, s)
    else:
        end_round(c, s)


cdef void take_token(YState* s, int i, int p) noexcept nogil:
    s.tokens[p][s.token[i]] += 1
    s.token[i] = -1


cdef bint free_action(const YCfg* c, YState* s, int a) noexcept nogil:
    """Apply ``a`` if it is a free action; return whether it was one."""
    cdef int p = me(s), k, i, j, sp, t, c1, c2, cs, ct, cut, x
    cdef int8_t peek[3]
    cdef int8_t top[3]
    cdef int8_t bottom[3]
    cdef int ntop = 0, nbot = 0, rest
    cdef int8_t tmp
    if A_RESERVE <= a < A_RESERVE + 5:
        t = s.row[a - A_RESERVE]
        s.row[a - A_RESERVE] = -1
        s.reserved[p] |= (<uint32_t>1) << t
        s.reserved_now |= (<uint32_t>1) << t
    elif A_ARRANGE <= a < A_ARRANGE + 24:
        k = s.n_deck if s.n_deck < 3 else 3
        for i in range(k):
            peek[i] = s.deck[i]
        cut = 0
        while c.arr[k][a - A_ARRANGE][cut] != k:
            cut += 1
        for i in range(cut):
            top[ntop] = peek[c.arr[k][a - A_ARRANGE][i]]
            ntop += 1
        for i in range(cut + 1, k + 1):
            bottom[nbot] = peek[c.arr[k][a - A_ARRANGE][i]]
            nbot += 1
        rest = s.n_deck - k
        for i in range(rest):
            s.deck[i] = s.deck[i + k]
        # rebuild: top, the rest, bottom
        for i in range(rest - 1, -1, -1):
            s.deck[i + ntop] = s.deck[i]
        for i in range(ntop):
            s.deck[i] = top[i]
        for i in range(nbot):
            s.deck[ntop + rest + i] = bottom[i]
    elif A_SLIDE <= a < A_SWAPBOATS:
        sp = (a - A_SLIDE) >> 7
        t = (a - A_SLIDE) & 127
        cs = boat_at(s, sp)
        lift_boat(s, sp, cs)
        put_boat(s, t, cs)
        if has128(s.marked, sp):
            s.marked = (s.marked & ~bit128(sp)) | bit128(t)
    elif A_SACRED <= a < A_SACRED + 64:
        s.sacred |= (<uint64_t>1) << (a - A_SACRED)
        s.sacred_supply -= 1
    elif A_SWAPTOK <= a < A_SLIDE:
        i = (a - A_SWAPTOK) >> 6
        j = (a - A_SWAPTOK) & 63
        tmp = s.token[i]
        s.token[i] = s.token[j]
        s.token[j] = tmp
    elif A_REMOVE <= a < A_REMOVE + 128:
        sp = a - A_REMOVE
        cs = boat_at(s, sp)
        lift_boat(s, sp, cs)
        s.supply[cs] += 1
        s.marked &= ~bit128(sp)
        s.return_stage = s.stage
        s.stage = ST_REMOVE
    elif a >= A_SWAPBOATS:
        sp = (a - A_SWAPBOATS) >> 7
        t = (a - A_SWAPBOATS) & 127
        cs = boat_at(s, sp)
        ct = boat_at(s, t)
        lift_boat(s, sp, cs)
        lift_boat(s, t, ct)
        put_boat(s, sp, ct)
        put_boat(s, t, cs)
        x = has128(s.marked, sp)
        k = has128(s.marked, t)
        s.marked &= ~(bit128(sp) | bit128(t))
        if x:
            s.marked |= bit128(t)
        if k:
            s.marked |= bit128(sp)
    elif A_RAIJIN <= a < A_RAIJIN + 25:
        c1 = (a - A_RAIJIN) // 5
        c2 = (a - A_RAIJIN) % 5
        s.hand[c1] -= 1
        s.supply[c1] += 1
        s.hand[c2] -= 1
        s.supply[c2] += 1
        s.supply[4] -= 1
        s.hand[4] += 1
        s.used |= U_RAIJIN
        return True
    elif A_NAKATSU <= a < A_NAKATSU + 25:
        c1 = (a - A_NAKATSU) // 5
        c2 = (a - A_NAKATSU) % 5
        s.hand[4] -= 1
        s.supply[4] += 1
        s.supply[c1] -= 1
        s.hand[c1] += 1
        s.supply[c2] -= 1
        s.hand[c2] += 1
        s.used |= U_NAKATSU
        return True
    elif A_MICHIMATA <= a < A_MICHIMATA + 6:
        s.tokens[p][a - A_MICHIMATA] -= 1
        s.supply[4] -= 1
        s.hand[4] += 1
        s.used |= U_MICHIMATA
        return True
    elif A_HETSUKA <= a < A_HETSUKA + 6:
        s.tokens[p][a - A_HETSUKA] -= 1
        s.coins[p] += 4
        s.used |= U_HETSUKA
        return True
    elif A_KACHIKO <= a < A_KACHIKO + 64:
        s.sacred &= ~((<uint64_t>1) << (a - A_KACHIKO))
        s.sacred_supply += 1
        s.coins[p] -= 2
        s.used |= U_KACHIKO
        return True
    else:
        return False
    s.used |= U_FLEET
    s.ev_fleet[2] = 1
    return True


cdef void apply_action(const YCfg* c, YState* s, int a) noexcept nogil:
    """Apply a legal action of the current decision (no check)."""
    cdef int st = s.stage, p = me(s), col, k, i, sp, slot, spec, coins, iz, t, gained = 0
    if st == ST_FLEET:
        i = 0           # a legal fleet is on the track, so the loop stops at it
        for i in range(s.n_track):
            if s.track[i] == a:
                break
        for k in range(i, s.n_track - 1):
            s.track[k] = s.track[k + 1]
        s.n_track -= 1
        s.face_up -= 1
        s.fleet = a
        s.fleet_taken[s.order[s.turn]] = a
        for col in range(NCOL):
            if c.fleet_boats[a][col] and s.supply[col] >= c.fleet_boats[a][col]:
                s.supply[col] -= c.fleet_boats[a][col]
                s.hand[col] += c.fleet_boats[a][col]
                gained += c.fleet_boats[a][col]
        s.ev_fleet[0] = a
        s.ev_fleet[1] = gained
        s.stage = ST_PRE
        if a == 10:
            for col in range(NCOL):
                if s.supply[col] > 0:
                    s.stage = ST_FLEET10
        return
    if st == ST_FLEET10:
        if a != A_PASS:
            col = a - A_TAKE
            s.supply[col] -= 1
            s.hand[col] += 1
            s.ev_fleet[1] += 1
            s.ev_fleet[2] = 1       # fleet 10's ability is the optional extra boat: taking it is using it
            s.ev_fleet[3] = 1
        s.stage = ST_PRE
        return
    if st == ST_REMOVE:
        if a != A_PASS:
            sp = a - A_REMOVE
            col = boat_at(s, sp)
            lift_boat(s, sp, col)
            s.supply[col] += 1
            s.marked &= ~bit128(sp)
        s.stage = s.return_stage
        return
    if (st == ST_PRE or st == ST_POST or st == ST_AFTER) and free_action(c, s, a):
        return
    if st == ST_PRE or st == ST_PLACE:
        if a == A_PASS:
            s.stage = ST_POST
        elif A_BUY <= a < A_BUY + 5:
            col = a - A_BUY
            s.coins[p] -= buy_price(c, col)
            s.supply[col] -= 1
            s.hand[col] += 1
            s.transactions -= 1
        elif A_SELL <= a < A_SELL + 5:
            col = a - A_SELL
            s.coins[p] += sell_price(c, s, col, p)
            s.supply[col] += 1
            s.hand[col] -= 1
            s.transactions -= 1
        else:
            sp = (a - A_PLACE) // 5
            col = (a - A_PLACE) % 5
            put_boat(s, sp, col)
            s.hand[col] -= 1
            s.marked |= bit128(sp)
            s.last = sp
            s.stage = ST_PLACE
        return
    if st == ST_POST:
        if a == A_PASS:
            s.stage = ST_AFTER
        elif A_COLLECT <= a < A_COLLECT + 64:
            take_token(s, a - A_COLLECT, p)
            s.collected |= (<uint64_t>1) << (a - A_COLLECT)
            s.stage = ST_COLLECT
        else:
            do_build(c, s, (a - A_BUILD) >> 6, (a - A_BUILD) & 63)
            s.stage = ST_AFTER
        return
    if st == ST_COLLECT:
        if a == A_PASS:
            s.stage = ST_AFTER
        elif a >= A_EBISU:
            take_token(s, a - A_EBISU, p)
            s.used |= U_EBISU
        else:
            take_token(s, a - A_COLLECT, p)
            s.collected |= (<uint64_t>1) << (a - A_COLLECT)
        return
    if st == ST_AFTER:
        s.stage = ST_PORT
        return
    if st == ST_PORT:
        if a == A_PASS:
            for col in range(NCOL):
                s.set_aside[p] += s.hand[col]
                s.hand[col] = 0
            s.stage = ST_RECRUIT
        else:
            col = a - A_KEEP
            s.hand[col] -= 1
            s.port[p][col] += 1
            s.kept += 1
        return
    if st == ST_RECRUIT:
        if a != A_PASS:
            slot = (a - A_RECRUIT) // 26
            k = (a - A_RECRUIT) % 26
            if k < 6:
                s.tokens[p][k] -= 2
            else:
                for i in range(3):
                    s.tokens[p][PAY3[k - 6][i]] -= 1
            spec = s.slots[slot]
            coins = s.slot_coins[slot]
            iz = s.spec_owner[SP_IZANAMI]
            if iz >= 0 and iz != p:
                s.coins[iz] += coins // 2
                coins -= coins // 2
            s.coins[p] += coins
            s.spec_owner[spec] = p
            s.slots[slot] = -1
            s.slot_coins[slot] = 0
            if s.n_rlog < MAXRLOG:
                s.rlog[s.n_rlog].round = <int8_t>s.round
                s.rlog[s.n_rlog].seat = p
                s.rlog[s.n_rlog].spec = spec
                s.rlog[s.n_rlog].coins = coins
                s.n_rlog += 1
        end_turn(c, s)
        return


# ---------------------------------------------------------------- set-up

cdef void setup(const YCfg* c, YState* s, uint64_t seed) noexcept nogil:
    """A new game: clear the state, then the chance draws in the contract's order."""
    cdef int i, k, p, n
    cdef int8_t spec[NSPEC]
    cdef int8_t tiles[MAXTILES]
    cdef int8_t fleets[NFLEET]
    cdef int8_t tok[MAXISL]
    cdef int8_t mnt[MAXISL]
    cdef int8_t idx[MAXISL]
    memset(s, 0, sizeof(YState))
    rng_seed(s.rng, seed, CHANCE_SALT)
    s.n_players = c.n_players
    s.n_pawns = c.n_pawns
    for i in range(NSPEC):
        spec[i] = i
        s.spec_owner[i] = -1
    shuffle8(s.rng, spec, NSPEC)
    for k in range(5):
        s.slots[k] = spec[k]
    s.n_spec_deck = NSPEC - 5
    for i in range(NSPEC - 5):
        s.spec_deck[i] = spec[5 + i]
    for i in range(c.n_tiles):
        tiles[i] = i
    shuffle8(s.rng, tiles, c.n_tiles)
    for k in range(5):
        s.row[k] = tiles[k]
    s.n_deck = c.n_tiles - 5
    for i in range(c.n_tiles - 5):
        s.deck[i] = tiles[5 + i]
    for i in range(NFLEET):
        fleets[i] = i + 1
    shuffle8(s.rng, fleets, NFLEET)
    for i in range(NFLEET):
        s.track[i] = fleets[i]
    s.n_track = NFLEET
    s.face_up = 5
    # culture tokens: index = position in the unshuffled list
    n = c.n_bag
    for i in range(n):
        tok[i] = c.bag_type[i]
        mnt[i] = c.bag_mnt[i]
    for i in range(n):
        idx[i] = i
    shuffle8(s.rng, idx, n)
    for i in range(c.n_islands):
        s.token[i] = tok[idx[i]]
        if mnt[idx[i]]:
            s.mountain |= (<uint64_t>1) << i
        s.building[i] = B_NONE
    if c.n_players == 2:
        s.pawn_owner[0] = 0
        s.pawn_owner[1] = 1
        s.pawn_owner[2] = 0
        s.pawn_owner[3] = 1
        s.order[0] = 0
        s.order[1] = 1
        if rng_below(s.rng, 2):
            s.order[2] = 3
            s.order[3] = 2
        else:
            s.order[2] = 2
            s.order[3] = 3
    else:
        for p in range(c.n_players):
            s.pawn_owner[p] = p
            s.order[p] = p
    for p in range(c.n_pawns):
        s.last_order[p] = s.order[p]
    for k in range(NCOL):
        s.supply[k] = c.supply[k]
    s.sacred_supply = c.sacred
    for p in range(c.n_players):
        s.coins[p] = c.start_coins + c.seat_bonus[p]
        s.pieces[p] = c.pieces
    s.turn = 0
    start_turn(c, s)


# ---------------------------------------------------------------- scoring

cdef void score(const YCfg* c, const YState* s, int16_t out[N_SC][MAXP]) noexcept nogil:
    cdef int p, k, t
    cdef uint32_t m
    for p in range(s.n_players):
        out[SC_COINS][p] = s.coins[p] // (c.fuhsi_per_pp if owns(s, SP_FUHSI, p) else c.coins_per_pp)
        out[SC_PP][p] = s.pp[p] * (2 if owns(s, SP_AMATERASU, p) else 1)
        out[SC_BUILDINGS][p] = 0
        m = s.built[p]
        while m:
            t = __builtin_ctz(m)
            m &= m - 1
            out[SC_BUILDINGS][p] += c.tile_pp[t]
        out[SC_SPECIALISTS][p] = 0
        for k in range(NSPEC):
            if s.spec_owner[k] == p:
                out[SC_SPECIALISTS][p] += c.spec_pp[k]
        out[SC_RESERVED][p] = -__builtin_popcount(s.reserved[p])
        out[SC_SET_ASIDE][p] = -(s.set_aside[p] // 2)
        out[SC_TOTAL][p] = c.seat_points[p]
        for k in range(SC_TOTAL):
            out[SC_TOTAL][p] += out[k][p]


cdef int winner(const YState* s, const int16_t out[N_SC][MAXP]) noexcept nogil:
    """The winning seat: highest total, ties to the earliest pawn of the last round (Y-D35)."""
    cdef int k, p, best = -1
    for k in range(s.n_pawns):
        p = s.pawn_owner[s.last_order[k]]
        if best < 0 or out[SC_TOTAL][p] > out[SC_TOTAL][best]:
            best = p
    return best
