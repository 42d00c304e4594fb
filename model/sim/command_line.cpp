#include "sim/command_line.h"

#include <algorithm>
#include <cmath>
#include <iostream>

#include "common/text.h"
#include "config/params.h"
#include "config/placement_params.h"
#include "config/validation.h"
#include "wave/wave_trace.h"

namespace ssdtlm {

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

// The host's cost per I/O from the job file's ioengine (FioJobFile::host_engine), unless the configuration sets it:
// host.engine other than none, or host.submit_ns / host.complete_ns other than 0, in the platform's configuration or
// a --config file (`before`, the configuration before the job file), or any of the three in a --set. That explicit
// setting wins for every job (with a note when the job file's engine would cost otherwise); else jobs whose engines
// cost differently are an error, and an engine without a cited cost leaves host.engine as it is, with a note.
void apply_fio_host_engine(Config& c, const Config& before, const RunRequest& r, const FioJobFile& fio,
                           const std::string& prog) {
  static const char* const kKeys[] = {"host.engine=", "host.submit_ns=", "host.complete_ns="};
  bool explicit_cost = before.s("host.engine") != "none" || before.d("host.submit_ns") != 0 ||
                       before.d("host.complete_ns") != 0;
  for (const std::string& s : r.sets)
    for (const char* k : kKeys)
      if (s.rfind(k, 0) == 0) explicit_cost = true;
  std::string note;
  if (explicit_cost) {
    const std::string set = c.s("host.engine") != "none"
                                ? "host.engine=" + c.s("host.engine")
                                : std::string("host.engine=none with host.submit_ns and host.complete_ns");
    if (fio.host_engine != c.s("host.engine") || !fio.host_engine_conflict.empty())
      note = set + " set by the configuration applies to every job, not the job file's engine (" +
             fio.host_engine_basis + ")";
  } else if (!fio.host_engine_conflict.empty()) {
    throw ConfigError(fio.host_engine_conflict);
  } else if (fio.host_engine.empty()) {
    note = fio.host_engine_basis + ": host.engine stays " + c.s("host.engine");
  } else {
    c.set("host.engine=" + fio.host_engine);
    note = "host.engine=" + fio.host_engine + " from " + fio.host_engine_basis;
  }
  if (!r.quiet && !note.empty()) std::cerr << prog << ": note: " << note << "\n";
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

bool ends_with_fst(const std::string& path) {
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".fst") == 0;
}

// A key's value as JSON, through the typed getters (they know where a key lives in the document).
nlohmann::json key_value(const Config& c, const KeySpec& k) {
  switch (k.type) {
    case KeyType::Int: return c.i(k.path);
    case KeyType::Real: return c.d(k.path);
    case KeyType::Bool: return c.b(k.path);
    case KeyType::String: return c.s(k.path);
    case KeyType::Jobs: break;
  }
  return c.json()["jobs"];
}

}  // namespace

bool RunRequest::wants_fst() const { return fst || ends_with_fst(waveform_path); }

std::string usage(const std::string& name) {
  return "usage: ssdtlm-" + name +
         " [--config FILE]... [--fio JOBFILE] [--set key.path=value]... [--out DIR] [--seed N]\n"
         "       [--vcd FILE | --fst FILE] [--vcd-window START_MS:END_MS] [--output-format FORMAT[,FORMAT]] [--terse-version N] [--quiet]\n"
         "       ssdtlm-" + name + " --help-config [KEY-PREFIX]   (the keys, with this platform's defaults and units)\n"
         "       ssdtlm-" + name + " [--config FILE]... [--fio JOBFILE] [--set key.path=value]... --print-config\n"
         "                (the effective configuration as JSON, without simulating)\n"
         "       ssdtlm-" + name + " --version\n"
         "Layers: platform defaults, then each --config, then the fio job file, then each --set (a --set of a\n"
         "workload.* key, host.queues or host.queue_depth also overrides it in every job), then --seed.\n"
         "Sizes take units (4k, 64M, 1GiB), times too (0.7ms, 20ns), ratios a % (25%).\n"
         "--vcd FILE writes the waveform (FST when FILE ends in .fst, as --fst FILE does; FST needs GTKWave's\n"
         "vcd2fst) and FILE.gtkw, its GTKWave layout: gtkwave FILE FILE.gtkw. --vcd-window traces only that span of\n"
         "simulated time (ms; 100:200, or 100: to the end).\n"
         "--output-format: text (the summary; the default), summary-json (summary.json), or fio's formats, several\n"
         "separated by commas as fio takes them: json (fio's JSON with --fio, else summary.json), json+ (with clat\n"
         "bins), fio-json, normal (fio's text report), terse (--terse-version 2 to 5, default 3).\n";
}

