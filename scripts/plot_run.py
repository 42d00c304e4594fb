#!/usr/bin/env python3
"""Plots one run directory: its time series and its latency distribution, read without squinting.

usage: .venv/bin/python scripts/plot_run.py OUT_DIR [--title TEXT]

Every figure is written as PNG, PDF and SVG (timeseries.png, .pdf, .svg, ...).
Writes OUT_DIR/timeseries.png: one panel per quantity with its own axis (IOPS, MB/s, interval WAF, free blocks,
buffer occupancy, GC-active dies, outstanding commands, map hit ratio, dirty map segments); a series that is zero
all along is left out, and so is a panel with nothing left. Each panel's axis starts at zero.
Writes OUT_DIR/latency_cdf.png: the CDF on a log latency axis, and beside it the tail on a "nines" axis
(1 - CDF, log scale) with p99, p99.9 and p99.99 of each operation marked.
With stats.lpn_writes, also OUT_DIR/lpn_writes_cdf.png (how writes spread over logical pages).
A run of several stonewall groups (summary.json "groups": a fill, then random writes, ...) gets each group's
span shaded and labelled with its jobs, IOPS and WAF on the time series, and per-group figures in the titles
(the latency distribution is the whole run's).
"""
import argparse
import csv
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from studylib import venv  # noqa: E402

venv.ensure(("matplotlib",))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter  # noqa: E402
from studylib.plot import save_figure  # noqa: E402

# (panel title / axis label, [(column, legend label, scale)]): one axis per panel, so counters of different
# magnitudes never share one.
PANELS = [
    ("throughput\n(kIOPS)", [("read_iops", "read", 1e-3), ("write_iops", "write", 1e-3)]),
    ("host data rate\n(MB/s)", [("mbps", "host", 1.0)]),
    ("write amplification\n(interval)", [("waf", "NAND / host bytes", 1.0)]),
    ("free blocks\n(all dies)", [("free_blocks", "all dies", 1.0)]),
    ("write buffer\n(MiB used)", [("buffer_units", "occupied", 4096 / 2.0 ** 20)]),
    ("dies in GC", [("gc_active_dies", "dies", 1.0)]),
    ("outstanding\ncommands", [("outstanding", "host", 1.0)]),
    ("map hit ratio\n(interval)", [("map_hit_ratio", "interval", 1.0)]),
    ("dirty map\nsegments", [("map_dirty_segments", "segments", 1.0)]),
]

TAIL_MARKS = [("p99", "p99", 1e-2), ("p999", "p99.9", 1e-3), ("p9999", "p99.99", 1e-4)]


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def panels_with_data(rows):
    """The panels and series worth drawing: a series that is 0 in every row is dropped."""
    out = []
    for label, series in PANELS:
        kept = []
        for col, name, scale in series:
            if rows and col in rows[0]:
                vals = [float(r[col]) * scale for r in rows]
                if any(v != 0 for v in vals):
                    kept.append((name, vals))
        if label.startswith("map hit ratio") and kept and all(v == 1.0 for v in kept[0][1]):
            kept = []  # no map lookup missed: a flat line at 1 says nothing
        if kept:
            out.append((label, kept))
    return out


def zero_based(ax, values):
    """A panel of counts and rates starts at zero and spans at least a tenth of its largest value, so that a series
    that barely moves (a full buffer at 16383-16384 units) is drawn flat, not as noise filling the panel."""
    if not values or min(values) < 0:
        return
    top = max(values)
    ax.set_ylim(0, top * 1.08 if top > 0 else 1.0)


def save(fig, stem):
    """Writes the figure as stem.png (to look at), stem.pdf and stem.svg (to put in a paper); returns the PNG's path."""
    return save_figure(fig, stem)[0]


def group_label(g):
    """A stonewall group in a few words: its number, jobs, IOPS and WAF."""
    jobs = ",".join(g["jobs"])
    if len(jobs) > 24:
        jobs = jobs[:21] + "..."
    return "g%d %s: %.0f IOPS, WAF %.2f" % (g["group"], jobs, g["iops"], g["waf"]["total"])


def default_title(out, summary):
    groups = summary.get("groups")
    if not groups:
        return "%s: %.0f IOPS, WAF %.2f" % (out.name, summary["host"]["iops"], summary["waf"]["total"])
    return "%s: %s" % (out.name, "; ".join("g%d %.0f IOPS, WAF %.2f" % (g["group"], g["iops"], g["waf"]["total"])
                                            for g in groups))


def mark_groups(axes, summary):
    """Shades each stonewall group's span (alternately) and labels it on the top panel."""
    groups = summary.get("groups")
    if not groups:
        return
    for i, g in enumerate(groups):
        start, end = g["start_s"], g["end_s"]
        for ax in axes:
            if i % 2:
                ax.axvspan(start, end, color="grey", alpha=0.08, lw=0)
            ax.axvline(start, color="grey", lw=0.8, ls="--")
        # Staggered downwards, so that the labels of short groups side by side do not overlap.
        axes[0].annotate(group_label(g), (start, 1.0), xycoords=("data", "axes fraction"),
                         xytext=(3, -3 - 9 * (i % 4)), textcoords="offset points", va="top", fontsize=7,
                         color="dimgrey")


