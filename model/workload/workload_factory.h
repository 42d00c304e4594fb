// Builds the configured workload from its parameters (read from workload.* by config/params.cpp).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workload/apps/app_model.h"
#include "workload/filesystem/buffered_io.h"
#include "workload/filesystem/capture_replay.h"
#include "workload/filesystem/ext4_workload.h"
#include "host/io_request.h"
#include "workload/placement/placement_workload.h"
#include "workload/placement/zbd_workload.h"
#include "workload/sync/sync_workload.h"
#include "workload/synthetic/synthetic_workload.h"
#include "workload/trace/trace_fit.h"
#include "workload/trace/trace_reader.h"

namespace ssdtlm {

// One job's workload: workload.* (and sim.seed, precondition.drive_writes) as read once.
struct WorkloadParams {
  std::string pattern = "random";     // workload.pattern: random, sequential, trace or app
  bool jesd219 = false;               // workload.preset=jesd219
  double read_fraction = 0;           // workload.read_fraction
  double trim_fraction = 0;           // workload.trim_fraction
  std::string distribution = "random";  // workload.distribution
  std::string bssplit;                // workload.bssplit
  uint32_t block_bytes = 4096;        // workload.block_bytes
  uint32_t block_align = 0;           // workload.block_align
  uint64_t address_offset = 0;        // workload.address_offset
  uint64_t address_range = 0;         // workload.address_range (0 = to the end of the device)
  uint64_t io_count = 0, io_bytes = 0;  // workload.io_count, workload.io_bytes
  uint64_t zone_range = 0, zone_size = 0, zone_skip = 0;  // workload.zone_*
  uint32_t random_run = 1;            // workload.random_run
  bool random_run_repeat = false;     // workload.random_run_repeat
  int64_t sequential_skip = 0;        // workload.sequential_skip (negative: backwards)
  std::array<uint8_t, 3> percentage_random = {100, 100, 100};  // workload.percentage_random: read, write, trim
  bool random_map = false, scatter = false;                // workload.random_map, workload.scatter
  bool zone_hint = false;             // workload.stream_hint=zone
  double runtime_ms = 0;              // workload.runtime_ms
  uint64_t seed = 0;                  // sim.seed x 2 + workload.seed_offset x 1000003
  JobPacing pacing;                   // workload.start_delay_ms, stonewall, wait_for, exit_what, ramp_ms, runtime_ms, thinktime_*, rate_*
  bool verify = false;                // workload.verify: read back what the job wrote (fio verify)
  SyncParams sync;                    // workload.fsync, workload.fsync_end, workload.write_fua
  bool buffered = false;              // workload.buffered: through the page cache (workload/filesystem/buffered_io.h)
  BufferedParams page_cache;          // workload.dirty_background_bytes, page_cache_max_io_bytes, readahead_bytes
  uint64_t verify_backlog = 0;        // workload.verify_backlog
  bool verify_only = false;           // workload.verify_only: a dry run, then the read-back
  // pattern=trace
  std::string trace_path, trace_format;  // workload.trace_path, trace_format
  TraceFitMode trace_fit = TraceFitMode::Auto;  // workload.trace_fit
  TraceOptions trace;                 // workload.trace_time_scale, trace_lenient, blkparse_event, trace_devno, trace_timing
  CaptureParams capture;              // trace_format=capture: workload.capture_*, fs_checkpoint_commits
  // filesystem=ext4 (workload/filesystem/)
  bool ext4 = false;                  // workload.filesystem=ext4 (none: the raw namespace)
  FsParams fs;                        // workload.fs_commit_ios, fs_checkpoint_commits
  // pattern=app
  AppParams app;                      // workload.app, workload.app.*
  double precondition_drive_writes = 0;  // precondition.drive_writes: an app's layout is written as the precondition
  PlacementParams placement;          // workload.dataplacement, workload.plids, workload.plid_select
  ZbdParams zbd;                      // workload.zbd, workload.zbd_* (and the namespace's zones)
};

// for_precondition: the same address pattern, writes only, endless, with its own seed. The cross-key
// rules are checked before (config/validation.h); a trace that cannot be read or an app layout that does
// not fit is a ConfigError naming its key.
std::unique_ptr<Workload> make_workload(const WorkloadParams& w, uint64_t logical_bytes, bool for_precondition);

// The synthetic workload's spec (workload.pattern random or sequential, or the jesd219 preset).
SyntheticSpec synthetic_spec(const WorkloadParams& w, uint64_t logical_bytes);

// Preconditioning writes for a run: the write patterns of every job, taken in turn (jobs_listed: the
// configuration has a "jobs" array; else `jobs` holds the one job of workload.*).
std::unique_ptr<Workload> make_precondition_workload(const std::vector<WorkloadParams>& jobs, bool jobs_listed,
                                                     uint64_t logical_bytes);

}  // namespace ssdtlm
