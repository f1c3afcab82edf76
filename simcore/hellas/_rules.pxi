# Hellas rules as C functions over HState (included into _engine.pyx).

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
#
# Every rule lives here once; the step API (State) and the batch kernel
# (play_batch) call these same functions. Interpretations of the spec:
#   H-D1  action display from actions.json (`action_display`, wide adds 2 spaces)
#   H-D2  quarry tile numbers/yields from the tile file (`quarry_yields`)
#   H-D3  board from the board file; coast = fewer than 6 neighbours
#   H-D4  set-up choices drawn from the game's chance stream (setup())
#   H-D5  start player unchanged when nobody took a temple space (end_round())
#   H-D6  no ring bonus when nobody has a ring (score())
#   H-D7  worker leaves the board on the last empty quarry field; later low
#         tiles are set aside and count as one of the four (reveal_tiles())
#   H-D8  marble unlimited; rings, columns, monuments limited to the box
#   H-D9  marble public (nothing hidden but the tile stack)
#   H-D11 cities are groups linked through any own piece (`city_links`)
#   H-D12 a house next to two active quarries yields for each (quarry_income())
#   H-D13 a closed quarry field stays occupied (worker_targets())

cdef inline int land_kind(const HCfg* c, int f) noexcept nogil:
    # 0 coast, 1 inland (index into the cost tables)
    return 0 if has128(c.coast, f) else 1


cdef inline int build_cost(const HCfg* c, int phase, int f) noexcept nogil:
    cdef int k = land_kind(c, f)
    if phase == PH_BUILD_HOUSE:
        return c.cost_house[k]
    if phase == PH_BUILD_AGORA:
        return c.cost_agora[k]
    return c.cost_palace[k]


cdef inline u128 affordable(const HCfg* c, const HState* s, const int* cost, u128 fields) noexcept nogil:
    # fields of `fields` whose coast/inland cost the current player can pay
    cdef int m = s.marble[s.current]
    cdef u128 out = 0
    if m >= cost[0]:
        out |= fields & c.coast
    if m >= cost[1]:
        out |= fields & ~c.coast
    return out


cdef inline int emit_fields(u128 fields, int16_t* out, int n) noexcept nogil:
    # one FIELD action per set bit, ascending; the two 64-bit halves separately (cheaper)
    cdef uint64_t w = <uint64_t>fields
    while w:
        out[n] = A_FIELD + __builtin_ctzll(w)
        w &= w - 1
        n += 1
    w = <uint64_t>(fields >> 64)
    while w:
        out[n] = A_FIELD + 64 + __builtin_ctzll(w)
        w &= w - 1
        n += 1
    return n


cdef extern from *:
    """
    /* the set bits of a 4-bit mask as up to four int16 indices (0..3), in
       ascending order, one 16-bit lane each (little-endian: the first lane is
       the lowest); and the number of set bits */
    static const uint64_t hx_nib_idx[16] = {
        0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000001ULL, 0x0000000000010000ULL,
        0x0000000000000002ULL, 0x0000000000020000ULL, 0x0000000000020001ULL, 0x0000000200010000ULL,
        0x0000000000000003ULL, 0x0000000000030000ULL, 0x0000000000030001ULL, 0x0000000300010000ULL,
        0x0000000000030002ULL, 0x0000000300020000ULL, 0x0000000300020001ULL, 0x0003000200010000ULL};
    static const uint8_t hx_nib_pop[16] = {0,1,1,2,1,2,2,3,1,2,2,3,2,3,3,4};
    /* one action per set bit of unused (< 2^16), ascending: four spaces a step
       from the tables (a fixed trip count, no test per space); writes up to
       three entries past the end */
    static inline int hx_emit_spaces(uint32_t unused, int nsp, int16_t* out) {
        int n = 0, b;
        uint64_t v;
        for (b = 0; b < nsp; b += 4) {
            uint32_t m = (unused >> b) & 15;
            v = hx_nib_idx[m] + (uint64_t)b * 0x0001000100010001ULL;
            memcpy(out + n, &v, 8);
            n += hx_nib_pop[m];
        }
        return n;
    }
    """
    int emit_spaces "hx_emit_spaces" (uint32_t unused, int nsp, int16_t* out) nogil


