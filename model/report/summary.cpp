#include "report/summary.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "common/sim_time.h"
#include "common/units.h"
#include "frontend/fio/fio_json.h"
#include "report/power_summary.h"
#include "workload/trace/trace_fit.h"

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

// How a trace job's requests were fitted to the device (trace_fit.h).
nlohmann::json trace_json(const FittedTrace& t) {
  const TraceExtent& e = t.extent();
  return {{"path", t.path()},
          {"requests", e.requests},
          {"skipped_lines", e.skipped_lines},
          {"fit", trace_fit_name(t.requested())},
          {"fit_applied", trace_fit_name(t.applied())},
          {"refitted_requests", t.refitted()},
          {"beyond_device_requests", e.beyond},
          {"min_offset_bytes", e.min_offset},
          {"span_bytes", e.max_end},
          {"device_bytes", t.device_bytes()},
          {"scale", t.scale()},
          {"shift_bytes", t.shift()},
          {"summary", t.describe()},
          {"warnings",
           {{"backward_times", e.backward_times},
            {"first_backward_line", e.first_backward_line},
            {"unaligned_sizes", e.unaligned_sizes},
            {"first_unaligned_line", e.first_unaligned_line}}}};
}
// summary.json "host": fio's view of the I/Os (after each job's ramp), failed commands, flushes, the ramp.
nlohmann::json host_report(Platform& p, double sim_s) {
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
  if (whole.ios[0] + whole.ios[1] != ios || whole.trims != h.trims)
    host["ramp"] = {{"ios", whole.ios[0] + whole.ios[1] - ios},
                    {"trims", whole.trims - h.trims},
                    {"bytes_written", whole.bytes[1] - h.bytes[1]},
                    {"bytes_read", whole.bytes[0] - h.bytes[0]}};
  uint64_t folded = 0;
  nlohmann::json traces = nlohmann::json::array();
  for (size_t j = 0; j < p.host().jobs(); ++j)
    if (auto* t = dynamic_cast<const FittedTrace*>(p.host().job(j).workload)) {
      if (t->applied() == TraceFitMode::Wrap) folded += t->refitted();
      traces.push_back(trace_json(*t));
    }
  host["folded_requests"] = folded;
  if (traces.size() == 1) host["trace"] = traces[0];
  if (traces.size() > 1) host["traces"] = traces;
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
void workload_reports(Platform& p, nlohmann::json& s) {
  nlohmann::json steady = nlohmann::json::array();  // fio's steady state of each job that looks for it
  for (size_t j = 0; j < p.host().jobs(); ++j)
    if (const SteadyState* ss = p.host().job_steady_state(j)) {
      nlohmann::json one = steady_state_json(*ss);
      one["job"] = p.host().job(j).name;
      steady.push_back(one);
    }
  if (!steady.empty()) s["steadystate"] = steady;
  if (auto fs = filesystem_summary(p); !fs.is_null()) s["filesystem"] = fs;
  if (auto cap = capture_summary(p); !cap.is_null()) s["capture"] = cap;
  if (auto app = app_summary(p); !app.is_null()) s["app"] = app;
}

// The device's objects, each from the component that counted it: the FTL (with the drive state and its engines),
// the channels, the controller DRAM, the power meter, the integrity checker.
void device_reports(Platform& p, double span_ps, nlohmann::json& s) {
  const HostStats& h = p.host().measured_stats();
  const HostStats& whole = p.host().stats();
  s.update(p.ftl().report(double(whole.bytes[1]), now_ps()));  // the NAND counters cover the ramp too
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
  s["host"] = host_report(p, sim_s);
  if (p.host().jobs() > 1) s["jobs"] = jobs_report(p);
  workload_reports(p, s);
  device_reports(p, span_ps, s);
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

std::string zns_zones_csv(Platform& p) {
  const ZnsNamespace* z = p.ftl().page_ftl().streams().zns();
  return z ? z->zones_csv() : "";
}

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

std::string summary_text(const nlohmann::json& s) {
  const auto& h = s["host"];
  auto u = [](const nlohmann::json& j) { return j.get<unsigned long long>(); };
  auto d = [](const nlohmann::json& j) { return j.get<double>(); };
  char line[512];
  std::string out;
  auto add = [&](int n) { out.append(line, size_t(std::min<int>(n, int(sizeof line) - 1))); };
  if (s["precondition"].contains("state"))
    add(std::snprintf(line, sizeof line, "drive       %s\n", s["precondition"]["state"].get<std::string>().c_str()));
  add(std::snprintf(line, sizeof line, "I/Os        %llu (%llu reads, %llu writes", u(h["ios"]), u(h["read_ios"]),
                    u(h["write_ios"])));
  if (u(h["trims"])) add(std::snprintf(line, sizeof line, ", and %llu trims", u(h["trims"])));
  add(std::snprintf(line, sizeof line, ") in %.4f simulated s\n", d(s["sim_time_s"])));
  if (h.contains("ramp"))
    add(std::snprintf(line, sizeof line, "ramp        %llu I/Os before the measured span (not counted above)\n",
                      u(h["ramp"]["ios"])));
  add(std::snprintf(line, sizeof line, "throughput  %.0f IOPS, %.1f MB/s\n", d(h["iops"]), d(h["mbps"])));
  for (const char* op : {"read", "write"}) {
    const auto& l = h["latency_us"][op];
    if (u(l["count"]) == 0) continue;
    add(std::snprintf(line, sizeof line,
                      "%-5s lat   min %.1f  mean %.1f (sd %.1f)  p95 %.1f  p99 %.1f  p99.99 %.1f  max %.1f us\n", op,
                      d(l["min"]), d(l["mean"]), d(l["stddev"]), d(l["p95"]), d(l["p99"]), d(l["p9999"]), d(l["max"])));
  }
  auto trace_line = [&](const nlohmann::json& t) {
    add(std::snprintf(line, sizeof line, "trace fit   %s\n", t["summary"].get<std::string>().c_str()));
    const auto& tw = t["warnings"];
    if (u(tw["backward_times"]))
      add(std::snprintf(line, sizeof line,
                        "trace warn  %llu requests timed before an earlier line's (first at line %llu): open loop "
                        "issues them at once\n",
                        u(tw["backward_times"]), u(tw["first_backward_line"])));
    if (u(tw["unaligned_sizes"]))
      add(std::snprintf(line, sizeof line, "trace warn  %llu request sizes not a multiple of 512 B (first at line %llu)\n",
                        u(tw["unaligned_sizes"]), u(tw["first_unaligned_line"])));
  };
  if (h.contains("trace")) trace_line(h["trace"]);
  if (h.contains("traces"))
    for (const auto& t : h["traces"]) trace_line(t);
  if (s.contains("jobs"))
    for (const auto& j : s["jobs"])
      add(std::snprintf(line, sizeof line, "job %-7s %.4f..%.4f s: %llu I/Os, %.0f IOPS, %.1f MB/s%s\n",
                        j["name"].get<std::string>().c_str(), d(j["start_s"]), d(j["start_s"]) + d(j["span_s"]),
                        u(j["ios"]), d(j["iops"]), d(j["mbps"]), j.value("exited", false) ? " (stopped by exit_what)" : ""));
  if (s.contains("groups"))  // per stonewall group: its jobs' figures and the device's WAF over its span
    for (const auto& g : s["groups"]) {
      std::string names;
      for (const auto& n : g["jobs"]) names += (names.empty() ? "" : ",") + n.get<std::string>();
      if (names.size() > 40) names = names.substr(0, 37) + "...";
      const auto& w = g["waf"];
      add(std::snprintf(line, sizeof line,
                        "group %-5llu %.4f..%.4f s (%s): %llu I/Os, %.0f IOPS, %.1f MB/s, WAF %.3f (UD %.3f, GUD %.3f, "
                        "MD %.3f, GMD %.3f)%s\n",
                        u(g["group"]), d(g["start_s"]), d(g["end_s"]), names.c_str(), u(g["ios"]), d(g["iops"]),
                        d(g["mbps"]), d(w["total"]), d(w["ud"]), d(w["gud"]), d(w["md"]), d(w["gmd"]),
                        g.value("started", true) ? "" : " (never started: its jobs were stopped first)"));
    }
  if (s.contains("steadystate"))
    for (const auto& ss : s["steadystate"]) {
      char when[48] = "not attained";
      if (u(ss["attained"])) std::snprintf(when, sizeof when, "attained %.3f s after the job's start", d(ss["attained_s"]));
      add(std::snprintf(line, sizeof line, "steady      %s %s: %s (criterion %s over %llu intervals)\n",
                        ss["job"].get<std::string>().c_str(), ss["ss"].get<std::string>().c_str(), when,
                        ss["criterion"].get<std::string>().c_str(), u(ss["data"]["iops"].size())));
    }
  if (h.contains("failed_commands")) {
    const size_t stopped = h["jobs_stopped_by_error"].size();
    add(std::snprintf(line, sizeof line, "errors      %llu commands failed%s\n", u(h["failed_commands"]),
                      stopped ? (", " + std::to_string(stopped) + " job(s) stopped at their first error (exit status 1)").c_str()
                              : " (the jobs continued: workload.stop_on_error=false, fio's continue_on_error)"));
  }
  if (h.contains("flush")) {
    const auto& f = h["flush"];
    if (f.contains("latency_us") && u(f["commands"]))
      add(std::snprintf(line, sizeof line, "flush       %llu commands, lat mean %.1f  p99 %.1f  max %.1f us (%s write cache)\n",
                        u(f["commands"]), d(f["latency_us"]["mean"]), d(f["latency_us"]["p99"]), d(f["latency_us"]["max"]),
                        f["volatile_cache"].get<bool>() ? "volatile" : "power-protected"));
  }
  const auto& w = s["waf"];
  add(std::snprintf(line, sizeof line, "WAF         %.3f (UD %.3f, GUD %.3f, MD %.3f, GMD %.3f), alpha %.4f%s\n", d(w["total"]),
                    d(w["ud"]), d(w["gud"]), d(w["md"]), d(w["gmd"]), d(s["ftl"]["alpha"]),
                    s.contains("groups") ? " (the whole run; per group above)" : ""));
  if (s["integrity"]["enabled"].get<bool>())
    add(std::snprintf(line, sizeof line, "integrity   %llu reads checked, %llu errors\n", u(s["integrity"]["checked_reads"]),
                      u(s["integrity"]["errors"])));
  if (s.contains("power")) {
    const auto& pw = s["power"];
    add(std::snprintf(line, sizeof line, "power       %.3f J, avg %.2f W, peak %.2f W, %.2f nJ per host byte%s\n", d(pw["energy_j"]),
                      d(pw["avg_w"]), d(pw["peak_w"]), d(pw["energy_per_host_byte_nj"]),
                      d(pw["budget_wait_s"]) > 0 ? " (waited for the budget)" : ""));
    if (s["thermal"]["enabled"].get<bool>())
      add(std::snprintf(line, sizeof line, "thermal     max %.1f C, throttled %.3f s\n", d(s["thermal"]["max_c"]),
                        d(s["thermal"]["throttled_s"])));
  }
  if (s.contains("recovery")) {
    const auto& r = s["recovery"];
    add(std::snprintf(line, sizeof line,
                      "power loss  %llu losses, recovery %.2f ms in all (max %.2f), %llu acknowledged writes lost\n",
                      u(r["power_losses"]), d(r["time_ms"]), d(r["max_time_ms"]), u(r["lost_acknowledged_writes"])));
  }
  const double wall = d(s["wall_time_s"]);
  add(std::snprintf(line, sizeof line, "wall        %.2f s timed run, %.0f I/Os per wall s\n", wall,
                    wall > 0 ? double(u(h["ios"])) / wall : 0.0));
  const auto& pre = s["precondition"];
  const double pre_wall = d(pre["wall_time_s"]);
  if (u(pre["units_written"]))
    add(std::snprintf(line, sizeof line, "precond     %llu units in %.2f s on %llu workers, %.1f M units per wall s\n",
                      u(pre["units_written"]), pre_wall, u(pre["threads"]),
                      pre_wall > 0 ? double(u(pre["units_written"])) / pre_wall / 1e6 : 0.0));
  return out;
}

}  // namespace ssdtlm
