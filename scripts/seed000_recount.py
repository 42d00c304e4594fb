#!/usr/bin/env python3
"""Seed 000's WAF recounted (issue 43, docs/results/hexa.md "Seed 000's gap measured"): per unit flushed from the
write buffer, and with the buffer drained at the end, from the spread study's runs (docs/figures/seed000_spread.csv,
written by scripts/verdicts.py --collect --only seed000 from studies/seed000_spread.json).

usage: python3 scripts/seed000_recount.py [--csv FILE]

For each workload, protected ratio and policy (1 GiB buffer), the mean over the seeds of:
  WAF          NAND bytes / host bytes (summary.json's waf.total)
  per flushed  NAND bytes / (ftl.flushed_units x 4 KiB)
  drained      (NAND bytes + left x 4 KiB) / ((flushed + left) x 4 KiB), left = host units - absorbed - flushed: the
               units still buffered at the end, counted as flushed and programmed once each (their map writes not
               added)
and FIFO's over HEXA's (HEXA = buffer.policy=hexa) for each count.
"""
import argparse
import csv
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNIT = 4096


def recount(row):
    host_units = row["host_bytes"] / UNIT
    nand = row["waf"] * row["host_bytes"]
    left = host_units - row["absorbed"] - row["flushed_units"]
    if left < 0:
        raise ValueError("more units absorbed and flushed than written: %r" % row)
    return {"waf": row["waf"], "flushed": nand / (row["flushed_units"] * UNIT),
            "drained": (nand + left * UNIT) / ((row["flushed_units"] + left) * UNIT), "left": left}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", default=str(ROOT / "docs" / "figures" / "seed000_spread.csv"))
    a = ap.parse_args()
    by = {}
    with open(a.csv, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["workload"], r["map.protected_ratio"], r["policy"])
            by.setdefault(key, []).append(recount({k: float(r[k]) for k in
                                                   ("waf", "host_bytes", "absorbed", "flushed_units")}))
    counts = ("waf", "flushed", "drained")
    print("| workload | protected | policy | WAF | per flushed unit | drained | units left at the end |")
    print("|---|---|---|---|---|---|---|")
    for (w, ratio, pol), runs in sorted(by.items()):
        m = {c: statistics.mean(x[c] for x in runs) for c in counts + ("left",)}
        print("| %s | %.0f %% | %s | %.3f | %.3f | %.3f | %.0f |" % (
            w, 100 * float(ratio), pol, m["waf"], m["flushed"], m["drained"], m["left"]))
    print()
    print("| workload | protected | FIFO / HEXA: WAF | per flushed unit | drained |")
    print("|---|---|---|---|---|")
    for (w, ratio, pol) in sorted(by):
        if pol != "F" or (w, ratio, "H") not in by:
            continue
        f, h = by[(w, ratio, "F")], by[(w, ratio, "H")]
        ratios = [statistics.mean(x[c] for x in f) / statistics.mean(x[c] for x in h) for c in counts]
        print("| %s | %.0f %% | %.2f | %.2f | %.2f |" % ((w, 100 * float(ratio)) + tuple(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
