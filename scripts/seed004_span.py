#!/usr/bin/env python3
"""Seed 004: which span did the seed's fio jobs cover, and how much did its CDF runs write? Answered from the
seed's per-LPN write-count CDFs alone (not from its WAF), on platform femu_hotcold.

usage: python3 scripts/seed004_span.py [--workers N] [--out DIR] [--figures DIR] [--bin-dir DIR] [--plot-only]

The counts are a property of the workload (fio's generator over the span), not of the drive, so the runs use a
counting device: the platform with 3x the flash (192 blocks per plane, over_provisioning 3: the same 768 MiB
namespace, WAF near 1), a fresh drive and threshold 0. A point writes IOPS_d x T 4 KiB random writes (IOPS_d:
the seed's threshold-0 IOPS of distribution d, T a duration) over the first span x 768 MiB (fio size=).

Steps:
  1. a study (DIR/studies/seed004_span, written to DIR/seed004_span.json): 5 distributions x SPANS x DURATIONS.
  2. a second study (DIR/studies/seed004_span_runtime): the platform as it is (FEMU's stock GC or forced GC only,
     full drive, the whole 768 MiB, threshold 0), fio time-based for 290 s, the volume set by the model's own IOPS:
     the seed's CDF runs predicted with nothing fitted (normal also as normal:50, fio <= 3.19's normal:1).
  3. per point, the CDF of the run's writes per LPN at the counts the seed's text gives, and D = the largest
     |ours - seed| over those points (a Kolmogorov-Smirnov distance at the seed's points; its largest count enters
     as CDF 1.0 there), in three readings of what the seed's CDF lists: the written LPNs only; LPNs 0..max_lpn-1
     with the never-written at 0; after a fill in the same FEMU start (every LPN of the 768 MiB, its writes + 1).
  4. fits per span: each distribution its own volume (min of D over the durations), in each reading; one fio
     runtime for all five distributions (min over the durations of the largest D of the five).
  5. DIR/seed004_span.csv (every point), DIR/seed004_span_fit.csv (the fits), DIR/seed004_span_runtime.csv,
     figures seed004_span_fit.png/.svg (D against span) and seed004_span_cdf.png/.svg (the CDFs at the best
     volume, beside the seed's points).
"""
import bisect
import csv
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from studylib import seedrun  # noqa: E402
import seed004_hotcold as s4  # noqa: E402

plt = seedrun.pyplot()
from studylib.plot import save_figure  # noqa: E402

LPNS = 196608  # 768 MiB of 4 KiB LPNs
SPANS = [0.4, 0.5, 0.6, 0.7, 0.775, 0.85, 1.0]
DURATIONS = [5, 8, 12, 18, 27, 40, 60, 90, 135, 200, 300]  # seconds at the seed's threshold-0 IOPS
IOPS_T0 = {d: (s4.PAPER[(d, 0)][0] + s4.PAPER[(d, 0)][1]) / 2 for d in s4.DISTS}
COUNTING_DEVICE = {"geometry.blocks_per_plane": 192, "geometry.over_provisioning": 3.0, "ftl.gc_free_blocks": 17,
                   "precondition.fill": False, "streams.hot_threshold": 0, "workload.random_map": False,
                   "workload.runtime_ms": 0, "stats.lpn_writes": True}


# The prediction: the seed's CDF build as FEMU with its stock GC (the platform's full drive and whole 768 MiB, FEMU's
# default thresholds), fio time-based for the 300 s the seed's timer logs less the fill's first seconds; the model's own IOPS
# set the volume. Against it, forced GC only (FEMU with gc_thres_pcent=95).
RUNTIME_S = 290
RUNTIME_GC = {"femu": {"ftl.gc_free_blocks": 17}, "forced": {"ftl.gc_min_invalid": 0.0, "ftl.gc_free_blocks": 4}}
RUNTIME_DISTS = {"normal": "normal:1", "normal_fio316": "normal:50", "pareto": "pareto:0.5", "zipf0.8": "zipf:0.8",
                 "zipf1.2": "zipf:1.2", "uniform": "random"}
