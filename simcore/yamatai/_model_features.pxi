# Yamataï's features for learned models (simcore/_model.pxd, docs/learned.md), included at the
# end of _engine.pyx. Per action: the heuristic's NF features of the action (action_features,
# one context shared by the decision's actions; no feature depends on the weights), the seat's
# feature-context policy's score of the action and the score less the decision's best. Per
# position: the stage (one-hot), the round, the seat's points, its lead over the best opponent,
# its coins, the boats in its hand, its pieces left and the fewest pieces left at the table.
from cpython.pycapsule cimport PyCapsule_New as _mf_capsule
from simcore._model cimport ModelOps, MODEL_OPS_CAPSULE

cdef enum:
    MF_ACTION = NF + 2
    MF_STATE = 17

MODEL_ACTION_FEATURES = C_FEATURES + ("heuristic_score", "heuristic_regret")
MODEL_STATE_FEATURES = ("stage_fleet", "stage_fleet10", "stage_pre", "stage_place", "stage_post",
                        "stage_collect", "stage_after", "stage_remove", "stage_port", "stage_recruit",
                        "round", "points", "lead", "coins", "hand_boats", "pieces", "fewest_pieces")


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
    cdef int i, k, o, opp = -32768, few = 127, boats = 0
    cdef uint32_t mask
    cdef Ctx x
    x.ready = 0
    for i in range(n):
        F = act + i * MF_ACTION
        for k in range(MF_ACTION):
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
        act[i * MF_ACTION + NF + 1] = act[i * MF_ACTION + NF] - best
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


cdef ModelOps _MODEL_OPS
_MODEL_OPS.n_action = MF_ACTION
_MODEL_OPS.n_state = MF_STATE
_MODEL_OPS.features = _mf_features


def model_ops():
    """Yamataï's :c:type:`ModelOps` (``simcore/_model.pxd``) as a PyCapsule."""
    return _mf_capsule(<void*>&_MODEL_OPS, MODEL_OPS_CAPSULE, NULL)
