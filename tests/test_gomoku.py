"""Gomoku (五子棋): rules, save files, line patterns and the computer player."""
from __future__ import annotations

import random
import threading
from functools import lru_cache
from typing import Iterable, List, Sequence, Tuple

import pytest

from cxiangqi import _gomoku
from cxiangqi.gomoku import LEVELS as GOMOKU_LEVELS
from cxiangqi.gomoku import BLACK, WHITE, Board, analyse, best_move

Point = Tuple[int, int]
DIRS = [(0, 1), (1, 0), (1, 1), (1, -1)]


# Filler stones: the points with 2*row + 3*col divisible by 7 are never on a
# common line within four steps of each other, so they make no pattern among
# themselves; setup() uses the ones more than four steps from the stones under
# test first (they cannot touch their patterns), then, on small boards, the
# ones more than one step away.
def _fillers(size: int, avoid: Iterable[Point]) -> List[Point]:
    avoid = list(avoid)
    c = (size - 1) / 2

    def dist(p: Point) -> int:
        return min((max(abs(p[0] - a[0]), abs(p[1] - a[1])) for a in avoid), default=99)

    cand = [(r, col) for r in range(size) for col in range(size)
            if (2 * r + 3 * col) % 7 == 0 and dist((r, col)) > 1]
    return sorted(cand, key=lambda p: (dist(p) <= 4, -(abs(p[0] - c) + abs(p[1] - c))))


