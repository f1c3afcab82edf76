"""Learned models evaluated in C: a small multilayer perceptron over a decision's features.

A model scores each legal action of a decision; the ``learned`` strategy plays
the best-scored action (ties: the lower action, or with the model document's
``"ties": "seeded"`` one of the tied actions drawn from the decision's seed;
with a ``"fallback"``, from the decision where a state feature reaches a value
on, a built-in policy's choice instead: :func:`fallback_rule`),
and a search may take the
scores' softmax as its prior (``simcore/_mcts.pyx``). The features come from
the game's :c:type:`ModelOps` hook (``simcore/_model.pxd``): per action
``n_action`` numbers (the heuristic's features of the action, its score...)
and per position ``n_state`` numbers. The model is one hidden layer of ReLU
units over the standardized ``[action features, state features]``::

    z = (x - mean) * scale
    score = b2 + sum_j w2[j] * max(0, b1[j] + W1[j] . z)

The state part of ``W1 . z`` is the same for every action of a decision: it
is computed once per decision. Everything runs without Python and without
allocation (the buffers are the model's, sized once); the sums run in a fixed
order, so a model gives the same scores on every run. The weights are data
(``strategies/models/<game>-<N>p.json``, ``strategies/learned.py``).
"""
from libc.math cimport exp
from libc.stdlib cimport free, malloc
from libc.string cimport memset
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_New

import numpy as np

from simcore._game_ops cimport DECIDER_CAPSULE, GAME_OPS_CAPSULE, Decider, GameOps, decision_seed
from simcore._model cimport MODEL_OPS_CAPSULE, PRIOR_CAPSULE, ModelOps, Prior
from simcore._rng cimport POLICY_SALT, rng_seed
from simcore._types cimport int32_t, uint64_t


ctypedef struct Model:
    const ModelOps* mops
    int na, ns, nin, hidden
    double* mean            # nin
    double* scale           # nin
    double* W1              # hidden x nin, row-major
    double* b1              # hidden
    double* w2              # hidden
    double b2
    double* act             # max_legal x na: a decision's action features
    double* st              # ns
    double* hs              # hidden: b1 + the state part of W1 . z
    double* z               # na
    double* W1aT            # na x hidden: the action part of W1, transposed (the inner loop runs over units)
    double* h               # hidden: one action's hidden layer
    int ties                # TIES_FIRST or TIES_SEEDED: how model_pick breaks exact ties


cdef enum:
    TIES_FIRST = 0          # the lower action (the model documents without a "ties" key)
    TIES_SEEDED = 1         # one of the tied actions, drawn from the decision's seed

#: The values of a model document's ``"ties"`` key (absent: ``"first"``).
TIES = {"first": TIES_FIRST, "seeded": TIES_SEEDED}


cdef void _copy(const double[::1] v, double* out) noexcept:
    cdef Py_ssize_t i
    for i in range(v.shape[0]):
        out[i] = v[i]


