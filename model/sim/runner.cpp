#include "sim/runner.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "common/sim_time.h"
#include "controller/precondition.h"
#include "host/trace_reader.h"
#include "host/workload_factory.h"
#include "sim/sampler.h"
#include "sim/summary.h"

namespace ssdtlm {

namespace {

void quiet_kernel() { sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING); }

// Writes through a temporary file and a rename, so an interrupted run never leaves a half-written file.
void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error(path.string() + ": cannot write");
  }
  std::filesystem::rename(tmp, path);
}

std::string usage(const std::string& name) {
  return "usage: ssdtlm-" + name +
         " [--config FILE]... [--set key.path=value]... [--out DIR] [--vcd FILE] [--seed N] [--quiet]\n"
         "       ssdtlm-" + name + " --help-config   (every configuration key, its default and unit)\n";
}

std::string config_table() {
  std::string s = "| key | type | default | range / choices | unit | meaning |\n|---|---|---|---|---|---|\n";
  for (auto& k : config_schema()) {
    const char* type = k.type == KeyType::Int ? "int" : k.type == KeyType::Real ? "real" : k.type == KeyType::Bool ? "bool" : k.type == KeyType::Jobs ? "array" : "string";
    std::string range;
    if (k.type == KeyType::Int || k.type == KeyType::Real) {
      std::ostringstream os;
      os << k.min << " .. " << k.max;
      range = os.str();
    }
    for (auto& c : k.choices) range += (range.empty() ? "" : ", ") + c;
    s += "| `" + k.path + "` | " + type + " | `" + k.def.dump() + "` | " + range + " | " + k.unit + " | " + k.help + " |\n";
  }
  return s;
}

}  // namespace

