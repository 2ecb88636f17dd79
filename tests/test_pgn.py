"""PGN records: reading real files (Big5, GBK, UTF-8; ICCS, WXF, Chinese),
the syntax variants found in the wild, the game tree API, errors, writing
(atomic on paths) and write -> read round trips of all games.jsonl games."""
from __future__ import annotations

import io
import json
import os
import random
import re
from pathlib import Path

import pytest

from conftest import DATA, failing_writes, games

from cxiangqi import STARTING_FEN, Board, InvalidFenError, Move, pgn
from cxiangqi.pgn import Game, PgnError, read_game, read_games, write_game

RAW = DATA / "raw"
CCPD = RAW / "ccpd_pgn_big5"
CCPD_EXPECTED = json.loads((CCPD / "expected_iccs.json").read_text(encoding="utf-8"))
CCPD_OK = sorted(k for k, v in CCPD_EXPECTED.items() if v["status"] == "ok")
CCPD_ILLEGAL = sorted(k for k, v in CCPD_EXPECTED.items() if v["status"] == "illegal")
WUKONG = sorted(RAW.glob("wukong_*.pgn"))
GBK_PGN = RAW / "xqf" / "test2.pgn"


def iccs(moves) -> list:
    return [m.iccs() for m in moves]


def pgn_text(text: str, **kw) -> Game:
    return read_game(io.StringIO(text), **kw)


def lines_of(node, prefix=()):
    """Every root-to-leaf line of a tree, as ICCS lists, in tree order."""
    if not node.variations:
        yield list(prefix)
    for child in node.variations:
        yield from lines_of(child, prefix + (child.move.iccs(),))


def tree(node):
    """The whole tree as nested data: moves, comments, NAGs, starting comments."""
    return [(c.move.iccs(), c.comment, sorted(c.nags), c.starting_comment if c.starts_variation()
             else "", tree(c)) for c in node.variations]


# --- real files ---------------------------------------------------------------------------

def test_sample_inventory():
    assert len(CCPD_OK) == 6 and len(CCPD_ILLEGAL) == 2
    assert len(WUKONG) == 2 and GBK_PGN.is_file()


@pytest.mark.parametrize("name", CCPD_OK)
def test_big5_files_decode_to_expected_moves(name):
    want = CCPD_EXPECTED[name]
    game = read_game(CCPD / name)
    assert iccs(game.mainline_moves()) == want["moves_iccs"]
    assert game.headers["Result"] == want["result"]
    assert game.end().board().fen() == want["final_fen"]
    assert game.errors == []


@pytest.mark.parametrize("name", CCPD_OK)
def test_big5_files_same_from_binary_text_and_reencoded_streams(name):
    raw = (CCPD / name).read_bytes()
    assert pgn.detect_encoding(raw) == "big5hkscs"
    want = read_game(CCPD / name)
    text = raw.decode("big5hkscs")
    variants = {
        "binary": io.BytesIO(raw),
        "text": io.StringIO(text),
        "utf-8": io.BytesIO(text.encode("utf-8")),
        "utf-8-bom": io.BytesIO(b"\xef\xbb\xbf" + text.encode("utf-8")),
        "gbk": io.BytesIO(text.encode("gbk")),
    }
    for label, stream in variants.items():
        game = read_game(stream)
        assert iccs(game.mainline_moves()) == iccs(want.mainline_moves()), label
        assert dict(game.headers) == dict(want.headers), label


def test_header_with_brackets_inside_value():
    game = read_game(CCPD / "edgecase_brackets_in_header_00002207.pgn")
    assert game.headers["Event"] == ("2006年“西鄉引進杯”全國象棋個人賽 [特別報道]金戈鐵馬鬧鵬城"
                                     "－第七輪 河北陳翀（先勝）重慶洪智")
    assert game.headers["Red"] == "河北 陳翀"


@pytest.mark.parametrize("name", CCPD_ILLEGAL)
def test_big5_illegal_records_fail_at_the_right_ply(name):
    want = CCPD_EXPECTED[name]
    bad_ply = want["first_illegal_ply"]          # half-moves played before the bad one
    bad_text = want["notation"][bad_ply]
    with pytest.raises(PgnError) as info:
        read_game(CCPD / name)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.ply == bad_ply
    assert err.move_text == bad_text
    assert err.game_index == 0
    message = str(err)
    assert bad_text in message and f"after {bad_ply} plies" in message
    assert read_game(CCPD / name, errors="keep").headers["Event"] in message  # names the game
    # the moves before the bad one are available, and they are the expected ones
    assert iccs(err.game.mainline_moves()) == want["moves_iccs_through_illegal"][:-1]
    assert err.game.errors == [err]
    # the illegal move itself, as the reference decoded it, is indeed illegal there
    board = err.game.end().board()
    assert not board.is_legal(Move.from_iccs(want["illegal_move"]))
    # errors="keep" returns the same partial game instead of raising
    kept = read_game(CCPD / name, errors="keep")
    assert iccs(kept.mainline_moves()) == iccs(err.game.mainline_moves())
    assert len(kept.errors) == 1 and kept.errors[0].ply == bad_ply


