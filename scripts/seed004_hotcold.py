#!/usr/bin/env python3
"""Seed 004 (hot/cold separation by per-LPN host-write count, FEMU bbssd) on platform femu_hotcold.

usage: python3 scripts/seed004_hotcold.py [--workers N] [--out DIR] [--figures DIR] [--bin-dir DIR] [--plot-only]

Steps:
  1. run the study studies/seed004_hotcold.json (40 points: 2 GC settings x 5 distributions x 4 hot thresholds,
     each the seed's fio job for its 300 s of 4 KiB random writes at QD 32) with scripts/study.py
     --workers N (default 2) into DIR/studies/seed004_hotcold (DIR default out/seed004), with the executable copied
     to DIR/bin first. Settings (docs/results/hotcold_femu_gc.md): stock = the platform's defaults (FEMU's default thresholds,
     75/95), forced = a conditional variant (gc_thres_pcent=95, forced GC only: chosen after a run matched the seed's
     WAF, issue 43), both on the full 768 MiB.
  2. the percentile axis: from the threshold-0 runs' write counts, the counts at the 50th, 90th and 99th
     percentile of the written LPNs' counts become hot thresholds; a second study (DIR/studies/seed004_percentiles, 15 points:
     the stock setting x 5 distributions x 3 percentiles) runs them. The percentiles are over the LPNs the run
     wrote, of their host writes in the run (the seed's CDF); the policy's counts also hold the fill's write.
  3. draw the seed's figures into --figures (default DIR): seed004_<distribution>.png/.svg (IOPS and WAF every 10 s,
     one line per threshold, one column per setting), seed004_lpn_cdf.png/.svg (each distribution's write-count
     CDF at the seed's write volume beside the points the seed gives), and write DIR/seed004_table.csv (mean IOPS
     and WAF over the run after its first 10 s per point beside the seed's ranges, with each threshold's percentile
     among the measured counts), DIR/seed004_cdf.csv (our CDF beside the seed's) and DIR/seed004_percentiles.csv.
  4. the spread study studies/seed004_spread.json (each distribution's threshold 0 and the seed's lowest-WAF
     threshold, both settings, sim.seed 1-3) into DIR/studies/seed004_spread, and DIR/seed004_spread.csv: the mean
     IOPS and WAF of each of its points, which scripts/verdicts.py judges the claims on (copy it to docs/figures/).
  5. the experiments behind the docs' tables: studies/seed004_mechanism.json (hotcold.md, the mechanism of the
     uniform and pareto thresholds), seed004_femu_gc_span.json and seed004_uniform_gc.json (hotcold_femu_gc.md: the
     span, drive state and GC trigger behind uniform's 8.0 and 2.8), into DIR/studies/<name>, and
     DIR/seed004_experiments.csv: per point its WAF as the seed reads it (the mean of the 10 s rows after the first
     10 s), the whole run's waf.total and the mean IOPS.
"""
import csv
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun  # noqa: E402

plt = seedrun.pyplot()
from studylib.plot import save_figure  # noqa: E402

STUDY = ROOT / "studies" / "seed004_hotcold.json"
SPREAD_STUDY = ROOT / "studies" / "seed004_spread.json"
EXPERIMENTS = [ROOT / "studies" / (n + ".json") for n in ("seed004_mechanism", "seed004_femu_gc_span",
                                                          "seed004_uniform_gc")]
DISTS = ["normal", "pareto", "zipf0.8", "zipf1.2", "uniform"]
THRESHOLDS = {"normal": [0, 1, 5, 10], "pareto": [0, 1, 8, 18], "zipf0.8": [0, 10, 30, 50],
              "zipf1.2": [0, 6, 20, 50], "uniform": [0, 5, 13, 18]}
GCS = ["stock", "forced"]  # the first is the platform's default (docs/results/hotcold_femu_gc.md); forced is conditional (issue 43)
GC_TITLES = {"stock": "FEMU's default thresholds (75/95; default), full drive",
             "forced": "FEMU, gc_thres_pcent=95 (forced only; conditional), full drive"}
PERCENTILES = [50, 90, 99]
PCT_GCS = ["stock"]
DIST_KEYS = {"normal": "normal:1", "pareto": "pareto:0.5", "zipf0.8": "zipf:0.8", "zipf1.2": "zipf:1.2",
             "uniform": "random"}
from studylib.seed004_paper import PAPER, PAPER_CDF  # noqa: E402


