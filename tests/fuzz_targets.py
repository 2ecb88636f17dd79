"""Fuzz targets for cxiangqi: seeded mutations of real inputs fed to every
parser and reader, the Board API and the engine command.

Run as a script, in its own process, so that a crash (a segfault, an abort
of the bounds-checked build) is seen by whoever started it rather than
taking it down::

    python tests/fuzz_targets.py TARGET SEED COUNT

prints one JSON line: the target, how many inputs were tried and the
findings (each the input, shortened, and what went wrong).  A finding is any
exception other than the documented ones (ValueError and its subclasses,
TypeError for a wrong type), or a result that breaks a rule (a board whose
queries disagree, a record whose moves do not replay, an engine session
that does not end or answers malformed lines).

tests/test_fuzz.py runs each target briefly with fixed seeds in the default
suite; benchmarks/fuzz.py runs them for minutes.  The same seed always gives
the same inputs (random.Random seeded from zlib.crc32, never hash()).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
import io
import json
import os
import random
import re
import subprocess
import sys
import traceback
import zlib
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("CXIANGQI_DATA") or REPO.parent / "shared" / "data")

# numbers that have broken parsers elsewhere: huge, negative, C-int edges, not numbers
NASTY_NUMBERS = ["0", "-1", "1", "2147483647", "2147483648", "-2147483649", "4294967296",
                 "18446744073709551616", "9" * 40, "1e309", "nan", "inf", "-inf", "0x10",
                 "1.5", "", " ", "00000000000000000001"]
NASTY_TEXT = ["\x00", "\xff", "\ufffd", "\u202e", "炮", "進", "１", "=", ".", "+", "-", "/", " ",
              "\n", "\r", "\t", "(", ")", "{", "}", "[", "]", ";", "$", "\"", "\\", "%", "*"]


# --- mutations ----------------------------------------------------------------------------

def mutate_text(rng: random.Random, text: str, pool: List[str]) -> str:
    """A few random edits of `text`: characters changed, inserted, deleted,
    duplicated, numbers replaced by nasty ones, pieces of other inputs
    spliced in."""
    s = text
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        i = rng.randrange(len(s) + 1)
        j = min(len(s), i + rng.randint(0, 12))
        if op == 0 and s:
            s = s[:i] + rng.choice(NASTY_TEXT) + s[i + 1:]
        elif op == 1:
            s = s[:i] + rng.choice(NASTY_TEXT + [chr(rng.randrange(32, 0x3000))]) + s[i:]
        elif op == 2:
            s = s[:i] + s[j:]
        elif op == 3:
            s = s[:j] + s[i:j] * rng.randint(1, 50) + s[j:]
        elif op == 4:
            digits = [k for k, ch in enumerate(s) if ch.isdigit()]
            if digits:
                k = rng.choice(digits)
                s = s[:k] + rng.choice(NASTY_NUMBERS) + s[k + 1:]
        elif op == 5 and pool:
            other = rng.choice(pool)
            a = rng.randrange(len(other) + 1)
            s = s[:i] + other[a:a + rng.randint(1, 40)] + s[j:]
        elif op == 6:
            s = s[:i]
        else:
            s = s.swapcase() if rng.random() < 0.5 else s.replace(" ", "  ")
    return s


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(6)
        i = rng.randrange(len(b) + 1)
        j = min(len(b), i + rng.randint(0, 16))
        if op == 0 and b:
            b[min(i, len(b) - 1)] = rng.randrange(256)
        elif op == 1:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 2:
            del b[i:j]
        elif op == 3:
            b[j:j] = b[i:j] * rng.randint(1, 20)
        elif op == 4 and b:
            k = min(i, len(b) - 1)
            b[k] = rng.choice((0, 1, 0x7F, 0x80, 0xFF, 0xFE, 10, 13))
        else:
            del b[i:]
    return bytes(b)


# --- the rules every target checks ----------------------------------------------------------

class Finding(Exception):
    """A broken rule (not an exception the API documents)."""


def allowed(exc: BaseException) -> bool:
    """The exceptions cxiangqi documents for bad input."""
    return isinstance(exc, (ValueError, TypeError)) and not isinstance(exc, UnicodeError) \
        or isinstance(exc, UnicodeEncodeError)


def check_board(board: Any) -> None:
    """One definition of legality and check, a FEN that reads back."""
    from cxiangqi import Board
    legal = list(board.legal_moves)
    if not (len(legal) == len(board.legal_moves) == board.perft(1) == len(set(legal))):
        raise Finding(f"legal move counts disagree on {board.fen()}")
    for m in legal:
        if not board.is_legal(m):
            raise Finding(f"{m} listed but not is_legal on {board.fen()}")
    if board.is_check() != bool(board.checkers()):
        raise Finding(f"is_check and checkers disagree on {board.fen()}")
    again = Board(board.fen(), validate=False)
    if again.fen() != board.fen():
        raise Finding(f"fen does not read back: {board.fen()}")
    if legal and board.fullmove_number < 1_000_000 and board.halfmove_clock < 1_000_000:
        m = legal[len(legal) // 2]
        before = board.fen()
        board.push(m)
        board.pop()
        if board.fen() != before:
            raise Finding(f"push/pop changed {before}")


def check_game(game: Any) -> None:
    """Every line of a record replays from its start position."""
    stack = [(game, game.board())]
    while stack:
        node, board = stack.pop()
        for child in node.variations:
            b = board.copy(stack=False)
            b.push(child.move)
            stack.append((child, b))


# --- targets ------------------------------------------------------------------------------

def _lines(name: str, limit: int = 400) -> List[dict]:
    out = []
    with open(DATA / name, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                out.append(json.loads(line))
            if len(out) >= limit:
                break
    return out


class Target(ABC):
    name = ""

    def __init__(self) -> None:
        self.seeds: List[Any] = []

    @abstractmethod
    def one(self, rng: random.Random) -> Any:
        """Makes one input; returns it (for the report)."""

    @abstractmethod
    def run(self, data: Any) -> None:
        """Feeds one input to the code under test; raises on a finding."""


class FenTarget(Target):
    name = "fen"

    def __init__(self) -> None:
        super().__init__()
        self.seeds = [p["fen"] for p in _lines("positions.jsonl", 600)]
        self.seeds += [b["fen"] for b in _lines("bad_fens.jsonl", 100)]

    def one(self, rng: random.Random) -> str:
        return mutate_text(rng, rng.choice(self.seeds), self.seeds)

    def run(self, fen: str) -> None:
        from cxiangqi import Board, InvalidFenError
        for validate in (True, False):
            try:
                board = Board(fen, validate=validate)
            except InvalidFenError:
                continue
            check_board(board)
            if validate and not board.is_valid():
                raise Finding(f"validated board is not valid: {fen!r}")


class NotationTarget(Target):
    name = "notation"

    def __init__(self) -> None:
        super().__init__()
        from cxiangqi import Board
        from cxiangqi.notation import chinese, wxf
        self.cases = []
        for g in _lines("games.jsonl", 40):
            board = Board()
            for k, text in enumerate(g["moves"][:60]):
                from cxiangqi import Move
                move = Move.from_iccs(text)
                if k % 7 == 0:
                    self.cases.append((board.fen(), text, wxf(board, move),
                                       chinese(board, move), chinese(board, move, True)))
                board.push(move)
        self.seeds = [t for c in self.cases for t in c[1:]]

    def one(self, rng: random.Random) -> tuple:
        case = rng.choice(self.cases)
        return case[0], mutate_text(rng, rng.choice(case[1:]), self.seeds)

    def run(self, data: tuple) -> None:
        from cxiangqi import Board, IllegalMoveError, InvalidMoveError, Move
        from cxiangqi.notation import chinese, parse_chinese, parse_move, parse_wxf, wxf
        fen, text = data
        board = Board(fen)
        try:
            Move.from_iccs(text)        # any two squares: not a question of legality
        except InvalidMoveError:
            pass
        parsers = {"parse_move": lambda: parse_move(board, text),
                   "parse_wxf": lambda: parse_wxf(board, text),
                   "parse_chinese": lambda: parse_chinese(board, text),
                   "parse_iccs": lambda: board.parse_iccs(text)}
        for name, parse in parsers.items():
            try:
                move = parse()
            except (InvalidMoveError, IllegalMoveError):
                continue
            if not board.is_legal(move):
                raise Finding(f"{name} gave the illegal {move} for {text!r} in {fen}")
            # what it writes for that move reads back to it
            for write, read in ((wxf, parse_wxf), (chinese, parse_chinese)):
                if read(board, write(board, move)) != move:
                    raise Finding(f"{write.__name__} of {move} does not read back in {fen}")
        if board.fen() != fen:
            raise Finding(f"parsing changed the board: {fen}")


class _RecordTarget(Target):
    files: List[Path] = []

    def __init__(self) -> None:
        super().__init__()
        self.seeds = [p.read_bytes() for p in self.files]

    def one(self, rng: random.Random) -> bytes:
        return mutate_bytes(rng, rng.choice(self.seeds))


class PgnTarget(_RecordTarget):
    name = "pgn"

    def __init__(self) -> None:
        raw = DATA / "raw"
        self.files = sorted((raw / "ccpd_pgn_big5").glob("*.pgn")) + \
            sorted(raw.glob("wukong_*.pgn")) + [raw / "xqf" / "test2.pgn"]
        super().__init__()
        self.seeds.append(b'[Event "v"]\n1. h2e2 (1. b0c2 {c} h9g7 (1... b9c7)) h9g7 $1 '
                          b'2. h0g2! ; x\n (2. b0c2 (2. c3c4)) 1-0\n')

    def run(self, data: bytes) -> None:
        from cxiangqi import pgn
        for stream in (io.BytesIO(data), io.StringIO(data.decode("utf-8", "replace"))):
            for _ in range(1000):
                try:
                    game = pgn.read_game(stream, errors="keep")
                except pgn.PgnError:
                    continue
                if game is None:
                    break
                check_game(game)
                out = io.StringIO()
                try:
                    pgn.write_game(game, out)
                except ValueError:
                    raise Finding("a game read could not be written")
                again = pgn.read_game(io.StringIO(out.getvalue()), errors="keep")
                if again is None or [m.iccs() for m in again.mainline_moves()] != \
                        [m.iccs() for m in game.mainline_moves()]:
                    raise Finding("written game does not read back")
            else:
                raise Finding("read_game never reached the end")


class XqfTarget(_RecordTarget):
    name = "xqf"

    def __init__(self) -> None:
        self.files = sorted((DATA / "raw" / "xqf").glob("*.xqf")) + \
            sorted((DATA / "raw" / "xqf").glob("*.XQF"))
        super().__init__()

    def run(self, data: bytes) -> None:
        from cxiangqi import xqf
        try:
            game = xqf.read_game(data, errors="keep")
        except xqf.XqfError as e:
            if e.offset is not None and not 0 <= e.offset <= max(len(data), 0x400):
                raise Finding(f"offset {e.offset} outside a {len(data)}-byte file")
            return
        check_game(game)


class DhtmlxqTarget(_RecordTarget):
    name = "dhtmlxq"

    def __init__(self) -> None:
        self.files = sorted((DATA / "raw" / "dhtmlxq").glob("*.html"))
        super().__init__()

    def run(self, data: bytes) -> None:
        from cxiangqi import dhtmlxq
        for source in (data, data.decode("utf-8", "replace")):
            try:
                for game in dhtmlxq.read_games(source, errors="keep"):
                    check_game(game)
            except dhtmlxq.DhtmlXQError:
                pass
            except OSError:
                # a short one-line str is taken for a path (documented):
                # a missing file is the usual OSError
                if not isinstance(source, str) or "[DhtmlXQ" in source or "\n" in source:
                    raise


class BoardApiTarget(Target):
    """Random calls of the Board API with random arguments, nasty numbers
    included; afterwards the board's queries must still agree."""
    name = "board"

    NUMBERS = [0, 1, -1, 89, 90, 2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1, 2 ** 63, 2 ** 64, 10 ** 6,
               10 ** 6 + 1, 1.5, float("nan"), None, "3", True]

    def one(self, rng: random.Random) -> list:
        calls = []
        for _ in range(rng.randint(5, 30)):
            name = rng.choice(["push", "pop", "set_piece_at", "remove_piece_at", "halfmove_clock",
                               "fullmove_number", "turn", "piece_at", "perft", "attackers",
                               "is_pinned", "set_fen", "mirror", "transform", "outcome",
                               "set_board_fen", "find_move"])
            arg = rng.choice(self.NUMBERS) if rng.random() < 0.3 else rng.randrange(-2, 92)
            calls.append((name, arg, rng.randrange(1 << 30)))
        return calls

    def run(self, calls: list) -> None:
        from cxiangqi import Board, Piece, flip_horizontal
        board = Board()
        for name, arg, r in calls:
            rng = random.Random(r)
            try:
                if name == "push":
                    legal = list(board.legal_moves)
                    if legal:
                        board.push(rng.choice(legal))
                elif name == "pop":
                    if board.move_stack:
                        board.pop()
                elif name == "set_piece_at":
                    board.set_piece_at(arg, Piece(rng.randint(1, 7), rng.random() < 0.5))
                elif name == "remove_piece_at":
                    board.remove_piece_at(arg)
                elif name in ("halfmove_clock", "fullmove_number"):
                    setattr(board, name, arg)
                elif name == "turn":
                    board.turn = bool(r & 1)
                elif name == "piece_at":
                    board.piece_at(arg)
                elif name == "perft":
                    if isinstance(arg, int) and 0 <= arg <= 2:
                        board.perft(arg)
                    elif not isinstance(arg, int) or arg < 0 or arg > 64:
                        board.perft(arg)
                elif name == "attackers":
                    board.attackers(bool(r & 1), arg)
                elif name == "is_pinned":
                    board.is_pinned(bool(r & 1), arg)
                elif name == "set_fen":
                    board.set_fen(board.fen() if r & 1 else board.mirror().fen(), validate=False)
                elif name == "mirror":
                    board = board.mirror()
                elif name == "transform":
                    board = board.transform(flip_horizontal)
                elif name == "outcome":
                    board.outcome(claim_draw=bool(r & 1))
                elif name == "set_board_fen":
                    board.set_board_fen(board.board_fen())
                elif name == "find_move":
                    board.find_move(arg, rng.randrange(90))
            except Exception as e:
                if not allowed(e):
                    raise
            check_board(board)


