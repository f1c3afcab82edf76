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
#
# Legend: the names below are short because they are read in every hot loop.
#
#   Function families (one value, computed up to three ways; the tests check
#   policy_scores, the fast path, against policy_features @ weights, the plain one):
#     X            the plain computation from the state, as the features define it
#                  (best_build, best_monument, best_split, temple_coefs, split_terms,
#                  adj_points, build_base). policy_features uses these.
#     X_fast       the same number, taken from the seat's memo (PCtx) and tables instead
#                  of recomputing: what the decision loop calls (best_monument_fast,
#                  temple_coefs_fast, best_split_fast). group_add_fast is group_add's
#                  shortcut for the common case (returns 0 when it does not apply);
#                  best_builds is best_build for the three piece kinds in one pass.
#     X_memo       X kept in PCtx between the seat's decisions and recomputed only when
#                  what it reads changed (temple_coefs_memo into tc_mine/tc_opp,
#                  split_terms_memo into st_a/st_rv).
#     X_x          X computed from the context x (a PCtx) rather than from the state
#                  alone (adj_points_x, build_base_x).
#
#   Structs:
#     PCtx         per-seat decision context ("policy context"): the seat's groups,
#                  cached field values and snapshots; a pure memo (memo_check).
#     SMemo        the shared memo: the part of the context that is the same for every
#                  seat (config constants, the active quarries' values by field).
#     Geo          what a piece on a field does through the seat's own groups (geometry).
#     FillK        the constants of one field-fill loop ("fill constants"), kept in locals.
#     Slots        choose_space's score slots (one per kind of action space).
#
#   Fields and terms:
#     t1, t1_of    the neighbour term of a field: w_connect x own neighbours + w_deny_field
#                  x opponents' neighbours; t1_of[nbkey[f]] is field f's (nbkey: own x 9 +
#                  opponents' pieces next to f). t1_fresh recomputes them all.
#     cq[kind]     the weight of a field's quarry value for a house/agora/palace
#                  ("coefficient of quarry"): quarry actions left x (w_deny_quarry, plus
#                  w_marble_income for a house).
#     inc[f]       the quarry value of the active quarries next to field f (income).
#     qa_left      quarry actions still to come; qv, qval: quarry values (yield x discount).
#     xv[f][kind]  a field's weighted value per piece kind; ok: the fields where it holds.
#     gid, gmask, gadj, gsize, gpts, gap: the group table (group of each piece, its fields,
#                  the fields next to it, its size, its city points, points next to it).
#     tc_*         temple coefficients; st_*: split terms; sn_*: the snapshot make_ctx
#                  compares with; bb: build_base by kind and land; cg/cn: a field's group
#                  term with/without a city; hh/pp: the merged group has a house/palace.
#     sp_*         choose_space tables by action space; tnear/qnear: fields next to
#                  temples/active quarries; opp_near: next to opponents' pieces.

cdef extern from *:
    """
    /* one field's bit of a 128-bit mask through its 64-bit half (cheaper than a 128-bit shift) */
    static inline int hx_mask_has(unsigned __int128 m, int f) {
        uint64_t w = f < 64 ? (uint64_t)m : (uint64_t)(m >> 64);
        return (int)((w >> (f & 63)) & 1);
    }
    static inline void hx_mask_set(unsigned __int128* m, int f) {
        *m |= (unsigned __int128)((uint64_t)1 << (f & 63)) << (f & 64);
    }
    /* the lowest set bit of m (not 0) without a branch on which half holds it */
    static inline int hx_low_field(unsigned __int128 m) {
        uint64_t lo = (uint64_t)m;
        int a = __builtin_ctzll(lo | 0x8000000000000000ull);
        int b = __builtin_ctzll((uint64_t)(m >> 64) | 0x8000000000000000ull);
        return a + (-(int)(lo == 0) & (1 + b));
    }
    /* m[w] bit i: sc[64w + i] >= low, for the n scores (n <= 256; two a step, sixteen in a
       fixed count when n <= 16: sc[n..15], and sc[n] when n is odd, must hold -inf);
       returns how many */
    static inline int hx_tie_mask(const double* sc, int n, double low, uint64_t* m) {
        int i;
        m[0] = m[1] = m[2] = m[3] = 0;
    #if defined(__SSE2__) && !defined(BOARDLAB_SCALAR)
        const __m128d lv = _mm_set1_pd(low);
        if (n <= 16) {
            uint64_t w = 0;
    #define HX_T(i) w |= (uint64_t)_mm_movemask_pd(_mm_cmpge_pd(_mm_loadu_pd(sc + (i)), lv)) << (i);
            HX_T(0) HX_T(2) HX_T(4) HX_T(6) HX_T(8) HX_T(10) HX_T(12) HX_T(14)
    #undef HX_T
            m[0] = w;
            return __builtin_popcountll(w);
        }
        if (n <= 64) {
            uint64_t w = 0;
            for (i = 0; i < n; i += 2)
                w |= (uint64_t)_mm_movemask_pd(_mm_cmpge_pd(_mm_loadu_pd(sc + i), lv)) << i;
            m[0] = w;
            return __builtin_popcountll(w);
        }
        for (i = 0; i < n; i += 2)
            m[i >> 6] |= (uint64_t)_mm_movemask_pd(_mm_cmpge_pd(_mm_loadu_pd(sc + i), lv)) << (i & 63);
    #else
        for (i = 0; i < n; i++)
            m[i >> 6] |= (uint64_t)(sc[i] >= low) << (i & 63);
    #endif
        return __builtin_popcountll(m[0]) + __builtin_popcountll(m[1])
               + __builtin_popcountll(m[2]) + __builtin_popcountll(m[3]);
    }
    /* a[0..n-1] == b[0..n-1] and c[0..n-1] == d[0..n-1] (n <= 128; arrays of 128 bytes,
       compared past n too: five 16-byte steps for up to 80 fields, else eight; a byte
       past n only ever differs when the copy below was not made) */
    static inline int hx_same_q(const uint8_t* a, const uint8_t* b, const uint8_t* c,
                                const uint8_t* d, int n) {
    #if defined(__SSE2__) && !defined(BOARDLAB_SCALAR)
        __m128i acc = _mm_setzero_si128();
    #define HX_L(p) _mm_loadu_si128((const __m128i*)(p))
    #define HX_D(i) acc = _mm_or_si128(acc, _mm_or_si128(_mm_xor_si128(HX_L(a + (i)), HX_L(b + (i))), \
                                                        _mm_xor_si128(HX_L(c + (i)), HX_L(d + (i)))));
        HX_D(0) HX_D(16) HX_D(32) HX_D(48) HX_D(64)
        if (n > 80) { HX_D(80) HX_D(96) HX_D(112) }
    #undef HX_D
    #undef HX_L
        return _mm_movemask_epi8(_mm_cmpeq_epi8(acc, _mm_setzero_si128())) == 0xffff;
    #else
        return memcmp(a, b, n > 80 ? 128 : 80) == 0 && memcmp(c, d, n > 80 ? 128 : 80) == 0;
    #endif
    }
    /* dst = src over the bytes hx_same_q compares */
    static inline void hx_copy_q(uint8_t* dst, const uint8_t* src, int n) {
        if (n > 80)
            memcpy(dst, src, 128);
        else
            memcpy(dst, src, 80);
    }
    static inline int hx_low64(uint64_t w) {
        /* the lowest set bit of w, 127 (NOFIELD) when w is 0, without a branch */
        return __builtin_ctzll(w | 0x8000000000000000ull) + ((int)(w == 0) << 6);
    }
    """
    int mask_has "hx_mask_has" (u128 m, int f) nogil
    void mask_set "hx_mask_set" (u128* m, int f) nogil
    int low_field "hx_low_field" (u128 m) nogil
    int tie_mask "hx_tie_mask" (const double* sc, int n, double low, uint64_t* m) nogil
    int same_q "hx_same_q" (const uint8_t* a, const uint8_t* b, const uint8_t* c, const uint8_t* d, int n) nogil
    void copy_q "hx_copy_q" (uint8_t* dst, const uint8_t* src, int n) nogil
    int low64 "hx_low64" (uint64_t w) nogil


cdef extern from *:
    """
    /* a call to this marks the path it is on as rarely run (a game's first decisions,
       the asymmetric-board fallbacks, noise): GCC then lays the blocks that lead only
       to it out of the hot code (the function's .cold part), so the code run at every
       decision takes fewer cache lines. It does nothing (the empty asm keeps the call) */
    static __attribute__((cold, noinline)) void hx_rare(void) { __asm__ volatile(""); }
    """
    void rare "hx_rare" () nogil


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
    F_OPPONENT_BUILDS = 18
    F_LATE_MARBLE = 19
    F_LAST_SPACE = 20
    F_LATE_COST = 21
    NF = 22
    MAXG = 32           # groups of one seat (at most 31 pieces, the config's check) ...
    GSENT = MAXG - 1    # ... and the last entry a neutral "no group": the gid of every other field
    NT5 = 5             # temples split_score takes in a fixed count (the rest when there are more)
    NB6 = 6             # neighbour-list slots the loops take in a fixed count (hex boards: all
                        # of them); slots NB6..MAXNB-1 only when c.max_nb > NB6

C_FEATURES = ("marble_gain", "marble_income", "cost", "marble_score", "piece", "connect",
              "city_growth", "city_points", "temple_reach", "monument_reach", "temple_columns",
              "monument_value", "rings", "deny_field", "deny_quarry", "opponent_gain",
              "temple_first", "space_value", "opponent_builds", "late_marble", "last_space",
              "late_cost")

ctypedef struct Geo:
    # what a piece on a field does through the seat's own groups, independent of
    # the piece's kind (the terms from neighbour counts and quarries are in
    # PCtx.nbkey / SMemo.inc: they change more often): the weighted terms that do
    # not depend on the largest city, and what the rest needs (geo_values)
    double cg           # a city: w_city_points x (adj_points(merged) - old points) + w_temple_reach x room
    double cn           # no city: w_temple_reach x room / 2 + w_monument_reach x monuments
                        # (room: free room of temples newly next to the group; monuments the same)
    int16_t size        # size of the merged group
    uint8_t hh          # the merged group has a house (before the piece)
    uint8_t pp          # ... a palace (24 bytes in all)