cdef int model_open(Model* m, const ModelOps* mops, int max_legal, spec) except -1:
    """Fill ``m`` from ``spec`` (a model document); sizes checked against the game's hook."""
    memset(m, 0, sizeof(Model))
    m.mops = mops
    m.na, m.ns = mops.n_action, mops.n_state
    m.nin = m.na + m.ns
    W1 = np.ascontiguousarray(spec["W1"], dtype=np.float64)
    if W1.ndim != 2 or W1.shape[1] != m.nin:
        raise ValueError(f"the model takes {W1.shape[W1.ndim - 1] if W1.ndim else 0} features; this game's "
                         f"engine gives {m.nin} "
                         f"({m.na} per action, {m.ns} per position): retrain it")
    m.hidden = W1.shape[0]
    ties = spec.get("ties", "first")
    if ties not in TIES:
        raise ValueError(f"the model's ties is {ties!r}, not one of {', '.join(map(repr, TIES))}")
    m.ties = TIES[ties]
    arrays = [(np.ascontiguousarray(spec[k], dtype=np.float64).reshape(-1), size, k)
              for k, size in (("mean", m.nin), ("scale", m.nin), ("b1", m.hidden), ("w2", m.hidden))]
    for a, size, name in arrays:
        if a.shape != (size,):
            raise ValueError(f"the model's {name} has shape {a.shape}, not ({size},)")
    m.mean = <double*>malloc(m.nin * sizeof(double))
    m.scale = <double*>malloc(m.nin * sizeof(double))
    m.W1 = <double*>malloc(m.hidden * m.nin * sizeof(double))
    m.b1 = <double*>malloc(m.hidden * sizeof(double))
    m.w2 = <double*>malloc(m.hidden * sizeof(double))
    m.act = <double*>malloc(max_legal * m.na * sizeof(double))
    m.st = <double*>malloc((m.ns + 1) * sizeof(double))
    m.hs = <double*>malloc(m.hidden * sizeof(double))
    m.z = <double*>malloc(m.na * sizeof(double))
    m.W1aT = <double*>malloc(m.na * m.hidden * sizeof(double))
    m.h = <double*>malloc(m.hidden * sizeof(double))
    if not (m.mean and m.scale and m.W1 and m.b1 and m.w2 and m.act and m.st and m.hs and m.z and m.W1aT
            and m.h):
        raise MemoryError()
    _copy(arrays[0][0], m.mean)
    _copy(arrays[1][0], m.scale)
    _copy(arrays[2][0], m.b1)
    _copy(arrays[3][0], m.w2)
    _copy(W1.reshape(-1), m.W1)
    _copy(np.ascontiguousarray(W1[:, :m.na].T).reshape(-1), m.W1aT)
    m.b2 = float(spec["b2"])
    return 0


cdef void model_close(Model* m) noexcept:
    free(m.mean)
    free(m.scale)
    free(m.W1)
    free(m.b1)
    free(m.w2)
    free(m.act)
    free(m.st)
    free(m.hs)
    free(m.z)
    free(m.W1aT)
    free(m.h)
    memset(m, 0, sizeof(Model))


cdef void model_scores(Model* m, const void* cfg, const void* s, void* block, const int32_t* legal, int n,
                       double* out) noexcept nogil:
    """``out[i]``: the model's score of ``legal[i]`` at ``s`` (its turn to decide, n >= 1)."""
    m.mops.features(cfg, s, block, legal, n, m.act, m.st)
    model_network(m, n, out)


cdef void model_network(Model* m, int n, double* out) noexcept nogil:
    """``out[i]``: the network's score of action ``i`` from the features in ``m.act`` and ``m.st``
    (the decision's, as ``mops.features`` wrote them)."""
    cdef int i, j, k, na = m.na, nin = m.nin, hid = m.hidden
    cdef double h, acc, zk, a0, a1, a2, a3, a4, a5, a6, a7
    cdef double* hb = m.h
    cdef const double* w
    cdef const double* x
    for j in range(m.hidden):
        w = m.W1 + j * nin + na
        h = m.b1[j]
        for k in range(m.ns):
            h += w[k] * ((m.st[k] - m.mean[na + k]) * m.scale[na + k])
        m.hs[j] = h
    for i in range(n):
        x = m.act + i * na
        for k in range(na):
            m.z[k] = (x[k] - m.mean[k]) * m.scale[k]
        # each unit's sum in the same order as a row of W1 (b1, the state part, then the action
        # features in turn), built a feature at a time over all units so that the loop vectorizes
        j = 0
        while j + 8 <= hid:             # eight units at a time, their sums kept in registers
            a0, a1, a2, a3 = m.hs[j], m.hs[j + 1], m.hs[j + 2], m.hs[j + 3]
            a4, a5, a6, a7 = m.hs[j + 4], m.hs[j + 5], m.hs[j + 6], m.hs[j + 7]
            w = m.W1aT + j
            for k in range(na):
                zk = m.z[k]
                a0 += w[0] * zk
                a1 += w[1] * zk
                a2 += w[2] * zk
                a3 += w[3] * zk
                a4 += w[4] * zk
                a5 += w[5] * zk
                a6 += w[6] * zk
                a7 += w[7] * zk
                w += hid
            hb[j], hb[j + 1], hb[j + 2], hb[j + 3] = a0, a1, a2, a3
            hb[j + 4], hb[j + 5], hb[j + 6], hb[j + 7] = a4, a5, a6, a7
            j += 8
        while j < hid:
            a0 = m.hs[j]
            for k in range(na):
                a0 += m.W1aT[k * hid + j] * m.z[k]
            hb[j] = a0
            j += 1
        acc = m.b2
        for j in range(hid):
            if hb[j] > 0.0:
                acc += m.w2[j] * hb[j]
        out[i] = acc


