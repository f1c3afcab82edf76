# Yamataï's features for learned models (simcore/_model.pxd, docs/learned.md), included at the
# end of _engine.pyx. Per action: the heuristic's NF features of the action (action_features,
# one context shared by the decision's actions; no feature depends on the weights), the seat's
# feature-context policy's score of the action and the score less the decision's best. Per
# position: the stage (one-hot), the round, the seat's points, its lead over the best opponent,
# its coins, the boats in its hand, its pieces left and the fewest pieces left at the table.
#
# Two feature sets: version 2 (below, ``model_ops()``) and version 1, the first 31 + 17 features
# without the lookahead, which the models trained before it read (``model_ops(names)`` picks
# the set a model's feature names call for).
#
# Version 2: one step of lookahead (issue 32, round 3): every action but the fleet 6/4/8 blocks
# is applied to a copy of the position (on the stack; forced steps are not applied) and the copy
# described for the seat: the best tile PP it could build there and how many builds, the culture
# tokens it could collect, the chain's next placements, the boats left in hand, its tokens as
# recruit payments (pairs, types), its points and coins gained, whether its turn goes on, and the
# best tile after one more boat of the chain. Per position also: the hand by colour, the boats
# placed this turn, the seat's tokens (count, pairs, types), specialists, order and fleet. What the heuristic's features lack is
# what an action leads to within the turn: stopping a chain against going on, which payment
# keeps a pair, which boat opens a build. The blocks of fleets 4, 6 and 8 (up to ~2,000 moves)
# read the position as it is (their effect on builds is the heuristic's ability_build).
from cpython.pycapsule cimport PyCapsule_New as _mf_capsule
from simcore._model cimport ModelOps, MODEL_OPS_CAPSULE

cdef enum:
    MF1_ACTION = NF + 2
    MF1_STATE = 17

MODEL_ACTION_FEATURES_V1 = C_FEATURES + ("heuristic_score", "heuristic_regret")
MODEL_STATE_FEATURES_V1 = ("stage_fleet", "stage_fleet10", "stage_pre", "stage_place", "stage_post",
                        "stage_collect", "stage_after", "stage_remove", "stage_port", "stage_recruit",
                        "round", "points", "lead", "coins", "hand_boats", "pieces", "fewest_pieces")


cdef void _mf_features_v1(const void* cv, const void* sv, void* bv, const int32_t* legal, int n,
                       double* act, double* st) noexcept nogil:
    cdef const YCfg* c = <const YCfg*>cv
    cdef const YState* s = <const YState*>sv
    cdef GPolicies* block = <GPolicies*>bv
    cdef int p = me(s)
    cdef const Policy* pol = &block.pol[p]
    cdef double* F
    cdef double v, best = -1e300
    cdef int16_t sc[N_SC][MAXP]
    cdef int i, k, o, opp = -32768, few = 127, boats = 0
    cdef uint32_t mask
    cdef Ctx x
    x.ready = 0
    for i in range(n):
        F = act + i * MF1_ACTION
        for k in range(MF1_ACTION):
            F[k] = 0.0
        mask = action_features(c, s, &x, legal[i], F)
        # the dot product in feature order over the features set (the others are 0), as the
        # heuristic sums it
        v = 0.0
        for k in range(NF):
            if (mask >> k) & 1:
                v += pol.w[k] * F[k]
            else:
                F[k] = 0.0
        F[NF] = v
        if v > best:
            best = v
    for i in range(n):
        act[i * MF1_ACTION + NF + 1] = act[i * MF1_ACTION + NF] - best
    for k in range(10):
        st[k] = 1.0 if s.stage == k else 0.0
    score(c, s, sc)
    for o in range(s.n_players):
        if o != p and sc[SC_TOTAL][o] > opp:
            opp = sc[SC_TOTAL][o]
        if s.pieces[o] < few:
            few = s.pieces[o]
    for k in range(NCOL):
        boats += s.hand[k]
    st[10] = s.round
    st[11] = sc[SC_TOTAL][p]
    st[12] = sc[SC_TOTAL][p] - opp
    st[13] = s.coins[p]
    st[14] = boats
    st[15] = s.pieces[p]
    st[16] = few


cdef enum:
    NLA = 11                      # lookahead features, between the heuristic's and its score
    MF_ACTION = NF + NLA + 2
    MF_STATE = 29

# the heuristic's score stays the next-to-last action feature (strategies/train.py reads it there)
MODEL_ACTION_FEATURES = C_FEATURES + ("la_build_pp", "la_builds", "la_tokens", "la_chain", "la_hand",
                                      "la_pairs", "la_types", "la_points", "la_coins", "la_turn_goes_on",
                                      "la_build_next", "heuristic_score", "heuristic_regret")