def test_gbk_chinese_pgn():
    raw = GBK_PGN.read_bytes()
    assert pgn.detect_encoding(raw) == "gb18030"
    game = read_game(GBK_PGN)
    h = game.headers
    assert (h["Red"], h["Black"], h["Site"], h["Date"], h["Result"]) == (
        "永远在路上(北斗)", "奕天下棋手(北斗)", "华山", "2017-03-20", "1/2-1/2")
    assert h["TimeControl"] == "15-5-15"
    # the file lists 51 numbered moves, each written on two lines
    written = re.findall(r"^\s*(?:\d+\.)?\s*(\S{4})\s*$", raw.decode("gbk"), re.M)
    assert len(written) == 102
    moves = list(game.mainline_moves())
    assert len(moves) == 102
    # independent check: every move is legal for Fairy-Stockfish too
    import pyffish as ffish
    from conftest import iccs_to_ffish
    legal_so_far = []
    for m in moves:
        assert iccs_to_ffish(m.iccs()) in ffish.legal_moves("xiangqi", ffish.start_fen("xiangqi"),
                                                           legal_so_far)
        legal_so_far.append(iccs_to_ffish(m.iccs()))
    # and each decoded move is written back as the file wrote it
    from cxiangqi import notation
    board = Board()
    for m, text in zip(moves, written):
        assert notation.chinese(board, m) == text
        board.push(m)


@pytest.mark.parametrize("path", WUKONG, ids=lambda p: p.name)
def test_wukong_iccs_files(path):
    text = path.read_text(encoding="utf-8")
    blocks = [b for b in re.split(r"\n(?=\[Event )", text) if b.strip()]
    games_read = list(read_games(path))
    assert len(games_read) == len(blocks) >= 5
    for block, game in zip(blocks, games_read):
        assert iccs(game.mainline_moves()) == re.findall(r"\b[a-i][0-9][a-i][0-9]\b", block)
        assert game.headers["Event"] == re.search(r'\[Event "(.*)"\]', block).group(1)
        assert game.headers["Red"] == re.search(r'\[Red "(.*)"\]', block).group(1)
        assert game.headers["Result"] == "*"
    # the same games one read_game call at a time, on text and binary streams
    for stream in (io.StringIO(text), io.BytesIO(text.encode()), open(path, "rb"),
                   open(path, encoding="utf-8")):
        with stream:
            again = []
            while (game := read_game(stream)) is not None:
                again.append(iccs(game.mainline_moves()))
        assert again == [iccs(g.mainline_moves()) for g in games_read]


# --- syntax ---------------------------------------------------------------------------------

OPENING = ["h2e2", "h9g7", "h0g2", "i9h9"]


@pytest.mark.parametrize("movetext", [
    "1. h2e2 h9g7 2. h0g2 i9h9",
    "1.h2e2 1...h9g7 2.h0g2 2...i9h9",
    "1. h2e2 1... h9g7 2. h0g2 2. ... i9h9",
    "1、h2e2 h9g7 2、h0g2 i9h9",
    "1 . h2e2 h9g7 2 . h0g2 i9h9",
    "1．h2e2 h9g7 2．h0g2 i9h9",
    "1 h2e2 h9g7 2 h0g2 i9h9",
    "h2e2 h9g7 h0g2 i9h9",
    "  1. h2e2\n     h9g7\n  2. h0g2\n     i9h9\n",
    "1. h2-e2 h9-g7 2. H0-G2 I9I9".replace("I9I9", "I9H9"),
    "1. C2=5 H8+7 2. H2+3 R9=8",
    "1. C2.5 h8+7 2. N2+3 R1=2".replace("R1=2", "R9=8"),
    "1. 炮二平五 马８进７ 2. 马二进三 车９平８",
    "1. 炮二平五 馬８進７ 2. 傌二進三 車９平８",
    "1. 炮二平五 h9g7 2. H2+3 車９平８",  # notation recognised per move
])
def test_move_number_styles_and_notations(movetext):
    game = pgn_text('[Event "x"]\n\n' + movetext + " *\n")
    assert iccs(game.mainline_moves()) == OPENING
    assert game.errors == []


