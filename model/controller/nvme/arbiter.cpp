#include "controller/nvme/arbiter.h"

#include <algorithm>

namespace ssdtlm::nvme {

int Arbiter::next_in(int cls) {
  const uint32_t n = uint32_t(ready_.size());
  const uint32_t first = cls < 0 ? 0 : 1, span = n - first;  // plain round robin: the admin queue takes its turn
  if (!span) return -1;
  uint32_t& from = rr_[cls < 0 ? 0 : cls + 1];  // always in [first, n)
  uint32_t q = from;
  for (uint32_t i = 0; i < span; ++i, q = q + 1 == n ? first : q + 1) {
    if (!ready_[q] || (cls >= 0 && int(prio_[q]) != cls)) continue;
    from = q + 1 == n ? first : q + 1;
    return int(q);
  }
  return -1;
}

int Arbiter::start(int q, uint32_t n, int cls) {
  cur_ = q, cur_cls_ = cls, left_ = n - 1;
  if (cls > 0) --credit_[cls];
  return q;
}

int Arbiter::pick() {
  // A burst under way goes on while its queue has entries (§3.4.4: arbitration takes place again after it).
  if (cur_ >= 0 && left_ && ready_[cur_] && (cur_cls_ <= 0 || credit_[cur_cls_])) {
    --left_;
    if (cur_cls_ > 0) --credit_[cur_cls_];
    return cur_;
  }
  cur_ = -1;
  if (!total_) {  // nothing waits: as the scan below finds, WRR's levels starting a new round on the way
    if (wrr_)
      for (int c = 1; c <= 3; ++c) credit_[c] = weight_[c];
    return -1;
  }
  if (!wrr_) {
    const int q = next_in(-1);
    return q < 0 ? -1 : start(q, burst_, -1);
  }
  if (ready_[0]) return start(0, burst_, -1);  // the admin class: strict priority
  int q = next_in(int(Prio::Urgent));         // the urgent class: strict priority over the weighted levels
  if (q >= 0) return start(q, burst_, -1);
  for (int round = 0; round < 2; ++round) {
    for (int c = 1; c <= 3; ++c) {
      if (!credit_[c]) continue;
      q = next_in(c);
      if (q >= 0) return start(q, std::min(burst_, credit_[c]), c);
    }
    // Every level with entries has spent its credits: a new round.
    for (int c = 1; c <= 3; ++c) credit_[c] = weight_[c];
  }
  return -1;
}

}  // namespace ssdtlm::nvme
