#include "frontend/fio/fio_json.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>

#include "workload/placement/zbd_workload.h"
#include "workload/sync/sync_workload.h"

namespace ssdtlm {

namespace {

struct Entry {
  std::string name;
  int groupid = 0;
  nlohmann::ordered_json options = nlohmann::ordered_json::object();
  HostStats stats;
  bool first = true;
  uint64_t start_ps = 0, end_ps = 0;  // measured span (the longest of the merged jobs)
  uint64_t job_start_ps = 0;          // the earliest start of the merged jobs
  const SteadyState* ss = nullptr;     // fio's steady state (one per report group)
  FioReportOptions report;             // the first job's (fio: the group's)
  bool no_clat = false, no_lat = false;  // fio's disable_clat, disable_lat (the first job's)
  const LatencyTarget* lt = nullptr;   // fio's latency-target search (the first job's)
  LatencyTargetParams lt_params;
  uint64_t iodepth = 1;                // the first job's queues x queue depth (fio's iodepth)
  bool error_stopped = false;          // a job of it stopped at a failed command (fio: err=EIO)
  bool count_zone_resets = false;      // fio: zonemode=zbd jobs that write or trim report their zone resets
  uint64_t zone_resets = 0;
  double runtime_s() const { return end_ps > start_ps ? double(end_ps - start_ps) / 1e12 : 0.0; }
};

void merge(Entry& e, const HostStats& h) {
  HostStats& s = e.stats;
  for (int k = 0; k < 2; ++k) {
    s.latency[k].merge(h.latency[k]);
    s.ios[k] += h.ios[k];
    s.bytes[k] += h.bytes[k];
  }
  s.trim_latency.merge(h.trim_latency);
  s.sync_latency.merge(h.sync_latency);
  s.syncs += h.syncs;
  for (int d = 0; d < 3; ++d) {
    s.bw[d].merge(h.bw[d]);
    s.iops[d].merge(h.iops[d]);
  }
  for (int i = 0; i < 7; ++i) s.depth_at_submit[i] += h.depth_at_submit[i];
  s.trims += h.trims;
  s.trim_bytes += h.trim_bytes;
  if (e.first || h.first_submit_ps < e.start_ps) e.start_ps = h.first_submit_ps;
  if (e.first || h.last_complete_ps > e.end_ps) e.end_ps = h.last_complete_ps;
  e.first = false;
}

// Job j's figures added to its entry: statistics, errors, zone resets, steady state, latency target, start.
void add_job(Entry& e, const NvmeHost& host, const Params& params, size_t j) {
  merge(e, host.job_stats(j));
  e.error_stopped = e.error_stopped || host.job_error_stopped(j);
  const WorkloadParams& wp = params.jobs[j].workload;
  if (wp.zbd.on && (wp.read_fraction < 1 || wp.trim_fraction > 0)) {
    e.count_zone_resets = true;
    const Workload* w = host.job(j).workload;
    if (auto* sw = dynamic_cast<const SyncWorkload*>(w)) w = &sw->inner();  // fsync's decorator goes outermost
    if (auto* z = dynamic_cast<const ZbdWorkload*>(w)) e.zone_resets += z->resets();
  }
  if (!e.ss) e.ss = host.job_steady_state(j);
  if (!e.lt && (e.lt = host.job_latency_target(j))) e.lt_params = params.jobs[j].workload.pacing.latency;
  const uint64_t start = host.job_start_ps(j);
  if (e.job_start_ps == 0 || start < e.job_start_ps) e.job_start_ps = start;
}

nlohmann::ordered_json lat_object(const Histogram& h, const std::vector<double>* percentiles, bool bins) {
  nlohmann::ordered_json o = {{"min", h.min()},
                      {"max", h.max()},
                      {"mean", h.mean()},
                      {"stddev", h.stddev()},
                      {"N", h.count()}};
  if (percentiles && h.count()) {
    nlohmann::ordered_json p = nlohmann::ordered_json::object();
    char key[32];
    for (double q : *percentiles) {
      std::snprintf(key, sizeof key, "%f", q);
      p[key] = h.quantile(q / 100.0);
    }
    o["percentile"] = p;
    if (bins) {  // json+: fio's clat bins, "value ns": count
      nlohmann::ordered_json b = nlohmann::ordered_json::object();
      for (auto& [v, n] : h.bins()) b[std::to_string(v)] = n;
      o["bins"] = b;
    }
  }
  return o;
}

nlohmann::ordered_json zero_lat() { return {{"min", 0}, {"max", 0}, {"mean", 0.0}, {"stddev", 0.0}, {"N", 0}}; }

// One direction of a job; agg_bytes_per_s: the group's aggregate bandwidth in this direction (bw_agg).
nlohmann::ordered_json direction(const Histogram& h, uint64_t ios, uint64_t bytes, double runtime_s, const RateStat& bw,
                                 const RateStat& iops, double agg_bytes_per_s, const Entry& e, bool bins) {
  const FioReportOptions& r = e.report;
  std::vector<double> sorted = r.percentiles;  // fio sorts the list (calc_clat_percentiles)
  std::sort(sorted.begin(), sorted.end());
  const std::vector<double>* list = r.percentiles.empty() ? &fio_percentiles() : &sorted;
  const Histogram none;  // slat: the model has no submission cost
  const uint64_t runtime_ms = uint64_t(runtime_s * 1e3 + 0.5);
  const double bw_bytes = runtime_s > 0 ? double(bytes) / runtime_s : 0.0;
  // fio's convert_agg_kbytes_percent: the mean sample as a share of the group's aggregate, at most 100 %.
  const double agg = agg_bytes_per_s > 1024 ? std::min(100.0, bw.mean() * 100.0 / (agg_bytes_per_s / 1024.0)) : 100.0;
  return {{"io_bytes", bytes},
          {"io_kbytes", bytes >> 10},
          {"bw_bytes", uint64_t(bw_bytes)},
          {"bw", uint64_t(bw_bytes / 1024.0)},
          {"iops", runtime_s > 0 ? double(ios) / runtime_s : 0.0},
          {"runtime", ios ? runtime_ms : 0},
          {"total_ios", ios},
          {"short_ios", 0},
          {"drop_ios", 0},
          {"slat_ns", r.slat_percentiles ? lat_object(none, list, false) : zero_lat()},
          // fio's disable_clat / disable_lat: that latency is not recorded
          {"clat_ns", e.no_clat ? zero_lat() : lat_object(h, r.clat_percentiles ? list : nullptr, bins)},
          {"lat_ns", e.no_lat ? zero_lat() : lat_object(h, r.lat_percentiles ? list : nullptr, false)},
          {"bw_min", uint64_t(bw.min)},
          {"bw_max", uint64_t(bw.max)},
          {"bw_agg", bw.n ? agg : 0.0},
          {"bw_mean", bw.mean()},
          {"bw_dev", bw.stddev()},
          {"bw_samples", bw.n},
          {"iops_min", uint64_t(iops.min)},
          {"iops_max", uint64_t(iops.max)},
          {"iops_mean", iops.mean()},
          {"iops_stddev", iops.stddev()},
          {"iops_samples", iops.n}};
}

nlohmann::ordered_json options_json(const FioOptions& opts) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  for (auto& [k, v] : opts) o[k] = v;
  return o;
}

// fio's latency bins: the share (%) of I/Os in (previous bound, bound], bounds in `unit_ns`.
nlohmann::ordered_json latency_bins(const Histogram& all, const std::vector<const char*>& bounds, uint64_t unit_ns,
                            bool open_end, uint64_t below_ns) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  const double n = double(all.count());
  uint64_t prev = below_ns ? all.count_at_most(below_ns) : 0;
  for (const char* b : bounds) {
    const uint64_t upto = all.count_at_most(uint64_t(std::atoll(b)) * unit_ns);
    o[b] = n > 0 ? 100.0 * double(upto - std::min(upto, prev)) / n : 0.0;
    prev = std::max(prev, upto);
  }
  if (open_end) o[">=2000"] = n > 0 ? 100.0 * double(all.count() - std::min(all.count(), prev)) / n : 0.0;
  return o;
}

}  // namespace

