#include "controller/command_link.h"

#include <algorithm>
#include <iterator>

namespace ssdtlm {

PcieLink::Calendar::iterator PcieLink::add(Calendar::const_iterator hint, uint64_t start, uint64_t end) {
  if (spare_.empty()) return busy_.emplace_hint(hint, start, end);
  Calendar::node_type node = std::move(spare_.back());
  spare_.pop_back();
  node.key() = start;
  node.mapped() = end;
  return busy_.insert(hint, std::move(node));
}

uint64_t PcieLink::send(uint64_t t, uint32_t bytes) {
  uint64_t left = busy_of(bytes);
  busy_ps_ += left;
  uint64_t cur = std::max(t, horizon_);
  if (left == 0) return cur;
  if (busy_.empty() || cur > std::prev(busy_.end())->second) {  // after everything booked: the common case
    add(busy_.end(), cur, cur + left);
    return cur + left;
  }
  if (const Calendar::iterator last = std::prev(busy_.end()); cur >= last->first)  // in the last interval: after it
    return last->second += left;
  Calendar::iterator next = busy_.upper_bound(cur);  // the first interval that starts after `cur`
  Calendar::iterator prev = busy_.end();             // the interval that ends at `cur`, if any
  if (next != busy_.begin()) {
    Calendar::iterator p = std::prev(next);
    if (p->second >= cur) cur = p->second, prev = p;  // `cur` is in it (or at its end): the wire is free from its end
  }
  for (;;) {  // [cur, next's start) is free
    const uint64_t gap = next == busy_.end() ? UINT64_MAX - cur : next->first - cur;
    const uint64_t use = std::min(gap, left), stop = cur + use;
    left -= use;
    if (use < gap) {  // the transfer ends inside the gap
      if (prev != busy_.end()) prev->second = stop;
      else add(next, cur, stop);
      return stop;
    }
    // It fills the gap: `prev`, the gap and `next` become one interval.
    const uint64_t end = next->second;
    const Calendar::iterator after = std::next(next);
    drop(next);
    if (prev != busy_.end()) prev->second = end;
    else prev = add(after, cur, end);
    next = after;
    if (left == 0) return stop;
    cur = end;
  }
}

void PcieLink::retire(uint64_t t) {
  horizon_ = std::max(horizon_, t);
  while (!busy_.empty() && busy_.begin()->second <= horizon_) drop(busy_.begin());
}

}  // namespace ssdtlm