def test_format_header_is_informative_only():
    game = pgn_text('[Format "WXF"]\n1. h2e2 马８进７ *')
    assert iccs(game.mainline_moves()) == ["h2e2", "h9g7"]


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "*"])
def test_results(result):
    game = pgn_text(f"1. h2e2 h9g7 {result}")
    assert game.headers["Result"] == result
    # the Result header wins over the movetext when both are there
    game = pgn_text(f'[Result "1-0"]\n1. h2e2 h9g7 {result}')
    assert game.headers["Result"] == "1-0"


def test_comments_nags_and_nested_variations():
    text = """[Event "tree"]
{Game comment}
1. h2e2 {first
line two} $1 (1. b2e2 {left cannon} h9g7 (1... b9c7 2. b0c2) 2. h0g2)
(1. g3g4 ; pawn
) 1... h9g7!? 2. h0g2 ( {a start comment} 2. b0c2 $14 ) i9h9 $2 1-0
"""
    game = pgn_text(text)
    assert game.comment == "Game comment"
    assert game.headers["Result"] == "1-0"
    assert list(lines_of(game)) == [
        ["h2e2", "h9g7", "h0g2", "i9h9"],
        ["h2e2", "h9g7", "b0c2"],
        ["b2e2", "h9g7", "h0g2"],
        ["b2e2", "b9c7", "b0c2"],
        ["g3g4"],
    ]
    first = game.next()
    assert first.comment == "first\nline two" and first.nags == {1}
    assert game.variation(1).comment == "left cannon"
    assert game.variation(2).comment == "pawn"
    assert first.next().nags == {5}
    side = first.next().variation(1)
    assert side.starting_comment == "a start comment" and side.nags == {14}
    assert game.end().nags == {2} and game.end().move == Move.from_iccs("i9h9")


def test_header_variants():
    text = ('[Event ""中立杯"象棋电视快棋赛"]\n'
            '[Site "a \\"quoted\\" \\\\ place"] [Round "3"]\n'
            '[Red "柳大华"]\n\n1. c3c4 *\n')
    game = pgn_text(text)
    assert game.headers["Event"] == '"中立杯"象棋电视快棋赛'
    assert game.headers["Site"] == 'a "quoted" \\ place'
    assert game.headers["Round"] == "3"
    assert list(game.headers)[:4] == ["Game", "Event", "Site", "Date"]  # roster first
    # and they survive writing and reading
    again = pgn_text(str(game))
    assert dict(again.headers) == {**dict(game.headers), "Format": "ICCS"}


def test_fen_header_start_position_and_black_to_move():
    fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 20"  # an endgame, Black to move
    game = pgn_text(f'[FEN "{fen}"]\n20... e9f9 21. b0b9 *')
    assert game.board().fen() == fen
    assert iccs(game.mainline_moves()) == ["e9f9", "b0b9"]
    assert game.end().board().is_check()
    out = str(game)
    assert "20... e9f9 21. b0b9" in out
    assert iccs(pgn_text(out).mainline_moves()) == ["e9f9", "b0b9"]


def test_fen_side_written_r_is_red():
    start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
    game = pgn_text(f'[FEN "{start} r - - 0 0"]\n1. h2e2 *')
    assert iccs(game.mainline_moves()) == ["h2e2"]


def test_bad_fen_header_is_a_pgn_error():
    with pytest.raises(PgnError, match="bad FEN"):
        pgn_text('[FEN "rnbakabnr/9/9 w"]\n1. h2e2 *')
    with pytest.raises(PgnError, match="bad FEN"):
        pgn_text('[FEN "k8/9/9/9/9/9/9/9/9/9 w - - 0 1"]\n')  # no moves: still checked


def test_several_games_in_one_stream_with_and_without_separators():
    text = ('[Event "a"]\n1. h2e2 h9g7\n'          # no result, next header follows at once
            '[Event "b"]\n[Red "x"]\n1. b2e2 1-0\n\n\n'
            '[Event "c"]\n1. g3g4 {a comment with [Event "not a header"] in it\n'
            '[Event "still the comment"]} *\n'
            '1. c3c4 0-1\n')                        # a game without headers
    got = [(g.headers["Event"], iccs(g.mainline_moves())) for g in read_games(io.StringIO(text))]
    assert got == [("a", ["h2e2", "h9g7"]), ("b", ["b2e2"]), ("c", ["g3g4"]), ("?", ["c3c4"])]


