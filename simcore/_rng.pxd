# xoshiro256** seeded by splitmix64; mirrored in plain Python by simcore/rng.py.
from libc.stdint cimport uint64_t

# The salts of the streams, written once (simcore/rng.py mirrors the first two): a game seed
# xor a salt seeds one stream, so chance, policy noise, a determinization and a search never
# share draws. Compile-time constants.
cdef extern from *:
    """
    #define BOARDLAB_CHANCE_SALT 0x6368616E6365ULL        /* ASCII chance: set-up, shuffles, draws */
    #define BOARDLAB_POLICY_SALT 0x706F6C696379ULL        /* ASCII policy: the built-in policies' noise */
    #define BOARDLAB_DETERMINIZE_SALT 0x64657465726DULL   /* ASCII determ: a determinization's reshuffles */
    #define BOARDLAB_SEARCH_SALT 0x6D637473ULL            /* ASCII mcts: a search's own stream */
    """
    const uint64_t CHANCE_SALT "BOARDLAB_CHANCE_SALT"
    const uint64_t POLICY_SALT "BOARDLAB_POLICY_SALT"
    const uint64_t DETERMINIZE_SALT "BOARDLAB_DETERMINIZE_SALT"
    const uint64_t SEARCH_SALT "BOARDLAB_SEARCH_SALT"


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline void rng_seed(uint64_t* s, uint64_t seed, uint64_t salt) noexcept nogil:
    cdef uint64_t x = seed ^ salt
    cdef int i
    for i in range(4):
        s[i] = splitmix64(&x)

cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t rng_next(uint64_t* s) noexcept nogil:
    cdef uint64_t result = rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result

cdef extern from *:
    """
    static inline uint64_t boardlab_mulhi(uint64_t a, uint64_t b, uint64_t* lo) {
        unsigned __int128 m = (unsigned __int128)a * b;
        *lo = (uint64_t)m;
        return (uint64_t)(m >> 64);
    }
    """
    uint64_t boardlab_mulhi(uint64_t a, uint64_t b, uint64_t* lo) nogil


cdef inline uint64_t rng_below(uint64_t* s, uint64_t n) noexcept nogil:
    # Lemire's multiply-shift with rejection: unbiased, and a division only when rejecting
    cdef uint64_t lo
    cdef uint64_t hi = boardlab_mulhi(rng_next(s), n, &lo)
    cdef uint64_t threshold
    if lo < n:
        threshold = (0 - n) % n
        while lo < threshold:
            hi = boardlab_mulhi(rng_next(s), n, &lo)
    return hi

cdef inline double rng_uniform(uint64_t* s) noexcept nogil:
    # [0, 1) with 53 random bits
    return (rng_next(s) >> 11) * (1.0 / 9007199254740992.0)