cdef extern from *:
    """
    #if defined(__SSE2__) && !defined(BOARDLAB_SCALAR)
    #include <emmintrin.h>
    #endif
    /* the fields f < n (n <= 128) whose quarry is active (status 1) with a top below t
       (0 <= t <= 256; 256: every active quarry): 16 fields a step in a fixed count (five
       steps for boards of up to 80 fields, else eight; the arrays hold 128 bytes and the
       bytes past n are never active), SSE2 compares and byte masks instead of a test per
       quarry field (only quarry fields are ever active) */
    static inline unsigned __int128 hx_active_below(const uint8_t* st, const uint8_t* top, int n, int t) {
        uint64_t lo = 0, hi = 0, m;
    #if defined(__SSE2__) && !defined(BOARDLAB_SCALAR)
        const __m128i one = _mm_set1_epi8(1), flip = _mm_set1_epi8((char)0x80);
        const __m128i lim = _mm_set1_epi8((char)((t > 255 ? 255 : t) ^ 0x80));     /* top < t: signed, both moved by 128 */
    #define HX_Q(i) { \
            __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(st + (i))), one); \
            if (t < 256) \
                a = _mm_and_si128(a, _mm_cmplt_epi8(_mm_xor_si128(_mm_loadu_si128((const __m128i*)(top + (i))), flip), lim)); \
            m = (uint64_t)(unsigned)_mm_movemask_epi8(a); \
            if ((i) < 64) lo |= m << ((i) & 63); else hi |= m << ((i) & 63); }
        HX_Q(0) HX_Q(16) HX_Q(32) HX_Q(48) HX_Q(64)
        if (n > 80) { HX_Q(80) HX_Q(96) HX_Q(112) }
    #undef HX_Q
    #else
        int i;
        for (i = 0; i < n; i++) {
            m = (uint64_t)((st[i] == 1) & (top[i] < t)) << (i & 63);
            lo |= m & -(uint64_t)(i < 64);
            hi |= m & -(uint64_t)(i >= 64);
        }
    #endif
        return (unsigned __int128)lo | (unsigned __int128)hi << 64;
    }
    /* the splits k < nsp whose columns (sp[k], a byte per temple) fit the room (its bytes
       with the high bit set, hb: those bits; the test of split_fits_room), as actions
       base + k in ascending order: four a step (two SSE2 subtractions of two splits
       each, the lane indices from the tables above), the last few one by one; writes
       up to three entries past the end */
    static inline int hx_emit_splits(const uint64_t* sp, int nsp, uint64_t room, uint64_t hb,
                                     int16_t* out, int base) {
        int n = 0, b = 0;
        uint32_t m;
        uint64_t v;
    #if defined(__SSE2__) && !defined(BOARDLAB_SCALAR)
        const __m128i rv = _mm_set1_epi64x((long long)room), hv = _mm_set1_epi64x((long long)hb);
        __m128i e0, e1;
        for (; b + 4 <= nsp; b += 4) {
            /* a split fits where (room - split) & hb == hb: both 32-bit halves equal */
            e0 = _mm_cmpeq_epi32(_mm_and_si128(_mm_sub_epi64(rv, _mm_loadu_si128((const __m128i*)(sp + b))), hv), hv);
            e1 = _mm_cmpeq_epi32(_mm_and_si128(_mm_sub_epi64(rv, _mm_loadu_si128((const __m128i*)(sp + b + 2))), hv), hv);
            e0 = _mm_and_si128(e0, _mm_shuffle_epi32(e0, _MM_SHUFFLE(2, 3, 0, 1)));
            e1 = _mm_and_si128(e1, _mm_shuffle_epi32(e1, _MM_SHUFFLE(2, 3, 0, 1)));
            m = (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(e0)) | (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(e1)) << 2;
            v = hx_nib_idx[m] + (uint64_t)(base + b) * 0x0001000100010001ULL;
            memcpy(out + n, &v, 8);
            n += hx_nib_pop[m];
        }
    #endif
        for (; b < nsp; b++) {
            out[n] = (int16_t)(base + b);
            n += ((room - sp[b]) & hb) == hb;
        }
        return n;
    }
    """
    u128 active_below "hx_active_below" (const uint8_t* st, const uint8_t* top, int n, int t) nogil
    int emit_splits "hx_emit_splits" (const uint64_t* sp, int nsp, uint64_t room, uint64_t hb,
                                      int16_t* out, int base) nogil


