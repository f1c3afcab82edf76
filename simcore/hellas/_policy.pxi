# Built-in policies (included into _engine.pyx): uniform random for now.

ctypedef struct Policy:
    int kind            # 0 uniform random, 1 heuristic


cdef void load_policy(Policy* pol, obj) except *:
    memset(pol, 0, sizeof(Policy))
    if obj is None:
        pol.kind = 0
        return
    raise NotImplementedError("heuristic policies arrive with the strategies issue")


cdef int choose_action(const HCfg* c, const HState* s, const Policy* pol, uint64_t* prng,
                       const int16_t* buf, int n) noexcept nogil:
    return buf[rng_below(prng, n)]
