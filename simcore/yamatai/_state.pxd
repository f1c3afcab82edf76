# The Yamatai position and configuration as plain C structs (see docs/yamatai_engine.md).
from simcore._types cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t, u128

cdef enum:
    MAXSEA = 128
    MAXISL = 64
    MAXTILES = 32
    NSPEC = 18
    MAXP = 4
    MAXPAWN = 4
    NCOL = 5
    NTYPE = 6
    NFLEET = 10
    MAXLEGAL = 4096
    MAXFLOG = 512       # fleet picks: rounds x pawns (round_cap <= 120)
    MAXBLOG = 64        # builds (one per island at most)
    MAXRLOG = 18        # recruits

# action numbers
cdef enum:
    A_PASS = 0
    A_TAKE = 11
    A_BUY = 16
    A_SELL = 21
    A_KEEP = 26
    A_RESERVE = 31
    A_ARRANGE = 36
    A_RAIJIN = 60
    A_NAKATSU = 85
    A_MICHIMATA = 110
    A_HETSUKA = 116
    A_RECRUIT = 128
    A_COLLECT = 320
    A_EBISU = 384
    A_SACRED = 448
    A_KACHIKO = 512
    A_REMOVE = 576
    A_PLACE = 704
    A_BUILD = 1344
    A_SWAPTOK = 3392
    A_SLIDE = 7488
    A_SWAPBOATS = 23872
    A_END = 40256

# stages
cdef enum:
    ST_FLEET = 0
    ST_FLEET10 = 1
    ST_PRE = 2
    ST_PLACE = 3
    ST_POST = 4
    ST_COLLECT = 5
    ST_AFTER = 6
    ST_REMOVE = 7
    ST_PORT = 8
    ST_RECRUIT = 9
    ST_OVER = 10

# specialists (ids = the spec's ability order)
cdef enum:
    SP_AMATERASU = 0
    SP_IZANAGI = 1
    SP_RAIJIN = 2
    SP_ANANDA = 3
    SP_IZANAMI = 4
    SP_RIU = 5
    SP_AWASHIMA = 6
    SP_KACHIKO = 7
    SP_SUSANOO = 8
    SP_EBISU = 9
    SP_KAGUTSUCHI = 10
    SP_TOMOE = 11
    SP_FUHSI = 12
    SP_MICHIMATA = 13
    SP_TOYOTAMA = 14
    SP_HETSUKA = 15
    SP_NAKATSU = 16
    SP_YASOMA = 17

# once-per-turn bits
cdef enum:
    U_FLEET = 1
    U_RAIJIN = 2
    U_NAKATSU = 4
    U_MICHIMATA = 8
    U_HETSUKA = 16
    U_KACHIKO = 32
    U_EBISU = 64

# triggers
cdef enum:
    T_LAST_BUILDING = 1
    T_BOATS = 2
    T_SPECIALISTS = 4
    T_BUILDINGS = 8
    T_ROUND_CAP = 16

# island buildings
cdef enum:
    B_NONE = -1
    B_TORII = 4
    B_PALACE = 5

# score categories
cdef enum:
    SC_COINS = 0
    SC_PP = 1
    SC_BUILDINGS = 2
    SC_SPECIALISTS = 3
    SC_RESERVED = 4
    SC_SET_ASIDE = 5
    SC_TOTAL = 6
    N_SC = 7

ctypedef struct YCfg:
    int n_players
    int n_pawns
    int n_islands
    int n_sea
    u128 sea_nbr[MAXSEA]
    u128 island_sea[MAXISL]
    uint64_t island_nbr[MAXISL]
    uint64_t sea_island[MAXSEA]
    u128 all_sea                     # the board's sea spaces
    uint64_t all_isl                 # the board's islands
    u128 entries
    u128 edges
    int n_tiles
    int tile_kind[MAXTILES]          # 0 standard, 1 torii, 2 palace
    int tile_boats[MAXTILES][NCOL]
    int tile_pp[MAXTILES]
    int tile_tp[MAXTILES]            # trading post
    uint64_t tile_need[MAXTILES]     # tile_boats packed, one byte per colour (for the policy)
    double tile_fit[MAXTILES][21]    # tile_pp / (1 + m) for m boats missing (for the policy)
    int spec_pp[NSPEC]
    int buy[NCOL]
    int sell[NCOL]
    int sell_susanoo[NCOL]
    int port_cap
    int riu_bonus
    int trans
    int izanagi_trans
    int start_coins
    int seat_bonus[MAXP]          # added to each seat's start_coins (issue 20)
    int seat_points[MAXP]         # added to each seat's final total
    int pieces
    int sacred
    int supply[NCOL]
    int coins_per_pp
    int fuhsi_per_pp
    int round_cap
    int fleet_boats[NFLEET + 1][NCOL]
    int n_bag                        # culture tokens in the bag (= islands), unshuffled order
    int8_t bag_type[MAXISL]          # type of each token, -1 blank
    int8_t bag_mnt[MAXISL]           # 1 if its border calls a mountain tile
    int n_arr[4]
    int8_t arr[4][24][4]             # arrangements of k peeked tiles (symbol k = divider)

ctypedef struct FLog:
    int8_t round
    int8_t seat
    int8_t fleet
    int8_t gained
    int8_t used
    int8_t extra

ctypedef struct BLog:
    int8_t round
    int8_t seat
    int8_t tile
    int8_t island
    int16_t coins
    int16_t pp

ctypedef struct RLog:
    int8_t round
    int8_t seat
    int8_t spec
    int16_t coins

ctypedef struct YState:
    u128 boat[NCOL]
    u128 occ
    u128 marked
    uint64_t sacred
    uint64_t mountain
    uint64_t collected
    uint64_t rng[4]
    int8_t token[MAXISL]
    int8_t building[MAXISL]
    int16_t supply[NCOL]
    int8_t sacred_supply
    int8_t row[5]
    int8_t deck[MAXTILES]
    int8_t n_deck
    int8_t slots[5]
    int16_t slot_coins[5]
    int8_t spec_deck[NSPEC]
    int8_t n_spec_deck
    int8_t spec_owner[NSPEC]
    int8_t track[NFLEET]
    int8_t n_track
    int8_t face_up
    int8_t n_players
    int8_t n_pawns
    int8_t order[MAXPAWN]
    int8_t last_order[MAXPAWN]
    int8_t pawn_owner[MAXPAWN]
    int8_t fleet_taken[MAXPAWN]
    int8_t turn
    int8_t current
    int16_t coins[MAXP]
    int16_t pp[MAXP]
    int16_t set_aside[MAXP]
    int8_t pieces[MAXP]
    int8_t port[MAXP][NCOL]
    int8_t tokens[MAXP][NTYPE]
    uint32_t built[MAXP]
    uint32_t reserved[MAXP]
    int16_t hand[NCOL]
    int8_t stage
    int8_t fleet
    int8_t transactions
    int8_t used
    int16_t last
    int8_t kept
    int8_t return_stage
    uint32_t reserved_now
    int8_t triggers
    int16_t round
    int32_t decisions
    int8_t ev_fleet[4]               # fleet, boats gained, ability used, fleet 10 extra
    int16_t n_flog
    int16_t n_blog
    int16_t n_rlog
    FLog flog[MAXFLOG]
    BLog blog[MAXBLOG]
    RLog rlog[MAXRLOG]
