# Built-in Akrotiri policies; included by _engine.pyx.
#
# A policy reads only public information plus its own seat's hand, goals and tile
# (spec 15.4): the features below look at the board, the market, its own boat, its
# own drachmas and its own map cards, never at the opponent's hand, goals, tile or
# the order of a pile.

cdef enum:
    POL_RANDOM = 0
    POL_HEURISTIC = 1
    NFEAT = 12

# feature indices (names in features.py, same order)
cdef enum:
    F_EXCAVATE_POINTS = 0     # points of the excavated map
    F_GOAL_FIT = 1            # the excavation's island helps a held goal
    F_SELL_VALUE = 2          # drachmas of a sale
    F_LOAD_VALUE = 3          # market value of the cubes loaded
    F_BUY = 4                 # buying maps (per card)
    F_BUY_HARD = 5            # per medium/hard card bought
    F_SAIL_THERA = 6          # sailing to Thera with cargo
    F_SAIL_CUBES = 7          # cubes on the destination island (empty boat)
    F_SAIL_FIT = 8            # the destination island fits a map in hand
    F_ORACLE = 9              # consulting the Oracle
    F_PLACE_FIT = 10          # maps in hand that fit around the placed tile
    F_END = 11                # ending the turn

ctypedef struct Policy:
    int kind
    double w[NFEAT]
    double eps


cdef double island_cube_value(const AState* s, int q) noexcept nogil:
    cdef int isl[4]
    cdef int n = island(s, q, isl), i, col
    cdef double v = 0
    for i in range(n):
        for col in range(4):
            if s.cubes[isl[i]][col]:
                v += s.cubes[isl[i]][col] * MARKET[s.out[col] - 1 if s.out[col] > 0 else 0]
    return v


cdef int fits_hand(const ACfg* c, const AState* s, int p, int q) noexcept nogil:
    """Number of maps in p's hand satisfied somewhere on the island of q (own information only)."""
    cdef int isl[4]
    cdef int n = island(s, q, isl), i, k, cnt = 0
    if isl[0] == quarter_index(15, 15) or has_temple(s, isl, n):
        return 0
    for k in range(NCARD):
        if (s.hand[p] >> k) & 1:
            for i in range(n):
                if satisfied(c, s, k, isl[i], p):
                    cnt += 1
                    break
    return cnt


cdef double action_value(const ACfg* c, const AState* s, const Policy* pol, int a) noexcept nogil:
    cdef int p = s.current, k, col, q, card, cargo, n, i
    cdef double v = 0
    cargo = s.cargo[p][0] + s.cargo[p][1] + s.cargo[p][2] + s.cargo[p][3]
    if a == A_END:
        return pol.w[F_END]
    if s.phase == PH_PLACE:
        return 0.0
    if s.phase == PH_CUBE or s.phase == PH_GOAL:
        return 0.0
    if a >= A_SAIL and a < A_LOAD:
        q = a - A_SAIL if a < A_TRANSPORT else a - A_TRANSPORT
        if q == PORT_T0 or q == PORT_T1:
            v += pol.w[F_SAIL_THERA] * cargo
        elif cargo < 3:
            v += pol.w[F_SAIL_CUBES] * island_cube_value(s, s.port_q[q]) / 10.0
        if s.hand[p] != 0 and q != PORT_T0 and q != PORT_T1:
            v += pol.w[F_SAIL_FIT] * fits_hand(c, s, p, s.port_q[q])
        return v
    if a >= A_LOAD and a < A_EXCAVATE:
        k = a - A_LOAD
        for col in range(4):
            v += c.load_c[k][col] * MARKET[s.out[col] - 1]
        return pol.w[F_LOAD_VALUE] * v
    if a >= A_EXCAVATE and a < A_BUY:
        card = (a - A_EXCAVATE) >> 2
        return pol.w[F_EXCAVATE_POINTS] * c.card_points[card]
    if a >= A_BUY and a < A_ORACLE:
        k = a - A_BUY
        n = 0
        for i in range(NCARD):
            n += (s.hand[p] >> i) & 1
        if n >= 2 or s.drachmas[p] - PURCHASE[c.buy_n[k]] < 2:
            return -5.0          # keep money for the excavation cost
        return pol.w[F_BUY] * c.buy_n[k] + pol.w[F_BUY_HARD] * (c.buy_d[k][1] + c.buy_d[k][2]) \
            - 0.5 * PURCHASE[c.buy_n[k]]
    if a >= A_ORACLE and a < A_SELL:
        return pol.w[F_ORACLE]
    if a >= A_SELL and a < A_UNLOAD:
        col = a - A_SELL
        return pol.w[F_SELL_VALUE] * MARKET[s.out[col] - 1]
    return -3.0          # unload


cdef int choose_action(const ACfg* c, const AState* s, const Policy* pol, uint64_t* prng,
                       const int16_t* buf, int n) noexcept nogil:
    cdef int i, best = 0
    cdef double v, bv
    if pol.kind == POL_RANDOM or (pol.eps > 0 and rng_uniform(prng) < pol.eps):
        return buf[rng_below(prng, n)]
    bv = -1e300
    for i in range(n):
        v = action_value(c, s, pol, buf[i]) + 1e-6 * rng_uniform(prng)
        if v > bv:
            bv = v
            best = i
    return buf[best]
