#!/usr/bin/env python3
"""Seed 002 (PCStream) on platform pm963_streams: the experiments for the two gaps docs/results/pcstream.md left untested.

usage: python3 scripts/seed002_experiments.py [--workers N] [--out DIR] [--bin-dir DIR] [--plot-only] [--study NAME]...

Steps:
  1. run (unless --plot-only) with scripts/study.py --workers N (default 1) into DIR/studies/ (DIR default
     out/seed002), the executable copied to DIR/bin first:
     studies/seed002_pcdeaths.json (6 points: gcc, PCStream with internal streams and a 16 KiB PC-stream table kept
       or emptied at each build, streams.pcstream_min_deaths 1 / 16 / 256): does our estimator's "a stream from the
       first death" explain why emptying the table per run costs us nothing where it cost the seed 16 % of the
       writes in stream 0 and WAF 1.54 -> 1.96?
     studies/seed002_autostream.json (12 points: lsm and mixed1, Baseline and AutoStream over 1, 2, 4, 8 user
       streams, and 8 streams with 16 MiB chunks; internal streams off; per-stream lifetimes): why AutoStream's
       WAF is above Baseline's there.
     studies/seed002_pcclock.json (8 points: gcc as pcdeaths, lifetimes on the writes or the time clock
       (streams.pcstream_clock), builds back to back or 10 minutes apart (workload.app.gcc_gap_ms), the table
       kept or emptied at each build): do lifetimes measured in time across idle gaps make an emptied table cost
       what it cost the seed?
     studies/seed002_pcgap.json (3 points: the writes clock, table kept, gaps of 0.1, 1 and 20 s): how long a gap
       must be to raise WAF as the 10-minute one did.
     --study NAME (repeatable: pcdeaths, autostream, pcclock, pcgap) runs only those.
  2. print the tables and write DIR/seed002_experiments.csv (one row per point).
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun  # noqa: E402
from seed002_pcstream import load  # noqa: E402

PLATFORM = "pm963_streams"
DEATHS = ROOT / "studies" / "seed002_pcdeaths.json"
AUTO = ROOT / "studies" / "seed002_autostream.json"
CLOCK = ROOT / "studies" / "seed002_pcclock.json"
GAP = ROOT / "studies" / "seed002_pcgap.json"
STUDIES = (DEATHS, AUTO, CLOCK, GAP)
AUTO_POLICIES = ["single", "auto1", "auto2", "auto4", "auto8", "auto8_16M"]


def lifetimes(s):
    """Per user stream with writes: (stream, share of host writes, median lifetime in GiB of host writes)."""
    st = s["streams"]
    total = sum(st["writes"]) or 1
    out = []
    for k, (w, lt) in enumerate(zip(st["writes"], st.get("lifetime", []))):
        if w:
            out.append((k, w / total, lt["host_writes"]["p50"] * 4096 / 2**30 if lt["host_writes"]["count"] else None))
    return out


def row(study, r, s):
    st = s["streams"]
    pc = st.get("pcstream", {})
    out = {"study": study, "app": r.get("app", r.get("workload.app", "gcc")), "policy": r.get("policy", "pcstream"),
           "gc_units_moved": s.get("nand", {}).get("gc_units_moved", ""),
           "min_deaths": r.get("streams.pcstream_min_deaths", ""), "table_reset": r.get("streams.pc_table_reset", ""),
           "iops": s["host"]["iops"], "waf": s["waf"]["total"], "stream0_share": st["default_fraction"],
           "not_estimated_units": pc.get("not_estimated_units", ""), "table_hits": pc.get("table_hits", ""),
           "table_misses": pc.get("table_misses", ""), "pcs_known": pc.get("pcs_known", ""),
           "clock": r.get("streams.pcstream_clock", ""), "gap_ms": r.get("workload.app.gcc_gap_ms", ""),
           "sim_time_s": s.get("sim_time_s", "")}
    out["stream_p50_lifetime_gib"] = " ".join(
        "%d:%.0f%%@%s" % (k, 100 * share, "-" if med is None else "%.2f" % med) for k, share, med in lifetimes(s))
    return out


def main():
    ap = seedrun.argument_parser(__doc__, "out/seed002", workers_help="study workers (default 1)",
                                 bin_dir_help="executables to run (default: a copy of build/bin's in DIR/bin)",
                                 plot_only_help="print from the studies already in DIR")
    ap.add_argument("--study", action="append", choices=[s.stem.replace("seed002_", "") for s in STUDIES],
                    help="run only this study (repeatable; default all)")
    ap.set_defaults(workers=1)
    a = ap.parse_args()
    chosen = [s for s in STUDIES if not a.study or s.stem.replace("seed002_", "") in a.study]
    out, _ = seedrun.output_dirs(a)
    bad = 0
    if not a.plot_only:
        bin_dir = seedrun.study_bin_dir(a, out, PLATFORM)
        for study in chosen:
            rc, wall = seedrun.run_study(study, out / "studies" / study.stem, a.workers, bin_dir)
            print("%s: exit %d, %.0f s wall" % (study.stem, rc, wall), flush=True)
            bad |= rc != 0
    rows = []
    for study in STUDIES:
        d = out / "studies" / study.stem
        if (d / "results.csv").exists():
            rows += [row(study.stem, r, s) for r, s in load(d)]
    print("gcc, PCStream + internal streams, 16 KiB table: min deaths | table | stream 0 | WAF | IOPS")
    for r in sorted((r for r in rows if r["study"] == DEATHS.stem), key=lambda r: (int(r["min_deaths"]), r["table_reset"])):
        print("  %4s | %-5s | %6.2f %% | %.3f | %.0f" % (r["min_deaths"], r["table_reset"], 100 * r["stream0_share"],
                                                      r["waf"], r["iops"]))
    print("AutoStream against Baseline (internal streams off): app | policy | WAF | IOPS | stream:share@p50 GiB")
    for r in sorted((r for r in rows if r["study"] == AUTO.stem), key=lambda r: (r["app"], AUTO_POLICIES.index(r["policy"]))):
        print("  %-6s | %-9s | %.3f | %.0f | %s" % (r["app"], r["policy"], r["waf"], r["iops"], r["stream_p50_lifetime_gib"]))
    print("gcc, PCStream + internal streams, 16 KiB table: clock | gap (ms) | table | stream 0 | WAF | IOPS | simulated s")
    for r in sorted((r for r in rows if r["study"] in (CLOCK.stem, GAP.stem)),
                    key=lambda r: (r["clock"] != "writes", float(r["gap_ms"]), r["table_reset"])):
        print("  %-6s | %6d | %-5s | %6.2f %% | %.3f | %.0f | %.0f" % (
            r["clock"], int(float(r["gap_ms"])), r["table_reset"], 100 * r["stream0_share"], r["waf"], r["iops"],
            float(r["sim_time_s"] or 0)))
    seedrun.write_csv(rows, out / "seed002_experiments.csv")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
