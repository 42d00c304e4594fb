#!/usr/bin/env python3
"""Plots one run directory: throughput/WAF/free blocks over time and the latency CDF.

usage: .venv/bin/python scripts/plot_run.py OUT_DIR   (writes OUT_DIR/timeseries.png, OUT_DIR/latency_cdf.png)
"""
import csv
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from studylib import venv  # noqa: E402

venv.ensure(("matplotlib",))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(out_dir):
    out = Path(out_dir)
    summary = json.loads((out / "summary.json").read_text())
    rows = read_csv(out / "timeseries.csv")
    t = [float(r["t_ms"]) / 1e3 for r in rows]
    fig, ax = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    ax[0].plot(t, [float(r["read_iops"]) / 1e3 for r in rows], label="read")
    ax[0].plot(t, [float(r["write_iops"]) / 1e3 for r in rows], label="write")
    ax[0].set_ylabel("kIOPS")
    ax[0].legend()
    ax[1].plot(t, [float(r["waf"]) for r in rows], color="tab:red")
    ax[1].set_ylabel("WAF (interval)")
    ax[2].plot(t, [int(r["free_blocks"]) for r in rows], label="free blocks")
    ax[2].plot(t, [int(r["buffer_units"]) for r in rows], label="buffer units (4 KiB)")
    ax[2].set_ylabel("count")
    ax[2].set_xlabel("simulated time (s)")
    ax[2].legend()
    fig.suptitle("%s: %.0f IOPS, WAF %.2f" % (out.name, summary["host"]["iops"], summary["waf"]["total"]))
    fig.tight_layout()
    fig.savefig(out / "timeseries.png", dpi=110)

    cdf = read_csv(out / "latency_cdf.csv")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for op in ("read", "write"):
        pts = [(float(r["latency_us"]), float(r["cumulative_fraction"])) for r in cdf if r["op"] == op]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=op)
    ax.set_xscale("log")
    ax.set_xlabel("latency (us)")
    ax.set_ylabel("cumulative fraction")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "latency_cdf.png", dpi=110)
    lpn = out / "lpn_writes.csv"
    if lpn.exists():  # seed 004's view: how writes spread over logical pages
        counts = sorted((int(r["writes"]) for r in read_csv(lpn)), reverse=True)
        total = float(sum(counts))
        fig, ax = plt.subplots(figsize=(7, 4.5))
        acc, xs, ys = 0, [], []
        for i, c in enumerate(counts):
            acc += c
            xs.append((i + 1) / len(counts))
            ys.append(acc / total)
        ax.plot(xs, ys)
        ax.set_xlabel("fraction of written logical pages (hottest first)")
        ax.set_ylabel("cumulative fraction of writes")
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(out / "lpn_writes_cdf.png", dpi=110)
    print("plots in %s/timeseries.png and %s/latency_cdf.png" % (out, out))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
