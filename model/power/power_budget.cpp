#include "power/power_budget.h"

#include <algorithm>

namespace ssdtlm {

namespace {
constexpr double kSlackW = 1e-9;  // rounding of sums of doubles
}

void PowerBudget::set_throttle(double throttle_w) {
  const double before = limit_w_;
  limit_w_ = configured_w_;
  if (throttle_w > 0) limit_w_ = limit_w_ > 0 ? std::min(limit_w_, throttle_w) : throttle_w;
  if (limit_w_ == 0 || (before > 0 && limit_w_ > before)) {
    freed_ = true;
    notify();
  }
}

bool PowerBudget::acquire(double w, Waiter* who) {
  if (limit_w_ > 0 && active_ops_ > 0 && floor_w_ + active_w_ + w > limit_w_ + kSlackW) {
    // (An operation alone always starts: a budget below floor + one operation would stop the drive.)
    ++refusals_;
    if (!who->waiting) {
      who->waiting = true;
      waiters_.push_back(who);
    }
    return false;
  }
  active_w_ += w;
  ++active_ops_;
  peak_active_w_ = std::max(peak_active_w_, active_w_);
  peak_ops_ = std::max(peak_ops_, active_ops_);
  return true;
}

void PowerBudget::release(double w) {
  active_w_ = active_ops_ > 1 ? active_w_ - w : 0;
  --active_ops_;
  freed_ = true;
}

void PowerBudget::notify() {
  if (!freed_ || notifying_ || waiters_.empty()) return;
  notifying_ = true;
  while (freed_ && !waiters_.empty()) {
    freed_ = false;
    std::vector<Waiter*> kick;
    kick.swap(waiters_);
    for (Waiter* w : kick) w->waiting = false;
    for (Waiter* w : kick) w->budget_freed();  // a waiter refused again queues itself again
    if (freed_ && waiters_.empty()) break;
    // Power given back while kicking (an operation that ended at this very instant) serves the next round.
  }
  freed_ = false;
  notifying_ = false;
}

}  // namespace ssdtlm