std::string config_table(const Config& defaults, const std::string& prefix) {
  std::string s = "| key | type | default | range / choices | unit | meaning |\n|---|---|---|---|---|---|\n";
  size_t shown = 0;
  for (auto& k : config_schema()) {
    if (k.path.compare(0, prefix.size(), prefix) != 0) continue;
    const char* type = k.type == KeyType::Int ? "int" : k.type == KeyType::Real ? "real" : k.type == KeyType::Bool ? "bool" : k.type == KeyType::Jobs ? "array" : "string";
    std::string range;
    if (k.type == KeyType::Int || k.type == KeyType::Real) range = key_limit(k, k.min) + " .. " + key_limit(k, k.max);
    for (auto& c : k.choices) range += (range.empty() ? "" : ", ") + c;
    s += "| `" + k.path + "` | " + type + " | `" + key_value(defaults, k).dump() + "` | " + range + " | " + k.unit + " | " + k.help + " |\n";
    ++shown;
  }
  if (shown == 0)
    throw ConfigError("option --help-config: no configuration key starts with " + quote_text(prefix) +
                      " (--help-config alone lists them all)");
  return s;
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

std::vector<std::string> output_formats(const std::string& value) {
  std::vector<std::string> out;
  size_t at = 0;
  while (true) {
    const size_t comma = std::min(value.find(',', at), value.size());
    const std::string f = value.substr(at, comma - at);
    if (f != "text" && f != "json" && f != "json+" && f != "fio-json" && f != "summary-json" && f != "normal" &&
        f != "terse")
      throw ConfigError("option --output-format: expected text, json, json+, fio-json, summary-json, normal or terse "
                        "(fio's several separated by commas: normal,json), got '" + value + "'");
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    if (comma == value.size()) break;
    at = comma + 1;
  }
  if (out.size() > 1 && (std::find(out.begin(), out.end(), "text") != out.end() ||
                         std::find(out.begin(), out.end(), "summary-json") != out.end()))
    throw ConfigError("option --output-format: text and summary-json stand alone; fio's formats (json, json+, "
                      "fio-json, normal, terse) combine, got '" + value + "'");
  return out;
}

RunRequest parse_command_line(int argc, char** argv, const PlatformInfo& info) {
  RunRequest r;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto eq = a.find('=');
    bool inline_value = a.rfind("--", 0) == 0 && eq != std::string::npos;
    std::string flag = inline_value ? a.substr(0, eq) : a;
    auto take = [&]() {
      if (inline_value) return a.substr(eq + 1);
      if (i + 1 >= argc) throw ConfigError("option " + flag + ": expected a value");
      return std::string(argv[++i]);
    };
    if (flag == "--help" || flag == "-h") {
      r.action = RunRequest::Action::Help;
      return r;
    } else if (flag == "--help-config") {
      r.action = RunRequest::Action::HelpConfig;
      if (inline_value)
        r.help_prefix = take();
      else if (i + 1 < argc && argv[i + 1][0] != '-')
        r.help_prefix = argv[++i];
      return r;
    } else if (flag == "--print-config") {
      r.action = RunRequest::Action::PrintConfig;
    } else if (flag == "--version") {
      r.action = RunRequest::Action::Version;
      return r;
    } else if (flag == "--config") {
      r.config_files.push_back(take());
    } else if (flag == "--fio") {
      if (!r.fio_path.empty()) throw ConfigError("option --fio: one job file per run (got " + r.fio_path + " already)");
      r.fio_path = take();
    } else if (flag == "--set") {
      r.sets.push_back(take());
    } else if (flag == "--out") {
      r.out_dir = take();
    } else if (flag == "--vcd" || flag == "--fst") {
      r.waveform_path = take();
      r.fst = flag == "--fst";
      if (r.waveform_path.empty()) throw ConfigError("option " + flag + ": expected a file name, got ''");
    } else if (flag == "--vcd-window") {
      r.window = parse_vcd_window(take());
      r.has_window = true;
    } else if (flag == "--seed") {
      r.seed = take();
      if (r.seed.empty()) throw ConfigError("option --seed: expected an integer (sim.seed), got ''");
    } else if (flag == "--output-format") {
      r.format = take();
      output_formats(r.format);  // checked here, before anything runs
    } else if (flag == "--terse-version") {
      const std::string v = take();
      if (v != "2" && v != "3" && v != "4" && v != "5")
        throw ConfigError("option --terse-version: expected 2, 3, 4 or 5 (fio's terse versions), got '" + v + "'");
      r.terse_version = v[0] - '0';
    } else if (flag == "--quiet") {
      r.quiet = true;
    } else {
      throw ConfigError("unknown option " + quote_text(a) + "\n" + usage(info.name));
    }
  }
  return r;
}

