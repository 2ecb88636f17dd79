"""cxiangqi.records (one entry point, format by content) and the CCBridge
readers cxiangqi.cbr (CBR, CBL) and cxiangqi.cbf: the real samples against
the decodings of cchess (stored, and cchess itself), libraries, damaged
files of every format, and folders with bad files among good ones."""
from __future__ import annotations

import gzip
import json
import random
import shutil
import warnings
import zlib

import pytest

from conftest import DATA

from cxiangqi import STARTING_FEN, Move, cbf, cbr, dhtmlxq, pgn, records, xqf
from cxiangqi.records import RecordError, RecordWarning

RAW = DATA / "raw"
XQF_DIR = RAW / "xqf"
EXPECTED = json.loads((XQF_DIR / "expected_decoded_by_cchess.json").read_text(encoding="utf-8"))
CB_FILES = ["test.cbf", "test.cbr", "test2.cbf", "test2.cbr"]
SAMPLES = {  # file -> format, for every sample of every format
    **{p.name: "xqf" for p in XQF_DIR.iterdir() if p.suffix.lower() == ".xqf"},
    "test.cbf": "cbf", "test2.cbf": "cbf", "test.cbr": "cbr", "test2.cbr": "cbr",
    "test2.pgn": "pgn",
}


def lines_of(node, prefix=()):
    if not node.variations:
        yield list(prefix)
    for child in node.variations:
        yield from lines_of(child, prefix + (child.move.iccs(),))


def read(name: str):
    return records.read_game(XQF_DIR / name)


# --- telling the formats apart --------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_detect_format_of_samples(name):
    data = (XQF_DIR / name).read_bytes()
    assert records.detect_format(data) == SAMPLES[name]


def test_detect_format_of_other_samples():
    for path in (RAW / "dhtmlxq").glob("*.html"):
        assert records.detect_format(path.read_bytes()) == "dhtmlxq"
    for path in list((RAW / "ccpd_pgn_big5").glob("*.pgn")) + list(RAW.glob("*.pgn")):
        assert records.detect_format(path.read_bytes()) == "pgn", path
    assert records.detect_format(b"") is None
    assert records.detect_format(bytes(range(256)) * 4) is None
    assert records.detect_format(b"just some words, no game here\n") is None
    # an extension says nothing: an XQF file named .pgn is read as XQF
    assert records.detect_format((XQF_DIR / "test.xqf").read_bytes()) == "xqf"


def test_format_told_by_content_not_name(tmp_path):
    shutil.copy(XQF_DIR / "test.cbr", tmp_path / "looks_like.pgn")
    shutil.copy(XQF_DIR / "test2.cbf", tmp_path / "no_extension")
    game = records.read_game(tmp_path / "looks_like.pgn")
    assert len(list(lines_of(game))) == 12
    game = records.read_game(tmp_path / "no_extension")
    assert game.headers["ECCO"] == "D04"


# --- CBR and CBF against the expected decodings and cchess --------------------------------

@pytest.mark.parametrize("name", CB_FILES)
def test_ccbridge_samples_decode_to_expected_lines(name):
    want = EXPECTED[name]
    game = read(name)
    assert game.errors == []
    assert game.board().fen() == want["init_fen"] == STARTING_FEN
    assert list(lines_of(game)) == [line["moves"] for line in want["lines"]]
    assert all(line["pyffish_legal"] for line in want["lines"])


@pytest.mark.parametrize("name", CB_FILES)
def test_ccbridge_samples_agree_with_cchess(name):
    import cchess  # a test dependency ([test] extra): missing is a failure, not a skip
    theirs = cchess.Game.read_from(str(XQF_DIR / name))
    assert list(lines_of(read(name))) == theirs.dump_iccs_moves()