RunResult simulate(const Config& c, const PlatformInfo& info, const RunOptions& o) {
  quiet_kernel();
  std::unique_ptr<Platform> p = info.make(c);
  const uint64_t interval = uint64_t(c.d("stats.interval_ms") * 1e9);
  uint64_t expected = 0;  // for the progress line
  for (size_t j = 0; j < std::max<size_t>(1, c.job_count()); ++j) expected += c.job_config(j).u("workload.io_count");
  Sampler sampler("sampler", *p, interval ? interval : 1, expected, o.progress);
  sc_core::sc_trace_file* tf = nullptr;
  if (!o.vcd_path.empty()) {
    std::filesystem::path parent = std::filesystem::path(o.vcd_path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    std::string base = o.vcd_path;
    if (base.size() > 4 && base.substr(base.size() - 4) == ".vcd") base.resize(base.size() - 4);
    tf = sc_core::sc_create_vcd_trace_file(base.c_str());
    tf->set_time_unit(1, sc_core::SC_PS);
    p->trace(tf);
  }

  // Precondition by fast-forward, then start the statistics afresh.
  PreconditionResult pre;
  const double dw = c.d("precondition.drive_writes");
  const bool fill = c.b("precondition.fill");
  if (fill || dw > 0) {
    std::unique_ptr<Workload> w = dw > 0 ? make_precondition_workload(c, p->geometry().logical_bytes()) : nullptr;
    auto t0 = std::chrono::steady_clock::now();
    pre = precondition(p->ftl().page_ftl(), p->checker(), fill, dw, w.get(), [&](uint64_t done, uint64_t total) {
      if (o.progress && std::chrono::steady_clock::now() - t0 > std::chrono::seconds(2))
        std::fprintf(stderr, "[ssdtlm] precondition %llu/%llu units (%.0f%%)\n", (unsigned long long)done,
                     (unsigned long long)total, total ? 100.0 * double(done) / double(total) : 100.0);
    }, unsigned(c.u("precondition.threads")));
    const FlashCounters& f = p->ftl().page_ftl().counters();
    pre.nand_programs = f.programs[0] + f.programs[1] + f.programs[2] + f.programs[3];
    p->ftl().page_ftl().counters() = FlashCounters();
    p->ftl().page_ftl().map_cache().reset_stats();
    p->ftl().reset_stats();
  }

  sampler.start_clock();
  auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (p->host().error()) std::rethrow_exception(p->host().error());
  if (tf) sc_core::sc_close_vcd_trace_file(tf);
  sampler.finish();

  RunResult r;
  r.summary = make_summary(*p, pre, wall);
  r.timeseries_csv = sampler.csv();
  r.latency_cdf_csv = latency_cdf_csv(p->host().stats());
  const auto& counts = p->ftl().lpn_writes();
  if (!counts.empty()) {
    std::string& out = r.lpn_writes_csv;
    out = "lpn,writes\n";
    char line[48];
    for (size_t lpn = 0; lpn < counts.size(); ++lpn)
      if (counts[lpn]) out.append(line, size_t(std::snprintf(line, sizeof line, "%zu,%u\n", lpn, counts[lpn])));
  }
  r.exit_code = r.summary["integrity"]["errors"].get<uint64_t>() ? 1 : 0;
  return r;
}

Config platform_config(const PlatformInfo& info) {
  Config c;
  c.merge_text(info.default_config, "platforms/" + info.name + "/config.json");
  return c;
}

int run_platform(int argc, char** argv, const PlatformInfo& info) {
  const std::string prog = "ssdtlm-" + info.name;
  std::vector<std::string> configs, sets;
  std::string out = "out", vcd, seed;
  bool quiet = false;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i], value;
      auto eq = a.find('=');
      bool inline_value = a.rfind("--", 0) == 0 && eq != std::string::npos;
      std::string flag = inline_value ? a.substr(0, eq) : a;
      auto take = [&]() {
        if (inline_value) return a.substr(eq + 1);
        if (i + 1 >= argc) throw ConfigError("option " + flag + ": expected a value");
        return std::string(argv[++i]);
      };
      if (flag == "--help" || flag == "-h") {
        std::cout << usage(info.name);
        return 0;
      } else if (flag == "--help-config") {
        std::cout << config_table();
        return 0;
      } else if (flag == "--config") {
        configs.push_back(take());
      } else if (flag == "--set") {
        sets.push_back(take());
      } else if (flag == "--out") {
        out = take();
      } else if (flag == "--vcd") {
        vcd = take();
      } else if (flag == "--seed") {
        seed = take();
      } else if (flag == "--quiet") {
        quiet = true;
      } else {
        throw ConfigError("unknown option '" + a + "'\n" + usage(info.name));
      }
    }
    Config c = platform_config(info);
    for (auto& f : configs) c.merge_file(f);
    for (auto& s : sets) c.set(s);
    if (!seed.empty()) c.set("sim.seed=" + seed);

    RunResult r = simulate(c, info, RunOptions{vcd, !quiet});
    std::filesystem::create_directories(out);
    write_file(std::filesystem::path(out) / "config.json", c.json().dump(2) + "\n");
    write_file(std::filesystem::path(out) / "summary.json", r.summary.dump(2) + "\n");
    write_file(std::filesystem::path(out) / "timeseries.csv", r.timeseries_csv);
    write_file(std::filesystem::path(out) / "latency_cdf.csv", r.latency_cdf_csv);
    if (!r.lpn_writes_csv.empty()) write_file(std::filesystem::path(out) / "lpn_writes.csv", r.lpn_writes_csv);
    if (!quiet) std::cout << summary_text(r.summary) << "outputs in " << out << "/\n";
    if (r.exit_code)
      std::cerr << prog << ": integrity check failed: " << r.summary["integrity"]["first_error"].get<std::string>()
                << "\n";
    return r.exit_code;
  } catch (const ConfigError& e) {
    std::cerr << prog << ": error: " << e.what() << "\n";
    return 2;
  } catch (const TraceError& e) {  // a trace line that does not parse
    std::cerr << prog << ": error: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {  // a request the device cannot take
    std::cerr << prog << ": error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << prog << ": model error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace ssdtlm
