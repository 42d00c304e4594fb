"""Power losses over every feature that changes what flash and the map hold (issue 44): TRIM, zone resets (ZNS),
FDP, streams, superblock GC, SLC caching (static, with folding, and dynamic) and HEXA, each under unlimited
capacitors, capacitors for part of the buffer (power.protected_bytes) and an unprotected buffer, with the page map
and with dftl (superblock GC and FDP, which need the map in DRAM: with FIFO and HEXA flushing, FDP with initially
and persistently isolated handles instead), over two loss seeds: 120 runs. Zone resets erase lazily and at the
reset (zns.reset_erase=reset, refused before issue 44's fix of the reset that waited for ever). Every run completes (no stall: the watchdog would exit 3), the
integrity checker finds no error and no mismatch after any recovery, with unlimited capacitors nothing
acknowledged is lost, neither a write nor a trim, and no loss whose trim journal the capacitors saved whole loses a
trim.

Before issue 44's trim journal, the trim cases with partial capacitors ended with "recovered version N newer than
any written (0)"; before SLC recovery was enabled, the SLC cases were refused."""
import json
import os
import subprocess

import pytest

from conftest import ROOT

DRIVE = ["geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=128",
         "geometry.pages_per_block=64", "geometry.page_bytes=4096", "buffer.bytes=256k", "workload.io_count=20000",
         "workload.read_fraction=0.3", "map.segment_bytes=4k", "fault.power_loss_count=3",
         "fault.power_loss_window_ms=1500"]
TRIM = "workload.trim_fraction=0.1"
FEATURES = {
    "plain": [],
    "trim": ["workload.trim_fraction=0.2"],
    "zns-resets": ["zns.enabled=true", "workload.zbd=true", "zns.max_open=4", "zns.max_active=4",
                   "zns.reset_erase=lazy"],
    "zns-reset-erase": ["zns.enabled=true", "workload.zbd=true", "zns.max_open=4", "zns.max_active=4",
                        "zns.reset_erase=reset"],
    "fdp-trim": ["fdp.enabled=true", "workload.dataplacement=fdp", "workload.plids=0-3", TRIM],
    "streams-trim": ["streams.count=2", "streams.assign=hotcold", TRIM],
    "superblock-trim": ["ftl.gc_unit=superblock", "ftl.gc_free_blocks=3", TRIM],
    "slc-static-trim": ["flash.cell=tlc", "slc.mode=static", "slc.static_bytes=2M", TRIM],
    "slc-dynamic": ["flash.cell=tlc", "slc.mode=dynamic"],
    "hexa-trim": ["buffer.policy=hexa", TRIM],
}
CAPACITORS = {
    "unlimited": [],
    "partial": ["power.protected_bytes=64k", "map.protected_ratio=0.05"],
    "unprotected": ["buffer.power_protected=false", "map.protected_ratio=0.05"],
}
MAPPINGS = {"page": [], "dftl": ["ftl.mapping=dftl", "map.cache_bytes=16k"]}
CASES = [(f, c, m, seed) for f in FEATURES for c in CAPACITORS for m in MAPPINGS for seed in (1, 2)]


def run(bin_dir, out, sets):
    args = [str(bin_dir / "ssdtlm-generic"), "--quiet", "--out", str(out)]
    for s in sets:
        args += ["--set", s]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, cwd=str(out.parent))


def test_the_matrix_has_100_combinations():
    assert len(CASES) >= 100


@pytest.mark.parametrize("feature,capacitors,mapping,seed", CASES)
def test_power_loss_with_feature(bin_dir, tmp_path, feature, capacitors, mapping, seed):
    extra = CAPACITORS[capacitors] + MAPPINGS[mapping]
    if feature.startswith(("superblock", "fdp")):  # these keep the map in DRAM (translation pages on flash refused)
        extra = [x for x in CAPACITORS[capacitors] if not x.startswith("map.")]
        if mapping == "dftl":  # the second variant: HEXA flushing, or (FDP, whose streams HEXA refuses) the other RUH type
            extra += ["fdp.ruh_type=persistently_isolated"] if feature.startswith("fdp") else ["buffer.policy=hexa"]
    sets = DRIVE + FEATURES[feature] + extra + ["fault.power_loss_seed=%d" % seed]
    out = tmp_path / "out"
    p = run(bin_dir, out, sets)
    assert p.returncode == 0, p.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    rec = s["recovery"]
    assert rec["power_losses"] == 3
    assert s["integrity"]["errors"] == 0, s["integrity"]["first_error"]
    assert rec["mismatches"] == 0
    if capacitors == "unlimited":
        assert rec["lost_acknowledged_writes"] == 0
        assert rec["lost_trims"] == 0
    for e in rec["events"]:  # a trim whose journal record was saved stays trimmed
        if e["trim_records_saved"] == e["trim_records"]:
            assert e["lost_trims"] == 0, e
    if "trim" in feature or feature == "zns-resets":
        assert s["host"]["trims"] > 0
