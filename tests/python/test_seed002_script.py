"""scripts/seed002_pcstream.py --plot-only on made-up study outputs: it finds every point's summary, draws each
figure per device state and reports the averages from the numbers it was given."""
import csv
import subprocess
import sys

import study_outputs
from conftest import ROOT

APPS = ["lsm", "sqlite", "gcc", "mixed1", "mixed2"]
POLICIES = ["single", "manual", "autostream", "pcstream"]
WAF = {"single": 2.0, "manual": 1.1, "autostream": 1.6, "pcstream": 1.0}


def summary(waf, iops, stream0):
    lifetime = {"host_writes": {"count": 10, "p25": 100.0, "p50": 200.0, "p75": 400.0}}
    return {"host": {"iops": iops, "bytes_written": 2**30}, "waf": {"total": waf},
            "streams": {"default_fraction": stream0, "gc_writes": [5, 0], "lifetime": [lifetime, lifetime],
                        "pcstream": {"table_entries": 3, "table_hits": 7, "table_misses": 1,
                                     "not_estimated_units": 2}}}


def write_study(root, name, axes, points):
    """The study outputs, each run with a flat WAF time series."""
    def series(summ):
        return {"timeseries.csv": "t_ms,waf\n1,%f\n2,%f\n3,%f\n" % ((summ["waf"]["total"],) * 3)}
    study_outputs.write_study(root, name, axes, points, series)


def test_plot_only_draws_every_figure_per_state_and_reports_the_given_numbers(tmp_path):
    main = []
    for state in ("discard", "no_discard"):
        for app in APPS:
            for pol in POLICIES:
                for internal in ("off", "on"):
                    main.append(({"state": state, "app": app, "policy": pol, "internal": internal},
                                 summary(WAF[pol], 1000.0 / WAF[pol], 1.0 if pol == "single" else 0.1)))
    write_study(tmp_path, "seed002_pcstream", ["state", "app", "policy", "internal"], main)
    table = [({"state": state, "table": b}, summary(1.5, 500.0, {"0": 0.5, "per_build": 0.2}.get(b, 0.05)))
             for state in ("discard", "no_discard") for b in ("0", "per_build", "4096")]
    write_study(tmp_path, "seed002_pctable", ["state", "table"], table)
    spare = [({"op": op, "app": app, "policy": pol}, summary(WAF[pol] * k, 1000.0, 0.0))
             for op, k in (("14.5%", 1.0), ("8%", 1.5)) for app in ("lsm", "gcc") for pol in POLICIES]
    write_study(tmp_path, "seed002_spare", ["op", "app", "policy"], spare)

    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "seed002_pcstream.py"), "--plot-only",
                        "--out", str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "seed002_spare.png").is_file()
    # WAF 2.0 x 1.5 (Baseline) and 1.0 x 1.5 (PCStream) at 8 %
    assert "spare lsm       OP 8%    WAF Baseline 3.000 Manual 1.650 AutoStream 2.400 PCStream 1.500" in p.stdout
    with open(tmp_path / "seed002_spare.csv", newline="") as f:
        assert len(list(csv.DictReader(f))) == len(spare)
    for stem in ("iops_waf", "internal", "pctable", "lifetimes"):
        for suffix in ("", "_no_discard"):
            assert (tmp_path / ("seed002_%s%s.png" % (stem, suffix))).is_file(), stem + suffix
    # PCStream's WAF 1.0 against 2.0 (Baseline) and 1.6 (AutoStream); IOPS = 1000 / WAF.
    assert p.stdout.count("PCStream WAF vs Baseline -50% (seed -63%), vs AutoStream -38% (seed -49%)") == 2
    assert p.stdout.count("PCStream IOPS vs Baseline +100%") == 2
    # the seed's "without table" (emptied per run) is the per-build point; 0 B has no seed value
    assert "16 KiB, emptied per build: stream 0 share  20.0% (seed 16%)" in p.stdout
    assert "0 B                   : stream 0 share  50.0%, WAF" in p.stdout
    assert "4 KiB                 : stream 0 share   5.0% (seed 12%)" in p.stdout
    with open(tmp_path / "seed002_table.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(main) + len(table)
    assert {r["state"] for r in rows} == {"discard", "no_discard"}
