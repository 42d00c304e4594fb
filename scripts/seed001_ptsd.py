#!/usr/bin/env python3
"""Seed 001 (PTSD: partitioned map cache and read-priority scheduling on a demand-based FTL) on platform ptsd_board.

usage: python3 scripts/seed001_ptsd.py [--out DIR] [--io-count N] [--bin-dir DIR] [--figures DIR] [--seed N]

Five configurations, as in the paper's Fig. 9-12, and one extra:
    page              the whole map in DRAM (the paper's OPT)                     sched.policy=fifo
    dftl              segment-granular cache, one LRU (DFTL)                      sched.policy=fifo
    ptsd              clean/dirty partitioned cache (PART)                        sched.policy=fifo
    ptsd+rp           PART + read-priority scheduling (PART-SCHED)                sched.policy=read_priority
    ptsd_entry+rp     entry-granular dirty area, greedy batch update (WRITEOPT)   sched.policy=read_priority
    ptsd_entry        the same without read priority (extra: separates the two)   sched.policy=fifo
each in two phases, every run preconditioned by the platform (sequential fill, then 2 drive-writes of 4 KiB random
writes through the map cache, so the timed run starts with the cache as those writes left it):
    read    random 4 KiB reads (workload.read_fraction=1)
    mixed   random 4 KiB, 70 % reads: reads and buffer flushes interleave, where scheduling matters

Writes to DIR (default out/seed001): runs/<config>_<phase>/ (the platform's outputs), seed001_results.csv (one row
per run: IOPS, read latency percentiles, map and WAF figures, read-path counts and mean latencies, status) and, in
--figures (default DIR), seed001_cdf_read.png and seed001_cdf_mixed.png (read-latency CDF, full and from p80),
seed001_throughput.png (total IOPS per configuration and phase) and seed001_read_paths.png (count and mean latency
of host.read_paths per configuration). One simulation at a time. A run that fails is reported (status column, stderr
tail) and left out of the figures; the exit status is then 1.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun, task  # noqa: E402

plt = seedrun.pyplot()
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

PLATFORM = "ptsd_board"
# name -> (label in the figures, paper's name, --set values)
CONFIGS = [
    ("page", "page (OPT)", {"ftl.mapping": "page", "sched.policy": "fifo"}),
    ("dftl", "dftl (DFTL)", {"ftl.mapping": "dftl", "sched.policy": "fifo"}),
    ("ptsd", "ptsd (PART)", {"ftl.mapping": "ptsd", "sched.policy": "fifo"}),
    ("ptsd_rp", "ptsd + read_priority (PART-SCHED)", {"ftl.mapping": "ptsd", "sched.policy": "read_priority"}),
    ("ptsd_entry_rp", "ptsd_entry + read_priority (WRITEOPT)",
     {"ftl.mapping": "ptsd_entry", "sched.policy": "read_priority"}),
    # not in the paper: isolates the scheduling effect for the entry-granular cache (and the dirty-area effect
    # against ptsd with the same fifo scheduling)
    ("ptsd_entry", "ptsd_entry, fifo (extra)", {"ftl.mapping": "ptsd_entry", "sched.policy": "fifo"}),
]
PHASES = [
    ("read", "random reads", {"workload.read_fraction": 1}),
    ("mixed", "random 70 % reads / 30 % writes", {"workload.read_fraction": 0.7}),
]
SHORT = {"page": "page\n(OPT)", "dftl": "dftl\n(DFTL)", "ptsd": "ptsd\n(PART)", "ptsd_rp": "ptsd+rp\n(PART-SCHED)",
         "ptsd_entry_rp": "ptsd_entry+rp\n(WRITEOPT)", "ptsd_entry": "ptsd_entry\nfifo (extra)"}
PATHS = ["buffer", "data", "map_read", "map_write", "gc_wait"]
COLORS = {"page": "black", "dftl": "tab:red", "ptsd": "tab:orange", "ptsd_rp": "tab:blue", "ptsd_entry_rp": "tab:green",
          "ptsd_entry": "tab:olive"}
STYLES = {"ptsd_entry": ":"}


def get(d, dotted, default=None):
    for part in dotted.split("."):
        if not isinstance(d, dict) or part not in d:
            return default
        d = d[part]
    return d


def run_one(exe, out_dir, settings, seed):
    argv = [str(exe), "--quiet", "--out", str(out_dir), "--seed", str(seed)]
    for k, v in settings.items():
        argv += ["--set", "%s=%s" % (k, v)]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    t0 = time.time()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    return argv, proc.returncode, proc.stderr, time.time() - t0


def read_cdf(run_dir, op="read"):
    xs, ys = [], []
    with open(run_dir / "latency_cdf.csv", newline="") as f:
        for r in csv.DictReader(f):
            if r["op"] == op:
                xs.append(float(r["latency_us"]))
                ys.append(float(r["cumulative_fraction"]))
    return xs, ys


def row_for(name, phase, s, status, wall, argv):
    row = {"config": name, "phase": phase, "status": status, "wall_s": round(wall, 2),
           "command": " ".join(argv)}
    if s is None:
        return row
    keys = ["host.iops", "host.read_iops", "host.write_iops", "host.mbps"]
    keys += ["host.latency_us.read.%s" % p for p in ("mean", "p50", "p90", "p99", "p999", "p9999", "max")]
    keys += ["host.latency_us.write.%s" % p for p in ("mean", "p99", "max")]
    keys += ["map.hit_ratio", "map.read_hits", "map.read_misses", "map.write_hits", "map.write_misses",
             "map.segment_reads", "map.segment_writes", "map.dirty_evictions", "map.batch_entries_mean",
             "waf.total", "waf.ud", "waf.md", "waf.gud", "waf.gmd", "nand.reads.user", "nand.reads.map",
             "nand.reads.gc", "nand.erases", "ftl.write_stops", "ftl.write_stalls", "integrity.errors",
             "sim_time_s", "wall_time_s", "precondition.wall_time_s"]
    for k in keys:
        row[k] = get(s, k)
    for p in PATHS:
        row["read_paths.%s.count" % p] = get(s, "host.read_paths.%s.count" % p)
        row["read_paths.%s.mean_us" % p] = get(s, "host.read_paths.%s.mean_us" % p)
    return row


def plot_cdfs(results, phase, title, path):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, label, _ in CONFIGS:
        r = results.get((name, phase))
        if not r or r["status"] != "ok":
            continue
        xs, ys = read_cdf(r["dir"])
        for ax in axes:
            ax.step(xs, ys, where="post", color=COLORS[name], label=label, lw=1.4, ls=STYLES.get(name, "-"))
    axes[0].set_title("read-latency CDF")
    axes[1].set_title("zoom: from p80 (tail)")
    for ax in axes:
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "%gk" % (v / 1e3) if v >= 1e3 else "%g" % v))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.tick_params(axis="x", labelsize=8)
        ax.set_xlabel("read latency (µs, log)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("cumulative fraction of reads")
    axes[0].set_ylim(0, 1.01)
    axes[1].set_ylim(0.8, 1.001)
    lo = [results[(n, phase)]["summary"]["host"]["latency_us"]["read"]["p90"]
          for n, _, _ in CONFIGS if results.get((n, phase), {}).get("status") == "ok"]
    if lo:
        axes[1].set_xlim(min(lo) * 0.5, None)
    axes[0].legend(fontsize=8, loc="lower right")
    fig.suptitle("Seed 001 on ptsd_board, %s (QD 128): read latency" % title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_throughput(results, path):
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4))
    for ax, (phase, title, _) in zip(axes, PHASES):
        names, reads, writes = [], [], []
        for name, label, _ in CONFIGS:
            r = results.get((name, phase))
            names.append(SHORT[name])
            ok = r and r["status"] == "ok"
            reads.append(r["summary"]["host"]["read_iops"] / 1e3 if ok else 0)
            writes.append(r["summary"]["host"]["write_iops"] / 1e3 if ok else 0)
        x = range(len(names))
        ax.bar(x, reads, color="tab:blue", label="read IOPS")
        ax.bar(x, writes, bottom=reads, color="tab:orange", label="write IOPS")
        ref = results.get(("dftl", phase))
        base = ref["summary"]["host"]["iops"] if ref and ref["status"] == "ok" else None
        for i, (rd, wr) in enumerate(zip(reads, writes)):
            tot = rd + wr
            if tot == 0:
                ax.text(i, 0, "failed", ha="center", va="bottom", color="red", fontsize=8)
                continue
            txt = "%.0fk" % tot + ("\n%.2f× dftl" % (tot * 1e3 / base) if base else "")
            ax.text(i, tot, txt, ha="center", va="bottom", fontsize=7.5)
        ax.set_xticks(list(x))
        ax.set_xticklabels(names, fontsize=7.5)
        ax.set_ylabel("kIOPS (4 KiB)")
        ax.set_title(title)
        ax.set_ylim(0, max([r + w for r, w in zip(reads, writes)] + [1]) * 1.18)
        ax.legend(fontsize=8)
    fig.suptitle("Seed 001 on ptsd_board: total throughput (paper Fig. 12)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_paths(results, path):
    fig, axes = plt.subplots(2, 2, figsize=(11, 6.5))
    colors = {"buffer": "tab:gray", "data": "tab:green", "map_read": "tab:blue", "map_write": "tab:red",
              "gc_wait": "tab:purple"}
    for row, (phase, title, _) in enumerate(PHASES):
        ax_c, ax_m = axes[row]
        labels = [n for n, _, _ in CONFIGS]
        bottoms = [0.0] * len(labels)
        width = 0.15
        failed = [not results.get((n, phase)) or results[(n, phase)]["status"] != "ok" for n in labels]
        for j, p in enumerate(PATHS):
            shares, means = [], []
            for name in labels:
                r = results.get((name, phase))
                if not r or r["status"] != "ok":
                    shares.append(0)
                    means.append(0)
                    continue
                rp = r["summary"]["host"]["read_paths"]
                total = sum(rp[q]["count"] for q in PATHS) or 1
                shares.append(rp[p]["count"] / total)
                means.append(rp[p]["mean_us"] if rp[p]["count"] else 0)
            ax_c.bar(range(len(labels)), shares, bottom=bottoms, color=colors[p], label=p)
            bottoms = [b + s for b, s in zip(bottoms, shares)]
            ax_m.bar([i + (j - 2) * width for i in range(len(labels))], means, width, color=colors[p], label=p)
        for i, f in enumerate(failed):
            if f:
                ax_c.text(i, 0.5, "failed", ha="center", color="red", fontsize=8, rotation=90)
        for ax in (ax_c, ax_m):
            ax.set_xticks(range(len(labels)))
            ax.set_xticklabels([SHORT[n] for n in labels], fontsize=7)
        ax_c.set_ylabel("share of host reads")
        ax_c.set_title("%s: read paths (count)" % title, fontsize=10)
        ax_m.set_ylabel("mean latency (µs, log)")
        ax_m.set_yscale("log")
        ax_m.set_title("%s: mean latency per path" % title, fontsize=10)
        ax_m.grid(True, axis="y", which="both", alpha=0.3)
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", ncol=len(PATHS), fontsize=8)
    fig.suptitle("Seed 001: where host reads wait (host.read_paths: data only, map read, map write-back, GC, buffer)",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, dpi=80)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "out" / "seed001"), help="output directory (default out/seed001)")
    ap.add_argument("--io-count", type=int, default=1000000, help="I/Os per timed run (default 1000000)")
    ap.add_argument("--bin-dir", default=os.environ.get("SSDTLM_BIN_DIR") or str(ROOT / "build" / "bin"),
                    help="where ssdtlm-ptsd_board is (default build/bin)")
    ap.add_argument("--figures", help="directory for the PNG figures (default: --out)")
    ap.add_argument("--seed", type=int, default=1, help="sim seed of every run (default 1)")
    ap.add_argument("--precondition-threads", type=int, default=1,
                    help="fast-forward workers per run (default 1; the result does not depend on it)")
    ap.add_argument("--plot-only", action="store_true", help="redraw from the run directories already in --out")
    a = ap.parse_args(argv)

    exe = Path(a.bin_dir) / ("ssdtlm-" + PLATFORM)
    if not a.plot_only and not exe.is_file():
        sys.exit("%s: no such executable (bash scripts/build.sh builds it)" % exe)
    out = Path(a.out)
    figs = Path(a.figures) if a.figures else out
    out.mkdir(parents=True, exist_ok=True)
    figs.mkdir(parents=True, exist_ok=True)

    build = ""
    if not a.plot_only:
        # Run a private copy, so that a rebuild of build/bin during the script cannot mix two models.
        (out / "bin").mkdir(exist_ok=True)
        copy = out / "bin" / exe.name
        shutil.copy2(exe, copy)
        exe = copy
        build = task.build_id(str(exe))
        print("%s, build %s, %d I/Os per run, seed %d" % (exe.name, build, a.io_count, a.seed), flush=True)

    results, rows, failed = {}, [], 0
    started = time.time()
    for phase, _, phase_set in PHASES:
        for name, _, cfg_set in CONFIGS:
            run_dir = out / "runs" / ("%s_%s" % (name, phase))
            settings = dict(cfg_set)
            settings.update(phase_set)
            settings["workload.io_count"] = a.io_count
            settings["precondition.threads"] = a.precondition_threads
            if a.plot_only:
                argv_, rc, err, wall = ["(plot-only)"], 0 if (run_dir / "summary.json").is_file() else 1, "", 0.0
            else:
                if (run_dir / "summary.json").exists():
                    (run_dir / "summary.json").unlink()
                argv_, rc, err, wall = run_one(exe, run_dir, settings, a.seed)
            summary = None
            if rc == 0 and (run_dir / "summary.json").is_file():
                summary = json.loads((run_dir / "summary.json").read_text())
                status = "ok"
            else:
                failed += 1
                tail = [ln for ln in err.strip().splitlines() if ln.strip()][-3:]
                status = "failed rc=%d: %s" % (rc, " | ".join(tail)[:300])
            results[(name, phase)] = {"status": status, "dir": run_dir, "summary": summary}
            rows.append(row_for(name, phase, summary, status, wall, argv_))
            rows[-1]["build_id"] = build
            rows[-1]["seed"] = a.seed
            if summary:
                h = summary["host"]
                print("%-14s %-5s %6.1fs  IOPS %8.0f (r %8.0f w %7.0f)  read mean %7.0f p99 %8.0f p99.99 %8.0f us  "
                      "hit %.3f  WAF %.2f" % (name, phase, wall, h["iops"], h["read_iops"], h["write_iops"],
                                            h["latency_us"]["read"]["mean"], h["latency_us"]["read"]["p99"],
                                            h["latency_us"]["read"]["p9999"], summary["map"].get("hit_ratio", 1.0),
                                            summary["waf"]["total"]), flush=True)
            else:
                print("%-14s %-5s %6.1fs  %s" % (name, phase, wall, status), flush=True)

    if not a.plot_only:  # --plot-only keeps the table of the runs
        seedrun.write_csv(rows, out / "seed001_results.csv")
    for phase, title, _ in PHASES:
        plot_cdfs(results, phase, title, figs / ("seed001_cdf_%s.png" % phase))
    plot_throughput(results, figs / "seed001_throughput.png")
    plot_paths(results, figs / "seed001_read_paths.png")
    print("results: %s; figures: %s/seed001_*.png; %d runs, %d failed, %.0f s wall"
          % (out / "seed001_results.csv", figs, len(rows), failed, time.time() - started))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
