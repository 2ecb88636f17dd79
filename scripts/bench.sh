#!/usr/bin/env bash
# Run the cxiangqi benchmarks (benchmarks/, pytest-benchmark) in the same .venv
# the tests use (created if missing), against a freshly built optimised core.
#
# Usage:  bash scripts/bench.sh [pytest args...]
#   e.g.  bash scripts/bench.sh -k walk --pyffish-walk-depth 2
#         bash scripts/bench.sh --cchess-walk-depth 3     (with `pip install cchess` in .venv)
#
# Prints pytest-benchmark's timing table and, last, a summary table of rates
# (Mnps for perft) and of cxiangqi's speed-up over pyffish and cchess.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_env.sh"
cd "$REPO_ROOT"

case "${CXIANGQI_DEBUG:-}" in
    ""|0) ;;
    *) say "CXIANGQI_DEBUG is set: benchmarking the bounds-checked build is meaningless; unsetting it"
       unset CXIANGQI_DEBUG ;;
esac

ensure_debian_packages
ensure_venv 0
install_cxiangqi 0
check_installed_import

say "python -m pytest benchmarks --benchmark-only -s $*"
exec "$VPY" -m pytest benchmarks --benchmark-only -s \
    --benchmark-columns=min,mean,max,rounds --benchmark-sort=name "$@" </dev/null