MODEL_STATE_FEATURES = ("stage_fleet", "stage_fleet10", "stage_pre", "stage_place", "stage_post",
                        "stage_collect", "stage_after", "stage_remove", "stage_port", "stage_recruit",
                        "round", "points", "lead", "coins", "hand_boats", "pieces", "fewest_pieces",
                        "hand_bamboo", "hand_wood", "hand_stone", "hand_clay", "hand_gold", "placed",
                        "tokens", "token_pairs", "token_types", "specialists", "order", "fleet_taken")


cdef inline uint64_t _mf_token_islands(const YCfg* c, const YState* s) noexcept nogil:
    cdef uint64_t m = 0
    cdef int i
    for i in range(c.n_islands):
        if s.token[i] >= 0:
            m |= (<uint64_t>1) << i
    return m


cdef int _mf_build_next(const YCfg* c, const YState* t, int p) noexcept nogil:
    """The best tile PP p could build after one more boat of its hand on an empty sea space next
    to the chain's last boat (the builds' rules: an empty island next to that boat, the tile's
    boats around it, fleet 9's discount, pieces, Ananda's toll)."""
    cdef int k, col, i, tl, best = 0, allow = 1 if t.fleet == 9 else 0, nt = 0
    cdef int h[NCOL]
    cdef int tpp[MAXTILES + 5]
    cdef uint64_t tneed[MAXTILES + 5]
    cdef uint32_t tiles = t.reserved[p] & ~t.reserved_now
    cdef u128 nb = c.sea_nbr[t.last] & ~t.occ
    cdef uint64_t isl, have
    for k in range(5):
        if t.row[k] >= 0:
            tiles |= (<uint32_t>1) << t.row[k]
    while tiles:
        tl = __builtin_ctz(tiles)
        tiles &= tiles - 1
        if c.tile_kind[tl] == 0 and t.pieces[p] == 0:
            continue
        tneed[nt] = c.tile_need[tl]
        tpp[nt] = c.tile_pp[tl]
        nt += 1
    while nb:
        k = ctz128(nb)
        nb &= nb - 1
        isl = c.sea_island[k]
        while isl:
            i = __builtin_ctzll(isl)
            isl &= isl - 1
            if not island_empty(t, i) or (t.coins[p] < 2 and ananda_toll(c, t, i, p) >= 0):
                continue
            for col in range(NCOL):
                h[col] = popcount128(c.island_sea[i] & t.boat[col])
            have = pack_boats(h)
            for col in range(NCOL):
                if t.hand[col] <= 0:
                    continue
                for tl in range(nt):
                    if tpp[tl] > best and boats_missing(tneed[tl], have + ((<uint64_t>1) << (8 * col))) \
                            <= allow:
                        best = tpp[tl]
    return best


cdef void _mf_lookahead(const YCfg* c, const YState* s, YState* t, int32_t* buf, int a,
                        int p, int pts0, double* L) noexcept nogil:
    """L[0..NLA): the seat p's view of the position after action ``a`` (a < 0: ``s`` itself)."""
    cdef int k, n, best = 0, tok = 0, hand = 0, pairs = 0, types = 0
    cdef int16_t sc[N_SC][MAXP]
    cdef bint goes_on
    memcpy(t, s, sizeof(YState))
    if a >= 0:
        apply_action(c, t, a)
    goes_on = t.stage != ST_OVER and t.round == s.round and t.turn == s.turn
    for k in range(NLA):
        L[k] = 0.0
    if goes_on and t.marked and (t.stage == ST_PRE or t.stage == ST_PLACE or t.stage == ST_POST):
        n = builds(c, t, buf)
        for k in range(n):
            if c.tile_pp[(buf[k] - A_BUILD) >> 6] > best:
                best = c.tile_pp[(buf[k] - A_BUILD) >> 6]
        L[0] = best
        L[1] = n if n < 8 else 8
        tok = __builtin_popcountll(islands_by_marked(c, t) & _mf_token_islands(c, t))
        if tok > popcount128(t.marked):
            tok = popcount128(t.marked)
        L[2] = tok
    L[10] = L[0]
    if goes_on and t.stage == ST_PLACE:
        L[3] = legal_actions(c, t, buf) - 1
        n = _mf_build_next(c, t, p)
        if n > L[10]:
            L[10] = n
    for k in range(NCOL):
        hand += t.hand[k]
    L[4] = hand if goes_on else 0
    for k in range(NTYPE):
        pairs += t.tokens[p][k] // 2
        types += 1 if t.tokens[p][k] > 0 else 0
    L[5] = pairs
    L[6] = types
    score(c, t, sc)
    L[7] = sc[SC_TOTAL][p] - pts0
    L[8] = t.coins[p] - s.coins[p]
    L[9] = 1.0 if goes_on else 0.0



