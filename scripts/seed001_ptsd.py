#!/usr/bin/env python3
"""Seed 001 (PTSD: partitioned map cache and read-priority scheduling on a demand-based FTL) on platform ptsd_board.

usage: python3 scripts/seed001_ptsd.py [--workers N] [--out DIR] [--figures DIR] [--bin-dir DIR] [--plot-only]

Steps:
  1. run the study studies/seed001_ptsd.json (20 points: 4 scenarios x 5 schemes) and the experiments
     studies/seed001_ptsd_gc_update.json (4 points: the paper's scenario with map.gc_update=page) and
     studies/seed001_ptsd_gc_load.json (6 points: phases shortened to 8 + 1 GiB, 20 % and 7 % spare),
     studies/seed001_ptsd_gc_free.json (4 points: the paper's scenario with map.gc_update=free, GC's map updates
     at no cost), studies/seed001_ptsd_seeds.json (12 points: the paper's scenario with sim.seed 1, 2, 3) and
     studies/seed001_ptsd_fgc.json (4 points, scaled to 8 + 1 GiB: OPT, DFTL, PART-SCHED with background GC, OPT
     with gc_first/superblock, the model's blocking GC, which DFTL and PTSD cannot run) and
     studies/seed001_ptsd_cache_share.json (16 points, scaled to 8 + 1 GiB: DFTL, PART, PART-SCHED, WRITEOPT with the
     map cache at 20, 25, 50 and 100 % of the map; H6) with
     scripts/study.py --workers N (default 2) into DIR/studies/<name> (DIR default out/seed001), with the
     executable copied to DIR/bin first. Schemes (the paper's names): OPT = page map, DFTL, PART = ptsd,
     PART-SCHED = ptsd + read_priority, WRITEOPT = ptsd_entry + read_priority. Scenarios: paper = the platform's
     defaults (32 GiB of random writes, then random reads, both timed in one run: jobs 'write' and 'read', stonewall);
     our additions: ff_read (the reads after a fast-forwarded 2 drive-writes), mix70 (70 % reads after that
     fast-forward), open_loop (the paper's two phases, reads arriving at a fixed 100 kIOPS).
  2. draw the seed's figures into --figures (default DIR), each as .png, .pdf and .svg:
     seed001_fig4_read_paths   read latency of OPT vs DFTL split by read path (data only, map read, map write, GC),
                               per scenario: share of reads and mean latency per path
     seed001_fig9_cdf          read-latency CDF of OPT, DFTL, PART (paper scenario; open loop beside it)
     seed001_fig10_sched       PART vs PART-SCHED: (a) full CDF, (b) from p80 (paper scenario and mix70)
     seed001_fig11_hist        read-latency distribution, a histogram per scheme (paper scenario)
     seed001_fig12_throughput  total throughput of OPT, DFTL, PART, PART-SCHED, WRITEOPT (paper scenario: each
                               phase and the whole run; mix70)
     seed001_fig4_fgc          Fig. 4 from studies/seed001_ptsd_fgc.json: read paths and the share of reads
                               above 10 ms, background GC (OPT, DFTL, PART-SCHED) and blocking GC (OPT)
     and write DIR/seed001_results.csv: one row per point and job (IOPS, read latency percentiles, read paths,
     WAF, map write-backs and GC figures).
"""
import csv
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun  # noqa: E402

plt = seedrun.pyplot()
from studylib.plot import save_figure  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

PLATFORM = "ptsd_board"
STUDIES = [ROOT / "studies" / "seed001_ptsd.json", ROOT / "studies" / "seed001_ptsd_gc_update.json",
           ROOT / "studies" / "seed001_ptsd_gc_load.json", ROOT / "studies" / "seed001_ptsd_gc_free.json",
           ROOT / "studies" / "seed001_ptsd_seeds.json", ROOT / "studies" / "seed001_ptsd_fgc.json",
           ROOT / "studies" / "seed001_ptsd_cache_share.json"]