class _Pipe(io.RawIOBase):
    """A non-seekable binary stream (like a pipe)."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, b):
        chunk = self._data.read(len(b))
        b[:len(chunk)] = chunk
        return len(chunk)


def test_read_game_loop_on_non_seekable_stream():
    text = '[Event "a"]\n1. h2e2 h9g7\n[Event "b"]\n1. 炮二平五 *\n[Event "c"]\n1. g3g4\n'
    stream = io.BufferedReader(_Pipe(text.encode("gbk")))
    assert not stream.seekable()
    got = []
    while (game := read_game(stream)) is not None:
        got.append((game.headers["Event"], iccs(game.mainline_moves())))
    assert got == [("a", ["h2e2", "h9g7"]), ("b", ["h2e2"]), ("c", ["g3g4"])]


@pytest.mark.parametrize("name", CCPD_OK)
def test_big5_through_a_pipe(name):
    """Encoding detection with no way to look ahead but the stream's buffer."""
    raw = (CCPD / name).read_bytes()
    stream = io.BufferedReader(_Pipe(raw * 2))
    first, second = read_game(stream), read_game(stream)
    want = CCPD_EXPECTED[name]["moves_iccs"]
    assert iccs(first.mainline_moves()) == iccs(second.mainline_moves()) == want
    assert read_game(stream) is None


def test_detect_encoding_on_short_texts():
    """Even a single line of names is told apart: simplified text in GBK,
    traditional text in Big5."""
    for text in ("胡荣华", "广东吕钦", "炮二平五", "马８进７", '[Site "北京"]', "1. 兵七进一 卒７进１"):
        assert pgn.detect_encoding(text.encode("gbk")) == "gb18030", text
    for text in ("胡榮華", "廣東呂欽", "炮二平五", "馬８進７", '[Site "臺北"]', "1. 兵七進一 卒７進１"):
        assert pgn.detect_encoding(text.encode("big5")) == "big5hkscs", text
    assert pgn.detect_encoding("炮二平五".encode()) == "utf-8"
    assert pgn.detect_encoding("炮二平五".encode()[:-1]) == "utf-8"  # cut inside a character
    assert pgn.detect_encoding(b"\xef\xbb\xbf[Event]") == "utf-8-sig"
    assert pgn.detect_encoding(b"plain ascii") == "utf-8"


def test_errors_name_the_game_and_reading_continues():
    text = ('[Event "one"]\n1. h2e2 h9g7 *\n\n'
            '[Event "two"]\n1. h2e2 h9g7 2. h2h9 {never read} (2. a0a1) b9c7 *\n\n'
            '[Event "three"]\n1. 炮八平五 马２进３ 2. 兵七进一 bogus 1-0\n\n'
            '[Event "four"]\n1. c3c4 *\n')
    stream = io.StringIO(text)
    assert iccs(read_game(stream).mainline_moves()) == ["h2e2", "h9g7"]
    with pytest.raises(PgnError) as info:
        read_game(stream)
    err = info.value
    assert (err.game_index, err.ply, err.move_text) == (1, 2, "h2h9")
    assert "game 2 ('two')" in str(err) and "h2h9" in str(err)
    assert iccs(err.game.mainline_moves()) == ["h2e2", "h9g7"]
    with pytest.raises(PgnError) as info:
        read_game(stream)
    assert (info.value.game_index, info.value.ply, info.value.move_text) == (2, 3, "bogus")
    assert read_game(stream).headers["Event"] == "four"
    assert read_game(stream) is None

    assert [g.headers["Event"] for g in read_games(io.StringIO(text), errors="skip")] == [
        "one", "four"]
    kept = list(read_games(io.StringIO(text), errors="keep"))
    assert [len(g.errors) for g in kept] == [0, 1, 1, 0]
    assert iccs(kept[2].mainline_moves()) == ["b2e2", "b9c7", "c3c4"]
    with pytest.raises(PgnError):
        list(read_games(io.StringIO(text)))
    with pytest.raises(ValueError):
        read_game(io.StringIO(text), errors="ignore")


def test_illegal_move_inside_a_variation():
    with pytest.raises(PgnError) as info:
        pgn_text("1. h2e2 h9g7 (1... b9c7 2. h2h9) 2. h0g2 *")
    err = info.value
    assert err.ply == 2 and err.move_text == "h2h9"
    assert list(lines_of(err.game)) == [["h2e2", "h9g7"], ["h2e2", "b9c7"]]


def test_empty_and_whitespace_input():
    assert read_game(io.StringIO("")) is None
    assert read_game(io.StringIO("\n \n\t\n")) is None
    assert list(read_games(io.BytesIO(b""))) == []
    game = pgn_text('[Event "only headers"]\n')
    assert game.headers["Event"] == "only headers" and not game.mainline_moves()


def test_bad_arguments():
    with pytest.raises(TypeError):
        read_game(b"1. h2e2")  # bytes are not a path: wrap them in io.BytesIO
    with pytest.raises(TypeError):
        read_game(42)
    with pytest.raises(OSError):
        read_game("/nonexistent/dir/game.pgn")
    with pytest.raises(ValueError):
        write_game(Game(), io.StringIO(), notation="san")


# --- the game tree ----------------------------------------------------------------------------

