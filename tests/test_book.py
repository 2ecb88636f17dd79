"""The opening book: file format, builder, the shipped book, weighted choice."""
import collections
import os
import random
import stat
import struct
import zlib

import pytest

from cxiangqi import Board, Move
from cxiangqi.book import (DEFAULT_BOOK_PATH, DEFAULT_MAX_PLY, DEFAULT_MIN_COUNT, Book,
                           BookBuilder, BookEntry, BookError, build_book, main)

from conftest import DATA, failing_writes, games, load_jsonl

M = Move.from_iccs
START_KEY = 0x046415397AA889C0


def small_builder():
    b = BookBuilder(max_ply=4, min_count=1)
    b.add_game(["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"], "1-0")
    b.add_game(["h2e2", "h9g7", "b0c2"], "1/2-1/2")
    b.add_game(["h2e2", "b9c7"], "0-1")
    b.add_game(["c3c4", "b9c7"], None)                  # no result: counts as a draw
    return b


def test_builder_weights_from_results_and_frequency():
    book = small_builder().build()
    # h2e2: a win (2) + a draw (1) + a loss (0); c3c4: unknown result (1)
    assert book.moves(Board()) == [(M("h2e2"), 3), (M("c3c4"), 1)]
    assert [e.games for e in book.entries(Board())] == [3, 1]
    after = Board()
    after.push(M("h2e2"))
    # h9g7: Black lost one game and drew one (0 + 1); b9c7 won (2)
    assert book.moves(after) == [(M("b9c7"), 2), (M("h9g7"), 1)]
    after.push(M("h9g7"))
    assert book.moves(after) == [(M("h0g2"), 2), (M("b0c2"), 1)]
    after.push(M("h0g2"))
    assert book.moves(after) == []       # Black's i9h9 lost its only game: weight 0, left out
    after.push(M("i9h9"))
    assert book.moves(after) == []       # ply 5: beyond max_ply=4
    assert book.depth() == 3


def test_builder_min_count_and_max_ply():
    b = BookBuilder(max_ply=1, min_count=2)
    for moves, result in ((["h2e2", "h9g7"], "1-0"), (["h2e2"], "0-1"), (["c3c4"], "1-0")):
        b.add_game(moves, result)
    book = b.build()
    # h2e2 was played twice (win + loss = 2 points); c3c4 once (below min_count)
    assert book.moves(Board()) == [(M("h2e2"), 2)]
    assert book.positions == 1 and len(book) == 1


def test_repetition_counts_once_per_game():
    b = BookBuilder(max_ply=20, min_count=1)
    b.add_game(["h0g2", "h9g7", "g2h0", "g7h9"] * 3, "1-0")
    book = b.build()
    assert book.moves(Board()) == [(M("h0g2"), 2)]
    assert book.entries(Board())[0].games == 1


def test_builder_rejects_bad_parameters_and_moves():
    with pytest.raises(ValueError):
        BookBuilder(max_ply=0)
    with pytest.raises(ValueError):
        BookBuilder(min_count=0)
    b = BookBuilder(max_ply=4, min_count=1)
    with pytest.raises(ValueError):            # illegal in the position: IllegalMoveError
        b.add_game(["h2e2", "h2e2"], "1-0")
    assert b.build().moves(Board()) == [(M("h2e2"), 2)]   # the plies before it were kept


def test_round_trip_bytes_and_file(tmp_path):
    book = small_builder().build()
    data = book.to_bytes()
    again = Book.from_bytes(data)
    assert again.to_bytes() == data
    assert list(again.keys()) == list(book.keys())
    for key in book.keys():
        assert again.probe(key) == book.probe(key)
    path = tmp_path / "sub" / "small.bin"
    book.save(path)
    assert path.read_bytes() == data
    opened = Book.open(path)
    assert opened.moves(Board()) == book.moves(Board())
    assert len(opened) == len(book) == 7 and opened.positions == 4


# --- saving: through cxiangqi.files.atomic_write ---------------------------------------------