def test_cbr_headers_and_comments():
    game = read("test.cbr")
    info = EXPECTED["test.cbr"]["info"]
    assert game.headers["Title"] == info["title"] == game.headers["Event"]
    assert game.headers["Result"] == info["result"]
    game = read("test2.cbr")
    assert game.headers["Title"] == "Test"
    assert game.comment == "李1"
    commented = [n for n in lines_nodes(read("test.cbr")) if n.comment]
    assert commented, "test.cbr has move comments"
    assert all("\x00" not in n.comment for n in commented)


def lines_nodes(game):
    stack = list(game.variations)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.variations)


def test_cbf_headers_and_comments():
    game = read("test.cbf")
    h = game.headers
    assert h["Title"] == "第一局 屏风马巡河炮抵当头炮局(和)"
    assert h["Event"] == "居荣鑫《象棋古谱全局三种》" and h["Annotator"] == "居荣鑫"
    assert h["ECCO"] == "C03" and h["Result"] == "*"
    assert game.comment == "中炮横车盘头马对屏风马双炮巡河"
    assert game.end().comment.startswith("至此，红方多兵")
    assert read("test2.cbf").headers["Result"] == "1/2-1/2"


def test_cbr_input_kinds():
    data = (XQF_DIR / "test.cbr").read_bytes()
    for source in (XQF_DIR / "test.cbr", str(XQF_DIR / "test.cbr"), data, bytearray(data)):
        assert len(list(lines_of(cbr.read_game(source)))) == 12
    with pytest.raises(TypeError):
        cbr.read_game(12)


# --- CBL libraries ----------------------------------------------------------------------------

def _library(records_: list, name: str = "测试库") -> bytes:
    """A CBL library: header, then each record padded to 4096-byte blocks."""
    head = bytearray(101952)
    head[:16] = cbr.LIBRARY_MAGIC
    head[60:64] = len(records_).to_bytes(4, "little")
    raw = name.encode("utf-16-le")
    head[64:64 + len(raw)] = raw
    body = b""
    for rec in records_:
        body += rec + bytes(-len(rec) % 4096)
    return bytes(head) + body


def _note() -> bytes:
    """A text-only record, as CCBridge puts between the games of a library."""
    rec = bytearray(4096)
    rec[:16] = cbr.RECORD_MAGIC
    text = "说明".encode("utf-16-le")
    rec[2214:2218] = (4).to_bytes(4, "little")
    rec[2218:2222] = len(text).to_bytes(4, "little")
    rec[2222:2222 + len(text)] = text
    return bytes(rec)


def test_cbl_library(tmp_path):
    one, two = ((XQF_DIR / n).read_bytes() for n in ("test.cbr", "test2.cbr"))
    path = tmp_path / "lib.cbl"
    path.write_bytes(_library([_note(), one, two]))
    assert records.detect_format(path.read_bytes()) == "cbl"
    games = list(cbr.read_library(path))
    assert [len(list(lines_of(g))) for g in games] == [12, 1]
    assert list(lines_of(games[0])) == list(lines_of(cbr.read_game(one)))
    assert games[1].headers["Library"] == "测试库"
    found = list(records.iter_records(path))
    assert [(r.index, r.ok) for r in found] == [(1, True), (2, True)]  # the note is left out


def test_cbl_with_a_damaged_record_keeps_the_others(tmp_path):
    one, two = ((XQF_DIR / n).read_bytes() for n in ("test.cbr", "test2.cbr"))
    bad = bytearray(two)
    bad[2120:2210] = bytes(90)
    bad[2120 + 4] = 0x15  # a red king alone: no black king
    path = tmp_path / "lib.cbl"
    path.write_bytes(_library([one, bytes(bad), two]))
    found = list(records.iter_records(path))
    assert [(r.index, r.ok) for r in found] == [(0, True), (1, False), (2, True)]
    err = found[1].error
    assert str(path) in str(err) and "game 2" in str(err) and "start position" in str(err)
    with pytest.raises(cbr.CbrError) as info:
        list(cbr.read_library(path))
    assert info.value.game_index == 1


