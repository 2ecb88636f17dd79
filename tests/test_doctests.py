"""The examples in the docstrings and in README.md run as written."""
import doctest
import importlib
from pathlib import Path

import pytest

MODULES = ["cxiangqi", "cxiangqi.board", "cxiangqi.move", "cxiangqi.piece", "cxiangqi.square",
           "cxiangqi.svg", "cxiangqi.engine", "cxiangqi.fen", "cxiangqi.notation", "cxiangqi.pgn", "cxiangqi.book"]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_readme_examples():
    readme = Path(__file__).resolve().parents[1] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0