ctypedef struct SMemo:
    # the part of the decision context that is the same for every seat: config
    # constants and the active quarries with their values by field. One serves
    # the seats of a game (play_batch: one for the batch), so it is kept and
    # refreshed once, not once per seat; a pure memo too, keyed by the config and
    # (the quarry part) compared with the state before use. (The temple columns by
    # field stay in each seat's PCtx: read in the fills' chain of loads, one more
    # pointer there cost ~15 % of their time.)
    const HCfg* cfg     # config the constants belong to (NULL: none yet)
    double max_tile
    double qval[256]    # quarry_value by top tile
    u128 tmask          # temple fields
    u128 tnear          # fields next to temples
    u128 tbit[MAXT]
    int8_t temple_of[MAXF]      # temple index of a temple field, else -1
    uint16_t quarry_spaces      # bit per quarry action space
    # choose_space tables: a space's score slot (its kind, or 7 + the space for
    # kinds scored per space: temples, marble), the other spaces of its group
    # (last_of_kind), the temple and the marble spaces
    int8_t sp_slot[MAXS]
    uint16_t sp_same[MAXS]
    uint16_t sp_temple
    uint16_t sp_other
    uint16_t sp_build           # house, house/agora and palace spaces
    uint16_t sp_needs[3]        # the spaces that need the best house, agora, palace
    uint16_t sp_monument
    uint16_t sp_all
    uint8_t ftemples[MAXF]      # temples (bits) whose neighbour lists hold the field
    uint8_t land[MAXF]          # 0 coast, 1 inland
    # the active quarries (kept by make_ctx)
    int nq
    int qf[MAXQF]       # active quarry fields
    double qv[MAXQF]    # their yield x age discount
    double qv_of[MAXF]  # the same by field (active quarries only)
    u128 qmask
    u128 qnear          # fields next to active quarries
    double inc[MAXF]    # quarry value of the active quarries next to each field (every field)
    int q_stale         # the quarry entries above need computing ...
    uint8_t q_status[MAXF]      # ... or the state's quarry fields differ from these
    uint8_t q_top[MAXF]


ctypedef struct PCtx:
    # the per-decision context of one seat. It lives in the seat's Policy and
    # is updated in place: config constants once per config, the group table
    # only when the seat's pieces changed (a pure memo: every value equals a
    # fresh computation from the state, so decisions do not depend on it).
    const HCfg* cfg     # config the seat's part below belongs to (NULL: none yet)
    SMemo* sm           # the seats' shared part (one for the seats of a game; see SMemo)
    int key_p           # the group table below is seat key_p's with these pieces
    u128 key_h
    u128 key_a
    u128 key_pal
    u128 gadj_all
    int8_t gid[MAXF]    # group index of each of the seat's pieces (GSENT elsewhere)
    int p
    int last_round
    int marble
    double qa_left      # quarry actions still to come
    u128 own
    u128 opp_own
    u128 opp_near       # fields next to opponents' pieces (kept by geo_refresh)
    double tc_mine[MAXT]        # temple_coefs (valid unless tc_stale or a seat's
    double tc_opp[MAXT]         # pieces next to temples differ from tc_key)
    int tc_stale
    u128 tc_key[MAXP]
    double st_a[MAXT]           # split_terms_memo's temple values (valid when st_a_ok) and
    double st_rv[MAXT + 1]      # ring values (for the rings, opponents' most and supply in st_key)
    int st_a_ok
    int st_key
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
    double gap[MAXG]    # monument + temple points next to a group (city or not)
    uint32_t gap_ok     # groups whose gap and gpts are valid, for ...
    uint64_t gap_tc     # ... these temple columns (as one word) ...
    u128 gap_mon        # ... and these monuments
    int largest
    # what a piece would do on each field, kept between the seat's decisions:
    # make_ctx compares the state with the snapshot below and clears, per part,
    # the fields next to whatever changed
    Geo geo[MAXF]       # the group part (valid where ok)
    double xv[MAXF][3]  # its weighted terms per kind, house/agora/palace
    u128 ok             # fields whose geo and xv are valid
    int ok_largest      # the largest city xv was computed for
    double cq[3]        # weight of a field's quarry value per kind (x quarry actions left)
    int sn_p            # -1: no snapshot
    u128 sn_own
    u128 sn_opp
    u128 sn_mon
    uint64_t sn_tc      # temple columns, one byte per temple
    int bb_key          # build_base by kind and land for this key (marble in the last round, else -1)
    double bb[3][2]
    uint8_t nbkey[MAXF]         # own pieces x 9 + opponents' pieces of the snapshot next to each
                                # field (every field, kept by geo_refresh; 0 at NOFIELD) ...
    double t1_of[(MAXNB + 1) * (MAXNB + 1)]     # ... and the neighbour term t1 by that key:
                                # w_connect * own neighbours + w_deny_field * opponents' (a
                                # field's t1 is t1_of[nbkey[f]]: one byte a field, not a double)
    uint8_t tcols_f[MAXF]       # columns of the temple on each field, and its free room
    uint8_t troom_f[MAXF]       # (0 off the temples), for these temple columns:
    uint64_t tf_tc


ctypedef struct Policy:
    int kind            # 0 uniform random, 1 heuristic
    double w[NF]
    double temperature
    double epsilon
    PCtx x              # memo of the seat's decision context (see PCtx)


cdef void load_policy(Policy* pol, obj, SMemo* sm) except *:
    # (sm: the shared part of the decision context, zeroed before the first seat's load;
    # one for the seats of a game)
    memset(pol, 0, sizeof(Policy))
    pol.x.sm = sm
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
    return x.sm.qval[top]


cdef void sm_config(const HCfg* c, SMemo* m) noexcept nogil:
    # the shared part's constants of the config, once per config; its quarry entries
    # to compute
    cdef int i, f, k, mt = 1
    m.cfg = c
    for i in range(c.n_tiles):
        if c.tiles[i] > mt:
            mt = c.tiles[i]
    m.max_tile = mt
    for i in range(256):
        m.qval[i] = c.yield_of[i] * (1.0 - i / (2.0 * m.max_tile))
    m.tmask = 0
    m.tnear = 0
    for f in range(MAXF):
        m.temple_of[f] = -1
        m.qv_of[f] = 0.0
        m.inc[f] = 0.0
    for i in range(MAXT):
        m.tbit[i] = 0
    for i in range(c.n_temples):
        m.tbit[i] = bit128(c.temple_field[i])
        m.tmask |= m.tbit[i]
        m.tnear |= c.nbr[c.temple_field[i]]
        m.temple_of[c.temple_field[i]] = i
    m.quarry_spaces = 0
    for i in range(c.n_spaces):
        if c.space_kind[i] == SK_QUARRY:
            m.quarry_spaces |= <uint16_t>(1 << i)
    m.sp_temple = 0
    m.sp_other = 0
    m.sp_build = 0
    m.sp_needs[0] = 0
    m.sp_needs[1] = 0
    m.sp_needs[2] = 0
    m.sp_monument = 0
    m.sp_all = 0
    for f in range(MAXF):
        m.ftemples[f] = 0
    for i in range(c.n_temples):
        for k in range(c.max_nb):
            m.ftemples[c.nbl[c.temple_field[i]][k]] |= <uint8_t>(1 << i)
    m.ftemples[NOFIELD] = 0
    for i in range(c.n_spaces):
        k = c.space_kind[i]
        m.sp_slot[i] = <int8_t>k
        m.sp_all |= <uint16_t>(1 << i)
        if k == SK_HOUSE or k == SK_HOUSE_OR_AGORA or k == SK_PALACE:
            m.sp_build |= <uint16_t>(1 << i)
            m.sp_needs[2 if k == SK_PALACE else 0] |= <uint16_t>(1 << i)
            if k == SK_HOUSE_OR_AGORA:
                m.sp_needs[1] |= <uint16_t>(1 << i)
        elif k == SK_MONUMENT:
            m.sp_monument |= <uint16_t>(1 << i)
        if k == SK_TEMPLE or k > SK_MONUMENT:
            m.sp_slot[i] = <int8_t>(7 + i)
            if k == SK_TEMPLE:
                m.sp_temple |= <uint16_t>(1 << i)
            else:
                m.sp_other |= <uint16_t>(1 << i)
        m.sp_same[i] = 0
        for f in range(c.n_spaces):
            if f != i and space_group(c.space_kind[f]) == space_group(k):
                m.sp_same[i] |= <uint16_t>(1 << f)
    m.q_stale = 1
    m.nq = 0
    for f in range(MAXF):
        m.land[f] = 0 if has128(c.coast, f) else 1


cdef void ctx_config(const HCfg* c, PCtx* x) noexcept nogil:
    # the seat's part for a new config (and the shared part's constants when they are
    # another config's)
    if x.sm.cfg != c:
        sm_config(c, x.sm)
    x.cfg = c
    memset(x.tcols_f, 0, sizeof(x.tcols_f))
    memset(x.troom_f, 0, sizeof(x.troom_f))
    x.tf_tc = ~(<uint64_t>0)
    x.key_p = -1
    x.gap_ok = 0
    memset(x.gid, GSENT, sizeof(x.gid))
    # the neutral group: nothing in it, next to nothing, no points
    x.gmask[GSENT] = 0
    x.gadj[GSENT] = 0
    x.gsize[GSENT] = 0
    x.ghouse[GSENT] = 0
    x.gpalace[GSENT] = 0
    x.gcity[GSENT] = 0
    x.gpts[GSENT] = 0.0
    x.gap[GSENT] = 0.0
    x.tc_stale = 1
    x.st_a_ok = 0
    x.st_key = -1
    x.sn_p = -1
    x.ok = 0
    x.bb_key = -2


cdef inline void ctx_groups(const HCfg* c, const HState* s, PCtx* x, int p) noexcept nogil:
    # the seat's groups (H-D11), only when its pieces changed since the last call
    if x.key_p != p or ((x.key_h ^ s.houses[p]) | (x.key_a ^ s.agoras[p]) | (x.key_pal ^ s.palaces[p])):
        ctx_groups_new(c, s, x, p)


cdef inline void group_gap(const HCfg* c, const HState* s, PCtx* x, int g) noexcept nogil:
    # x.gap[g] and x.gpts[g] now (after make_ctx's temple tables), valid in x.gap_ok
    cdef double pts[2]
    pts[0] = 0.0
    pts[1] = adj_points_x(c, x, s, x.gadj[g])
    x.gap[g] = pts[1]
    x.gpts[g] = pts[x.gcity[g]]
    x.gap_ok |= (<uint32_t>1) << g


cdef inline int group_of(const PCtx* x, u128 own_nb) noexcept nogil:
    # the one group holding the seat's pieces own_nb (GSENT when own_nb is empty: gid of
    # NOFIELD), -1 when they are in several; without a loop over them
    cdef int k = x.gid[low_field(own_nb | bit128(NOFIELD))]
    return k | -(<int>((own_nb & ~x.gmask[k]) != 0))