class EngineTarget(Target):
    """Random Limit values and searches of the built-in engine."""
    name = "engine"

    GOOD = [0, 1, 2, 3, 0.001, 0.01, 0.05, None]
    BAD = [-1, 2 ** 31, 2 ** 64, 1.5, float("nan"), float("inf"), "1", True]

    def one(self, rng: random.Random) -> dict:
        kw: Dict[str, Any] = {}
        for field in ("time", "depth", "nodes", "mate", "red_clock", "black_clock", "red_inc",
                      "black_inc", "remaining_moves"):
            if rng.random() < 0.25:
                kw[field] = rng.choice(self.BAD if rng.random() < 0.1 else self.GOOD)
        return {"limit": kw, "fen": rng.randrange(1 << 30),
                "hash": rng.choice([1, 1, 1, 2, 0, 1.5])}

    def run(self, data: dict) -> None:
        from cxiangqi import Board
        from cxiangqi.engine import Engine, Limit
        try:
            limit = Limit(**data["limit"])
            engine = Engine(hash_mb=data["hash"])
        except (ValueError, TypeError):
            return
        # keep every search short, whatever the limit says
        guard = Limit(time=min(limit.time or 0.05, 0.05),
                      depth=min(limit.depth or 4, 4),
                      nodes=min(limit.nodes if limit.nodes is not None else 20000, 20000),
                      mate=limit.mate,
                      red_clock=limit.red_clock, black_clock=limit.black_clock,
                      red_inc=limit.red_inc, black_inc=limit.black_inc,
                      remaining_moves=limit.remaining_moves)
        positions = _lines("positions.jsonl", 200)
        board = Board(positions[data["fen"] % len(positions)]["fen"])
        result = engine.search(board, guard)
        if board.legal_moves and (result.move is None or not board.is_legal(result.move)):
            raise Finding(f"no legal answer under {limit!r} in {board.fen()}")


