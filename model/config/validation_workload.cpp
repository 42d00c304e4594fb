// Cross-key rules of a job's workload (config/validation.h): its pattern against the other keys, its area
// within the device, its placement against the namespace, the jobs it waits for, and the simulated time its
// pacing needs (SystemC's 2^64 ps).
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/text.h"
#include "common/units.h"
#include "config/validation.h"
#include "workload/synthetic/size_mix.h"

namespace ssdtlm {

namespace {
[[noreturn]] void fail(const std::string& key, const std::string& what) { throw ConfigError("key '" + key + "': " + what); }
}  // namespace

void check_app_placement(const WorkloadParams& w, bool fdp, bool zns, uint32_t host_queues) {
  if (w.pattern != "app") return;
  const AppParams& p = w.app;
  if (p.placement == AppPlacement::Fdp && !fdp)
    throw ConfigError("key 'workload.app.placement': fdp puts FDP placement identifiers on the app's writes; the namespace "
                      "has no FDP: set fdp.enabled=true");
  if (p.placement == AppPlacement::Fdp && w.placement.kind != DataPlacement::None)
    throw ConfigError("key 'workload.dataplacement': the app places its own writes (workload.app.placement=fdp); "
                      "leave workload.dataplacement at none, got " +
                      std::string(choice_name(choices::kWorkloadDataplacement, w.placement.kind)));
  if (p.placement == AppPlacement::Zns && !zns)
    throw ConfigError("key 'workload.app.placement': zns places the app's files in zones; the namespace is not zoned: "
                      "set zns.enabled=true");
  if (p.placement == AppPlacement::Zns && p.app != "lsm")
    throw ConfigError("key 'workload.app.placement': zns needs an app that only appends to its files (lsm); " + p.app +
                      " rewrites file data in place, which a zone's write pointer refuses");
  if (p.placement != AppPlacement::Zns && zns)
    throw ConfigError("key 'workload.app.placement': on a zoned namespace (zns.enabled) the app's files must go to zones; "
                      "set workload.app.placement=zns, got " +
                      std::string(choice_name(choices::kAppPlacement, p.placement)));
  if (p.placement == AppPlacement::Zns && host_queues > 1)
    throw ConfigError("key 'host.queues': workload.app.placement=zns writes each zone at its write pointer, so a zone's "
                      "writes must reach the drive in the order the app issued them (Linux keeps them so with zone write "
                      "locking); the host model keeps that order on one queue: expected 1, got " + std::to_string(host_queues));
  if (p.placement == AppPlacement::Zns && p.zones.max_active == 1)
    throw ConfigError("key 'zns.max_active': workload.app.placement=zns keeps a zone per lifetime class and one for its GC; "
                      "expected 0 (no limit) or at least 2, got 1");
}

namespace {

// The pattern against the other keys, whatever the pattern.
void check_pattern_keys(const WorkloadParams& w, const std::string& streams_assign) {
  if (w.verify && (w.pattern == "app" || w.pattern == "trace"))
    throw ConfigError("key 'workload.verify': reads back what a random or sequential job wrote; workload.pattern=" +
                      w.pattern + " is not one");
  if (w.pacing.poisson && w.pacing.rate_iops <= 0 && w.pacing.rate_bytes_per_s <= 0)
    throw ConfigError("key 'workload.rate_process': poisson needs a rate (workload.rate_iops or workload.rate_mbps)");
  if (w.random_run > 1 && w.pattern != "random")
    throw ConfigError("key 'workload.random_run': a new random offset every N I/Os needs workload.pattern=random, got " +
                      w.pattern);
  if (w.pattern != "random" && (w.percentage_random[0] < 100 || w.percentage_random[1] < 100 || w.percentage_random[2] < 100))
    throw ConfigError("key 'workload.percentage_random': a share of random offsets needs workload.pattern=random, got " +
                      w.pattern);
  if (w.pacing.flow > 0 && w.pattern != "random" && w.pattern != "sequential")
    throw ConfigError("key 'workload.flow': flow control paces closed-loop random or sequential jobs; workload.pattern=" +
                      w.pattern + " is not one");
  if (w.sequential_skip != 0 && w.pattern != "sequential")
    throw ConfigError("key 'workload.sequential_skip': a hole after each I/O needs workload.pattern=sequential, got " +
                      w.pattern);
  if (w.verify_only && (w.pattern == "app" || w.pattern == "trace"))
    throw ConfigError("key 'workload.verify_only': a dry run of a random or sequential job; workload.pattern=" +
                      w.pattern + " has its own I/O");
  if (w.verify_only && w.verify_backlog > 0)
    throw ConfigError("key 'workload.verify_backlog': a dry run (workload.verify_only) verifies at its end");
  if (w.verify_backlog > 0 && !w.verify)
    throw ConfigError("key 'workload.verify_backlog': needs workload.verify=true");
  if (w.zone_hint && streams_assign != "manual")
    throw ConfigError("key 'workload.stream_hint': zone tags writes with stream ids, which only streams.assign=manual "
                      "uses (got streams.assign=" + streams_assign + ")");
  if (w.ext4 && (w.pattern == "app" || w.pattern == "trace"))
    throw ConfigError("key 'workload.filesystem': ext4 places a synthetic job's area in a file; "
                      "workload.pattern=" + w.pattern + " has its own addresses (app: its own file layer); set "
                      "workload.filesystem=none");
}

// workload.pattern=app: stream hints, the precondition fill, an end, the app's trims against the buffer.
void check_app_workload(const WorkloadParams& w, bool precondition_fill, uint64_t buffer_bytes, bool timed) {
  if (w.zone_hint)
    throw ConfigError("key 'workload.stream_hint': zone needs a synthetic zoned: distribution (workload.pattern=app "
                      "writes carry the app's own stream hints)");
  const AppParams& p = w.app;
  if (timed) {
    if (precondition_fill && p.trim)
      throw ConfigError("key 'precondition.fill': workload.pattern=app ages the drive itself (the precondition writes "
                        "the aged files and the app's initial files and leaves the free space unwritten); a sequential "
                        "fill would leave stale data there: set precondition.fill=false (a fill suits workload.app.trim=false, a file "
                        "system without discard, whose free space holds old data)");
    if (w.io_count == 0 && w.io_bytes == 0 && w.runtime_ms <= 0 && p.app != "gcc" && p.app != "mixed1" && p.app != "mixed2")
      throw ConfigError("keys 'workload.io_count', 'workload.io_bytes', 'workload.runtime_ms': all 0 and workload.app=" +
                        p.app + " never ends by itself; set at least one");
  }
  if (p.gcc_gap_ns > 0 && p.app != "gcc")
    throw ConfigError("key 'workload.app.gcc_gap_ms': an idle gap between gcc's builds pauses the whole job, and with "
                      "workload.app=" + p.app + " the job is not gcc alone; use workload.app=gcc or a gap of 0");
  const uint64_t max_io = p.max_io_bytes * 8;  // trims go out in pieces of up to 8 x max_io_bytes
  if (max_io > buffer_bytes)
    throw ConfigError("key 'workload.app.max_io_bytes': trims of up to 8 x " + format_bytes(p.max_io_bytes) +
                      " must fit the write buffer (buffer.bytes = " + format_bytes(buffer_bytes) + ")");
}

// workload.pattern=trace: stream hints and the trace file.
void check_trace_workload(const WorkloadParams& w) {
  if (w.zone_hint)
    throw ConfigError("key 'workload.stream_hint': zone needs a synthetic zoned: distribution (a trace carries its "
                      "own stream ids, csv format)");
  if (w.trace_path.empty()) throw ConfigError("key 'workload.trace_path': expected a trace file with workload.pattern=trace");
}

// A synthetic (random or sequential) job: its alignment, its area within the device, zone hints, an end, the mix.
void check_synthetic_workload(const WorkloadParams& w, uint64_t logical_bytes, bool timed) {
  if (w.block_align % 512)
    throw ConfigError("key 'workload.block_align': expected 0 (the block size) or a multiple of 512 bytes (a sector), "
                      "got " + format_bytes(w.block_align));
  const uint64_t offset = w.address_offset;
  if (offset >= logical_bytes)
    throw ConfigError("key 'workload.address_offset': expected less than the logical capacity " +
                      format_bytes(logical_bytes) + ", got " + format_bytes(offset));
  const uint64_t range = w.address_range ? w.address_range : logical_bytes - offset;
  if (range > logical_bytes - offset)
    throw ConfigError(std::string(offset ? "keys 'workload.address_offset' + 'workload.address_range'"
                                         : "key 'workload.address_range'") +
                      ": expected at most the logical capacity " + format_bytes(logical_bytes) + ", got " +
                      format_bytes(offset + range));
  SyntheticSpec s = synthetic_spec(w, logical_bytes);
  if (w.zone_hint && (s.pattern != "random" || s.distribution.rfind("zoned:", 0) != 0))
    throw ConfigError("key 'workload.stream_hint': zone needs workload.pattern=random with a zoned: distribution, got " +
                      s.pattern + (s.pattern == "random" ? " " + s.distribution : ""));
  if (!timed) {
    s.read_fraction = 0.0;
    s.trim_fraction = 0.0;
  } else if (s.io_count == 0 && s.io_bytes == 0 && w.runtime_ms <= 0) {
    throw ConfigError("keys 'workload.io_count', 'workload.io_bytes', 'workload.runtime_ms': all 0, the job would never "
                      "end; set at least one");
  }
  if (s.read_fraction + s.trim_fraction > 1.0)
    throw ConfigError("keys 'workload.read_fraction' + 'workload.trim_fraction': expected at most 1");
}

}  // namespace

namespace {
// workload.buffered: the page cache under a synthetic job on the raw namespace.
void check_buffered(const WorkloadParams& w, uint64_t buffer_bytes) {
  if (!w.buffered) return;
  const char* why = w.pattern == "app" || w.pattern == "trace" ? "workload.pattern=app and trace have their own I/O"
                    : w.ext4                                   ? "workload.filesystem=ext4 writes the file directly"
                    : w.zbd.on                                 ? "zoned writes need direct I/O (fio: zonemode=zbd requires direct=1)"
                    : w.placement.kind != DataPlacement::None  ? "placement identifiers go on direct or passthrough writes"
                    : w.sync.fua                               ? "FUA writes are direct I/O (workload.write_fua)"
                                                               : nullptr;
  if (why) fail("workload.buffered", std::string("the page cache is modelled under a random or sequential job on the "
                                                 "raw namespace; ") + why);
  if (w.page_cache.dirty_bytes > 0 && w.page_cache.dirty_bytes < 2 * 4096)  // vm.rst: at least two pages
    fail("workload.dirty_bytes", "expected 0 (workload.dirty_ratio) or at least two pages (8192 bytes, as "
                                 "vm.dirty_bytes), got " + std::to_string(w.page_cache.dirty_bytes));
  if (w.page_cache.max_io_bytes > buffer_bytes)
    fail("workload.page_cache_max_io_bytes", "expected at most the write buffer (buffer.bytes = " +
                                                 format_bytes(buffer_bytes) + "), got " +
                                                 format_bytes(w.page_cache.max_io_bytes));
}
}  // namespace

void check_workload(const WorkloadParams& w, const std::string& streams_assign, uint64_t logical_bytes,
                    bool precondition_fill, uint64_t buffer_bytes, bool timed) {
  check_pattern_keys(w, streams_assign);
  check_buffered(w, buffer_bytes);
  if (w.pattern == "app")
    check_app_workload(w, precondition_fill, buffer_bytes, timed);
  else if (w.pattern == "trace")
    check_trace_workload(w);
  else
    check_synthetic_workload(w, logical_bytes, timed);
}

void check_job_dependencies(const std::vector<JobParams>& jobs, bool jobs_listed) {
  for (size_t j = 0; j < jobs.size(); ++j) {
    const std::string& name = jobs[j].workload.pacing.wait_for;
    if (name.empty()) continue;
    bool found = false;
    std::string earlier;
    for (size_t k = 0; k < j; ++k) {
      found |= wait_for_names(name, jobs[k].name);
      earlier += (earlier.empty() ? "" : ", ") + jobs[k].name;
    }
    if (!found)
      throw ConfigError("key '" + (jobs_listed ? "jobs[" + std::to_string(j) + "]." : std::string("workload.")) +
                        "wait_for': expected the name of an earlier job, got '" +
                        name + "' (earlier jobs: " + (earlier.empty() ? "none" : earlier) + ")");
  }
}

void check_precondition_jobs(const std::vector<WorkloadParams>& jobs, bool jobs_listed) {
  if (!jobs_listed) return;
  for (size_t j = 0; j < jobs.size(); ++j)
    if (jobs[j].pattern == "app")
      throw ConfigError("key 'jobs[" + std::to_string(j) + "].pattern': app runs its model(s) over the whole namespace "
                        "and cannot share it with other jobs; use workload.pattern=app without jobs (mixed1 and mixed2 "
                        "run two apps together)");
}

}  // namespace ssdtlm

