// Reads the configuration into the parameter tree (params.h): every key by its name, once.
#include "config/params.h"
#include "controller/snapshot/build_id.h"

#include <algorithm>
#include <cmath>

#include "common/rng.h"
#include "common/sim_time.h"
#include "common/text.h"
#include "common/units.h"
#include "config/choices.h"
#include "config/placement_params.h"
#include "config/validation.h"
#include "controller/gc/gc_unit.h"
#include "controller/gc/line_pool.h"
#include "controller/gc/write_pointer.h"
#include "controller/mapping/gc_update.h"

namespace ssdtlm {

namespace {

uint64_t us_ps(double us) { return uint64_t(std::llround(us * 1e6)); }
const char* const kTypeNames[kMaxPageTypes] = {"LSB", "CSB", "MSB", "TSB"};

// A list of per-page-type times ("50,70,110", each a time, bare numbers in us) for `key`; `types` entries
// expected. Empty text = `fallback` for every type. Throws ConfigError naming the key.
void parse_page_times(const std::string& key, const std::string& text, uint32_t types, const std::string& cell,
                      uint64_t fallback, uint64_t* out) {
  if (text.empty()) {
    std::fill(out, out + types, fallback);
    return;
  }
  std::string names;
  for (uint32_t t = 0; t < types; ++t) names += std::string(t ? ", " : "") + (types == 2 && t == 1 ? "MSB" : kTypeNames[t]);
  const std::string expected = key + ": expected " + std::to_string(types) + " times separated by commas, one per page type of flash.cell=" +
                               cell + " (" + names + "), e.g. " + (types == 1 ? "60" : types == 2 ? "50,80" : types == 3 ? "50,70,110" : "50,70,90,130") + " (us)";
  uint32_t n = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(pos, comma - pos);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (n == types) throw ConfigError(expected + ", got more than " + std::to_string(types) + ": \"" + text + "\"");
    double ns = 0;
    try {
      ns = parse_time_ns(item, 1000.0);
    } catch (const std::exception&) {
      throw ConfigError(expected + ", got \"" + item + "\" in \"" + text + "\"");
    }
    if (!(ns >= 10.0 && ns <= 1e10)) throw ConfigError(expected + "; each in [0.01 us, 10 s], got \"" + item + "\"");
    out[n++] = uint64_t(std::llround(ns * 1e3));
    pos = comma + 1;
  }
  if (n != types) throw ConfigError(expected + ", got " + std::to_string(n) + ": \"" + text + "\"");
}

// The write frontiers of every die: the user streams, the GC streams and, with a map on flash, map pages.
FrontierLayout frontier_layout(const StreamParams& sp, bool map_pages) {
  FrontierLayout l;
  l.user = sp.user_streams();
  l.gc = sp.gc_streams();
  l.gc_in_user = sp.gc_in_user;
  l.map = map_pages;
  return l;
}

}  // namespace

Geometry read_geometry(const Config& c, uint32_t reserved_blocks_per_die) {
  Geometry raw;
  raw.channels = uint32_t(c.i("geometry.channels"));
  raw.dies_per_channel = uint32_t(c.i("geometry.dies_per_channel"));
  raw.planes = uint32_t(c.i("geometry.planes_per_die"));
  raw.blocks_per_die = uint32_t(c.i("geometry.blocks_per_plane"));
  raw.pages_per_block = uint32_t(c.i("geometry.pages_per_block"));
  raw.page_bytes = uint32_t(c.i("geometry.page_bytes"));
  raw.over_provisioning = c.d("geometry.over_provisioning");
  const Geometry g = Geometry::derive(raw);
  check_geometry(g, reserved_blocks_per_die);
  return g;
}

