#include "sim/runner.h"

#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "common/sim_time.h"
#include "common/units.h"
#include "controller/power_loss.h"
#include "controller/precondition.h"
#include "flash/geometry.h"
#include "frontend/fio/fio_job.h"
#include "workload/trace/trace_reader.h"
#include "workload/workload_factory.h"
#include "common/text.h"
#include "frontend/fio/fio_json.h"
#include "report/memory_estimate.h"
#include "report/output_dir.h"
#include "report/sampler.h"
#include "report/summary.h"
#include "wave/wave_trace.h"

namespace ssdtlm {

namespace {

// The build may record its version and git revision in a generated header (SSDTLM_VERSION, SSDTLM_GIT_REVISION);
// without it the version is this default and the revision is asked of git at run time (version_string()).
#if __has_include("ssdtlm_version.h")
#include "ssdtlm_version.h"
#endif
#ifndef SSDTLM_VERSION
#define SSDTLM_VERSION "0.14.0"
#endif

// SystemC prints its reports on stdout; ours go to stderr, so stdout carries only what was asked for
// (the summary, or JSON with --output-format).
void report_to_stderr(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY) std::cerr << sc_core::sc_report_compose_message(rep) << std::endl;
  sc_core::sc_report_handler::default_handler(rep, actions & ~sc_core::sc_actions(sc_core::SC_DISPLAY));
}

void quiet_kernel(bool quiet) {
  sc_core::sc_report_handler::set_handler(report_to_stderr);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  if (quiet)  // warnings a normal run produces and that say nothing about the model
    for (const char* id : {"sc_stop has already been called", "no activity or clock movement for sc_start() invocation",
                           "/IEEE_Std_1666/deprecated"})
      sc_core::sc_report_handler::set_actions(id, sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
}

#ifndef SSDTLM_GIT_REVISION
// The git revision of the source tree this file was compiled from, asked of git at run time (the build
// does not record it unless SSDTLM_GIT_REVISION is defined).
std::string source_revision(std::string& where) {
  std::filesystem::path root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
  where = root.string();
  if (!std::filesystem::exists(root / ".git")) return "";
  const std::string cmd = "git -C '" + root.string() + "' describe --always --dirty --abbrev=12 2>/dev/null";
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[128];
    while (std::fgets(buf, sizeof buf, f)) out += buf;
    pclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}
#endif

std::string usage(const std::string& name) {
  return "usage: ssdtlm-" + name +
         " [--config FILE]... [--fio JOBFILE] [--set key.path=value]... [--out DIR] [--seed N]\n"
         "       [--vcd FILE | --fst FILE] [--vcd-window START_MS:END_MS] [--output-format text|json|fio-json] [--quiet]\n"
         "       ssdtlm-" + name + " --help-config   (every configuration key, its default and unit)\n"
         "       ssdtlm-" + name + " --version\n"
         "Layers: platform defaults, then each --config, then the fio job file, then each --set (a --set of a\n"
         "workload.* key, host.queues or host.queue_depth also overrides it in every job), then --seed.\n"
         "Sizes take units (4k, 64M, 1GiB), times too (0.7ms, 20ns), ratios a % (25%).\n"
         "--vcd FILE writes the waveform (FST when FILE ends in .fst, as --fst FILE does; FST needs GTKWave's\n"
         "vcd2fst) and FILE.gtkw, its GTKWave layout: gtkwave FILE FILE.gtkw. --vcd-window traces only that span of\n"
         "simulated time (ms; 100:200, or 100: to the end).\n";
}

std::string config_table() {
  std::string s = "| key | type | default | range / choices | unit | meaning |\n|---|---|---|---|---|---|\n";
  for (auto& k : config_schema()) {
    const char* type = k.type == KeyType::Int ? "int" : k.type == KeyType::Real ? "real" : k.type == KeyType::Bool ? "bool" : k.type == KeyType::Jobs ? "array" : "string";
    std::string range;
    if (k.type == KeyType::Int || k.type == KeyType::Real) range = key_limit(k, k.min) + " .. " + key_limit(k, k.max);
    for (auto& c : k.choices) range += (range.empty() ? "" : ", ") + c;
    s += "| `" + k.path + "` | " + type + " | `" + k.def.dump() + "` | " + range + " | " + k.unit + " | " + k.help + " |\n";
  }
  return s;
}

}  // namespace

std::string version_string() {
#ifdef SSDTLM_GIT_REVISION
  return std::string(SSDTLM_VERSION) + " (git " + SSDTLM_GIT_REVISION + ")";
#else
  std::string where;
  const std::string rev = source_revision(where);
  if (rev.empty()) return std::string(SSDTLM_VERSION) + " (git revision unknown: the build does not record it)";
  return std::string(SSDTLM_VERSION) + " (git " + rev + ", read from the source tree " + where +
         " at run time: the build does not record its revision)";
#endif
}

RunResult simulate(const Config& c, const PlatformInfo& info, const RunOptions& o) {
  quiet_kernel(o.quiet);
  const uint64_t estimated = check_memory(c, Geometry::from_config(c, 0));  // before anything large is allocated
  const std::vector<uint64_t> losses = power_loss_instants(c);
  if (!losses.empty() && !c.b("check.integrity"))
    throw ConfigError("fault.power_loss_at_ms / fault.power_loss_count: need check.integrity=true (recovery replays "
                      "by the write versions it keeps, and checks every unit against them)");
  std::unique_ptr<Platform> p = info.make(c);
  if (!losses.empty())  // map checkpoints are tracked from the start, preconditioning included
    p->ftl().page_ftl().map_cache().set_checkpoint_clock(p->ftl().page_ftl().blocks().close_clock_ptr());
  const uint64_t interval = uint64_t(c.d("stats.interval_ms") * 1e9);
  // The progress line asks the host what counts (trace requests, simulated time, I/Os).
  Sampler sampler("sampler", *p, interval ? interval : 1, 0, o.progress);
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

  // The waveform covers the timed run: its signals start from the preconditioned state.
  std::unique_ptr<WaveTracer> wave;
  if (!o.vcd_path.empty()) {
    WaveOptions wo;
    wo.path = o.vcd_path;
    wo.write_path = waveform_temp_path(o.vcd_path);  // renamed to path when the run succeeds
    wo.fst = o.fst || (o.vcd_path.size() > 4 && o.vcd_path.compare(o.vcd_path.size() - 4, 4, ".fst") == 0);
    wo.start_ps = o.vcd_start_ps;
    wo.end_ps = o.vcd_end_ps;
    wo.version = "ssdtlm-" + info.name + " " + SSDTLM_VERSION;
    const Geometry& g = p->geometry();
    wo.comment = info.name + ": " + std::to_string(g.channels) + " channels x " + std::to_string(g.dies_per_channel) +
                 " dies, seed " + std::to_string(c.u("sim.seed"));
    wave = std::make_unique<WaveTracer>(wo, &now_ps);
    p->trace(*wave);
  }

  sampler.start_clock();
  auto t0 = std::chrono::steady_clock::now();
  std::vector<RecoveryReport> recoveries;
  if (!losses.empty()) {
    const PowerLossParams pp = PowerLossParams::from_config(c);
    const FlashParams fp = FlashParams::from_config(c);
    const Channel bus(c.d("timing.channel_mts"), uint32_t(c.i("timing.channel_width_bytes")), c.d("timing.cmd_ns"));
    PowerLossState state;
    for (uint64_t t : losses) {
      if (t > now_ps()) sc_core::sc_start(sc_core::sc_time(double(t - now_ps()), sc_core::SC_PS));
      if (sc_core::sc_get_status() == sc_core::SC_STOPPED || p->host().finished() || p->host().error()) break;
      Ftl& f = p->ftl();
      recoveries.push_back(power_loss(state, f.page_ftl(), f.buffer(), *p->checker(), pp, fp, bus, f.waiting_write_units(), now_ps()));
      recoveries.back().torn_gc_programs = f.gc_programs_in_flight();
      recoveries.back().torn_erases = f.gc_erases_in_flight();
      p->host().hold_until(now_ps() + recoveries.back().time_ps);
      f.resume_after_power_loss();
    }
  }
  if (sc_core::sc_get_status() != sc_core::SC_STOPPED) sc_core::sc_start();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (p->host().error()) std::rethrow_exception(p->host().error());
  if (!p->host().finished())  // nothing left to happen, yet jobs still waiting: the sampler let the kernel stop
    throw std::runtime_error("the simulation stalled at " + std::to_string(double(now_ps()) / 1e12) + " s with " +
                             std::to_string(p->host().outstanding()) +
                             " commands outstanding and jobs unfinished (no event pending)");
  sampler.finish();
  std::vector<std::string> layout;
  double wave_s = 0;
  if (wave) {  // the rest of the file (operations still running at the end included) and its layout
    auto w0 = std::chrono::steady_clock::now();
    wave->finish(now_ps());
    std::filesystem::rename(wave->options().write_path, o.vcd_path);
    layout = wave->write_layout();
    wave_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    if (wave->stats().out_of_order)
      std::cerr << "ssdtlm: warning: " << wave->stats().out_of_order
                << " waveform changes arrived out of time order (a model bug; please report it)\n";
  }

  RunResult r;
  r.summary = make_summary(*p, pre, wall);
  r.summary["memory"]["estimated_bytes"] = estimated;
  if (!losses.empty()) r.summary["recovery"] = recovery_summary(recoveries, losses.size());
  if (wave) {
    const WaveStats& ws = wave->stats();
    std::error_code ec;
    const uintmax_t bytes = std::filesystem::file_size(o.vcd_path, ec);
    r.summary["waveform"] = {{"path", o.vcd_path},
                             {"format", wave->options().fst ? "fst" : "vcd"},
                             {"bytes", ec ? 0 : uint64_t(bytes)},
                             {"vcd_bytes", ws.bytes},
                             {"signals", wave->signals()},
                             {"changes", ws.changes},
                             {"start_ms", double(ws.first_ps) / 1e9},
                             {"end_ms", double(ws.last_ps) / 1e9},
                             {"out_of_order_changes", ws.out_of_order},
                             {"finish_wall_s", wave_s},
                             {"layout", layout}};
  }
  if (o.fio_json) r.fio_json = make_fio_json(*p, c, r.summary, o.fio, SSDTLM_VERSION);
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

std::pair<uint64_t, uint64_t> parse_vcd_window(const std::string& text) {
  const auto colon = text.find(':');
  auto bad = [&]() {
    return ConfigError("option --vcd-window: expected START_MS:END_MS (simulated milliseconds, START < END; "
                       "either may be empty), got '" + text + "'");
  };
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos) throw bad();
  auto ms = [&](const std::string& part, uint64_t empty) {
    if (part.empty()) return empty;
    size_t used = 0;
    double v;
    try {
      v = std::stod(part, &used);
    } catch (const std::exception&) {
      throw bad();
    }
    if (used != part.size() || !(v >= 0) || v > 1e10) throw bad();
    return uint64_t(std::llround(v * 1e9));
  };
  if (text.size() == 1) throw bad();  // ":" alone
  const uint64_t start = ms(text.substr(0, colon), 0), end = ms(text.substr(colon + 1), ~uint64_t(0));
  if (start >= end) throw bad();
  return {start, end};
}

Config platform_config(const PlatformInfo& info) {
  Config c;
  c.merge_text(info.default_config, "platforms/" + info.name + "/config.json");
  return c;
}

namespace {

// "--set workload.K=V" (or host.queues / host.queue_depth) after a job file: the job file's jobs set every
// such key explicitly, so the command line must override it in each job to win.
void override_jobs(Config& c, const std::string& assignment) {
  const std::string key = assignment.substr(0, assignment.find('='));
  std::string field;
  if (key.rfind("workload.", 0) == 0)
    field = key.substr(9);
  else if (key == "host.queues" || key == "host.queue_depth")
    field = key.substr(5);
  else
    return;
  nlohmann::json jobs = c.json()["jobs"];
  bool changed = false;
  for (auto& j : jobs)
    if (j.contains(field)) {
      j[field] = c.json().at(nlohmann::json::json_pointer("/" + key.substr(0, key.find('.')) + "/" + field));
      changed = true;
    }
  if (changed) c.merge(nlohmann::json{{"jobs", jobs}}, "--set " + key);
}

// A waveform path that cannot be written, or that summary.json cannot hold (not UTF-8), stops the run
// before the simulation: the file is made (and removed again) where the tracer will write it.
void check_waveform_path(const std::string& path, const std::string& option) {
  if (!valid_utf8(path))
    throw ConfigError("option " + option + ": expected a UTF-8 path (it is recorded in summary.json), got " +
                      escape_bytes(path));
  namespace fs = std::filesystem;
  if (fs::is_directory(path)) throw ConfigError("option " + option + " " + path + ": expected a file, got a directory");
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  const std::string probe = waveform_temp_path(path);
  FILE* f = ec ? nullptr : std::fopen(probe.c_str(), "wb");
  if (!f)
    throw ConfigError("option " + option + " " + path + ": cannot write the waveform there (" +
                      (ec ? ec.message() : std::string(std::strerror(errno))) + ")");
  std::fclose(f);
  fs::remove(probe, ec);
}

// JSON for the outputs; a byte that is not UTF-8 (a fio job file may hold one) becomes U+FFFD, not an error
// after the whole simulation (configuration strings are checked to be UTF-8 up front).
template <class Json>
std::string json_text(const Json& j) {
  return j.dump(2, ' ', false, Json::error_handler_t::replace);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

int run_platform(int argc, char** argv, const PlatformInfo& info) {
  const std::string prog = "ssdtlm-" + info.name;
  std::vector<std::string> configs, sets;
  std::string out = "out", vcd, seed, fio_path, format = "text";
  bool quiet = false, fst = false, has_window = false;
  std::pair<uint64_t, uint64_t> window{0, ~uint64_t(0)};
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
      } else if (flag == "--version") {
        std::cout << prog << " " << version_string() << "\n" << "SystemC " << sc_core::sc_release() << "\n";
        return 0;
      } else if (flag == "--config") {
        configs.push_back(take());
      } else if (flag == "--fio") {
        if (!fio_path.empty()) throw ConfigError("option --fio: one job file per run (got " + fio_path + " already)");
        fio_path = take();
      } else if (flag == "--set") {
        sets.push_back(take());
      } else if (flag == "--out") {
        out = take();
      } else if (flag == "--vcd") {
        vcd = take();
      } else if (flag == "--fst") {
        vcd = take();
        fst = true;
      } else if (flag == "--vcd-window") {
        window = parse_vcd_window(take());
        has_window = true;
      } else if (flag == "--seed") {
        seed = take();
      } else if (flag == "--output-format") {
        format = take();
        if (format != "text" && format != "json" && format != "fio-json")
          throw ConfigError("option --output-format: expected text, json or fio-json, got '" + format + "'");
      } else if (flag == "--quiet") {
        quiet = true;
      } else {
        throw ConfigError("unknown option '" + a + "'\n" + usage(info.name));
      }
    }
    Config c = platform_config(info);
    for (auto& f : configs) c.merge_file(f);
    std::unique_ptr<FioJobFile> fio;
    if (!fio_path.empty()) {
      // Percentages and the default size of a job refer to the device the run will have.
      Config probe = c;
      for (auto& s : sets) probe.set(s);
      const uint64_t device = Geometry::from_config(probe, 0).logical_bytes();
      fio = std::make_unique<FioJobFile>(read_fio_job_file(fio_path, device));
      c.merge(fio->config, fio_path);
      if (!quiet) {
        if (!fio->ignored.empty())
          std::cerr << prog << ": " << fio_path << ": ignored (no effect on the modelled device): " << join(fio->ignored)
                    << "\n";
        for (auto& n : fio->notes) std::cerr << prog << ": note: " << n << "\n";
      }
    }
    for (auto& s : sets) {
      c.set(s);
      if (fio) override_jobs(c, s);
    }
    if (!seed.empty()) c.set("sim.seed=" + seed);
    if (has_window && vcd.empty()) throw ConfigError("option --vcd-window: expected --vcd FILE or --fst FILE as well");
    if ((fst || (vcd.size() > 4 && vcd.compare(vcd.size() - 4, 4, ".fst") == 0)) && !wave_fst_available())
      throw ConfigError("option " + std::string(fst ? "--fst" : "--vcd") + " " + vcd +
                        ": FST is written through GTKWave's vcd2fst, which is not on PATH (Debian package gtkwave; "
                        "or write a .vcd)");

