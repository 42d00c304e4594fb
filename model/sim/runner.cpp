#include "sim/runner.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>

#include "common/units.h"
#include "config/params.h"
#include "frontend/fio/fio_text.h"
#include "sim/version.h"
#include "controller/snapshot/snapshot_archive.h"
#include "workload/trace/trace_reader.h"
#include "report/memory_estimate.h"
#include "report/output_dir.h"
#include "sim/run_outputs.h"

namespace ssdtlm {

namespace {

// Memory ran out (std::bad_alloc, perhaps within a SystemC report): says so, with what the process could have;
// a line without the details when even the message cannot be made.
int out_of_memory(const std::string& prog, const char* what) noexcept {
  try {
    const uint64_t limit = address_space_limit_bytes(), machine = physical_memory_bytes();
    std::cerr << prog << ": error: out of memory (" << what << "): the run needed more than it could get "
              << "(address-space limit, ulimit -v: " << (limit ? format_size(double(limit)) : std::string("none"))
              << "; physical memory: " << (machine ? format_size(double(machine)) : std::string("unknown"))
              << "); reduce buffer.bytes or the geometry, or raise ulimit -v\n";
  } catch (...) {
    std::fputs("ssdtlm: error: out of memory (std::bad_alloc); raise ulimit -v or reduce the model\n", stderr);
  }
  return 3;
}

// Parses the command line, layers the configuration, checks where the results go, then runs.
int run_request(int argc, char** argv, const PlatformInfo& info, const std::string& prog) {
  RunRequest req = parse_command_line(argc, argv, info);
  switch (req.action) {
    case RunRequest::Action::Help:
      std::cout << usage(info.name);
      return 0;
    case RunRequest::Action::HelpConfig:
      std::cout << config_table(platform_config(info), req.help_prefix);
      return 0;
    case RunRequest::Action::Version:
      std::cout << prog << " " << version_string() << "\n" << "SystemC " << sc_core::sc_release() << "\n";
      return 0;
    case RunRequest::Action::Run:
    case RunRequest::Action::PrintConfig:
      break;
  }
  std::unique_ptr<FioJobFile> fio;
  const Config c = layered_config(req, info, fio);
  if (req.action == RunRequest::Action::PrintConfig) {  // checked as a run would check it, then printed
    read_params(c);
    std::cout << c.json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  check_waveform_request(req);

  RunOptions ro;
  ro.vcd_path = req.waveform_path;
  ro.fst = req.fst;
  ro.vcd_start_ps = req.window.first;
  ro.vcd_end_ps = req.window.second;
  ro.progress = !req.quiet;
  ro.quiet = req.quiet;
  // fio's layout: always with --fio (fio.json), and for fio-json, json+, normal, terse and, from a job file, json.
  std::vector<std::string> formats = output_formats(req.format);
  const auto wants = [&](const char* f) { return std::find(formats.begin(), formats.end(), f) != formats.end(); };
  if (formats.size() == 1 && formats[0] == "json") formats[0] = fio ? "fio-json" : "summary-json";
  ro.fio_json_plus = wants("json+");
  ro.fio_normal = wants("normal");
  ro.fio_terse = wants("terse") ? req.terse_version : 0;
  ro.fio_json = wants("fio-json") || wants("json") || ro.fio_json_plus || ro.fio_normal || ro.fio_terse || fio != nullptr;
  ro.fio = fio.get();
  // Where the results go is checked before the simulation, not after it.
  if (!req.waveform_path.empty()) check_waveform_path(req.waveform_path, req.waveform_option(), req.out_dir);
  OutputDir staged(req.out_dir);
  ro.log_dir = staged.staging().string();
  // fio prints its job lines, its version and "Starting N processes" before running.
  if (ro.fio_normal && fio) std::cout << fio_normal_header(*fio, std::string("ssdtlm-") + project_version()) << std::flush;
  RunResult r;
  try {
    r = simulate(c, info, ro);
  } catch (const RunStuck& stuck) {  // the earlier set stays; incomplete.json says why this run stopped
    const std::string where = write_incomplete(staged, c, stuck);
    std::cerr << prog << ": model error: the run is stuck at " << double(stuck.sim_ps) / 1e12 << " s simulated: "
              << stuck.reason << "; " << stuck.state << ". The outputs in " << req.out_dir
              << "/ were not replaced" << (where.empty() ? "" : "; this run's account is in " + where) << "\n";
    return 3;
  }
  write_outputs(staged, c, r, ro.fio_json);
  return print_result(r, formats, req.quiet, req.out_dir, prog);
}

}  // namespace

// The SystemC kernel prints its banner when its simulation context is made, unless this variable is set; static
// objects of the model (events, times) make it before sc_main runs, so it is set first among them (issue 47: the
// executables' output is ssdtlm's alone).
__attribute__((constructor(101))) static void quiet_systemc_banner() {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
}

int run_platform(int argc, char** argv, const PlatformInfo& info) {
  const std::string prog = "ssdtlm-" + info.name;
  try {
    return run_request(argc, argv, info, prog);
  } catch (const ConfigError& e) {
    std::cerr << prog << ": error: " << e.what() << "\n";
    return 2;
  } catch (const SnapshotError& e) {  // a snapshot missing (precondition.snapshot=load), mismatched or corrupt
    std::cerr << prog << ": error: " << e.what() << "\n";
    return 2;
  } catch (const TraceError& e) {  // a trace line that does not parse
    std::cerr << prog << ": error: " << e.what() << "\n";
    return 2;
  } catch (const OutputError& e) {  // --out could not take the outputs: the previous set is whole
    std::cerr << prog << ": error: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {  // a request the device cannot take
    std::cerr << prog << ": error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc& e) {
    return out_of_memory(prog, e.what());
  } catch (const std::exception& e) {
    // SystemC hands an exception a process raised on as a report ("uncaught exception: std::bad_alloc").
    if (std::strstr(e.what(), "std::bad_alloc")) return out_of_memory(prog, e.what());
    std::cerr << prog << ": model error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace ssdtlm
