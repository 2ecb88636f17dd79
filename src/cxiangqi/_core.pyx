# The thin shell Python sees: one cdef class around a Position and its undo
# stack.  Every argument is checked here, at the boundary; past this file the
# core trusts its inputs.
#
# Squares here are Python squares (0..89, rank * 9 + file); a move is passed
# as its two squares and returned as from * 90 + to.  Colours are 0 (red) and
# 1 (black); piece types 0..6 (king..pawn); a piece is reported as its kind,
# side * 7 + type.

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy

from cxiangqi._types cimport *
from cxiangqi._sigint cimport sigint_catch, cx_sigint_release, cx_sigint_stopped, cx_stop_raise
from cxiangqi._tables cimport SQ90_TO_SQ, SQ_TO_SQ90, KIND, PTYPE, ZOBRIST_SIDE
from cxiangqi._position cimport (Position as CPosition, Undo, make_move, key_after,
                                 unmake_move, pos_clear, pos_compute_key,
                                 pos_add_piece, pos_remove_piece, pos_check)
from cxiangqi._rules cimport count_repetitions, perpetual_mask, chase_targets, chase_mask
from cxiangqi._movegen cimport (gen_moves, gen_legal, count_legal, in_check,
                                is_legal_pseudo, is_pseudo_legal, attackers_of,
                                checkers_of, gives_check, perft, square_attacked)

# the evaluation fills the piece-square tables every position sums up
from cxiangqi import _eval as _eval_tables  # noqa: F401
from cxiangqi import _interrupt

COMPILED = True
# True in a build made with CXIANGQI_DEBUG=1 (sanitizers and invariant checks)
DEBUG_BUILD = bool(CX_DEBUG)
# True when compiled from the profile of a training run (setup.py: GCC,
# unless CXIANGQI_PGO=0)
PGO_BUILD = bool(CX_PGO)

cdef enum:
    # Largest halfmove clock and fullmove number a position may hold.  Set
    # from Python they are checked against it, and push refuses a move that
    # would pass it, so the C ints (and the arrays the search indexes with
    # the clock) never see a wrapped or negative value.
    _MAX_COUNTER = 1000000
    # Longest undo stack (plies): far beyond any game, and it keeps every
    # size computed from it well inside a C int.
    _MAX_STACK = 1 << 24
    # Deepest perft: the C perft recurses once per ply with a move buffer
    # on the stack, so an unbounded depth could overflow the thread's stack.
    _MAX_PERFT_DEPTH = 64

MAX_COUNTER = _MAX_COUNTER
MAX_STACK = _MAX_STACK
MAX_PERFT_DEPTH = _MAX_PERFT_DEPTH


cdef int _counter(object value, str what, int lo) except -1:
    # value as a C int lo.._MAX_COUNTER, or ValueError (never OverflowError)
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = value.__index__()
        except (AttributeError, TypeError):
            raise ValueError(f"{what} must be an integer {lo}..{_MAX_COUNTER}, got {value!r}") \
                from None
    if value < lo or value > _MAX_COUNTER:
        raise ValueError(f"{what} must be an integer {lo}..{_MAX_COUNTER}, got {value!r}")
    return value


cdef inline int _sq(int sq90) except -1:
    if sq90 < 0 or sq90 >= 90:
        raise ValueError(f"square {sq90} is not on the board (0..89)")
    return SQ90_TO_SQ[sq90]


cdef inline int _side(int color) except -1:
    if color != 0 and color != 1:
        raise ValueError(f"colour must be 0 (red) or 1 (black), got {color}")
    return color


cdef int _debug_check(const CPosition *pos) except -1:
    # only in a CXIANGQI_DEBUG build: the core's invariants after each change
    cdef int err = pos_check(pos)
    if err:
        raise AssertionError(f"cxiangqi core invariant {err} broken (see pos_check)")
    return 0


cdef list _moves_to_list(const int *mvs, int n):
    cdef list out = []
    cdef int i
    for i in range(n):
        out.append(SQ_TO_SQ90[src_of(mvs[i])] * 90 + SQ_TO_SQ90[dst_of(mvs[i])])
    return out


cdef list _squares_to_list(const int *sqs, int n):
    return sorted([SQ_TO_SQ90[sqs[i]] for i in range(n)])


cdef class PerftStop:
    """A stop flag for Position.perft_divide that another thread raises
    (the engine command's ``stop`` during ``go perft``)."""
    cdef int flag

    def set(self):
        cx_stop_raise(&self.flag)

    def is_set(self):
        return cx_sigint_stopped(&self.flag) != 0


