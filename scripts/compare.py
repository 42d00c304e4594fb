#!/usr/bin/env python3
"""Compares runs side by side: IOPS, WAF split (UD/MD/GUD/GMD) and p99 latency, one bar per run.

usage: .venv/bin/python scripts/compare.py OUT.png RUN_DIR [RUN_DIR ...]
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from studylib import venv  # noqa: E402

venv.ensure(("matplotlib",))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(png, dirs):
    runs = [(Path(d).name, json.loads((Path(d) / "summary.json").read_text())) for d in dirs]
    names = [n for n, _ in runs]
    fig, ax = plt.subplots(1, 3, figsize=(12, 4))
    ax[0].bar(names, [s["host"]["iops"] / 1e3 for _, s in runs])
    ax[0].set_ylabel("kIOPS")
    bottom = [0.0] * len(runs)
    for kind in ("ud", "md", "gud", "gmd"):
        vals = [s["waf"][kind] for _, s in runs]
        ax[1].bar(names, vals, bottom=bottom, label=kind.upper())
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax[1].set_ylabel("WAF")
    ax[1].legend()
    ax[2].bar(names, [max(s["host"]["latency_us"]["read"]["p99"], s["host"]["latency_us"]["write"]["p99"]) for _, s in runs])
    ax[2].set_ylabel("p99 latency (us)")
    for a in ax:
        a.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    for n, s in runs:
        print("%-20s %10.0f IOPS  WAF %.3f" % (n, s["host"]["iops"], s["waf"]["total"]))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
