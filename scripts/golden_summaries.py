#!/usr/bin/env python3
"""Results-identity check: a fixed matrix of small configurations whose summary.json must not change.

usage: golden_summaries.py [--bin DIR] [--update] [--only REGEX] [--jobs N]

Runs every configuration of MATRIX on platform `generic` (a 2 x 2-die drive of 64 blocks of 64 pages, filled and
overwritten so GC runs), strips the fields that move with the machine (wall times, RSS, precondition threads, model
memory estimates) and compares the rest with tests/data/golden/<name>.json: every value must be equal, floats
included. --update rewrites the golden files from the given build (do this only for a change that is meant to change
results, and say so in the commit). Exit 0 when every summary matches, 1 when one differs (each difference listed),
2 on a usage error. Used by tests/python/test_golden_summaries.py and by refactors that must not change results.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden"
TRACE = ROOT / "tests" / "data" / "tpcc-small.trace"

SMALL = {
    "geometry.channels": 2, "geometry.dies_per_channel": 2, "geometry.blocks_per_plane": 64,
    "geometry.pages_per_block": 64, "geometry.over_provisioning": 0.25, "host.queues": 4, "host.queue_depth": 16,
    "workload.io_count": 30000, "precondition.fill": True, "precondition.drive_writes": 1, "buffer.bytes": "4M",
    "workload.read_fraction": 0.3, "sim.seed": 7,
}
DEMAND = {"map.cache_bytes": "16k", "map.segment_bytes": "4k"}

MATRIX = {
    "page-greedy": {},
    "page-fifo-victim": {"ftl.gc_victim": "fifo"},
    "page-64m-buffer": {"buffer.bytes": "64M", "workload.read_fraction": 0},
    "page-writes-only": {"workload.read_fraction": 0},
    "sequential": {"workload.pattern": "sequential", "workload.block_bytes": "128k", "workload.io_count": 4000},
    "zipf": {"workload.distribution": "zipf:1.2"},
    "jesd219": {"workload.preset": "jesd219"},
    "trace-disksim": {"workload.pattern": "trace", "workload.trace_path": str(TRACE),
                      "workload.trace_format": "disksim", "workload.trace_fit": "wrap"},
    "trim": {"workload.trim_fraction": 0.1},
    "hotcold": {"streams.count": 4, "streams.assign": "hotcold", "streams.hot_threshold": 1,
                "streams.gc_stream": "hotcold", "workload.distribution": "zipf:0.9", "geometry.blocks_per_plane": 128},
    "autostream": {"streams.count": 4, "streams.assign": "autostream", "workload.distribution": "zipf:0.9",
                   "geometry.blocks_per_plane": 128},
    "pcstream-app": {"workload.pattern": "app", "workload.app": "sqlite", "streams.count": 4,
                     "streams.assign": "pcstream", "streams.internal": True, "workload.io_count": 60000,
                     "geometry.blocks_per_plane": 256, "precondition.fill": False, "workload.app.age_fraction": 0.5},
    "lsm-app": {"workload.pattern": "app", "workload.app": "lsm", "workload.io_count": 60000,
                "geometry.blocks_per_plane": 256, "precondition.fill": False, "workload.app.age_fraction": 0.6},
    "superblock": {"ftl.gc_unit": "superblock", "ftl.gc_free_blocks": 4, "workload.read_fraction": 0},
    "superblock-min-invalid": {"ftl.gc_unit": "superblock", "ftl.gc_free_blocks": 6, "ftl.gc_min_invalid": 0.125,
                               "ftl.gc_urgent_free_blocks": 3, "workload.read_fraction": 0},
    "multiplane": {"geometry.planes_per_die": 2, "geometry.blocks_per_plane": 32, "flash.multiplane": "opportunistic"},
    "suspend-read-first": {"flash.suspend": "program_erase", "flash.die_sched": "read_first"},
    "tlc": {"flash.cell": "tlc", "timing.page_read_us": "50,70,110", "timing.page_prog_us": "500,2000,5000"},
    "power-loss": {"fault.power_loss_count": 3, "fault.power_loss_window_ms": 2000, "fault.power_loss_seed": 3},
    "dftl": dict(DEMAND, **{"ftl.mapping": "dftl"}),
    "ptsd": dict(DEMAND, **{"ftl.mapping": "ptsd", "sched.policy": "read_priority"}),
    "ptsd-entry": dict(DEMAND, **{"ftl.mapping": "ptsd_entry", "map.dirty_victim": "greedy"}),
    "dftl-writes-only": dict(DEMAND, **{"ftl.mapping": "dftl", "workload.read_fraction": 0}),
    "dftl-power-loss": dict(DEMAND, **{"ftl.mapping": "dftl", "fault.power_loss_count": 1,
                                        "fault.power_loss_window_ms": 1000, "fault.power_loss_seed": 2}),
    "hexa-protected": {"buffer.policy": "hexa", "map.protected_ratio": 0.05, "buffer.max_age_ms": 100,
                       "workload.read_fraction": 0, "buffer.bytes": "16M"},
    "fifo-protected": {"buffer.policy": "fifo", "map.protected_ratio": 0.05, "workload.read_fraction": 0,
                       "buffer.bytes": "16M"},
    # Feature configurations (issue 46: every mechanism the one-sequencer restructuring touches has a golden).
    "slc-static": {"flash.cell": "tlc", "slc.mode": "static", "slc.static_bytes": "2M", "workload.read_fraction": 0},
    "slc-dynamic": {"flash.cell": "tlc", "slc.mode": "dynamic", "workload.trim_fraction": 0.05},
    "slc-power-loss": {"flash.cell": "tlc", "slc.mode": "dynamic", "fault.power_loss_count": 2,
                       "fault.power_loss_window_ms": 1500, "fault.power_loss_seed": 4},
    "fdp": {"fdp.enabled": True, "workload.dataplacement": "fdp", "workload.plids": "0-3",
            "geometry.blocks_per_plane": 128},
    "fdp-persistent": {"fdp.enabled": True, "fdp.ruhs": 4, "fdp.ruh_type": "persistently_isolated",
                       "workload.dataplacement": "fdp", "workload.plids": "0-3", "geometry.blocks_per_plane": 128},
    "fdp-two-groups": {"fdp.enabled": True, "fdp.ruhs": 2, "fdp.reclaim_groups": 2, "workload.dataplacement": "fdp",
                       "workload.plids": "0-3", "precondition.fill": False, "precondition.drive_writes": 0,
                       "workload.io_count": 60000, "workload.read_fraction": 0},
    "zns": {"zns.enabled": True, "workload.zbd": True, "zns.max_open": 4, "zns.max_active": 4,
            "zns.reset_erase": "lazy", "precondition.fill": False, "precondition.drive_writes": 0},
    "zns-reset-erase": {"zns.enabled": True, "workload.zbd": True, "zns.max_open": 4, "zns.max_active": 4,
                        "zns.reset_erase": "reset", "precondition.fill": False, "precondition.drive_writes": 0},
    "read-reclaim": {"reliability.model": "rber", "reliability.initial_pe_cycles": 3000,
                     "reliability.retention_days": 30, "workload.read_fraction": 0.7},
    "wear-level": {"ftl.wear_level_spread": 4, "workload.address_range": "16M", "workload.read_fraction": 0,
                   "geometry.pages_per_block": 32},
    "trim-power-loss": {"workload.trim_fraction": 0.2, "fault.power_loss_count": 3,
                        "fault.power_loss_window_ms": 1500, "fault.power_loss_seed": 1, "power.protected_bytes": "64k",
                        "map.protected_ratio": 0.05},
    "gc-first-striped": {"ftl.gc_unit": "superblock", "ftl.gc_pacing": "gc_first", "ftl.write_pointer": "striped",
                         "ftl.gc_free_blocks": 4, "ftl.gc_urgent_free_blocks": 2, "workload.read_fraction": 0},
    # Device read-ahead (cache.read_ahead): one sequential stream, a fifth of it writes that drop copies held.
    "read-ahead": {"cache.read_ahead": "sequential", "workload.pattern": "sequential", "workload.block_bytes": "4k",
                   "workload.read_fraction": 0.8, "host.queues": 1, "host.queue_depth": 4},
    # HEXA whose dirty budget never binds (half the map protected, writes on 16 MiB): arrival order, as FIFO.
    "hexa-unbound": {"buffer.policy": "hexa", "map.protected_ratio": 0.5, "workload.address_range": "16M",
                     "precondition.fill": False, "workload.read_fraction": 0, "buffer.bytes": "4M"},
}

# Fields that move with the machine or the build, not with the model's behaviour.
VOLATILE = re.compile(r"(^|\.)(wall_time_s|wall_s|peak_rss_bytes|threads|estimated_bytes|model_bytes|"
                      r"model_bytes_per_logical_page|host_ios_per_wall_s)$|^memory\.")


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        key = prefix + k
        if isinstance(v, dict):
            out.update(flatten(v, key + "."))
        elif not VOLATILE.search(key):
            # Paths inside the checkout are kept relative to it, so any clone or worktree compares equal.
            out[key] = v.replace(str(ROOT), "<repo>") if isinstance(v, str) else v
    return out


def command(bin_dir, name, extra=None):
    """The command line of golden configuration `name` (with the settings `extra` over it), without --out."""
    sets = dict(SMALL, **MATRIX[name])
    sets.update(extra or {})
    args = [str(Path(bin_dir) / "ssdtlm-generic"), "--quiet"]
    for k, v in sets.items():
        args += ["--set", "%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v)]
    return args


def run(bin_dir, name):
    args = command(bin_dir, name)
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        p = subprocess.run(args + ["--out", out], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            return name, None, "exit %d: %s" % (p.returncode, p.stderr.strip()[-400:])
        with open(os.path.join(out, "summary.json")) as f:
            return name, flatten(json.load(f)), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "build" / "bin"))
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    names = [n for n in MATRIX if re.search(a.only, n)]
    if not names:
        print("golden: no configuration matches --only %r" % a.only, file=sys.stderr)
        return 2
    with ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda n: run(a.bin, n), names))
    bad = 0
    for name, got, err in results:
        path = GOLDEN / (name + ".json")
        if err:
            print("FAIL %s: %s" % (name, err))
            bad += 1
            continue
        if a.update:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
            print("wrote %s" % path.relative_to(ROOT))
            continue
        if not path.exists():
            print("FAIL %s: no golden file %s (run with --update on the reference build)" % (name, path))
            bad += 1
            continue
        want = json.loads(path.read_text())
        diffs = ["  %s: golden %r, now %r" % (k, want.get(k, "<absent>"), got.get(k, "<absent>"))
                 for k in sorted(set(want) | set(got)) if want.get(k, "<absent>") != got.get(k, "<absent>")]
        if diffs:
            bad += 1
            print("DIFF %s (%d fields)" % (name, len(diffs)))
            print("\n".join(diffs[:25]))
        else:
            print("ok   %s" % name)
    if not a.update:
        print("golden: %d of %d configurations identical" % (len(results) - bad, len(results)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