# --- damaged files of every format ------------------------------------------------------------

def test_cbr_truncated_anywhere_is_a_clear_error():
    data = (XQF_DIR / "test.cbr").read_bytes()
    rng = random.Random(zlib.crc32(b"cbr-truncate"))
    # (cut at 2218, right after the game comment flag, it is a game without moves)
    cuts = sorted(set([0, 1, 15, 16, 100, 2213, 2214, 2216, 2219] +
                      rng.sample(range(2219, len(data) - 1), 40)))
    for n in cuts:
        with pytest.raises(cbr.CbrError) as info:
            cbr.read_game(data[:n])
        assert "CBR" in str(info.value)


def test_cbr_flipped_bytes_never_crash():
    data = (XQF_DIR / "test.cbr").read_bytes()
    rng = random.Random(zlib.crc32(b"cbr-flip"))
    for _ in range(300):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            damaged[rng.randrange(16, len(damaged))] = rng.randrange(256)
        try:
            game = cbr.read_game(bytes(damaged), errors="keep")
        except cbr.CbrError:
            continue
        for line in lines_of(game):  # whatever was read is legal
            board = game.board()
            for m in line:
                board.push(Move.from_iccs(m))


def test_cbr_illegal_move_is_reported_with_the_rest_of_the_game():
    data = bytearray((XQF_DIR / "test2.cbr").read_bytes())
    # the second move, h7e7 (points 25 -> 22), becomes h7e9: the cannon onto its own king
    pos = data.index(bytes([0x05, 0x00, 25, 22]), 2214)
    data[pos + 3] = 4
    with pytest.raises(cbr.CbrError) as info:
        cbr.read_game(bytes(data))
    err = info.value
    assert (err.ply, err.move_text, err.offset) == (1, "h7e9", pos)
    assert "illegal move h7e9" in str(err) and f"{pos:#x}" in str(err)
    assert [m.iccs() for m in err.game.mainline_moves()] == ["h2e2"]
    assert err.game.next().comment == "李2"
    kept = cbr.read_game(bytes(data), errors="keep")
    assert len(kept.mainline_moves()) == 1 and len(kept.errors) == 1


def test_cbr_not_a_record():
    with pytest.raises(cbr.CbrError, match="not a CBR record"):
        cbr.read_game(b"hello")
    with pytest.raises(cbr.CbrError, match="not a CBL library"):
        list(cbr.read_library(b"hello"))


