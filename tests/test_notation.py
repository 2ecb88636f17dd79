"""Move notation: WXF, Chinese (simplified and traditional), whole lines.

Hand cases for every form, then the real games of games.jsonl written and
read back, a differential check of WXF against Fairy-Stockfish (pyffish),
and the Big5 Chinese-notation records of raw/ccpd_pgn_big5 parsed to their
known ICCS moves.
"""
from __future__ import annotations

import json
import re

import pytest

from conftest import DATA, chunks, games, iccs_to_ffish

from cxiangqi import PAWN, AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move
from cxiangqi import notation
from cxiangqi.notation import (chinese, format_line, move_list, parse_chinese, parse_move,
                               parse_wxf, wxf)

START = Board().fen()
AFTER_C2_5 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"

# Each case: FEN, ICCS move, WXF, Chinese (simplified), Chinese (traditional).
CASES = [
    # ordinary moves, both colours; advisors, elephants and horses give the target file
    (START, "h2e2", "C2=5", "炮二平五", "炮二平五"),
    (START, "h0g2", "H2+3", "马二进三", "傌二進三"),
    (START, "b0c2", "H8+7", "马八进七", "傌八進七"),
    (START, "i0i1", "R1+1", "车一进一", "俥一進一"),
    (START, "c0e2", "E7+5", "相七进五", "相七進五"),
    (START, "g0e2", "E3+5", "相三进五", "相三進五"),
    (START, "f0e1", "A4+5", "仕四进五", "仕四進五"),
    (START, "e0e1", "K5+1", "帅五进一", "帥五進一"),
    (START, "g3g4", "P3+1", "兵三进一", "兵三進一"),
    (START, "b2b9", "C8+7", "炮八进七", "炮八進七"),
    (AFTER_C2_5, "h9g7", "H8+7", "马８进７", "馬８進７"),
    (AFTER_C2_5, "b9c7", "H2+3", "马２进３", "馬２進３"),
    (AFTER_C2_5, "h7e7", "C8=5", "炮８平５", "砲８平５"),
    (AFTER_C2_5, "a9a8", "R1+1", "车１进１", "車１進１"),
    (AFTER_C2_5, "c9e7", "E3+5", "象３进５", "象３進５"),
    (AFTER_C2_5, "d9e8", "A4+5", "士４进５", "士４進５"),
    (AFTER_C2_5, "f9e8", "A6+5", "士６进５", "士６進５"),
    (AFTER_C2_5, "e9e8", "K5+1", "将５进１", "將５進１"),
    (AFTER_C2_5, "c6c5", "P3+1", "卒３进１", "卒３進１"),
    ("4k4/9/9/9/9/9/9/4C4/9/3AK4 w - - 0 1", "e2e5", "C5+3", "炮五进三", "炮五進三"),
    ("4k4/9/9/9/4C4/9/9/9/9/3AK4 w - - 0 1", "e5e2", "C5-3", "炮五退三", "炮五退三"),
    ("3k5/9/9/9/9/9/6N2/9/9/3AK4 w - - 0 1", "g3f1", "H3-4", "马三退四", "傌三退四"),
    ("3k5/9/9/9/9/6B2/9/9/9/3AK4 w - - 0 1", "g4e2", "E3-5", "相三退五", "相三退五"),
    ("4k4/9/3a5/9/9/9/9/9/9/3A1K3 b - - 0 1", "d7e8", "A4-5", "士４退５", "士４退５"),
    ("4k4/4a4/9/9/9/9/9/9/9/3A1K3 b - - 0 1", "e8f9", "A5-6", "士５退６", "士５退６"),
    # tandem rooks (Red) and cannons (Black): front/rear
    ("5k3/9/9/9/9/9/9/4R4/4R4/3K5 w - - 0 1", "e2e6", "R++4", "前车进四", "前俥進四"),
    ("5k3/9/9/9/9/9/9/4R4/4R4/3K5 w - - 0 1", "e1d1", "R-=6", "后车平六", "後俥平六"),
    ("5k3/9/9/9/9/9/9/4R4/4R4/3K5 w - - 0 1", "e1e0", "R--1", "后车退一", "後俥退一"),
    ("5k3/9/9/9/9/9/9/4R4/4R4/3K5 w - - 0 1", "e2a2", "R+=9", "前车平九", "前俥平九"),
    ("3k5/9/9/9/9/4c4/4c4/9/9/5K3 b - - 0 1", "e3e1", "C++2", "前炮进２", "前砲進２"),
    ("3k5/9/9/9/9/4c4/4c4/9/9/5K3 b - - 0 1", "e4d4", "C-=4", "后炮平４", "後砲平４"),
    ("3k5/9/9/9/9/4c4/4c4/9/9/5K3 b - - 0 1", "e4e6", "C--2", "后炮退２", "後砲退２"),
    # tandem horses
    ("5k3/9/9/9/9/9/2N6/9/2N6/4K4 w - - 0 1", "c3d5", "H++6", "前马进六", "前傌進六"),
    ("5k3/9/9/9/9/9/2N6/9/2N6/4K4 w - - 0 1", "c3e2", "H+-5", "前马退五", "前傌退五"),
    ("5k3/9/9/9/9/9/2N6/9/2N6/4K4 w - - 0 1", "c1b3", "H-+8", "后马进八", "後傌進八"),
    ("5k3/9/9/9/9/9/2N6/9/2N6/4K4 w - - 0 1", "c1a0", "H--9", "后马退九", "後傌退九"),
    # two advisors / two elephants on one file keep their file number
    ("5k3/9/9/9/9/9/9/3A5/9/2BAK1B2 w - - 0 1", "d0e1", "A6+5", "仕六进五", "仕六進五"),
    ("5k3/9/9/9/9/9/9/3A5/9/2BAK1B2 w - - 0 1", "d2e1", "A6-5", "仕六退五", "仕六退五"),
    ("5k3/9/9/9/9/9/9/3A5/9/2BAK1B2 w - - 0 1", "g0i2", "E3+1", "相三进一", "相三進一"),
    ("5k3/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1", "c0e2", "E7+5", "相七进五", "相七進五"),
    ("5k3/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1", "c4e2", "E7-5", "相七退五", "相七退五"),
    ("5k3/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1", "c4a2", "E7-9", "相七退九", "相七退九"),
    # two pawns on a file
    ("5k3/9/9/4P4/4P4/9/9/9/9/3K5 w - - 0 1", "e6e7", "P++1", "前兵进一", "前兵進一"),
    ("5k3/9/9/4P4/4P4/9/9/9/9/3K5 w - - 0 1", "e5d5", "P-=6", "后兵平六", "後兵平六"),
    # three pawns on a file: WXF +P / P5 / -P, Chinese 前 / 中 / 后
    ("5k3/4P4/9/4P4/9/4P4/9/9/9/3K5 w - - 0 1", "e8e9", "P++1", "前兵进一", "前兵進一"),
    ("5k3/4P4/9/4P4/9/4P4/9/9/9/3K5 w - - 0 1", "e8d8", "P+=6", "前兵平六", "前兵平六"),
    ("5k3/4P4/9/4P4/9/4P4/9/9/9/3K5 w - - 0 1", "e6e7", "P5+1", "中兵进一", "中兵進一"),
    ("5k3/4P4/9/4P4/9/4P4/9/9/9/3K5 w - - 0 1", "e6f6", "P5=4", "中兵平四", "中兵平四"),
    ("5k3/4P4/9/4P4/9/4P4/9/9/9/3K5 w - - 0 1", "e4e5", "P-+1", "后兵进一", "後兵進一"),
    ("3k5/9/9/9/9/4p4/9/4p4/4p4/5K3 b - - 0 1", "e1d1", "P+=4", "前卒平４", "前卒平４"),
    ("3k5/9/9/9/9/4p4/9/4p4/4p4/5K3 b - - 0 1", "e2f2", "P5=6", "中卒平６", "中卒平６"),
    ("3k5/9/9/9/9/4p4/9/4p4/4p4/5K3 b - - 0 1", "e4e3", "P-+1", "后卒进１", "後卒進１"),
    # four pawns on a file: WXF ++ +P -P --, Chinese 一兵..四兵 front to back
    ("5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1", "e8e9", "+++1", "一兵进一", "一兵進一"),
    ("5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1", "e8d8", "++=6", "一兵平六", "一兵平六"),
    ("5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1", "e7f7", "P+=4", "二兵平四", "二兵平四"),
    ("5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1", "e6d6", "P-=6", "三兵平六", "三兵平六"),
    ("5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1", "e5f5", "--=4", "四兵平四", "四兵平四"),
    # five pawns on a file: ++ +P P7 -P --, 一兵..五兵
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1", "c9d9", "++=6", "一兵平六", "一兵平六"),
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1", "c8b8", "P+=8", "二兵平八", "二兵平八"),
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1", "c7d7", "P7=6", "三兵平六", "三兵平六"),
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1", "c6b6", "P-=8", "四兵平八", "四兵平八"),
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1", "c5d5", "--=6", "五兵平六", "五兵平六"),
    # pawns on two files (3 on file 3, 2 on file 7): WXF file digit + position;
    # Chinese numbered from the right-hand file, front to back
    ("4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1", "g7f7", "3+=4", "一兵平四", "一兵平四"),
    ("4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1", "g7g8", "3++1", "一兵进一", "一兵進一"),
    ("4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1", "g6h6", "33=2", "二兵平二", "二兵平二"),
    ("4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1", "g5f5", "3-=4", "三兵平四", "三兵平四"),
    ("4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1", "c6d6", "7+=6", "四兵平六", "四兵平六"),
    ("4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1", "c5b5", "7-=8", "五兵平八", "五兵平八"),
    # 2 + 2 pawns and a single pawn (which keeps its file number)
    ("4k4/9/9/2P3P2/P1P3P2/9/9/9/9/3K5 w - - 0 1", "a5a6", "P9+1", "兵九进一", "兵九進一"),
    ("4k4/9/9/2P3P2/P1P3P2/9/9/9/9/3K5 w - - 0 1", "g5h5", "3-=2", "二兵平二", "二兵平二"),
    ("4k4/9/9/2P3P2/P1P3P2/9/9/9/9/3K5 w - - 0 1", "c6c7", "7++1", "三兵进一", "三兵進一"),
    ("4k4/9/9/2P3P2/P1P3P2/9/9/9/9/3K5 w - - 0 1", "c5b5", "7-=8", "四兵平八", "四兵平八"),
    # Black pawns on two files: Black's right-hand file is the a-file side
    ("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1", "c3b3", "3+=2", "一卒平２", "一卒平２"),
    ("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1", "c4d4", "3-=4", "二卒平４", "二卒平４"),
    ("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1", "g3g2", "7++1", "三卒进１", "三卒進１"),
    ("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1", "g4f4", "7-=6", "四卒平６", "四卒平６"),
]


