# Built-in policies of the Yamatai kernel (included by _engine.pyx): uniformly
# random, and the feature-weighted heuristic.
#
# The heuristic scores every legal action as w . F(action), F the features of
# simcore/yamatai/features.py (same order as the F_* enum below), and plays the
# best one (the first among equals); epsilon-random and softmax noise come from
# the policy stream, which is drawn from only in choose_action (n >= 2), the
# same in play_batch and play_actions. Only public information is read: never
# s.deck (except the tiles fleet 3 lets its owner peek at), s.spec_deck or the
# face-down fleets (Y-D38). Each action sets only a few features; the score
# sums w[k] * F[k] over those, in feature order, which is the full dot product
# exactly (the terms left out are w[k] * 0).

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
    F_FLEET_FIT = 20
    F_TRADE_FIT = 21
    F_PRESTIGE_ADJ = 22
    F_MOUNTAIN = 23
    F_ABILITY_BUILD = 24
    F_ABILITY_TOKENS = 25
    F_TOKEN_SWAP = 26
    F_DENY = 27
    F_PEEK_TOP = 28
    NF = 29

C_FEATURES = ("fleet_boats", "fleet_gold", "fleet_early", "fleet_ability", "coins", "hand_boats",
              "place", "place_tokens", "place_fit", "build_pp", "pp_tokens", "group", "collect",
              "token_set", "recruit_pp", "specialist_value", "keep", "set_aside", "reserve", "pass",
              "fleet_fit", "trade_fit", "prestige_adjacent", "mountain", "ability_build", "ability_tokens",
              "token_swap", "deny", "peek_top")

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


# boats a hand or an island lacks for each visible tile, two tiles at a time with SSE2: per byte
# max(0, need - have) (saturating subtract), then the sum of each tile's 8 bytes (psadbw). need
# holds one tile per 64-bit word (one byte per colour, <= 4), with a zero word after the last
# when the count is odd; have < 128 per byte. Same values as boats_missing.
cdef extern from *:
    """
    #if defined(__SSE2__) && !defined(BOARDLAB_SCALAR)
    #include <emmintrin.h>
    static inline void yam_missing(const uint64_t* need, int nt, uint64_t have, uint8_t* out) {
        __m128i h = _mm_set1_epi64x((long long)have), z = _mm_setzero_si128();
        for (int k = 0; k < nt; k += 2) {
            __m128i d = _mm_subs_epu8(_mm_loadu_si128((const __m128i*)(need + k)), h);
            __m128i sm = _mm_sad_epu8(d, z);
            out[k] = (uint8_t)_mm_cvtsi128_si32(sm);
            out[k + 1] = (uint8_t)_mm_extract_epi16(sm, 4);
        }
    }
    #else
    static inline void yam_missing(const uint64_t* need, int nt, uint64_t have, uint8_t* out) {
        for (int k = 0; k < nt; k++) {
            uint64_t d = (need[k] | 0x8080808080ULL) - have, sel = d & 0x8080808080ULL;
            d &= sel - (sel >> 7);
            out[k] = (uint8_t)(((d * 0x0101010101ULL) >> 32) & 0xFF);
        }
    }
    #endif
    """
    void yam_missing(const uint64_t* need, int nt, uint64_t have, uint8_t* out) noexcept nogil


cdef inline double boat_weight(int col) noexcept nogil:
    return 2.0 if col == 4 else 1.0


# ---------------------------------------------------------------- per-decision caches
#
# Everything below is a pure function of the position, cached for one decision
# (one choose_action call, or one policy_features call) so that the many legal
# actions of a window share the work. NOCOL stands for "no boat" in (rem, add).

cdef enum:
    NOCOL = 5
    CX_TILES = 8                  # p, allow, tiles, max_pp (all hand_fit needs)
    CX_BASE = 9                   # includes CX_TILES
    CX_ABILITY = 11               # includes CX_BASE
    CX_SWAP = 15                  # includes CX_ABILITY

ctypedef struct Ctx:
    int ready                     # CX_* bits filled
    int p
    int allow                     # boats a build may lack (1 with fleet 9)
    uint32_t tiles                # tiles p may build: row + own earlier reservations (pieces checked)
    int max_pp                    # the best PP among them
    int nt                        # the same tiles as a list, ascending: their need, PP and fit row
    uint64_t t_need[MAXTILES + 1]  # (a zero word after the last: yam_missing reads pairs)
    int t_pp[MAXTILES]
    const double* t_fit[MAXTILES]
    uint64_t empty                # empty islands (no token, building or sacred site)
    uint64_t have_done
    uint64_t have[MAXISL]         # boats next to each island, one byte per colour
    uint64_t memo_done[NOCOL + 1][NOCOL + 1]
    double fit[NOCOL + 1][NOCOL + 1][MAXISL]   # [rem][add][island]: best tile PP / (1 + boats missing)
    int8_t bv[NOCOL + 1][NOCOL + 1][MAXISL]    # [rem][add][island]: best PP buildable (missing <= allow)
    # ability baseline (windows)
    u128 marked
    uint64_t adj                  # islands next to a marked boat
    uint64_t tok                  # islands holding a culture token
    uint64_t okisl                # empty islands p may build on (Ananda's toll payable)
    int nmarked
    int tokens_now                # tokens collectable now (at most one per marked boat, no matching)
    int best_now                  # best PP buildable now
    uint64_t hope                 # okisl islands a one-boat change could make beat best_now
    double hand_fit_now           # hand_fit of the hand as it is (allow as discount), filled lazily
    bint hand_fit_done
    # fleet 8 (swaps), stage post
    int8_t col_at[MAXSEA]         # boat colour per sea space, -1 empty
    int8_t sflag[MAXSEA]          # per sea space: 1 marked, 2 in gset
    u128 gset                     # spaces whose boat, recoloured, lets a candidate island beat best_now
    uint64_t gm[MAXSEA][NCOL]     # for those: the islands that improve, by the new colour
    u128 gcol[NCOL]               # the spaces r of gset with gm[r][b] != 0, by the new colour b
    uint64_t adjwo[MAXSEA]        # for a marked space: the islands next to the other marked boats (best_swap)


