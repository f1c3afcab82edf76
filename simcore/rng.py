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
