#!/usr/bin/env bash
# Installs what is missing, builds what it runs (ssdtlm-generic; scripts/build.sh alone builds everything), runs
# platform "generic" on its default workload, prints the summary and writes out/generic/ (summary.json,
# timeseries.csv, latency_cdf.csv, config.json, plots).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh ssdtlm-generic
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
./build/bin/ssdtlm-generic --out out/generic "$@"
.venv/bin/python scripts/plot_run.py out/generic
