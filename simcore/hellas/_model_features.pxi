# Hellas' features for learned models (simcore/_model.pxd, docs/learned.md), included at the
# end of _engine.pyx. Per action: the heuristic's NF features of the action (action_features,
# the seat's feature-context policy for the weighted ones), that policy's score of the action and
# the score less the decision's best. Per position: the phase (one-hot), the round, the seat's
# points, its lead over the best opponent, its marble.
#
# Two feature sets: version 2 (below, ``model_ops()``) and version 1, the first NF + 2 and 12
# features without the lookahead, which the models trained before it read (``model_ops(names)``
# picks the set a model's feature names call for).
#
# Version 2 (issue 32, round 5): one step of lookahead. Every action is applied to a copy of the
# position on the stack and the copy described for the deciding seat against its opponents:
# points, marble, quarry income to come, city and temple points and rings gained, the start
# marker taken, and for an action space its kind and what the seat's best build there gains
# (points, and income for a house: the build that follows the choice, one step further). No hidden information is read: choosing the
# quarry applies only its income (the tiles it reveals are the stack's secret), placing a quarry
# tile only the tile. Per position also the opponents' side (marble, cubes, income, rings, city
# and temple points), the action spaces still open by kind, the start marker, the supply.
from cpython.pycapsule cimport PyCapsule_New as _mf_capsule
from simcore._model cimport ModelOps, MODEL_OPS_CAPSULE

cdef enum:
    MF1_ACTION = NF + 2
    MF1_STATE = 12

MODEL_ACTION_FEATURES_V1 = C_FEATURES + ("heuristic_score", "heuristic_regret")
MODEL_STATE_FEATURES_V1 = ("phase_choose", "phase_build_house", "phase_build_agora", "phase_build_palace",
                           "phase_monument", "phase_temple", "phase_quarry_place", "phase_worker_move",
                           "round", "points", "lead", "marble")


cdef void _mf_features_v1(const void* cv, const void* sv, void* bv, const int32_t* legal, int n,
                          double* act, double* st) noexcept nogil:
    cdef const HCfg* c = <const HCfg*>cv
    cdef const HState* s = <const HState*>sv
    cdef GPolicies* block = <GPolicies*>bv
    cdef Policy* pol = &block.pol[s.current]
    cdef double cache[6]
    cdef double* F
    cdef double v, best = -INFINITY
    cdef int16_t sc[N_SC][MAXP]
    cdef int i, k, o, opp = -32768
    make_ctx(c, s, &pol.x, pol)
    for i in range(6):
        cache[i] = INFINITY
    for i in range(n):
        F = act + i * MF1_ACTION
        action_features(c, s, &pol.x, pol, legal[i], F, cache)
        v = 0.0
        for k in range(NF):
            v += pol.w[k] * F[k]
        F[NF] = v
        if v > best:
            best = v
    for i in range(n):
        act[i * MF1_ACTION + NF + 1] = act[i * MF1_ACTION + NF] - best
    for k in range(8):
        st[k] = 1.0 if s.phase == k else 0.0
    score(c, s, sc)
    for o in range(s.n_players):
        if o != s.current and sc[SC_TOTAL][o] > opp:
            opp = sc[SC_TOTAL][o]
    st[8] = s.round
    st[9] = sc[SC_TOTAL][s.current]
    st[10] = sc[SC_TOTAL][s.current] - opp
    st[11] = s.marble[s.current]


cdef enum:
    NLA = 21                      # lookahead features, between the heuristic's and its score
    MF_ACTION = NF + NLA + 2
    MF_STATE = 12 + 24

# the heuristic's score stays the next-to-last action feature (strategies/train.py reads it there)
MODEL_ACTION_FEATURES = C_FEATURES + (
    "la_points", "la_opp_points", "la_marble", "la_opp_marble", "la_income", "la_opp_income",
    "la_city", "la_temples", "la_rings", "la_marker",
    "space_house", "space_house_agora", "space_palace", "space_quarry", "space_temple",
    "space_monument", "space_marble", "la_build_points", "la_build_income",
    "la_opp_build_points", "la_opp_build_income", "heuristic_score", "heuristic_regret")
MODEL_STATE_FEATURES = MODEL_STATE_FEATURES_V1 + (
    "opp_marble", "cubes", "opp_cubes", "open_house", "open_house_agora", "open_palace", "open_quarry",
    "open_temple", "open_monument", "open_marble", "marker_mine", "marker_other", "income", "opp_income",
    "rings", "opp_rings", "city", "opp_city", "temples", "opp_temples", "supply_columns",
    "supply_rings", "supply_monuments", "temple_room")