def test_game_tree_api():
    game = Game()
    assert game.board() == Board() and game.ply() == 0
    n1 = game.add_variation(Move.from_iccs("h2e2"), comment="central")
    n2 = n1.add_variation(Move.from_iccs("h9g7"))
    alt = n1.add_variation(Move.from_iccs("b9c7"), starting_comment="or")
    assert n1.next() is n2 and n2.parent is n1 and n2.ply() == 2
    expected = Board()
    expected.push_iccs("h2e2")
    expected.push_iccs("h9g7")
    assert n2.board() == expected
    assert n2.board().move_stack == [Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]
    assert alt.starts_variation() and not alt.is_mainline() and n2.is_mainline()
    assert n2.is_main_variation() and not alt.is_main_variation()
    assert game.end() is n2 and n2.is_end() and not n1.is_end()
    assert n1.variation(1) is alt and n1.variation(Move.from_iccs("b9c7")) is alt
    assert n1.has_variation(Move.from_iccs("h9g7")) and not n1.has_variation(Move.from_iccs("a6a5"))
    with pytest.raises(KeyError):
        n1.variation(Move.from_iccs("a6a5"))
    n1.promote_to_main(alt)
    assert n1.next() is alt
    n1.demote(alt)
    assert n1.next() is n2
    n1.promote(alt)
    assert n1.next() is alt
    main = n1.add_main_variation(Move.from_iccs("i9h9"))
    assert n1.variations[0] is main and len(n1.variations) == 3
    n1.remove_variation(main)
    assert main not in n1.variations
    last = n2.add_line([Move.from_iccs("h0g2"), Move.from_iccs("i9h9")], comment="end", nags=[3])
    assert last.comment == "end" and last.nags == {3} and last.ply() == 4
    assert iccs(game.mainline_moves()) == ["h2e2", "b9c7"]
    assert [n.move for n in game.mainline()] == list(game.mainline_moves())
    assert len(game.mainline_moves()) == 2 and bool(game.mainline_moves())
    assert list(reversed(game.mainline_moves()))[0] == Move.from_iccs("b9c7")
    assert last.game() is game and last.root() is game
    assert last.iccs() == "i9h9" and last.wxf() == "R9=8" and last.chinese() == "车９平８"
    assert last.chinese(traditional=True) == "車９平８"
    with pytest.raises(TypeError):
        game.add_variation("h2e2")


def test_game_from_board():
    board = Board()
    for m in ["h2e2", "h9g7", "h0g2", "i9h9"]:
        board.push_iccs(m)
    game = Game.from_board(board)
    assert iccs(game.mainline_moves()) == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert "FEN" not in game.headers and game.headers["Result"] == "*"
    assert game.end().board() == board

    # from a set-up position, ending in mate: the FEN header and the result are filled in
    fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"
    board = Board(fen)
    board.push_iccs("b0b9")
    assert board.is_checkmate()
    game = Game.from_board(board)
    assert game.headers["FEN"] == fen and game.board().fen() == fen
    assert game.headers["Result"] == "1-0"


def test_setup_and_headers():
    game = Game()
    assert list(game.headers) == list(pgn.TAG_ROSTER)
    game.setup(Board())
    assert "FEN" not in game.headers
    game.setup("3k5/9/9/9/9/9/9/9/9/4K4 w")
    assert game.headers["FEN"] == "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"
    with pytest.raises(InvalidFenError):
        game.setup("not a fen")
    with pytest.raises(ValueError):
        game.headers["bad tag"] = "x"
    game.headers["Opening"] = "中炮"
    assert list(game.headers)[-2:] == ["FEN", "Opening"]
    assert Game.without_tag_roster().headers == {}
    assert "Game" not in pgn.Headers({}) and pgn.Headers()["Result"] == "*"


# --- writing --------------------------------------------------------------------------------

def sample_tree() -> Game:
    game = pgn_text("""[Event "变例"]\n[Red "红"]\n[Black "黑"]\n{开局}
1. h2e2 {中炮} $1 (1. c3c4 {仙人指路} b9c7 (1... c6c5 2. h2e2) 2. b0c2) (1. b2e2) 1... h9g7
2. h0g2 i9h9 ({ 另一变化 } 2... b9c7 $6 3. i0h0) 3. i0h0 b9c7 $14 1/2-1/2""")
    return game


@pytest.mark.parametrize("notation", pgn.NOTATIONS)
def test_write_and_read_back_whole_tree(notation):
    game = sample_tree()
    buf = io.StringIO()
    write_game(game, buf, notation)
    text = buf.getvalue()
    assert f'[Format "{ {"iccs": "ICCS", "wxf": "WXF", "chinese": "Chinese"}[notation]}"]' in text
    again = pgn_text(text)
    assert tree(again) == tree(game)
    assert again.comment == "开局"
    assert dict(again.headers) == {**dict(game.headers), "Format": again.headers["Format"]}
    if notation == "chinese":
        assert "炮二平五" in text and "马８进７" in text
    if notation == "wxf":
        assert "C2=5" in text and "H8+7" in text


