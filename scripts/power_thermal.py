#!/usr/bin/env python3
"""A sustained write that heats the generic drive into thermal throttling and out again (issue 29, docs/reference/power.md).

usage: .venv/bin/python scripts/power_thermal.py [--bin build/bin/ssdtlm-generic] [--write-s S] [--cool-s S]
                                                 [--out DIR]

Job "write": sequential 128 KiB writes (8 queues x 8) for --write-s simulated seconds on a fresh drive with the
thermal model on (defaults: ambient 25 C, R 8 C/W, C 2 J/C, TMT1 70 C with a 4 W budget, TMT2 80 C with 2.5 W);
then job "trickle" (wait_for write): 4 KiB random reads at 200 IOPS for --cool-s seconds, during which the drive cools.
Writes DIR/summary.json, DIR/timeseries.csv and DIR/power_thermal.png/.pdf/.svg (temperature, power, throughput and throttle
level over time); prints the thermal and power summary and the time spent at each throttle level.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=str(ROOT / "build" / "bin" / "ssdtlm-generic"))
    ap.add_argument("--write-s", type=float, default=60.0)
    ap.add_argument("--cool-s", type=float, default=40.0)
    ap.add_argument("--out", default=str(ROOT / "out" / "power_thermal"))
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    config = {
        "precondition": {"fill": False, "drive_writes": 0},
        "thermal": {"enabled": True},
        "stats": {"interval_ms": 100},
        "jobs": [
            {"name": "write", "queues": 8, "queue_depth": 8, "pattern": "sequential", "read_fraction": 0,
             "block_bytes": 131072, "io_count": 0, "runtime_ms": a.write_s * 1000},
            {"name": "trickle", "queues": 1, "queue_depth": 1, "pattern": "random", "read_fraction": 1,
             "block_bytes": 4096, "io_count": 0, "runtime_ms": a.cool_s * 1000, "rate_iops": 200,
             "wait_for": "write"},
        ],
    }
    cfg = out / "config_in.json"
    cfg.write_text(json.dumps(config, indent=2))
    cmd = [a.bin, "--quiet", "--config", str(cfg), "--out", str(out)]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        return done.returncode
    s = json.loads((out / "summary.json").read_text())
    rows = list(csv.DictReader(open(out / "timeseries.csv")))
    t = [float(r["t_ms"]) / 1e3 for r in rows]
    level_s = [0.0, 0.0, 0.0]
    for i in range(1, len(rows)):
        level_s[int(rows[i - 1]["throttle"])] += t[i] - t[i - 1]
    print(json.dumps({"thermal": s["thermal"], "power": {k: s["power"][k] for k in
                      ("energy_j", "avg_w", "peak_w", "budget_wait_s", "energy_per_gib_j")},
                      "write_mbps": s["jobs"][0]["mbps"], "seconds_at_level": level_s}, indent=2))
    sys.path.insert(0, str(ROOT / "scripts"))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from studylib.plot import save_figure
    fig, ax = plt.subplots(4, 1, figsize=(9, 9), sharex=True)
    ax[0].plot(t, [float(r["temp_c"]) for r in rows], color="tab:red")
    for key, style in (("tmt1_c", "--"), ("tmt2_c", ":")):
        ax[0].axhline(s["thermal"][key], color="gray", linestyle=style, label=key)
    ax[0].set_ylabel("temperature (°C)")
    ax[0].legend(loc="lower right")
    ax[1].plot(t, [float(r["power_w"]) for r in rows], label="total")
    ax[1].plot(t, [float(r["nand_w"]) for r in rows], label="nand")
    ax[1].set_ylabel("power (W)")
    ax[1].legend(loc="upper right")
    ax[2].plot(t, [float(r["mbps"]) for r in rows])
    ax[2].set_ylabel("host data rate (MB/s)")
    ax[3].step(t, [int(r["throttle"]) for r in rows], where="post")
    ax[3].set_ylabel("throttle level")
    ax[3].set_xlabel("simulated time (s)")
    fig.suptitle("Sustained sequential write into thermal throttling and out (generic drive, thermal defaults)")
    fig.tight_layout()
    print(save_figure(fig, out / "power_thermal.png")[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