cdef int model_best(Model* m, const void* cfg, const void* s, void* block, const int32_t* legal, int n,
                    double* sc) noexcept nogil:
    """The index in ``legal`` of the best-scored action (ties: the first, the lower action)."""
    cdef int i, best = 0
    model_scores(m, cfg, s, block, legal, n, sc)
    for i in range(1, n):
        if sc[i] > sc[best]:
            best = i
    return best


cdef int model_pick(Model* m, const void* cfg, const void* s, void* block, const int32_t* legal, int n,
                    double* sc, uint64_t seed) noexcept nogil:
    """The index in ``legal`` of the action the ``learned`` seat plays: the best-scored one; exact
    ties by the model's rule (``m.ties``): the first, or the k-th of the tied ones with k drawn
    from ``seed`` (splitmix64 of it, scaled to the count)."""
    model_scores(m, cfg, s, block, legal, n, sc)
    return _pick_scored(m, n, sc, seed)


cdef int _pick_scored(Model* m, int n, const double* sc, uint64_t seed) noexcept nogil:
    # model_pick's choice from the decision's scores ``sc``
    cdef int i, k = 0, best = 0
    cdef uint64_t z
    for i in range(1, n):
        if sc[i] > sc[best]:
            best = i
    if m.ties != TIES_SEEDED:
        return best
    for i in range(best, n):
        if sc[i] == sc[best]:
            k += 1
    if k < 2:
        return best
    z = seed + <uint64_t>0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    z = z ^ (z >> 31)
    k = <int>(((z >> 32) * <uint64_t>k) >> 32)         # 0 <= k < the tied count
    for i in range(best, n):
        if sc[i] == sc[best]:
            if k == 0:
                return i
            k -= 1
    return best


cdef void model_probs(Model* m, const void* cfg, const void* s, void* block, const int32_t* legal, int n,
                      double* out) noexcept nogil:
    """``out[i]``: the softmax of the scores (the model's policy; sums to 1)."""
    cdef int i
    cdef double top, tot = 0.0
    model_scores(m, cfg, s, block, legal, n, out)
    top = out[0]
    for i in range(1, n):
        if out[i] > top:
            top = out[i]
    for i in range(n):
        out[i] = exp(out[i] - top)
        tot += out[i]
    for i in range(n):
        out[i] /= tot


