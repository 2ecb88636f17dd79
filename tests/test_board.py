"""Board API behaviour: stack, errors, copies, hashing, printing, outcomes,
check and attack queries."""
from __future__ import annotations

import random
import re
import zlib

import pytest

from conftest import games, positions
from cxiangqi.fen import parse_fen

from cxiangqi import (A0, ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, KING, PAWN, RED, ROOK,
                      STARTING_FEN, Board, IllegalMoveError, InvalidFenError, InvalidMoveError, Move,
                      Outcome, Piece, Termination, parse_square)

S = parse_square


def M(text):
    return Move.from_iccs(text)


def state(board):
    return board.fen(), board.zobrist_hash(), list(board.move_stack)


# ------------------------------------------------------------ push/pop/peek

def test_push_pop_peek_move_stack():
    board = Board()
    assert board.move_stack == []
    board.push(M("h2e2"))
    assert board.turn is BLACK
    assert board.peek() == M("h2e2")
    board.push_iccs("h9g7")
    assert board.turn is RED
    assert board.move_stack == [M("h2e2"), M("h9g7")]
    assert board.fen() == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    assert board.pop() == M("h9g7")
    assert board.peek() == M("h2e2")
    assert board.pop() == M("h2e2")
    assert board.fen() == STARTING_FEN
    assert board.move_stack == []


def test_move_stack_is_the_list_of_moves_played():
    board = Board()
    board.push_iccs("h2e2")
    board.push(M("h9g7"))
    assert board.move_stack == [M("h2e2"), M("h9g7")]
    assert [type(m) for m in board.move_stack] == [Move, Move]
    board.pop()
    assert board.move_stack == [M("h2e2")]
    board.set_fen(STARTING_FEN)
    assert board.move_stack == []


def test_pop_and_peek_on_empty_stack():
    board = Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    assert board.fen() == STARTING_FEN
    # a board set up from a FEN has no history either
    board = Board("3k5/9/9/9/9/9/9/9/9/4K4 w - - 10 20")
    with pytest.raises(IndexError):
        board.pop()


def test_clocks():
    board = Board()
    assert (board.halfmove_clock, board.fullmove_number) == (0, 1)
    board.push_iccs("h2e2")
    assert (board.halfmove_clock, board.fullmove_number) == (1, 1)
    board.push_iccs("h9g7")
    assert (board.halfmove_clock, board.fullmove_number) == (2, 2)
    board.push_iccs("e2e6")  # cannon captures the e6 pawn
    assert board.halfmove_clock == 0
    assert board.fullmove_number == 2
    board.pop()
    assert (board.halfmove_clock, board.fullmove_number) == (2, 2)


@pytest.mark.parametrize("text", ["a0a5", "a9a8", "e5e6", "h2h8", "e0e2", "b0d1", "h2e6", "c0e3", "a3b3"])
def test_push_illegal_move(text):
    board = Board()
    board.push_iccs("h2e2")
    board.push_iccs("h9g7")
    before = state(board)
    move = M(text)
    assert not board.is_legal(move)
    assert move not in board.legal_moves
    with pytest.raises(IllegalMoveError) as excinfo:
        board.push(move)
    assert isinstance(excinfo.value, ValueError)
    assert str(excinfo.value)
    assert state(board) == before
    with pytest.raises(IllegalMoveError):
        board.push_iccs(text)
    assert state(board) == before
    with pytest.raises(IllegalMoveError):
        board.parse_iccs(text)
    assert state(board) == before


@pytest.mark.parametrize("text", ["", "h2", "h2e", "j2e2", "h2h2", "h2e10", "h2-e2", "xyzw"])
def test_push_iccs_malformed(text):
    board = Board()
    before = state(board)
    with pytest.raises(InvalidMoveError):
        board.push_iccs(text)
    with pytest.raises(InvalidMoveError):
        board.parse_iccs(text)
    assert state(board) == before


def test_push_iccs_and_parse_iccs_return_moves():
    board = Board()
    assert board.parse_iccs("H2E2") == M("h2e2")
    assert board.fen() == STARTING_FEN
    move = board.push_iccs("H2E2")
    assert move == M("h2e2")
    assert board.peek() == move


