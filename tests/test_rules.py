"""One rule at a time, on small hand-made positions.

Every expected list below was worked out by hand (and cross-checked against
Fairy-Stockfish with its ranks shifted by one).  Each test asserts the exact
sorted set of legal ICCS moves.
"""
from __future__ import annotations

import pytest

from cxiangqi import BLACK, RED, Board, Move, Termination


def legal(fen):
    return sorted(m.iccs() for m in Board(fen).legal_moves)


def legal_from(fen, square_name):
    return sorted(m.iccs() for m in Board(fen).legal_moves if m.iccs().startswith(square_name))


CASES = {
    # ---------------------------------------------------------------- king
    # red king d2 (palace corner): d1 and e2 only; c2 and d3 are outside
    "king_palace_corner": ("5k3/9/9/9/9/9/9/3K5/9/9 w - - 0 1",
                           ["d2d1", "d2e2"]),
    # red king e1 (palace centre): one orthogonal step; d1 would face the
    # black king on the open d-file
    "king_palace_centre": ("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
                           ["e1e0", "e1e2", "e1f1"]),
    # black king e8: e9 e7 f8; d8 faces the red king d0
    "black_king_centre": ("9/4k4/9/9/9/9/9/9/9/3K5 b - - 0 1",
                          ["e8e7", "e8e9", "e8f8"]),
    # ------------------------------------------------------ flying general
    # red king may not step onto d0 facing the black king d9
    "fg_king_step": ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
                     ["e0e1", "e0f0"]),
    # crossed red pawn e5 is the only piece between the kings: it may move
    # along the file (e6) but not sideways
    "fg_only_blocker_pawn": ("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1",
                             ["e0d0", "e0e1", "e0f0", "e5e6"]),
    # black horse e5 between the kings cannot move at all
    "fg_only_blocker_horse": ("4k4/9/9/9/4n4/9/9/9/9/4K4 b - - 0 1",
                              ["e9d9", "e9e8", "e9f9"]),
    # -------------------------------------------------------------- advisor
    # advisor d2 goes only to e1
    "advisor_corner": ("3k5/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1",
                       ["d2e1", "e0d0", "e0e1", "e0f0"]),
    # black advisor e8 reaches the four corners; king d9 faces red king
    "advisor_centre_black": ("4k4/4a4/9/9/9/9/9/9/9/3K5 b - - 0 1",
                             ["e8d7", "e8d9", "e8f7", "e8f9", "e9f9"]),
    # ------------------------------------------------------------- elephant
    # black elephant g9: eye f8 blocked by a red pawn, so only g9i7; the
    # black king has no move (d9 faces, e8/f9 covered by the pawn)
    "elephant_eye_blocked": ("4k1b2/5P3/9/9/9/9/9/9/9/3K5 b - - 0 1",
                             ["g9i7"]),
    # black elephant c5 on its river bank: a7, e7; not a3, e3
    "elephant_river_black": ("3k5/9/9/9/2b6/9/9/9/9/4K4 b - - 0 1",
                             ["c5a7", "c5e7", "d9d8"]),
    # red elephant g4 on its river bank: e2, i2; not e6, i6
    "elephant_river_red": ("3k5/9/9/9/9/6B2/9/9/9/4K4 w - - 0 1",
                           ["e0e1", "e0f0", "g4e2", "g4i2"]),
    # ---------------------------------------------------------------- horse
    # leg e5 blocked: no d6, f6
    "horse_leg_up": ("3k5/9/9/9/4p4/4N4/9/9/9/4K4 w - - 0 1",
                     ["e0e1", "e0f0", "e4c3", "e4c5", "e4d2", "e4f2", "e4g3", "e4g5"]),
    # leg e3 blocked: no d2, f2
    "horse_leg_down": ("3k5/9/9/9/9/4N4/4p4/9/9/4K4 w - - 0 1",
                       ["e0e1", "e0f0", "e4c3", "e4c5", "e4d6", "e4f6", "e4g3", "e4g5"]),
    # leg d4 blocked: no c3, c5 (the d4 pawn also closes the d-file, so e0d0 is legal)
    "horse_leg_left": ("3k5/9/9/9/9/3pN4/9/9/9/4K4 w - - 0 1",
                       ["e0d0", "e0e1", "e0f0", "e4d2", "e4d6", "e4f2", "e4f6", "e4g3", "e4g5"]),
    # leg f4 blocked: no g3, g5
    "horse_leg_right": ("3k5/9/9/9/9/4Np3/9/9/9/4K4 w - - 0 1",
                        ["e0e1", "e0f0", "e4c3", "e4c5", "e4d2", "e4d6", "e4f2", "e4f6"]),
    # ----------------------------------------------------------------- rook
    # rook a0 slides up to and captures the a6 pawn; along rank 0 up to d0
    "rook_slides_and_captures": ("3k5/9/9/p8/9/9/9/9/9/R3K4 w - - 0 1",
                                 ["a0a1", "a0a2", "a0a3", "a0a4", "a0a5", "a0a6", "a0b0",
                                  "a0c0", "a0d0", "e0e1", "e0f0"]),
    # --------------------------------------------------------------- cannon
    # cannon c4: slides to empty points; captures c9 over the c7 screen and
    # h4 over the e4 screen; not c7/e4 (no screen) nor i4 (two screens)
    "cannon_screens": ("2r1k4/9/2n6/9/9/2C1p2pp/9/9/9/3K5 w - - 0 1",
                       ["c4a4", "c4b4", "c4c0", "c4c1", "c4c2", "c4c3", "c4c5", "c4c6",
                        "c4c9", "c4d4", "c4h4", "d0d1", "d0e0"]),
    # ----------------------------------------------------------------- pawn
    # red: a9 on the last rank only sideways; c6 forward and sideways;
    # c3 before the river only forward
    "pawns_red": ("P2k5/9/9/2P6/9/9/2P6/9/9/4K4 w - - 0 1",
                  ["a9b9", "c3c4", "c6b6", "c6c7", "c6d6", "e0e1", "e0f0"]),
    # black: a0 last rank sideways; g3 crossed; g6 not crossed
    "pawns_black": ("4k4/9/9/6p2/9/9/6p2/9/9/p2K5 b - - 0 1",
                    ["a0b0", "e9e8", "e9f9", "g3f3", "g3g2", "g3h3", "g6g5"]),
    # -------------------------------------------------------- self-check
    # red rook e3 pinned by the black rook e7: only along the e-file
    "pinned_rook": ("3k5/9/4r4/9/9/9/4R4/9/9/4K4 w - - 0 1",
                    ["e0e1", "e0f0", "e3e1", "e3e2", "e3e4", "e3e5", "e3e6", "e3e7"]),
    # red horse e2 pinned by the black rook e6: no move at all
    "pinned_horse": ("3k5/9/9/4r4/9/9/9/4N4/9/4K4 w - - 0 1",
                     ["e0e1", "e0f0"]),
    # black cannon e7 faces the red king with no screen: the red rook must
    # not step to e4 (it would become the screen)
    "no_screen_into_cannon_line": ("5k3/9/4c4/9/9/R8/9/9/9/4K4 w - - 0 1",
                                   ["a4a0", "a4a1", "a4a2", "a4a3", "a4a5", "a4a6", "a4a7",
                                    "a4a8", "a4a9", "a4b4", "a4c4", "a4d4", "a4f4", "a4g4",
                                    "a4h4", "a4i4", "e0d0", "e0e1"]),
    # ------------------------------------------------------ check evasion
    # red king e0 checked by the rook e6: block (a2e2, c4e3, c4e5), capture
    # (i6e6) or step aside (e0f0); e0d0 faces the black king, e0e1 stays in check
    "check_evasion": ("3k5/9/9/4r3R/9/2N6/9/R8/9/4K4 w - - 0 1",
                      ["a2e2", "c4e3", "c4e5", "e0f0", "i6e6"]),
    # ------------------------------------------------- no legal move at all
    "stalemate_red": ("3k5/9/9/9/9/9/9/9/3p1p3/4K4 w - - 0 1", []),
    "checkmate_red": ("3k5/9/9/9/4rr3/9/9/9/9/4K4 w - - 0 1", []),
}