class LearnedPolicy:
    """What ``play_batch`` takes for a seat that plays a learned model (kind "learned").

    ``models``: player count -> the model's document (``strategies/models/<game>-<N>p.json``: ``W1``,
    ``b1``, ``w2``, ``b2``, ``mean``, ``scale`` as in the module docstring, and ``context``, the
    policy argument of the heuristic whose weighted features the model reads). The kernel makes one
    :class:`LearnedDecider` per learned seat (:meth:`decider`) for the game's player count.
    """
    __slots__ = ("game", "name", "models")

    def __init__(self, game, name, models):
        self.game, self.name, self.models = game, name, dict(models)

    def __reduce__(self):
        return (LearnedPolicy, (self.game, self.name, self.models))

    def __repr__(self):
        return f"LearnedPolicy({self.game!r}, {self.name!r}, players {sorted(self.models)})"

    def model(self, int players):
        """The model for ``players`` (ValueError naming what is missing)."""
        if players not in self.models:
            have = ", ".join(f"{p} players" for p in sorted(self.models)) or "none"
            raise ValueError(f"strategy {self.name!r}: no learned model of {self.game} for {players} players "
                             f"(it has: {have}); train one with boardlab train {self.game} --players {players}")
        return self.models[players]

    def decider(self, ops_capsule, int players):
        """A :class:`LearnedDecider` of the model for ``players`` (one per seat: it owns its buffers)."""
        spec = self.model(players)
        return LearnedDecider(ops_capsule, model_capsule(self.game, spec), spec, players)

    def prior(self, ops_capsule, int players):
        """A :class:`LearnedPrior` of the model for ``players``: a search's prior (one per search)."""
        spec = self.model(players)
        return LearnedPrior(ops_capsule, model_capsule(self.game, spec), spec, players)


cdef struct LearnedCtx:
    const GameOps* ops
    Model m
    void* block             # the feature context's policies, one per seat
    int32_t* legal
    double* sc
    Decider decider
    void* fb_block          # the fallback's policies, one per seat (NULL: the model has no fallback)
    int fb_feature          # the state feature whose value turns the fallback on ...
    double fb_from          # ... from this value on


def fallback_rule(spec):
    """``(state feature index, from)`` of a model document's ``"fallback"`` (None when it has none):
    from the decision where that state feature is at least ``from`` on, the seat plays the fallback
    strategy's choice instead of the model's. ValueError naming what is wrong."""
    fb = spec.get("fallback")
    if fb is None:
        return None
    names = spec.get("state_features")
    if not isinstance(fb, dict) or not isinstance(fb.get("strategy"), dict):
        raise ValueError("the model's fallback must be {\"strategy\": a strategy dict, \"state_feature\": a name, "
                         "\"from\": a number}")
    feat, start = fb.get("state_feature"), fb.get("from")
    if not isinstance(names, (list, tuple)) or feat not in names:
        raise ValueError(f"the model's fallback state_feature {feat!r} is not one of its state_features")
    if isinstance(start, bool) or not isinstance(start, (int, float)) or start != start:
        raise ValueError(f"the model's fallback from is {start!r}, not a number")
    return list(names).index(feat), float(start)


cdef int _ctx_open(LearnedCtx* x, ops_capsule, model_capsule, spec, int players) except -1:
    memset(x, 0, sizeof(LearnedCtx))
    cdef const GameOps* ops = <const GameOps*>PyCapsule_GetPointer(ops_capsule, GAME_OPS_CAPSULE)
    cdef const ModelOps* mops = <const ModelOps*>PyCapsule_GetPointer(model_capsule, MODEL_OPS_CAPSULE)
    x.ops = ops
    model_open(&x.m, mops, ops.max_legal, spec)
    x.block = malloc(ops.policy_size)
    x.legal = <int32_t*>malloc(ops.max_legal * sizeof(int32_t))
    x.sc = <double*>malloc(ops.max_legal * sizeof(double))
    if not (x.block and x.legal and x.sc):
        raise MemoryError()
    memset(x.block, 0, ops.policy_size)
    ops.load_policies(x.block, [spec["context_policy"]] * players, players)
    ops.policy_new_game(x.block)
    rule = fallback_rule(spec)
    if rule is not None:
        if "fallback_policy" not in spec:
            raise ValueError("the model's fallback has no fallback_policy (the kernel's argument of its "
                             "strategy: read the model with learned_policy)")
        x.fb_feature, x.fb_from = rule
        if x.fb_feature >= mops.n_state:
            raise ValueError(f"the model's fallback state_feature is number {x.fb_feature}; the engine gives "
                             f"{mops.n_state} state features")
        x.fb_block = malloc(ops.policy_size)
        if not x.fb_block:
            raise MemoryError()
        memset(x.fb_block, 0, ops.policy_size)
        ops.load_policies(x.fb_block, [spec["fallback_policy"]] * players, players)
    x.decider.decide = _decide
    x.decider.ctx = <void*>x
    return 0


