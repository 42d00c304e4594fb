#!/usr/bin/env python3
"""Seed 000 (HEXA write-buffer reordering against FIFO, partly power-protected page map) on platform hexa_femu.

usage: python3 scripts/seed000_hexa.py [--workers N] [--out DIR] [--figures DIR] [--bin-dir DIR] [--plot-only]
                                      [--prepare-only]

Steps:
  1. prepare the TPC-C replay input (deterministic, a few seconds): out/seed000/tpcc/tpcc_j0.csv .. tpcc_j9.csv,
     one CSV trace per job (workload.trace_format=csv), from examples/traces/tpcc-small.trace; see
     "The TPC-C replay" below and docs/results/hexa.md. Checks that studies/seed000_hexa.json names these files and
     the matching precondition.drive_writes.
  2. run the study studies/seed000_hexa.json (112 points: 4 workloads (RAND and JESD through ext4, TPC-C from the
     InnoDB-like model, the TPC-C trace replay) x {FIFO, HEXA} x buffer {64 MiB, 1 GiB} x protected ratio
     {1, 2, 5, 10, 25, 50, 100} %) with scripts/study.py --workers N (default 2) into
     DIR/studies/seed000_hexa (DIR default out/seed000), with the executable copied to DIR/bin first (others
     rebuild build/bin meanwhile; the cache is keyed by build id, not path); its wall time goes to
     DIR/study_wall_time.txt.
  3. draw seed 000's figure (IOPS top row, stacked WAF UD/MD/GUD/GMD bottom row, one column per workload) into
     --figures (default DIR) as seed000_hexa.png/.pdf/.svg, plus seed000_md_share.png/.pdf/.svg, and write DIR/seed000_table.csv
     (ours beside the paper's numbers) and print the numbers docs/results/hexa.md quotes.

The TPC-C replay (the trace reader replays a file once, so the repetition is prepared here):
  * The trace (MQSim's tpcc, DiskSim ASCII, ns): 6,999 requests on device numbers 0..15 over 136 ms, 2,618 writes
    (22.3 MiB), 4,381 reads (34.6 MiB), addresses up to 216.7 GiB. 86 % of its requests start 1 KiB or 3.5 KiB past
    a 4 KiB boundary (partition offsets; 98 % have sizes in whole 4 KiB); every offset is rounded down to 4 KiB, so
    the database pages are 4 KiB-aligned as ext4 on the paper's device issues them (sizes are kept: 1.6 % of the
    requests, log-like 512 B..60 KiB writes and reads, stay partial).
  * Database region: the first 75 % of the 16 GiB logical space (12 GiB), cut into 16 slices of 768 MiB, one per
    device number. A request of device d at (aligned) offset o goes to d * 768 MiB + ((o + shift) mod 768 MiB); a
    request that would cross its slice's end moves back to end there (512 B-aligned).
  * Copies: job j (0..9) replays the whole trace PASSES (74) times; pass k of job j is copy c = 10 k + j and uses
    shift = (c * G) mod 768 MiB with G = 497,704,960 B (768 MiB / golden ratio, rounded to 4 KiB): consecutive
    copies land far apart in every slice and any run of copies spreads evenly over it (no two copies share a shift,
    so the 1 GiB buffer cannot simply absorb a repeated 23 MiB working set). Times
    are the trace's, relative to its first request, plus k * (trace span + 1 us) (closed loop ignores them).
  * 370 copies (issue 25 halved the passes to fit the 112-point study in its time): about 8 GiB written and
    12.5 GiB read in 2.59 M requests. A copy's 2,618 writes
    touch 1,156 distinct 8 MiB map segments: an LRU of 21 dirty segments (1 % protected) misses on 95 % of them.
  * 75 % fill: job "load" (first of the 11 jobs) is a sequential job over [0, 12 GiB) with 64 MiB requests and
    read_fraction 1. The fast-forward preconditioning interleaves the jobs' write patterns request by request
    (reads become writes there), so with precondition.fill=false and precondition.drive_writes chosen here it
    writes the 12 GiB database sequentially once (192 requests of 64 MiB) plus the trace jobs' first 192 writes
    each (their own pattern); the timed run of "load" is a single 64 MiB read at time 0 (io_count 1).
"""
import json
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun  # noqa: E402