def setup(size: int, black: Sequence[Point], white: Sequence[Point], turn=None,
          clear: Sequence[Point] = ()) -> Board:
    """A board with these stones, played alternately in the order given
    (Black first); far filler stones (more than four steps from the stones
    and from the points in `clear`) are added to make the colours
    alternate, and to give the move to `turn` when it is set."""
    black, white = list(black), list(white)
    spare = _fillers(size, black + white + list(clear))
    while not (len(white) <= len(black) <= len(white) + 1) or (
            turn is BLACK and len(black) != len(white)) or (
            turn is WHITE and len(black) != len(white) + 1):
        (white if len(white) < len(black) else black).append(spare.pop(0))
    board = Board(size)
    for i in range(len(black) + len(white)):
        board.push(black[i // 2] if i % 2 == 0 else white[i // 2])
    return board


def five_points(board: Board, color) -> List[Point]:
    """Empty points where `color` would make five (found by brute force)."""
    out = []
    size = board.size
    for r in range(size):
        for c in range(size):
            if board.color_at((r, c)) is not None:
                continue
            for dr, dc in DIRS:
                n = 1
                for s in (1, -1):
                    rr, cc = r + s * dr, c + s * dc
                    while 0 <= rr < size and 0 <= cc < size and board.color_at((rr, cc)) is color:
                        n += 1
                        rr, cc = rr + s * dr, cc + s * dc
                if n >= 5:
                    out.append((r, c))
                    break
    return out


# --- the board ------------------------------------------------------------------------------

def test_new_board():
    board = Board()
    assert board.size == 15
    assert board.turn is BLACK
    assert board.move_stack == []
    assert len(board.legal_moves) == 225 and (7, 7) in board.legal_moves
    assert board.winner() is None and board.winning_line() is None
    assert not board.is_draw() and not board.is_game_over()
    assert board.result() == "*"
    assert BLACK.other is WHITE and WHITE.other is BLACK


@pytest.mark.parametrize("size", [5, 9, 19])
def test_sizes(size):
    board = Board(size)
    assert len(list(board.legal_moves)) == size * size
    board.push((size - 1, size - 1))
    assert board.color_at((size - 1, size - 1)) is BLACK


@pytest.mark.parametrize("size, exc", [(4, ValueError), (20, ValueError), (0, ValueError),
                                       ("15", TypeError), (15.0, TypeError), (True, TypeError)])
def test_bad_sizes(size, exc):
    with pytest.raises(exc):
        Board(size)


def test_push_pop_turns():
    board = Board()
    board.push((7, 7))
    assert board.turn is WHITE and board.color_at((7, 7)) is BLACK
    board.push((0, 14))
    assert board.turn is BLACK and board.color_at((0, 14)) is WHITE
    assert board.move_stack == [(7, 7), (0, 14)] and board.peek() == (0, 14)
    assert (7, 7) not in board.legal_moves and len(board.legal_moves) == 223
    assert board.pop() == (0, 14)
    assert board.pop() == (7, 7)
    assert board.color_at((7, 7)) is None and board.turn is BLACK
    with pytest.raises(IndexError):
        board.pop()


def _snapshot(board: Board):
    return (board.to_text(), board.turn, board.winner(), len(board.legal_moves), str(board))


@pytest.mark.parametrize("point, exc", [
    ((7, 7), ValueError),           # occupied
    ((-1, 3), ValueError), ((3, -1), ValueError), ((15, 0), ValueError), ((0, 15), ValueError),
    ((99, 99), ValueError),
    ((1,), ValueError), ((1, 2, 3), ValueError),
    ("77", TypeError), ("a", TypeError), (None, TypeError), (7, TypeError), (b"ab", TypeError),
    ((1.0, 2), TypeError), ((1, "2"), TypeError), ((True, 1), TypeError), ((None, None), TypeError),
])
def test_bad_push_raises_and_changes_nothing(point, exc):
    board = Board()
    board.push((7, 7))
    board.push((7, 8))
    before = _snapshot(board)
    with pytest.raises(exc):
        board.push(point)
    assert _snapshot(board) == before
    assert point not in board.legal_moves


def test_occupied_message_names_the_point():
    board = Board()
    board.push((3, 4))
    with pytest.raises(ValueError, match=r"\(3, 4\).*occupied"):
        board.push((3, 4))
    with pytest.raises(ValueError, match="off the 15x15 board"):
        board.push((15, 4))


def test_list_points_are_accepted():
    board = Board()
    board.push([7, 7])
    assert board.move_stack == [(7, 7)]


def test_copy_is_independent():
    board = setup(15, [(7, 7), (7, 8)], [(8, 8)])
    other = board.copy()
    assert other == board and other.to_text() == board.to_text()
    other.push((0, 0))
    assert board.color_at((0, 0)) is None and board.turn is WHITE
    assert other != board
    board.pop()
    assert other.color_at((7, 8)) is BLACK


def test_str_diagram():
    board = setup(9, [(4, 4)], [(0, 8)])
    text = str(board)
    lines = text.splitlines()
    assert len(lines) == 10
    assert lines[0].split() == [str(c) for c in range(9)]
    assert lines[5].split()[0] == "4" and "X" in lines[5]
    assert "[O]" in lines[1]          # the last stone is bracketed
    assert text.count("X") == 1 and text.count("O") == 1
    assert "9" in repr(board) and "black to move" in repr(board)


# --- winning ----------------------------------------------------------------------------------

def _line(start: Point, d: Point, n: int) -> List[Point]:
    return [(start[0] + k * d[0], start[1] + k * d[1]) for k in range(n)]


# (size, start, direction) of fives along each direction: in the middle, along
# the edges and into the corners
WIN_LINES = [(15, (5, 5), (0, 1)), (15, (5, 5), (1, 0)), (15, (5, 5), (1, 1)), (15, (5, 9), (1, -1)),
             (15, (0, 0), (0, 1)), (15, (14, 10), (0, 1)),       # top and bottom edge rows
             (15, (0, 0), (1, 0)), (15, (10, 14), (1, 0)),       # left and right edge columns
             (15, (0, 0), (1, 1)), (15, (10, 10), (1, 1)),       # main diagonal, both corners
             (15, (0, 14), (1, -1)), (15, (10, 4), (1, -1)),     # anti-diagonal, both corners
             (15, (0, 10), (1, 1)), (15, (10, 0), (1, 1)),       # short diagonals ending in a corner
             (15, (0, 4), (1, -1)), (15, (10, 14), (1, -1)),
             (19, (18, 14), (0, 1)), (19, (14, 0), (1, 1)), (9, (4, 0), (1, 1))]


@pytest.mark.parametrize("size, start, d", WIN_LINES)
@pytest.mark.parametrize("last", [0, 2, 4])
def test_five_wins_in_every_direction(size, start, d, last):
    five = _line(start, d, 5)
    board = setup(size, [p for i, p in enumerate(five) if i != last], [], turn=BLACK)
    assert board.winner() is None and not board.is_game_over()
    board.push(five[last])
    assert board.winner() is BLACK
    assert board.winning_line() == sorted(five)
    assert board.is_game_over() and not board.is_draw() and board.result() == "1-0"
    assert len(board.legal_moves) == 0 and list(board.legal_moves) == []


@pytest.mark.parametrize("start, d", [((0, 0), (1, 1)), ((0, 4), (1, -1)), ((2, 0), (0, 1)),
                                      ((0, 3), (1, 0))])
def test_five_on_the_smallest_board(start, d):
    five = _line(start, d, 5)
    others = [(r, c) for r in range(5) for c in range(5) if (r, c) not in five]
    white = others[::3][:4]
    board = setup(5, five[:4], white)
    board.push(five[4])
    assert board.winner() is BLACK and board.winning_line() == sorted(five)


def test_white_wins():
    five = _line((3, 9), (1, -1), 5)
    board = setup(15, [], five[:4], turn=WHITE)
    board.push(five[4])
    assert board.winner() is WHITE and board.result() == "0-1"
    assert board.winning_line() == sorted(five)


def test_four_is_not_a_win():
    board = setup(15, _line((2, 2), (1, 1), 4), [])
    assert board.winner() is None
    board = setup(15, [(7, 3), (7, 4), (7, 5), (7, 7), (7, 8)], [])
    assert board.winner() is None         # a gap is not five


def test_overline_wins():
    # X X X _ X X: filling the gap makes six in a row, which wins (freestyle)
    board = setup(15, [(4, 1), (4, 2), (4, 3), (4, 5), (4, 6)], [], turn=BLACK)
    board.push((4, 4))
    assert board.winner() is BLACK
    assert board.winning_line() == [(4, c) for c in range(1, 7)]


def test_overline_of_seven_on_a_diagonal():
    line = _line((1, 1), (1, 1), 7)
    black = line[:3] + line[4:]
    board = setup(15, black, [], turn=BLACK)
    board.push(line[3])
    assert board.winner() is BLACK and board.winning_line() == line


def test_no_move_after_a_win():
    board = setup(15, _line((7, 3), (0, 1), 5), [])
    assert board.winner() is BLACK
    before = _snapshot(board)
    with pytest.raises(ValueError, match="over"):
        board.push((10, 10))
    with pytest.raises(ValueError):
        best_move(board, "easy")
    assert _snapshot(board) == before
    assert board.pop() == (7, 7)
    assert board.winner() is None and board.winning_line() is None
    assert board.turn is BLACK and (10, 10) in board.legal_moves


# A full 5x5 board without five in a row: rows alternate XXOOX / OOXXO,
# 13 black and 12 white stones.
DRAW_ROWS = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"]


def test_draw_on_a_full_small_board():
    black = [(r, c) for r in range(5) for c in range(5) if DRAW_ROWS[r][c] == "X"]
    white = [(r, c) for r in range(5) for c in range(5) if DRAW_ROWS[r][c] == "O"]
    assert len(black) == 13 and len(white) == 12
    rng = random.Random(3)
    for _ in range(5):
        rng.shuffle(black)
        rng.shuffle(white)
        board = Board(5)
        for i in range(25):
            assert not board.is_game_over()
            board.push(black[i // 2] if i % 2 == 0 else white[i // 2])
            assert board.winner() is None
        assert board.is_draw() and board.is_game_over() and board.result() == "1/2-1/2"
        assert board.winning_line() is None and len(board.legal_moves) == 0
        with pytest.raises(ValueError, match="full"):
            board.push((0, 0))
        with pytest.raises(ValueError):
            best_move(board, "easy")
        board.pop()
        assert not board.is_draw() and len(board.legal_moves) == 1


def test_win_with_the_last_point_is_a_win_not_a_draw():
    # 5x5: Black's 13th stone fills the board and completes the middle row
    rows = ["XOOXO", "OXOOX", "XXXXX", "OOXOX", "XOOXO"]
    black = [(r, c) for r in range(5) for c in range(5) if rows[r][c] == "X"]
    white = [(r, c) for r in range(5) for c in range(5) if rows[r][c] == "O"]
    assert len(black) == 13 and len(white) == 12
    black.remove((2, 2))
    black.append((2, 2))
    board = setup(5, black, white)
    assert board.winner() is BLACK and not board.is_draw()
    assert board.winning_line() == [(2, c) for c in range(5)]


# --- save files -------------------------------------------------------------------------------

def random_game(rng: random.Random, size: int, max_plies: int) -> Board:
    board = Board(size)
    while not board.is_game_over() and len(board.move_stack) < max_plies:
        board.push(rng.choice(list(board.legal_moves)))
    return board


def test_text_format():
    board = setup(15, [(7, 7), (8, 8)], [(7, 8)])
    assert board.to_text() == "gomoku 1\nsize 15\nmoves 7,7 7,8 8,8\n"
    assert Board(9).to_text() == "gomoku 1\nsize 9\nmoves\n"


@pytest.mark.parametrize("seed", range(12))
def test_text_round_trip(seed):
    rng = random.Random(seed)
    size = rng.choice([5, 7, 15, 19])
    board = random_game(rng, size, rng.randint(0, size * size))
    text = board.to_text()
    again = Board.from_text(text)
    assert again == board and again.to_text() == text
    assert again.winner() == board.winner() and again.winning_line() == board.winning_line()
    assert again.is_draw() == board.is_draw() and again.turn == board.turn
    assert str(again) == str(board)


def test_text_tolerates_comments_blank_lines_and_crlf():
    text = "# saved by cxiangqi\r\n\r\ngomoku 1\r\n  size 9  \r\nmoves 4,4   3,3\r\n"
    board = Board.from_text(text)
    assert board.size == 9 and board.move_stack == [(4, 4), (3, 3)]
    assert Board.from_text("gomoku 1\nsize 7\n").move_stack == []


@pytest.mark.parametrize("text", [
    "", "\n\n", "garbage", "gomoku 2\nsize 15\nmoves\n", "GOMOKU 1\nsize 15\n",
    "size 15\nmoves 7,7\n", "gomoku 1\nmoves 7,7\n", "gomoku 1\nsize\n", "gomoku 1\nsize x\n",
    "gomoku 1\nsize 4\n", "gomoku 1\nsize 20\n", "gomoku 1\nsize -15\n", "gomoku 1\nsize 1e3\n",
    "gomoku 1\nsize 99999999999999999999\n", "gomoku 1\nsize 15\nsize 15\n",
    "gomoku 1\nsize 15\nmoves 7,7\nmoves 8,8\n", "gomoku 1\nsize 15\nturn black\n",
    "gomoku 1\nsize 15\nmoves 7,7 7,7\n", "gomoku 1\nsize 15\nmoves 7,7 15,0\n",
    "gomoku 1\nsize 15\nmoves 7;7\n", "gomoku 1\nsize 15\nmoves 7,\n", "gomoku 1\nsize 15\nmoves ,7\n",
    "gomoku 1\nsize 15\nmoves 7,7,7\n", "gomoku 1\nsize 15\nmoves -1,3\n", "gomoku 1\nsize 15\nmoves a,b\n",
    "gomoku 1\nsize 15\nmoves 7,7 ٣,٣\n", "gomoku 1\nsize 15\nmoves 007,7\n",
    "gomoku 1\nsize 15\nmoves 0,0 1,0 0,1 1,1 0,2 1,2 0,3 1,3 0,4 1,4\n",     # move after the win
    "gomoku 1\nsize 5\nmoves " + " ".join(f"{r},{c}" for r in range(5) for c in range(5)) + " 0,0\n",
])
def test_corrupt_text_raises_value_error(text):
    with pytest.raises(ValueError):
        Board.from_text(text)


def test_from_text_type_error():
    with pytest.raises(TypeError):
        Board.from_text(b"gomoku 1\nsize 15\n")  # type: ignore[arg-type]


def test_mangled_text_never_crashes():
    rng = random.Random(11)
    texts = [random_game(rng, s, 40).to_text() for s in (5, 9, 15)]
    alphabet = "0123456789, \n#-gomkusizev\x00é"
    for _ in range(1500):
        text = list(rng.choice(texts))
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(text))
            op = rng.random()
            if op < 0.4:
                text[i] = rng.choice(alphabet)
            elif op < 0.7:
                del text[i]
            else:
                text.insert(i, rng.choice(alphabet))
        try:
            board = Board.from_text("".join(text))
        except ValueError:
            continue
        assert Board.from_text(board.to_text()) == board


# --- line patterns (the AI's view of the board) -------------------------------------------------

P_NONE, P_ONE, P_TWO, P_OPEN2, P_THREE, P_OPEN3, P_FOUR, P_OPEN4, P_FIVE = range(9)
C_NONE, C_OPEN3, C_33, C_FOUR, C_43, C_FLEX4, C_FIVE = range(7)


@lru_cache(maxsize=None)
def ref_pattern(cells: Tuple[int, ...]) -> int:
    """The pattern a stone at cells[4] makes (1 own, 0 empty, 2 blocked), by
    the definitions, straight from the cells."""
    cells = cells[:4] + (1,) + cells[5:]
    if any(all(cells[k] == 1 for k in range(j, j + 5)) for j in range(5)):
        return P_FIVE
    subs = [ref_pattern(cells[:i] + (1,) + cells[i + 1:]) for i in range(9) if cells[i] == 0]
    fives = subs.count(P_FIVE)
    if fives:
        return P_OPEN4 if fives >= 2 else P_FOUR
    best = max(subs, default=-1)
    return {P_OPEN4: P_OPEN3, P_FOUR: P_THREE, P_OPEN3: P_OPEN2, P_THREE: P_TWO,
            P_OPEN2: P_ONE, P_TWO: P_ONE}.get(best, P_NONE)


def ref_patterns(board: Board, p: Point, color) -> List[int]:
    out = []
    for dr, dc in DIRS:
        cells = []
        for k in range(-4, 5):
            r, c = p[0] + k * dr, p[1] + k * dc
            if not (0 <= r < board.size and 0 <= c < board.size):
                cells.append(2)
            else:
                st = board.color_at((r, c))
                cells.append(0 if st is None else 1 if st is color else 2)
        out.append(ref_pattern(tuple(cells)))
    return out


def core_patterns(board: Board, p: Point, color) -> List[int]:
    return board._pos.line_patterns(p[0] * board.size + p[1], 0 if color is BLACK else 1)


def core_class(board: Board, p: Point, color) -> int:
    return board._pos.point_class(p[0] * board.size + p[1], 0 if color is BLACK else 1)


@pytest.mark.parametrize("row, expected", [
    ("_MXXX_", P_OPEN4), ("OMXXX_", P_FOUR), ("MX_XX", P_FOUR), ("M_XXX_", P_FOUR),
    ("X_XMX_X", P_OPEN4),                   # two five points on one line
    ("X_MXX_X", P_OPEN4), ("M_XXX_X", P_FOUR),
    ("__MXX__", P_OPEN3), ("_MX_X_", P_OPEN3), ("OMXX__", P_THREE), ("O_MXX_O", P_THREE),
    ("M_X_X", P_THREE), ("__MX__", P_OPEN2), ("OMX___", P_TWO), ("OMX__O", P_NONE),
    ("__M__", P_ONE), ("O_M_O", P_NONE), ("MXXXX", P_FIVE), ("XMXXXX", P_FIVE),
])
@pytest.mark.parametrize("direction", range(4))
def test_line_patterns(row, expected, direction):
    # what a stone on M makes with the X stones of `row` (O: White's), the row
    # laid along `direction` through the middle of the board
    dr, dc = DIRS[direction]
    r0, c0 = (7 - dr * 3, 7 - dc * 3)
    at = [(r0 + i * dr, c0 + i * dc) for i in range(len(row))]
    me = at[row.index("M")]
    black = [p for p, ch in zip(at, row) if ch == "X"]
    white = [p for p, ch in zip(at, row) if ch == "O"]
    board = setup(15, black, white, clear=at)
    assert core_patterns(board, me, BLACK)[direction] == expected
    assert ref_patterns(board, me, BLACK)[direction] == expected
    # and the same shape in White's stones
    board = setup(15, white, black, turn=BLACK, clear=at)
    assert core_patterns(board, me, WHITE)[direction] == expected


def test_patterns_match_the_definitions_on_random_positions():
    rng = random.Random(5)
    for _ in range(10):
        size = rng.choice([7, 11, 15])
        board = random_game(rng, size, rng.randint(10, size * size // 2))
        for color in (BLACK, WHITE):
            for p in board.legal_moves:
                assert core_patterns(board, p, color) == ref_patterns(board, p, color), (board, p)


def test_incremental_state_matches_a_fresh_board():
    # make/unmake keep keys, classes and scores exactly as a replay would
    rng = random.Random(9)
    for _ in range(25):
        size = rng.choice([5, 9, 15, 19])
        pos = _gomoku.Position(size)
        for _ in range(rng.randint(1, size * size)):
            empties = [q for q in range(size * size) if pos.stone_at(q) == 0]
            if pos.count and rng.random() < 0.3:
                pos.pop()
            elif empties:
                pos.push(rng.choice(empties))
        ref = _gomoku.Position(size)
        for q in pos.moves():
            ref.push(q)
        assert pos.hash() == ref.hash() and pos.evaluate() == ref.evaluate()
        for side in (0, 1):
            assert pos.threat_counts(side) == ref.threat_counts(side)
            for q in range(size * size):
                assert pos.point_class(q, side) == ref.point_class(q, side)


@pytest.mark.parametrize("black, cls", [
    ([(7, 4), (7, 5), (7, 6)], C_FLEX4),                            # an open four
    ([(7, 4), (7, 5), (7, 6), (4, 7), (5, 7), (6, 7)], C_FLEX4),    # two open fours
    ([(7, 4), (7, 5), (7, 6), (8, 7), (9, 7)], C_FLEX4),            # an open four and a three
    ([(7, 5), (7, 6), (8, 7), (9, 7)], C_33),                       # two open threes
    ([(7, 5), (7, 6)], C_OPEN3),
    ([(7, 5), (7, 6), (7, 8)], C_FLEX4),                            # fills _XX_X_: an open four
    ([(7, 5), (7, 6), (5, 7)], C_OPEN3),                            # one three, one split two
    ([], C_NONE),
])
def test_point_classes(black, cls):
    # what a black stone on (7, 7) makes
    board = setup(15, black, [], clear=[(7, 7)])
    assert core_class(board, (7, 7), BLACK) == cls


def test_point_class_four_three():
    # (7, 7): a closed four down the column and an open three along the row
    board = setup(15, [(7, 5), (7, 6), (8, 7), (9, 7), (10, 7)], [(11, 7)])
    assert core_class(board, (7, 7), BLACK) == C_43
    # and with the row blocked too, just a four
    board = setup(15, [(7, 5), (7, 6), (8, 7), (9, 7), (10, 7)], [(11, 7), (7, 4)])
    assert core_class(board, (7, 7), BLACK) == C_FOUR


# --- the computer player --------------------------------------------------------------------------

LEVELS = ["easy", "normal", "hard"]
FAST = {"easy": None, "normal": 0.2, "hard": 0.3}


def ai(board: Board, level: str, seed: int = 0) -> Point:
    return best_move(board, level, time_limit=FAST[level], rng=random.Random(seed))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("size", [5, 9, 15, 19])
def test_empty_board_gets_the_centre(level, size):
    c = size // 2
    assert ai(Board(size), level) == (c, c)


# Black to move in each: (black, white, the points that win)
WIN_IN_ONE = [
    ([(7, 7), (7, 8), (7, 9), (7, 10)], [(7, 6)], {(7, 11)}),
    ([(3, 3), (4, 4), (6, 6), (7, 7)], [(2, 2), (8, 8)], {(5, 5)}),                 # the gap
    ([(10, 0), (11, 0), (12, 0), (13, 0)], [(9, 0)], {(14, 0)}),                    # into the corner
    ([(0, 10), (1, 11), (2, 12), (3, 13)], [], {(4, 14)}),                          # along the edge
    # both sides have a four: winning beats blocking
    ([(7, 3), (7, 4), (7, 5), (7, 6)], [(8, 3), (8, 4), (8, 5), (8, 6), (7, 2)], {(7, 7)}),
    # an open four of White's does not matter either
    ([(2, 2), (3, 3), (4, 4), (5, 5)], [(1, 1), (10, 6), (10, 7), (10, 8), (10, 9)], {(6, 6)}),
    # make five with the gap of X X _ X X rather than extend elsewhere
    ([(9, 2), (9, 3), (9, 5), (9, 6), (8, 8), (7, 8)], [(9, 1), (9, 7), (6, 8), (5, 8)], {(9, 4)}),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", range(len(WIN_IN_ONE)))
def test_finds_a_win_in_one(level, case):
    black, white, wins = WIN_IN_ONE[case]
    board = setup(15, black, white, turn=BLACK)
    assert set(five_points(board, BLACK)) == wins
    for seed in range(3):
        mv = ai(board, level, seed)
        assert mv in wins
        after = board.copy()
        after.push(mv)
        assert after.winner() is BLACK


# White to move and Black threatens five: (black, white, the block)
BLOCK_FOUR = [
    ([(7, 6), (7, 7), (7, 8), (7, 9)], [(7, 5)], (7, 10)),              # closed four on a row
    ([(3, 3), (3, 4), (3, 6), (3, 7)], [], (3, 5)),                     # split four: the gap
    ([(1, 1), (2, 2), (3, 3), (4, 4)], [(5, 5)], (0, 0)),               # into the corner
    ([(14, 10), (13, 11), (12, 12), (11, 13)], [], (10, 14)),           # anti-diagonal, edge
    ([(6, 7), (8, 7), (9, 7), (10, 7)], [(11, 7)], (7, 7)),             # column, X_XXX
    # White has an open three of its own, which is too slow
    ([(7, 6), (7, 7), (7, 8), (7, 9), (0, 7)], [(7, 5), (10, 4), (10, 5), (10, 6)], (7, 10)),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", range(len(BLOCK_FOUR)))
def test_blocks_a_four(level, case):
    black, white, block = BLOCK_FOUR[case]
    board = setup(15, black, white, turn=WHITE)
    assert five_points(board, BLACK) == [block] and not five_points(board, WHITE)
    for seed in range(3):
        assert ai(board, level, seed) == block


@pytest.mark.parametrize("level", LEVELS)
def test_blocks_an_end_of_an_open_four(level):
    # an open four cannot be stopped, but the move still blocks one end
    board = setup(15, [(7, 5), (7, 6), (7, 7), (7, 8)], [], turn=WHITE)
    assert set(five_points(board, BLACK)) == {(7, 4), (7, 9)}
    assert ai(board, level) in {(7, 4), (7, 9)}


@pytest.mark.parametrize("level", LEVELS)
def test_makes_an_open_four(level):
    # Black has an open three and White nothing to answer with: the open four wins
    board = setup(15, [(7, 6), (7, 7), (7, 8)], [], turn=BLACK)
    assert ai(board, level) in {(7, 5), (7, 9)}


# White to move; Black's open (or split) three must be answered
OPEN_THREES = [
    ([(7, 6), (7, 7), (7, 8)], [(6, 6)]),
    ([(5, 5), (6, 6), (8, 8)], [(9, 5)]),            # split three on the diagonal
    ([(3, 10), (4, 10), (5, 10)], []),               # column
    ([(2, 3), (3, 2), (4, 1)], [(6, 6)]),            # anti-diagonal towards the edge
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", range(len(OPEN_THREES)))
def test_answers_an_open_three(level, case):
    black, white = OPEN_THREES[case]
    board = setup(15, black, white, turn=WHITE)
    assert any(core_class(board, p, BLACK) == C_FLEX4 for p in board.legal_moves)
    assert not any(core_class(board, p, WHITE) >= C_FOUR for p in board.legal_moves)
    for seed in range(3):
        mv = ai(board, level, seed)
        after = board.copy()
        after.push(mv)
        # after White's answer no Black stone makes an open four (or a double four)
        assert not any(core_class(after, p, BLACK) == C_FLEX4 for p in after.legal_moves), mv


@pytest.mark.parametrize("level", LEVELS)
def test_never_plays_an_occupied_point(level):
    rng = random.Random(17)
    for _ in range(12 if level == "easy" else 5):
        size = rng.choice([5, 7, 15])
        board = random_game(rng, size, rng.randint(0, size * size - 1))
        if board.is_game_over():
            continue
        mv = best_move(board, level, time_limit=0.05, rng=rng)
        assert mv in board.legal_moves
        board.push(mv)


def test_last_empty_point():
    black = [(r, c) for r in range(5) for c in range(5) if DRAW_ROWS[r][c] == "X"]
    white = [(r, c) for r in range(5) for c in range(5) if DRAW_ROWS[r][c] == "O"]
    board = setup(5, black[:12], white)
    for level in LEVELS:
        assert ai(board, level) == black[12]


def test_level_and_argument_errors():
    board = Board()
    with pytest.raises(ValueError):
        best_move(board, "grandmaster")
    with pytest.raises(ValueError):
        best_move(board, "easy", time_limit=0)
    with pytest.raises(TypeError):
        best_move("not a board", "easy")  # type: ignore[arg-type]


def test_ai_vs_ai_game_reaches_a_result():
    rng = random.Random(4)
    board = Board(15)
    for p in [(7, 7), (6, 8)]:
        board.push(p)
    levels = {BLACK: "normal", WHITE: "easy"}
    while not board.is_game_over():
        level = levels[board.turn]
        board.push(best_move(board, level, time_limit=0.1, rng=rng))
    assert board.winner() is not None or board.is_draw()
    assert board.winning_line() is None or len(board.winning_line()) >= 5
    assert Board.from_text(board.to_text()) == board


def test_small_board_self_play_ends():
    board = Board(7)
    rng = random.Random(2)
    while not board.is_game_over():
        board.push(best_move(board, "easy", rng=rng))
    assert board.result() in ("1-0", "0-1", "1/2-1/2")


def test_time_limit_ends_the_search_before_its_depth():
    # "hard" goes 20 plies deep when it has the time; a tenth of a second
    # stops it long before (how well the time is kept is measured in
    # benchmarks/bench_robustness.py, not asserted here)
    board = setup(15, [(7, 7), (8, 8), (6, 9)], [(7, 8), (9, 9)])
    result = analyse(board, "hard", time_limit=0.1)
    assert result.reason == "search" and result.depth < GOMOKU_LEVELS["hard"].depth
    assert board.is_legal(result.move)


def test_search_releases_the_gil():
    # While the computer thinks in another thread, this thread runs Python
    # code; with the GIL held through the search it could not run before
    # the search was over, so the search must still be running when this
    # thread's work is done.
    board = setup(15, [(7, 7), (8, 8)], [(7, 8)])
    started = threading.Event()

    def think():
        started.set()
        best_move(board, "hard", time_limit=2.0)

    t = threading.Thread(target=think)
    t.start()
    assert started.wait(10)
    total = sum(i * i for i in range(200_000))          # plain Python work
    assert total > 0
    assert t.is_alive(), "the search ended before Python code could run beside it"
    t.join(30)
    assert not t.is_alive()


def test_bad_levels_and_time_limits_are_value_errors():
    import dataclasses
    base = GOMOKU_LEVELS["easy"]
    for field, value in (("depth", 0), ("depth", 2 ** 40), ("time", float("nan")),
                         ("nodes", -1), ("tt_bits", 64), ("vcf_nodes", 2 ** 63), ("width", 1.5)):
        with pytest.raises(ValueError, match=field):
            dataclasses.replace(base, **{field: value})
    board = setup(15, [(7, 7)], [])
    for limit in (0, -1, float("nan"), float("inf"), "1", True):
        with pytest.raises(ValueError, match="time_limit"):
            best_move(board, "easy", time_limit=limit)
