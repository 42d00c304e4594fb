#include "controller/streams/lifetimes.h"

#include <algorithm>

namespace ssdtlm {

Lifetimes::Lifetimes(uint64_t logical_units, uint32_t streams, uint32_t sample_shift)
    : shift_(sample_shift),
      mask_((1u << sample_shift) - 1),
      unit_(size_t((logical_units + mask_) >> sample_shift)),
      per_(streams) {}

void Lifetimes::reset() {
  for (Unit& u : unit_) u.stream = kNone;
  times_.clear();
  seq_ = 0;
  for (auto& p : per_) p = PerStream();
}

uint64_t Lifetimes::time_of(uint64_t seq, uint64_t now_ps) const {
  const uint64_t step = seq / kStep, base = step * kStep;
  const uint64_t t0 = times_[step];
  // The end of the step: the next table entry, or now (and the current write count) inside the last step.
  uint64_t t1 = now_ps, span = seq_ - base;
  if (step + 1 < times_.size()) {
    t1 = times_[step + 1];
    span = kStep;
  }
  if (span == 0 || t1 <= t0) return t0;
  return t0 + uint64_t((long double)(t1 - t0) * (long double)(seq - base) / (long double)span);
}

void Lifetimes::record(uint32_t s, uint64_t born, uint64_t now_ps) {
  PerStream& p = per_[s];
  p.writes.record(seq_ - born);
  const uint64_t t = time_of(born, now_ps);
  p.time_ns.record(now_ps > t ? (now_ps - t) / 1000 : 0);
}

}  // namespace ssdtlm