cdef class Position:
    """A position with its undo stack.  Private: use cxiangqi.Board.
    (Attributes are declared in _core.pxd.)"""

    def __cinit__(self):
        pos_clear(&self.pos)
        self.cap_undo = 64
        self.n_undo = 0
        self.undo = <Undo *> malloc(self.cap_undo * sizeof(Undo))
        if self.undo == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.undo)

    # --- set-up -----------------------------------------------------------

    def clear(self):
        """Empties the board and the undo stack; red to move."""
        pos_clear(&self.pos)
        self.n_undo = 0

    def clear_stack(self):
        self.n_undo = 0

    def set_piece(self, int sq90, int color, int piece_type):
        """Puts a piece on sq90, replacing what was there.  Raises ValueError
        when the side already has as many pieces of that type as the game
        has (1 king, 2 of advisor..cannon, 5 pawns)."""
        cdef int sq = _sq(sq90)
        _side(color)
        if piece_type < KING or piece_type > PAWN:
            raise ValueError(f"piece type must be 0..6, got {piece_type}")
        cdef int old = self.pos.board[sq]
        pos_remove_piece(&self.pos, sq)
        if pos_add_piece(&self.pos, sq, color, piece_type) == 0:
            if old != EMPTY:
                pos_add_piece(&self.pos, sq, KIND[old] // 7, PTYPE[old])
            raise ValueError("too many pieces of that type for one side")
        if CX_DEBUG:
            _debug_check(&self.pos)

    def remove_piece(self, int sq90):
        pos_remove_piece(&self.pos, _sq(sq90))
        if CX_DEBUG:
            _debug_check(&self.pos)

    def kind_at(self, int sq90):
        """side * 7 + type of the piece on sq90, or -1."""
        cdef int pc = self.pos.board[_sq(sq90)]
        return -1 if pc == EMPTY else KIND[pc]

    def kinds(self):
        """bytes of 90: the kind on each square, 255 for empty."""
        cdef bytearray out = bytearray(90)
        cdef int i, pc
        for i in range(90):
            pc = self.pos.board[SQ90_TO_SQ[i]]
            out[i] = 255 if pc == EMPTY else KIND[pc]
        return bytes(out)

    def squares_of(self, int color, int piece_type):
        cdef int tag = side_tag(_side(color))
        cdef int pc
        cdef list out = []
        for pc in range(tag, tag + 16):
            if PTYPE[pc] == piece_type and self.pos.pieces[pc] != 0:
                out.append(SQ_TO_SQ90[self.pos.pieces[pc]])
        return sorted(out)

    def king(self, int color):
        cdef int sq = self.pos.pieces[side_tag(_side(color))]
        return None if sq == 0 else SQ_TO_SQ90[sq]

    @property
    def side(self):
        return self.pos.side

    @side.setter
    def side(self, int color):
        if _side(color) != self.pos.side:
            self.pos.side = color
            self.pos.key ^= ZOBRIST_SIDE

    @property
    def halfmove(self):
        return self.pos.halfmove

    @halfmove.setter
    def halfmove(self, value):
        self.pos.halfmove = _counter(value, "halfmove clock", 0)

    @property
    def fullmove(self):
        return self.pos.fullmove

    @fullmove.setter
    def fullmove(self, value):
        self.pos.fullmove = _counter(value, "fullmove number", 1)

    def key(self):
        return self.pos.key

    def computed_key(self):
        """The key computed from scratch (the incremental one must equal it)."""
        return pos_compute_key(&self.pos)

    def copy(self, bint stack=True):
        cdef Position other = Position.__new__(Position)
        other.pos = self.pos
        if stack and self.n_undo:
            other._reserve(self.n_undo)
            memcpy(other.undo, self.undo, self.n_undo * sizeof(Undo))
            other.n_undo = self.n_undo
        return other

    cdef int _reserve(self, int n) except -1:
        cdef Undo *grown
        if n <= self.cap_undo:
            return 0
        if n > _MAX_STACK:
            raise ValueError(f"the move stack is limited to {_MAX_STACK} plies")
        cdef int cap = self.cap_undo
        while cap < n:
            cap *= 2
        grown = <Undo *> realloc(self.undo, cap * sizeof(Undo))
        if grown == NULL:
            raise MemoryError()
        self.undo = grown
        self.cap_undo = cap
        return 0

    # --- moves ------------------------------------------------------------

    def legal_moves(self):
        cdef int mvs[MAX_MOVES]
        cdef int n
        with nogil:
            n = gen_legal(&self.pos, mvs, False)
        return _moves_to_list(mvs, n)

    def legal_captures(self):
        cdef int mvs[MAX_MOVES]
        cdef int n = gen_legal(&self.pos, mvs, True)
        return _moves_to_list(mvs, n)

    def pseudo_legal_moves(self):
        cdef int mvs[MAX_MOVES]
        cdef int n = gen_moves(&self.pos, mvs, False)
        return _moves_to_list(mvs, n)

    def count_legal(self):
        return count_legal(&self.pos)

    def is_pseudo_legal(self, int from90, int to90):
        cdef int mv = move_of(_sq(from90), _sq(to90))
        return is_pseudo_legal(&self.pos, mv)

    def is_legal(self, int from90, int to90):
        cdef int mv = move_of(_sq(from90), _sq(to90))
        return is_pseudo_legal(&self.pos, mv) and is_legal_pseudo(&self.pos, mv)

    def push(self, int from90, int to90):
        """Plays the move if it is legal and returns True; otherwise returns
        False and changes nothing."""
        cdef int mv = move_of(_sq(from90), _sq(to90))
        if not (is_pseudo_legal(&self.pos, mv) and is_legal_pseudo(&self.pos, mv)):
            return False
        if self.pos.board[dst_of(mv)] == EMPTY and self.pos.halfmove >= _MAX_COUNTER:
            raise ValueError(f"the halfmove clock would pass {_MAX_COUNTER}")
        if self.pos.side == BLACK and self.pos.fullmove >= _MAX_COUNTER:
            raise ValueError(f"the fullmove number would pass {_MAX_COUNTER}")
        self._reserve(self.n_undo + 1)
        cdef u64 expected = 0
        if CX_DEBUG:
            expected = key_after(&self.pos, mv)     # the key the search prefetches
        make_move(&self.pos, mv, &self.undo[self.n_undo])
        self.n_undo += 1
        if CX_DEBUG:
            _debug_check(&self.pos)
            if self.pos.key != expected:
                raise AssertionError("cxiangqi core: key_after disagrees with make_move")
        return True

    def pop(self):
        """Takes back the last move; returns it as from * 90 + to."""
        if self.n_undo == 0:
            raise IndexError("pop from an empty move stack")
        self.n_undo -= 1
        cdef Undo *u = &self.undo[self.n_undo]
        unmake_move(&self.pos, u)
        if CX_DEBUG:
            _debug_check(&self.pos)
        return SQ_TO_SQ90[src_of(u.mv)] * 90 + SQ_TO_SQ90[dst_of(u.mv)]

    def stack_size(self):
        return self.n_undo

    def captured_at(self, int ply):
        """Kind of the piece taken by the ply-th move of the stack, or -1."""
        if ply < 0 or ply >= self.n_undo:
            raise IndexError("ply out of range")
        cdef int pc = self.undo[ply].captured
        return -1 if pc == EMPTY else KIND[pc]

    def keys(self):
        """Zobrist keys of the positions before each move on the stack."""
        return [self.undo[i].key for i in range(self.n_undo)]

    # --- repetition (the referee's view; the search uses the same code) ------

    def history(self):
        """(keys, checks) for the positions since the last capture that are
        on the stack: keys[i] is the Zobrist key after the i-th of those
        plies (keys[0] the position before them), checks[i] whether the
        move into position i gave check.  The last entry is the current
        position."""
        cdef int back = max(0, min(self.n_undo, self.pos.halfmove))
        cdef CPosition p = self.pos
        cdef list keys = [0] * (back + 1)
        cdef bytearray checks = bytearray(back + 1)
        cdef int i
        keys[back] = p.key
        checks[back] = in_check(&p, p.side)
        for i in range(back):
            unmake_move(&p, &self.undo[self.n_undo - 1 - i])
            keys[back - 1 - i] = p.key
            checks[back - 1 - i] = in_check(&p, p.side)
        return keys, bytes(checks)

    @staticmethod
    def repetitions(list keys, int want):
        """(count, first): how often the last position of `keys` occurs in
        it, at most `want`, and the index of the earliest counted."""
        cdef int n = len(keys)
        if n == 0:
            return 0, 0
        cdef u64 *buf = <u64 *> malloc(n * sizeof(u64))
        if buf == NULL:
            raise MemoryError()
        cdef int i, first, count
        for i in range(n):
            buf[i] = keys[i]
        count = count_repetitions(buf, n - 1, 0, want, &first)
        free(buf)
        return count, first

    @staticmethod
    def perpetual(bytes flags, int first):
        """perpetual_mask over flags[first..]: bit 1 the side that made the
        last move flagged all its moves since `first`, bit 2 the other side."""
        cdef int idx = len(flags) - 1
        if first < 0 or first > idx:
            raise ValueError("first out of range")
        return perpetual_mask(<const u8 *> <const char *> flags, first, idx)

    def chased(self, int from90, int to90):
        """Squares (after the move) of the enemy pieces that the legal move
        from90 -> to90 chases, by the referee's rule (cxiangqi.rules)."""
        cdef int mv = move_of(_sq(from90), _sq(to90))
        if not (is_pseudo_legal(&self.pos, mv) and is_legal_pseudo(&self.pos, mv)):
            raise ValueError("chased() needs a legal move")
        cdef unsigned int mask = chase_targets(&self.pos, mv)
        cdef list out = []
        cdef int bit, pc
        for bit in range(32):
            if mask & (1u << bit):
                pc = bit + 16
                out.append(SQ_TO_SQ90[self.pos.pieces[pc]])
        return out

    def chase_mask(self, int plies):
        """Over the last `plies` moves of the stack: bit 1 when the side that
        made the last move chased one same piece with every one of its
        moves, bit 2 when the other side did."""
        if plies < 2 or plies > self.n_undo:
            raise ValueError(f"plies must be 2..{self.n_undo}, got {plies}")
        return chase_mask(&self.pos, self.undo, self.n_undo - plies, self.n_undo)

    # --- attacks and checks -------------------------------------------------

    def in_check(self, int color=-1):
        """Is `color` (default: the side to move) in check?"""
        if color == -1:
            color = self.pos.side
        return in_check(&self.pos, _side(color))

    def checkers(self):
        cdef int out[32]
        cdef int n = checkers_of(&self.pos, self.pos.side, out)
        return _squares_to_list(out, n)

    def attackers(self, int color, int sq90):
        cdef int out[16]
        cdef int n = attackers_of(&self.pos, _sq(sq90), _side(color), out)
        return _squares_to_list(out, n)

    def square_attacked(self, int color, int sq90):
        """The search's fast attack test (must agree with attackers())."""
        return square_attacked(&self.pos, _sq(sq90), _side(color))

    def gives_check(self, int from90, int to90):
        """Does the (pseudo-legal) move give check?  False if not pseudo-legal."""
        cdef int mv = move_of(_sq(from90), _sq(to90))
        if not is_pseudo_legal(&self.pos, mv):
            return False
        return gives_check(&self.pos, mv)

    # --- perft --------------------------------------------------------------

    def perft(self, int depth):
        """Leaf count of the legal move tree to `depth` (bulk-counted).  In
        the main thread, with Python's default SIGINT handler, Ctrl-C
        abandons the count with KeyboardInterrupt (see _sigint.pxd)."""
        if depth < 0 or depth > _MAX_PERFT_DEPTH:
            raise ValueError(f"perft depth must be 0..{_MAX_PERFT_DEPTH}, got {depth}")
        cdef u64 n
        cdef int stop = 0
        cdef bint caught = sigint_catch(&stop, _interrupt.catchable())
        with nogil:
            n = perft(&self.pos, depth, &stop)
        if caught and cx_sigint_release():
            _interrupt.deliver()
        if CX_DEBUG:
            _debug_check(&self.pos)
        return n

    def perft_divide(self, int depth, PerftStop stop_flag=None):
        """[(from * 90 + to, leaf count)] for each legal move.  With a
        PerftStop that another thread sets (or Ctrl-C in the main thread),
        the count ends early with the moves counted so far."""
        if depth < 1 or depth > _MAX_PERFT_DEPTH:
            raise ValueError(f"perft depth must be 1..{_MAX_PERFT_DEPTH}, got {depth}")
        cdef int mvs[MAX_MOVES]
        cdef int n = gen_legal(&self.pos, mvs, False)
        cdef list counts = []
        cdef Undo u
        cdef u64 c
        cdef int i
        cdef int own_stop = 0
        cdef int *stop = &own_stop if stop_flag is None else &stop_flag.flag
        cdef bint caught = sigint_catch(stop, _interrupt.catchable())
        try:
            for i in range(n):
                if cx_sigint_stopped(stop):
                    break
                with nogil:
                    make_move(&self.pos, mvs[i], &u)
                    c = perft(&self.pos, depth - 1, stop)
                    unmake_move(&self.pos, &u)
                if cx_sigint_stopped(stop):
                    break
                counts.append(c)
        finally:
            if caught and cx_sigint_release():
                _interrupt.deliver()
        return list(zip(_moves_to_list(mvs, n), counts))
