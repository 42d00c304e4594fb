// The host: one or more jobs (like fio jobs), each a Workload on its own NVMe queue pairs, either kept at
// their queue depth (closed loop) or fed at the requests' timestamps (open loop, trace replay).
// Commands travel as TLM generic payloads with an NvmeCommand extension; a completion is the
// controller's BEGIN_RESP, annotated with the time its completion entry reaches host memory.
// Latency = submission (doorbell; open loop: arrival) to completion entry, per I/O, into histograms.
//
// Each job is paced by its workload's JobPacing (fio's startdelay, stonewall, ramp_time, runtime,
// thinktime, rate_iops / rate): a job waits for its start (and, with stonewall, for every earlier job
// group to finish), issues while it has a free queue slot and its rate allows, idles think_ns after
// every think_blocks completions, and stops issuing when its workload runs dry or its runtime is over.
// A job is finished when it has stopped issuing and has nothing in flight; the run ends with the last.
// Every request must lie inside the namespace (trace readers refit theirs first, see trace_fit.h).
#pragma once
#include <systemc>
#include <tlm>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/at_socket.h"
#include "common/histogram.h"
#include "common/payload_pool.h"
#include "common/rng.h"
#include "common/sim_time.h"
#include "common/nvme_command.h"
#include "common/quantum_keeper.h"
#include "host/completion_log.h"
#include "host/convergence.h"
#include "host/io_request.h"
#include "host/job_flow.h"
#include "host/rate_samples.h"

namespace ssdtlm {

class WaveTracer;

struct HostJob {
  std::string name;
  Workload* workload = nullptr;  // its pacing() paces the job
  uint32_t queues = 1;
  uint32_t queue_depth = 1;
  bool open_loop = false;  // issue at the requests' time_ns instead of keeping queues full
};

struct HostParams {
  uint64_t logical_bytes = 0;  // namespace size: a request beyond it is an error
  uint64_t max_bytes = 0;      // largest request the device accepts (its write buffer)
  // The host's side of a measurement (host.submit_ns, host.complete_ns): CPU time of the thread that owns a queue
  // to submit one I/O (engine, system call, block layer, driver, doorbell) and to reap one completion (interrupt,
  // wake-up, engine), spent one I/O at a time per queue; 0 and 0 = a host that costs nothing.
  uint64_t submit_ps = 0, complete_ps = 0;
  // sim.timing=lt: the host runs ahead of simulated time by up to the TLM global quantum (tlm_quantumkeeper): one
  // activation per quantum takes every completion due before the quantum's end, each at its own time, and the
  // commands issued then carry that time as their delay. false: one activation per completion instant (AT).
  bool loosely_timed = false;
};

// What one completion adds to a set of statistics (NvmeHost::wake counts it once; see NvmeHost::shared_).
struct CompletionTally {
  Histogram latency[2];  // [0] reads, [1] writes; ns
  Histogram trim_latency;
  Histogram sync_latency;  // NVMe Flush commands (fio's fsync / fdatasync: fio.json "sync"); ns
  uint64_t syncs = 0;      // Flush commands (not counted in ios)
  uint64_t ios[2] = {0, 0};
  uint64_t bytes[2] = {0, 0};
  uint64_t last_complete_ps = 0;
  uint64_t trims = 0;   // TRIM commands (not counted in ios)
  uint64_t trim_bytes = 0;
  uint64_t failed = 0;  // commands completed with an error status (not in ios, bytes or trims)
  uint64_t zone_commands = 0;  // zoned: Zone Management Send commands but plain trims (not in ios or trims)
  uint64_t path_count[kReadPaths] = {}, path_ns[kReadPaths] = {};  // reads by ReadPath: count, latency sum
  // reads by what the ECC needed (reliability.*): read-retries (and their steps), soft decoding, uncorrectable;
  // count and latency sum
  uint64_t retry_count = 0, retry_steps = 0, retry_ns = 0, soft_count = 0, soft_ns = 0, uncorrectable = 0,
           clean_count = 0, clean_ns = 0;
};

struct HostStats : CompletionTally {
  uint64_t first_submit_ps = 0;
  uint64_t after_end_ios = 0, after_end_bytes = 0;  // of ios, bytes: writes after the job's runtime (a close's,
                                                    // IoRequest::after_end, and a flusher's completing then; only
                                                    // in the whole run's statistics)
  // fio's samples (job statistics only): bandwidth (KiB/s) and IOPS per window of JobPacing::bw_avg_ns /
  // iops_avg_ns, per direction; submissions by queue depth at submission (fio's iodepth_level: 1, 2, 4, 8, 16,
  // 32, >= 64).
  RateStat bw[3], iops[3];
  uint64_t depth_at_submit[7] = {};
};

// How far the run is, for the progress line: fraction in [0, 1] (negative = unknown) and what counts.
struct HostProgress {
  double fraction = -1;
  std::string text;
};

class NvmeHost : public sc_core::sc_module, public AtInitiator {
 public:
  tlm::tlm_initiator_socket<> host_isock;  // bound to this module's nb_transport_bw (common/at_socket.h)

