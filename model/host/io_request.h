// One host I/O request as produced by a workload generator or a trace reader, and the Workload
// interface the host draws them from.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>

#include "common/io_op.h"
#include "host/latency_target.h"
#include "host/steady_state.h"

namespace ssdtlm {

struct IoRequest {
  IoOp op = IoOp::Read;  // Flush: an NVMe Flush (fio's fsync, fdatasync: offset and bytes 0)
  uint64_t offset = 0;   // bytes from the start of the namespace
  uint32_t bytes = 0;    // transfer length in bytes (> 0)
  uint64_t time_ns = 0;  // arrival time for open-loop trace replay; 0 for synthetic workloads
  uint16_t stream = 0;   // host stream hint (0 = none)
  uint8_t dtype = 0;     // NVMe directive type on a write: 2 = FDP, with dspec its placement identifier
  uint16_t dspec = 0;
  bool fua = false;      // a write with Force Unit Access (fio's sync=1 through O_SYNC / O_DSYNC)
  bool append = false;   // a zone append to the zone starting at offset (zoned namespaces)
  ZoneAction zone_action = ZoneAction::None;  // op Trim: a Zone Management Send for the zone at offset
  bool quiesce = false;  // fio's io_u_quiesce before it: issued once the job has nothing in flight (zone resets)
  uint64_t idle_ns = 0;  // an idle gap before it (an app pausing between runs: workload.app.gcc_gap_ms): the job's
                         // I/O in flight completes, then it issues nothing for this long (closed loop)
  bool setup = false;    // the engine's own set-up before the job's I/O (SPDK's initial zone resets): sent, not
                         // counted in the job's statistics (fio.json, logs), as fio does not see it
  uint32_t pc = 0;       // program-context id (0 = none): the call path that issued the write
  uint32_t proc = 0;     // process instance that issued it (0 = none), unique per process run
  uint16_t proc_slot = 0;  // the app's concurrent lane the process runs in: a new proc in a slot means the
                           // slot's previous process has exited (PCStream drops its per-process state)
  bool after_end = false;  // sent at the file's close after the job's runtime (a page cache's last writeback):
                           // on the drive, not in the job's statistics, as fio's runtime ends before the close
  uint16_t run = 0;      // the application's run it belongs to (gcc: its build, from 1; 0 = none), for
                         // streams.pc_table_reset=run, the seed's table-forgetting experiment
};

enum class ExitWhat : uint8_t { None, Group, Stonewall, All };  // fio's exitall + exit_what

// How the host paces a job (fio's startdelay, stonewall, wait_for, exitall, ramp_time, runtime, thinktime, rate,
// rate_process). All zero = start at once, keep the queues full until the workload runs dry, count everything.

struct JobPacing {
  uint64_t start_delay_ns = 0;
  bool stonewall = false;        // start when every earlier job has finished
  std::string wait_for;          // start when the earlier job(s) of this name have finished ("" = none)
  ExitWhat exit_what = ExitWhat::None;  // when this job finishes, which others stop
  uint64_t ramp_ns = 0;          // completions before start + ramp are not counted in the host statistics
  uint64_t runtime_ns = 0;       // stop issuing at start + ramp + runtime (0 = no time limit)
  uint64_t think_ns = 0;         // idle time after every think_blocks completions
  uint32_t think_blocks = 1;
  double rate_iops = 0;          // submissions per second (0 = no cap)
  double rate_bytes_per_s = 0;   // bytes per second (0 = no cap)
  bool poisson = false;          // rate_process=poisson: exponential gaps of the rate's mean instead of a cap
  uint64_t arrival_seed = 1;     //   their random stream
  uint64_t bw_avg_ns = 500000000;    // fio bwavgtime: window of the bandwidth samples (0 = none)
  uint64_t iops_avg_ns = 500000000;  // fio iopsavgtime: window of the IOPS samples (0 = none)
  SteadyStateParams ss;          // fio ss, ss_dur, ss_ramp, ss_interval: stop at steady state
  int64_t ss_group = -1;         //   jobs of one group >= 0 (fio group_reporting) are measured together
  LatencyTargetParams latency;   // fio latency_target, latency_window, latency_percentile, latency_run
  uint32_t flow = 0;             // fio flow: the job's weight in its flow (0 = none; host/job_flow.h)
  uint64_t flow_id = 0;          //   fio flow_id: the jobs of one id share the flow
  uint64_t flow_sleep_ns = 0;    //   fio flow_sleep: a held job quiesces and sleeps this long (0 = retries at once)
  bool stop_on_error = false;    // a command completing with an error stops the job (fio without continue_on_error)
};

// Whether `job` is what wait_for=`name` waits for: the job of that name or one of its clones name.0, name.1, ...
inline bool wait_for_names(const std::string& name, const std::string& job) {
  if (job.compare(0, name.size(), name) != 0) return false;
  if (job.size() == name.size()) return true;
  if (job[name.size()] != '.' || job.size() == name.size() + 1) return false;
  for (size_t i = name.size() + 1; i < job.size(); ++i)
    if (job[i] < '0' || job[i] > '9') return false;
  return true;
}

// How far a workload is: `done` of `total` `what` ("I/Os", "bytes", "trace requests"); total 0 = no limit known.
struct WorkProgress {
  uint64_t done = 0, total = 0;
  const char* what = "I/Os";
};

// A source of requests. Plain C++, no SystemC: the host module asks it what to issue next.
class Workload {
 public:
  virtual ~Workload() = default;
  // Fills r with the next request; returns false when the workload is exhausted. The host may ask for a
  // request one submission early (its look-ahead, NvmeHost::submit): what next() returns must depend only
  // on the calls before it, not on when it is called (simulated time) or on other jobs' workloads.
  virtual bool next(IoRequest& r) = 0;
  virtual WorkProgress progress() const { return WorkProgress(); }
  // For open-loop replay: the arrival time of the last request (0 = unknown).
  virtual uint64_t last_arrival_ns() const { return 0; }
  // As a precondition's workload: true = the fast-forward applies its trims (unmaps the units, the stream
  // policy learns the deaths) and runs until the workload ends, whatever precondition.drive_writes says
  // (workload.pattern=app: aging churn and the app's warm-up). false: trims are skipped, drive_writes bounds it.
  virtual bool precondition_trims() const { return false; }
  // What it counted, as summary.json objects of one job: a workload with objects of its own sets them in `into`
  // ("filesystem", "capture", "app", "trace"); a decorator adds those of the workload it wraps. The summary
  // combines the jobs' objects (report/workload_summary.cpp). Nothing by default.
  virtual void report(nlohmann::json& into) const { (void)into; }
  // Work of the workload's own in simulated time (a page cache's flusher, workload/filesystem/buffered_io.h):
  // a period > 0 makes the host wake it at every multiple of the period of the run's clock (wake) and tell it the
  // time before each request it draws (clock), and draw no request early (no look-ahead, NvmeHost::submit), so
  // that what next() returns depends on the calls and times before it only. 0 (the default): none of these.
  virtual uint64_t wake_period_ns() const { return 0; }
  virtual void wake(uint64_t now_ns) { (void)now_ns; }
  virtual void clock(uint64_t now_ns) { (void)now_ns; }
  // The job was stopped by its runtime with requests of the workload still to come: true = it has some to send
  // before the job ends (a buffered job's file close writing its dirty pages), which the host then issues; false
  // (the default) = the job ends at once.
  virtual bool close() { return false; }
  // Requests of its own beside the job's (a page cache's flusher, workload/filesystem/buffered_io.h): the host
  // issues what next_background gives on the job's queues without taking the job's slots (the workload bounds
  // how many it has in flight) and tells it each one's completion (background_done). Such a workload is drawn
  // without look-ahead. next() returning false with waiting() true is not the workload's end: it has nothing to
  // send now (its writer is throttled) and the host draws again when one of its background requests completes.
  virtual bool writes_back() const { return false; }
  virtual bool next_background(IoRequest& r) {
    (void)r;
    return false;
  }
  virtual void background_done(uint32_t bytes) { (void)bytes; }
  virtual bool waiting() const { return false; }
  // Its first requests are an engine's set-up (IoRequest::setup, SPDK's initial zone resets, which fio's engine
  // init does before the job's clock starts): the job's ramp and runtime start when its first other request is
  // issued.
  virtual bool has_setup() const { return false; }

  const JobPacing& pacing() const { return pacing_; }
  void set_pacing(const JobPacing& p) { pacing_ = p; }

 private:
  JobPacing pacing_;
};

}  // namespace ssdtlm