def test_written_text_layout():
    text = str(sample_tree())
    head, body = text.split("\n\n", 1)
    assert head.splitlines()[0] == '[Game "Chinese Chess"]'
    assert head.splitlines()[-1] == '[Format "ICCS"]'
    assert " ".join(body.split()).startswith(
        "{ 开局 } 1. h2e2 $1 { 中炮 } ( 1. c3c4 { 仙人指路 } 1... b9c7 ( 1... c6c5 2. h2e2 ) "
        "2. b0c2 ) ( 1. b2e2 ) 1... h9g7")
    assert "1... h9g7 2. h0g2 i9h9 ( { 另一变化 } 2... b9c7 $6 3. i0h0 ) 3. i0h0" in " ".join(
        body.split())
    assert body.rstrip().endswith("1/2-1/2")
    assert all(len(line) <= 80 for line in text.splitlines())
    # traditional characters on request
    buf = io.StringIO()
    write_game(sample_tree(), buf, "chinese", traditional=True)
    assert "馬８進７" in buf.getvalue()


def test_write_to_binary_stream_and_path(tmp_path):
    game = sample_tree()
    buf = io.BytesIO()
    write_game(game, buf, "chinese", encoding="gbk")
    assert tree(read_game(io.BytesIO(buf.getvalue()))) == tree(game)
    for encoding in ("utf-8", "gbk"):
        path = tmp_path / f"game-{encoding}.pgn"
        write_game(game, path, "chinese", traditional=True, encoding=encoding)
        assert tree(read_game(path)) == tree(game)
        assert tree(read_game(str(path))) == tree(game)
    # Big5 has no simplified characters: a traditional game can be written in it
    big5 = read_game(CCPD / "master_draw.pgn")
    path = tmp_path / "game-big5.pgn"
    write_game(big5, path, "chinese", traditional=True, encoding="big5")  # 俥 written 車
    assert "車".encode("big5") in path.read_bytes()
    assert pgn.detect_encoding(path.read_bytes()) == "big5hkscs"
    assert tree(read_game(path)) == tree(big5)
    with pytest.raises(UnicodeEncodeError):  # a ValueError; the old file is kept
        write_game(game, path, "chinese", encoding="big5")
    assert tree(read_game(path)) == tree(big5)


def test_write_appends_games_to_a_stream():
    buf = io.StringIO()
    for i in range(3):
        game = Game()
        game.headers["Round"] = str(i)
        game.add_variation(Move.from_iccs("h2e2"))
        write_game(game, buf)
    buf.seek(0)
    assert [g.headers["Round"] for g in read_games(buf)] == ["0", "1", "2"]


def test_write_refuses_an_illegal_tree():
    game = Game()
    game.add_variation(Move.from_iccs("h2h8"))
    with pytest.raises(ValueError):
        write_game(game, io.StringIO())


def test_write_without_comments_or_variations():
    game = sample_tree()
    full = str(game)

    def written(**kw):
        buf = io.StringIO()
        write_game(game, buf, **kw)
        head, body = buf.getvalue().split("\n\n", 1)
        assert head == full.split("\n\n", 1)[0]          # the same headers
        return " ".join(body.split()), pgn_text(buf.getvalue())

    body, again = written(comments=False, variations=False)   # plain PGN
    assert body == "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 1/2-1/2"
    assert list(lines_of(again)) == [iccs(game.mainline_moves())]
    assert again.comment == "" and all(not n.comment and not n.nags for n in again.mainline())
    body, again = written(comments=False)
    assert body == ("1. h2e2 ( 1. c3c4 b9c7 ( 1... c6c5 2. h2e2 ) 2. b0c2 ) ( 1. b2e2 ) "
                    "1... h9g7 2. h0g2 i9h9 ( 2... b9c7 3. i0h0 ) 3. i0h0 b9c7 1/2-1/2")
    assert list(lines_of(again)) == list(lines_of(game))
    body, again = written(variations=False)
    assert body == ("{ 开局 } 1. h2e2 $1 { 中炮 } 1... h9g7 2. h0g2 i9h9 3. i0h0 b9c7 $14 "
                    "1/2-1/2")
    assert tree(again) == [tree(game)[0][:4] + (tree(again)[0][4],)]
    assert [(n.comment, n.nags) for n in again.mainline()] == [
        (n.comment, n.nags) for n in game.mainline()]
    assert str(game) == full                               # the default writes everything
    # Black to move first: the first move keeps its "1..." without a comment before it
    black = pgn_text('[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/'
                     'RNBAKABNR b - - 1 1"]\n{ start } 1... h9g7 { ok } 2. h0g2 *')
    buf = io.StringIO()
    write_game(black, buf, comments=False, variations=False)
    assert buf.getvalue().rstrip().endswith("\n\n1... h9g7 2. h0g2 *")