cdef inline uint64_t sign_bits(uint64_t w) noexcept nogil:
    """Bit k = the sign bit of byte k of w."""
    return ((w & <uint64_t>0x8080808080808080) * <uint64_t>0x0002040810204081) >> 56


cdef void ctx_tiles(const YCfg* c, const YState* s, Ctx* x) noexcept nogil:
    cdef int p = me(s), k, t
    cdef uint32_t m
    x.ready |= 8
    x.p = p
    x.allow = 1 if s.fleet == 9 else 0
    m = s.reserved[p] & ~s.reserved_now
    for k in range(5):
        if s.row[k] >= 0:
            m |= (<uint32_t>1) << s.row[k]
    x.tiles = 0
    x.max_pp = 0
    x.nt = 0
    while m:
        t = __builtin_ctz(m)
        m &= m - 1
        if c.tile_kind[t] == 0 and s.pieces[p] == 0:
            continue
        x.tiles |= (<uint32_t>1) << t
        x.t_need[x.nt] = c.tile_need[t]
        x.t_pp[x.nt] = c.tile_pp[t]
        x.t_fit[x.nt] = &c.tile_fit[t][0]
        x.nt += 1
        if c.tile_pp[t] > x.max_pp:
            x.max_pp = c.tile_pp[t]
    x.t_need[x.nt] = 0
    x.hand_fit_done = False


cdef void ctx_base(const YCfg* c, const YState* s, Ctx* x) noexcept nogil:
    cdef int i
    cdef uint64_t wt, wb, empty, notok
    x.ready |= 1
    # empty islands and islands holding a token, 8 islands a word: no token and no building are the
    # int8 values -1, i.e. the sign bits (the arrays are MAXISL long, zero past n_islands)
    empty = 0
    notok = 0
    for i in range(0, c.n_islands, 8):
        memcpy(&wt, &s.token[i], 8)
        memcpy(&wb, &s.building[i], 8)
        notok |= sign_bits(wt) << i
        empty |= sign_bits(wt & wb) << i
    x.tok = ~notok & c.all_isl
    x.empty = empty & ~s.sacred & c.all_isl
    x.have_done = 0
    memset(x.memo_done, 0, sizeof(x.memo_done))


cdef inline uint64_t have_of(const YCfg* c, const YState* s, Ctx* x, int i) noexcept nogil:
    """The boats next to island i, one byte per colour (cached)."""
    cdef int col
    cdef int h[NCOL]
    if not ((x.have_done >> i) & 1):
        for col in range(NCOL):
            h[col] = popcount128(c.island_sea[i] & s.boat[col])
        x.have[i] = pack_boats(h)
        x.have_done |= (<uint64_t>1) << i
    return x.have[i]


cdef void island_memo(const YCfg* c, const YState* s, Ctx* x, int i, int rem, int add) noexcept nogil:
    """Fill fit and bv of island i with its boats minus ``rem`` plus ``add`` (NOCOL: none)."""
    cdef int k, missing, bvv = 0, allow = x.allow
    cdef uint64_t hp
    cdef double best = 0.0, v
    cdef uint8_t miss[MAXTILES + 1]
    hp = have_of(c, s, x, i)
    if rem < NOCOL:
        hp -= (<uint64_t>1) << (8 * rem)
    if add < NOCOL:
        hp += (<uint64_t>1) << (8 * add)
    yam_missing(x.t_need, x.nt, hp, miss)
    for k in range(x.nt):
        missing = miss[k]
        v = x.t_fit[k][missing]             # = tile_pp / (1.0 + missing)
        if v > best:
            best = v
        if missing <= allow and x.t_pp[k] > bvv:
            bvv = x.t_pp[k]
    x.fit[rem][add][i] = best
    x.bv[rem][add][i] = bvv
    x.memo_done[rem][add] |= (<uint64_t>1) << i


cdef inline double fit_of(const YCfg* c, const YState* s, Ctx* x, int i, int rem, int add) noexcept nogil:
    if not ((x.memo_done[rem][add] >> i) & 1):
        island_memo(c, s, x, i, rem, add)
    return x.fit[rem][add][i]


cdef inline int bv_of(const YCfg* c, const YState* s, Ctx* x, int i, int rem, int add) noexcept nogil:
    if not ((x.memo_done[rem][add] >> i) & 1):
        island_memo(c, s, x, i, rem, add)
    return x.bv[rem][add][i]


cdef void ctx_ability(const YCfg* c, const YState* s, Ctx* x) noexcept nogil:
    cdef int i, t, p = x.p
    cdef uint64_t m
    x.ready |= 2
    x.marked = s.marked
    x.nmarked = popcount128(s.marked)
    x.adj = islands_by_marked(c, s)
    x.tokens_now = __builtin_popcountll(x.tok & x.adj)
    if x.tokens_now > x.nmarked:
        x.tokens_now = x.nmarked
    x.okisl = 0
    m = x.empty
    while m:
        i = __builtin_ctzll(m)
        m &= m - 1
        if s.coins[p] < 2 and ananda_toll(c, s, i, p) >= 0:
            continue
        x.okisl |= (<uint64_t>1) << i
    x.best_now = 0
    m = x.okisl & x.adj
    while m:
        i = __builtin_ctzll(m)
        m &= m - 1
        if bv_of(c, s, x, i, NOCOL, NOCOL) > x.best_now:
            x.best_now = bv_of(c, s, x, i, NOCOL, NOCOL)
    # islands where one boat more (and one other less) could beat best_now: a tile better than it
    # lacks at most allow + 1 boats; moving boats (fleets 4, 8) changes an island by at most that
    x.hope = x.okisl
    if (s.fleet == 4 or s.fleet == 8) and x.max_pp > x.best_now:
        x.hope = 0
        m = x.okisl
        while m:
            i = __builtin_ctzll(m)
            m &= m - 1
            for t in range(x.nt):
                if x.t_pp[t] > x.best_now and boats_missing(x.t_need[t], have_of(c, s, x, i)) <= x.allow + 1:
                    x.hope |= (<uint64_t>1) << i
                    break


