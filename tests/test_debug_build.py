"""Which build of the core is loaded: the bounds-checked one exactly when the
suite was started with CXIANGQI_DEBUG=1 (scripts/test.sh builds it then), so
a CI pass meant for the debug build cannot quietly run the release one; and
the release build is profile-guided wherever setup.py can make it so (GCC),
so a training run that stops working (setup.py then falls back to the plain
build with only a warning) fails here instead of costing speed unnoticed."""
import os
import subprocess
import sysconfig

from cxiangqi import _core


def _debug_wanted() -> bool:
    return os.environ.get("CXIANGQI_DEBUG", "") not in ("", "0")


def _compiler_is_gcc() -> bool:
    # the compiler setup.py's build uses: $CC, else Python's configured CC
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout
    return "Free Software Foundation" in out and "clang" not in out.lower()


def test_the_build_asked_for_is_the_one_loaded():
    assert _core.DEBUG_BUILD is _debug_wanted()


def test_the_release_build_is_profile_guided_with_gcc():
    wanted = (not _debug_wanted() and os.environ.get("CXIANGQI_PGO", "1") != "0"
              and _compiler_is_gcc())
    assert _core.PGO_BUILD is wanted