def _assert_only(path: Path, content: bytes) -> None:
    assert path.read_bytes() == content
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no temp file left


def test_atomic_write_keeps_old_file_when_replace_fails(tmp_path, monkeypatch):
    path = tmp_path / "game.pgn"
    path.write_bytes(b"old contents")
    os.chmod(path, 0o640)

    def failing_replace(src, dst):
        raise OSError("disk on fire")
    monkeypatch.setattr(pgn.os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk on fire"):
        write_game(sample_tree(), path)
    _assert_only(path, b"old contents")
    monkeypatch.undo()
    write_game(sample_tree(), path)
    assert tree(read_game(path)) == tree(sample_tree())
    assert path.stat().st_mode & 0o777 == 0o640  # permissions kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.pgn"]


def test_atomic_write_keeps_old_file_when_interrupted_mid_write(tmp_path, monkeypatch):
    path = tmp_path / "game.pgn"
    path.write_bytes(b"old contents")
    failing_writes(monkeypatch, 10, KeyboardInterrupt())   # dies after part of the data
    with pytest.raises(KeyboardInterrupt):
        write_game(sample_tree(), path)
    _assert_only(path, b"old contents")


def test_atomic_write_creates_new_file(tmp_path):
    path = tmp_path / "new.pgn"
    write_game(sample_tree(), path, "wxf")
    assert tree(read_game(path)) == tree(sample_tree())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.pgn"]
    with pytest.raises(InvalidFenError):  # nothing written when the game is broken
        bad = Game()
        bad.headers["FEN"] = "junk"
        write_game(bad, tmp_path / "bad.pgn")
    assert not (tmp_path / "bad.pgn").exists()


# --- garbage in -------------------------------------------------------------------------------

VOCAB = ["[", "]", '"', "{", "}", "(", ")", ";", "$", "$12", "1.", "2...", "1-0", "0-1", "*",
         "1/2-1/2", "h2e2", "h9g7", "h0g2", "C2=5", "H8+7", "炮二平五", "馬８進７", "前车进一",
         "[Event \"x\"]", "[FEN \"", "\n", " ", "!", "?!", "--", "Z9", "中", "\ufeff", "\x00",
         "e0e1", "i9i8", "1、", "。", "½-½"]


def _check_garbage(data) -> None:
    # read_game always moves on: a bounded number of calls reaches the end
    stream = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data)
    for _ in range(10000):
        try:
            if read_game(stream) is None:
                break
        except PgnError as err:
            assert isinstance(err, ValueError)
            # a bad game carries what was read; data of another kind is named
            assert err.game is not None or str(err).startswith("this is "), err
    else:
        raise AssertionError("read_game never reached the end")


