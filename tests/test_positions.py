"""Differential tests against positions.jsonl (and pyffish as a second reference)."""
from __future__ import annotations

import random

import pyffish
import pytest

from conftest import chunks, ffish_to_iccs, iccs_to_ffish, positions

from cxiangqi import BLACK, RED, Board, Move

POSITIONS = positions()
CHUNK = 250
POSITION_CHUNKS = chunks(POSITIONS, CHUNK)
HAND = [p for p in POSITIONS if "expect" in p]


def test_data_shape():
    assert len(POSITIONS) == 4031
    assert len(HAND) == 31
    assert sum(p["checkmate"] for p in POSITIONS) >= 140
    assert sum(p["stalemate"] for p in POSITIONS) >= 7


def _check_position(p):
    """Return a list of human-readable mismatches for one record."""
    fen = p["fen"]
    problems = []
    board = Board(fen)
    got = sorted(m.iccs() for m in board.legal_moves)
    if got != p["legal_moves"]:
        extra = sorted(set(got) - set(p["legal_moves"]))
        missing = sorted(set(p["legal_moves"]) - set(got))
        problems.append(f"{fen}: legal moves differ; extra={extra} missing={missing}")
    if len(got) != len(set(got)):
        problems.append(f"{fen}: duplicate legal moves")
    n = len(p["legal_moves"])
    if board.legal_moves.count() != n or len(board.legal_moves) != n:
        problems.append(f"{fen}: count()={board.legal_moves.count()} len()={len(board.legal_moves)} expected {n}")
    if bool(board.legal_moves) != (n > 0):
        problems.append(f"{fen}: bool(legal_moves) wrong")
    # besides no legal move, the game is also over with no attacking piece
    # left on either side, or after 120 plies without a capture
    fields = fen.split()
    no_attackers = not any(ch in "RNCPrncp" for ch in fields[0])
    move_limit = len(fields) > 4 and int(fields[4]) >= 120
    for name, expected in (("is_check", p["in_check"]),
                           ("is_checkmate", p["checkmate"]),
                           ("is_stalemate", p["stalemate"]),
                           ("is_game_over", p["checkmate"] or p["stalemate"]
                            or no_attackers or move_limit)):
        value = getattr(board, name)()
        if value is not expected:
            problems.append(f"{fen}: {name}() is {value!r}, expected {expected!r}")
    if (len(board.checkers()) > 0) != p["in_check"]:
        problems.append(f"{fen}: checkers()={board.checkers()} but in_check={p['in_check']}")
    return problems


@pytest.mark.parametrize("chunk", POSITION_CHUNKS, ids=lambda c: f"{POSITIONS.index(c[0])}")
def test_positions_differential(chunk):
    problems = []
    for p in chunk:
        problems.extend(_check_position(p))
    assert problems == [], "\n".join(problems[:20])


@pytest.mark.parametrize("p", HAND, ids=[p["tag"] for p in HAND])
def test_hand_cases(p):
    board = Board(p["fen"])
    legal = sorted(m.iccs() for m in board.legal_moves)
    assert legal == p["legal_moves"]
    expect = p["expect"]
    for uci in expect.get("must_have", []):
        assert uci in legal, f"{uci} must be legal ({p['note']})"
        assert Move.from_iccs(uci) in board.legal_moves
        assert board.is_legal(Move.from_iccs(uci))
    for uci in expect.get("must_not_have", []):
        assert uci not in legal, f"{uci} must be illegal ({p['note']})"
        assert Move.from_iccs(uci) not in board.legal_moves
        assert not board.is_legal(Move.from_iccs(uci))
    if "in_check" in expect:
        assert board.is_check() is expect["in_check"]
    if "n_legal" in expect:
        assert board.legal_moves.count() == expect["n_legal"]
    if "terminal" in expect:
        assert expect["terminal"] in ("checkmate", "stalemate")
        assert board.is_checkmate() is (expect["terminal"] == "checkmate")
        assert board.is_stalemate() is (expect["terminal"] == "stalemate")


SAMPLE = random.Random(20240602).sample(POSITIONS, 500)