FlashParams read_flash_params(const Config& c) {
  FlashParams p;
  p.timing = DieTiming{us_ps(c.d("timing.t_read_us")), us_ps(c.d("timing.t_prog_us")), us_ps(c.d("timing.t_erase_us"))};
  p.suspend = parse_choice(choices::kFlashSuspend, c, "flash.suspend");
  p.t_suspend_ps = us_ps(c.d("timing.t_suspend_us"));
  p.t_resume_ps = us_ps(c.d("timing.t_resume_us"));
  p.max_suspends = uint32_t(c.i("flash.max_suspends"));
  p.die_sched = find_die_sched(c.s("flash.die_sched"), "flash.die_sched");
  p.read_first_limit = uint32_t(c.i("flash.read_first_limit"));
  const std::string cell = c.s("flash.cell");
  p.page_types = parse_choice(choices::kFlashCell, cell, "flash.cell");
  p.one_shot = c.b("flash.one_shot");
  p.multiplane = parse_choice(choices::kFlashMultiplane, c, "flash.multiplane");
  p.plane_any = parse_choice(choices::kFlashPlaneRule, c, "flash.plane_rule");
  p.slc = DieTiming{us_ps(c.d("timing.slc_read_us")), us_ps(c.d("timing.slc_prog_us")), us_ps(c.d("timing.slc_erase_us"))};
  const std::string reads = c.s("timing.page_read_us"), progs = c.s("timing.page_prog_us");
  check_page_types_for_cell(cell, reads, progs, p.one_shot);
  if (p.page_types == 1) return p;
  parse_page_times("timing.page_read_us", reads, p.page_types, cell, p.timing.t_read_ps, p.page_read_ps);
  parse_page_times("timing.page_prog_us", progs, p.page_types, cell, p.timing.t_prog_ps, p.page_prog_ps);
  p.derive();
  return p;
}

SlcParams read_slc_params(const Config& c) {
  SlcParams p;
  p.mode = parse_choice(choices::kSlcMode, c, "slc.mode");
  p.static_bytes = c.u("slc.static_bytes");
  p.dynamic_max_bytes = c.u("slc.dynamic_max_bytes");
  p.fold_when_full = parse_choice(choices::kSlcWhenFull, c, "slc.when_full");
  p.bits = parse_choice(choices::kFlashCell, c, "flash.cell");
  return p;
}

ChannelParams read_channel_params(const Config& c) {
  ChannelParams p;
  p.mts = c.d("timing.channel_mts");
  p.width_bytes = uint32_t(c.i("timing.channel_width_bytes"));
  p.cmd_ns = c.d("timing.cmd_ns");
  return p;
}

FtlParams read_ftl_params(const Config& c) {
  FtlParams p;
  p.volatile_cache = !c.b("buffer.power_protected");
  p.cores = uint32_t(c.i("firmware.cores"));
  p.cmd_ps = ns_to_ps(c.d("firmware.cmd_ns"));
  p.write_cmd_ps = ns_to_ps(c.d("firmware.write_cmd_ns"));
  p.flash_op_ps = ns_to_ps(c.d("firmware.flash_op_ns"));
  p.buffer_step_ps = ns_to_ps(c.d("firmware.buffer_step_ns"));
  p.buffer_units = uint32_t(c.u("buffer.bytes") / kUnitBytes);
  p.high_watermark = c.d("buffer.high_watermark");
  p.low_watermark = c.d("buffer.low_watermark");
  check_buffer_watermarks(p);
  p.die_queue_depth = uint32_t(c.i("ftl.die_queue_depth"));
  p.max_age_ps = uint64_t(c.d("buffer.max_age_ms") * 1e9);
  p.count_lpn_writes = c.b("stats.lpn_writes");
  p.sched_policy = c.s("sched.policy");
  p.slc_idle_ps = us_ps(c.d("slc.fold_idle_us"));
  p.read_ahead.sequential = parse_choice(choices::kCacheReadAhead, c.s("cache.read_ahead"), "cache.read_ahead");
  p.read_ahead.trigger = uint32_t(c.i("cache.read_ahead_trigger"));
  p.read_ahead.pages = uint32_t(c.i("cache.read_ahead_pages"));
  p.read_ahead.bytes = c.u("cache.read_ahead_bytes");
  return p;
}

GcParams read_gc_params(const Config& c) {
  GcParams p;
  p.victim = c.s("ftl.gc_victim");
  p.free_blocks = uint32_t(c.i("ftl.gc_free_blocks"));
  p.min_invalid = c.d("ftl.gc_min_invalid");
  p.urgent_free_blocks = uint32_t(c.i("ftl.gc_urgent_free_blocks"));
  p.unit = c.s(keys::kGcUnit);
  p.superblock = find_gc_unit(p.unit, keys::kGcUnit).lines;
  p.pacing = c.s("ftl.gc_pacing");
  p.write_pointer = c.s(keys::kWritePointer);
  find_write_pointer(p.write_pointer, keys::kWritePointer);  // a registered name
  p.wear_level_spread = uint32_t(c.i("ftl.wear_level_spread"));
  return p;
}

