"""Information-set Monte Carlo tree search, written once over the C-level game contract.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) for the seat to
decide, the observer, over any game that exports its ``GameOps``
(``simcore/_game_ops.pxd``, ``docs/game_ops.md``):

- every iteration starts from a fresh **determinization** of the root: what
  the observer cannot see (face-down stacks and decks, opponents' hidden
  cards, the chance to come) is redrawn with ``GameOps.determinize`` from the
  iteration's seed, so the search never sees the true hidden state;
- a tree node stands for an action sequence from the root; in one
  determinization only some children are legal, so selection counts a
  child's **availability** (how often it could have been chosen) in place of
  its parent's visits: ``UCB = mean + c * sqrt(ln(availability) / visits)``;
- one new node per iteration: the seat's built-in heuristic's choice first
  and, by a **progressive bias**, a bonus ``bias / (visits + 1)`` in its UCB
  value, so that with few iterations the search leans on the heuristic and
  with many it finds better; the other untried actions in a random order;
  then a **rollout** by the seats' built-in heuristic policies
  (``GameOps.policy_action``; give them a little epsilon noise) to the end;
- **max-n backup**: every node adds the win share (ties as the game's rule
  gives them, ``GameOps.returns``) of the seat that chose its action, so each
  seat maximizes its own share in a game of any number of players;
- optionally a **points blend** in the reward: ``(1 - points) * win share +
  points * share of the points`` (each seat's points over all seats' points,
  ``GameOps.points``), which tells a big win from a narrow one and a narrow
  loss from a rout when the win shares of the rollouts barely differ.

The move played is the root child with the most visits. Everything is drawn
from ``seed``: the same position, seat view and seed give the same search.
"""
from libc.math cimport log, sqrt
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset
from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_New

import numpy as np

from simcore._contract import SearchPolicy, check_search_settings
from simcore._game_ops cimport DECIDER_CAPSULE, GAME_OPS_CAPSULE, Decider, GameOps
from simcore._game_ops cimport decision_seed as _decision_seed
from simcore._model cimport PRIOR_CAPSULE, Prior
from simcore._rng cimport SEARCH_SALT, rng_below, rng_next, rng_seed, rng_uniform
from simcore._types cimport int32_t, uint64_t

cdef uint64_t SHUFFLE_STEP = 0x9E3779B97F4A7C15ULL
DEF MAXP = 8
DEF POLL_EVERY = 256        # iterations between two looks at the process's signals (a power of 2)

# Signals (Ctrl-C, SIGTERM) during a search: the search runs without the GIL, where Python's
# handlers cannot run. It looks every POLL_EVERY iterations and before each decision; a handler
# that raised stops it, the exception is kept, every later decision returns at once (the games
# left are garbage) and raise_if_interrupted() raises it where Python runs again.
cdef int _interrupted = 0
_pending = None


cdef int _poll_signals() noexcept nogil:
    global _interrupted
    with gil:
        try:
            PyErr_CheckSignals()
        except BaseException as exc:
            global _pending
            _pending = exc
            _interrupted = 1
    return _interrupted


def raise_if_interrupted():
    """Raise the exception a signal handler raised during a search (KeyboardInterrupt...), if any.

    Call it after a kernel with search seats returns: its games after the
    signal were not searched, and must not be kept.
    """
    global _interrupted, _pending
    if _interrupted:
        exc, _pending, _interrupted = _pending, None, 0
        raise exc


ctypedef struct Node:
    int32_t action          # the action that leads here from the parent
    int32_t player          # the seat that chose it (-1 at the root)
    int32_t first_child
    int32_t next_sibling
    int32_t visits
    int32_t avail           # times this child was legal when its parent was passed through
    double reward           # sum of ``player``'s win shares over the visits
    double prior            # 1 for the built-in policy's choice at the parent, else 0


cdef inline int _index(const int32_t* sorted_legal, int n, int32_t a) noexcept nogil:
    cdef int lo = 0, hi = n - 1, mid
    while lo <= hi:
        mid = (lo + hi) >> 1
        if sorted_legal[mid] == a:
            return mid
        if sorted_legal[mid] < a:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


