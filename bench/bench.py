#!/usr/bin/python3
"""Simulation-speed benchmark of platform `generic` (release build, tracing and integrity checker off).

usage: /usr/bin/python3 bench/bench.py [--ios N] [--growth] [--repeat N] [--only REGEX] [--bin build/bin/ssdtlm-generic]
                                      [--snapshot-tib] [--drive-fill] [--drive-fill-scale N]
                                      [--compare OTHER_BIN]

--compare OTHER_BIN (a build of the base commit, say; --vs is an alias) runs every row with both executables in
turn, alternating which goes first (A B, B A, A B, ...), and prints one line per row: host I/Os per wall second of
each, the speed ratio A/B (the median of the pairs' wall-time ratios B/A), the same ratio of the whole processes'
CPU seconds (preconditioning included; steadier than wall time when other jobs share the cores), activations per
I/O of each and whether
the two summaries are identical apart from the fields that move with the machine (wall times, RSS, threads, memory
estimates: the fields scripts/golden_summaries.py ignores): "identical", "id(+N)" when every field both report is
equal and N fields are reported by one only (a base built before some outputs existed), else "DIFFER". A row OTHER_BIN cannot run (a key it does not know)
prints its error instead. This is the side-by-side comparison a change's speed claim needs (absolute figures move
with the machine and the load of a shared host; ratios from one invocation do not).

Prints, per workload: host I/Os, simulated s, wall s, host I/Os per wall s, NAND ops per wall s, model process
activations per host I/O and per NAND operation, peak RSS and model bytes per logical 4 KiB page; the -dftl and
-ptsd_entry rows run the demand-based mapping schemes with a map cache of 20% of the map (GC moves batched per
victim, map.gc_update=victim; -dftl-gc-page: one cache update per GC page); the rand4g-1g-p1 rows are
seed 000's RAND with 1% of the page map protected and a 1 GiB buffer, FIFO against HEXA (-fwcost: with
the buffer's firmware cost, -ext4: through the ext4-like file system); the -streams8 rows run
randwrite-4k-steady with 9 user streams (streams.count=8): all writes to stream 0 (-single, the cost of the stream
machinery and of sampled lifetimes), by per-LPN write count (-hotcold, threshold 1), and with GC copies classified
the same way (-hotcold-gc); -superblock collects lines over all dies (ftl.gc_unit=superblock), -superblock-striped writes each frontier through
one write pointer over all dies (ftl.write_pointer=striped, FEMU's), -superblock-min-invalid
adds FEMU's two-level trigger (ftl.gc_min_invalid); the mixed-70r30w-4k-* rows turn on flash-side concurrency
(-suspend: program/erase suspend, -read_first: read-first die scheduling, -susp-rf: both, -tlc: TLC page types,
-dram-narrow: a 400 MB/s controller DRAM, -2plane: two-plane dies, -2plane-opp: opportunistic multi-plane);
mixed-70r30w-4k-rber-worn turns the error model on (reliability.model=rber, 3000 P/E, 30 days, read reclaim at 3
retry steps: docs/reference/nand.md), seqwrite-128k-slc-dynamic and mixed-70r30w-4k-slc-dynamic run a TLC drive with a dynamic
SLC cache; randwrite-4k-steady-wl8 adds static wear levelling (ftl.wear_level_spread=8); randwrite-4k-checked is
randwrite-4k-steady with the integrity checker on; mixed-70r30w-4k-checked runs it with the integrity checker on and
-powerloss20 adds 20 power losses with their
recoveries (docs/reference/power_loss.md) in its first 2 simulated seconds; the trace-8pc-streams8-* rows replay a generated CSV
trace of 8 program contexts with different data lifetimes (pc_trace) on a filled drive with 9 user streams, all to
stream 0 (-single) or by PCStream (-pcstream); app-lsm and app-gcc run the application models
(workload.pattern=app, docs/reference/apps.md) on the drive aged to 90% (app-tpcc: TPC-C's files on 75 %, no aging), app-*-streams8-single|pcstream the same with 9 user
streams; randwrite-4k-steady-budget4w runs it under a 4 W power budget
(-budget100w: a budget that never binds, the same simulated work: the cost of the gate)
and seqwrite-128k-thermal with the thermal model and APST (docs/reference/power.md; energy is counted in every row, so its
cost shows with --vs against a build without it); app-gcc-aged-pcstream[-discard] gcc with PCStream on seed 002's aged and warmed-up drive (without / with TRIM); randwrite-4k-fdp8 is randwrite-4k-steady on FDP with 8 persistently isolated RUHs, the writes round robin
over them, and seqwrite-128k-zns the drive zoned, fio's zonemode=zbd writing whole zones (docs/reference/placement.md);
mixed-70r30w-4k-pctrand50 makes half its random offsets sequential (fio's percentage_random) and flow-1r-3w-4k runs
a reading and a writing job kept at 1:3 of the I/Os by fio's flow control (bench/flow_jobs.json, docs/guides/fio.md);
capture-8pc-pcstream replays a generated ssdtlm-capture file (capture_file) through the file system (docs/results/real_apps.md);
app-cache-fdp2 the CacheLib-like flash cache on 90 % of the drive, its two engines in two FDP RUHs, and app-lsm-zns the
lsm on the zoned drive, ZenFS-like (zone per lifetime class, resets, host zone GC).
randread-4k-register and randwrite-4k-steady-register run on the register-level interface (nvme.interface=register);
the four -lt rows (randread-4k, randwrite-4k-steady and their -register rows) run loosely timed (sim.timing=lt), under
--compare on A only: A's LT beside B's AT in one invocation, the results column giving LT's IOPS, WAF and mean latency
against AT's (docs/reference/timing_modes.md). mixed-70r30w-4k-converge runs mixed-70r30w-4k with sim.converge=report
(the batch-means monitor's cost: the same simulated work), under --compare on A only, as the -lt rows. seqread-4k reads
the filled drive sequentially, 4 KiB at QD1; seqread-4k-readahead the same with device read-ahead
(cache.read_ahead=sequential), under --compare on A only, its results column as the -lt rows'.
streams. --only REGEX runs only the
rows whose name matches (and skips the precondition tables). Then the fast-forward precondition on
all hardware threads and on one: logical 4 KiB page writes, host flash-page writes and NAND page programs (with GC)
per wall second, for the sequential fill, fill plus 2 drive-writes of random overwrite, and the random phase alone;
then the preconditioned-drive snapshot table (--only snapshot runs it alone): the 16 GiB drive (fill + 2 drive-writes)
preconditioned and saved, then loaded: seconds to precondition, save and load, the file's size, and whether the two
runs' summaries are identical (--snapshot-tib adds the 1 TiB drive). --growth adds the cost-growth table
(100k / 1M / 10M I/Os; queue depth 1, 32, 256, 1024) for 4 KiB random writes. --drive-fill adds (and --only drive-fill
runs) the whole-drive fill of the 1 TB drive platforms at full scale on one core (bench/drive_fill.py, issue 40).
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from golden_summaries import flatten  # noqa: E402  (the results-identity comparison's field filter)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_inputs import capture_file, pc_trace  # noqa: E402  (the trace rows' generated inputs)
import drive_fill  # noqa: E402  (the opt-in whole-drive fill rows)
import pairs  # noqa: E402  (alternating pairs of runs)

BASE = ["--set", "check.integrity=false", "--set", "geometry.over_provisioning=0.25", "--set", "ftl.gc_victim=greedy"]

WORKLOADS = {
    "randwrite-4k-steady": ["--set", "workload.read_fraction=0", "--set", "host.queues=8", "--set", "host.queue_depth=8",
                            "--set", "precondition.drive_writes=1"],
    "randread-4k": ["--set", "workload.read_fraction=1", "--set", "host.queues=8", "--set", "host.queue_depth=8",
                    "--set", "precondition.drive_writes=0"],
    "mixed-70r30w-4k": ["--set", "workload.read_fraction=0.7", "--set", "host.queues=8", "--set", "host.queue_depth=8",
                        "--set", "precondition.drive_writes=1"],
    "seqwrite-128k": ["--set", "workload.pattern=sequential", "--set", "workload.block_bytes=131072",
                      "--set", "precondition.fill=false", "--set", "precondition.drive_writes=0"],
}
# Demand-based mapping: the map cache holds 20% of the 16 MiB map (16 GiB logical, 4-byte entries).
MAP_CACHE = ["--set", "map.cache_bytes=%d" % (16 * 2**20 // 5)]
# Seed 000: 1 % of the page map protected, 4 KiB random writes on a 4 GiB area, a 1 GiB buffer, FIFO and HEXA.
for policy in ("fifo", "hexa"):
    WORKLOADS["rand4g-1g-p1-" + policy] = [
        "--set", "workload.read_fraction=0", "--set", "host.queues=4", "--set", "host.queue_depth=32",
        "--set", "workload.address_range=4294967296", "--set", "precondition.fill=false",
        "--set", "precondition.drive_writes=1", "--set", "map.protected_ratio=0.01",
        "--set", "buffer.bytes=1073741824", "--set", "buffer.policy=" + policy, "--set", "buffer.max_age_ms=10000"]
# Issue 25: the same with the buffer's firmware cost (20 ns per step), and through the ext4-like file system.
WORKLOADS["rand4g-1g-p1-hexa-fwcost"] = WORKLOADS["rand4g-1g-p1-hexa"] + ["--set", "firmware.buffer_step_ns=20"]
WORKLOADS["rand4g-1g-p1-hexa-ext4"] = WORKLOADS["rand4g-1g-p1-hexa"] + ["--set", "workload.filesystem=ext4"]
# Stream separation: 9 user streams; the same workload as randwrite-4k-steady.
STREAMS8 = ["--set", "streams.count=8", "--set", "streams.hot_threshold=1"]
WORKLOADS["randwrite-4k-streams8-single"] = WORKLOADS["randwrite-4k-steady"] + STREAMS8 + ["--set", "streams.assign=single"]
WORKLOADS["randwrite-4k-streams8-hotcold"] = WORKLOADS["randwrite-4k-steady"] + STREAMS8 + ["--set", "streams.assign=hotcold"]
WORKLOADS["randwrite-4k-streams8-hotcold-gc"] = WORKLOADS["randwrite-4k-streams8-hotcold"] + ["--set", "streams.gc_stream=hotcold"]
# Superblock GC (lines over all 64 dies), and with FEMU's two-level GC trigger.
WORKLOADS["randwrite-4k-superblock"] = WORKLOADS["randwrite-4k-steady"] + ["--set", "ftl.gc_unit=superblock",
                                                                           "--set", "ftl.gc_free_blocks=4"]
WORKLOADS["randwrite-4k-superblock-striped"] = WORKLOADS["randwrite-4k-superblock"] + ["--set", "ftl.write_pointer=striped"]
WORKLOADS["randwrite-4k-superblock-min-invalid"] = WORKLOADS["randwrite-4k-superblock"] + [
    "--set", "ftl.gc_free_blocks=8", "--set", "ftl.gc_min_invalid=0.125", "--set", "ftl.gc_urgent_free_blocks=4"]
for scheme in ("dftl", "ptsd_entry"):
    WORKLOADS["randwrite-4k-" + scheme] = WORKLOADS["randwrite-4k-steady"] + ["--set", "ftl.mapping=" + scheme] + MAP_CACHE
    WORKLOADS["randread-4k-" + scheme] = WORKLOADS["randread-4k"] + ["--set", "ftl.mapping=" + scheme] + MAP_CACHE
# GC moves through the map cache a GC page at a time (map.gc_update=page) instead of DFTL's per-victim batch update.
WORKLOADS["randwrite-4k-dftl-gc-page"] = WORKLOADS["randwrite-4k-dftl"] + ["--set", "map.gc_update=page"]
# Flash-side concurrency (docs/reference/hardware.md), each on mixed-70r30w-4k: program/erase suspend, read_first die
# scheduling, both, and TLC page types.
MIXED = WORKLOADS["mixed-70r30w-4k"]
WORKLOADS["mixed-70r30w-4k-suspend"] = MIXED + ["--set", "flash.suspend=program_erase"]
WORKLOADS["mixed-70r30w-4k-read_first"] = MIXED + ["--set", "flash.die_sched=read_first"]
WORKLOADS["mixed-70r30w-4k-susp-rf"] = MIXED + ["--set", "flash.suspend=program_erase", "--set", "flash.die_sched=read_first"]
WORKLOADS["mixed-70r30w-4k-tlc"] = MIXED + ["--set", "flash.cell=tlc", "--set", "timing.page_read_us=50,70,110",
                                            "--set", "timing.page_prog_us=500,2000,5000"]
# The integrity checker's cost (check.integrity, on by default outside bench.py) on the steady random write.
WORKLOADS["randwrite-4k-checked"] = WORKLOADS["randwrite-4k-steady"] + ["--set", "check.integrity=true"]
# Power loss (docs/reference/power_loss.md): needs the integrity checker, so its reference row has it on too.
WORKLOADS["mixed-70r30w-4k-checked"] = MIXED + ["--set", "check.integrity=true"]
# NAND behaviour beyond fixed times (docs/reference/nand.md): the error model on a worn (3000 P/E), aged (30 days) drive with
# read reclaim, and TLC with a dynamic SLC cache on sequential and mixed work.
WORKLOADS["mixed-70r30w-4k-rber-worn"] = MIXED + ["--set", "reliability.model=rber", "--set",
                                                  "reliability.initial_pe_cycles=3000", "--set",
                                                  "reliability.retention_days=30", "--set",
                                                  "reliability.reclaim_retry_steps=3"]
SLC_TLC = ["--set", "flash.cell=tlc", "--set", "geometry.pages_per_block=255", "--set", "timing.page_read_us=50,70,110",
           "--set", "timing.page_prog_us=500,2000,5000", "--set", "slc.mode=dynamic"]
WORKLOADS["seqwrite-128k-slc-dynamic"] = WORKLOADS["seqwrite-128k"] + SLC_TLC
WORKLOADS["mixed-70r30w-4k-slc-dynamic"] = MIXED + SLC_TLC
# Static wear levelling (ftl.wear_level_spread=8) in steady-state random writes: the cost of the erase-count order.
WORKLOADS["randwrite-4k-steady-wl8"] = WORKLOADS["randwrite-4k-steady"] + ["--set", "ftl.wear_level_spread=8"]
WORKLOADS["mixed-70r30w-4k-powerloss20"] = WORKLOADS["mixed-70r30w-4k-checked"] + [
    "--set", "fault.power_loss_count=20", "--set", "fault.power_loss_window_ms=2000"]
# Controller DRAM (on in every row; a narrow one here makes it the bottleneck) and multi-plane operations on
# two-plane dies (the same capacity: half the blocks per plane), always against opportunistic with any pages.
WORKLOADS["mixed-70r30w-4k-dram-narrow"] = MIXED + ["--set", "dram.mts=400", "--set", "dram.width_bytes=1"]
TWO_PLANES = ["--set", "geometry.planes_per_die=2", "--set", "geometry.blocks_per_plane=80"]
WORKLOADS["mixed-70r30w-4k-2plane"] = MIXED + TWO_PLANES
WORKLOADS["mixed-70r30w-4k-2plane-opp"] = MIXED + TWO_PLANES + ["--set", "flash.multiplane=opportunistic",
                                                                "--set", "flash.plane_rule=any"]
# FDP (docs/reference/placement.md): 8 reclaim unit handles, the writes round robin over them, persistently isolated (a GC
# stream per RUH); the same workload as randwrite-4k-steady.
WORKLOADS["randwrite-4k-fdp8"] = WORKLOADS["randwrite-4k-steady"] + [
    "--set", "fdp.enabled=true", "--set", "fdp.ruh_type=persistently_isolated", "--set", "workload.dataplacement=fdp"]
# ZNS (docs/reference/placement.md): the generic drive zoned (128 MiB zones over all dies), fio's zonemode=zbd with 128 KiB
# sequential writes: every zone written whole, reset before it is written again.
WORKLOADS["seqwrite-128k-zns"] = ["--set", "zns.enabled=true", "--set", "workload.zbd=true", "--set", "workload.pattern=sequential",
                                  "--set", "workload.block_bytes=131072", "--set", "host.queues=4", "--set", "host.queue_depth=8"]
# Power (docs/reference/power.md): energy is counted in every row; these add the budget (4 W: about 30 of the 64 dies
# programming at once) and the thermal model with APST (throttling through the budget, per sampler interval).
WORKLOADS["randwrite-4k-steady-budget4w"] = WORKLOADS["randwrite-4k-steady"] + ["--set", "power.budget_w=4"]
# A budget that never binds (100 W): the same simulated work as randwrite-4k-steady, the cost of the gate alone.
WORKLOADS["randwrite-4k-steady-budget100w"] = WORKLOADS["randwrite-4k-steady"] + ["--set", "power.budget_w=100"]
WORKLOADS["seqwrite-128k-thermal"] = WORKLOADS["seqwrite-128k"] + [
    "--set", "thermal.enabled=true", "--set", "power.apst=true", "--set", "stats.interval_ms=1"]
# PCStream (seed 002) on a CSV trace with program contexts (pc_trace): 9 user streams, all writes to stream 0
# against PCs clustered by lifetime; the drive is filled first (sequential fill only).
PC_TRACE = "@PC_TRACE@"
PCS8 = ["--set", "workload.pattern=trace", "--set", "workload.trace_format=csv", "--set", "workload.trace_path=" + PC_TRACE,
        "--set", "precondition.drive_writes=0", "--set", "host.queues=8", "--set", "host.queue_depth=8",
        "--set", "streams.count=8"]
WORKLOADS["trace-8pc-streams8-single"] = PCS8 + ["--set", "streams.assign=single"]
WORKLOADS["trace-8pc-streams8-pcstream"] = PCS8 + ["--set", "streams.assign=pcstream"]
# A capture replayed through the file system (issue 41, docs/results/real_apps.md): capture_file's generated ssdtlm-capture
# file, 8 files, random 4 KiB pwrite/pread, an fsync every 64 writes, 8 program contexts; dirty_only page cache so
# every read of written data reaches the drive; PCStream.
CAP_TRACE = "@CAP_TRACE@"
WORKLOADS["capture-8pc-pcstream"] = ["--set", "workload.pattern=trace", "--set", "workload.trace_format=capture",
                                     "--set", "workload.trace_path=" + CAP_TRACE, "--set", "precondition.drive_writes=0",
                                     "--set", "workload.capture_page_cache=dirty_only", "--set", "streams.count=8",
                                     "--set", "streams.assign=pcstream"]

# Application models (docs/reference/apps.md): the drive aged to 90% by the precondition, then the RocksDB-like store
# and the kernel builds (which end after their 30 builds, about 0.66 M requests), single stream.
APP = ["--set", "workload.pattern=app", "--set", "precondition.fill=false", "--set", "precondition.drive_writes=1",
       "--set", "host.queues=8", "--set", "host.queue_depth=8"]
WORKLOADS["app-lsm"] = APP + ["--set", "workload.app=lsm"]
WORKLOADS["app-gcc"] = APP + ["--set", "workload.app=gcc"]
# TPC-C on the InnoDB-like model (seed 000's TPC-C: its files fill 75 % of the drive, no aging).
WORKLOADS["app-tpcc"] = APP + ["--set", "workload.app=tpcc", "--set", "workload.app.age_fraction=0",
                               "--set", "workload.app.tpcc_db_fraction=0.75"]
# Placement-aware apps (docs/reference/placement.md): the CacheLib-like flash cache on 90 % of the drive with its two engines
# in two FDP RUHs; the lsm on the drive zoned (ZenFS-like: a zone per lifetime class, resets, host zone GC), one
# queue so that a zone's writes arrive in order.
WORKLOADS["app-cache-fdp2"] = APP + ["--set", "workload.app=cache", "--set", "workload.app.age_fraction=0",
                                     "--set", "fdp.enabled=true", "--set", "fdp.ruhs=2", "--set", "workload.app.placement=fdp"]
WORKLOADS["app-lsm-zns"] = APP + ["--set", "workload.app=lsm", "--set", "workload.app.age_fraction=0",
                                  "--set", "workload.app.lsm_db_fraction=0.45", "--set", "zns.enabled=true",
                                  "--set", "workload.app.placement=zns", "--set", "host.queues=1", "--set", "host.queue_depth=32"]
# The same with 8 user streams: PCStream (per-unit lifetime records, the PC-stream table) against all to stream 0.
for _app in ("lsm", "gcc"):
    for _pol in ("single", "pcstream"):
        WORKLOADS["app-%s-streams8-%s" % (_app, _pol)] = APP + ["--set", "workload.app=" + _app, "--set", "streams.count=8",
                                                                "--set", "streams.assign=" + _pol]
# Seed 002's device state (docs/reference/streams.md): aging by churn and 2 drive writes of warm-up in the fast-forward, then
# PCStream; -discard: the same with TRIM on delete, so the fast-forward applies the aging's and the app's trims.
AGED = ["--set", "streams.count=8", "--set", "streams.assign=pcstream", "--set", "workload.app=gcc",
        "--set", "workload.app.age_churn=2", "--set", "workload.app.warmup_drive_writes=2",
        "--set", "workload.app.allocation=spread"]
WORKLOADS["app-gcc-aged-pcstream"] = APP + AGED + ["--set", "workload.app.trim=false", "--set", "precondition.fill=true"]
WORKLOADS["app-gcc-aged-pcstream-discard"] = APP + AGED
# fio's percentage_random (half the random offsets sequential) and flow (two jobs kept 1:3 by host/job_flow.h)
WORKLOADS["mixed-70r30w-4k-pctrand50"] = WORKLOADS["mixed-70r30w-4k"] + ["--set", "workload.percentage_random=50"]
WORKLOADS["flow-1r-3w-4k"] = ["--config", os.path.join(os.path.dirname(os.path.abspath(__file__)), "flow_jobs.json"),
                              "--set", "precondition.drive_writes=1"]
# Timing modes (docs/reference/timing_modes.md): the random read and write on the register-level interface
# (nvme.interface=register), approximately timed (the reference) and loosely timed (sim.timing=lt at the default
# sim.quantum_ns), and loosely timed on the command interface. A row in LT_ROWS adds sim.timing=lt to A only under
# --compare, so `--compare` puts LT beside AT in one invocation: against the base build's AT (--compare BASE), or
# against the same build's (--compare NEW); its results column gives LT's IOPS, WAF and mean latency against AT.
REGISTER = ["--set", "nvme.interface=register"]
WORKLOADS["randread-4k-register"] = WORKLOADS["randread-4k"] + REGISTER
WORKLOADS["randwrite-4k-steady-register"] = WORKLOADS["randwrite-4k-steady"] + REGISTER
LT = ["--set", "sim.timing=lt"]
LT_ROWS = {}
for _row in ("randread-4k", "randwrite-4k-steady", "randread-4k-register", "randwrite-4k-steady-register"):
    WORKLOADS[_row + "-lt"] = WORKLOADS[_row]
    LT_ROWS[_row + "-lt"] = LT
# sim.converge=report: the batch-means monitor told every completion (docs/guides/studies.md, Converging points),
# added to A only under --compare like the LT rows: the monitor's cost beside a run without it (a base built before
# the key existed runs the row too); the results column compares the summaries as for any row.
CONVERGE_ROWS = {"mixed-70r30w-4k-converge": ["--set", "sim.converge=report"]}
WORKLOADS["mixed-70r30w-4k-converge"] = WORKLOADS["mixed-70r30w-4k"]
# Device read-ahead (cache.read_ahead, model/controller/read_ahead/): 4 KiB sequential reads at QD1 on the filled drive
# (seqread-4k), and with read-ahead on A only under --compare (a base built before the key existed runs the plain
# row): the results column gives A's IOPS and mean latency against B's without it, as for the -lt rows.
WORKLOADS["seqread-4k"] = ["--set", "workload.pattern=sequential", "--set", "workload.read_fraction=1",
                           "--set", "host.queues=1", "--set", "host.queue_depth=1", "--set", "precondition.drive_writes=0"]
READ_AHEAD_ROWS = {"seqread-4k-readahead": ["--set", "cache.read_ahead=sequential"]}
WORKLOADS["seqread-4k-readahead"] = WORKLOADS["seqread-4k"]
A_ONLY_ROWS = {**LT_ROWS, **CONVERGE_ROWS, **READ_AHEAD_ROWS}  # arguments A runs with and B (under --compare) does not


REPEAT = 1


CPU = "bench_process_cpu_s"  # added to each summary by run_once


class RunError(Exception):
    pass


def run_once(binary, args, ios):
    with tempfile.TemporaryDirectory() as out:
        cmd = [binary, "--quiet", "--out", out] + BASE + args + ["--set", "workload.io_count=%d" % ios]
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            err = (p.stderr.strip().splitlines() or ["?"])[-1]
            raise RunError("%s exit %d: %s" % (os.path.basename(binary), p.returncode, err[:160]))
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
        # CPU seconds of the whole process (preconditioning included): on a loaded machine a steadier measure
        # than wall time, which counts the time other processes held the cores.
        s[CPU] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return s


def run(binary, args, ios):
    """The run with the median wall time of REPEAT runs (wall times on a shared machine vary by +-20%)."""
    runs = sorted((run_once(binary, args, ios) for _ in range(REPEAT)), key=lambda s: s["wall_time_s"])
    return runs[len(runs) // 2]


def run_pairs(binary, other, args, ios, wall=lambda s: s["wall_time_s"], a_only=()):
    """REPEAT pairs, the first in the order A B, the next B A, and so on. Returns the median runs of each, the
    median of the pairs' speed ratios A/B (wall time of B over wall time of A) and the same for process CPU.
    `a_only`: arguments A runs with and B does not (LT_ROWS)."""
    a_args = list(args) + list(a_only)
    return pairs.alternate(lambda: run_once(binary, a_args, ios), lambda: run_once(other, args, ios), REPEAT, wall,
                           lambda s: s[CPU])


def same_results(x, y):
    """Whether two summaries are identical apart from the fields that move with the machine."""
    strip = lambda s: {k: v for k, v in flatten(s).items() if k != CPU}
    return strip(x) == strip(y)


def results_label(x, y):
    """'identical'; 'id(+N)' when every field both summaries have is equal and N fields are in one only (a build
    that reports more than the other, e.g. a base from before some outputs were added); else 'DIFFER'."""
    if same_results(x, y):
        return "identical"
    a, b = flatten(x), flatten(y)
    shared = (set(a) & set(b)) - {CPU}
    if all(a[k] == b[k] for k in shared):
        return "id(+%d)" % len(set(a) ^ set(b))
    return "DIFFER"


COMPARE_HEADER = "%-34s %12s %12s %7s %7s %8s %8s %9s" % (
    "workload", "A I/Os/wall s", "B I/Os/wall s", "A/B", "cpu A/B", "A act/IO", "B act/IO", "results")


def timing_label(x, y):
    """A row whose A changes the results (an LT row against AT, read-ahead against none): IOPS, WAF and mean latency
    (reads and writes together) of A relative to B, percent."""
    rel = lambda a, b: 100.0 * (a - b) / b if b else 0.0
    lat = lambda s: sum(s["host"]["latency_us"][d]["mean"] * s["host"]["latency_us"][d]["count"] for d in ("read", "write")) / \
        max(1, sum(s["host"]["latency_us"][d]["count"] for d in ("read", "write")))
    return "iops %+.2f%% waf %+.2f%% lat %+.2f%%" % (rel(x["host"]["iops"], y["host"]["iops"]),
                                                     rel(x["waf"]["total"], y["waf"]["total"]), rel(lat(x), lat(y)))


def compare_row(name, binary, other, args, ios):
    """A/B: the median pair ratio of wall times of the request phase (B over A: > 1 when A is faster); cpu A/B the
    same for the whole processes' CPU seconds (preconditioning included). An LT_ROWS row runs A loosely timed."""
    a_only = A_ONLY_ROWS.get(name, ())
    try:
        mine, theirs, ratio, cpu_ratio = run_pairs(binary, other, args, ios, a_only=a_only)
    except RunError as e:
        return "%-34s %s" % (name, e)
    return "%-34s %12.0f %12.0f %7.3f %7.3f %8.2f %8.2f %9s" % (
        name, mine["host"]["ios"] / mine["wall_time_s"], theirs["host"]["ios"] / theirs["wall_time_s"], ratio,
        cpu_ratio, mine["kernel"]["activations_per_io"], theirs["kernel"]["activations_per_io"],
        timing_label(mine, theirs) if name in LT_ROWS or name in READ_AHEAD_ROWS else results_label(mine, theirs))