plt = seedrun.pyplot()
from studylib.plot import save_figure  # noqa: E402

import plot_waf  # noqa: E402

STUDY = ROOT / "studies" / "seed000_hexa.json"
TRACE = ROOT / "examples" / "traces" / "tpcc-small.trace"
TPCC_DIR = "out/seed000/tpcc"  # relative to the repository (the study file names these paths)
GIB, MIB = 1 << 30, 1 << 20
UNIT = 4096
LOGICAL = 16 * GIB              # hexa_femu's logical capacity
DB_BYTES = LOGICAL * 3 // 4     # 75 % of it: the TPC-C database
DEVICES = 16
SLICE = DB_BYTES // DEVICES     # 768 MiB per device number
STRIDE = int(round(SLICE * (math.sqrt(5) - 1) / 2 / UNIT)) * UNIT
JOBS = 10
PASSES = 37
LOAD_BLOCK = 64 * MIB

WORKLOADS = ["RAND", "JESD", "TPC-C", "TPC-C-trace"]
SYSTEMS = ["F-64M", "H-64M", "F-1G", "H-1G"]
RATIOS = [0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0]

# The seed's numbers (000_*.txt, Evaluation): FIFO -> HEXA with the 1 GiB buffer.
PAPER = {
    ("RAND", "waf_fifo"): 2.3, ("RAND", "waf_hexa"): 1.5, ("RAND", "iops_gain"): 42.7,
    ("JESD", "iops_gain"): 10.0, ("JESD", "waf_cut"): 11.3,
    ("TPC-C", "iops_gain"): 5.6, ("TPC-C", "waf_cut"): 3.0, ("TPC-C", "md_share_fifo"): 5.0,
}
# The summary keys the table and the figure read besides host.iops and waf.*.
EXTRA = ["ftl.buffer_absorbed_writes", "ftl.flushed_units", "ftl.buffer_busy_s", "timed_run_s",
         "filesystem.journal_bytes", "filesystem.metadata_bytes", "filesystem.data_bytes"]


# ---------------------------------------------------------------------------------------------------------------
# TPC-C replay input

def read_trace(path=TRACE):
    reqs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            p = line.split()
            if not p or p[0].startswith("#"):
                continue
            if len(p) != 5:
                sys.exit("%s:%d: expected '<time_ns> <devno> <lsa> <sectors> <type>'" % (path, n))
            reqs.append((int(p[0]), int(p[1]), int(p[2]) * 512, int(p[3]) * 512, "R" if int(p[4]) & 1 else "W"))
    return reqs


def fitted(reqs, copy):
    """The requests of one copy: (time_ns, op, offset, bytes) with offsets in the database region."""
    shift = (copy * STRIDE) % SLICE
    t0 = reqs[0][0]
    out = []
    for t, d, off, n, op in reqs:
        if d >= DEVICES:
            sys.exit("trace has device number %d; the replay has %d slices" % (d, DEVICES))
        o = off // UNIT * UNIT
        pos = (o + shift) % SLICE
        if pos + n > SLICE:
            pos = (SLICE - n) // 512 * 512
        out.append((t - t0, op, d * SLICE + pos, n))
    return out


def units(off, n):
    return (off + n - 1) // UNIT - off // UNIT + 1