def test_save_through_a_symbolic_link_replaces_the_target(tmp_path):
    target = tmp_path / "books" / "small.bin"
    target.parent.mkdir()
    target.write_bytes(b"old")
    link = tmp_path / "link.bin"
    link.symlink_to(target)
    book = small_builder().build()
    book.save(link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == book.to_bytes()
    assert sorted(p.name for p in target.parent.iterdir()) == ["small.bin"]  # no temp file


def test_save_keeps_the_permissions_of_the_file(tmp_path):
    path = tmp_path / "small.bin"
    path.write_bytes(b"old")
    os.chmod(path, 0o640)
    small_builder().build().save(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert Book.open(path).to_bytes() == small_builder().build().to_bytes()


def test_a_failure_while_saving_leaves_the_previous_book(tmp_path, monkeypatch):
    path = tmp_path / "small.bin"
    old = Book.from_bytes(small_builder().build().to_bytes())
    old.save(path)
    before = path.read_bytes()
    bigger = BookBuilder(max_ply=6, min_count=1)
    bigger.add_game(["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"], "1-0")
    failing_writes(monkeypatch, 5, OSError(28, "No space left on device"))
    with pytest.raises(OSError, match="No space left"):
        bigger.build().save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["small.bin"]  # no temp file left


def test_entries_are_sorted_heaviest_first_in_the_file():
    data = small_builder().build().to_bytes()
    rows = [struct.unpack(">QHHI", data[i:i + 16]) for i in range(16, len(data), 16)]
    assert rows == sorted(rows, key=lambda r: (r[0], -r[2], r[1]))


def corrupt_cases():
    good = small_builder().build().to_bytes()
    body = bytearray(good[16:])

    def with_body(b, count=None):
        n = len(b) // 16 if count is None else count
        return struct.pack(">7sBII", b"CXQBOOK", 1, n, zlib.crc32(bytes(b))) + bytes(b)

    swapped = bytearray(body)
    swapped[0:16], swapped[16:32] = body[16:32], body[0:16]
    zero_weight = bytearray(body)
    zero_weight[10:12] = b"\0\0"
    bad_move = bytearray(body)
    bad_move[8:10] = struct.pack(">H", 9000)
    same_square = bytearray(body)
    same_square[8:10] = struct.pack(">H", 0)          # a0 to a0
    flipped = bytearray(good)
    flipped[20] ^= 0xFF
    return [
        (b"", "shorter than"),
        (good[:10], "shorter than"),
        (b"PK\x03\x04" + good[4:], "not a cxiangqi book"),
        (good[:7] + b"\x02" + good[8:], "unsupported book version 2"),
        (good[:-5], "truncated or corrupt"),
        (good + b"\0" * 16, "truncated or corrupt"),
        (bytes(flipped), "checksum"),
        (with_body(swapped), "out of order"),
        (with_body(zero_weight), "weight 0"),
        (with_body(bad_move), "not a move code"),
        (with_body(same_square), "not a move code"),
    ]


@pytest.mark.parametrize("data,message", corrupt_cases())
def test_corrupt_books_raise_a_clear_error(data, message, tmp_path):
    with pytest.raises(BookError, match=message):
        Book.from_bytes(data)
    path = tmp_path / "bad.bin"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=message) as err:
        Book.open(path)
    assert str(path) in str(err.value)           # the message names the file


def test_a_move_that_is_not_legal_is_never_returned():
    start = Board().zobrist_hash()
    # what a hash collision or a foreign book could hold: a0a9 (blocked), e0e2
    book = Book({start: [BookEntry(M("a0a9"), 500, 1), BookEntry(M("e0e2"), 400, 1),
                         BookEntry(M("h2e2"), 1, 1)]})
    assert book.probe(start)[0].move == M("a0a9")
    assert book.moves(Board()) == [(M("h2e2"), 1)]
    rng = random.Random(7)
    assert {book.choice(Board(), rng) for _ in range(50)} == {M("h2e2")}


def test_choice_follows_the_weights_and_is_repeatable():
    book = small_builder().build()
    rng = random.Random(zlib.crc32(b"book choice"))
    counts = collections.Counter(book.choice(Board(), rng) for _ in range(4000))
    assert set(counts) == {M("h2e2"), M("c3c4")}
    assert 0.70 < counts[M("h2e2")] / 4000 < 0.80          # weight 3 of 4
    first = [book.choice(Board(), random.Random(3)) for _ in range(5)]
    assert first == [book.choice(Board(), random.Random(3)) for _ in range(5)]
    assert book.choice(Board("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")) is None


# --- the shipped book ------------------------------------------------------------------

@pytest.fixture(scope="module")
def shipped():
    return Book.default()


def positions_of_the_games(max_ply):
    """Zobrist key -> a board, for every position in the first max_ply plies."""
    seen = {}
    for g in games():
        board = Board()
        for ply, text in enumerate(g["moves"][:max_ply]):
            seen.setdefault(board.zobrist_hash(), board.copy())
            board.push_iccs(text)
    return seen


def test_shipped_book_is_small_and_deep_enough(shipped):
    size = DEFAULT_BOOK_PATH.stat().st_size
    assert size == 16 + 16 * len(shipped) and size < 64 * 1024
    assert shipped.positions > 1000 and shipped.depth() == DEFAULT_MAX_PLY
    assert Book.default() is shipped


def test_every_entry_of_the_shipped_book_is_legal(shipped):
    boards = positions_of_the_games(DEFAULT_MAX_PLY)
    n = 0
    for key in shipped.keys():
        assert key in boards, f"book position {key:#x} is in none of the games"
        board = boards[key]
        assert board.zobrist_hash() == key
        for entry in shipped.probe(key):
            assert board.is_legal(entry.move), (board.fen(), entry.move)
            n += 1
        # nothing was filtered: what the file holds is what moves() returns
        assert [e.move for e in shipped.entries(board)] == [e.move for e in shipped.probe(key)]
    assert n == len(shipped)


def test_shipped_book_is_rebuilt_byte_for_byte(tmp_path, shipped):
    out = tmp_path / "book.bin"
    code = main(["build", str(DATA / "games.jsonl"), "--max-ply", str(DEFAULT_MAX_PLY),
                 "--min-count", str(DEFAULT_MIN_COUNT), "-o", str(out)])
    assert code == 0
    assert out.read_bytes() == DEFAULT_BOOK_PATH.read_bytes(), (
        "the shipped book differs from a fresh build: if the Zobrist keys or the builder "
        "changed on purpose, rebuild it with the command in cxiangqi/book.py")


def test_probe_by_hash_equals_probe_by_replaying_the_line(shipped):
    rng = random.Random(zlib.crc32(b"probe by hash"))
    lines = [o["moves"] for o in load_jsonl("openings.jsonl")]
    lines += [g["moves"][:DEFAULT_MAX_PLY] for g in rng.sample(games(), 200)]
    hits = 0
    for line in lines:
        board = Board()
        for text in line:
            by_fen = Board(board.fen())                   # the same position, no history
            assert by_fen.zobrist_hash() == board.zobrist_hash()
            replayed = shipped.moves(board)
            assert shipped.moves(by_fen) == replayed
            assert [(e.move, e.weight) for e in shipped.probe(board.zobrist_hash())] == replayed
            hits += bool(replayed)
            board.push_iccs(text)
    assert hits > 1000


def test_the_start_position_key_is_stable(shipped):
    # The shipped book is keyed by Board.zobrist_hash(): the same on every run
    # and machine.  If this value changes, the book must be rebuilt.
    assert Board().zobrist_hash() == START_KEY
    assert START_KEY in set(shipped.keys())
    assert shipped.moves(Board())[0][0] == M("h2e2")


# --- other sources ---------------------------------------------------------------------

def test_build_from_pgn_and_xqf_files():
    raw = DATA / "raw"
    files = [raw / "xqf" / "test.xqf", raw / "xqf" / "030-黄松轩先胜冯敬如.XQF",
             raw / "ccpd_pgn_big5" / "master_draw.pgn", raw / "wukong_Hu_Ronghua_UCI_first5.pgn",
             raw / "dhtmlxq" / "44.html"]
    builder = BookBuilder(max_ply=10, min_count=1)
    added = [builder.add_file(f) for f in files]
    assert added == [1, 1, 1, 5, 1]
    book = builder.build()
    assert book.positions > 30
    # every position of those games' first 10 plies that has a weighted move is there,
    # with legal moves only
    from cxiangqi import pgn, xqf
    game = xqf.read_game(raw / "xqf" / "test.xqf")      # 0-1: Black's moves count
    board = game.board()
    for ply, move in enumerate(list(game.mainline_moves())[:10]):
        if not board.turn:
            assert move in dict(book.moves(board))
        board.push(move)
    for key in book.keys():
        assert book.probe(key)
    games_in = list(pgn.read_games(raw / "wukong_Hu_Ronghua_UCI_first5.pgn"))
    assert build_book(games_in, max_ply=10, min_count=1).positions > 10


def test_add_file_reports_unreadable_records(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"moves": ["h2e2", "h9g7"], "result": "1-0"}\n'
                    '{"moves": ["h2e2", "zz"], "result": "1-0"}\n'
                    'not json\n', encoding="utf-8")
    b = BookBuilder(max_ply=4, min_count=1)
    b.add_file(path)
    assert len(b.skipped) == 2 and "line 2" in b.skipped[0] and "line 3" in b.skipped[1]


