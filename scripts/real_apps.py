#!/usr/bin/env python3
"""Seed 002's stream-assignment comparison on real programs' captures beside the app models (issue 41).

usage: python3 scripts/real_apps.py --captures DIR [--bin-dir DIR] [--out DIR] [--age F] [--doc FILE]

For every application with a capture DIR/<app>.cap (scripts/apps/capture_<app>.sh: rocksdb, sqlite, gcc), runs
ssdtlm-pm963_streams (seed 002's drive, scaled to 2 GiB: geometry.channels=1, dies_per_channel=2) four times,
streams.assign = single (Baseline), manual (the write-life hints), autostream, pcstream:
  real program: workload.pattern=trace, workload.trace_format=capture, the capture; the file system aged with
                workload.capture_age_fraction=F (default 0.8) of long-lived files before the capture, no discard
                (workload.capture_discard=false, as the platform's workload.app.trim=false);
  app model:    workload.pattern=app, workload.app = lsm / sqlite / gcc (the model of that program), the platform's
                seed-002 state (aged by churn, warm-up, no TRIM) with workload.app.age_fraction=F (the 2 GiB drive
                cannot hold the lsm model at the seed's 90 %).
Then computes each claim's relative WAF change for both, prints the table
(claim | paper | app model | real program | closer to the paper) and, with --doc, replaces the table
between the markers <!-- real_apps table --> and <!-- /real_apps table --> of FILE.

No verdict: the results docs' rule (scripts/studylib/verdict.py, docs/results/README.md) judges an effect against
its run-to-run spread over at least three seeds, and a capture is replayed once.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = {"rocksdb": "lsm", "sqlite": "sqlite", "gcc": "gcc"}
POLICIES = ["single", "manual", "autostream", "pcstream"]
DRIVE = ["geometry.channels=1", "geometry.dies_per_channel=2"]
# Seed 002's text (docs/results/pcstream.md): PCStream's WAF vs Baseline and vs AutoStream.
CLAIMS = [("PCStream lowers WAF vs Baseline", "pcstream", "single", -0.63),
          ("PCStream lowers WAF vs AutoStream", "pcstream", "autostream", -0.49)]


def run(bin_dir, out, sets):
    cmd = [str(bin_dir / "ssdtlm-pm963_streams"), "--quiet", "--out", str(out)]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True)
    return json.loads((out / "summary.json").read_text())


def measure(args, app, model):
    waf = {"model": {}, "real": {}}
    extra = {}
    for pol in POLICIES:
        real = run(args.bin_dir, args.out / f"{app}_real_{pol}",
                   DRIVE + [f"streams.assign={pol}", "workload.pattern=trace", "workload.trace_format=capture",
                            f"workload.trace_path={(args.captures / (app + '.cap')).resolve()}",
                            f"workload.capture_age_fraction={args.age}",
                            "workload.capture_discard=false"])
        if real["integrity"]["errors"]:
            sys.exit(f"{app} {pol}: integrity errors in the replay")
        waf["real"][pol] = real["waf"]["total"]
        if pol == "pcstream":
            extra = {"distinct_pcs": real["capture"]["distinct_pcs"],
                     "distinct_pcs_issued": real["capture"]["distinct_pcs_issued"],
                     "host_bytes": real["host"]["bytes_written"]}
        m = run(args.bin_dir, args.out / f"{app}_model_{pol}", DRIVE + [f"streams.assign={pol}", f"workload.app={model}",
                                                                               f"workload.app.age_fraction={args.age}"])
        waf["model"][pol] = m["waf"]["total"]
    return waf, extra


def table(results):
    rows = ["| app | claim | paper | app model | real program | closer to the paper |",
            "|---|---|---|---|---|---|"]
    for app, (waf, extra) in results.items():
        for name, x, y, p in CLAIMS:
            rm = waf["model"][x] / waf["model"][y] - 1
            rr = waf["real"][x] / waf["real"][y] - 1
            closer = "app model" if abs(rm - p) < abs(rr - p) else "real program"
            rows.append(f"| {app} | {name} | {p:+.0%} | {rm:+.1%} | {rr:+.1%} | {closer} |")
    rows.append("")
    rows.append("| app | WAF Baseline / Manual / AutoStream / PCStream: app model | real program | real: program contexts "
                "(capture / reaching the drive) |")
    rows.append("|---|---|---|---|")
    for app, (waf, extra) in results.items():
        f = lambda d: " / ".join(f"{d[p]:.3f}" for p in POLICIES)  # noqa: E731
        rows.append(f"| {app} | {f(waf['model'])} | {f(waf['real'])} | {extra['distinct_pcs']} / "
                    f"{extra['distinct_pcs_issued']} |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--captures", type=Path, required=True)
    ap.add_argument("--bin-dir", type=Path, default=ROOT / "build" / "bin")
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "real_apps")
    ap.add_argument("--age", type=float, default=0.8)
    ap.add_argument("--doc", type=Path)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results = {app: measure(args, app, model) for app, model in APPS.items() if (args.captures / f"{app}.cap").exists()}
    if not results:
        sys.exit(f"no capture in {args.captures} (scripts/apps/capture_<app>.sh)")
    text = table(results)
    print(text)
    (args.out / "real_apps.json").write_text(json.dumps(results, indent=1))
    if args.doc:
        doc = args.doc.read_text()
        a, b = "<!-- real_apps table -->", "<!-- /real_apps table -->"
        i, j = doc.index(a) + len(a), doc.index(b)
        args.doc.write_text(doc[:i] + "\n" + text + "\n" + doc[j:])


if __name__ == "__main__":
    main()