cdef void ctx_swap(const YCfg* c, const YState* s, Ctx* x) noexcept nogil:
    cdef int col, r, b, i
    cdef u128 m, near = 0
    cdef uint64_t cand = x.okisl & x.adj & x.hope, im, g
    x.ready |= 4
    memset(x.col_at, -1, sizeof(x.col_at))
    memset(x.sflag, 0, sizeof(x.sflag))
    m = s.marked
    while m:
        x.sflag[ctz128(m)] = 1
        m &= m - 1
    for col in range(NCOL):
        m = s.boat[col]
        while m:
            x.col_at[ctz128(m)] = col
            m &= m - 1
    x.gset = 0
    for b in range(NCOL):
        x.gcol[b] = 0
    if x.max_pp <= x.best_now:
        return
    im = cand
    while im:
        near |= c.island_sea[__builtin_ctzll(im)]
        im &= im - 1
    m = near & s.occ
    while m:
        r = ctz128(m)
        m &= m - 1
        g = 0
        for b in range(NCOL):
            x.gm[r][b] = 0
            if b == x.col_at[r]:
                continue
            im = c.sea_island[r] & cand
            while im:
                i = __builtin_ctzll(im)
                im &= im - 1
                if bv_of(c, s, x, i, x.col_at[r], b) > x.best_now:
                    x.gm[r][b] |= (<uint64_t>1) << i
            if x.gm[r][b]:
                x.gcol[b] |= bit128(r)
            g |= x.gm[r][b]
        if g:
            x.gset |= bit128(r)
            x.sflag[r] |= 2


cdef void ctx_fill(const YCfg* c, const YState* s, Ctx* x, int what) noexcept nogil:
    if not (x.ready & 8):
        ctx_tiles(c, s, x)
    if (what & 1) and not (x.ready & 1):
        ctx_base(c, s, x)
    if (what & 2) and not (x.ready & 2):
        ctx_ability(c, s, x)
    if (what & 4) and not (x.ready & 4):
        ctx_swap(c, s, x)


cdef inline void ready(const YCfg* c, const YState* s, Ctx* x, int what) noexcept nogil:
    if (x.ready & what) != what:
        ctx_fill(c, s, x, what)


cdef uint32_t boat_change(const YCfg* c, const YState* s, Ctx* x, int s1, int old1, int new1, bint mk1,
                          int s2, int old2, int new2, bint mk2, double* F) noexcept nogil:
    """ability_build / ability_tokens of moving boats: space s1 (and s2 >= 0) gets colour new (-1 none)
    and the "placed this turn" mark mk. Only islands next to s1 or s2 can change, so the best build
    improves exactly when one of them (a candidate afterwards) beats the best build now."""
    cdef u128 mk = x.marked & ~bit128(s1)
    cdef uint64_t adj = 0, chg, near1, near2 = 0
    cdef int i, best = 0, v, rem, add, r1, r2, a1, a2, tokens
    cdef uint32_t mask = 0
    cdef u128 m
    if mk1:
        mk |= bit128(s1)
    if s2 >= 0:
        mk &= ~bit128(s2)
        if mk2:
            mk |= bit128(s2)
        near2 = c.sea_island[s2]
    near1 = c.sea_island[s1]
    if mk == x.marked:
        adj = x.adj
    else:
        m = mk
        while m:
            adj |= c.sea_island[ctz128(m)]
            m &= m - 1
        tokens = __builtin_popcountll(x.tok & adj)
        if tokens > popcount128(mk):
            tokens = popcount128(mk)
        if tokens > x.tokens_now:
            F[F_ABILITY_TOKENS] = tokens - x.tokens_now
            mask |= (<uint32_t>1) << F_ABILITY_TOKENS
    if x.max_pp <= x.best_now:
        return mask
    chg = (near1 | near2) & x.hope & adj
    while chg:
        i = __builtin_ctzll(chg)
        chg &= chg - 1
        r1 = a1 = r2 = a2 = -1
        if (near1 >> i) & 1:
            r1 = old1
            a1 = new1
        if (near2 >> i) & 1:
            r2 = old2
            a2 = new2
        # cancel a colour both removed and added (a swap or slide within the island's waters)
        if r1 >= 0 and r1 == a2:
            r1 = a2 = -1
        if r2 >= 0 and r2 == a1:
            r2 = a1 = -1
        if r1 >= 0 and r1 == a1:
            r1 = a1 = -1
        if r2 >= 0 and r2 == a2:
            r2 = a2 = -1
        # at most one boat leaves and one arrives (two moved spaces; a swap inside cancels)
        rem = r1 if r1 >= 0 else (r2 if r2 >= 0 else NOCOL)
        add = a1 if a1 >= 0 else (a2 if a2 >= 0 else NOCOL)
        v = bv_of(c, s, x, i, rem, add)
        if v > best:
            best = v
    if best > x.best_now:
        F[F_ABILITY_BUILD] = best
        mask |= (<uint32_t>1) << F_ABILITY_BUILD
    return mask


cdef double hand_fit(const YCfg* c, Ctx* x, const int* hand, int discount) noexcept nogil:
    """Best visible tile PP / (1 + boats the hand lacks for it, less ``discount``), / 5."""
    cdef int k, missing, col
    cdef int h[NCOL]
    cdef uint64_t hp
    cdef double best = 0.0, v
    cdef uint8_t miss[MAXTILES + 1]
    for col in range(NCOL):
        h[col] = hand[col] if hand[col] < 100 else 100
    hp = pack_boats(h)
    yam_missing(x.t_need, x.nt, hp, miss)
    for k in range(x.nt):
        missing = miss[k] - discount
        if missing < 0:
            missing = 0
        v = x.t_fit[k][missing]             # = tile_pp / (1.0 + missing)
        if v > best:
            best = v
    return best / 5.0


cdef inline double token_value(const YState* s, int p, int k) noexcept nogil:
    """token_set of taking a token of type k: completes a pair 1, a new type 0.5, else 0."""
    cdef int have = s.tokens[p][k]
    return 1.0 if have % 2 == 1 else (0.5 if have == 0 else 0.0)


# ---------------------------------------------------------------- features

