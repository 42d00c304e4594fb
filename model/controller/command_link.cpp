#include "controller/command_link.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ssdtlm {

uint64_t PcieLink::send(uint64_t t, uint32_t bytes) {
  const uint64_t left = busy_of(bytes);
  busy_ps_ += left;
  const uint64_t cur = std::max(t, horizon_);
  if (left == 0) return cur;
  if (head_ == busy_.size() || cur > busy_.back().end) {  // after everything booked: the common case
    busy_.push_back({cur, cur + left});
    return cur + left;
  }
  if (cur >= busy_.back().start) return busy_.back().end += left;  // in the last interval: after it
  // The first interval that starts after `cur`.
  const auto first = busy_.begin() + std::ptrdiff_t(head_);
  const size_t next = size_t(std::upper_bound(first, busy_.end(), cur, [](uint64_t c, const Interval& i) {
                               return c < i.start;
                             }) - busy_.begin());
  return fill(next, cur, left);
}

uint64_t PcieLink::fill(size_t next, uint64_t cur, uint64_t left) {
  size_t prev = SIZE_MAX;  // the interval that ends at `cur`, if any
  if (next > head_ && busy_[next - 1].end >= cur) {  // `cur` is in it (or at its end): the wire is free from its end
    prev = next - 1;
    cur = busy_[prev].end;
  }
  for (;;) {  // [cur, busy_[next].start) is free
    const uint64_t gap = next == busy_.size() ? UINT64_MAX - cur : busy_[next].start - cur;
    const uint64_t use = std::min(gap, left), stop = cur + use;
    left -= use;
    if (use < gap) {  // the transfer ends inside the gap
      if (prev != SIZE_MAX) busy_[prev].end = stop;
      else busy_.insert(busy_.begin() + std::ptrdiff_t(next), Interval{cur, stop});
      return stop;
    }
    // It fills the gap: `prev`, the gap and `next` become one interval.
    const uint64_t end = busy_[next].end;
    if (prev != SIZE_MAX) {
      busy_[prev].end = end;
      busy_.erase(busy_.begin() + std::ptrdiff_t(next));
    } else {
      busy_[next].start = cur;  // the gap joins `next`
      prev = next++;
    }
    if (left == 0) return stop;
    cur = end;
  }
}

void PcieLink::retire(uint64_t t) {
  horizon_ = std::max(horizon_, t);
  while (head_ < busy_.size() && busy_[head_].end <= horizon_) ++head_;
  if (head_ == busy_.size()) {
    busy_.clear(), head_ = 0;
  } else if (head_ >= 64 && head_ * 2 >= busy_.size()) {  // compact: the retired part is at least half
    busy_.erase(busy_.begin(), busy_.begin() + std::ptrdiff_t(head_));
    head_ = 0;
  }
}

}  // namespace ssdtlm
