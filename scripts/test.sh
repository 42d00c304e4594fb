#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: every Catch2 test case in its own process (ctest),
# then the Python tests of the study engine (pytest, tests/python/) against the executables just built.
# Fails when either fails, or when the tests left files in the source tree (git status before and after).
set -euo pipefail
cd "$(dirname "$0")/.."
# Tests never write into the source tree: what git sees as changed must be the same after them as before.
tree_state() { git status --porcelain --untracked-files=all 2>/dev/null || true; }
before="$(tree_state)"
bash scripts/setup.sh
bash scripts/build.sh
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
status=0
(cd build && ctest -j "$(nproc)" --output-on-failure --timeout 900) || status=1
SSDTLM_BIN_DIR="$PWD/build/bin" .venv/bin/python -m pytest -p no:cacheprovider -q tests/python || status=1
after="$(tree_state)"
if [ "$after" != "$before" ]; then
  echo "[test] the tests changed the source tree (git status --porcelain):" >&2
  diff <(echo "$before") <(echo "$after") | grep '^>' | head -20 >&2 || true
  status=1
fi
exit $status
