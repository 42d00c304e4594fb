#!/usr/bin/env python3
"""Does a study of converging points (sim.converge=stop) give the full-length study's table, and how much sooner?

usage: python3 scripts/converge_check.py [--pair FULL CONVERGED]... [--notes FILE] [--doc docs/results/convergence.md]
                                         [--check]

Reads both studies' results.csv and runs.csv (the full-length study run with sim.converge=report, so that its every
value has its own interval) and writes the page --doc: the claims with their verdicts, then every cell. The rule,
fixed before the first comparison:
- a cell (point x metric) agrees when |converged - full| <= sqrt(hw_converged^2 + hw_full^2), the joint half-width of
  two independent 95 % intervals (plus 1e-9 of the value: equal values computed in another order); the values
  compared are both runs' steady-state estimates (summary.json convergence.metrics.<metric>.value, after the warm-up
  cut); a cell where either run has no interval (too few settled batches) does not agree;
- claim 1 holds when at least 90 % of the cells agree (95 % intervals cover about 95 % of the time; 90 % leaves room
  for the sampling of 24 x 6 cells);
- claim 2 holds when the converging study's CPU seconds (the sum over its points' runs, runs.csv cpu_seconds:
  preconditioning included, as a user waits for it) are at most a third of the full study's.
The verdicts come from the numbers only. --check recomputes the page from the studies and exits 1 when it differs.
"""
import argparse
import csv
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
METRICS = ["host.iops", "waf.total", "host.latency_us.read.mean", "host.latency_us.write.mean",
           "host.latency_us.read.p99", "host.latency_us.write.p99"]
AXES = ["geometry.over_provisioning", "host.queue_depth", "workload.read_fraction"]
AGREE_SHARE = 0.90
TIME_SHARE = 1 / 3


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def cell(row, metric, field):
    v = row.get("convergence.metrics.%s.%s" % (metric, field), "")
    return float(v) if v not in ("", None) else None


def point_key(row):
    return tuple(row[a] for a in AXES)


def compare(full_dir, conv_dir):
    full = {point_key(r): r for r in rows(full_dir / "results.csv")}
    conv = {point_key(r): r for r in rows(conv_dir / "results.csv")}
    cells = []
    for key, f in full.items():
        c = conv.get(key)
        if c is None:
            continue
        for m in METRICS:
            fv, fh, cv, ch = cell(f, m, "value"), cell(f, m, "half_width"), cell(c, m, "value"), cell(c, m, "half_width")
            if fv is None and cv is None:  # no reads (writes) at this point
                continue
            # A run without an interval for the metric (too few settled batches: value 0) agrees with nothing.
            ready = bool(cell(f, m, "batches")) and bool(cell(c, m, "batches"))
            fv, fh, cv, ch = (x or 0.0 for x in (fv, fh, cv, ch))
            joint = math.hypot(fh, ch)
            cells.append({"point": key, "metric": m, "full": fv, "full_hw": fh, "conv": cv, "conv_hw": ch,
                          "diff": cv - fv, "joint": joint, "agree": ready and abs(cv - fv) <= joint + 1e-9 * abs(fv),
                          "full_ios": int(float(f["convergence.measured_ios"])),
                          "conv_ios": int(float(c["convergence.measured_ios"]))})
    cpu = [sum(float(r["cpu_seconds"] or 0) for r in rows(d / "runs.csv")) for d in (full_dir, conv_dir)]
    return cells, cpu


def rel(d):
    return d.relative_to(ROOT) if d.is_relative_to(ROOT) else d


def section(cells, cpu, full_dir, conv_dir):
    agree = sum(c["agree"] for c in cells)
    share = agree / len(cells) if cells else 0.0
    points = {c["point"]: (c["full_ios"], c["conv_ios"]) for c in cells}
    ios = [sum(v[i] for v in points.values()) for i in (0, 1)]
    out = ["## `%s` against `%s`" % (rel(conv_dir), rel(full_dir)), "",
           "| claim | source | ours | verdict |", "|---|---|---|---|",
           "| a converging study reaches the same table within its stated intervals | issue 48 | %d of %d cells agree (%.1f %%) | %s |"
           % (agree, len(cells), 100 * share, "yes" if share >= AGREE_SHARE else "no"),
           "| ... in at most 1/3 of the full study's time | issue 48 | %.1f s of CPU against %.1f s (%.2f); measured I/Os %s against %s (%.3f) | %s |"
           % (cpu[1], cpu[0], cpu[1] / cpu[0] if cpu[0] else float("nan"), f"{ios[1]:,}", f"{ios[0]:,}",
              ios[1] / ios[0] if ios[0] else float("nan"), "yes" if cpu[0] and cpu[1] <= TIME_SHARE * cpu[0] else "no"),
           "", "Cells (point: over-provisioning / queue depth / read fraction; 0 ± 0: no interval):", "",
           "| point | metric | full ± 95 % | converged ± 95 % | difference | joint half-width | agrees |",
           "|---|---|---|---|---|---|---|"]
    for c in cells:
        out.append("| %s | %s | %.4g ± %.2g | %.4g ± %.2g | %+.3g | %.3g | %s |"
                   % (" / ".join(c["point"]), c["metric"], c["full"], c["full_hw"], c["conv"], c["conv_hw"],
                      c["diff"], c["joint"], "yes" if c["agree"] else "**no**"))
    return out


def page(sections, notes):
    out = ["# Converging points: a study's table in a fraction of the time (generated)", "",
           "Written by `scripts/converge_check.py` (issue 48, \"time to answer\"); do not edit by hand. The rule is the",
           "script's docstring, fixed before the first comparison: a cell agrees when the two steady-state estimates",
           "differ by at most their joint 95 %% half-width; the table is reproduced when at least %d %% of the cells agree;"
           % round(100 * AGREE_SHARE),
           "the time claim compares the CPU seconds of all points' runs, preconditioning included. Method:",
           "docs/guides/studies.md, \"Converging points\".", ""]
    if notes:
        out += [notes.read_text().rstrip(), ""]
    for sec in sections:
        out += sec + [""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pair", nargs=2, action="append", type=Path, metavar=("FULL", "CONVERGED"),
                    help="a full-length study's output folder and its converging twin's (repeatable; default: "
                         "out/studies/op_qd_rf and out/studies/op_qd_rf_converge)")
    ap.add_argument("--notes", type=Path, help="a Markdown file put above the tables (the findings, by hand)")
    ap.add_argument("--doc", type=Path, default=ROOT / "docs" / "results" / "convergence.md")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 when --doc is not what the studies give")
    a = ap.parse_args()
    pairs = a.pair or [(ROOT / "out" / "studies" / "op_qd_rf", ROOT / "out" / "studies" / "op_qd_rf_converge")]
    sections = []
    for full, conv in pairs:
        for d in (full, conv):
            if not (d / "results.csv").is_file():
                sys.exit("converge_check.py: %s has no results.csv: run scripts/study.py on its study first" % d)
        cells, cpu = compare(full.resolve(), conv.resolve())
        if not cells:
            sys.exit("converge_check.py: no cell to compare in %s (were the studies run with sim.converge?)" % conv)
        sections.append(section(cells, cpu, full.resolve(), conv.resolve()))
        print("%s: %s" % (conv, sections[-1][4]))
    text = page(sections, a.notes)
    if a.check:
        sys.exit(0 if a.doc.is_file() and a.doc.read_text() == text else 1)
    a.doc.write_text(text)
    print("wrote %s" % a.doc)


if __name__ == "__main__":
    main()
