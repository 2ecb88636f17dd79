"""The desktop game's words and files, without a display: line breaking by
the rules of Chinese typesetting, translated error kinds, why a move is
illegal, what the editor says about a position, and opening records of
every format by their content."""

import doctest
import importlib
import re
from pathlib import Path

import pytest

from cxiangqi import Board, InvalidFenError, Move

from pyfrontend.i18n import NO_END, NO_START, TEXT, break_lines, error_detail, error_kind, error_text, tr
from pyfrontend.xiangqi import explain, files
from pyfrontend.xiangqi.controller import HVC, HVH, GameController
from pyfrontend.xiangqi.pages import HISTORY, RULES
from pyfrontend.settings import Settings

from conftest import DATA

RAW = DATA / "raw"


@pytest.mark.parametrize("name", ["pyfrontend.i18n", "pyfrontend.xiangqi.explain",
                                  "pyfrontend.xiangqi.files", "pyfrontend.xiangqi.editor",
                                  "pyfrontend.xiangqi.controller", "pyfrontend.gomoku.controller"])
def test_module_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_every_label_has_both_languages_and_the_same_fields():
    for key, (zh, en) in TEXT.items():
        assert zh and en, key
        assert set(re.findall(r"{(\w+)}", zh)) == set(re.findall(r"{(\w+)}", en)), key


def widths(text):
    """A font where a CJK character is 2 units wide and anything else 1."""
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text)


def check_lines(lines):
    for i, line in enumerate(lines):
        assert line, f"empty line {i} in {lines}"
        assert line[0] not in NO_START, f"line starts with closing punctuation: {line!r}"
        assert line[-1] not in NO_END, f"line ends with opening punctuation: {line!r}"
        if i and lines[i - 1][-1].isdigit():
            assert not line[0].isdigit(), f"a number is split: {lines[i - 1]!r} / {line!r}"


@pytest.mark.parametrize("width", [16, 23, 30, 41, 57, 80])
def test_rules_and_history_texts_break_by_the_rules_at_every_width(width):
    texts = [t for _, t, _ in RULES] + [t for _, t in HISTORY]
    for zh, en in texts:
        for text in (zh, en):
            lines = break_lines(text, width, widths)
            check_lines(lines)
            assert "".join(lines).replace(" ", "") == text.replace(" ", "")
            for line in lines:
                assert widths(line) <= width or len(line.split()) == 1


def test_the_breaks_the_issue_reported_do_not_happen():
    text = RULES[-1][1][0]                   # 长将作负: "六十回合（120 步）"
    for width in range(10, 60):
        lines = break_lines(text, width, widths)
        joined = "\n".join(lines)
        assert "（1\n" not in joined and "\n20 步" not in joined
        assert not any(line.startswith("。") for line in lines)
    modern = HISTORY[3][1][0]
    for width in range(10, 60):
        lines = break_lines(modern, width, widths)
        assert "1956" not in lines and not any(line.startswith("年") for line in lines)


def test_error_kinds_are_translated_and_the_detail_kept_clean():
    try:
        Board("rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR x")
    except InvalidFenError as exc:
        fen_error = exc
    assert error_kind(fen_error) == "err_fen"
    text = error_text(fen_error, "zh")
    assert text.startswith("无效的 FEN\n详情：") and "invalid FEN" not in text
    assert error_text(fen_error, "en").startswith("Invalid FEN\nDetails: ")
    assert error_kind(FileNotFoundError(2, "No such file", "x.pgn")) == "err_missing"
    junk = ValueError("bad byte \x00\x01\xff\ufffd here " + "x" * 500)
    detail = error_detail(junk)
    assert "\x00" not in detail and "\ufffd" not in detail and len(detail) <= 240


