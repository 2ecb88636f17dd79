"""DhtmlXQ records: the dpxq.com sample pages, and trees with variations,
comments and set-up positions through an encoder written from the format
description."""
from __future__ import annotations

import io
import json
import random

import pytest

from conftest import DATA

from cxiangqi import dhtmlxq, pgn, xqf
from cxiangqi.dhtmlxq import DhtmlXQError

PAGES = DATA / "raw" / "dhtmlxq"
EXPECTED = json.loads((PAGES / "expected_iccs.json").read_text(encoding="utf-8"))
RESULTS = {"W": "1-0", "L": "0-1", "D": "1/2-1/2"}


def tree(node):
    return [(c.move.iccs(), c.comment, tree(c)) for c in node.variations]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_pages_decode_to_expected_moves(name):
    game = dhtmlxq.read_game(PAGES / name)
    assert [m.iccs() for m in game.mainline_moves()] == EXPECTED[name]["moves_iccs"]
    assert game.headers["Result"] == RESULTS[EXPECTED[name]["dhtmlxq_result"]]
    page = (PAGES / name).read_text(encoding="latin-1")
    assert f"[DhtmlXQ_red]{game.headers['Red']}[/DhtmlXQ_red]" in page
    assert f"[DhtmlXQ_black]{game.headers['Black']}[/DhtmlXQ_black]" in page


def test_input_kinds():
    path = PAGES / "44.html"
    data = path.read_bytes()
    want = EXPECTED["44.html"]["moves_iccs"]
    for source in (path, str(path), data, io.BytesIO(data), data.decode("latin-1")):
        assert [m.iccs() for m in dhtmlxq.read_game(source).mainline_moves()] == want


def _xy(sq: int) -> str:
    return f"{sq % 9}{9 - sq // 9}"


def encode(game) -> str:
    """A DhtmlXQ block for a game tree (binit, movelist, move_A_I_B, comments)."""
    tags = {"title": game.headers.get("Title", ""), "red": game.headers["Red"],
            "black": game.headers["Black"]}
    board = game.board()
    slots = {c: [] for c in "RNBAKCPrnbakcp"}
    for sq in range(90):
        piece = board.piece_at(sq)
        if piece is not None:
            slots[piece.symbol()].append(sq)
    tags["binit"] = "".join(_xy(slots[ch].pop()) if slots[ch] else "99"
                            for ch in "RNBAKABNRCCPPPPPrnbakabnrccppppp")
    if game.comment:
        tags["comment0"] = game.comment.replace("\n", "||")
    counter = [0]

    def emit(node, branch, ply):
        digits = []
        while True:
            digits.append(_xy(node.move.from_square) + _xy(node.move.to_square))
            if node.comment:
                key = f"comment{branch}_{ply}" if branch else f"comment{ply}"
                tags[key] = node.comment.replace("\n", "||")
            if node.parent.variations[0] is node:
                for alt in node.parent.variations[1:]:
                    counter[0] += 1
                    b = counter[0]
                    tags[f"move_{branch}_{ply}_{b}"] = emit(alt, b, ply)
            if not node.variations:
                return "".join(digits)
            node = node.variations[0]
            ply += 1

    if game.variations:
        tags["movelist"] = emit(game.variations[0], 0, 1)
    return "[DhtmlXQ]" + "".join(f"[DhtmlXQ_{k}]{v}[/DhtmlXQ_{k}]" for k, v in tags.items()) \
        + "[/DhtmlXQ]"


def sample_games():
    tree_game = pgn.read_game(io.StringIO("""[Red "红方"]\n[Black "黑方"]\n{开局\n讲评}
1. h2e2 {中炮} (1. c3c4 {仙人指路} b9c7 (1... c6c5 2. h2e2 {对兵}) 2. b0c2) (1. b2e2)
1... h9g7 2. h0g2 i9h9 (2... b9c7 3. i0h0 (3. b0c2) b7b3) 3. i0h0 b9c7 *"""))
    study = xqf.read_game(DATA / "raw" / "xqf" / "WildHouse.xqf", errors="keep")
    black_first = pgn.read_game(io.StringIO(
        '[FEN "4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 1"]\n1... e9f9 2. b0b9 (2. a8a9 f9f8) *'))
    return [tree_game, study, black_first]


