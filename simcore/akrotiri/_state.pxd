# The Akrotiri position and configuration as plain C structs (see docs/akrotiri_engine.md).
from simcore._types cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    NCELL = 256         # 16 x 16 cells
    NQ = 1024           # 32 x 32 quarters
    NTILE = 36
    NCARD = 36
    NGOAL = 12
    NPORT = 146         # 4 per tile, T0 = 144, T1 = 145
    NNODE = 947         # H 0..271, V 272..543, hubs 544..799, ports 800..945, R 946
    MAXDEG = 12
    MAXLEGAL = 1600
    MAXEV = 384
    MAXLINK = 8

cdef enum:
    PORT_T0 = 144
    PORT_T1 = 145
    NODE_PORT = 800
    NODE_R = 946
    CELL_EMPTY = 255
    CELL_START = 254
    NO_TILE = 255

# action numbers
cdef enum:
    A_END = 0
    A_PLACE = 1
    A_CUBE = 1025
    A_GOAL = 1041
    A_SAIL = 1045
    A_TRANSPORT = 1191
    A_LOAD = 1337
    A_EXCAVATE = 1371
    A_BUY = 1515
    A_ORACLE = 1534
    A_SELL = 1538
    A_UNLOAD = 1542
    N_ACTIONS = 1546

# phases
cdef enum:
    PH_PLACE = 0
    PH_CUBE = 1
    PH_GOAL = 2
    PH_ACTION = 3
    PH_OVER = 4

# stages
cdef enum:
    ST_SETUP = 0
    ST_PLAY = 1

# event kinds
cdef enum:
    EV_BOUGHT = 0
    EV_EXCAVATED = 1
    EV_GOAL_KEPT = 2
    EV_GOAL_SCORED = 3
    EV_SOLD = 4

# score categories
cdef enum:
    SC_MAPS = 0
    SC_GOALS = 1
    SC_MONEY = 2
    SC_TOTAL = 3
    N_SC = 4

ctypedef struct ACfg:
    uint8_t land[NTILE][4]            # per rotation: bit q = local quarter q is land
    int8_t lm_q[NTILE][4]             # landmark local quarter per rotation
    uint8_t lm_type[NTILE]
    uint8_t n_ports[NTILE]
    int8_t port_q[NTILE][4][4]        # [tile][rot][k]
    uint8_t n_links[NTILE]
    uint8_t link_a[NTILE][4][MAXLINK] # local nodes: 0..3 sides N E S W, 4 hub, 5 + k port k
    uint8_t link_b[NTILE][4][MAXLINK]
    uint8_t card_deck[NCARD]
    uint8_t card_cost[NCARD]
    uint8_t card_points[NCARD]
    uint8_t n_req[NCARD]
    uint8_t req_dir[NCARD][4]
    uint8_t req_type[NCARD][4]
    uint8_t req_n[NCARD][4]
    uint8_t n_deck[3]
    uint8_t deck_cards[3][NCARD]
    int16_t goal_points[NGOAL]
    uint8_t load_n[34]
    uint8_t load_c[34][4]             # per colour
    uint8_t buy_n[19]
    uint8_t buy_d[19][3]              # per deck
    # legal-action tables (derived from the codes above): bit k = code k is legal
    uint64_t load_ok[4][256]          # [room][cubes on the island per colour, each capped at 3, 2 bits each]
    uint32_t buy_deck_ok[64]          # [cards left per deck, each capped at 3, 2 bits each]
    uint32_t buy_money_ok[8]          # [drachmas, capped at 7]
    uint8_t action_track[6]
    int rotation
    int same_island_sail
    int strategist
    int en1
    int turn_cap
    int start_drachmas
    int seat_bonus[2]             # added to each seat's start_drachmas (issue 20)
    int seat_points[2]            # added to each seat's final total

ctypedef struct Event:
    int8_t kind
    int8_t seat
    int16_t turn
    int8_t deck
    int8_t card
    int8_t cost
    int8_t points
    int8_t colour
    int8_t price
    int8_t quantity
    int8_t goal

