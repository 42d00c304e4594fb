#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: every Catch2 test case in its own process (ctest),
# then the Python tests of the study engine (pytest, tests/python/) against the executables just built.
# Fails when either fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
status=0
(cd build && ctest -j "$(nproc)" --output-on-failure --timeout 900) || status=1
SSDTLM_BIN_DIR="$PWD/build/bin" .venv/bin/python -m pytest -p no:cacheprovider -q tests/python || status=1
exit $status