cdef inline int group_add_fast(const HCfg* c, const HState* s, PCtx* x, int p, int k,
                               u128 have) noexcept nogil:
    # the seat's new piece k into the table (of the pieces have) when no other group changes
    # index: k is next to one group and stays in the flood's order (by lowest field) or next
    # to none and after every group. 1 when done, 0 (nothing changed) otherwise
    cdef int g = group_of(x, c.nbr[k] & have), v
    if g < 0:
        return 0            # a merge
    if g != GSENT:
        if g > 0 and k < ctz128(x.gmask[g]) and ctz128(x.gmask[g - 1]) > k:
            return 0        # the group moves before the one ahead
        x.gmask[g] |= bit128(k)
        x.gadj[g] |= c.nbr[k]
        x.gsize[g] += 1
        x.ghouse[g] |= mask_has(s.houses[p], k)
        x.gpalace[g] |= mask_has(s.palaces[p], k)
        x.gcity[g] = x.ghouse[g] & x.gpalace[g]
        v = x.gsize[g] * x.gcity[g]
        x.largest = v if v > x.largest else x.largest
    else:
        g = x.ng
        if g > 0 and ctz128(x.gmask[g - 1]) > k:
            return 0        # a new group before the last
        x.gmask[g] = bit128(k)
        x.gadj[g] = c.nbr[k]
        x.gsize[g] = 1
        x.ghouse[g] = mask_has(s.houses[p], k)
        x.gpalace[g] = mask_has(s.palaces[p], k)
        x.gcity[g] = 0
        x.ng = g + 1
    x.gid[k] = <int8_t>g
    group_gap(c, s, x, g)
    x.gadj_all |= c.nbr[k]
    return 1


cdef void group_add(const HCfg* c, const HState* s, PCtx* x, int p, int k, u128 have) noexcept nogil:
    # the seat's new piece k into the table of the pieces have (any case: a merge, or a
    # group moving in the flood's order). The merged group M goes to index r, the number
    # of groups whose lowest field is below M's; the groups it takes in drop out, the
    # others from r on follow it in their order
    cdef u128 own_nb = c.nbr[k] & have, m = bit128(k), a = c.nbr[k], u
    cdef uint32_t hits = 0, ok, hit
    cdef int size = 1, hh = mask_has(s.houses[p], k), pp = mask_has(s.palaces[p], k)
    cdef int i, j, n, r, lo, ng = x.ng, v
    cdef int8_t newidx[MAXG]
    cdef int8_t src[MAXG]
    cdef u128 tm[MAXG]
    cdef u128 ta[MAXG]
    cdef int tsz[MAXG]
    cdef uint8_t th[MAXG]
    cdef uint8_t tp[MAXG]
    cdef double tg[MAXG]
    cdef double tt[MAXG]
    while own_nb:
        hits |= (<uint32_t>1) << x.gid[ctz128(own_nb)]
        own_nb &= own_nb - 1
    u = hits
    while u:
        i = ctz128(u)
        u &= u - 1
        m |= x.gmask[i]
        a |= x.gadj[i]
        size += x.gsize[i]
        hh |= x.ghouse[i]
        pp |= x.gpalace[i]
    lo = ctz128(m)
    r = 0
    while r < ng and ctz128(x.gmask[r]) < lo:
        r += 1
    # the entries from r on, and where each goes (newidx; src: the old index of a new one)
    n = r + 1
    for i in range(r, ng):
        hit = (hits >> i) & 1
        newidx[i] = <int8_t>(n + (r - n) * <int>hit)
        src[n] = <int8_t>i
        n += 1 - <int>hit
        tm[i] = x.gmask[i]
        ta[i] = x.gadj[i]
        tsz[i] = x.gsize[i]
        th[i] = x.ghouse[i]
        tp[i] = x.gpalace[i]
        tg[i] = x.gap[i]
        tt[i] = x.gpts[i]
    newidx[GSENT] = <int8_t>r
    ok = x.gap_ok & (((<uint32_t>1) << r) - 1)
    for j in range(r + 1, n):
        i = src[j]
        x.gmask[j] = tm[i]
        x.gadj[j] = ta[i]
        x.gsize[j] = tsz[i]
        x.ghouse[j] = th[i]
        x.gpalace[j] = tp[i]
        x.gcity[j] = th[i] & tp[i]
        x.gap[j] = tg[i]
        x.gpts[j] = tt[i]
        ok |= ((x.gap_ok >> i) & 1) << j
    x.gmask[r] = m
    x.gadj[r] = a
    x.gsize[r] = size
    x.ghouse[r] = hh
    x.gpalace[r] = pp
    x.gcity[r] = hh & pp
    x.gap_ok = ok
    group_gap(c, s, x, r)
    x.ng = n
    # the pieces of the groups from r on: their new index (k's own: GSENT -> r)
    u = m
    for j in range(r + 1, n):
        u |= x.gmask[j]
    while u:
        i = ctz128(u)
        u &= u - 1
        x.gid[i] = newidx[x.gid[i]]
    # a merged group is larger than each it took in, the others stand
    v = size * (hh & pp)
    x.largest = v if v > x.largest else x.largest
    x.gadj_all |= c.nbr[k]


cdef void ctx_groups_flood(const HCfg* c, const HState* s, PCtx* x, int p) noexcept nogil:
    # the seat's group table from scratch (a new game, another seat, pieces gone; every
    # time under the no-agora-chains variant H-D11)
    cdef int ng = 0
    cdef uint64_t w
    cdef u128 remaining, group, adj
    if x.key_p != p or ((x.key_h & ~s.houses[p]) | (x.key_a & ~s.agoras[p]) | (x.key_pal & ~s.palaces[p])):
        x.sn_p = -1     # (pieces left or changed kind: the field memo's snapshot, which
                        # compares fields only, would miss a change of kind)
    memset(x.gid, GSENT, sizeof(x.gid))
    x.largest = 0
    x.gadj_all = 0
    remaining = s.own[p]
    while remaining and ng < GSENT:
        group = flood_group(c, s, p, ctz128(remaining), &adj)
        remaining &= ~group
        x.gmask[ng] = group
        x.gadj[ng] = adj
        x.gsize[ng] = popcount128(group)
        x.ghouse[ng] = (group & s.houses[p]) != 0
        x.gpalace[ng] = (group & s.palaces[p]) != 0
        x.gcity[ng] = x.ghouse[ng] and x.gpalace[ng]
        x.gadj_all |= adj
        if x.gcity[ng] and x.gsize[ng] > x.largest:
            x.largest = x.gsize[ng]
        w = <uint64_t>group
        while w:
            x.gid[__builtin_ctzll(w)] = <int8_t>ng
            w &= w - 1
        w = <uint64_t>(group >> 64)
        while w:
            x.gid[64 + __builtin_ctzll(w)] = <int8_t>ng
            w &= w - 1
        ng += 1
    x.key_p = p
    x.key_h = s.houses[p]
    x.key_a = s.agoras[p]
    x.key_pal = s.palaces[p]
    x.gap_ok = 0
    x.ng = ng


# called through a pointer set at import (never inlined: its own code, optimized for
# speed, while its rare call site is laid out as cold code)
cdef void (*ctx_groups_flood_out)(const HCfg*, const HState*, PCtx*, int) noexcept nogil
ctx_groups_flood_out = ctx_groups_flood


cdef void ctx_groups_new(const HCfg* c, const HState* s, PCtx* x, int p) noexcept nogil:
    # new pieces join or merge the groups next to them, a fresh start floods all groups
    cdef int k
    cdef u128 old, new
    x.tc_stale = 1
    old = x.key_h | x.key_a | x.key_pal
    if (x.key_p == p and not c.no_agora_chains and not (x.key_h & ~s.houses[p])
            and not (x.key_a & ~s.agoras[p]) and not (x.key_pal & ~s.palaces[p])):
        # only new pieces: add them one by one (the groups are the connected components
        # of the seat's pieces, adj the union of their neighbourhoods); most keep every
        # other group's index and go in place
        new = s.own[p] & ~old
        while new:
            k = ctz128(new)
            if not group_add_fast(c, s, x, p, k, old):
                group_add(c, s, x, p, k, old)
            old |= new & -new
            new &= new - 1
        x.key_p = p
        x.key_h = s.houses[p]
        x.key_a = s.agoras[p]
        x.key_pal = s.palaces[p]
        return
    rare()
    ctx_groups_flood_out(c, s, x, p)


cdef inline double adj_points_x(const HCfg* c, const PCtx* x, const HState* s, u128 adj) noexcept nogil:
    # = adj_points, summed in integers (the same value) from the columns by temple field
    # (make_ctx's): the first temple without a branch (NOFIELD's entry is 0), a loop for more
    cdef int pts = 3 * popcount128(adj & s.monuments) if s.monuments else 0
    cdef u128 t = adj & x.sm.tmask
    pts += x.tcols_f[low_field(t | bit128(NOFIELD))]
    t &= t - 1
    while t:
        pts += x.tcols_f[ctz128(t)]
        t &= t - 1
    return pts


cdef inline uint64_t temple_word(const HState* s) noexcept nogil:
    # the temples' columns as one word (MAXT = 8 bytes)
    cdef uint64_t w
    memcpy(&w, s.temple_cols, 8)
    return w