def row(name, s):
    n = s["nand"]
    nand_ops = sum(n["programs"].values()) + sum(n["reads"].values()) + n["erases"]
    wall = s["wall_time_s"]
    return "%-24s %10d %9.3f %8.2f %12.0f %12.0f %8.2f %9.2f %9.0f %8.2f" % (
        name, s["host"]["ios"], s["sim_time_s"], wall, s["host"]["ios"] / wall, nand_ops / wall,
        s["kernel"]["activations_per_io"], s["kernel"]["activations"] / max(1, nand_ops),
        s["memory"]["peak_rss_bytes"] / 2**20, s["memory"]["model_bytes_per_logical_page"])


HEADER = "%-24s %10s %9s %8s %12s %12s %8s %9s %9s %8s" % ("workload", "host I/Os", "sim s", "wall s", "I/Os/wall s",
                                                            "NAND/wall s", "act/IO", "act/NAND", "RSS MiB", "B/page")


def compare_tails(a):
    """--compare: the precondition and cost-growth tables side by side."""
    print("\nfast-forward precondition, A/B (logical 4 KiB pages per wall s; the ratio is of precondition wall times)")
    print("%-34s %8s %16s %16s %7s" % ("run", "threads", "A pages/s", "B pages/s", "A/B"))
    pre = lambda s: s["precondition"]["wall_time_s"]
    for threads in (0, 1):
        for name, dw in (("sequential fill", 0), ("fill + 2 drive-writes random", 2)):
            args = ["--set", "precondition.drive_writes=%d" % dw, "--set", "precondition.threads=%d" % threads]
            mine, theirs, ratio, _ = run_pairs(a.bin, a.compare, args, 1000, wall=pre)
            units = mine["precondition"]["units_written"]
            print("%-34s %8d %16.0f %16.0f %7.3f" % (name, mine["precondition"]["threads"], units / pre(mine),
                                                     units / pre(theirs), ratio), flush=True)
    if a.growth:
        print("\ncost growth, 4 KiB random write steady state")
        print(COMPARE_HEADER)
        for ios in (100000, 1000000, 10000000):
            print(compare_row("ios=%d" % ios, a.bin, a.compare, WORKLOADS["randwrite-4k-steady"], ios), flush=True)
        for qd in (1, 32, 256, 1024):
            args = WORKLOADS["randwrite-4k-steady"] + ["--set", "host.queues=1", "--set", "host.queue_depth=%d" % qd]
            print(compare_row("qd=%d" % qd, a.bin, a.compare, args, a.ios), flush=True)


