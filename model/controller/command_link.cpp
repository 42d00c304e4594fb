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
  if (busy_.empty() || cur > busy_.back().end) {  // after everything booked: the common case
    append(cur, left);
    return cur + left;
  }
  if (cur >= busy_.back().start) return busy_.back().end += left;  // in the last interval: after it
  // The first interval that starts after `cur`: scanned back from the last (the bookings after `cur` are the few
  // transfers in flight; an interval over by the horizon starts before it, so the scan stops there at the latest).
  size_t next = busy_.size() - 1;
  while (next > 0 && busy_[next - 1].start > cur) --next;
  return fill(next, cur, left);
}

void PcieLink::append(uint64_t cur, uint64_t left) {
  if (!busy_.empty() && busy_.back().end <= horizon_) {  // everything booked is over
    busy_.clear();
  } else if (busy_.size() >= compact_at_) {  // a busy stretch: drop those over (their ends rise with their index)
    const auto live = std::partition_point(busy_.begin(), busy_.end(), [&](const Interval& i) {
      return i.end <= horizon_;
    });
    busy_.erase(busy_.begin(), live);
    compact_at_ = std::max<size_t>(64, 2 * busy_.size());
  }
  busy_.push_back({cur, cur + left});
}

uint64_t PcieLink::fill(size_t next, uint64_t cur, uint64_t left) {
  size_t prev = SIZE_MAX;  // the interval that ends at `cur`, if any
  if (next > 0 && busy_[next - 1].end >= cur) {  // `cur` is in it (or at its end): the wire is free from its end
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

}  // namespace ssdtlm
