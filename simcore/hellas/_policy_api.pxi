# Python face of the built-in policies over a State (included at the end of
# _engine.pyx): feature inspection, one policy decision, determinized clones
# and flat Monte Carlo playouts in C.

cdef uint64_t DETERMINIZE_SALT = 0x64657465726DULL   # "determ"


cdef void reshuffle_stack(HState* s, uint64_t seed) noexcept nogil:
    # hidden information: the face-down tiles in a fresh order drawn from seed.
    # They are sorted first, so the result does not depend on their true order.
    cdef uint64_t r[4]
    cdef int i, j, tmp, lo = s.stack_pos, n = s.n_stack - s.stack_pos
    for i in range(1, n):
        tmp = s.stack[lo + i]
        j = i - 1
        while j >= 0 and s.stack[lo + j] > tmp:
            s.stack[lo + j + 1] = s.stack[lo + j]
            j -= 1
        s.stack[lo + j + 1] = tmp
    rng_seed(r, seed, DETERMINIZE_SALT)
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(r, i + 1)
        tmp = s.stack[lo + i]
        s.stack[lo + i] = s.stack[lo + j]
        s.stack[lo + j] = tmp


cdef void play_out(const HCfg* c, HState* s, const Policy* pol, uint64_t* prng) noexcept nogil:
    cdef int16_t buf[MAXLEGAL]
    cdef int n = advance(c, s, buf), a
    while n > 0:
        a = choose_action(c, s, &pol[s.current], prng, buf, n)
        apply_action(c, s, a)
        s.decisions += 1
        n = advance(c, s, buf)


cdef double win_share(const HCfg* c, const HState* s, int p) noexcept nogil:
    cdef int16_t out[N_SC][MAXP]
    cdef int o, most = -1, k = 0
    score(c, s, out)
    for o in range(s.n_players):
        if out[SC_TOTAL][o] > most:
            most = out[SC_TOTAL][o]
    if out[SC_TOTAL][p] != most:
        return 0.0
    for o in range(s.n_players):
        if out[SC_TOTAL][o] == most:
            k += 1
    return 1.0 / k


def determinized(State st, seed):
    """A clone of ``st`` whose face-down tile stack is reshuffled from ``seed``.

    The order of the hidden tiles is the one thing a player cannot know; a
    search that plays on from a position must not see it.
    """
    cdef State out = st.clone()
    reshuffle_stack(&out.s, <uint64_t>int(seed))
    return out


def policy_features(State st, policy):
    """The heuristic's feature matrix at ``st``: ``(actions, matrix)``, one row per legal action.

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
        return [], np.zeros((0, NF))
    n = legal_actions(&st.cc.c, &st.s, buf)
    make_ctx(&st.cc.c, &st.s, &pol.x, &pol)
    for i in range(6):
        cache[i] = INFINITY
    out = np.zeros((n, NF))
    for i in range(n):
        action_features(&st.cc.c, &st.s, &pol.x, &pol, buf[i], F, cache)
        for k in range(NF):
            out[i, k] = F[k]
    return [int(buf[i]) for i in range(n)], out


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


def playout_values(State st, policies, int playouts, seed):
    """Flat Monte Carlo: ``(actions, values)``, the mean win share of the deciding seat
    after each legal action, over ``playouts`` games played on by ``policies``.

    Each playout reshuffles the hidden tile stack first (the same shuffles for
    every action: common random numbers) and plays on with the built-in
    policies (one entry per seat, None = random), noise from the playout's seed.
    """
    cdef const HCfg* c = &st.cc.c
    cdef Policy pol[MAXP]
    cdef SMemo sm
    cdef int16_t buf[MAXLEGAL]
    cdef uint64_t prng[4]
    cdef uint64_t base = <uint64_t>int(seed)
    cdef HState work
    cdef int n, i, j, p = st.s.current
    cdef double total
    if st.s.phase == PH_OVER:
        raise ValueError("the game is over: no action to value")
    if playouts < 1:
        raise ValueError(f"playouts must be >= 1, not {playouts}")
    make_policies(pol, st.s.n_players, policies, &sm)
    n = legal_actions(c, &st.s, buf)
    values = np.zeros(n)
    cdef double[::1] v = values
    with nogil:
        for i in range(n):
            total = 0.0
            for j in range(playouts):
                memcpy(&work, &st.s, sizeof(HState))
                reshuffle_stack(&work, base + <uint64_t>j * 0x9E3779B97F4A7C15ULL)
                rng_seed(prng, base ^ (<uint64_t>(j + 1) * 0xBF58476D1CE4E5B9ULL), POLICY_SALT)
                apply_action(c, &work, buf[i])
                work.decisions += 1
                play_out(c, &work, pol, prng)
                total += win_share(c, &work, p)
            v[i] = total / playouts
    return [int(buf[i]) for i in range(n)], values


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
    cdef Policy pol[MAXP]
    cdef SMemo sm
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
    make_policies(pol, cfg.players, policies, &sm)
    setup(c, &s, <uint64_t>int(seed))
    rng_seed(prng, <uint64_t>int(seed), POLICY_SALT)
    n = advance(c, &s, buf)
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
        n = advance(c, &s, buf)
    return checked, worst, mismatches