def span_label(s):
    return "s%.3f" % s


def run_entry(d, t):
    return {"workload.distribution": s4.DIST_KEYS[d], "workload.io_count": int(round(IOPS_T0[d] * t))}


def write_study(path, name, runs, spans):
    """runs: {(distribution, duration label): duration}; spans: the span axis (every run at every span unless the
    run's label names its span: 'd s0.775 Tx')."""
    study = {"name": name, "description": "Seed 004's write-count CDFs against span and volume: written "
             "by scripts/seed004_span.py (a counting device: femu_hotcold's namespace on 3x the flash, fresh, "
             "threshold 0); results in docs/results/hotcold_femu_gc.md.",
             "platform": "femu_hotcold", "set": COUNTING_DEVICE,
             "sweep": {"span": {span_label(s): {"workload.address_range": int(round(LPNS * s)) * 4096}
                                for s in spans},
                       "run": runs}}
    with open(path, "w") as f:
        json.dump(study, f, indent=2)


def write_runtime_study(path):
    runs = {d: {"workload.distribution": key} for d, key in RUNTIME_DISTS.items()}
    study = {"name": "seed004_span_runtime", "description": "Seed 004's CDF runs predicted: femu_hotcold as it is "
             "(full drive, the whole 768 MiB, threshold 0), fio time-based for %d s; gc femu = FEMU's stock GC, "
             "forced = gc_thres_pcent=95. Written by scripts/seed004_span.py; results in docs/results/hotcold_femu_gc.md." % RUNTIME_S,
             "platform": "femu_hotcold",
             "set": {"streams.hot_threshold": 0, "workload.random_map": False, "workload.io_count": 0,
                     "workload.runtime_ms": RUNTIME_S * 1000, "precondition.fill": True, "stats.lpn_writes": True},
             "sweep": {"gc": RUNTIME_GC, "run": runs}}
    with open(path, "w") as f:
        json.dump(study, f, indent=2)


def runtime_rows(study_out, counts_out=None):
    """One row per point of the runtime study; counts_out (a dict) receives (gc, distribution) -> sorted counts."""
    rows = []
    if not (study_out / "results.csv").exists():
        return rows
    dirs = seedrun.run_dirs(study_out)
    for r in seedrun.ok_rows(study_out / "results.csv"):
        d = r["run"]
        paper = "normal" if d.startswith("normal") else d
        counts, _ = written_counts(dirs[r["point"]])
        if counts_out is not None:
            counts_out[(r["gc"], d)] = counts
        ff = cdf_points_fill(counts, paper)
        fw = cdf_points(counts, paper)
        rows.append(dict(gc=r["gc"], distribution=d, writes=sum(counts), iops=sum(counts) / RUNTIME_S,
                         equivalent_s_at_seed_iops=sum(counts) / IOPS_T0[paper], max=counts[-1] if counts else 0,
                         seed_max=s4.PAPER_CDF[paper][-1][0], D_fill=distance(ff, paper), D_written=distance(fw, paper),
                         **{"F_fill_at_%d" % c: f for (c, _), f in zip(s4.PAPER_CDF[paper], ff)},
                         **{"seed_at_%d" % c: p for c, p in s4.PAPER_CDF[paper]}))
    return rows


def first_runs():
    return {"%s T%g" % (d, t): run_entry(d, t) for d in s4.DISTS for t in DURATIONS}


def written_counts(run_dir):
    """The run's host writes per written LPN (sorted), and the LPNs below the largest written one never written."""
    lpns, counts = [], []
    with open(run_dir / "lpn_writes.csv", newline="") as f:
        for r in csv.DictReader(f):
            if int(r["writes"]) > 0:
                lpns.append(int(r["lpn"]))
                counts.append(int(r["writes"]))
    zeros = (max(lpns) - (len(lpns) - 1)) if lpns else 0  # LPNs 0..max_lpn-1 never written
    return sorted(counts), zeros