cdef void make_ctx(const HCfg* c, const HState* s, PCtx* x, const Policy* pol) noexcept nogil:
    cdef int p = s.current, i, f, n, k, more
    cdef uint64_t tc
    cdef uint32_t full, inv
    cdef u128 remaining, qm
    cdef const uint8_t* l
    cdef double v
    if x.cfg != c or x.sm.cfg != c:
        rare()
        ctx_config(c, x)
    x.p = p
    x.last_round = s.round >= 2
    x.marble = s.marble[p]
    x.qa_left = (popcount128(<u128>(x.sm.quarry_spaces & ~s.spaces_used))
                 + popcount128(<u128>x.sm.quarry_spaces) * (2 - s.round))
    if s.phase >= PH_QUARRY_PLACE:
        return          # quarry place, worker move: their scores need only the above (the quarry
                        # entries and the group table compare the state with their own keys later)
    if x.sm.q_stale or not same_q(x.sm.q_status, s.quarry_status, x.sm.q_top, s.quarry_top, c.n_fields):
        # the active quarries, only when a quarry field changed since the last call;
        # x.sm.inc by field from them (scattered over the neighbour lists with symmetric
        # neighbours: each field's sum still runs over its quarries in ascending order;
        # the lists' loops run over NB6 slots, a fixed count, the padding goes to NOFIELD)
        more = c.max_nb > NB6
        for i in range(x.sm.nq):
            f = x.sm.qf[i]
            x.sm.qv_of[f] = 0.0
            if c.nbr_symmetric:
                l = c.nbl[f]
                for k in range(NB6):
                    x.sm.inc[l[k]] = 0.0
                if more:
                    for k in range(NB6, MAXNB):
                        x.sm.inc[l[k]] = 0.0
        # the active quarries in ascending order (as quarry_field) from their mask
        qm = active_below(s.quarry_status, s.quarry_top, c.n_fields, 256)
        x.sm.qmask = qm
        n = 0
        while qm:
            f = ctz128(qm)
            qm &= qm - 1
            x.sm.qf[n] = f
            x.sm.qv[n] = x.sm.qval[s.quarry_top[f]]
            n += 1
        x.sm.nq = n
        x.sm.qnear = 0
        for i in range(n):
            f = x.sm.qf[i]
            x.sm.qv_of[f] = x.sm.qv[i]
            x.sm.qnear |= c.nbr[f]
        if c.nbr_symmetric:
            for i in range(n):
                l = c.nbl[x.sm.qf[i]]
                v = x.sm.qv[i]
                for k in range(NB6):
                    x.sm.inc[l[k]] += v
                if more:
                    for k in range(NB6, MAXNB):
                        x.sm.inc[l[k]] += v
        else:
            rare()
            for f in range(c.n_fields):
                x.sm.inc[f] = field_inc(c, x, f)
        copy_q(x.sm.q_status, s.quarry_status, c.n_fields)
        copy_q(x.sm.q_top, s.quarry_top, c.n_fields)
        x.sm.q_stale = 0
    x.near = x.sm.tnear | x.sm.qnear
    x.own = s.own[p]
    x.opp_own = s.occupied & ~s.monuments & ~x.own      # (occupied: the seats' pieces and the monuments)
    x.interesting = s.occupied | x.sm.tmask | x.sm.qmask
    remaining = s.monuments
    while remaining:
        x.near |= c.nbr[ctz128(remaining)]
        remaining &= remaining - 1
    tc = temple_word(s)
    if tc != x.tf_tc:
        # columns and room by temple field (0 elsewhere)
        for i in range(c.n_temples):
            f = c.temple_field[i]
            x.tcols_f[f] = s.temple_cols[i]
            x.troom_f[f] = c.temple_size[i] - s.temple_cols[i]
        x.tf_tc = tc
    # the groups' gap and gpts hold for the temple columns and monuments they were computed
    # with; the groups ctx_groups changes get theirs there, the others below
    x.gap_ok &= -(<uint32_t>((x.gap_tc == tc) & (x.gap_mon == s.monuments)))
    x.gap_tc = tc
    x.gap_mon = s.monuments
    ctx_groups(c, s, x, p)
    x.near |= x.gadj_all
    full = ((<uint32_t>1) << x.ng) - 1
    inv = full & ~x.gap_ok
    if inv:
        while inv:
            i = __builtin_ctzll(inv)
            inv &= inv - 1
            group_gap(c, s, x, i)
    if <unsigned>(s.phase - PH_MONUMENT) < 2:
        return          # monument, temple: no field scores (the field memo catches up at the next
                        # refresh: it compares the state with its snapshot, so skipped changes add up)
    geo_refresh(c, s, x, pol, p, tc)


cdef inline double field_inc(const HCfg* c, const PCtx* x, int f) noexcept nogil:
    # the quarry value next to field f, over its neighbour list (ascending, the sum's order):
    # qv_of is 0 off the active quarries and at NOFIELD, and adding 0.0 to a sum from 0.0
    # changes nothing
    cdef const uint8_t* l = c.nbl[f]
    cdef double inc = 0.0
    cdef int k
    for k in range(c.max_nb):
        inc += x.sm.qv_of[l[k]]
    return inc


cdef void opp_near_fresh(const HCfg* c, PCtx* x) noexcept nogil:
    # x.opp_near from scratch
    cdef u128 d = x.opp_own
    x.opp_near = 0
    while d:
        x.opp_near |= c.nbr[ctz128(d)]
        d &= d - 1


cdef void t1_fresh(const HCfg* c, PCtx* x, const Policy* pol) noexcept nogil:
    # the neighbour term of every field from scratch: x.nbkey, x.t1_of (and x.opp_near)
    cdef int f, a, b, k
    cdef u128 nb, d
    cdef const uint8_t* l
    opp_near_fresh(c, x)
    for a in range(MAXNB + 1):
        for b in range(MAXNB + 1):
            x.t1_of[a * (MAXNB + 1) + b] = pol.w[F_CONNECT] * a + pol.w[F_DENY_FIELD] * b
    memset(x.nbkey, 0, sizeof(x.nbkey))
    if not c.nbr_symmetric:
        # (from each field's own neighbour mask: at most MAXNB of each)
        for f in range(c.n_fields):
            nb = c.nbr[f]
            x.nbkey[f] = <uint8_t>((MAXNB + 1) * popcount128(nb & x.own) + popcount128(nb & x.opp_own))
        return
    d = x.own | x.opp_own
    while d:
        b = ctz128(d)
        d &= d - 1
        a = 1 + MAXNB * mask_has(x.own, b)
        l = c.nbl[b]
        for k in range(MAXNB):
            x.nbkey[l[k]] += a
        x.nbkey[NOFIELD] = 0


# called through a pointer set at import (as ctx_groups_flood)
cdef void (*t1_fresh_out)(const HCfg*, PCtx*, const Policy*) noexcept nogil
t1_fresh_out = t1_fresh


cdef void geo_refresh(const HCfg* c, const HState* s, PCtx* x, const Policy* pol, int p,
                      uint64_t tc) noexcept nogil:
    # bring the field memo up to the state: x.nbkey of every field from the pieces new
    # since the snapshot (x.sm.inc is kept by make_ctx), and clear the group part of the
    # fields that may differ from the snapshot's (after the seat's own pieces, temples,
    # monuments)
    cdef u128 inval = 0, d, tch, m, on, tnb, sn_own = x.sn_own
    cdef uint64_t w, dt
    cdef const uint8_t* l
    cdef int h, i, f, b, t, k, g, lo, more
    # the neighbour term t1: a diff of the snapshot's pieces and these (pieces only come,
    # except in a new game or for another seat). With symmetric neighbours, each new
    # piece moves the key (own x 9 + opponents') of its neighbours on (integers: the order
    # of the pieces does not matter); a new own piece also clears the group part next to
    # the group it joined (the piece's own field is occupied: cleared below), an
    # opponent's extends opp_near. Own and opponents' pieces in loops of their own
    d = x.own & ~sn_own
    if x.sn_p < 0 or ((sn_own & ~x.own) | (x.sn_opp & ~x.opp_own)) or not c.nbr_symmetric:
        rare()
        t1_fresh_out(c, x, pol)
        while d:
            b = ctz128(d)
            d &= d - 1
            inval |= x.gadj[x.gid[b]]
    else:
        more = c.max_nb > NB6
        while d:
            b = ctz128(d)
            d &= d - 1
            l = c.nbl[b]
            for k in range(NB6):
                g = l[k]
                x.nbkey[g] += MAXNB + 1
            if more:
                for k in range(NB6, MAXNB):
                    g = l[k]
                    x.nbkey[g] += MAXNB + 1
            x.nbkey[NOFIELD] = 0        # (the padding's key stays small)
            inval |= x.gadj[x.gid[b]]
        d = x.opp_own & ~x.sn_opp
        on = x.opp_near         # (a local: the byte stores below could alias it)
        while d:
            b = ctz128(d)
            d &= d - 1
            l = c.nbl[b]
            for k in range(NB6):
                g = l[k]
                x.nbkey[g] += 1
            if more:
                for k in range(NB6, MAXNB):
                    g = l[k]
                    x.nbkey[g] += 1
            x.nbkey[NOFIELD] = 0
            on |= c.nbr[b]
        x.opp_near = on
    if x.sn_p != p or ((sn_own & ~x.own) | (x.sn_mon & ~s.monuments)):
        rare()
        x.ok = 0                # another seat or a new game: all
    else:
        # temples with new columns and new monuments: their neighbours (tnb) and the fields
        # next to the groups next to them
        tch = s.monuments & ~x.sn_mon
        if tc != x.sn_tc or tch:
            # the temples whose byte of the column word changed: one bit per byte (SWAR)
            dt = tc ^ x.sn_tc
            dt |= dt >> 4
            dt |= dt >> 2
            dt |= dt >> 1
            dt &= <uint64_t>0x0101010101010101ULL
            tnb = 0
            while dt:
                t = __builtin_ctzll(dt) >> 3
                dt &= dt - 1
                tnb |= c.nbr[c.temple_field[t]]
                tch |= x.sm.tbit[t]
            d = s.monuments & ~x.sn_mon
            while d:
                tnb |= c.nbr[ctz128(d)]
                d &= d - 1
            inval |= tnb
            if c.nbr_symmetric:
                # a group is next to one of them when one of its pieces is
                m = x.own & tnb
                while m:
                    inval |= x.gadj[x.gid[ctz128(m)]]
                    m &= m - 1
            else:
                rare()
                for k in range(x.ng):
                    inval |= x.gadj[k] & -(<u128>((x.gadj[k] & tch) != 0))
        x.ok &= ~inval
    x.ok &= ~s.occupied
    if x.ok_largest != x.largest:
        # the city-growth term changes where the merged group is larger than the smaller of the two
        # (geo stays valid: the values are computed again in place)
        lo = x.largest if x.largest < x.ok_largest else x.ok_largest
        for h in range(2):
            w = <uint64_t>x.ok if h == 0 else <uint64_t>(x.ok >> 64)
            while w:
                f = (h << 6) + __builtin_ctzll(w)
                w &= w - 1
                if (x.geo[f].size > lo) & ((x.geo[f].hh | x.geo[f].pp) != 0):  # (no city: no growth term)
                    geo_values(x, pol, &x.geo[f], x.xv[f])
        x.ok_largest = x.largest
    # a field's score = base + val + inc x cq[kind]
    x.cq[0] = x.qa_left * (pol.w[F_DENY_QUARRY] + pol.w[F_MARBLE_INCOME])
    x.cq[1] = x.qa_left * pol.w[F_DENY_QUARRY]
    x.cq[2] = x.cq[1]           # (best_builds counts on cq[2] = cq[1])
    x.sn_p = p
    x.sn_own = x.own
    x.sn_opp = x.opp_own
    x.sn_mon = s.monuments
    x.sn_tc = tc


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
    F[F_LATE_COST] = cost if x.last_round else 0.0
    F[F_MARBLE_SCORE] = marble_score_delta(x, -cost)
    F[F_PIECE] = 1.0
    if not (nb & x.interesting):
        return
    own_nb = nb & s.own[p]
    F[F_CONNECT] = popcount128(own_nb)
    F[F_DENY_FIELD] = popcount128(nb & x.opp_own)
    if nb & x.sm.qmask:
        for i in range(x.sm.nq):
            if has128(nb, x.sm.qf[i]):
                inc += x.sm.qv[i]
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
    if fresh & x.sm.tmask:
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
    F[F_LATE_COST] = c.cost_monument if x.last_round else 0.0
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


cdef inline int most_rings(const HState* s, int p) noexcept nogil:
    # the most rings of one of p's opponents
    cdef int o, most = 0
    for o in range(s.n_players):
        if o != p and s.rings[o] > most:
            most = s.rings[o]
    return most


cdef inline int ring_points_m(const HCfg* c, int r, int most) noexcept nogil:
    # ring points of r rings when the opponents' most is `most`
    return 2 * r + (3 if r >= most and (r > 0 or c.ring_bonus_all_tied) else 0)


