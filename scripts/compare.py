#!/usr/bin/env python3
"""Compares runs side by side: IOPS, WAF split (UD/MD/GUD/GMD) and p99 read and write latency, one bar per run.

usage: .venv/bin/python scripts/compare.py OUT.png RUN_DIR [RUN_DIR ...] [--label NAME]... [--title TEXT]

Writes OUT.png, and OUT.pdf and OUT.svg beside it.

Runs are named by their path (the shortest trailing part of it that tells them apart: out/fifo/r1 and
out/hexa/r1 become fifo/r1 and hexa/r1), or by --label, given once per run in the same order.
"""
import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from studylib import venv  # noqa: E402

venv.ensure(("matplotlib",))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from studylib.plot import save_figure  # noqa: E402


WAF_PARTS = {"ud": "user data", "md": "map pages", "gud": "GC copies of user data", "gmd": "GC copies of map pages"}


def run_names(dirs):
    """The shortest trailing parts of the paths that differ between all runs."""
    parts = [Path(d).resolve().parts for d in dirs]
    longest = max(len(p) for p in parts)
    for k in range(1, longest + 1):
        names = ["/".join(p[-k:]) for p in parts]
        if len(set(names)) == len(names):
            return names
    return [str(d) for d in dirs]  # the same directory twice: keep what was typed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("png", help="the figure to write")
    ap.add_argument("runs", nargs="+", help="run output directories (--out)")
    ap.add_argument("--label", action="append", default=[], help="a name per run, in order (default: the paths)")
    ap.add_argument("--title", help="figure title (default: 'N runs: ' and the names)")
    a = ap.parse_args(argv)
    if a.label and len(a.label) != len(a.runs):
        ap.error("%d --label for %d runs: give one per run, or none" % (len(a.label), len(a.runs)))
    for d in a.runs:
        if not (Path(d) / "summary.json").exists():
            ap.error("%s: no summary.json: not a run directory" % d)
    names = a.label or run_names(a.runs)
    runs = [(n, json.loads((Path(d) / "summary.json").read_text())) for n, d in zip(names, a.runs)]

    fig, ax = plt.subplots(1, 3, figsize=(max(12, 1.3 * len(runs) * 3), 4.5))
    x = list(range(len(runs)))
    ax[0].bar(x, [s["host"]["iops"] / 1e3 for _, s in runs], color="tab:blue")
    ax[0].set_ylabel("throughput (kIOPS)")
    ax[0].set_title("throughput")
    bottom = [0.0] * len(runs)
    for kind in ("ud", "md", "gud", "gmd"):
        vals = [s["waf"][kind] for _, s in runs]
        ax[1].bar(x, vals, bottom=bottom, label=WAF_PARTS[kind])
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax[1].set_ylabel("write amplification (NAND bytes / host bytes)")
    ax[1].set_title("write amplification")
    ax[1].legend(fontsize=8)
    width = 0.4
    for k, op in enumerate(("read", "write")):
        vals = [s["host"]["latency_us"][op]["p99"] if s["host"]["latency_us"][op]["count"] else 0 for _, s in runs]
        ax[2].bar([i + (k - 0.5) * width for i in x], vals, width, label=op)
    ax[2].set_ylabel("99th-percentile latency (µs)")
    ax[2].set_title("tail latency")
    ax[2].legend(fontsize=8)
    for a_ in ax:
        a_.set_xticks(x)
        a_.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
        a_.grid(True, axis="y", alpha=0.3)
    fig.suptitle(a.title or "%d runs: %s" % (len(runs), ", ".join(names)))
    fig.tight_layout()
    save_figure(fig, a.png)  # OUT.png, and OUT.pdf and OUT.svg beside it for a paper
    width_name = max(len(n) for n in names)
    for n, s in runs:
        print("%-*s %10.0f IOPS  WAF %.3f" % (width_name, n, s["host"]["iops"], s["waf"]["total"]))


if __name__ == "__main__":
    main()