Config layered_config(const RunRequest& r, const PlatformInfo& info, std::unique_ptr<FioJobFile>& fio) {
  const std::string prog = "ssdtlm-" + info.name;
  Config c = platform_config(info);
  for (auto& f : r.config_files) c.merge_file(f);
  const Config before_fio = c;
  if (!r.fio_path.empty()) {
    // Percentages and the default size of a job refer to the device the run will have.
    Config probe = c;
    for (auto& s : r.sets) probe.set(s);
    const uint64_t device = read_geometry(probe, 0).logical_bytes();
    const ZnsParams zns = read_zns_params(probe);  // fio's zone suffix (size=8z) counts the namespace's zones
    const uint64_t zone = zns.enabled ? zns_layout(zns, read_geometry(probe, 0)).zones.zone_units * kUnitBytes : 0;
    fio = std::make_unique<FioJobFile>(read_fio_job_file(r.fio_path, device, zone));
    c.merge(fio->config, r.fio_path);
    if (!r.quiet) {
      if (!fio->ignored.empty())
        std::cerr << prog << ": " << r.fio_path << ": ignored (no effect on the modelled device): " << join(fio->ignored)
                  << "\n";
      for (auto& n : fio->notes) std::cerr << prog << ": note: " << n << "\n";
    }
  }
  for (auto& s : r.sets) {
    c.set(s);
    if (fio) override_jobs(c, s);
  }
  if (!r.seed.empty()) c.set("sim.seed=" + r.seed);
  if (fio) apply_fio_host_engine(c, before_fio, r, *fio, prog);
  if (!r.quiet)
    for (auto& w : config_warnings(c)) std::cerr << prog << ": warning: " << w << "\n";
  return c;
}

void check_waveform_request(const RunRequest& r) {
  if (r.has_window && r.waveform_path.empty())
    throw ConfigError("option --vcd-window: expected --vcd FILE or --fst FILE as well");
  if (r.wants_fst() && !wave_fst_available())
    throw ConfigError("option " + r.waveform_option() + " " + r.waveform_path +
                      ": FST is written through GTKWave's vcd2fst, which is not on PATH (Debian package gtkwave; "
                      "or write a .vcd)");
}

}  // namespace ssdtlm