cdef inline int ring_points(const HCfg* c, const HState* s, int p, int r) noexcept nogil:
    return ring_points_m(c, r, most_rings(s, p))


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
    F[F_LATE_COST] = cost if x.last_round else 0.0
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
    for i in range(x.sm.nq):
        inc += popcount128(s.houses[o] & c.nbr[x.sm.qf[i]]) * c.yield_of[s.quarry_top[x.sm.qf[i]]]
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
    return (pol.w[F_COST] * cost + pol.w[F_MARBLE_SCORE] * marble_score_delta(x, -cost) + pol.w[F_PIECE]
            + (pol.w[F_LATE_COST] * cost if x.last_round else 0.0))


cdef inline double build_base_x(const HCfg* c, PCtx* x, const Policy* pol, int phase, int land) noexcept nogil:
    # = build_base, kept for the seat's marble (it matters in the last round only)
    cdef int key = (x.marble + 1) * x.last_round - 1, k      # (the marble in the last round, else -1)
    if x.bb_key != key:
        for k in range(3):
            x.bb[k][0] = build_base(c, x, pol, PH_BUILD_HOUSE + k, 0)
            x.bb[k][1] = build_base(c, x, pol, PH_BUILD_HOUSE + k, 1)
        x.bb_key = key
    return x.bb[phase - PH_BUILD_HOUSE][land]


cdef inline double build_score(const HCfg* c, const HState* s, const PCtx* x, const Policy* pol,
                               int phase, int f, double base) noexcept nogil:
    cdef int g, t, size = 1, hh, pp, city, i
    cdef u128 nb = c.nbr[f], own_nb, madj, oldadj = 0, fresh
    cdef double v = base, oldpts = 0.0, inc = 0.0, factor, reach
    if not (nb & x.interesting):
        return v
    own_nb = nb & s.own[x.p]
    v += pol.w[F_CONNECT] * popcount128(own_nb) + pol.w[F_DENY_FIELD] * popcount128(nb & x.opp_own)
    if nb & x.sm.qmask:
        for i in range(x.sm.nq):
            if has128(nb, x.sm.qf[i]):
                inc += x.sm.qv[i]
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
    if fresh & x.sm.tmask:
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
    cdef int t, k, rings, cost = c.space_cost[space], most = most_rings(s, x.p)
    cdef int now = ring_points_m(c, s.rings[x.p], most)
    temple_coefs(c, s, x, mine, opp)
    for t in range(c.n_temples):
        a[t] = pol.w[F_TEMPLE_COLUMNS] * mine[t] + pol.w[F_OPPONENT_GAIN] * opp[t]
    for k in range(MAXT + 1):
        rings = 1 + k
        if rings > s.supply_rings:
            rings = s.supply_rings
        ring_value[k] = pol.w[F_RINGS] * (ring_points_m(c, s.rings[x.p] + rings, most) - now)
    base[0] = (pol.w[F_COST] * cost + pol.w[F_MARBLE_SCORE] * marble_score_delta(x, -cost)
               + (pol.w[F_LATE_COST] * cost if x.last_round else 0.0))


cdef extern from *:
    """
    /* t, or -0.0 when keep is 0: -0.0 is the exact identity of double addition
       (x + -0.0 == x for every x, signed zeros included), so a sum can take a
       term it may lack without a branch */
    static inline double hx_keep(double t, int keep) {
        union { double d; uint64_t u; } b;
        uint64_t m = (uint64_t)0 - (uint64_t)(keep != 0);
        b.d = t;
        b.u = (b.u & m) | (~m & 0x8000000000000000ULL);
        return b.d;
    }
    static inline int hx_pop64(uint64_t w) { return __builtin_popcountll(w); }
    """
    double keep_term "hx_keep" (double t, int keep) nogil
    int pop64 "hx_pop64" (uint64_t w) nogil


cdef inline double split_score(const HCfg* c, uint64_t packed, uint64_t room, const double* va,
                               const double* ring_value, double base) noexcept nogil:
    # a split's score from its columns per temple (packed, one byte each), without
    # branches: va[8t + v] = v x a[t], and va[8t] = -0.0, the identity of the sum,
    # so the sum runs over every temple in the order of the one over the temples
    # with columns; a temple completes where its columns (non-zero) equal its room
    # (room: one byte per temple; all bytes < 0x80, so the SWAR adds carry nothing)
    # (a fixed count of NT5 temples: the bytes past n_temples are 0 and pick va's -0.0; more
    # temples only when there are)
    cdef int t, comp
    cdef double sc = base
    for t in range(NT5):
        sc += va[8 * t + ((packed >> (8 * t)) & 0xff)]
    if c.n_temples > NT5:
        for t in range(NT5, MAXT):
            sc += va[8 * t + ((packed >> (8 * t)) & 0xff)]
    comp = pop64(~((packed ^ room) + <uint64_t>0x7f7f7f7f7f7f7f7fULL)
                 & (packed + <uint64_t>0x7f7f7f7f7f7f7f7fULL) & c.temple_high_bits)
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


cdef inline int can_build(const HCfg* c, const HState* s, int o, int k) noexcept nogil:
    # seat o has a piece of kind k (0 house, 1 agora, 2 palace) left and the marble for it somewhere
    if k == 0:
        return s.n_houses[o] < c.max_house and s.marble[o] >= min(c.cost_house[0], c.cost_house[1])
    if k == 1:
        return s.n_agoras[o] < c.max_agora and s.marble[o] >= min(c.cost_agora[0], c.cost_agora[1])
    return s.n_palaces[o] < c.max_palace and s.marble[o] >= min(c.cost_palace[0], c.cost_palace[1])


cdef inline double opponent_builds(const HCfg* c, const HState* s, int p, int kind) noexcept nogil:
    # pieces the opponents can build in the all-players action of a space of this kind
    cdef int o
    cdef double n = 0.0
    for o in range(s.n_players):
        if o == p:
            continue
        if kind == SK_HOUSE or kind == SK_HOUSE_OR_AGORA:
            n += can_build(c, s, o, 0)
            if kind == SK_HOUSE_OR_AGORA:
                n += can_build(c, s, o, 1)
        elif kind == SK_PALACE:
            n += can_build(c, s, o, 2)
    return n


cdef inline int space_group(int kind) noexcept nogil:
    return SK_HOUSE if kind == SK_HOUSE_OR_AGORA else kind


cdef inline int last_of_kind(const HCfg* c, const HState* s, int sp) noexcept nogil:
    # no other unused space of the same kind (house and house/agora count as one) this round
    cdef int i, g = space_group(c.space_kind[sp])
    for i in range(c.n_spaces):
        if i != sp and not ((s.spaces_used >> i) & 1) and space_group(c.space_kind[i]) == g:
            return 0
    return 1


cdef inline void choose_extras(const HCfg* c, const HState* s, const PCtx* x, int sp, double* F) noexcept nogil:
    # the features that depend on the others (space_value, marble_gain) being set
    F[F_OPPONENT_BUILDS] = opponent_builds(c, s, x.p, c.space_kind[sp])
    F[F_LATE_MARBLE] = F[F_MARBLE_GAIN] if x.last_round else 0.0
    F[F_LAST_SPACE] = F[F_SPACE_VALUE] if last_of_kind(c, s, sp) else 0.0


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
        choose_extras(c, s, x, a, F)
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


# ---------------------------------------------------------------- the decision loop's scores
#
# score_actions computes w . F for every legal action without feature vectors,
# with lookup tables instead of loops (quarry value and temple index by field,
# group index by piece) and, in choose_space, the best house, agora and palace
# in one pass over the fields (their geometry is the same). The terms are
# added in the same order as build_score / dot, so the scores are the same
# numbers; test_strategies checks they equal features @ weights.

cdef inline double dmax(double a, double b) noexcept nogil:
    return b if b > a else a


cdef double geo_merge(const HCfg* c, const HState* s, const PCtx* x, u128 own_nb, Geo* g,
                      u128* oldadj) noexcept nogil:
    # field_geo's group part when the field is next to several groups (rare; not inlined):
    # sets size, hh, pp and the groups' neighbourhood, returns the points they add
    cdef uint64_t gb = 0
    cdef int k
    cdef double extra = 0.0
    cdef u128 adj = 0
    g.size = 1
    g.hh = 0
    g.pp = 0
    while own_nb:
        gb |= (<uint64_t>1) << x.gid[ctz128(own_nb)]
        own_nb &= own_nb - 1
    while gb:
        k = __builtin_ctzll(gb)
        gb &= gb - 1
        g.size += x.gsize[k]
        g.hh |= x.ghouse[k]
        g.pp |= x.gpalace[k]
        adj |= x.gadj[k]
        extra -= x.gpts[k]
    extra += adj_points_x(c, x, s, adj)
    oldadj[0] = adj
    return extra


ctypedef struct FillK:
    # a fill loop's constants, locals of the caller (kept in registers or on the stack:
    # the fills' stores cannot alias them)
    u128 own
    u128 mons
    u128 tmask
    int tlo             # every temple field below 64 (the boards so far): 64-bit temple masks
    double wcp          # w_city_points, w_temple_reach, w_monument_reach
    double wtr
    double wmr


cdef inline void fill_k(const HState* s, const PCtx* x, const Policy* pol, FillK* q) noexcept nogil:
    q.own = x.own
    q.mons = s.monuments
    q.tmask = x.sm.tmask
    q.tlo = (x.sm.tmask >> 64) == 0
    q.wcp = pol.w[F_CITY_POINTS]
    q.wtr = pol.w[F_TEMPLE_REACH]
    q.wmr = pol.w[F_MONUMENT_REACH]


cdef inline void field_geo(const HCfg* c, const HState* s, PCtx* x, const FillK* q, int f) noexcept nogil:
    # x.geo[f] from the state. adj_points is a sum over fields, so the merged group's
    # points are the old groups' points plus those of the fresh fields (nb minus their
    # neighbourhood)
    cdef u128 nb = c.nbr[f], own_nb = nb & q.own, oldadj, fresh, t
    cdef uint64_t t64
    cdef int k = group_of(x, own_nb), cols, room, mon
    cdef double extra
    cdef Geo* g = &x.geo[f]
    if k >= 0:
        # one group or none (then the neutral GSENT entry: size 0, no points, next to nothing)
        g.size = 1 + x.gsize[k]
        g.hh = x.ghouse[k]
        g.pp = x.gpalace[k]
        fresh = nb & ~x.gadj[k]
        extra = x.gap[k] - x.gpts[k]
    else:
        extra = geo_merge(c, s, x, own_nb, g, &oldadj)
        fresh = nb & ~oldadj
    mon = popcount128(fresh & q.mons)
    # the temples among the fresh fields: the first without a branch (NOFIELD's entries
    # are 0), a loop for more (rare)
    if q.tlo:
        t64 = <uint64_t>fresh & <uint64_t>q.tmask
        k = low64(t64)
        cols = x.tcols_f[k]
        room = x.troom_f[k]
        t64 &= t64 - 1
        while t64:
            k = __builtin_ctzll(t64)
            cols += x.tcols_f[k]
            room += x.troom_f[k]
            t64 &= t64 - 1
    else:
        t = fresh & q.tmask
        k = low_field(t | bit128(NOFIELD))
        cols = x.tcols_f[k]
        room = x.troom_f[k]
        t &= t - 1
        while t:
            k = ctz128(t)
            cols += x.tcols_f[k]
            room += x.troom_f[k]
            t &= t - 1
    g.cg = q.wcp * (extra + (3 * mon + cols)) + q.wtr * room
    g.cn = q.wtr * (0.5 * room) + q.wmr * mon


