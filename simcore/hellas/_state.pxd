# The Hellas position and configuration as plain C structs (see docs/hellas_engine.md).
from simcore._types cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t, u128

cdef enum:
    MAXF = 128          # board fields
    MAXT = 8            # temples
    MAXS = 16           # action spaces
    MAXCOL = 6          # columns from one temple space
    MAXSPLIT = 210      # splits of MAXCOL columns over 5 temples
    MAXTILES = 64
    MAXP = 4
    MAXQLOG = 16        # quarry actions in one game (3 spaces x 3 rounds, room for variants)
    MAXQF = 32          # quarry fields
    MAXLEGAL = 256
    MAXREV = 8          # tiles logged per quarry action (more only when set-aside tiles do not count)
    MAXNB = 8           # neighbours of one field
    NOFIELD = 127       # no field: pads the neighbour lists (boards have at most 127 fields)

# action numbers
cdef enum:
    A_PASS = 16
    A_FIELD = 17
    A_SPLIT = 145

# phases
cdef enum:
    PH_CHOOSE = 0
    PH_BUILD_HOUSE = 1
    PH_BUILD_AGORA = 2
    PH_BUILD_PALACE = 3
    PH_MONUMENT = 4
    PH_TEMPLE = 5
    PH_QUARRY_PLACE = 6
    PH_WORKER_MOVE = 7
    PH_OVER = 8

# action-space kinds
cdef enum:
    SK_HOUSE = 0
    SK_HOUSE_OR_AGORA = 1
    SK_PALACE = 2
    SK_QUARRY = 3
    SK_TEMPLE = 4
    SK_MONUMENT = 5
    SK_THREE_MARBLE = 6

# quarry field status
cdef enum:
    Q_EMPTY = 0
    Q_ACTIVE = 1
    Q_CLOSED = 2

# score categories
cdef enum:
    SC_CITY = 0
    SC_MONUMENTS = 1
    SC_TEMPLES = 2
    SC_RINGS = 3
    SC_MARBLE = 4
    SC_TOTAL = 5
    N_SC = 6

ctypedef struct HCfg:
    int n_players
    int n_fields
    u128 nbr[MAXF]
    uint8_t nbl[MAXF][MAXNB]     # the neighbours as a list, ascending, padded with NOFIELD
    int max_nb                   # most neighbours of a field (loops over nbl[f][0..max_nb-1])
    int nbr_symmetric            # f next to g exactly when g next to f (the policy's field masks need it)
    u128 building
    u128 coast
    u128 inland_building
    int n_temples
    int temple_field[MAXT]
    int temple_size[MAXT]
    int n_quarry_fields
    int quarry_field[MAXQF]       # ascending ids
    int n_coast_quarry
    int coast_quarry[MAXQF]       # ascending ids
    int n_spaces
    uint8_t space_kind[MAXS]
    int space_cost[MAXS]
    int space_columns[MAXS]
    int space_marble[MAXS]
    int cost_house[2]             # [coast, inland]
    int cost_agora[2]
    int cost_palace[2]
    int cost_monument
    int cubes[3]
    int start_marble
    int seat_bonus[MAXP]          # added to each seat's start_marble (issue 20)
    int seat_points[MAXP]         # added to each seat's final total
    int max_house
    int max_agora
    int max_palace
    int supply_columns
    int supply_rings
    int supply_monuments
    int n_tiles
    uint8_t tiles[MAXTILES]       # numbers in file order
    uint8_t yield_of[256]
    int start_player              # -1: random (H-D4)
    int no_temple_next_seat       # H-D5
    int ring_bonus_all_tied       # H-D6
    int set_aside_counts          # H-D7
    int double_yield_once         # H-D12
    int closed_reopens            # H-D13
    int no_agora_chains           # H-D11
    int n_splits[MAXCOL + 1]
    uint8_t splits[MAXCOL + 1][MAXSPLIT][MAXT]
    uint64_t split_packed[MAXCOL + 1][MAXSPLIT]   # one byte per temple, for the fit test
    uint8_t split_nz[MAXCOL + 1][MAXSPLIT]        # temples a split puts columns on: how many ...
    uint8_t split_nzt[MAXCOL + 1][MAXSPLIT][MAXT] # ... and which, ascending
    uint64_t temple_high_bits                     # 0x80 in each temple's byte

ctypedef struct QLog:
    int8_t round
    int8_t seat
    int16_t income[MAXP]
    uint8_t n_revealed
    uint8_t tiles[MAXREV]         # revealed tiles, in order
    int8_t dest[MAXREV]           # field the tile went on, -2 set aside, -3 opened a new quarry
    int8_t opened
    int8_t closed
    int8_t worker_to              # -1 none, -2 left the board

ctypedef struct HState:
    u128 own[MAXP]
    u128 houses[MAXP]
    u128 agoras[MAXP]
    u128 palaces[MAXP]
    u128 monuments
    u128 occupied
    uint64_t rng[4]
    int8_t n_players
    int8_t round
    int8_t phase
    int8_t current
    int8_t start_player
    int8_t first_player           # start player of round 1
    int8_t turn_seat
    int8_t active
    int8_t space
    int8_t temple_marker
    int8_t build_turn
    int8_t worker
    uint8_t revealed              # tiles counted towards the four
    uint8_t tile                  # tile waiting for quarry_place
    uint8_t stack_pos
    uint8_t n_stack
    uint8_t n_set_aside
    uint16_t spaces_used
    int16_t decisions
    int16_t supply_columns
    int16_t supply_rings
    int16_t supply_monuments
    uint8_t cubes_left[MAXP]
    int16_t marble[MAXP]
    uint8_t rings[MAXP]
    uint8_t n_houses[MAXP]
    uint8_t n_agoras[MAXP]
    uint8_t n_palaces[MAXP]
    uint8_t monuments_built[MAXP]
    uint8_t columns_placed[MAXP]
    int16_t income[MAXP]          # marble gained from quarries
    uint8_t temple_cols[MAXT]
    uint8_t quarry_status[MAXF]
    uint8_t quarry_top[MAXF]
    uint8_t stack[MAXTILES]
    uint8_t set_aside[MAXTILES]
    uint8_t n_qlog
    QLog qlog[MAXQLOG]
