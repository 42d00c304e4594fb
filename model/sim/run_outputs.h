// What a run leaves behind: the waveform (made at the start of the timed run, finished and renamed at its
// end), the files in --out (replaced as a set: a failed run leaves the earlier ones whole) and what is
// printed.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "report/output_dir.h"
#include "sim/platform.h"
#include "sim/run.h"
#include "sim/watchdog.h"
#include "wave/wave_trace.h"

namespace ssdtlm {

// A waveform path that cannot be written, that summary.json cannot hold (not UTF-8), or that collides with
// the outputs (--out itself, a folder --out lies in, a file of the output set in --out) stops the run before
// the simulation; `option` (--vcd or --fst) names it. Partial files of that path left by runs that are gone
// (SIGKILL) are removed.
void check_waveform_path(const std::string& path, const std::string& option, const std::string& out_dir);

// The tracer of the timed run, its signals registered on `p`; written to a temporary path until it ends.
std::unique_ptr<WaveTracer> start_waveform(const RunOptions& o, const std::string& platform_name, Platform& p,
                                           uint64_t seed);

// The waveform's end: the rest of the file, renamed into place, and its GTKWave layout.
struct WaveFinish {
  std::vector<std::string> layout;
  double wall_s = 0;
};
// A write that failed (the run stopped at once) or fails now is an OutputError saying why, the partial file
// removed. A window that starts after the run's end is warned of (the file holds no change).
WaveFinish finish_waveform(WaveTracer& wave, uint64_t now_ps, const std::string& path);
// summary.json's "waveform" section.
nlohmann::json waveform_summary(const WaveTracer& wave, const std::string& path, const WaveFinish& finish);

// lpn_writes.csv from the host writes per logical unit ("" when they were not counted).
std::string lpn_writes_csv(const std::vector<uint32_t>& counts);

// Writes config.json, summary.json, the CSVs and fio.json into --out as one set; `staged` was made
// before the simulation, so a directory that cannot be written stops the run early.
void write_outputs(OutputDir& staged, const Config& c, const RunResult& r, bool fio_json);

// A run the watchdog stopped: the set in --out is not replaced (it is the last complete run's); this run's
// account goes beside it in incomplete.json ("complete": false, the reason, what is stuck, the configuration),
// which the next complete run removes. Returns where it went ("" when it could not be written).
std::string write_incomplete(OutputDir& staged, const Config& c, const RunStuck& stuck);

// Prints what --output-format asks for (output_formats; "json" already resolved to fio-json or summary-json):
// the text summary, or summary.json, or fio's formats in fio's order (terse, json, normal); returns the exit
// status (1 when the integrity check failed).
int print_result(const RunResult& r, const std::vector<std::string>& formats, bool quiet, const std::string& out_dir,
                 const std::string& prog);

}  // namespace ssdtlm