cdef inline void geo_values(const PCtx* x, const Policy* pol, const Geo* g, double* v) noexcept nogil:
    # build_score minus the plain-field base, the neighbour term t1 and the quarry
    # terms (those scale with the quarry actions left: see field_score), for a
    # house, an agora and a palace (v[0..2]). A field's value for kind k is
    # t1 + v[k]. A lone house or palace is no city; the piece makes one when the
    # group has the other kind.
    # (branch-free: the selections go through two-entry tables)
    cdef double cg[2]
    cdef double cn[2]
    cg[0] = g.cg
    cg[1] = g.cg + pol.w[F_CITY_GROWTH] * (g.size - x.largest)
    cn[0] = g.cn
    cn[1] = cg[g.size > x.largest]
    v[0] = cn[g.pp]
    v[1] = cn[g.hh & g.pp]
    v[2] = cn[g.hh]


cdef void field_fill(const HCfg* c, const HState* s, PCtx* x, const Policy* pol, int f) noexcept nogil:
    # x.geo[f] and x.xv[f] from the state (the caller marks f in x.ok). A group part kept
    # apart from the values would seldom help: the fields whose values are dropped are
    # those whose groups changed (besides the occupied ones, never asked again)
    cdef FillK q
    fill_k(s, x, pol, &q)
    field_geo(c, s, x, &q, f)
    geo_values(x, pol, &x.geo[f], x.xv[f])


cdef inline void field_ready(const HCfg* c, const HState* s, PCtx* x, const Policy* pol, int f) noexcept nogil:
    # x.xv[f] valid, from the cache when it is (x.nbkey and x.sm.inc are always)
    if not mask_has(x.ok, f):
        field_fill(c, s, x, pol, f)
        mask_set(&x.ok, f)


cdef void fields_ready(const HCfg* c, const HState* s, PCtx* x, const Policy* pol, u128 m) noexcept nogil:
    # field_ready for every field of m (the scores are pure, so filling them all
    # before a scoring loop keeps that loop free of calls)
    cdef uint64_t w
    cdef int h, f
    cdef FillK q
    m &= ~x.ok
    fill_k(s, x, pol, &q)
    for h in range(2):
        w = <uint64_t>m if h == 0 else <uint64_t>(m >> 64)
        while w:
            f = (h << 6) + __builtin_ctzll(w)
            field_geo(c, s, x, &q, f)
            geo_values(x, pol, &x.geo[f], x.xv[f])
            w &= w - 1
    x.ok |= m


cdef void best_builds(const HCfg* c, const HState* s, PCtx* x, const Policy* pol,
                      double* best, int need) noexcept nogil:
    # best_build for house, agora and palace (best[0..2]) in one pass over the fields,
    # valid for the kinds in need (bits); the others may be too low. Whether a kind
    # can be built on a field depends only on its land (coast/inland) and the seat's
    # marble, so the maxima are kept per kind and land. A kind the seat cannot
    # build scores 0 without the fields; when one kind is left, a loop of its own.
    cdef double mx[3][2]
    cdef double* vp
    cdef double inc, v, t1, cq0, cq1, bk
    cdef double sel[2]
    cdef u128 free = c.building & ~s.occupied, fields
    cdef int k, f, land, h, ok, use = 0
    cdef int left3[3]
    cdef int plain[2]
    cdef uint64_t w
    cdef const int* costs[3]
    for k in range(3):
        mx[k][0] = -INFINITY
        mx[k][1] = -INFINITY
    fields = free & x.near
    fields_ready(c, s, x, pol, fields)
    left3[0] = s.n_houses[x.p] < c.max_house
    left3[1] = s.n_agoras[x.p] < c.max_agora
    left3[2] = s.n_palaces[x.p] < c.max_palace
    costs[0] = c.cost_house
    costs[1] = c.cost_agora
    costs[2] = c.cost_palace
    for k in range(3):
        use |= (left3[k] & ((x.marble >= costs[k][0]) | (x.marble >= costs[k][1]))) << k
    use &= need
    cq0 = x.cq[0]
    cq1 = x.cq[1]
    if use and not (use & (use - 1)):
        k = __builtin_ctzll(use)
        cq0 = x.cq[k]
        for h in range(2):
            w = <uint64_t>fields if h == 0 else <uint64_t>(fields >> 64)
            while w:
                f = (h << 6) + __builtin_ctzll(w)
                w &= w - 1
                land = x.sm.land[f]
                v = (x.t1_of[x.nbkey[f]] + x.xv[f][k]) + x.sm.inc[f] * cq0
                if v > mx[k][land]:
                    mx[k][land] = v
        fields = 0
    elif not use:
        fields = 0
    for h in range(2):
        w = <uint64_t>fields if h == 0 else <uint64_t>(fields >> 64)
        while w:
            f = (h << 6) + __builtin_ctzll(w)
            w &= w - 1
            vp = x.xv[f]
            t1 = x.t1_of[x.nbkey[f]]
            inc = x.sm.inc[f]
            land = x.sm.land[f]
            v = (t1 + vp[0]) + inc * cq0
            if v > mx[0][land]:
                mx[0][land] = v
            inc *= cq1          # (= inc x cq[2]: the two are the same number, see geo_refresh)
            v = (t1 + vp[1]) + inc
            if v > mx[1][land]:
                mx[1][land] = v
            v = (t1 + vp[2]) + inc
            if v > mx[2][land]:
                mx[2][land] = v
    # the maxima per kind: a land counts when the kind is left and affordable there
    # (its plain fields when it has some); a term that does not count is -inf
    # (dmax ignores it), and a land without scored fields has mx = -inf too
    build_base_x(c, x, pol, PH_BUILD_HOUSE, 0)      # x.bb up to date
    plain[0] = (free & c.coast & ~x.near) != 0
    plain[1] = (free & ~c.coast & ~x.near) != 0
    sel[0] = -INFINITY
    for k in range(3):
        bk = 0.0
        for land in range(2):
            ok = left3[k] & (x.marble >= costs[k][land])
            sel[1] = x.bb[k][land]
            bk = dmax(bk, sel[ok & plain[land]])
            sel[1] = x.bb[k][land] + mx[k][land]
            bk = dmax(bk, sel[ok])
        best[k] = bk


cdef inline double monument_opp_terms(double v, u128 nb, const u128* opp, int n_o, double wog, double wdf,
                                      u128 opp_own) noexcept nogil:
    # best_monument_fast's opponent terms of a field next to opponents' pieces
    # (opponent_gain per opponent next to it: -0.0 for the others; deny_field)
    cdef int o
    for o in range(n_o):
        v += keep_term(wog, (nb & opp[o]) != 0)
    return v + wdf * popcount128(nb & opp_own)


cdef double best_monument_fast(const HCfg* c, const HState* s, const PCtx* x, const Policy* pol) noexcept nogil:
    # = best_monument, weighted directly: a field with no seat's piece next to it
    # scores like a plain one (cost terms only). The term of a group comes from a
    # table by its city flag, the opponents' add -0.0 where absent.
    # With symmetric neighbours the fields next to own groups (gadj_all) are
    # those with own neighbours: they are scored in a loop of their own, the
    # others (next to opponents only) without the group part
    cdef double best = 0.0, v, base, wog, wdf
    cdef double gterm[2]
    cdef int f, o, h, n_o = 0
    cdef uint64_t gb, w
    cdef u128 fields, nb, m, own = x.own, opp_own = x.opp_own, near_pieces = x.gadj_all | x.opp_near
    cdef u128 todo[2]
    cdef u128 opp[MAXP]
    if s.supply_monuments <= 0 or x.marble < c.cost_monument:
        return 0.0
    base = (pol.w[F_COST] * c.cost_monument + pol.w[F_MARBLE_SCORE] * marble_score_delta(x, -c.cost_monument)
            + (pol.w[F_LATE_COST] * c.cost_monument if x.last_round else 0.0))
    fields = c.inland_building & ~s.occupied
    if fields & ~near_pieces:
        best = dmax(best, base)
    fields &= near_pieces
    gterm[0] = pol.w[F_MONUMENT_VALUE] * 1.5        # by gcity
    gterm[1] = pol.w[F_MONUMENT_VALUE] * 3.0
    for o in range(s.n_players):
        opp[n_o] = s.own[o]
        n_o += o != x.p
    wog = pol.w[F_OPPONENT_GAIN] * 3.0
    wdf = pol.w[F_DENY_FIELD]
    todo[0] = fields
    todo[1] = 0
    if c.nbr_symmetric:
        todo[0] = fields & x.gadj_all
        todo[1] = fields & ~x.gadj_all      # next to opponents' pieces only
    for h in range(2):
        w = <uint64_t>todo[0] if h == 0 else <uint64_t>(todo[0] >> 64)
        while w:
            f = (h << 6) + __builtin_ctzll(w)
            w &= w - 1
            nb = c.nbr[f]
            v = base
            m = nb & own
            gb = 0
            while m:
                gb |= (<uint64_t>1) << x.gid[ctz128(m)]
                m &= m - 1
            while gb:
                v += gterm[x.gcity[__builtin_ctzll(gb)]]
                gb &= gb - 1
            if nb & opp_own:
                v = monument_opp_terms(v, nb, opp, n_o, wog, wdf, opp_own)
            best = dmax(best, v)
    for h in range(2):
        w = <uint64_t>todo[1] if h == 0 else <uint64_t>(todo[1] >> 64)
        while w:
            f = (h << 6) + __builtin_ctzll(w)
            w &= w - 1
            best = dmax(best, monument_opp_terms(base, c.nbr[f], opp, n_o, wog, wdf, opp_own))
    return best