def _id(case):
    return f"{case[1]}-{case[2]}"


@pytest.mark.parametrize("fen,iccs,w,cn,trad", CASES, ids=[_id(c) for c in CASES])
def test_write_and_read(fen, iccs, w, cn, trad):
    board = Board(fen)
    move = Move.from_iccs(iccs)
    assert wxf(board, move) == w
    assert chinese(board, move) == cn
    assert chinese(board, move, traditional=True) == trad
    assert board.wxf(move) == w
    assert board.chinese(move) == cn
    assert board.chinese(move, traditional=True) == trad
    assert parse_wxf(board, w) == move
    assert parse_chinese(board, cn) == move
    assert parse_chinese(board, trad) == move
    assert board.parse_wxf(w) == move
    assert board.parse_chinese(trad) == move
    assert board.fen() == fen  # writing and parsing leave the board alone


# --------------------------------------------------------------- reading liberally

START_WXF = [
    ("C2.5", "h2e2"), ("c2=5", "h2e2"), ("c2.5", "h2e2"), (" C2=5 ", "h2e2"),
    ("Ｃ２＝５", "h2e2"), ("Ｃ２．５", "h2e2"),          # full-width
    ("N2+3", "h0g2"), ("h2+3", "h0g2"),                 # N as well as H
    ("B7+5", "c0e2"), ("e3+5", "g0e2"),                 # B as well as E
    ("k5+1", "e0e1"), ("a6+5", "d0e1"),
]
START_CHINESE = [
    ("炮二平五", "h2e2"), ("炮2平5", "h2e2"), ("炮２平５", "h2e2"),   # any digits for Red
    ("砲二平五", "h2e2"), ("包二平五", "h2e2"),
    ("馬二進三", "h0g2"), ("傌二进三", "h0g2"), ("車一進一", "i0i1"), ("俥9进1", "a0a1"),
    ("帥五進一", "e0e1"), ("将五进一", "e0e1"),          # a black name for the red king
    ("相3进5", "g0e2"), ("象三进五", "g0e2"), ("士四进五", "f0e1"),
    ("兵七进一", "c3c4"), ("卒七进一", "c3c4"), ("炮 二 平 五", "h2e2"), ("炮二平五\u3000", "h2e2"),
]


