// The fio options ssdtlm models, applied to a job (Interpreter::apply); every other option is classed by fio's
// option table (fio_option_table.cpp).
#include "frontend/fio/fio_job_internal.h"

#include <map>

#include "common/text.h"
#include "common/units.h"
#include "host/steady_state.h"
#include "workload/placement/placement_workload.h"

namespace ssdtlm {
namespace fio {

namespace {
// write_bw_log, write_lat_log, write_iops_log, write_hist_log: the name (empty: the job's, checked when the job
// is built) and where it was given.
void set_log_name(Spec& s, const std::string& key, const Line& l) {
  const bool bw = key == "write_bw_log", lat = key == "write_lat_log", iops = key == "write_iops_log";
  (bw ? s.bw_log : lat ? s.lat_log : iops ? s.iops_log : s.hist_log) = l.value;
  (bw ? s.bw_log_at : lat ? s.lat_log_at : iops ? s.iops_log_at : s.hist_log_at) = l;
}
// A refused option given its default value, which asks for nothing the model lacks (verify_only=0, num_range=1).
bool refused_option_off(const std::string& key, const Line& l) {
  static const std::map<std::string, std::string> off = {
      {"verify_only", "0"}, {"bs_is_seq_rand", "0"},  {"file_append", "0"},      {"sprandom", "0"},
      {"num_range", "1"},   {"thinktime_iotime", "0"}, {"ramp_size", "0"},       {"replay_scale", "1"},
      {"replay_align", "0"}, {"write_zone_remainder", "0"}, {"initial_zone_reset", "0"}};
  const auto it = off.find(key);
  if (it == off.end() || !l.has_value) return false;
  std::string v = lower(std::string(trim(l.value)));
  if (v == "false" || v == "no" || v == "off") v = "0";
  if (v == "true" || v == "yes" || v == "on") v = "1";
  return v == it->second;
}
}  // namespace

void Interpreter::apply(Spec& s, const Line& l) {
  const std::string key = canonical_option(l.key);
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
    s.offset = amount(l, kb, true, true);
  } else if (key == "offset_increment") {
    s.offset_increment = amount(l, kb, true, true);
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
  } else if (key == "wait_for") {
    need_value(l);
    s.wait_for = l.value;
    s.wait_for_at = l;
  } else if (key == "exitall") {
    s.exitall = flag(l);
  } else if (key == "exit_what") {
    need_value(l);
    s.exit_what = lower(l.value);
    if (s.exit_what != "group" && s.exit_what != "stonewall" && s.exit_what != "all")
      fail(l, "expected group, stonewall or all");
  } else if (key == "verify") {
    need_value(l);
    s.verify = lower(l.value);
  } else if (key == "do_verify") {
    s.do_verify = flag(l);
  } else if (key == "verify_backlog") {
    s.verify_backlog = count(l, kb);
  } else if (key == "rw_sequencer") {
    need_value(l);
    s.rw_sequencer = lower(l.value);
    if (s.rw_sequencer != "sequential" && s.rw_sequencer != "identical") fail(l, "expected sequential or identical");
  } else if (key == "percentage_random") {
    need_value(l);
    const auto per = per_direction(l);
    for (int k = 0; k < 3; ++k) {
      s.percentage_random[k] = 100;  // fio's default for a direction left empty
      if (!per[k]) continue;
      Line one = l;
      one.value = *per[k];
      s.percentage_random[k] = count(one, kb);
      if (s.percentage_random[k] > 100) fail(l, "expected percentages in [0, 100]");
    }
    s.percentage_random_at = l;
  } else if (key == "flow") {
    s.flow = count(l, kb);
    if (s.flow > 1000) fail(l, "expected a weight of at most 1000 (fio's FLOW_MAX_WEIGHT)");
    s.flow_at = l;
  } else if (key == "flow_id") {
    s.flow_id = count(l, kb);
  } else if (key == "flow_sleep") {
    s.flow_sleep_ns = time_value(l, 1e3);
  } else if (key == "bwavgtime") {
    s.bwavgtime_ms = count(l, kb);
  } else if (key == "iopsavgtime") {
    s.iopsavgtime_ms = count(l, kb);
  } else if (key == "write_bw_log" || key == "write_lat_log" || key == "write_iops_log" || key == "write_hist_log") {
    set_log_name(s, key, l);
  } else if (key == "log_avg_msec") {
    s.log.avg_ms = count(l, kb);
  } else if (key == "log_hist_msec") {
    s.log.hist_ms = count(l, kb);
  } else if (key == "log_hist_coarseness") {
    s.log.hist_coarseness = uint32_t(count(l, kb));
    if (s.log.hist_coarseness > 6) fail(l, "expected 0 to 6");
  } else if (key == "log_window_value") {
    need_value(l);
    const std::string v = lower(l.value);
    s.log_window = v == "0" ? "avg" : v == "1" ? "max" : v;  // fio's backward-compatible aliases
    if (s.log_window != "avg" && s.log_window != "max" && s.log_window != "both")
      fail(l, "expected avg, max or both (or 0, 1)");
  } else if (key == "log_offset") {
    s.log.offset = flag(l);
  } else if (key == "log_issue_time") {
    s.log.issue_time = flag(l);
    s.log_issue_time_at = l;
  } else if (key == "log_prio") {
    s.log.prio = flag(l);
  } else if (key == "per_job_logs") {
    s.log.per_job = flag(l);
  } else if (key == "disable_lat") {
    s.log.no_lat = flag(l);
  } else if (key == "disable_clat") {
    s.log.no_clat = flag(l);
  } else if (key == "disable_slat") {
    s.log.no_slat = flag(l);
  } else if (key == "gtod_reduce") {  // fio: disables the latencies (and bandwidth sampling, not modelled)
    if (flag(l)) s.log.no_lat = s.log.no_clat = s.log.no_slat = true;
  } else if (key == "log_store_compressed") {
    if (flag(l)) not_modelled(l, "compressed logs (.fz): ssdtlm writes fio's plain text logs");
  } else if (key == "log_alternate_epoch") {
    if (flag(l)) not_modelled(l, "log times from the wall clock's epoch: the logs are in simulated time from the job's start");
  } else if (key == "steadystate") {
    need_value(l);
    try {
      parse_steady_state(lower(l.value));
    } catch (const std::invalid_argument& e) {
      fail(l, e.what());
    }
    s.ss = lower(l.value);
  } else if (key == "steadystate_duration") {
    s.ss_dur_ns = time_value(l, 1e9);
    s.ss_dur_at = l;
  } else if (key == "steadystate_ramp_time") {
    s.ss_ramp_ns = time_value(l, 1e9);
  } else if (key == "steadystate_check_interval") {
    s.ss_interval_ns = time_value(l, 1e9);
    if (s.ss_interval_ns < 1000000) fail(l, "expected at least 1 ms");
  } else if (key == "latency_target") {
    s.latency_target_ns = time_value(l, 1e3);
  } else if (key == "latency_window") {
    s.latency_window_ns = time_value(l, 1e3);
  } else if (key == "latency_percentile") {
    s.latency_percentile = percent(l);
  } else if (key == "latency_run") {
    s.latency_run = flag(l);
  } else if (key == "percentile_list") {
    need_value(l);
    s.report.percentiles.clear();
    for (const auto& v : ssdtlm::split(l.value, ':')) {
      char* end = nullptr;
      const std::string t(trim(v));
      const double q = std::strtod(t.c_str(), &end);
      if (t.empty() || *end || !(q > 0) || q > 100) fail(l, "expected percentiles in (0, 100] separated by ':'");
      s.report.percentiles.push_back(q);
    }
    if (s.report.percentiles.size() > 20) fail(l, "at most 20 percentiles (fio's FIO_IO_U_LIST_MAX_LEN)");
  } else if (key == "clat_percentiles") {
    s.report.clat_percentiles = flag(l);
  } else if (key == "lat_percentiles") {
    s.report.lat_percentiles = flag(l);
  } else if (key == "slat_percentiles") {
    s.report.slat_percentiles = flag(l);
  } else if (key == "unified_rw_reporting") {
    need_value(l);
    const std::string v = lower(l.value);
    s.report.unified = v == "0" || v == "none" ? "none" : v == "1" || v == "mixed" ? "mixed"
                       : v == "2" || v == "both" ? "both" : "";
    if (s.report.unified.empty()) fail(l, "expected none, mixed or both (or 0, 1, 2)");
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
    s.rate_process = lower(l.value);
    if (s.rate_process != "linear" && s.rate_process != "poisson") fail(l, "expected linear or poisson");
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
  } else if (key == "zone_append") {  // SPDK's plugins: 1 = zone appends instead of writes (write_mode=zone_append)
    const uint64_t v = count(l, kb);
    if (v > 1) fail(l, "expected 0 or 1");
    s.zone_append = v == 1;
  } else if (key == "write_mode") {
    need_value(l);
    const std::string v = lower(l.value);
    if (v != "write" && v != "zone_append") not_modelled(l, "write modes other than write and zone_append");
    s.zone_append = v == "zone_append";
  } else if (key == "sg_write_mode") {
    need_value(l);
    if (lower(l.value) != "write")
      not_modelled(l, "SCSI " + lower(l.value) + " commands in place of the writes (WRITE AND VERIFY, VERIFY, WRITE SAME, "
                      "WRITE STREAM: sg_write_mode=write only)");
    ignore(l.key);
  } else if (key == "fill_device") {
    s.fill_device = flag(l);
  } else if (key == "fsync" || key == "fdatasync") {  // on a block device both are blkdev_fsync: an NVMe Flush
    const uint64_t n = count(l, kb);
    if (n) s.fsync_blocks = n;
  } else if (key == "end_fsync" || key == "fsync_on_close") {
    s.end_fsync = s.end_fsync || flag(l);
  } else if (key == "sync") {
    need_value(l);
    const std::string v = lower(l.value);  // options.c: none/0, sync/1 (O_SYNC), dsync (O_DSYNC)
    s.sync_io = v == "0" || v == "none" ? "none" : v == "1" || v == "sync" ? "sync" : v == "dsync" ? "dsync" : "";
    if (s.sync_io.empty()) fail(l, "expected none, 0, sync, 1 or dsync");
  } else if (key == "direct" || key == "buffered") {  // the host's page cache itself is not modelled
    s.direct = flag(l) == (key == "direct");
    ignore(l.key);
  } else if (key == "continue_on_error") {  // options.c: none/0 (fio's default: stop), write, read, io, verify, all/1
    need_value(l);
    const std::string v = lower(l.value);
    if (v != "none" && v != "0" && v != "false" && v != "write" && v != "read" && v != "io" && v != "verify" &&
        v != "all" && v != "1" && v != "true")
      fail(l, "expected none, write, read, io, verify or all (or 0, 1)");
    s.continue_on_error = v != "none" && v != "0" && v != "false";
  } else if (key == "disk_util") {  // whether fio.json has "disk_util" (fio_json.cpp)
    s.disk_util = flag(l);
    ignore(l.key);
  } else if (key == "writefua") {  // io_uring_cmd: the FUA bit on every write (engines/io_uring.c)
    s.writefua = flag(l);
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
  } else if (key == "ioengine") {
    need_value(l);
    std::string why;
    if (!engine_runs_as_block_io(l.value, why)) fail(l, why);
    s.ioengine = lower(l.value);
    ignore(l.key);
  } else {
    std::string why;
    switch (classify_option(key, why)) {
      case OptionClass::NoEffect:
        ignore(l.key);
        break;
      case OptionClass::Refused:
        if (refused_option_off(key, l)) {  // fio's default, off (verify_only=0, num_range=1): nothing to refuse
          ignore(l.key);
          break;
        }
        fail(l, why);
      case OptionClass::Unknown:
        fail_at(l.file, l.line,
                "unknown fio option " + quote_text(l.key) + " (fio 3.42 has no such option; docs/guides/fio.md lists them)");
    }
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