FGC = ROOT / "studies" / "seed001_ptsd_fgc.json"
SLOW_US = 10000.0  # the paper's GC band of Fig. 4: reads above 10 ms
SCHEMES = ["OPT", "DFTL", "PART", "PART-SCHED", "WRITEOPT"]
SCENARIOS = {"paper": "paper: 32 GiB random writes, then random reads (both timed)",
             "ff_read": "ours: reads after fast-forwarded writes",
             "mix70": "ours: 70 % reads after fast-forwarded writes",
             "open_loop": "ours: paper's phases, reads at a fixed 100 kIOPS"}
COLORS = {"OPT": "black", "DFTL": "tab:red", "PART": "tab:orange", "PART-SCHED": "tab:blue", "WRITEOPT": "tab:green"}
PATHS = ["data", "map_read", "map_write", "gc_wait", "buffer"]
PATH_LABELS = {"data": "data only", "map_read": "map read", "map_write": "map write", "gc_wait": "GC",
               "buffer": "buffer"}
PATH_COLORS = {"data": "tab:green", "map_read": "tab:blue", "map_write": "tab:red", "gc_wait": "tab:purple",
               "buffer": "tab:gray"}


def load(study_out):
    """(scenario, scheme) -> {"summary": summary.json, "dir": run directory} of the points that finished; a study
    without a scenario axis names its points by its GC setting (gc_foreground), random seed (seed2),
    over-provisioning (op0.07) or "paper"."""
    dirs = seedrun.run_dirs(study_out)
    points = {}
    for r in seedrun.ok_rows(study_out / "results.csv"):
        d = dirs[r["point"]]
        scenario = r.get("scenario") or ("gc_" + r["gc"] if "gc" in r else None) or \
            ("seed" + r["sim.seed"] if "sim.seed" in r else None) or \
            ("op%s" % r["geometry.over_provisioning"] if "geometry.over_provisioning" in r else "paper")
        points[(scenario, r["scheme"])] = {"summary": json.loads((d / "summary.json").read_text()), "dir": d}
    return points


def read_job(s):
    """The job whose reads the figures show: the job named 'read' (or 'mix'), else the host as a whole."""
    for j in s.get("jobs", []):
        if j["name"] in ("read", "mix"):
            return j
    h = s["host"]
    return {"name": "host", "iops": h["iops"], "latency_us": h["latency_us"], "read_paths": h["read_paths"],
            "read_ios": h["read_ios"], "write_ios": h["write_ios"], "span_s": s.get("sim_time_s", 0)}


def share_above(run_dir, us):
    """The share of the run's reads slower than us (from its latency CDF)."""
    xs, ys = read_cdf(run_dir)
    below = [y for x, y in zip(xs, ys) if x <= us]
    return 1.0 - (below[-1] if below else 0.0) if ys else 0.0


