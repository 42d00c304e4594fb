// Which fio options there are: the ones modelled (Interpreter::apply), their aliases, the ones without effect
// on a device and the ones ssdtlm does not model.
#include "frontend/fio/fio_job_internal.h"

#include <map>
#include <set>

#include "common/text.h"
#include "common/units.h"
#include "workload/placement/placement_workload.h"

namespace ssdtlm {
namespace fio {

namespace {

const std::set<std::string>& ignored_options() {
  static const std::set<std::string> names = {
      "ioengine", "direct", "buffered", "filename", "filename_format", "directory", "unique_filename", "nrfiles",
      "openfiles", "file_service_type", "thread", "invalidate", "fsync", "fdatasync", "end_fsync", "end_syncfs",
      "fsync_on_close", "sync", "write_barrier", "sync_file_range", "overwrite", "create_on_open", "create_only",
      "create_serialize", "create_fsync", "allow_file_create", "allow_mounted_write", "pre_read", "unlink",
      "unlink_each_loop", "lockfile", "fallocate", "fadvise_hint", "write_hint", "iodepth_batch",
      "iodepth_batch_submit", "iodepth_batch_complete", "iodepth_batch_complete_min", "iodepth_batch_complete_max",
      "iodepth_low", "io_submit_mode", "serialize_overlap", "hipri", "fixedbufs", "registerfiles", "sqthread_poll",
      "sqthread_poll_cpu", "nonvectored", "uncached", "userspace_reap", "force_async", "cmdprio", "cmdprio_class",
      "cmdprio_percentage", "cmdprio_bssplit", "cmdprio_hint", "prio", "prioclass", "priohint", "nice",
      "cpus_allowed", "cpus_allowed_policy", "cpumask", "numa_cpu_nodes", "numa_mem_policy", "cgroup",
      "cgroup_weight", "cgroup_nodelete", "uid", "gid", "exec_prerun", "exec_postrun", "clocksource",
      "gtod_reduce", "gtod_cpu", "disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement",
      "clat_percentiles", "lat_percentiles", "slat_percentiles", "percentile_list", "significant_figures",
      "write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log", "log_avg_msec", "log_hist_msec",
      "log_hist_coarseness", "log_max_value", "log_offset", "log_prio", "log_compression", "log_store_compressed",
      "log_unix_epoch", "log_alternate_epoch", "per_job_logs", "stats", "disk_util", "unified_rw_reporting",
      "group_reporting", "description", "verify", "do_verify", "verify_offset", "verify_interval",
      "verify_pattern", "verify_fatal", "verify_dump", "verify_async", "verify_backlog", "verify_backlog_batch",
      "verify_state_save", "verify_state_load", "verify_only", "verify_header_seed", "verify_write_sequence",
      "trim_percentage", "trim_verify_zero", "trim_backlog", "trim_backlog_batch", "experimental_verify",
      "buffer_pattern", "buffer_compress_percentage", "buffer_compress_chunk", "refill_buffers",
      "scramble_buffers", "zero_buffers", "dedupe_percentage", "dedupe_mode", "dedupe_working_set_percentage",
      "dedupe_global", "mem", "iomem", "mem_align", "iomem_align", "hugepage-size", "continue_on_error",
      "ignore_error", "error_dump", "exitall", "exitall_on_error", "exit_what", "random_generator",
      "softrandommap", "comm", "job_start_clock_id", "ioscheduler", "unit_base", "replay_redirect",
      "write_iolog", "read_iolog_chunked", "thinktime_spin", "rate_min", "rate_iops_min", "rate_cycle",
      "rate_ignore_thinktime", "max_latency", "atomic", "thinkcycles", "bs_unaligned", "blocksize_unaligned"};
  return names;
}

// Options whose effect ssdtlm models; everything else that is not ignored is an error.
std::string canonical(const std::string& key) {
  static const std::map<std::string, std::string> alias = {
      {"readwrite", "rw"},        {"blocksize", "bs"},       {"blocksize_range", "bsrange"},
      {"ba", "blockalign"},       {"io_limit", "io_size"},   {"wait_for_previous", "stonewall"},
      {"allrandrepeat", "randrepeat"}, {"filesize", "size"}, {"fdp_pli", "plids"},
      {"fdp_pli_select", "plid_select"}};
  auto it = alias.find(key);
  return it == alias.end() ? key : it->second;
}

const std::map<std::string, std::string>& unmodelled_options() {
  static const std::map<std::string, std::string> why = {
      {"wait_for", "waiting for a named job (use stonewall)"},
      {"rw_sequencer", "offset modifiers of rw"},
      {"percentage_random", "a mix of sequential and random offsets"},
      {"bs_is_seq_rand", "block sizes by sequential/random instead of by direction"},
      {"random_sequence_stride", "the 'sequence' random distribution"},
      {"latency_target", "searching for the queue depth that meets a latency target"},
      {"latency_window", "searching for the queue depth that meets a latency target"},
      {"latency_percentile", "searching for the queue depth that meets a latency target"},
      {"latency_run", "searching for the queue depth that meets a latency target"},
      {"steadystate", "stopping at steady state"}, {"ss", "stopping at steady state"},
      {"ss_dur", "stopping at steady state"}, {"ss_ramp", "stopping at steady state"},
      {"thinktime_iotime", "think time by elapsed I/O time"},
      {"thinktime_blocks_type", "think time counted at issue (ssdtlm counts completions)"},
      {"flow", "token-based flow control between jobs"}, {"flow_id", "token-based flow control between jobs"},
      {"flow_sleep", "token-based flow control between jobs"},
      {"fill_device", "writing until the device is full (give size)"}, {"fill_fs", "writing until the device is full"},
      {"file_append", "appending beyond the end of the device"},
      {"replay_scale", "scaling iolog offsets (use workload.trace_fit=scale)"},
      {"replay_align", "aligning iolog offsets"}, {"replay_skip", "skipping iolog operations"},
      {"merge_blktrace_file", "merging blktraces"},
      {"sprandom", "SPRandom preconditioning (ssdtlm preconditions by fast-forward: precondition.*)"},
      {"spr_num_regions", "SPRandom preconditioning"}, {"spr_op", "SPRandom preconditioning"},
      {"spr_cs", "SPRandom preconditioning"}, {"trimwrite", "trim+write sequences"},
      {"ramp_size", "a ramp measured in bytes (use ramp_time)"},
      {"dp_scheme", "placement by an offset scheme file (use plid_select=roundrobin or random)"}};
  return why;
}

}  // namespace

void Interpreter::apply(Spec& s, const Line& l) {
  const std::string key = canonical(l.key);
  const unsigned kb = s.kb_base;
  if (key == "name") {
    need_value(l);
    s.name = l.value;
  } else if (key == "rw") {
    need_value(l);
    s.rw = lower(l.value);
    s.rw_at = l;
  } else if (key == "rwmixread") {
    s.rwmixread = percent(l);
  } else if (key == "rwmixwrite") {
    s.rwmixread = 100 - percent(l);
  } else if (key == "bs") {
    need_value(l);
    s.bs = per_direction(l);
    s.bs_at = l;
    s.bssplit = {};
    s.bsrange = {};
  } else if (key == "bssplit") {
    need_value(l);
    s.bssplit = per_direction(l);
    s.bssplit_at = l;
  } else if (key == "bsrange") {
    need_value(l);
    s.bsrange = per_direction(l);
    s.bsrange_at = l;
  } else if (key == "blockalign") {
    need_value(l);
    s.blockalign = per_direction(l);
    s.blockalign_at = l;
  } else if (key == "random_distribution") {
    need_value(l);
    s.dist = l.value;
    s.dist_at = l;
  } else if (key == "norandommap") {
    s.norandommap = flag(l);
  } else if (key == "randrepeat") {
    if (!flag(l)) {
      ignore(l.key);
      note(l.file + ":" + std::to_string(l.line) + ": " + l.key +
           "=0 asks for a different random sequence per run; ssdtlm runs are reproducible: vary --seed instead");
    }
  } else if (key == "randseed") {
    need_value(l);
    try {
      s.randseed = parse_integer(l.value);
    } catch (const UnitError& e) {
      fail(l, e.what());
    }
    s.randseed_at = l;
  } else if (key == "iodepth") {
    s.iodepth = count(l, kb, 1);
  } else if (key == "numjobs") {
    s.numjobs = count(l, kb, 1);
    if (s.numjobs > 4096) fail(l, "expected at most 4096 jobs");
  } else if (key == "size") {
    s.size = amount(l, kb, true);
  } else if (key == "offset") {
    s.offset = amount(l, kb, true);
  } else if (key == "offset_increment") {
    s.offset_increment = amount(l, kb, true);
  } else if (key == "offset_align") {
    s.offset_align = count(l, kb);
  } else if (key == "io_size") {
    s.io_size = amount(l, kb, true);
  } else if (key == "number_ios") {
    s.number_ios = count(l, kb);
  } else if (key == "loops") {
    s.loops = count(l, kb, 1);
  } else if (key == "runtime") {
    s.runtime_ns = time_value(l, 1e9);
  } else if (key == "time_based") {
    s.time_based = flag(l);
    s.time_based_at = l;
  } else if (key == "ramp_time") {
    s.ramp_ns = time_value(l, 1e9);
  } else if (key == "startdelay") {
    if (l.value.find_first_of(":-") != std::string::npos && l.value.find_first_of(":-") > 0)
      not_modelled(l, "a random start delay from a range (give one value)");
    s.startdelay_ns = time_value(l, 1e9);
  } else if (key == "stonewall") {
    s.stonewall = flag(l);
  } else if (key == "new_group") {
    s.new_group = flag(l);
  } else if (key == "group_reporting") {
    s.group_reporting = flag(l);
  } else if (key == "thinktime") {
    s.think_ns = time_value(l, 1e3);
  } else if (key == "thinktime_blocks") {
    s.think_blocks = count(l, kb, 1);
  } else if (key == "thinktime_blocks_type") {
    need_value(l);
    if (lower(l.value) != "complete") not_modelled(l, "think time counted at issue (ssdtlm counts completions)");
  } else if (key == "rate_iops") {
    need_value(l);
    s.rate_iops = per_direction(l);
    s.rate_iops_at = l;
  } else if (key == "rate") {
    need_value(l);
    s.rate = per_direction(l);
    s.rate_at = l;
  } else if (key == "rate_process") {
    need_value(l);
    if (lower(l.value) != "linear") not_modelled(l, "Poisson arrivals (rate_process=linear only)");
  } else if (key == "zonemode") {
    need_value(l);
    s.zonemode = lower(l.value);
    s.zonemode_at = l;
    if (s.zonemode != "none" && s.zonemode != "strided" && s.zonemode != "zbd") fail(l, "expected none, strided or zbd");
  } else if (key == "zonerange") {
    s.zonerange = count(l, kb);
  } else if (key == "zonesize") {
    s.zonesize = count(l, kb);
  } else if (key == "zoneskip") {
    s.zoneskip = count(l, kb);
  } else if (key == "fdp") {
    s.dataplacement = flag(l) ? "fdp" : "none";
    s.dataplacement_at = l;
  } else if (key == "dataplacement") {
    need_value(l);
    s.dataplacement = lower(l.value);
    s.dataplacement_at = l;
    if (s.dataplacement != "none" && s.dataplacement != "fdp" && s.dataplacement != "streams")
      fail(l, "expected none, fdp or streams");
  } else if (key == "plids") {
    need_value(l);
    try {
      parse_id_list(l.value);
    } catch (const std::invalid_argument& e) {
      fail(l, e.what());
    }
    s.plids = l.value;
    s.plids_at = l;
  } else if (key == "plid_select") {
    need_value(l);
    s.plid_select = lower(l.value);
    if (s.plid_select == "scheme") not_modelled(l, "placement by an offset scheme file (dp_scheme): use roundrobin or random");
    if (s.plid_select != "roundrobin" && s.plid_select != "random") fail(l, "expected roundrobin or random");
  } else if (key == "zonecapacity") {
    count(l, kb);  // the zoned namespace's own capacity applies (fio reads it from the device)
    ignore(l.key);
  } else if (key == "max_open_zones") {
    s.max_open_zones = count(l, kb);
  } else if (key == "job_max_open_zones") {
    s.job_max_open_zones = count(l, kb);
  } else if (key == "ignore_zone_limits") {
    s.ignore_zone_limits = flag(l);
  } else if (key == "zone_reset_threshold" || key == "zone_reset_frequency") {
    need_value(l);
    double v = 0;
    try {
      v = parse_number(l.value);
    } catch (const UnitError& e) {
      fail(l, e.what());
    }
    if (!(v >= 0 && v <= 1)) fail(l, "expected a number between 0 and 1");
    (key == "zone_reset_threshold" ? s.zone_reset_threshold : s.zone_reset_frequency) = v;
  } else if (key == "read_beyond_wp") {
    if (flag(l)) not_modelled(l, "reads beyond a zone's write pointer (zonemode=zbd reads written data only)");
    ignore(l.key);
  } else if (key == "write_mode") {
    need_value(l);
    const std::string v = lower(l.value);
    if (v != "write" && v != "zone_append") not_modelled(l, "write modes other than write and zone_append");
    s.zone_append = v == "zone_append";
  } else if (key == "cmd_type") {
    need_value(l);
    if (lower(l.value) != "nvme") not_modelled(l, "io_uring_cmd passthrough of non-NVMe commands (cmd_type=nvme only)");
    ignore(l.key);
  } else if (key == "kb_base") {
    // applied before the job's other options, see interpret()
  } else if (key == "read_iolog") {
    need_value(l);
    if (l.value.find(':') != std::string::npos) not_modelled(l, "several iologs for job clones");
    if (l.value == "-") not_modelled(l, "an iolog on standard input");
    s.read_iolog = l.value;
    s.read_iolog_at = l;
  } else if (key == "replay_no_stall") {
    s.replay_no_stall = flag(l);
  } else if (key == "replay_time_scale") {
    const uint64_t v = count(l, kb, 1);
    s.replay_time_scale = double(v);
  } else if (unmodelled_options().count(key)) {
    not_modelled(l, unmodelled_options().at(key));
  } else if (ignored_options().count(key) || ignored_options().count(l.key)) {
    ignore(l.key);
  } else {
    fail_at(l.file, l.line, "unknown fio option " + quote_text(l.key) + " (see docs/fio.md for the options ssdtlm reads)");
  }
}

unsigned Interpreter::kb_base_of(const std::vector<const Line*>& lines) {
  unsigned kb = 1024;
  for (const Line* l : lines)
    if (l->key == "kb_base") {
      if (l->value == "1024")
        kb = 1024;
      else if (l->value == "1000")
        kb = 1000;
      else
        fail(*l, "expected 1024 or 1000");
    }
  return kb;
}

}  // namespace fio
}  // namespace ssdtlm