cdef inline uint64_t free_packed(const HCfg* c, const HState* s) noexcept nogil:
    # each temple's free room in its own byte, with the byte's high bit set
    cdef uint64_t out = c.temple_high_bits
    cdef int t
    for t in range(c.n_temples):
        out |= (<uint64_t>(c.temple_size[t] - s.temple_cols[t])) << (8 * t)
    return out


cdef inline int split_fits_room(const HCfg* c, uint64_t room, int cols, int k) noexcept nogil:
    # SWAR: a byte whose split exceeds its room borrows and clears its high bit
    return ((room - c.split_packed[cols][k]) & c.temple_high_bits) == c.temple_high_bits


cdef inline int temple_free(const HCfg* c, const HState* s) noexcept nogil:
    cdef int t, free = 0
    for t in range(c.n_temples):
        free += c.temple_size[t] - s.temple_cols[t]
    return free


cdef inline int temple_possible(const HCfg* c, const HState* s) noexcept nogil:
    # the active seat can pay, the supply has the columns, and some split fits
    cdef int cols = c.space_columns[s.space]
    # with enough room in all temples together, some split always fits
    return (s.marble[s.active] >= c.space_cost[s.space] and s.supply_columns >= cols
            and temple_free(c, s) >= cols)


cdef inline u128 build_fields(const HCfg* c, const HState* s) noexcept nogil:
    # the fields of a build decision (phase PH_BUILD_*); its actions are PASS and these
    cdef int p = s.current, ph = s.phase
    cdef u128 empty_building = c.building & ~s.occupied
    if ph == PH_BUILD_HOUSE:
        if s.n_houses[p] < c.max_house:
            return affordable(c, s, c.cost_house, empty_building)
    elif ph == PH_BUILD_AGORA:
        if s.n_agoras[p] < c.max_agora:
            return affordable(c, s, c.cost_agora, empty_building)
    elif s.n_palaces[p] < c.max_palace:
        return affordable(c, s, c.cost_palace, empty_building)
    return 0


cdef int legal_actions(const HCfg* c, const HState* s, int16_t* out) noexcept nogil:
    """Write the sorted legal actions of the current decision into out; return their number."""
    cdef int n = 0, i, p = s.current, k, cols
    cdef u128 empty_building = c.building & ~s.occupied
    cdef int ph = s.phase
    # the lists are compacted without branches (write every candidate, advance
    # past the legal ones): the tests here are unpredictable
    if ph == PH_CHOOSE:
        n = emit_spaces(~(<uint32_t>s.spaces_used) & ((<uint32_t>1 << c.n_spaces) - 1), c.n_spaces, out)
    elif ph == PH_BUILD_HOUSE or ph == PH_BUILD_AGORA or ph == PH_BUILD_PALACE:
        out[0] = A_PASS
        n = emit_fields(build_fields(c, s), out, 1)
    elif ph == PH_MONUMENT:
        out[0] = A_PASS
        n = 1
        if s.supply_monuments > 0 and s.marble[p] >= c.cost_monument:
            n = emit_fields(c.inland_building & ~s.occupied, out, n)
    elif ph == PH_TEMPLE:
        out[0] = A_PASS
        n = 1
        cols = c.space_columns[s.space]
        if temple_possible(c, s):
            # the splits that fit (split_fits_room), four a step
            n += emit_splits(c.split_packed[cols], c.n_splits[cols], free_packed(c, s),
                             c.temple_high_bits, out + 1, A_SPLIT)
    elif ph == PH_QUARRY_PLACE:
        # the active quarries below the tile (quarry_field is ascending: the same order)
        n = emit_fields(active_below(s.quarry_status, s.quarry_top, c.n_fields, s.tile), out, 0)
    elif ph == PH_WORKER_MOVE:
        for i in range(c.n_quarry_fields):
            k = c.quarry_field[i]
            out[n] = A_FIELD + k
            n += worker_target(c, s, k)
    return n


