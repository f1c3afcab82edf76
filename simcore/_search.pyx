"""Search written once, over the C-level game contract (``simcore/_game_ops.pxd``).

Every engine exports its :c:type:`GameOps` (``game_ops()``) and its ``State`` hands out
C pointers (``State._c_handles``); the functions here work for any game that does.
``docs/game_ops.md`` describes the contract.

Examples
--------
>>> from simcore import hellas, _search
>>> st = hellas.new_game(players=3, seed=7)
>>> actions, values = _search.playout_values(st, [None] * 3, 4, seed=1)
>>> len(actions) == len(values) == len(st.legal_actions())
True
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy
from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_GetPointer

import numpy as np

from simcore._types cimport int32_t, uint64_t
from simcore._rng cimport rng_seed, POLICY_SALT
from simcore._game_ops cimport GameOps, GAME_OPS_CAPSULE

# a playout's noise is drawn from the engines' policy stream (POLICY_SALT), as play_batch draws a game's
cdef uint64_t SHUFFLE_STEP = 0x9E3779B97F4A7C15ULL    # playout j determinizes from seed + j * this
cdef uint64_t NOISE_STEP = 0xBF58476D1CE4E5B9ULL      # ... and draws its noise from seed ^ (j + 1) * this


cdef int _unpack(handles, const GameOps** ops, const void** cfg, void** s) except -1:
    # the (ops, config, state) capsules of State._c_handles
    ops[0] = <const GameOps*>PyCapsule_GetPointer(handles[0], GAME_OPS_CAPSULE)
    cfg[0] = PyCapsule_GetPointer(handles[1], b"simcore.GameConfig")
    s[0] = PyCapsule_GetPointer(handles[2], b"simcore.GameState")
    return 0


cdef int _check_seat(const GameOps* ops, const void* cfg, const void* s, seat) except -1:
    cdef int n = ops.n_players(cfg, s)
    if not (isinstance(seat, (int, np.integer)) and 0 <= seat < n):
        raise ValueError(f"seat must be 0..{n - 1}, not {seat!r}")
    return int(seat)


def determinized(state, seed, seat=None):
    """A clone of ``state`` with everything ``seat`` cannot see resampled from ``seed``.

    What stays: everything ``seat`` sees (its own hand, the public board, counts).
    What is drawn anew, consistently with that: the order of face-down decks and
    stacks, the opponents' hidden cards and tiles, and the chance stream. The result
    depends only on what ``seat`` sees and on ``seed`` (no peeking).

    Parameters
    ----------
    state : a game's State
    seed : int
    seat : int, optional
        Default: the seat to decide (for a game that is over, seat 0).
    """
    out = state.clone()
    cdef const GameOps* ops
    cdef const void* cfg
    cdef void* s
    _unpack(out._c_handles(True), &ops, &cfg, &s)
    if seat is None:
        seat = max(ops.current_player(cfg, s), 0)
    cdef int p = _check_seat(ops, cfg, s, seat)
    ops.determinize(cfg, s, p, <uint64_t>int(seed))
    return out


def playout_values(state, policies, int playouts, seed):
    """Flat Monte Carlo: ``(actions, values)``, the mean win share of the deciding seat
    after each legal action, over ``playouts`` games played on by ``policies``.

    Each playout first determinizes for the deciding seat (the same draws for every
    action: common random numbers), then plays on with the built-in policies (one
    entry per seat: a policy vector, or None for random), noise from the playout's seed.

    Parameters
    ----------
    state : a game's State (not over)
    policies : sequence, one entry per seat
    playouts : int >= 1
    seed : int

    Returns
    -------
    (list of int, numpy.ndarray of float)
    """
    cdef const GameOps* ops
    cdef const void* cfg
    cdef void* s
    _unpack(state._c_handles(), &ops, &cfg, &s)
    if ops.is_over(cfg, s):
        raise ValueError("the game is over: no action to value")
    if playouts < 1:
        raise ValueError(f"playouts must be >= 1, not {playouts}")
    cdef int players = ops.n_players(cfg, s), p = ops.current_player(cfg, s)
    cdef uint64_t base = <uint64_t>int(seed)
    cdef int32_t* legal = <int32_t*>malloc(2 * ops.max_legal * sizeof(int32_t))
    cdef int32_t* buf = legal + ops.max_legal
    cdef void* block = calloc(1, ops.policy_size)
    cdef void* work = malloc(ops.state_size)
    cdef double ret[8]
    cdef uint64_t prng[4]
    cdef int n, m, i, j, a
    cdef double total
    cdef double[::1] v
    try:
        if legal == NULL or block == NULL or work == NULL:
            raise MemoryError()
        ops.load_policies(block, list(policies) if policies is not None else None, players)
        n = ops.legal_actions(cfg, s, legal)
        values = np.zeros(n)
        v = values
        with nogil:
            for i in range(n):
                total = 0.0
                for j in range(playouts):
                    if (j & 255) == 255:
                        with gil:               # Ctrl-C, SIGTERM: raise here (a long valuation stops)
                            PyErr_CheckSignals()
                    memcpy(work, s, ops.state_size)
                    ops.determinize(cfg, work, p, base + <uint64_t>j * SHUFFLE_STEP)
                    rng_seed(prng, base ^ (<uint64_t>(j + 1) * NOISE_STEP), POLICY_SALT)
                    ops.policy_new_game(block)
                    ops.apply_action(cfg, work, legal[i])
                    m = ops.legal_actions(cfg, work, buf)
                    while m > 0:
                        a = ops.policy_action(cfg, work, block, prng, buf, m)
                        ops.apply_action(cfg, work, a)
                        m = ops.legal_actions(cfg, work, buf)
                    ops.returns(cfg, work, ret)
                    total += ret[p]
                v[i] = total / playouts
        return [int(legal[i]) for i in range(n)], values
    finally:
        free(legal)
        free(block)
        free(work)


# -- the contract seen from Python (for the tests: tests/test_game_ops.py)

def ops_view(state):
    """``(current player, is over, legal actions)`` as the game's GameOps report them."""
    cdef const GameOps* ops
    cdef const void* cfg
    cdef void* s
    _unpack(state._c_handles(), &ops, &cfg, &s)
    cdef int32_t* buf = <int32_t*>malloc(ops.max_legal * sizeof(int32_t))
    if buf == NULL:
        raise MemoryError()
    try:
        n = ops.legal_actions(cfg, s, buf)
        return ops.current_player(cfg, s), bool(ops.is_over(cfg, s)), [int(buf[i]) for i in range(n)]
    finally:
        free(buf)


