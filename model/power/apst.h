// NVMe autonomous power state transitions (APST): after an idle time the drive enters its non-operational
// power states one after the other (power.ps_*, power.apst_idle_ms); in a state it draws that state's power
// instead of its idle floor; the first command after idle pays the exit latency (and the rest of an entry
// still under way). Plain C++; O(states) per wake-up from idle, nothing per command otherwise.
#pragma once
#include <cstdint>
#include <vector>

#include "power/power_params.h"

namespace ssdtlm {

class Apst {
 public:
  explicit Apst(std::vector<PowerState> states) : states_(std::move(states)) {}

  static constexpr uint64_t kNever = ~uint64_t(0);
  // The idle times (since the last completion) at which the states are entered, one per state, as a host's APST
  // table sets them (controller/nvme: Set Features Autonomous Power State Transition); kNever: a state the drive
  // does not enter. Ascending over the states entered.
  void set_idle_times(const std::vector<uint64_t>& idle_ps);
  const std::vector<PowerState>& states() const { return states_; }

  // The last outstanding command completed at t: the drive is idle from then on.
  void idle_from(uint64_t t) {
    idle_ = true;
    idle_since_ = t;
  }
  bool idle() const { return idle_; }
  // A command arrives at t: the latency it pays to bring the drive back to an operational state (0 if the
  // drive was busy or had not yet entered a state), with the time and energy in idle states accounted.
  uint64_t wake(uint64_t t);
  // The state the drive is in at t if it stays idle (0 = operational, i = the i-th idle state).
  uint32_t state_at(uint64_t t) const;
  // The host puts the drive into idle state `state` (1-based) at t (NVMe Set Features Power Management, a
  // non-operational state): the idle time so far accounted (a deeper state's exit not charged), then the state
  // entered at once (its entry latency from t) and kept until the next command's wake(), which pays the rest of
  // the entry and the exit as for APST and brings the idle times set before (APST's) back. `idle_now` false
  // (commands in flight): the state is entered when the last one completes (idle_from).
  void enter(uint32_t state, uint64_t t, bool idle_now);
  uint32_t host_state() const { return host_state_; }  // the state the host chose, 0 once a command woke the drive

  uint64_t low_power_ps() const { return low_power_ps_; }  // time in idle states (entries and exits excluded)
  double low_power_j() const { return low_power_j_; }
  uint64_t wakeups() const { return wakeups_; }            // wake-ups that paid an exit latency
  uint64_t exit_ps() const { return exit_ps_; }            // summed latency paid
  std::vector<uint64_t> state_ps;                          // per idle state: time in it (filled by wake)

 private:
  uint64_t account(uint64_t t);  // the time in idle states until t: their entry's rest and exit latency

  std::vector<PowerState> states_;
  uint32_t host_state_ = 0;
  std::vector<uint64_t> saved_idle_;  // the idle times a host-chosen state set aside
  bool idle_ = false;
  uint64_t idle_since_ = 0;
  uint64_t low_power_ps_ = 0, wakeups_ = 0, exit_ps_ = 0;
  double low_power_j_ = 0;
};

}  // namespace ssdtlm