def fig4_fgc(points, path):
    """Fig. 4 from the foreground-GC experiment (scaled): read paths of OPT, DFTL and PART-SCHED under the
    platform's background GC and of OPT under gc_first/superblock (DFTL and PTSD cannot run superblock GC), and the
    share of reads above 10 ms (the paper's GC band)."""
    names = ("OPT", "DFTL", "PART-SCHED", "OPT foreground")
    scen = [sc for sc in ("paper", "mix70") if any((sc, n) in points for n in names)]
    if not scen:
        return
    fig, grid = plt.subplots(3, len(scen), figsize=(6.4 * len(scen), 8.4), squeeze=False)
    for c, sc in enumerate(scen):
        fig4_fgc_column(points, sc, names, grid[:, c])
    grid[0][0].set_ylabel("share of host reads")
    grid[1][0].set_ylabel("mean latency per path (µs, log)")
    grid[2][0].set_ylabel("reads above 10 ms (%)")
    grid[0][0].legend(fontsize=7, ncol=len(PATHS), loc="upper center", bbox_to_anchor=(0.5, 1.3))
    fig.suptitle("Seed 001 Fig. 4, GC experiment (SCALED: 8 GiB writes + 1 GiB reads; mix 1 GiB); DFTL/PTSD cannot "
                 "run\nthe blocking GC setting (superblock GC with map pages on flash is not supported)", fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    save_figure(fig, path, dpi=90)


def fig4_fgc_column(points, sc, names, axes):
    names = [n for n in names if (sc, n) in points]
    for i, name in enumerate(names):
        p = points[(sc, name)]
        rp = read_job(p["summary"])["read_paths"]
        total = sum(rp[k]["count"] for k in PATHS) or 1
        bottom = 0.0
        for j, k in enumerate(PATHS):
            share = rp[k]["count"] / total
            axes[0].bar(i, share, bottom=bottom, color=PATH_COLORS[k], label=PATH_LABELS[k] if i == 0 else None)
            bottom += share
            if rp[k]["count"]:
                axes[1].bar(i + (j - 2) * 0.16, rp[k]["mean_us"], 0.16, color=PATH_COLORS[k])
        slow = share_above(p["dir"], SLOW_US)
        axes[2].bar(i, slow * 100, color=COLORS.get(name, "gray"))
        axes[2].text(i, slow * 100, "%.4f %%" % (slow * 100), ha="center", va="bottom", fontsize=7)
    axes[1].set_yscale("log")
    for y, txt in ((800, "0.8 ms"), (SLOW_US, "10 ms")):
        axes[1].axhline(y, color="gray", ls=":", lw=0.8)
        axes[1].text(len(names) - 0.5, y, txt, fontsize=6, color="gray", va="bottom", ha="right")
    labels = [{"OPT": "OPT\nbackground GC", "DFTL": "DFTL\nbackground GC", "PART-SCHED": "PART-SCHED\nbackground GC",
               "OPT foreground": "OPT\ngc_first, superblock"}[n] for n in names]
    for ax in axes:
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(labels, fontsize=7)
    axes[0].set_title({"paper": "paper's phases: the read job", "mix70": "70 % reads (the seed's Fig. 4 mix)"}[sc],
                      fontsize=8)


def read_cdf(run_dir):
    xs, ys = [], []
    with open(run_dir / "latency_cdf.csv", newline="") as f:
        for r in csv.DictReader(f):
            if r["op"] == "read":
                xs.append(float(r["latency_us"]))
                ys.append(float(r["cumulative_fraction"]))
    return xs, ys


def log_axis(ax):
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "%gk" % (v / 1e3) if v >= 1e3 else "%g" % v))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(True, which="both", alpha=0.3)


def cdf_panel(ax, points, scenario, schemes, p_from=0.0, title=""):
    starts = []
    for name in schemes:
        p = points.get((scenario, name))
        if not p:
            continue
        xs, ys = read_cdf(p["dir"])
        ax.step(xs, ys, where="post", color=COLORS[name], label=name, lw=1.4)
        starts += [x for x, y in zip(xs, ys) if y >= p_from][:1]
    log_axis(ax)
    if p_from > 0 and starts:  # the zoom starts at the lowest scheme's p_from latency
        ax.set_xlim(min(starts) * 0.8, None)
    ax.set_ylim(p_from, 1.001)
    ax.set_xlabel("read latency (µs, log)")
    ax.set_title(title, fontsize=9)


