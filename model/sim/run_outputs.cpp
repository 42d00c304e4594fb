#include "sim/run_outputs.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "common/sim_time.h"
#include "common/text.h"
#include "report/summary.h"
#include "sim/version.h"

namespace ssdtlm {

namespace {
// JSON for the outputs; a byte that is not UTF-8 (a fio job file may hold one) becomes U+FFFD, not an error
// after the whole simulation (configuration strings are checked to be UTF-8 up front).
template <class Json>
std::string json_text(const Json& j) {
  return j.dump(2, ' ', false, Json::error_handler_t::replace);
}
}  // namespace

namespace {
// Absolute, without "." or ".." or a trailing separator, links resolved as far as the path exists.
std::filesystem::path plain(const std::string& p) {
  std::error_code ec;
  std::filesystem::path a = std::filesystem::weakly_canonical(std::filesystem::absolute(p), ec);
  if (ec) a = std::filesystem::absolute(p).lexically_normal();
  return a.has_filename() ? a : a.parent_path();
}

// The waveform on --out's path, on a folder --out lies in, or on a file of the output set.
void check_waveform_beside_outputs(const std::string& path, const std::string& option, const std::string& out_dir) {
  const std::filesystem::path w = plain(path), out = plain(out_dir);
  const std::string named = "option " + option + " " + path + ": ";
  if (std::mismatch(w.begin(), w.end(), out.begin(), out.end()).first == w.end())
    throw ConfigError(named + (w == out ? "the same path as --out " + out_dir + ", the output folder"
                                        : "--out " + out_dir + " lies inside it, but the waveform is a file") +
                      "; give the waveform a file name of its own");
  const auto& names = output_file_names();
  if (w.parent_path() == out && std::find(names.begin(), names.end(), w.filename().string()) != names.end())
    throw ConfigError(named + "a file of the output set that --out " + out_dir + " receives; give the waveform "
                      "another name");
}
}  // namespace

void check_waveform_path(const std::string& path, const std::string& option, const std::string& out_dir) {
  if (!valid_utf8(path))
    throw ConfigError("option " + option + ": expected a UTF-8 path (it is recorded in summary.json), got " +
                      escape_bytes(path));
  namespace fs = std::filesystem;
  check_waveform_beside_outputs(path, option, out_dir);
  if (fs::is_directory(path)) throw ConfigError("option " + option + " " + path + ": expected a file, got a directory");
  remove_stale_waveform_parts(path);
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

std::unique_ptr<WaveTracer> start_waveform(const RunOptions& o, const std::string& name, Platform& p, uint64_t seed) {
  WaveOptions wo;
  wo.path = o.vcd_path;
  wo.write_path = waveform_temp_path(o.vcd_path);  // renamed to path when the run succeeds
  remove_on_signal(wo.write_path);                  // and removed by SIGINT, SIGTERM, SIGHUP before
  wo.fst = o.fst || (o.vcd_path.size() > 4 && o.vcd_path.compare(o.vcd_path.size() - 4, 4, ".fst") == 0);
  wo.start_ps = o.vcd_start_ps;
  wo.end_ps = o.vcd_end_ps;
  wo.version = "ssdtlm-" + name + " " + project_version();
  const Geometry& g = p.geometry();
  wo.comment = name + ": " + std::to_string(g.channels) + " channels x " + std::to_string(g.dies_per_channel) +
               " dies, seed " + std::to_string(seed);
  auto wave = std::make_unique<WaveTracer>(wo, &now_ps);
  p.trace(*wave);
  return wave;
}

WaveFinish finish_waveform(WaveTracer& wave, uint64_t now, const std::string& path) {
  // The rest of the file (operations still running at the end included) and its layout.
  WaveFinish f;
  auto w0 = std::chrono::steady_clock::now();
  try {
    wave.finish(now);
  } catch (const std::runtime_error& e) {  // a full disk, vcd2fst stopping: the partial file is gone
    throw OutputError("waveform " + std::string(e.what()) + "; no output was replaced");
  }
  const WaveOptions& o = wave.options();
  if (o.start_ps > 0 && o.start_ps >= now)
    std::cerr << "ssdtlm: warning: --vcd-window starts at " << double(o.start_ps) / 1e9 << " ms, after the run's end at "
              << double(now) / 1e9 << " ms: the waveform " << path << " holds no change\n";
  std::error_code ec;
  std::filesystem::rename(wave.options().write_path, path, ec);
  if (ec) {  // an I/O error, not the model's: the earlier file stays, the partial one goes
    std::error_code rec;
    std::filesystem::remove(wave.options().write_path, rec);
    throw OutputError("waveform " + path + ": cannot move " + wave.options().write_path + " into place (" +
                      ec.message() + "); an earlier file there is left as it was");
  }
  f.layout = wave.write_layout();
  f.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  if (wave.stats().out_of_order)
    std::cerr << "ssdtlm: warning: " << wave.stats().out_of_order
              << " waveform changes arrived out of time order (a model bug; please report it)\n";
  return f;
}

nlohmann::json waveform_summary(const WaveTracer& wave, const std::string& path, const WaveFinish& finish) {
  const WaveStats& ws = wave.stats();
  std::error_code ec;
  const uintmax_t bytes = std::filesystem::file_size(path, ec);
  return {{"path", path},
          {"format", wave.options().fst ? "fst" : "vcd"},
          {"bytes", ec ? 0 : uint64_t(bytes)},
          {"vcd_bytes", ws.bytes},
          {"signals", wave.signals()},
          {"changes", ws.changes},
          {"start_ms", double(ws.first_ps) / 1e9},
          {"end_ms", double(ws.last_ps) / 1e9},
          {"out_of_order_changes", ws.out_of_order},
          {"finish_wall_s", finish.wall_s},
          {"layout", finish.layout}};
}

std::string lpn_writes_csv(const std::vector<uint32_t>& counts) {
  std::string out;
  if (counts.empty()) return out;
  out = "lpn,writes\n";
  char line[48];
  for (size_t lpn = 0; lpn < counts.size(); ++lpn)
    if (counts[lpn]) out.append(line, size_t(std::snprintf(line, sizeof line, "%zu,%u\n", lpn, counts[lpn])));
  return out;
}

void write_outputs(OutputDir& staged, const Config& c, const RunResult& r, bool fio_json) {
  staged.write("config.json", json_text(c.json()) + "\n");
  staged.write("summary.json", json_text(r.summary) + "\n");
  staged.write("timeseries.csv", r.timeseries_csv);
  staged.write("latency_cdf.csv", r.latency_cdf_csv);
  if (!r.lpn_writes_csv.empty()) staged.write("lpn_writes.csv", r.lpn_writes_csv);
  if (!r.zones_csv.empty()) staged.write("zones.csv", r.zones_csv);
  if (fio_json) staged.write("fio.json", json_text(r.fio_json) + "\n");
  staged.adopt(r.log_files);
  staged.commit(output_file_names());
}

std::string write_incomplete(OutputDir& staged, const Config& c, const RunStuck& stuck) {
  nlohmann::json j = {{"complete", false},
                      {"exit_status", 3},
                      {"reason", stuck.reason},
                      {"state", stuck.state},
                      {"stopped_at_s", double(stuck.sim_ps) / 1e12},
                      {"completed_commands", stuck.completed},
                      {"note", "the run stopped; the other outputs here, if any, are those of the last complete run"},
                      {"version", project_version()},
                      {"config", c.json()}};
  try {
    staged.write("incomplete.json", json_text(j) + "\n");
    staged.commit_beside();
  } catch (const OutputError&) {
    return "";
  }
  return (staged.dir() / "incomplete.json").string();
}

int print_result(const RunResult& r, const std::vector<std::string>& formats, bool quiet, const std::string& out_dir,
                 const std::string& prog) {
  const auto wants = [&](const char* f) { return std::find(formats.begin(), formats.end(), f) != formats.end(); };
  if (wants("summary-json")) {
    std::cout << json_text(r.summary) << "\n";
  } else if (wants("text")) {
    if (!quiet) std::cout << summary_text(r.summary) << "outputs in " << out_dir << "/\n";
  } else {  // fio's formats, in the order fio prints them (stat.c: terse, json, normal)
    if (wants("terse")) std::cout << r.fio_terse;
    if (wants("fio-json") || wants("json") || wants("json+")) std::cout << json_text(r.fio_json) << "\n";
    if (wants("normal")) std::cout << r.fio_normal;
  }
  if (r.exit_code)
    std::cerr << prog << ": integrity check failed: " << r.summary["integrity"]["first_error"].get<std::string>()
              << "\n";
  return r.exit_code;
}

}  // namespace ssdtlm