def prepare_tpcc(passes=PASSES, root=ROOT, quiet=False):
    """Writes the per-job CSV traces (skipped when they exist with the same parameters); returns the info dict."""
    reqs = read_trace()
    span = reqs[-1][0] - reqs[0][0] + 1000
    params = {"trace": str(TRACE), "trace_lines": len(reqs), "jobs": JOBS, "passes": passes, "slice": SLICE,
              "stride": STRIDE, "db_bytes": DB_BYTES, "align": "offset rounded down to 4 KiB", "format": 3}
    out = root / TPCC_DIR
    info_path = out / "tpcc_info.json"
    if info_path.is_file():
        info = json.loads(info_path.read_text())
        if info.get("params") == params and all((root / p).is_file() for p in info["paths"]):
            if not quiet:
                print("TPC-C replay input up to date in %s" % out)
            return info
    out.mkdir(parents=True, exist_ok=True)
    paths, first_writes, written, read, unaligned, per_job = [], [], 0, 0, 0, 0
    for j in range(JOBS):
        p = out / ("tpcc_j%d.csv" % j)
        fw = []
        with open(p, "w") as f:
            f.write("# seed 000 TPC-C replay, job %d of %d: %d passes of %s, fitted into the first 12 GiB "
                    "(scripts/seed000_hexa.py)\n" % (j, JOBS, passes, TRACE.name))
            f.write("time_ns,op,offset_bytes,bytes\n")
            n = 0
            for k in range(passes):
                base = k * span
                for t, op, off, nb in fitted(reqs, k * JOBS + j):
                    f.write("%d,%s,%d,%d\n" % (base + t, op, off, nb))
                    n += 1
                    if op == "W":
                        written += nb
                        if len(fw) < LOAD_REQUESTS + 1:
                            fw.append(units(off, nb))
                    else:
                        read += nb
                    if off % UNIT or nb % UNIT:
                        unaligned += 1
        per_job = n
        paths.append(str(p.relative_to(root)))
        first_writes.append(fw)
    info = {"params": params, "paths": paths, "requests_per_job": per_job, "bytes_written": written,
            "bytes_read": read, "unaligned_requests": unaligned, "first_write_units": first_writes}
    info_path.write_text(json.dumps(info) + "\n")
    if not quiet:
        print("TPC-C replay input: %d jobs x %d passes = %d requests per job, %.2f GiB written, %.2f GiB read, "
              "%d requests not 4 KiB-aligned, in %s" % (JOBS, passes, per_job, written / GIB, read / GIB, unaligned,
                                                         out))
    return info


LOAD_REQUESTS = DB_BYTES // LOAD_BLOCK  # 192