cdef void temple_coefs_fast(const HCfg* c, const HState* s, const PCtx* x, double* mine,
                            double* opp) noexcept nogil:
    # = temple_coefs. The groups next to a temple are those of the seat's pieces
    # next to it (symmetric neighbours): one pass over the pieces next to temples
    # marks each one's group (gid) at its temples (x.sm.ftemples); sums of 1.0 and
    # 0.5 are exact in any order, so mine = (groups + city groups) / 2. opp
    # counts the opponents next to the temple.
    cdef int t, g, o, n, n_o = 0, h, f
    cdef uint64_t w, bit, cbit, tm
    cdef uint64_t gbt[MAXT]
    cdef uint64_t cbt[MAXT]
    cdef u128 tb, tn, m
    cdef u128 opps[MAXP]
    if not c.nbr_symmetric:
        rare()
        for t in range(c.n_temples):
            tb = x.sm.tbit[t]
            tn = c.nbr[c.temple_field[t]]
            mine[t] = 0.0
            opp[t] = 0.0
            for g in range(x.ng):
                if x.gadj[g] & tb:
                    mine[t] += 1.0 if x.gcity[g] else 0.5
            for o in range(s.n_players):
                if o != x.p and (tn & s.own[o]):
                    opp[t] += 1.0
        return
    for t in range(c.n_temples):
        gbt[t] = 0
        cbt[t] = 0
    m = x.own & x.sm.tnear
    for h in range(2):
        w = <uint64_t>m if h == 0 else <uint64_t>(m >> 64)
        while w:
            f = (h << 6) + __builtin_ctzll(w)
            w &= w - 1
            g = x.gid[f]
            bit = (<uint64_t>1) << g
            cbit = (<uint64_t>x.gcity[g]) << g
            tm = x.sm.ftemples[f]
            while tm:
                t = __builtin_ctzll(tm)
                tm &= tm - 1
                gbt[t] |= bit
                cbt[t] |= cbit
    for o in range(s.n_players):
        opps[n_o] = s.own[o]
        n_o += o != x.p
    for t in range(c.n_temples):
        mine[t] = 0.5 * (pop64(gbt[t]) + pop64(cbt[t]))
        tn = c.nbr[c.temple_field[t]]
        n = 0
        for o in range(n_o):
            n += (tn & opps[o]) != 0
        opp[t] = n


cdef inline void temple_coefs_memo(const HCfg* c, const HState* s, PCtx* x) noexcept nogil:
    # x.tc_mine, x.tc_opp = temple_coefs, recomputed only after new groups or pieces
    cdef int o
    if not x.tc_stale:
        for o in range(s.n_players):
            if x.tc_key[o] != (s.own[o] & x.sm.tnear):
                x.tc_stale = 1
                break
    if x.tc_stale:
        temple_coefs_fast(c, s, x, x.tc_mine, x.tc_opp)
        x.tc_stale = 0
        x.st_a_ok = 0
        for o in range(s.n_players):
            x.tc_key[o] = s.own[o] & x.sm.tnear


cdef inline void split_terms_memo(const HCfg* c, const HState* s, PCtx* x, const Policy* pol) noexcept nogil:
    # split_terms without the cost part (the same for every space) into x.st_a and x.st_rv
    # (after temple_coefs_memo), recomputed only when the temple coefficients, the seat's rings, the opponents' most rings or the supply changed.
    # most_rings and ring_points_m as selects (the same integers)
    cdef int t, k, o, r, rings, most = 0, mine = s.rings[x.p], now
    cdef int bonus = c.ring_bonus_all_tied != 0
    cdef int key
    for o in range(s.n_players):
        r = s.rings[o] & -(o != x.p)
        most = r if r > most else most
    key = mine | (most << 8) | (<int>s.supply_rings << 16)
    if not x.st_a_ok:
        for t in range(c.n_temples):
            x.st_a[t] = pol.w[F_TEMPLE_COLUMNS] * x.tc_mine[t] + pol.w[F_OPPONENT_GAIN] * x.tc_opp[t]
        x.st_a_ok = 1
    if x.st_key != key:
        now = 2 * mine + 3 * ((mine >= most) & ((mine > 0) | bonus))
        for k in range(c.n_temples + 1):
            rings = 1 + k
            rings = s.supply_rings if rings > s.supply_rings else rings
            r = mine + rings
            x.st_rv[k] = pol.w[F_RINGS] * (2 * r + 3 * ((r >= most) & ((r > 0) | bonus)) - now)
        x.st_key = key


cdef double best_split_fast(const HCfg* c, const HState* s, const PCtx* x, const Policy* pol, int space,
                            const double* av, const int* room, uint32_t cand, int free,
                            const double* ring_value) noexcept nogil:
    # = best_split, from the temple values av (= x.st_a, av[MAXT] = -inf), their
    # room, the temples with room (cand, bits) and the total room. The greedy's
    # pick, the highest value among the unused temples with room (ties to the
    # lower index), is an index select without branches (MAXT: none yet)
    cdef double v
    cdef int cols = c.space_columns[space], left, t, u, bt, ok, comp = 0, r, cost = c.space_cost[space]
    if x.marble < cost or s.supply_columns < cols or free < cols:
        return 0.0
    v = (pol.w[F_COST] * cost + pol.w[F_MARBLE_SCORE] * marble_score_delta(x, -cost)
         + (pol.w[F_LATE_COST] * cost if x.last_round else 0.0))
    left = cols
    while left > 0:
        bt = MAXT
        for t in range(c.n_temples):
            ok = ((cand >> t) & 1) & (av[t] > av[bt])
            bt += (t - bt) & -ok
        if bt == MAXT:
            break
        cand &= ~((<uint32_t>1) << bt)
        r = room[bt]
        u = r if r < left else left
        v += u * av[bt]
        comp += u == r
        left -= u
    v += ring_value[comp]
    return v if v > 0.0 else 0.0


cdef inline void quarry_incomes(const HCfg* c, const HState* s, const PCtx* x, double* mine,
                                double* opp) noexcept nogil:
    # seat_income of the seat and the sum of its opponents' (their houses are
    # disjoint, so one mask): integers, the same as the sum seat by seat
    cdef u128 hm = s.houses[x.p], ho = 0
    cdef int i, o, q, y, a = 0, b = 0
    for o in range(s.n_players):
        ho |= s.houses[o]
    ho &= ~hm
    for i in range(x.sm.nq):
        q = x.sm.qf[i]
        y = c.yield_of[s.quarry_top[q]]
        a += popcount128(hm & c.nbr[q]) * y
        b += popcount128(ho & c.nbr[q]) * y
    mine[0] = a
    opp[0] = b


ctypedef struct Slots:
    # choose_space scores by slot (see score_spaces): the value so far, the
    # space value and marble gain, the kind, and the list of the slots set
    double fin[7 + MAXS]
    double sv[7 + MAXS]
    double gain[7 + MAXS]
    int8_t kind[7 + MAXS]
    int8_t used[7 + MAXS]
    int n


cdef inline void slot_set(Slots* q, const Policy* pol, int sl, int kind, double v, double gain,
                          double sv) noexcept nogil:
    # a slot's score up to space_value, in dot's order
    q.fin[sl] = v + (pol.w[F_MARBLE_GAIN] * gain + pol.w[F_SPACE_VALUE] * sv)
    q.sv[sl] = sv
    q.gain[sl] = gain
    q.kind[sl] = <int8_t>kind
    q.used[q.n] = <int8_t>sl
    q.n += 1


cdef double score_spaces(const HCfg* c, const HState* s, const Policy* pol, PCtx* x,
                         const int16_t* buf, int n, double* sc) noexcept nogil:
    # choose_space: w . F of action_features, term by term in dot's order; returns
    # the best. A score depends on the space's kind only (on the space itself
    # for temple and marble spaces, and through last_space): one score per slot
    # (x.sm.sp_slot) computed once, for the kinds of the unused spaces (buf's, or
    # more: the values are pure), then gathered. The optional terms are added
    # slot by slot after the others (the order of each sum stays dot's).
    cdef Slots q
    cdef double bb[3]
    cdef double av[MAXT + 1]
    cdef int room[MAXT]
    cdef double inc_me, inc_opp, v, tf, best = -INFINITY
    cdef int i, j, sp, sl, t, free
    cdef uint32_t avail = x.sm.sp_all & ~(<uint32_t>s.spaces_used), m, cand
    q.n = 0
    if avail & x.sm.sp_build:
        best_builds(c, s, x, pol, bb, ((avail & x.sm.sp_needs[0]) != 0) | (((avail & x.sm.sp_needs[1]) != 0) << 1)
                    | (((avail & x.sm.sp_needs[2]) != 0) << 2))
        slot_set(&q, pol, SK_HOUSE, SK_HOUSE, 0.0, 0.0, bb[0])
        slot_set(&q, pol, SK_HOUSE_OR_AGORA, SK_HOUSE_OR_AGORA, 0.0, 0.0, bb[0] + bb[1])
        slot_set(&q, pol, SK_PALACE, SK_PALACE, 0.0, 0.0, bb[2])
    if avail & x.sm.sp_monument:
        slot_set(&q, pol, SK_MONUMENT, SK_MONUMENT, 0.0, 0.0, best_monument_fast(c, s, x, pol))
    if avail & x.sm.quarry_spaces:
        quarry_incomes(c, s, x, &inc_me, &inc_opp)
        v = (pol.w[F_MARBLE_SCORE] * marble_score_delta(x, <int>inc_me)
             + pol.w[F_DENY_QUARRY] * -inc_opp)
        slot_set(&q, pol, SK_QUARRY, SK_QUARRY, v, inc_me, 0.0)
    m = avail & x.sm.sp_temple
    if m:
        temple_coefs_memo(c, s, x)
        split_terms_memo(c, s, x, pol)
        tf = pol.w[F_TEMPLE_FIRST] * (1.0 if (s.temple_marker < 0 and not x.last_round) else 0.0)
        # best_split_fast's inputs, shared by the temple spaces
        free = 0
        cand = 0
        for t in range(c.n_temples):
            av[t] = x.st_a[t]
            room[t] = c.temple_size[t] - s.temple_cols[t]
            free += room[t]
            cand |= (<uint32_t>(room[t] > 0)) << t
        av[MAXT] = -INFINITY
        while m:
            sp = __builtin_ctzll(m)
            m &= m - 1
            slot_set(&q, pol, 7 + sp, SK_TEMPLE, tf, 0.0,
                     best_split_fast(c, s, x, pol, sp, av, room, cand, free, x.st_rv))
    m = avail & x.sm.sp_other
    while m:
        sp = __builtin_ctzll(m)
        m &= m - 1
        slot_set(&q, pol, 7 + sp, c.space_kind[sp],
                 pol.w[F_MARBLE_SCORE] * marble_score_delta(x, c.space_marble[sp]), c.space_marble[sp], 0.0)
    if pol.w[F_OPPONENT_BUILDS] != 0.0:
        for j in range(q.n):
            sl = q.used[j]
            q.fin[sl] += pol.w[F_OPPONENT_BUILDS] * opponent_builds(c, s, x.p, q.kind[sl])
    if x.last_round:
        for j in range(q.n):
            sl = q.used[j]
            q.fin[sl] += pol.w[F_LATE_MARBLE] * q.gain[sl]
    if pol.w[F_LAST_SPACE] == 0.0:
        for i in range(n):
            v = q.fin[x.sm.sp_slot[buf[i]]]
            sc[i] = v
            best = v if v > best else best
    else:
        for i in range(n):
            sp = buf[i]
            sl = x.sm.sp_slot[sp]
            v = q.fin[sl]
            # last_of_kind: no other unused space of its group
            if q.sv[sl] != 0.0 and not (x.sm.sp_same[sp] & ~s.spaces_used):
                v += pol.w[F_LAST_SPACE] * q.sv[sl]
            sc[i] = v
            best = v if v > best else best
    return best


