#!/usr/bin/env python3
"""Seed 004 (hot/cold separation by per-LPN host-write count, FEMU bbssd) on platform femu_hotcold.

usage: python3 scripts/seed004_hotcold.py [--workers N] [--out DIR] [--figures DIR] [--bin-dir DIR] [--plot-only]

Steps:
  1. run the study studies/seed004_hotcold.json (60 points: 3 drive/GC settings x 5 distributions x 4 hot thresholds,
     300 s of simulated 4 KiB random writes each) with scripts/study.py --workers N (default 2) into
     DIR/studies/seed004_hotcold (DIR default out/seed004), with the executable copied to DIR/bin first.
  2. draw the seed's figures into --figures (default DIR): seed004_<distribution>.png/.svg (IOPS and WAF every 10 s,
     one line per threshold; columns: fresh drive with FEMU's two-level GC trigger, fresh drive with forced GC
     only, full drive with forced GC only) and
     seed004_lpn_cdf.png/.svg (the LPN write-count CDF of each distribution, threshold 0), and write
     DIR/seed004_table.csv: mean IOPS and WAF over 10..300 s per point beside the seed's ranges.
"""
import csv
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun  # noqa: E402

plt = seedrun.pyplot()

STUDY = ROOT / "studies" / "seed004_hotcold.json"
DISTS = ["normal", "pareto", "zipf0.8", "zipf1.2", "uniform"]
THRESHOLDS = {"normal": [0, 1, 5, 10], "pareto": [0, 1, 8, 18], "zipf0.8": [0, 10, 30, 50],
              "zipf1.2": [0, 6, 20, 50], "uniform": [0, 5, 13, 18]}
GCS = ["femu", "forced", "full"]
GC_TITLES = {"femu": "fresh drive, FEMU GC trigger", "forced": "fresh drive, forced GC only",
             "full": "full drive, forced GC only"}
# The seed's steady ranges (IOPS low, high, WAF low, high) per distribution and threshold, read off its text.
PAPER = {
    ("normal", 0): (18000, 18200, 3.0, 3.1), ("normal", 1): (18200, 19300, 2.7, 3.0),
    ("normal", 5): (18000, 19000, 2.75, 3.05), ("normal", 10): (18000, 19000, 2.7, 3.1),
    ("pareto", 0): (18000, 18500, 3.0, 3.1), ("pareto", 1): (18500, 19000, 2.7, 2.9),
    ("pareto", 8): (18300, 19000, 2.8, 3.1), ("pareto", 18): (18300, 18900, 2.8, 3.0),
    ("zipf0.8", 0): (15000, 16000, 3.7, 3.8), ("zipf0.8", 10): (18000, 19400, 2.6, 3.2),
    ("zipf0.8", 30): (17500, 18500, 2.6, 3.0), ("zipf0.8", 50): (17300, 18700, 2.6, 3.1),
    ("zipf1.2", 0): (15000, 15000, 4.8, 5.0), ("zipf1.2", 6): (19000, 21000, 2.0, 2.9),
    ("zipf1.2", 20): (19000, 21000, 1.9, 3.0), ("zipf1.2", 50): (19500, 21000, 1.9, 3.2),
    ("uniform", 0): (18600, 19100, 2.76, 2.9), ("uniform", 5): (18900, 19800, 2.47, 2.9),
    ("uniform", 13): (18900, 19600, 2.51, 2.9), ("uniform", 18): (18800, 20000, 2.45, 2.9),
}


def load(study_out):
    """(gc, distribution, threshold) -> {"row": results row, "dir": the run's output directory}."""
    dirs = seedrun.run_dirs(study_out)
    points = {}
    for r in seedrun.ok_rows(study_out / "results.csv"):
        dist, t = r["run"].rsplit(" t", 1)
        points[(r["gc"], dist, int(t))] = {"row": r, "dir": dirs[r["point"]]}
    return points


def series(run_dir):
    """The 10 s rows of the 300 s run; the last row (the queue draining after the runtime) is left out."""
    t, iops, waf = [], [], []
    with open(run_dir / "timeseries.csv", newline="") as f:
        rows = list(csv.DictReader(f))[:-1]
    for r in rows:
        t.append(float(r["t_ms"]) / 1000)
        iops.append(float(r["iops"]))
        waf.append(float(r["waf"]))
    return t, iops, waf