@pytest.mark.parametrize("text,iccs", START_WXF)
def test_liberal_reading_wxf(text, iccs):
    board = Board()
    assert parse_wxf(board, text) == Move.from_iccs(iccs)
    assert parse_move(board, text) == Move.from_iccs(iccs)


@pytest.mark.parametrize("text,iccs", START_CHINESE)
def test_liberal_reading_chinese(text, iccs):
    board = Board()
    assert parse_chinese(board, text) == Move.from_iccs(iccs)
    assert parse_move(board, text) == Move.from_iccs(iccs)


BLACK_LIBERAL = [
    ("马８进７", "h9g7"), ("马8进7", "h9g7"), ("馬８進７", "h9g7"),
    ("马八进七", "h9g7"),            # Chinese numerals for Black: still Black's own files
    ("炮8平5", "h7e7"), ("砲８平５", "h7e7"), ("炮八平五", "h7e7"),
    ("卒3进1", "c6c5"), ("兵３进１", "c6c5"),   # 兵 read as the black pawn
    ("象3进5", "c9e7"), ("相３进５", "c9e7"), ("士６进５", "f9e8"), ("仕6進5", "f9e8"),
    ("將５進１", "e9e8"), ("帅5进1", "e9e8"),
    ("h8+7", "h9g7"), ("C8.5", "h7e7"), ("ｈ２＋３", "b9c7"),
]