cdef inline void _root(Node* nodes) noexcept nogil:
    nodes[0].action = -1
    nodes[0].player = -1
    nodes[0].first_child = -1
    nodes[0].next_sibling = -1
    nodes[0].visits = 0
    nodes[0].avail = 0
    nodes[0].reward = 0.0
    nodes[0].prior = 0.0


cdef int _compact(Node* nodes, int n_nodes, int keep, int32_t* index) noexcept nogil:
    """Make node ``keep``'s subtree the whole tree, in place: its nodes move to 0, 1, ... in the
    order they were made (``keep`` becomes the root, its statistics kept); return their count.

    A node is made after its parent, so one pass in index order finds the subtree and a second
    moves each node down to its new index (never above a node still to move). ``index``: room
    for ``n_nodes`` entries (the old index -> the new one, -1: dropped)."""
    cdef int i, j, r = 0
    cdef int32_t ch
    for i in range(keep, n_nodes):
        index[i] = -1
    index[keep] = -2
    for i in range(keep, n_nodes):
        if index[i] == -2:
            index[i] = r
            r += 1
            ch = nodes[i].first_child
            while ch >= 0:
                index[ch] = -2
                ch = nodes[ch].next_sibling
    for i in range(keep, n_nodes):
        j = index[i]
        if j >= 0:
            nodes[j] = nodes[i]
            if nodes[j].first_child >= 0:
                nodes[j].first_child = index[nodes[j].first_child]
            if nodes[j].next_sibling >= 0:
                nodes[j].next_sibling = index[nodes[j].next_sibling] if i != keep else -1
    nodes[0].action = -1
    nodes[0].player = -1
    nodes[0].avail = 0
    nodes[0].reward = 0.0
    nodes[0].prior = 0.0
    return r