MapCacheParams read_map_cache_params(const Config& c, const Geometry& g) {
  MapCacheParams p;
  p.logical_units = g.logical_units;
  p.segment_bytes = uint32_t(c.i("map.segment_bytes"));
  p.entry_bytes = uint32_t(c.i("map.entry_bytes"));
  p.cache_bytes = c.u("map.cache_bytes");
  p.clean_fraction = c.d("map.clean_fraction");
  p.dirty_victim = c.s("map.dirty_victim");
  const GcUpdate& gc_update = find_gc_update(c.s("map.gc_update"), "map.gc_update");
  p.gc_batch = gc_update.batch && demand_based(c.s("ftl.mapping"));  // (the page map updates per GC page)
  p.gc_free = gc_update.free && demand_based(c.s("ftl.mapping"));
  p.protected_ratio = c.d("map.protected_ratio");
  const uint32_t page = g.units_per_page * kUnitBytes;
  p.segments_per_page = std::min<uint32_t>(kMaxGather, page / std::max<uint32_t>(1, p.segment_bytes));
  check_map_cache(p, c.s("ftl.mapping"), g);
  return p;
}

MapParams read_map_params(const Config& c, const Geometry& g) {
  MapParams p;
  p.scheme = c.s("ftl.mapping");
  p.cache = read_map_cache_params(c, g);
  p.pages_on_flash = map_on_flash(p.scheme, p.cache.protected_ratio);
  return p;
}

StreamParams read_stream_params(const Config& c) {
  StreamParams p;
  p.count = uint32_t(c.i("streams.count"));
  p.assign = c.s("streams.assign");
  p.hot_threshold = uint32_t(c.i("streams.hot_threshold"));
  const uint64_t chunk = c.u("streams.autostream_chunk_bytes");
  check_stream_chunk(chunk);
  p.chunk_units = uint32_t(std::min<uint64_t>(chunk / kUnitBytes, 1u << 30));
  p.pc_table_bytes = c.u("streams.pc_table_bytes");
  p.recluster_units = c.u("streams.pcstream_recluster_units");
  p.pc_table_reset_run = parse_choice(choices::kStreamsPcTableReset, c, "streams.pc_table_reset");
  p.pc_min_deaths = uint32_t(c.i("streams.pcstream_min_deaths"));
  p.pc_clock_time = parse_choice(choices::kStreamsPcstreamClock, c, "streams.pcstream_clock");
  {  // the fast-forward's nominal pace: every die programs all its planes' pages once per tPROG
    const double program_bytes = double(c.i("geometry.channels")) * double(c.i("geometry.dies_per_channel")) *
                                 double(c.i("geometry.planes_per_die")) * double(c.i("geometry.page_bytes"));
    p.pc_nominal_unit_ps = uint64_t(c.d("timing.t_prog_us") * 1e6 * double(kUnitBytes) / program_bytes + 0.5);
  }
  std::string gc = c.s("streams.gc_stream");
  std::string frontier = c.s("streams.gc_frontier");
  const StreamsInternal internal = parse_choice(choices::kStreamsInternal, c, "streams.internal");
  check_streams_internal(internal, gc, frontier);
  if (internal != StreamsInternal::Auto) {  // streams.internal decides both
    gc = "per_stream";
    frontier = internal == StreamsInternal::Own ? "own" : "user";
  }
  p.gc = parse_choice(choices::kStreamsGcStream, gc, "streams.gc_stream");
  p.gc_in_user = parse_choice(choices::kStreamsGcFrontier, frontier, "streams.gc_frontier");
  const LifetimeStats life = parse_choice(choices::kStatsLifetimes, c, "stats.lifetimes");
  p.lifetimes = lifetimes_on(life, p.count);
  p.lifetime_shift = life == LifetimeStats::All ? 0 : 3;
  apply_fdp_streams(read_fdp_params(c), c, p);
  apply_zns_streams(read_zns_params(c), c, p);
  check_streams(p, internal, find_gc_unit(c.s("ftl.gc_unit"), "ftl.gc_unit").lines, c.s("buffer.policy"));
  return p;
}

