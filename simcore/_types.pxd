# Fixed-width types shared by every game's kernel.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef extern from "_bits.h" nogil:
    # a 128-bit unsigned integer: one bit per board field
    ctypedef unsigned long long u128 "u128"
    u128 bit128(int i)
    int popcount128(u128 x)
    int ctz128(u128 x)
    int has128(u128 x, int i)
