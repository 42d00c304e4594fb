#!/usr/bin/env python3
"""One-axis parameter sweep: a front end of the study engine (scripts/study.py, docs/guides/studies.md).

usage: .venv/bin/python scripts/sweep.py --sweep KEY=V1,V2,... [--set KEY=VALUE]... [--platform generic]
                                         [--metric waf.total] [--metric host.iops]... [--out sweeps/KEY]
                                         [--workers N | --scheduler ADDRESS] [--rerun] [--dry-run]
                                         [--cache DIR] [--bin-dir DIR]

The sweep is a study with one axis (KEY), the --set values as its base and one figure (each metric against KEY):
its points run in parallel on Dask and come from the run cache when they ran before. Writes OUT/sweep.csv (KEY and
each metric), OUT/sweep.png (+ .svg and .pdf, one panel per metric) and the study's files (results.csv with every metric,
runs.csv, commands.sh). Metrics are dotted paths into summary.json. A failing point is reported with its command
line and error; the others still run, and the exit status is 1.
"""
import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_METRICS = ["host.iops", "waf.total", "host.latency_us.write.p99"]


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sweep", required=True, help="KEY=V1,V2,...")
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE applied to every point")
    ap.add_argument("--platform", default="generic")
    ap.add_argument("--metric", action="append", default=[], help="summary.json metric to plot (repeatable)")
    ap.add_argument("--out", default=None, help="output directory (default: sweeps/KEY)")
    ap.add_argument("--workers", type=int, help="LocalCluster worker processes (default: one per core)")
    ap.add_argument("--scheduler", help="use a running Dask scheduler: tcp://host:8786 or a scheduler file")
    ap.add_argument("--rerun", action="store_true", help="run every point again, even those in the cache")
    ap.add_argument("--dry-run", action="store_true", help="list the points and their command lines")
    ap.add_argument("--cache", help="cache directory (default: $SSDTLM_CACHE or out/cache)")
    ap.add_argument("--bin-dir", help="where ssdtlm-<platform> is (default: $SSDTLM_BIN_DIR or build/bin)")
    a = ap.parse_args(argv)
    if "=" not in a.sweep:
        ap.error("--sweep: expected KEY=V1,V2,..., got %r" % a.sweep)
    if a.workers is not None and a.workers < 1:
        ap.error("--workers: at least 1")
    if a.workers and a.scheduler:
        ap.error("--workers sizes the LocalCluster; with --scheduler the scheduler's workers are used")
    return a


def study_document(a):
    """The study that this sweep stands for."""
    key, values = a.sweep.split("=", 1)
    values = [v for v in values.split(",") if v]
    if not values:
        raise SystemExit("--sweep: no values for %s" % key)
    base = {}
    for s in a.set:
        if "=" not in s or s.startswith("="):
            raise SystemExit("--set: expected KEY=VALUE, got %r" % s)
        k, v = s.split("=", 1)
        base[k] = v
    metrics = a.metric or DEFAULT_METRICS
    return {"name": "sweep_" + re.sub(r"[^A-Za-z0-9_.+-]", "_", key), "platform": a.platform, "set": base,
            "sweep": {key: values}, "figures": [{"name": "sweep", "x": key, "y": metrics}]}, key, metrics


def main(argv=None):
    a = parse_args(argv)
    sys.path.insert(0, str(HERE))
    from studylib import venv

    venv.ensure()
    import pandas as pd

    from studylib import engine, spec

    doc, key, metrics = study_document(a)
    out = Path(a.out or engine.ROOT / "sweeps" / key).resolve()
    try:
        study = spec.Study(doc)
        opts = engine.Options(out=out, workers=a.workers, scheduler=a.scheduler, dry_run=a.dry_run,
                              bin_dir=a.bin_dir, cache=a.cache, rerun=a.rerun, figure_dir=out)
        status = engine.run(study, opts)
    except spec.StudyError as e:
        print("sweep: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: finished points are in the cache; run the sweep again to go on", file=sys.stderr)
        return 130
    if a.dry_run or not (out / "results.csv").is_file():
        return status
    df = pd.read_csv(out / "results.csv")
    missing = [m for m in metrics if m not in df.columns]
    if not (df["status"] == "ok").any():
        return status
    if missing:
        print("sweep: no metric %s in summary.json (see results.csv's columns)" % ", ".join(missing), file=sys.stderr)
        return 2
    df[[key] + metrics].to_csv(out / "sweep.csv", index=False)
    for _, row in df.iterrows():
        cells = ["%s=%.4g" % (m, row[m]) if row["status"] == "ok" else "%s=failed" % m for m in metrics]
        print("%s=%s  %s" % (key, row[key], "  ".join(cells)), flush=True)
    print("sweep in %s/sweep.csv and %s/sweep.png" % (out, out))
    return status


if __name__ == "__main__":
    sys.exit(main())
