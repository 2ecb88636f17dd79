"""FEN reading, writing and validation."""
from __future__ import annotations

import random

import pytest

import cxiangqi
from conftest import bad_fens, positions

from cxiangqi import (BLACK, RED, STARTING_FEN, Board, InvalidFenError, Move,
                      Piece)

BAD = bad_fens()
BAD_BY_ID = {b["id"]: b for b in BAD}
START_BOARD = STARTING_FEN.split()[0]


def mirror(fen: str) -> str:
    """The same position seen with colours swapped: ranks reversed, case
    swapped, side to move swapped.  Valid <-> valid, invalid <-> invalid."""
    fields = fen.split()
    rows = fields[0].split("/")
    fields[0] = "/".join(row.swapcase() for row in reversed(rows))
    fields[1] = {"w": "b", "b": "w"}[fields[1]]
    return " ".join(fields)


def _reject(fen) -> InvalidFenError:
    with pytest.raises(InvalidFenError) as excinfo:
        Board(fen)
    return excinfo.value


# ------------------------------------------------------------ bad_fens.jsonl

def test_bad_fens_data_shape():
    assert len(BAD) == 48
    assert sorted(BAD_BY_ID) == list(range(1, 49))


@pytest.mark.parametrize("entry", BAD, ids=[f"{b['id']}" for b in BAD])
def test_bad_fen_rejected(entry):
    exc = _reject(entry["fen"])
    assert isinstance(exc, ValueError)
    message = str(exc)
    assert message.strip(), f"empty message for {entry['reason']}"
    # a message is for a person: it is not a whole 100 kB input echoed back
    assert len(message) < 1000


@pytest.mark.parametrize("entry", BAD, ids=[f"{b['id']}" for b in BAD])
def test_bad_fen_rejected_by_set_fen_board_unchanged(entry):
    board = Board()
    board.push_iccs("h2e2")
    board.push_iccs("h9g7")
    fen, key, stack = board.fen(), board.zobrist_hash(), list(board.move_stack)
    with pytest.raises(InvalidFenError):
        board.set_fen(entry["fen"])
    assert board.fen() == fen
    assert board.zobrist_hash() == key
    assert board.move_stack == stack
    assert board.turn is RED
    # still works
    board.push_iccs("b0c2")
    assert board.pop() == Move.from_iccs("b0c2")


# Messages must name the problem.  Each class below lists ids and words of
# which at least one must appear in the (lower-cased) message.
MESSAGE_CLASSES = {
    "row count": ([6, 7], ("row", "rank")),
    "row width": ([8, 9, 10, 11, 12, 13], ("row", "rank", "file", "column", "width")),
    "letter": ([15, 16, 17, 18, 19], ("piece", "letter", "character", "symbol")),
    "side": ([20, 21, 48], ("side", "turn", "colo", "to move")),
    "counter": ([22, 23], ("clock", "counter", "move number", "halfmove", "half-move",
                           "fullmove", "full-move", "integer", "number")),
    "fields": ([24, 46], ("field", "part", "token", "extra", "trailing")),
    "king count": ([25, 26, 27, 28, 29], ("king", "general")),
    "not to move in check": ([30, 31, 32], ("check", "fac", "flying", "general", "attack")),
    "pawn": ([33, 34, 35], ("pawn", "soldier")),
    "elephant": ([36, 37, 38], ("elephant", "bishop", "minister")),
    "advisor": ([39, 40], ("advisor", "guard", "assistant")),
    "king palace": ([41, 42, 43], ("king", "general", "palace")),
    "too many": ([44, 45], ("many", "rook", "pawn", "chariot", "soldier", "at most", "more than")),
}


def _message(fen: str) -> str:
    """The error message with the offending FEN itself blanked out, so that
    checks on the wording cannot be satisfied by an echo of the input."""
    return str(_reject(fen)).replace(fen, "<FEN>")


@pytest.mark.parametrize("cls", MESSAGE_CLASSES, ids=list(MESSAGE_CLASSES))
def test_bad_fen_message_names_problem(cls):
    ids, words = MESSAGE_CLASSES[cls]
    for i in ids:
        message = _message(BAD_BY_ID[i]["fen"]).lower()
        assert any(w in message for w in words), (
            f"id {i} ({BAD_BY_ID[i]['reason']}): message {message!r} mentions none of {words}")


