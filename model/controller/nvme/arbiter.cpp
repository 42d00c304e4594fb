#include "controller/nvme/arbiter.h"

namespace ssdtlm::nvme {

int Arbiter::next_in(int cls) {
  const uint32_t n = uint32_t(ready_.size());
  uint32_t& from = rr_[cls < 0 ? 4 : cls];
  for (uint32_t i = 0; i + 1 < n; ++i) {
    const uint32_t q = 1 + (from - 1 + i) % (n - 1);
    if (!ready_[q] || (cls >= 0 && int(prio_[q]) != cls)) continue;
    from = q + 1 == n ? 1 : q + 1;
    return int(q);
  }
  return -1;
}

int Arbiter::pick() {
  if (ready_[0]) return 0;  // the admin queue: strict priority in both schemes
  if (ready_.size() < 2) return -1;
  if (!wrr_) return next_in(-1);
  int q = next_in(int(Prio::Urgent));
  if (q >= 0) return q;
  for (int round = 0; round < 2; ++round) {
    for (int c = 1; c <= 3; ++c) {
      if (!credit_[c]) continue;
      q = next_in(c);
      if (q < 0) continue;
      --credit_[c];
      return q;
    }
    // Every class with entries has spent its credit: a new round.
    for (int c = 1; c <= 3; ++c) credit_[c] = weight_[c];
  }
  return -1;
}

}  // namespace ssdtlm::nvme