def load(study_out, points=None):
    """(gc, distribution, threshold label) -> {"row": results row, "dir": the run's output directory}. Threshold
    labels are ints (the seed's thresholds) or "p50"-style strings (the percentile axis)."""
    dirs = seedrun.run_dirs(study_out)
    points = {} if points is None else points
    for r in seedrun.ok_rows(study_out / "results.csv"):
        dist, t = r["run"].rsplit(" ", 1)
        label = int(t[1:]) if t.startswith("t") else t
        points[(r["gc"], dist, label)] = {"row": r, "dir": dirs[r["point"]]}
    return points


def counts_of(run_dir):
    """The LPN write counts as the hot/cold policy saw them at the end (the precondition's fill included), over
    every LPN, and the measured run's host writes (lpn_writes.csv: the timed run only) of the LPNs it wrote."""
    import json
    with open(run_dir / "config.json") as f:
        fill = 1 if json.load(f)["precondition"]["fill"] else 0
    with open(run_dir / "summary.json") as f:
        g = json.load(f)["geometry"]
    lpns = g["logical_bytes"] // 4096  # 4 KiB LPNs, as the seed counts them
    run = []
    with open(run_dir / "lpn_writes.csv", newline="") as f:
        for r in csv.DictReader(f):
            run.append(int(r["writes"]))
    seen = [fill] * (lpns - len(run)) + [c + fill for c in run]
    return seen, run


def cdf_at(sorted_counts, c):
    """Share of the counts that are <= c."""
    import bisect
    return bisect.bisect_right(sorted_counts, c) / max(1, len(sorted_counts))


