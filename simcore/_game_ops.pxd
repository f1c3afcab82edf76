# The C-level game contract: what a generic algorithm (flat Monte Carlo, ISMCTS) needs
# from a game, as C function pointers. docs/game_ops.md says what each hook must do.
#
# A state is a plain C struct of ``state_size`` bytes: a clone is a memcpy. ``cfg`` is the
# game's compiled configuration (read only). A policy block is ``policy_size`` bytes that
# ``load_policies`` fills (the seats' built-in policies and their memos); it is not copied
# by value (it may point into itself).
from simcore._types cimport int32_t, uint64_t

ctypedef struct GameOps:
    const char* name
    size_t state_size
    size_t policy_size
    int max_legal                   # room a legal_actions buffer needs
    int max_players
    int (*n_players)(const void* cfg, const void* s) noexcept nogil
    int (*current_player)(const void* cfg, const void* s) noexcept nogil     # -1 when over
    bint (*is_over)(const void* cfg, const void* s) noexcept nogil
    # the legal actions of the current decision (none when over), sorted
    int (*legal_actions)(const void* cfg, const void* s, int32_t* out) noexcept nogil
    # apply a legal decision, count it, then every forced step after it
    void (*apply_action)(const void* cfg, void* s, int action) noexcept nogil
    # resample what ``seat`` cannot see (and the chance stream), from ``seed`` only
    void (*determinize)(const void* cfg, void* s, int seat, uint64_t seed) noexcept nogil
    # at the end: the win share of every seat (sums to 1: ties as the game's tie rule gives)
    void (*returns)(const void* cfg, const void* s, double* out) noexcept nogil
    # the seats' built-in policies (a list, one entry per seat: a policy vector or None = random)
    int (*load_policies)(void* block, object policies, int players) except -1
    # forget what the policies remember of a game (called before each playout)
    void (*policy_new_game)(void* block) noexcept nogil
    # the current seat's built-in policy chooses among ``legal`` (n >= 1), noise from prng
    int (*policy_action)(const void* cfg, const void* s, void* block, uint64_t* prng,
                         const int32_t* legal, int n) noexcept nogil
    # every seat's points as the position stands (the final totals when over): a search's
    # reward may blend in each seat's share of the points (docs/game_ops.md)
    void (*points)(const void* cfg, const void* s, double* out) noexcept nogil

# the PyCapsule name of a GameOps pointer (each engine's game_ops())
cdef extern from *:
    """
    #define BOARDLAB_GAME_OPS_CAPSULE "simcore.GameOps"
    """
    const char* GAME_OPS_CAPSULE "BOARDLAB_GAME_OPS_CAPSULE"


# An external decider: a seat whose decisions a kernel's game loop asks of a C function
# instead of its built-in policy (the search agents: simcore/_mcts.pyx). ``decide`` gets
# the engine's compiled config and position (a decision of the seat, not over) and a seed
# for that decision, and returns one of the position's legal actions.
ctypedef struct Decider:
    int (*decide)(void* ctx, const void* cfg, const void* s, uint64_t seed) noexcept nogil
    void* ctx

cdef extern from *:
    """
    #define BOARDLAB_DECIDER_CAPSULE "simcore.Decider"
    """
    const char* DECIDER_CAPSULE "BOARDLAB_DECIDER_CAPSULE"


cdef inline uint64_t decision_seed(uint64_t game_seed, int decisions) noexcept nogil:
    # the seed of a game's decision number ``decisions`` (splitmix64 of the pair)
    cdef uint64_t z = game_seed ^ (<uint64_t>(decisions + 1) * <uint64_t>0xD1B54A32D192ED03ULL)
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)
