"""The version of cxiangqi: written here only (pyproject.toml reads it from
this file, cxiangqi.__version__, ``cxiangqi-engine --version`` and
``cxiangqi --version`` show it)."""

__version__ = "0.1.0"
