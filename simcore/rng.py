"""The engines' random generator in plain Python: xoshiro256** seeded by splitmix64.

The Cython kernels use the same generator (``simcore/_rng.pxd``); reference
engines use this one, so both draw identical numbers from a game seed.
See ``docs/hellas_engine.md`` (Chance).
"""
import numpy as np

MASK64 = (1 << 64) - 1
CHANCE_SALT = 0x6368616E6365  # "chance"
POLICY_SALT = 0x706F6C696379  # "policy"


def splitmix64(x):
    """Advance a splitmix64 state; return ``(new_state, output)``."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK64


class Xoshiro256:
    """xoshiro256** with ``below(n)``, the unbiased bounded draw the engines use."""

    def __init__(self, seed, salt=CHANCE_SALT):
        x = (int(seed) ^ salt) & MASK64
        s = []
        for _ in range(4):
            x, z = splitmix64(x)
            s.append(z)
        self.s = s

    def next(self):
        s = self.s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n):
        """Uniform integer in ``[0, n)``: Lemire's multiply-shift with rejection (no bias)."""
        m = self.next() * n
        low = m & MASK64
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next() * n
                low = m & MASK64
        return m >> 64


def game_seeds(run_seed, start, stop):
    """Seeds of games ``start .. stop-1`` of a run, as uint64.

    Game ``i`` gets the first word of ``SeedSequence(run_seed, spawn_key=(i,))``,
    so a game's seed depends only on (run seed, game index): results do not
    depend on chunking, worker count or backend.
    """
    out = np.empty(stop - start, dtype=np.uint64)
    for k, i in enumerate(range(start, stop)):
        ss = np.random.SeedSequence(entropy=int(run_seed), spawn_key=(int(i),))
        out[k] = ss.generate_state(1, dtype=np.uint64)[0]
    return out


# ---------------------------------------------------------------- many game seeds at once

# numpy's SeedSequence constants (numpy/random/bit_generator.pyx)
M32 = 0xFFFFFFFF
INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875
INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED
MIX_L, MIX_R = 0xCA01F9DD, 0x4973F715
POOL = 4


def _words(x):
    x = int(x)
    if x == 0:
        return [0]
    out = []
    while x:
        out.append(x & M32)
        x >>= 32
    return out


def _seedsequence_vectorised(run_seed, start, stop):
    """``SeedSequence(run_seed, spawn_key=(i,)).generate_state(1, uint64)[0]`` for i in [start, stop), in numpy.

    numpy's SeedSequence hash (``numpy/random/bit_generator.pyx``) with the
    run seed's part (the same for every game) mixed once and the spawn key as
    an array; game indices must be below 2^32 (one spawn word).
    """
    idx = np.arange(start, stop, dtype=np.uint64)
    u = np.uint32
    run = _words(run_seed)
    if len(run) < POOL:
        run = run + [0] * (POOL - len(run))
    h = [INIT_A]

    def hashmix(v):  # v: python int or uint32 array
        if isinstance(v, np.ndarray):
            v = v ^ u(h[0])
        else:
            v = (v ^ h[0]) & M32
        h[0] = (h[0] * MULT_A) & M32
        if isinstance(v, np.ndarray):
            v = v * u(h[0])
            return v ^ (v >> u(16))
        v = (v * h[0]) & M32
        return v ^ (v >> 16)

    def mix(x, y):
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            r = u(MIX_L) * np.asarray(x, dtype=u) - u(MIX_R) * np.asarray(y, dtype=u)
            return r ^ (r >> u(16))
        r = (MIX_L * x - MIX_R * y) & M32
        return r ^ (r >> 16)

    mixer = [hashmix(run[i]) for i in range(POOL)]
    for s in range(POOL):
        for d in range(POOL):
            if s != d:
                mixer[d] = mix(mixer[d], hashmix(mixer[s]))
    extra = [np.full(len(idx), w, dtype=u) for w in run[POOL:]] + [idx.astype(u)]
    with np.errstate(over="ignore"):
        for w in extra:
            for d in range(POOL):
                mixer[d] = mix(mixer[d], hashmix(w))
        hb = INIT_B
        state = []
        for k in range(2):
            v = np.asarray(mixer[k % POOL], dtype=u) ^ u(hb)
            hb = (hb * MULT_B) & M32
            v = v * u(hb)
            state.append(v ^ (v >> u(16)))
    return state[0].astype(np.uint64) | (state[1].astype(np.uint64) << np.uint64(32))


def chunk_seeds(run_seed, start, stop):
    """Seeds of games ``start .. stop-1``: exactly ``simcore.rng.game_seeds``, about 500x faster.

    A SeedSequence per game costs ~30 us, more than playing the game; the
    vectorised hash gives the same words, checked against ``game_seeds`` at
    both ends of every chunk (falls back to it on any difference).
    """
    if stop <= start:
        return np.empty(0, dtype=np.uint64)
    if stop <= 1 << 32:
        seeds = _seedsequence_vectorised(run_seed, start, stop)
        ends = game_seeds(run_seed, start, start + 1), game_seeds(run_seed, stop - 1, stop)
        if seeds[0] == ends[0][0] and seeds[-1] == ends[1][0]:
            return seeds
    return game_seeds(run_seed, start, stop)