@pytest.mark.parametrize("name", CASES)
def test_exact_legal_moves(name):
    fen, expected = CASES[name]
    assert expected == sorted(expected)
    board = Board(fen)
    assert sorted(m.iccs() for m in board.legal_moves) == expected
    assert board.legal_moves.count() == len(expected)
    assert board.perft(1) == len(expected)
    for text in expected:
        assert board.is_legal(Move.from_iccs(text))


# ------------------------------------------------------------- details

def test_king_never_leaves_palace_from_any_palace_point():
    palace = {"d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"}
    for point in sorted(palace):
        file, rank = "abcdefghi".index(point[0]), int(point[1])
        rows = ["9"] * 10
        rows[0], rows[1] = "4k4", "4a4"   # the advisor e8 keeps the kings apart
        row = ["1"] * 9
        row[file] = "K"
        rows[9 - rank] = "".join(row)
        fen = "/".join(_compress(r) for r in rows) + " w - - 0 1"
        moves = legal_from(fen, point)
        targets = {m[2:] for m in moves}
        steps = set()
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            f, r = file + df, rank + dr
            name = "abcdefghi"[f] + str(r) if 0 <= f < 9 and 0 <= r < 10 else None
            if name in palace:
                steps.add(name)
        assert targets == steps, (fen, moves)


def _compress(row: str) -> str:
    out, run = "", 0
    for ch in row:
        if ch == "1":
            run += 1
        else:
            if run:
                out += str(run)
                run = 0
            out += ch
    if run:
        out += str(run)
    return out


def test_compress_helper():
    assert _compress("111K11111") == "3K5"
    assert _compress("9") == "9"


