# Built-in policies (included into _engine.pyx): uniform random and the
# feature-weighted heuristic.
#
# The heuristic scores every legal action as w . F(action), F the features of
# simcore/hellas/features.py (same order as the F_* enum below), and plays the
# best one; ties and noise (epsilon-random, softmax temperature) come from the
# policy stream. Everything is computed from a per-decision context (the
# seat's groups, active quarries, ...) with deltas per action, no copies of the
# state; fields with nothing interesting next to them ("plain" fields) share
# one score per land kind. Only public information is read: never s.stack.
# The policy draws from prng only inside choose_action, which the kernel calls
# only when n >= 2, identically in play_batch and play_actions.

cdef enum:
    F_MARBLE_GAIN = 0
    F_MARBLE_INCOME = 1
    F_COST = 2
    F_MARBLE_SCORE = 3
    F_PIECE = 4
    F_CONNECT = 5
    F_CITY_GROWTH = 6
    F_CITY_POINTS = 7
    F_TEMPLE_REACH = 8
    F_MONUMENT_REACH = 9
    F_TEMPLE_COLUMNS = 10
    F_MONUMENT_VALUE = 11
    F_RINGS = 12
    F_DENY_FIELD = 13
    F_DENY_QUARRY = 14
    F_OPPONENT_GAIN = 15
    F_TEMPLE_FIRST = 16
    F_SPACE_VALUE = 17
    NF = 18
    MAXG = 24           # groups of one seat (at most 18 pieces)

C_FEATURES = ("marble_gain", "marble_income", "cost", "marble_score", "piece", "connect",
              "city_growth", "city_points", "temple_reach", "monument_reach", "temple_columns",
              "monument_value", "rings", "deny_field", "deny_quarry", "opponent_gain",
              "temple_first", "space_value")

ctypedef struct Policy:
    int kind            # 0 uniform random, 1 heuristic
    double w[NF]
    double temperature
    double epsilon

ctypedef struct PCtx:
    int p
    int last_round
    int marble
    double qa_left      # quarry actions still to come
    int nq
    int qf[MAXQF]       # active quarry fields
    double qv[MAXQF]    # their yield x age discount
    double max_tile
    u128 qmask
    u128 tmask
    u128 opp_own
    u128 interesting    # a field next to none of these is "plain"
    u128 near           # fields next to own pieces, active quarries, temples or monuments
    int ng
    u128 gmask[MAXG]
    u128 gadj[MAXG]
    int gsize[MAXG]
    uint8_t ghouse[MAXG]
    uint8_t gpalace[MAXG]
    uint8_t gcity[MAXG]
    double gpts[MAXG]   # monument + temple points of a city group now
    int largest


cdef void load_policy(Policy* pol, obj) except *:
    memset(pol, 0, sizeof(Policy))
    if obj is None:
        pol.kind = 0
        return
    vec = np.asarray(obj, dtype=np.float64).reshape(-1)
    if vec.shape[0] != NF + 2:
        raise ValueError(f"a Hellas policy vector has {NF + 2} numbers ({NF} weights, temperature, "
                         f"epsilon), not {vec.shape[0]}; build it with simcore.hellas.policy_vector")
    if not np.all(np.isfinite(vec)):
        raise ValueError("policy vector has a non-finite number")
    pol.kind = 1
    for i in range(NF):
        pol.w[i] = vec[i]
    pol.temperature = vec[NF]
    pol.epsilon = vec[NF + 1]


# ---------------------------------------------------------------- context

cdef inline double adj_points(const HCfg* c, const HState* s, u128 adj) noexcept nogil:
    # monument and temple points of a city whose neighbourhood is adj
    cdef double pts = 3 * popcount128(adj & s.monuments)
    cdef int t
    for t in range(c.n_temples):
        if has128(adj, c.temple_field[t]):
            pts += s.temple_cols[t]
    return pts


