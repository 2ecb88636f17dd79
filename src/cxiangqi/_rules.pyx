# The chase rule in C (declared in _rules.pxd): the referee (Board.outcome,
# through _core) and the search both judge a repeated chase with it, so the
# engine plays by the rules it is judged by.  The rule itself is written out
# in cxiangqi/rules.py; the reference implementation in Python that these
# functions are tested against is tests/chase_reference.py.
#
# Pieces are followed by their ids: a piece keeps its id when it moves, so
# "the same piece chased with every move" is an intersection of id masks.

from cxiangqi._types cimport *
from cxiangqi._tables cimport PTYPE
from cxiangqi._position cimport Position, Undo, make_move, unmake_move
from cxiangqi._movegen cimport reaches, is_pseudo_legal, is_legal_pseudo, in_check


# (attacker type, target type) pairs that chase even a protected target:
# horse or cannon on a rook; advisor or elephant on a rook, horse or cannon.
cdef bint ALWAYS_CHASED[7][7]
cdef int _a, _t
for _a in range(7):
    for _t in range(7):
        ALWAYS_CHASED[_a][_t] = False
ALWAYS_CHASED[HORSE][ROOK] = True
ALWAYS_CHASED[CANNON][ROOK] = True
for _t in (ROOK, HORSE, CANNON):
    ALWAYS_CHASED[ADVISOR][_t] = True
    ALWAYS_CHASED[ELEPHANT][_t] = True


# Could `side` legally play mv if it were its turn?
cdef bint legal_for(Position *pos, int side, int mv) noexcept nogil:
    cdef int saved = pos.side
    pos.side = side
    cdef bint ok = is_pseudo_legal(pos, mv) and is_legal_pseudo(pos, mv)
    pos.side = saved
    return ok


# For each piece of `side` that can chase (advisor..cannon, slots 1..10), the
# mask (by slot) of the enemy pieces it attacks that can be chased: not the
# king, not a pawn on its own side of the river.
cdef void attack_sets(const Position *pos, int side, unsigned int *out) noexcept nogil:
    cdef int tag = side_tag(side)
    cdef int opp = opp_tag(side)
    cdef int a, t, s, ts
    cdef unsigned int m
    for a in range(SLOT_ADVISOR, SLOT_PAWN):
        out[a] = 0
        s = pos.pieces[tag + a]
        if s == 0:
            continue
        m = 0
        for t in range(SLOT_ADVISOR, SLOT_END):
            ts = pos.pieces[opp + t]
            if ts == 0 or (t >= SLOT_PAWN and own_half(ts, side ^ 1)):
                continue
            if reaches(pos.board, tag + a, s, ts, side):
                m |= 1u << t
        out[a] = m


# After the attacker on a takes the piece on t, can the owner legally take back?
cdef bint protected(Position *pos, int side, int a, int t) noexcept nogil:
    cdef int saved = pos.side
    cdef int owner = side ^ 1
    cdef int tag = side_tag(owner)
    cdef Undo u
    cdef int pc, s
    cdef bint found = False
    pos.side = side
    make_move(pos, move_of(a, t), &u)          # now the owner is to move
    for pc in range(tag, tag + 16):
        s = pos.pieces[pc]
        if s != 0 and s != t and reaches(pos.board, pc, s, t, owner) \
                and is_legal_pseudo(pos, move_of(s, t)):
            found = True
            break
    unmake_move(pos, &u)
    pos.side = saved
    return found


cdef unsigned int chase_targets(Position *pos, int mv) noexcept nogil:
    cdef int side = pos.side
    cdef int tag = side_tag(side)
    cdef int opp = opp_tag(side)
    cdef unsigned int before[SLOT_END]
    cdef unsigned int after[SLOT_END]
    cdef unsigned int fresh, result = 0
    cdef int a, t, sa, st, apt, tpt
    cdef Undo u
    attack_sets(pos, side, before)
    make_move(pos, mv, &u)
    attack_sets(pos, side, after)
    for a in range(SLOT_ADVISOR, SLOT_PAWN):
        fresh = after[a] & ~before[a]
        t = 0
        while fresh:
            if fresh & 1:
                sa = pos.pieces[tag + a]
                st = pos.pieces[opp + t]
                apt = PTYPE[tag + a]
                tpt = PTYPE[opp + t]
                # a pinned attacker cannot really take; equals that can take
                # each other only threaten a trade
                if legal_for(pos, side, move_of(sa, st)) and not (
                        apt == tpt and legal_for(pos, side ^ 1, move_of(st, sa))):
                    if ALWAYS_CHASED[apt][tpt] or not protected(pos, side, sa, st):
                        result |= 1u << (opp + t - 16)
            fresh >>= 1
            t += 1
    unmake_move(pos, &u)
    return result


cdef int chase_mask(const Position *now, const Undo *line, int first, int idx) noexcept nogil:
    cdef Position p = now[0]
    cdef Undo u
    cdef unsigned int chased[2]
    cdef int j, mover
    j = idx - 1
    while j >= first:
        unmake_move(&p, &line[j])
        j -= 1
    chased[0] = 0xffffffffu
    chased[1] = 0xffffffffu
    for j in range(first, idx):
        mover = p.side
        chased[mover] &= chase_targets(&p, line[j].mv)
        make_move(&p, line[j].mv, &u)
    cdef int last_mover = now.side ^ 1
    return (1 if chased[last_mover] else 0) | (2 if chased[now.side] else 0)