cdef double score_actions(const HCfg* c, const HState* s, const Policy* pol, PCtx* x,
                          const int16_t* buf, int n, double* sc) noexcept nogil:
    # sc[i] = w . F(buf[i]); returns the highest score (-INFINITY when n = 0)
    cdef double F[NF]
    cdef double cache[6]
    cdef double base[2]
    cdef double va[MAXT * 8]
    cdef double tbase, v, cqk, best = -INFINITY, dv, wmi, wdq
    cdef u128 interesting, ho
    cdef uint64_t room
    cdef int i = 0, cols, cost, f, kind, ph = s.phase, myh, opph, o, t, j
    cdef double* xv
    if ph == PH_BUILD_HOUSE or ph == PH_BUILD_AGORA or ph == PH_BUILD_PALACE:
        base[0] = build_base_x(c, x, pol, ph, 0)
        base[1] = build_base_x(c, x, pol, ph, 1)
        kind = ph - PH_BUILD_HOUSE
        if n > 0 and buf[0] == A_PASS:       # sorted: PASS (16) comes before every field
            sc[0] = 0.0
            best = 0.0
            i = 1
        # locals: the compiler cannot keep x's fields in registers across field_fill
        interesting = x.interesting
        cqk = x.cq[kind]
        while i < n:
            f = buf[i] - A_FIELD
            if not (c.nbr[f] & interesting):
                v = base[x.sm.land[f]]
            else:
                field_ready(c, s, x, pol, f)
                v = base[x.sm.land[f]] + (x.t1_of[x.nbkey[f]] + x.xv[f][kind]) + x.sm.inc[f] * cqk
            sc[i] = v
            if v > best:
                best = v
            i += 1
        return best
    if ph == PH_CHOOSE:
        return score_spaces(c, s, pol, x, buf, n, sc)
    if ph == PH_TEMPLE:
        # = split_terms, the temple coefficients from the memo; the terms
        # v x a[t] by temple and column count for split_score
        temple_coefs_memo(c, s, x)
        split_terms_memo(c, s, x, pol)
        cost = c.space_cost[s.space]
        tbase = (pol.w[F_COST] * cost + pol.w[F_MARBLE_SCORE] * marble_score_delta(x, -cost)
                 + (pol.w[F_LATE_COST] * cost if x.last_round else 0.0))
        cols = c.space_columns[s.space]
        room = 0
        for t in range(MAXT):
            va[8 * t] = -0.0        # (also past n_temples: split_score's fixed count)
        for t in range(c.n_temples):
            for j in range(1, cols + 1):
                va[8 * t + j] = j * x.st_a[t]
            room |= (<uint64_t>(c.temple_size[t] - s.temple_cols[t])) << (8 * t)
        if n > 0 and buf[0] == A_PASS:       # sorted: PASS (16) comes before every split
            sc[0] = 0.0
            best = 0.0
            i = 1
        while i < n:
            v = split_score(c, c.split_packed[cols][buf[i] - A_SPLIT], room, va, x.st_rv, tbase)
            sc[i] = v
            best = v if v > best else best
            i += 1
        return best
    if ph == PH_QUARRY_PLACE or ph == PH_WORKER_MOVE:
        # = dot of action_features: the two non-zero terms in dot's order (the
        # zero terms add nothing to a non-zero sum); the opponents' houses are
        # disjoint, so one mask counts them
        ho = 0
        for o in range(s.n_players):
            ho |= s.houses[o]
        ho &= ~s.houses[x.p]
        wmi = pol.w[F_MARBLE_INCOME]
        wdq = pol.w[F_DENY_QUARRY]
        for i in range(n):
            f = buf[i] - A_FIELD
            myh = popcount128(s.houses[x.p] & c.nbr[f])
            opph = popcount128(ho & c.nbr[f])
            if ph == PH_QUARRY_PLACE:
                dv = quarry_value(x, s.tile, c) - quarry_value(x, s.quarry_top[f], c)
            else:
                dv = 0.5
            v = wmi * (myh * dv * x.qa_left) + wdq * (-opph * dv * x.qa_left)
            sc[i] = v
            best = v if v > best else best
        return best
    rare()                      # (monument decisions: 0.35 a game)
    for i in range(6):
        cache[i] = INFINITY
    for i in range(n):
        action_features(c, s, x, pol, buf[i], F, cache)
        sc[i] = dot(pol, F)
    for i in range(n):
        if sc[i] > best:
            best = sc[i]
    return best


cdef int select_action(const Policy* pol, uint64_t* prng, const int16_t* buf, const double* sc,
                       int n, double best) noexcept nogil:
    # best: the highest of sc[0..n-1] (sc[n..15] and sc[n] = -inf: tie_mask reads them)
    cdef int i, nt, k, w
    cdef double total, u, low
    cdef double wts[MAXLEGAL]
    cdef uint64_t m[4]     # MAXLEGAL / 64
    cdef uint64_t b
    if pol.epsilon > 0.0 and rng_uniform(prng) < pol.epsilon:
        rare()
        return buf[rng_below(prng, n)]
    if pol.temperature > 0.0:
        rare()
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
    # ties: every score within 1e-9 of the best, one drawn uniformly (in buf order):
    # the k-th (from 0) of the tie mask's bits
    low = best - 1e-9
    nt = tie_mask(sc, n, low, m)
    k = 0 if nt == 1 else <int>rng_below(prng, nt)
    w = 0
    while k >= pop64(m[w]):
        k -= pop64(m[w])
        w += 1
    b = m[w]
    while k > 0:
        b &= b - 1
        k -= 1
    return buf[64 * w + __builtin_ctzll(b)]


cdef int choose_action(const HCfg* c, const HState* s, const Policy* pol, uint64_t* prng,
                       const int16_t* buf, int n) noexcept nogil:
    cdef double sc[MAXLEGAL]
    cdef PCtx* x = &(<Policy*>pol).x      # the seat's memo (mutable by design)
    cdef int i
    if pol.kind == 0:
        return buf[rng_below(prng, n)]
    make_ctx(c, s, x, pol)
    for i in range(16):
        sc[i] = -INFINITY       # (select_action reads 16 scores at least, and sc[n] when n is odd)
    if n < MAXLEGAL:
        sc[n] = -INFINITY
    return select_action(pol, prng, buf, sc, n, score_actions(c, s, pol, x, buf, n, sc))


cdef inline int nth_field(u128 m, int k) noexcept nogil:
    # the k-th (from 0) set bit of m, ascending
    cdef uint64_t w = <uint64_t>m
    cdef int c = popcount128(<u128>w), off = 0
    if k >= c:
        k -= c
        w = <uint64_t>(m >> 64)
        off = 64
    while k > 0:
        w &= w - 1
        k -= 1
    return off + __builtin_ctzll(w)


cdef inline int build_by_mask(const Policy* pol) noexcept nogil:
    # choose_build gives this policy's choose_action (softmax needs every score)
    return pol.kind == 1 and not (pol.temperature > 0.0)


cdef int choose_build(const HCfg* c, const HState* s, const Policy* pol, uint64_t* prng,
                      u128 fields) noexcept nogil:
    # = choose_action on a build decision whose actions are PASS and `fields`
    # (build_by_mask(pol), c.nbr_symmetric, fields not empty), without listing
    # them: a plain field scores base[land], so only the fields next to
    # something interesting are scored one by one, and the ties are drawn from
    # masks in the order of the legal actions (PASS, then ascending fields)
    cdef PCtx* x = &(<Policy*>pol).x      # the seat's memo (mutable by design)
    cdef double base[2]
    cdef double val[MAXF]
    cdef double v, best = 0.0, low, cqk     # PASS scores 0
    cdef u128 near, scored, plain0, plain1, ties = 0, d
    cdef uint64_t w, cw
    cdef uint64_t cand[2]
    cdef uint64_t tw[2]
    cdef int ph = s.phase, kind, f, nt, k, pass_tie, h
    make_ctx(c, s, x, pol)
    kind = ph - PH_BUILD_HOUSE
    base[0] = build_base_x(c, x, pol, ph, 0)
    base[1] = x.bb[kind][1]             # (x.bb up to date after the call)
    # fields next to an interesting one (occupied, temple, active quarry): with
    # symmetric neighbours, those next to own pieces, temples, quarries, monuments
    # (x.near) or opponents' pieces (x.opp_near)
    near = x.near | x.opp_near
    scored = fields & near
    plain0 = fields & ~near & c.coast
    plain1 = fields & ~near & ~c.coast
    if plain0 and base[0] > best:
        best = base[0]
    if plain1 and base[1] > best:
        best = base[1]
    cqk = x.cq[kind]
    # cand: the fields within 1e-9 of the best so far when scored, a superset of the
    # final ties (the best only grows); the two 64-bit halves separately (cheaper)
    low = best - 1e-9
    fields_ready(c, s, x, pol, scored)
    for h in range(2):
        w = <uint64_t>scored if h == 0 else <uint64_t>(scored >> 64)
        cw = 0
        while w:
            f = (h << 6) + __builtin_ctzll(w)
            w &= w - 1
            v = base[x.sm.land[f]] + (x.t1_of[x.nbkey[f]] + x.xv[f][kind]) + x.sm.inc[f] * cqk
            val[f] = v
            best = v if v > best else best      # maxsd, and the candidate bit from a comparison
            low = best - 1e-9
            cw |= (<uint64_t>(v >= low)) << (f & 63)
        cand[h] = cw
    if pol.epsilon > 0.0 and rng_uniform(prng) < pol.epsilon:
        rare()
        k = <int>rng_below(prng, 1 + popcount128(fields))
        return A_PASS if k == 0 else A_FIELD + nth_field(fields, k - 1)
    low = best - 1e-9
    if base[0] >= low:
        ties |= plain0
    if base[1] >= low:
        ties |= plain1
    for h in range(2):
        w = cand[h]
        cw = 0
        while w:
            f = (h << 6) + __builtin_ctzll(w)
            w &= w - 1
            cw |= (<uint64_t>(val[f] >= low)) << (f & 63)
        tw[h] = cw
    ties |= tw[0] | ((<u128>tw[1]) << 64)
    pass_tie = 0.0 >= low
    nt = pass_tie + popcount128(ties)
    if nt == 1:
        return A_PASS if pass_tie else A_FIELD + ctz128(ties)
    k = <int>rng_below(prng, nt)
    if pass_tie:
        if k == 0:
            return A_PASS
        k -= 1
    return A_FIELD + nth_field(ties, k)
