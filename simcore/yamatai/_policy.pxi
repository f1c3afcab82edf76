# Built-in policies of the Yamatai kernel (included by _engine.pyx).
#
# Only the uniformly random policy exists so far: ``None`` for a seat in
# ``policies``. It draws one number from the policy stream per decision
# (never at a forced step).

ctypedef struct Policy:
    int kind            # 0 = uniformly random legal action


cdef void load_policy(Policy* pol, obj) except *:
    memset(pol, 0, sizeof(Policy))
    if obj is None:
        pol.kind = 0
        return
    raise ValueError("yamatai has only the random built-in policy so far (give None for each seat)")


cdef int choose_action(const YCfg* c, const YState* s, const Policy* pol, uint64_t* prng,
                       const int32_t* buf, int n) noexcept nogil:
    return buf[rng_below(prng, n)]