def plot_timeseries(out, summary, rows, title):
    t = [float(r["t_ms"]) / 1e3 for r in rows]
    panels = panels_with_data(rows)
    if not panels:
        return None
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 1.9 * len(panels) + 0.8), sharex=True, squeeze=False)
    for ax, (label, series) in zip(axes[:, 0], panels):
        for name, vals in series:
            ax.plot(t, vals, label=name, lw=1.2)
        ax.set_ylabel(label, fontsize=9)
        ax.ticklabel_format(axis="y", useOffset=False, style="plain")
        zero_based(ax, [v for _, vals in series for v in vals])
        ax.grid(True, alpha=0.3)
        if len(series) > 1:
            ax.legend(loc="best", fontsize=8)
    mark_groups(list(axes[:, 0]), summary)
    axes[-1, 0].set_xlabel("simulated time (s)")
    fig.suptitle(title or default_title(out, summary), fontsize=10 if summary.get("groups") else None)
    fig.tight_layout()
    path = save(fig, out / "timeseries")
    print("timeseries panels: " + "; ".join("%s (%s)" % (label.replace("\n", " "), ", ".join(n for n, _ in series))
                                            for label, series in panels))
    if summary.get("groups"):
        print("groups: " + "; ".join(group_label(g) for g in summary["groups"]))
    return path


def nines_formatter(y, _pos):
    """1 - CDF on the tail axis, labelled as the percentile it stands for (0.01 -> 99%)."""
    if y <= 0 or y > 1:
        return ""
    p = 100.0 * (1.0 - y)
    return ("%.6f" % p).rstrip("0").rstrip(".") + "%"


def plot_latency(out, summary, cdf, title):
    fig, (ax, tail) = plt.subplots(1, 2, figsize=(12, 4.5))
    floor = 1.0
    colors = {"read": "tab:blue", "write": "tab:orange"}
    for op in ("read", "write"):
        pts = [(float(r["latency_us"]), float(r["cumulative_fraction"])) for r in cdf if r["op"] == op]
        if not pts:
            continue
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        ax.plot(xs, ys, label=op, color=colors[op])
        # The tail: 1 - CDF, without the last point (where it is 0, off a log axis).
        tx = [x for x, y in zip(xs, ys) if y < 1.0]
        ty = [1.0 - y for y in ys if y < 1.0]
        if tx:
            tail.step(tx, ty, where="post", label=op, color=colors[op])
            floor = min(floor, min(ty))
        lat = summary["host"]["latency_us"][op]
        for key, name, level in TAIL_MARKS:
            if key in lat and lat["count"] * level >= 1:  # enough samples for that percentile to mean something
                tail.plot([lat[key]], [level], "o", color=colors[op], ms=5)
                left = op == "read"  # reads labelled to the left of their point, writes to the right
                tail.annotate("%s %.0f µs" % (name, lat[key]), (lat[key], level), textcoords="offset points",
                              xytext=(-6 if left else 6, 4), ha="right" if left else "left", fontsize=8,
                              color=colors[op])
    ax.set_xscale("log")
    ax.set_xlabel("latency (µs)")
    ax.set_ylabel("cumulative fraction of I/Os")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title("distribution")
    tail.set_xscale("log")
    tail.set_yscale("log")
    low = 10.0 ** -max(4, int(math.ceil(-math.log10(max(floor, 1e-9)))))
    tail.set_ylim(low, 1.0)
    levels = [10.0 ** -k for k in range(0, 10) if 10.0 ** -k >= low]
    tail.yaxis.set_major_locator(FixedLocator(levels))
    tail.yaxis.set_major_formatter(FuncFormatter(nines_formatter))
    tail.yaxis.set_minor_formatter(NullFormatter())
    for _, _, level in TAIL_MARKS:
        tail.axhline(level, color="grey", lw=0.6, ls=":")
    tail.set_xlabel("latency (µs)")
    tail.set_ylabel("percentile (tail, 1 - CDF)")
    tail.grid(True, which="major", alpha=0.3)
    tail.set_title("tail")
    if tail.lines:
        tail.legend(loc="lower left")
    groups = summary.get("groups")
    if title:
        fig.suptitle(title)
    elif groups:  # the distribution is the whole run's; each group's p99 in the title
        parts = []
        for g in groups:
            lat = [(op, g["latency_us"][op]) for op in ("read", "write") if g["latency_us"][op]["count"]]
            parts.append("g%d %s" % (g["group"], ", ".join("%s p99 %.0f µs" % (op, l["p99"]) for op, l in lat) or "-"))
        fig.suptitle("%s: latency, all groups (%s)" % (out.name, "; ".join(parts)), fontsize=10)
    else:
        fig.suptitle("%s: latency" % out.name)
    fig.tight_layout()
    return save(fig, out / "latency_cdf")


def plot_lpn_writes(out):
    lpn = out / "lpn_writes.csv"
    if not lpn.exists():
        return None
    counts = sorted((int(r["writes"]) for r in read_csv(lpn)), reverse=True)
    if not counts:
        return None
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
    return save(fig, out / "lpn_writes_cdf")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", help="a run's output directory (--out)")
    ap.add_argument("--title", help="figure title (default: the directory name and its IOPS and WAF)")
    a = ap.parse_args(argv)
    out = Path(a.out_dir)
    if not (out / "summary.json").exists():
        sys.exit("%s: no summary.json: not a run directory" % out)
    summary = json.loads((out / "summary.json").read_text())
    written = [plot_timeseries(out, summary, read_csv(out / "timeseries.csv"), a.title),
               plot_latency(out, summary, read_csv(out / "latency_cdf.csv"), a.title),
               plot_lpn_writes(out)]
    print("plots: " + ", ".join(str(p) for p in written if p))


if __name__ == "__main__":
    main()