cdef uint32_t build_features(const YCfg* c, const YState* s, int p, int t, int i, double* F) noexcept nogil:
    cdef uint64_t m, mine, seen
    cdef int j, prestige = 0, g, n, mountain
    cdef double coins = 0.0
    cdef uint32_t mask = ((<uint32_t>1) << F_BUILD_PP)
    m = c.island_nbr[i]
    while m:
        j = __builtin_ctzll(m)
        m &= m - 1
        if s.building[j] == B_TORII or s.building[j] == B_PALACE:
            prestige += 1
    mountain = <int>((s.mountain >> i) & 1)
    mine = own_buildings(c, s, p)
    F[F_BUILD_PP] = c.tile_pp[t]
    if ananda_toll(c, s, i, p) >= 0:
        coins -= 2
    if c.tile_kind[t] == 0:
        F[F_PP_TOKENS] = prestige + mountain
        if owns(s, SP_KAGUTSUCHI, p) and (c.island_nbr[i] & mine) == 0:
            F[F_PP_TOKENS] += 1
        F[F_PRESTIGE_ADJ] = prestige
        F[F_MOUNTAIN] = mountain
        mask |= ((<uint32_t>1) << F_PP_TOKENS) | ((<uint32_t>1) << F_PRESTIGE_ADJ) | ((<uint32_t>1) << F_MOUNTAIN)
        g = __builtin_popcountll(group_of(c, mine, i))
        if g >= 2:
            F[F_GROUP] = g
            mask |= (<uint32_t>1) << F_GROUP
            coins += g * (2 if c.tile_tp[t] else 1)
    elif owns(s, SP_AWASHIMA, p):
        F[F_PP_TOKENS] = prestige + mountain
        F[F_PRESTIGE_ADJ] = prestige
        F[F_MOUNTAIN] = mountain
        mask |= ((<uint32_t>1) << F_PP_TOKENS) | ((<uint32_t>1) << F_PRESTIGE_ADJ) | ((<uint32_t>1) << F_MOUNTAIN)
        seen = 0
        m = c.island_nbr[i] & mine
        while m:
            j = __builtin_ctzll(m)
            m &= m - 1
            if not ((seen >> j) & 1):
                seen |= group_of(c, mine, j)
        n = 1 + __builtin_popcountll(seen)
        if n >= 2:
            coins += n
    if coins != 0.0:
        F[F_COINS] = coins
        mask |= (<uint32_t>1) << F_COINS
    return mask