def fig4(points, path):
    scen = [s for s in SCENARIOS if any((s, n) in points for n in ("OPT", "DFTL"))]
    fig, axes = plt.subplots(2, len(scen), figsize=(3.6 * len(scen), 6.2), squeeze=False)
    for c, scenario in enumerate(scen):
        ax_share, ax_mean = axes[0][c], axes[1][c]
        for i, name in enumerate(("OPT", "DFTL")):
            p = points.get((scenario, name))
            if not p:
                continue
            rp = read_job(p["summary"])["read_paths"]
            total = sum(rp[k]["count"] for k in PATHS) or 1
            bottom = 0.0
            for j, k in enumerate(PATHS):
                share = rp[k]["count"] / total
                ax_share.bar(i, share, bottom=bottom, color=PATH_COLORS[k], label=PATH_LABELS[k] if i == 0 else None)
                bottom += share
                if rp[k]["count"]:
                    ax_mean.bar(i + (j - 2) * 0.16, rp[k]["mean_us"], 0.16, color=PATH_COLORS[k])
        for ax in (ax_share, ax_mean):
            ax.set_xticks([0, 1])
            ax.set_xticklabels(["page FTL (OPT)", "DFTL"], fontsize=8)
        ax_share.set_title(SCENARIOS[scenario], fontsize=8)
        ax_mean.set_yscale("log")
        ax_mean.grid(True, axis="y", which="both", alpha=0.3)
        for y, txt in ((800, "0.8 ms"), (10000, "10 ms")):  # the paper's bands: map read, map write, GC
            ax_mean.axhline(y, color="gray", ls=":", lw=0.8)
            ax_mean.text(1.45, y, txt, fontsize=6, color="gray", va="bottom", ha="right")
    axes[0][0].set_ylabel("share of host reads")
    axes[1][0].set_ylabel("mean read latency per path (µs, log)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(PATHS), fontsize=8)
    fig.suptitle("Seed 001 Fig. 4: read latency of the page FTL and DFTL by read path (QD 128)", fontsize=10)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    save_figure(fig, path, dpi=90)


def fig9(points, path):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    cdf_panel(axes[0], points, "paper", ["OPT", "DFTL", "PART"], title="paper scenario: read phase (closed loop, QD 128)")
    cdf_panel(axes[1], points, "open_loop", ["OPT", "DFTL", "PART"], title="ours: read phase at a fixed 100 kIOPS")
    axes[0].set_ylabel("cumulative fraction of reads")
    axes[0].legend(fontsize=8, loc="lower right")
    fig.suptitle("Seed 001 Fig. 9: read-latency CDF, OPT / DFTL / PART")
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def fig10(points, path):
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    for row, scenario in enumerate(("paper", "mix70")):
        cdf_panel(axes[row][0], points, scenario, ["PART", "PART-SCHED"], title="(a) %s" % SCENARIOS[scenario])
        cdf_panel(axes[row][1], points, scenario, ["PART", "PART-SCHED"], 0.8, title="(b) from p80")
        axes[row][0].set_ylabel("cumulative fraction of reads")
    axes[0][0].legend(fontsize=8, loc="lower right")
    fig.suptitle("Seed 001 Fig. 10: PART vs PART-SCHED (read-priority scheduling)")
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def fig11(points, path):
    fig, axes = plt.subplots(len(SCHEMES), 1, figsize=(8, 1.7 * len(SCHEMES)), sharex=True)
    edges = [10 ** (1.5 + k * 0.05) for k in range(61)]  # 32 us .. 32 ms, 20 bins a decade
    for ax, name in zip(axes, SCHEMES):
        p = points.get(("paper", name))
        if not p:
            continue
        xs, ys = read_cdf(p["dir"])
        frac, k, prev = [], 0, 0.0
        for e in edges[1:]:
            while k < len(xs) and xs[k] <= e:
                k += 1
            cum = ys[k - 1] if k else 0.0
            frac.append(cum - prev)
            prev = cum
        ax.bar(edges[:-1], frac, width=[b - a for a, b in zip(edges[:-1], edges[1:])], align="edge",
               color=COLORS[name])
        lat = read_job(p["summary"])["latency_us"]["read"]
        ax.axvline(lat["mean"], color="k", lw=0.8, ls="--")
        ax.text(0.99, 0.85, "%s: mean %.0f µs, p99 %.0f µs" % (name, lat["mean"], lat["p99"]), transform=ax.transAxes,
                ha="right", fontsize=8)
        ax.set_ylabel("share (log)", fontsize=8)
        ax.set_yscale("log")
        ax.set_ylim(1e-6, 0.5)  # the tail: a share of 1e-5 is 10 reads of 1 Mi
        log_axis(ax)
    axes[-1].set_xlabel("read latency (µs, log)")
    fig.suptitle("Seed 001 Fig. 11: read-latency distribution\n(paper scenario, read phase; 20 bins a decade)",
                 fontsize=10)
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def fig12(points, path):
    panels = [("paper", "whole run (writes + reads)", lambda s: s["host"]["iops"]),
              ("paper", "write phase", lambda s: job(s, "write")["iops"]),
              ("paper", "read phase", lambda s: job(s, "read")["iops"]),
              ("mix70", "ours: 70 % reads", lambda s: s["host"]["iops"])]
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 4.2))
    for ax, (scenario, title, value) in zip(axes, panels):
        vals = [value(points[(scenario, n)]["summary"]) / 1e3 if (scenario, n) in points else 0 for n in SCHEMES]
        ax.bar(range(len(SCHEMES)), vals, color=[COLORS[n] for n in SCHEMES])
        base = vals[1] or 1
        for i, v in enumerate(vals):
            ax.text(i, v, "%.1fk\n%.2f×" % (v, v / base), ha="center", va="bottom", fontsize=7)
        ax.set_xticks(range(len(SCHEMES)))
        ax.set_xticklabels(SCHEMES, fontsize=7, rotation=20)
        ax.set_title(title, fontsize=9)
        ax.set_ylim(0, max(vals + [1]) * 1.25)
    axes[0].set_ylabel("kIOPS (4 KiB); ratio to DFTL")
    fig.suptitle("Seed 001 Fig. 12: total throughput")
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def job(s, name):
    for j in s.get("jobs", []):
        if j["name"] == name:
            return j
    return {"iops": 0.0}


