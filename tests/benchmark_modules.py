"""Loads a script of benchmarks/ (not a package) as a module, for the tests
of the match harness and the benchmarks."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/<name>.py as the module cxiangqi_<name> (registered in
    sys.modules first, as dataclasses in the script need)."""
    spec = importlib.util.spec_from_file_location(f"cxiangqi_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
