# Hellas' hooks of the engine shell and the C-level game contract (determinize, returns,
# points, the seats' policies: docs/adding_a_game.md), and the Python face of the built-in
# policies over a State: feature inspection and one policy decision. Included at the end of
# _engine.pyx.

cdef void reshuffle_stack(HState* s, uint64_t seed) noexcept nogil:
    # hidden information: the face-down tiles in a fresh order drawn from seed
    cdef uint64_t r[4]
    rng_seed(r, seed, DETERMINIZE_SALT)
    sort_and_shuffle(&s.stack[s.stack_pos], s.n_stack - s.stack_pos, r)


# -- the C-level game contract (simcore/_game_ops.pxd): Hellas' hooks

cdef inline void g_determinize(const HCfg* c, HState* s, int seat, uint64_t seed) noexcept nogil:
    # every seat sees the same: only the face-down stack is hidden (chance is all drawn at set-up)
    reshuffle_stack(s, seed)


cdef void g_returns(const HCfg* c, const HState* s, double* out) noexcept nogil:
    # the win share: 1/k to each of the k seats tied for the most points
    cdef int16_t sc[N_SC][MAXP]
    cdef int o, most = -1, k = 0
    score(c, s, sc)
    for o in range(s.n_players):
        if sc[SC_TOTAL][o] > most:
            most = sc[SC_TOTAL][o]
    for o in range(s.n_players):
        k += sc[SC_TOTAL][o] == most
    for o in range(s.n_players):
        out[o] = 1.0 / k if sc[SC_TOTAL][o] == most else 0.0


cdef void g_points(const HCfg* c, const HState* s, double* out) noexcept nogil:
    # every seat's total as the position stands
    cdef int16_t sc[N_SC][MAXP]
    cdef int o
    score(c, s, sc)
    for o in range(s.n_players):
        out[o] = sc[SC_TOTAL][o]


cdef inline void g_policies_reset(GPolicies* block) noexcept:
    memset(&block.sm, 0, sizeof(SMemo))         # the seats share it: zeroed before the first seat's load


cdef inline void g_load_policy(GPolicies* block, int seat, obj) except *:
    load_policy(&block.pol[seat], obj, &block.sm)


cdef inline void g_policy_new_game(GPolicies* block) noexcept nogil:
    pass                # the memos are pure (memo_check): nothing to forget


cdef inline int g_policy_action(const HCfg* c, const HState* s, GPolicies* block, uint64_t* prng,
                                const int16_t* buf, int n) noexcept nogil:
    return choose_action(c, s, &block.pol[s.current], prng, buf, n)


def policy_features(State st, policy):
    """The heuristic's features at ``st``: ``(actions, matrix, offsets)``, one row per legal action.

    The contract's signature (every game's): the heuristic's score of action ``i``
    is ``matrix[i] @ weights + offsets[i]``; the offsets are 0 in Hellas.
    ``policy`` (a policy vector) matters for choose_space, whose ``space_value``
    is the seat's own weighted score of the best follow-up.
    """
    cdef Policy pol
    cdef SMemo sm
    cdef int16_t buf[MAXLEGAL]
    cdef double F[NF], cache[6]
    cdef int n, i, k
    memset(&sm, 0, sizeof(SMemo))
    load_policy(&pol, policy, &sm)
    if st.s.phase == PH_OVER:
        return [], np.zeros((0, NF)), np.zeros(0)
    n = legal_actions(&st.cc.c, &st.s, buf)
    make_ctx(&st.cc.c, &st.s, &pol.x, &pol)
    for i in range(6):
        cache[i] = INFINITY
    out = np.zeros((n, NF))
    for i in range(n):
        action_features(&st.cc.c, &st.s, &pol.x, &pol, buf[i], F, cache)
        for k in range(NF):
            out[i, k] = F[k]
    return [int(buf[i]) for i in range(n)], out, np.zeros(n)


def policy_action(State st, policy, seed):
    """The action the built-in policy ``policy`` (None = random) takes at ``st``, noise drawn from ``seed``."""
    cdef Policy pol
    cdef SMemo sm
    cdef int16_t buf[MAXLEGAL]
    cdef uint64_t prng[4]
    cdef int n
    memset(&sm, 0, sizeof(SMemo))
    load_policy(&pol, policy, &sm)
    if st.s.phase == PH_OVER:
        raise ValueError("the game is over: no action to choose")
    n = legal_actions(&st.cc.c, &st.s, buf)
    if n == 1:
        return int(buf[0])
    rng_seed(prng, <uint64_t>int(seed), POLICY_SALT)
    return choose_action(&st.cc.c, &st.s, &pol, prng, buf, n)