# Preconditioned-drive snapshots (precondition.snapshot_dir): the generic drive (16 GiB) and, with --snapshot-tib,
# the 1 TiB drive of the memory figures (16 x 16 dies, 2,560 blocks a plane), filled then 2 (1 TiB: 0.25)
# drive-writes of random overwrite.
SNAPSHOT_DRIVES = {
    "16 GiB, fill + 2 DW": ["--set", "precondition.drive_writes=2"],
    "1 TiB, fill + 0.25 DW": ["--set", "geometry.channels=16", "--set", "geometry.dies_per_channel=16",
                              "--set", "geometry.blocks_per_plane=2560", "--set", "precondition.drive_writes=0.25"],
}


def snapshot_rows(binary, tib):
    """Per drive: the run that preconditions and saves the snapshot, then the run that loads it: precondition,
    save and load wall seconds, their CPU seconds (the process's, steadier on a busy machine), the file's size and
    whether the two runs' summaries are identical."""
    print("\npreconditioned-drive snapshot (precondition.snapshot_dir; precondition.threads=0)")
    print("%-24s %14s %8s %8s %9s %9s %10s %9s" % ("drive", "precondition s", "save s", "load s", "save cpu",
                                                   "load cpu", "file MiB", "results"))
    for name, args in SNAPSHOT_DRIVES.items():
        if "TiB" in name and not tib:
            continue
        with tempfile.TemporaryDirectory(dir=os.environ.get("SSDTLM_SNAPSHOT_BENCH_DIR")) as d:
            sets = args + ["--set", "precondition.threads=0", "--set", "precondition.snapshot_dir=" + d]
            try:
                saved = run_once(binary, sets, 1000)
                loaded = run_once(binary, sets, 1000)
            except RunError as e:
                print("%-24s %s" % (name, e))
                continue
            s, l = saved["precondition"]["snapshot"], loaded["precondition"]["snapshot"]
            strip = lambda x: {k: v for k, v in x.items() if k != "snapshot"}
            same = same_results(dict(saved, precondition=strip(saved["precondition"])),
                                dict(loaded, precondition=strip(loaded["precondition"])))
            print("%-24s %14.2f %8.2f %8.2f %9.2f %9.2f %10.0f %9s" % (
                name, saved["precondition"]["wall_time_s"], s["wall_time_s"], l["wall_time_s"], s.get("cpu_s", 0),
                l.get("cpu_s", 0), s["bytes"] / 2**20, "identical" if same else "DIFFER"), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ios", type=int, default=1000000)
    ap.add_argument("--growth", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure; the median is printed")
    ap.add_argument("--only", default="", help="run only the workload rows matching this regular expression")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "ssdtlm-generic"))
    ap.add_argument("--snapshot-tib", action="store_true", help="add the 1 TiB drive to the snapshot table "
                    "(about 3.5 GB of disk and 3 GB of memory; $SSDTLM_SNAPSHOT_BENCH_DIR: where the file goes)")
    ap.add_argument("--drive-fill", action="store_true", help="add the whole-drive fill rows (bench/drive_fill.py; "
                    "a few minutes and about 4.5 GB of memory per drive)")
    ap.add_argument("--drive-fill-scale", type=int, default=1, help="the fill rows' capacity divisor (1: the whole drive)")
    ap.add_argument("--compare", "--vs", dest="compare", default="",
                    help="a second executable (e.g. a build of the base commit): every row side by side, A/B ratio")
    a = ap.parse_args()
    if a.drive_fill_scale < 1:
        print("bench.py: --drive-fill-scale must be >= 1", file=sys.stderr)
        return 2
    global REPEAT
    REPEAT = max(1, a.repeat)
    fills = lambda: drive_fill.table(drive_fill.selected(a.only, a.drive_fill), a.bin, a.compare, a.drive_fill_scale,
                                     REPEAT, results_label)
    if a.compare:
        print("A = %s, B = %s; %d alternating pair(s) per row" % (a.bin, a.compare, REPEAT))
    if not a.only or any(re.search(a.only, name) for name in WORKLOADS):
        print(COMPARE_HEADER if a.compare else HEADER)
    tmp = tempfile.TemporaryDirectory()
    trace = None
    for name, args in WORKLOADS.items():
        if a.only and not re.search(a.only, name):
            continue
        if any(PC_TRACE in x for x in args):
            if trace is None:
                trace = os.path.join(tmp.name, "pc_trace.csv")
                pc_trace(trace, a.ios)
            args = [x.replace(PC_TRACE, trace) for x in args]
        if any(CAP_TRACE in x for x in args):
            cap = os.path.join(tmp.name, "bench.cap")
            if not os.path.exists(cap):
                capture_file(cap, a.ios)
            args = [x.replace(CAP_TRACE, cap) for x in args]
        if a.compare:
            print(compare_row(name, a.bin, a.compare, args, a.ios), flush=True)
        else:
            print(row(name, run(a.bin, args + A_ONLY_ROWS.get(name, []), a.ios)), flush=True)
    if a.only:
        if re.search(a.only, "snapshot"):
            snapshot_rows(a.bin, a.snapshot_tib)
        fills()
        return 0
    if a.compare:
        compare_tails(a)
        fills()
        return 0
    print("\nfast-forward precondition (16 GiB logical, OP 25 %, greedy; a logical page is one 4 KiB unit)")
    print("%-34s %8s %10s %8s %16s %16s %18s" % ("run", "threads", "units", "wall s", "logical pages/s",
                                                 "flash pages/s", "NAND programs/s"))
    for threads in (0, 1):
        fill = run(a.bin, ["--set", "precondition.drive_writes=0", "--set", "precondition.threads=%d" % threads],
                   1000)["precondition"]
        both = run(a.bin, ["--set", "precondition.drive_writes=2", "--set", "precondition.threads=%d" % threads],
                   1000)
        upp = both["geometry"]["units_per_page"]
        full = both["precondition"]
        # The random phase alone: the difference of the two runs (fill + 2 drive-writes, fill only).
        rand_units = full["units_written"] - fill["units_written"]
        rand_wall = full["wall_time_s"] - fill["wall_time_s"]
        rand_progs = full["nand_programs"] - fill["nand_programs"]
        for name, units, wall, progs in (("sequential fill", fill["units_written"], fill["wall_time_s"],
                                          fill["nand_programs"]),
                                         ("fill + 2 drive-writes random", full["units_written"], full["wall_time_s"],
                                          full["nand_programs"]),
                                         ("  of which random overwrite", rand_units, rand_wall, rand_progs)):
            print("%-34s %8d %10d %8.2f %16.0f %16.0f %18.0f" % (
                name, full["threads"], units, wall, units / wall, units / upp / wall, progs / wall), flush=True)
    snapshot_rows(a.bin, a.snapshot_tib)
    fills()
    if a.growth:
        print("\ncost growth, 4 KiB random write steady state")
        print(HEADER)
        for ios in (100000, 1000000, 10000000):
            print(row("ios=%d" % ios, run(a.bin, WORKLOADS["randwrite-4k-steady"], ios)), flush=True)
        for qd in (1, 32, 256, 1024):
            args = WORKLOADS["randwrite-4k-steady"] + ["--set", "host.queues=1", "--set", "host.queue_depth=%d" % qd]
            print(row("qd=%d" % qd, run(a.bin, args, a.ios)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
