#include "report/summary.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "common/sim_time.h"
#include "common/units.h"
#include "frontend/fio/fio_json.h"
#include "report/power_summary.h"

namespace ssdtlm {

nlohmann::json latency_json(const Histogram& h) {
  auto us = [](uint64_t ns) { return double(ns) / 1e3; };
  return {{"count", h.count()},        {"min", us(h.min())},           {"mean", h.mean() / 1e3},
          {"stddev", h.stddev() / 1e3}, {"p50", us(h.quantile(0.5))},   {"p90", us(h.quantile(0.9))},
          {"p95", us(h.quantile(0.95))}, {"p99", us(h.quantile(0.99))}, {"p999", us(h.quantile(0.999))},
          {"p9999", us(h.quantile(0.9999))}, {"max", us(h.max())}};
}

namespace {

// A PCIe direction's busy time: the endpoint's wire (nvme.interface=register) or the command-level link.
uint64_t link_busy_ps(Platform& p, bool up) {
  if (const NvmeEndpoint* e = p.endpoint()) return up ? e->link().up().busy_ps() : e->link().down().busy_ps();
  return up ? p.nvme().link_up().busy_ps() : p.nvme().link_down().busy_ps();
}


// Host reads by how the controller served them (ReadPath): count and mean latency per path.
nlohmann::json read_paths_json(const HostStats& h) {
  const char* names[kReadPaths] = {"buffer", "data", "map_read", "map_write", "gc_wait"};
  nlohmann::json paths;
  for (int k = 0; k < kReadPaths; ++k)
    paths[names[k]] = {{"count", h.path_count[k]},
                       {"mean_us", h.path_count[k] ? double(h.path_ns[k]) / double(h.path_count[k]) / 1e3 : 0.0}};
  return paths;
}

// summary.json "host": fio's view of the I/Os (after each job's ramp), failed commands, flushes, the ramp.
nlohmann::json host_report(Platform& p, double sim_s, const WorkloadObjects& w) {
  const HostStats& h = p.host().measured_stats();  // fio's view: after each job's ramp
  const HostStats& whole = p.host().stats();         // the whole timed run (the device counters' span)
  const FtlStats& fs = p.ftl().stats();
  const uint64_t ios = h.ios[0] + h.ios[1];
  auto rate = [&](double x) { return sim_s > 0 ? x / sim_s : 0.0; };
  nlohmann::json host = {{"ios", ios},
                         {"read_ios", h.ios[0]},
                         {"write_ios", h.ios[1]},
                         {"iops", rate(double(ios))},
                         {"read_iops", rate(double(h.ios[0]))},
                         {"write_iops", rate(double(h.ios[1]))},
                         {"mbps", rate(double(h.bytes[0] + h.bytes[1])) / 1e6},
                         {"read_mbps", rate(double(h.bytes[0])) / 1e6},
                         {"write_mbps", rate(double(h.bytes[1])) / 1e6},
                         {"bytes_read", h.bytes[0]},
                         {"bytes_written", h.bytes[1]},
                         {"trims", h.trims},
                         {"folded_requests", 0},
                         {"latency_us", {{"read", latency_json(h.latency[0])}, {"write", latency_json(h.latency[1])}}},
                         {"read_paths", read_paths_json(h)}};
  if (whole.failed > 0) {  // commands completed with an error status (only when some did: goldens unchanged)
    nlohmann::json stopped = nlohmann::json::array();
    for (size_t j = 0; j < p.host().jobs(); ++j)
      if (p.host().job_error_stopped(j)) stopped.push_back(p.host().job(j).name);
    host["failed_commands"] = whole.failed;
    host["jobs_stopped_by_error"] = stopped;
  }
  if (whole.syncs > 0)  // NVMe Flush commands (fio's fsync/fdatasync) and FUA writes: only when the host sent some
    host["flush"] = {{"commands", h.syncs},
                     {"latency_us", latency_json(h.sync_latency)},
                     {"fua_writes", fs.fua_writes},
                     {"volatile_cache", p.ftl().volatile_cache()}};
  else if (fs.fua_writes > 0)
    host["flush"] = {{"commands", 0}, {"fua_writes", fs.fua_writes}, {"volatile_cache", p.ftl().volatile_cache()}};
  // A page cache's writes at the close after a runtime cut: on the drive, not in fio's statistics (nor the ramp).
  if (whole.after_end_ios > 0)
    host["after_runtime"] = {{"write_ios", whole.after_end_ios}, {"bytes_written", whole.after_end_bytes}};
  if (whole.ios[0] + whole.ios[1] - whole.after_end_ios != ios || whole.trims != h.trims)
    host["ramp"] = {{"ios", whole.ios[0] + whole.ios[1] - whole.after_end_ios - ios},
                    {"trims", whole.trims - h.trims},
                    {"bytes_written", whole.bytes[1] - whole.after_end_bytes - h.bytes[1]},
                    {"bytes_read", whole.bytes[0] - h.bytes[0]}};
  host["folded_requests"] = w.folded_requests;
  if (w.traces.size() == 1) host["trace"] = w.traces[0];
  if (w.traces.size() > 1) host["traces"] = w.traces;
  return host;
}

// summary.json "jobs" (with more than one job): each job's I/Os, rates, span, latency and read paths.
nlohmann::json jobs_report(Platform& p) {
  nlohmann::json jobs = nlohmann::json::array();
  for (size_t j = 0; j < p.host().jobs(); ++j) {
    const HostStats& js = p.host().job_stats(j);
    const double span = double(js.last_complete_ps - js.first_submit_ps) / 1e12;
    auto jrate = [&](double x) { return span > 0 ? x / span : 0.0; };
    jobs.push_back({{"name", p.host().job(j).name},
                    {"ios", js.ios[0] + js.ios[1]},
                    {"read_ios", js.ios[0]},
                    {"write_ios", js.ios[1]},
                    {"trims", js.trims},
                    {"iops", jrate(double(js.ios[0] + js.ios[1]))},
                    {"mbps", jrate(double(js.bytes[0] + js.bytes[1])) / 1e6},
                    {"start_s", double(p.host().job_start_ps(j)) / 1e12},
                    {"span_s", span},
                    {"exited", p.host().job_exited(j)},
                    {"latency_us", {{"read", latency_json(js.latency[0])}, {"write", latency_json(js.latency[1])}}},
                    {"read_paths", read_paths_json(js)}});
  }
  return jobs;
}

// With the reliability model on: host reads by how their data decoded (first decode, read retry, soft decode).
nlohmann::json ecc_paths_json(const HostStats& h) {
  auto mean = [](uint64_t ns, uint64_t n) { return n ? double(ns) / double(n) / 1e3 : 0.0; };
  return {{"first_decode", {{"count", h.clean_count}, {"mean_us", mean(h.clean_ns, h.clean_count)}}},
          {"read_retry", {{"count", h.retry_count}, {"steps", h.retry_steps}, {"mean_us", mean(h.retry_ns, h.retry_count)}}},
          {"soft_decode", {{"count", h.soft_count}, {"mean_us", mean(h.soft_ns, h.soft_count)}}},
          {"uncorrectable", {{"count", h.uncorrectable}}}};
}

// The workloads' own objects: "steadystate", "filesystem", "capture", "app".
void workload_reports(Platform& p, const WorkloadObjects& w, nlohmann::json& s) {
  nlohmann::json steady = nlohmann::json::array();  // fio's steady state of each job that looks for it
  for (size_t j = 0; j < p.host().jobs(); ++j)
    if (const SteadyState* ss = p.host().job_steady_state(j)) {
      nlohmann::json one = steady_state_json(*ss);
      one["job"] = p.host().job(j).name;
      steady.push_back(one);
    }
  if (!steady.empty()) s["steadystate"] = steady;
  if (!w.filesystem.is_null()) s["filesystem"] = w.filesystem;
  if (!w.capture.is_null()) s["capture"] = w.capture;
  if (!w.page_cache.is_null()) s["page_cache"] = w.page_cache;
  if (!w.app.is_null()) s["app"] = w.app;
}

// The device's objects, each from the component that counted it: the FTL (with the drive state and its engines),
// the channels, the controller DRAM, the power meter, the integrity checker.
void device_reports(Platform& p, double span_ps, nlohmann::json& s) {
  const HostStats& h = p.host().measured_stats();
  const HostStats& whole = p.host().stats();
  nlohmann::json ftl = p.page_ftl().report(double(whole.bytes[1]), now_ps());  // the NAND counters cover the ramp too
  p.ftl().report(ftl);  // the module's own (buffer, commands, map, streams, zone resets)
  s.update(ftl);
  if (s.contains("reliability")) s["host"]["read_paths"]["ecc"] = ecc_paths_json(h);
  if (s.contains("zns")) {
    s["zns"]["host_failed_commands"] = h.failed;
    s["zns"]["host_zone_commands"] = h.zone_commands;
    s["zns"]["reset_latency_us"] = latency_json(h.trim_latency);  // resets by a trim of whole zones
  }
  s["integrity"] = IntegrityChecker::report(p.checker());
  const nlohmann::json channels = channels_report(p.channels(), p.geometry(), span_ps);
  s["nand"].update(channels["nand"]);
  s["utilization"] = channels["utilization"];
  s["utilization"]["link_down"] = span_ps > 0 ? double(link_busy_ps(p, false)) / span_ps : 0.0;
  s["utilization"]["link_up"] = span_ps > 0 ? double(link_busy_ps(p, true)) / span_ps : 0.0;
  if (Dram* dram = p.dram()) s["dram"] = dram->report(span_ps);
  if (auto pw = power_summary(p); !pw.is_null()) {
    s["power"] = pw;
    s["thermal"] = thermal_summary(p);
  }
}
}  // namespace

nlohmann::json make_summary(Platform& p, const PreconditionResult& pre, double wall_s) {
  const Geometry& g = p.geometry();
  const HostStats& h = p.host().measured_stats();
  const HostStats& whole = p.host().stats();
  const double sim_s = double(h.last_complete_ps - h.first_submit_ps) / 1e12;
  const uint64_t ios = h.ios[0] + h.ios[1];
  const double span_ps = double(whole.last_complete_ps - whole.first_submit_ps);  // the span the busy times cover
  nlohmann::json s;
  const WorkloadObjects w = workload_objects(p);
  s["host"] = host_report(p, sim_s, w);
  if (p.host().jobs() > 1) s["jobs"] = jobs_report(p);
  workload_reports(p, w, s);
  device_reports(p, span_ps, s);
  if (const ConvergenceMonitor* m = p.host().convergence()) m->report(s["convergence"]);  // sim.converge
  s["geometry"] = {{"logical_bytes", g.logical_bytes()},
                   {"physical_bytes", g.physical_units * kUnitBytes},
                   {"dies", g.dies},
                   {"units_per_page", g.units_per_page},
                   {"units_per_block", g.units_per_block}};
  s["precondition"] = {{"units_written", pre.units_written}, {"nand_programs", pre.nand_programs}, {"wall_time_s", pre.wall_s},
                       {"threads", pre.threads}, {"fill", pre.fill}, {"drive_writes", pre.drive_writes},
                       {"state", drive_state(pre)}};
  s["kernel"] = {{"activations", kernel_activations()},
                 {"activations_per_io", ios ? double(kernel_activations()) / double(ios) : 0.0}};
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  s["memory"] = {{"peak_rss_bytes", uint64_t(ru.ru_maxrss) * 1024},
                 {"model_bytes", p.model_bytes()},
                 {"model_bytes_per_logical_page", double(p.model_bytes()) / double(g.logical_units)}};
  s["sim_time_s"] = sim_s;
  s["timed_run_s"] = span_ps / 1e12;
  s["wall_time_s"] = wall_s;
  return s;
}

std::string zns_zones_csv(Platform& p) { return p.ftl().zones_csv(); }

std::string latency_cdf_csv(const HostStats& h) {
  std::ostringstream os;
  os << "op,latency_us,cumulative_fraction\n";
  const char* names[2] = {"read", "write"};
  char line[128];
  for (int k = 0; k < 2; ++k)
    for (auto& [ns, frac] : h.latency[k].cdf()) {
      std::snprintf(line, sizeof line, "%s,%.3f,%.6f\n", names[k], double(ns) / 1e3, frac);
      os << line;
    }
  return os.str();
}

std::string drive_state(const PreconditionResult& pre) {
  if (!pre.fill && pre.drive_writes <= 0) return "fresh: nothing written before the timed run";
  std::string out = pre.fill ? "filled sequentially" : "";
  if (pre.drive_writes > 0) {
    char n[80];
    std::snprintf(n, sizeof n, "%s%.3g drive-writes of the jobs' write patterns", pre.fill ? ", then " : "",
                  pre.drive_writes);
    out += n;
  }
  return out + " before the timed run (precondition.fill, precondition.drive_writes)";
}

}  // namespace ssdtlm