def test_bad_fen_messages_are_specific():
    """Different kinds of problem give different messages (no generic 'invalid FEN')."""
    seen = {}
    for cls, (ids, _) in MESSAGE_CLASSES.items():
        for i in ids:
            seen.setdefault(_message(BAD_BY_ID[i]["fen"]), set()).add(cls)
    shared = {m: c for m, c in seen.items() if len(c) > 1}
    assert shared == {}
    assert len(seen) >= len(MESSAGE_CLASSES)


def test_bad_letter_message_names_letter():
    for i, letter in ((15, "q"), (16, "X"), (19, "+")):
        assert letter in _message(BAD_BY_ID[i]["fen"])


def test_huge_inputs_rejected_quickly():
    huge = [BAD_BY_ID[4]["fen"], BAD_BY_ID[5]["fen"],
            "r" * 1_000_000 + " w - - 0 1",
            "/".join(["rnbakabnr"] * 100_000) + " w - - 0 1",
            STARTING_FEN + " 0" * 100_000,
            START_BOARD + " w - - " + "9" * 100_000 + " 1"]
    assert len(huge[0]) > 100_000 and len(huge[1]) > 20_000
    for fen in huge:
        # refused on its length, before it is split or parsed (no work in
        # proportion to it; the time it takes is in benchmarks/bench_robustness.py)
        with pytest.raises(InvalidFenError, match=f"it is {len(fen)} characters long") as info:
            Board(fen)
        assert len(str(info.value)) < 300          # the message does not repeat the input


def test_non_string_fen():
    for value in (b"rnbakabnr/9 w", 42, ["w"]):
        with pytest.raises((InvalidFenError, TypeError)):
            Board(value)


# ------------------------------------------------------- accepted variants

def test_black_to_move_accepted():
    fen = START_BOARD + " b - - 0 1"
    board = Board(fen)
    assert board.turn is BLACK
    assert board.fen() == fen
    assert board.legal_moves.count() == 44
    assert Move.from_iccs("h7e7") in board.legal_moves


@pytest.mark.parametrize("text,expected", [
    (START_BOARD + " w", STARTING_FEN),
    (START_BOARD + " b", START_BOARD + " b - - 0 1"),
    (START_BOARD + " w -", STARTING_FEN),
    (START_BOARD + " w - -", STARTING_FEN),
    (START_BOARD + " w - - 7", START_BOARD + " w - - 7 1"),
    (START_BOARD + " b - - 3 12", START_BOARD + " b - - 3 12"),
])
def test_optional_fields(text, expected):
    board = Board(text)
    assert board.fen() == expected
    assert len(board.fen().split()) == 6


def test_board_fen_and_clocks():
    board = Board(START_BOARD + " b - - 17 42")
    assert board.board_fen() == START_BOARD
    assert board.halfmove_clock == 17
    assert board.fullmove_number == 42
    assert board.turn is BLACK


def test_default_and_none():
    assert Board().fen() == STARTING_FEN
    assert Board(STARTING_FEN) == Board()
    empty = Board(None)
    assert empty.fen() == "9/9/9/9/9/9/9/9/9/9 w - - 0 1"
    assert empty == Board.empty()


# ------------------------------------------------------------- round trips

ROUND_TRIP = random.Random(3).sample(positions(), 1500) + [p for p in positions() if "tag" in p]


def test_fen_round_trip_positions():
    problems = []
    for p in ROUND_TRIP:
        fen = p["fen"]
        board = Board(fen)
        if board.fen() != fen:
            problems.append(f"{fen!r} -> {board.fen()!r}")
            continue
        again = Board(board.fen())
        if again != board or again.zobrist_hash() != board.zobrist_hash():
            problems.append(f"{fen!r}: Board(board.fen()) differs")
        board2 = Board()
        board2.set_fen(fen)
        if board2.fen() != fen or board2 != board:
            problems.append(f"{fen!r}: set_fen differs")
    assert problems == [], "\n".join(problems[:20])


def test_repr_round_trip():
    namespace = {name: getattr(cxiangqi, name) for name in dir(cxiangqi) if not name.startswith("_")}
    for p in ROUND_TRIP[:300]:
        board = Board(p["fen"])
        text = repr(board)
        assert text == f"Board({p['fen']!r})"
        assert eval(text, namespace) == board


