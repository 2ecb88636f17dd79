"""The board: a position, the moves that led to it, and the rules.

Names and habits follow python-chess: ``Board``, ``push``/``pop``, a lazy
``legal_moves`` view, ``is_*`` predicates and ``outcome()``.

>>> board = Board()
>>> board.push_iccs("h2e2")
Move.from_iccs('h2e2')
>>> board.legal_moves.count(), board.turn == BLACK
(45, True)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Set

from . import _checks
from . import rules as _rules
from ._core import MAX_COUNTER, MAX_PERFT_DEPTH
from ._core import Position as _Position
from .errors import IllegalMoveError, InvalidFenError, InvalidMoveError  # noqa: F401
from .fen import (STARTING_FEN, board_fen, check_not_to_move_safe, check_placement,
                  check_representable, parse_fen, unrepresentable)
from .move import MOVES, Move
from .piece import Piece
from .square import (BLACK, PIECE_NAMES, RED, SQUARE_NAMES, Color, PieceType, Square,
                     flip_vertical)

__all__ = ["Board", "LegalMoveGenerator", "PseudoLegalMoveGenerator", "Outcome", "Termination"]


class Termination(enum.Enum):
    """Why a game ended."""

    CHECKMATE = enum.auto()
    """The side to move is in check and has no legal move: it loses."""
    STALEMATE = enum.auto()
    """The side to move is not in check but has no legal move (困毙): in
    xiangqi this is a loss for that side, not a draw."""
    PERPETUAL_CHECK = enum.auto()
    """A position occurred a third time and one side gave check with every
    move of the cycle (长将): that side loses."""
    PERPETUAL_CHASE = enum.auto()
    """A position occurred a third time and one side chased the same piece
    with every move of the cycle (长捉) while the other did not: the chaser
    loses."""
    REPETITION = enum.auto()
    """A position occurred a third time with no perpetual check or chase:
    a draw (reported with ``outcome(claim_draw=True)``)."""
    MOVE_LIMIT = enum.auto()
    """120 plies (60 moves by each side) without a capture: a draw."""
    INSUFFICIENT_MATERIAL = enum.auto()
    """Neither side has a rook, horse, cannon or pawn: a draw."""
    RESIGNATION = enum.auto()
    """A player resigned (set by game front ends, never by the rules)."""
    AGREEMENT = enum.auto()
    """Draw agreed (set by game front ends)."""
    TIME_FORFEIT = enum.auto()
    """A player ran out of time (set by game front ends)."""


_DRAWS = frozenset({Termination.REPETITION, Termination.MOVE_LIMIT,
                    Termination.INSUFFICIENT_MATERIAL, Termination.AGREEMENT})


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the reason and the winner (None for a draw).
    ValueError for a pair that cannot be: a draw with a winner, or a
    checkmate, resignation, ... without one."""

    termination: Termination
    winner: Optional[Color]

    def __post_init__(self) -> None:
        if not isinstance(self.termination, Termination):
            raise ValueError(f"termination must be a Termination, got {self.termination!r}")
        if self.termination in _DRAWS:
            if self.winner is not None:
                raise ValueError(f"{self.termination.name} is a draw: the winner must be None")
        elif self.winner not in (RED, BLACK):
            raise ValueError(f"{self.termination.name} has a winner (RED or BLACK), "
                             f"got {self.winner!r}")

    def result(self) -> str:
        """``"1-0"`` (Red won), ``"0-1"`` (Black won) or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == RED else "0-1"


# piece objects for the core's kinds (side * 7 + type - 1), red first
_PIECE_OF_KIND = [Piece(pt, color) for color in (RED, BLACK) for pt in range(1, 8)]
_COLOR_NAME = {RED: "red", BLACK: "black"}


def _c(color: Color) -> int:
    """Colour as the core numbers it: 0 red, 1 black."""
    return 0 if color else 1


class LegalMoveGenerator:
    """The legal moves of a board, computed when asked: iterate, ``len``,
    ``move in ...``, ``count()``.  It always reflects the board's current
    position."""

    __slots__ = ("_board",)

    def __init__(self, board: "Board") -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return map(MOVES.__getitem__, self._board._core.legal_moves())

    def __len__(self) -> int:
        return self._board._core.count_legal()

    def count(self) -> int:
        return self._board._core.count_legal()

    def __bool__(self) -> bool:
        return self._board._core.count_legal() > 0

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoveGenerator ({', '.join(m.iccs() for m in self)})>"


class PseudoLegalMoveGenerator(LegalMoveGenerator):
    """Moves that follow the pieces' movement rules but may leave the own
    king in check or the kings facing."""

    __slots__ = ()

    def __iter__(self) -> Iterator[Move]:
        return map(MOVES.__getitem__, self._board._core.pseudo_legal_moves())

    def __len__(self) -> int:
        return len(self._board._core.pseudo_legal_moves())

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_pseudo_legal(move)

    def __repr__(self) -> str:
        return f"<PseudoLegalMoveGenerator ({', '.join(m.iccs() for m in self)})>"


class Board:
    """A xiangqi position with its move stack.

    ``Board()`` is the start position; ``Board(fen)`` any position given as
    FEN (InvalidFenError if it is malformed or impossible); ``Board(None)``
    or ``Board.empty()`` an empty board to set up with ``set_piece_at``.

    ``validate=False`` accepts a FEN whose position could not occur in a
    game (a missing king, an advisor or elephant off its points, a pawn
    behind its start, the side not to move in check), for editors and
    puzzles.  The syntax and the number of pieces of each type are still
    checked, and so is what no board can hold consistently: kings and
    advisors stay in their own palace, elephants on their own side of the
    river (InvalidFenError names the piece; set_piece_at refuses the same).
    On every board, valid or not, the queries agree: ``legal_moves``, its
    ``len``, ``is_legal``, ``push``, ``perft(1)``, ``is_check`` and
    ``checkers`` use one definition of a legal move and of check.
    ``is_valid()`` tells whether a board's position could occur.
    """

    def __init__(self, fen: Optional[str] = STARTING_FEN, *, validate: bool = True) -> None:
        self._core = _Position()
        self.move_stack: List[Move] = []
        if fen is not None:
            self.set_fen(fen, validate=validate)

    @classmethod
    def empty(cls) -> "Board":
        """A board with no pieces, Red to move."""
        return cls(None)

    # --- FEN -----------------------------------------------------------------

    def set_fen(self, fen: str, *, validate: bool = True) -> None:
        """Sets up the position of a FEN and clears the move stack.  On an
        invalid FEN raises InvalidFenError and leaves the board as it was."""
        parsed = parse_fen(fen)
        core = _Position()
        try:
            if validate:
                check_placement(parsed.placement)
            else:
                check_representable(parsed.placement)
            for sq, piece in parsed.placement:
                try:
                    core.set_piece(sq, _c(piece.color), piece.piece_type - 1)
                except ValueError:
                    raise InvalidFenError(
                        f"too many {_COLOR_NAME[piece.color]} {PIECE_NAMES[piece.piece_type]}s"
                    ) from None
            core.side = _c(parsed.turn)
            core.halfmove = parsed.halfmove_clock
            core.fullmove = parsed.fullmove_number
            if validate:
                check_not_to_move_safe(core, parsed.turn)
        except InvalidFenError as e:
            raise InvalidFenError(f"invalid FEN {fen!r}: {e}") from None
        self._core = core
        self.move_stack = []

    def fen(self) -> str:
        """``<board> <w|b> - - <halfmove clock> <fullmove number>``."""
        return (f"{board_fen(self._core.kinds())} {'w' if self.turn else 'b'} - - "
                f"{self._core.halfmove} {self._core.fullmove}")

    def board_fen(self) -> str:
        """The first field of the FEN: the pieces only."""
        return board_fen(self._core.kinds())

    def is_valid(self) -> bool:
        """Could this position occur in a game (what set_fen checks)?"""
        try:
            check_placement(self._placement())
            check_not_to_move_safe(self._core, self.turn)
        except InvalidFenError:
            return False
        return True

    def _placement(self) -> List[tuple]:
        return [(sq, _PIECE_OF_KIND[k]) for sq, k in enumerate(self._core.kinds()) if k != 255]

    # --- pieces and state ---------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move: RED or BLACK."""
        return self._core.side == 0

    @turn.setter
    def turn(self, color: Color) -> None:
        self._edited()
        self._core.side = _c(bool(color))

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture."""
        return self._core.halfmove

    @halfmove_clock.setter
    def halfmove_clock(self, value: int) -> None:
        """ValueError unless 0..MAX_COUNTER (1,000,000).  Like any edit, it
        clears the move stack (a pop could not restore what was set)."""
        value = _checks.integer(value, "halfmove clock", 0, MAX_COUNTER)
        self._edited()
        self._core.halfmove = value

    @property
    def fullmove_number(self) -> int:
        """Starts at 1, incremented after every Black move."""
        return self._core.fullmove

    @fullmove_number.setter
    def fullmove_number(self, value: int) -> None:
        """ValueError unless 1..MAX_COUNTER (1,000,000).  Like any edit, it
        clears the move stack: popping a move made before it would count the
        set number down (to 0, which no FEN allows)."""
        value = _checks.integer(value, "fullmove number", 1, MAX_COUNTER)
        self._edited()
        self._core.fullmove = value

    def piece_at(self, square: Square) -> Optional[Piece]:
        k = self._core.kind_at(_checks.square(square))
        return None if k < 0 else _PIECE_OF_KIND[k]

    def piece_type_at(self, square: Square) -> Optional[PieceType]:
        k = self._core.kind_at(_checks.square(square))
        return None if k < 0 else k % 7 + 1

    def pieces(self, piece_type: PieceType, color: Color) -> List[Square]:
        """Squares of the pieces of that type and colour, ascending."""
        if piece_type not in range(1, 8):
            raise ValueError(f"unknown piece type {piece_type!r}")
        return self._core.squares_of(_c(color), piece_type - 1)

    def king(self, color: Color) -> Optional[Square]:
        return self._core.king(_c(color))

    def set_piece_at(self, square: Square, piece: Piece) -> None:
        """Puts a piece on a square (replacing what was there).  Editing the
        board clears the move stack.  ValueError if the side would have more
        pieces of that type than the game has, or for a king or advisor
        outside its palace or an elephant across the river (see Board)."""
        if not isinstance(piece, Piece):
            raise TypeError(f"expected a Piece, got {type(piece).__name__}")
        square = _checks.square(square)
        why = unrepresentable(square, piece)
        if why is not None:
            raise ValueError(f"cannot put a piece there: {why}")
        try:
            self._core.set_piece(square, _c(piece.color), piece.piece_type - 1)
        except ValueError:
            most = 1 if piece.piece_type == 1 else 5 if piece.piece_type == 7 else 2
            raise ValueError(f"{_COLOR_NAME[piece.color]} already has {most} "
                             f"{PIECE_NAMES[piece.piece_type]}{'s' if most > 1 else ''}, "
                             f"as many as the game has") from None
        self._edited()

    def remove_piece_at(self, square: Square) -> Optional[Piece]:
        """Removes and returns the piece on a square (clears the move stack)."""
        piece = self.piece_at(square)
        self._core.remove_piece(_checks.square(square))
        self._edited()
        return piece

    def clear(self) -> None:
        """Removes every piece; Red to move; empty move stack."""
        self._core.clear()
        self.move_stack = []

    def clear_stack(self) -> None:
        """Forgets the moves that led here (the position stays)."""
        self._edited()

    def piece_map(self) -> Dict[Square, Piece]:
        """{square: piece} for every piece on the board."""
        return {sq: _PIECE_OF_KIND[k] for sq, k in enumerate(self._core.kinds()) if k != 255}

    def set_piece_map(self, pieces: Dict[Square, Piece]) -> None:
        """Replaces every piece with those of the mapping (the side to move
        and the counters stay; the move stack is cleared).  ValueError (and
        the board unchanged) for a square off the board, a piece that is no
        Piece, too many pieces of a type, or a placement no board can hold
        (see Board)."""
        placement = []
        for sq, piece in dict(pieces).items():
            if not isinstance(piece, Piece):
                raise TypeError(f"expected a Piece, got {type(piece).__name__}")
            placement.append((_checks.square(sq), piece))
        self._set_placement(placement)

    def set_board_fen(self, fen: str) -> None:
        """Sets the pieces from the board part of a FEN (the side to move
        and the counters stay; the move stack is cleared).  InvalidFenError
        for a malformed board or one no board can hold; the pieces need not
        make a position that could occur (as with validate=False)."""
        if not isinstance(fen, str):
            raise InvalidFenError(f"a board FEN must be a string, not {type(fen).__name__}")
        if len(fen.split()) != 1:
            raise InvalidFenError(f"invalid board FEN {fen[:100]!r}: expected the board part "
                                  "only (set_fen takes a whole FEN)")
        placement = parse_fen(fen + " w").placement
        try:
            check_representable(placement)
        except InvalidFenError as e:
            raise InvalidFenError(f"invalid board FEN {fen!r}: {e}") from None
        self._set_placement(placement)

    def _set_placement(self, placement: List[tuple]) -> None:
        core = _Position()
        for sq, piece in placement:
            why = unrepresentable(sq, piece)
            if why is not None:
                raise ValueError(f"cannot put a piece there: {why}")
            try:
                core.set_piece(sq, _c(piece.color), piece.piece_type - 1)
            except ValueError:
                raise InvalidFenError(
                    f"too many {_COLOR_NAME[piece.color]} {PIECE_NAMES[piece.piece_type]}s"
                ) from None
        core.side = self._core.side
        core.halfmove = self._core.halfmove
        core.fullmove = self._core.fullmove
        self._core = core
        self.move_stack = []

    def mirror(self) -> "Board":
        """A copy with ranks and colours swapped (python-chess's mirror):
        Red's pieces become Black's on the mirrored squares and the other
        side is to move, so the position is the same for the other colour.
        The move stack is not copied."""
        board = type(self).empty()
        board._set_placement([(flip_vertical(sq), Piece(p.piece_type, not p.color))
                              for sq, p in self.piece_map().items()])
        board._core.side = 1 - self._core.side
        board._core.halfmove = self._core.halfmove
        board._core.fullmove = self._core.fullmove
        return board

    def transform(self, f: Callable[[Square], Square]) -> "Board":
        """A copy with every piece moved to ``f(square)`` (colours and side
        to move unchanged; no move stack), as python-chess's transform does
        with its bitboard functions: ``board.transform(flip_horizontal)``
        mirrors the board left to right.  ValueError if the result is not a
        board (two pieces on one square, a king out of its palace, ...)."""
        placement = []
        seen = set()
        for sq, piece in self.piece_map().items():
            to = _checks.square(f(sq))
            if to in seen:
                raise ValueError(f"transform puts two pieces on {SQUARE_NAMES[to]}")
            seen.add(to)
            placement.append((to, piece))
        board = type(self).empty()
        board._set_placement(placement)
        board._core.side = self._core.side
        board._core.halfmove = self._core.halfmove
        board._core.fullmove = self._core.fullmove
        return board

    def ply(self) -> int:
        """Half-moves played since the start, from the fullmove number:
        ``2 * (fullmove_number - 1)``, plus one when Black is to move."""
        return 2 * (self._core.fullmove - 1) + (self._core.side == 1)

    def _edited(self) -> None:
        # moves made before an edit cannot be taken back through it
        self._core.clear_stack()
        self.move_stack = []

    # --- moves -------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        return LegalMoveGenerator(self)

    @property
    def pseudo_legal_moves(self) -> PseudoLegalMoveGenerator:
        return PseudoLegalMoveGenerator(self)

    def is_pseudo_legal(self, move: Move) -> bool:
        return self._core.is_pseudo_legal(move.from_square, move.to_square)

    def is_legal(self, move: Move) -> bool:
        return self._core.is_legal(move.from_square, move.to_square)

    def find_move(self, from_square: Square, to_square: Square) -> Move:
        """The legal move from one square to the other; IllegalMoveError if
        there is none (InvalidMoveError for squares off the board)."""
        move = Move(from_square, to_square)
        if not self.is_legal(move):
            raise IllegalMoveError(self._illegal_reason(move))
        return MOVES[move.from_square * 90 + move.to_square]

    def push(self, move: Move) -> None:
        """Plays a legal move.  IllegalMoveError (and the board unchanged) if
        the move is not legal here; ValueError (board unchanged) if it would
        take the halfmove clock or the fullmove number past MAX_COUNTER
        (1,000,000: only a position set up with such a counter gets there;
        see :meth:`counter_limit`)."""
        if not isinstance(move, Move):
            raise TypeError(f"expected a Move, got {type(move).__name__}")
        if not self._core.push(move.from_square, move.to_square):
            raise IllegalMoveError(self._illegal_reason(move))
        self.move_stack.append(move)

    def counter_limit(self, move: Move) -> Optional[str]:
        """Why :meth:`push` would refuse this legal move although the rules
        allow it: the halfmove clock or the fullmove number would pass
        MAX_COUNTER (1,000,000).  None when the counters have room (always,
        short of a position set up with such a counter)."""
        if self.piece_at(move.to_square) is None and self._core.halfmove >= MAX_COUNTER:
            return f"the halfmove clock would pass {MAX_COUNTER}"
        if self.turn == BLACK and self._core.fullmove >= MAX_COUNTER:
            return f"the fullmove number would pass {MAX_COUNTER}"
        return None

    def parse_iccs(self, text: str) -> Move:
        """The legal move written in ICCS (``"h2e2"``): InvalidMoveError if
        the text is malformed, IllegalMoveError if the move is not legal."""
        move = Move.from_iccs(text)
        if not self.is_legal(move):
            raise IllegalMoveError(self._illegal_reason(move))
        return move

    def push_iccs(self, text: str) -> Move:
        """Parses and plays a move in ICCS; returns it."""
        move = Move.from_iccs(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Takes back the last move and returns it (IndexError if none)."""
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        self._core.pop()
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move played (IndexError if none)."""
        if not self.move_stack:
            raise IndexError("peek at an empty move stack")
        return self.move_stack[-1]

    def _illegal_reason(self, move: Move) -> str:
        side = _COLOR_NAME[self.turn]
        head = f"illegal move {move.iccs()} in {self.fen()}: "
        piece = self.piece_at(move.from_square)
        frm, to = SQUARE_NAMES[move.from_square], SQUARE_NAMES[move.to_square]
        if piece is None:
            return head + f"there is no piece on {frm}"
        if piece.color != self.turn:
            return head + f"the piece on {frm} is {_COLOR_NAME[piece.color]}, but {side} is to move"
        name = PIECE_NAMES[piece.piece_type]
        if not self.is_pseudo_legal(move):
            target = self.piece_at(move.to_square)
            if target is not None and target.color == self.turn:
                return head + f"the {name} on {frm} cannot take its own piece on {to}"
            return head + f"the {name} on {frm} cannot move to {to}"
        return head + f"it would leave the {side} king in check (or facing the other king)"

    # --- check and game end -------------------------------------------------------

    def is_check(self) -> bool:
        """Is the side to move in check?"""
        return self._core.in_check()

    def checkers(self) -> List[Square]:
        """Squares of the pieces giving check to the side to move (the other
        king too, when the kings face on an open file)."""
        return self._core.checkers()

    def is_attacked_by(self, color: Color, square: Square) -> bool:
        """Could a piece of `color` move to or capture on `square`?  (The
        search's own attack test; it agrees with ``bool(attackers(...))``.)"""
        return self._core.square_attacked(_c(color), _checks.square(square))

    def attackers(self, color: Color, square: Square) -> List[Square]:
        """Squares of the pieces of `color` attacking `square`, ascending."""
        return self._core.attackers(_c(color), _checks.square(square))

    def gives_check(self, move: Move) -> bool:
        """Would this (pseudo-legal) move put the opponent in check?"""
        return self._core.gives_check(move.from_square, move.to_square)

    def is_capture(self, move: Move) -> bool:
        """Does this move take a piece of the opponent?"""
        target = self._core.kind_at(move.to_square)
        return target >= 0 and (target < 7) != self.turn

    def is_checkmate(self) -> bool:
        return self._core.in_check() and self._core.count_legal() == 0

    def is_stalemate(self) -> bool:
        """No legal move while not in check (困毙).  Unlike chess, in xiangqi
        this LOSES for the side to move: see outcome()."""
        return not self._core.in_check() and self._core.count_legal() == 0

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """How the game has ended, or None while it goes on, as a referee
        rules (see cxiangqi.rules):

        - no legal move: the side to move loses, in check (CHECKMATE) or
          not (STALEMATE);
        - a position occurring the third time (the move stack since the
          last capture is the record): the side that checked (PERPETUAL_CHECK)
          or chased (PERPETUAL_CHASE) with every move of the cycle loses;
          otherwise it is a draw by REPETITION, reported only with
          ``claim_draw=True`` (as python-chess treats threefold repetition);
        - 120 plies without a capture: MOVE_LIMIT, a draw;
        - no rook, horse, cannon or pawn on either side: INSUFFICIENT_MATERIAL.
        """
        if self._core.count_legal() == 0:
            reason = Termination.CHECKMATE if self._core.in_check() else Termination.STALEMATE
            return Outcome(reason, not self.turn)
        verdict = _rules.repetition_verdict(self)
        if verdict is not None:
            kind, loser = verdict
            if kind == "perpetual_check":
                return Outcome(Termination.PERPETUAL_CHECK, not loser)
            if kind == "perpetual_chase":
                return Outcome(Termination.PERPETUAL_CHASE, not loser)
            if claim_draw:
                return Outcome(Termination.REPETITION, None)
        if self._core.halfmove >= _rules.MOVE_LIMIT_PLIES:
            return Outcome(Termination.MOVE_LIMIT, None)
        if _rules.insufficient_material(self):
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        return None

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, *, claim_draw: bool = False) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome(claim_draw=claim_draw)
        return "*" if outcome is None else outcome.result()

    def can_claim_draw(self) -> bool:
        """Could the side to move claim a draw by repetition now (a third
        occurrence with no perpetual check or chase)?  The move limit and
        insufficient material end the game by themselves (see outcome)."""
        if self.outcome() is not None:
            return False
        outcome = self.outcome(claim_draw=True)
        return outcome is not None and outcome.termination == Termination.REPETITION

    def is_pinned(self, color: Color, square: Square) -> bool:
        """Is the piece of `color` on `square` pinned to its king: would
        taking it off the board leave its king attacked by a piece that does
        not attack it now (a rook or cannon line, a horse leg, the other
        king on the file)?  False for an empty square or another colour."""
        return bool(self.pin(color, square))

    def pin(self, color: Color, square: Square) -> List[Square]:
        """The enemy pieces that pin the piece of `color` on `square` (see
        is_pinned), ascending; empty if it is not pinned.  (python-chess
        returns the pin's ray; xiangqi pins also run through horse legs and
        cannon screens, so here it is the pinners.)"""
        square = _checks.square(square)
        piece = self.piece_at(square)
        if piece is None or piece.color != bool(color) or piece.piece_type == 1:
            return []
        probe = self.copy(stack=False)
        probe.turn = bool(color)
        before = set(probe.checkers())
        probe._core.remove_piece(square)
        return sorted(set(probe.checkers()) - before)

    def is_repetition(self, count: int = 3) -> bool:
        """Has the current position occurred `count` times (same side to
        move, since the last capture)?"""
        keys, _ = self._core.history()
        return _Position.repetitions(keys, count)[0] >= count

    def history_keys(self) -> List[int]:
        """Zobrist keys (see zobrist_hash) of the positions since the last
        capture that the move stack holds, oldest first, the current
        position last: what repetition is judged on."""
        return self._core.history()[0]

    def history_checks(self) -> List[bool]:
        """For the same positions as history_keys: was the side to move in
        check there (did the move into it give check)?"""
        return [bool(c) for c in self._core.history()[1]]

    def chased_squares(self, move: Move) -> Set[Square]:
        """Squares (after `move`, a legal move here) of the enemy pieces that
        `move` chases under the referee's chase rule (see cxiangqi.rules).
        The board is left unchanged; ValueError for an illegal move."""
        if not self.is_legal(move):
            raise ValueError(f"{move.iccs()} is not a legal move in this position")
        return set(self._core.chased(move.from_square, move.to_square))

    def chase_mask(self, plies: int) -> int:
        """Who chased one same piece with every one of their moves in the
        last `plies` plies of the move stack (a repetition cycle): bit 1,
        the side that just moved; bit 2, the side to move; 0, neither.
        ValueError unless 2 <= plies <= len(move_stack)."""
        if isinstance(plies, bool) or not isinstance(plies, int):
            raise ValueError(f"plies must be an integer, got {plies!r}")
        return self._core.chase_mask(plies)

    # --- whole-board helpers ------------------------------------------------------

    def zobrist_hash(self) -> int:
        """64-bit Zobrist key of the pieces and the side to move."""
        return self._core.key()

    def perft(self, depth: int) -> int:
        """Number of leaf nodes of the legal move tree `depth` plies deep
        (0..MAX_PERFT_DEPTH, 64)."""
        return self._core.perft(_checks.integer(depth, "perft depth", 0, MAX_PERFT_DEPTH))

    def perft_divide(self, depth: int) -> Dict[Move, int]:
        """perft(depth - 1) after each legal move."""
        depth = _checks.integer(depth, "perft depth", 1, MAX_PERFT_DEPTH)
        return {MOVES[code]: n for code, n in self._core.perft_divide(depth)}

    def copy(self, stack: bool = True) -> "Board":
        """An independent copy; with stack=False, without the move history."""
        board = type(self).__new__(type(self))
        board._core = self._core.copy(stack)
        board.move_stack = list(self.move_stack) if stack else []
        return board

    def __copy__(self) -> "Board":
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Board):
            return self.fen() == other.fen()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __str__(self) -> str:
        kinds = self._core.kinds()
        lines = []
        for rank in range(9, -1, -1):
            cells = (".KABNRCPkabnrcp"[k + 1] if k != 255 else "."
                     for k in kinds[rank * 9: rank * 9 + 9])
            lines.append(f"{rank} " + " ".join(cells))
        lines.append("  a b c d e f g h i")
        return "\n".join(lines)

    def unicode(self, traditional: bool = False) -> str:
        """The board with Chinese characters (帅 … 将), rank 9 at the top."""
        kinds = self._core.kinds()
        lines = []
        for rank in range(9, -1, -1):
            cells = (_PIECE_OF_KIND[k].chinese(traditional) if k != 255 else "．"
                     for k in kinds[rank * 9: rank * 9 + 9])
            lines.append(f"{rank} " + "".join(cells))
            if rank == 5:
                lines.append("  ＝＝＝＝＝＝＝＝＝")
        lines.append("  ａｂｃｄｅｆｇｈｉ")
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        """The board as SVG (Jupyter shows it): see cxiangqi.svg."""
        from .svg import _board_svg
        return _board_svg(self)

    def __repr__(self) -> str:
        if self.is_valid():
            return f"Board({self.fen()!r})"
        return f"Board({self.fen()!r}, validate=False)"

    # --- notation -----------------------------------------------------------------
    # Thin delegates to cxiangqi.notation (imported here, not at the top, since
    # notation.py works on boards); its docstring describes the conventions.

    def wxf(self, move: Move) -> str:
        """The legal move in WXF notation (``"C2=5"``, ``"R++1"``)."""
        from . import notation
        return notation.wxf(self, move)

    def parse_wxf(self, text: str) -> Move:
        """The legal move a WXF text names: InvalidMoveError if the text is
        malformed, IllegalMoveError if it names no legal move or several."""
        from . import notation
        return notation.parse_wxf(self, text)

    def push_wxf(self, text: str) -> Move:
        """Parses and plays a move in WXF; returns it."""
        move = self.parse_wxf(text)
        self.push(move)
        return move

    def chinese(self, move: Move, traditional: bool = False) -> str:
        """The legal move in Chinese notation (``"炮二平五"``, ``"马８进７"``)."""
        from . import notation
        return notation.chinese(self, move, traditional)

    def parse_chinese(self, text: str) -> Move:
        """The legal move a Chinese-notation text names (simplified or
        traditional): InvalidMoveError if the text is malformed,
        IllegalMoveError if it names no legal move or several."""
        from . import notation
        return notation.parse_chinese(self, text)

    def push_chinese(self, text: str) -> Move:
        """Parses and plays a move in Chinese notation; returns it."""
        move = self.parse_chinese(text)
        self.push(move)
        return move

    def variation_wxf(self, moves: Iterable[Move]) -> str:
        """A line of moves from this position, numbered, in WXF (python-chess's
        variation_san): ``1. C2=5 H8+7 2. H2+3``.  IllegalMoveError (naming
        the ply) at the first illegal move; the board is not changed."""
        from . import notation
        return notation.format_line(self, moves, "wxf")

    def variation_chinese(self, moves: Iterable[Move], traditional: bool = False) -> str:
        """The same line in Chinese notation: ``1. 炮二平五 马８进７``."""
        from . import notation
        return notation.format_line(self, moves, "chinese", traditional=traditional)