NvmeParams read_nvme_params(const Config& c) {
  NvmeParams p;
  p.link_bytes_per_s = c.d("nvme.link_mbps") * 1e6;
  p.link_latency_ps = ns_to_ps(c.d("nvme.link_latency_ns"));
  p.fetch_ps = ns_to_ps(c.d("nvme.fetch_ns"));
  p.queues = uint32_t(c.i("host.queues"));
  p.register_interface = parse_choice(choices::kNvmeInterface, c, "nvme.interface");
  p.pcie.generation = uint32_t(c.i("pcie.generation"));
  p.pcie.lanes = uint32_t(c.i("pcie.lanes"));
  p.pcie.mps = uint32_t(c.i("pcie.mps_bytes"));
  p.pcie.mrrs = uint32_t(c.i("pcie.mrrs_bytes"));
  p.pcie.latency_ps = p.link_latency_ps;
  p.submit_ps = ns_to_ps(host_cost_ns(c).submit_ns);
  p.interrupt_ps = ns_to_ps(c.d("host.interrupt_ns"));
  p.completion_ps = ns_to_ps(host_cost_ns(c).complete_ns);
  p.coalesce_threshold = uint32_t(c.i("host.coalesce_threshold"));
  p.coalesce_time_us = c.d("host.coalesce_time_us");
  p.wrr = parse_choice(choices::kNvmeArbitration, c, "nvme.arbitration");
  p.arbitration_burst = uint32_t(c.i("nvme.arbitration_burst"));
  p.wrr_weight[0] = uint32_t(c.i("nvme.wrr_high_weight"));
  p.wrr_weight[1] = uint32_t(c.i("nvme.wrr_medium_weight"));
  p.wrr_weight[2] = uint32_t(c.i("nvme.wrr_low_weight"));
  p.max_commands = uint32_t(c.i("nvme.max_commands"));
  check_register_interface(c, p);
  return p;
}

DramParams read_dram_params(const Config& c) {
  DramParams p;
  p.mts = c.d("dram.mts");
  p.width_bytes = uint32_t(c.i("dram.width_bytes"));
  p.latency_ps = ns_to_ps(c.d("dram.latency_ns"));
  return p;
}

PowerLossParams read_power_loss_params(const Config& c) {
  PowerLossParams p;
  p.protected_bytes = c.u("power.protected_bytes");
  p.buffer_protected = c.b("buffer.power_protected");
  p.protected_ratio = c.d("map.protected_ratio");
  p.map_on_flash = c.s("ftl.mapping") != "page";
  p.flash_op_ps = uint64_t(std::llround(c.d("firmware.flash_op_ns") * 1e3));
  p.cores = uint32_t(c.u("firmware.cores"));
  p.check_all = parse_choice(choices::kPowerLossCheck, c, "fault.power_loss_check");
  return p;
}

ConvergeParams read_converge_params(const Config& c) {
  check_converge(c);
  ConvergeParams p;
  p.mode = parse_choice(choices::kSimConverge, c, "sim.converge");
  p.rel_half_width = c.d("sim.converge_rel_ci");
  p.confidence = c.d("sim.converge_confidence");
  p.batch_ios = uint32_t(c.u("sim.converge_batch_ios"));
  p.min_batches = uint32_t(c.u("sim.converge_min_batches"));
  p.batch_erase_share = c.d("sim.converge_batch_erase_share");
  p.min_gc_cycles = c.d("sim.converge_min_gc_cycles");
  p.on_iops = p.on_latency_mean = p.on_latency_p99 = p.on_waf = false;
  for (const std::string& m : split(c.s("sim.converge_metrics"), ','))  // names checked by check_converge
    (m == "iops" ? p.on_iops : m == "latency_mean" ? p.on_latency_mean : m == "latency_p99" ? p.on_latency_p99 : p.on_waf) = true;
  return p;
}

std::vector<uint64_t> read_power_loss_instants(const Config& c) {
  std::vector<uint64_t> t;
  std::vector<double> listed_ms;
  const std::string list = c.s("fault.power_loss_at_ms");
  size_t pos = 0;
  while (pos < list.size()) {
    size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    std::string item = list.substr(pos, end - pos);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    double ms = -1;
    size_t used = 0;
    try {
      ms = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || !(ms > 0) || ms > 1.8e7)
      throw ConfigError("fault.power_loss_at_ms: expected comma-separated simulated times in ms in (0, 1.8e7], got '" +
                        escape_text(item) + "' in '" + escape_text(list) + "'");
    t.push_back(uint64_t(std::llround(ms * 1e9)));
    listed_ms.push_back(ms);
    pos = end + 1;
  }
  check_power_loss_list_apart(t, listed_ms, list);
  const uint64_t n = c.u("fault.power_loss_count");
  const double window = c.d("fault.power_loss_window_ms");
  check_power_loss_window(n, window);
  Rng rng(c.u("fault.power_loss_seed") * 0x9E3779B97F4A7C15ull + 0x5EED);
  const size_t listed = t.size();
  for (uint64_t i = 0; i < n; ++i) t.push_back(std::max<uint64_t>(1, uint64_t(rng.uniform() * window * 1e9)));
  check_power_loss_draws_apart(t, listed);
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());  // an instant listed twice is one power loss
  return t;
}