@pytest.mark.parametrize("text,iccs", BLACK_LIBERAL)
def test_liberal_reading_black(text, iccs):
    board = Board(AFTER_C2_5)
    assert parse_move(board, text) == Move.from_iccs(iccs)


TANDEM_LIBERAL = [
    # two red rooks on e2 (front) and e1 (rear)
    ("5k3/9/9/9/9/9/9/4R4/4R4/3K5 w - - 0 1", [
        ("R++4", "e2e6"), ("r+=9", "e2a2"), ("R-.6", "e1d1"), ("-r.6", "e1d1"),
        ("+R+4", "e2e6"), ("-R=6", "e1d1"),      # the sign first: what cxiangqi once wrote
        ("车前进四", "e2e6"), ("車後平六", "e1d1"), ("后车平6", "e1d1"), ("後車平６", "e1d1"),
        ("R5-1", "e1e0"), ("车五退一", "e1e0"),  # only the rear rook can go back: accepted
        ("R5+3", "e2e5"),                       # only the front one can go forward
    ]),
    # three red pawns e8 / e6 / e4
    ("5k3/4P4/9/4P4/9/4P4/9/9/9/3K5 w - - 0 1", [
        ("P5=4", "e6f6"),            # WXF: P<file> is the middle pawn of three
        ("P+=4", "e8f8"), ("p-+1", "e4e5"),
        ("P.=4", "e6f6"), ("Pb=4", "e6f6"), ("Pa=4", "e8f8"),     # xqbase
        ("25=4", "e6f6"), ("15+1", "e8e9"),                        # Fairy-Stockfish
        ("55=4", "e6f6"), ("5+=6", "e8d8"), ("5-+1", "e4e5"),     # WXF two-file form
        ("二兵平四", "e6f6"), ("一兵平六", "e8d8"), ("三兵进一", "e4e5"),
        ("2兵平四", "e6f6"), ("２兵平４", "e6f6"),
        ("前兵五平六", "e8d8"), ("中兵五平四", "e6f6"), ("後兵五進一", "e4e5"),
        ("兵前平六", "e8d8"), ("兵中平四", "e6f6"),
    ]),
    # black pawns on two files: c3/c4 (file 3) and g3/g4 (file 7)
    ("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1", [
        ("前卒三平二", "c3b3"), ("后卒七平六", "g4f4"), ("前卒七进一", "g3g2"),
        ("四卒平6", "g4f4"), ("4卒平６", "g4f4"),
        ("3+=2", "c3b3"), ("7-=6", "g4f4"), ("27=6", "g4f4"),
        ("前卒平４", "c3d3"),         # only the front pawn on file 3 can reach file 4
    ]),
    # two advisors on file 6, two elephants on file 7: 前/后 read though never written
    ("5k3/9/9/9/9/2B6/9/3A5/9/2BAK4 w - - 0 1", [
        ("前仕退五", "d2e1"), ("后仕进五", "d0e1"), ("仕六退五", "d2e1"),
        ("+A-5", "d2e1"), ("A+-5", "d2e1"), ("-A+5", "d0e1"),
        ("前相退五", "c4e2"), ("後相進九", "c0a2"), ("E7-9", "c4a2"),
    ]),
]


@pytest.mark.parametrize("fen,pairs", TANDEM_LIBERAL, ids=["rooks", "three-pawns",
                                                           "black-two-files", "advisors"])
def test_liberal_reading_tandem(fen, pairs):
    board = Board(fen)
    for text, iccs in pairs:
        assert parse_move(board, text) == Move.from_iccs(iccs), text


# ------------------------------------------------------------------ errors

