#include "power/apst.h"

namespace ssdtlm {

uint32_t Apst::state_at(uint64_t t) const {
  if (!idle_ || t <= idle_since_) return 0;
  const uint64_t d = t - idle_since_;
  uint32_t s = 0;
  for (uint32_t i = 0; i < states_.size(); ++i)
    if (d >= states_[i].idle_ps) s = i + 1;
  return s;
}

uint64_t Apst::wake(uint64_t t) {
  if (!idle_) return 0;
  idle_ = false;
  if (t <= idle_since_) return 0;
  const uint64_t d = t - idle_since_;
  if (state_ps.size() != states_.size()) state_ps.assign(states_.size(), 0);
  uint64_t latency = 0;
  for (uint32_t i = 0; i < states_.size(); ++i) {
    const PowerState& s = states_[i];
    if (d < s.idle_ps) break;
    // In state i from its entry's end until the next state's entry begins or the command arrives.
    const uint64_t in_from = s.idle_ps + s.entry_ps;
    const uint64_t until = i + 1 < states_.size() && d >= states_[i + 1].idle_ps ? states_[i + 1].idle_ps : d;
    if (until > in_from) {
      low_power_ps_ += until - in_from;
      low_power_j_ += s.max_w * double(until - in_from) * 1e-12;
      state_ps[i] += until - in_from;
    }
    // The deepest state reached sets the latency: the rest of its entry, then its exit.
    latency = (d < in_from ? in_from - d : 0) + s.exit_ps;
  }
  if (latency) {
    ++wakeups_;
    exit_ps_ += latency;
  }
  return latency;
}

}  // namespace ssdtlm
