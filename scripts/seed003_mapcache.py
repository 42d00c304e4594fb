#!/usr/bin/env python3
"""Seed 003 (map cache size and map segment size) on platform mapcache_iozone, with the paper's numbers beside ours.

usage: python3 scripts/seed003_mapcache.py [--out DIR] [--figures DIR] [--bin-dir DIR] [--trace FILE] [--plot-only]

Three studies, each run by the study engine (scripts/study.py, one worker, runs cached in out/cache/):
    studies/seed003_mapcache.json   iozone-like: 4 KiB random reads over 1 GiB at QD 1, 20000 per point, as in the
                                    seed; map.cache_bytes 8 KiB..512 KiB x map.segment_bytes 1..8 KiB (28 points)
    studies/seed003_wsrch.json      the web-search trace (examples/traces/wsrch-small.trace) replayed closed-loop
                                    at QD 1 over the same grid: our stand-in for the seed's Android boot trace
    DIR/seed003_wsrch_fold1g.json   the same trace with every offset folded into the first 1 GiB (the seed's Android
                                    image was 1 GiB), written by this script (the trace too: DIR/wsrch-fold1g.trace)
For the traces the script also computes, from the trace alone, the hit ratio of an ideal LRU cache of whole
segments (one reference per request and segment touched), to check the model's cache against.

Writes to DIR (default out/seed003): studies/<name>/ (results.csv, runs.csv, the engine's own figures),
seed003_table.csv (ours and the paper's numbers side by side), and in --figures (default DIR):
seed003_hit_ratio.png, seed003_iops.png, seed003_gtd.png, seed003_wsrch.png (each with .pdf and .svg beside it).
"""
import argparse
import json
import sys
from collections import OrderedDict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun, venv  # noqa: E402

plt = seedrun.pyplot(venv.STUDY_MODULES)
from studylib.plot import save_figure  # noqa: E402

CACHES = [8192, 16384, 32768, 65536, 131072, 262144, 524288]
SEGMENTS = [1024, 2048, 4096, 8192]
ENTRY_BYTES = 2
UNIT = 4096
COLORS = {1024: "tab:blue", 2048: "tab:orange", 4096: "tab:green", 8192: "tab:red"}

# The seed's numbers (003_*.txt). IOPS: the "Performance according to map segment size" table; its summary page
# repeats the rows with two differences (8 KiB segment at 8 KiB cache: 4,893 instead of 4,803; 1K: 5,994 instead of 5,904).
PAPER_HIT_2K = [1.6, 3.0, 5.8, 12.5, 25.1, 50.1, 100.0]
PAPER_HIT_8K = [1.6, 3.1, 6.2, 12.0, 24.2, 49.9, 100.0]
PAPER_IOPS = {
    1024: [5904, 6033, 6127, 6317, 6709, 7707, 10860],
    2048: [5822, 5859, 5939, 6135, 6548, 7547, 10860],
    4096: [5476, 5518, 5599, 5774, 6251, 7251, 10860],
    8192: [4803, 4935, 5023, 5194, 5601, 6700, 10860],
}
PAPER_HIT_COUNT = {  # hits out of 20000 reads, cache 8, 16, 32, 64 KiB
    1024: [301, 583, 1254, 2543], 2048: [324, 592, 1161, 2489], 4096: [324, 628, 1197, 2375],
    8192: [316, 622, 1241, 2392]}
PAPER_GTD = {1024: 60960, 2048: 30480, 4096: 15240, 8192: 7620}
PAPER_ANDROID_HIT_2K = [98.7, 99.1, 99.4, 99.7, 99.8, 99.8, 100.0]
PAPER_ANDROID_IOPS_2K = [7950, 7987, 8015, 8037, 8048, 8048, 8066]


def run_study(study_file, out_dir, a):
    return 0 if a.plot_only else seedrun.run_study(study_file, out_dir, 1, a.bin_dir)[0]


def load(results_csv):
    return {(int(float(r["map.segment_bytes"])), int(float(r["map.cache_bytes"]))): r
            for r in seedrun.ok_rows(results_csv)}


def val(rows, seg, cache, key):
    r = rows.get((seg, cache))
    return float(r[key]) if r and r.get(key) not in (None, "") else float("nan")


def read_trace(path):
    reqs = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 5:
                reqs.append((p[0], p[1], int(p[2]), int(p[3]), p[4]))
    return reqs


