"""bench.py's whole-drive fill rows (bench/drive_fill.py, issue 40): which rows run for which options, that a row's
run is the drive's declared whole-drive fill (validate_drives.py's settings, the whole logical capacity at scale 1),
pinned to one core, and that a short row (the 980 PRO at 1/16, a few seconds) reports what the table prints. The
full-scale fill itself is a bench run (minutes), and its wall time is never asserted."""
import json
import subprocess
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import drive_fill  # noqa: E402
import validate_drives  # noqa: E402  (drive_fill puts scripts/ on the path)


def test_rows_are_opt_in():
    both = ["drive-fill-samsung_980_1tb", "drive-fill-samsung_980pro_1tb"]
    assert drive_fill.row_names() == both
    assert drive_fill.selected("", False) == []  # not in the default bench
    assert drive_fill.selected("randread-4k", False) == []
    assert drive_fill.selected("", True) == both
    assert drive_fill.selected("drive-fill", False) == both
    assert drive_fill.selected("drive-fill-samsung_980pro", False) == ["drive-fill-samsung_980pro_1tb"]


@pytest.mark.parametrize("drive", drive_fill.DRIVES)
def test_row_runs_the_declared_fill_at_full_scale(drive):
    decl, cfg = validate_drives.load_drive(drive)
    assert drive_fill.fill_run(decl) == "fill_1m_qd1"  # the run the tpu_* curve rows read
    sets = drive_fill.fill_settings(drive, 1)
    _, logical = validate_drives.scaled_geometry(cfg, 1)
    assert sets["geometry.blocks_per_plane"] == cfg["geometry"]["blocks_per_plane"]
    assert sets["workload.io_bytes"] == logical and 0.9e12 < logical < 1.1e12
    assert (sets["workload.pattern"], sets["workload.block_bytes"], sets["host.queue_depth"]) == ("sequential", 1 << 20, 1)
    assert abs(sets["slc.dynamic_max_bytes"] - cfg["slc"]["dynamic_max_bytes"]) < 4096
    # at the declared scale, exactly what validate_drives.py runs for the curve rows
    assert drive_fill.fill_settings(drive, 16) == validate_drives.run_settings(decl, cfg, "fill_1m_qd1", 16, 1.0, 500)
    cmd = drive_fill.fill_command("/x/ssdtlm-" + drive, drive, 1, "/o")
    assert cmd[:4] == ["taskset", "-c", "0", "/x/ssdtlm-" + drive]
    assert "workload.io_bytes=%d" % logical in cmd


def test_missing_executable_is_a_row_error(tmp_path):
    with pytest.raises(drive_fill.FillError, match="no executable"):
        drive_fill.run_fill(str(tmp_path / "ssdtlm-samsung_980pro_1tb"), "samsung_980pro_1tb", 16)


def test_bad_scale_exits_2():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench.py"), "--drive-fill-scale", "0"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--drive-fill-scale" in r.stderr


def test_short_row_reports_the_fill(bin_dir):
    s = drive_fill.run_fill(str(bin_dir / "ssdtlm-samsung_980pro_1tb"), "samsung_980pro_1tb", 16)
    decl, cfg = validate_drives.load_drive("samsung_980pro_1tb")
    _, logical = validate_drives.scaled_geometry(cfg, 16)
    assert s["host"]["ios"] == logical >> 20  # the whole scaled drive, 1 MiB each
    f = s["bench_fill"]
    assert f["cpu_s"] > 0 and f["rss_bytes"] > s["memory"]["model_bytes"]
    assert f["curve"]["burst_mbps"] > f["curve"]["after_mbps"] > 0  # the fill passed the SLC cache
    line = drive_fill.describe(s)
    assert line.split()[0] == str(s["host"]["ios"])
    json.dumps(f)