cdef inline int worker_target(const HCfg* c, const HState* s, int f) noexcept nogil:
    # H-D13: a closed stack keeps its field unless closed_quarry = reopens
    return (s.quarry_status[f] == Q_EMPTY) | ((c.closed_reopens != 0) & (s.quarry_status[f] == Q_CLOSED))


# ---------------------------------------------------------------- round flow

cdef void begin_round(const HCfg* c, HState* s) noexcept nogil:
    cdef int p
    for p in range(s.n_players):
        s.cubes_left[p] = c.cubes[s.round]
    s.spaces_used = 0
    s.temple_marker = -1
    s.turn_seat = s.start_player
    s.current = s.start_player
    s.phase = PH_CHOOSE
    s.active = -1
    s.space = -1


cdef void end_round(const HCfg* c, HState* s) noexcept nogil:
    if s.temple_marker >= 0:
        s.start_player = s.temple_marker
    elif c.no_temple_next_seat:
        s.start_player = (s.start_player + 1) % s.n_players
    s.round += 1
    if s.round >= 3:
        s.phase = PH_OVER
        s.current = -1
        s.active = -1
        s.space = -1
    else:
        begin_round(c, s)


cdef void end_turn(const HCfg* c, HState* s) noexcept nogil:
    cdef int p, left = 0, seat
    s.build_turn = 0
    s.revealed = 0
    for p in range(s.n_players):
        left += s.cubes_left[p]
    if left == 0:
        end_round(c, s)
        return
    seat = (s.turn_seat + 1) % s.n_players
    while s.cubes_left[seat] == 0:
        seat = (seat + 1) % s.n_players
    s.turn_seat = seat
    s.current = seat
    s.phase = PH_CHOOSE
    s.active = -1
    s.space = -1


cdef void next_builder(const HCfg* c, HState* s) noexcept nogil:
    # all-players building actions: active seat first, then clockwise
    s.build_turn += 1
    if s.build_turn >= s.n_players:
        end_turn(c, s)
        return
    s.current = (s.active + s.build_turn) % s.n_players
    s.phase = PH_BUILD_PALACE if c.space_kind[s.space] == SK_PALACE else PH_BUILD_HOUSE


# ---------------------------------------------------------------- quarries

cdef void quarry_income(const HCfg* c, HState* s, QLog* log) noexcept nogil:
    cdef int p, i, f, inc, best, y, na = 0
    cdef int act[MAXQF]
    cdef u128 h = active_below(s.quarry_status, s.quarry_top, c.n_fields, 256)
    # the active quarry fields, listed from their mask
    while h:
        act[na] = ctz128(h)
        h &= h - 1
        na += 1
    for p in range(s.n_players):
        inc = 0
        if c.double_yield_once:
            # H-D12 variant: each house yields once, at its richest adjacent quarry
            h = s.houses[p]
            while h:
                f = ctz128(h)
                h &= h - 1
                best = 0
                for i in range(c.n_quarry_fields):
                    if s.quarry_status[c.quarry_field[i]] == Q_ACTIVE and has128(c.nbr[f], c.quarry_field[i]):
                        y = c.yield_of[s.quarry_top[c.quarry_field[i]]]
                        if y > best:
                            best = y
                inc += best
        else:
            for i in range(na):
                f = act[i]
                inc += popcount128(s.houses[p] & c.nbr[f]) * c.yield_of[s.quarry_top[f]]
        s.marble[p] += inc
        s.income[p] += inc
        log.income[p] = inc


