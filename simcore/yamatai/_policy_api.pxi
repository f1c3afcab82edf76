# Yamataï's hooks of the engine shell and the C-level game contract (determinize, returns,
# points, the seats' policies: docs/adding_a_game.md), and the Python face of the built-in
# policies over a State (their features). Included at the end of _engine.pyx.

cdef void g_determinize(const YCfg* c, YState* s, int seat, uint64_t seed) noexcept nogil:
    # Y-D38: the building deck, the specialist deck and the face-down fleets are hidden from
    # every seat, and so is the chance to come (the returned fleets' shuffles). A seat that can
    # use fleet 3's peek now sees the deck's top three (its later knowledge of where it put
    # them is not kept: the deck is reshuffled below them).
    cdef uint64_t r[4]
    cdef int seen = 0
    if seat == g_current(s) and not (s.used & U_FLEET) and s.fleet == 3:
        seen = s.n_deck if s.n_deck < 3 else 3
    rng_seed(r, seed, DETERMINIZE_SALT)
    sort_and_shuffle(&s.deck[seen], s.n_deck - seen, r)
    sort_and_shuffle(s.spec_deck, s.n_spec_deck, r)
    sort_and_shuffle(&s.track[s.face_up], s.n_track - s.face_up, r)
    rng_seed(s.rng, rng_next(r), CHANCE_SALT)


cdef void g_returns(const YCfg* c, const YState* s, double* out) noexcept nogil:
    # one winner: ties go to the earliest pawn of the last round (Y-D35)
    cdef int16_t sc[N_SC][MAXP]
    cdef int p, w
    score(c, s, sc)
    w = winner(s, sc)
    for p in range(s.n_players):
        out[p] = 1.0 if p == w else 0.0


cdef void g_points(const YCfg* c, const YState* s, double* out) noexcept nogil:
    # every seat's total as the position stands
    cdef int16_t sc[N_SC][MAXP]
    cdef int p
    score(c, s, sc)
    for p in range(s.n_players):
        out[p] = sc[SC_TOTAL][p]


cdef inline void g_policies_reset(GPolicies* block) noexcept:
    pass                # the seats share nothing


cdef inline void g_load_policy(GPolicies* block, int seat, obj) except *:
    load_policy(&block.pol[seat], obj)


cdef inline void g_policy_new_game(GPolicies* block) noexcept nogil:
    pass                # the policies keep nothing from one decision to the next


cdef inline int g_policy_action(const YCfg* c, const YState* s, GPolicies* block, uint64_t* prng,
                                const int32_t* buf, int n) noexcept nogil:
    return choose_action(c, s, &block.pol[me(s)], prng, buf, n)


cdef list _features_of(State st, int action):
    # the heuristic's feature values of one action, from a fresh context (no cache)
    cdef double F[NF]
    cdef Ctx x
    x.ready = 0
    memset(F, 0, sizeof(F))
    mask = action_features(&st.cc.c, &st.s, &x, action, F)
    return [float(F[k]) if (mask >> k) & 1 else 0.0 for k in range(NF)]


def policy_features(State st, policy=None):
    """The heuristic's features at ``st``: ``(actions, matrix, offsets)``, one row per legal action
    (``FEATURES`` order), each from a fresh context.

    The contract's signature (every game's): the heuristic's score of action ``i``
    is ``matrix[i] @ weights + offsets[i]``; the offsets are 0 in Yamataï. No
    feature depends on the weights: ``policy`` is accepted and unused.
    """
    if st.s.stage == ST_OVER:
        return [], np.zeros((0, NF)), np.zeros(0)
    actions = st.legal_actions()
    out = np.array([_features_of(st, a) for a in actions], dtype=float).reshape(len(actions), NF)
    return actions, out, np.zeros(len(actions))


def action_feature_values(State st, int action):
    """The heuristic's feature values of one ``action`` at ``st`` (``FEATURES`` order; a fresh context)."""
    return _features_of(st, action)