namespace ssdtlm {

namespace {

// SystemC's time is 64-bit picoseconds: a run ends before 2^64 ps (about 213.5 days).
constexpr long double kEndOfTimePs = 18446744073709551616.0L;

// The smallest and largest transfer of a synthetic job: a lower bound of its I/O count is io_bytes over the
// largest, a lower bound of the gap a byte rate puts between its I/Os is the smallest over the rate.
std::pair<uint64_t, uint64_t> transfer_bounds(const SyntheticSpec& s) {
  if (s.bssplit.empty()) return {s.block_bytes, s.block_bytes};
  uint64_t least = ~uint64_t(0), most = 0;
  size_t from = 0;
  for (size_t at = 0; at != std::string::npos; from = at + 1) {  // per direction: read,write,trim
    at = s.bssplit.find(',', from);
    const std::string part = s.bssplit.substr(from, at == std::string::npos ? std::string::npos : at - from);
    if (part.empty()) continue;
    try {
      const SizeMix mix = parse_bssplit(part);
      least = std::min<uint64_t>(least, mix.min_bytes());
      most = std::max<uint64_t>(most, mix.max_bytes());
    } catch (const std::invalid_argument&) {
      return {1, ~uint32_t(0)};  // the workload refuses it itself; meanwhile, whatever a mix may hold
    }
  }
  return most ? std::make_pair(least, most) : std::make_pair(uint64_t(s.block_bytes), uint64_t(s.block_bytes));
}

std::string seconds_text(long double ps) { return format_number(double(ps / 1e12L)) + " s"; }

}  // namespace

// A lower bound of the simulated time the job needs: its start delay, then the lesser of its run time (ramp +
// runtime) and the time its pacing takes over its I/O count (think times between batches, the rate's gaps
// between submissions; the last I/O's are never waited for). The count is known for a synthetic job (io_count,
// or io_bytes over its largest transfer) that nothing stops early (steady state, another job's exit_what).
void check_job_time(const WorkloadParams& w, uint64_t logical_bytes, bool may_stop_early, const std::string& prefix) {
  const JobPacing& p = w.pacing;
  const auto ps = [](uint64_t ns) { return (long double)ns * 1e3L; };
  const auto refuse = [&](const std::string& key, const std::string& fio, const std::string& what, long double need) {
    fail(prefix + key, what + " (fio " + fio + "): the job needs at least " + seconds_text(need) +
                           " of simulated time, beyond the 2^64 ps (" + seconds_text(kEndOfTimePs) +
                           ", about 213.5 days) a run can reach; lower it");
  };
  const long double start = ps(p.start_delay_ns);
  if (start >= kEndOfTimePs)
    refuse("start_delay_ms", "startdelay", "the job starts " + seconds_text(start) + " in", start);
  const long double inf = std::numeric_limits<long double>::infinity();
  const long double by_time = p.runtime_ns ? ps(p.ramp_ns) + ps(p.runtime_ns) : inf;
  long double ios = 0, least = 1;  // I/O count (0: not known), smallest transfer
  const bool synthetic = w.pattern == "random" || w.pattern == "sequential";
  if (synthetic && !may_stop_early && p.ss.dur_ms == 0) {
    const SyntheticSpec s = synthetic_spec(w, logical_bytes);
    const auto [small, large] = transfer_bounds(s);
    least = (long double)small;
    if (s.io_count) ios = (long double)s.io_count;
    if (s.io_bytes) {
      const long double by_bytes = std::ceil((long double)s.io_bytes / (long double)large);
      ios = ios ? std::min(ios, by_bytes) : by_bytes;
    }
  }
  const long double think = ios > 1 ? std::floor((ios - 1) / p.think_blocks) * ps(p.think_ns) : 0;
  const long double iops_gap = p.rate_iops > 0 ? 1e12L / p.rate_iops : 0;
  const long double bytes_gap = p.rate_bytes_per_s > 0 ? least * 1e12L / p.rate_bytes_per_s : 0;
  const long double paced = ios > 1 ? (ios - 1) * std::max(iops_gap, bytes_gap) : 0;
  const long double by_count = ios ? std::max(think, paced) : inf;
  const long double run = std::min(by_time, by_count);
  if (run == inf || start + run < kEndOfTimePs) return;  // inf: neither bound is known
  if (run == by_time)
    refuse("runtime_ms", "runtime", "a run time of " + seconds_text(by_time) + " (ramp included)", start + run);
  const std::string of = " over its " + format_number(double(ios)) + " I/Os";
  if (think >= paced)
    refuse("thinktime_us", "thinktime", format_number(double(p.think_ns) / 1e3) + " us after every " +
                                            std::to_string(p.think_blocks) + " I/Os" + of, start + run);
  if (iops_gap >= bytes_gap)
    refuse("rate_iops", "rate_iops", format_number(p.rate_iops) + " I/Os per second" + of, start + run);
  refuse("rate_mbps", "rate", format_number(p.rate_bytes_per_s / 1e6) + " MB/s" + of, start + run);
}

void check_jobs_time(const std::vector<JobParams>& jobs, bool jobs_listed, uint64_t logical_bytes) {
  const bool exits = std::any_of(jobs.begin(), jobs.end(),
                                 [](const JobParams& j) { return j.workload.pacing.exit_what != ExitWhat::None; });
  for (size_t j = 0; j < jobs.size(); ++j)
    check_job_time(jobs[j].workload, logical_bytes, exits, jobs_listed ? "jobs[" + std::to_string(j) + "]." : "workload.");
}

}  // namespace ssdtlm
