#!/usr/bin/env bash
# Install cxiangqi and launch the desktop game, doing all of its own set-up:
# the Debian packages the game needs (Tk, CJK fonts; only if missing, only as
# root), a virtual environment in .venv, a real build of the compiled core
# (installed with the test dependencies, as scripts/test.sh does, so that
# one environment serves both), then `cxiangqi` (extra arguments are passed
# on, e.g. a PGN file to open or `--lang en`).
#
# Usage:  bash scripts/play.sh [game.pgn] [--lang zh|en]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_env.sh"
cd "$REPO_ROOT"

ensure_debian_packages
ensure_venv 0
install_cxiangqi 0
check_installed_import

say "cxiangqi $*"
exec "$VENV/bin/cxiangqi" "$@"