nlohmann::ordered_json steady_state_json(const SteadyState& ss) {
  const SteadyStateParams& p = ss.params();
  char criterion[64];
  std::snprintf(criterion, sizeof criterion, "%f%s", ss.criterion(), p.percent ? "%" : "");
  const auto mean = [](const std::vector<uint64_t>& v) {
    uint64_t sum = 0;
    for (uint64_t x : v) sum += x;
    return v.empty() ? uint64_t(0) : sum / v.size();
  };
  const std::vector<uint64_t> iops = ss.iops(), bw = ss.bw(), lat = ss.lat();
  nlohmann::ordered_json data = {{"bw_mean", mean(bw)}, {"iops_mean", mean(iops)}};
  if (p.metric == SteadyStateParams::Metric::Lat) {
    data["lat_mean"] = mean(lat);
    data["lat_ns"] = lat;
  }
  data["iops"] = iops;
  data["bw"] = bw;
  return {{"ss", p.text()},
          {"duration", p.dur_ms / 1000},
          {"attained", ss.attained() ? 1 : 0},
          {"criterion", criterion},
          {"max_deviation", ss.deviation()},
          {"slope", ss.slope()},
          {"data", data},
          {"attained_s", ss.attained() ? double(ss.attained_ps()) / 1e12 : 0.0}};  // not fio's: when
}