cdef inline double quarry_value(const PCtx* x, int top, const HCfg* c) noexcept nogil:
    # expected yield of one quarry action; the highest quarries close first
    return c.yield_of[top] * (1.0 - top / (2.0 * x.max_tile))


cdef void make_ctx(const HCfg* c, const HState* s, PCtx* x) noexcept nogil:
    cdef int p = s.current, i, f, o, nqs = 0, unused = 0, mt = 1
    cdef u128 remaining, group, adj
    x.p = p
    x.last_round = s.round >= 2
    x.marble = s.marble[p]
    for i in range(c.n_spaces):
        if c.space_kind[i] == SK_QUARRY:
            nqs += 1
            if not (s.spaces_used >> i) & 1:
                unused += 1
    x.qa_left = unused + nqs * (2 - s.round)
    for i in range(c.n_tiles):
        if c.tiles[i] > mt:
            mt = c.tiles[i]
    x.max_tile = mt
    x.nq = 0
    x.qmask = 0
    for i in range(c.n_quarry_fields):
        f = c.quarry_field[i]
        if s.quarry_status[f] == Q_ACTIVE:
            x.qf[x.nq] = f
            x.qv[x.nq] = quarry_value(x, s.quarry_top[f], c)
            x.qmask |= bit128(f)
            x.nq += 1
    x.tmask = 0
    for i in range(c.n_temples):
        x.tmask |= bit128(c.temple_field[i])
    x.opp_own = 0
    for o in range(s.n_players):
        if o != p:
            x.opp_own |= s.own[o]
    x.interesting = s.occupied | x.tmask | x.qmask
    x.near = 0
    for i in range(x.nq):
        x.near |= c.nbr[x.qf[i]]
    for i in range(c.n_temples):
        x.near |= c.nbr[c.temple_field[i]]
    remaining = s.monuments
    while remaining:
        x.near |= c.nbr[ctz128(remaining)]
        remaining &= remaining - 1
    x.ng = 0
    x.largest = 0
    if s.phase == PH_QUARRY_PLACE or s.phase == PH_WORKER_MOVE:
        return      # these decisions need no groups
    remaining = s.own[p]
    while remaining and x.ng < MAXG:
        group = flood_group(c, s, p, ctz128(remaining), &adj)
        remaining &= ~group
        i = x.ng
        x.gmask[i] = group
        x.gadj[i] = adj
        x.gsize[i] = popcount128(group)
        x.ghouse[i] = (group & s.houses[p]) != 0
        x.gpalace[i] = (group & s.palaces[p]) != 0
        x.gcity[i] = x.ghouse[i] and x.gpalace[i]
        x.gpts[i] = adj_points(c, s, adj) if x.gcity[i] else 0.0
        x.near |= adj
        if x.gcity[i] and x.gsize[i] > x.largest:
            x.largest = x.gsize[i]
        x.ng += 1


