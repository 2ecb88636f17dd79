"""What a PyPI user gets: `python -m build` makes a source distribution that
builds (the wheel is built from it, in a clean directory) and a wheel; each
installs in a fresh virtual environment, where the compiled core imports
and the two commands run and tell their version.

Slow (two builds of the core and two virtual environments, about a minute),
and it needs the build tools from the package index, as `pip install .`
does."""
from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import cxiangqi

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
                            capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out


def test_the_sdist_holds_what_a_build_needs(dist):
    (sdist,) = dist.glob("cxiangqi-*.tar.gz")
    names = {n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n}
    for module in ("_core", "_tables", "_position", "_movegen", "_eval", "_search", "_gomoku"):
        assert f"src/cxiangqi/{module}.pyx" in names, module
        assert f"src/cxiangqi/{module}.pxd" in names, module
    for needed in ("setup.py", "pyproject.toml", "README.md", "src/cxiangqi/_types.pxd",
                   "src/cxiangqi/_rules.pxd", "src/cxiangqi/_core.pyi", "src/cxiangqi/py.typed",
                   "pyfrontend/sounds/move.wav"):
        assert needed in names, needed
    assert not [n for n in names if n.endswith((".c", ".so"))]     # no build output


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_installs_in_a_fresh_venv_and_runs(dist, kind, tmp_path):
    (artifact,) = dist.glob("*.whl" if kind == "wheel" else "*.tar.gz")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py, bin_dir = venv / "bin" / "python", venv / "bin"
    install = subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(artifact)],
                             capture_output=True, text=True, timeout=1200)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]

    def run(*args: str, stdin: str = "") -> str:
        result = subprocess.run(list(args), input=stdin, capture_output=True, text=True,
                                cwd=tmp_path, timeout=120)
        assert result.returncode == 0, result.stderr[-3000:]
        return result.stdout

    # the compiled core is what gets imported, from the new environment
    where = run(str(py), "-c", "import cxiangqi, cxiangqi._core as c, cxiangqi._search as s; "
                "print(c.__file__); print(cxiangqi.__version__); print(cxiangqi.Board().perft(3))")
    core_file, version, perft = where.split()
    assert core_file.startswith(str(venv)) and core_file.endswith(".so")
    assert version == cxiangqi.__version__ and perft == "79666"
    # the engine command, once, and both commands' versions
    assert run(str(bin_dir / "cxiangqi-engine"), "--version").strip() == \
        f"cxiangqi {cxiangqi.__version__}"
    assert run(str(bin_dir / "cxiangqi"), "--version").strip() == f"cxiangqi {cxiangqi.__version__}"
    out = run(str(bin_dir / "cxiangqi-engine"),
              stdin="uci\nisready\nposition startpos\ngo depth 2\nisready\nquit\n")
    assert "uciok" in out and "readyok" in out
    assert any(line.startswith("bestmove ") for line in out.splitlines())