  NvmeHost(sc_core::sc_module_name name, const HostParams& p, const std::vector<HostJob>& jobs);

  // Every completion of the timed run, all jobs (ramps included): the time series and the WAF use these.
  const HostStats& stats() const { return stats_; }
  // What fio reports: completions after each job's ramp (the same as stats() without ramp_ms).
  const HostStats& measured_stats() const {
    if (shared_) copy_shared();
    return measured_;
  }
  size_t jobs() const { return jobs_.size(); }
  const HostJob& job(size_t j) const { return jobs_[j]->spec; }
  const HostStats& job_stats(size_t j) const {  // after the job's ramp
    if (shared_) copy_shared();
    return jobs_[j]->stats;
  }
  uint64_t job_start_ps(size_t j) const { return jobs_[j]->start_ps; }
  bool job_exited(size_t j) const { return jobs_[j]->exited; }  // stopped by another job's exit_what
  bool job_error_stopped(size_t j) const { return jobs_[j]->error_stopped; }  // stopped at a failed command
  const SteadyState* job_steady_state(size_t j) const { return jobs_[j]->ss.get(); }  // null: no ss
  const LatencyTarget* job_latency_target(size_t j) const { return jobs_[j]->lt.get(); }  // null: none
  // Stonewall groups: a job with workload.stonewall starts the next (the first job starts group 0). A group
  // begins when its first job starts and ends when its last job is done; the observer hears both, in order.
  using GroupObserver = std::function<void(size_t group, bool begins, uint64_t now_ps)>;
  void set_group_observer(GroupObserver f) { group_observer_ = std::move(f); }
  size_t groups() const { return jobs_.empty() ? 0 : jobs_.back()->group + 1; }
  size_t job_group(size_t j) const { return jobs_[j]->group; }
  // Job j's log (fio's write_*_log): told every completion its statistics count, and its end. Not owned.
  void set_log(size_t j, CompletionLog* log) { jobs_[j]->log = log; }
  // sim.converge: the batch-means monitor told every measured read and write (sim.converge=stop: the jobs stop
  // issuing once it has converged); null: none.
  void set_convergence(std::unique_ptr<ConvergenceMonitor> m) { convergence_ = std::move(m); }
  const ConvergenceMonitor* convergence() const { return convergence_.get(); }
  uint32_t queues() const { return uint32_t(queue_job_.size()); }
  uint64_t completed() const { return stats_.ios[0] + stats_.ios[1]; }
  uint32_t outstanding() const { return outstanding_; }
  uint32_t queue_outstanding(uint32_t q) const { return queue_outstanding_[q]; }  // submitted on queue q, not completed
  bool finished() const { return done_jobs_ == jobs_.size(); }
  HostProgress progress() const;
  // Bad input met while running (a trace line, a request the device cannot take): the run stops.
  std::exception_ptr error() const { return error_; }
  // No submission before t (simulated ps): the device is down (a power loss and its recovery).
  void hold_until(uint64_t t) { hold_ps_ = std::max(hold_ps_, t); }
  // Adds host.outstanding and host.qN.outstanding (commands submitted and not completed) and the layout group.
  void trace(WaveTracer& w);

