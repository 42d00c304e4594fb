"""scripts/flush_study.py (issue 45): etcd's fio check on a drive with a volatile write cache and with power-loss
protection. Volatile, every fdatasync programs the page it wrote (the generic drive: its transfer plus tPROG);
protected, it is the Flush command's round trip."""
import json
import subprocess
import sys

from conftest import ROOT


def test_fdatasync_costs_a_program_on_a_volatile_cache_and_a_round_trip_with_protection(tmp_path, bin_dir):
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "flush_study.py"), "--bin-dir", str(bin_dir),
                        "--platforms", "generic", "--out", str(tmp_path / "out"), "--figure", str(tmp_path / "fig")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    rows = json.loads((tmp_path / "out" / "flush_study.json").read_text())
    volatile, protected = (next(x for x in rows if x["protected"] == p) for p in (False, True))
    assert volatile["syncs"] == protected["syncs"] == 22 * 2**20 // 2300 + 1  # one fdatasync per write
    # The generic drive: an 8 KiB page over a 400 MT/s 8-bit bus (20.48 us) and tPROG 700 us.
    assert abs(volatile["p99_ms"] - (0.02048 + 0.700)) <= 0.05 * 0.72048
    assert protected["p99_ms"] < 0.01
    assert volatile["write_iops"] < protected["write_iops"] / 10
    assert (tmp_path / "fig.png").exists() and "| generic | volatile |" in r.stdout