cdef void open_new_quarry(const HCfg* c, HState* s, QLog* log, int tile) noexcept nogil:
    # the tile is lower than every active quarry: new quarry on the worker's field,
    # the highest active quarry closes, the worker moves (or leaves the board, H-D7)
    cdef int i, f, high = -1, top = -1, w = s.worker, better
    s.quarry_status[w] = Q_ACTIVE
    s.quarry_top[w] = tile
    log.opened = w
    for i in range(c.n_quarry_fields):
        # the first of the highest (tiles are >= 0), without branches
        f = c.quarry_field[i]
        better = (f != w) & (s.quarry_status[f] == Q_ACTIVE) & (s.quarry_top[f] > top)
        high ^= (high ^ f) & -better
        top ^= (top ^ s.quarry_top[f]) & -better
    if high >= 0:
        s.quarry_status[high] = Q_CLOSED
        log.closed = high
    s.worker = -1
    for i in range(c.n_quarry_fields):
        if worker_target(c, s, c.quarry_field[i]):
            s.phase = PH_WORKER_MOVE
            s.current = s.active
            return
    log.worker_to = -2
    end_turn(c, s)


cdef void reveal_tiles(const HCfg* c, HState* s) noexcept nogil:
    """The quarry action's tile phase, up to the next decision or its end."""
    cdef QLog* log = &s.qlog[s.n_qlog - 1]
    cdef int t
    while s.revealed < 4 and s.stack_pos < s.n_stack:
        t = s.stack[s.stack_pos]
        s.stack_pos += 1
        if log.n_revealed < MAXREV:
            log.tiles[log.n_revealed] = t
        log.n_revealed += 1
        if active_below(s.quarry_status, s.quarry_top, c.n_fields, t):      # an active quarry below t
            s.revealed += 1
            s.tile = t
            s.phase = PH_QUARRY_PLACE
            s.current = s.active
            return
        if s.worker >= 0:
            s.revealed += 1
            if log.n_revealed <= MAXREV:
                log.dest[log.n_revealed - 1] = -3
            open_new_quarry(c, s, log, t)
            return
        # H-D7: worker off the board: the tile is set aside
        s.set_aside[s.n_set_aside] = t
        s.n_set_aside += 1
        if log.n_revealed <= MAXREV:
            log.dest[log.n_revealed - 1] = -2
        if c.set_aside_counts:
            s.revealed += 1
    end_turn(c, s)


cdef void start_quarry(const HCfg* c, HState* s) noexcept nogil:
    cdef QLog* log
    cdef int i
    if s.n_qlog < MAXQLOG:      # with more quarry actions than that, the last slot is reused
        s.n_qlog += 1
    log = &s.qlog[s.n_qlog - 1]
    log.round = s.round
    log.seat = s.active
    log.n_revealed = 0
    for i in range(MAXREV):
        log.tiles[i] = 0
        log.dest[i] = -1
    for i in range(MAXP):
        log.income[i] = 0
    log.opened = -1
    log.closed = -1
    log.worker_to = -1
    quarry_income(c, s, log)
    s.revealed = 0
    reveal_tiles(c, s)


# ---------------------------------------------------------------- applying actions

cdef void place_piece(const HCfg* c, HState* s, int p, int phase, int f) noexcept nogil:
    cdef u128 b = bit128(f)
    s.marble[p] -= build_cost(c, phase, f)
    s.own[p] |= b
    s.occupied |= b
    if phase == PH_BUILD_HOUSE:
        s.houses[p] |= b
        s.n_houses[p] += 1
    elif phase == PH_BUILD_AGORA:
        s.agoras[p] |= b
        s.n_agoras[p] += 1
    else:
        s.palaces[p] |= b
        s.n_palaces[p] += 1


