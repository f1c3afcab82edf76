# The lead over a game: per-round score snapshots and what they say about the winner.
#
# Every kernel takes a snapshot of each seat's total at the end of each round
# ("the score if the game ended now": the game's own score() on the position,
# docs/results.md says what a round is per game) and one of the final score;
# at the end it reduces them to three per-game columns of the games table:
#
#   lead_changes  snapshots at which a seat became the sole leader while another
#                 seat was the last sole leader (a tied top changes nothing)
#   led_from      the 1-based snapshot from which a winner held the top (ties
#                 included) at every snapshot to the end; 1 = led throughout
#   max_deficit   the most points the winners' best total trailed the best
#                 other total by at any snapshot; 0 = never behind (drama)
#
# Only these are kept (a row per game and round would make a 10^7-game run's
# games table 3-120 times longer); simcore.lead.score_snapshots replays one
# game through the step API and gives the snapshots themselves.
from simcore._types cimport int16_t, uint32_t

cdef enum:
    MAXSNAP = 128           # snapshots kept; later ones overwrite the last slot
    SNAP_SEATS = 4

ctypedef struct Snaps:
    int n
    int16_t tot[MAXSNAP][SNAP_SEATS]


cdef inline void snap_take(Snaps* sn, const int16_t* total, int players) noexcept nogil:
    """Record the seats' totals ``total[0..players-1]`` as the next snapshot."""
    cdef int p, i = sn.n if sn.n < MAXSNAP else MAXSNAP - 1
    for p in range(players):
        sn.tot[i][p] = total[p]
    if sn.n < MAXSNAP:
        sn.n += 1


cdef inline void lead_stats(const Snaps* sn, int players, uint32_t winners,
                            int16_t* lead_changes, int16_t* led_from, int16_t* max_deficit) noexcept nogil:
    """The three lead columns of one game from its snapshots and its winners (bit s = seat s)."""
    cdef int t, p, v, best_w, best_o, top, leader, n_top, prev = -1, changes = 0, behind = -1, deficit = 0
    for t in range(sn.n):
        best_w = -32768
        best_o = -32768
        top = -32768
        leader = -1
        n_top = 0
        for p in range(players):
            v = sn.tot[t][p]
            if (winners >> p) & 1:
                if v > best_w:
                    best_w = v
            elif v > best_o:
                best_o = v
            if v > top:
                top = v
                leader = p
                n_top = 1
            elif v == top:
                n_top += 1
        if n_top == 1:
            if prev >= 0 and leader != prev:
                changes += 1
            prev = leader
        if best_o > best_w:
            behind = t
            if best_o - best_w > deficit:
                deficit = best_o - best_w
    lead_changes[0] = <int16_t>changes
    led_from[0] = <int16_t>(behind + 2)
    max_deficit[0] = <int16_t>deficit