def ops_returns(state):
    """Every seat's win share (GameOps.returns) of a finished game."""
    cdef const GameOps* ops
    cdef const void* cfg
    cdef void* s
    _unpack(state._c_handles(), &ops, &cfg, &s)
    cdef double ret[8]
    if not ops.is_over(cfg, s):
        raise ValueError("the game is not over: no returns yet")
    ops.returns(cfg, s, ret)
    return [ret[p] for p in range(ops.n_players(cfg, s))]


def ops_points(state):
    """Every seat's points as the position stands (GameOps.points; the final totals when over)."""
    cdef const GameOps* ops
    cdef const void* cfg
    cdef void* s
    _unpack(state._c_handles(), &ops, &cfg, &s)
    cdef double pts[8]
    ops.points(cfg, s, pts)
    return [pts[p] for p in range(ops.n_players(cfg, s))]


def ops_apply(state, int action):
    """Apply a legal ``action`` through GameOps.apply_action, in place (unchecked: the caller
    gives a legal one; the transcript does not show it)."""
    cdef const GameOps* ops
    cdef const void* cfg
    cdef void* s
    _unpack(state._c_handles(True), &ops, &cfg, &s)
    ops.apply_action(cfg, s, action)


def ops_policy_action(state, policies, seed):
    """The action GameOps.policy_action picks for the seat to decide (``policies``: one per seat)."""
    cdef const GameOps* ops
    cdef const void* cfg
    cdef void* s
    _unpack(state._c_handles(), &ops, &cfg, &s)
    cdef int32_t* buf = <int32_t*>malloc(ops.max_legal * sizeof(int32_t))
    cdef void* block = calloc(1, ops.policy_size)
    cdef uint64_t prng[4]
    try:
        if buf == NULL or block == NULL:
            raise MemoryError()
        if ops.is_over(cfg, s):
            raise ValueError("the game is over: no action to choose")
        ops.load_policies(block, list(policies), ops.n_players(cfg, s))
        ops.policy_new_game(block)
        n = ops.legal_actions(cfg, s, buf)
        rng_seed(prng, <uint64_t>int(seed), POLICY_SALT)
        return int(ops.policy_action(cfg, s, block, prng, buf, n))
    finally:
        free(buf)
        free(block)