cdef inline double marble_score_delta(const PCtx* x, int delta) noexcept nogil:
    if not x.last_round:
        return 0.0
    return <double>((x.marble + delta) // 5 - x.marble // 5)


cdef inline double dot(const Policy* pol, const double* F) noexcept nogil:
    cdef double v = 0.0
    cdef int i
    for i in range(NF):
        v += pol.w[i] * F[i]
    return v


# ---------------------------------------------------------------- features per action

cdef void build_features(const HCfg* c, const HState* s, const PCtx* x, int phase, int f,
                         double* F) noexcept nogil:
    # a house, agora or palace on field f (phase PH_BUILD_*)
    cdef int p = x.p, g, t, size = 1, hh, pp, city, i
    cdef int cost = build_cost(c, phase, f)
    cdef u128 nb = c.nbr[f], own_nb, madj, oldadj = 0, fresh
    cdef double oldpts = 0.0, inc = 0.0, factor
    memset(F, 0, NF * sizeof(double))
    F[F_COST] = cost
    F[F_MARBLE_SCORE] = marble_score_delta(x, -cost)
    F[F_PIECE] = 1.0
    if not (nb & x.interesting):
        return
    own_nb = nb & s.own[p]
    F[F_CONNECT] = popcount128(own_nb)
    F[F_DENY_FIELD] = popcount128(nb & x.opp_own)
    if nb & x.qmask:
        for i in range(x.nq):
            if has128(nb, x.qf[i]):
                inc += x.qv[i]
        if phase == PH_BUILD_HOUSE:
            F[F_MARBLE_INCOME] = inc * x.qa_left
        F[F_DENY_QUARRY] = inc * x.qa_left
    hh = phase == PH_BUILD_HOUSE
    pp = phase == PH_BUILD_PALACE
    madj = nb
    if own_nb:
        for g in range(x.ng):
            if x.gmask[g] & own_nb:
                size += x.gsize[g]
                hh |= x.ghouse[g]
                pp |= x.gpalace[g]
                madj |= x.gadj[g]
                oldadj |= x.gadj[g]
                oldpts += x.gpts[g]
    city = hh and pp
    if city:
        F[F_CITY_POINTS] = adj_points(c, s, madj) - oldpts
        if size > x.largest:
            F[F_CITY_GROWTH] = size - x.largest
    fresh = madj & ~oldadj
    if fresh & x.tmask:
        factor = 1.0 if city else 0.5
        for t in range(c.n_temples):
            if has128(fresh, c.temple_field[t]):
                F[F_TEMPLE_REACH] += factor * (c.temple_size[t] - s.temple_cols[t])
    if not city:
        F[F_MONUMENT_REACH] = popcount128(fresh & s.monuments)


cdef void monument_features(const HCfg* c, const HState* s, const PCtx* x, int f,
                            double* F) noexcept nogil:
    cdef int p = x.p, g, o
    cdef u128 nb = c.nbr[f], own_nb
    memset(F, 0, NF * sizeof(double))
    F[F_COST] = c.cost_monument
    F[F_MARBLE_SCORE] = marble_score_delta(x, -c.cost_monument)
    if not (nb & s.occupied):
        return
    own_nb = nb & s.own[p]
    if own_nb:
        for g in range(x.ng):
            if x.gmask[g] & own_nb:
                F[F_MONUMENT_VALUE] += 3.0 if x.gcity[g] else 1.5
    for o in range(s.n_players):
        if o != p and (nb & s.own[o]):
            F[F_OPPONENT_GAIN] += 3.0
    F[F_DENY_FIELD] = popcount128(nb & x.opp_own)


cdef inline int ring_points(const HCfg* c, const HState* s, int p, int r) noexcept nogil:
    cdef int o, most = 0
    for o in range(s.n_players):
        if o != p and s.rings[o] > most:
            most = s.rings[o]
    return 2 * r + (3 if r >= most and (r > 0 or c.ring_bonus_all_tied) else 0)


cdef void temple_coefs(const HCfg* c, const HState* s, const PCtx* x, double* mine, double* opp) noexcept nogil:
    cdef int t, g, o, tf
    for t in range(c.n_temples):
        tf = c.temple_field[t]
        mine[t] = 0.0
        opp[t] = 0.0
        for g in range(x.ng):
            if has128(x.gadj[g], tf):
                mine[t] += 1.0 if x.gcity[g] else 0.5
        for o in range(s.n_players):
            if o != x.p and (c.nbr[tf] & s.own[o]):
                opp[t] += 1.0


cdef void split_features(const HCfg* c, const HState* s, const PCtx* x, int space, int k,
                         const double* mine, const double* opp, double* F) noexcept nogil:
    cdef int cols = c.space_columns[space], t, v, rings = 1
    cdef int cost = c.space_cost[space]
    memset(F, 0, NF * sizeof(double))
    F[F_COST] = cost
    F[F_MARBLE_SCORE] = marble_score_delta(x, -cost)
    for t in range(c.n_temples):
        v = c.splits[cols][k][t]
        if v:
            F[F_TEMPLE_COLUMNS] += v * mine[t]
            F[F_OPPONENT_GAIN] += v * opp[t]
            if s.temple_cols[t] + v == c.temple_size[t]:
                rings += 1
    if rings > s.supply_rings:
        rings = s.supply_rings
    F[F_RINGS] = ring_points(c, s, x.p, s.rings[x.p] + rings) - ring_points(c, s, x.p, s.rings[x.p])


cdef inline int seat_income(const HCfg* c, const HState* s, const PCtx* x, int o) noexcept nogil:
    # the quarry income seat o would get now (H-D12 "each"; "once" is approximated by it)
    cdef int i, inc = 0
    for i in range(x.nq):
        inc += popcount128(s.houses[o] & c.nbr[x.qf[i]]) * c.yield_of[s.quarry_top[x.qf[i]]]
    return inc


# ---------------------------------------------------------------- fast scores (= w . features)
#
# The decision loop does not build feature vectors: these functions add up
# the same terms weighted directly (test_strategies checks they agree with the
# *_features functions above, which are the documented definition).

cdef inline double build_base(const HCfg* c, const PCtx* x, const Policy* pol, int phase, int land) noexcept nogil:
    # the score of a plain field (nothing interesting next to it)
    cdef int cost
    if phase == PH_BUILD_HOUSE:
        cost = c.cost_house[land]
    elif phase == PH_BUILD_AGORA:
        cost = c.cost_agora[land]
    else:
        cost = c.cost_palace[land]
    return pol.w[F_COST] * cost + pol.w[F_MARBLE_SCORE] * marble_score_delta(x, -cost) + pol.w[F_PIECE]


cdef inline double build_score(const HCfg* c, const HState* s, const PCtx* x, const Policy* pol,
                               int phase, int f, double base) noexcept nogil:
    cdef int g, t, size = 1, hh, pp, city, i
    cdef u128 nb = c.nbr[f], own_nb, madj, oldadj = 0, fresh
    cdef double v = base, oldpts = 0.0, inc = 0.0, factor, reach
    if not (nb & x.interesting):
        return v
    own_nb = nb & s.own[x.p]
    v += pol.w[F_CONNECT] * popcount128(own_nb) + pol.w[F_DENY_FIELD] * popcount128(nb & x.opp_own)
    if nb & x.qmask:
        for i in range(x.nq):
            if has128(nb, x.qf[i]):
                inc += x.qv[i]
        inc *= x.qa_left
        v += pol.w[F_DENY_QUARRY] * inc
        if phase == PH_BUILD_HOUSE:
            v += pol.w[F_MARBLE_INCOME] * inc
    hh = phase == PH_BUILD_HOUSE
    pp = phase == PH_BUILD_PALACE
    madj = nb
    if own_nb:
        for g in range(x.ng):
            if x.gmask[g] & own_nb:
                size += x.gsize[g]
                hh |= x.ghouse[g]
                pp |= x.gpalace[g]
                madj |= x.gadj[g]
                oldadj |= x.gadj[g]
                oldpts += x.gpts[g]
    city = hh and pp
    if city:
        v += pol.w[F_CITY_POINTS] * (adj_points(c, s, madj) - oldpts)
        if size > x.largest:
            v += pol.w[F_CITY_GROWTH] * (size - x.largest)
    fresh = madj & ~oldadj
    if fresh & x.tmask:
        factor = 1.0 if city else 0.5
        reach = 0.0
        for t in range(c.n_temples):
            if has128(fresh, c.temple_field[t]):
                reach += factor * (c.temple_size[t] - s.temple_cols[t])
        v += pol.w[F_TEMPLE_REACH] * reach
    if not city and (fresh & s.monuments):
        v += pol.w[F_MONUMENT_REACH] * popcount128(fresh & s.monuments)
    return v


cdef inline void split_terms(const HCfg* c, const HState* s, const PCtx* x, const Policy* pol, int space,
                             double* a, double* ring_value, double* base) noexcept nogil:
    # a split's score = base + sum_t x_t a_t + ring_value[completions]
    cdef double mine[MAXT]
    cdef double opp[MAXT]
    cdef int t, k, rings, cost = c.space_cost[space]
    temple_coefs(c, s, x, mine, opp)
    for t in range(c.n_temples):
        a[t] = pol.w[F_TEMPLE_COLUMNS] * mine[t] + pol.w[F_OPPONENT_GAIN] * opp[t]
    for k in range(MAXT + 1):
        rings = 1 + k
        if rings > s.supply_rings:
            rings = s.supply_rings
        ring_value[k] = pol.w[F_RINGS] * (ring_points(c, s, x.p, s.rings[x.p] + rings)
                                          - ring_points(c, s, x.p, s.rings[x.p]))
    base[0] = pol.w[F_COST] * cost + pol.w[F_MARBLE_SCORE] * marble_score_delta(x, -cost)


cdef inline double split_score(const HCfg* c, const HState* s, int cols, int k, const double* a,
                               const double* ring_value, double base) noexcept nogil:
    cdef int t, v, comp = 0
    cdef double sc = base
    for t in range(c.n_temples):
        v = c.splits[cols][k][t]
        if v:
            sc += v * a[t]
            if s.temple_cols[t] + v == c.temple_size[t]:
                comp += 1
    return sc + ring_value[comp]


# ---------------------------------------------------------------- best follow-ups (choose_space)

cdef double best_build(const HCfg* c, const HState* s, const PCtx* x, const Policy* pol,
                       int phase) noexcept nogil:
    # the best weighted score of a house/agora/palace the seat could build now (0 = pass)
    cdef double best = 0.0, v
    cdef double base[2]
    cdef int f, left, have_plain = 0
    cdef u128 fields, avail
    cdef const int* cost
    if phase == PH_BUILD_HOUSE:
        left = s.n_houses[x.p] < c.max_house
        cost = c.cost_house
    elif phase == PH_BUILD_AGORA:
        left = s.n_agoras[x.p] < c.max_agora
        cost = c.cost_agora
    else:
        left = s.n_palaces[x.p] < c.max_palace
        cost = c.cost_palace
    if not left:
        return 0.0
    base[0] = build_base(c, x, pol, phase, 0)
    base[1] = build_base(c, x, pol, phase, 1)
    avail = 0
    if x.marble >= cost[0]:
        avail |= c.building & c.coast
    if x.marble >= cost[1]:
        avail |= c.building & ~c.coast
    avail &= ~s.occupied
    fields = avail & x.near
    if avail & ~x.near & c.coast and base[0] > best:
        best = base[0]
    if avail & ~x.near & ~c.coast and base[1] > best:
        best = base[1]
    while fields:
        f = ctz128(fields)
        fields &= fields - 1
        v = build_score(c, s, x, pol, phase, f, base[land_kind(c, f)])
        if v > best:
            best = v
    return best


cdef double best_monument(const HCfg* c, const HState* s, const PCtx* x, const Policy* pol) noexcept nogil:
    cdef double best = 0.0, v
    cdef double F[NF]
    cdef int f, plain_done = 0
    cdef u128 fields
    if s.supply_monuments <= 0 or x.marble < c.cost_monument:
        return 0.0
    fields = c.inland_building & ~s.occupied
    while fields:
        f = ctz128(fields)
        fields &= fields - 1
        if not (c.nbr[f] & s.occupied):
            if plain_done:
                continue
            plain_done = 1
        monument_features(c, s, x, f, F)
        v = dot(pol, F)
        if v > best:
            best = v
    return best


cdef double best_split(const HCfg* c, const HState* s, const PCtx* x, const Policy* pol,
                       int space) noexcept nogil:
    # greedy estimate for choose_space: columns into the temples of highest value first
    cdef double a[MAXT]
    cdef double ring_value[MAXT + 1]
    cdef double base, v
    cdef int cols = c.space_columns[space], left, t, u, bt, comp = 0, room
    cdef int used[MAXT]
    if x.marble < c.space_cost[space] or s.supply_columns < cols or temple_free(c, s) < cols:
        return 0.0
    split_terms(c, s, x, pol, space, a, ring_value, &base)
    v = base
    left = cols
    for t in range(c.n_temples):
        used[t] = 0
    while left > 0:
        bt = -1
        for t in range(c.n_temples):
            if not used[t] and c.temple_size[t] > s.temple_cols[t] and (bt < 0 or a[t] > a[bt]):
                bt = t
        if bt < 0:
            break
        used[bt] = 1
        room = c.temple_size[bt] - s.temple_cols[bt]
        u = room if room < left else left
        v += u * a[bt]
        if u == room:
            comp += 1
        left -= u
    v += ring_value[comp]
    return v if v > 0.0 else 0.0


cdef void action_features(const HCfg* c, const HState* s, const PCtx* x, const Policy* pol,
                          int a, double* F, double* cache) noexcept nogil:
    """Features of legal action a. cache: per-decision values reused across actions
    (choose_space best follow-ups; NaN-free INFINITY = not computed yet)."""
    cdef int ph = s.phase, f = a - A_FIELD, kind, o, myh, opph, i
    cdef double dv, mine[MAXT], opp[MAXT]
    if ph == PH_BUILD_HOUSE or ph == PH_BUILD_AGORA or ph == PH_BUILD_PALACE:
        if a == A_PASS:
            memset(F, 0, NF * sizeof(double))
        else:
            build_features(c, s, x, ph, f, F)
        return
    memset(F, 0, NF * sizeof(double))
    if a == A_PASS:
        return
    if ph == PH_CHOOSE:
        kind = c.space_kind[a]
        if kind == SK_HOUSE or kind == SK_HOUSE_OR_AGORA:
            if cache[0] == INFINITY:
                cache[0] = best_build(c, s, x, pol, PH_BUILD_HOUSE)
            F[F_SPACE_VALUE] = cache[0]
            if kind == SK_HOUSE_OR_AGORA:
                if cache[1] == INFINITY:
                    cache[1] = best_build(c, s, x, pol, PH_BUILD_AGORA)
                F[F_SPACE_VALUE] += cache[1]
        elif kind == SK_PALACE:
            if cache[2] == INFINITY:
                cache[2] = best_build(c, s, x, pol, PH_BUILD_PALACE)
            F[F_SPACE_VALUE] = cache[2]
        elif kind == SK_MONUMENT:
            if cache[3] == INFINITY:
                cache[3] = best_monument(c, s, x, pol)
            F[F_SPACE_VALUE] = cache[3]
        elif kind == SK_TEMPLE:
            F[F_TEMPLE_FIRST] = 1.0 if (s.temple_marker < 0 and not x.last_round) else 0.0
            F[F_SPACE_VALUE] = best_split(c, s, x, pol, a)
        elif kind == SK_QUARRY:
            if cache[4] == INFINITY:
                cache[4] = seat_income(c, s, x, x.p)
                cache[5] = 0.0
                for o in range(s.n_players):
                    if o != x.p:
                        cache[5] += seat_income(c, s, x, o)
            F[F_MARBLE_GAIN] = cache[4]
            F[F_MARBLE_SCORE] = marble_score_delta(x, <int>cache[4])
            F[F_DENY_QUARRY] = -cache[5]
        else:
            F[F_MARBLE_GAIN] = c.space_marble[a]
            F[F_MARBLE_SCORE] = marble_score_delta(x, c.space_marble[a])
    elif ph == PH_MONUMENT:
        monument_features(c, s, x, f, F)
    elif ph == PH_TEMPLE:
        temple_coefs(c, s, x, mine, opp)
        split_features(c, s, x, s.space, a - A_SPLIT, mine, opp, F)
    elif ph == PH_QUARRY_PLACE or ph == PH_WORKER_MOVE:
        myh = popcount128(s.houses[x.p] & c.nbr[f])
        opph = 0
        for o in range(s.n_players):
            if o != x.p:
                opph += popcount128(s.houses[o] & c.nbr[f])
        if ph == PH_QUARRY_PLACE:
            dv = quarry_value(x, s.tile, c) - quarry_value(x, s.quarry_top[f], c)
        else:
            dv = 0.5      # a future quarry here, opened by a low tile (yield about 1)
        F[F_MARBLE_INCOME] = myh * dv * x.qa_left
        F[F_DENY_QUARRY] = -opph * dv * x.qa_left


cdef void score_actions(const HCfg* c, const HState* s, const Policy* pol, const PCtx* x,
                        const int16_t* buf, int n, double* sc) noexcept nogil:
    cdef double F[NF]
    cdef double cache[6]
    cdef double base[2]
    cdef double a[MAXT]
    cdef double ring_value[MAXT + 1]
    cdef double tbase
    cdef int i, act, cols, ph = s.phase
    if ph == PH_BUILD_HOUSE or ph == PH_BUILD_AGORA or ph == PH_BUILD_PALACE:
        base[0] = build_base(c, x, pol, ph, 0)
        base[1] = build_base(c, x, pol, ph, 1)
        for i in range(n):
            act = buf[i]
            if act == A_PASS:
                sc[i] = 0.0
            else:
                sc[i] = build_score(c, s, x, pol, ph, act - A_FIELD, base[land_kind(c, act - A_FIELD)])
        return
    if ph == PH_TEMPLE:
        split_terms(c, s, x, pol, s.space, a, ring_value, &tbase)
        cols = c.space_columns[s.space]
        for i in range(n):
            act = buf[i]
            sc[i] = 0.0 if act == A_PASS else split_score(c, s, cols, act - A_SPLIT, a, ring_value, tbase)
        return
    for i in range(6):
        cache[i] = INFINITY
    for i in range(n):
        action_features(c, s, x, pol, buf[i], F, cache)
        sc[i] = dot(pol, F)


cdef int select_action(const Policy* pol, uint64_t* prng, const int16_t* buf, const double* sc,
                       int n) noexcept nogil:
    cdef int i, nt = 0
    cdef int ties[MAXLEGAL]
    cdef double best = -INFINITY, total, u
    cdef double wts[MAXLEGAL]
    if pol.epsilon > 0.0 and rng_uniform(prng) < pol.epsilon:
        return buf[rng_below(prng, n)]
    for i in range(n):
        if sc[i] > best:
            best = sc[i]
    if pol.temperature > 0.0:
        total = 0.0
        for i in range(n):
            wts[i] = exp((sc[i] - best) / pol.temperature)
            total += wts[i]
        u = rng_uniform(prng) * total
        for i in range(n):
            u -= wts[i]
            if u < 0.0:
                return buf[i]
        return buf[n - 1]
    for i in range(n):
        if sc[i] >= best - 1e-9:
            ties[nt] = i
            nt += 1
    if nt == 1:
        return buf[ties[0]]
    return buf[ties[rng_below(prng, nt)]]


cdef int choose_action(const HCfg* c, const HState* s, const Policy* pol, uint64_t* prng,
                       const int16_t* buf, int n) noexcept nogil:
    cdef PCtx x
    cdef double sc[MAXLEGAL]
    if pol.kind == 0:
        return buf[rng_below(prng, n)]
    make_ctx(c, s, &x)
    score_actions(c, s, pol, &x, buf, n, sc)
    return select_action(pol, prng, buf, sc, n)
