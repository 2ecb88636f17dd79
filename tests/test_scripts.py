"""The shell scripts' helpers (scripts/_env.sh), run in bash."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _bash(script: str, env_extra=None, root: Path = REPO) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.run(["bash", "-c", f"set -euo pipefail\nsource {root}/scripts/_env.sh\n"
                           + script], capture_output=True, text=True, env=env, timeout=60)


def test_font_check_cannot_fail_on_a_long_font_list(tmp_path):
    # A font list longer than a pipe's buffer, the font we look for first:
    # `fc-list | grep -q` under pipefail failed whenever grep stopped early
    # and fc-list died of SIGPIPE.  have_font must say yes every time.
    fake = tmp_path / "fc-list"
    fake.write_text("#!/bin/sh\necho '/usr/share/fonts/ukai.ttc: AR PL UKai CN'\n"
                    "i=0; while [ $i -lt 20000 ]; do echo \"/fonts/f$i.ttf: Font $i\"; "
                    "i=$((i+1)); done\n")
    fake.chmod(0o755)
    env = {"PATH": f"{tmp_path}:{os.environ['PATH']}"}
    result = _bash("for i in 1 2 3 4 5 6 7 8; do have_font ukai; done; "
                   "have_font 'no such font' && echo found || echo missing", env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "missing"


def test_the_install_is_skipped_only_when_no_source_changed(tmp_path):
    # a copy of the repository's layout: the fingerprint covers the sources,
    # not what the build writes next to them
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "_env.sh", root / "scripts" / "_env.sh")
    pkg = root / "src" / "cxiangqi"
    pkg.mkdir(parents=True)
    (pkg / "_core.pyx").write_text("x = 1\n")
    (pkg / "board.py").write_text("y = 2\n")
    (root / "setup.py").write_text("")
    env = {"CXIANGQI_VENV": str(tmp_path / "venv")}

    def fingerprint() -> str:
        result = _bash("source_fingerprint", env, root)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    first = fingerprint()
    assert len(first) == 64 and fingerprint() == first
    (pkg / "_core.c").write_text("/* generated */")        # build output: ignored
    (pkg / "_core.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\0")
    assert fingerprint() == first
    (pkg / "_core.pyx").write_text("x = 2\n")               # a source: noticed
    assert fingerprint() != first