cdef int _search(const GameOps* ops, const void* cfg, const void* root, void* block, Node* nodes,
                 int max_nodes, int iterations, double c, double bias, int cutoff, double points, int observer,
                 uint64_t seed,
                 int32_t* legal, int32_t* untried, char* has_child, int32_t* path, void* work,
                 const Prior* prior=NULL, double* pr=NULL, int start=0, const Decider* roll=NULL,
                 double roll_eps=0.0) noexcept nogil:
    """Run ``iterations`` iterations into ``nodes`` (node 0 is the root); return the node count.

    ``cutoff`` > 0: a rollout stops after that many decisions and the position
    is scored as it stands (``GameOps.returns`` of an unfinished game: the seats
    leading on points now share the win). ``points`` > 0: each seat's reward is
    ``(1 - points) * win share + points * its share of the points``. ``prior`` not NULL (a learned
    model, simcore/_model.pxd; ``pr``: room for max_legal doubles): a node's untried actions are
    expanded in the order of the prior's probabilities and the progressive bias of each is
    ``bias * p / p_max`` (the model's favourite gets the whole bias), in place of the built-in
    policy's choice first and the rest at random. ``start`` > 0: ``nodes`` already hold a tree of
    that many nodes for this root (a retained subtree, :func:`_retain`): the iterations go on from it.
    ``roll`` not NULL (a learned model's Decider, the setting ``rollout=learned``): every seat's
    rollout move is the model's, or with probability ``roll_eps`` a uniformly random legal action,
    and without a prior the model's move is also the one expanded first and biased."""
    cdef int n_nodes = start if start > 0 else 1, it, depth, v, n, m, i, p, k, best, h, steps
    cdef int players = ops.n_players(cfg, root)
    cdef int32_t ch
    cdef double ret[MAXP]
    cdef double pts[MAXP]
    cdef double ucb, top, lg, tot
    cdef uint64_t prng[4]
    rng_seed(prng, seed, SEARCH_SALT)
    if start <= 0:
        _root(nodes)
    for it in range(iterations):
        if (it & (POLL_EVERY - 1)) == POLL_EVERY - 1 and _poll_signals():
            break
        memcpy(work, root, ops.state_size)
        ops.determinize(cfg, work, observer, seed + <uint64_t>(it + 1) * SHUFFLE_STEP)
        ops.policy_new_game(block)
        depth = 0
        path[depth] = 0
        depth += 1
        v = 0
        # selection and expansion
        while not ops.is_over(cfg, work):
            n = ops.legal_actions(cfg, work, legal)
            p = ops.current_player(cfg, work)
            memset(has_child, 0, n)
            ch = nodes[v].first_child
            while ch >= 0:
                i = _index(legal, n, nodes[ch].action)
                if i >= 0:
                    has_child[i] = 1
                    nodes[ch].avail += 1
                ch = nodes[ch].next_sibling
            m = 0
            for i in range(n):
                if not has_child[i]:
                    untried[m] = legal[i]
                    m += 1
            if m > 0 and n_nodes < max_nodes:
                k = n_nodes
                n_nodes += 1
                if prior != NULL:
                    # the learned prior: its most probable untried action, bias in proportion
                    prior.probs(prior.ctx, cfg, work, legal, n, pr)
                    best = -1
                    top = 0.0
                    for i in range(n):
                        if pr[i] > top:
                            top = pr[i]
                        if not has_child[i] and (best < 0 or pr[i] > pr[best]):
                            best = i
                    nodes[k].action = legal[best]
                    nodes[k].prior = pr[best] / top if top > 0.0 else 0.0
                else:
                    # progressive bias: the built-in policy's choice is expanded first, the others at random
                    if roll != NULL:
                        h = roll.decide(roll.ctx, cfg, work, rng_next(prng))
                    else:
                        h = ops.policy_action(cfg, work, block, prng, legal, n)
                    i = _index(legal, n, h)
                    nodes[k].action = h if not has_child[i] else untried[rng_below(prng, m)]
                    nodes[k].prior = 1.0 if nodes[k].action == h else 0.0
                nodes[k].player = p
                nodes[k].first_child = -1
                nodes[k].next_sibling = nodes[v].first_child
                nodes[k].visits = 0
                nodes[k].avail = 1
                nodes[k].reward = 0.0
                nodes[v].first_child = k
                ops.apply_action(cfg, work, nodes[k].action)
                path[depth] = k
                depth += 1
                break
            best = -1
            top = -1.0
            ch = nodes[v].first_child
            while ch >= 0:
                if nodes[ch].visits > 0 and _index(legal, n, nodes[ch].action) >= 0:
                    lg = log(<double>nodes[ch].avail)
                    ucb = (nodes[ch].reward / nodes[ch].visits + c * sqrt(lg / nodes[ch].visits)
                           + bias * nodes[ch].prior / (nodes[ch].visits + 1))
                    if ucb > top or (ucb == top and nodes[ch].action < nodes[best].action):
                        top = ucb
                        best = ch
                ch = nodes[ch].next_sibling
            if best < 0:           # the tree is full and nothing here was tried: roll out from here
                break
            ops.apply_action(cfg, work, nodes[best].action)
            path[depth] = best
            depth += 1
            v = best
        # rollout by the built-in policies or the learned model (to the end, or ``cutoff`` decisions)
        steps = 0
        while not ops.is_over(cfg, work) and (cutoff <= 0 or steps < cutoff):
            if roll != NULL and not (roll_eps > 0.0 and rng_uniform(prng) < roll_eps):
                h = roll.decide(roll.ctx, cfg, work, rng_next(prng))     # lists the legal actions itself
            else:
                n = ops.legal_actions(cfg, work, legal)
                h = (ops.policy_action(cfg, work, block, prng, legal, n) if roll == NULL
                     else legal[rng_below(prng, n)])
            ops.apply_action(cfg, work, h)
            steps += 1
        ops.returns(cfg, work, ret)
        if points > 0.0:
            ops.points(cfg, work, pts)
            tot = 0.0
            for i in range(players):
                pts[i] = pts[i] if pts[i] > 0.0 else 0.0
                tot += pts[i]
            for i in range(players):
                ret[i] = (1.0 - points) * ret[i] + points * (pts[i] / tot if tot > 0.0 else 1.0 / players)
        # max-n backup: each node counts the share of the seat that chose its action
        for i in range(depth):
            k = path[i]
            nodes[k].visits += 1
            if nodes[k].player >= 0:
                nodes[k].reward += ret[nodes[k].player]
    return n_nodes