    RunOptions ro;
    ro.vcd_path = vcd;
    ro.fst = fst;
    ro.vcd_start_ps = window.first;
    ro.vcd_end_ps = window.second;
    ro.progress = !quiet;
    ro.quiet = quiet;
    ro.fio_json = format == "fio-json" || fio != nullptr;
    ro.fio = fio.get();
    // Where the results go is checked before the simulation, not after it.
    if (!vcd.empty()) check_waveform_path(vcd, fst ? "--fst" : "--vcd");
    OutputDir staged(out);
    RunResult r = simulate(c, info, ro);
    staged.write("config.json", json_text(c.json()) + "\n");
    staged.write("summary.json", json_text(r.summary) + "\n");
    staged.write("timeseries.csv", r.timeseries_csv);
    staged.write("latency_cdf.csv", r.latency_cdf_csv);
    if (!r.lpn_writes_csv.empty()) staged.write("lpn_writes.csv", r.lpn_writes_csv);
    if (ro.fio_json) staged.write("fio.json", json_text(r.fio_json) + "\n");
    staged.commit(output_file_names());
    if (format == "json")
      std::cout << json_text(r.summary) << "\n";
    else if (format == "fio-json")
      std::cout << json_text(r.fio_json) << "\n";
    else if (!quiet)
      std::cout << summary_text(r.summary) << "outputs in " << out << "/\n";
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
