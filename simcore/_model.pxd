# The C-level hooks a learned model needs from a game (simcore/_model.pyx, docs/learned.md):
# the features of a decision, computed inside the engine without Python.
#
# A game that supports models exports ``model_ops()``: a PyCapsule of a ModelOps. ``features``
# writes, for the decision at ``s`` with the ``n`` legal actions ``legal`` (sorted, as
# GameOps.legal_actions gives them), ``n_action`` numbers per action into ``act`` (row i:
# act[i * n_action ...]) and ``n_state`` numbers describing the position into ``st``. ``block``
# is a GameOps policy block loaded with the feature context's policies (the heuristic
# features that depend on weights take the seat's entry). No allocation, no Python.
from simcore._types cimport int32_t

ctypedef struct ModelOps:
    int n_action
    int n_state
    void (*features)(const void* cfg, const void* s, void* block, const int32_t* legal, int n,
                     double* act, double* st) noexcept nogil

cdef extern from *:
    """
    #define BOARDLAB_MODEL_OPS_CAPSULE "simcore.ModelOps"
    """
    const char* MODEL_OPS_CAPSULE "BOARDLAB_MODEL_OPS_CAPSULE"


# A search's prior over a decision's legal actions (simcore/_mcts.pyx): ``probs`` writes one
# probability per legal action (summing to 1) for the seat to decide at ``s``.
ctypedef struct Prior:
    void (*probs)(void* ctx, const void* cfg, const void* s, const int32_t* legal, int n,
                  double* out) noexcept nogil
    void* ctx

cdef extern from *:
    """
    #define BOARDLAB_PRIOR_CAPSULE "simcore.Prior"
    """
    const char* PRIOR_CAPSULE "BOARDLAB_PRIOR_CAPSULE"