def cdf_points(counts, dist, zeros=0):
    n = max(1, len(counts) + zeros)
    return [(zeros + bisect.bisect_right(counts, c)) / n for c, _ in s4.PAPER_CDF[dist]]


def cdf_points_fill(counts, dist):
    """The seed's code after a sequential fill in the same FEMU boot: every LPN of the 768 MiB written once more,
    all of them listed (max_lpn is the last LPN), the ones fio never wrote at count 1."""
    unwritten = LPNS - len(counts)
    return [(unwritten + bisect.bisect_right(counts, c - 1)) / LPNS if c >= 1 else 0.0
            for c, _ in s4.PAPER_CDF[dist]]


def distance(f, dist):
    return max(abs(a - p) for a, (_, p) in zip(f, s4.PAPER_CDF[dist]))


def load_points(study_outs):
    pts = {}
    for study_out in study_outs:
        if not (study_out / "results.csv").exists():
            continue
        dirs = seedrun.run_dirs(study_out)
        for r in seedrun.ok_rows(study_out / "results.csv"):
            dist, t = r["run"].rsplit(" ", 1)
            span = float(r["span"][1:])
            counts, zeros = written_counts(dirs[r["point"]])
            f = cdf_points(counts, dist)
            fz = cdf_points(counts, dist, zeros)
            ff = cdf_points_fill(counts, dist)
            pts[(dist, span, float(t[1:]))] = {
                "F": f, "D": distance(f, dist), "D_zeros": distance(fz, dist), "F_fill": ff,
                "D_fill": distance(ff, dist), "max": counts[-1] if counts else 0,
                "written": len(counts), "never_written_below_max": zeros, "writes": sum(counts), "counts": counts}
    return pts


def fits(pts):
    rows = []
    for s in SPANS:
        row = {"span": s}
        worst_by_t, worst_fill = {}, {}
        for d in s4.DISTS:
            ts = sorted(t for (dd, ss, t) in pts if dd == d and ss == s)
            if not ts:
                continue
            best = min(ts, key=lambda t: pts[(d, s, t)]["D"])
            row["D_free_" + d], row["T_free_" + d] = pts[(d, s, best)]["D"], best
            row["writes_free_" + d] = pts[(d, s, best)]["writes"]
            bz = min(ts, key=lambda t: pts[(d, s, t)]["D_zeros"])
            row["D_zeros_" + d], row["T_zeros_" + d] = pts[(d, s, bz)]["D_zeros"], bz
            bf = min(ts, key=lambda t: pts[(d, s, t)]["D_fill"])
            row["D_fill_" + d], row["T_fill_" + d] = pts[(d, s, bf)]["D_fill"], bf
            for t in ts:
                if t in DURATIONS:
                    worst_by_t[t] = max(worst_by_t.get(t, 0.0), pts[(d, s, t)]["D"])
                    worst_fill[t] = max(worst_fill.get(t, 0.0), pts[(d, s, t)]["D_fill"])
        if worst_by_t:
            tj = min(worst_by_t, key=worst_by_t.get)
            row["D_joint"], row["T_joint"] = worst_by_t[tj], tj
            tf = min(worst_fill, key=worst_fill.get)
            row["D_joint_fill"], row["T_joint_fill"] = worst_fill[tf], tf
        rows.append(row)
    return rows