INVALID_WXF = [
    ("", "expected piece"), ("C2=", "expected piece"), ("C2=55", "expected piece"),
    ("X2=5", "expected piece"), ("C2*5", "number 1-9"), ("C0=5", "expected piece"),
    ("C2=0", "number 1-9"), ("H2=3", "a horse cannot move sideways"),
    ("A4=5", "an advisor cannot move sideways"), ("E3.5", "an elephant cannot move sideways"),
    ("h2e2", "number 1-9"), ("炮二平五", "number 1-9"), ("++P+1", "expected piece"),
]


@pytest.mark.parametrize("text,why", INVALID_WXF)
def test_invalid_wxf(text, why):
    board = Board()
    with pytest.raises(InvalidMoveError, match=re.escape(why)) as info:
        parse_wxf(board, text)
    assert "invalid WXF move" in str(info.value)
    assert repr(text) in str(info.value)
    assert board.fen() == START


INVALID_CHINESE = [
    ("", "expected piece"), ("炮二平", "expected piece"), ("炮二平五一二", "expected piece"),
    ("炮二走五", "'走' should be 进, 退 or 平"), ("炮二平十", "'十' should be a number"),
    ("炮二平0", "'0' should be a number"),
    ("鸡二平五", "unknown character '鸡'"), ("炮十平五", "unknown character '十'"),
    ("马二平三", "a horse cannot move sideways"), ("相三平五", "an elephant cannot move sideways"),
    ("前炮X平五", "'X' should be the file number"), ("C2=5", "'=' should be 进, 退 or 平"),
    ("六兵平五", "expected piece"),
]


@pytest.mark.parametrize("text,why", INVALID_CHINESE)
def test_invalid_chinese(text, why):
    board = Board()
    with pytest.raises(InvalidMoveError, match=re.escape(why)) as info:
        parse_chinese(board, text)
    assert "invalid Chinese move" in str(info.value)
    assert board.fen() == START


@pytest.mark.parametrize("func", [parse_wxf, parse_chinese, parse_move])
def test_non_string_is_invalid(func):
    with pytest.raises(InvalidMoveError, match="must be a string"):
        func(Board(), 42)


ILLEGAL = [
    # (fen, parse function, text, words the message must contain)
    (START, parse_wxf, "R2+1", ["no rook on file 2"]),
    (START, parse_chinese, "车二进一", ["no rook on file 2"]),
    (START, parse_wxf, "H2+4", ["h0f1", "horse cannot move so"]),     # horse leg blocked
    (START, parse_chinese, "马二进四", ["h0f1"]),
    (START, parse_wxf, "H2+5", ["horse on h0 cannot move that way"]),  # no such horse jump
    (START, parse_wxf, "C2+8", ["cannon on h2 cannot move that way"]),  # off the board
    (START, parse_wxf, "R1=2", ["i0h0", "its own piece is there"]),
    (START, parse_wxf, "K5+2", ["e0e2"]),
    (START, parse_chinese, "前马进三", ["no two horses on one file"]),
    (START, parse_wxf, "+H+3", ["no two horses on one file"]),
    (START, parse_chinese, "中兵进一", ["no three or five pawns on one file"]),
    (START, parse_chinese, "三兵进一", ["no 3 pawns"]),
    (START, parse_wxf, "++=4", ["no two pawns on one file"]),
    (START, parse_wxf, "37+1", ["no 3 pawns on file 7"]),     # Fairy-Stockfish form
    # the side to move decides whose piece it is
    (AFTER_C2_5, parse_wxf, "C5+4", ["black has no cannon on file 5"]),
    # the black cannon on e7 is pinned by the red rook on e1
    ("4k4/9/4c4/9/9/9/9/9/4R4/3K5 b - - 0 1", parse_wxf, "C5=4",
     ["e7d7", "leave the king in check"]),
    ("4k4/9/4c4/9/9/9/9/9/4R4/3K5 b - - 0 1", parse_chinese, "炮５平４",
     ["e7d7", "leave the king in check"]),
]


@pytest.mark.parametrize("fen,func,text,words", ILLEGAL, ids=[c[2] for c in ILLEGAL])
def test_illegal(fen, func, text, words):
    board = Board(fen)
    with pytest.raises(IllegalMoveError) as info:
        func(board, text)
    message = str(info.value)
    assert message.startswith("illegal "), message
    assert repr(text) in message and fen in message, message
    for word in words:
        assert word in message, message
    assert board.fen() == fen