@pytest.mark.parametrize("fen, move, reason", [
    ("3k5/9/9/9/9/4P4/4N4/9/9/4K4 w - - 0 1", "e3d5", "horse_leg"),
    ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e0e1", None),
    ("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "e1d2", "flying_general"),
    ("4k4/9/9/9/9/9/9/4B4/3N5/3K5 w - - 0 1", "e2e4", "elephant_step"),
    ("4k4/9/9/9/9/9/9/4B4/3N5/3K5 w - - 0 1", "e2c0", "elephant_eye"),
    ("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1", "c4e6", "elephant_river"),
    ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e0e2", "king_step"),
    ("3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1", "f0g0", "king_palace"),
    ("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1", "e3d3", "pawn_side"),
    ("3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", "e5e4", "pawn_back"),
    ("3k5/9/9/9/9/9/9/1C7/9/4K4 w - - 0 1", "b2b9", None),
    ("3k5/9/9/9/9/9/1p7/1C7/9/4K4 w - - 0 1", "b2b5", "blocked"),
    ("3k5/9/9/9/9/9/9/1C5r1/9/4K4 w - - 0 1", "b2h2", "cannon_screen"),
    ("3k5/9/9/9/9/9/9/R8/9/4K4 w - - 0 1", "a2b3", "rook_line"),
    ("3k5/4r4/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "e1d2", "in_check"),
    ("3k5/9/9/9/9/9/9/9/3r5/3K5 w - - 0 1", "d0e0", None),
    ("5k3/9/9/9/3r5/9/9/9/9/N2K5 w - - 0 1", "a0b2", "still_in_check"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "a0a3", "own_piece"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "a9a8", "not_your_piece"),
])
def test_why_a_move_is_illegal(fen, move, reason):
    board = Board(fen)
    assert explain.illegal_reason(board, Move.from_iccs(move)) == reason
    if reason is not None:
        assert tr(reason, "zh") != reason and tr(reason, "en") != reason


def test_the_editor_says_what_is_wrong_in_chinese():
    for fen, words in [("9/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "缺少黑方的帅（将）"),
                       ("3k5/9/9/9/9/9/9/9/9/RRR1K4 w - - 0 1", "红方的车太多了"),
                       ("3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1", "a0 的红方帅（将）不在九宫里"),
                       ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "将帅照面")]:
        with pytest.raises(InvalidFenError) as info:
            Board(fen)
        assert words in explain.position_problem(error_detail(info.value), "zh")


# --- records of every format -------------------------------------------------------------

def test_records_are_told_apart_by_their_content(tmp_path):
    assert files.detect_format((RAW / "xqf" / "test.xqf").read_bytes()) == "xqf"
    assert files.detect_format((RAW / "xqf" / "test.cbr").read_bytes()) == "cbr"
    assert files.detect_format((RAW / "xqf" / "test.cbf").read_bytes()) == "cbf"
    assert files.detect_format((RAW / "dhtmlxq" / "116.html").read_bytes()) == "dhtmlxq"
    assert files.detect_format((RAW / "xqf" / "test2.pgn").read_bytes()) == "pgn"
    big5 = next((RAW / "ccpd_pgn_big5").glob("master_*.pgn"))
    assert files.detect_format(big5.read_bytes()) == "pgn"
    # the name does not matter: an XQF file called .pgn is still read as XQF
    disguised = tmp_path / "game.pgn"
    disguised.write_bytes((RAW / "xqf" / "test.xqf").read_bytes())
    game = files.read_record(disguised)
    assert game.headers["Red"] == "柳大华" and len(list(game.mainline_moves())) == 110


def test_a_file_that_is_no_record_gets_a_clear_translated_error(tmp_path):
    junk = tmp_path / "photo.pgn"
    junk.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(files.RecordFormatError) as info:
        files.read_record(junk)
    text = error_text(info.value, "zh")
    assert text.startswith("这不是能识别的棋谱文件") and "\x00" not in text and "\\x" not in text
    assert error_text(info.value, "en").startswith("This is not a game record")
    game = files.read_record(RAW / "xqf" / "test.cbf")      # CBF is read (cxiangqi.records)
    assert list(game.mainline_moves())


@pytest.mark.parametrize("path, plies, red", [
    ("xqf/test.xqf", 110, "柳大华"),
    ("xqf/030-黄松轩先胜冯敬如.XQF", None, None),
    ("dhtmlxq/116.html", 85, "DING Wa Chong"),
    ("wukong_Hu_Ronghua_UCI_first5.pgn", None, None),
])
def test_a_record_opens_for_review_at_its_start(path, plies, red):
    c = GameController(Settings(), mode=HVC, move_delay=0)
    game = files.read_record(RAW / path)
    c.load_game(game, name=Path(path).name)
    n = len(list(game.mainline_moves()))
    assert n > 0 and (plies is None or n == plies)
    assert len(c.board.move_stack) == n and c.review_ply == 0
    assert c.shown_board().fen() == game.board().fen()
    assert c.mode == HVH and not c.busy                 # nobody's computer moves in a record
    assert c.record_name == Path(path).name
    if red:
        assert c.players().startswith(red)
    c.review(None)
    if c.outcome is None:
        assert c.review_ply is None and c.human_to_move()