def test_trees_round_trip():
    for game in sample_games():
        again = dhtmlxq.read_game(encode(game))
        assert again.board().fen().split()[:2] == game.board().fen().split()[:2]
        assert tree(again) == tree(game)
        assert again.comment == game.comment
        assert (again.headers["Red"], again.headers["Black"]) == (game.headers["Red"],
                                                                  game.headers["Black"])


def test_comment_escapes_and_fen_tag():
    text = ("[DhtmlXQ][DhtmlXQ_fen]4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 1[/DhtmlXQ_fen]"
            "[DhtmlXQ_comment0]\\u5f00\\u5c40||two[/DhtmlXQ_comment0]"
            "[DhtmlXQ_movelist]40501910[/DhtmlXQ_movelist][DhtmlXQ_comment2]mate[/DhtmlXQ_comment2]"
            "[DhtmlXQ_result]红胜[/DhtmlXQ_result][/DhtmlXQ]")
    game = dhtmlxq.read_game(text)
    assert game.comment == "开局\ntwo"
    assert [m.iccs() for m in game.mainline_moves()] == ["e9f9", "b0b9"]
    assert game.end().comment == "mate" and game.headers["Result"] == "1-0"
    assert game.headers["FEN"] == "4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 1"


def test_illegal_move_is_reported_with_the_rest_of_the_game():
    text = encode(sample_games()[0])
    assert "[DhtmlXQ_move_0_1_1]2625" in text  # 1. c3c4 instead of 1. h2e2 ...
    text = text.replace("[DhtmlXQ_move_0_1_1]2625", "[DhtmlXQ_move_0_1_1]2624")  # c3c5
    with pytest.raises(DhtmlXQError) as info:
        dhtmlxq.read_game(text)
    err = info.value
    assert isinstance(err, ValueError) and err.move_text == "c3c5" and err.ply == 0
    kept = dhtmlxq.read_game(text, errors="keep")
    assert tree(kept) == tree(err.game) and len(kept.errors) == 1
    assert [c.move.iccs() for c in kept.variations] == ["h2e2", "b2e2"]  # c3c5 left out


@pytest.mark.parametrize("text", [
    "", "no block here", "[DhtmlXQ][DhtmlXQ_movelist]7747706[/DhtmlXQ_movelist][/DhtmlXQ]",
    "[DhtmlXQ][DhtmlXQ_movelist]77a77062[/DhtmlXQ_movelist][/DhtmlXQ]",
    "[DhtmlXQ][DhtmlXQ_binit]8979[/DhtmlXQ_binit][/DhtmlXQ]",
    "[DhtmlXQ][DhtmlXQ_binit]" + "00" * 32 + "[/DhtmlXQ_binit][/DhtmlXQ]",
    "[DhtmlXQ][DhtmlXQ_fen]rnbakabnr w[/DhtmlXQ_fen][/DhtmlXQ]",
])
def test_malformed(text):
    with pytest.raises(DhtmlXQError):
        dhtmlxq.read_game(io.StringIO(text))


def test_garbage():
    rng = random.Random(3)
    base = (PAGES / "130.html").read_text(encoding="latin-1")
    for _ in range(300):
        text = list(base)
        for _ in range(rng.randrange(1, 5)):
            text[rng.randrange(len(text))] = rng.choice("0123456789[]_/Dx ")
        try:
            dhtmlxq.read_game("".join(text), errors="keep")
        except DhtmlXQError:
            pass
    with pytest.raises(TypeError):
        dhtmlxq.read_game(3.5)
