"""cache.read_ahead's keys (model/controller/read_ahead/): a bad setting is refused before anything runs, exit 2, with
the key named; a good one runs and reports read_ahead in summary.json, and with read-ahead off it is absent."""
import json
import os
import subprocess

import pytest

SMALL = ["geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
         "geometry.pages_per_block=64", "workload.io_count=2000", "precondition.drive_writes=0",
         "workload.pattern=sequential", "workload.read_fraction=1", "host.queue_depth=1"]


def run(bin_dir, tmp_path, sets):
    args = [str(bin_dir / "ssdtlm-generic"), "--quiet", "--out", str(tmp_path / "out")]
    for s in SMALL + sets:
        args += ["--set", s]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, cwd=str(tmp_path))


@pytest.mark.parametrize("sets,key", [
    (["cache.read_ahead=always"], "cache.read_ahead"),
    (["cache.read_ahead=sequential", "cache.read_ahead_trigger=0"], "cache.read_ahead_trigger"),
    (["cache.read_ahead_trigger=4"], "cache.read_ahead_trigger"),  # read-ahead off
    (["cache.read_ahead_pages=8"], "cache.read_ahead_pages"),
    (["cache.read_ahead_bytes=1M"], "cache.read_ahead_bytes"),
    # 4 dies x a 8 KiB page = 32 KiB a time: 16 KiB cannot hold it
    (["cache.read_ahead=sequential", "cache.read_ahead_bytes=16k"], "cache.read_ahead_bytes"),
    (["cache.read_ahead=sequential", "cache.read_ahead_pages=64", "cache.read_ahead_bytes=256k"],
     "cache.read_ahead_bytes"),
])
def test_bad_read_ahead_setting_exits_2_naming_the_key(bin_dir, tmp_path, sets, key):
    p = run(bin_dir, tmp_path, sets)
    assert p.returncode == 2, p.stderr
    assert key in p.stderr
    assert not (tmp_path / "out" / "summary.json").exists()


def test_read_ahead_reports_itself_only_when_on(bin_dir, tmp_path):
    p = run(bin_dir, tmp_path, ["cache.read_ahead=sequential"])
    assert p.returncode == 0, p.stderr
    ra = json.loads((tmp_path / "out" / "summary.json").read_text())["read_ahead"]
    assert ra["hits"] > 0 and ra["prefetched_pages"] > 0
    p = run(bin_dir, tmp_path, [])
    assert p.returncode == 0, p.stderr
    assert "read_ahead" not in json.loads((tmp_path / "out" / "summary.json").read_text())


@pytest.mark.parametrize("sets", [
    ["workload.read_fraction=0.7", "workload.trim_fraction=0.1"],
    ["workload.read_fraction=0.7", "fault.power_loss_count=3", "fault.power_loss_window_ms=300",
     "map.segment_bytes=4k"],
    ["workload.read_fraction=0.9", "reliability.model=rber", "host.queue_depth=8"],
])
def test_read_ahead_never_returns_stale_data(bin_dir, tmp_path, sets):
    """A sequential stream mixed with writes, trims, power losses or ECC retries: the integrity checker (on by
    default outside bench.py) sees every read served from a copy read ahead, and finds no error."""
    p = run(bin_dir, tmp_path, ["cache.read_ahead=sequential", "workload.io_count=20000", "buffer.bytes=256k"] + sets)
    assert p.returncode == 0, p.stderr
    s = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert s["integrity"]["enabled"] and s["integrity"]["errors"] == 0
    assert s["read_ahead"]["hits"] > 1000
    if any(x.startswith("fault.") for x in sets):
        assert s["recovery"]["power_losses"] == 3 and s["recovery"]["mismatches"] == 0