def fig_distribution(points, dist, path):
    fig, ax = plt.subplots(2, len(GCS), figsize=(5.5 * len(GCS), 6.5), sharex=True, squeeze=False)
    for j, gc in enumerate(GCS):
        for t in THRESHOLDS[dist]:
            p = points.get((gc, dist, t))
            if not p:
                continue
            x, iops, waf = series(p["dir"])
            label = "threshold %d%s" % (t, " (no separation)" if t == 0 else "")
            ax[0][j].plot(x, iops, marker="o", ms=3, label=label)
            ax[1][j].plot(x, waf, marker="o", ms=3, label=label)
        ax[0][j].set_title("%s: %s" % (dist, GC_TITLES[gc]))
        ax[0][j].set_ylabel("IOPS (per 10 s)")
        ax[1][j].set_ylabel("WAF (per 10 s)")
        ax[1][j].set_xlabel("simulated time (s)")
        ax[0][j].set_ylim(bottom=0)
        ax[1][j].set_ylim(bottom=0)
        ax[0][j].grid(alpha=0.3)
        ax[1][j].grid(alpha=0.3)
    ax[0][0].legend(fontsize=8)
    fig.suptitle("Seed 004 on femu_hotcold: %s, 4 KiB random writes, QD 32" % dist)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(str(path) + "." + ext, dpi=110)
    plt.close(fig)


def fig_cdf(points, path):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for dist in DISTS:
        p = points.get(("femu", dist, 0))
        if not p:
            continue
        counts = []
        with open(p["dir"] / "lpn_writes.csv", newline="") as f:
            for r in csv.DictReader(f):
                if int(r["writes"]) > 0:
                    counts.append(int(r["writes"]))
        counts.sort()
        n = len(counts)
        xs, ys = [], []
        for i, c in enumerate(counts):
            if i + 1 == n or counts[i + 1] != c:
                xs.append(c)
                ys.append((i + 1) / n)
        ax.step(xs, ys, where="post", label="%s (%d LPNs written)" % (dist, n))
    ax.set_xscale("log")
    ax.set_xlabel("host writes per LPN (written LPNs only)")
    ax.set_ylabel("CDF")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Seed 004: LPN write counts after 300 s")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(str(path) + "." + ext, dpi=110)
    plt.close(fig)


def table(points, path):
    lines = []
    for dist in DISTS:
        for t in THRESHOLDS[dist]:
            line = {"distribution": dist, "threshold": t}
            for gc in GCS:
                p = points.get((gc, dist, t))
                if not p:
                    continue
                x, iops, waf = series(p["dir"])
                keep = [i for i, s in enumerate(x) if s > 10.0]  # the seed leaves out its first interval
                line["iops_" + gc] = sum(iops[i] for i in keep) / max(1, len(keep))
                line["waf_" + gc] = sum(waf[i] for i in keep) / max(1, len(keep))
                line["waf_total_" + gc] = float(p["row"]["waf.total"])
            lo_i, hi_i, lo_w, hi_w = PAPER[(dist, t)]
            line.update(paper_iops="%d-%d" % (lo_i, hi_i), paper_waf="%.2f-%.2f" % (lo_w, hi_w))
            lines.append(line)
    keys = ["distribution", "threshold"] + ["%s_%s" % (m, gc) for gc in GCS for m in ("iops", "waf", "waf_total")] + [
        "paper_iops", "paper_waf"]
    seedrun.write_csv(lines, path, columns=keys, float_format="%.3f")
    return lines


def main():
    a = seedrun.argument_parser(
        __doc__, "out/seed004", workers_help="study workers (default 2)",
        bin_dir_help="run the ssdtlm-femu_hotcold found here (default: a copy of build/bin's in DIR/bin)",
        plot_only_help="redraw from DIR/studies/seed004_hotcold").parse_args()
    out, figs = seedrun.output_dirs(a)
    study_out = out / "studies" / "seed004_hotcold"
    rc = 0
    if not a.plot_only:
        rc, wall = seedrun.run_study(STUDY, study_out, a.workers, seedrun.study_bin_dir(a, out, "femu_hotcold"))
        print("study wall time: %.1f s with --workers %d" % (wall, a.workers))
    points = load(study_out)
    figs.mkdir(parents=True, exist_ok=True)
    for dist in DISTS:
        fig_distribution(points, dist, figs / ("seed004_" + dist.replace(".", "")))
    fig_cdf(points, figs / "seed004_lpn_cdf")
    lines = table(points, out / "seed004_table.csv")
    print("%-8s %4s" % ("dist", "thr") + "".join(" %9s %6s" % ("IOPS " + gc, "WAF") for gc in GCS) +
          " %13s %10s" % ("paper IOPS", "paper WAF"))
    for l in lines:
        print("%-8s %4d" % (l["distribution"], l["threshold"]) +
              "".join(" %9.0f %6.3f" % (l.get("iops_" + gc, 0), l.get("waf_" + gc, 0)) for gc in GCS) +
              " %13s %10s" % (l["paper_iops"], l["paper_waf"]))
    print("wrote %s/seed004_*.png|svg and %s/seed004_table.csv" % (figs, out))
    return rc


if __name__ == "__main__":
    sys.exit(main())
