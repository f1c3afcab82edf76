# Akrotiri's features for learned models (simcore/_model.pxd, docs/learned.md), included at the
# end of _engine.pyx. Per action: the heuristic's NFEAT features of the action (as
# action_features reads them off action_value, _policy_api.pxi: the score of each unit weight less
# the offset), the offset no weight multiplies, the seat's feature-context policy's score of the
# action (sum of weight x feature, plus the offset) and that score less the decision's best. Per
# position, public information and the seat's own only (spec 15.4): the phase (one-hot), the seat's
# turn, temples and drachmas of both seats, actions left, cubes aboard, maps in hand, the public
# points (maps excavated and money, no goals) of the seat and its lead, tiles left to draw, cubes on
# the market.
from cpython.pycapsule cimport PyCapsule_New as _mf_capsule
from simcore._model cimport ModelOps, MODEL_OPS_CAPSULE
from simcore.akrotiri.features import FEATURES as _MF_FEATURES

cdef enum:
    MF_ACTION = NFEAT + 3
    MF_STATE = 16

MODEL_ACTION_FEATURES = _MF_FEATURES + ("heuristic_offset", "heuristic_score", "heuristic_regret")
MODEL_STATE_FEATURES = ("phase_place", "phase_cube", "phase_goal", "phase_action", "turn", "temples",
                        "opp_temples", "drachmas", "opp_drachmas", "actions", "cargo", "maps_in_hand",
                        "points", "lead", "tiles_left", "market_cubes")


cdef int _mf_public_points(const ACfg* c, const AState* s, int p) noexcept nogil:
    """Points of the maps the seat excavated plus its money (the goals are secret)."""
    cdef uint64_t bits = s.excavated[p]
    cdef int k, pts = s.drachmas[p] // 10
    while bits:
        k = <int>__builtin_ctzll(bits)
        bits &= bits - 1
        pts += c.card_points[k]
    return pts


cdef void _mf_features(const void* cv, const void* sv, void* bv, const int32_t* legal, int n,
                       double* act, double* st) noexcept nogil:
    cdef const ACfg* c = <const ACfg*>cv
    cdef const AState* s = <const AState*>sv
    cdef GPolicies* block = <GPolicies*>bv
    cdef int p = s.current, o = 1 - s.current
    cdef const Policy* pol = &block.pol[p]
    cdef Ctx* x = &block.ctx               # the feature context's (its caches are emptied before each use)
    cdef Policy unit
    cdef double* F
    cdef double v, best = -1e300
    cdef int i, k
    memset(&unit, 0, sizeof(Policy))
    unit.kind = POL_HEURISTIC
    # one context per unit weight, shared by the decision's actions (the caches hold weighted terms)
    ctx_new_game(x)
    ctx_init(c, s, x)
    for i in range(n):
        act[i * MF_ACTION + NFEAT] = action_value(c, s, &unit, x, legal[i])
    for k in range(NFEAT):
        unit.w[k] = 1.0
        ctx_new_game(x)
        ctx_init(c, s, x)
        for i in range(n):
            act[i * MF_ACTION + k] = action_value(c, s, &unit, x, legal[i]) - act[i * MF_ACTION + NFEAT]
        unit.w[k] = 0.0
    ctx_new_game(x)
    for i in range(n):
        F = act + i * MF_ACTION
        v = 0.0
        for k in range(NFEAT):
            v += pol.w[k] * F[k]
        v += F[NFEAT]
        F[NFEAT + 1] = v
        if v > best:
            best = v
    for i in range(n):
        act[i * MF_ACTION + NFEAT + 2] = act[i * MF_ACTION + NFEAT + 1] - best
    for k in range(4):
        st[k] = 1.0 if s.phase == k else 0.0
    st[4] = s.turns[p]
    st[5] = s.n_temples[p]
    st[6] = s.n_temples[o]
    st[7] = s.drachmas[p]
    st[8] = s.drachmas[o]
    st[9] = s.actions if s.phase == PH_ACTION else 0
    st[10] = s.cargo[p][0] + s.cargo[p][1] + s.cargo[p][2] + s.cargo[p][3]
    st[11] = __builtin_popcountll(s.hand[p])
    st[12] = _mf_public_points(c, s, p)
    st[13] = st[12] - _mf_public_points(c, s, o)
    st[14] = (s.pile_n - s.pile_pos) + s.disc_n
    st[15] = 32 - (s.out[0] + s.out[1] + s.out[2] + s.out[3])


cdef ModelOps _MODEL_OPS
_MODEL_OPS.n_action = MF_ACTION
_MODEL_OPS.n_state = MF_STATE
_MODEL_OPS.features = _mf_features


def model_ops():
    """Akrotiri's :c:type:`ModelOps` (``simcore/_model.pxd``) as a PyCapsule."""
    return _mf_capsule(<void*>&_MODEL_OPS, MODEL_OPS_CAPSULE, NULL)
