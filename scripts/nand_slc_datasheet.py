#!/usr/bin/env python3
"""Issue 28's comparison with a named drive: a TLC drive configured as the Samsung 970 EVO Plus 250 GB's data sheet
and its NAND's announcement state it, written sequentially past its SLC cache (docs/reference/nand.md, "A named drive").

usage: .venv/bin/python scripts/nand_slc_datasheet.py [--bin build/bin/ssdtlm-generic] [--out out/nand_slc_datasheet]
                                                      [--scale 16] [--interval-ms 20]

The drive, from its published sources (nothing fitted to the measured speeds):
- 250 GB of Samsung 5th-generation (9x-layer) 256 Gb TLC V-NAND: 8 dies of 32 GB, one per channel of the 8-channel
  Phoenix controller; tPROG 500 us, tR 50 us, Toggle DDR 4.0 at 1.4 Gb/s (Samsung's announcement, July 2018).
- Intelligent TurboWrite: 13 GB of SLC cache for the 250 GB model (4 GB static + 9 GB intelligent, as listed for the
  970 EVO 250 GB); the data sheet's sequential write past the buffer: 400 MB/s; burst (in the buffer): 2,300 MB/s.
Our assumptions (no source at hand): 16 KiB pages, 1 plane, 576 pages per block (192 wordlines), one-shot TLC
programming (the whole wordline in one tPROG), SLC-mode read/program/erase 30/200/3000 us, TLC erase 3500 us; the
spare is what 8 x 32 GiB leaves above 250 GB (9.95 %). Our model runs one kind of cache at a time, and a static
region must fit in the spare with the blocks its fold needs, so the data sheet's 4 GB + 9 GB cannot be built as
such: the cases are the static 4 GB alone (folding when full, or writing TLC directly when full) and our dynamic
cache (any free block in SLC mode while the die can fold them all: about a quarter of an empty drive).
--scale N divides the capacity and the cache by N (the rates depend on dies and timings, not on capacity).

Each case writes half the logical space sequentially with 128 KiB writes at queue depth 32 on an empty drive.
Writes DIR/results.csv (case, t_ms, MB/s), DIR/points.csv (case, cache GB written at the burst rate scaled back,
burst MB/s, post-cache MB/s) and DIR/write_over_time.png (.pdf, .svg).
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nand_slc_study  # noqa: E402  (its run(): one configuration run into out/name)

GB = 10**9
DIES, DIE_BYTES = 8, 32 * 2**30


STATIC_BYTES = 4 * GB
CASES = {"static4_fold": ("static", "fold"), "static4_direct": ("static", "direct"), "dynamic_fold": ("dynamic", "fold")}


def drive(scale, mode, when_full):
    page, pages = 16384, 576
    blocks = DIE_BYTES // scale // (page * pages)
    raw = DIES * blocks * pages * page
    logical = 250 * GB // scale
    static = STATIC_BYTES // scale // (1 << 20) * (1 << 20)
    slc = {"mode": mode, "when_full": when_full}
    if mode == "static":
        slc["static_bytes"] = static
    return {
        "geometry": {"channels": DIES, "dies_per_channel": 1, "planes_per_die": 1, "blocks_per_plane": blocks,
                     "pages_per_block": pages, "page_bytes": page, "over_provisioning": raw / logical - 1},
        "timing": {"channel_mts": 1400, "page_read_us": "50,50,50", "page_prog_us": "500,500,500", "t_erase_us": 3500,
                   "slc_read_us": 30, "slc_prog_us": 200, "slc_erase_us": 3000},
        "flash": {"cell": "tlc", "one_shot": True},
        "slc": slc,
        "buffer": {"bytes": 4 << 20},
        "precondition": {"fill": False, "drive_writes": 0},
        "host": {"queues": 1, "queue_depth": 32},
        "workload": {"pattern": "sequential", "read_fraction": 0, "block_bytes": 131072, "io_count": 0,
                     "io_bytes": logical // 2 // (1 << 20) * (1 << 20)},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin/ssdtlm-generic")
    ap.add_argument("--out", default="out/nand_slc_datasheet")
    ap.add_argument("--scale", type=int, default=8)
    ap.add_argument("--interval-ms", type=float, default=20)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows, points = [], []
    for case, (mode, when_full) in CASES.items():
        s = nand_slc_study.run(a.bin, drive(a.scale, mode, when_full), a.out, case, a.interval_ms)
        d = os.path.join(a.out, case)
        series = []
        with open(os.path.join(d, "timeseries.csv")) as f:
            for r in csv.DictReader(f):
                series.append((float(r["t_ms"]), float(r["mbps"])))
                rows.append({"case": case, "t_ms": series[-1][0], "mbps": series[-1][1]})
        # burst: the median of the first 10 intervals; the cache ends where the rate first falls below half of it;
        # post-cache: the mean of the last 40 % of the run
        dt = series[1][0] - series[0][0]
        first = sorted(m for _, m in series[:10])
        burst = first[len(first) // 2]
        written, cache = 0.0, None
        for t, m in series:
            if cache is None and m < burst / 2:
                cache = written
            written += m * 1e6 * dt / 1e3
        tail = series[int(len(series) * 0.6):]
        post = sum(m for _, m in tail) / len(tail)
        points.append({"case": case, "scale": a.scale,
                       "cache_at_burst_gb": round((cache or written) * a.scale / GB, 1), "burst_mbps": round(burst, 1),
                       "post_cache_mbps": round(post, 1), "waf_fold": s["waf"].get("fold", 0),
                       "slc_direct_mib": s["slc"]["direct_bytes"] >> 20})
        print(points[-1])
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["case", "t_ms", "mbps"])
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(a.out, "points.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(points[0].keys()))
        w.writeheader()
        w.writerows(points)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from studylib.plot import save_figure
    fig, ax = plt.subplots(figsize=(7, 4))
    for p in CASES:
        xs, ys, acc = [], [], 0.0
        for r in rows:
            if r["case"] == p:
                acc += r["mbps"] * a.interval_ms / 1e3  # MB written so far
                xs.append(acc * a.scale / 1e3)          # GB, at full scale
                ys.append(r["mbps"])
        k = 10  # a folding die takes host pages in bursts: the mean over 10 intervals
        ys = [sum(ys[max(0, i - k + 1):i + 1]) / len(ys[max(0, i - k + 1):i + 1]) for i in range(len(ys))]
        ax.plot(xs, ys, label="ours, " + p.replace("_", ", ") + " (mean of %g ms)" % (k * a.interval_ms))
    ax.axhline(400, color="gray", ls="--", label="data sheet: past the buffer (400 MB/s)")
    ax.axhline(2300, color="silver", ls="--", label="data sheet: burst (2,300 MB/s)")
    ax.axvline(13, color="gray", ls=":", label="data sheet: TurboWrite buffer (13 GB)")
    ax.set_xlabel("data written (GB, scaled back x%d)" % a.scale)
    ax.set_ylabel("host write rate (MB/s)")
    ax.set_title("Samsung 970 EVO Plus 250 GB as configured from its data sheet")
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, os.path.join(a.out, "write_over_time.png"), dpi=120)


if __name__ == "__main__":
    main()
