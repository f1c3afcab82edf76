# Akrotiri's hooks of the engine shell and the C-level game contract (determinize, returns,
# points, the seats' policies: docs/adding_a_game.md), and the Python face of the built-in
# policies over a State (features, scores). Included at the end of _engine.pyx.

cdef void g_determinize(const ACfg* c, AState* s, int seat, uint64_t seed) noexcept nogil:
    # spec 15.4: a seat sees the public table and its own hand, goals and tile; the draw pile's
    # order, the map and goal decks' orders, the opponent's maps, goals and tile (and, while it
    # chooses a goal, the pair it was dealt) are hidden, as is the chance to come. The pools are
    # redealt keeping every count: the opponent's maps per deck, its goals, its tile. Not
    # kept: which goal the seat itself put at the bottom of the goal deck. Not changed: the
    # records no rule reads (the event log, the set-up deal once set-up is over).
    cdef uint64_t r[4]
    cdef uint8_t pool[64]
    cdef int o = 1 - seat, n, k, d, i, x, held, own_options
    rng_seed(r, seed, DETERMINIZE_SALT)
    # tiles: the draw pile and the opponent's tile
    n = 0
    for i in range(s.pile_pos, s.pile_n):
        pool[n] = s.pile[i]
        n += 1
    held = s.tile[o] != NO_TILE
    if held:
        pool[n] = s.tile[o]
        n += 1
    sort_and_shuffle(pool, n, r)
    k = 0
    if held:
        s.tile[o] = pool[0]
        k = 1
    for i in range(s.pile_pos, s.pile_n):
        s.pile[i] = pool[k]
        k += 1
    # maps: per deck, the deck and the opponent's maps from it
    for d in range(3):
        n = 0
        for i in range(s.deck_pos[d], s.deck_n[d]):
            pool[n] = s.deck[d][i]
            n += 1
        held = 0
        for x in range(NCARD):
            if (s.hand[o] >> x) & 1 and c.card_deck[x] == d:
                pool[n] = x
                n += 1
                held += 1
                s.hand[o] &= ~((<uint64_t>1) << x)
        sort_and_shuffle(pool, n, r)
        for i in range(held):
            s.hand[o] |= (<uint64_t>1) << pool[i]
        k = held
        for i in range(s.deck_pos[d], s.deck_n[d]):
            s.deck[d][i] = pool[k]
            k += 1
    # goals: the goal deck, the opponent's goals, the options it chooses from, its pending deal
    n = 0
    for i in range(s.goal_head, s.goal_tail):
        pool[n] = s.goal_deck[i]
        n += 1
    held = 0
    for x in range(NGOAL):
        if (s.goals[o] >> x) & 1:
            pool[n] = x
            n += 1
            held += 1
    s.goals[o] = 0
    own_options = (s.phase == PH_GOAL and s.current == o
                   and not (c.strategist and s.stage == ST_PLAY))    # (the strategist display is public)
    if own_options:
        for i in range(s.n_options):
            pool[n] = s.options[i]
            n += 1
    if s.phase == PH_GOAL and s.stage == ST_SETUP and s.current == 0 and seat == 0:
        for i in range(2):
            pool[n] = s.deal[1][i]
            n += 1
    sort_and_shuffle(pool, n, r)
    for i in range(held):
        s.goals[o] |= <uint16_t>(1 << pool[i])
    k = held
    if own_options:
        for i in range(s.n_options):
            s.options[i] = pool[k]
            if s.stage == ST_SETUP:
                s.deal[o][i] = pool[k]
            k += 1
    if s.phase == PH_GOAL and s.stage == ST_SETUP and s.current == 0 and seat == 0:
        for i in range(2):
            s.deal[1][i] = pool[k]
            k += 1
    for i in range(s.goal_head, s.goal_tail):
        s.goal_deck[i] = pool[k]
        k += 1
    rng_seed(s.rng, rng_next(r), CHANCE_SALT)


cdef void g_returns(const ACfg* c, const AState* s, double* out) noexcept nogil:
    # the best (total, drachmas) wins; a tie on both is a shared win (spec 11)
    cdef int16_t sc[N_SC][2]
    cdef int16_t gsc[2][NGOAL]
    cdef int p
    score(c, s, sc, gsc)
    for p in range(2):
        out[p] = 1.0 if (sc[SC_TOTAL][p] > sc[SC_TOTAL][1 - p]
                         or (sc[SC_TOTAL][p] == sc[SC_TOTAL][1 - p] and s.drachmas[p] > s.drachmas[1 - p])) else 0.0
    if out[0] == 0.0 and out[1] == 0.0:
        out[0] = out[1] = 0.5


