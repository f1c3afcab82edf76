# Hellas' features for learned models (simcore/_model.pxd, docs/learned.md), included at the
# end of _engine.pyx. Per action: the heuristic's NF features of the action (action_features,
# the seat's feature-context policy for the weighted ones), that policy's score of the action and
# the score less the decision's best. Per position: the phase (one-hot), the round, the seat's
# points, its lead over the best opponent, its marble.
from cpython.pycapsule cimport PyCapsule_New as _mf_capsule
from simcore._model cimport ModelOps, MODEL_OPS_CAPSULE

cdef enum:
    MF_ACTION = NF + 2
    MF_STATE = 12

MODEL_ACTION_FEATURES = C_FEATURES + ("heuristic_score", "heuristic_regret")
MODEL_STATE_FEATURES = ("phase_choose", "phase_build_house", "phase_build_agora", "phase_build_palace",
                        "phase_monument", "phase_temple", "phase_quarry_place", "phase_worker_move",
                        "round", "points", "lead", "marble")


cdef void _mf_features(const void* cv, const void* sv, void* bv, const int32_t* legal, int n,
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
        F = act + i * MF_ACTION
        action_features(c, s, &pol.x, pol, legal[i], F, cache)
        v = 0.0
        for k in range(NF):
            v += pol.w[k] * F[k]
        F[NF] = v
        if v > best:
            best = v
    for i in range(n):
        act[i * MF_ACTION + NF + 1] = act[i * MF_ACTION + NF] - best
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


cdef ModelOps _MODEL_OPS
_MODEL_OPS.n_action = MF_ACTION
_MODEL_OPS.n_state = MF_STATE
_MODEL_OPS.features = _mf_features


def model_ops():
    """Hellas' :c:type:`ModelOps` (``simcore/_model.pxd``) as a PyCapsule."""
    return _mf_capsule(<void*>&_MODEL_OPS, MODEL_OPS_CAPSULE, NULL)
