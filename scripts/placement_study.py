#!/usr/bin/env python3
"""Data placement as drives ship it (issue 26, docs/reference/placement.md): WAF and throughput of conventional, multi-stream,
FDP and ZNS placement for the applications that use them and for fio's random-write job, against utilization.

usage: python3 scripts/placement_study.py [--workers N] [--out DIR] [--figures DIR] [--bin-dir DIR] [--plot-only]

Steps:
  1. run studies/placement_apps.json (cases x utilizations on the generic platform shrunk to a 2 GiB drive) with
     scripts/study.py --workers N (default 2) into DIR/studies/placement_apps (DIR default out/placement), with the
     executable copied to DIR/bin first;
  2. draw docs/figures/placement_apps.png/.svg (or into --figures): device WAF (top) and host write throughput
     (bottom) against utilization for the flash cache (CacheLib-like: SOC + LOC), the LSM store and fio's random
     writes, one line per placement; the cache panel carries the published FDP result's shape (Allison et al.,
     EuroSys 2025); the LSM panel carries ZNS's total WAF (device x host zone GC);
  3. write DIR/placement_table.csv (one row per point) and print the claim table (claim | paper | ours | verdict)
     docs/reference/placement.md carries.
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun  # noqa: E402

plt = seedrun.pyplot()
from studylib.plot import save_figure  # noqa: E402

STUDY = ROOT / "studies" / "placement_apps.json"
EXPERIMENTS = ROOT / "studies" / "placement_experiments.json"
WORKLOADS = [("cache", "flash cache (SOC + LOC)"), ("lsm", "LSM store (YCSB-A-like)"), ("fio", "fio randwrite 4 KiB")]
PLACEMENTS = [("conv", "conventional"), ("ms", "multi-stream"), ("fdp", "FDP"), ("zns", "ZNS")]
STYLE = {"conv": ("tab:gray", "o"), "ms": ("tab:blue", "s"), "fdp": ("tab:green", "^"), "zns": ("tab:red", "D")}
# Allison et al., "Towards Efficient Flash Caches with Emerging NVMe Flexible Data Placement SSDs", EuroSys 2025
# (arXiv 2503.11665): CacheLib with BigHash (SOC) and BlockCache (LOC) in separate RUHs reaches a device WAF of about
# 1 on production KV-cache traces whatever the utilization; without placement the engines' data mix in the blocks
# and the device WAF rises with the utilization (the paper and the SNIA 2023 CacheLib-FDP talk: about 1.3 and above
# at high utilization, where CacheLib otherwise keeps up to 50 % of the drive as host over-provisioning).
PAPER = {"fdp_waf": 1.0, "nofdp_waf_high_util": 1.3}


def load(study_out):
    dirs = seedrun.run_dirs(study_out)
    points = []
    for r in seedrun.ok_rows(study_out / "results.csv"):
        with open(dirs[r["point"]] / "summary.json") as f:
            points.append((r, json.load(f)))
    return points


def metrics(row, s):
    wl, pl = row["case"].split("-")
    app = s.get("app", {})
    host_gc = app.get("host_gc", {})
    host_waf = host_gc.get("host_waf", 1.0) or 1.0
    dev = s["waf"]["total"]
    return {
        # the lsm's utilization is what its files and the aged files hold (measured); the others' is set
        "workload": wl, "placement": pl,
        "util": app["used_share"] if wl == "lsm" else float(row["util"].lstrip("u")) / 100,
        "device_waf": dev, "host_waf": host_waf, "total_waf": dev * host_waf,
        "host_gc_share": host_gc.get("share", 0.0),
        "write_mbps": s["host"]["write_mbps"], "mbps": s["host"]["mbps"],
        "written_gib": s["host"]["bytes_written"] / 2**30,
        "gc_units_moved": s["nand"]["gc_units_moved"],
        "zone_resets": app.get("zone_resets", s.get("zns", {}).get("commands", {}).get("resets", 0)),
        "integrity_errors": s.get("integrity", {}).get("errors", ""),
        "app_used_share": app.get("used_share", ""),
    }


def figure(rows, path):
    fig, axs = plt.subplots(2, 3, figsize=(15, 8))
    for col, (wl, title) in enumerate(WORKLOADS):
        for pl, label in PLACEMENTS:
            pts = sorted((r for r in rows if r["workload"] == wl and r["placement"] == pl), key=lambda r: r["util"])
            if not pts:
                continue
            color, marker = STYLE[pl]
            xs = [100 * r["util"] for r in pts]
            axs[0][col].plot(xs, [r["device_waf"] for r in pts], marker=marker, color=color, label=label + " (device)")
            if pl == "zns" and wl == "lsm":
                axs[0][col].plot(xs, [r["total_waf"] for r in pts], marker=marker, color=color, ls="--",
                                 label="ZNS device x host zone GC")
            axs[1][col].plot(xs, [r["write_mbps"] for r in pts], marker=marker, color=color, label=label)
        if wl == "cache":
            xs = [50, 70, 85, 95]
            axs[0][col].plot(xs, [PAPER["fdp_waf"]] * len(xs), color="tab:green", ls=":", lw=2,
                             label="paper: FDP ~1 (Allison et al. 2025)")
            axs[0][col].axhspan(PAPER["nofdp_waf_high_util"], PAPER["nofdp_waf_high_util"] + 0.05, xmin=0.55, color="tab:gray",
                                alpha=0.3, label="paper: no FDP, >= 1.3 at high utilization")
        if wl == "lsm":
            axs[0][col].set_ylim(0.9, 1.2)
        axs[0][col].set_title(title)
        axs[0][col].set_ylabel("WAF")
        axs[0][col].axhline(1.0, color="black", lw=0.5)
        axs[1][col].set_ylabel("host write rate (MB/s)")
        axs[1][col].set_xlabel("utilization (% of the logical capacity)")
        axs[0][col].legend(fontsize=7)
    fig.suptitle("Placement on a 2 GiB drive: conventional / multi-stream / FDP / ZNS against utilization "
                 "(studies/placement_apps.json)")
    fig.tight_layout()
    save_figure(fig, path)


def get(rows, wl, pl, util):
    for r in rows:
        if r["workload"] == wl and r["placement"] == pl and abs(r["util"] - util) < 1e-6:
            return r
    return None


def claims(rows):
    top = max(r["util"] for r in rows)
    print("| claim | paper | ours | verdict |")
    print("|---|---|---|---|")
    fdp = [r for r in rows if r["workload"] == "cache" and r["placement"] == "fdp"]
    conv = get(rows, "cache", "conv", top)
    if fdp:
        worst = max(r["device_waf"] for r in fdp)
        print("| cache with SOC and LOC in two RUHs: device WAF ~1 at every utilization | ~1 | %.2f at most (%s) | %s |" % (
            worst, ", ".join("%.0f %%: %.2f" % (100 * r["util"], r["device_waf"]) for r in sorted(fdp, key=lambda r: r["util"])),
            "yes" if worst < 1.1 else "no"))
    if conv:
        print("| cache without placement: device WAF rises with utilization, >= 1.3 at high utilization | >= 1.3 | %.2f at %.0f %% | %s |" % (
            conv["device_waf"], 100 * top, "yes" if conv["device_waf"] >= 1.3 else "no"))
    zns = [r for r in rows if r["workload"] == "lsm" and r["placement"] == "zns"]
    if zns:
        print("| LSM on ZNS: device WAF 1 (no device GC) | 1.00 | %s | %s |" % (
            ", ".join("%.3f" % r["device_waf"] for r in zns), "yes" if max(r["device_waf"] for r in zns) < 1.01 else "no"))
        print("| LSM on ZNS: the reclaim cost moves to the host (host GC bytes / all bytes written) | (moves) | %s |  measured |" % (
            ", ".join("%.0f %%: %.1f %%" % (100 * r["util"], 100 * r["host_gc_share"]) for r in sorted(zns, key=lambda r: r["util"]))))


def main():
    a = seedrun.argument_parser(
        __doc__, "out/placement", workers_help="study workers (default 2)",
        bin_dir_help="run the ssdtlm-generic found here (default: a copy of build/bin's in DIR/bin)",
        plot_only_help="redraw from DIR/studies/").parse_args()
    out, figs = seedrun.output_dirs(a)
    if a.figures is None:
        figs = ROOT / "docs" / "figures"
    rc = 0
    if not a.plot_only:
        bin_dir = seedrun.study_bin_dir(a, out, "generic")
        for study in (STUDY, EXPERIMENTS):
            r, wall = seedrun.run_study(study, out / "studies" / study.stem, a.workers, bin_dir)
            print("%s: wall time %.1f s with --workers %d" % (study.stem, wall, a.workers))
            rc = rc or r
    rows = [metrics(r, s) for r, s in load(out / "studies" / STUDY.stem)]
    figure(rows, figs / "placement_apps")
    seedrun.write_csv(rows, out / "placement_table.csv", float_format="%.4f")
    for r in sorted(rows, key=lambda r: (r["workload"], r["placement"], r["util"])):
        print("%-6s %-5s %3.0f %%  device WAF %.3f  host WAF %.3f  write %.1f MB/s  GC moved %d  resets %s" % (
            r["workload"], r["placement"], 100 * r["util"], r["device_waf"], r["host_waf"], r["write_mbps"],
            r["gc_units_moved"], r["zone_resets"]))
    claims(rows)
    if (out / "studies" / EXPERIMENTS.stem / "results.csv").is_file():
        print("== experiments (95 %% utilization; %s)" % EXPERIMENTS.name)
        for r, s in load(out / "studies" / EXPERIMENTS.stem):
            app = s.get("app", {})
            gc = app.get("host_gc", {})
            print("%-20s device WAF %.3f  host GC share %5.1f %%  device GC moved %7d  zone resets %s" % (
                r["exp"], s["waf"]["total"], 100 * gc.get("share", 0.0), s["nand"]["gc_units_moved"], app.get("zone_resets", "")))
    print("wrote %s/placement_apps.png|pdf|svg and %s/placement_table.csv" % (figs, out))
    return rc


if __name__ == "__main__":
    sys.exit(main())