ctypedef struct SearchCtx:
    # one search's settings and working memory (reused from decision to decision)
    const GameOps* ops
    int iterations
    int cap                 # tree size cap (nodes)
    int cutoff
    double c
    double bias
    double points           # weight of the point share in the reward
    Node* nodes
    int32_t* legal          # 2 * max_legal: the legal actions, then the untried ones
    int32_t* path
    char* has_child
    void* block             # the rollout policies of every seat
    void* work              # the position an iteration plays on
    const Prior* prior      # a learned prior (NULL: the built-in policy's choice first)
    double* pr              # max_legal: the prior's probabilities at a node
    const Decider* roll     # a learned rollout policy (NULL: the built-in policies in ``block``)
    double roll_eps         # its random-action noise
    Decider decider
    # tree reuse (the setting ``reuse``): the last search's root position, move and tree
    int reuse
    int n_nodes             # nodes of the tree in ``nodes`` (the last search's)
    int have                # 1: prev, prev_action and keep describe the last decision
    int32_t prev_action
    int32_t keep            # the node of the move played
    void* prev              # the last search's root position
    void* chk               # a position the information-set check plays on
    long decisions          # searched decisions (reuse on: counted for the benches)
    long reused             # ... of which went on from a retained subtree
    long retained           # ... the visits their retained roots brought


cdef int _ctx_open(SearchCtx* x, const GameOps* ops, int iterations, int cap, double c, double bias,
                   int cutoff, double points, policies, int players) except -1:
    memset(x, 0, sizeof(SearchCtx))
    x.ops, x.iterations, x.cap, x.c, x.bias, x.cutoff, x.points = ops, iterations, cap, c, bias, cutoff, points
    x.nodes = <Node*>malloc(cap * sizeof(Node))
    x.legal = <int32_t*>malloc(2 * ops.max_legal * sizeof(int32_t))
    x.path = <int32_t*>malloc((cap + 1) * sizeof(int32_t))
    x.has_child = <char*>malloc(ops.max_legal)
    x.block = malloc(ops.policy_size)
    x.work = malloc(ops.state_size)
    x.pr = <double*>malloc(ops.max_legal * sizeof(double))
    x.prev = malloc(ops.state_size)
    x.chk = malloc(ops.state_size)
    if not (x.nodes and x.legal and x.path and x.has_child and x.block and x.work and x.pr and x.prev and x.chk):
        raise MemoryError()
    memset(x.block, 0, ops.policy_size)
    # a learned rollout plays through x.roll (_rollout_model); its seats' built-in policies stay random
    ops.load_policies(x.block, [None if _external(p) else p for p in policies] if policies is not None
                      else [None] * players, players)
    x.decider.decide = _decide
    x.decider.ctx = <void*>x
    return 0


cdef void _ctx_close(SearchCtx* x) noexcept:
    free(x.nodes)
    free(x.legal)
    free(x.path)
    free(x.has_child)
    free(x.block)
    free(x.work)
    free(x.pr)
    free(x.prev)
    free(x.chk)
    memset(x, 0, sizeof(SearchCtx))


cdef void _attach(SearchCtx* x, prior, roll, double roll_eps):
    # a search's learned prior and learned rollout policy (their owners, or None) into its context
    if prior is not None:
        x.prior = <const Prior*>PyCapsule_GetPointer(prior.capsule(), PRIOR_CAPSULE)
    if roll is not None:
        x.roll = <const Decider*>PyCapsule_GetPointer(roll.capsule(), DECIDER_CAPSULE)
        x.roll_eps = roll_eps


cdef int _run(SearchCtx* x, const void* cfg, const void* s, uint64_t seed, int start=0) noexcept nogil:
    return _search(x.ops, cfg, s, x.block, x.nodes, x.cap, x.iterations, x.c, x.bias, x.cutoff, x.points,
                   x.ops.current_player(cfg, s), seed, x.legal, x.legal + x.ops.max_legal, x.has_child, x.path,
                   x.work, x.prior, x.pr, start, x.roll, x.roll_eps)


DEF CHECKS = 8              # determinizations the information-set check plays the last move in
cdef uint64_t CHECK_SALT = 0x6A09E667F3BCC909ULL


