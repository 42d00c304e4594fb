// Each clone of a fio job as its ssdtlm job object (JobBuilder, fio_job_builder.h): how much, when, the logs,
// the latency target and steady state, verify and durability, rates, zones, data placement and the pattern.
#include <cmath>
#include <filesystem>

#include "common/input_file.h"
#include "common/text.h"
#include "common/units.h"
#include "config/choices.h"
#include "frontend/fio/fio_job_builder.h"

namespace ssdtlm {
namespace fio {

namespace {

namespace fs = std::filesystem;

// A write_*_log's name (fio's make_log_name: one without a name takes the job's). fio opens NAME_bw.N.log, ...
// relative to its working folder, which for ssdtlm is --out: a name with folders (fio-plot's bench-fio writes
// "DIR/NAME") is written there under --out, its folders made as needed (bench-fio makes them before it runs fio;
// --out starts without them). Every output stays under --out, so an absolute path or one climbing out of it with
// ".." is an error naming the option.
std::string log_name(const Spec& s, const std::optional<std::string>& v, const Line& at) {
  if (!v) return "";
  const std::string name = v->empty() ? s.name : *v;
  if (const std::string problem = output_path_problem(name); !problem.empty())
    fail(at, v->empty() ? "the log takes the job's name '" + s.name + "': " + problem + " (give it a name)"
                        : "'" + name + "': " + problem + " (fio's working folder is --out here)");
  return normal_output_path(name);
}

}  // namespace

// How much (time, count, bytes) and when: runtime, ramp, start delay, stonewall, wait_for, averaging, exit.
void JobBuilder::set_amount_and_timing(nlohmann::json& c, uint64_t k, uint64_t size) const {
  const Spec& s = s_;
  if (s.time_based && s.runtime_ns == 0) {  // fio's fixup_options: an error message, then time_based=0
    in_.note(s.time_based_at.file + ":" + std::to_string(s.time_based_at.line) +
             ": time_based without a runtime: fio says 'time_based requires a runtime/timeout setting' and runs the "
             "job without time_based");
  }
  if (s.time_based && s.runtime_ns != 0) {
    c["io_count"] = 0;
    c["io_bytes"] = 0;
  } else {
    c["io_count"] = s.number_ios * s.loops;
    uint64_t limit = size;
    if (s.io_size.set) limit = resolve(s.io_size, false);
    c["io_bytes"] = trace_ ? 0 : limit * s.loops;
    if (trace_) c["io_count"] = 0;  // a replay ends with its trace
  }
  c["runtime_ms"] = double(s.runtime_ns) / 1e6;
  c["ramp_ms"] = double(s.ramp_ns) / 1e6;
  c["start_delay_ms"] = double(s.startdelay_ns) / 1e6;
  c["stonewall"] = s.stonewall && k == 0;
  c["wait_for"] = s.wait_for;
  c["bw_avg_ms"] = double(s.bwavgtime_ms);
  c["iops_avg_ms"] = double(s.iopsavgtime_ms);
  c["exit_what"] = s.exitall ? s.exit_what : "none";
}

// fio's logs (make_log_name: a write_*_log without a name takes the job's; log_name), the latency target and
// steady state.
void JobBuilder::set_logs_and_targets(nlohmann::json& c) const {
  const Spec& s = s_;
  if (s.log.issue_time && (!s.lat_log || !s.log.offset))
    fail(s.log_issue_time_at, "log_issue_time needs write_lat_log and log_offset (as fio says)");
  c["latency_target_us"] = double(s.latency_target_ns) / 1e3;
  c["latency_window_ms"] = double(s.latency_window_ns) / 1e6;
  c["latency_percentile"] = s.latency_percentile;
  c["latency_run"] = s.latency_run;
  c["ss"] = s.ss;
  c["ss_dur_ms"] = double(s.ss_dur_ns) / 1e6;
  c["ss_ramp_ms"] = double(s.ss_ramp_ns) / 1e6;
  c["ss_interval_ms"] = double(s.ss_interval_ns) / 1e6;
  if (s.ss_dur_ns && s.ss_dur_ns < s.ss_interval_ns) fail(s.ss_dur_at, "ss_dur is shorter than ss_interval");
  c["log_bw"] = log_name(s, s.bw_log, s.bw_log_at);
  c["log_lat"] = log_name(s, s.lat_log, s.lat_log_at);
  c["log_iops"] = log_name(s, s.iops_log, s.iops_log_at);
  c["log_hist"] = log_name(s, s.hist_log, s.hist_log_at);
  c["log_avg_ms"] = s.log.avg_ms;
  c["log_hist_ms"] = s.log.hist_ms;
  c["log_hist_coarseness"] = s.log.hist_coarseness;
  c["log_window_value"] = s.log_window;
  c["log_offset"] = s.log.offset;
  c["log_issue_time"] = s.log.issue_time;
  c["log_prio"] = s.log.prio;
  c["log_per_job"] = s.log.per_job;
  c["disable_lat"] = s.log.no_lat;
  c["disable_clat"] = s.log.no_clat;
  c["disable_slat"] = s.log.no_slat;
}

// fio's verify phase: a job that writes reads back what it wrote (verify=null too: it reads, it does not
// compare); a job that only reads checks what it reads, with no I/O of its own. Durability (fio: only a job that
// writes syncs, should_fsync). sync=1/dsync with direct I/O: Linux marks the writes REQ_FUA (block/fops.c, an
// O_DSYNC direct write); buffered, the write is followed by the file's sync (generic_write_sync -> blkdev_fsync:
// an NVMe Flush after every write). Flow control and think time.
void JobBuilder::set_verify_and_durability(nlohmann::json& c) const {
  const Spec& s = s_;
  const Directions& d = p_.d;
  const bool verifying = s.verify != "0" && s.do_verify && d.w;
  if (verifying && trace_) not_modelled(s.read_iolog_at, "a verify phase after an iolog replay");
  if (s.flow && trace_) not_modelled(s.flow_at, "flow control of an iolog replay");
  c["verify"] = verifying;
  // verify_only (fio's do_dry_run, for a job that writes): the job's I/O is not issued, its writes only logged; the
  // verify phase then reads them back (with verify), or nothing happens (without). fio's HOWTO: "does not support
  // workloads with the time_based option set" (its dry run would never end).
  const bool dry_run = s.verify_only && d.w;
  if (dry_run && s.time_based)
    fail(s.verify_only_at, "verify_only does not support time_based (fio's HOWTO): its dry run has no end");
  c["verify_only"] = dry_run;
  c["stop_on_error"] = !s.continue_on_error;  // fio: a job ends at its first error unless continue_on_error
  const bool osync = s.sync_io != "none" && d.w;
  // direct=0 (fio's default) with an engine that goes through the kernel's files: the block device's page cache
  // (workload/filesystem/buffered_io.h). fio refuses zoned writes without O_DIRECT (zbd.c, zbd_using_direct_io); a
  // zoned job that only reads, and an iolog replay, stay direct.
  const bool cached = !s.direct && engine_uses_page_cache(s.ioengine);
  if (cached && s.zonemode == "zbd" && d.w)
    fail(s.zonemode_at, "zonemode=zbd writes need direct=1 (fio: \"Using direct I/O is mandatory for writing to ZBD "
                        "drives\"); fio's default is direct=0");
  c["buffered"] = cached && s.zonemode != "zbd" && !trace_ && s.dataplacement == DataPlacement::None;
  c["fsync"] = d.w ? (osync && !s.direct ? uint64_t(1) : s.fsync_blocks) : uint64_t(0);
  c["fsync_end"] = d.w && s.end_fsync;
  c["write_fua"] = d.w && ((osync && s.direct) || s.writefua);
  c["verify_backlog"] = verifying && !dry_run ? s.verify_backlog : 0;  // a dry run verifies at its end
  c["flow"] = s.flow > 1000 ? 0 : s.flow;  // a wrapped negative weight: resolve_wrapped_flows (fio_job.cpp)
  c["flow_id"] = s.flow_id;
  c["flow_sleep_us"] = double(s.flow_sleep_ns) / 1e3;
  c["thinktime_us"] = double(s.think_ns) / 1e3;
  c["thinktime_blocks"] = s.think_blocks;
}

// Rates: fio caps each direction at its own rate (a single value applies to every direction). A job's one
// cap is the sum over the directions it uses, which gives each its rate when the mix is in the rates' ratio
// (rw=randrw, rate=300: 300 B/s of reads and 300 of writes). In another ratio fio shifts the mix so that each
// direction meets its rate (io_u.c rate_ddir), which the job's fixed mix does not reproduce: refused.
double JobBuilder::job_rate(const std::array<std::optional<std::string>, 3>& v, const Line& at, const char* what) const {
  static const char* const kDir[3] = {"read", "write", "trim"};
  const Directions& d = p_.d;
  const bool used[3] = {d.r, d.w, d.t};
  const double share[3] = {p_.rf, 1.0 - p_.rf - p_.tf, p_.tf};
  double value[3] = {0, 0, 0}, sum = 0;
  int uses = 0, capped = 0;
  for (int k = 0; k < 3; ++k) {
    if (!used[k]) continue;  // a rate of a direction the job does not use has no effect, as in fio
    ++uses;
    if (!v[k]) continue;
    ++capped;
    value[k] = double(in_.size_value(at, *v[k], s_.kb_base));
    sum += value[k];
  }
  if (capped > 0 && capped < uses)
    not_modelled(at, std::string("a ") + what + " for some of the job's directions only (fio caps those, the others run free)");
  if (capped > 1)
    for (int k = 0; k < 3; ++k)
      if (used[k] && std::abs(value[k] / sum - share[k]) > 1e-6)
        not_modelled(at, std::string(what) + " per direction in another ratio than the job's mix (" + kDir[k] + " " +
                             num(value[k]) + " of " + num(sum) + ", " + num(100 * share[k]) + " % of its I/O): fio " +
                             "then shifts the mix so that each direction meets its rate; ssdtlm keeps the mix");
  return sum;
}

// Zoned block device (zonemode=zbd): the zones are the namespace's (zns.*); zonesize is read from the device.
// Strided zones; data placement on the writes.
void JobBuilder::set_zones_and_placement(nlohmann::json& c) const {
  const Spec& s = s_;
  const bool zbd = s.zonemode == "zbd";
  c["zbd"] = zbd;
  if (zbd) {
    uint64_t open = s.max_open_zones;
    if (s.job_max_open_zones && (!open || s.job_max_open_zones < open)) open = s.job_max_open_zones;
    c["zbd_max_open"] = open;
    c["zbd_ignore_limits"] = s.ignore_zone_limits;
    c["zbd_reset_threshold"] = s.zone_reset_threshold;
    c["zbd_reset_frequency"] = s.zone_reset_frequency;
    c["zbd_append"] = s.zone_append;
    c["zbd_initial_reset"] = s.initial_zone_reset;
  }
  const bool strided = s.zonemode == "strided" || (s.zonemode.empty() && s.zonesize > 0);
  if (s.zonemode == "strided" && s.zonesize == 0) fail(s.zonemode_at, "zonemode=strided needs zonesize");
  if (s.zonemode == "none" && s.zonesize) fail(s.zonemode_at, "zonemode=none and zonesize do not go together");
  if (zbd && s.zonesize) in_.note(s.zonemode_at.file + ": zonesize=" + format_bytes(s.zonesize) +
                                  " with zonemode=zbd: the zoned namespace's zone size applies (zns.zone_bytes), as fio reads it from the device");
  c["zone_range"] = strided ? (s.zonerange ? s.zonerange : s.zonesize) : 0;
  c["zone_size"] = strided ? s.zonesize : 0;
  c["zone_skip"] = strided ? s.zoneskip : 0;

  if (s.dataplacement == DataPlacement::Streams && s.plids.empty())
    fail(s.dataplacement_at, "dataplacement=streams needs the stream ids (plids)");
  c["dataplacement"] = choice_name(choices::kWorkloadDataplacement, s.dataplacement);
  c["plids"] = s.plids;
  c["plid_select"] = s.plid_select;
}

// The pattern: an iolog replay, or random/sequential with fio's rw modifier and percentage_random.
void JobBuilder::set_pattern(nlohmann::json& c, uint64_t k, uint64_t size) const {
  const Spec& s = s_;
  const std::string& modifier = p_.modifier;
  if (trace_) {
    fs::path p(s.read_iolog);
    if (p.is_relative() && !fs::exists(p)) p = fs::path(s.file).parent_path() / p;
    c["pattern"] = "trace";
    c["trace_path"] = p.string();
    c["trace_format"] = "fio_iolog";
    c["trace_timing"] = s.replay_no_stall ? "closed" : "open";
    c["trace_time_scale"] = 100.0 / s.replay_time_scale;
    c["percentage_random"] = "100";
    return;
  }
  c["pattern"] = p_.random ? "random" : "sequential";
  // fio's modifier: for a random rw, a new random offset every <nr> I/Os (sequential in between, or the same
  // offset with rw_sequencer=identical); for a sequential one, a hole of <size> bytes after each I/O.
  if (!modifier.empty() && p_.random) {
    const uint64_t n = in_.size_value(s.rw_at, modifier, s.kb_base);
    if (n < 1) fail(s.rw_at, "expected at least 1 I/O between random offsets");
    c["random_run"] = n;
    c["random_run_repeat"] = s.rw_sequencer == "identical";
  } else if (!modifier.empty()) {  // a negative size goes backwards (fio's ddir_seq_add < 0)
    const bool back = modifier[0] == '-';
    const int64_t skip = int64_t(in_.size_value(s.rw_at, back ? modifier.substr(1) : modifier, s.kb_base));
    if (skip >= int64_t(size)) fail(s.rw_at, "a skip of the job's whole range or more");
    c["sequential_skip"] = back ? -skip : skip;
  }
  // fio's percentage_random: the share of the random offsets that are random (per direction).
  const auto& pr = s.percentage_random;
  const bool partly = pr[0] < 100 || pr[1] < 100 || pr[2] < 100;
  c["percentage_random"] = p_.random && partly ? std::to_string(pr[0]) + "," + std::to_string(pr[1]) + "," +
                                                     std::to_string(pr[2])
                                               : "100";
  if (!p_.random && k == 0 && partly)
    in_.note(s.percentage_random_at.file + ":" + std::to_string(s.percentage_random_at.line) +
             ": percentage_random has no effect on sequential I/O (rw=" + p_.rw + ")");
  c["read_fraction"] = p_.rf;
  c["trim_fraction"] = p_.tf;
}

}  // namespace fio
}  // namespace ssdtlm
