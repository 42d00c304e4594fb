// summary.json as the terminal's lines (summary_text): the host's traffic, the jobs and groups, the run's events,
// the device, and what the run cost in wall time.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "report/summary.h"

namespace ssdtlm {

namespace {

unsigned long long u(const nlohmann::json& j) { return j.get<unsigned long long>(); }
double d(const nlohmann::json& j) { return j.get<double>(); }

// Appends printf's text, at most 511 characters of it (a line).
__attribute__((format(printf, 2, 3))) void add(std::string& out, const char* format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  out.append(line, size_t(std::min<int>(n, int(sizeof line) - 1)));
}

// The drive's state, the I/Os, throughput and the read and write latencies.
void add_traffic(std::string& out, const nlohmann::json& s) {
  const auto& h = s["host"];
  if (s["precondition"].contains("state"))
    add(out, "drive       %s\n", s["precondition"]["state"].get<std::string>().c_str());
  add(out, "I/Os        %llu (%llu reads, %llu writes", u(h["ios"]), u(h["read_ios"]), u(h["write_ios"]));
  if (u(h["trims"])) add(out, ", and %llu trims", u(h["trims"]));
  add(out, ") in %.4f simulated s\n", d(s["sim_time_s"]));
  if (h.contains("ramp"))
    add(out, "ramp        %llu I/Os before the measured span (not counted above)\n", u(h["ramp"]["ios"]));
  add(out, "throughput  %.0f IOPS, %.1f MB/s\n", d(h["iops"]), d(h["mbps"]));
  for (const char* op : {"read", "write"}) {
    const auto& l = h["latency_us"][op];
    if (u(l["count"]) == 0) continue;
    add(out, "%-5s lat   min %.1f  mean %.1f (sd %.1f)  p95 %.1f  p99 %.1f  p99.99 %.1f  max %.1f us\n", op,
        d(l["min"]), d(l["mean"]), d(l["stddev"]), d(l["p95"]), d(l["p99"]), d(l["p9999"]), d(l["max"]));
  }
}

// A replayed trace's fit and its warnings.
void add_trace(std::string& out, const nlohmann::json& t) {
  add(out, "trace fit   %s\n", t["summary"].get<std::string>().c_str());
  const auto& tw = t["warnings"];
  if (u(tw["backward_times"]))
    add(out,
        "trace warn  %llu requests timed before an earlier line's (first at line %llu): open loop "
        "issues them at once\n",
        u(tw["backward_times"]), u(tw["first_backward_line"]));
  if (u(tw["unaligned_sizes"]))
    add(out, "trace warn  %llu request sizes not a multiple of 512 B (first at line %llu)\n", u(tw["unaligned_sizes"]),
        u(tw["first_unaligned_line"]));
}

// Per job, and per stonewall group its jobs' figures and the device's WAF over its span.
void add_jobs_and_groups(std::string& out, const nlohmann::json& s) {
  if (s.contains("jobs"))
    for (const auto& j : s["jobs"])
      add(out, "job %-7s %.4f..%.4f s: %llu I/Os, %.0f IOPS, %.1f MB/s%s\n", j["name"].get<std::string>().c_str(),
          d(j["start_s"]), d(j["start_s"]) + d(j["span_s"]), u(j["ios"]), d(j["iops"]), d(j["mbps"]),
          j.value("exited", false) ? " (stopped by exit_what)" : "");
  if (s.contains("groups"))
    for (const auto& g : s["groups"]) {
      std::string names;
      for (const auto& n : g["jobs"]) names += (names.empty() ? "" : ",") + n.get<std::string>();
      if (names.size() > 40) names = names.substr(0, 37) + "...";
      const auto& w = g["waf"];
      add(out,
          "group %-5llu %.4f..%.4f s (%s): %llu I/Os, %.0f IOPS, %.1f MB/s, WAF %.3f (UD %.3f, GUD %.3f, "
          "MD %.3f, GMD %.3f)%s\n",
          u(g["group"]), d(g["start_s"]), d(g["end_s"]), names.c_str(), u(g["ios"]), d(g["iops"]), d(g["mbps"]),
          d(w["total"]), d(w["ud"]), d(w["gud"]), d(w["md"]), d(w["gmd"]),
          g.value("started", true) ? "" : " (never started: its jobs were stopped first)");
    }
}

// Steady state per job, failed commands, Flush commands.
void add_run_events(std::string& out, const nlohmann::json& s) {
  const auto& h = s["host"];
  if (s.contains("steadystate"))
    for (const auto& ss : s["steadystate"]) {
      char when[48] = "not attained";
      if (u(ss["attained"]))
        std::snprintf(when, sizeof when, "attained %.3f s after the job's start", d(ss["attained_s"]));
      add(out, "steady      %s %s: %s (criterion %s over %llu intervals)\n", ss["job"].get<std::string>().c_str(),
          ss["ss"].get<std::string>().c_str(), when, ss["criterion"].get<std::string>().c_str(),
          u(ss["data"]["iops"].size()));
    }
  if (h.contains("failed_commands")) {
    const size_t stopped = h["jobs_stopped_by_error"].size();
    add(out, "errors      %llu commands failed%s\n", u(h["failed_commands"]),
        stopped ? (", " + std::to_string(stopped) + " job(s) stopped at their first error (exit status 1)").c_str()
                : " (the jobs continued: workload.stop_on_error=false, fio's continue_on_error)");
  }
  if (h.contains("flush")) {
    const auto& f = h["flush"];
    if (f.contains("latency_us") && u(f["commands"]))
      add(out, "flush       %llu commands, lat mean %.1f  p99 %.1f  max %.1f us (%s write cache)\n", u(f["commands"]),
          d(f["latency_us"]["mean"]), d(f["latency_us"]["p99"]), d(f["latency_us"]["max"]),
          f["volatile_cache"].get<bool>() ? "volatile" : "power-protected");
  }
}

// The device: WAF, integrity, power and temperature, power-loss recovery.
void add_device(std::string& out, const nlohmann::json& s) {
  const auto& w = s["waf"];
  add(out, "WAF         %.3f (UD %.3f, GUD %.3f, MD %.3f, GMD %.3f), alpha %.4f%s\n", d(w["total"]), d(w["ud"]),
      d(w["gud"]), d(w["md"]), d(w["gmd"]), d(s["ftl"]["alpha"]),
      s.contains("groups") ? " (the whole run; per group above)" : "");
  if (s["integrity"]["enabled"].get<bool>())
    add(out, "integrity   %llu reads checked, %llu errors\n", u(s["integrity"]["checked_reads"]),
        u(s["integrity"]["errors"]));
  if (s.contains("power")) {
    const auto& pw = s["power"];
    add(out, "power       %.3f J, avg %.2f W, peak %.2f W, %.2f nJ per host byte%s\n", d(pw["energy_j"]),
        d(pw["avg_w"]), d(pw["peak_w"]), d(pw["energy_per_host_byte_nj"]),
        d(pw["budget_wait_s"]) > 0 ? " (waited for the budget)" : "");
    if (s["thermal"]["enabled"].get<bool>())
      add(out, "thermal     max %.1f C, throttled %.3f s\n", d(s["thermal"]["max_c"]),
          d(s["thermal"]["throttled_s"]));
  }
  if (s.contains("recovery")) {
    const auto& r = s["recovery"];
    add(out, "power loss  %llu losses, recovery %.2f ms in all (max %.2f), %llu acknowledged writes lost\n",
        u(r["power_losses"]), d(r["time_ms"]), d(r["max_time_ms"]), u(r["lost_acknowledged_writes"]));
  }
}

// The wall time of the timed run and of the preconditioning.
void add_wall_time(std::string& out, const nlohmann::json& s) {
  const double wall = d(s["wall_time_s"]);
  add(out, "wall        %.2f s timed run, %.0f I/Os per wall s\n", wall,
      wall > 0 ? double(u(s["host"]["ios"])) / wall : 0.0);
  const auto& pre = s["precondition"];
  const double pre_wall = d(pre["wall_time_s"]);
  if (u(pre["units_written"]))
    add(out, "precond     %llu 4 KiB units in %.2f s on %llu workers, %.1f M units per wall s\n", u(pre["units_written"]),
        pre_wall, u(pre["threads"]), pre_wall > 0 ? double(u(pre["units_written"])) / pre_wall / 1e6 : 0.0);
}

}  // namespace

std::string summary_text(const nlohmann::json& s) {
  std::string out;
  add_traffic(out, s);
  const auto& h = s["host"];
  if (h.contains("trace")) add_trace(out, h["trace"]);
  if (h.contains("traces"))
    for (const auto& t : h["traces"]) add_trace(out, t);
  add_jobs_and_groups(out, s);
  add_run_events(out, s);
  add_device(out, s);
  add_wall_time(out, s);
  return out;
}

}  // namespace ssdtlm