 private:
  enum class State { Waiting, Running, Done };
  // A draw from the workload: a request, exhausted, bad, nothing now (Workload::waiting: drawn again later).
  enum class Drawn : uint8_t { None, Ready, Dry, Failed, Wait };
  struct Job {
    HostJob spec;
    JobPacing pace;
    uint32_t first_queue = 0;
    size_t group_start = 0;  // first job of its stonewall group: every job before it must finish first
    size_t group = 0;        // its stonewall group's number (0, 1, ...)
    std::vector<size_t> waits;  // wait_for: the jobs that must finish before it starts
    bool exited = false;        // stopped by another job's exit_what
    bool error_stopped = false; // JobPacing::stop_on_error: a command failed, the job issues no more
    RateWindows bw_windows, iops_windows;
    CompletionLog* log = nullptr;  // set_log
    std::shared_ptr<SteadyState> ss;  // fio's steady state (shared by the jobs of one report group), or null
    std::unique_ptr<LatencyTarget> lt;  // fio's latency-target depth search, or null
    Rng arrivals;               // rate_process=poisson: the gaps
    std::shared_ptr<JobFlow> flow;  // fio's flow (shared by the jobs of one flow_id), or null
    uint64_t flow_count = 0;        //   the I/Os it counted there
    uint64_t flow_seen = 0;         //   held: the flow's changes() when it was held
    bool flow_held = false;         //   held without flow_sleep: tries again when the flow changes
    bool flow_quiesce = false;      //   held with flow_sleep: waits for its I/O in flight, then sleeps
    State state = State::Waiting;
    bool delayed = false;    // start_delay timer armed
    uint64_t start_ps = 0, measure_ps = 0, end_ps = 0;  // started, ramp over, stop issuing
    uint64_t gate_ps = 0;    // rate and think time: no submission before this
    uint64_t wake_ps = 0;    // pending timer (kNever = none)
    uint64_t tick_ps = 0;    // Workload::wake_period_ns: the workload's next wake (kNever = none)
    bool timed = false;      //   the workload has one (a clock before each draw, no look-ahead)
    bool writes_back = false;  // the workload has requests of its own (Workload::next_background; no look-ahead)
    uint32_t bg_inflight = 0;  //   those submitted and not completed (in no slot of the job)
    bool closing = false;    // stopped by its runtime, issuing what the workload's close() sends
    bool in_setup = false;   // issuing its workload's set-up requests: its clock (ramp, runtime) not started
    uint32_t inflight = 0;
    uint32_t batch_issued = 0, batch_done = 0;  // think-time batch
    uint32_t rr = 0;         // next queue (open loop)
    std::vector<uint16_t> free;  // closed loop: a FIFO ring of queues with a free slot, one entry per slot
    size_t free_head = 0, free_count = 0;
    IoRequest next;
    bool have_next = false;
    // Look-ahead (a simulator-speed hint, see submit): the request after `next`, drawn when `next` was
    // submitted, and what drawing it gave; it becomes `next` when the job asks for its next request.
    IoRequest ahead;
    Drawn ahead_drawn = Drawn::None;
    std::exception_ptr ahead_error;  // ahead_drawn == Failed: the error, raised when the request is due
    bool exhausted = false;  // issues no more
    HostStats stats;
  };
  void start();
  void on_timer();
  void arm(Job& j, uint64_t t);
  void begin(Job& j, uint64_t now);
  void start_measuring(Job& j, uint64_t at);
  void start_clock(Job& j, uint64_t now);  // the job's ramp, runtime, steady state and latency target from now
  void release_waiting(uint64_t now);
  void pump(Job& j, uint64_t now);      // closed loop: issue (then let the jobs held by a flow try again)
  void issue(Job& j, uint64_t now);     // closed loop: issue while slots, rate, think time and flow allow
  bool flow_holds(Job& j, uint64_t now);  // fio's flow_threshold_exceeded before an I/O: true = held
  void retry_flows(uint64_t now);       // the held jobs whose flow changed try again
  void arrivals(Job& j, uint64_t now);  // open loop: issue what is due while the job's queues have room
  bool next_request(Job& j);            // fetches into j.next; false when the job is done or failed
  Drawn draw(Job& j, IoRequest& r, std::exception_ptr& error);  // the workload's next request, checked
  void stop_issuing(Job& j);
  void wind_down(Job& j);  // a running job stops issuing, a waiting one finishes without starting (a done one: nothing)
  bool runtime_over(Job& j, uint64_t now);  // the runtime's end reached: true = stop issuing (no close to send)
  void workload_tick(Job& j, uint64_t now); // the workload's own timer (Workload::wake)
  void finish(Job& j);
  void exit_others(const Job& j);
  void group_done(size_t group);  // tells the observer when the group's last job is done
  void steady(const Job& j);                              // fio's steady state reached: j's group stops
  void converged();                                       // sim.converge=stop: every job stops issuing
  bool steady_timer(Job& j, uint64_t now);                // an interval's end: decide; true = j's group stopped
  void latency_step(Job& j, LatencyTarget::Step s, uint64_t now);  // the depth search's verdict
  void submit(Job& j, uint16_t qid, uint64_t now);  // sends j.next on queue qid at `now` (LT: ahead of sc_time)
  void send(Job& j, const IoRequest& r, uint16_t qid, uint64_t now, bool background);  // the command itself
  void writeback(Job& j, uint64_t now);  // issues the workload's own requests (Workload::next_background)
  void background_completed(Job& j, uint32_t bytes, uint64_t now);  // one of them completed
  static bool idle(const Job& j) { return j.inflight == 0 && j.bg_inflight == 0; }
  uint64_t local_now() const { return in_wake_ ? local_ps_ : now_ps(); }  // the host's time (LT: its local time)
  void notify_wake(uint64_t t);  // LT: wake at the start of t's quantum (at once if that has passed)
  void fail(std::exception_ptr e);
  void stop();
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) override;
  void wake();
  void trace_queue(uint16_t qid, uint64_t now);

