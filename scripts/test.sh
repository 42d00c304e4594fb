#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (each Catch2 test case in its own process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cd build
ctest -j "$(nproc)" --output-on-failure --timeout 900