cdef void g_points(const ACfg* c, const AState* s, double* out) noexcept nogil:
    # both seats' totals as the position stands
    cdef int16_t sc[N_SC][2]
    cdef int16_t gsc[2][NGOAL]
    cdef int p
    score(c, s, sc, gsc)
    for p in range(2):
        out[p] = sc[SC_TOTAL][p]


cdef inline void g_policies_reset(GPolicies* block) noexcept:
    ctx_reset(&block.ctx)           # the seats' shared context, before its first use


cdef inline void g_load_policy(GPolicies* block, int seat, obj) except *:
    load_policy(&block.pol[seat], obj)


cdef inline void g_policy_new_game(GPolicies* block) noexcept nogil:
    ctx_new_game(&block.ctx)        # its caches hold for one game (keyed by the state's version)


cdef inline int g_policy_action(const ACfg* c, const AState* s, GPolicies* block, uint64_t* prng,
                                const int16_t* buf, int n) noexcept nogil:
    return choose_action(c, s, &block.pol[s.current], prng, buf, n, &block.ctx)


# -- Python face: the heuristic's features and scores per legal action (imitation, tests)
#
# action_value() is the heuristic's score of one action; the decision loop (choose_place,
# choose_act) computes the same scores with shared terms. Each score is sum_k w[k] * F[k]
# plus an offset no weight multiplies: -5 for a purchase the heuristic rules out (2 or more
# live maps in hand, or under 2 drachmas left after it), -0.5 per drachma a purchase costs,
# -3 for an unload; 0 for every other action. Being linear in the weights, the features are
# read off action_value() itself: the offset is its score with every weight 0, F[k] its score
# with weight k alone at 1, less the offset (exact: the terms are small integers, halves and
# tenths times 1 or 0). So there is one statement of the heuristic; this runs outside the
# decision loop (NFEAT + 1 evaluations an action).

cdef double action_features(const ACfg* c, const AState* s, Ctx* x, int a, double* F) noexcept nogil:
    """The features of action ``a`` into ``F`` (NFEAT entries); returns the offset.

    ``x`` is a reset Ctx; it is emptied before each evaluation, since it caches
    weighted terms (the destinations' and the movement costs') for one policy."""
    cdef Policy unit
    cdef double off
    cdef int k
    memset(&unit, 0, sizeof(Policy))
    unit.kind = POL_HEURISTIC
    ctx_new_game(x)
    ctx_init(c, s, x)
    off = action_value(c, s, &unit, x, a)
    for k in range(NFEAT):
        unit.w[k] = 1.0
        ctx_new_game(x)
        ctx_init(c, s, x)
        F[k] = action_value(c, s, &unit, x, a) - off
        unit.w[k] = 0.0
    return off


def policy_features(State st, policy=None):
    """The heuristic's features at ``st``: ``(actions, matrix, offsets)``, one row per legal action
    (the contract's signature, every game's).

    The heuristic's score of action ``i`` is ``matrix[i] @ weights + offsets[i]``
    (``weights``: the first ``len(FEATURES)`` entries of a policy vector); the
    offset is the part of the score no weight multiplies (a purchase the
    heuristic rules out -5, a purchase -0.5 per drachma, an unload -3, else 0).
    No feature depends on the weights: ``policy`` is accepted and unused.
    """
    cdef int16_t buf[MAXLEGAL]
    cdef double F[NFEAT]
    cdef Ctx x
    cdef int n, i, k
    if st.s.phase == PH_OVER:
        return [], np.zeros((0, NFEAT)), np.zeros(0)
    n = legal_actions(&st.cc.c, &st.s, buf)
    ctx_reset(&x)
    out = np.zeros((n, NFEAT))
    off = np.zeros(n)
    for i in range(n):
        off[i] = action_features(&st.cc.c, &st.s, &x, buf[i], F)
        for k in range(NFEAT):
            out[i, k] = F[k]
    return [int(buf[i]) for i in range(n)], out, off


def policy_scores(State st, policy):
    """``(actions, scores)``: action_value(), the heuristic's score of each legal action at ``st``
    (the decision loop computes the same scores with shared terms; it takes their argmax, exact ties
    broken by the policy stream, with epsilon noise). Equals ``features @ weights + offsets``."""
    cdef int16_t buf[MAXLEGAL]
    cdef Policy pol
    cdef Ctx x
    cdef int n, i
    load_policy(&pol, policy)
    if pol.kind != POL_HEURISTIC:
        raise ValueError("policy_scores needs a heuristic policy vector, not None")
    if st.s.phase == PH_OVER:
        return [], np.zeros(0)
    n = legal_actions(&st.cc.c, &st.s, buf)
    ctx_reset(&x)
    ctx_init(&st.cc.c, &st.s, &x)
    sc = np.zeros(n)
    for i in range(n):
        sc[i] = action_value(&st.cc.c, &st.s, &pol, &x, buf[i])
    return [int(buf[i]) for i in range(n)], sc
