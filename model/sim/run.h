// One run: builds the platform from the parameter tree, preconditions, loses power when the schedule says,
// simulates the timed run and summarises it. Once per process (SystemC elaborates once).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "config/params.h"
#include "frontend/fio/fio_job.h"
#include "sim/platform.h"
#include "sim/precondition_snapshot.h"

namespace ssdtlm {

struct RunOptions {
  std::string vcd_path;  // empty = no waveform; a path ending in .fst, or fst = true, writes FST (through vcd2fst)
  bool fst = false;
  uint64_t vcd_start_ps = 0, vcd_end_ps = ~uint64_t(0);  // traced window of simulated time
  bool progress = false;
  bool quiet = false;                // silence SystemC's informational messages and the warnings we expect
  bool fio_json = false;             // also make fio's JSON layout (RunResult::fio_json)
  bool fio_json_plus = false;        //   with the clat bins (fio's json+)
  bool fio_normal = false;           // fio's normal report (RunResult::fio_normal; needs fio_json)
  int fio_terse = 0;                 // fio's terse report in this version (2 to 5; 0 = none; needs fio_json)
  const FioJobFile* fio = nullptr;   // the job file the configuration came from, for fio_json
  std::string log_dir;               // where the jobs' fio logs (workload.log_*) go; empty = the current directory
};

struct RunResult {
  nlohmann::json summary;
  nlohmann::ordered_json fio_json;  // with RunOptions::fio_json (fio's key order)
  std::string fio_normal, fio_terse;  // with RunOptions::fio_normal, fio_terse
  std::string timeseries_csv;
  std::string latency_cdf_csv;
  std::string lpn_writes_csv;  // only with stats.lpn_writes
  std::string zones_csv;       // only with zns.enabled (Report Zones at the end)
  std::vector<std::string> log_files;  // the fio logs written into RunOptions::log_dir
  int exit_code = 0;  // 0 ok, 1 integrity errors
};

// Reads `c` into the parameter tree (ConfigError naming the key otherwise), checks the memory it needs,
// then simulates.
RunResult simulate(const Config& c, const PlatformInfo& info, const RunOptions& o);
// Fast-forward preconditioning as `params` say (or its snapshot loaded, precondition.snapshot_dir), then the
// statistics start afresh; `progress`: a line on stderr every 2 s. simulate() does this; so does ssdtlm::Ssd.
PreconditionResult precondition_platform(Platform& p, const Params& params, bool progress, SnapshotOutcome& snap);
RunResult simulate(const Params& params, const PlatformInfo& info, const RunOptions& o);

}  // namespace ssdtlm
