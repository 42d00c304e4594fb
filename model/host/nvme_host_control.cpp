// What starts, ends or reshapes a job besides its workload: stonewall groups and wait_for (when a waiting job
// starts), fio's exitall (another job ended), steady state (its group's measurement settled), the latency
// target's depth search and flow control between jobs.
#include "host/nvme_host.h"

#include "common/sim_time.h"

namespace ssdtlm {

// A job is done: its log, its flow share, exitall, its stonewall group; the run ends with the last job.
void NvmeHost::finish(Job& j) {
  if (j.state == State::Done) return;
  const uint64_t now = local_now();
  if (j.log && j.state == State::Running) j.log->finished(now - std::min(now, j.measure_ps));
  if (j.flow && j.state == State::Running) {
    j.flow->leave(j.flow_count, j.pace.flow);
    ++flow_events_;
  }
  j.state = State::Done;
  ++done_jobs_;
  if (j.pace.exit_what != ExitWhat::None) exit_others(j);
  group_done(j.group);
  if (done_jobs_ == jobs_.size()) {
    stop();
    return;
  }
  release_waiting(now);
  if (flows_ && !flow_pass_) retry_flows(now);
}

// Starts the waiting jobs whose earlier groups have all finished.
// Called as each job finishes: with no job held (numjobs clones without stonewall) it costs nothing, so
// many jobs do not make the run quadratic.
void NvmeHost::release_waiting(uint64_t now) {
  if (held_ == 0) return;
  size_t first_unfinished = 0;
  while (first_unfinished < jobs_.size() && jobs_[first_unfinished]->state == State::Done) ++first_unfinished;
  size_t held = 0;
  for (auto& jp : jobs_) {
    Job& j = *jp;
    if (j.state != State::Waiting || j.delayed) continue;
    bool waiting = j.group_start > first_unfinished;
    for (size_t k : j.waits) waiting |= jobs_[k]->state != State::Done;
    if (waiting) {
      ++held;
      continue;
    }
    if (j.pace.start_delay_ns) {
      j.delayed = true;
      arm(j, sat_add(now, ns_ps(j.pace.start_delay_ns)));
    } else {
      begin(j, now);
    }
  }
  held_ = held;
}

// fio's exitall: a job that finishes stops the others of its exit_what scope. A running job stops issuing (what
// it has in flight completes); a job that has not started never starts.
void NvmeHost::exit_others(const Job& j) {
  for (auto& kp : jobs_) {
    Job& k = *kp;
    if (k.state == State::Done) continue;
    const bool running = k.state == State::Running;
    const bool hit = j.pace.exit_what == ExitWhat::All ||
                     (j.pace.exit_what == ExitWhat::Group && k.group_start == j.group_start) ||
                     (j.pace.exit_what == ExitWhat::Stonewall && running);
    if (!hit) continue;
    k.exited = true;
    if (running) {
      stop_issuing(k);
    } else {
      k.state = State::Done;  // a pending start-delay timer finds it done
      ++done_jobs_;
      group_done(k.group);
    }
  }
}

void NvmeHost::group_done(size_t group) {
  if (group_state_[group] != 1) return;  // not begun (a group stopped before it started), or ended already
  for (auto& k : jobs_)
    if (k->group == group && k->state != State::Done) return;
  group_state_[group] = 2;
  if (group_observer_) group_observer_(group, false, local_now());
}

// The job's steady-state group (one SteadyState shared) stops as fio terminates them: running jobs stop issuing,
// waiting ones never start.
void NvmeHost::wind_down(Job& k) {
  if (k.state != State::Done) k.state == State::Running ? stop_issuing(k) : finish(k);
}

void NvmeHost::steady(const Job& j) {
  for (auto& k : jobs_)
    if (k->ss == j.ss) wind_down(*k);
}

void NvmeHost::converged() {
  for (auto& k : jobs_) wind_down(*k);
}

// The job's steady-state timer fired (an interval ended, or another of the job's timers): the intervals ended by
// now are recorded and decided, as fio's steadystate_check does on its timer; the next end is armed.
bool NvmeHost::steady_timer(Job& j, uint64_t now) {
  if (j.ss->attained()) return false;  // the group stopped already; what is in flight completes
  if (j.ss->advance(now)) {
    steady(j);
    return true;
  }
  arm(j, j.ss->next_close_ps());
  return false;
}

void NvmeHost::latency_step(Job& j, LatencyTarget::Step s, uint64_t now) {
  switch (s) {
    case LatencyTarget::Step::None:
      return;
    case LatencyTarget::Step::Restart:  // fio's reset_all_stats before the final run at the depth found
      if (shared_) unshare();
      j.stats = HostStats();
      start_measuring(j, now);
      return;
    case LatencyTarget::Step::Done:    // the final run is over
    case LatencyTarget::Step::Failed:  // over the target at depth 1: fio's "max latency exceeded"
      stop_issuing(j);
      return;
  }
}

// fio's flow_threshold_exceeded, asked before each I/O: a job ahead of its share of the flow is held. With
// flow_sleep it waits until its I/O in flight has completed (fio's io_u_quiesce), then sleeps flow_sleep and asks
// again; without, it asks again as soon as the flow changes (fio retries at once: another job's I/O or exit is
// what can change the answer).
bool NvmeHost::flow_holds(Job& j, uint64_t now) {
  if (j.flow_quiesce) {
    if (j.inflight > 0) return true;  // a completion asks again
    j.flow_quiesce = false;
    j.gate_ps = sat_add(now, ns_ps(j.pace.flow_sleep_ns));
    arm(j, j.gate_ps);
    return true;
  }
  if (!j.flow->ahead(j.flow_count, j.pace.flow)) return false;
  if (j.pace.flow_sleep_ns > 0) {
    j.flow_quiesce = true;
    return flow_holds(j, now);
  }
  j.flow_held = true;
  j.flow_seen = j.flow->changes();
  return true;
}

// The jobs held by their flow (without flow_sleep) whose flow changed try again, until a round changes nothing.
// Each round that goes on issued an I/O or saw a job join or leave, so the rounds are bounded by the free slots.
void NvmeHost::retry_flows(uint64_t now) {
  flow_pass_ = true;
  for (uint64_t before = ~uint64_t(0); before != flow_events_;) {
    before = flow_events_;
    for (auto& kp : jobs_) {
      Job& k = *kp;
      if (!k.flow_held || k.flow_seen == k.flow->changes()) continue;
      k.flow_held = false;
      issue(k, now);
    }
  }
  flow_pass_ = false;
}

}  // namespace ssdtlm