class ConsoleTarget(Target):
    """Engine command sessions: random command lines, in UCI or UCCI, run
    in a child process that must answer well-formed lines and end."""
    name = "console"

    WORDS = ["go", "position", "startpos", "fen", "moves", "stop", "isready", "ponderhit",
             "setoption", "name", "value", "depth", "nodes", "movetime", "time", "wtime",
             "btime", "winc", "binc", "movestogo", "infinite", "ponder", "mate", "draw",
             "banmoves", "hashsize", "Hash", "MultiPV", "batch", "true", "false", "level",
             "ucinewgame", "probe", "h2e2", "h9g7", "e2e9", "a0a9", "searchmoves", "increment",
             "opptime", "usemillisec", "Skill", "Level", "randomness", "huge", "xboard",
             "perft"]
    # what go perft prints besides info lines: "<move>: <count>", a blank
    # line, "Nodes searched: <total>"
    PERFT_LINE = re.compile(r"([a-i][0-9]){2}: [0-9]+|Nodes searched: [0-9]+|")

    def one(self, rng: random.Random) -> List[str]:
        lines = [rng.choice(["uci", "ucci"])]
        for _ in range(rng.randint(3, 14)):
            if rng.random() < 0.35:
                lines.append(rng.choice([
                    "position startpos moves h2e2 h9g7", "go depth 2", "go nodes 500",
                    "go movetime 30", "go infinite", "stop", "isready", "go nodes 0",
                    "go mate 1", "go wtime 100 btime 100", "go time 100 increment 0",
                    "go perft 2", "go perft 9",
                    "setoption batch true", "setoption name MultiPV value 3",
                    "position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"]))
            else:
                words = [rng.choice(self.WORDS) for _ in range(rng.randint(1, 6))]
                words += [rng.choice(NASTY_NUMBERS) for _ in range(rng.randint(0, 2))]
                rng.shuffle(words)
                lines.append(" ".join(words))
        lines += ["stop", "isready", "quit"]
        return lines

    def run(self, lines: List[str]) -> None:
        script = "\n".join(lines) + "\n"
        try:
            proc = subprocess.run([sys.executable, "-m", "cxiangqi.protocol"],
                                  input=script.encode("utf-8", "replace"),
                                  capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            raise Finding("the engine command did not end within 60 s")
        if proc.returncode != 0:
            raise Finding(f"exit code {proc.returncode}: {proc.stderr.decode()[-300:]}")
        if b"Traceback" in proc.stderr:
            raise Finding(f"traceback: {proc.stderr.decode()[-300:]}")
        out = proc.stdout.decode("ascii", "replace").splitlines()
        known = ("id ", "option ", "uciok", "ucciok", "readyok", "info ", "bestmove ",
                 "nobestmove", "bye", "pophash")
        for line in out:
            if not line.startswith(known) and not self.PERFT_LINE.fullmatch(line):
                raise Finding(f"malformed answer line {line[:80]!r}")
            if line.startswith("bestmove ") and line.split()[1] != "(none)":
                from cxiangqi import Move
                Move.from_iccs(line.split()[1])
        if "readyok" not in out[-3:] and out[-1:] != ["bye"] and "readyok" not in out:
            raise Finding("no readyok at the end")


TARGETS: Dict[str, Callable[[], Target]] = {
    t.name: t for t in (FenTarget, NotationTarget, PgnTarget, XqfTarget, DhtmlxqTarget,
                        BoardApiTarget, EngineTarget, ConsoleTarget)
}


def fuzz(name: str, seed: int, count: int) -> dict:
    """Runs `count` inputs of a target from `seed`; returns the summary."""
    target = TARGETS[name]()
    rng = random.Random(zlib.crc32(f"{name}:{seed}".encode()))
    findings = []
    for _ in range(count):
        data = target.one(rng)
        try:
            target.run(data)
        except Finding as f:
            findings.append({"input": repr(data)[:300], "problem": str(f)[:300]})
        except Exception as e:  # noqa: BLE001 - anything else is a finding
            if not allowed(e):
                findings.append({"input": repr(data)[:300],
                                 "problem": "".join(traceback.format_exception_only(
                                     type(e), e)).strip()[:300]})
    return {"target": name, "seed": seed, "tried": count, "findings": findings}


if __name__ == "__main__":
    name, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(fuzz(name, seed, count)))
