/* 128-bit field masks for boards of up to 128 fields (Hellas, Yamatai). */
#ifndef BOARDLAB_BITS_H
#define BOARDLAB_BITS_H
#include <stdint.h>
typedef unsigned __int128 u128;

static inline u128 bit128(int i) { return ((u128)1) << i; }
static inline int popcount128(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
/* index of the lowest set bit; x must not be 0 */
static inline int ctz128(u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline int has128(u128 x, int i) { return (int)((x >> i) & 1); }
#endif
