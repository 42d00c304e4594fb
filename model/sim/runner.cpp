#include "sim/runner.h"

#include <iostream>

#include "config/params.h"
#include "controller/snapshot/snapshot_archive.h"
#include "workload/trace/trace_reader.h"
#include "report/output_dir.h"
#include "sim/run_outputs.h"

namespace ssdtlm {

namespace {

// Parses the command line, layers the configuration, checks where the results go, then runs.
int run_request(int argc, char** argv, const PlatformInfo& info, const std::string& prog) {
  RunRequest req = parse_command_line(argc, argv, info);
  switch (req.action) {
    case RunRequest::Action::Help:
      std::cout << usage(info.name);
      return 0;
    case RunRequest::Action::HelpConfig:
      std::cout << config_table();
      return 0;
    case RunRequest::Action::Version:
      std::cout << prog << " " << version_string() << "\n" << "SystemC " << sc_core::sc_release() << "\n";
      return 0;
    case RunRequest::Action::Run:
      break;
  }
  std::unique_ptr<FioJobFile> fio;
  const Config c = layered_config(req, info, fio);
  check_waveform_request(req);

  RunOptions ro;
  ro.vcd_path = req.waveform_path;
  ro.fst = req.fst;
  ro.vcd_start_ps = req.window.first;
  ro.vcd_end_ps = req.window.second;
  ro.progress = !req.quiet;
  ro.quiet = req.quiet;
  // fio's layout: always with --fio (fio.json), and on stdout for fio-json, json+ and, from a job file, json.
  if (req.format == "json") req.format = fio ? "fio-json" : "summary-json";
  ro.fio_json = req.format == "fio-json" || req.format == "json+" || fio != nullptr;
  ro.fio_json_plus = req.format == "json+";
  ro.fio = fio.get();
  // Where the results go is checked before the simulation, not after it.
  if (!req.waveform_path.empty()) check_waveform_path(req.waveform_path, req.waveform_option());
  OutputDir staged(req.out_dir);
  ro.log_dir = staged.staging().string();
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
  return print_result(r, req.format, req.quiet, req.out_dir, prog);
}

}  // namespace

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
  } catch (const std::exception& e) {
    std::cerr << prog << ": model error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace ssdtlm