cdef int _retain(SearchCtx* x, const void* cfg, const void* s, uint64_t seed) noexcept nogil:
    """Reuse: the node count of the last search's subtree kept as the tree of ``s`` (0: none).

    The subtree of the move played last is kept when ``s`` is the seat's next decision right
    after it and the seat's information set at ``s`` is that move's node's:
    - ``s`` is the last root position with the move applied (the same bytes: the same game, no
      other seat decided in between), with the same seat to decide;
    - the move revealed nothing to the seat: played in CHECKS determinizations of the last root
      (what the seat could not see, redrawn), each gives the seat the view it has at ``s``:
      determinized again from one seed it is the same bytes as ``s`` so determinized. A draw of
      chance or a hidden card the move turned up differs between them (a check passes wrongly only
      when all CHECKS redraws turn up what ``s`` shows).
    Every draw comes from ``seed`` (the decision's)."""
    cdef const GameOps* ops = x.ops
    cdef int obs, j
    cdef uint64_t base = seed ^ CHECK_SALT
    if not x.have:
        return 0
    x.have = 0
    obs = ops.current_player(cfg, s)
    memcpy(x.chk, x.prev, ops.state_size)
    if ops.current_player(cfg, x.chk) != obs:
        return 0
    ops.apply_action(cfg, x.chk, x.prev_action)
    if memcmp(x.chk, s, ops.state_size) != 0:
        return 0
    memcpy(x.work, s, ops.state_size)
    ops.determinize(cfg, x.work, obs, base)
    for j in range(CHECKS):
        memcpy(x.chk, x.prev, ops.state_size)
        ops.determinize(cfg, x.chk, obs, base + <uint64_t>(j + 1) * SHUFFLE_STEP)
        ops.apply_action(cfg, x.chk, x.prev_action)
        if ops.is_over(cfg, x.chk) or ops.current_player(cfg, x.chk) != obs:
            return 0
        ops.determinize(cfg, x.chk, obs, base)
        if memcmp(x.chk, x.work, ops.state_size) != 0:
            return 0
    return _compact(x.nodes, x.n_nodes, x.keep, x.path)


cdef int _best(const Node* nodes) noexcept nogil:
    """The root child to play: the most visited; ties: the higher mean share, then the lower action."""
    cdef int32_t ch = nodes[0].first_child, best = -1
    cdef double v, bv = 0.0
    while ch >= 0:
        if nodes[ch].visits > 0:
            v = nodes[ch].reward / nodes[ch].visits
            if (best < 0 or nodes[ch].visits > nodes[best].visits
                    or (nodes[ch].visits == nodes[best].visits
                        and (v > bv or (v == bv and nodes[ch].action < nodes[best].action)))):
                best = ch
                bv = v
        ch = nodes[ch].next_sibling
    return best


cdef int _prepare(SearchCtx* x, const void* cfg, const void* s, uint64_t seed) noexcept nogil:
    # the tree a search of s starts from: the retained subtree (reuse on and allowed), else none;
    # returns its node count (0: a fresh tree)
    cdef int start = _retain(x, cfg, s, seed) if x.reuse else 0
    if x.reuse:
        x.decisions += 1
        if start > 0:
            x.reused += 1
            x.retained += x.nodes[0].visits
    return start


cdef int _decide(void* ctx, const void* cfg, const void* s, uint64_t seed) noexcept nogil:
    # Decider.decide: search the seat's decision at s and return the move to play
    cdef SearchCtx* x = <SearchCtx*>ctx
    cdef int best
    if x.ops.legal_actions(cfg, s, x.legal) == 1 or _interrupted or _poll_signals():
        x.have = 0
        return x.legal[0]
    if not x.reuse:
        x.n_nodes = _run(x, cfg, s, seed)
        return x.nodes[_best(x.nodes)].action
    x.n_nodes = _run(x, cfg, s, seed, _prepare(x, cfg, s, seed))
    best = _best(x.nodes)
    memcpy(x.prev, s, x.ops.state_size)
    x.prev_action = x.nodes[best].action
    x.keep = best
    x.have = 1
    return x.nodes[best].action