def percentile_count(sorted_counts, p):
    """The smallest count with at least p % of the counts at or below it."""
    if not sorted_counts:
        return 0
    i = max(0, min(len(sorted_counts) - 1, int(-(-p * len(sorted_counts) // 100)) - 1))
    return sorted_counts[i]


def series(run_dir):
    """The 10 s rows of the run; the last row (the partial interval up to the last I/O, and the drain) is left out."""
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
    save_figure(fig, path)


def fig_cdf(points, path):
    """One panel per distribution: the CDF of the measured run's host writes per LPN (LPNs written at least once),
    at the seed's write volume, and the seed's points."""
    fig, axes = plt.subplots(1, len(DISTS), figsize=(4.2 * len(DISTS), 3.8), squeeze=False)
    rows = []
    for ax, dist in zip(axes[0], DISTS):
        p = points.get((GCS[0], dist, 0))
        if not p:
            continue
        _, run = counts_of(p["dir"])
        written = sorted(c for c in run if c > 0)
        n = len(written)
        xs, ys = [], []
        for i, c in enumerate(written):
            if i + 1 == n or written[i + 1] != c:
                xs.append(c)
                ys.append((i + 1) / n)
        ax.step(xs, ys, where="post", label="ours (%d LPNs written)" % n)
        px, py = zip(*PAPER_CDF[dist])
        ax.plot(px, py, "o", color="black", label="seed (its text)")
        ax.set_xscale("log")
        ax.set_xlabel("host writes per LPN")
        ax.set_title("%s, %.2f M writes" % (dist, sum(written) / 1e6))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
        row = {"distribution": dist, "lpns_written": n, "writes": sum(written), "max_ours": written[-1] if n else 0,
               "max_seed": PAPER_CDF[dist][-1][0]}
        for c, y in PAPER_CDF[dist][:-1]:
            row["cdf_at_%d_seed" % c] = y
            row["cdf_at_%d_ours" % c] = cdf_at(written, c)
        rows.append(row)
    axes[0][0].set_ylabel("CDF")
    fig.suptitle("Seed 004: LPN write counts after the seed's 300 s, threshold 0")
    fig.tight_layout()
    save_figure(fig, path)
    return rows


def run_means(p):
    x, iops, waf = series(p["dir"])
    keep = [i for i, s in enumerate(x) if s > 10.0] or list(range(len(x)))  # the seed leaves out its first 10 s
    return (sum(iops[i] for i in keep) / len(keep), sum(waf[i] for i in keep) / len(keep))


def table(points, path):
    lines = []
    seen_t0 = {}
    for dist in DISTS:
        p0 = points.get((GCS[0], dist, 0))
        seen_t0[dist] = sorted(counts_of(p0["dir"])[0]) if p0 else []
        for t in THRESHOLDS[dist]:
            line = {"distribution": dist, "threshold": t}
            for gc in GCS:
                p = points.get((gc, dist, t))
                if not p:
                    continue
                line["iops_" + gc], line["waf_" + gc] = run_means(p)
                line["waf_total_" + gc] = float(p["row"]["waf.total"])
            # The threshold among the counts the policy saw at the end (fill included): the share of LPNs still cold.
            line["cold_share_ours"] = cdf_at(seen_t0[dist], t) if seen_t0[dist] else ""
            seed = dict(PAPER_CDF[dist])
            line["cold_share_seed"] = seed.get(t, "")
            lo_i, hi_i, lo_w, hi_w = PAPER[(dist, t)]
            line.update(paper_iops="%d-%d" % (lo_i, hi_i), paper_waf="%.2f-%.2f" % (lo_w, hi_w))
            lines.append(line)
    keys = ["distribution", "threshold"] + ["%s_%s" % (m, gc) for gc in GCS for m in ("iops", "waf", "waf_total")] + [
        "cold_share_ours", "cold_share_seed", "paper_iops", "paper_waf"]
    seedrun.write_csv(lines, path, columns=keys, float_format="%.3f")
    return lines


def spread_table(study_out, path):
    """Per point of the spread study: setting, distribution, threshold, seed, mean IOPS and WAF (as the table's)."""
    dirs = seedrun.run_dirs(study_out)
    lines = []
    for r in seedrun.ok_rows(study_out / "results.csv"):
        dist, t = r["run"].rsplit(" ", 1)
        iops, waf = run_means({"dir": dirs[r["point"]]})
        lines.append({"gc": r["gc"], "distribution": dist, "threshold": int(t[1:]), "seed": int(r["rep"][1:]),
                      "iops": iops, "waf": waf})
    seedrun.write_csv(lines, path, columns=["gc", "distribution", "threshold", "seed", "iops", "waf"],
                      float_format="%.4f")
    return lines


def percentile_study(points, path):
    """The study of the percentile axis: thresholds at the 50th/90th/99th percentile of the threshold-0 run's write
    counts over the LPNs it wrote (the seed's CDF), per distribution, at the seed's threshold-0 write volume.
    Returns the thresholds."""
    import json
    with open(STUDY) as f:
        base = json.load(f)
    runs, chosen = {}, {}
    for dist in DISTS:
        p0 = points.get((GCS[0], dist, 0))
        if not p0:
            continue
        written = sorted(c for c in counts_of(p0["dir"])[1] if c > 0)
        for pc in PERCENTILES:
            t = percentile_count(written, pc)
            chosen[(dist, "p%d" % pc)] = t
            runs["%s p%d" % (dist, pc)] = {"workload.distribution": DIST_KEYS[dist], "streams.hot_threshold": t}
    study = {"name": "seed004_percentiles", "description": "Seed 004's thresholds as percentiles of the measured "
             "write counts (written by scripts/seed004_hotcold.py from the threshold-0 runs of seed004_hotcold).",
             "platform": base["platform"], "set": base["set"],
             "sweep": {"gc": {g: base["sweep"]["gc"][g] for g in PCT_GCS}, "run": runs}}
    with open(path, "w") as f:
        json.dump(study, f, indent=2)
    return chosen


def percentile_table(points, chosen, path):
    lines = []
    for dist in DISTS:
        base = {gc: run_means(points[(gc, dist, 0)]) for gc in PCT_GCS if (gc, dist, 0) in points}
        for pc in PERCENTILES:
            label = "p%d" % pc
            if (dist, label) not in chosen:
                continue
            line = {"distribution": dist, "percentile": pc, "threshold": chosen[(dist, label)]}
            for gc in PCT_GCS:
                p = points.get((gc, dist, label))
                if p and gc in base:
                    line["iops_" + gc], line["waf_" + gc] = run_means(p)
                    line["waf_t0_" + gc] = base[gc][1]
            lines.append(line)
    keys = ["distribution", "percentile", "threshold"] + ["%s_%s" % (m, gc) for gc in PCT_GCS
                                                          for m in ("iops", "waf", "waf_t0")]
    seedrun.write_csv(lines, path, columns=keys, float_format="%.3f")
    return lines


def experiments_table(out, path):
    """One row per point of the experiment studies that ran (step 5): its label, WAF as the seed reads it, waf.total
    and the mean IOPS."""
    rows = []
    for study in EXPERIMENTS:
        runs = out / "studies" / study.stem / "runs.csv"
        if not runs.exists():
            continue
        with open(out / "studies" / study.stem / "results.csv", newline="") as f:
            results = {r["point"]: r for r in csv.DictReader(f)}
        with open(runs, newline="") as f:
            for r in csv.DictReader(f):
                if r["status"] != "ok":
                    continue
                iops, waf = run_means({"dir": Path(r["run_dir"])})
                rows.append({"study": study.stem, "point": r["label"], "waf_seed_reading": waf,
                             "waf_total": float(results[r["point"]]["waf.total"]), "iops": iops})
    seedrun.write_csv(rows, path, columns=["study", "point", "waf_seed_reading", "waf_total", "iops"],
                      float_format="%.3f")
    return rows


def main():
    a = seedrun.argument_parser(
        __doc__, "out/seed004", workers_help="study workers (default 2)",
        bin_dir_help="run the ssdtlm-femu_hotcold found here (default: a copy of build/bin's in DIR/bin)",
        plot_only_help="redraw from DIR/studies/seed004_hotcold and seed004_percentiles").parse_args()
    out, figs = seedrun.output_dirs(a)
    study_out = out / "studies" / "seed004_hotcold"
    pct_out = out / "studies" / "seed004_percentiles"
    rc = 0
    if not a.plot_only:
        bin_dir = seedrun.study_bin_dir(a, out, "femu_hotcold")
        rc, wall = seedrun.run_study(STUDY, study_out, a.workers, bin_dir)
        print("study wall time: %.1f s with --workers %d" % (wall, a.workers))
    points = load(study_out)
    pct_study = out / "seed004_percentiles.json"
    chosen = percentile_study(points, pct_study)
    if not a.plot_only:
        rc2, wall = seedrun.run_study(pct_study, pct_out, a.workers, bin_dir)
        rc = rc or rc2
        print("percentile study wall time: %.1f s with --workers %d" % (wall, a.workers))
    if (pct_out / "results.csv").exists():
        load(pct_out, points)
    spread_out = out / "studies" / "seed004_spread"
    if not a.plot_only:
        rc3, wall = seedrun.run_study(SPREAD_STUDY, spread_out, a.workers, bin_dir)
        rc = rc or rc3
        print("spread study wall time: %.1f s with --workers %d" % (wall, a.workers))
    if (spread_out / "results.csv").exists():
        spread_table(spread_out, out / "seed004_spread.csv")
    for study in EXPERIMENTS if not a.plot_only else []:
        rc4, wall = seedrun.run_study(study, out / "studies" / study.stem, a.workers, bin_dir)
        rc = rc or rc4
        print("%s wall time: %.1f s with --workers %d" % (study.stem, wall, a.workers))
    for r in experiments_table(out, out / "seed004_experiments.csv"):
        print("experiment %s | %s: WAF %.3f (whole run %.3f), %.0f IOPS" % (
            r["study"], r["point"], r["waf_seed_reading"], r["waf_total"], r["iops"]))
    figs.mkdir(parents=True, exist_ok=True)
    for dist in DISTS:
        fig_distribution(points, dist, figs / ("seed004_" + dist.replace(".", "")))
    cdf_rows = fig_cdf(points, figs / "seed004_lpn_cdf")
    seedrun.write_csv(cdf_rows, out / "seed004_cdf.csv", float_format="%.3f")
    lines = table(points, out / "seed004_table.csv")
    print("%-8s %4s" % ("dist", "thr") + "".join(" %9s %6s" % ("IOPS " + gc, "WAF") for gc in GCS) +
          " %6s %6s %13s %10s" % ("cold", "seed", "paper IOPS", "paper WAF"))
    for l in lines:
        print("%-8s %4d" % (l["distribution"], l["threshold"]) +
              "".join(" %9.0f %6.3f" % (l.get("iops_" + gc, 0), l.get("waf_" + gc, 0)) for gc in GCS) +
              " %6s %6s %13s %10s" % (("%.3f" % l["cold_share_ours"]) if l["cold_share_ours"] != "" else "",
                                      l["cold_share_seed"], l["paper_iops"], l["paper_waf"]))
    for r in cdf_rows:
        print("CDF %s" % r)
    for l in percentile_table(points, chosen, out / "seed004_percentiles.csv"):
        print("percentile %s" % l)
    print("wrote %s/seed004_*.png|pdf|svg and %s/seed004_{table,cdf,percentiles}.csv" % (figs, out))
    return rc


if __name__ == "__main__":
    sys.exit(main())
