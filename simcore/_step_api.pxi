# The step API and the C-level game contract, written once for every engine.
#
# Included by simcore/<game>/_engine.pyx, with simcore/_engine_shell.pxi, after its rules,
# policies, CConfig and hooks; docs/adding_a_game.md ("A compiled engine's hooks") lists what
# the engine supplies. Its State (a subclass of StepState below) overrides the three text
# hooks _setup_entries, _logged_step and _end_entry, and has a ``phase`` property.
#
# Speed: a step records only its action (an int in a C array). The transcript's texts are
# made when transcript() is asked for, by re-playing the recorded actions from the position
# the log starts at; a change that re-playing could not reproduce (a determinization) first
# closes the log segment (_restart).
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy as _sa_memcpy
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer as _sa_capsule_pointer
from simcore._game_ops cimport GameOps, GAME_OPS_CAPSULE, Decider, DECIDER_CAPSULE, decision_seed
from simcore._mcts import external_deciders as _external_deciders

cdef enum:
    LOG_SETUP = 0           # the log starts at a set-up (its entries come from _setup_entries)
    LOG_POSITION = 1        # ... at a position loaded from a dict
    LOG_CONTINUED = 2       # ... where an earlier segment ended
    ILLEGAL_SHOWN = 20      # legal actions an illegal-action error lists


ctypedef fused _small_int:
    int8_t
    uint8_t