def test_push_illegal_when_in_check():
    # black in check from rook e8; the advisor cannot ignore it
    board = Board("3ak4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert board.is_check()
    before = state(board)
    legal = sorted(m.iccs() for m in board.legal_moves)
    # e9e8 captures the rook; e9f9 steps aside; d9e8 (advisor captures) too
    assert legal == ["d9e8", "e9e8", "e9f9"]
    with pytest.raises(IllegalMoveError):
        board.push(M("e9f8"))  # diagonal king step
    with pytest.raises(IllegalMoveError):
        board.push(M("d9c8"))  # advisor out of the palace
    assert state(board) == before


def test_turn_settable():
    board = Board()
    board.turn = BLACK
    assert board.turn is BLACK
    assert board.fen().split()[1] == "b"
    assert board.zobrist_hash() == Board(STARTING_FEN.replace(" w ", " b ")).zobrist_hash()
    assert M("h7e7") in board.legal_moves
    board.turn = RED
    assert board.zobrist_hash() == Board().zobrist_hash()


# ------------------------------------------------------------- legal_moves

def test_legal_moves_view():
    board = Board()
    view = board.legal_moves
    assert len(view) == 44 == view.count()
    assert bool(view)
    assert M("h2e2") in view
    assert M("h2e3") not in view
    moves = list(view)
    assert len(moves) == len(set(moves)) == 44
    assert all(isinstance(m, Move) for m in moves)
    # lazy: the view follows the board
    board.push_iccs("h2e2")
    assert M("h2e2") not in view
    assert M("h7e7") in view
    assert len(view) == len(list(board.legal_moves)) == 45  # pyffish agrees


def test_pseudo_legal_moves_include_pinned_moves():
    # red cannon e5 is the only piece between the kings
    board = Board("4k4/9/9/9/4C4/9/9/9/9/4K4 w - - 0 1")
    sideways = M("e5d5")
    assert sideways in board.pseudo_legal_moves
    assert board.is_pseudo_legal(sideways)
    assert sideways not in board.legal_moves
    assert not board.is_legal(sideways)
    assert set(board.legal_moves) < set(board.pseudo_legal_moves)
    assert len(board.pseudo_legal_moves) == board.pseudo_legal_moves.count()
    # a horse jump with its leg blocked is not even pseudo-legal
    start = Board()
    assert not start.is_pseudo_legal(M("b0d1"))
    assert not start.is_pseudo_legal(M("a0a5"))


# --------------------------------------------------------- copy, equality

def test_copy_is_independent():
    board = Board()
    board.push_iccs("h2e2")
    copy = board.copy()
    assert copy == board
    assert copy.move_stack == board.move_stack
    assert copy.zobrist_hash() == board.zobrist_hash()
    copy.push_iccs("h9g7")
    assert board.fen() != copy.fen()
    assert len(board.move_stack) == 1
    assert board.pop() == M("h2e2")
    assert copy.move_stack == [M("h2e2"), M("h9g7")]
    copy.remove_piece_at(A0)
    assert board.piece_at(A0) == Piece(ROOK, RED)


def test_copy_without_stack():
    board = Board()
    board.push_iccs("h2e2")
    copy = board.copy(stack=False)
    assert copy.fen() == board.fen()
    assert copy.move_stack == []
    with pytest.raises(IndexError):
        copy.pop()
    assert copy == board


def test_equality():
    assert Board() == Board()
    assert Board() == Board(STARTING_FEN)
    board = Board()
    board.push_iccs("h2e2")
    assert board != Board()
    board.pop()
    assert board == Board()
    assert Board() != Board(STARTING_FEN.replace(" w ", " b "))
    assert (Board() == "not a board") is False
    assert Board() != STARTING_FEN


# ------------------------------------------------------------------ zobrist

def test_zobrist_range_and_stability():
    key = Board().zobrist_hash()
    assert isinstance(key, int)
    assert 0 <= key < 2 ** 64
    assert Board().zobrist_hash() == key
    keys = {Board(p["fen"]).zobrist_hash() for p in positions()[:1000]}
    boards = {Board(p["fen"]).board_fen() + p["fen"].split()[1] for p in positions()[:1000]}
    assert len(keys) == len(boards)  # no collisions among distinct positions
    assert all(0 <= k < 2 ** 64 for k in keys)


def test_zobrist_push_pop_restores():
    board = Board()
    key = board.zobrist_hash()
    board.push_iccs("h2e2")
    assert board.zobrist_hash() != key
    board.pop()
    assert board.zobrist_hash() == key


def test_zobrist_side_to_move():
    red = Board()
    black = Board(STARTING_FEN.replace(" w ", " b "))
    assert red.zobrist_hash() != black.zobrist_hash()
    assert red.board_fen() == black.board_fen()


def test_zobrist_transposition():
    a = Board()
    for t in ("h0g2", "b9c7", "b0c2", "h9g7"):
        a.push_iccs(t)
    b = Board()
    for t in ("b0c2", "h9g7", "h0g2", "b9c7"):
        b.push_iccs(t)
    assert a.fen() == b.fen()
    assert a == b
    assert a.zobrist_hash() == b.zobrist_hash()
    assert a.zobrist_hash() == Board(a.fen()).zobrist_hash()


def test_zobrist_ignores_clocks():
    board = Board()
    for t in ("h0g2", "h9g7", "g2h0", "g7h9"):
        board.push_iccs(t)
    assert board.board_fen() == Board().board_fen()
    assert board.fen() != STARTING_FEN  # the clocks moved on
    assert board.zobrist_hash() == Board().zobrist_hash()
    assert Board(STARTING_FEN.replace("0 1", "7 30")).zobrist_hash() == Board().zobrist_hash()


def _walk_starts():
    rng = random.Random(5)
    candidates = [p["fen"] for p in positions() if p["legal_moves"] and "tag" not in p]
    return [STARTING_FEN] * 120 + rng.sample(candidates, 80)


@pytest.mark.parametrize("block", range(4))
def test_random_walks_incremental_key(block):
    """~200 seeded random walks of 60 plies with occasional pops: the
    incremental key always equals the key of the same position set up from
    scratch, every pop restores the previous fen and key, and unwinding
    restores the start."""
    starts = _walk_starts()[block::4]
    rng = random.Random(1000 + block)
    for start_fen in starts:
        board = Board(start_fen)
        start_key = board.zobrist_hash()
        history = []  # (fen, key) before each push
        for _ in range(60):
            moves = list(board.legal_moves)
            if history and (not moves or rng.random() < 0.15):
                fen, key = history.pop()
                board.pop()
                assert board.fen() == fen
                assert board.zobrist_hash() == key
                continue
            if not moves:
                break
            history.append((board.fen(), board.zobrist_hash()))
            board.push(rng.choice(moves))
            fresh = Board(board.fen())
            assert board.zobrist_hash() == fresh.zobrist_hash(), board.fen()
            assert sorted(map(str, board.legal_moves)) == sorted(map(str, fresh.legal_moves))
        while history:
            fen, key = history.pop()
            board.pop()
            assert (board.fen(), board.zobrist_hash()) == (fen, key)
        assert board.fen() == start_fen
        assert board.zobrist_hash() == start_key
        assert board.move_stack == []


def test_set_and_remove_piece_update_hash():
    board = Board()
    removed = board.remove_piece_at(S("h2"))
    assert removed == Piece(CANNON, RED)
    assert board.piece_at(S("h2")) is None
    assert board.zobrist_hash() == Board(board.fen()).zobrist_hash()

    board.set_piece_at(S("d4"), Piece(CANNON, RED))
    assert board.piece_at(S("d4")) == Piece(CANNON, RED)
    assert board.piece_type_at(S("d4")) == CANNON
    assert board.zobrist_hash() == Board(board.fen()).zobrist_hash()

    assert board.remove_piece_at(S("b9")) == Piece(HORSE, BLACK)
    board.set_piece_at(S("a7"), Piece(HORSE, BLACK))
    assert board.zobrist_hash() == Board(board.fen()).zobrist_hash()

    # replacing a piece (red pawn a3 -> black rook)
    assert board.remove_piece_at(S("a9")) == Piece(ROOK, BLACK)
    board.set_piece_at(S("a3"), Piece(ROOK, BLACK))
    assert board.piece_at(S("a3")) == Piece(ROOK, BLACK)
    assert board.pieces(PAWN, RED) == sorted(S(n) for n in ("c3", "e3", "g3", "i3"))
    assert board.zobrist_hash() == Board(board.fen()).zobrist_hash()

    # removing from an empty point is a no-op
    key = board.zobrist_hash()
    assert board.remove_piece_at(S("e5")) is None
    assert board.zobrist_hash() == key
    assert board.board_fen() == "2bakabnr/9/nc5c1/p1p1p1p1p/9/3C5/r1P1P1P1P/1C7/9/RNBAKABNR"
    assert board.turn is RED
    # the position reached this way plays on normally
    assert board.legal_moves.count() == Board(board.fen()).legal_moves.count()


def test_clear_and_empty():
    board = Board()
    board.clear()
    assert board == Board.empty()
    assert board.fen() == "9/9/9/9/9/9/9/9/9/9 w - - 0 1"
    assert board.zobrist_hash() == Board.empty().zobrist_hash()


# --------------------------------------------------------- pieces, king

def test_pieces_and_king():
    board = Board()
    assert board.pieces(ROOK, RED) == [S("a0"), S("i0")]
    assert board.pieces(PAWN, BLACK) == [S(n) for n in ("a6", "c6", "e6", "g6", "i6")]
    assert board.pieces(CANNON, BLACK) == [S("b7"), S("h7")]
    assert board.pieces(ELEPHANT, RED) == [S("c0"), S("g0")]
    assert board.pieces(ADVISOR, BLACK) == [S("d9"), S("f9")]
    assert board.king(RED) == S("e0")
    assert board.king(BLACK) == S("e9")
    assert board.piece_at(S("e9")) == Piece(KING, BLACK)
    assert board.piece_at(S("e5")) is None
    assert board.piece_type_at(S("e5")) is None
    assert board.piece_type_at(S("b0")) == HORSE
    total = sum(len(board.pieces(t, c)) for t in range(1, 8) for c in (RED, BLACK))
    assert total == 32


# ------------------------------------------------------------------ printing

def test_str_board():
    text = str(Board())
    lines = text.splitlines()
    rows = []
    for line in lines:
        cells = re.findall(r"[.rnbakcpRNBAKCP]", line)
        if len(cells) == 9:
            rows.append((line, "".join(cells)))
    assert [cells for _, cells in rows] == [
        "rnbakabnr", ".........", ".c.....c.", "p.p.p.p.p", ".........",
        ".........", "P.P.P.P.P", ".C.....C.", ".........", "RNBAKABNR"]
    for (line, _), rank in zip(rows, range(9, -1, -1)):
        assert str(rank) in line, f"rank label {rank} missing in {line!r}"
    squashed = [re.sub(r"[^a-i]", "", line) for line in lines]
    assert any("abcdefghi" in s for s in squashed), "file labels a..i missing"
    assert str(Board.empty()).count(".") >= 90


def test_unicode_board():
    text = Board().unicode()
    assert "帅" in text and "将" in text
    assert text.count("兵") == 5 and text.count("卒") == 5
    assert text.count("仕") == 2 and text.count("士") == 2
    assert text.count("相") == 2 and text.count("象") == 2
    assert "帅" not in Board.empty().unicode()
    assert Board("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unicode().count("帅") == 1


def test_repr():
    board = Board()
    assert repr(board) == f"Board({STARTING_FEN!r})"
    board.push_iccs("h2e2")
    assert eval(repr(board), {"Board": Board}) == board


# ----------------------------------------------------------------- outcome

def test_outcome_checkmate_black_mated():
    board = Board("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1")
    assert board.is_checkmate() and board.is_game_over()
    outcome = board.outcome()
    assert outcome == Outcome(Termination.CHECKMATE, RED)
    assert outcome.termination is Termination.CHECKMATE
    assert outcome.winner is RED
    assert outcome.result() == "1-0"


def test_outcome_checkmate_red_mated():
    board = Board("3k5/9/9/9/4rr3/9/9/9/9/4K4 w - - 0 1")
    assert board.is_check() and board.is_checkmate()
    assert board.outcome() == Outcome(Termination.CHECKMATE, BLACK)
    assert board.outcome().result() == "0-1"


def test_outcome_after_mating_move():
    # the rook mates from d0 after moving there
    board = Board("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    assert board.outcome() is None
    board.push_iccs("a0d0")
    assert board.is_checkmate()
    assert board.outcome() == Outcome(Termination.CHECKMATE, RED)
    board.pop()
    assert board.outcome() is None


def test_outcome_stalemate_is_a_loss():
    board = Board("4k4/5P3/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert not board.is_check()
    assert board.is_stalemate() and not board.is_checkmate()
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome.termination is Termination.STALEMATE
    assert outcome.winner is RED
    assert outcome.result() == "1-0"

    board = Board("3k5/9/9/9/9/9/9/9/3p1p3/4K4 w - - 0 1")
    assert board.is_stalemate()
    assert board.outcome() == Outcome(Termination.STALEMATE, BLACK)
    assert board.outcome().result() == "0-1"


def test_no_outcome_in_play():
    board = Board()
    assert board.outcome() is None
    assert not board.is_game_over()
    assert not board.is_checkmate() and not board.is_stalemate()


def test_outcome_result_strings_and_impossible_outcomes():
    assert Outcome(Termination.REPETITION, None).result() == "1/2-1/2"
    assert Outcome(Termination.CHECKMATE, RED).result() == "1-0"
    assert Outcome(Termination.RESIGNATION, BLACK).result() == "0-1"
    for termination, winner in ((Termination.CHECKMATE, None), (Termination.STALEMATE, None),
                                (Termination.PERPETUAL_CHECK, None), (Termination.MOVE_LIMIT, RED),
                                (Termination.AGREEMENT, BLACK), ("checkmate", RED),
                                (Termination.TIME_FORFEIT, "red")):
        with pytest.raises(ValueError):
            Outcome(termination, winner)


# ---------------------------------------------------- gives_check, capture

def test_gives_check_direct_and_discovered():
    board = Board("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")
    assert board.gives_check(M("a0a9"))
    assert not board.gives_check(M("a0a8"))
    assert not board.is_capture(M("a0a9"))

    # discovered check: the horse leaves the rook's file
    board = Board("3k5/9/9/9/3N5/9/9/9/9/3R1K3 w - - 0 1")
    for target in ("b4", "b6", "c3", "c7", "e3", "e7", "f4", "f6"):
        move = M("d5" + target)
        assert board.is_legal(move)
        assert board.gives_check(move), move
    assert not board.gives_check(M("d0d1"))
    assert not board.gives_check(M("f0f1"))
    # gives_check does not change the board
    assert board.fen() == "3k5/9/9/9/3N5/9/9/9/9/3R1K3 w - - 0 1"


def test_gives_check_by_creating_cannon_screen():
    board = Board("4k4/9/9/9/9/9/2N6/4C4/9/3K5 w - - 0 1")
    assert not board.is_check()
    assert board.gives_check(M("c3e4"))      # horse becomes the screen
    assert not board.gives_check(M("c3d5"))
    assert not board.gives_check(M("e2e8"))  # no screen
    assert board.fen() == "4k4/9/9/9/9/9/2N6/4C4/9/3K5 w - - 0 1"
    board.push(M("c3e4"))
    assert board.is_check()
    assert board.checkers() == [S("e2")]


def _check_after(core, from90: int, to90: int) -> bool:
    """Is the side not to move in check once from90 -> to90 is played?  Built
    piece by piece on a copy (no move making), so it also answers for
    pseudo-legal moves that leave the mover's own king attacked."""
    after = core.copy(False)
    kind = after.kind_at(from90)
    after.remove_piece(from90)
    if after.kind_at(to90) != -1:
        after.remove_piece(to90)
    after.set_piece(to90, kind // 7, kind % 7)
    return after.in_check(1 - core.side)


def test_gives_check_agrees_with_the_position_after_the_move():
    # every pseudo-legal move (legal or not) of positions from real games and
    # the position set: the search asks this of moves before it plays them
    rng = random.Random(zlib.crc32(b"gives-check"))
    fens = [p["fen"] for p in positions()]
    for game in rng.sample(games(), 40):
        board = Board()
        for text in game["moves"]:
            board.push_iccs(text)
            fens.append(board.fen())
    checks = tested = 0
    for fen in fens:
        core = Board(fen)._core
        for code in core.pseudo_legal_moves():
            from90, to90 = divmod(code, 90)
            if core.kind_at(to90) in (0, 7):      # taking a king: not a position
                continue
            expected = _check_after(core, from90, to90)
            assert core.gives_check(from90, to90) == expected, (fen, from90, to90)
            checks += expected
            tested += 1
    assert tested > 50000 and checks > 1000


def test_gives_check_horse_and_pawn():
    board = Board("4k4/9/9/9/2N6/9/9/9/9/3K5 w - - 0 1")
    assert board.gives_check(M("c5d7"))  # d7 horse, leg d8 empty: checks e9
    assert not board.gives_check(M("c5e6"))
    assert not board.gives_check(M("c5b7"))
    board = Board("3k5/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1")
    assert board.gives_check(M("e7d7")) is False
    assert board.gives_check(M("e7e8")) is False
    board = Board("3k5/4P4/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert board.gives_check(M("e8d8"))   # pawn moves below the king
    assert board.gives_check(M("e8e9"))   # sideways attack on d9


def test_is_capture():
    board = Board()
    assert board.is_capture(M("h2h9"))
    assert board.is_capture(M("b2b9"))
    assert not board.is_capture(M("h2e2"))
    assert not board.is_capture(M("h2h6"))
    board = Board("2r1k4/9/2n6/9/9/2C1p2pp/9/9/9/3K5 w - - 0 1")
    assert board.is_capture(M("c4c9"))
    assert board.is_capture(M("c4h4"))
    assert not board.is_capture(M("c4d4"))
    assert not board.is_capture(M("c4c0"))


# -------------------------------------------------- checkers and attacks

def test_checkers():
    assert Board().checkers() == []
    # horse d7 and cannon e0 (screen e5) check at once
    board = Board("4k4/9/3N5/9/4P4/9/9/9/9/3KC4 b - - 0 1")
    assert board.is_check()
    assert board.checkers() == [S("e0"), S("d7")]
    # cannon behind a horse screen: only the cannon checks
    board = Board("4k4/9/4N4/9/9/9/9/9/9/3KC4 b - - 0 1")
    assert board.checkers() == [S("e0")]
    # double cannon on a file: the rear one checks over the front one
    board = Board("4k4/9/9/9/9/9/9/4C4/4C4/3K5 b - - 0 1")
    assert board.checkers() == [S("e1")]
    # rook and horse
    board = Board("3k5/9/2N6/9/9/9/9/9/9/3RK4 b - - 0 1")
    assert board.checkers() == [S("d0"), S("c7")]
    # pawn
    board = Board("3k5/3P5/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert board.checkers() == [S("d8")]


def test_checkers_include_facing_king():
    board = Board.empty()
    board.set_piece_at(S("e0"), Piece(KING, RED))
    board.set_piece_at(S("e9"), Piece(KING, BLACK))
    assert board.is_check()
    assert board.checkers() == [S("e9")]
    board.turn = BLACK
    assert board.checkers() == [S("e0")]
    # flying general is not an "attack" in is_attacked_by/attackers
    assert not board.is_attacked_by(RED, S("e9"))
    assert board.attackers(RED, S("e9")) == []
    # a piece in between breaks the contact
    board.set_piece_at(S("e4"), Piece(HORSE, RED))
    assert not board.is_check()
    assert board.checkers() == []


def test_attacks_palace_pieces():
    # red elephant c0, advisor d0, king e0; black pawn b1 (crossed), king d9
    board = Board("3k5/9/9/9/9/9/9/9/1p7/2BAK4 w - - 0 1")
    assert board.attackers(RED, S("e1")) == [S("d0"), S("e0")]
    assert board.attackers(RED, S("e2")) == [S("c0")]
    assert board.attackers(RED, S("a2")) == []          # elephant eye b1 blocked
    assert not board.is_attacked_by(RED, S("a2"))
    assert board.attackers(RED, S("f0")) == [S("e0")]
    assert board.attackers(RED, S("d1")) == []          # king/advisor/elephant miss d1
    assert board.attackers(RED, S("c1")) == []          # advisor d0 stays in the palace
    assert board.attackers(RED, S("e4")) == []          # elephant c0 reaches e2, not e4
    assert board.attackers(RED, S("e3")) == []
    assert board.attackers(RED, S("b1")) == []          # nobody reaches the pawn
    assert board.attackers(BLACK, S("b0")) == [S("b1")]
    assert board.attackers(BLACK, S("c1")) == [S("b1")]
    assert board.attackers(BLACK, S("a1")) == [S("b1")]
    assert board.attackers(BLACK, S("b2")) == []        # never backwards
    assert board.attackers(BLACK, S("c0")) == []
    assert board.attackers(BLACK, S("d8")) == [S("d9")]
    assert board.attackers(BLACK, S("e9")) == [S("d9")]
    assert board.attackers(BLACK, S("e8")) == []        # no diagonal king step
    assert board.attackers(BLACK, S("c9")) == []        # outside the palace
    assert board.is_attacked_by(BLACK, S("a1"))
    assert not board.is_attacked_by(BLACK, S("b2"))


def test_attacks_advisor_and_elephant_black():
    board = Board("2bak4/9/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert board.attackers(BLACK, S("e8")) == [S("d9"), S("e9")]
    assert board.attackers(BLACK, S("a7")) == [S("c9")]
    assert board.attackers(BLACK, S("e7")) == [S("c9")]
    assert board.attackers(BLACK, S("c7")) == []
    assert board.attackers(BLACK, S("b8")) == []


def test_attacks_horse_and_pawn():
    board = Board("3k5/9/9/9/4P4/4N4/9/9/9/4K4 w - - 0 1")
    assert not board.is_attacked_by(RED, S("d6"))        # horse leg e5 blocked
    assert not board.is_attacked_by(RED, S("f6"))
    assert board.attackers(RED, S("c5")) == [S("e4")]
    assert board.attackers(RED, S("g3")) == [S("e4")]
    assert board.attackers(RED, S("e6")) == [S("e5")]
    assert board.attackers(RED, S("d5")) == [S("e5")]
    assert board.attackers(RED, S("e4")) == []
    assert board.attackers(RED, S("d1")) == []
    assert board.attackers(RED, S("d2")) == [S("e4")]


def test_attacks_rook_and_cannon_on_pieces():
    board = Board()
    assert board.attackers(RED, S("h9")) == [S("h2")]    # cannon over the h7 screen
    assert board.attackers(RED, S("b9")) == [S("b2")]
    assert board.attackers(RED, S("h7")) == []           # no screen
    assert not board.is_attacked_by(RED, S("h7"))
    assert board.attackers(BLACK, S("h0")) == [S("h7")]
    assert board.attackers(BLACK, S("a3")) == []         # rook a9 blocked by a6
    board = Board("2r1k4/9/2n6/9/9/2C1p2pp/9/9/9/3K5 w - - 0 1")
    assert board.attackers(RED, S("c9")) == [S("c4")]
    assert board.attackers(RED, S("h4")) == [S("c4")]
    assert board.attackers(RED, S("c7")) == []
    assert board.attackers(RED, S("e4")) == []
    assert board.attackers(RED, S("i4")) == []
    assert board.attackers(BLACK, S("c4")) == []         # rook c9 blocked by the horse
    assert board.attackers(BLACK, S("e3")) == [S("e4")]


def test_attackers_multiple():
    # black pawn e5: rook a5 (along rank 5) and horse d3 (leg d4) attack it;
    # cannon e1 has no screen on e2..e4, so it does not
    board = Board("3k5/9/9/9/R3p4/9/3N5/9/4C4/4K4 w - - 0 1")
    assert board.attackers(RED, S("e5")) == [S("d3"), S("a5")]
    assert board.is_attacked_by(RED, S("e5"))


def test_set_piece_moves_king():
    board = Board("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert board.remove_piece_at(S("e0")) == Piece(KING, RED)
    board.set_piece_at(S("f1"), Piece(KING, RED))
    assert board.king(RED) == S("f1")
    assert board.pieces(KING, RED) == [S("f1")]
    assert sorted(m.iccs() for m in board.legal_moves) == ["f1e1", "f1f0", "f1f2"]
    assert board.zobrist_hash() == Board(board.fen()).zobrist_hash()
    board.push_iccs("f1e1")
    assert board.king(RED) == S("e1")
    board.pop()
    assert board.king(RED) == S("f1")


def test_board_without_a_king_does_not_crash():
    board = Board()
    board.remove_piece_at(S("e0"))
    assert board.king(RED) is None
    assert board.is_check() is False
    assert board.checkers() == []
    moves = list(board.legal_moves)
    assert M("h2e2") in moves
    assert M("e0e1") not in moves
    assert board.perft(2) == sum(board.perft_divide(2).values())
    fen = board.fen()
    board.push(moves[0])
    board.pop()
    assert board.fen() == fen


# ------------------------------------------------------------- empty board

def test_empty_board():
    board = Board.empty()
    assert board.fen() == "9/9/9/9/9/9/9/9/9/9 w - - 0 1"
    assert board.turn is RED
    assert list(board.legal_moves) == []
    assert len(board.legal_moves) == 0 and board.legal_moves.count() == 0
    assert not board.legal_moves
    assert list(board.pseudo_legal_moves) == []
    assert board.king(RED) is None and board.king(BLACK) is None
    assert board.pieces(ROOK, RED) == []
    assert board.is_check() is False
    assert board.checkers() == []
    assert board.is_attacked_by(BLACK, S("e0")) is False
    assert board.attackers(RED, S("e5")) == []
    assert board.perft(0) == 1
    assert board.perft(1) == 0
    assert board.perft_divide(1) == {}
    assert isinstance(board.is_checkmate(), bool)
    assert isinstance(board.is_stalemate(), bool)
    assert isinstance(board.is_game_over(), bool)
    board.outcome()
    assert 0 <= board.zobrist_hash() < 2 ** 64
    assert board.copy() == board
    str(board), board.unicode(), repr(board)
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IllegalMoveError):
        board.push(M("e0e1"))
    assert Board(None) == board


def test_empty_board_with_pieces_added():
    board = Board.empty()
    board.set_piece_at(S("e0"), Piece(KING, RED))
    board.set_piece_at(S("d9"), Piece(KING, BLACK))
    board.set_piece_at(S("a0"), Piece(ROOK, RED))
    assert board.fen() == "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"
    assert board == Board("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    assert board.zobrist_hash() == Board(board.fen()).zobrist_hash()
    assert board.legal_moves.count() == 14  # rook 9 + 3 along rank 0, king e1 f0 (d0 faces)
    assert board.perft(2) == Board(board.fen()).perft(2)


# ------------------------------------------------------------ range checks at the boundary

@pytest.mark.parametrize("value", [-1, 2 ** 31 - 1, 2 ** 31, 2 ** 64, 10 ** 6 + 1, 1.5, "3", None,
                                   True])
def test_halfmove_clock_out_of_range_is_a_value_error(value):
    board = Board()
    with pytest.raises(ValueError, match="halfmove clock"):
        board.halfmove_clock = value
    assert board.halfmove_clock == 0 and board.fen() == STARTING_FEN


@pytest.mark.parametrize("value", [0, -1, 2 ** 31, 10 ** 6 + 1, 2.0])
def test_fullmove_number_out_of_range_is_a_value_error(value):
    board = Board()
    with pytest.raises(ValueError, match="fullmove number"):
        board.fullmove_number = value
    assert board.fullmove_number == 1


def test_counters_at_their_limit_refuse_the_move_that_would_pass_it():
    board = Board()
    board.halfmove_clock = 1_000_000
    with pytest.raises(ValueError, match="halfmove clock would pass"):
        board.push_iccs("h2e2")
    assert board.fen().endswith(" 1000000 1") and board.move_stack == []
    # a capture resets the clock, so it may be played
    board = Board("4k4/9/9/9/4p4/4R4/9/9/9/3K5 w - - 1000000 7")
    board.push_iccs("e4e5")
    assert board.halfmove_clock == 0
    board = Board("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1000000")
    with pytest.raises(ValueError, match="fullmove number would pass"):
        board.push_iccs("e9e8")
    # every board a push can reach writes a FEN that reads back
    board = Board("4k4/9/9/9/9/9/9/9/9/3K5 w - - 999999 999999")
    board.push_iccs("d0d1")
    assert Board(board.fen()).fen() == board.fen()


@pytest.mark.parametrize("square", [-1, 90, 2 ** 31, 2 ** 70, 1.0, "a0", None])
def test_squares_out_of_range_are_value_errors(square):
    board = Board()
    for call in (lambda: board.piece_at(square), lambda: board.piece_type_at(square),
                 lambda: board.remove_piece_at(square),
                 lambda: board.set_piece_at(square, Piece(PAWN, RED)),
                 lambda: board.attackers(RED, square), lambda: board.is_attacked_by(RED, square)):
        with pytest.raises(ValueError, match="square"):
            call()
    assert board.fen() == STARTING_FEN


@pytest.mark.parametrize("depth", [-1, 65, 2 ** 31, 2 ** 70, 2.0])
def test_perft_depth_out_of_range_is_a_value_error(depth):
    with pytest.raises(ValueError, match="perft depth"):
        Board().perft(depth)
    with pytest.raises(ValueError, match="perft depth"):
        Board().perft_divide(depth)


# ------------------------------------------------------------ validate=False, is_valid()

@pytest.mark.parametrize("fen, piece", [
    # issue 11: each of these made two queries disagree
    ("3k5/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1", "red elephant on c5 is across the river"),
    ("9/9/9/9/9/9/9/9/9/2kAK4 w - - 0 1", "black king on c0 is outside its palace"),
    ("4K4/9/2b6/9/9/9/9/9/9/3k5 w - - 0 1", "red king on e9 is outside its palace"),
    ("3k5/9/9/9/9/9/9/9/4a4/4K4 w - - 0 1", "black advisor on e1 is outside its palace"),
])
def test_validate_false_refuses_what_no_board_can_hold(fen, piece):
    with pytest.raises(InvalidFenError, match=piece):
        Board(fen, validate=False)
    # the same pieces put there by hand
    board = Board.empty()
    with pytest.raises(ValueError, match=piece):
        for sq, pc in parse_fen(fen).placement:
            board.set_piece_at(sq, pc)


@pytest.mark.parametrize("fen, why", [
    ("3k5/9/9/9/9/9/9/9/9/9 w - - 0 1", "king is missing"),
    ("3k5/9/9/9/9/9/9/9/3A5/3K5 w - - 0 1", "advisor"),          # d1 is not an advisor point
    ("3k5/9/9/9/9/9/9/9/9/3KB4 w - - 0 1", "elephant"),          # e0 is not an elephant point
    ("3k5/9/9/9/9/9/9/9/P8/3K5 w - - 0 1", "pawn"),              # behind its start
    ("3k5/3R5/9/9/9/9/9/9/9/4K4 w - - 0 1", "in check"),         # black in check, red to move
])
def test_validate_false_accepts_positions_no_game_reaches(fen, why):
    with pytest.raises(InvalidFenError, match=why):
        Board(fen)
    board = Board(fen, validate=False)
    assert board.fen() == fen
    assert not board.is_valid()
    assert repr(board) == f"Board({fen!r}, validate=False)"
    _assert_queries_agree(board)


def test_is_valid():
    assert Board().is_valid()
    assert not Board.empty().is_valid()
    board = Board()
    board.remove_piece_at(S("a0"))
    assert board.is_valid()              # a missing rook is fine
    board.remove_piece_at(S("c0"))
    board.set_piece_at(S("e4"), Piece(ELEPHANT, RED))
    assert not board.is_valid()          # e4 is no elephant point


def _assert_queries_agree(board: Board) -> None:
    """One definition of legality and check on any board."""
    legal = list(board.legal_moves)
    assert len(legal) == len(set(legal)) == len(board.legal_moves) \
        == board.legal_moves.count() == board.perft(1)
    pushed = []
    for move in board.pseudo_legal_moves:
        assert board.is_pseudo_legal(move)
        after = board.copy()
        try:
            after.push(move)
        except IllegalMoveError:
            assert not board.is_legal(move)
            continue
        pushed.append(move)
        assert board.is_legal(move)
        assert board.gives_check(move) == after.is_check()
    assert set(pushed) == set(legal)
    assert board.is_check() == bool(board.checkers())
    assert board.is_checkmate() == (board.is_check() and not legal)
    assert board.is_stalemate() == (not board.is_check() and not legal)


def _random_board(rng: random.Random) -> Board:
    """Pieces anywhere a board can hold them (kings and advisors in their
    palace, elephants on their side), a king sometimes missing."""
    board = Board.empty()
    counts = {KING: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, ROOK: 2, CANNON: 2, PAWN: 5}
    for color in (RED, BLACK):
        for pt, most in counts.items():
            n = rng.randint(0, most) if pt != KING else int(rng.random() < 0.9)
            for _ in range(n):
                sq = rng.randrange(90)
                if board.piece_at(sq) is None:
                    try:
                        board.set_piece_at(sq, Piece(pt, color))
                    except ValueError:
                        pass            # not a point this piece can stand on: skipped
    board.turn = rng.random() < 0.5
    return board


def test_every_query_agrees_on_random_boards():
    rng = random.Random(zlib.crc32(b"validate=False"))
    for _ in range(300):
        board = _random_board(rng)
        _assert_queries_agree(board)
        assert Board(board.fen(), validate=False) == board


def test_history_keys_and_checks():
    board = Board("4k4/R8/9/9/9/9/9/9/8r/3K5 w - - 0 1")
    assert board.history_keys() == [board.zobrist_hash()]
    for m in ("a8a9", "e9e8", "a9a8", "e8e9"):
        board.push_iccs(m)
    keys = board.history_keys()
    assert len(keys) == 5 and keys[0] == keys[-1] == board.zobrist_hash()
    assert board.history_checks() == [False, True, False, True, False]
    board.push_iccs("a8a7")          # no capture: the history goes on
    assert len(board.history_keys()) == 6
    capture = Board("4k4/9/9/9/9/9/9/r8/R8/3K5 w - - 0 1")
    capture.push_iccs("a1a2")
    assert capture.history_keys() == [capture.zobrist_hash()]   # a capture starts it again


# ------------------------------------------------------------ python-chess habits

def test_piece_map_and_set_piece_map():
    board = Board()
    pieces = board.piece_map()
    assert len(pieces) == 32 and pieces[S("e0")] == Piece(KING, RED)
    board.push_iccs("h2e2")
    other = Board.empty()
    other.set_piece_map(pieces)
    assert other.board_fen() == Board().board_fen() and other.move_stack == []
    board.set_piece_map({S("e0"): Piece(KING, RED), S("d9"): Piece(KING, BLACK)})
    assert board.fen() == "3k5/9/9/9/9/9/9/9/9/4K4 b - - 1 1" and board.move_stack == []
    for bad in ({S("e5"): Piece(KING, RED)}, {90: Piece(PAWN, RED)},
                {sq: Piece(ROOK, RED) for sq in range(3)}):
        with pytest.raises(ValueError):
            board.set_piece_map(bad)
        assert board.fen() == "3k5/9/9/9/9/9/9/9/9/4K4 b - - 1 1"    # unchanged


def test_set_board_fen_keeps_turn_and_counters():
    board = Board("3k5/9/9/9/9/9/9/9/9/4K4 b - - 7 12")
    board.set_board_fen("4k4/9/9/9/9/9/9/9/9/3K5")
    assert board.fen() == "4k4/9/9/9/9/9/9/9/9/3K5 b - - 7 12"
    for bad in ("4k4/9/9", "4k4/9/9/9/9/9/9/9/9/3K5 w", "4K4/9/9/9/9/9/9/9/9/3k5", None):
        with pytest.raises(InvalidFenError):
            board.set_board_fen(bad)
    assert board.fen() == "4k4/9/9/9/9/9/9/9/9/3K5 b - - 7 12"


def test_mirror_swaps_colours_and_ranks():
    board = Board()
    board.push_iccs("h2e2")
    mirrored = board.mirror()
    assert mirrored.fen() == "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 1 1"
    assert mirrored.move_stack == [] and mirrored.mirror().board_fen() == board.board_fen()
    # the same position for the other colour: the moves correspond
    flip = {m.iccs()[0] + str(9 - int(m.iccs()[1])) + m.iccs()[2] + str(9 - int(m.iccs()[3]))
            for m in board.legal_moves}
    assert flip == {m.iccs() for m in mirrored.legal_moves}


def test_the_evaluation_is_colour_symmetric():
    # the engine sees a position and its mirror alike (the static evaluation,
    # side to move's view; a selective search may differ in its tree, since
    # move order decides what it prunes: tests/test_eval.py has more)
    from cxiangqi.engine import Engine
    engine = Engine(hash_mb=1)
    rng = random.Random(zlib.crc32(b"mirror"))
    for p in rng.sample([p for p in positions() if p["n_legal"] > 0], 200):
        board = Board(p["fen"])
        assert engine.evaluate(board) == engine.evaluate(board.mirror()), p["fen"]


def test_transform_flips_left_and_right():
    from cxiangqi import flip_horizontal, flip_vertical
    board = Board("3k5/9/9/9/9/9/9/9/1R7/4K4 w - - 3 9")
    assert board.transform(flip_horizontal).fen() == "5k3/9/9/9/9/9/9/9/7R1/4K4 w - - 3 9"
    assert Board().transform(flip_horizontal).board_fen() == Board().board_fen()
    with pytest.raises(ValueError):
        Board().transform(flip_vertical)           # kings would leave their palaces
    with pytest.raises(ValueError):
        Board().transform(lambda sq: 0)            # every piece on a0


def test_ply_result_find_move_clear_stack():
    board = Board()
    assert board.ply() == 0 and board.result() == "*"
    board.push(board.find_move(S("h2"), S("e2")))
    assert board.ply() == 1
    with pytest.raises(IllegalMoveError):
        board.find_move(S("h2"), S("e2"))
    board.clear_stack()
    assert board.move_stack == [] and board.ply() == 1
    with pytest.raises(IndexError):
        board.pop()
    mated = Board("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1")
    assert mated.result() == "1-0"


def test_can_claim_draw_only_for_a_plain_repetition():
    # horses going back and forth: a third occurrence with no check or chase
    board = Board()
    assert not board.can_claim_draw()
    for _ in range(2):
        for m in ("h0g2", "h9g7", "g2h0", "g7h9"):
            board.push_iccs(m)
    assert board.can_claim_draw() and board.result() == "*"
    assert board.result(claim_draw=True) == "1/2-1/2"
    # perpetual check is no draw: the checker loses, nothing to claim
    checks = Board("4k4/R8/9/9/9/9/9/9/8r/3K5 w - - 0 1")
    for _ in range(2):
        for m in ("a8a9", "e9e8", "a9a8", "e8e9"):
            checks.push_iccs(m)
    assert not checks.can_claim_draw() and checks.result() == "0-1"


def test_pins():
    # the black rook on e8 shields its king from the red rook: pinned, and
    # the red rook on e2 likewise from the black one
    board = Board("4k4/4r4/9/9/9/9/9/4R4/9/4K4 b - - 0 1")
    assert board.is_pinned(BLACK, S("e8")) and board.pin(BLACK, S("e8")) == [S("e2")]
    assert board.is_pinned(RED, S("e2")) and board.pin(RED, S("e2")) == [S("e8")]
    assert not board.is_pinned(RED, S("e8")) and not board.is_pinned(BLACK, S("a0"))
    # two screens before a cannon: each one is pinned
    cannon = Board("4k4/9/9/4c4/9/9/4N4/4R4/9/4K4 w - - 0 1")
    assert cannon.pin(RED, S("e3")) == cannon.pin(RED, S("e2")) == [S("e6")]
    # a piece on a horse's leg
    horse = Board("3k5/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1")
    assert horse.pin(RED, S("d1")) == [S("d2")]
    # the last piece between the kings
    kings = Board("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1")
    assert kings.pin(RED, S("e5")) == [S("e9")]


def test_variation_in_wxf_and_chinese():
    board = Board()
    moves = [Move.from_iccs(m) for m in ("h2e2", "h9g7", "h0g2")]
    assert board.variation_wxf(moves) == "1. C2=5 H8+7 2. H2+3"
    assert board.variation_chinese(moves) == "1. 炮二平五 马８进７ 2. 马二进三"
    assert board.variation_chinese(moves, traditional=True) == "1. 炮二平五 馬８進７ 2. 傌二進三"
    with pytest.raises(IllegalMoveError, match="ply 2"):
        board.variation_wxf([moves[0], moves[0]])
    assert board.fen() == STARTING_FEN


def test_setting_a_counter_is_an_edit_that_clears_the_stack():
    # found by the fuzz run: fullmove_number = 1 after Black's move, then
    # pop, left the fullmove number at 0 (a FEN that does not read back)
    board = Board()
    board.push_iccs("h2e2")
    board.push_iccs("h9g7")
    board.fullmove_number = 1
    assert board.move_stack == [] and board.fen().endswith(" 2 1")
    with pytest.raises(IndexError):
        board.pop()
    board.push_iccs("h0g2")
    board.halfmove_clock = 0
    assert board.move_stack == [] and Board(board.fen()).fen() == board.fen()


def test_chase_helpers_of_the_board():
    # what the referee (cxiangqi.rules) asks of a board, through its own API
    from test_chase import ISSUE_GAME
    board = Board()
    for text in ISSUE_GAME[:-1]:
        board.push_iccs(text)
    last = Move.from_iccs(ISSUE_GAME[-1])           # f7f8: the rook is chased again
    assert board.chased_squares(last) == set()      # Red's rook move chases nothing
    board.push(last)
    assert board.chase_mask(4) == 2                 # Black (to move) chased with every move
    with pytest.raises(ValueError):
        board.chase_mask(0)
    with pytest.raises(ValueError):
        board.chase_mask(True)
    with pytest.raises(ValueError, match="not a legal move"):
        board.chased_squares(Move.from_iccs("a0a5"))
    from cxiangqi.engine import Engine
    with pytest.raises(TypeError):
        Engine(hash_mb=1).evaluate(board.fen())