def search(state, int iterations, double c=0.7, policies=None, seed=0, double bias=10.0, max_nodes=None,
           int cutoff=0, double points=0.0, prior=None, double rollout_epsilon=0.0):
    """ISMCTS for the seat to decide at ``state``: the root's children after ``iterations`` iterations.

    Parameters
    ----------
    state : a game's State (not over)
    iterations : int >= 1
    c : float >= 0
        Exploration constant of the UCB rule (win shares are in [0, 1]).
    policies : list, one entry per seat
        The rollout policy of every seat (a policy vector, or None for random), or the same
        learned model (simcore._model.LearnedPolicy) for every seat.
    seed : int
        Every draw of the search (determinizations, expansion order, rollout noise).
    bias : float >= 0
        Progressive bias: the built-in policy's choice at a node gets
        ``bias / (visits + 1)`` on top of its UCB value (0: none). The default,
        10, keeps the heuristic's move unless the search finds a clearly better
        one: win/loss rollouts are noisy, and with ~100 legal actions and a few
        hundred iterations an unbiased search picks noise (Akrotiri 2p,
        MCTS-200 against balanced: 0.0 without it, 0.83 at 400 iterations with it).
    max_nodes : int, optional
        Tree size cap (default ``iterations + 1``: one new node per iteration).
    cutoff : int >= 0
        Stop each rollout after this many decisions and score the position as
        it stands (the seats leading on points share the win); 0: to the end.
    points : float in [0, 1]
        Weight of each seat's share of the points in its reward (0: the win
        share alone; 1: the point share alone).
    prior : simcore._model.LearnedPolicy, optional
        A learned model as the search's prior (expansion order and progressive
        bias, :func:`_search`); None: the built-in policy's choice.
    rollout_epsilon : float in [0, 1]
        With a learned rollout policy: the probability of a uniformly random rollout move (a
        heuristic's noise is in its policy vector).

    Returns
    -------
    dict with ``actions``, ``visits`` and ``values`` (the chooser's mean win
    share) of each tried root action, sorted by action, and ``best``: the most
    visited (ties: the higher value, then the lower action).
    """
    check_search_settings(iterations, c, bias, cutoff, points)
    handles = state._c_handles()
    cdef const GameOps* ops = <const GameOps*>PyCapsule_GetPointer(handles[0], GAME_OPS_CAPSULE)
    cdef const void* cfg = PyCapsule_GetPointer(handles[1], b"simcore.GameConfig")
    cdef const void* s = PyCapsule_GetPointer(handles[2], b"simcore.GameState")
    if ops.is_over(cfg, s):
        raise ValueError("the game is over: no action to search")
    cdef int players = ops.n_players(cfg, s)
    if players > MAXP:
        raise ValueError(f"at most {MAXP} players")
    cdef int cap = int(max_nodes) if max_nodes is not None else iterations + 1
    if cap < 2:
        raise ValueError(f"max_nodes must be >= 2, not {cap}")
    cdef uint64_t base = <uint64_t>int(seed)
    cdef SearchCtx x
    cdef int n_nodes = 0, ch
    keep = prior.prior(handles[0], players) if prior is not None else None
    roll = _rollout_model(handles[0], policies, players)
    try:
        _ctx_open(&x, ops, iterations, cap, c, bias, cutoff, points, policies, players)
        _attach(&x, keep, roll, rollout_epsilon)
        with nogil:
            n_nodes = _run(&x, cfg, s, base)
        raise_if_interrupted()
        rows = []
        ch = x.nodes[0].first_child
        while ch >= 0:
            if x.nodes[ch].visits > 0:
                rows.append((int(x.nodes[ch].action), int(x.nodes[ch].visits),
                             x.nodes[ch].reward / x.nodes[ch].visits))
            ch = x.nodes[ch].next_sibling
        rows.sort()
        return {"actions": [r[0] for r in rows], "visits": np.array([r[1] for r in rows]),
                "values": np.array([r[2] for r in rows]), "best": int(x.nodes[_best(x.nodes)].action),
                "nodes": n_nodes}
    finally:
        _ctx_close(&x)