AMBIGUOUS = [
    # two rooks on file 5 that can both go to file 4
    ("5k3/9/9/9/9/9/9/4R4/4R4/3K5 w - - 0 1", parse_wxf, "R5=4", ["e2f2", "e1f1"]),
    ("5k3/9/9/9/9/9/9/4R4/4R4/3K5 w - - 0 1", parse_chinese, "车五平四", ["e2f2", "e1f1"]),
    # Chinese 兵五 with three pawns on file 5 (WXF P5 means the middle one)
    ("5k3/4P4/9/4P4/9/4P4/9/9/9/3K5 w - - 0 1", parse_chinese, "兵五平四",
     ["e8f8", "e6f6"]),
    # front pawns of two files that both can go forward
    ("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1", parse_chinese, "前卒进１",
     ["c3c2", "g3g2"]),
    ("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1", parse_wxf, "+P+1", ["c3c2", "g3g2"]),
]


@pytest.mark.parametrize("fen,func,text,moves", AMBIGUOUS, ids=[c[2] for c in AMBIGUOUS])
def test_ambiguous(fen, func, text, moves):
    board = Board(fen)
    with pytest.raises(AmbiguousMoveError, match="ambiguous") as info:
        func(board, text)
    assert isinstance(info.value, IllegalMoveError)    # as python-chess has it
    for iccs in moves:
        assert iccs in str(info.value)


def test_writing_an_illegal_move():
    board = Board()
    for write in (wxf, chinese, board.__class__.wxf, board.__class__.chinese):
        with pytest.raises(IllegalMoveError, match="h2h8.*not a legal move"):
            write(board, Move.from_iccs("h2h8"))
        with pytest.raises(IllegalMoveError, match="e9e8"):
            write(board, Move.from_iccs("e9e8"))  # Black's move with Red to move
    with pytest.raises(TypeError):
        wxf(board, "h2e2")


# -------------------------------------------------------------- Board methods

def test_board_push_wxf_and_chinese():
    board = Board()
    assert board.push_wxf("C2=5") == Move.from_iccs("h2e2")
    assert board.push_chinese("马８进７") == Move.from_iccs("h9g7")
    assert board.push_chinese("馬二進三") == Move.from_iccs("h0g2")
    assert board.push_wxf("r9=8") == Move.from_iccs("i9h9")
    assert [m.iccs() for m in board.move_stack] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    fen = board.fen()
    for push, text in ((board.push_wxf, "R9=8"), (board.push_wxf, "R1="),
                       (board.push_chinese, "车九平八"), (board.push_chinese, "车一平")):
        with pytest.raises(ValueError):
            push(text)
        assert board.fen() == fen and len(board.move_stack) == 4


# ------------------------------------------------------------------- lines

OPENING = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]


def test_move_list():
    assert move_list(None, OPENING, "wxf") == ["C2=5", "H8+7", "H2+3", "R9=8", "R1=2"]
    assert move_list(START, OPENING) == ["炮二平五", "马８进７", "马二进三", "车９平８", "车一平二"]
    assert move_list(Board(), OPENING, "chinese", traditional=True) == \
        ["炮二平五", "馬８進７", "傌二進三", "車９平８", "俥一平二"]
    assert move_list(None, OPENING, "iccs") == OPENING
    moves = [Move.from_iccs(t) for t in OPENING]
    assert move_list(None, moves, "wxf") == ["C2=5", "H8+7", "H2+3", "R9=8", "R1=2"]
    # text in any notation converts to any other
    assert move_list(None, ["炮二平五", "H8+7", "h0g2", "車９平８"], "iccs") == OPENING[:4]
    assert move_list(None, [], "wxf") == []


def test_move_list_leaves_the_board_alone():
    board = Board()
    board.push_iccs("h2e2")
    assert move_list(board, ["h9g7", "h0g2"]) == ["马８进７", "马二进三"]
    assert board.fen() == AFTER_C2_5
    assert board.move_stack == [Move.from_iccs("h2e2")]


def test_move_list_errors_name_the_ply():
    with pytest.raises(IllegalMoveError, match=r"^ply 3: illegal move h2e2"):
        move_list(None, ["h2e2", "h9g7", "h2e2"], "wxf")
    with pytest.raises(IllegalMoveError, match=r"^ply 2: "):
        move_list(None, [Move.from_iccs("h2e2"), Move.from_iccs("h2e2")], "wxf")
    with pytest.raises(InvalidMoveError, match=r"^ply 1: "):
        move_list(None, ["X9=9"], "wxf")
    with pytest.raises(ValueError, match="unknown notation"):
        move_list(None, OPENING, "san")
    with pytest.raises(TypeError):
        move_list(42, OPENING)


def test_format_line():
    assert format_line(None, OPENING) == "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二"
    assert format_line(None, OPENING[:4], "wxf") == "1. C2=5 H8+7 2. H2+3 R9=8"
    assert format_line(None, OPENING[:2], "iccs") == "1. h2e2 h9g7"
    assert format_line(None, []) == ""