def test_garbage_is_read_or_rejected_cleanly():
    rng = random.Random(20240601)
    for _ in range(300):
        _check_garbage("".join(rng.choice(VOCAB) for _ in range(rng.randrange(1, 60))))
    for _ in range(200):
        _check_garbage(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
    raw = (CCPD / "master_draw.pgn").read_bytes()
    for _ in range(200):  # a real file with random damage
        data = bytearray(raw)
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        _check_garbage(bytes(data[:rng.randrange(len(data) + 1)]))


# --- all games of games.jsonl, written and read back ----------------------------------------

GAMES = games()


@pytest.fixture(scope="module")
def built_games():
    built = []
    for record in GAMES:
        game = Game()
        game.headers.update(Event=record["event"], Red=record["red"], Black=record["black"],
                            Result=record["result"])
        if record.get("date"):
            game.headers["Date"] = record["date"]
        game.add_line(Move.from_iccs(m) for m in record["moves"])
        built.append(game)
    return built


@pytest.mark.parametrize("notation", pgn.NOTATIONS)
def test_all_games_survive_write_and_read(built_games, notation):
    buf = io.StringIO()
    for game in built_games:
        write_game(game, buf, notation)
    buf.seek(0)
    back = list(read_games(buf))
    assert len(back) == len(GAMES) == 3000
    problems = []
    for record, game, again in zip(GAMES, built_games, back):
        if iccs(again.mainline_moves()) != record["moves"]:
            problems.append(f"{record['source']}: moves differ")
        if dict(again.headers) != {**dict(game.headers), "Format": again.headers["Format"]}:
            problems.append(f"{record['source']}: headers {dict(again.headers)}")
    assert problems == [], "\n".join(problems[:10])
    assert {g.headers["Format"] for g in back} == {
        {"iccs": "ICCS", "wxf": "WXF", "chinese": "Chinese"}[notation]}


def test_games_with_final_position_match_the_data(built_games):
    for record, game in list(zip(GAMES, built_games))[::60]:
        assert game.end().board().fen().split()[:2] == record["final_fen"].split()[:2]
        assert game.board().fen() == STARTING_FEN


def test_plain_pgn_reads_back_with_cchess(built_games, tmp_path):
    """cchess's PGN reader fails on comments, NAGs and variations (and stops
    at some Chinese moves): the plain ICCS export is what it reads."""
    import cchess  # a test dependency ([test] extra): missing is a failure, not a skip
    path = tmp_path / "game.pgn"
    for game in [sample_tree(), *built_games[::100]]:
        write_game(game, path, comments=False, variations=False)
        assert cchess.Game.read_from(str(path)).dump_iccs_moves() == [
            iccs(game.mainline_moves())]


# --- writing through links, keeping permissions (cxiangqi.files) ---------------------------

def test_write_game_to_a_symbolic_link_writes_the_target(tmp_path):
    import os
    import stat
    target = tmp_path / "real.pgn"
    target.write_text("old\n", encoding="utf-8")
    os.chmod(target, 0o640)
    link = tmp_path / "link.pgn"
    link.symlink_to(target)
    game = Game.from_board(_board_after("h2e2", "h9g7"))
    write_game(game, link)
    assert link.is_symlink() and os.readlink(link) == str(target)   # the link stays
    assert [m.iccs() for m in read_game(target).mainline_moves()] == ["h2e2", "h9g7"]
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640           # permissions kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.pgn", "real.pgn"]  # no temp file


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "g.pgn"
    target.write_text("old\n", encoding="utf-8")
    game = Game.from_board(_board_after("h2e2"))
    game.headers["Red"] = "胡荣华"
    with pytest.raises(UnicodeEncodeError):
        write_game(game, target, encoding="ascii")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["g.pgn"]


def _board_after(*moves):
    board = Board()
    for m in moves:
        board.push_iccs(m)
    return board


# --- a file of another kind is named, not read as garbage ------------------------------------

@pytest.mark.parametrize("reader, path, says", [
    ("pgn", "xqf/test.xqf", "this is an XQF file: use cxiangqi.xqf.read_game"),
    ("pgn", "dhtmlxq/44.html", "this is a DhtmlXQ page: use cxiangqi.dhtmlxq.read_game"),
    ("pgn", "xqf/test.cbf", "CBF file, which cxiangqi.pgn cannot read"),
    ("pgn", "xqf/test.cbr", "CBR file, which cxiangqi.pgn cannot read"),
    ("xqf", "xqf/test2.pgn", "this is a PGN file: use cxiangqi.pgn.read_game"),
    ("xqf", "dhtmlxq/44.html", "this is a DhtmlXQ page: use cxiangqi.dhtmlxq.read_game"),
    ("xqf", "xqf/test.cbr", "CBR file, which cxiangqi.xqf cannot read"),
    ("dhtmlxq", "xqf/test.xqf", "this is an XQF file: use cxiangqi.xqf.read_game"),
    ("dhtmlxq", "xqf/test2.pgn", "this is a PGN file: use cxiangqi.pgn.read_game"),
    ("dhtmlxq", "xqf/test.cbf", "CBF file, which cxiangqi.dhtmlxq cannot read"),
])
def test_a_record_of_another_kind_is_named(reader, path, says):
    from cxiangqi import dhtmlxq, xqf
    read = {"pgn": pgn.read_game, "xqf": xqf.read_game, "dhtmlxq": dhtmlxq.read_game}[reader]
    with pytest.raises(PgnError, match=re.escape(says)) as info:
        read(RAW / path)
    assert "\\x" not in str(info.value) and "\ufffd" not in str(info.value)   # no binary shown


def test_pgn_streams_of_another_kind_are_named_too():
    data = (RAW / "xqf" / "test.xqf").read_bytes()
    with pytest.raises(PgnError, match="XQF file"):
        read_game(io.BytesIO(data))
    page = (RAW / "dhtmlxq" / "44.html").read_bytes().decode("utf-8", "replace")
    with pytest.raises(PgnError, match="DhtmlXQ"):
        read_game(io.StringIO(page))
    # a PGN stream read game after game is not sniffed again mid-way
    stream = io.StringIO('[Event "a"]\n1. h2e2 *\n\n[Event "b"]\n1. b0c2 *\n')
    assert read_game(stream).headers["Event"] == "a"
    assert read_game(stream).headers["Event"] == "b"