def decision_seed(game_seed, decisions):
    """The seed a kernel gives an external decider at decision number ``decisions`` of the game of
    ``game_seed`` (``simcore/_game_ops.pxd``): a search agent in a run searches from it."""
    return int(_decision_seed(<uint64_t>int(game_seed), <int>int(decisions)))


cdef class SearchDecider:
    """An ISMCTS seat for a kernel's game loop: ``capsule()`` is its :c:type:`Decider`.

    Built from a :class:`simcore._contract.SearchPolicy` by :func:`external_deciders`;
    it owns the search's memory (one tree, reused for each decision).
    """
    cdef SearchCtx x
    cdef object spec
    cdef object prior           # the learned prior's owner (None: none)
    cdef object roll            # the learned rollout policy's owner (None: the built-in policies)

    def __cinit__(self, ops_capsule, spec, int players):
        memset(&self.x, 0, sizeof(SearchCtx))
        cdef const GameOps* ops = <const GameOps*>PyCapsule_GetPointer(ops_capsule, GAME_OPS_CAPSULE)
        if players > MAXP:
            raise ValueError(f"at most {MAXP} players")
        reuse = getattr(spec, "reuse", 0)
        check_search_settings(spec.iterations, spec.c, spec.bias, spec.cutoff, spec.points, reuse)
        self.spec = spec
        # reuse: room for a retained subtree (at most the last tree) and the new iterations; a full
        # tree stops growing (its iterations roll out from where the tree ends)
        _ctx_open(&self.x, ops, spec.iterations, (2 if reuse else 1) * spec.iterations + 1, spec.c, spec.bias,
                  spec.cutoff, spec.points, [spec.rollout] * players, players)
        self.x.reuse = reuse
        self.prior = spec.prior.prior(ops_capsule, players) if spec.prior is not None else None
        self.roll = _rollout_model(ops_capsule, [spec.rollout] * players, players)
        _attach(&self.x, self.prior, self.roll, spec.rollout_epsilon)

    def __dealloc__(self):
        _ctx_close(&self.x)

    def capsule(self):
        return PyCapsule_New(<void*>&self.x.decider, DECIDER_CAPSULE, NULL)

    # -- the decider seen from Python (strategies.MCTSAgent with reuse, the tests, the benches)

    cdef int _handles(self, state, const void** cfg, const void** s) except -1:
        handles = state._c_handles()
        if <const GameOps*>PyCapsule_GetPointer(handles[0], GAME_OPS_CAPSULE) != self.x.ops:
            raise ValueError("the position is of another game than the decider's")
        cfg[0] = PyCapsule_GetPointer(handles[1], b"simcore.GameConfig")
        s[0] = PyCapsule_GetPointer(handles[2], b"simcore.GameState")
        if self.x.ops.is_over(cfg[0], s[0]):
            raise ValueError("the game is over: no action to search")
        return 0

    def decide(self, state, seed):
        """The move the decider plays at ``state`` with the decision's ``seed``, as in a kernel's game
        (with reuse, going on from its last decision's tree when that is allowed)."""
        cdef const void* cfg
        cdef const void* s
        self._handles(state, &cfg, &s)
        cdef uint64_t sd = <uint64_t>int(seed)
        cdef int a
        with nogil:
            a = _decide(&self.x, cfg, s, sd)
        raise_if_interrupted()
        return int(a)

    def retain(self, state, seed):
        """Reuse's first step alone: keep the last decision's subtree as the tree of ``state`` when
        allowed (:func:`_retain`); the number of nodes kept (0: none, the tree is left as it was)."""
        cdef const void* cfg
        cdef const void* s
        self._handles(state, &cfg, &s)
        cdef int start = _retain(&self.x, cfg, s, <uint64_t>int(seed))
        if start > 0:
            self.x.n_nodes = start
        return start

    def tree(self, action=None):
        """The tree's root (or its child of ``action``): ``visits`` and its tried children's
        ``actions``, ``visits`` and ``values``, sorted by action."""
        if self.x.n_nodes <= 0:
            raise ValueError("no search yet")
        cdef int32_t v = 0, ch
        if action is not None:
            v = self.x.nodes[0].first_child
            while v >= 0 and self.x.nodes[v].action != action:
                v = self.x.nodes[v].next_sibling
            if v < 0:
                raise ValueError(f"the root has no child {action!r}")
        rows = []
        ch = self.x.nodes[v].first_child
        while ch >= 0:
            if self.x.nodes[ch].visits > 0:
                rows.append((int(self.x.nodes[ch].action), int(self.x.nodes[ch].visits),
                             self.x.nodes[ch].reward / self.x.nodes[ch].visits))
            ch = self.x.nodes[ch].next_sibling
        rows.sort()
        return {"visits": int(self.x.nodes[v].visits), "actions": [r[0] for r in rows],
                "child_visits": np.array([r[1] for r in rows], dtype=np.int64),
                "values": np.array([r[2] for r in rows]), "nodes": int(self.x.n_nodes)}

    def stats(self):
        """With reuse: searched decisions, those that went on from a retained subtree, and the visits
        their retained roots brought (counted since the decider was made)."""
        return {"decisions": int(self.x.decisions), "reused": int(self.x.reused),
                "retained_visits": int(self.x.retained)}


