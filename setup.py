"""Build the compiled core of cxiangqi.

Compiler directives are set once, here.  ``CXIANGQI_DEBUG=1`` in the
environment turns bounds and wrap-around checks back on (and drops -O3) so
the test suite can be run against a core that traps every out-of-range index.
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CXIANGQI_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "infer_types": True,
    "embedsignature": True,
}

if DEBUG:
    compile_args = ["-O1", "-g", "-UNDEBUG"]
else:
    compile_args = ["-O3"]

MODULES = ["_tables", "_position", "_movegen", "_core"]

extensions = [
    Extension(
        f"cxiangqi.{name}",
        [f"src/cxiangqi/{name}.pyx"],
        extra_compile_args=compile_args,
    )
    for name in MODULES
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        # the debug build must not reuse the optimised C files
        force=DEBUG,
        build_dir="build/cython-debug" if DEBUG else None,
    ),
)