def policy_scores(State st, policy):
    """``(actions, scores)``: the heuristic's score of each legal action at ``st``
    (what the decision loop computes; equals ``features @ weights``)."""
    cdef Policy pol
    cdef SMemo sm
    cdef int16_t buf[MAXLEGAL]
    cdef double sc[MAXLEGAL]
    cdef int n, i
    memset(&sm, 0, sizeof(SMemo))
    load_policy(&pol, policy, &sm)
    if st.s.phase == PH_OVER:
        return [], np.zeros(0)
    n = legal_actions(&st.cc.c, &st.s, buf)
    make_ctx(&st.cc.c, &st.s, &pol.x, &pol)
    score_actions(&st.cc.c, &st.s, &pol, &pol.x, buf, n, sc)
    return [int(buf[i]) for i in range(n)], np.array([sc[i] for i in range(n)])


def memo_check(players, seed, policies, config=None, **settings):
    """Check the heuristic's per-seat memo on one game: ``(decisions, largest difference, mismatches)``.

    Plays the game as ``play_batch`` does (each seat's memo kept from one of
    its decisions to the next) and, at every heuristic decision, scores the
    legal actions once more from a cold memo. The memo is pure, so the largest
    absolute difference of the two score vectors must be 0. At every build
    decision that ``play_batch`` takes from the field mask (``choose_build``),
    it also takes it from the list (``choose_action``) with the same policy
    stream; ``mismatches`` counts the decisions where the two actions or the
    streams afterwards differ (must be 0).
    """
    cfg = _resolve_config(players, config, settings)
    cdef CConfig cc = compiled(cfg)
    cdef const HCfg* c = &cc.c
    cdef HState s
    cdef GPolicies pols
    cdef Policy* pol = pols.pol
    cdef Policy fresh
    cdef SMemo fresh_sm
    cdef uint64_t r1[4]
    cdef uint64_t r2[4]
    cdef int a1, a2, mismatches = 0
    cdef int16_t buf[MAXLEGAL]
    cdef double sc[MAXLEGAL]
    cdef double sc2[MAXLEGAL]
    cdef uint64_t prng[4]
    cdef int n, a, i, p, checked = 0
    cdef double worst = 0.0, d
    make_policies(&pols, policies, cfg.players)
    setup(c, &s, <uint64_t>int(seed))
    rng_seed(prng, <uint64_t>int(seed), POLICY_SALT)
    n = advance(c, &s, buf, NULL)
    while n > 0:
        p = s.current
        if pol[p].kind == 1:
            make_ctx(c, &s, &pol[p].x, &pol[p])
            score_actions(c, &s, &pol[p], &pol[p].x, buf, n, sc)
            memcpy(&fresh, &pol[p], sizeof(Policy))
            memset(&fresh.x, 0, sizeof(PCtx))
            memset(&fresh_sm, 0, sizeof(SMemo))      # (a cold shared part too)
            fresh.x.sm = &fresh_sm
            make_ctx(c, &s, &fresh.x, &fresh)
            score_actions(c, &s, &fresh, &fresh.x, buf, n, sc2)
            for i in range(n):
                d = sc[i] - sc2[i] if sc[i] >= sc2[i] else sc2[i] - sc[i]
                if d > worst:
                    worst = d
            checked += 1
            if (s.phase == PH_BUILD_HOUSE or s.phase == PH_BUILD_AGORA or s.phase == PH_BUILD_PALACE) \
                    and c.nbr_symmetric and build_by_mask(&pol[p]):
                memcpy(&fresh, &pol[p], sizeof(Policy))
                memcpy(r1, prng, sizeof(r1))
                a1 = choose_action(c, &s, &fresh, r1, buf, n)
                memcpy(&fresh, &pol[p], sizeof(Policy))
                memcpy(r2, prng, sizeof(r2))
                a2 = choose_build(c, &s, &fresh, r2, build_fields(c, &s))
                if a1 != a2 or memcmp(r1, r2, sizeof(r1)) != 0:
                    mismatches += 1
        a = choose_action(c, &s, &pol[p], prng, buf, n)
        apply_action(c, &s, a)
        s.decisions += 1
        n = advance(c, &s, buf, NULL)
    return checked, worst, mismatches