def test_format_line_black_first():
    assert format_line(AFTER_C2_5, OPENING[1:4]) == "1. ... 马８进７ 2. 马二进三 车９平８"
    assert format_line(AFTER_C2_5, OPENING[1:2], "wxf") == "1. ... H8+7"
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 12"
    assert format_line(fen, OPENING[1:4], "wxf") == "12. ... H8+7 13. H2+3 R9=8"
    board = Board()
    board.push_iccs("h2e2")
    assert format_line(board, OPENING[1:3], traditional=True) == "1. ... 馬８進７ 2. 傌二進三"


def test_format_line_starts_at_the_fen_move_number():
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 7"
    assert format_line(fen, OPENING[:3], "wxf") == "7. C2=5 H8+7 8. H2+3"


def test_parse_move_notations():
    board = Board()
    m = Move.from_iccs("h2e2")
    assert parse_move(board, "h2e2") == parse_move(board, "H2E2") == m
    assert parse_move(board, "C2=5") == parse_move(board, "炮二平五") == m
    assert parse_move(board, "h2e2", "iccs") == m
    assert parse_move(board, "C2=5", "wxf") == m
    assert parse_move(board, "炮二平五", "chinese") == m
    with pytest.raises(InvalidMoveError):
        parse_move(board, "C2=5", "chinese")
    with pytest.raises(IllegalMoveError):
        parse_move(board, "h2h8")
    with pytest.raises(ValueError, match="unknown notation"):
        parse_move(board, "h2e2", "san")


def test_module_is_importable_and_documented():
    assert notation.__doc__ and "WXF" in notation.__doc__ and "xqbase" in notation.__doc__
    assert set(notation.NOTATIONS) == {"chinese", "wxf", "iccs"}


# -------------------------------------------------- every move of every game

GAMES = games()
GAME_CHUNKS = chunks(GAMES, 300)

# what the writers may produce (strict), per colour
WXF_RE = re.compile(r"(?:[KAEHRCP][1-9]|[HRCP][+-]|\+\+|--|[1-9][1-9+-])[+=-][1-9]")
CN_RE = {
    (True, False): re.compile(r"(?:[帅仕相马车炮兵][一二三四五六七八九]|[前中后][马车炮兵]|[一二三四五]兵)"
                              r"[进退平][一二三四五六七八九]"),
    (False, False): re.compile(r"(?:[将士象马车炮卒][１-９]|[前中后][马车炮卒]|[一二三四五]卒)[进退平][１-９]"),
    (True, True): re.compile(r"(?:[帥仕相傌俥炮兵][一二三四五六七八九]|[前中後][傌俥炮兵]|[一二三四五]兵)"
                             r"[進退平][一二三四五六七八九]"),
    (False, True): re.compile(r"(?:[將士象馬車砲卒][１-９]|[前中後][馬車砲卒]|[一二三四五]卒)[進退平][１-９]"),
}
TO_ASCII = str.maketrans("一二三四五六七八九１２３４５６７８９", "123456789123456789")


@pytest.mark.parametrize("chunk", GAME_CHUNKS, ids=lambda c: f"from{GAMES.index(c[0])}")
def test_games_round_trip(chunk):
    """Every move written in WXF and Chinese (simplified, traditional) reads
    back as the same move; the Chinese text also with ASCII digits."""
    problems = []
    for g in chunk:
        board = Board()
        for ply, text in enumerate(g["moves"], 1):
            move = Move.from_iccs(text)
            red = board.turn
            try:
                w = wxf(board, move)
                assert WXF_RE.fullmatch(w), f"WXF {w!r} is not in the written form"
                assert parse_wxf(board, w) == move, f"WXF {w!r} read back wrongly"
                for trad in (False, True):
                    cn = chinese(board, move, trad)
                    assert CN_RE[red, trad].fullmatch(cn), f"{cn!r} is not in the written form"
                    assert parse_chinese(board, cn) == move, f"{cn!r} read back wrongly"
                ascii_cn = chinese(board, move).translate(TO_ASCII)
                if ascii_cn[0] not in "一二三四五":
                    assert parse_chinese(board, ascii_cn) == move, f"{ascii_cn!r} read wrongly"
            except (AssertionError, ValueError) as exc:
                problems.append(f"{g['source']} ply {ply} {text} in {board.fen()}: {exc}")
                break
            board.push(move)
    assert problems == [], "\n".join(problems[:10])


def test_games_move_lists_round_trip():
    """A whole game through move_list: ICCS -> WXF -> Chinese -> ICCS."""
    for g in GAMES[:100]:
        w = move_list(None, g["moves"], "wxf")
        cn = move_list(None, w, "chinese", traditional=True)
        assert move_list(None, cn, "iccs") == g["moves"]


