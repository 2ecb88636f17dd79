# Shared set-up for scripts/test.sh and scripts/bench.sh.  Source it; do not run it.
#
# It provides:
#   ensure_debian_packages   install the Debian packages listed in APT_NEEDS that are missing
#   ensure_venv FRESH        create $VENV (re-create it when FRESH is 1)
#   install_cxiangqi         build and install the package (".[test]") into $VENV, for real;
#                            skipped when nothing changed since the last install there
#   check_installed_import   make sure `import cxiangqi` finds the installed copy, not src/
#
# Environment it reads:
#   PYTHON          interpreter used to create the venv (default: python3)
#   CXIANGQI_VENV   where the venv lives (default: .venv in the repository root)
#   CXIANGQI_DEBUG  1 = build the core with bounds/wrap-around checks (see setup.py)

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
VENV="${CXIANGQI_VENV:-$REPO_ROOT/.venv}"
VPY="$VENV/bin/python"

# A PYTHONPATH pointing into src/ would let the tests import the source tree
# instead of the built package; the test run must see only what pip installed.
unset PYTHONPATH

say() { printf '==> %s\n' "$*"; }

# Debian packages the build and the tests need.  One entry per package:
#   "<package>|<shell test that succeeds when the package is NOT needed>"
# apt-get is only called when some test fails, and only as root.
# Later issues add their own lines here (e.g. "xvfb|command -v Xvfb").
APT_NEEDS=(
    "python3-venv|\"\$PYTHON\" -c 'import venv, ensurepip'"
    "gcc|command -v gcc"
    "fairymax|test -x /usr/games/maxqi"
    "python3-dev|\"\$PYTHON\" -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()[\"include\"], \"Python.h\")))'"
    # the desktop game (pyfrontend) and its window tests: a virtual display, real
    # clicks, screenshots, Tk for the Debian Python, CJK fonts for the pieces
    "xvfb|command -v Xvfb"
    "xdotool|command -v xdotool"
    "imagemagick|command -v import"
    "python3-tk|\"\$PYTHON\" -c 'import tkinter'"
    "fonts-arphic-ukai|have_font ukai"
    "fonts-wqy-zenhei|have_font 'wenquanyi zen hei'"
)

# Succeeds when an installed font's name contains PATTERN (any case).  The
# font list is captured first and then searched: piping fc-list into
# `grep -q` under `set -o pipefail` fails whenever grep stops reading early
# and fc-list dies of SIGPIPE, which made the check fail about half the time.
have_font() {
    local fonts
    fonts="$(fc-list 2>/dev/null)" || return 1
    grep -qi -- "$1" <<<"$fonts"
}

ensure_debian_packages() {
    local entry pkg check missing=()
    for entry in "${APT_NEEDS[@]}"; do
        pkg="${entry%%|*}"
        check="${entry#*|}"
        if ! eval "$check" >/dev/null 2>&1; then
            missing+=("$pkg")
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        return 0
    fi
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        say "missing Debian packages (not root or no apt-get, not installing): ${missing[*]}"
        return 0
    fi
    say "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq </dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
}

ensure_venv() {
    local fresh="$1"
    if [ "$fresh" = 1 ] && [ -d "$VENV" ]; then
        say "removing $VENV"
        rm -rf "$VENV"
    fi
    if [ -x "$VPY" ] && "$VPY" -c 'import pip' >/dev/null 2>&1; then
        say "using virtual environment $VENV"
    else
        rm -rf "$VENV"
        say "creating virtual environment $VENV ($("$PYTHON" --version 2>&1))"
        "$PYTHON" -m venv "$VENV"
    fi
}

# Build and install cxiangqi with its test extras, as a real (non-editable)
# wheel.  pip rebuilds and reinstalls a local directory on every install and
# never caches its wheel (so no --force-reinstall, which would only reinstall
# every dependency too).  But setuptools keeps compiled objects in build/ and
# skips an extension whose .so there is newer than its .c, so switching between
# the optimised and the CXIANGQI_DEBUG build could install the other mode's
# objects.  build/ is therefore removed before a build unless the stamp file
# says the last build there was an optimised one by this script (and on fresh
# runs), and removed again after a debug build.
install_cxiangqi() {
    local fresh="$1" mode=release stamp="$REPO_ROOT/build/.cxiangqi-build-mode"
    local installed="$VENV/.cxiangqi-installed" want
    case "${CXIANGQI_DEBUG:-}" in ""|0) ;; *) mode=debug ;; esac
    # Nothing changed since the last install into this venv (same sources,
    # same build mode, same Python, and the package still imports): skip
    # the rebuild, so that a second `scripts/play.sh` starts at once.
    want="$mode $(source_fingerprint)"
    if [ "$fresh" != 1 ] && [ -f "$installed" ] && [ "$(cat "$installed")" = "$want" ] \
        && (cd / && "$VPY" -c 'import cxiangqi._core' >/dev/null 2>&1); then
        say "cxiangqi ($mode build) is up to date in $VENV"
        return 0
    fi
    rm -f "$installed"
    if [ "$fresh" = 1 ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$mode" ]; then
        rm -rf "$REPO_ROOT/build"
    fi
    say "building and installing cxiangqi ($mode build) with test dependencies"
    (cd "$REPO_ROOT" && "$VPY" -m pip install --quiet --progress-bar off \
        --no-cache-dir ".[test]" </dev/null)
    if [ "$mode" = debug ]; then
        # leave no debug object behind for a later plain `pip install .`
        rm -rf "$REPO_ROOT/build"
    else
        mkdir -p "$REPO_ROOT/build"
        echo "$mode" >"$stamp"
    fi
    echo "$want" >"$installed"
}

# A checksum of everything the installed package is built from (not of the
# files the build itself writes into src/: .c, .so, .html).
source_fingerprint() {
    local paths=() p
    for p in src pyfrontend setup.py pyproject.toml MANIFEST.in README.md; do
        [ -e "$REPO_ROOT/$p" ] && paths+=("$p")
    done
    (cd "$REPO_ROOT" && {
        "$VPY" -c 'import sys; print(sys.version)' || true
        find "${paths[@]}" -type f \
            \( -name '*.py' -o -name '*.pyx' -o -name '*.pxd' -o -name '*.pyi' \
               -o -name '*.wav' -o -name '*.toml' -o -name '*.in' -o -name '*.md' \
               -o -name 'py.typed' \) -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
    } | sha256sum | cut -d' ' -f1) || echo unknown
}

# Print where cxiangqi is imported from; fail if it is the source tree.
# An import error is reported but left for pytest to show in detail.
check_installed_import() {
    (cd "$REPO_ROOT" && "$VPY" - <<'EOF'
import os, sys
src = os.path.realpath("src")
bad = [p for p in sys.path if p and os.path.realpath(p) == src]
if bad:
    sys.exit(f"sys.path contains the source tree: {bad}")
try:
    import cxiangqi
except Exception as exc:  # pytest will show the details
    print(f"==> warning: import cxiangqi failed: {exc!r}")
    sys.exit(0)
where = os.path.realpath(os.path.dirname(cxiangqi.__file__))
if where.startswith(src + os.sep):
    sys.exit(f"cxiangqi imported from the source tree ({where}), not the installed package")
print(f"==> cxiangqi imported from {where}")
EOF
    )
}