cdef void take_ring(HState* s, int p) noexcept nogil:
    if s.supply_rings > 0:
        s.supply_rings -= 1
        s.rings[p] += 1


cdef void build_temple(const HCfg* c, HState* s, int k) noexcept nogil:
    cdef int p = s.active, t, x
    cdef int cols = c.space_columns[s.space]
    s.marble[p] -= c.space_cost[s.space]
    s.supply_columns -= cols
    s.columns_placed[p] += cols
    take_ring(s, p)
    for t in range(c.n_temples):
        x = c.splits[cols][k][t]
        if x:
            s.temple_cols[t] += x
            if s.temple_cols[t] == c.temple_size[t]:
                take_ring(s, p)      # completion ring


cdef void choose_space(const HCfg* c, HState* s, int sp) noexcept nogil:
    cdef int p = s.current
    cdef int kind = c.space_kind[sp]
    s.spaces_used |= <uint16_t>(1 << sp)
    s.cubes_left[p] -= 1
    s.active = p
    s.space = sp
    if kind == SK_TEMPLE and s.temple_marker < 0:
        s.temple_marker = p      # even if the action is not carried out
    if kind == SK_HOUSE or kind == SK_HOUSE_OR_AGORA:
        s.build_turn = 0
        s.phase = PH_BUILD_HOUSE
    elif kind == SK_PALACE:
        s.build_turn = 0
        s.phase = PH_BUILD_PALACE
    elif kind == SK_QUARRY:
        start_quarry(c, s)
    elif kind == SK_TEMPLE:
        if temple_possible(c, s):
            s.phase = PH_TEMPLE
        else:
            end_turn(c, s)          # nothing happens; the marker is taken all the same
    elif kind == SK_MONUMENT:
        s.phase = PH_MONUMENT
    else:
        s.marble[p] += c.space_marble[sp]
        end_turn(c, s)


cdef void apply_action(const HCfg* c, HState* s, int a) noexcept nogil:
    """Apply a legal action of the current decision (no legality check)."""
    cdef int ph = s.phase, p = s.current, f = a - A_FIELD
    cdef QLog* log
    if ph == PH_CHOOSE:
        choose_space(c, s, a)
    elif ph == PH_BUILD_HOUSE or ph == PH_BUILD_AGORA or ph == PH_BUILD_PALACE:
        if a != A_PASS:
            place_piece(c, s, p, ph, f)
        if ph == PH_BUILD_HOUSE and c.space_kind[s.space] == SK_HOUSE_OR_AGORA:
            s.phase = PH_BUILD_AGORA
        else:
            next_builder(c, s)
    elif ph == PH_MONUMENT:
        if a != A_PASS:
            s.marble[p] -= c.cost_monument
            s.monuments |= bit128(f)
            s.occupied |= bit128(f)
            s.supply_monuments -= 1
            s.monuments_built[p] += 1
        end_turn(c, s)
    elif ph == PH_TEMPLE:
        if a != A_PASS:
            build_temple(c, s, a - A_SPLIT)
        end_turn(c, s)
    elif ph == PH_QUARRY_PLACE:
        s.quarry_top[f] = s.tile
        log = &s.qlog[s.n_qlog - 1]
        if log.n_revealed <= MAXREV:
            log.dest[log.n_revealed - 1] = f
        s.tile = 0
        reveal_tiles(c, s)
    elif ph == PH_WORKER_MOVE:
        s.worker = f
        s.qlog[s.n_qlog - 1].worker_to = f
        end_turn(c, s)


# ---------------------------------------------------------------- set-up