cdef int _mf_income(const HCfg* c, const HState* s, int p) noexcept nogil:
    """The marble seat p's houses would yield from the active quarries now (quarry_income's sum)."""
    cdef int i, f, inc = 0, best, y
    cdef u128 h
    if c.double_yield_once:
        h = s.houses[p]
        while h:
            f = ctz128(h)
            h &= h - 1
            best = 0
            for i in range(c.n_quarry_fields):
                if s.quarry_status[c.quarry_field[i]] == Q_ACTIVE and has128(c.nbr[f], c.quarry_field[i]):
                    y = c.yield_of[s.quarry_top[c.quarry_field[i]]]
                    if y > best:
                        best = y
            inc += best
        return inc
    for i in range(c.n_quarry_fields):
        f = c.quarry_field[i]
        if s.quarry_status[f] == Q_ACTIVE:
            inc += popcount128(s.houses[p] & c.nbr[f]) * c.yield_of[s.quarry_top[f]]
    return inc


ctypedef struct _MfSide:
    # the deciding seat's numbers and its opponents' (the best, or the sum for marble and income)
    int16_t sc[N_SC][MAXP]
    int points, opp_points, marble, opp_marble, income, opp_income


cdef void _mf_side(const HCfg* c, const HState* s, int p, _MfSide* d) noexcept nogil:
    cdef int o
    score(c, s, d.sc)
    d.points = d.sc[SC_TOTAL][p]
    d.marble = s.marble[p]
    d.income = _mf_income(c, s, p)
    d.opp_points = -32768
    d.opp_marble = 0
    d.opp_income = 0
    for o in range(s.n_players):
        if o != p:
            if d.sc[SC_TOTAL][o] > d.opp_points:
                d.opp_points = d.sc[SC_TOTAL][o]
            d.opp_marble += s.marble[o]
            d.opp_income += _mf_income(c, s, o)


cdef void _mf_best_build(const HCfg* c, const HState* s, HState* t, int p, int phase, const _MfSide* b,
                         double* pts, double* inc) noexcept nogil:
    """The most points (pts) and quarry income (inc) seat p gains with one piece of ``phase``
    (PH_MONUMENT: a monument) built where it may, ``t`` a copy of ``s`` (restored after each
    field); 0 and 0 when it can build nothing. Away from p's pieces a piece changes only p's
    marble points (no score() there); away from the active quarries a house yields nothing."""
    cdef u128 fields = c.building & ~s.occupied, bit, near = 0
    cdef int f, i, cost, best_p = -32768, best_i = 0, v, base_i = 0, m = s.marble[p]
    cdef int16_t sc[N_SC][MAXP]
    pts[0] = 0.0
    inc[0] = 0.0
    if phase == PH_MONUMENT:
        if s.supply_monuments <= 0 or m < c.cost_monument:
            return
        fields &= c.inland_building
    elif phase == PH_BUILD_HOUSE and s.n_houses[p] >= c.max_house:
        return
    elif phase == PH_BUILD_AGORA and s.n_agoras[p] >= c.max_agora:
        return
    elif phase == PH_BUILD_PALACE and s.n_palaces[p] >= c.max_palace:
        return
    if phase == PH_BUILD_HOUSE:
        base_i = _mf_income(c, s, p)
        for i in range(c.n_quarry_fields):
            if s.quarry_status[c.quarry_field[i]] == Q_ACTIVE:
                near |= c.nbr[c.quarry_field[i]]
    while fields:
        f = ctz128(fields)
        fields &= fields - 1
        bit = bit128(f)
        cost = c.cost_monument if phase == PH_MONUMENT else build_cost(c, phase, f)
        if m < cost:
            continue
        if not (c.nbr[f] & s.own[p]):
            v = b.sc[SC_TOTAL][p] + (m - cost) // 5 - m // 5
        else:
            t.marble[p] = m - cost
            t.occupied = s.occupied | bit
            if phase == PH_MONUMENT:
                t.monuments = s.monuments | bit
            else:
                t.own[p] = s.own[p] | bit
                if phase == PH_BUILD_HOUSE:
                    t.houses[p] = s.houses[p] | bit
                elif phase == PH_BUILD_AGORA:
                    t.agoras[p] = s.agoras[p] | bit
                else:
                    t.palaces[p] = s.palaces[p] | bit
            score(c, t, sc)
            v = sc[SC_TOTAL][p]
            t.marble[p] = m
            t.occupied = s.occupied
            t.monuments = s.monuments
            t.own[p] = s.own[p]
            t.houses[p] = s.houses[p]
            t.agoras[p] = s.agoras[p]
            t.palaces[p] = s.palaces[p]
        if v > best_p:
            best_p = v
        if phase == PH_BUILD_HOUSE and (near & bit):
            t.houses[p] = s.houses[p] | bit
            v = _mf_income(c, t, p) - base_i
            t.houses[p] = s.houses[p]
            if v > best_i:
                best_i = v
    if best_p > -32768:
        pts[0] = best_p - b.sc[SC_TOTAL][p]
        inc[0] = best_i