# ------------------------------------------- WXF against Fairy-Stockfish (pyffish)

def test_wxf_agrees_with_pyffish():
    """pyffish writes WXF too, with the tandem sign after the letter as we
    do (``R++2``).  It leaves out +/- when the file alone is unambiguous
    (``C3+7``), which the WXF rules do not (we always mark tandem pieces),
    and numbers pawn groups its own way (``15=6``, the first pawn of file
    5); only those differences are allowed."""
    import pyffish as sf  # a test dependency (pyproject [test]); missing is an error
    checked = differ = 0
    for g in GAMES[:25]:
        board = Board()
        for text in g["moves"]:
            move = Move.from_iccs(text)
            ours = wxf(board, move)
            theirs = sf.get_san("xiangqi", board.fen(), iccs_to_ffish(text), False,
                                sf.NOTATION_XIANGQI_WXF)
            if ours != theirs:
                piece = board.piece_at(move.from_square)
                file_no = 9 - move.from_square % 9 if piece.color else move.from_square % 9 + 1
                plain = ours[1] in "+-" and theirs == f"{ours[0]}{file_no}{ours[2:]}"
                pawn_ordinal = piece.piece_type == PAWN and re.fullmatch(r"\d\d[+=-]\d", theirs)
                assert plain or pawn_ordinal, (board.fen(), text, ours, theirs)
                differ += 1
            checked += 1
            board.push(move)
    assert checked > 1500 and differ < checked // 20


@pytest.mark.parametrize("fen, iccs, expected", [
    ("5k3/9/9/9/9/4R4/9/9/4R4/3K5 w - - 0 1", "e4d4", "R+=6"),
    ("5k3/9/9/9/9/4R4/9/9/4R4/3K5 w - - 0 1", "e1e2", "R-+1"),
    ("5k3/9/9/9/9/4C4/9/9/4C4/3K5 w - - 0 1", "e1d1", "C-=6"),
    ("3k5/9/9/9/4n4/9/9/4n4/9/4K4 b - - 0 1", "e5c6", "H--3"),
    ("3k5/9/9/9/4n4/9/9/4n4/9/4K4 b - - 0 1", "e2c3", "H+-3"),
])
def test_tandem_pieces_as_fairy_stockfish_writes_them(fen, iccs, expected):
    import pyffish as sf
    assert sf.get_san("xiangqi", fen, iccs_to_ffish(iccs), False,
                      sf.NOTATION_XIANGQI_WXF) == expected
    assert wxf(Board(fen), Move.from_iccs(iccs)) == expected


# ---------------------------------------------- the Big5 Chinese-notation records

BIG5 = DATA / "raw" / "ccpd_pgn_big5"
BIG5_EXPECTED = json.loads((BIG5 / "expected_iccs.json").read_text(encoding="utf-8"))
RESULT_OR_NUMBER = re.compile(r"\d+\.|1-0|0-1|1/2-1/2|\*")


def _big5_tokens(path):
    """The move tokens of a one-game Chinese PGN (headers and move numbers
    dropped; these files have no comments or variations)."""
    text = path.read_bytes().decode("big5")
    body = re.sub(r"^\[.*\]\s*$", "", text, flags=re.M)
    return [t for t in body.split() if not RESULT_OR_NUMBER.fullmatch(t)]


@pytest.mark.parametrize("name", sorted(BIG5_EXPECTED))
def test_big5_records(name):
    expected = BIG5_EXPECTED[name]
    tokens = _big5_tokens(BIG5 / name)
    assert tokens == expected["notation"]
    board = Board()
    if expected["status"] == "ok":
        for ply, (token, iccs) in enumerate(zip(tokens, expected["moves_iccs"]), 1):
            assert board.push_chinese(token).iccs() == iccs, f"ply {ply} {token}"
        assert len(board.move_stack) == len(expected["moves_iccs"]) == len(tokens)
        assert board.fen().split()[:2] == expected["final_fen"].split()[:2]
    else:
        moves = expected["moves_iccs_through_illegal"]
        bad = expected["first_illegal_ply"]       # index of the illegal move
        assert moves[bad] == expected["illegal_move"] and len(moves) == bad + 1
        for ply, (token, iccs) in enumerate(zip(tokens[:bad], moves[:bad]), 1):
            assert board.push_chinese(token).iccs() == iccs, f"ply {ply} {token}"
        with pytest.raises(IllegalMoveError) as info:
            board.parse_chinese(tokens[bad])
        assert expected["illegal_move"] in str(info.value)
