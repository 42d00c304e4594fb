#include "sim/run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "common/crew.h"
#include "common/sim_time.h"
#include "workload/workload_factory.h"
#include "frontend/fio/fio_json.h"
#include "frontend/fio/fio_logs.h"
#include "frontend/fio/fio_text.h"
#include "report/group_summary.h"
#include "report/memory_estimate.h"
#include "sim/precondition_snapshot.h"
#include "sim/run_outputs.h"
#include "report/sampler.h"
#include "report/summary.h"
#include "sim/version.h"
#include "sim/watchdog.h"

namespace ssdtlm {

namespace {

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

// The timed run, power lost at each scheduled instant the run reaches.
// The watchdog learns of each recovery: no completion is due while the host waits for it.
std::vector<RecoveryReport> timed_run(Platform& p, const Params& params, Watchdog& watchdog) {
  std::vector<RecoveryReport> recoveries;
  PowerLossState state;
  if (!params.fault.power_loss_ps.empty() && !params.fault.recovery.check_all) p.track_recovery_changes(state);
  for (uint64_t t : params.fault.power_loss_ps) {
    if (t > now_ps()) sc_core::sc_start(sc_core::sc_time(double(t - now_ps()), sc_core::SC_PS));
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED || p.host().finished() || p.host().error()) break;
    recoveries.push_back(p.lose_power(state, now_ps()));
    watchdog.hold_until(now_ps() + recoveries.back().time_ps);
  }
  if (sc_core::sc_get_status() != sc_core::SC_STOPPED) sc_core::sc_start();
  return recoveries;
}

}  // namespace

PreconditionResult precondition_platform(Platform& p, const Params& params, bool progress, SnapshotOutcome& snap) {
  PreconditionResult pre;
  if (!params.precondition.any()) return pre;
  const auto asked = [&](PreconditionResult r) {
    r.fill = params.precondition.fill;
    r.drive_writes = params.precondition.drive_writes;
    return r;
  };
  const PreconditionParams& pp = params.precondition;
  if (pp.snapshots() && load_snapshot(p, pp, pre, snap)) {
    p.reset_statistics();
    return asked(pre);
  }
  std::unique_ptr<Workload> w =
      pp.drive_writes > 0 ? make_precondition_workload(params.precondition_workloads, params.jobs_listed, p.geometry().logical_bytes()) : nullptr;
  std::vector<std::string> log_files;
  auto t0 = std::chrono::steady_clock::now();
  try {
    pre = p.precondition(w.get(), [&](uint64_t done, uint64_t total) {
      if (progress && std::chrono::steady_clock::now() - t0 > std::chrono::seconds(2))
        std::fprintf(stderr, "[ssdtlm] precondition %llu/%llu units (%.0f%%)\n", (unsigned long long)done,
                     (unsigned long long)total, total ? 100.0 * double(done) / double(total) : 100.0);
    });
  } catch (const CrewStartError& e) {  // before the first unit is written: the fast-forward's workers
    throw ConfigError("key 'precondition.threads': " + std::to_string(pp.threads) + (pp.threads ? "" : " (one per hardware thread)") +
                      " workers: " + e.what() + "; lower precondition.threads (or raise ulimit -v / -u)");
  }
  if (pp.snapshots() && pp.snapshot_mode != SnapshotMode::Load) save_snapshot(p, pp, pre, snap);
  p.reset_statistics();
  return asked(pre);
}

namespace {
// sim.converge: batch means over the timed run's completions (the WAF's numerator and the erases read from the
// FTL's counters).
void attach_convergence(Platform& p, const Params& params) {
  if (params.sim.converge.mode == ConvergeParams::Mode::Off) return;
  const double page_bytes = double(params.geometry.units_per_page) * kUnitBytes;
  const uint64_t drive_blocks = uint64_t(params.geometry.dies) * params.geometry.blocks_per_die;
  p.host().set_convergence(std::make_unique<ConvergenceMonitor>(
      params.sim.converge,
      [&p, page_bytes] { return uint64_t(double(p.ftl().flash_counters().total_programs()) * page_bytes); },
      [&p] { return p.ftl().flash_counters().erases; }, drive_blocks));
}
}  // namespace

RunResult simulate(const Config& c, const PlatformInfo& info, const RunOptions& o) {
  return simulate(read_params(c), info, o);
}