def rows_of(points, study):
    rows = []
    for (scenario, scheme), p in sorted(points.items()):
        s = p["summary"]
        jobs = s.get("jobs") or [read_job(s)]
        for j in jobs:
            r = {"study": study, "scenario": scenario, "scheme": scheme, "job": j["name"],
                 "iops": j["iops"], "read_ios": j["read_ios"], "write_ios": j["write_ios"], "span_s": j["span_s"]}
            for q in ("mean", "p50", "p90", "p99", "p999", "p9999", "max"):
                r["read_" + q + "_us"] = j["latency_us"]["read"][q]
            r["write_mean_us"] = j["latency_us"]["write"]["mean"]
            for k in PATHS:
                r["path_%s_count" % k] = j["read_paths"][k]["count"]
                r["path_%s_mean_us" % k] = j["read_paths"][k]["mean_us"]
            r.update({"run_iops": s["host"]["iops"], "waf_total": s["waf"]["total"], "waf_md": s["waf"]["md"],
                      "waf_gud": s["waf"]["gud"], "waf_gmd": s["waf"]["gmd"], "map_gc_update": s["map"]["gc_update"],
                      "map_segment_writes": s["map"]["segment_writes"],
                      "map_gc_segment_writes": s["map"]["gc_segment_writes"],
                      "gc_units_moved": s["nand"]["gc_units_moved"], "map_read_hits": s["map"]["read_hits"],
                      "map_read_misses": s["map"]["read_misses"], "write_stops": s["ftl"]["write_stops"],
                      "integrity_errors": s["integrity"]["errors"], "sim_time_s": s["sim_time_s"],
                      "read_share_above_10ms": share_above(p["dir"], SLOW_US) if j["name"] != "write" else ""})
            rows.append(r)
    return rows


def main():
    ap = seedrun.argument_parser(__doc__, "out/seed001", workers_help="study workers (default 2)",
                                 bin_dir_help="executables to run (default: a copy of build/bin's in DIR/bin)",
                                 plot_only_help="redraw from the studies already in DIR")
    a = ap.parse_args()
    out, figs = seedrun.output_dirs(a)
    figs.mkdir(parents=True, exist_ok=True)
    bad = 0
    if not a.plot_only:
        bin_dir = seedrun.study_bin_dir(a, out, PLATFORM)
        for study in STUDIES:
            rc, wall = seedrun.run_study(study, out / "studies" / study.stem, a.workers, bin_dir)
            print("%s: exit %d, %.0f s wall" % (study.stem, rc, wall), flush=True)
            bad |= rc != 0
    rows = []
    if (out / "studies" / STUDIES[0].stem / "results.csv").exists():  # --plot-only may have the experiments only
        points = load(out / "studies" / STUDIES[0].stem)
        fig4(points, figs / "seed001_fig4_read_paths")
        fig9(points, figs / "seed001_fig9_cdf")
        fig10(points, figs / "seed001_fig10_sched")
        fig11(points, figs / "seed001_fig11_hist")
        fig12(points, figs / "seed001_fig12_throughput")
        rows = rows_of(points, STUDIES[0].stem)
    if (out / "studies" / FGC.stem / "results.csv").exists():
        fig4_fgc(load(out / "studies" / FGC.stem), figs / "seed001_fig4_fgc")
    for study in STUDIES[1:]:
        extra = out / "studies" / study.stem
        if (extra / "results.csv").exists():
            rows += rows_of(load(extra), study.stem)
    seedrun.write_csv(rows, out / "seed001_results.csv")
    print("results: %s; figures: %s/seed001_fig*.png" % (out / "seed001_results.csv", figs))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