cdef void _ctx_close(LearnedCtx* x) noexcept:
    model_close(&x.m)
    free(x.block)
    free(x.legal)
    free(x.sc)
    free(x.fb_block)
    memset(x, 0, sizeof(LearnedCtx))


cdef int _decide(void* ctx, const void* cfg, const void* s, uint64_t seed) noexcept nogil:
    # Decider.decide: the model's best action (no noise; the seed breaks exact ties when the model's
    # "ties" is "seeded"), or, with a fallback, once the state feature has reached its value, the
    # fallback policy's choice, its noise from the decision's seed
    cdef LearnedCtx* x = <LearnedCtx*>ctx
    cdef int n = x.ops.legal_actions(cfg, s, x.legal)
    cdef uint64_t prng[4]
    if n == 1:
        return x.legal[0]
    if x.fb_block == NULL:
        return x.legal[model_pick(&x.m, cfg, s, x.block, x.legal, n, x.sc, seed)]
    x.m.mops.features(cfg, s, x.block, x.legal, n, x.m.act, x.m.st)
    if x.m.st[x.fb_feature] >= x.fb_from:
        rng_seed(prng, seed, POLICY_SALT)
        x.ops.policy_new_game(x.fb_block)       # nothing of another game's position is kept
        return x.ops.policy_action(cfg, s, x.fb_block, prng, x.legal, n)
    model_network(&x.m, n, x.sc)
    return x.legal[_pick_scored(&x.m, n, x.sc, seed)]


cdef class LearnedDecider:
    """A learned seat for a kernel's game loop: ``capsule()`` is its :c:type:`Decider`."""
    cdef LearnedCtx x

    def __cinit__(self, ops_capsule, model_capsule, spec, int players):
        memset(&self.x, 0, sizeof(LearnedCtx))
        _ctx_open(&self.x, ops_capsule, model_capsule, spec, players)

    def __dealloc__(self):
        _ctx_close(&self.x)

    def capsule(self):
        return PyCapsule_New(<void*>&self.x.decider, DECIDER_CAPSULE, NULL)


cdef void _prior_probs(void* ctx, const void* cfg, const void* s, const int32_t* legal, int n,
                       double* out) noexcept nogil:
    cdef LearnedCtx* x = <LearnedCtx*>ctx
    model_probs(&x.m, cfg, s, x.block, legal, n, out)


cdef class LearnedPrior:
    """A model as a search's prior: ``capsule()`` is its :c:type:`Prior` (simcore/_model.pxd)."""
    cdef LearnedCtx x
    cdef Prior p

    def __cinit__(self, ops_capsule, model_capsule, spec, int players):
        memset(&self.x, 0, sizeof(LearnedCtx))
        _ctx_open(&self.x, ops_capsule, model_capsule, spec, players)
        self.p.probs = _prior_probs
        self.p.ctx = <void*>&self.x

    def __dealloc__(self):
        _ctx_close(&self.x)

    def capsule(self):
        return PyCapsule_New(<void*>&self.p, PRIOR_CAPSULE, NULL)


