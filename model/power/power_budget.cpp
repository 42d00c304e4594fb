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
  if (limit_w_ == 0 && !queue_.empty()) {  // no limit at all: every waiting die may start, in any order
    std::deque<Ticket> all;
    all.swap(queue_);
    for (const Ticket& t : all) t.who->budget_freed(t.die);
    return;
  }
  if (before > 0 && limit_w_ > before) {
    freed_ = true;
    notify();
  }
}

bool PowerBudget::acquire(double w, Waiter* who, uint32_t die, bool queued) {
  if (limit_w_ > 0) {
    const bool fits = active_ops_ == 0 || floor_w_ + active_w_ + w <= limit_w_ + kSlackW;
    // (An operation alone always starts: a budget below floor + one operation would stop the drive.)
    const bool first = queue_.empty() || (queue_.front().who == who && queue_.front().die == die);
    if (!fits || !first) {
      ++refusals_;
      if (!queued) queue_.push_back({who, die, w});
      return false;
    }
    if (!queue_.empty()) {
      queue_.pop_front();
      if (!queue_.empty()) freed_ = true;  // the next one may fit too: checked when the caller's step ends
    }
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
  if (!freed_ || notifying_) return;
  notifying_ = true;
  freed_ = false;
  // Kick the oldest waiting die's controller while its operation fits; stop when it does not take the
  // power (its controller is busy in a step of its own: it asks when that step ends).
  while (!queue_.empty()) {
    const Ticket t = queue_.front();
    if (limit_w_ > 0 && active_ops_ > 0 && floor_w_ + active_w_ + t.w > limit_w_ + kSlackW) break;
    t.who->budget_freed(t.die);
    if (!queue_.empty() && queue_.front().who == t.who && queue_.front().die == t.die) break;
  }
  notifying_ = false;
}

}  // namespace ssdtlm