def test_cbf_damaged():
    good = (XQF_DIR / "test2.cbf").read_bytes()
    with pytest.raises(cbf.CbfError, match="malformed CBF record"):
        cbf.read_game(good[:len(good) // 2])
    with pytest.raises(cbf.CbfError, match="not a CBF record"):
        cbf.read_game(b"<?xml version='1.0'?><Other/>")
    with pytest.raises(cbf.CbfError, match="DOCTYPE"):
        cbf.read_game(b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "xx">]>'
                      b"<ChineseChessRecord>&x;</ChineseChessRecord>")
    bad_value = good.replace(b'value="72-42"', b'value="7x-42"', 1)
    with pytest.raises(cbf.CbfError, match="malformed CBF move value '7x-42'"):
        cbf.read_game(bad_value)
    bad_fen = good.replace(b"<FEN>rnbakabnr", b"<FEN>rnbakakbnr", 1)
    with pytest.raises(cbf.CbfError, match="bad FEN"):
        cbf.read_game(bad_fen)


def test_cbf_illegal_move_keeps_the_moves_before():
    good = (XQF_DIR / "test2.cbf").read_bytes()
    # the 3rd move 79-67 (h0g2) becomes 79-77: the horse cannot go straight ahead
    bad = good.replace(b'value="79-67"', b'value="79-77"', 1)
    with pytest.raises(cbf.CbfError) as info:
        cbf.read_game(bad)
    err = info.value
    assert "illegal move h0h2" in str(err) and err.ply == 2
    assert [m.iccs() for m in err.game.mainline_moves()] == ["h2e2", "h7e7"]
    kept = cbf.read_game(bad, errors="keep")
    assert len(kept.mainline_moves()) == 2 and len(kept.errors) == 1


def test_cbf_moves_after_the_end_are_reported_not_misread():
    text = ('<ChineseChessRecord><Head/><MoveList><Move value="00-00"/>'
            '<Move value="77-47" end="1"/><Move value="70-62"/></MoveList>'
            '</ChineseChessRecord>')
    with pytest.raises(cbf.CbfError, match="1 moves after the end of the main line"):
        cbf.read_game(text)
    assert [m.iccs() for m in cbf.read_game(text, errors="keep").mainline_moves()] == ["h2e2"]


def _bad_files(tmp_path):
    """One damaged file of each format, with what its error must say."""
    xqf_data = (XQF_DIR / "test.xqf").read_bytes()
    cbr_data = (XQF_DIR / "test.cbr").read_bytes()
    cbf_data = (XQF_DIR / "test.cbf").read_bytes()
    html = next((RAW / "dhtmlxq").glob("*.html")).read_text(encoding="utf-8", errors="replace")
    bad = {
        "cut.xqf": (xqf_data[:700], "truncated XQF"),
        "cut.cbr": (cbr_data[:2600], "truncated"),
        "cut.cbf": (cbf_data[:2000], "malformed CBF"),
        "bad.html": (html.replace("[DhtmlXQ_movelist]", "[DhtmlXQ_movelist]7x").encode("utf-8"),
                     "malformed DhtmlXQ movelist"),
        "bad.pgn": ('[Event "x"]\n\n1. h2e2 h9g7 2. h2h9 *\n'.encode(), "cannot play move 'h2h9'"),
        "noise.pgn": (bytes(range(256)) * 8, "not a game record"),
        "empty.pgn": (b"", "empty file"),
    }
    for name, (data, _) in bad.items():
        (tmp_path / name).write_bytes(data)
    return {name: why for name, (_, why) in bad.items()}


def test_damaged_file_of_every_format_is_a_clear_error(tmp_path):
    for name, why in _bad_files(tmp_path).items():
        with pytest.raises(RecordError) as info:
            records.read_game(tmp_path / name)
        err = info.value
        assert isinstance(err, ValueError)
        assert str(tmp_path / name) in str(err) and why in str(err), str(err)


def test_folder_with_bad_files_yields_every_good_game_and_names_the_bad(tmp_path):
    folder = tmp_path / "collection"
    (folder / "sub").mkdir(parents=True)
    for name in ("test.xqf", "test.cbr", "test2.cbf", "test2.pgn"):
        shutil.copy(XQF_DIR / name, folder / name)
    for path in list((RAW / "dhtmlxq").glob("*.html"))[:3]:
        shutil.copy(path, folder / "sub" / path.name)
    shutil.copy(RAW / "wukong_Hu_Ronghua_UCI_first5.pgn", folder / "sub" / "five.pgn")
    (folder / "notes.json").write_text("{}")        # not a record extension: not read
    (folder / ".hidden.pgn").write_text("garbage")  # hidden: not read
    bad = _bad_files(folder / "sub")
    errors = []
    games = list(records.read_games(folder, errors=errors.append))
    assert len(games) == 4 + 3 + 5
    named = sorted(e.path.rsplit("/", 1)[-1] for e in errors)
    assert named == sorted(bad)
    for e in errors:
        assert e.path.startswith(str(folder)) and bad[e.path.rsplit("/", 1)[-1]] in str(e)
    # the default reports them as warnings and reads on
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert len(list(records.read_games(folder))) == len(games)
    assert sorted(str(w.message).split(":")[0].rsplit("/", 1)[-1] for w in caught
                  if issubclass(w.category, RecordWarning)) == sorted(bad)
    # "raise" stops at the first one
    with pytest.raises(RecordError):
        list(records.read_games(folder, errors="raise"))


def test_partial_games_on_request(tmp_path):
    path = tmp_path / "bad.pgn"
    path.write_text('[Event "x"]\n\n1. h2e2 h9g7 2. h2h9 *\n')
    assert list(records.read_games(path, errors="skip")) == []
    [game] = records.read_games(path, errors="skip", partial=True)
    assert [m.iccs() for m in game.mainline_moves()] == ["h2e2", "h9g7"]


def test_every_sample_of_every_format(tmp_path):
    found = list(records.iter_records(RAW))
    by_format = {}
    for r in found:
        by_format.setdefault(r.format, []).append(r)
    assert {f: len(v) for f, v in by_format.items()} == {
        "pgn": 29, "dhtmlxq": 15, "xqf": 6, "cbf": 2, "cbr": 2}
    bad = sorted((r.path.rsplit("/", 1)[-1], r.index) for r in found if not r.ok)
    assert bad == [("WildHouse.xqf", 0), ("illegal_move_after_mate_00000011.pgn", 0),
                   ("illegal_notation_error_00000753.pgn", 0)]
    # the same games as the format's own reader
    for r in by_format["dhtmlxq"]:
        assert [m.iccs() for m in r.game.mainline_moves()] == [
            m.iccs() for m in dhtmlxq.read_game(r.path).mainline_moves()]
    for r in by_format["xqf"]:
        if r.ok:
            assert str(r.game) == str(xqf.read_game(r.path))


def test_gzip_files(tmp_path):
    for name in ("test2.pgn", "test.xqf", "test.cbr"):
        (tmp_path / (name + ".gz")).write_bytes(gzip.compress((XQF_DIR / name).read_bytes()))
    games = {p.name: records.read_game(p) for p in tmp_path.iterdir()}
    assert str(games["test.xqf.gz"]) == str(xqf.read_game(XQF_DIR / "test.xqf"))
    assert str(games["test2.pgn.gz"]) == str(pgn.read_game(XQF_DIR / "test2.pgn"))
    assert len(list(records.read_games(tmp_path))) == 3


def test_missing_path():
    with pytest.raises(FileNotFoundError):
        list(records.read_games("/no/such/folder"))


@pytest.mark.parametrize("name", ["cxiangqi.records", "cxiangqi.cbf", "cxiangqi.cbr"])
def test_doctests(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_bad_game_inside_a_collection_file(tmp_path):
    # a PGN of three games whose second has an illegal move, and a DhtmlXQ page
    # of two blocks whose first has malformed moves: the other games are read,
    # the bad ones reported with their index
    path = tmp_path / "three.pgn"
    path.write_text('[Event "a"]\n\n1. h2e2 h9g7 *\n\n[Event "b"]\n\n1. h2e2 h9g7 2. e2e9 *\n\n'
                    '[Event "c"]\n\n1. b2e2 *\n')
    found = list(records.iter_records(path))
    assert [(r.index, r.ok, r.game.headers["Event"] if r.game else None) for r in found] == [
        (0, True, "a"), (1, False, "b"), (2, True, "c")]
    assert f"{path}: game 2" in str(found[1].error) and "e2e9" in str(found[1].error)
    page = tmp_path / "page.html"
    page.write_text("<p>[DhtmlXQ][DhtmlXQ_movelist]77x7[/DhtmlXQ_movelist][/DhtmlXQ]</p>"
                    "<p>[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]</p>")
    found = list(records.iter_records(page))
    assert [(r.index, r.ok) for r in found] == [(0, False), (1, True)]
    assert [m.iccs() for m in found[1].game.mainline_moves()] == ["h2e2", "h9g7"]
    assert "malformed DhtmlXQ movelist" in str(found[0].error)
