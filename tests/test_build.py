"""The compiled Cython core is what gets imported, not some Python fallback."""
from __future__ import annotations

import importlib
import importlib.machinery
from pathlib import Path

import pytest

import cxiangqi

CORE_MODULES = ["_core", "_movegen", "_position", "_tables", "_eval", "_search", "_gomoku"]
EXT_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def test_import_package():
    mod = importlib.import_module("cxiangqi")
    assert mod is cxiangqi
    assert mod.Board is not None
    assert mod.STARTING_FEN.startswith("rnbakabnr/")


@pytest.mark.parametrize("name", CORE_MODULES)
def test_core_module_is_compiled_extension(name):
    mod = importlib.import_module(f"cxiangqi.{name}")
    file = getattr(mod, "__file__", None)
    assert file is not None, f"cxiangqi.{name} has no __file__"
    assert file.endswith(EXT_SUFFIXES), (
        f"cxiangqi.{name} was imported from {file}, not from a compiled extension "
        f"(expected one of {EXT_SUFFIXES})"
    )
    assert isinstance(mod.__loader__, importlib.machinery.ExtensionFileLoader)
    assert mod.__spec__.origin == file


@pytest.mark.parametrize("name", CORE_MODULES)
def test_no_python_file_shadows_core_module(name):
    pkg_dir = Path(cxiangqi.__file__).resolve().parent
    for suffix in (".py", ".pyc"):
        shadow = pkg_dir / f"{name}{suffix}"
        assert not shadow.exists(), f"{shadow} could shadow the compiled cxiangqi.{name}"
    compiled = [p for p in pkg_dir.iterdir() if p.name.startswith(name + ".") and p.name.endswith(EXT_SUFFIXES)]
    assert compiled, f"no compiled {name}.* next to {cxiangqi.__file__}"


def test_package_ships_typing_files():
    pkg_dir = Path(cxiangqi.__file__).resolve().parent
    assert (pkg_dir / "py.typed").is_file()
    assert list(pkg_dir.glob("*.pyi")), "no .pyi stub for the compiled core"


def test_public_names_exported():
    names = [
        "RED", "BLACK", "COLORS", "COLOR_NAMES",
        "KING", "ADVISOR", "ELEPHANT", "HORSE", "ROOK", "CANNON", "PAWN",
        "PIECE_TYPES", "PIECE_SYMBOLS", "SQUARES", "SQUARE_NAMES",
        "square", "square_file", "square_rank", "square_name", "parse_square",
        "STARTING_FEN", "InvalidFenError", "InvalidMoveError", "IllegalMoveError",
        "Piece", "Move", "Outcome", "Termination", "Board",
    ]
    missing = [n for n in names if not hasattr(cxiangqi, n)]
    assert missing == []