cdef void _mf_lookahead(const HCfg* c, const HState* s, HState* t, int a, int p, const _MfSide* b,
                        const double* bb, double* L) noexcept nogil:
    """L[0..NLA): seat p's view of the position after action ``a`` against ``b``, the position's
    (``bb``: the best builds' gains of a choice decision, _mf_best_build: the seat's house points
    and income, agora, palace and monument points; its opponents' best house points and income,
    agora and palace points)."""
    cdef int o, kind = -1, k
    cdef _MfSide d
    memcpy(t, s, sizeof(HState))
    if s.phase == PH_CHOOSE and c.space_kind[a] == SK_QUARRY:
        # the quarry's income and the space taken; its tiles are hidden (the stack's order)
        t.spaces_used |= <uint16_t>(1 << a)
        t.cubes_left[p] -= 1
        for o in range(s.n_players):
            k = _mf_income(c, s, o)
            t.marble[o] += k
            t.income[o] += k
    elif s.phase == PH_QUARRY_PLACE:
        t.quarry_top[a - A_FIELD] = s.tile       # the next tile is hidden
    else:
        apply_action(c, t, a)
    _mf_side(c, t, p, &d)
    L[0] = d.points - b.points
    L[1] = d.opp_points - b.opp_points
    L[2] = d.marble - b.marble
    L[3] = d.opp_marble - b.opp_marble
    L[4] = d.income - b.income
    L[5] = d.opp_income - b.opp_income
    L[6] = d.sc[SC_CITY][p] - b.sc[SC_CITY][p]
    L[7] = d.sc[SC_TEMPLES][p] - b.sc[SC_TEMPLES][p]
    L[8] = t.rings[p] - s.rings[p]
    L[9] = 1.0 if (t.temple_marker == p and s.temple_marker != p) else 0.0
    for k in range(7):
        L[10 + k] = 0.0
    for k in range(17, NLA):
        L[k] = 0.0
    if s.phase == PH_CHOOSE:
        kind = c.space_kind[a]
        if 0 <= kind < 7:
            L[10 + kind] = 1.0
        if kind == SK_HOUSE or kind == SK_HOUSE_OR_AGORA:
            L[17] = bb[0]
            L[18] = bb[1]
            L[19] = bb[5]
            L[20] = bb[6]
            if kind == SK_HOUSE_OR_AGORA:
                L[17] += bb[2]
                L[19] += bb[7]
        elif kind == SK_PALACE:
            L[17] = bb[3]
            L[19] = bb[8]
        elif kind == SK_MONUMENT:
            L[17] = bb[4]