def features(state, context):
    """``(actions, action features (n x n_action), state features (n_state,))`` of the decision at
    ``state``, as the kernel computes them for a model (``context``: the feature context's policy
    argument). The training data (``strategies/train.py``) come from here."""
    handles = state._c_handles()
    cdef const GameOps* ops = <const GameOps*>PyCapsule_GetPointer(handles[0], GAME_OPS_CAPSULE)
    cdef const void* cfg = PyCapsule_GetPointer(handles[1], b"simcore.GameConfig")
    cdef const void* s = PyCapsule_GetPointer(handles[2], b"simcore.GameState")
    mod_caps = _model_capsule(state)
    cdef const ModelOps* mops = <const ModelOps*>PyCapsule_GetPointer(mod_caps, MODEL_OPS_CAPSULE)
    if ops.is_over(cfg, s):
        raise ValueError("the game is over: no decision to describe")
    cdef int players = ops.n_players(cfg, s), n, i
    cdef void* block = malloc(ops.policy_size)
    cdef int32_t* legal = <int32_t*>malloc(ops.max_legal * sizeof(int32_t))
    act = np.zeros((ops.max_legal, mops.n_action))
    st = np.zeros(mops.n_state + 1)
    cdef double[:, ::1] av = act
    cdef double[::1] sv = st
    try:
        if not (block and legal):
            raise MemoryError()
        memset(block, 0, ops.policy_size)
        ops.load_policies(block, [context] * players, players)
        ops.policy_new_game(block)
        n = ops.legal_actions(cfg, s, legal)
        mops.features(cfg, s, block, legal, n, &av[0, 0], &sv[0])
        return [int(legal[i]) for i in range(n)], act[:n].copy(), st[:mops.n_state].copy()
    finally:
        free(block)
        free(legal)


cdef struct _Decision:
    const GameOps* ops
    const void* cfg
    const void* s


cdef object _decision(state, spec, str what, _Decision* d):
    """``(handles, model document)`` of a decision at ``state`` (``spec``: a model document or a
    :class:`LearnedPolicy`), its engine pointers in ``d``; ValueError when the game is over."""
    if isinstance(spec, LearnedPolicy):
        spec = spec.model(state.players)
    handles = state._c_handles()
    d.ops = <const GameOps*>PyCapsule_GetPointer(handles[0], GAME_OPS_CAPSULE)
    d.cfg = PyCapsule_GetPointer(handles[1], b"simcore.GameConfig")
    d.s = PyCapsule_GetPointer(handles[2], b"simcore.GameState")
    if d.ops.is_over(d.cfg, d.s):
        raise ValueError(f"the game is over: no decision to {what}")
    return handles, spec


def scores(state, spec):
    """The model ``spec``'s score of each legal action at ``state``: ``(actions, scores)`` (``spec``:
    a model document with its ``context_policy``, or a :class:`LearnedPolicy`)."""
    cdef _Decision d
    handles, spec = _decision(state, spec, "score", &d)
    caps = _model_capsule(state, spec)      # before the try: _ctx_close(&x) only after _ctx_open's memset
    cdef LearnedCtx x
    cdef int n, i
    try:
        _ctx_open(&x, handles[0], caps, spec, d.ops.n_players(d.cfg, d.s))
        n = d.ops.legal_actions(d.cfg, d.s, x.legal)
        model_scores(&x.m, d.cfg, d.s, x.block, x.legal, n, x.sc)
        return [int(x.legal[i]) for i in range(n)], np.array([x.sc[i] for i in range(n)])
    finally:
        _ctx_close(&x)


def _ops_of(mod, spec):
    # a game with several feature sets (Yamataï: model_ops(names)) gives the one the model's
    # feature names call for; the others have one, model_ops(). ``mod``: the game's package or
    # its engine module (baseline or x86-64-v3): the package is the one whose State is mod's
    import sys
    import simcore
    pkg = next((g for g in simcore.games.values() if getattr(g, "State", None) is getattr(mod, "State", 0)), None)
    if pkg is None:     # an engine build the package did not load (the other ISA's, imported by name)
        pkg = sys.modules.get(mod.__name__.split("._")[0])
    if pkg is None:
        raise ValueError(f"{mod.__name__} is not the engine of a registered game")
    if spec is not None and getattr(pkg, "MODEL_FEATURE_SETS", 1) > 1 and "action_features" in spec:
        return mod.model_ops((spec["action_features"], spec.get("state_features", ())))
    return mod.model_ops()