def test_repr_round_trip_set_up_boards():
    """Boards the API hands out that no FEN validation would accept (the empty
    board, boards edited with set_piece_at/remove_piece_at) still repr to
    something that evals back to an equal board."""
    namespace = {name: getattr(cxiangqi, name) for name in dir(cxiangqi) if not name.startswith("_")}
    boards = [Board.empty()]
    no_king = Board()
    no_king.remove_piece_at(cxiangqi.E0)
    boards.append(no_king)
    odd = Board()
    odd.remove_piece_at(cxiangqi.C0)
    odd.set_piece_at(cxiangqi.E4, Piece(cxiangqi.ELEPHANT, RED))  # not an elephant point
    boards.append(odd)
    for board in boards:
        again = eval(repr(board), namespace)
        assert again == board
        assert again.fen() == board.fen()
        assert again.zobrist_hash() == board.zobrist_hash()


def test_set_fen_resets_stack_and_state():
    board = Board()
    board.push_iccs("h2e2")
    target = "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 5 30"
    board.set_fen(target)
    assert board.fen() == target
    assert board.move_stack == []
    assert board.turn is BLACK
    assert board.halfmove_clock == 5 and board.fullmove_number == 30
    assert board.zobrist_hash() == Board(target).zobrist_hash()
    with pytest.raises(IndexError):
        board.pop()


# --------------------------------------------------- specific rejections

K = "3k5/9/9/9/9/9/9/9/9/4K4"  # a minimal legal skeleton (kings d9, e0)


def _valid(fen):
    board = Board(fen)
    assert board.fen().split()[:2] == fen.split()[:2]
    return board