cdef void setup(const HCfg* c, HState* s, uint64_t seed) noexcept nogil:
    """A new game: clear the state, then the chance draws in the contract's order."""
    cdef int i, j, tmp, n, p
    cdef int pool[MAXQF]
    memset(s, 0, sizeof(HState))
    rng_seed(s.rng, seed, CHANCE_SALT)
    s.n_players = c.n_players
    s.n_stack = c.n_tiles
    for i in range(c.n_tiles):
        s.stack[i] = c.tiles[i]
    for i in range(c.n_tiles - 1, 0, -1):
        j = <int>rng_below(s.rng, i + 1)
        tmp = s.stack[i]
        s.stack[i] = s.stack[j]
        s.stack[j] = tmp
    # three initial quarries on coastal quarry fields
    n = c.n_coast_quarry
    for i in range(n):
        pool[i] = c.coast_quarry[i]
    for i in range(3):
        j = <int>rng_below(s.rng, n)
        s.quarry_status[pool[j]] = Q_ACTIVE
        s.quarry_top[pool[j]] = s.stack[i]
        for tmp in range(j, n - 1):
            pool[tmp] = pool[tmp + 1]
        n -= 1
    s.stack_pos = 3
    n = 0
    for i in range(c.n_quarry_fields):
        if s.quarry_status[c.quarry_field[i]] == Q_EMPTY:
            pool[n] = c.quarry_field[i]
            n += 1
    s.worker = pool[<int>rng_below(s.rng, n)]
    if c.start_player < 0:
        s.start_player = <int8_t>rng_below(s.rng, c.n_players)
    else:
        s.start_player = c.start_player
    s.first_player = s.start_player
    for p in range(c.n_players):
        s.marble[p] = c.start_marble + c.seat_bonus[p]
    s.supply_columns = c.supply_columns
    s.supply_rings = c.supply_rings
    s.supply_monuments = c.supply_monuments
    s.round = 0
    s.tile = 0
    begin_round(c, s)


# ---------------------------------------------------------------- scoring

cdef u128 flood_group(const HCfg* c, const HState* s, int p, int start, u128* adjacent) noexcept nogil:
    # the player's group (H-D11) containing `start`, and the fields next to it
    cdef u128 group = bit128(start), frontier = group, adj = 0, linked
    cdef int g
    while frontier:
        g = ctz128(frontier)
        frontier &= frontier - 1
        adj |= c.nbr[g]
        linked = c.nbr[g] & s.own[p] & ~group
        if c.no_agora_chains and has128(s.agoras[p], g):
            linked &= ~s.agoras[p]
        group |= linked
        frontier |= linked
    adjacent[0] = adj
    return group


cdef void score(const HCfg* c, const HState* s, int16_t out[N_SC][MAXP]) noexcept nogil:
    cdef int p, t, size, most = 0
    cdef u128 remaining, group, adj
    for p in range(s.n_players):
        if s.rings[p] > most:
            most = s.rings[p]
    for p in range(s.n_players):
        out[SC_CITY][p] = 0
        out[SC_MONUMENTS][p] = 0
        out[SC_TEMPLES][p] = 0
        # a city holds a palace, so only the groups of the palaces are flooded (the groups are
        # the components of an undirected relation, H-D11: the same from any start)
        remaining = s.palaces[p]
        while remaining:
            group = flood_group(c, s, p, ctz128(remaining), &adj)
            remaining &= ~group
            if group & s.houses[p]:     # a city
                size = popcount128(group)
                if size > out[SC_CITY][p]:
                    out[SC_CITY][p] = size
                out[SC_MONUMENTS][p] += 3 * popcount128(adj & s.monuments)
                for t in range(c.n_temples):
                    if has128(adj, c.temple_field[t]):
                        out[SC_TEMPLES][p] += s.temple_cols[t]
        out[SC_RINGS][p] = 2 * s.rings[p]
        if s.rings[p] == most and (most > 0 or c.ring_bonus_all_tied):
            out[SC_RINGS][p] += 3
        out[SC_MARBLE][p] = s.marble[p] // 5
        out[SC_TOTAL][p] = (out[SC_CITY][p] + out[SC_MONUMENTS][p] + out[SC_TEMPLES][p]
                            + out[SC_RINGS][p] + out[SC_MARBLE][p] + c.seat_points[p])
