# The batch kernel's shell, written once for every engine.
#
# Included by simcore/<game>/_engine.pyx, with simcore/_step_api.pxi, after its CConfig and
# the hooks listed in docs/adding_a_game.md ("A compiled engine's hooks"). Here:
#
#   compiled(cfg)           the compiled-config cache (one CConfig per config object)
#   _resolve_config(...)    a kernel's players / config / settings arguments, checked
#   advance(c, s, buf, cut) the forced-step loop: one legal action is applied, not decided
#   make_policies(...)      the seats' built-in policies from a kernel's policies argument
#   load_seats(...)         ... and the seats that search (external deciders)
#   play_actions(...)       the decisions play_batch takes in one game
#
# The stream salts are simcore/_rng.pxd's (CHANCE_SALT, POLICY_SALT, DETERMINIZE_SALT).
from libc.stdlib cimport malloc as _sh_malloc, free as _sh_free
from simcore._game_ops cimport Decider

cdef enum:
    MAX_RECORD = 65536          # decisions play_actions records (far more than any game takes)


_compiled = {}


cdef CConfig compiled(cfg):
    """The C struct of ``cfg`` (a config is immutable: compiled once per config object)."""
    cc = _compiled.get(cfg)
    if cc is None or cc.py is not cfg:
        cc = CConfig(cfg)
        _compiled[cfg] = cc
    return cc


def _resolve_config(players, config, settings):
    """The config a kernel plays: ``config`` or ``make_config(players, **settings)``, not both."""
    if config is None:
        return make_config(**settings) if players is None else make_config(players, **settings)
    if settings:
        raise ValueError("give either a config or settings, not both")
    if players is not None and int(players) != config.players:
        raise ValueError(f"config is for {config.players} players, not {players}")
    return config


cdef int advance(const GCfg* c, GState* s, GAction* buf, const bint* cut) noexcept nogil:
    """Apply the forced steps (a decision with one legal action) up to the next real decision;
    return its number of legal actions, listed in ``buf`` (0 when the game is over). ``cut``:
    NULL, or one flag per seat asking for the game's shortened list (``g_legal_play``)."""
    cdef int n
    while not g_over(s):
        n = g_legal_play(c, s, buf, cut)
        if n != 1:
            return n
        apply_action(c, s, buf[0])
    return 0


cdef void make_policies(GPolicies* block, policies, int players) except *:
    """The seats' built-in policies into ``block``: ``policies`` lists one entry per seat (the
    game's policy vector, or None for uniformly random play); None: every seat random."""
    if policies is None:
        policies = [None] * players
    if len(policies) != players:
        raise ValueError(f"policies must give one entry per seat ({players}), not {len(policies)}")
    g_policies_reset(block)
    for p in range(players):
        g_load_policy(block, p, policies[p])


cdef object load_seats(GPolicies* block, Decider** ext, policies, int players):
    """A kernel's ``policies`` argument: the built-in policies into ``block``, a searching seat's
    decider into ``ext`` (NULL for the others). Returns the objects that own the deciders (None
    when no seat searches: then pass NULL for ``ext``); hold them while the games run."""
    plain, keep = load_deciders(ext, policies, players)
    make_policies(block, plain, players)
    return keep


def play_actions(players, seed, policies=None, config=None, **settings):
    """The decisions the built-in policies take in the game of ``seed`` (same as ``play_batch``)."""
    cfg = _resolve_config(players, config, settings)
    cdef CConfig cc = compiled(cfg)
    cdef Decider* ext[G_MAXP]
    cdef GPolicies* block = <GPolicies*>_sh_malloc(sizeof(GPolicies))
    cdef GState* st = <GState*>_sh_malloc(sizeof(GState))
    cdef GAction* rec = <GAction*>_sh_malloc(MAX_RECORD * sizeof(GAction))
    cdef int n, i
    try:
        if block == NULL or st == NULL or rec == NULL:
            raise MemoryError()
        keep = load_seats(block, ext, policies, cfg.players)
        n = play_game(&cc.c, st, <uint64_t>int(seed), block, rec, MAX_RECORD,
                      ext if keep is not None else NULL)
        return [int(rec[i]) for i in range(min(n, MAX_RECORD))]
    finally:
        _sh_free(block)
        _sh_free(st)
        _sh_free(rec)
