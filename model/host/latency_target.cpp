#include "host/latency_target.h"

#include <algorithm>

namespace ssdtlm {

LatencyTarget::LatencyTarget(const LatencyTargetParams& p, uint32_t iodepth)
    : p_(p), iodepth_(std::max(1u, iodepth)), qd_high_(std::max(1u, iodepth)) {}

bool LatencyTarget::may_issue(uint32_t inflight) {
  if (draining_ && inflight == 0) draining_ = false;  // fio's io_u_quiesce is over
  return !draining_ && !failed_ && inflight < qd_;
}

void LatencyTarget::new_cycle(uint64_t now_ps) {
  cycle_ps_ = now_ps;
  ios_ = over_ = 0;
}

LatencyTarget::Step LatencyTarget::completed(uint64_t now_ps, uint64_t lat_ns) {
  if (failed_) return Step::None;
  ++ios_;
  if (lat_ns > p_.target_ns) {
    if (p_.percentile >= 100.0) {
      const Step s = failed_step();
      new_cycle(now_ps);
      return s;
    }
    ++over_;
  }
  if (now_ps - cycle_ps_ < p_.window_ns * 1000) return Step::None;
  const double success = 100.0 * double(ios_ - over_) / double(ios_);
  const Step s = success >= p_.percentile ? success_step() : failed_step();
  new_cycle(now_ps);
  return s;
}

LatencyTarget::Step LatencyTarget::failed_step() {
  if (qd_ == 1) {
    failed_ = true;
    return Step::Failed;
  }
  qd_high_ = qd_;
  if (qd_ == qd_low_) --qd_low_;
  qd_ = std::max(1u, (qd_ + qd_low_) / 2);
  stable_ = 0;
  draining_ = true;
  return Step::None;
}

LatencyTarget::Step LatencyTarget::success_step() {
  const uint32_t before = qd_;
  qd_low_ = qd_;
  if (qd_ + 1 == qd_high_ && ++stable_ >= 3) {  // stable below the bad bound: nudge the bound up
    ++qd_high_;
    stable_ = 0;
  }
  qd_ = qd_high_ != iodepth_ ? (qd_ + qd_high_) / 2 : qd_ * 2;
  qd_ = std::min(qd_, iodepth_);
  if (p_.run || qd_ != before) return Step::None;
  if (end_run_) return Step::Done;
  draining_ = true;  // the final run at this depth, from fresh statistics
  end_run_ = true;
  return Step::Restart;
}

}  // namespace ssdtlm