RunResult simulate(const Params& params, const PlatformInfo& info, const RunOptions& o) {
  quiet_kernel(o.quiet);
  const uint64_t estimated = check_memory(params);  // before anything large is allocated
  const std::vector<uint64_t>& losses = params.fault.power_loss_ps;
  std::unique_ptr<Platform> p = info.make(params);
  if (!losses.empty()) p->arm_map_checkpoints();  // tracked from the start, preconditioning included
  const uint64_t interval = params.stats.interval_ps;
  // The progress line asks the host what counts (trace requests, simulated time, I/Os).
  Sampler sampler("sampler", *p, interval ? interval : 1, 0, o.progress);
  SnapshotOutcome snap;
  const PreconditionResult pre = precondition_platform(*p, params, o.progress, snap);
  // Checked at each sampler tick: commands outstanding and none completing for the window stops the run, and
  // so does a waveform that could not be written (a full disk: the rest would be simulated for nothing).
  Watchdog watchdog(*p, stall_window_ps(params));
  std::unique_ptr<WaveTracer> wave;
  sampler.set_watch([&watchdog, &wave](uint64_t now) {
    if (!wave || !wave->failed()) return watchdog.check(now);
    sc_core::sc_stop();
    return true;
  });

  // The waveform covers the timed run: its signals start from the preconditioned state.
  if (!o.vcd_path.empty()) {
    wave = start_waveform(o, info.name, *p, params.sim.seed);
    sampler.trace(*wave);  // power and temperature over time
  }

  // fio's logs, written as the timed run goes (after preconditioning: its I/O is not a job's).
  std::vector<IoLogParams> log_params;
  for (const JobParams& job : params.jobs) log_params.push_back(job.log);
  std::unique_ptr<fio::FioLogSet> logs;
  if (std::any_of(log_params.begin(), log_params.end(), [](const IoLogParams& l) { return l.any(); })) {
    logs = std::make_unique<fio::FioLogSet>(o.log_dir.empty() ? "." : o.log_dir, log_params);
    for (size_t j = 0; j < p->host().jobs(); ++j) p->host().set_log(j, logs->job(j));
  }

  attach_convergence(*p, params);
  GroupRecorder groups(*p);  // the device counters at each stonewall group's end
  sampler.start_clock();
  std::vector<std::string> log_files;
  auto t0 = std::chrono::steady_clock::now();
  const std::vector<RecoveryReport> recoveries = timed_run(*p, params, watchdog);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (p->host().error()) std::rethrow_exception(p->host().error());
  if (wave && wave->failed()) finish_waveform(*wave, now_ps(), o.vcd_path);  // throws, saying why
  if (watchdog.tripped()) throw watchdog.stuck();
  if (!p->host().finished())  // nothing left to happen, yet jobs still waiting: the sampler let the kernel stop
    throw watchdog.stuck("the simulation stalled with jobs unfinished and no event pending");
  sampler.finish();
  if (logs) log_files = logs->close();
  WaveFinish wave_end;
  if (wave) wave_end = finish_waveform(*wave, now_ps(), o.vcd_path);

  // The map/bitmap consistency the per-erase check relies on, and every unit's expected version (Ftl::audit).
  if (IntegrityChecker* c = p->checker()) p->ftl().audit(*c, now_ps());
  RunResult r;
  r.log_files = std::move(log_files);
  r.summary = make_summary(*p, pre, wall);
  r.summary["memory"]["estimated_bytes"] = estimated;
  if (p->host().groups() > 1) r.summary["groups"] = group_summary(*p, groups);
  if (params.precondition.snapshots()) r.summary["precondition"]["snapshot"] = snap.report();
  if (!losses.empty()) r.summary["recovery"] = recovery_summary(recoveries, losses.size());
  if (wave) r.summary["waveform"] = waveform_summary(*wave, o.vcd_path, wave_end);
  if (o.fio_json) r.fio_json = make_fio_json(*p, params, r.summary, o.fio, project_version(), o.fio_json_plus);
  if (o.fio_json && (o.fio_normal || o.fio_terse)) {
    const std::vector<FioTextEntry> entries = fio_text_entries(params, o.fio);
    if (o.fio_normal) r.fio_normal = fio_normal_report(r.fio_json, entries);
    if (o.fio_terse) r.fio_terse = fio_terse_report(r.fio_json, entries, o.fio_terse);
  }
  r.timeseries_csv = sampler.csv();
  r.latency_cdf_csv = latency_cdf_csv(p->host().stats());
  r.lpn_writes_csv = lpn_writes_csv(p->lpn_write_counts());
  r.zones_csv = zns_zones_csv(*p);
  // 1: the integrity checker found an error, or a job stopped at a failed command (fio exits 1 on a job's error).
  const bool job_error = r.summary["host"].contains("jobs_stopped_by_error") && !r.summary["host"]["jobs_stopped_by_error"].empty();
  r.exit_code = r.summary["integrity"]["errors"].get<uint64_t>() || job_error ? 1 : 0;
  return r;
}

}  // namespace ssdtlm
