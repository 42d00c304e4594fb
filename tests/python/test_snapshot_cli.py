"""Preconditioned-drive snapshots through the CLI (precondition.snapshot_dir, docs/history/performance.md "Snapshots"): a run
that loads the snapshot another run saved gives the same summary.json as a run that preconditions, for the page map
with HEXA, DFTL with power losses, superblock GC and hot/cold streams; a point that differs only in keys the
preconditioning does not read (buffer, timing, the host's queues) reuses the snapshot; load without one, a corrupt file and a file of
another configuration are refused with exit 2 (or, in auto mode, the mismatch rebuilt)."""
import json
import shutil
import subprocess

import pytest

from small_drive import SMALL

IDENTITY_CASES = {
    "page-hexa": ["buffer.policy=hexa", "map.protected_ratio=0.1", "workload.read_fraction=0"],
    "dftl-power-loss": ["ftl.mapping=dftl", "map.cache_bytes=16k", "map.segment_bytes=4k", "fault.power_loss_count=1",
                        "fault.power_loss_window_ms=500", "fault.power_loss_seed=2"],
    "superblock": ["ftl.gc_unit=superblock", "ftl.gc_free_blocks=4", "workload.read_fraction=0"],
    "hotcold": ["streams.count=2", "streams.assign=hotcold", "streams.hot_threshold=1", "streams.gc_stream=hotcold",
                "workload.distribution=zipf:0.9", "geometry.blocks_per_plane=128"],
}
MACHINE = ("wall_time_s", "peak_rss_bytes", "snapshot")


def run(bin_dir, out, sets, check=True):
    argv = [str(bin_dir / "ssdtlm-generic"), "--quiet", "--out", str(out), *SMALL, "--set", "workload.io_count=5000"]
    for s in sets:
        argv += ["--set", s]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def summary(out):
    return json.loads((out / "summary.json").read_text())


def model_part(s):
    if isinstance(s, dict):
        return {k: model_part(v) for k, v in s.items() if k not in MACHINE}
    if isinstance(s, list):
        return [model_part(v) for v in s]
    return s


@pytest.mark.parametrize("name", sorted(IDENTITY_CASES))
def test_a_loaded_snapshot_gives_the_summary_of_a_preconditioned_run(bin_dir, tmp_path, name):
    sets = IDENTITY_CASES[name]
    snap = "precondition.snapshot_dir=%s" % (tmp_path / "snaps")
    run(bin_dir, tmp_path / "plain", sets)
    run(bin_dir, tmp_path / "saved", sets + [snap])
    run(bin_dir, tmp_path / "loaded", sets + [snap])
    plain, saved, loaded = (summary(tmp_path / d) for d in ("plain", "saved", "loaded"))
    assert "snapshot" not in plain["precondition"]
    assert saved["precondition"]["snapshot"]["action"] == "saved"
    assert loaded["precondition"]["snapshot"]["action"] == "loaded"
    assert saved["precondition"]["snapshot"]["bytes"] > 0
    assert model_part(saved) == model_part(plain)
    assert model_part(loaded) == model_part(plain)
    assert len(list((tmp_path / "snaps").glob("*.ssnap"))) == 1


def test_keys_the_preconditioning_does_not_read_share_a_snapshot(bin_dir, tmp_path):
    snap = "precondition.snapshot_dir=%s" % (tmp_path / "snaps")
    run(bin_dir, tmp_path / "a", [snap, "buffer.policy=fifo"])
    others = ["buffer.policy=hexa", "timing.t_prog_us=500", "flash.die_sched=read_first", "host.queues=2",
              "host.queue_depth=3"]
    run(bin_dir, tmp_path / "b", [snap] + others)
    run(bin_dir, tmp_path / "b-plain", others)
    assert summary(tmp_path / "b")["precondition"]["snapshot"]["action"] == "loaded"
    assert model_part(summary(tmp_path / "b")) == model_part(summary(tmp_path / "b-plain"))
    # a key it reads (the GC victim policy) makes another snapshot
    run(bin_dir, tmp_path / "c", [snap, "ftl.gc_victim=fifo"])
    assert summary(tmp_path / "c")["precondition"]["snapshot"]["action"] == "saved"
    assert len(list((tmp_path / "snaps").glob("*.ssnap"))) == 2