  HostParams p_;
  std::vector<std::unique_ptr<Job>> jobs_;
  std::vector<uint16_t> queue_job_;  // queue -> job
  std::vector<uint32_t> queue_outstanding_;
  std::vector<uint64_t> cpu_free_ps_;  // per queue: when its thread is next free (host.submit_ns, complete_ns)
  PayloadPool<NvmeCommand> pool_;
  std::vector<std::pair<uint64_t, tlm::tlm_generic_payload*>> heap_;  // completions by time (min-heap)
  HostStats stats_;
  mutable HostStats measured_;  // (copy_shared fills its tallies)
  // One record per completion: while every completion so far went to all three statistics (one job, every
  // completion measured: no ramp, set-up or close), wake() counts it in stats_ alone, and measured_'s and the job's
  // tallies are stats_'s, copied out when asked for. The first completion outside the measurement (or a reset of
  // the job's statistics) ends the sharing: each is then counted where it belongs. The same completions in the
  // same order as three records: every value identical (a merge at report time would add the latency sums in
  // another order, and floating-point sums depend on it).
  bool shared_ = false;
  uint64_t shared_records_ = 0;          // completions counted while shared
  mutable uint64_t copied_records_ = 0;  // shared_records_ at the last copy_shared
  void copy_shared() const;  // measured_ and the job's tallies := stats_'s (when any completion was counted)
  void unshare();            // ends the sharing (copy_shared, then each counted on its own)
  bool measuring_ = false;    // measured_.first_submit_ps set
  size_t held_ = 0;           // jobs waiting for others (stonewall, wait_for) at the last look: none = nothing to release
  uint32_t outstanding_ = 0;
  WaveTracer* wave_ = nullptr;        // null: not traced
  uint32_t wave_total_ = 0, wave_q0_ = 0;  // signal ids: host.outstanding, host.q0.outstanding (then q1, ...)
  size_t done_jobs_ = 0;
  bool flows_ = false;      // some job is in a flow
  bool flow_pass_ = false;  // retry_flows is running
  uint64_t flow_events_ = 0;  // I/Os counted, joins and leaves of every flow
  GroupObserver group_observer_;
  std::unique_ptr<ConvergenceMonitor> convergence_;  // sim.converge (null: off)
  std::vector<uint8_t> group_state_;  // per group: 0 waiting, 1 begun, 2 ended
  bool stopped_ = false;
  uint64_t hold_ps_ = 0;      // hold_until
  uint64_t timer_ps_;         // when timer_ fires next (kNever = not armed)
  std::exception_ptr error_;
  sc_core::sc_event wake_, timer_;
  QuantumKeeper qk_;  // LT: how far wake() may run ahead
  bool in_wake_ = false;             // wake() is taking completions (their times are local_ps_)
  uint64_t local_ps_ = 0;
  uint64_t wake_at_ = kNever;        // LT: when wake_ is notified for (kNever = not)
};

}  // namespace ssdtlm
