// The platform executable's command line: argv -> RunRequest, and the layers of configuration it names
// (platform defaults, --config files, the fio job file, --set, --seed) -> one Config.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "frontend/fio/fio_job.h"
#include "sim/platform.h"

namespace ssdtlm {

// What the command line asks for.
struct RunRequest {
  enum class Action { Run, Help, HelpConfig, PrintConfig, Version };
  Action action = Action::Run;
  std::string help_prefix;                // --help-config PREFIX: the keys that start with it (empty = all)
  std::vector<std::string> config_files;  // --config, in order
  std::vector<std::string> sets;          // --set key.path=value, in order
  std::string fio_path;                   // --fio
  std::string out_dir = "out";            // --out
  std::string seed;                       // --seed (empty = the configuration's)
  std::string waveform_path;              // --vcd or --fst (empty = none)
  bool fst = false;                       // --fst
  bool has_window = false;                // --vcd-window given
  std::pair<uint64_t, uint64_t> window{0, ~uint64_t(0)};  // traced span (ps)
  // --output-format: text, summary-json, or fio's formats (json, json+, fio-json, normal, terse), several of
  // those separated by commas as fio takes them (normal,json); text and summary-json stand alone.
  std::string format = "text";
  int terse_version = 3;                  // --terse-version (fio's: 2 to 5)
  bool quiet = false;                     // --quiet
  // The option that named the waveform, for messages.
  std::string waveform_option() const { return fst ? "--fst" : "--vcd"; }
  // FST wanted: --fst, or a --vcd path ending in .fst.
  bool wants_fst() const;
};

// The output formats of an --output-format value, each once, in the order given; throws ConfigError naming
// --output-format for an unknown one, or text / summary-json combined with another.
std::vector<std::string> output_formats(const std::string& value);

// Parses argv; throws ConfigError for an unknown option, a missing value or a bad --vcd-window or
// --output-format (the message for an unknown option carries the usage).
RunRequest parse_command_line(int argc, char** argv, const PlatformInfo& info);

// The configuration the request makes: platform defaults, each --config, the fio job file (whose
// percentages refer to the device the run will have; kept in `fio`), each --set (also overriding it in
// every job of a job file), --seed. Notes about the job file go to stderr unless quiet.
Config layered_config(const RunRequest& r, const PlatformInfo& info, std::unique_ptr<FioJobFile>& fio);

// Checks of the request that need no simulation: --vcd-window needs --vcd or --fst; FST needs vcd2fst.
void check_waveform_request(const RunRequest& r);

std::string usage(const std::string& platform_name);
// The configuration keys that start with `prefix` (all when empty) as a Markdown table (--help-config), each with
// its default in `defaults` (a platform's: built-in defaults with its config.json applied); throws ConfigError
// when no key starts with `prefix`.
std::string config_table(const Config& defaults, const std::string& prefix);

// "START_MS:END_MS" (either side may be empty: from the start, to the end) as a window in ps; throws
// ConfigError naming --vcd-window.
std::pair<uint64_t, uint64_t> parse_vcd_window(const std::string& text);

// The effective configuration of a platform from its defaults alone.
Config platform_config(const PlatformInfo& info);

}  // namespace ssdtlm
