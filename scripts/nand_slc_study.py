#!/usr/bin/env python3
"""Issue 28's SLC-cache study: write bandwidth over time on an empty, a half-full and a nearly full TLC drive with a
dynamic SLC cache (docs/reference/nand.md), sequential 128 KiB and random 4 KiB writes.

usage: .venv/bin/python scripts/nand_slc_study.py [--bin build/bin/ssdtlm-generic] [--out out/nand_slc]
                                                  [--write-mib N] [--interval-ms MS]

Each point: a 2 x 2-die TLC drive (128 blocks of 96 pages of 16 KiB per die, 25 % spare, page_prog_us
600,900,1200, SLC program 200 us), slc.mode=dynamic (fold when full); a first job writes the given share of the
logical space sequentially, the host then idles 2 s (the cache folds in the background), and the measured job writes
--write-mib MiB. Writes DIR/results.csv (scenario, pattern, fill, t_ms from the measured job's start, MB/s), DIR/points.csv
(one row per point: the slc.* and waf.* of the summary) and DIR/write_over_time.png (.pdf, .svg).
"""
import argparse
import csv
import json
import os
import subprocess
import sys

DRIVE = {
    "geometry": {"channels": 2, "dies_per_channel": 2, "planes_per_die": 1, "blocks_per_plane": 128,
                 "pages_per_block": 96, "page_bytes": 16384, "over_provisioning": 0.25},
    "timing": {"channel_mts": 1600, "page_read_us": "50,70,90", "page_prog_us": "600,900,1200", "t_erase_us": 3500,
               "slc_read_us": 30, "slc_prog_us": 200, "slc_erase_us": 3000},
    "flash": {"cell": "tlc"},
    "slc": {"mode": "dynamic"},
    "buffer": {"bytes": 1048576},
    "precondition": {"fill": False, "drive_writes": 0},
    "host": {"queues": 1, "queue_depth": 32},
    "workload": {"read_fraction": 0, "io_count": 0},
}
FILLS = {"empty": 0.0, "half": 0.5, "nearly_full": 0.9}
PATTERNS = {"seq128k": {"pattern": "sequential", "block_bytes": 131072},
            "rand4k": {"pattern": "random", "block_bytes": 4096}}


def run(binary, cfg, out, name, interval_ms):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "config.json")
    with open(path, "w") as f:
        json.dump(cfg, f, indent=1)
    subprocess.run([binary, "--quiet", "--config", path, "--set", "stats.interval_ms=%g" % interval_ms, "--out", d],
                   check=True)
    with open(os.path.join(d, "summary.json")) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin/ssdtlm-generic")
    ap.add_argument("--out", default="out/nand_slc")
    ap.add_argument("--write-mib", type=int, default=192)
    ap.add_argument("--interval-ms", type=float, default=20)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = DRIVE["geometry"]
    raw = g["channels"] * g["dies_per_channel"] * g["blocks_per_plane"] * g["pages_per_block"] * g["page_bytes"]
    logical = int(raw / (1 + g["over_provisioning"])) // (1 << 20) * (1 << 20)
    rows, points = [], []
    for pname, pat in PATTERNS.items():
        for fname, fill in FILLS.items():
            jobs = []
            fill_bytes = int(logical * fill) // (1 << 20) * (1 << 20)
            if fill_bytes:
                jobs.append({"name": "fill", "pattern": "sequential", "block_bytes": 131072, "io_bytes": fill_bytes})
            job = {"name": "measured", "io_bytes": a.write_mib << 20, "start_delay_ms": 2000 if fill_bytes else 0,
                   "stonewall": bool(fill_bytes)}
            job.update(pat)
            if pat["pattern"] == "sequential":
                job["address_offset"] = fill_bytes % max(1, logical - (a.write_mib << 20))
            jobs.append(job)
            cfg = dict(DRIVE, jobs=jobs)
            name = "%s_%s" % (pname, fname)
            s = run(a.bin, cfg, a.out, name, a.interval_ms)
            start_ms = next(j["start_s"] for j in s["jobs"] if j["name"] == "measured") * 1e3 if len(s.get("jobs", [])) > 1 else 0.0
            with open(os.path.join(a.out, name, "timeseries.csv")) as f:
                for r in csv.DictReader(f):
                    t = float(r["t_ms"])
                    if t >= start_ms:
                        rows.append({"pattern": pname, "fill": fname, "t_ms": t - start_ms, "mbps": float(r["mbps"])})
            points.append({"pattern": pname, "fill": fname, **{"slc." + k: v for k, v in s["slc"].items()},
                           "waf.total": s["waf"]["total"], "waf.fold": s["waf"]["fold"]})
            print(name, "cache", s["slc"]["capacity_bytes"] >> 20, "MiB at the end; host into SLC",
                  s["slc"]["host_bytes"] >> 20, "MiB, direct", s["slc"]["direct_bytes"] >> 20, "MiB", file=sys.stderr)
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["pattern", "fill", "t_ms", "mbps"])
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(a.out, "points.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(points[0].keys()))
        w.writeheader()
        w.writerows(points)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from studylib.plot import save_figure
    fig, axes = plt.subplots(1, len(PATTERNS), figsize=(6 * len(PATTERNS), 4), squeeze=False)
    for ax, pname in zip(axes[0], PATTERNS):
        for fname in FILLS:
            xs = [r["t_ms"] / 1e3 for r in rows if r["pattern"] == pname and r["fill"] == fname]
            ys = [r["mbps"] for r in rows if r["pattern"] == pname and r["fill"] == fname]
            ax.plot(xs, ys, label=fname.replace("_", " "))
        ax.set_title("%s writes, dynamic SLC cache (TLC)" % pname)
        ax.set_xlabel("time since the measured job started (s)")
        ax.set_ylabel("host write rate (MB/s)")
        ax.legend()
    fig.tight_layout()
    save_figure(fig, os.path.join(a.out, "write_over_time.png"), dpi=120)


if __name__ == "__main__":
    main()