def external_deciders(ops_capsule, policies, int players):
    """Split a kernel's ``policies`` argument: ``(plain, deciders)``.

    ``plain`` is ``policies`` with every :class:`SearchPolicy` seat replaced by
    ``None`` (what the built-in policies load); ``deciders`` is ``None`` when no
    seat searches, else one entry per seat: a :class:`SearchDecider` or ``None``.
    """
    if policies is None or not any(_external(p) for p in policies):
        return policies, None
    if len(policies) != players:
        raise ValueError(f"policies must give one entry per seat ({players}), not {len(policies)}")
    plain = [None if _external(p) else p for p in policies]
    return plain, [SearchDecider(ops_capsule, p, players) if isinstance(p, SearchPolicy)
                   else p.decider(ops_capsule, players) if _external(p) else None for p in policies]


def _rollout_model(ops_capsule, policies, int players):
    """The Decider owner of a learned rollout policy (one for every seat: the rollouts run one at a
    time), or None when the rollouts play the built-in policies. ValueError for a mix."""
    if policies is None or not any(_external(p) for p in policies):
        return None
    if any(p is not policies[0] for p in policies) or isinstance(policies[0], SearchPolicy):
        raise ValueError("a learned rollout policy must be the same model for every seat")
    return policies[0].decider(ops_capsule, players)


def _external(p):
    # a seat decided outside the built-in policies: a search, or an object that makes its own
    # Decider (a learned model: simcore._model.LearnedPolicy.decider)
    return isinstance(p, SearchPolicy) or hasattr(p, "decider")


def rollout(state, policies, seed, determinize=True):
    """A clone of ``state`` played to the end by ``policies`` (one per seat), as a search's rollout
    plays it: first determinized for the seat to decide (unless ``determinize`` is false)."""
    out = state.clone()
    handles = out._c_handles(True)
    cdef const GameOps* ops = <const GameOps*>PyCapsule_GetPointer(handles[0], GAME_OPS_CAPSULE)
    cdef const void* cfg = PyCapsule_GetPointer(handles[1], b"simcore.GameConfig")
    cdef void* s = PyCapsule_GetPointer(handles[2], b"simcore.GameState")
    cdef int players = ops.n_players(cfg, s), n
    cdef int32_t* legal = <int32_t*>malloc(ops.max_legal * sizeof(int32_t))
    cdef void* block = malloc(ops.policy_size)
    cdef uint64_t prng[4]
    try:
        if not (legal and block):
            raise MemoryError()
        memset(block, 0, ops.policy_size)
        ops.load_policies(block, list(policies), players)
        ops.policy_new_game(block)
        rng_seed(prng, <uint64_t>int(seed), SEARCH_SALT)
        if determinize and not ops.is_over(cfg, s):
            ops.determinize(cfg, s, ops.current_player(cfg, s), <uint64_t>int(seed))
        with nogil:
            while not ops.is_over(cfg, s):
                n = ops.legal_actions(cfg, s, legal)
                ops.apply_action(cfg, s, ops.policy_action(cfg, s, block, prng, legal, n))
        return out
    finally:
        free(legal)
        free(block)