cdef uint32_t action_features(const YCfg* c, const YState* s, Ctx* x, int a, double* F) noexcept nogil:
    """The features of action ``a``: sets F[k] for the bits k of the returned mask (the others are 0)."""
    cdef int st = s.stage, p = me(s), col, k, i, j, sp, t, slot, spec, n, coins, iz, cs, ct, cut, kk
    cdef uint64_t isl
    cdef uint32_t mask = 0
    cdef int hand[NCOL]
    cdef double v, best
    if a == A_PASS:
        F[F_PASS] = 1.0
        mask = (<uint32_t>1) << F_PASS
        if st == ST_PORT:
            n = 0
            for col in range(NCOL):
                n += s.hand[col]
            F[F_SET_ASIDE] = (s.set_aside[p] + n) // 2 - s.set_aside[p] // 2
            mask |= (<uint32_t>1) << F_SET_ASIDE
        return mask
    if A_PLACE <= a < A_BUILD:
        sp = (a - A_PLACE) // 5
        col = (a - A_PLACE) % 5
        F[F_PLACE] = 1.0
        ready(c, s, x, CX_BASE)
        F[F_PLACE_TOKENS] = __builtin_popcountll(c.sea_island[sp] & x.tok)    # islands with a token
        best = 0.0
        isl = c.sea_island[sp] & x.empty
        while isl:
            i = __builtin_ctzll(isl)
            isl &= isl - 1
            v = fit_of(c, s, x, i, NOCOL, col)
            if v > best:
                best = v
        F[F_PLACE_FIT] = best / 5.0
        return ((<uint32_t>1) << F_PLACE) | ((<uint32_t>1) << F_PLACE_TOKENS) | ((<uint32_t>1) << F_PLACE_FIT)
    if st == ST_FLEET:
        F[F_FLEET_BOATS] = 0.0
        F[F_FLEET_GOLD] = 0.0
        for col in range(NCOL):
            hand[col] = s.hand[col]
            if c.fleet_boats[a][col] and s.supply[col] >= c.fleet_boats[a][col]:
                F[F_FLEET_BOATS] += c.fleet_boats[a][col]
                hand[col] += c.fleet_boats[a][col]
                if col == 4:
                    F[F_FLEET_GOLD] += 1
        F[F_FLEET_EARLY] = (11 - a) / 10.0
        mask = ((<uint32_t>1) << F_FLEET_BOATS) | ((<uint32_t>1) << F_FLEET_GOLD) | ((<uint32_t>1) << F_FLEET_EARLY) | ((<uint32_t>1) << F_FLEET_FIT)
        if a == 10:
            F[F_FLEET_BOATS] += 1
        elif a >= 2:
            F[F_FLEET_ABILITY] = 1.0
            mask |= (<uint32_t>1) << F_FLEET_ABILITY
        ready(c, s, x, CX_TILES)
        F[F_FLEET_FIT] = hand_fit(c, x, hand, 1 if (a == 9 or a == 10) else 0)
        return mask
    if A_TAKE <= a < A_SELL + 5:
        # fleet 10's extra boat, buying or selling a boat: the hand's fit changes
        col = (a - A_TAKE) % 5
        for k in range(NCOL):
            hand[k] = s.hand[k]
        ready(c, s, x, CX_TILES)
        if not x.hand_fit_done:
            x.hand_fit_now = hand_fit(c, x, hand, x.allow)
            x.hand_fit_done = True
        v = x.hand_fit_now
        hand[col] += -1 if a >= A_SELL else 1
        F[F_TRADE_FIT] = hand_fit(c, x, hand, x.allow) - v
        mask = ((<uint32_t>1) << F_TRADE_FIT) | ((<uint32_t>1) << F_HAND_BOATS)
        if a < A_BUY:
            F[F_FLEET_BOATS] = 1.0
            F[F_FLEET_GOLD] = 1.0 if col == 4 else 0.0
            F[F_HAND_BOATS] = boat_weight(col)
            mask |= ((<uint32_t>1) << F_FLEET_BOATS) | ((<uint32_t>1) << F_FLEET_GOLD)
        elif a < A_SELL:
            F[F_COINS] = -buy_price(c, col)
            F[F_HAND_BOATS] = boat_weight(col)
            mask |= (<uint32_t>1) << F_COINS
        else:
            F[F_COINS] = sell_price(c, s, col, p)
            F[F_HAND_BOATS] = -boat_weight(col)
            mask |= (<uint32_t>1) << F_COINS
        return mask
    if A_KEEP <= a < A_RESERVE:
        F[F_KEEP] = boat_weight(a - A_KEEP)
        return (<uint32_t>1) << F_KEEP
    if A_RESERVE <= a < A_ARRANGE:
        F[F_RESERVE] = c.tile_pp[s.row[a - A_RESERVE]] / 5.0
        return (<uint32_t>1) << F_RESERVE
    if A_ARRANGE <= a < A_RAIJIN:
        # fleet 3: the tile left on top of the deck (its owner sees the peeked tiles, Y-D38)
        kk = s.n_deck if s.n_deck < 3 else 3
        if c.arr[kk][a - A_ARRANGE][0] == kk:
            return 0
        F[F_PEEK_TOP] = c.tile_pp[s.deck[c.arr[kk][a - A_ARRANGE][0]]] / 5.0
        return (<uint32_t>1) << F_PEEK_TOP
    if A_RAIJIN <= a < A_NAKATSU:
        F[F_HAND_BOATS] = 2.0 - boat_weight((a - A_RAIJIN) // 5) - boat_weight((a - A_RAIJIN) % 5)
        return (<uint32_t>1) << F_HAND_BOATS
    if A_NAKATSU <= a < A_MICHIMATA:
        return 0
    if A_MICHIMATA <= a < A_HETSUKA:
        F[F_HAND_BOATS] = 2.0
        F[F_TOKEN_SET] = -0.5
        return ((<uint32_t>1) << F_HAND_BOATS) | ((<uint32_t>1) << F_TOKEN_SET)
    if A_HETSUKA <= a < A_HETSUKA + 6:
        F[F_COINS] = 4.0
        F[F_TOKEN_SET] = -0.5
        return ((<uint32_t>1) << F_COINS) | ((<uint32_t>1) << F_TOKEN_SET)
    if A_RECRUIT <= a < A_COLLECT:
        slot = (a - A_RECRUIT) // 26
        spec = s.slots[slot]
        coins = s.slot_coins[slot]
        iz = s.spec_owner[SP_IZANAMI]
        if iz >= 0 and iz != p:
            coins -= coins // 2
        F[F_RECRUIT_PP] = c.spec_pp[spec]
        F[F_SPEC_VALUE] = SPEC_VALUE[spec]
        F[F_COINS] = coins
        return ((<uint32_t>1) << F_RECRUIT_PP) | ((<uint32_t>1) << F_SPEC_VALUE) | ((<uint32_t>1) << F_COINS)
    if A_COLLECT <= a < A_SACRED:
        i = (a - A_COLLECT) if a < A_EBISU else (a - A_EBISU)
        F[F_COLLECT] = 1.0
        F[F_TOKEN_SET] = token_value(s, p, s.token[i])
        return ((<uint32_t>1) << F_COLLECT) | ((<uint32_t>1) << F_TOKEN_SET)
    if A_SACRED <= a < A_KACHIKO:
        # fleet 5 after building: close the most promising empty island to everyone
        if st != ST_AFTER:
            return 0
        ready(c, s, x, CX_BASE)
        F[F_DENY] = fit_of(c, s, x, a - A_SACRED, NOCOL, NOCOL) / 5.0
        return (<uint32_t>1) << F_DENY
    if A_KACHIKO <= a < A_REMOVE:
        F[F_COINS] = -2.0
        return (<uint32_t>1) << F_COINS
    if A_REMOVE <= a < A_PLACE:
        # fleet 7 after building: take away boats the empty islands around need
        if not (st == ST_AFTER or (st == ST_REMOVE and s.return_stage == ST_AFTER)):
            return 0        # in post a removal never adds a build or a token
        sp = a - A_REMOVE
        cs = boat_at(s, sp)
        ready(c, s, x, CX_BASE)
        v = 0.0
        isl = c.sea_island[sp] & x.empty
        while isl:
            i = __builtin_ctzll(isl)
            isl &= isl - 1
            v += fit_of(c, s, x, i, NOCOL, NOCOL) - fit_of(c, s, x, i, cs, NOCOL)
        if v == 0.0:
            return 0
        F[F_DENY] = v / 5.0
        return (<uint32_t>1) << F_DENY
    if A_BUILD <= a < A_SWAPTOK:
        return build_features(c, s, p, (a - A_BUILD) >> 6, (a - A_BUILD) & 63, F)
    # fleets 6, 4 and 8 act (for the features) in post: after placing, before collecting/building
    if st != ST_POST:
        return 0
    ready(c, s, x, CX_ABILITY)
    if a < A_SLIDE:
        i = (a - A_SWAPTOK) >> 6
        j = (a - A_SWAPTOK) & 63
        if ((x.adj >> i) & 1) == ((x.adj >> j) & 1):
            return 0
        if (x.adj >> j) & 1:
            i, j = j, i
        # island i (next to this turn's boats) receives j's token
        v = token_value(s, p, s.token[j]) - token_value(s, p, s.token[i])
        if v == 0.0:
            return 0
        F[F_TOKEN_SWAP] = v
        return (<uint32_t>1) << F_TOKEN_SWAP
    if a < A_SWAPBOATS:
        sp = (a - A_SLIDE) >> 7
        t = (a - A_SLIDE) & 127
        cs = boat_at(s, sp)
        return boat_change(c, s, x, sp, cs, -1, False, t, -1, cs, has128(x.marked, sp), F)
    sp = (a - A_SWAPBOATS) >> 7
    t = (a - A_SWAPBOATS) & 127
    ready(c, s, x, CX_SWAP)
    cs = x.col_at[sp]
    ct = x.col_at[t]
    if has128(x.marked, sp) == has128(x.marked, t):
        # the marks stay: only a recoloured space next to a candidate island can help (an island
        # next to both spaces keeps its boats)
        if cs == ct:
            return 0
        isl = 0
        if has128(x.gset, sp):
            isl |= x.gm[sp][ct] & ~c.sea_island[t]
        if has128(x.gset, t):
            isl |= x.gm[t][cs] & ~c.sea_island[sp]
        if isl == 0:
            return 0
    return boat_change(c, s, x, sp, cs, ct, has128(x.marked, t), t, ct, cs, has128(x.marked, sp), F)


cdef inline bint swap_is_zero(const YCfg* c, const YState* s, Ctx* x, int a) noexcept nogil:
    """A quick test that SWAPBOATS ``a`` (stage post) has all features 0: the filter of its branch
    in action_features, without the call."""
    cdef int sp = (a - A_SWAPBOATS) >> 7, t = (a - A_SWAPBOATS) & 127, cs, ct
    cdef int fs, ft
    cdef uint64_t isl = 0
    ready(c, s, x, CX_SWAP)
    fs = x.sflag[sp]
    ft = x.sflag[t]
    if (fs ^ ft) & 1:
        return False
    if not ((fs | ft) & 2):
        return True
    cs = x.col_at[sp]
    ct = x.col_at[t]
    if cs == ct:
        return True
    if fs & 2:
        isl |= x.gm[sp][ct] & ~c.sea_island[t]
    if ft & 2:
        isl |= x.gm[t][cs] & ~c.sea_island[sp]
    return isl == 0


cdef inline bint quick_zero(const YCfg* c, const YState* s, Ctx* x, int a) noexcept nogil:
    """For a >= A_SACRED: True when the features of ``a`` are surely all 0 (tests of action_features)."""
    cdef int st = s.stage, i, j
    if a < A_KACHIKO:
        return st != ST_AFTER                               # SACRED
    if a < A_REMOVE:
        return False                                        # KACHIKO
    if a < A_PLACE:                                         # REMOVE
        return not (st == ST_AFTER or (st == ST_REMOVE and s.return_stage == ST_AFTER))
    if a < A_SWAPTOK:
        return False                                        # PLACE, BUILD
    if st != ST_POST:
        return True
    if a < A_SLIDE:                                         # SWAPTOK: one island next to the marks
        ready(c, s, x, CX_ABILITY)
        i = (a - A_SWAPTOK) >> 6
        j = (a - A_SWAPTOK) & 63
        return not (((x.adj >> i) ^ (x.adj >> j)) & 1)
    if a < A_SWAPBOATS:                                     # SLIDE sp t
        # an unmarked boat: the marks stay (no token change) and only an island next to t but not
        # to sp gains a boat; the others keep or lose boats, so none beats the best build now
        ready(c, s, x, CX_ABILITY)
        i = (a - A_SLIDE) >> 7
        j = (a - A_SLIDE) & 127
        if has128(x.marked, i):
            return False
        return x.max_pp <= x.best_now or (c.sea_island[j] & ~c.sea_island[i] & x.hope & x.adj) == 0
    return swap_is_zero(c, s, x, a)


cdef inline double fleet_score(const YCfg* c, const YState* s, Ctx* x, const Policy* pol, int a) noexcept nogil:
    """w . F of FLEET ``a`` without the call: action_features' ST_FLEET branch, summed in feature
    order (fleet_boats, fleet_gold and fleet_early always; fleet_ability for fleets 2-9; fleet_fit)."""
    cdef int col, k, boats = 0, gold = 0
    cdef int hand[NCOL]
    cdef double sc
    for col in range(NCOL):
        hand[col] = s.hand[col]
        k = c.fleet_boats[a][col]
        if k and s.supply[col] >= k:
            boats += k
            hand[col] += k
            if col == 4:
                gold += 1
    if a == 10:
        boats += 1
    ready(c, s, x, CX_TILES)
    sc = 0.0
    sc += pol.w[F_FLEET_BOATS] * <double>boats
    sc += pol.w[F_FLEET_GOLD] * <double>gold
    sc += pol.w[F_FLEET_EARLY] * ((11 - a) / 10.0)
    if 2 <= a <= 9:
        sc += pol.w[F_FLEET_ABILITY] * 1.0
    sc += pol.w[F_FLEET_FIT] * hand_fit(c, x, hand, 1 if (a == 9 or a == 10) else 0)
    return sc


cdef inline double trade_score(const YCfg* c, const YState* s, Ctx* x, const Policy* pol, int a) noexcept nogil:
    """w . F of TAKE, BUY or SELL ``a`` without the call: action_features' branch for them, summed
    in feature order (fleet_boats, fleet_gold for TAKE; coins for BUY, SELL; hand_boats; trade_fit)."""
    cdef int col = (a - A_TAKE) % 5, k
    cdef int hand[NCOL]
    cdef double sc, v
    for k in range(NCOL):
        hand[k] = s.hand[k]
    ready(c, s, x, CX_TILES)
    if not x.hand_fit_done:
        x.hand_fit_now = hand_fit(c, x, hand, x.allow)
        x.hand_fit_done = True
    v = x.hand_fit_now
    hand[col] += -1 if a >= A_SELL else 1
    sc = 0.0
    if a < A_BUY:
        sc += pol.w[F_FLEET_BOATS] * 1.0
        sc += pol.w[F_FLEET_GOLD] * (1.0 if col == 4 else 0.0)
        sc += pol.w[F_HAND_BOATS] * boat_weight(col)
    elif a < A_SELL:
        sc += pol.w[F_COINS] * <double>(-buy_price(c, col))
        sc += pol.w[F_HAND_BOATS] * boat_weight(col)
    else:
        sc += pol.w[F_COINS] * <double>sell_price(c, s, col, me(s))
        sc += pol.w[F_HAND_BOATS] * (-boat_weight(col))
    sc += pol.w[F_TRADE_FIT] * (hand_fit(c, x, hand, x.allow) - v)
    return sc


cdef inline double place_score(const YCfg* c, const YState* s, Ctx* x, const Policy* pol, int a) noexcept nogil:
    """w . F of PLACE ``a`` without the call: action_features' PLACE branch, summed in feature order."""
    cdef int sp = (a - A_PLACE) // 5, col = (a - A_PLACE) % 5, i
    cdef uint64_t isl
    cdef double best = 0.0, v, sc, tokens
    ready(c, s, x, CX_BASE)
    tokens = __builtin_popcountll(c.sea_island[sp] & x.tok)
    isl = c.sea_island[sp] & x.empty
    while isl:
        i = __builtin_ctzll(isl)
        isl &= isl - 1
        v = fit_of(c, s, x, i, NOCOL, col)
        if v > best:
            best = v
    sc = 0.0
    sc += pol.w[F_PLACE] * 1.0
    sc += pol.w[F_PLACE_TOKENS] * tokens
    sc += pol.w[F_PLACE_FIT] * (best / 5.0)
    return sc


cdef inline double remove_score(const YCfg* c, const YState* s, Ctx* x, const Policy* pol, int a) noexcept nogil:
    """w . F of REMOVE ``a`` without the call (action_features' REMOVE branch)."""
    cdef int sp = a - A_REMOVE, cs, i
    cdef uint64_t isl
    cdef double v = 0.0, sc
    if not (s.stage == ST_AFTER or (s.stage == ST_REMOVE and s.return_stage == ST_AFTER)):
        return 0.0
    ready(c, s, x, CX_BASE)
    isl = c.sea_island[sp] & x.empty
    if isl == 0:
        return 0.0
    cs = boat_at(s, sp)
    while isl:
        i = __builtin_ctzll(isl)
        isl &= isl - 1
        v += fit_of(c, s, x, i, NOCOL, NOCOL) - fit_of(c, s, x, i, cs, NOCOL)
    if v == 0.0:
        return 0.0
    sc = 0.0
    sc += pol.w[F_DENY] * (v / 5.0)
    return sc


cdef inline double swap_score(const YCfg* c, const YState* s, Ctx* x, const Policy* pol, int a) noexcept nogil:
    cdef double F[NF]
    cdef double sc = 0.0
    cdef uint32_t mask
    cdef int k
    cdef int sp = (a - A_SWAPBOATS) >> 7, t = (a - A_SWAPBOATS) & 127
    if swap_is_zero(c, s, x, a):
        return 0.0
    # action_features of a swap that passes the filter
    mask = boat_change(c, s, x, sp, x.col_at[sp], x.col_at[t], has128(x.marked, t), t, x.col_at[t],
                       x.col_at[sp], has128(x.marked, sp), F)
    while mask:
        k = __builtin_ctz(mask)
        mask &= mask - 1
        sc += pol.w[k] * F[k]
    return sc


cdef inline double moved_mark_score(const YCfg* c, const YState* s, Ctx* x, const Policy* pol,
                                    int sp, int t, int mk) noexcept nogil:
    """w . F of SWAPBOATS sp t (stage post) when exactly one of the two spaces, ``mk``, is marked:
    boat_change for that case (the mark moves to the other space, the colours swap), the same terms
    summed in feature order."""
    cdef int cs = x.col_at[sp], ct = x.col_at[t], tokens, i, best = 0, v
    cdef uint64_t adj, near1 = c.sea_island[sp], near2 = c.sea_island[t], chg
    cdef double sc = 0.0
    # the marks afterwards: the other marks and the unmarked space of the two
    adj = x.adjwo[mk] | (near2 if mk == sp else near1)
    tokens = __builtin_popcountll(x.tok & adj)
    if tokens > x.nmarked:
        tokens = x.nmarked
    if x.max_pp > x.best_now:
        chg = (near1 | near2) & x.hope & adj
        while chg:
            i = __builtin_ctzll(chg)
            chg &= chg - 1
            # an island next to both spaces, or a swap of equal colours, keeps its boats
            if cs == ct or ((near1 >> i) & (near2 >> i) & 1):
                v = bv_of(c, s, x, i, NOCOL, NOCOL)
            elif (near1 >> i) & 1:
                v = bv_of(c, s, x, i, cs, ct)
            else:
                v = bv_of(c, s, x, i, ct, cs)
            if v > best:
                best = v
        if best > x.best_now:
            sc += pol.w[F_ABILITY_BUILD] * best
    if tokens > x.tokens_now:
        sc += pol.w[F_ABILITY_TOKENS] * (tokens - x.tokens_now)
    return sc


cdef int best_swap(const YCfg* c, const YState* s, Ctx* x, const Policy* pol, double best, int arg) noexcept nogil:
    """The first best action of a greedy seat given the best before fleet 8's swaps (stage post):
    the swaps SWAPBOATS sp t, sp < t both occupied, in list order. While best < 0 every swap is
    scored; then only those with a flagged space (marked, or recolouring helps), the others are 0:
    a space sp with no flag, of colour b, with a marked space or one of gcol[b] (with t of gset,
    unmarked, swap_is_zero tests gm[t][b]). A swap moving a mark is scored by moved_mark_score."""
    cdef u128 occ = s.occ, rest, cand, m, m2
    cdef int sp, t, a, fs, ft
    cdef double sc
    cdef uint64_t adj
    # for each marked space, the islands next to the other marked boats
    m = x.marked
    while m:
        sp = ctz128(m)
        m &= m - 1
        adj = 0
        m2 = x.marked & ~bit128(sp)
        while m2:
            adj |= c.sea_island[ctz128(m2)]
            m2 &= m2 - 1
        x.adjwo[sp] = adj
    rest = occ
    while rest:
        sp = ctz128(rest)
        rest &= rest - 1
        cand = rest
        if best >= 0.0 and not (x.sflag[sp] & 3):
            cand &= x.marked | x.gcol[x.col_at[sp]]
        while cand:
            t = ctz128(cand)
            cand &= cand - 1
            a = A_SWAPBOATS + 128 * sp + t
            fs = x.sflag[sp]
            ft = x.sflag[t]
            if ((fs | ft) & 3) == 0:
                sc = 0.0
            elif (fs ^ ft) & 1:
                sc = moved_mark_score(c, s, x, pol, sp, t, sp if fs & 1 else t)
            else:
                sc = swap_score(c, s, x, pol, a)
            if sc > best:
                best = sc
                arg = a
    return arg


cdef int best_swaptok(const YCfg* c, const YState* s, Ctx* x, const Policy* pol, double best, int arg) noexcept nogil:
    """best_swap for fleet 6's SWAPTOK i j (i < j, both holding a token), stage post: a swap scores
    0 unless exactly one of the islands is next to this turn's boats."""
    cdef uint64_t rest = x.tok, cand
    cdef int i, j, a
    cdef double sc, v
    while rest:
        i = __builtin_ctzll(rest)
        rest &= rest - 1
        cand = rest
        if best >= 0.0:
            cand &= ~x.adj if (x.adj >> i) & 1 else x.adj
        while cand:
            j = __builtin_ctzll(cand)
            cand &= cand - 1
            a = A_SWAPTOK + 64 * i + j
            sc = 0.0
            if ((x.adj >> i) ^ (x.adj >> j)) & 1:
                # action_features: the island next to this turn's boats receives the other's token
                if (x.adj >> i) & 1:
                    v = token_value(s, x.p, s.token[j]) - token_value(s, x.p, s.token[i])
                else:
                    v = token_value(s, x.p, s.token[i]) - token_value(s, x.p, s.token[j])
                if v != 0.0:
                    sc += pol.w[F_TOKEN_SWAP] * v
            if sc > best:
                best = sc
                arg = a
    return arg


cdef int choose_action(const YCfg* c, const YState* s, const Policy* pol, uint64_t* prng,
                       const int32_t* buf, int n) noexcept nogil:
    cdef double F[NF]
    cdef double sc, best, total, r
    cdef int i, k, a, kk, arg = 0
    cdef uint32_t mask
    cdef double scores[MAXLEGAL]
    cdef Ctx x
    if pol.kind == 0:
        return buf[rng_below(prng, n)]
    if pol.epsilon > 0.0 and rng_uniform(prng) < pol.epsilon:
        return buf[rng_below(prng, n)]
    x.ready = 0
    best = -1e300
    kk = s.n_deck if s.n_deck < 3 else 3
    i = 0
    if buf[0] == A_PASS and s.stage != ST_PORT:
        # PASS (listed first) sets only F_PASS = 1 outside the port: no call
        sc = 0.0
        sc += pol.w[F_PASS] * 1.0
        scores[0] = sc
        if sc > best:
            best = sc
        i = 1
    while i < n:
        a = buf[i]
        if a >= A_SWAPTOK and s.stage != ST_POST:
            # fleets 4, 6, 8 outside post: all features 0, and so for every later action (sorted list)
            if pol.temperature <= 0.0:
                if best < 0.0:
                    arg = i
                break
            scores[i] = 0.0
            if best < 0.0:
                best = 0.0
                arg = i
            i += 1
            continue
        if a < A_SLIDE and a >= A_SWAPTOK and pol.temperature <= 0.0:
            # the rest of the list: fleet 6's token swaps in post, read from the position
            ready(c, s, &x, CX_ABILITY)
            return best_swaptok(c, s, &x, pol, best, buf[arg])
        if a >= A_SWAPBOATS:
            # the rest of the list: fleet 8's swaps in post; most move no mark and recolour nothing
            # next to a candidate island (flags 0): score 0 without a call
            ready(c, s, &x, CX_SWAP)
            if pol.temperature <= 0.0:
                # deterministic: the swaps are every pair of boats (read from the position, so the
                # list may stop after its first two, legal_actions_cut); a 0 never beats best >= 0
                return best_swap(c, s, &x, pol, best, buf[arg])
            while i < n:
                a = buf[i]
                if (((x.sflag[(a - A_SWAPBOATS) >> 7] | x.sflag[(a - A_SWAPBOATS) & 127]) & 3) == 0
                        or swap_is_zero(c, s, &x, a)):
                    sc = 0.0
                else:
                    mask = action_features(c, s, &x, a, F)
                    sc = 0.0
                    while mask:
                        k = __builtin_ctz(mask)
                        mask &= mask - 1
                        sc += pol.w[k] * F[k]
                scores[i] = sc
                if sc > best:
                    best = sc
                    arg = i
                i += 1
            break
        if A_PLACE <= a < A_BUILD:
            sc = place_score(c, s, &x, pol, a)
        elif s.stage == ST_FLEET:
            sc = fleet_score(c, s, &x, pol, a)
        elif A_REMOVE <= a < A_PLACE:
            sc = remove_score(c, s, &x, pol, a)
        elif A_TAKE <= a < A_KEEP:
            sc = trade_score(c, s, &x, pol, a)
        elif A_SACRED <= a < A_KACHIKO and s.stage == ST_AFTER:
            # fleet 5 after building (action_features: deny only)
            ready(c, s, &x, CX_BASE)
            sc = 0.0
            sc += pol.w[F_DENY] * (fit_of(c, s, &x, a - A_SACRED, NOCOL, NOCOL) / 5.0)
        elif a >= A_SACRED and quick_zero(c, s, &x, a):
            sc = 0.0
        elif (A_ARRANGE < a < A_RAIJIN and pol.temperature <= 0.0
                and c.arr[kk][a - A_ARRANGE][0] == c.arr[kk][a - 1 - A_ARRANGE][0]):
            # fleet 3: the same tile on top as the arrangement listed just before, the same score
            i += 1
            continue
        else:
            mask = action_features(c, s, &x, a, F)
            # the dot product over the features set, in feature order (the others are 0)
            sc = 0.0
            while mask:
                k = __builtin_ctz(mask)
                mask &= mask - 1
                sc += pol.w[k] * F[k]
        scores[i] = sc
        if sc > best:
            best = sc
            arg = i
        i += 1
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
