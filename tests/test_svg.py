"""SVG board pictures: well-formed XML, every piece drawn with its
character where it stands, orientation, marks, arrows, notebook hook."""
import xml.etree.ElementTree as ET

import pytest

from cxiangqi import BLACK, Board, Move, parse_square
from cxiangqi import svg

NS = {"s": "http://www.w3.org/2000/svg"}


def _tree(text):
    return ET.fromstring(text)


def _pieces(root):
    out = {}
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        cls = g.get("class", "")
        if cls.startswith("piece"):
            circle = g.find("s:circle", NS)
            text = g.find("s:text", NS)
            out[(float(circle.get("cx")), float(circle.get("cy")))] = (cls.split()[-1], text.text)
    return out


def test_start_position_has_all_32_pieces_in_place():
    root = _tree(svg.board(Board()))
    pieces = _pieces(root)
    assert len(pieces) == 32
    # red king on e0: bottom middle; black king on e9: top middle
    x, y = svg.MARGIN + 4 * svg.STEP, svg.MARGIN + 9 * svg.STEP
    assert pieces[(x, y)] == ("K", "帅")
    assert pieces[(x, svg.MARGIN)] == ("k", "将")
    assert "楚 河" in svg.board(Board()) and "汉 界" in svg.board(Board())


def test_orientation_turns_the_board():
    red_view = _pieces(_tree(svg.board(Board())))
    black_view = _pieces(_tree(svg.board(Board(), orientation=BLACK)))
    x = svg.MARGIN + 4 * svg.STEP
    assert black_view[(x, svg.MARGIN)] == ("K", "帅")
    assert black_view[(x, svg.MARGIN + 9 * svg.STEP)] == ("k", "将")
    assert len(black_view) == len(red_view) == 32


def test_marks_arrows_and_size():
    board = Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
    text = svg.board(board, lastmove=Move.from_iccs("e1d1"), check=parse_square("d9"),
                     arrows=[Move.from_iccs("e1d1"), (parse_square("e0"), parse_square("e1"))],
                     size=300)
    root = _tree(text)
    assert root.get("width") == "300"
    classes = [el.get("class") for el in root.iter() if el.get("class")]
    assert classes.count("lastmove") == 2
    assert classes.count("check") == 1
    assert classes.count("arrow") == 2


def test_traditional_characters_and_empty_grid():
    text = svg.board(Board(), traditional=True)
    assert "帥" in text and "將" in text and "俥" in text
    empty = _tree(svg.board())
    assert _pieces(empty) == {}


def test_board_repr_svg_marks_last_move_and_check():
    board = Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
    board.push_iccs("e1d1")                       # check along the d-file
    root = _tree(board._repr_svg_())
    classes = [el.get("class") for el in root.iter() if el.get("class")]
    assert classes.count("lastmove") == 2 and classes.count("check") == 1