cdef inline void sort_and_shuffle(_small_int* a, int n, uint64_t* r) noexcept nogil:
    """Put ``a[0:n]`` in a fresh order drawn from ``r``. Sorted first, so the result does not
    depend on the order they had (a determinization must not read a hidden order)."""
    cdef int i, j
    cdef _small_int tmp
    for i in range(1, n):
        tmp = a[i]
        j = i - 1
        while j >= 0 and a[j] > tmp:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(r, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


cdef inline int settle(const GCfg* c, GState* s) noexcept nogil:
    """Apply the forced steps up to the next real decision or the end (``advance``);
    return the number of legal actions then (0 when over)."""
    cdef GAction buf[MAXLEGAL]
    return advance(c, s, buf, NULL)


cdef class StepState:
    """The step API every game's ``State`` shares (the game adds its queries and texts)."""
    cdef GState s
    cdef CConfig cc
    cdef readonly object seed
    cdef int32_t* _acts             # the decisions since the log segment began
    cdef Py_ssize_t _n_acts
    cdef Py_ssize_t _cap_acts
    cdef int _kind                  # LOG_*: how the current segment starts
    cdef bytes _start               # the position it starts at (shared by clones: immutable)
    cdef tuple _prev                # the earlier segments: (prev, kind, start, actions) or None

    def __dealloc__(self):
        free(self._acts)

    @classmethod
    def new(cls, config, seed):
        """A new game of ``config`` from ``seed`` (set-up drawn, forced steps applied)."""
        cdef StepState st = <StepState>cls.__new__(cls)
        st.cc = compiled(config)
        st.seed = int(seed)
        setup(&st.cc.c, &st.s, <uint64_t>st.seed)
        st._begin(LOG_SETUP)
        return st

    @property
    def config(self):
        """The game's config object."""
        return self.cc.py

    # -- the log
    cdef _begin(self, int kind):
        """Start the log at the current position (set-up or loaded); then settle it."""
        self._kind = kind
        self._start = PyBytes_FromStringAndSize(<char*>&self.s, sizeof(GState))
        self._n_acts = 0
        self._prev = None
        settle(&self.cc.c, &self.s)

    cdef _restart(self):
        """Close the log segment here, before a change that re-playing cannot reproduce."""
        self._prev = (self._prev, self._kind, self._start, self._actions())
        self._kind = LOG_CONTINUED
        self._start = PyBytes_FromStringAndSize(<char*>&self.s, sizeof(GState))
        self._n_acts = 0

    cdef tuple _actions(self):
        return tuple([self._acts[i] for i in range(self._n_acts)])

    cdef int _record(self, int action) except -1:
        cdef int32_t* grown
        if self._n_acts == self._cap_acts:
            self._cap_acts = 256 if self._cap_acts == 0 else 2 * self._cap_acts
            grown = <int32_t*>realloc(self._acts, self._cap_acts * sizeof(int32_t))
            if grown == NULL:
                raise MemoryError()
            self._acts = grown
        self._acts[self._n_acts] = action
        self._n_acts += 1
        return 0

    # -- text hooks (the game's State overrides them)
    cdef list _setup_entries(self):
        return [{"kind": "setup", "seed": self.seed, "text": f"set-up from seed {self.seed}"}]

    cdef _logged_step(self, list log, int action, str kind):
        """Append the entry of ``action`` (and the chance it reveals) to ``log`` and apply it."""
        log.append({"kind": kind, "seat": self.current_player(), "action": action,
                    "text": f"action {action}"})
        apply_action(&self.cc.c, &self.s, action)

    cdef dict _end_entry(self):
        sc = self.scores()
        return {"kind": "end", "scores": sc, "text": "game over: totals " + ", ".join(
            f"seat {p} {t}" for p, t in enumerate(sc["total"]))}

    cdef _logged_settle(self, list log):
        cdef GAction buf[MAXLEGAL]
        while not g_over(&self.s):
            if legal_actions(&self.cc.c, &self.s, buf) != 1:
                return
            self._logged_step(log, buf[0], "forced")
        if not log or log[len(log) - 1]["kind"] != "end":
            log.append(self._end_entry())

    cdef _replay_into(self, list log, int kind, bytes start, tuple actions):
        cdef StepState tmp = <StepState>type(self).__new__(type(self))
        tmp.cc = self.cc
        tmp.seed = self.seed
        _sa_memcpy(&tmp.s, PyBytes_AS_STRING(start), sizeof(GState))
        if kind == LOG_SETUP:
            log.extend(tmp._setup_entries())
        elif kind == LOG_POSITION:
            log.append({"kind": "position", "text": "position loaded from a dict"})
        tmp._logged_settle(log)
        for a in actions:
            tmp._logged_step(log, a, "decision")
            tmp.s.decisions += 1
            tmp._logged_settle(log)

    def transcript(self):
        """Every decision, forced step and chance draw so far, as dicts with a ``text``."""
        segments = []
        seg = (self._prev, self._kind, self._start, self._actions())
        while seg is not None:
            segments.append(seg)
            seg = seg[0]
        log = []
        for _, kind, start, actions in reversed(segments):
            self._replay_into(log, kind, start, actions)
        return log

    # -- queries
    def current_player(self):
        """The seat to decide; -1 when the game is over."""
        return g_current(&self.s)

    def legal_actions(self):
        """Sorted legal actions (at least two unless the game is over, then none)."""
        cdef GAction buf[MAXLEGAL]
        cdef int i, n
        if g_over(&self.s):
            return []
        n = legal_actions(&self.cc.c, &self.s, buf)
        return [buf[i] for i in range(n)]

    def is_over(self):
        return g_over(&self.s)

    @property
    def decisions(self):
        return int(self.s.decisions)

    # -- acting
    def apply(self, int action):
        """Apply ``action`` for the current player, then any forced steps.

        Raises
        ------
        ValueError
            If ``action`` is not legal now.
        """
        cdef GAction buf[MAXLEGAL]
        cdef int i, n
        if g_over(&self.s):
            raise ValueError("the game is over: no action is legal")
        n = legal_actions(&self.cc.c, &self.s, buf)
        for i in range(n):
            if buf[i] == action:
                break
        else:
            raise ValueError(self._illegal(action, buf, n))
        self._record(action)
        apply_action(&self.cc.c, &self.s, action)
        self.s.decisions += 1
        settle(&self.cc.c, &self.s)

    cdef str _illegal(self, int action, const GAction* buf, int n):
        shown = [buf[i] for i in range(min(n, ILLEGAL_SHOWN))]
        return (f"illegal action {action} for seat {self.current_player()} in phase {self.phase} "
                f"(legal: {shown}{' ...' if n > ILLEGAL_SHOWN else ''})")

    def clone(self):
        """An independent copy (same config, same position, same transcript)."""
        cdef StepState st = <StepState>type(self).__new__(type(self))
        st.cc = self.cc
        st.seed = self.seed
        _sa_memcpy(&st.s, &self.s, sizeof(GState))
        st._kind = self._kind
        st._start = self._start
        st._prev = self._prev
        if self._n_acts:
            st._acts = <int32_t*>malloc(self._n_acts * sizeof(int32_t))
            if st._acts == NULL:
                raise MemoryError()
            _sa_memcpy(st._acts, self._acts, self._n_acts * sizeof(int32_t))
            st._n_acts = st._cap_acts = self._n_acts
        return st

    def __eq__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    # -- the C-level contract
    def _c_handles(self, bint changing=False):
        """``(ops, config, state)`` capsules for simcore._search; ``changing``: the caller
        is about to change the position in a way the log cannot re-play (it is closed first)."""
        if changing:
            self._restart()
        return (game_ops(), PyCapsule_New(<void*>&self.cc.c, b"simcore.GameConfig", NULL),
                PyCapsule_New(<void*>&self.s, b"simcore.GameState", NULL))


# ------------------------------------------------------------------ the GameOps of this engine

cdef int _op_n_players(const void* c, const void* s) noexcept nogil:
    return g_n_players(<const GCfg*>c, <const GState*>s)


cdef int _op_current(const void* c, const void* s) noexcept nogil:
    return g_current(<const GState*>s)


cdef bint _op_over(const void* c, const void* s) noexcept nogil:
    return g_over(<const GState*>s)


cdef int _op_legal(const void* c, const void* s, int32_t* out) noexcept nogil:
    cdef GAction buf[MAXLEGAL]
    cdef int i, n
    if g_over(<const GState*>s):
        return 0
    n = legal_actions(<const GCfg*>c, <GState*>s, buf)
    for i in range(n):
        out[i] = buf[i]
    return n


cdef void _op_apply(const void* c, void* s, int action) noexcept nogil:
    apply_action(<const GCfg*>c, <GState*>s, action)
    (<GState*>s).decisions += 1
    settle(<const GCfg*>c, <GState*>s)


cdef void _op_determinize(const void* c, void* s, int seat, uint64_t seed) noexcept nogil:
    g_determinize(<const GCfg*>c, <GState*>s, seat, seed)


cdef void _op_returns(const void* c, const void* s, double* out) noexcept nogil:
    g_returns(<const GCfg*>c, <const GState*>s, out)


cdef void _op_points(const void* c, const void* s, double* out) noexcept nogil:
    g_points(<const GCfg*>c, <const GState*>s, out)


cdef int _op_load_policies(void* block, object policies, int players) except -1:
    make_policies(<GPolicies*>block, policies, players)
    return 0


cdef void _op_policy_new_game(void* block) noexcept nogil:
    g_policy_new_game(<GPolicies*>block)


cdef int _op_policy_action(const void* c, const void* s, void* block, uint64_t* prng,
                           const int32_t* legal, int n) noexcept nogil:
    cdef GAction buf[MAXLEGAL]
    cdef int i
    for i in range(n):
        buf[i] = <GAction>legal[i]
    return g_policy_action(<const GCfg*>c, <const GState*>s, <GPolicies*>block, prng, buf, n)


cdef GameOps _OPS
_OPS.name = G_NAME
_OPS.state_size = sizeof(GState)
_OPS.policy_size = sizeof(GPolicies)
_OPS.max_legal = MAXLEGAL
_OPS.max_players = G_MAXP
_OPS.n_players = _op_n_players
_OPS.current_player = _op_current
_OPS.is_over = _op_over
_OPS.legal_actions = _op_legal
_OPS.apply_action = _op_apply
_OPS.determinize = _op_determinize
_OPS.returns = _op_returns
_OPS.load_policies = _op_load_policies
_OPS.policy_new_game = _op_policy_new_game
_OPS.policy_action = _op_policy_action
_OPS.points = _op_points


cdef object load_deciders(Decider** ext, policies, int players):
    """The seats' external deciders (the search agents) of a kernel's ``policies`` argument.

    Fills ``ext`` (one pointer per seat, NULL for a built-in policy) and
    returns ``(plain, keep)``: ``plain`` for the built-in policies' loader (a
    searching seat's entry is None there), ``keep`` the objects that own the
    deciders (None when no seat searches; hold it while the games run).
    """
    plain, keep = _external_deciders(game_ops(), policies, players)
    for p in range(players):
        ext[p] = NULL if keep is None or keep[p] is None else \
            <Decider*>_sa_capsule_pointer(keep[p].capsule(), DECIDER_CAPSULE)
    return plain, keep


def game_ops():
    """This engine's :c:type:`GameOps` (``simcore/_game_ops.pxd``) as a PyCapsule."""
    return PyCapsule_New(<void*>&_OPS, GAME_OPS_CAPSULE, NULL)