cdef void _mf_features(const void* cv, const void* sv, void* bv, const int32_t* legal, int n,
                       double* act, double* st) noexcept nogil:
    cdef const YCfg* c = <const YCfg*>cv
    cdef const YState* s = <const YState*>sv
    cdef GPolicies* block = <GPolicies*>bv
    cdef int p = me(s)
    cdef const Policy* pol = &block.pol[p]
    cdef double* F
    cdef double v, best = -1e300
    cdef int16_t sc[N_SC][MAXP]
    cdef int i, k, o, opp = -32768, few = 127, boats = 0, pts0, ntok = 0, pairs = 0, types = 0, nspec = 0
    cdef uint32_t mask
    cdef Ctx x
    cdef YState t
    cdef int32_t buf[MAXLEGAL]
    cdef double base[NLA]
    x.ready = 0
    score(c, s, sc)
    pts0 = sc[SC_TOTAL][p]
    base[0] = -1.0
    for i in range(n):
        F = act + i * MF_ACTION
        for k in range(MF_ACTION):
            F[k] = 0.0
        if legal[i] >= A_SWAPTOK:
            if base[0] < 0.0:
                _mf_lookahead(c, s, &t, buf, -1, p, pts0, base)
            for k in range(NLA):
                F[NF + k] = base[k]
        else:
            _mf_lookahead(c, s, &t, buf, legal[i], p, pts0, F + NF)
        mask = action_features(c, s, &x, legal[i], F)
        # the dot product in feature order over the features set (the others are 0), as the
        # heuristic sums it
        v = 0.0
        for k in range(NF):
            if (mask >> k) & 1:
                v += pol.w[k] * F[k]
            else:
                F[k] = 0.0
        F[NF + NLA] = v
        if v > best:
            best = v
    for i in range(n):
        act[i * MF_ACTION + NF + NLA + 1] = act[i * MF_ACTION + NF + NLA] - best
    for k in range(10):
        st[k] = 1.0 if s.stage == k else 0.0
    for o in range(s.n_players):
        if o != p and sc[SC_TOTAL][o] > opp:
            opp = sc[SC_TOTAL][o]
        if s.pieces[o] < few:
            few = s.pieces[o]
    for k in range(NCOL):
        boats += s.hand[k]
    st[10] = s.round
    st[11] = sc[SC_TOTAL][p]
    st[12] = sc[SC_TOTAL][p] - opp
    st[13] = s.coins[p]
    st[14] = boats
    st[15] = s.pieces[p]
    st[16] = few
    for k in range(NCOL):
        st[17 + k] = s.hand[k]
    st[22] = popcount128(s.marked)
    for k in range(NTYPE):
        ntok += s.tokens[p][k]
        pairs += s.tokens[p][k] // 2
        types += 1 if s.tokens[p][k] > 0 else 0
    for k in range(NSPEC):
        nspec += 1 if s.spec_owner[k] == p else 0
    st[23] = ntok
    st[24] = pairs
    st[25] = types
    st[26] = nspec
    st[27] = s.turn
    st[28] = s.fleet if s.stage != ST_FLEET else 0


cdef ModelOps _MODEL_OPS
_MODEL_OPS.n_action = MF_ACTION
_MODEL_OPS.n_state = MF_STATE
_MODEL_OPS.features = _mf_features
cdef ModelOps _MODEL_OPS_V1
_MODEL_OPS_V1.n_action = MF1_ACTION
_MODEL_OPS_V1.n_state = MF1_STATE
_MODEL_OPS_V1.features = _mf_features_v1


def model_ops(names=None):
    """Yamataï's :c:type:`ModelOps` (``simcore/_model.pxd``) as a PyCapsule: the current features,
    or version 1's when ``names`` (a model's ``(action_features, state_features)``) are version 1's."""
    if (names is not None and tuple(names[0]) == MODEL_ACTION_FEATURES_V1
            and tuple(names[1]) == MODEL_STATE_FEATURES_V1):
        return _mf_capsule(<void*>&_MODEL_OPS_V1, MODEL_OPS_CAPSULE, NULL)
    return _mf_capsule(<void*>&_MODEL_OPS, MODEL_OPS_CAPSULE, NULL)
