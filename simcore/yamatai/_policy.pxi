# Built-in policies of the Yamatai kernel (included by _engine.pyx): uniformly
# random, and the feature-weighted heuristic.
#
# The heuristic scores every legal action as w . F(action), F the features of
# simcore/yamatai/features.py (same order as the F_* enum below), and plays the
# best one (the first among equals); epsilon-random and softmax noise come from
# the policy stream, which is drawn from only in choose_action (n >= 2), the
# same in play_batch and play_actions. Only public information is read: never
# s.deck, s.spec_deck or the face-down fleets (Y-D38).

cdef enum:
    F_FLEET_BOATS = 0
    F_FLEET_GOLD = 1
    F_FLEET_EARLY = 2
    F_FLEET_ABILITY = 3
    F_COINS = 4
    F_HAND_BOATS = 5
    F_PLACE = 6
    F_PLACE_TOKENS = 7
    F_PLACE_FIT = 8
    F_BUILD_PP = 9
    F_PP_TOKENS = 10
    F_GROUP = 11
    F_COLLECT = 12
    F_TOKEN_SET = 13
    F_RECRUIT_PP = 14
    F_SPEC_VALUE = 15
    F_KEEP = 16
    F_SET_ASIDE = 17
    F_RESERVE = 18
    F_PASS = 19
    NF = 20

C_FEATURES = ("fleet_boats", "fleet_gold", "fleet_early", "fleet_ability", "coins", "hand_boats",
              "place", "place_tokens", "place_fit", "build_pp", "pp_tokens", "group", "collect",
              "token_set", "recruit_pp", "specialist_value", "keep", "set_aside", "reserve", "pass")

# designed value of each specialist's ability (0-3), by id
cdef double SPEC_VALUE[NSPEC]
for _k, _v in enumerate((3.0, 1.0, 1.5, 1.0, 1.0, 1.0, 1.0, 0.5, 1.5, 1.5, 1.5, 1.0, 2.0, 1.0, 1.5, 1.5, 1.0, 0.0)):
    SPEC_VALUE[_k] = _v

ctypedef struct Policy:
    int kind            # 0 = uniformly random legal action, 1 = heuristic
    double w[NF]
    double temperature
    double epsilon


cdef void load_policy(Policy* pol, obj) except *:
    memset(pol, 0, sizeof(Policy))
    if obj is None:
        pol.kind = 0
        return
    vec = np.asarray(obj, dtype=np.float64).reshape(-1)
    if vec.shape[0] != NF + 2:
        raise ValueError(f"a Yamatai policy vector has {NF + 2} numbers ({NF} weights, temperature, "
                         f"epsilon), not {vec.shape[0]}; build it with simcore.yamatai.policy_vector")
    if not np.all(np.isfinite(vec)):
        raise ValueError("policy vector has a non-finite number")
    pol.kind = 1
    for i in range(NF):
        pol.w[i] = vec[i]
    pol.temperature = vec[NF]
    pol.epsilon = vec[NF + 1]


cdef inline double boat_weight(int col) noexcept nogil:
    return 2.0 if col == 4 else 1.0


cdef double place_fit(const YCfg* c, const YState* s, int p, int sp, int col) noexcept nogil:
    cdef uint64_t isl = c.sea_island[sp]
    cdef uint32_t tiles = s.reserved[p] & ~s.reserved_now
    cdef uint32_t m
    cdef int i, k, t, cc, missing
    cdef int have[NCOL]
    cdef double best = 0.0, v
    for k in range(5):
        if s.row[k] >= 0:
            tiles |= (<uint32_t>1) << s.row[k]
    while isl:
        i = __builtin_ctzll(isl)
        isl &= isl - 1
        if not island_empty(s, i):
            continue
        for cc in range(NCOL):
            have[cc] = popcount128(c.island_sea[i] & s.boat[cc])
        have[col] += 1
        m = tiles
        while m:
            t = __builtin_ctz(m)
            m &= m - 1
            if c.tile_kind[t] == 0 and s.pieces[p] == 0:
                continue
            missing = 0
            for cc in range(NCOL):
                if c.tile_boats[t][cc] > have[cc]:
                    missing += c.tile_boats[t][cc] - have[cc]
            v = c.tile_pp[t] / (1.0 + missing)
            if v > best:
                best = v
    return best / 5.0


