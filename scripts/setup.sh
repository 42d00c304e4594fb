#!/usr/bin/env bash
# Installs what ssdtlm needs on Debian (root: apt-get; otherwise through sudo when present), then the project's
# Python virtual environment .venv/ from requirements.txt (every version pinned).
# Build: cmake, g++, pkg-config, SystemC 2.3 (libsystemc-dev), Catch2 v2 (catch2), nlohmann-json, zlib (zlib1g-dev:
# the capture format). The capture test: sqlite3 (the program captured) and strace (its independent count).
# Waveforms: GTKWave (gtkwave: the viewer, and vcd2fst for --fst) and Xvfb (xvfb, xauth), with which the tests open
# the generated layouts in GTKWave itself.
# Scripts and Python tests: .venv/bin/python with dask[distributed], pandas, matplotlib, pytest, made with Debian's
# /usr/bin/python3 and python3-venv (the python3 on PATH may be another one). Nothing is installed twice: apt-get runs
# only for missing packages, pip only when requirements.txt changed since .venv/ was filled.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake g++ make pkg-config libsystemc-dev catch2 nlohmann-json3-dev zlib1g-dev python3 python3-venv gtkwave xvfb xauth
          sqlite3 strace)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[setup] installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

stamp=.venv/.requirements.sha256
want="$(sha256sum requirements.txt | cut -d' ' -f1)"
if ! .venv/bin/python -c '' >/dev/null 2>&1; then
  rm -rf .venv
  echo "[setup] creating .venv/ (Python virtual environment)"
  /usr/bin/python3 -m venv .venv
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "[setup] installing requirements.txt into .venv/"
  .venv/bin/python -m pip install --disable-pip-version-check --no-input -q -r requirements.txt
  echo "$want" > "$stamp"
fi