const std::vector<double>& fio_percentiles() {
  static const std::vector<double> p = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  return p;
}

namespace {

// The report entries: one per job, or per report group (group_reporting) with its jobs merged.
std::vector<Entry> gather_entries(const NvmeHost& host, const Params& params, const FioJobFile* fio) {
  std::vector<Entry> entries;
  std::map<int64_t, size_t> by_group;
  for (size_t j = 0; j < host.jobs(); ++j) {
    const int64_t group = params.jobs[j].report_group;
    const FioJob* fj = fio && j < fio->jobs.size() ? &fio->jobs[j] : nullptr;
    size_t at;
    auto it = group >= 0 ? by_group.find(group) : by_group.end();
    if (it != by_group.end()) {
      at = it->second;
    } else {
      at = entries.size();
      Entry e;
      e.name = fj ? fj->name : host.jobs() == 1 && !params.jobs_listed ? std::string("ssdtlm") : host.job(j).name;
      e.groupid = fj ? fj->group : int(group >= 0 ? group : 0);
      if (fj) e.options = options_json(fj->options);
      if (fj) e.report = fj->report;
      e.no_clat = params.jobs[j].log.no_clat;
      e.iodepth = uint64_t(params.jobs[j].queues) * params.jobs[j].queue_depth;
      e.no_lat = params.jobs[j].log.no_lat;
      entries.push_back(std::move(e));
      if (group >= 0) by_group[group] = at;
    }
    add_job(entries[at], host, params, j);
  }
  return entries;
}

// fio's group aggregates (run status per groupid): bytes per second over the group's longest runtime.
std::map<int, std::array<double, 3>> group_bandwidths(const std::vector<Entry>& entries) {
  std::map<int, std::array<double, 3>> agg_bytes;
  std::map<int, double> group_runtime;
  for (const Entry& e : entries) {
    group_runtime[e.groupid] = std::max(group_runtime[e.groupid], e.runtime_s());
    auto& a = agg_bytes[e.groupid];
    a[0] += double(e.stats.bytes[0]);
    a[1] += double(e.stats.bytes[1]);
    a[2] += double(e.stats.trim_bytes);
  }
  for (auto& [g, a] : agg_bytes)
    for (double& v : a) v = group_runtime[g] > 0 ? v / group_runtime[g] : 0.0;
  return agg_bytes;
}

// fio's directions: read, write, trim; with unified_rw_reporting=mixed one "mixed" instead, =both all four. Then
// fio's add_ddir_status_json(DDIR_SYNC): the Flush commands (fsync/fdatasync) and their latency, percentiles
// when clat or lat percentiles are on (stat.c); not written with unified_rw_reporting=mixed, as in fio.
void add_directions(nlohmann::ordered_json& job, const Entry& e, const Histogram& lat,
                    const std::array<double, 3>& agg, bool json_plus) {
  const HostStats& s = e.stats;
  const double runtime_s = e.runtime_s();
  const FioReportOptions& r = e.report;
  if (r.unified != "mixed") {
    job["read"] = direction(s.latency[0], s.ios[0], s.bytes[0], runtime_s, s.bw[0], s.iops[0], agg[0], e, json_plus);
    job["write"] = direction(s.latency[1], s.ios[1], s.bytes[1], runtime_s, s.bw[1], s.iops[1], agg[1], e, json_plus);
    job["trim"] = direction(s.trim_latency, s.trims, s.trim_bytes, runtime_s, s.bw[2], s.iops[2], agg[2], e, json_plus);
  }
  if (r.unified != "none") {
    RateStat bw_all, iops_all;  // fio's mixed samples: every direction's windows
    for (int d = 0; d < 3; ++d) {
      bw_all.merge(s.bw[d]);
      iops_all.merge(s.iops[d]);
    }
    job["mixed"] = direction(lat, s.ios[0] + s.ios[1] + s.trims, s.bytes[0] + s.bytes[1] + s.trim_bytes, runtime_s,
                             bw_all, iops_all, agg[0] + agg[1] + agg[2], e, json_plus);
  }
  if (r.unified != "mixed") {
    std::vector<double> sorted = r.percentiles;
    std::sort(sorted.begin(), sorted.end());
    const std::vector<double>* list = r.percentiles.empty() ? &fio_percentiles() : &sorted;
    job["sync"] = {{"total_ios", s.syncs},
                   {"lat_ns", e.no_clat ? zero_lat()
                                        : lat_object(s.sync_latency, r.clat_percentiles || r.lat_percentiles ? list : nullptr, false)}};
  }
}

// fio's I/O depth distributions (% of submissions): the depth each submission made; one command per
// submission and per reaped completion (fio's "submit"/"complete" counts in its 1-4 bin). Then the latency
// distribution (none without clat: io_u_mark_latency).
void add_depths_and_latency_bins(nlohmann::ordered_json& job, const Entry& e, Histogram lat) {
  const HostStats& s = e.stats;
  uint64_t submits = 0;
  for (uint64_t n : s.depth_at_submit) submits += n;
  nlohmann::ordered_json level = nlohmann::ordered_json::object();
  const char* const kLevel[7] = {"1", "2", "4", "8", "16", "32", ">=64"};
  for (int i = 0; i < 7; ++i) level[kLevel[i]] = submits ? 100.0 * double(s.depth_at_submit[i]) / double(submits) : 0.0;
  job["iodepth_level"] = level;
  const char* const kBatch[7] = {"0", "4", "8", "16", "32", "64", ">=64"};
  nlohmann::ordered_json batch = nlohmann::ordered_json::object();
  for (int i = 0; i < 7; ++i) batch[kBatch[i]] = i == 1 && submits ? 100.0 : 0.0;
  job["iodepth_submit"] = batch;
  job["iodepth_complete"] = batch;
  if (e.no_clat) lat = Histogram();  // fio: no clat, no latency distribution (io_u_mark_latency)
  job["latency_ns"] = latency_bins(lat, {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"}, 1, false, 0);
  job["latency_us"] =
      latency_bins(lat, {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"}, 1000, false, 1000);
  job["latency_ms"] = latency_bins(lat, {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000"},
                                   1000000, true, 1000000);
}

// One entry of fio's "jobs"; agg: its group's aggregate bandwidths.
nlohmann::ordered_json job_json(const Entry& e, const std::array<double, 3>& agg, uint64_t elapsed, bool json_plus) {
  const HostStats& s = e.stats;
  const double runtime_s = e.runtime_s();
  Histogram lat;
  for (int k = 0; k < 2; ++k) lat.merge(s.latency[k]);
  lat.merge(s.trim_latency);
  nlohmann::ordered_json job = {
      {"jobname", e.name},
      {"groupid", e.groupid},
      {"job_start", uint64_t(double(e.job_start_ps) / 1e9 + 0.5)},  // simulated ms since the timed run began
      // fio: ETIMEDOUT, "max latency exceeded" at depth 1; EIO (5) for a command the drive failed
      {"error", e.lt && e.lt->failed() ? 110 : e.error_stopped ? 5 : 0},
      {"eta", 0},
      {"elapsed", elapsed}};
  if (!e.options.empty()) job["job options"] = e.options;  // fio's json_add_job_opts: none when empty
  add_directions(job, e, lat, agg, json_plus);
  job["job_runtime"] = uint64_t(runtime_s * 1e3 + 0.5);
  for (const char* cpu : {"usr_cpu", "sys_cpu"}) job[cpu] = 0.0;
  for (const char* count : {"ctx", "majf", "minf"}) job[count] = 0;
  add_depths_and_latency_bins(job, e, lat);
  if (e.lt) {  // fio's latency-target results: the depth found and the search's settings
    job["latency_depth"] = e.lt->depth();
    job["latency_target"] = e.lt_params.target_ns;
    job["latency_percentile"] = e.lt_params.percentile;
    job["latency_window"] = e.lt_params.window_ns / 1000;  // us
  } else {  // fio without a target (lat_target_init): the depth is the job's iodepth, the target 0
    job["latency_depth"] = e.iodepth;
    job["latency_target"] = 0;
    job["latency_percentile"] = 100.0;
    job["latency_window"] = 0;
  }
  if (e.ss) job["steadystate"] = steady_state_json(*e.ss);
  if (e.count_zone_resets) job["zone_resets"] = e.zone_resets;
  return job;
}

// fio's disk statistics of the device; ticks_ns: the entries' summed read, write and trim latencies.
nlohmann::ordered_json disk_json(const NvmeHost& host, const nlohmann::json& summary, const uint64_t ticks_ns[3]) {
  const HostStats& h = host.measured_stats();
  const double util = summary.contains("utilization") ? summary["utilization"]["die_array"].get<double>() : 0.0;
  return {{"name", "ssdtlm"},
          {"read_ios", h.ios[0]},
          {"write_ios", h.ios[1]},
          {"read_sectors", h.bytes[0] / 512},
          {"write_sectors", h.bytes[1] / 512},
          {"read_merges", 0},
          {"write_merges", 0},
          {"read_ticks", ticks_ns[0] / 1000000},
          {"write_ticks", ticks_ns[1] / 1000000},
          {"in_queue", (ticks_ns[0] + ticks_ns[1] + ticks_ns[2]) / 1000000},
          {"util", 100.0 * util}};
}

}  // namespace

nlohmann::ordered_json make_fio_json(Platform& p, const Params& params, const nlohmann::json& summary, const FioJobFile* fio,
                             const std::string& version, bool json_plus) {
  const NvmeHost& host = p.host();
  const std::vector<Entry> entries = gather_entries(host, params, fio);
  std::map<int, std::array<double, 3>> agg_bytes = group_bandwidths(entries);
  // fio's "elapsed": whole seconds since the run began, rounded up (eta.c); here simulated.
  const HostStats& whole = host.stats();
  const double run_s = whole.last_complete_ps > whole.first_submit_ps
                           ? double(whole.last_complete_ps - whole.first_submit_ps) / 1e12 : 0.0;
  const uint64_t elapsed = uint64_t(std::ceil(run_s - 1e-12));

  nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
  uint64_t ticks_ns[3] = {0, 0, 0};
  for (const Entry& e : entries) {
    const HostStats& s = e.stats;
    ticks_ns[0] += uint64_t(s.latency[0].mean() * double(s.latency[0].count()));
    ticks_ns[1] += uint64_t(s.latency[1].mean() * double(s.latency[1].count()));
    ticks_ns[2] += uint64_t(s.trim_latency.mean() * double(s.trim_latency.count()));
    jobs.push_back(job_json(e, agg_bytes[e.groupid], elapsed, json_plus));
  }

  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  char when[64] = "";
  std::strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", std::localtime(&t));
  nlohmann::ordered_json out;
  out["fio version"] = "ssdtlm-" + version;
  out["timestamp"] = uint64_t(t);
  out["timestamp_ms"] =
      uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count());
  out["time"] = when;
  // fio's json_add_job_opts writes no "global options" (nor a job's "job options") when there are none; its
  // show_disk_util writes no "disk_util" when no job gathered disk statistics (disk_util=0, engines without the
  // kernel's block layer: FioJob::disk_util).
  if (fio && !fio->global_options.empty()) out["global options"] = options_json(fio->global_options);
  out["jobs"] = jobs;
  bool disk_util = !fio;
  for (size_t i = 0; fio && i < fio->jobs.size() && !disk_util; ++i) disk_util = fio->jobs[i].disk_util;
  if (disk_util) out["disk_util"] = nlohmann::ordered_json::array({disk_json(host, summary, ticks_ns)});
  // Not fio's, after fio's keys: the state the modelled drive started in (fio's readers skip keys they do not know).
  if (summary.contains("precondition") && summary["precondition"].contains("state"))
    out["drive state"] = summary["precondition"]["state"];
  return out;
}

}  // namespace ssdtlm