std::vector<JobParams> read_job_params(const Config& c) {
  std::vector<JobParams> jobs;
  for (size_t j = 0; j < std::max<size_t>(1, c.job_count()); ++j) {
    JobParams p;
    Config jc = c.job_config(j);
    if (c.job_count() && !c.json()["jobs"][j].contains("seed_offset")) jc.set("workload.seed_offset=" + std::to_string(j));
    p.workload = read_workload_params(jc);
    p.name = c.job_name(j);
    p.queues = uint32_t(jc.i("host.queues"));
    p.queue_depth = uint32_t(jc.i("host.queue_depth"));
    p.sq_priority = parse_choice(choices::kHostSqPriority, jc, "host.sq_priority");
    p.open_loop =
        jc.s("workload.pattern") == "trace" && parse_choice(choices::kWorkloadTraceTiming, jc, "workload.trace_timing");
    p.report_group = jc.i("workload.report_group");
    p.log = read_log_params(jc, c.job_count() ? "jobs[" + std::to_string(j) + "]." : "workload.");
    if (p.open_loop && p.workload.pacing.latency.on())
      throw ConfigError("workload.latency_target_us: a latency-target depth search needs a closed-loop job (a trace "
                        "replayed at its own times, workload.trace_timing=open, has no queue depth to search)");
    jobs.push_back(std::move(p));
  }
  return jobs;
}

