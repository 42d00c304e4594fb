#!/usr/bin/env bash
# Installs what ssdtlm needs on Debian (root: apt-get; otherwise through sudo when present).
# Build: cmake, g++, pkg-config, SystemC 2.3 (libsystemc-dev), Catch2 v2 (catch2), nlohmann-json.
# Scripts: Debian's python3-matplotlib, used through /usr/bin/python3 (the python3 on PATH may be another one).
set -euo pipefail
packages=(cmake g++ make pkg-config libsystemc-dev catch2 nlohmann-json3-dev python3 python3-matplotlib)
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