def test_load_without_a_snapshot_exits_2(bin_dir, tmp_path):
    done = run(bin_dir, tmp_path / "out", ["precondition.snapshot_dir=%s" % tmp_path, "precondition.snapshot=load"],
               check=False)
    assert done.returncode == 2
    assert "precondition.snapshot=load: no snapshot of this configuration" in done.stderr


def test_corrupt_snapshot_exits_2_and_a_foreign_one_is_refused_or_rebuilt(bin_dir, tmp_path):
    snaps = tmp_path / "snaps"
    run(bin_dir, tmp_path / "a", ["precondition.snapshot_dir=%s" % snaps])
    (path,) = snaps.glob("*.ssnap")
    data = bytearray(path.read_bytes())
    good = bytes(data)
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))
    done = run(bin_dir, tmp_path / "b", ["precondition.snapshot_dir=%s" % snaps], check=False)
    assert done.returncode == 2, done.stderr
    assert "is corrupt or truncated: checksum mismatch" in done.stderr and path.name in done.stderr
    path.write_bytes(good[: len(good) // 3])
    done = run(bin_dir, tmp_path / "c", ["precondition.snapshot_dir=%s" % snaps], check=False)
    assert done.returncode == 2 and "corrupt or truncated" in done.stderr

    # another configuration's file under this configuration's name
    other = tmp_path / "other"
    run(bin_dir, tmp_path / "d", ["precondition.snapshot_dir=%s" % other, "ftl.gc_victim=fifo"])
    (foreign,) = other.glob("*.ssnap")
    shutil.copy(foreign, path)
    done = run(bin_dir, tmp_path / "e", ["precondition.snapshot_dir=%s" % snaps, "precondition.snapshot=load"],
               check=False)
    assert done.returncode == 2
    assert "was made by another configuration" in done.stderr and "ftl.gc_victim" in done.stderr
    done = run(bin_dir, tmp_path / "f", ["precondition.snapshot_dir=%s" % snaps])  # auto: logged, rebuilt
    assert "was made by another configuration" in done.stderr
    assert summary(tmp_path / "f")["precondition"]["snapshot"]["action"] == "saved"
    assert model_part(summary(tmp_path / "f")) == model_part(summary(tmp_path / "a"))


def test_a_study_shares_preconditioned_drives_with_identical_results(runner, tmp_path):
    """4 points, 2 of whose keys the preconditioning reads (the buffer policy is not one): 2 save, 2 load, and
    results.csv is the one the study gives without snapshots."""
    doc = {"name": "snapshots", "platform": "generic",
           "set": {"workload.io_count": 2000, "geometry.channels": 2, "geometry.dies_per_channel": 2,
                   "geometry.blocks_per_plane": 64, "geometry.pages_per_block": 64, "buffer.bytes": 1048576},
           "sweep": {"buffer.policy": ["fifo", "hexa"], "map.protected_ratio": [0.1, 1.0]}}
    study = runner.write(tmp_path / "snapshots.json", doc)
    on = runner.study(study, "--workers", 1, "--out", tmp_path / "on", "--cache", tmp_path / "cache-on")
    off = runner.study(study, "--workers", 1, "--out", tmp_path / "off", "--cache", tmp_path / "cache-off",
                       "--snapshots", "off")
    assert on.returncode == 0, on.stderr
    assert off.returncode == 0, off.stderr
    assert "snapshots: 2 loaded, 2 saved; 2 files" in on.stderr and "(removed)" in on.stderr
    assert not (tmp_path / "on" / "snapshots").exists()
    assert (tmp_path / "on" / "results.csv").read_text() == (tmp_path / "off" / "results.csv").read_text()
    # the by-hand commands do not name the snapshot directory (the results do not depend on it)
    assert "snapshot_dir" not in (tmp_path / "on" / "commands.sh").read_text()