@pytest.mark.parametrize("chunk", chunks(SAMPLE, 100), ids=lambda c: c[0]["fen"].split()[0][:12])
def test_push_pop_every_legal_move(chunk):
    problems = []
    for p in chunk:
        board = Board(p["fen"])
        fen = board.fen()
        key = board.zobrist_hash()
        for move in list(board.legal_moves):
            if not board.is_legal(move) or not board.is_pseudo_legal(move):
                problems.append(f"{fen}: {move} from legal_moves but is_legal/is_pseudo_legal False")
            board.push(move)
            if board.peek() != move or len(board.move_stack) != 1:
                problems.append(f"{fen}: {move}: peek/move_stack wrong after push")
            if board.fen() == fen:
                problems.append(f"{fen}: {move}: fen unchanged after push")
            popped = board.pop()
            if popped != move:
                problems.append(f"{fen}: pop() returned {popped}, pushed {move}")
            if board.fen() != fen or board.zobrist_hash() != key:
                problems.append(f"{fen}: {move}: push/pop did not restore fen/key ({board.fen()})")
                board = Board(fen)
        if board.move_stack:
            problems.append(f"{fen}: move_stack not empty")
    assert problems == [], "\n".join(problems[:20])


@pytest.mark.parametrize("chunk", chunks(SAMPLE, 100), ids=lambda c: c[0]["fen"].split()[0][:12])
def test_no_legal_move_outside_legal_moves(chunk):
    """Every (from, to) pair not listed is rejected by is_legal; pseudo-legal
    moves are a superset of legal moves."""
    problems = []
    all_moves = [Move(a, b) for a in range(90) for b in range(90) if a != b]
    for p in chunk[:10]:
        board = Board(p["fen"])
        legal = set(board.legal_moves)
        pseudo = set(board.pseudo_legal_moves)
        if not legal <= pseudo:
            problems.append(f"{p['fen']}: legal moves not in pseudo_legal_moves: {sorted(map(str, legal - pseudo))}")
        flagged = {m for m in all_moves if board.is_legal(m)}
        if flagged != legal:
            problems.append(f"{p['fen']}: is_legal disagrees with legal_moves: "
                            f"{sorted(map(str, flagged ^ legal))}")
    assert problems == [], "\n".join(problems[:20])


# ---------------------------------------------------------------- pyffish

def test_pyffish_move_conversion():
    assert ffish_to_iccs("h3e3") == "h2e2"
    assert ffish_to_iccs("a10a9") == "a9a8"
    assert ffish_to_iccs("e1e10") == "e0e9"
    assert ffish_to_iccs("i10i1") == "i9i0"
    for bad in ("h3e", "j3e3", "a11a9", "a0a1", "h3e3+"):
        with pytest.raises(ValueError):
            ffish_to_iccs(bad)
    for a in range(90):
        for b in (0, 45, 89):
            if a == b:
                continue
            iccs = Move(a, b).iccs()
            assert ffish_to_iccs(iccs_to_ffish(iccs)) == iccs


PYFFISH_SAMPLE = random.Random(7).sample(POSITIONS, 300)


@pytest.mark.parametrize("chunk", chunks(PYFFISH_SAMPLE, 100), ids=lambda c: c[0]["fen"].split()[0][:12])
def test_legal_moves_match_pyffish(chunk):
    problems = []
    for p in chunk:
        fen = p["fen"]
        theirs = sorted(ffish_to_iccs(m) for m in pyffish.legal_moves("xiangqi", fen, []))
        ours = sorted(m.iccs() for m in Board(fen).legal_moves)
        if ours != theirs:
            problems.append(f"{fen}: ours-pyffish={sorted(set(ours) - set(theirs))} "
                            f"pyffish-ours={sorted(set(theirs) - set(ours))}")
        if Board(fen).is_check() != pyffish.gives_check("xiangqi", fen, []):
            problems.append(f"{fen}: is_check differs from pyffish")
    assert problems == [], "\n".join(problems[:20])


def test_pyffish_after_moves():
    """Positions reached by moves (not FEN parsing) agree with pyffish too."""
    rng = random.Random(99)
    for _ in range(10):
        board = Board()
        played = []
        for _ in range(40):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            board.push(move)
            played.append(iccs_to_ffish(move.iccs()))
            start = pyffish.start_fen("xiangqi")
            theirs = sorted(ffish_to_iccs(m) for m in pyffish.legal_moves("xiangqi", start, played))
            assert sorted(m.iccs() for m in board.legal_moves) == theirs, board.fen()
        ffen = pyffish.get_fen("xiangqi", pyffish.start_fen("xiangqi"), played)
        assert board.fen().split()[:2] == ffen.split()[:2]


def test_search_attack_test_agrees_with_attackers():
    """is_attacked_by (the search's fast attack test) and the generic
    attackers() give the same answer for every square, both colours, on
    400 positions."""
    rng = random.Random(11)
    sample = rng.sample(POSITIONS, 400)
    bad = []
    for p in sample:
        board = Board(p["fen"])
        for color in (RED, BLACK):
            for sq in range(90):
                fast = board.is_attacked_by(color, sq)
                slow = bool(board.attackers(color, sq))
                if fast != slow:
                    bad.append((p["fen"], color, sq, fast, slow))
    assert bad == [], bad[:10]
