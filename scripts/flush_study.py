#!/usr/bin/env python3
"""The flush study (issue 45): etcd's fio check (examples/fio/etcd_fdatasync.fio: 2,300-byte writes, fdatasync after
each) on drives with a volatile write cache and with power-loss protection.

usage: python3 scripts/flush_study.py [--bin-dir DIR] [--out DIR] [--figure FILE] [--platforms P,P,...]

Runs every platform twice, buffer.power_protected=false (the write buffer is a volatile cache: a Flush programs what
it holds) and true (capacitors protect it: a Flush completes at once), reads fio.json's sync latency (fio's fdatasync
percentiles) and write IOPS, prints a markdown table and draws the figure (default docs/figures/flush_latency.png):
the 50th, 99th and 99.9th percentile of fdatasync per drive and setting, on a log axis, with etcd's 10 ms bound.
Whether a drive really has capacitors is not the point here: each drive is shown both ways.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from studylib import seedrun  # noqa: E402
from studylib.plot import save_figure  # noqa: E402

JOB = ROOT / "examples" / "fio" / "etcd_fdatasync.fio"
PLATFORMS = ["generic", "samsung_970evoplus_1tb", "samsung_980_1tb", "samsung_980pro_1tb", "samsung_pm983_1t92"]
PERCENTILES = [("p50", "50.000000"), ("p99", "99.000000"), ("p99.9", "99.900000")]
ETCD_P99_BOUND_MS = 10.0  # etcd's guidance: fdatasync p99 below 10 ms


def run(bin_dir, platform, protected, out):
    out.mkdir(parents=True, exist_ok=True)
    cmd = [str(bin_dir / f"ssdtlm-{platform}"), "--quiet", "--fio", str(JOB), "--out", str(out),
           "--set", f"buffer.power_protected={str(protected).lower()}"]
    subprocess.run(cmd, check=True)
    job = json.loads((out / "fio.json").read_text())["jobs"][0]
    lat = job["sync"]["lat_ns"]
    row = {"platform": platform, "protected": protected, "syncs": job["sync"]["total_ios"],
           "write_iops": job["write"]["iops"], "mean_ms": lat["mean"] / 1e6}
    for name, key in PERCENTILES:
        row[name + "_ms"] = lat["percentile"][key] / 1e6
    return row


def figure(rows, path):
    plt = seedrun.pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.2))
    names = [r["platform"] for r in rows if not r["protected"]]
    width = 0.13
    for j, (name, _) in enumerate(PERCENTILES):
        for side, (prot, hatch) in enumerate([(False, ""), (True, "//")]):
            ys = [next(r for r in rows if r["platform"] == p and r["protected"] == prot)[name + "_ms"] for p in names]
            xs = [i + (side * 3 + j - 2.5) * width for i in range(len(names))]
            ax.bar(xs, ys, width, hatch=hatch, color="C%d" % j, edgecolor="black", linewidth=0.4,
                   label="%s, %s" % (name, "power-loss protected" if prot else "volatile cache"))
    ax.axhline(ETCD_P99_BOUND_MS, color="red", linestyle="--", linewidth=0.8, label="etcd: p99 below 10 ms")
    ax.set_yscale("log")
    ax.set_ylabel("fdatasync latency (ms)")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, fontsize=8)
    ax.set_title("etcd's fio check (2,300 B writes, fdatasync after each): volatile cache vs power-loss protection")
    ax.legend(fontsize=7, ncol=2, loc="upper right")
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", type=Path, default=ROOT / "build" / "bin")
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "flush_study")
    ap.add_argument("--figure", type=Path, default=ROOT / "docs" / "figures" / "flush_latency")
    ap.add_argument("--platforms", default=",".join(PLATFORMS))
    a = ap.parse_args()
    rows = [run(a.bin_dir, p, prot, a.out / f"{p}_{'protected' if prot else 'volatile'}")
            for p in a.platforms.split(",") for prot in (False, True)]
    (a.out / "flush_study.json").write_text(json.dumps(rows, indent=1) + "\n")
    print("| drive | write cache | fdatasync mean | p50 | p99 | p99.9 | write IOPS |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.0f |" % (
            r["platform"], "power-loss protected" if r["protected"] else "volatile", r["mean_ms"], r["p50_ms"],
            r["p99_ms"], r["p99.9_ms"], r["write_iops"]))
    figure(rows, a.figure)
    print("figure: %s.png" % a.figure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