cdef void build_features(const YCfg* c, const YState* s, int p, int t, int i, double* F) noexcept nogil:
    cdef uint64_t m, mine, seen
    cdef int j, prestige = 0, g, n
    m = c.island_nbr[i]
    while m:
        j = __builtin_ctzll(m)
        m &= m - 1
        if s.building[j] == B_TORII or s.building[j] == B_PALACE:
            prestige += 1
    mine = own_buildings(c, s, p)
    F[F_BUILD_PP] = c.tile_pp[t]
    if ananda_toll(c, s, i, p) >= 0:
        F[F_COINS] -= 2
    if c.tile_kind[t] == 0:
        F[F_PP_TOKENS] = prestige + <int>((s.mountain >> i) & 1)
        if owns(s, SP_KAGUTSUCHI, p) and (c.island_nbr[i] & mine) == 0:
            F[F_PP_TOKENS] += 1
        g = __builtin_popcountll(group_of(c, mine, i))
        if g >= 2:
            F[F_GROUP] = g
            F[F_COINS] += g * (2 if c.tile_tp[t] else 1)
    elif owns(s, SP_AWASHIMA, p):
        F[F_PP_TOKENS] = prestige + <int>((s.mountain >> i) & 1)
        seen = 0
        m = c.island_nbr[i] & mine
        while m:
            j = __builtin_ctzll(m)
            m &= m - 1
            if not ((seen >> j) & 1):
                seen |= group_of(c, mine, j)
        n = 1 + __builtin_popcountll(seen)
        if n >= 2:
            F[F_COINS] += n


