"""scripts/seed001_ptsd.py --plot-only on made-up study outputs: it finds every point's summary and latency CDF,
draws Fig 4, 9, 10, 11 and 12 and writes one results row per point and job with the numbers it was given."""
import csv
import subprocess
import sys

import study_outputs
from conftest import ROOT

SCHEMES = ["OPT", "DFTL", "PART", "PART-SCHED", "WRITEOPT"]
PATHS = ["buffer", "data", "map_read", "map_write", "gc_wait"]


def job(name, iops, read_mean, reads, writes):
    lat = {q: read_mean for q in ("mean", "p50", "p90", "p99", "p999", "p9999", "max")}
    paths = {p: {"count": reads if p == "map_read" else 0, "mean_us": read_mean if p == "map_read" else 0.0}
             for p in PATHS}
    return {"name": name, "iops": iops, "read_ios": reads, "write_ios": writes, "span_s": 1.0,
            "latency_us": {"read": lat, "write": dict(lat, mean=50.0)}, "read_paths": paths}


def summary(k, two_jobs, gc_update):
    jobs = [job("write", 1000.0 * k, 0.0, 0, 100), job("read", 2000.0 * k, 100.0 * k, 50, 0)] if two_jobs else \
        [job("mix", 1500.0 * k, 100.0 * k, 70, 30)]
    host = {"iops": 1500.0 * k, "read_ios": 50, "write_ios": 100, "latency_us": jobs[-1]["latency_us"],
            "read_paths": jobs[-1]["read_paths"]}
    return {"host": host, "jobs": jobs, "sim_time_s": 1.0,
            "waf": {"total": 3.0, "md": 1.0, "gud": 1.0, "gmd": 0.0},
            "map": {"gc_update": gc_update, "segment_writes": 10, "gc_segment_writes": 5, "read_hits": 1,
                    "read_misses": 2},
            "nand": {"gc_units_moved": 20}, "ftl": {"write_stops": 0}, "integrity": {"errors": 0}}


def write_study(root, name, axes, points):
    """The study outputs, each run with a latency CDF around its mean read latency."""
    def cdf(summ):
        m = summ["jobs"][-1]["latency_us"]["read"]["mean"]
        return {"latency_cdf.csv": "op,latency_us,cumulative_fraction\nread,%f,0.5\nread,%f,1.0\n" % (m / 2, m * 2)}
    study_outputs.write_study(root, name, axes, points, cdf)


def test_plot_only_draws_every_figure_and_tables_each_job(tmp_path):
    main = [({"scenario": sc, "scheme": s}, summary(i + 1, sc in ("paper", "open_loop"), "victim"))
            for sc in ("paper", "ff_read", "mix70", "open_loop") for i, s in enumerate(SCHEMES)]
    write_study(tmp_path, "seed001_ptsd", ["scenario", "scheme"], main)
    extra = [({"scheme": s}, summary(10, True, "page")) for s in SCHEMES[1:]]
    write_study(tmp_path, "seed001_ptsd_gc_update", ["scheme"], extra)
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "seed001_ptsd.py"), "--plot-only",
                        "--out", str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    for fig in ("fig4_read_paths", "fig9_cdf", "fig10_sched", "fig11_hist", "fig12_throughput"):
        for ext in (".png", ".pdf", ".svg"):  # PDF and SVG beside the PNG, for a paper
            assert (tmp_path / ("seed001_%s%s" % (fig, ext))).is_file(), fig + ext
    with open(tmp_path / "seed001_results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    # paper and open_loop: two jobs each; ff_read and mix70: one; the gc_update study: two per scheme.
    assert len(rows) == 5 * (2 + 1 + 1 + 2) + 4 * 2
    dftl_read = [r for r in rows if r["study"] == "seed001_ptsd" and r["scenario"] == "paper"
                 and r["scheme"] == "DFTL" and r["job"] == "read"]
    assert len(dftl_read) == 1
    assert float(dftl_read[0]["iops"]) == 4000.0
    assert float(dftl_read[0]["read_mean_us"]) == 200.0
    assert int(dftl_read[0]["path_map_read_count"]) == 50
    assert {r["map_gc_update"] for r in rows if r["study"] == "seed001_ptsd_gc_update"} == {"page"}
