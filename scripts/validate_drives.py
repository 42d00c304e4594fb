#!/usr/bin/env python3
"""Real drives against their published measurements (issue 40): runs every declared measurement of every drive
platform the way its source ran it and writes the error table.

usage: validate_drives.py [--bin-dir build/bin] [--drives A,B] [--kind calibration|validation|all] [--ci] [--only ID,..]
                          [--scale N] [--io-scale F] [--out out/validate_drives] [--errors docs/results/drives/errors.md]
                          [--json FILE] [--figures DIR] [--jobs N] [--override KEY=VALUE ...]

Each drive has platforms/<drive>/config.json (its parameters, each with its source in platforms/<drive>/README.md)
and docs/results/drives/<drive>.json, which declares, before any validation run, its calibration measurements (the few used
to set a parameter no public source gives; each names the parameter it set) and its validation measurements (never
used to set anything). A measurement names a run (overrides of the platform's configuration: the workload as its
source ran it; or "fio": a published fio job file, run unchanged through --fio, the overrides set around it) and a
metric:
  summary:<key.path>   a value of summary.json (e.g. host.read_iops, host.latency_us.read.p99);
  curve:burst_mbps     the write rate while the SLC cache takes the writes (median of the samples before the cliff);
                       the cliff is the first sample below 3/4 of the fastest of the first samples (a tenth, at least 3);
  curve:cache_gb       GB (10^9 B) written before the cliff, times the scale;
  curve:after_mbps     the mean rate from the cliff to the end of the run (no cliff: no result);
  curve:fill_mbps      bytes written over the whole run's time (a whole-drive fill: TechPowerUp's average);
  ratio:<path>/<path>  one summary.json value over another (e.g. power.apst.low_power_energy_j/power.apst.low_power_s:
                       the drive's power while in its idle power states, once idle long enough to settle);
  steady:<column>      SNIA PTS steady state of a timeseries.csv column (e.g. write_iops): the mean of the last 5
                       full samples (rounds), reported only when they are steady as the PTS defines it (the
                       range within 20 % of their mean, the least-squares line's excursion over the window within
                       10 %); else no result.
The curve metrics read timeseries.csv sampled every 500 ms (TechPowerUp samples twice a second).

Capacity: the model keeps per-page metadata in memory, so a run divides blocks per plane (and the SLC cache's
byte sizes) by --scale (default: the drive's declared scale); rates depend on dies, planes and timings, not on the
block count, and a cache size measured at 1/N of the drive is multiplied by N (the map cache, a share of the map,
is divided by N too). "io_bytes": "logical" is the scaled
drive's whole logical capacity. --io-scale multiplies every run's I/O count (CI runs a short form).

The rule (docs/results/drives/README.md): error = (ssdtlm - published) / published; a row is "within" when |error| is at most
the bound of its metric kind (throughput 10 %, mean and p50 latency 20 %, p99 latency 35 %, cache size 10 %, power
20 %), else
"outside". The summary gives, over validation rows only, the median |error| per kind against the same bounds.
--override KEY=VALUE runs the same measurements with a key changed: the experiment behind a miss's hypothesis
(docs/results/drives/<drive>.md); it never writes the error table. A key the capacity scale divides
(geometry.blocks_per_plane, slc.dynamic_max_bytes, slc.static_bytes, map.cache_bytes) is given at the drive's full
size and scaled like the platform's own value.
Exit 0 when every run finished (whatever the verdicts), 2 on bad input, 1 when a run failed.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DECL = ROOT / "docs" / "results" / "drives"
BOUNDS = {"throughput": 0.10, "mean_latency": 0.20, "p50_latency": 0.20, "p99_latency": 0.35, "cache_size": 0.10,
          "power": 0.20}


def fail(msg):
    print("validate_drives.py: " + msg, file=sys.stderr)
    sys.exit(2)


def load_drive(name):
    decl_path, cfg_path = DECL / (name + ".json"), ROOT / "platforms" / name / "config.json"
    if not decl_path.exists() or not cfg_path.exists():
        fail("drive %s: needs %s and %s" % (name, decl_path, cfg_path))
    with open(decl_path) as f:
        decl = json.load(f)
    with open(cfg_path) as f:
        cfg = json.load(f)
    for kind in ("calibration", "validation"):
        for m in decl.get(kind, []):
            for key in ("id", "what", "source", "published", "unit", "kind", "run", "metric"):
                if key not in m:
                    fail("%s: %s measurement %s lacks %r" % (decl_path, kind, m.get("id", "?"), key))
            if m["kind"] not in BOUNDS:
                fail("%s: %s has kind %r, expected one of %s" % (decl_path, m["id"], m["kind"], sorted(BOUNDS)))
            if m["run"] not in decl.get("runs", {}):
                fail("%s: %s names run %r, not in runs" % (decl_path, m["id"], m["run"]))
            if kind == "calibration" and "sets" not in m:
                fail("%s: calibration measurement %s must name the parameter it sets ('sets')" % (decl_path, m["id"]))
    return decl, cfg


def drives_declared():
    return sorted(p.stem for p in DECL.glob("*.json"))


def scaled_geometry(cfg, scale):
    g = dict(cfg["geometry"])
    g["blocks_per_plane"] = max(8, g["blocks_per_plane"] // scale)
    raw = g["channels"] * g["dies_per_channel"] * g["planes_per_die"] * g["blocks_per_plane"] * g["pages_per_block"] * g["page_bytes"]
    logical = int(raw / (1 + g["over_provisioning"])) // (1 << 20) * (1 << 20)
    return g, logical


# Keys the capacity scale divides (run_settings): an override of one is the drive's full-size value, scaled like the
# platform's own, never a value passed through unscaled.
SCALED_KEYS = ("geometry.blocks_per_plane", "slc.dynamic_max_bytes", "slc.static_bytes", "map.cache_bytes")


def with_overrides(cfg, overrides):
    """(the platform configuration with the scaled keys of --override in it, the other overrides as --set values)."""
    cfg = json.loads(json.dumps(cfg))
    rest = {}
    for kv in overrides:
        k, _, v = kv.partition("=")
        if k not in SCALED_KEYS:
            rest[k] = v
            continue
        try:
            number = int(float(v))
        except ValueError:
            fail("--override %s: a number is expected for a key the capacity scale divides, got %r" % (k, v))
        section, key = k.split(".", 1)
        cfg.setdefault(section, {})[key] = number
    return cfg, rest


def run_settings(decl, cfg, run_name, scale, io_scale, interval_ms):
    """The --set list of one run: the scaled capacity, the run's overrides, I/O counts times io_scale."""
    g, logical = scaled_geometry(cfg, scale)
    sets = {"geometry.blocks_per_plane": g["blocks_per_plane"], "stats.interval_ms": interval_ms}
    for section, key in (("slc", "dynamic_max_bytes"), ("slc", "static_bytes"), ("map", "cache_bytes")):
        value = cfg.get(section, {}).get(key)
        if value:
            sets[section + "." + key] = max(4096, value // scale // 4096 * 4096)
    for key, value in decl["runs"][run_name].items():
        if key == "fio":
            continue  # the job file (fio_args), not a key
        if key == "workload.io_bytes" and value == "logical":
            value = logical
        if key in ("workload.io_count", "workload.io_bytes") and io_scale != 1 and value:
            value = max(1 << 20 if key == "workload.io_bytes" else 64, int(value * io_scale))
            if key == "workload.io_bytes":
                value = value // (1 << 20) * (1 << 20)
        sets[key] = value
    return sets


def fio_args(decl, run_name):
    """["--fio", FILE] when the run is a published fio job file (its "fio": a path from the repository's root), run
    unchanged: its jobs, sizes and engine (whose cost the host pays, docs/guides/fio.md), the run's other keys set
    around it; [] otherwise. --io-scale does not shrink a job file's run."""
    path = decl["runs"][run_name].get("fio")
    if not path:
        return []
    if not (ROOT / path).is_file():
        fail("run %s: fio job file %s not found (a path from the repository's root)" % (run_name, path))
    return ["--fio", str(ROOT / path)]


def run_once(binary, out_dir, sets, fio=()):
    os.makedirs(out_dir, exist_ok=True)
    args = [str(binary), "--quiet", "--out", str(out_dir)] + list(fio)
    for k, v in sets.items():
        args += ["--set", "%s=%s" % (k, json.dumps(v) if isinstance(v, bool) else v)]
    r = subprocess.run(args, capture_output=True, text=True)
    with open(os.path.join(out_dir, "command.txt"), "w") as f:
        f.write(" ".join(args) + "\n")
    if r.returncode != 0:
        return None, "exit %d: %s" % (r.returncode, (r.stderr or r.stdout).strip()[-400:])
    with open(os.path.join(out_dir, "summary.json")) as f:
        return json.load(f), None


def curve(out_dir):
    """(t_s, MB/s) samples of the run's host rate."""
    rows = []
    with open(os.path.join(out_dir, "timeseries.csv")) as f:
        for r in csv.DictReader(f):
            rows.append((float(r["t_ms"]) / 1e3, float(r["mbps"])))
    return rows


def curve_metric(name, rows, scale):
    """A metric of the write-over-time curve. The last sample covers a partial interval and is dropped. With no
    cliff (no sample below 3/4 of the burst rate) the whole run counts as written at the burst rate and there is
    no rate past the cache (nan: the row says "no result")."""
    rows = rows[:-1]
    if len(rows) < 2:
        return float("nan")
    dt = rows[1][0] - rows[0][0]
    rates = [r for _, r in rows]
    burst = max(rates[: max(3, len(rates) // 10)])
    cliff = next((i for i, r in enumerate(rates) if i > 0 and r < 0.75 * burst), len(rates))
    if name == "burst_mbps":
        return statistics.median(rates[:cliff])
    if name == "cache_gb":
        return sum(rates[:cliff]) * dt * 1e6 * scale / 1e9
    if name == "after_mbps":
        return statistics.mean(rates[cliff:]) if cliff < len(rates) else float("nan")
    if name == "fill_mbps":
        return statistics.mean(rates)
    fail("unknown curve metric %r" % name)


STEADY_ROUNDS = 5


def steady_metric(out_dir, column):
    """SNIA PTS steady state over the last STEADY_ROUNDS full samples of a timeseries.csv column: their mean when
    max - min <= 20 % and the fitted line's excursion <= 10 % of that mean, else nan (the run was not long enough
    to reach steady state)."""
    with open(os.path.join(out_dir, "timeseries.csv")) as f:
        ys = [float(r[column]) for r in csv.DictReader(f)][:-1][-STEADY_ROUNDS:]
    if len(ys) < STEADY_ROUNDS:
        return float("nan")
    mean = statistics.mean(ys)
    xs = range(len(ys))
    xm = statistics.mean(xs)
    slope = sum((x - xm) * (y - mean) for x, y in zip(xs, ys)) / sum((x - xm) ** 2 for x in xs)
    steady = max(ys) - min(ys) <= 0.20 * mean and abs(slope) * (len(ys) - 1) <= 0.10 * mean
    return mean if steady else float("nan")


def metric_value(metric, summary, run_dir, scale):
    """The value of a declared metric ("summary:", "ratio:", "steady:" or "curve:") from one run."""
    src, _, key = metric.partition(":")
    if src == "summary":
        return lookup(summary, key)
    if src == "ratio":
        num, _, den = key.partition("/")
        d = lookup(summary, den)
        return lookup(summary, num) / d if d else float("nan")
    if src == "steady":
        return steady_metric(run_dir, key)
    return curve_metric(key, curve(run_dir), scale)


def lookup(summary, path):
    v = summary
    for part in path.split("."):
        if not isinstance(v, dict) or part not in v:
            return float("nan")
        v = v[part]
    return float(v)


def verdict(kind, error):
    if error is None or math.isnan(error):
        return "no result"
    return "within" if abs(error) <= BOUNDS[kind] else "outside"


def measure_drive(name, a):
    decl, cfg = load_drive(name)
    scale = a.scale or decl.get("scale", 1)
    kinds = ("calibration", "validation") if a.kind == "all" else (a.kind,)
    only = {i for i in a.only.split(",") if i}
    chosen = [(k, m) for k in kinds for m in decl.get(k, [])
              if (not a.ci or m.get("ci")) and (not only or m["id"] in only)]
    runs = sorted({m["run"] for _, m in chosen})
    binary = Path(a.bin_dir) / ("ssdtlm-" + name)
    if not binary.exists():
        fail("no binary %s (build the platform first)" % binary)
    results = {}

    run_cfg, overrides = with_overrides(cfg, a.override)

    def do(run_name):
        d = Path(a.out) / name / run_name
        sets = run_settings(decl, run_cfg, run_name, scale, a.io_scale, 500)
        sets.update(overrides)
        results[run_name] = (d,) + run_once(binary, d, sets, fio_args(decl, run_name))

    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        list(ex.map(do, runs))
    rows, failed = [], []
    for k, m in chosen:
        d, summary, err = results[m["run"]]
        if err:
            failed.append("%s/%s: %s" % (name, m["run"], err))
            ours = float("nan")
        else:
            ours = metric_value(m["metric"], summary, d, scale)
        error = (ours - m["published"]) / m["published"] if not math.isnan(ours) else float("nan")
        rows.append({"drive": name, "id": m["id"], "measurement": m["what"], "source": m["source"],
                     "metric_src": m["metric"].partition(":")[0],
                     "published": m["published"], "unit": m["unit"], "ssdtlm": ours, "error": error,
                     "role": k, "kind": m["kind"], "sets": m.get("sets", ""), "verdict": verdict(m["kind"], error),
                     "ci": bool(m.get("ci"))})
    fill = next((results[m["run"]][0] for _, m in chosen if m["metric"].startswith("curve:")), None)
    return rows, failed, scale, fill


def fmt(v, unit):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    if unit in ("IOPS",):
        return "{:,.0f}".format(v)
    if unit == "W":
        return "{:.3g}".format(v)
    return "{:,.1f}".format(v) if abs(v) < 1e4 else "{:,.0f}".format(v)


def summary_lines(rows):
    out = []
    for kind, bound in BOUNDS.items():
        errs = [abs(r["error"]) for r in rows if r["role"] == "validation" and r["kind"] == kind and not math.isnan(r["error"])]
        if not errs:
            continue
        med = statistics.median(errs)
        out.append("| %s | %d | %.1f %% | %.0f %% | %s |" % (kind, len(errs), 100 * med, 100 * bound,
                                                           "yes" if med <= bound else "no"))
    return out


def figures(out_dir, rows, scales, run_dirs):
    """Each drive's write-over-time (the whole-drive fill) beside the published curve, drawn as its source
    describes it: the burst rate up to the cache size, then the rate past the cache."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from studylib.plot import save_figure
    os.makedirs(out_dir, exist_ok=True)
    for drive, d in sorted(run_dirs.items()):
        pub = {r["id"].split("_", 1)[1]: r["published"] for r in rows if r["drive"] == drive and r["metric_src"] == "curve"}
        if not d or not os.path.exists(os.path.join(d, "timeseries.csv")):
            continue
        pts = curve(d)[:-1]
        written, xs, ys = 0.0, [], []
        for i, (_, mbps) in enumerate(pts):
            dt = pts[1][0] - pts[0][0] if len(pts) > 1 else 0.5
            written += mbps * dt * 1e6 * scales[drive] / 1e9
            xs.append(written)
            ys.append(mbps)
        fig, ax = plt.subplots(figsize=(7, 3.6))
        ax.plot(xs, ys, label="ssdtlm (1/%d scale, GB scaled back)" % scales[drive])
        if "slc_burst" in pub and "slc_size" in pub and "after_cache" in pub:
            end = max(xs[-1] if xs else 0, pub["slc_size"] * 1.2)
            ax.step([0, pub["slc_size"], end], [pub["slc_burst"], pub["after_cache"], pub["after_cache"]], where="post",
                    linestyle="--", color="k", label="published (burst until the cache size, then past it)")
        ax.set_xlabel("data written (GB)")
        ax.set_ylabel("host write rate (MB/s, 500 ms samples)")
        ax.set_title("%s: whole-drive 1 MiB sequential write" % drive)
        ax.legend(fontsize=7)
        fig.tight_layout()
        save_figure(fig, os.path.join(out_dir, "%s_write_over_time.png" % drive), dpi=90)


QD_SWEEP = (1, 2, 4, 8, 16, 32)
QD_TEMPLATES = {"read": ("rand_read_4k_qd1",), "write": ("rand_write_4k_qd1", "rand_write_4k_steady_qd1")}


def qd_sweep(name, a):
    """4 KiB random reads and writes at queue depths 1..32 on one queue, each from the drive's declared QD1 run
    (its preconditioning, span and I/O count, the count times the depth): {direction: [(qd, summary)]}."""
    decl, cfg = load_drive(name)
    scale = a.scale or decl.get("scale", 1)
    binary = Path(a.bin_dir) / ("ssdtlm-" + name)
    jobs = []
    for direction, templates in QD_TEMPLATES.items():
        template = next((t for t in templates if t in decl.get("runs", {})), None)
        for qd in QD_SWEEP if template else ():
            sets = run_settings(decl, cfg, template, scale, a.io_scale * min(qd, 8), 500)
            sets.update({"host.queues": 1, "host.queue_depth": qd})
            jobs.append((direction, qd, Path(a.out) / name / "qd_sweep" / ("%s_qd%d" % (direction, qd)), sets))
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        done = list(ex.map(lambda j: run_once(binary, j[2], j[3]), jobs))
    out = {}
    for (direction, qd, _, _), (summary, err) in zip(jobs, done):
        if err:
            print("qd sweep %s %s qd%d failed: %s" % (name, direction, qd, err), file=sys.stderr)
            continue
        out.setdefault(direction, []).append((qd, summary))
    return out


def qd_figure(out_dir, name, sweep, rows):
    """IOPS and latency (mean, p99) against queue depth, the published QD1 rows marked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from studylib.plot import save_figure
    os.makedirs(out_dir, exist_ok=True)
    fig, (ax_iops, ax_lat) = plt.subplots(1, 2, figsize=(9, 3.6))
    for direction, pts in sorted(sweep.items()):
        qds = [q for q, _ in pts]
        ax_iops.plot(qds, [lookup(s, "host.%s_iops" % direction) for _, s in pts], marker="o", label="ssdtlm " + direction)
        for stat, style in (("mean", "-"), ("p99", ":")):
            ax_lat.plot(qds, [lookup(s, "host.latency_us.%s.%s" % (direction, stat)) for _, s in pts], style, marker=".",
                        label="ssdtlm %s %s" % (direction, stat))
    for r in rows:
        if r["drive"] == name and r["unit"] == "IOPS" and r["id"] in ("ds_rand_read_qd1", "ds_rand_write_qd1"):
            ax_iops.plot([1], [r["published"]], "kx", markersize=8)
            ax_iops.annotate("%s published" % r["id"].split("_")[2], (1, r["published"]), fontsize=6)
    for ax in (ax_iops, ax_lat):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("queue depth (one queue, 4 KiB random)")
        ax.legend(fontsize=6)
    ax_iops.set_ylabel("IOPS")
    ax_lat.set_ylabel("latency (us)")
    ax_lat.set_yscale("log")
    fig.suptitle("%s: IOPS and latency against queue depth (x: published QD1)" % name, fontsize=9)
    fig.tight_layout()
    save_figure(fig, os.path.join(out_dir, "%s_qd_sweep.png" % name), dpi=90)


def write_errors(path, rows, scales):
    lines = ["# Real drives: published measurements against ssdtlm (generated)", "",
             "Written by `scripts/validate_drives.py` (issue 40); do not edit by hand. Each drive's parameters and their",
             "sources: `platforms/<drive>/README.md`; its calibration and validation measurements, declared before any",
             "validation run, and the causes of its misses: `docs/results/drives/<drive>.md`. Rule: error = (ssdtlm - published) /",
             "published; within when |error| <= the bound of the row's kind (throughput 10 %, mean and p50 latency 20 %,",
             "p99 latency 35 %, cache size 10 %, power 20 %). Runs at 1/scale of the capacity: " +
             ", ".join("%s 1/%d" % (d, s) for d, s in sorted(scales.items())) + ".", "",
             "| drive | measurement | source | published | ssdtlm | error | calibration or validation | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        role = r["role"] + (" (sets %s)" % r["sets"] if r["sets"] else "")
        err = "—" if math.isnan(r["error"]) else "%+.1f %%" % (100 * r["error"])
        lines.append("| %s | %s | [%s](%s) | %s %s | %s %s | %s | %s | %s |" % (
            r["drive"], r["measurement"], r["source"].split("/")[2] if "//" in r["source"] else r["source"],
            r["source"], fmt(r["published"], r["unit"]), r["unit"], fmt(r["ssdtlm"], r["unit"]), r["unit"], err,
            role, r["verdict"]))
    lines += ["", "Validation rows only, median |error| per kind against its bound:", "",
              "| kind | rows | median abs. error | bound | within |", "|---|---|---|---|---|"] + summary_lines(rows) + [
              "", "Validation rows without a result (not in the medians): %d." % sum(
                  1 for r in rows if r["role"] == "validation" and math.isnan(r["error"]))]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin-dir", default=str(ROOT / "build" / "bin"))
    ap.add_argument("--drives", default="")
    ap.add_argument("--kind", default="all", choices=["calibration", "validation", "all"])
    ap.add_argument("--ci", action="store_true", help="only the measurements marked ci (the short form)")
    ap.add_argument("--only", default="", help="only these measurement ids (comma-separated; an experiment)")
    ap.add_argument("--scale", type=int, default=0)
    ap.add_argument("--io-scale", type=float, default=1.0)
    ap.add_argument("--out", default=str(ROOT / "out" / "validate_drives"))
    ap.add_argument("--errors", default="", help="write the error table here (default: none)")
    ap.add_argument("--json", default="", help="write the rows as JSON here")
    ap.add_argument("--figures", default="", help="write each drive's write-over-time figure (.png, .pdf, .svg) into this folder")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                    help="an experiment: run every measurement with this key changed (never for errors.md)")
    a = ap.parse_args()
    if a.scale < 0 or a.io_scale <= 0 or a.jobs < 1:
        fail("--scale >= 0, --io-scale > 0, --jobs >= 1")
    if (a.override or a.only) and a.errors:
        fail("--override and --only run an experiment; they never write the error table (--errors)")
    names = [n for n in a.drives.split(",") if n] or drives_declared()
    all_rows, all_failed, scales, fills = [], [], {}, {}
    for name in names:
        rows, failed, scale, fill = measure_drive(name, a)
        all_rows += rows
        all_failed += failed
        scales[name] = scale
        fills[name] = str(fill) if fill else None
    for r in all_rows:
        print("%-22s %-10s %-42s published %12s  ssdtlm %12s  error %8s  %s" % (
            r["drive"], r["role"][:10], r["id"], fmt(r["published"], r["unit"]), fmt(r["ssdtlm"], r["unit"]),
            "—" if math.isnan(r["error"]) else "%+.1f%%" % (100 * r["error"]), r["verdict"]))
    if a.errors:
        write_errors(a.errors, all_rows, scales)
    if a.figures:
        figures(a.figures, all_rows, scales, fills)
        for name in names:
            qd_figure(a.figures, name, qd_sweep(name, a), all_rows)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"bounds": BOUNDS, "rows": all_rows}, f, indent=1, default=str)
    for f in all_failed:
        print("run failed: " + f, file=sys.stderr)
    return 1 if all_failed else 0


if __name__ == "__main__":
    sys.exit(main())