def fold_trace(reqs, path, span_bytes):
    sectors = span_bytes // 512
    with open(path, "w") as f:
        for t, dev, sec, n, typ in reqs:
            s = sec % sectors
            if s + n > sectors:
                s = max(0, sectors - n)
            f.write("%s %s %d %d %s\n" % (t, dev, s, n, typ))


def lru_hit_ratio(reqs, seg_bytes, cache_bytes):
    """Ideal LRU of whole segments: one reference per request and segment touched, as the FTL looks them up."""
    per_seg = seg_bytes // ENTRY_BYTES  # 4 KiB units per segment
    cap = cache_bytes // seg_bytes
    lru, hits, refs = OrderedDict(), 0, 0
    for _, _, sec, n, _ in reqs:
        lo = sec * 512 // UNIT
        hi = (sec * 512 + n * 512 - 1) // UNIT
        for s in range(lo // per_seg, hi // per_seg + 1):
            refs += 1
            if s in lru:
                hits += 1
                lru.move_to_end(s)
            else:
                lru[s] = None
                if len(lru) > cap:
                    lru.popitem(last=False)
    return hits / refs if refs else float("nan")


def kib(x):
    return "%dK" % (x // 1024)


def fig_hit(rows, path):
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    for seg in SEGMENTS:
        ax.plot(CACHES, [100 * val(rows, seg, c, "map.hit_ratio") for c in CACHES], "o-", color=COLORS[seg],
                label="ours, %s segment" % kib(seg))
    ax.plot(CACHES, PAPER_HIT_2K, "k--s", mfc="none", label="paper, 2 KiB segment")
    ax.plot(CACHES, PAPER_HIT_8K, ":", color="gray", marker="^", mfc="none", label="paper, 8 KiB segment")
    ax.plot(CACHES, [min(100.0, 100 * c / ((1 << 30) // UNIT * ENTRY_BYTES)) for c in CACHES], color="0.6", lw=0.8,
            label="cache / map (512 KiB)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(CACHES)
    ax.set_xticklabels([kib(c) for c in CACHES])
    ax.set_xlabel("map cache size (map.cache_bytes)")
    ax.set_ylabel("map-cache hit rate (%, log)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Seed 003, iozone-like (4 KiB random reads over 1 GiB, QD 1, 20000 reads)", fontsize=9)
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def fig_iops(rows, path):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), sharey=True)
    for ax, title, src in ((axes[0], "ours (mapcache_iozone)", "ours"), (axes[1], "paper (seed 003)", "paper")):
        for seg in SEGMENTS:
            ys = ([val(rows, seg, c, "host.iops") for c in CACHES] if src == "ours" else PAPER_IOPS[seg])
            ax.plot(CACHES, ys, "o-" if src == "ours" else "s--", color=COLORS[seg], label="%s segment" % kib(seg),
                    mfc=None if src == "ours" else "none")
        ax.set_xscale("log", base=2)
        ax.set_xticks(CACHES)
        ax.set_xticklabels([kib(c) for c in CACHES])
        ax.set_xlabel("map cache size")
        ax.set_title(title, fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("random-read IOPS (4 KiB, QD 1)")
    fig.suptitle("Seed 003: random-read IOPS against map cache size, one line per map segment size", fontsize=10)
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def fig_gtd(rows, path):
    fig, ax = plt.subplots(figsize=(6.5, 4))
    x = range(len(SEGMENTS))
    ours = [val(rows, s, CACHES[0], "map.gtd_bytes") for s in SEGMENTS]
    paper = [PAPER_GTD[s] for s in SEGMENTS]
    ax.bar([i - 0.2 for i in x], ours, 0.4, label="ours (32 GiB logical, 4 B per segment)", color="tab:blue")
    ax.bar([i + 0.2 for i in x], paper, 0.4, label="paper", color="0.6")
    for i, (o, p) in enumerate(zip(ours, paper)):
        ax.text(i - 0.2, o, "%d" % o, ha="center", va="bottom", fontsize=7)
        ax.text(i + 0.2, p, "%d" % p, ha="center", va="bottom", fontsize=7)
    ax.set_xticks(list(x))
    ax.set_xticklabels([kib(s) for s in SEGMENTS])
    ax.set_xlabel("map segment size (map.segment_bytes)")
    ax.set_ylabel("GTD size (bytes)")
    ax.set_title("Seed 003: global translation directory (map of the map) size", fontsize=10)
    ax.legend(fontsize=8)
    ax.margins(y=0.12)
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def fig_wsrch(rows, fold, lru, lru_fold, path):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    ax = axes[0]
    for seg in SEGMENTS:
        ax.plot(CACHES, [100 * val(rows, seg, c, "map.hit_ratio") for c in CACHES], "o-", color=COLORS[seg],
                label="wsrch, %s segment" % kib(seg), lw=2.2 if seg == 2048 else 1, alpha=1 if seg == 2048 else 0.6)
    ax.plot(CACHES, [100 * val(fold, 2048, c, "map.hit_ratio") for c in CACHES], "D-.", color="tab:purple",
            label="wsrch folded into 1 GiB, 2 KiB segment")
    ax.plot(CACHES, [100 * lru[(2048, c)] for c in CACHES], "x", color="black", ms=8,
            label="ideal LRU from the trace (2 KiB)")
    ax.plot(CACHES, [100 * lru_fold[(2048, c)] for c in CACHES], "x", color="black", ms=8)
    ax.plot(CACHES, PAPER_ANDROID_HIT_2K, "k--s", mfc="none", label="paper: Android boot trace, 2 KiB")
    ax.axhline(97, color="red", lw=0.8, ls=":")
    ax.text(CACHES[0], 93, "97 % (issue's expectation)", color="red", fontsize=7)
    ax.set_ylabel("map-cache hit rate (%)")
    ax.set_ylim(0, 102)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("hit rate", fontsize=10)
    ax = axes[1]
    ax.plot(CACHES, [val(rows, 2048, c, "host.iops") for c in CACHES], "o-", color=COLORS[2048],
            label="wsrch, 2 KiB segment")
    ax.plot(CACHES, [val(fold, 2048, c, "host.iops") for c in CACHES], "D-.", color="tab:purple",
            label="wsrch folded into 1 GiB, 2 KiB")
    ax.plot(CACHES, PAPER_ANDROID_IOPS_2K, "k--s", mfc="none", label="paper: Android boot trace, 2 KiB")
    ax.set_ylabel("IOPS (QD 1)")
    ax.set_ylim(0, None)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("throughput (requests of 4-64 KiB)", fontsize=10)
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xticks(CACHES)
        ax.set_xticklabels([kib(c) for c in CACHES])
        ax.set_xlabel("map cache size")
        ax.grid(True, alpha=0.3)
    fig.suptitle("Seed 003, real workload: web-search trace (ours) vs the paper's Android boot trace", fontsize=10)
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def results_table(rnd, ws, fo, lru, lru_fold):
    """seed003_table.csv's rows: per segment and cache size, ours (the random study, the wsrch trace, the trace folded
    into 1 GiB and the LRU hit ratios computed from the traces) beside the paper's figures."""
    table = []
    for seg in SEGMENTS:
        for i, c in enumerate(CACHES):
            row = OrderedDict(segment_bytes=seg, cache_bytes=c)
            row["ideal_hit_pct"] = round(100 * min(1.0, c / (512 * 1024)), 2)
            row["hit_pct"] = round(100 * val(rnd, seg, c, "map.hit_ratio"), 2)
            row["paper_hit_pct"] = PAPER_HIT_2K[i] if seg == 2048 else (PAPER_HIT_8K[i] if seg == 8192 else "")
            row["hits"] = int(val(rnd, seg, c, "map.hits"))
            row["paper_hits"] = PAPER_HIT_COUNT[seg][i] if i < 4 else ""
            row["iops"] = round(val(rnd, seg, c, "host.iops"))
            row["paper_iops"] = PAPER_IOPS[seg][i]
            row["read_mean_us"] = round(val(rnd, seg, c, "host.latency_us.read.mean"), 1)
            row["gtd_bytes"] = int(val(rnd, seg, c, "map.gtd_bytes"))
            row["paper_gtd_bytes"] = PAPER_GTD[seg]
            row["wsrch_hit_pct"] = round(100 * val(ws, seg, c, "map.hit_ratio"), 2)
            row["wsrch_lru_hit_pct"] = round(100 * lru[(seg, c)], 2)
            row["wsrch_iops"] = round(val(ws, seg, c, "host.iops"))
            if seg == 2048:
                row["wsrch_fold1g_hit_pct"] = round(100 * val(fo, seg, c, "map.hit_ratio"), 2)
                row["wsrch_fold1g_lru_hit_pct"] = round(100 * lru_fold[(seg, c)], 2)
                row["wsrch_fold1g_iops"] = round(val(fo, seg, c, "host.iops"))
                row["paper_android_hit_pct"] = PAPER_ANDROID_HIT_2K[i]
                row["paper_android_iops"] = PAPER_ANDROID_IOPS_2K[i]
            table.append(row)
    return table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "out" / "seed003"), help="output directory (default out/seed003)")
    ap.add_argument("--figures", help="directory for the PNG figures (default: --out)")
    ap.add_argument("--bin-dir", help="where ssdtlm-mapcache_iozone is (default build/bin)")
    ap.add_argument("--trace", default=str(ROOT.parent / "shared" / "traces" / "wsrch-small.trace"),
                    help="the high-locality trace (default examples/traces/wsrch-small.trace)")
    ap.add_argument("--plot-only", action="store_true", help="redraw from the results already in --out")
    a = ap.parse_args(argv)
    out = Path(a.out).resolve()
    figs = Path(a.figures).resolve() if a.figures else out
    out.mkdir(parents=True, exist_ok=True)
    figs.mkdir(parents=True, exist_ok=True)
    trace = Path(a.trace).resolve()
    if not trace.is_file():
        sys.exit("%s: no such trace" % trace)

    # The wsrch study names the trace relative to the repository root; another trace gets its own study file.
    wsrch_study = ROOT / "studies" / "seed003_wsrch.json"
    default_trace = (ROOT / "examples/traces/wsrch-small.trace").resolve()
    if trace != default_trace:
        doc = json.loads(wsrch_study.read_text())
        doc["set"]["workload.trace_path"] = str(trace)
        wsrch_study = out / "seed003_wsrch.json"
        wsrch_study.write_text(json.dumps(doc, indent=2) + "\n")
    reqs = read_trace(trace)
    folded = out / "wsrch-fold1g.trace"
    fold_trace(reqs, folded, 1 << 30)
    doc = json.loads((ROOT / "studies" / "seed003_wsrch.json").read_text())
    doc["name"] = "seed003_wsrch_fold1g"
    doc["description"] = ("%s -- Every offset folded into the first 1 GiB (offset mod 1 GiB, kept whole): %s. Written "
                          "by scripts/seed003_mapcache.py." % (doc["description"], folded))
    doc["set"]["workload.trace_path"] = str(folded)
    doc["sweep"]["map.segment_bytes"] = [2048]
    fold_study = out / "seed003_wsrch_fold1g.json"
    fold_study.write_text(json.dumps(doc, indent=2) + "\n")

    rc = 0
    studies = {}
    for name, sf in (("seed003_mapcache", ROOT / "studies" / "seed003_mapcache.json"),
                     ("seed003_wsrch", wsrch_study), ("seed003_wsrch_fold1g", fold_study)):
        d = out / "studies" / name
        rc |= run_study(sf, d, a)
        studies[name] = load(d / "results.csv")
    rnd, ws, fo = studies["seed003_mapcache"], studies["seed003_wsrch"], studies["seed003_wsrch_fold1g"]

    lru = {(s, c): lru_hit_ratio(reqs, s, c) for s in SEGMENTS for c in CACHES}
    freqs = read_trace(folded)
    lru_fold = {(2048, c): lru_hit_ratio(freqs, 2048, c) for c in CACHES}

    table = results_table(rnd, ws, fo, lru, lru_fold)
    seedrun.write_csv(table, out / "seed003_table.csv")

    fig_hit(rnd, figs / "seed003_hit_ratio.png")
    fig_iops(rnd, figs / "seed003_iops.png")
    fig_gtd(rnd, figs / "seed003_gtd.png")
    fig_wsrch(ws, fo, lru, lru_fold, figs / "seed003_wsrch.png")

    print("\n%-6s %-6s %7s %7s %7s %7s %7s %9s %9s" % ("seg", "cache", "hit%", "paper", "IOPS", "paper", "GTD B",
                                                      "wsrch hit", "fold hit"))
    for r in table:
        print("%-6s %-6s %7.2f %7s %7d %7d %7d %9.2f %9s" % (
            kib(r["segment_bytes"]), kib(r["cache_bytes"]), r["hit_pct"], r["paper_hit_pct"], r["iops"],
            r["paper_iops"], r["gtd_bytes"], r["wsrch_hit_pct"], r.get("wsrch_fold1g_hit_pct", "")))
    print("table: %s; figures: %s/seed003_*.png" % (out / "seed003_table.csv", figs))
    return 1 if rc else 0


if __name__ == "__main__":
    sys.exit(main())