cdef void action_features(const YCfg* c, const YState* s, int a, double* F) noexcept nogil:
    cdef int st = s.stage, p = me(s), col, k, i, sp, slot, spec, have, n, coins, iz
    cdef uint64_t isl
    memset(F, 0, NF * sizeof(double))
    if a == A_PASS:
        F[F_PASS] = 1.0
        if st == ST_PORT:
            n = 0
            for col in range(NCOL):
                n += s.hand[col]
            F[F_SET_ASIDE] = (s.set_aside[p] + n) // 2 - s.set_aside[p] // 2
        return
    if st == ST_FLEET:
        for col in range(NCOL):
            if c.fleet_boats[a][col] and s.supply[col] >= c.fleet_boats[a][col]:
                F[F_FLEET_BOATS] += c.fleet_boats[a][col]
                if col == 4:
                    F[F_FLEET_GOLD] += 1
        F[F_FLEET_EARLY] = (11 - a) / 10.0
        if a == 10:
            F[F_FLEET_BOATS] += 1
        elif a >= 2:
            F[F_FLEET_ABILITY] = 1.0
        return
    if A_TAKE <= a < A_BUY:
        F[F_FLEET_BOATS] = 1.0
        F[F_FLEET_GOLD] = 1.0 if a - A_TAKE == 4 else 0.0
        F[F_HAND_BOATS] = boat_weight(a - A_TAKE)
    elif A_BUY <= a < A_SELL:
        F[F_COINS] = -buy_price(c, a - A_BUY)
        F[F_HAND_BOATS] = boat_weight(a - A_BUY)
    elif A_SELL <= a < A_KEEP:
        F[F_COINS] = sell_price(c, s, a - A_SELL, p)
        F[F_HAND_BOATS] = -boat_weight(a - A_SELL)
    elif A_KEEP <= a < A_RESERVE:
        F[F_KEEP] = boat_weight(a - A_KEEP)
    elif A_RESERVE <= a < A_ARRANGE:
        F[F_RESERVE] = c.tile_pp[s.row[a - A_RESERVE]] / 5.0
    elif A_RAIJIN <= a < A_NAKATSU:
        F[F_HAND_BOATS] = 2.0 - boat_weight((a - A_RAIJIN) // 5) - boat_weight((a - A_RAIJIN) % 5)
    elif A_MICHIMATA <= a < A_HETSUKA:
        F[F_HAND_BOATS] = 2.0
        F[F_TOKEN_SET] = -0.5
    elif A_HETSUKA <= a < A_HETSUKA + 6:
        F[F_COINS] = 4.0
        F[F_TOKEN_SET] = -0.5
    elif A_RECRUIT <= a < A_COLLECT:
        slot = (a - A_RECRUIT) // 26
        spec = s.slots[slot]
        coins = s.slot_coins[slot]
        iz = s.spec_owner[SP_IZANAMI]
        if iz >= 0 and iz != p:
            coins -= coins // 2
        F[F_RECRUIT_PP] = c.spec_pp[spec]
        F[F_SPEC_VALUE] = SPEC_VALUE[spec]
        F[F_COINS] = coins
    elif A_COLLECT <= a < A_SACRED:
        i = (a - A_COLLECT) if a < A_EBISU else (a - A_EBISU)
        have = s.tokens[p][s.token[i]]
        F[F_COLLECT] = 1.0
        F[F_TOKEN_SET] = 1.0 if have % 2 == 1 else (0.5 if have == 0 else 0.0)
    elif A_KACHIKO <= a < A_REMOVE:
        F[F_COINS] = -2.0
    elif A_PLACE <= a < A_BUILD:
        sp = (a - A_PLACE) // 5
        col = (a - A_PLACE) % 5
        F[F_PLACE] = 1.0
        isl = c.sea_island[sp]
        while isl:
            i = __builtin_ctzll(isl)
            isl &= isl - 1
            if s.token[i] >= 0:
                F[F_PLACE_TOKENS] += 1
        F[F_PLACE_FIT] = place_fit(c, s, p, sp, col)
    elif A_BUILD <= a < A_SWAPTOK:
        build_features(c, s, p, (a - A_BUILD) >> 6, (a - A_BUILD) & 63, F)


cdef inline bint zero_features(int a) noexcept nogil:
    """Actions whose features are all 0 (fleet 3, 4, 5, 6, 7, 8 abilities): score 0 without work."""
    return (a >= A_SWAPTOK or (A_SACRED <= a < A_KACHIKO) or (A_REMOVE <= a < A_PLACE)
            or (A_ARRANGE <= a < A_RAIJIN))


cdef int choose_action(const YCfg* c, const YState* s, const Policy* pol, uint64_t* prng,
                       const int32_t* buf, int n) noexcept nogil:
    cdef double F[NF]
    cdef double sc, best, total, r
    cdef int i, k, arg = 0
    cdef double scores[MAXLEGAL]
    if pol.kind == 0:
        return buf[rng_below(prng, n)]
    if pol.epsilon > 0.0 and rng_uniform(prng) < pol.epsilon:
        return buf[rng_below(prng, n)]
    best = -1e300
    for i in range(n):
        if zero_features(buf[i]):
            sc = 0.0
        else:
            action_features(c, s, buf[i], F)
            sc = 0.0
            for k in range(NF):
                sc += pol.w[k] * F[k]
        scores[i] = sc
        if sc > best:
            best = sc
            arg = i
    if pol.temperature <= 0.0:
        return buf[arg]
    total = 0.0
    for i in range(n):
        scores[i] = exp((scores[i] - best) / pol.temperature)
        total += scores[i]
    r = rng_uniform(prng) * total
    for i in range(n):
        r -= scores[i]
        if r < 0.0:
            return buf[i]
    return buf[arg]


def policy_features(State st, int action):
    """The heuristic's feature values of ``action`` in position ``st`` (``FEATURES`` order)."""
    cdef double F[NF]
    action_features(&st.cc.c, &st.s, action, F)
    return [float(F[k]) for k in range(NF)]
