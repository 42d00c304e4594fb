#!/usr/bin/python3
"""Runs a platform over a parameter sweep and plots metrics against the swept value.

usage: /usr/bin/python3 scripts/sweep.py --sweep KEY=V1,V2,... [--set KEY=VALUE]... [--platform generic]
                                         [--metric waf.total] [--metric host.iops]... [--out sweeps/NAME]

Each point runs build/bin/ssdtlm-<platform> with the --set options plus KEY=Vi into OUT/<KEY>=<Vi>/, then writes
OUT/sweep.csv (value and every metric) and OUT/sweep.png (one panel per metric). Metrics are dotted paths into
summary.json. A failing point stops the sweep with the platform's error message.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def lookup(summary, path):
    value = summary
    for part in path.split("."):
        value = value[part]
    return value


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sweep", required=True, help="KEY=V1,V2,...")
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE applied to every point")
    ap.add_argument("--platform", default="generic")
    ap.add_argument("--metric", action="append", default=[])
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if "=" not in a.sweep:
        sys.exit("--sweep: expected KEY=V1,V2,..., got %r" % a.sweep)
    key, values = a.sweep.split("=", 1)
    values = [v for v in values.split(",") if v]
    metrics = a.metric or ["host.iops", "waf.total", "host.latency_us.write.p99"]
    root = Path(__file__).resolve().parent.parent
    binary = root / "build" / "bin" / ("ssdtlm-" + a.platform)
    if not binary.exists():
        sys.exit("%s not found: build first (bash scripts/build.sh)" % binary)
    out = Path(a.out or root / "sweeps" / key)
    rows = []
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    for v in values:
        point = out / ("%s=%s" % (key, v))
        cmd = [str(binary), "--quiet", "--out", str(point)] + sum((["--set", s] for s in a.set), [])
        cmd += ["--set", "%s=%s" % (key, v)]
        done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit("point %s=%s failed (exit %d): %s" % (key, v, done.returncode, done.stderr.strip()))
        summary = json.loads((point / "summary.json").read_text())
        row = [v] + [lookup(summary, m) for m in metrics]
        rows.append(row)
        print("%s=%s  " % (key, v) + "  ".join("%s=%.4g" % (m, x) for m, x in zip(metrics, row[1:])), flush=True)
    with open(out / "sweep.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([key] + metrics)
        w.writerows(rows)
    fig, axes = plt.subplots(len(metrics), 1, figsize=(7, 2.6 * len(metrics)), sharex=True, squeeze=False)
    numeric = all(_is_number(v) for v in values)
    xs = [float(v) for v in values] if numeric else list(range(len(values)))
    for ax, (i, m) in zip(axes[:, 0], enumerate(metrics)):
        ax.plot(xs, [r[i + 1] for r in rows], marker="o")
        ax.set_ylabel(m)
        ax.grid(True, alpha=0.3)
    if not numeric:
        axes[-1, 0].set_xticks(xs, values)
    axes[-1, 0].set_xlabel(key)
    fig.tight_layout()
    fig.savefig(out / "sweep.png", dpi=110)
    print("sweep in %s/sweep.csv and %s/sweep.png" % (out, out))


def _is_number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


if __name__ == "__main__":
    main()
