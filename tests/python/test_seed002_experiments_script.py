"""scripts/seed002_experiments.py --plot-only on made-up study outputs: it finds the pcdeaths, autostream and pcclock
points and prints and writes the numbers it was given (stream-0 share, WAF, per-stream shares and median lifetimes,
simulated time)."""
import csv
import subprocess
import sys

import study_outputs
from conftest import ROOT


def summary(waf, stream0, writes, p50_units):
    life = {"host_writes": {"count": 10, "p25": 1.0, "p50": float(p50_units), "p75": 2.0}}
    return {"host": {"iops": 1000.0 / waf}, "waf": {"total": waf},
            "streams": {"default_fraction": stream0, "writes": writes, "lifetime": [life] * len(writes),
                        "pcstream": {"not_estimated_units": 5, "table_hits": 7, "table_misses": 1, "pcs_known": 24}}}


def test_plot_only_prints_both_tables(tmp_path):
    deaths = [({"streams.pcstream_min_deaths": n, "streams.pc_table_reset": reset},
               summary(2.0 + n / 1000.0, n / 10000.0 if reset == "run" else 0.0, [1, 9], 262144))
              for n in (1, 256) for reset in ("never", "run")]
    study_outputs.write_study(tmp_path, "seed002_pcdeaths", ["streams.pcstream_min_deaths", "streams.pc_table_reset"],
                              deaths)
    auto = [({"app": "lsm", "policy": pol}, summary(w, 1.0 if pol == "single" else 0.0, ws, 524288))
            for pol, w, ws in (("single", 4.0, [10, 0, 0]), ("auto2", 4.5, [0, 4, 6]))]
    study_outputs.write_study(tmp_path, "seed002_autostream", ["app", "policy"], auto)
    clock = [({"streams.pcstream_clock": c, "workload.app.gcc_gap_ms": g, "streams.pc_table_reset": "run"},
              dict(summary(2.5 if c == "time" else 2.0, 0.003, [1, 9], 1000), sim_time_s=36.0 + 30 * g / 1000.0))
             for c in ("writes", "time") for g in (0, 600000)]
    study_outputs.write_study(tmp_path, "seed002_pcclock",
                              ["streams.pcstream_clock", "workload.app.gcc_gap_ms", "streams.pc_table_reset"], clock)
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "seed002_experiments.py"), "--plot-only",
                        "--out", str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "   256 | run   |   2.56 % | 2.256 | 443" in p.stdout
    # 524,288 units of 4 KiB = 2 GiB; the Baseline's one stream, AutoStream's two
    assert "lsm    | single    | 4.000 | 250 | 0:100%@2.00" in p.stdout
    assert "lsm    | auto2     | 4.500 | 222 | 1:40%@2.00 2:60%@2.00" in p.stdout
    assert "time   | 600000 | run   |   0.30 % | 2.500 | 400 | 18036" in p.stdout
    assert "writes |      0 | run   |   0.30 % | 2.000 | 500 | 36" in p.stdout
    with open(tmp_path / "seed002_experiments.csv", newline="") as f:
        assert len(list(csv.DictReader(f))) == len(deaths) + len(auto) + len(clock)
