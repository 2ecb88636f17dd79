"""Which build of the core is loaded: the bounds-checked one exactly when the
suite was started with CXIANGQI_DEBUG=1 (scripts/test.sh builds it then), so
a CI pass meant for the debug build cannot quietly run the release one."""
import os

from cxiangqi import _core


def test_the_build_asked_for_is_the_one_loaded():
    wanted = os.environ.get("CXIANGQI_DEBUG", "") not in ("", "0")
    assert _core.DEBUG_BUILD is wanted
