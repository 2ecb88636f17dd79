"""Replaying real games from games.jsonl, and rejecting the illegal records."""
from __future__ import annotations

import pytest

from conftest import chunks, games, games_rejected

from cxiangqi import STARTING_FEN, Board, IllegalMoveError, Move

GAMES = games()
REJECTED = games_rejected()
GAME_CHUNKS = chunks(GAMES, 150)


def test_data_shape():
    assert len(GAMES) == 3000
    assert len(REJECTED) == 4
    for g in GAMES[:50]:
        assert len(g["final_fen"].split()) == 6
        assert g["plies"] == len(g["moves"])


def _replay(g):
    board = Board()
    for ply, text in enumerate(g["moves"], 1):
        try:
            move = board.push_iccs(text)
        except ValueError as exc:
            return board, f"ply {ply} {text}: {type(exc).__name__}: {exc} (fen {board.fen()})"
        if move.iccs() != text:
            return board, f"ply {ply}: push_iccs({text!r}) returned {move.iccs()!r}"
    return board, None


@pytest.mark.parametrize("chunk", GAME_CHUNKS, ids=lambda c: f"from{GAMES.index(c[0])}")
def test_games_replay_to_final_fen(chunk):
    """Board and side to move always; the full-move number too (it is
    1 + plies // 2 for games starting from the standard position)."""
    problems = []
    for g in chunk:
        board, error = _replay(g)
        if error:
            problems.append(f"{g['source']}: {error}")
            continue
        want = g["final_fen"].split()
        got = board.fen().split()
        if got[:2] != want[:2] or got[5] != want[5]:
            problems.append(f"{g['source']}: final fen {board.fen()!r}, expected {g['final_fen']!r}")
        if len(board.move_stack) != len(g["moves"]):
            problems.append(f"{g['source']}: move_stack has {len(board.move_stack)} moves")
    assert problems == [], "\n".join(problems[:10])


@pytest.mark.parametrize("chunk", GAME_CHUNKS[:4], ids=lambda c: f"from{GAMES.index(c[0])}")
def test_games_halfmove_clock(chunk):
    """The recorded half-move clock counts plies since the last capture
    (pawn moves do not reset it: the Chinese 60-move rule is about captures)."""
    problems = []
    for g in chunk:
        board, error = _replay(g)
        assert error is None, error
        if board.fen() != g["final_fen"]:
            problems.append(f"{g['source']}: {board.fen()!r} != {g['final_fen']!r}")
    assert problems == [], "\n".join(problems[:10])


def test_games_unwind_to_start():
    """Popping a whole game restores the start position and hash exactly."""
    start_key = Board().zobrist_hash()
    for g in GAMES[:100]:
        board, error = _replay(g)
        assert error is None, error
        for text in reversed(g["moves"]):
            assert board.pop() == Move.from_iccs(text)
        assert board.fen() == STARTING_FEN
        assert board.zobrist_hash() == start_key


@pytest.mark.parametrize("rec", REJECTED, ids=[str(i) for i in range(len(REJECTED))])
def test_rejected_records(rec):
    moves = rec["moves"]
    bad = rec["first_illegal_ply"]
    # first_illegal_ply counts the legal plies before the illegal one:
    # the illegal move is moves[first_illegal_ply] (0-based), i.e. it is ply
    # first_illegal_ply + 1 in 1-based numbering, and it is the last recorded move.
    assert moves[bad] == rec["illegal_move"]
    assert len(moves) == bad + 1

    board = Board()
    for text in moves[:bad]:
        board.push_iccs(text)
    before_fen = board.fen()
    before_key = board.zobrist_hash()
    before_stack = list(board.move_stack)
    assert len(before_stack) == bad

    with pytest.raises(IllegalMoveError) as excinfo:
        board.push_iccs(rec["illegal_move"])
    assert isinstance(excinfo.value, ValueError)
    assert str(excinfo.value)
    assert board.fen() == before_fen
    assert board.zobrist_hash() == before_key
    assert board.move_stack == before_stack
    assert len(board.move_stack) == bad

    move = Move.from_iccs(rec["illegal_move"])
    assert not board.is_legal(move)
    assert move not in board.legal_moves
    with pytest.raises(IllegalMoveError):
        board.push(move)
    with pytest.raises(IllegalMoveError):
        board.parse_iccs(rec["illegal_move"])
    assert board.fen() == before_fen
    assert len(board.move_stack) == bad
    # the board is still fully usable (in three of the records the game was
    # already over and the illegal move is a move after mate)
    for move in list(board.legal_moves)[:5]:
        board.push(move)
        board.pop()
    assert board.fen() == before_fen
    assert board.copy() == board


def test_rejected_records_replay_with_push_loop():
    """Replaying each rejected record move by move stops exactly at the recorded ply."""
    for rec in REJECTED:
        board = Board()
        failed_at = None
        for index, text in enumerate(rec["moves"]):
            try:
                board.push_iccs(text)
            except IllegalMoveError:
                failed_at = index
                break
        assert failed_at == rec["first_illegal_ply"]