ctypedef struct AState:
    uint64_t rng[4]
    uint8_t cell_rot[NCELL]
    uint8_t n_placed
    uint8_t placed[NTILE]             # cells in placement order
    uint8_t land[NQ]
    uint8_t cubes[NQ][4]
    uint8_t n_lm
    uint8_t lm_r[NTILE]               # quarter row index 0..31
    uint8_t lm_c[NTILE]
    uint8_t lm_t[NTILE]
    # not zeroed at set-up (from nbr up to deg): set-up fills them, or only entries written since are read
    uint16_t nbr[NNODE][MAXDEG]       # only nbr[n][:deg[n]]
    uint16_t isl_id[NQ]               # island id (smallest quarter index) of each land quarter (only those are read)
    uint8_t cell[NCELL]               # tile id, CELL_EMPTY or CELL_START
    int8_t lmark[NQ]                  # landmark type or -1
    uint16_t uf_parent[NNODE]         # union-find over route nodes: route components only ever merge
    uint16_t uf_size[NNODE]
    uint8_t root_comp[NNODE]          # component number of a union-find root holding ports, 255 none
    uint64_t comp_ports[NPORT][3]     # ports of each live component (bit = port id)
    uint8_t blk_label[NPORT]          # pieces of the blocking port's component without it (0: not in it)
    int16_t port_q[NPORT]             # quarter index, -1 when the port is not on the table
    uint8_t q_ports[NQ]               # per quarter of a placed tile: bit k = its tile's port k is there
    uint8_t deg[NNODE]
    # derived structures, kept up to date by add_link and place_tile (never part of to_dict)
    uint8_t isl_memb[NQ]              # per land quarter: the ring slots of its island (ISL_MEMB)
    uint16_t port_root[NPORT]         # union-find root of each port on the table
    uint8_t n_comp                    # component numbers handed out (one per port put on the table)
    uint8_t port_comp[NPORT]          # component number of each port on the table
    uint8_t temple_at[NQ]             # 1 on a quarter holding a temple (either seat)
    uint32_t version                  # bumped by every applied action but movements (policy caches)
    int16_t blk_x                     # cache of piece_labels(): the blocking port, -1 none
    uint8_t blk_placed                # ... and n_placed when it was made
    uint8_t n_on                      # ports on the table, in the order they came
    uint8_t ports_on[NPORT]
    uint64_t front[4]                 # empty cells in the window next to an occupied cell (bit = cell)
    uint8_t lm_n[4]                   # per landmark type: count, rows and columns in ascending order
    uint8_t lm_rows[4][NTILE]
    uint8_t lm_cols[4][NTILE]
    uint8_t out[4]                    # cubes of each colour off the market
    uint8_t pile[NTILE]
    uint8_t pile_pos
    uint8_t pile_n
    uint8_t disc[NTILE]
    uint8_t disc_n
    uint8_t deck[3][NCARD]
    uint8_t deck_pos[3]
    uint8_t deck_n[3]
    uint8_t goal_deck[64]
    uint8_t goal_head
    uint8_t goal_tail
    uint8_t display[4]
    uint8_t n_display
    uint8_t options[4]
    uint8_t n_options
    uint8_t deal[2][2]
    int16_t port[2]
    uint8_t cargo[2][4]
    int16_t drachmas[2]
    uint8_t n_temples[2]
    int16_t temple_q[2][6]
    uint64_t hand[2]
    uint64_t excavated[2]
    uint16_t goals[2]
    uint8_t tile[2]
    int16_t turns[2]
    int8_t phase
    int8_t stage
    int8_t current
    int8_t actions
    int8_t bonus
    int8_t oracle_used
    int8_t end_trigger                # 0 none, 1 temples, 2 turn_cap
    int16_t placed_cell               # cell getting its second cube, -1 none
    int16_t decisions
    int16_t sold[2]                   # cubes sold
    int16_t income[2]                 # drachmas from sales
    int16_t n_ev
    int16_t ev_dropped
    Event ev[MAXEV]