def fig_fit(rows, path):
    fig, ax = plt.subplots(2, 3, figsize=(15, 8))
    x = [r["span"] for r in rows]
    nan = float("nan")
    for d in s4.DISTS:
        ax[0][0].plot(x, [r.get("D_free_" + d, nan) for r in rows], marker="o", label=d)
        ax[0][1].plot(x, [r.get("D_zeros_" + d, nan) for r in rows], marker="o", label=d)
        ax[1][0].plot(x, [r.get("D_fill_" + d, nan) for r in rows], marker="o", label=d)
    ax[0][2].plot(x, [r.get("D_joint", nan) for r in rows], marker="o", color="black")
    ax[1][1].plot(x, [r.get("D_joint_fill", nan) for r in rows], marker="o", color="black")
    ax[1][2].axis("off")
    titles = [["written LPNs only: each distribution its own volume", "never-written LPNs as 0, up to max_lpn: "
               "own volume", "written LPNs only: one fio runtime for all five (largest D)"],
              ["after a fill, all 768 MiB listed: own volume", "after a fill, all 768 MiB: one runtime for all "
               "five (largest D)", ""]]
    for i in range(2):
        for j in range(3 if i == 0 else 2):
            a = ax[i][j]
            a.set_title(titles[i][j], fontsize=9)
            a.set_xlabel("span written by fio (share of the 768 MiB)")
            a.axvline(0.775, color="grey", ls=":", lw=1)
            a.set_ylim(bottom=0)
            a.grid(alpha=0.3)
        ax[i][0].set_ylabel("D: largest |CDF ours - seed| at its points")
    ax[0][0].legend(fontsize=8)
    fig.suptitle("Seed 004: which span and which LPNs do the seed's write-count CDFs point to? (dotted: 77.5 %)")
    fig.tight_layout()
    save_figure(fig, path)


def step_xy(counts):
    n = len(counts)
    xs, ys = [], []
    for i, c in enumerate(counts):
        if i + 1 == n or counts[i + 1] != c:
            xs.append(c)
            ys.append((i + 1) / n)
    return xs, ys


def fig_cdf(pts, rows, rt_counts, path):
    """Per distribution, the CDF as the seed's code lists it after a fill (every LPN of the 768 MiB at its writes
    + 1): the platform as it is for 290 s with FEMU's stock GC and with forced GC only (the prediction, nothing
    fitted), the 77.5 % span at its best volume; and the written LPNs only at span 1.0 at their best volume."""
    fig, axes = plt.subplots(1, len(s4.DISTS), figsize=(4.4 * len(s4.DISTS), 4.2), squeeze=False)
    by_span = {r["span"]: r for r in rows}
    filled = lambda counts: [1] * (LPNS - len(counts)) + [c + 1 for c in counts]
    for ax, d in zip(axes[0], s4.DISTS):
        run = "normal_fio316" if d == "normal" else d
        for gc, style in (("femu", "-"), ("forced", "-")):
            c = rt_counts.get((gc, run))
            if c:
                f = cdf_points_fill(c, d)
                ax.step(*step_xy(filled(c)), where="post", ls=style, label="%s GC, 290 s: %.2f M writes, D %.3f%s" % (
                    "FEMU's" if gc == "femu" else "forced", sum(c) / 1e6, distance(f, d),
                    " (fio <= 3.19's normal:1)" if run != d else ""))
        t = by_span.get(0.775, {}).get("T_fill_" + d)
        if t is not None:
            p = pts[(d, 0.775, t)]
            ax.step(*step_xy(filled(p["counts"])), where="post", label="span 77.5 %%, best volume %.2f M, D %.3f" % (
                p["writes"] / 1e6, p["D_fill"]))
        t = by_span.get(1.0, {}).get("T_free_" + d)
        if t is not None:
            p = pts[(d, 1.0, t)]
            ax.step(*step_xy(p["counts"]), where="post", ls="--", color="grey",
                    label="written LPNs only, best volume %.2f M, D %.3f" % (p["writes"] / 1e6, p["D"]))
        px, py = zip(*s4.PAPER_CDF[d])
        ax.plot(px, py, "o", color="black", label="seed (its text)")
        ax.set_xscale("log")
        ax.set_xlabel("writes per LPN (after a fill: + 1)")
        ax.set_title(d)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=5.5, loc="lower right")
    axes[0][0].set_ylabel("CDF over the LPNs listed")
    fig.suptitle("Seed 004: write-count CDFs as the seed's code lists them after a fill, beside the seed's points "
                 "(femu_hotcold, full drive, fio over the whole 768 MiB unless said)")
    fig.tight_layout()
    save_figure(fig, path)


