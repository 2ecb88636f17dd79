"""Static exchange evaluation (the search's SEE), on positions whose
exchanges can be worked out by hand."""
from __future__ import annotations

import pytest

from cxiangqi import Board
from cxiangqi._search import see_at_least


def see(fen: str, iccs: str, threshold: int) -> bool:
    board = Board(fen)
    move = board.parse_iccs(iccs)
    return see_at_least(board._core, move.from_square * 90 + move.to_square, threshold)


# kings on different files throughout; Red moves
UNDEFENDED = "5k3/9/9/9/4p4/9/9/9/4R4/3K5 w - - 0 1"
PAWN_DEFENDS = "5k3/9/9/4p4/4p4/9/9/9/4R4/3K5 w - - 0 1"
ROOK_DEFENDS = "4rk3/9/9/9/4p4/9/9/9/4R4/3K5 w - - 0 1"
DOUBLED_ROOKS = "4rk3/9/9/9/4p4/9/9/9/4R4/3KR4 w - - 0 1"
CANNON_BEHIND_SCREEN = "5k3/4c4/9/4P4/4p4/9/9/9/4R4/3K5 w - - 0 1"
KING_DEFENDS = "4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1"
KING_CANNOT_TAKE = "4k4/4a4/9/3N5/9/9/9/9/4R4/3K5 w - - 0 1"
HORSE_LEG_BLOCKED = "5k3/9/3n5/3P5/4p4/9/9/9/4R4/3K5 w - - 0 1"
HORSE_LEG_FREE = "5k3/9/3n5/9/4p4/9/9/9/4R4/3K5 w - - 0 1"


@pytest.mark.parametrize("fen, move, threshold, expected", [
    # a free pawn: exactly its value
    (UNDEFENDED, "e1e5", 0, True),
    (UNDEFENDED, "e1e5", 100, True),
    (UNDEFENDED, "e1e5", 101, False),
    # a rook for a pawn when a pawn takes back: -800
    (PAWN_DEFENDS, "e1e5", 0, False),
    (PAWN_DEFENDS, "e1e5", -800, True),
    (PAWN_DEFENDS, "e1e5", -799, False),
    # rook takes back, and the rook behind ours (x-ray) takes again: +100
    (ROOK_DEFENDS, "e1e5", 0, False),
    (DOUBLED_ROOKS, "e1e5", 0, True),
    (DOUBLED_ROOKS, "e1e5", 100, True),
    (DOUBLED_ROOKS, "e1e5", 101, False),
    # a cannon takes back over the screen on e6 (our own pawn)
    (CANNON_BEHIND_SCREEN, "e1e5", 0, False),
    # the king takes back an advisor's capturer...
    (KING_DEFENDS, "e1e8", 0, False),
    (KING_DEFENDS, "e1e8", -700, True),
    # ...but not when our horse on d6 guards e8
    (KING_CANNOT_TAKE, "e1e8", 200, True),
    (KING_CANNOT_TAKE, "e1e8", 201, False),
    # a horse defends only over an empty leg
    (HORSE_LEG_BLOCKED, "e1e5", 100, True),
    (HORSE_LEG_FREE, "e1e5", 0, False),
    # a quiet move: a piece left where a pawn takes it loses it
    (PAWN_DEFENDS, "e1e3", 0, True),
    (UNDEFENDED, "e1d1", 0, True),
    ("5k3/9/9/9/9/3p5/9/9/4R4/3K5 w - - 0 1", "e1e4", 0, False),
    ("5k3/9/9/9/9/3p5/9/9/4R4/3K5 w - - 0 1", "e1e4", -900, True),
])
def test_exchanges_worked_out_by_hand(fen, move, threshold, expected):
    assert see(fen, move, threshold) is expected


def test_bad_arguments_are_value_errors():
    board = Board(UNDEFENDED)
    with pytest.raises(ValueError, match="out of range"):
        see_at_least(board._core, 8100, 0)
    with pytest.raises(ValueError, match="out of range"):
        see_at_least(board._core, 0, 10 ** 6)
    with pytest.raises(ValueError, match="not a move"):
        see_at_least(board._core, 0, 0)


def test_none_for_a_position_is_a_type_error_not_a_read_of_none():
    # a typed argument accepts None unless told otherwise, and the core would
    # then read the None object as if it were a position
    from cxiangqi._search import Searcher, eval_features
    searcher = Searcher(1)
    for call in (lambda: see_at_least(None, 0, 0), lambda: eval_features(None),
                 lambda: searcher.setup(None), lambda: searcher.evaluate(None),
                 lambda: searcher.quiet_line(None), lambda: searcher.share_table(None)):
        with pytest.raises(TypeError, match="NoneType"):
            call()
