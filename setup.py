"""Build the compiled core of cxiangqi.

Compiler directives are set once, here.  ``CXIANGQI_DEBUG=1`` in the
environment turns bounds and wrap-around checks back on (and drops -O3) so
the test suite can be run against a core that traps every out-of-range index
and every signed overflow.

With GCC the release build is profile-guided: the core is compiled once
instrumented, searches the bench positions and runs a small perft, and is
compiled again from the counts that run wrote (about +5 % nodes per second;
the moves and node counts are the same, only the code layout changes).
Other compilers, and ``CXIANGQI_PGO=0``, build without it; any failure on
the way (a compiler without profile support, a training run that does not
finish) falls back to the plain build with a warning.
"""
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("CXIANGQI_DEBUG", "") not in ("", "0")
PGO_WANTED = os.environ.get("CXIANGQI_PGO", "1") != "0"

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
    # UBSan traps out-of-range indexing of fixed-size arrays.  -fno-wrapv
    # undoes Python's -fwrapv, under which signed overflow (and a left shift
    # of a negative number) is defined and UBSan would not trap it.
    compile_args = ["-O1", "-g", "-UNDEBUG", "-DCXIANGQI_DEBUG", "-fno-wrapv",
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

# What the instrumented core runs to collect its profile: the search on the
# bench positions (one thread, fixed depth, so the counts are the same on
# every build), and move generation through perft.
PGO_TRAINING = """
from cxiangqi import Board
from cxiangqi.engine import bench
bench(11)
Board().perft(4)
"""


def _is_gcc(compiler) -> bool:
    cc = getattr(compiler, "compiler_so", None) or [sysconfig.get_config_var("CC") or "cc"]
    try:
        out = subprocess.run([cc[0], "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out.lower()


class BuildExt(build_ext):
    """build_ext with the profile-guided release build described at the top."""

    def build_extensions(self):
        if DEBUG or not PGO_WANTED or not _is_gcc(self.compiler):
            super().build_extensions()
            return
        try:
            self._build_with_profile()
        except Exception as exc:        # compiler, linker or training: the plain build
            self.warn(f"profile-guided build failed ({exc}); building without it")
            self._set_flags([], [])
            super().build_extensions()

    def _set_flags(self, compile_extra, link_extra):
        self.force = True               # every object again, with these flags
        for ext in self.extensions:
            ext.extra_compile_args = compile_args + compile_extra
            ext.extra_link_args = link_args + link_extra

    def _build_with_profile(self):
        profile = os.path.abspath(os.path.join(self.build_temp, "pgo-profile"))
        shutil.rmtree(profile, ignore_errors=True)
        generate = [f"-fprofile-generate={profile}", "-fprofile-update=single"]
        self._set_flags(generate, generate)
        super().build_extensions()
        with tempfile.TemporaryDirectory() as tmp:
            # the package's Python files beside the instrumented modules
            package = os.path.join(tmp, "cxiangqi")
            shutil.copytree(os.path.join("src", "cxiangqi"), package,
                            ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
            for ext in self.extensions:
                shutil.copy(self.get_ext_fullpath(ext.name), package)
            env = dict(os.environ, PYTHONPATH=tmp)
            subprocess.run([sys.executable, "-c", PGO_TRAINING], cwd=tmp, env=env,
                           check=True, timeout=600)
        if not os.path.isdir(profile):
            raise RuntimeError("the training run wrote no profile")
        # -fprofile-partial-training: what the training did not run is
        # optimised as usual, not as cold code
        self._set_flags([f"-fprofile-use={profile}", "-fprofile-partial-training",
                         "-fprofile-correction", "-Wno-missing-profile", "-DCXIANGQI_PGO"], [])
        super().build_extensions()


setup(
    cmdclass={"build_ext": BuildExt},
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