# (valid with two/five of a type, invalid with one more)
TOO_MANY = {
    "advisor": ("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", "3k5/9/9/9/9/9/9/9/4A4/3AKA3 w - - 0 1"),
    "elephant": ("3k5/9/9/9/9/9/9/9/9/2B1K1B2 w - - 0 1", "3k5/9/9/9/9/9/9/4B4/9/2B1K1B2 w - - 0 1"),
    "horse": ("3k5/9/9/9/9/9/9/9/9/NN2K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/NNN1K4 w - - 0 1"),
    "rook": ("3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/RRR1K4 w - - 0 1"),
    "cannon": ("3k5/9/9/9/9/9/9/9/9/CC2K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/CCC1K4 w - - 0 1"),
    "pawn": ("3k5/9/9/PPPPP4/9/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/PPPPPP3/9/9/9/9/9/4K4 w - - 0 1"),
    "king": ("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "3k5/9/9/9/9/9/9/9/4K4/5K3 w - - 0 1"),
}


@pytest.mark.parametrize("kind", TOO_MANY)
@pytest.mark.parametrize("flip", [False, True], ids=["red", "black"])
def test_too_many_pieces(kind, flip):
    ok, bad = TOO_MANY[kind]
    if flip:
        ok, bad = mirror(ok), mirror(bad)
    _valid(ok)
    _reject(bad)


PLACEMENT = [
    # (description, valid fen, invalid fen)
    ("king outside palace c0", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/2K6 w - - 0 1"),
    ("king outside palace e3", "3k5/9/9/9/9/9/9/4K4/9/9 w - - 0 1", "3k5/9/9/9/9/9/4K4/9/9/9 w - - 0 1"),
    ("king outside palace g1", "3k5/9/9/9/9/9/9/9/5K3/9 w - - 0 1", "3k5/9/9/9/9/9/9/9/6K2/9 w - - 0 1"),
    ("advisor d1", "3k5/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/3A5/4K4 w - - 0 1"),
    ("advisor e2", "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/4A4/9/4K4 w - - 0 1"),
    ("advisor e0", "5k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", "5k3/9/9/9/9/9/9/9/9/3KA4 w - - 0 1"),
    ("advisor c2 outside palace", "3k5/9/9/9/9/9/9/5A3/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/2A6/9/4K4 w - - 0 1"),
    ("elephant e4", "3k5/9/9/9/9/6B2/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/4B4/9/9/9/4K4 w - - 0 1"),
    ("elephant c2", "3k5/9/9/9/9/9/9/B8/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/2B6/9/4K4 w - - 0 1"),
    ("elephant d1", "3k5/9/9/9/9/9/9/8B/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/3B5/4K4 w - - 0 1"),
    ("elephant across river c5", "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1"),
    ("pawn behind start rank a2", "3k5/9/9/9/9/9/P8/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/P8/9/4K4 w - - 0 1"),
    ("pawn behind start rank c0", "3k5/9/9/9/9/2P6/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/2P1K4 w - - 0 1"),
    ("pawn on b file before river", "3k5/9/9/9/1P7/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1"),
    ("pawn on d file before river", "3k5/9/9/3P5/9/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/3P5/9/9/9/4K4 w - - 0 1"),
    ("pawn on f file before river", "3k5/9/9/9/9/9/6P2/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/5P3/9/9/4K4 w - - 0 1"),
    ("pawn on h file before river", "3k5/9/9/9/7P1/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/7P1/9/9/9/4K4 w - - 0 1"),
]


@pytest.mark.parametrize("desc,ok,bad", PLACEMENT, ids=[p[0] for p in PLACEMENT])
@pytest.mark.parametrize("flip", [False, True], ids=["red", "black"])
def test_piece_placement(desc, ok, bad, flip):
    if flip:
        ok, bad = mirror(ok), mirror(bad)
    _valid(ok)
    _reject(bad)


# (valid: the checked side is to move; invalid: the other side is to move)
NOT_TO_MOVE_IN_CHECK = {
    "rook": "R3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1",
    "horse": "4k4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1",
    "cannon with screen": "4k4/9/9/9/4p4/9/9/9/9/3KC4 b - - 0 1",
    "cannon with own screen": "4k4/9/9/9/4P4/9/9/9/9/3KC4 b - - 0 1",
    "pawn": "4k4/4P4/9/9/9/9/9/9/9/3K5 b - - 0 1",
    "pawn sideways": "3kP4/9/9/9/9/9/9/9/9/4K4 b - - 0 1",
}


@pytest.mark.parametrize("kind", NOT_TO_MOVE_IN_CHECK)
@pytest.mark.parametrize("flip", [False, True], ids=["red", "black"])
def test_side_not_to_move_in_check(kind, flip):
    ok = NOT_TO_MOVE_IN_CHECK[kind]
    bad = ok.replace(" b ", " w ")
    if flip:
        ok, bad = mirror(ok), mirror(bad)
    board = _valid(ok)
    assert board.is_check()
    _reject(bad)


@pytest.mark.parametrize("fen", [
    "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
    "5k3/9/9/9/9/9/9/5K3/9/9 b - - 0 1",
    "rnba1kbnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1KBNR w - - 0 1",
])
def test_facing_kings_rejected(fen):
    _reject(fen)


def test_facing_kings_with_blocker_accepted():
    _valid("4k4/9/9/9/4C4/9/9/9/9/4K4 w - - 0 1")
    _valid("4k4/9/9/9/4C4/9/9/9/9/4K4 b - - 0 1")
    _valid("5k3/9/9/9/9/5n3/9/9/9/5K3 w - - 0 1")


@pytest.mark.parametrize("fen", [
    START_BOARD + " w - - 0 -3",
    START_BOARD + " w - - 1.5 1",
    START_BOARD + " w - - ٣ 1",          # non-ASCII digit
    START_BOARD + " red - - 0 1",
    START_BOARD + " w - - 0 1 0",
    START_BOARD.replace("9", "１", 1) + " w - - 0 1",   # full-width digit
    START_BOARD + "/ w - - 0 1",
    "/" + START_BOARD + " w - - 0 1",
    START_BOARD.replace("RNBAKABNR", "RNBAKABN") + " w - - 0 1",
    "w " + START_BOARD,
    START_BOARD + "\x00 w - - 0 1",
])
def test_other_malformed(fen):
    _reject(fen)


def test_board_unchanged_after_failed_set_fen_from_other_position():
    board = Board("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 3 9")
    board.set_piece_at(cxiangqi.A0, Piece(cxiangqi.ROOK, RED))
    fen, key = board.fen(), board.zobrist_hash()
    for bad in ("3k5/9/9/9/9/9/9/9/4A4/3AKA3 w - - 0 1", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "x"):
        with pytest.raises(InvalidFenError):
            board.set_fen(bad)
        assert board.fen() == fen
        assert board.zobrist_hash() == key
