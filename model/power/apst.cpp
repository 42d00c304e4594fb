#include "power/apst.h"

namespace ssdtlm {

void Apst::set_idle_times(const std::vector<uint64_t>& idle_ps) {
  if (host_state_) {  // in a state the host chose: the times apply once a command wakes the drive
    saved_idle_ = idle_ps;
    return;
  }
  for (size_t i = 0; i < states_.size(); ++i) states_[i].idle_ps = i < idle_ps.size() ? idle_ps[i] : kNever;
}

void Apst::enter(uint32_t state, uint64_t t, bool idle_now) {
  if (idle_ && t > idle_since_) account(t);
  if (!host_state_) {
    saved_idle_.clear();
    for (const PowerState& s : states_) saved_idle_.push_back(s.idle_ps);
  }
  for (uint32_t i = 0; i < states_.size(); ++i) states_[i].idle_ps = i + 1 == state ? 0 : kNever;
  host_state_ = state;
  if (idle_now) idle_from(t);
  else idle_ = false;  // entered at the last completion
}

uint32_t Apst::state_at(uint64_t t) const {
  if (!idle_ || t <= idle_since_) return 0;
  const uint64_t d = t - idle_since_;
  uint32_t s = 0;
  for (uint32_t i = 0; i < states_.size(); ++i)
    if (states_[i].idle_ps != kNever && d >= states_[i].idle_ps) s = i + 1;
  return s;
}

uint64_t Apst::wake(uint64_t t) {
  if (!idle_) return 0;
  idle_ = false;
  const uint64_t latency = t > idle_since_ ? account(t) : 0;
  if (host_state_) {  // back to PS0: the idle times the host's choice set aside apply again
    host_state_ = 0;
    set_idle_times(saved_idle_);
  }
  if (latency) {
    ++wakeups_;
    exit_ps_ += latency;
  }
  return latency;
}

uint64_t Apst::account(uint64_t t) {
  const uint64_t d = t - idle_since_;
  if (state_ps.size() != states_.size()) state_ps.assign(states_.size(), 0);
  uint64_t latency = 0;
  for (uint32_t i = 0; i < states_.size(); ++i) {
    const PowerState& s = states_[i];
    if (s.idle_ps == kNever) continue;  // not entered (a host's APST table skips it)
    if (d < s.idle_ps) break;
    // In state i from its entry's end until the next state's entry begins or the command arrives.
    const uint64_t in_from = s.idle_ps + s.entry_ps;
    uint32_t next = i + 1;
    while (next < states_.size() && states_[next].idle_ps == kNever) ++next;
    const uint64_t until = next < states_.size() && d >= states_[next].idle_ps ? states_[next].idle_ps : d;
    if (until > in_from) {
      low_power_ps_ += until - in_from;
      low_power_j_ += s.max_w * double(until - in_from) * 1e-12;
      state_ps[i] += until - in_from;
    }
    // The deepest state reached sets the latency: the rest of its entry, then its exit.
    latency = (d < in_from ? in_from - d : 0) + s.exit_ps;
  }
  return latency;
}

}  // namespace ssdtlm
