// The run's watchdog: progress checked against what the workload can need. At each sampler tick (no
// per-I/O work: it compares the host's completion counter with the one of its last check) it asks whether
// commands are outstanding and none completed for a span of simulated time many times the longest operation
// chain one command can wait for (stall_window_ps). Then it stops the kernel (sc_stop) and simulate()
// throws RunStuck with the platform's account of what is stuck (Platform::stuck_state()).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "config/params.h"
#include "sim/platform.h"

namespace ssdtlm {

// The longest chain of flash work one host command can wait behind on a healthy drive: a block's GC on
// each die of a channel (every page read, transferred twice and programmed, program suspensions included,
// then the erase) and the firmware time of every queued command. The window is 64 such chains, and at
// least 1 s of simulated time.
uint64_t longest_chain_ps(const Params& p);
uint64_t stall_window_ps(const Params& p);

// A run that stopped making progress: exit status 3, outputs not replaced (incomplete.json beside them).
class RunStuck : public std::runtime_error {
 public:
  RunStuck(const std::string& reason, const std::string& state, uint64_t sim_ps, uint64_t completed)
      : std::runtime_error(reason + "; " + state), reason(reason), state(state), sim_ps(sim_ps), completed(completed) {}
  std::string reason;  // what the watchdog saw
  std::string state;   // what is stuck (Platform::stuck_state())
  uint64_t sim_ps;     // when it stopped
  uint64_t completed;  // host commands completed in the timed run
};

class Watchdog {
 public:
  Watchdog(Platform& p, uint64_t window_ps) : p_(p), window_ps_(window_ps) {}
  // At a sampler tick: true (after sc_stop) when the run is stuck.
  bool check(uint64_t now);
  // A power loss: the host waits until `until` (the recovery), no completion is due before.
  void hold_until(uint64_t until);
  bool tripped() const { return !reason_.empty(); }
  // The exception that reports it (also for a kernel with no event left and jobs unfinished).
  RunStuck stuck(const std::string& reason) const;
  RunStuck stuck() const { return stuck(reason_); }
  uint64_t window_ps() const { return window_ps_; }

 private:
  Platform& p_;
  uint64_t window_ps_;
  uint64_t last_done_ = ~uint64_t(0), since_ps_ = 0, hold_ps_ = 0;
  bool waiting_ = false;  // the last check found commands outstanding
  std::string reason_;
};

}  // namespace ssdtlm