def test_advisor_all_points():
    # red advisor on each of its 5 points, red king f0 / e0 off the way
    expected = {
        "d0": ["e1"], "f0": ["e1"], "d2": ["e1"], "f2": ["e1"],
        "e1": ["d0", "d2", "f0", "f2"],
    }
    fens = {
        "d0": "4k4/9/9/9/9/9/9/9/9/3A1K3 w - - 0 1",
        "f0": "3k5/9/9/9/9/9/9/9/9/4KA3 w - - 0 1",
        "d2": "3k5/9/9/9/9/9/9/3A5/9/5K3 w - - 0 1",
        "f2": "3k5/9/9/9/9/9/9/5A3/9/4K4 w - - 0 1",
        "e1": "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
    }
    for point, fen in fens.items():
        got = sorted(m[2:] for m in legal_from(fen, point))
        assert got == expected[point], fen


def test_elephant_all_moves_from_centre():
    # red elephant e2 with free eyes: c0, g0, c4, g4
    fen = "3k5/9/9/9/9/9/9/4B4/9/5K3 w - - 0 1"
    assert legal_from(fen, "e2") == ["e2c0", "e2c4", "e2g0", "e2g4"]
    # eye f1 blocked by the own king, eye d3 by a black pawn: only c0, g4
    fen = "3k5/9/9/9/9/9/3p5/4B4/5K3/9 w - - 0 1"
    assert legal_from(fen, "e2") == ["e2c0", "e2g4"]


def test_horse_on_edge_and_capture():
    # horse a0: b2 (leg a1) and c1 (leg b0); captures the black cannon on c1
    fen = "3k5/9/9/9/9/9/9/9/2c6/N3K4 w - - 0 1"
    assert legal_from(fen, "a0") == ["a0b2", "a0c1"]
    assert Board(fen).is_capture(Move.from_iccs("a0c1"))
    # leg a1 blocked: only c1
    fen = "3k5/9/9/9/9/9/9/9/p1c6/N3K4 w - - 0 1"
    assert legal_from(fen, "a0") == ["a0c1"]


def test_rook_cannot_jump_or_take_own_piece():
    fen = "3k5/9/9/9/9/9/9/9/9/RN2K4 w - - 0 1"
    assert legal_from(fen, "a0") == ["a0a1", "a0a2", "a0a3", "a0a4", "a0a5", "a0a6", "a0a7",
                                     "a0a8", "a0a9"]


def test_cannon_cannot_capture_own_piece_over_screen():
    # cannon a0, screen a3 (own pawn), own rook a7: a7 not capturable
    fen = "3k5/9/R8/9/9/9/P8/9/9/C3K4 w - - 0 1"
    assert legal_from(fen, "a0") == ["a0a1", "a0a2", "a0b0", "a0c0", "a0d0"]


def test_pawn_never_backwards_after_crossing():
    fen = "3k5/9/9/9/2P6/9/9/9/9/4K4 w - - 0 1"
    assert legal_from(fen, "c5") == ["c5b5", "c5c6", "c5d5"]
    fen = "3k5/9/9/9/9/2p6/9/9/9/4K4 b - - 0 1"
    assert legal_from(fen, "c4") == ["c4b4", "c4c3", "c4d4"]


def test_king_cannot_step_into_attack():
    # black rook f9 covers the f-file: red king e1 may not go f1
    fen = "3k1r3/9/9/9/9/9/9/9/4K4/9 w - - 0 1"
    assert legal_from(fen, "e1") == ["e1e0", "e1e2"]


def test_king_cannot_capture_protected_piece():
    # black rook e1 checks, protected by black rook e5 behind it; d0 faces
    # the black king, so only f0 remains
    fen = "3k5/9/9/9/4r4/9/9/9/4r4/4K4 w - - 0 1"
    assert Board(fen).is_check()
    assert legal(fen) == ["e0f0"]


def test_only_evasions_when_in_check():
    fen = "3k5/9/9/4r3R/9/2N6/9/R8/9/4K4 w - - 0 1"
    board = Board(fen)
    assert board.is_check()
    pseudo = {m.iccs() for m in board.pseudo_legal_moves}
    legal_set = {m.iccs() for m in board.legal_moves}
    assert legal_set < pseudo
    assert {"a2a3", "c4d6", "e0e1", "i6i9"} <= pseudo - legal_set
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        assert not child.is_attacked_by(BLACK, child.king(RED)), move


def test_stalemate_is_a_loss():
    board = Board("3k5/9/9/9/9/9/9/9/3p1p3/4K4 w - - 0 1")
    assert not board.is_check()
    assert board.legal_moves.count() == 0
    assert board.is_stalemate()
    assert not board.is_checkmate()
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome.termination is Termination.STALEMATE
    assert outcome.winner is BLACK
    assert outcome.result() == "0-1"


def test_checkmate_red():
    board = Board("3k5/9/9/9/4rr3/9/9/9/9/4K4 w - - 0 1")
    assert board.is_check()
    assert board.is_checkmate()
    assert not board.is_stalemate()
    assert board.outcome().termination is Termination.CHECKMATE
    assert board.outcome().winner is BLACK