def drive_writes(info):
    """precondition.drive_writes that makes the fast-forward write the database once: the interleave takes one
    request per job in turn (load first), so up to the load job's last request it writes 192 x 16384 units plus
    each trace job's first 191 writes; a margin of 4 units (the next round's trace writes follow, never another
    load request) absorbs the floor of drive_writes x logical units."""
    total = LOAD_REQUESTS * (LOAD_BLOCK // UNIT)
    for fw in info["first_write_units"]:
        total += sum(fw[:LOAD_REQUESTS - 1])
    total += 4
    return round(total / (LOGICAL // UNIT), 9)


def check_study(info):
    study = json.loads(STUDY.read_text())
    grp = study["sweep"]["workload"]["TPC-C-trace"]
    jobs = grp["jobs"]
    paths = [j.get("trace_path") for j in jobs if j.get("pattern") == "trace"]
    want_dw = drive_writes(info)
    problems = []
    if paths != info["paths"]:
        problems.append("trace paths %s, expected %s" % (paths, info["paths"]))
    if abs(float(grp.get("precondition.drive_writes", -1)) - want_dw) > 1e-9:
        problems.append("precondition.drive_writes %s, expected %.9f" % (grp.get("precondition.drive_writes"),
                                                                         want_dw))
    counts = {j.get("io_count") for j in jobs if j.get("pattern") == "trace"}
    if counts != {info["requests_per_job"]}:
        problems.append("trace jobs' io_count %s, expected %d" % (sorted(counts), info["requests_per_job"]))
    if problems:
        sys.exit("%s does not match the prepared TPC-C input:\n  %s" % (STUDY, "\n  ".join(problems)))


# ---------------------------------------------------------------------------------------------------------------
# Study and figures

def load(results_csv):
    return {(r["workload"], r["system"], float(r["map.protected_ratio"])): r for r in seedrun.ok_rows(results_csv)}


def v(rows, w, s, ratio, key):
    r = rows.get((w, s, ratio))
    if key == "absorbed_share":  # overwrites absorbed by the buffer / (absorbed + flushed units)
        a, f = v(rows, w, s, ratio, "ftl.buffer_absorbed_writes"), v(rows, w, s, ratio, "ftl.flushed_units")
        return a / (a + f) if a + f else float("nan")
    if key == "md_share":  # map writes (MD + GMD) / all NAND programs
        t = v(rows, w, s, ratio, "waf.total")
        return (v(rows, w, s, ratio, "waf.md") + v(rows, w, s, ratio, "waf.gmd")) / t if t else float("nan")
    if not r or r.get(key) in (None, ""):
        return float("nan")
    return float(r[key])


SCALE = ROOT / "studies" / "seed000_scale.json"
CHECKS = ROOT / "studies" / "seed000_tpcc_checks.json"
JESD_COST = ROOT / "studies" / "seed000_jesd_cost.json"
DOUBLEWRITE = ROOT / "studies" / "seed000_tpcc_doublewrite.json"
DBSIZE = ROOT / "studies" / "seed000_tpcc_dbsize.json"


def run_checks(out, workers, bin_dir):
    """The scale check and the TPC-C checks (firmware cost, buffer pool); prints their comparisons."""
    for study in (SCALE, CHECKS, JESD_COST, DOUBLEWRITE, DBSIZE):
        rc, wall = seedrun.run_study(study, out / "studies" / study.stem, workers, bin_dir)
        print("%s: %.1f s, exit status %d" % (study.stem, wall, rc))
    main_rows = load(out / "studies" / "seed000_hexa" / "results.csv")
    big = load(out / "studies" / "seed000_scale" / "results.csv")
    print("scale check: HEXA vs FIFO IOPS (%), study scale -> twice the timed I/Os")
    for w in ("RAND", "JESD", "TPC-C"):
        for r in (0.01,):
            for buf in ("64M", "1G"):
                a = pct(v(main_rows, w, "H-" + buf, r, "host.iops"), v(main_rows, w, "F-" + buf, r, "host.iops"))
                b = pct(v(big, w, "H-" + buf, r, "host.iops"), v(big, w, "F-" + buf, r, "host.iops"))
                print("  %-6s %4g %% %-4s %+7.1f -> %+7.1f  %s" % (w, 100 * r, buf, a, b,
                                                                  "same direction" if a * b > 0 or abs(a - b) < 1
                                                                  else "DIRECTION CHANGES"))
    jc = {(r["system"], float(r["firmware.buffer_step_ns"])): r
          for r in seedrun.ok_rows(out / "studies" / "seed000_jesd_cost" / "results.csv")}
    print("JESD, 1 GiB, 50 %% protected: HEXA vs FIFO IOPS by firmware.buffer_step_ns")
    for ns in (0.0, 20.0):
        fi, hi = float(jc[("F-1G", ns)]["host.iops"]), float(jc[("H-1G", ns)]["host.iops"])
        print("  %3g ns: FIFO %.1f k, HEXA %.1f k, %+.1f %%" % (ns, fi / 1e3, hi / 1e3, pct(hi, fi)))
    print("TPC-C, 64 MiB, 1 %: with and without the doublewrite buffer (IOPS k, UD, absorbed %)")
    for r in seedrun.ok_rows(out / "studies" / "seed000_tpcc_doublewrite" / "results.csv"):
        a, fl = float(r["ftl.buffer_absorbed_writes"]), float(r["ftl.flushed_units"])
        print("  doublewrite=%-5s %-5s %7.1f %6.3f %5.1f" % (r["workload.app.tpcc_doublewrite"], r["system"],
                                                           float(r["host.iops"]) / 1e3, float(r["waf.ud"]), 100 * a / (a + fl)))
    rows = {(r["system"], r["variant"]): r for r in seedrun.ok_rows(out / "studies" / "seed000_tpcc_checks" / "results.csv")}
    rows.update({(r["system"], r["variant"]): r
                 for r in seedrun.ok_rows(out / "studies" / "seed000_tpcc_dbsize" / "results.csv")})
    print("TPC-C, 1 %% protected: IOPS (k), WAF, map share, absorbed share, buffer busy s / timed s")
    for var in ("step-0ns", "step-20ns", "step-100ns", "pool-1G", "threads-100", "db-75", "db-25", "db-5"):
        for sysname in SYSTEMS:
            r = rows.get((sysname, var))
            if not r:
                continue
            f = lambda k: float(r[k])
            a, fl = f("ftl.buffer_absorbed_writes"), f("ftl.flushed_units")
            share = 100 * (f("waf.md") + f("waf.gmd")) / f("waf.total") if f("waf.total") > 0 else 0.0
            print("  %-10s %-5s %7.1f %6.3f %5.1f %% %5.1f %% %5.3f" % (
                var, sysname, f("host.iops") / 1e3, f("waf.total"), share,
                100 * a / (a + fl), f("ftl.buffer_busy_s") / f("timed_run_s")))


STYLE = {"F-64M": dict(color="#8c8c8c", hatch=None, alpha=0.6), "H-64M": dict(color="#8c8c8c", hatch="///", alpha=0.6),
         "F-1G": dict(color="#303030", hatch=None, alpha=1.0), "H-1G": dict(color="#303030", hatch="///", alpha=1.0)}


def fig_seed(rows, path):
    fig, axes = plt.subplots(2, len(WORKLOADS), figsize=(5.4 * len(WORKLOADS), 8.2))
    nb = len(SYSTEMS)
    width = 0.19
    xs = range(len(RATIOS))
    for col, w in enumerate(WORKLOADS):
        ax = axes[0][col]
        for i, s in enumerate(SYSTEMS):
            off = (i - (nb - 1) / 2) * width
            ys = [v(rows, w, s, r, "host.iops") / 1e3 for r in RATIOS]
            st = STYLE[s]
            ax.bar([x + off for x in xs], ys, width, color="white" if st["hatch"] else st["color"],
                   edgecolor=st["color"], hatch=st["hatch"], alpha=st["alpha"] if not st["hatch"] else 1.0,
                   label=s, linewidth=0.8)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(["%g" % (100 * r) for r in RATIOS])
        ax.set_xlabel("protected ratio of the map (%)")
        ax.set_title("%s: IOPS" % w, fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        if col == 0:
            ax.set_ylabel("IOPS (thousands)")
        ax.legend(fontsize=7, ncol=4, loc="upper left")
        ax.margins(y=0.15)

        ax = axes[1][col]
        positions, parts, hatches, alphas = [], [], [], []
        for ri, r in enumerate(RATIOS):
            for i, s in enumerate(SYSTEMS):
                positions.append(ri + (i - (nb - 1) / 2) * width)
                parts.append({k: v(rows, w, s, r, "waf." + k) for k in plot_waf.KINDS})
                hatches.append(STYLE[s]["hatch"])
                alphas.append(0.55 if s.endswith("64M") else 1.0)
        plot_waf.stacked_waf(ax, None, parts, positions=positions, width=width, hatches=hatches, totals=False,
                             legend=(col == 0), alphas=alphas)
        for ri in range(len(RATIOS)):
            for i, s in enumerate(SYSTEMS):
                ax.text(ri + (i - (nb - 1) / 2) * width, -0.01, s[0], ha="center", va="top", fontsize=5.5,
                        transform=ax.get_xaxis_transform())
        ax.set_xticks(list(xs))
        ax.set_xticklabels(["\n%g" % (100 * r) for r in RATIOS])
        ax.set_xlabel("protected ratio of the map (%)")
        ax.set_title("%s: WAF (UD / MD / GUD / GMD)" % w, fontsize=10)
        if col:
            ax.set_ylabel("")
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle("Seed 000 on hexa_femu: FIFO (F) and HEXA (H, hatched) write buffers of 64 MiB (light) and 1 GiB "
                 "(dark) against the protected share of the page map; per ratio the bars are F-64M, H-64M, F-1G, H-1G",
                 fontsize=10.5)
    fig.tight_layout()
    save_figure(fig, path, dpi=100)


def fig_md(rows, path):
    fig, axes = plt.subplots(1, len(WORKLOADS), figsize=(4.7 * len(WORKLOADS), 3.8), sharey=True)
    for ax, w in zip(axes, WORKLOADS):
        for s in SYSTEMS:
            st = STYLE[s]
            ys = []
            for r in RATIOS:
                md = v(rows, w, s, r, "waf.md") + v(rows, w, s, r, "waf.gmd")
                tot = v(rows, w, s, r, "waf.total")
                ys.append(100 * md / tot if tot else float("nan"))
            ax.plot(range(len(RATIOS)), ys, "o-" if s.startswith("F") else "s--", color=st["color"], alpha=st["alpha"],
                    label=s)
        ax.set_xticks(range(len(RATIOS)))
        ax.set_xticklabels(["%g" % (100 * r) for r in RATIOS])
        ax.set_xlabel("protected ratio (%)")
        ax.set_title(w, fontsize=10)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("map writes (MD + GMD) in % of NAND writes")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=100)


def _r(x, n):
    return round(x, n) if math.isfinite(x) else float("nan")


def pct(a, b):
    return 100.0 * (a / b - 1.0)


def table(rows, path):
    """Per workload: FIFO -> HEXA with 1 GiB and 64 MiB at 1 %, the averages below 10 % and at >= 50 %."""
    lines = []
    low = [r for r in RATIOS if r < 0.1]
    high = [r for r in RATIOS if r >= 0.5]

    def avg(w, s, rs, key):
        vals = [v(rows, w, s, r, key) for r in rs]
        return sum(vals) / len(vals)

    for w in WORKLOADS:
        for buf in ("1G", "64M"):
            f, h = "F-" + buf, "H-" + buf
            for label, rs in (("1%", [0.01]), ("<10% avg", low), (">=50% avg", high)):
                fi, hi = avg(w, f, rs, "host.iops"), avg(w, h, rs, "host.iops")
                fw, hw = avg(w, f, rs, "waf.total"), avg(w, h, rs, "waf.total")
                fmd, hmd = avg(w, f, rs, "waf.md"), avg(w, h, rs, "waf.md")
                fud, hud = avg(w, f, rs, "waf.ud"), avg(w, h, rs, "waf.ud")
                fg, hg = avg(w, f, rs, "waf.gud"), avg(w, h, rs, "waf.gud")
                fab, hab = avg(w, f, rs, "absorbed_share"), avg(w, h, rs, "absorbed_share")
                fms, hms = avg(w, f, rs, "md_share"), avg(w, h, rs, "md_share")
                lines.append({"workload": w, "buffer": buf, "ratios": label,
                              "absorbed_fifo_pct": round(100 * fab, 1), "absorbed_hexa_pct": round(100 * hab, 1),
                              "md_share_fifo_pct": round(100 * fms, 1), "md_share_hexa_pct": round(100 * hms, 1),
                              "iops_fifo": _r(fi, 0), "iops_hexa": _r(hi, 0), "iops_gain_pct": round(pct(hi, fi), 1),
                              "waf_fifo": round(fw, 3), "waf_hexa": round(hw, 3),
                              "waf_change_pct": round(pct(hw, fw), 1),
                              "md_fifo": round(fmd, 3), "md_hexa": round(hmd, 3),
                              "ud_fifo": round(fud, 3), "ud_hexa": round(hud, 3),
                              "gud_fifo": round(fg, 3), "gud_hexa": round(hg, 3)})
    seedrun.write_csv(lines, path)
    return lines


def main():
    ap = seedrun.argument_parser(
        __doc__, "out/seed000", workers_help="study workers (default 2; 1 on a busy machine)",
        bin_dir_help="run the ssdtlm-hexa_femu found here (default: a copy of build/bin's, made in DIR/bin at the "
        "start, so that a rebuild meanwhile does not disturb the study)",
        plot_only_help="redraw from DIR/studies/seed000_hexa/results.csv")
    ap.add_argument("--prepare-only", action="store_true", help="only write and check the TPC-C replay input")
    ap.add_argument("--checks", action="store_true", help="after the study, run studies/seed000_scale.json, "
                    "studies/seed000_tpcc_checks.json, studies/seed000_jesd_cost.json, studies/seed000_tpcc_doublewrite.json and "
                    "studies/seed000_tpcc_dbsize.json "
                    "and print their comparisons "
                    "(docs/results/hexa.md)")
    a = ap.parse_args()
    out, figs = seedrun.output_dirs(a)
    study_out = out / "studies" / "seed000_hexa"

    rc = 0
    if not a.plot_only:
        info = prepare_tpcc()
        check_study(info)
        print("TPC-C precondition.drive_writes = %.9f (the 12 GiB database once)" % drive_writes(info))
        if a.prepare_only:
            return 0
        rc, wall = seedrun.run_study(STUDY, study_out, a.workers, seedrun.study_bin_dir(a, out, "hexa_femu"))
        out.mkdir(parents=True, exist_ok=True)
        (out / "study_wall_time.txt").write_text("%.1f s with --workers %d, exit status %d, %s\n" % (
            wall, a.workers, rc, time.strftime("%Y-%m-%d %H:%M:%S")))
        print("study wall time: %.1f s (%.1f min) with --workers %d" % (wall, wall / 60, a.workers))
    rows = load(study_out / "results.csv")
    figs.mkdir(parents=True, exist_ok=True)
    fig_seed(rows, figs / "seed000_hexa")
    fig_md(rows, figs / "seed000_md_share")
    lines = table(rows, out / "seed000_table.csv")
    print("%-11s %-4s %-10s %9s %9s %7s %7s %7s %7s %6s %6s %6s %6s %6s %6s" % (
        "load", "buf", "ratios", "IOPS F", "IOPS H", "gain%", "WAF F", "WAF H", "dWAF%", "MD F", "MD H", "UD F",
        "UD H", "GUD F", "GUD H"))
    for l in lines:
        print("%-11s %-4s %-10s %9.0f %9.0f %7.1f %7.3f %7.3f %7.1f %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f" % (
            l["workload"], l["buffer"], l["ratios"], l["iops_fifo"], l["iops_hexa"], l["iops_gain_pct"],
            l["waf_fifo"], l["waf_hexa"], l["waf_change_pct"], l["md_fifo"], l["md_hexa"], l["ud_fifo"],
            l["ud_hexa"], l["gud_fifo"], l["gud_hexa"]))
    print("%-11s %-4s %-10s %8s %8s %8s %8s" % ("load", "buf", "ratios", "absorbF%", "absorbH%", "mdshrF%", "mdshrH%"))
    for l in lines:
        print("%-11s %-4s %-10s %8.1f %8.1f %8.1f %8.1f" % (l["workload"], l["buffer"], l["ratios"], l["absorbed_fifo_pct"],
                                                       l["absorbed_hexa_pct"], l["md_share_fifo_pct"], l["md_share_hexa_pct"]))
    print("wrote %s/seed000_hexa.png|pdf|svg, %s/seed000_md_share.png|pdf|svg, %s/seed000_table.csv" % (figs, figs, out))
    if a.checks and not a.plot_only:
        run_checks(out, a.workers, seedrun.study_bin_dir(a, out, "hexa_femu"))
    return rc


if __name__ == "__main__":
    sys.exit(main())
