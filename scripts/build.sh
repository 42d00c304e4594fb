#!/usr/bin/env bash
# Configures and builds ssdtlm (release) into build/: every target, or only those named (bash scripts/build.sh
# ssdtlm-generic). The model is compiled and optimised once into one library that each executable links.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ $# -gt 0 ]; then
  targets=()
  for t in "$@"; do targets+=(--target "$t"); done
  cmake --build build -j "$(nproc)" "${targets[@]}"
else
  cmake --build build -j "$(nproc)"
fi