cdef void _mf_features(const void* cv, const void* sv, void* bv, const int32_t* legal, int n,
                       double* act, double* st) noexcept nogil:
    cdef const HCfg* c = <const HCfg*>cv
    cdef const HState* s = <const HState*>sv
    cdef GPolicies* block = <GPolicies*>bv
    cdef Policy* pol = &block.pol[s.current]
    cdef double cache[6]
    cdef double* F
    cdef double v, best = -INFINITY
    cdef int i, k, o, p = s.current, cubes_opp = 0, m, kinds = 0
    cdef int opp_m = -32768, opp_r = 0, opp_c = 0, opp_t = 0
    cdef _MfSide b
    cdef HState t
    cdef double bb[9]
    cdef double x, y, z
    make_ctx(c, s, &pol.x, pol)
    _mf_side(c, s, p, &b)
    for k in range(9):
        bb[k] = 0.0
    if s.phase == PH_CHOOSE:
        # what the seat's best piece of each kind would gain (the build that follows a choice)
        memcpy(&t, s, sizeof(HState))
        for k in range(c.n_spaces):
            if not (s.spaces_used >> k) & 1:
                kinds |= 1 << c.space_kind[k]
        for k in range(5, 9):
            bb[k] = -1e9           # the best over the opponents
        # bb: the seat's best house (points, income), agora, palace, monument; the opponents'
        # best house, agora, palace (the all-players builds: they build after the chooser)
        for o in range(s.n_players):
            if o == p and kinds & ((1 << SK_HOUSE) | (1 << SK_HOUSE_OR_AGORA)):
                _mf_best_build(c, s, &t, o, PH_BUILD_HOUSE, &b, &bb[0], &bb[1])
            if o == p and kinds & (1 << SK_HOUSE_OR_AGORA):
                _mf_best_build(c, s, &t, o, PH_BUILD_AGORA, &b, &bb[2], &x)
            if o == p and kinds & (1 << SK_PALACE):
                _mf_best_build(c, s, &t, o, PH_BUILD_PALACE, &b, &bb[3], &x)
            if o == p and kinds & (1 << SK_MONUMENT):
                _mf_best_build(c, s, &t, o, PH_MONUMENT, &b, &bb[4], &x)
            if o == p:
                continue
            if kinds & ((1 << SK_HOUSE) | (1 << SK_HOUSE_OR_AGORA)):
                _mf_best_build(c, s, &t, o, PH_BUILD_HOUSE, &b, &y, &z)
                bb[5] = max(bb[5], y)
                bb[6] = max(bb[6], z)
            if kinds & (1 << SK_HOUSE_OR_AGORA):
                _mf_best_build(c, s, &t, o, PH_BUILD_AGORA, &b, &y, &z)
                bb[7] = max(bb[7], y)
            if kinds & (1 << SK_PALACE):
                _mf_best_build(c, s, &t, o, PH_BUILD_PALACE, &b, &y, &z)
                bb[8] = max(bb[8], y)
        for k in range(5, 9):
            if bb[k] == -1e9:
                bb[k] = 0.0
    for i in range(6):
        cache[i] = INFINITY
    for i in range(n):
        F = act + i * MF_ACTION
        action_features(c, s, &pol.x, pol, legal[i], F, cache)
        v = 0.0
        for k in range(NF):
            v += pol.w[k] * F[k]
        _mf_lookahead(c, s, &t, legal[i], p, &b, bb, F + NF)
        F[NF + NLA] = v
        if v > best:
            best = v
    for i in range(n):
        act[i * MF_ACTION + NF + NLA + 1] = act[i * MF_ACTION + NF + NLA] - best
    for k in range(8):
        st[k] = 1.0 if s.phase == k else 0.0
    st[8] = s.round
    st[9] = b.points
    st[10] = b.points - b.opp_points
    st[11] = s.marble[p]
    for o in range(s.n_players):
        if o != p:
            cubes_opp += s.cubes_left[o]
            if s.marble[o] > opp_m:
                opp_m = s.marble[o]
            if s.rings[o] > opp_r:
                opp_r = s.rings[o]
            if b.sc[SC_CITY][o] > opp_c:
                opp_c = b.sc[SC_CITY][o]
            if b.sc[SC_TEMPLES][o] > opp_t:
                opp_t = b.sc[SC_TEMPLES][o]
    st[12] = opp_m
    st[13] = s.cubes_left[p]
    st[14] = cubes_opp
    for k in range(7):
        st[15 + k] = 0.0
    for k in range(c.n_spaces):
        if not (s.spaces_used >> k) & 1 and c.space_kind[k] < 7:
            st[15 + c.space_kind[k]] += 1.0
    st[22] = 1.0 if s.temple_marker == p else 0.0
    st[23] = 1.0 if (s.temple_marker >= 0 and s.temple_marker != p) else 0.0
    st[24] = b.income
    st[25] = b.opp_income
    st[26] = s.rings[p]
    st[27] = opp_r
    st[28] = b.sc[SC_CITY][p]
    st[29] = opp_c
    st[30] = b.sc[SC_TEMPLES][p]
    st[31] = opp_t
    st[32] = s.supply_columns
    st[33] = s.supply_rings
    st[34] = s.supply_monuments
    m = temple_free(c, s)
    st[35] = m


cdef ModelOps _MODEL_OPS
_MODEL_OPS.n_action = MF_ACTION
_MODEL_OPS.n_state = MF_STATE
_MODEL_OPS.features = _mf_features
cdef ModelOps _MODEL_OPS_V1
_MODEL_OPS_V1.n_action = MF1_ACTION
_MODEL_OPS_V1.n_state = MF1_STATE
_MODEL_OPS_V1.features = _mf_features_v1


def model_ops(names=None):
    """Hellas' :c:type:`ModelOps` (``simcore/_model.pxd``) as a PyCapsule: the current features,
    or version 1's when ``names`` (a model's ``(action_features, state_features)``) are version 1's."""
    if (names is not None and tuple(names[0]) == MODEL_ACTION_FEATURES_V1
            and tuple(names[1]) == MODEL_STATE_FEATURES_V1):
        return _mf_capsule(<void*>&_MODEL_OPS_V1, MODEL_OPS_CAPSULE, NULL)
    return _mf_capsule(<void*>&_MODEL_OPS, MODEL_OPS_CAPSULE, NULL)