namespace {

// The drive: geometry, faults, streams, FDP, GC, the buffer, the blocks kept from data, SLC, the map, the FTL.
void read_drive_params(const Config& c, Params& p) {
  p.geometry = read_geometry(c, 0);
  p.sim.seed = c.u("sim.seed");
  p.sim.max_memory_bytes = c.u("sim.max_memory_bytes");
  p.sim.check_integrity = c.b("check.integrity");
  p.sim.loosely_timed = parse_choice(choices::kSimTiming, c, "sim.timing");
  check_timing(c);
  p.sim.quantum_ps = p.sim.loosely_timed ? ns_to_ps(c.d("sim.quantum_ns")) : 0;
  p.sim.converge = read_converge_params(c);
  p.fault.power_loss_ps = read_power_loss_instants(c);
  check_power_loss_needs_integrity(p.fault.power_loss_ps, p.sim.check_integrity);
  p.fault.recovery = read_power_loss_params(c);

  p.streams = read_stream_params(c);
  p.fdp = read_fdp_params(c);
  check_fdp(p.fdp, p.geometry, c.d("precondition.drive_writes"), c.b("precondition.fill"));
  p.gc = read_gc_params(c);
  p.gc.fdp = p.fdp.enabled;
  p.buffer.bytes = c.u("buffer.bytes");
  p.buffer.policy = c.s("buffer.policy");
  const bool map_pages = map_on_flash(c.s("ftl.mapping"), c.d("map.protected_ratio"));
  p.frontiers = frontier_layout(p.streams, map_pages);
  // Blocks per die kept from data: the GC threshold and an open block per frontier (superblock mode: up to
  // LinePool::kOpenLines open lines per frontier, so that some full line always holds invalid data; FDP: the
  // threshold in RUs and an open RU per frontier, each its RU's blocks on the die). A zoned namespace: its zones'
  // open blocks are their capacity's (check_zns_capacity); the spare keeps the GC threshold, the GC frontier and any
  // map frontier.
  const uint32_t open = p.gc.superblock && !p.fdp.enabled ? uint32_t(LinePool::kOpenLines) : 1;
  const uint32_t depth = p.fdp.enabled ? fdp_ru_blocks_per_die(p.fdp, p.geometry) : 1;
  p.reserved_blocks_per_die = depth * (p.gc.kept_free_blocks() + open * (p.streams.zns ? 1 + (p.frontiers.map ? 1 : 0)
                                                                                       : fdp_frontiers_per_die(p.fdp, p.frontiers)));
  p.slc = read_slc_params(c);
  check_slc(p.slc, p.geometry, p.gc, p.streams, p.fdp);
  check_slc_static(p.slc, p.geometry, p.reserved_blocks_per_die);
  p.reserved_blocks_per_die += slc_reserved_blocks(p.slc, p.geometry, p.gc);
  check_geometry(p.geometry, p.reserved_blocks_per_die);
  if (p.streams.zns) check_zns_capacity(p.streams.zns_layout, p.geometry, p.reserved_blocks_per_die);
  check_gc(p.gc, p.frontiers, p.geometry.dies);
  check_victim_policy_name(p.gc);
  p.map = read_map_params(c, p.geometry);
  p.ftl = read_ftl_params(c);
  check_read_ahead(c, p.ftl.read_ahead, p.geometry);
  check_buffer_size(p.buffer, p.geometry, c.u("workload.block_bytes"));
  check_flush_policy_name(p.buffer);
}

// The run: statistics, preconditioning, the host's queues and the jobs.
void read_run_params(const Config& c, Params& p) {
  p.stats.interval_ps = uint64_t(c.d("stats.interval_ms") * 1e9);
  p.stats.lpn_writes = c.b("stats.lpn_writes");
  p.precondition.fill = c.b("precondition.fill");
  p.precondition.drive_writes = c.d("precondition.drive_writes");
  p.precondition.threads = unsigned(c.u("precondition.threads"));
  if (p.streams.zns) {  // a zoned namespace starts with every zone empty: no fast-forward (it writes by LPN)
    p.precondition.fill = false;
    p.precondition.drive_writes = 0;
  }
  p.streams.fdp_ru_bytes = p.fdp.enabled ? fdp_ru_bytes(p.fdp, p.geometry) : 0;
  p.host_queues = uint32_t(c.i("host.queues"));
  p.host_queue_depth = uint32_t(c.i("host.queue_depth"));
  p.jobs = read_job_params(c);
  p.jobs_listed = c.job_count() > 0;
  check_job_dependencies(p.jobs, p.jobs_listed);
  for (const JobParams& job : p.jobs)
    check_workload(job.workload, p.streams.assign, p.geometry.logical_bytes(), p.precondition.fill, p.buffer.bytes, true);
  check_jobs_time(p.jobs, p.jobs_listed, p.geometry.logical_bytes());
  for (const JobParams& job : p.jobs) check_placement(job.workload.placement, p.fdp, p.streams.assign);
  for (const JobParams& job : p.jobs) check_app_placement(job.workload, p.fdp.enabled, p.streams.zns, p.host_queues);
  if (p.precondition.drive_writes > 0) {
    for (size_t j = 0; j < std::max<size_t>(1, c.job_count()); ++j)
      p.precondition_workloads.push_back(read_workload_params(c.job_config(j)));
    check_precondition_jobs(p.precondition_workloads, p.jobs_listed);
  }
}

// The controller's interfaces and the flash: NVMe, host costs, DRAM, channels, flash timing, reliability,
// power and temperature.
void read_interface_params(const Config& c, Params& p) {
  p.nvme = read_nvme_params(c);
  p.host_cost.submit_ps = ns_to_ps(host_cost_ns(c).submit_ns);
  p.host_cost.complete_ps = ns_to_ps(host_cost_ns(c).complete_ns);
  if (p.nvme.register_interface) p.host_cost = {};  // the driver model spends them (NvmeParams), not NvmeHost
  check_queue_priorities(p.jobs, p.jobs_listed, p.nvme.register_interface);
  p.dram = read_dram_params(c);
  p.bus = read_channel_params(c);
  p.flash = read_flash_params(c);
  p.reliability = read_reliability_params(c);
  check_fdp_read_reclaim(p.fdp.enabled, p.reliability.on, p.reliability.reclaim_reads, p.reliability.reclaim_steps);
  p.power = read_power_params(c);
  p.thermal = read_thermal_params(c);
  check_power(p.power, p.thermal, p.geometry.dies);
  if (p.nvme.register_interface && p.power.apst) check_register_apst(p.power);
  check_register_zones(p.streams.zns_layout, p.streams.zns, p.nvme.register_interface);
}

}  // namespace

// In the order the model met these rules before the tree existed: the geometry, the power-loss schedule,
// the streams (they size the reserve), the reserve, GC, the policies, the map, the buffer; then the run and the
// jobs, then the interfaces and the flash.
Params read_params(const Config& c) {
  Params p;
  read_drive_params(c, p);
  read_run_params(c, p);
  read_interface_params(c, p);
  p.precondition.snapshot_dir = c.s("precondition.snapshot_dir");
  p.precondition.snapshot_mode = parse_choice(choices::kPreconditionSnapshot, c, "precondition.snapshot");
  if (p.precondition.snapshots()) p.precondition.snapshot_key = precondition_snapshot_key(c, p, snapshot_build_id());
  return p;
}

}  // namespace ssdtlm
