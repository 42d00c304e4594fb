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
}  // namespace

nlohmann::json make_summary(Platform& p, const PreconditionResult& pre, double wall_s) {
  const Geometry& g = p.geometry();
  const HostStats& h = p.host().measured_stats();  // fio's view: after each job's ramp
  const HostStats& whole = p.host().stats();         // the whole timed run (the device counters' span)
  const FlashCounters& f = p.ftl().page_ftl().counters();
  const FtlStats& fs = p.ftl().stats();
  const double sim_s = double(h.last_complete_ps - h.first_submit_ps) / 1e12;
  const uint64_t ios = h.ios[0] + h.ios[1];
  const double page_bytes = double(g.units_per_page) * kUnitBytes;
  const double host_written = double(whole.bytes[1]);  // the NAND counters cover the ramp too
  auto rate = [&](double x) { return sim_s > 0 ? x / sim_s : 0.0; };
  auto waf = [&](uint64_t programs) { return host_written > 0 ? double(programs) * page_bytes / host_written : 0.0; };

  nlohmann::json s;
  s["host"] = {{"ios", ios},
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
               {"latency_us", {{"read", latency_json(h.latency[0])}, {"write", latency_json(h.latency[1])}}}};
  if (whole.failed > 0) {  // commands completed with an error status (only when some did: goldens unchanged)
    nlohmann::json stopped = nlohmann::json::array();
    for (size_t j = 0; j < p.host().jobs(); ++j)
      if (p.host().job_error_stopped(j)) stopped.push_back(p.host().job(j).name);
    s["host"]["failed_commands"] = whole.failed;
    s["host"]["jobs_stopped_by_error"] = stopped;
  }
  if (whole.syncs > 0)  // NVMe Flush commands (fio's fsync/fdatasync) and FUA writes: only when the host sent some
    s["host"]["flush"] = {{"commands", h.syncs},
                          {"latency_us", latency_json(h.sync_latency)},
                          {"fua_writes", fs.fua_writes},
                          {"volatile_cache", p.ftl().volatile_cache()}};
  else if (fs.fua_writes > 0)
    s["host"]["flush"] = {{"commands", 0}, {"fua_writes", fs.fua_writes}, {"volatile_cache", p.ftl().volatile_cache()}};
  if (whole.ios[0] + whole.ios[1] != ios || whole.trims != h.trims)
    s["host"]["ramp"] = {{"ios", whole.ios[0] + whole.ios[1] - ios},
                         {"trims", whole.trims - h.trims},
                         {"bytes_written", whole.bytes[1] - h.bytes[1]},
                         {"bytes_read", whole.bytes[0] - h.bytes[0]}};
  {
    uint64_t folded = 0;
    nlohmann::json traces = nlohmann::json::array();
    for (size_t j = 0; j < p.host().jobs(); ++j)
      if (auto* t = dynamic_cast<const FittedTrace*>(p.host().job(j).workload)) {
        if (t->applied() == TraceFitMode::Wrap) folded += t->refitted();
        traces.push_back(trace_json(*t));
      }
    s["host"]["folded_requests"] = folded;
    if (traces.size() == 1) s["host"]["trace"] = traces[0];
    if (traces.size() > 1) s["host"]["traces"] = traces;
  }
  if (p.host().jobs() > 1) {
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
    s["jobs"] = jobs;
  }
  nlohmann::json steady = nlohmann::json::array();  // fio's steady state of each job that looks for it
  for (size_t j = 0; j < p.host().jobs(); ++j)
    if (const SteadyState* ss = p.host().job_steady_state(j)) {
      nlohmann::json one = steady_state_json(*ss);
      one["job"] = p.host().job(j).name;
      steady.push_back(one);
    }
  if (!steady.empty()) s["steadystate"] = steady;
  s["host"]["read_paths"] = read_paths_json(h);
  s["map"] = map_summary(p);
  if (auto fs = filesystem_summary(p); !fs.is_null()) s["filesystem"] = fs;
  if (auto cap = capture_summary(p); !cap.is_null()) s["capture"] = cap;
  if (auto app = app_summary(p); !app.is_null()) s["app"] = app;
  s["streams"] = stream_summary(p);
  if (p.ftl().page_ftl().streams().params().fdp) s["fdp"] = fdp_summary(p);
  if (p.ftl().page_ftl().streams().zns()) s["zns"] = zns_summary(p);
  s["nand"] = {{"programs", {{"ud", f.programs[0]}, {"md", f.programs[1]}, {"gud", f.programs[2]}, {"gmd", f.programs[3]}}},
               {"reads", {{"user", f.reads[0]}, {"map", f.reads[1]}, {"gc", f.reads[2]}}},
               {"erases", f.erases},
               {"gc_victims", f.gc_victims},
               {"gc_units_moved", f.gc_units_moved},
               {"page_bytes", page_bytes}};
  uint64_t all = f.total_programs();
  s["waf"] = {{"total", waf(all)}, {"ud", waf(f.programs[0])}, {"md", waf(f.programs[1])},
              {"gud", waf(f.programs[2])}, {"gmd", waf(f.programs[3])}};
  if (const Reliability* rel = p.ftl().page_ftl().reliability()) {  // reliability.*: only with the model on
    const ReliabilityCounters& k = rel->counters();
    s["reliability"] = {{"reads", k.reads},
                        {"retries", k.retries},
                        {"retry_reads", k.retry_reads},
                        {"soft_decodes", k.soft_decodes},
                        {"uncorrectable", k.uncorrectable},
                        {"reclaimed_blocks", k.reclaimed_blocks},
                        {"decode_s", double(k.decode_ps) / 1e12},
                        {"max_rber", k.max_rber},
                        {"initial_pe_cycles", rel->model().params().initial_pe},
                        {"retention_days", rel->model().params().retention_hours / 24},
                        {"temp_c", rel->temp_c()},                   // the drive's temperature the data aged at last
                        {"run_aged_h", rel->aged_hours(now_ps())}};  // the run's hours at reliability.rber_temp_c
    auto mean = [](uint64_t ns, uint64_t n) { return n ? double(ns) / double(n) / 1e3 : 0.0; };
    s["host"]["read_paths"]["ecc"] = {
        {"first_decode", {{"count", h.clean_count}, {"mean_us", mean(h.clean_ns, h.clean_count)}}},
        {"read_retry", {{"count", h.retry_count}, {"steps", h.retry_steps}, {"mean_us", mean(h.retry_ns, h.retry_count)}}},
        {"soft_decode", {{"count", h.soft_count}, {"mean_us", mean(h.soft_ns, h.soft_count)}}},
        {"uncorrectable", {{"count", h.uncorrectable}}}};
  }
  if (const WearLevel* wl = p.ftl().page_ftl().wear_level()) {  // ftl.wear_level_spread: only when on
    uint32_t most = 0, least = ~0u;
    for (uint32_t d = 0; d < p.geometry().dies; ++d) {
      most = std::max(most, wl->max_erases(d));
      least = std::min(least, wl->min_erases(d));
    }
    s["wear_level"] = {{"spread_threshold", wl->threshold()},
                       {"relocated_blocks", wl->relocated_blocks()},
                       {"max_die_spread", wl->max_spread()},
                       {"max_block_erases", most},
                       {"min_block_erases", least}};
  }
  if (p.ftl().page_ftl().slc()) {  // slc.*: only with the cache, so other summaries stand
    s["waf"]["fold"] = waf(f.fold_programs);
    s["nand"]["programs"]["fold"] = f.fold_programs;
    s["nand"]["reads"]["fold"] = f.fold_reads;
    s["slc"] = slc_summary(p);
  }
  IntegrityChecker* c = p.checker();
  s["integrity"] = {{"enabled", c != nullptr},
                    {"checked_reads", c ? c->checked() : 0},
                    {"erases_checked", c ? c->erases_checked() : 0},
                    {"gc_copies_checked", c ? c->gc_copies_checked() : 0},
                    {"errors", c ? c->errors() : 0},
                    {"first_error", c ? c->first_error() : ""}};
  const BlockManager& blocks = p.ftl().page_ftl().blocks();
  s["ftl"] = {{"alpha", p.ftl().page_ftl().alpha()},
              {"gc_unit", blocks.lines() ? "superblock" : "block"},
              {"line_retired_units", blocks.retired_units()},
              {"gc_declined_victims", blocks.declines()},
              {"free_blocks", blocks.total_free_blocks()},
              {"buffer_read_hits", fs.buffer_read_hits},
              {"buffer_absorbed_writes", fs.buffer_absorbed},
              {"unmapped_reads", fs.unmapped_reads},
              {"write_stalls", fs.write_stalls},
              {"flushed_units", fs.flushed_units},
              {"buffer_steps", fs.buffer_steps},
              {"buffer_busy_s", double(fs.buffer_busy_ps) / 1e12},
              {"subpage_merged", fs.subpage_merged},
              {"subpage_rmw", fs.subpage_rmw},
              {"trimmed_units", fs.trimmed_units},
              {"write_stops", fs.write_stops}};
  double bus = 0, die = 0;
  uint64_t array_ops[3] = {0, 0, 0}, suspends[3] = {0, 0, 0}, suspended_reads = 0, suspended_ps = 0, overtakes = 0;
  uint64_t plane_ops = 0, multiplane_ops = 0, combined_reads = 0;
  for (auto* ch : p.channels()) {
    const ChannelStats& cs = ch->stats();
    bus += double(cs.bus_busy_ps);
    die += double(cs.die_array_busy_ps);
    for (int k = 0; k < 3; ++k) array_ops[k] += cs.ops[k], suspends[k] += cs.suspends[k];
    suspended_reads += cs.suspended_reads;
    suspended_ps += cs.suspended_ps;
    overtakes += cs.read_overtakes;
    plane_ops += cs.plane_ops;
    multiplane_ops += cs.multiplane_ops;
    combined_reads += cs.combined_reads;
  }
  // What the dies did, counted by the channels (the FTL's counters above count what it issued).
  s["nand"]["array_ops"] = {{"reads", array_ops[0]}, {"programs", array_ops[1]}, {"erases", array_ops[2]}};
  // flash.suspend and flash.die_sched (docs/reference/hardware.md)
  const uint64_t suspensions = suspends[1] + suspends[2];
  s["nand"]["suspend"] = {{"program_suspends", suspends[1]},
                          {"erase_suspends", suspends[2]},
                          {"reads_served", suspended_reads},
                          {"suspended_s", double(suspended_ps) / 1e12},
                          {"mean_suspended_us", suspensions ? double(suspended_ps) / 1e6 / double(suspensions) : 0.0}};
  s["nand"]["read_overtakes"] = overtakes;
  // flash.multiplane (docs/reference/hardware.md): array operations as the dies ran them, the share on several planes
  s["nand"]["multiplane"] = {{"array_ops", plane_ops},
                             {"multiplane_ops", multiplane_ops},
                             {"fraction", plane_ops ? double(multiplane_ops) / double(plane_ops) : 0.0},
                             {"combined_reads", combined_reads}};
  const double span_ps = double(whole.last_complete_ps - whole.first_submit_ps);  // the span the busy times cover
  s["utilization"] = {{"channel_bus", span_ps > 0 ? bus / span_ps / g.channels : 0.0},
                      {"die_array", span_ps > 0 ? die / span_ps / g.dies : 0.0},
                      {"link_down", span_ps > 0 ? double(link_busy_ps(p, false)) / span_ps : 0.0},
                      {"link_up", span_ps > 0 ? double(link_busy_ps(p, true)) / span_ps : 0.0}};
  {  // per channel (bus) and per die (array, by global index: die k of channel c is k * channels + c)
    nlohmann::json buses = nlohmann::json::array(), dies = nlohmann::json::array();
    std::vector<double> die_frac(g.dies, 0.0);
    auto chans = p.channels();
    for (size_t c = 0; c < chans.size(); ++c) {
      const ChannelStats& cs = chans[c]->stats();
      buses.push_back(span_ps > 0 ? double(cs.bus_busy_ps) / span_ps : 0.0);
      for (size_t k = 0; k < cs.die_array_ps.size(); ++k)
        die_frac[k * g.channels + c] = span_ps > 0 ? double(cs.die_array_ps[k]) / span_ps : 0.0;
    }
    for (double f : die_frac) dies.push_back(f);
    s["utilization"]["channels"] = buses;
    s["utilization"]["dies"] = dies;
  }
  if (Dram* dram = p.dram()) s["dram"] = dram_summary(*dram, span_ps);
  if (auto pw = power_summary(p); !pw.is_null()) {
    s["power"] = pw;
    s["thermal"] = thermal_summary(p);
  }
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
