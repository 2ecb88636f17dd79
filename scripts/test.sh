#!/usr/bin/env bash
# Run the whole cxiangqi test suite, doing all of its own set-up:
#   Debian packages the tests need (installed only if missing, only as root),
#   a virtual environment in .venv, a real (non-editable) build of the compiled
#   core with `pip install ".[test]"`, then `python -m pytest` from the repo root.
#
# Usage:  bash scripts/test.sh [--fresh] [pytest args...]
#   --fresh            re-create .venv and rebuild from scratch (always so when CI is set)
#   CXIANGQI_DEBUG=1   build the core with bounds and wrap-around checks on
#   anything else is passed to pytest, e.g. `bash scripts/test.sh -k fen -x`
#
# Exits non-zero when any test fails, and also when pytest collected no test.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_env.sh"
cd "$REPO_ROOT"

FRESH=0
case "${CI:-}" in ""|0|false|False|FALSE) ;; *) FRESH=1 ;; esac
PYTEST_ARGS=()
for arg in "$@"; do
    if [ "$arg" = "--fresh" ]; then FRESH=1; else PYTEST_ARGS+=("$arg"); fi
done

ensure_debian_packages
ensure_venv "$FRESH"
install_cxiangqi "$FRESH"
check_installed_import

say "python -m pytest ${PYTEST_ARGS[*]:-}"
status=0
"$VPY" -m pytest ${PYTEST_ARGS[@]+"${PYTEST_ARGS[@]}"} </dev/null || status=$?

if [ "$status" -eq 5 ]; then
    echo "test.sh: pytest collected no tests; counting that as a failure" >&2
fi
exit "$status"