def kernel_decision_seed(game_seed, decisions):
    """The seed a kernel's game loop gives the decision number ``decisions`` of the game dealt from
    ``game_seed`` (what a ``learned`` seat of ``play_batch`` breaks its ties with)."""
    return int(decision_seed(<uint64_t>(int(game_seed) & 0xFFFFFFFFFFFFFFFF), int(decisions)))


def best_action(state, spec, seed):
    """The action a ``learned`` seat plays at ``state`` (a decision, not over) for the decision seed
    ``seed`` (which only breaks exact ties, with ``"ties": "seeded"``; a kernel's seed:
    :func:`kernel_decision_seed`): ``spec`` a model document with its ``context_policy``, or a
    :class:`LearnedPolicy`."""
    cdef _Decision d
    handles, spec = _decision(state, spec, "take", &d)
    caps = _model_capsule(state, spec)      # before the try, as in scores()
    cdef LearnedCtx x
    cdef uint64_t sd = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    try:
        _ctx_open(&x, handles[0], caps, spec, d.ops.n_players(d.cfg, d.s))
        return int(_decide(&x, d.cfg, d.s, sd))
    finally:
        _ctx_close(&x)


def model_capsule(game, spec=None):
    """The :c:type:`ModelOps` capsule of ``game`` (ValueError when the game has none); ``spec``: the
    model document, whose feature names pick the set when the game has several."""
    import simcore
    mod = simcore.games[game]
    if not hasattr(mod, "model_ops"):
        raise ValueError(f"game {game!r} has no model_ops() (the features a learned model needs: "
                         f"simcore/_model.pxd)")
    return _ops_of(mod, spec)


def _model_capsule(state, spec=None):
    import sys
    mod = sys.modules[type(state).__module__]
    if not hasattr(mod, "model_ops"):
        raise ValueError(f"this game has no model_ops() (the features a learned model needs: "
                         f"simcore/_model.pxd)")
    return _ops_of(mod, spec)


def model_file(path):
    """Where a model reference's file is: a relative path (a shipped model, ``strategies/models/…``)
    is relative to the folder that holds the installed packages, an absolute one is itself."""
    import os
    if isinstance(path, str) and path and not os.path.isabs(path):
        return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), path)
    return path


def learned_policy(module, strategy):
    """The :class:`LearnedPolicy` of a resolved ``learned`` strategy dict: each model file read and
    checked against its SHA-256 (``strategy["models"]``: player count -> ``{"file", "sha256"}``)."""
    import hashlib
    import json
    from simcore._contract import policy_argument

    name = strategy.get("name")
    models = {}
    for players, ref in dict(strategy.get("models") or {}).items():
        path = model_file(ref.get("file"))
        try:
            raw = open(path, "rb").read()
        except OSError as e:
            raise ValueError(f"strategy {name!r}: cannot read its model {path}: {e.strerror}") from None
        if ref.get("sha256") and hashlib.sha256(raw).hexdigest() != ref["sha256"]:
            raise ValueError(f"strategy {name!r}: {path} is not the model the strategy names "
                             f"(its SHA-256 differs)")
        doc = json.loads(raw)
        doc["context_policy"] = policy_argument(module, doc["context"])
        try:
            if fallback_rule(doc) is not None:
                doc["fallback_policy"] = _fallback_policy(module, doc["fallback"]["strategy"])
        except ValueError as e:
            raise ValueError(f"strategy {name!r}: {path}: {e}") from None
        models[int(players)] = doc
    return LearnedPolicy(module.NAME, name, models)


def _fallback_policy(module, strategy):
    """The kernel's argument of a fallback strategy dict: a built-in policy (a heuristic's vector, or
    None for random play), never a search or another model."""
    from simcore._contract import policy_argument

    if strategy.get("kind") not in ("heuristic", "random"):
        raise ValueError(f"the model's fallback strategy {strategy.get('name')!r} is a {strategy.get('kind')}; "
                         f"it must be a preset or a heuristic (the kernel's built-in policies)")
    return policy_argument(module, strategy)
