// Runs a platform: command line, configuration, preconditioning, the timed simulation and its outputs.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "frontend/fio/fio_job.h"
#include "sim/platform.h"

namespace ssdtlm {

struct RunOptions {
  std::string vcd_path;  // empty = no waveform; a path ending in .fst, or fst = true, writes FST (through vcd2fst)
  bool fst = false;
  uint64_t vcd_start_ps = 0, vcd_end_ps = ~uint64_t(0);  // traced window of simulated time
  bool progress = false;
  bool quiet = false;                // silence SystemC's informational messages and the warnings we expect
  bool fio_json = false;             // also make fio's JSON layout (RunResult::fio_json)
  const FioJobFile* fio = nullptr;   // the job file the configuration came from, for fio_json
};

struct RunResult {
  nlohmann::json summary;
  nlohmann::ordered_json fio_json;  // with RunOptions::fio_json (fio's key order)
  std::string timeseries_csv;
  std::string latency_cdf_csv;
  std::string lpn_writes_csv;  // only with stats.lpn_writes
  int exit_code = 0;  // 0 ok, 1 integrity errors
};

// Builds the platform from `c`, preconditions, simulates, and summarises. Throws ConfigError on bad
// configuration. Once per process (SystemC elaborates once).
RunResult simulate(const Config& c, const PlatformInfo& info, const RunOptions& o);

// The platform executable's main: ssdtlm-<name> [--config FILE]... [--fio JOBFILE] [--set key=value]...
// [--out DIR] [--vcd FILE | --fst FILE] [--vcd-window START_MS:END_MS] [--seed N]
// [--output-format text|json|fio-json] [--quiet] [--version].
// Exit status 0 ok, 1 integrity errors, 2 bad input, 3 model error.
int run_platform(int argc, char** argv, const PlatformInfo& info);

// "START_MS:END_MS" (either side may be empty: from the start, to the end) as a window in ps; throws
// ConfigError naming --vcd-window.
std::pair<uint64_t, uint64_t> parse_vcd_window(const std::string& text);

// The effective configuration of a platform from its defaults, files and --set assignments.
Config platform_config(const PlatformInfo& info);

// The project version and the git revision it was built from ("0.14.0 (git 1a2b3c4d5e6f)").
std::string version_string();

}  // namespace ssdtlm
