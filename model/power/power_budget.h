// The power budget (power.budget_w, and the thermal throttle's lower budgets): an array operation (tR,
// tPROG, tBERS) may start only while the drive's floor plus the active power of the operations running
// plus its own stays within the budget; otherwise its die waits. The channel controllers ask when they
// would start an operation (acquire) and give the power back when it ends (release). Refused dies queue in
// order (first refused, first served): while dies wait, only the oldest may start, so a die that keeps its
// power by cache programming cannot starve the others; its controller is kicked when its power fits.
// Plain C++: O(1) per acquire and release; a kick only when some die waits.
//
// The reservation is held from the decision to the end of the array time, so the budget holds at every
// instant (conservatively: data-in of a program counts from its grant). Bus, DRAM, firmware and PCIe energy
// are not gated: a controller cannot defer them without stalling the host.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>

#include "power/budget_waiter.h"

namespace ssdtlm {

class PowerBudget {
 public:
  using Waiter = BudgetWaiter;

  // floor_w: the drive's idle floor (always drawn); limit_w: the envelope (0 = none).
  PowerBudget(double floor_w, double limit_w) : floor_w_(floor_w), configured_w_(limit_w), limit_w_(limit_w) {}

  // The envelope now: the configured one, lowered by a thermal throttle (0 = no throttle budget).
  void set_throttle(double throttle_w);
  double limit_w() const { return limit_w_; }
  bool limited() const { return limit_w_ > 0; }

  // True if an operation drawing w on die `die` of `who` may start now (then w is held until release); else
  // the die queues (unless `queued`: it is in the queue from an earlier refusal) and `who` is kicked later.
  bool acquire(double w, Waiter* who, uint32_t die, bool queued);
  void release(double w);
  // Kicks the waiters if power came back since the last call (called by a controller when its step ends,
  // so that the die that gave power back may take it again first).
  void notify();

  double active_w() const { return active_w_; }
  double peak_active_w() const { return peak_active_w_; }
  uint32_t active_ops() const { return active_ops_; }
  uint32_t peak_active_ops() const { return peak_ops_; }
  uint64_t refusals() const { return refusals_; }
  size_t waiting() const { return queue_.size(); }

 private:
  double floor_w_, configured_w_, limit_w_;
  double active_w_ = 0, peak_active_w_ = 0;
  uint32_t active_ops_ = 0, peak_ops_ = 0;
  uint64_t refusals_ = 0;
  bool freed_ = false, notifying_ = false;
  struct Ticket {
    Waiter* who;
    uint32_t die;
    double w;
  };
  std::deque<Ticket> queue_;  // refused dies, oldest first
};

}  // namespace ssdtlm