def main():
    a = seedrun.argument_parser(
        __doc__, "out/seed004_span", workers_help="study workers (default 2)",
        bin_dir_help="run the ssdtlm-femu_hotcold found here (default: a copy of build/bin's in DIR/bin)",
        plot_only_help="redraw from DIR/studies/seed004_span*").parse_args()
    out, figs = seedrun.output_dirs(a)
    out.mkdir(parents=True, exist_ok=True)
    first = out / "studies" / "seed004_span"
    rc = 0
    if not a.plot_only:
        bin_dir = seedrun.study_bin_dir(a, out, "femu_hotcold")
        write_study(out / "seed004_span.json", "seed004_span", first_runs(), SPANS)
        rc, wall = seedrun.run_study(out / "seed004_span.json", first, a.workers, bin_dir)
        print("study wall time: %.1f s with --workers %d" % (wall, a.workers))
        runtime = out / "studies" / "seed004_span_runtime"
        write_runtime_study(out / "seed004_span_runtime.json")
        rc3, wall = seedrun.run_study(out / "seed004_span_runtime.json", runtime, a.workers, bin_dir)
        rc = rc or rc3
    runtime = out / "studies" / "seed004_span_runtime"
    rt_counts = {}
    rt = runtime_rows(runtime, rt_counts)
    seedrun.write_csv(rt, out / "seed004_span_runtime.csv", float_format="%.4f")
    for r in rt:
        print("runtime %-7s %-14s %.2f M writes (%.0f IOPS, = %.0f s at the seed's IOPS) max %d (seed %d) "
              "D after a fill %.3f, written only %.3f" % (r["gc"], r["distribution"], r["writes"] / 1e6, r["iops"],
                                                          r["equivalent_s_at_seed_iops"], r["max"], r["seed_max"],
                                                          r["D_fill"], r["D_written"]))
    pts = load_points([first])
    seedrun.write_csv([dict(distribution=d, span=s, T=t, writes=p["writes"], written=p["written"],
                            never_written_below_max=p["never_written_below_max"], max=p["max"], D=p["D"],
                            D_zeros=p["D_zeros"], D_fill=p["D_fill"],
                            **{"F_at_%d" % c: f for (c, _), f in zip(s4.PAPER_CDF[d], p["F"])},
                            **{"F_fill_at_%d" % c: f for (c, _), f in zip(s4.PAPER_CDF[d], p["F_fill"])})
                       for (d, s, t), p in sorted(pts.items())], out / "seed004_span.csv", float_format="%.4f")
    rows = fits(pts)
    seedrun.write_csv(rows, out / "seed004_span_fit.csv", float_format="%.3f")
    figs.mkdir(parents=True, exist_ok=True)
    fig_fit(rows, figs / "seed004_span_fit")
    fig_cdf(pts, rows, rt_counts, figs / "seed004_span_cdf")
    for r in rows:
        print("span %.3f  " % r["span"] + "  ".join(
            "%s D=%.3f@T%s (zeros %.3f)" % (
                d, r.get("D_free_" + d, float("nan")), r.get("T_free_" + d, "-"), r.get("D_zeros_" + d, float("nan")))
            for d in s4.DISTS) + "  joint D=%.3f@T%s" % (r.get("D_joint", float("nan")), r.get("T_joint", "-")))
        print("           fill reading: " + "  ".join("%s D=%.3f@T%s" % (d, r.get("D_fill_" + d, float("nan")),
                                                                         r.get("T_fill_" + d, "-"))
                                                  for d in s4.DISTS) +
              "  joint D=%.3f@T%s" % (r.get("D_joint_fill", float("nan")), r.get("T_joint_fill", "-")))
    return rc


if __name__ == "__main__":
    sys.exit(main())
