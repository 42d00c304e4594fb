// What ends or reshapes a running job besides its workload: fio's exitall (another job ended), steady state
// (its group's measurement settled) and the latency target's depth search.
#include "host/nvme_host.h"

#include "common/sim_time.h"

namespace ssdtlm {

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
  if (group_observer_) group_observer_(group, false, now_ps());
}

// The job's steady-state group (one SteadyState shared) stops as fio terminates them: running jobs stop issuing,
// waiting ones never start.
void NvmeHost::steady(const Job& j) {
  for (auto& k : jobs_)
    if (k->ss == j.ss && k->state != State::Done) k->state == State::Running ? stop_issuing(*k) : finish(*k);
}

void NvmeHost::latency_step(Job& j, LatencyTarget::Step s, uint64_t now) {
  switch (s) {
    case LatencyTarget::Step::None:
      return;
    case LatencyTarget::Step::Restart:  // fio's reset_all_stats before the final run at the depth found
      j.stats = HostStats();
      start_measuring(j, now);
      return;
    case LatencyTarget::Step::Done:    // the final run is over
    case LatencyTarget::Step::Failed:  // over the target at depth 1: fio's "max latency exceeded"
      stop_issuing(j);
      return;
  }
}

}  // namespace ssdtlm