def test_command_line_show_and_info(tmp_path, capsys):
    path = tmp_path / "small.bin"
    small_builder().build().save(path)
    assert main(["show", "--book", str(path), "h2e2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("b9c7  weight     2")
    assert main(["info", "--book", str(path)]) == 0
    assert "4 positions, 7 moves" in capsys.readouterr().out
    (tmp_path / "bad.bin").write_bytes(b"junk")
    assert main(["info", "--book", str(tmp_path / "bad.bin")]) == 1
    assert "not a cxiangqi book" in capsys.readouterr().err


# --- the engine command ----------------------------------------------------------------

def server(protocol, seed=1):
    from cxiangqi.protocol import EngineServer
    out = []
    s = EngineServer(out.append)
    s._book_rng = random.Random(seed)
    s.handle(protocol)
    return s, out


def answer(s, out, *lines):
    del out[:]
    for line in lines:
        s.handle(line)
    assert s.wait_idle(30)
    return list(out)


def test_engine_command_book_is_off_by_default_and_announced():
    s, out = server("uci")
    assert "option name OwnBook type check default false" in out
    got = answer(s, out, "position startpos", "go depth 2")
    assert any(line.startswith("info depth") for line in got)
    assert not any("book" in line for line in got)
    s, out = server("ucci")
    assert "option usebook type check default false" in out


@pytest.mark.parametrize("protocol,option", [("uci", "setoption name OwnBook value true"),
                                             ("ucci", "setoption usebook true"),
                                             ("ucci", "setoption ownbook true")])
def test_engine_command_plays_weighted_book_moves(protocol, option, shipped):
    s, out = server(protocol)
    assert answer(s, out, option, "isready") == ["readyok"]
    kind = "message" if protocol == "ucci" else "string"
    played = collections.Counter()
    for _ in range(30):
        got = answer(s, out, "position startpos", "go depth 6")
        move = got[-1].split()[1]
        assert got == [f"info {kind} book move {move}", f"bestmove {move}"]
        played[M(move)] += 1
    weights = dict(shipped.moves(Board()))
    assert set(played) <= set(weights) and len(played) > 1
    assert played.most_common(1)[0][0] == M("h2e2")
    # deeper in the book, after a few book moves
    board = Board()
    for _ in range(6):
        board.push(shipped.choice(board, random.Random(5)))
    moves = " ".join(m.iccs() for m in board.move_stack)
    got = answer(s, out, f"position startpos moves {moves}", "go depth 6")
    assert M(got[-1].split()[1]) in dict(shipped.moves(board))


def test_engine_command_searches_out_of_book_when_pondering_and_without_banned_moves():
    s, out = server("ucci")
    answer(s, out, "setoption usebook true")
    # out of book: a real search
    got = answer(s, out, "position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "go depth 3")
    assert any(line.startswith("info depth") for line in got) and "book" not in " ".join(got)
    # banned moves are never played from the book
    got = answer(s, out, "position startpos", "banmoves h2e2 c3c4 g0e2", "go depth 3")
    assert got[-1].split()[1] not in ("h2e2", "c3c4", "g0e2")
    # go ponder searches (the book answers only a real go)
    s.handle("position startpos")
    s.handle("go ponder depth 2")
    got = answer(s, out, "ponderhit")
    assert not any("book" in line for line in got)
    s, out = server("uci")
    answer(s, out, "setoption name OwnBook value true")
    got = answer(s, out, "position startpos", "go depth 3 searchmoves b0c2")
    assert got[-1] == "bestmove b0c2"
    got = answer(s, out, "setoption name OwnBook value false", "position startpos", "go depth 1")
    assert "book" not in " ".join(got)
