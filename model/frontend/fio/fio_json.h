// fio's --output-format=json layout for a finished run, so scripts written for fio read ssdtlm runs.
//
// What is filled (fio HOWTO "JSON output", fio's stat.c layout):
//   "fio version", "timestamp", "timestamp_ms", "time", "global options"
//   jobs[]: jobname, groupid, error, eta, elapsed, "job options", job_runtime (ms), usr_cpu/sys_cpu/ctx/majf/minf
//           (0: no host CPU is modelled), latency_ns / latency_us / latency_ms (share of I/Os per latency bin)
//     read / write / trim: io_bytes, io_kbytes, bw_bytes, bw (KiB/s), iops, runtime (ms), total_ios,
//           short_ios, drop_ios, slat_ns (0: submission costs no host time here), clat_ns {min, max, mean,
//           stddev, N, percentile {"1.000000" ... "99.990000"}} in ns, lat_ns (= clat_ns)
//     sync: total_ios 0, lat_ns zeros (no flush command is modelled)
//   disk_util[]: name, read_ios, write_ios, read_sectors, write_sectors (512 B), read_merges/write_merges 0,
//           read_ticks, write_ticks, in_queue (ms: the sum of the latencies), util (% die-array busy time)
//   bw_* / iops_* from the job's windows of bwavgtime / iopsavgtime (HostStats::bw, iops), iodepth_level from the
//   depth at each submission; json_plus adds clat_ns.bins (fio's json+).
//   steadystate (jobs with ss_dur): as fio's, see steady_state_json.
//   zone_resets: zonemode=zbd jobs that write or trim (fio's count_zone_resets), the zones they reset.
//   latency_depth, latency_target (ns), latency_percentile, latency_window (us): the search's for jobs with
//   latency_target (error 110, ETIMEDOUT, when the target is missed at depth 1); otherwise, as fio, the job's
//   iodepth, 0, 100 and 0.
//
// Jobs whose workload.report_group is the same value >= 0 are one entry (fio's group_reporting): their
// histograms and counters are merged, the runtime is the longest.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "frontend/fio/fio_job.h"
#include "sim/platform.h"

namespace ssdtlm {

// `summary` is make_summary()'s result (for the utilization); `fio` the job file the run came from, if any
// (job and global options, jobnames, group ids); `version` goes into "fio version".
nlohmann::ordered_json make_fio_json(Platform& p, const Params& params, const nlohmann::json& summary, const FioJobFile* fio,
                             const std::string& version, bool json_plus = false);

// fio's "steadystate" object of a job (stat.c): ss, duration (s), attained, criterion, max_deviation, slope,
// data {bw_mean, iops_mean, [lat_mean, lat_ns,] iops, bw} over the last ss_dur; then attained_s (not fio's: the
// simulated time it was attained).
nlohmann::ordered_json steady_state_json(const SteadyState& ss);

// fio's default percentile list: 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99.
const std::vector<double>& fio_percentiles();

}  // namespace ssdtlm
