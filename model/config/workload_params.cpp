// Reads workload.* (one job's view: config.job_config) into WorkloadParams, and builds a workload from a
// configuration for tests and tools.
#include <cmath>

#include "common/input_file.h"
#include "config/choices.h"
#include "config/params.h"
#include "config/placement_params.h"
#include "config/validation.h"

namespace ssdtlm {

namespace {
uint64_t workload_seed(const Config& c) { return uint64_t(c.i("sim.seed")) * 2 + c.u("workload.seed_offset") * 1000003; }

JobPacing read_pacing(const Config& c) {
  auto ns = [](double v) { return uint64_t(std::llround(v)); };
  JobPacing p;
  p.start_delay_ns = ns(c.d("workload.start_delay_ms") * 1e6);
  p.stonewall = c.b("workload.stonewall");
  p.wait_for = c.s("workload.wait_for");
  p.exit_what = parse_choice(choices::kWorkloadExitWhat, c, "workload.exit_what");
  p.ramp_ns = ns(c.d("workload.ramp_ms") * 1e6);
  p.runtime_ns = ns(c.d("workload.runtime_ms") * 1e6);
  p.think_ns = ns(c.d("workload.thinktime_us") * 1e3);
  p.think_blocks = uint32_t(c.i("workload.thinktime_blocks"));
  p.rate_iops = c.d("workload.rate_iops");
  p.rate_bytes_per_s = c.d("workload.rate_mbps") * 1e6;
  p.poisson = parse_choice(choices::kWorkloadRateProcess, c, "workload.rate_process");
  p.arrival_seed = workload_seed(c) * 31 + 7;
  p.bw_avg_ns = ns(c.d("workload.bw_avg_ms") * 1e6);
  p.iops_avg_ns = ns(c.d("workload.iops_avg_ms") * 1e6);
  try {
    p.ss = parse_steady_state(c.s("workload.ss"));
  } catch (const std::invalid_argument& e) {
    throw ConfigError("workload.ss: " + std::string(e.what()));
  }
  p.ss.dur_ms = uint64_t(std::llround(c.d("workload.ss_dur_ms")));
  p.ss.ramp_ms = uint64_t(std::llround(c.d("workload.ss_ramp_ms")));
  p.ss.interval_ms = uint64_t(std::llround(c.d("workload.ss_interval_ms")));
  if (p.ss.dur_ms > 0 && p.ss.dur_ms < p.ss.interval_ms)
    throw ConfigError("workload.ss_dur_ms=" + std::to_string(p.ss.dur_ms) + ": expected at least workload.ss_interval_ms (" +
                      std::to_string(p.ss.interval_ms) + " ms): the criterion needs whole intervals");
  p.ss_group = c.i("workload.report_group");
  p.latency.target_ns = ns(c.d("workload.latency_target_us") * 1e3);
  p.latency.window_ns = ns(c.d("workload.latency_window_ms") * 1e6);
  p.latency.percentile = c.d("workload.latency_percentile");
  p.latency.run = c.b("workload.latency_run");
  p.flow = uint32_t(c.u("workload.flow"));
  p.flow_id = c.u("workload.flow_id");
  p.flow_sleep_ns = ns(c.d("workload.flow_sleep_us") * 1e3);
  p.stop_on_error = c.b("workload.stop_on_error");
  return p;
}

}  // namespace

// fio's per-direction percentages ("50", "50,20", ",20,", ...): a value not ending in a comma applies to the
// directions after it, an empty one is the default 100 (fio's parse.c for off1..off3).
std::array<uint8_t, 3> read_percentage_random(const Config& c) {
  const std::string v = c.s("workload.percentage_random");
  std::array<uint8_t, 3> out = {100, 100, 100};
  std::vector<std::string> parts;
  size_t from = 0;
  for (size_t at; (at = v.find(',', from)) != std::string::npos; from = at + 1) parts.push_back(v.substr(from, at - from));
  parts.push_back(v.substr(from));
  const auto bad = [&](const std::string& why) {
    return ConfigError("key 'workload.percentage_random'='" + v + "': " + why +
                       " (expected read[,write[,trim]] percentages in [0, 100], e.g. 50 or 50,20)");
  };
  if (parts.size() > 3) throw bad("more than three directions");
  for (size_t k = 0; k < parts.size(); ++k) {
    if (parts[k].empty()) continue;
    size_t used = 0;
    long n = -1;
    try {
      n = std::stol(parts[k], &used);
    } catch (const std::exception&) {
      throw bad("'" + parts[k] + "' is not a whole number");
    }
    if (used != parts[k].size() || parts[k][0] == '-' || parts[k][0] == '+') throw bad("'" + parts[k] + "' is not a whole number");
    if (n > 100) throw bad(parts[k] + " is over 100");
    out[k] = uint8_t(n);
    if (k + 1 == parts.size())  // the last value applies to the directions after it
      for (size_t m = k + 1; m < 3; ++m) out[m] = uint8_t(n);
  }
  return out;
}

AppParams read_app_params(const Config& c) {
  AppParams p;
  p.app = c.s("workload.app");
  p.age_fraction = c.d("workload.app.age_fraction");
  p.age_file_bytes = c.u("workload.app.age_file_bytes");
  p.max_io_bytes = c.u("workload.app.max_io_bytes");
  p.mixed_ratio = c.d("workload.app.mixed_ratio");
  p.lsm_db_fraction = c.d("workload.app.lsm_db_fraction");
  p.lsm_memtable_bytes = c.u("workload.app.lsm_memtable_bytes");
  p.lsm_table_bytes = c.u("workload.app.lsm_table_bytes");
  p.trim = c.b("workload.app.trim");
  p.age_churn = c.d("workload.app.age_churn");
  p.warmup_drive_writes = c.d("workload.app.warmup_drive_writes");
  p.allocation = parse_choice(choices::kAppAllocation, c, "workload.app.allocation");
  p.lsm_fanout = uint32_t(c.u("workload.app.lsm_fanout"));
  p.lsm_l0_trigger = uint32_t(c.u("workload.app.lsm_l0_trigger"));
  p.lsm_wal_write_bytes = c.u("workload.app.lsm_wal_write_bytes");
  p.lsm_reads_per_write = c.d("workload.app.lsm_reads_per_write");
  p.sqlite_db_fraction = c.d("workload.app.sqlite_db_fraction");
  p.sqlite_checkpoint_pages = uint32_t(c.u("workload.app.sqlite_checkpoint_pages"));
  p.sqlite_miss_ratio = c.d("workload.app.sqlite_miss_ratio");
  p.tpcc_db_fraction = c.d("workload.app.tpcc_db_fraction");
  p.tpcc_pool_bytes = c.u("workload.app.tpcc_pool_bytes");
  p.tpcc_log_bytes = c.u("workload.app.tpcc_log_bytes");
  p.tpcc_threads = uint32_t(c.u("workload.app.tpcc_threads"));
  p.tpcc_doublewrite = c.b("workload.app.tpcc_doublewrite");
  p.gcc_sources = uint32_t(c.u("workload.app.gcc_sources"));
  p.gcc_source_bytes = c.u("workload.app.gcc_source_bytes");
  p.gcc_jobs = uint32_t(c.u("workload.app.gcc_jobs"));
  p.gcc_builds = uint32_t(c.u("workload.app.gcc_builds"));
  p.gcc_modify_fraction = c.d("workload.app.gcc_modify_fraction");
  p.gcc_pcs = uint32_t(c.u("workload.app.gcc_pcs"));
  p.gcc_gap_ns = uint64_t(c.d("workload.app.gcc_gap_ms") * 1e6 + 0.5);
  p.placement = parse_choice(choices::kAppPlacement, c, "workload.app.placement");
  p.lsm_random_pick =
      parse_choice(choices::kAppLsmCompactionPick, c, "workload.app.lsm_compaction_pick");
  p.zone_gc_free_zones = uint32_t(c.u("workload.app.zone_gc_free_zones"));
  p.zone_finish_percent = uint32_t(c.u("workload.app.zone_finish_threshold"));
  p.zone_close = c.b("workload.app.zone_close");
  p.cache_fraction = c.d("workload.app.cache_fraction");
  p.cache_soc_fraction = c.d("workload.app.cache_soc_fraction");
  p.cache_soc_write_share = c.d("workload.app.cache_soc_write_share");
  p.cache_region_bytes = c.u("workload.app.cache_region_bytes");
  p.cache_lru = parse_choice(choices::kAppCacheEviction, c, "workload.app.cache_eviction");
  p.cache_reads_per_write = c.d("workload.app.cache_reads_per_write");
  if (p.placement == AppPlacement::Fdp) {
    p.fdp_rgs = uint32_t(c.i("fdp.reclaim_groups"));
    p.fdp_ruhs = uint32_t(c.i("fdp.ruhs"));
  }
  if (p.placement == AppPlacement::Zns && c.b("zns.enabled")) {
    const ZnsParams zp = read_zns_params(c);
    const ZnsLayout l = zns_layout(zp, read_geometry(c, 0));
    p.zones.zones = l.zones.zones;
    p.zones.zone_units = l.zones.zone_units;
    p.zones.capacity_units = l.zones.capacity_units;
    p.zones.max_active = zp.max_active;
  }
  p.seed = workload_seed(c);
  return p;
}

IoLogParams read_log_params(const Config& c, const std::string& prefix) {
  IoLogParams p;
  const auto name = [&](const char* field, const char* fio) {
    const std::string v = c.s(std::string("workload.") + field);
    if (v.empty()) return v;
    if (const std::string problem = output_path_problem(v); !problem.empty())
      throw ConfigError("key '" + prefix + field + "' (fio " + fio + "): '" + v + "': " + problem);
    return normal_output_path(v);
  };
  p.bw = name("log_bw", "write_bw_log");
  p.lat = name("log_lat", "write_lat_log");
  p.iops = name("log_iops", "write_iops_log");
  p.hist = name("log_hist", "write_hist_log");
  p.avg_ms = c.u("workload.log_avg_ms");
  p.hist_ms = c.u("workload.log_hist_ms");
  p.hist_coarseness = uint32_t(c.u("workload.log_hist_coarseness"));
  p.window = parse_choice(choices::kWorkloadLogWindowValue, c, "workload.log_window_value");
  p.offset = c.b("workload.log_offset");
  p.issue_time = c.b("workload.log_issue_time");
  p.prio = c.b("workload.log_prio");
  p.per_job = c.b("workload.log_per_job");
  p.no_lat = c.b("workload.disable_lat");
  p.no_clat = c.b("workload.disable_clat");
  p.no_slat = c.b("workload.disable_slat");
  return p;
}

WorkloadParams read_workload_params(const Config& c) {
  WorkloadParams w;
  w.pattern = c.s("workload.pattern");
  w.jesd219 = parse_choice(choices::kWorkloadPreset, c, "workload.preset");
  w.read_fraction = c.d("workload.read_fraction");
  w.trim_fraction = c.d("workload.trim_fraction");
  w.distribution = c.s("workload.distribution");
  w.bssplit = c.s("workload.bssplit");
  w.block_bytes = uint32_t(c.i("workload.block_bytes"));
  w.block_align = uint32_t(c.i("workload.block_align"));
  w.address_offset = c.u("workload.address_offset");
  w.address_range = c.u("workload.address_range");
  w.io_count = c.u("workload.io_count");
  w.io_bytes = c.u("workload.io_bytes");
  w.zone_range = c.u("workload.zone_range");
  w.zone_size = c.u("workload.zone_size");
  w.zone_skip = c.u("workload.zone_skip");
  w.random_run = uint32_t(c.u("workload.random_run"));
  w.random_run_repeat = c.b("workload.random_run_repeat");
  w.sequential_skip = c.i("workload.sequential_skip");
  w.percentage_random = read_percentage_random(c);
  w.random_map = c.b("workload.random_map");
  w.scatter = c.b("workload.scatter");
  w.zone_hint = parse_choice(choices::kWorkloadStreamHint, c, "workload.stream_hint");
  w.runtime_ms = c.d("workload.runtime_ms");
  w.seed = workload_seed(c);
  w.pacing = read_pacing(c);
  w.verify = c.b("workload.verify");
  w.verify_backlog = c.u("workload.verify_backlog");
  w.verify_only = c.b("workload.verify_only");
  w.sync.every = c.u("workload.fsync");
  w.sync.at_end = c.b("workload.fsync_end");
  w.sync.fua = c.b("workload.write_fua");
  w.buffered = c.b("workload.buffered");
  w.page_cache.memory_bytes = c.u("workload.dirty_memory_bytes");
  w.page_cache.background_ratio = uint32_t(c.u("workload.dirty_background_ratio"));
  w.page_cache.background_bytes = c.u("workload.dirty_background_bytes");
  w.page_cache.dirty_ratio = uint32_t(c.u("workload.dirty_ratio"));
  w.page_cache.dirty_bytes = c.u("workload.dirty_bytes");
  w.page_cache.writeback_depth = uint32_t(c.u("workload.writeback_depth"));
  w.page_cache.max_io_bytes = c.u("workload.page_cache_max_io_bytes");
  w.page_cache.readahead_bytes = c.u("workload.readahead_bytes");
  w.page_cache.fsync_every = w.sync.every;
  w.page_cache.flush_at_end = w.sync.at_end;
  w.page_cache.expire_ns = uint64_t(std::llround(c.d("workload.dirty_expire_ms") * 1e6));
  w.page_cache.writeback_ns = uint64_t(std::llround(c.d("workload.dirty_writeback_ms") * 1e6));
  w.trace_path = c.s("workload.trace_path");
  w.trace_format = c.s("workload.trace_format");
  w.trace_fit = parse_choice(choices::kWorkloadTraceFit, c, "workload.trace_fit");
  w.trace.time_scale = c.d("workload.trace_time_scale");
  w.trace.lenient = c.b("workload.trace_lenient");
  w.trace.blkparse_event = parse_choice(choices::kWorkloadBlkparseEvent, c, "workload.blkparse_event");
  w.trace.devno = c.i("workload.trace_devno");
  if (parse_choice(choices::kWorkloadTraceTiming, c, "workload.trace_timing"))  // open: at the trace's times
    w.trace.max_time_ns = kMaxOpenLoopTimeNs;
  w.app = read_app_params(c);
  w.ext4 = parse_choice(choices::kWorkloadFilesystem, c, "workload.filesystem");
  w.fs.commit_ios = c.u("workload.fs_commit_ios");
  w.fs.checkpoint_commits = uint32_t(c.u("workload.fs_checkpoint_commits"));
  w.capture.dirty_expire_ns = uint64_t(c.d("workload.capture_dirty_expire_ms") * 1e6);
  w.capture.writeback_ns = uint64_t(c.d("workload.capture_writeback_ms") * 1e6);
  w.capture.commit_ns = uint64_t(c.d("workload.capture_commit_ms") * 1e6);
  w.capture.background_bytes = c.u("workload.capture_dirty_background_bytes");
  w.capture.max_io_bytes = c.u("workload.capture_max_io_bytes");
  w.capture.clean_cache =
      parse_choice(choices::kWorkloadCapturePageCache, c, "workload.capture_page_cache");
  w.capture.discard = c.b("workload.capture_discard");
  w.capture.pc_per_inode =
      parse_choice(choices::kWorkloadCapturePcScope, c, "workload.capture_pc_scope");
  w.capture.age_fraction = c.d("workload.capture_age_fraction");
  w.capture.age_file_bytes = c.u("workload.app.age_file_bytes");
  w.capture.checkpoint_commits = w.fs.checkpoint_commits;
  w.precondition_drive_writes = c.d("precondition.drive_writes");
  w.placement = read_placement_params(c);
  w.zbd = read_zbd_params(c);
  return w;
}

std::unique_ptr<Workload> make_workload(const Config& c, uint64_t logical_bytes, bool for_precondition) {
  const WorkloadParams w = read_workload_params(c);
  check_workload(w, c.s("streams.assign"), logical_bytes, c.b("precondition.fill"), c.u("buffer.bytes"), !for_precondition);
  return make_workload(w, logical_bytes, for_precondition);
}

}  // namespace ssdtlm
