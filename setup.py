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
    # C division in both builds: the debug build must compute exactly what the
    # release build computes (Python's floor division would round negative
    # scores differently and change the search); UBSan traps a zero divisor.
    "cdivision": True,
    "infer_types": True,
    "embedsignature": True,
}

if DEBUG:
    # C-level checks too: the CXIANGQI_DEBUG macro turns on the core's
    # invariant checks (pos_check after every change made from Python), and
    # UBSan traps out-of-range indexing of fixed-size arrays.
    compile_args = ["-O1", "-g", "-UNDEBUG", "-DCXIANGQI_DEBUG",
                    "-fsanitize=undefined,bounds,integer-divide-by-zero",
                    "-fno-sanitize-recover=all"]
    link_args = ["-fsanitize=undefined,bounds"]
else:
    compile_args = ["-O3"]
    link_args = []

MODULES = ["_tables", "_position", "_movegen", "_eval", "_see", "_rules", "_core", "_search",
           "_gomoku"]

extensions = [
    Extension(
        f"cxiangqi.{name}",
        [f"src/cxiangqi/{name}.pyx"],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )
    for name in MODULES
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        # the debug build must not reuse the optimised C files
        force=DEBUG,
        build_dir="build/debug/cython" if DEBUG else None,
    ),
    # separate objects and libraries, so a release build never picks up a
    # debug one (or the reverse) from build/
    options={"build": {"build_base": "build/debug"}} if DEBUG else {},
)
