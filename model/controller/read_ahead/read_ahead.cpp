#include "controller/read_ahead/read_ahead.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ssdtlm {

ReadAhead::ReadAhead(uint32_t trigger, uint32_t span_units, uint64_t budget_units)
    : trigger_(trigger), span_units_(span_units), budget_units_(budget_units) {}

void ReadAhead::on_read(uint32_t lpn, uint32_t units, uint64_t logical_units, uint32_t* first, uint32_t* end) {
  *first = *end = 0;
  // A read that starts where the last one ended counts towards the trigger; any other ends the stream.
  if (lpn == last_end_) {
    if (!stream_ && ++run_ >= trigger_) stream_ = true;
  } else {
    stream_ = false;
    run_ = 0;
  }
  const uint64_t read_end = uint64_t(lpn) + units;
  last_end_ = read_end;
  if (!stream_) return;
  uint64_t from, to;
  if (lpn < window_begin_ || read_end > frontier_) {
    // Outside the window (the stream's first read, or it outran it): fetch from the read on, span units from its
    // start (SimpleSSD: [lpn, lpn + span), the read itself included), and again once the reads cross its middle.
    window_begin_ = lpn;
    from = read_end;
    to = std::max<uint64_t>(read_end, uint64_t(lpn) + span_units_);
    refill_at_ = lpn + span_units_ / 2;
  } else if (lpn <= refill_at_ && refill_at_ < read_end) {
    from = frontier_;  // the read crossed the middle of the window: the next span
    to = frontier_ + span_units_;
    refill_at_ = frontier_ + span_units_ / 2;
  } else {
    return;
  }
  to = std::min<uint64_t>(to, logical_units);
  frontier_ = std::max(frontier_, to);
  if (from >= to) return;
  *first = uint32_t(from);
  *end = uint32_t(to);
}

bool ReadAhead::take(uint32_t lpn, Held* out) {
  auto it = held_.find(lpn);
  if (it == held_.end()) return false;
  *out = it->second;
  held_.erase(it);
  ++n_.hits;
  return true;
}

void ReadAhead::add(uint32_t lpn, const void* op) {
  while (held_.size() >= budget_units_ && !order_.empty()) {
    auto [old, seq] = order_.front();
    order_.pop_front();
    auto it = held_.find(old);
    if (it != held_.end() && it->second.seq == seq) {
      held_.erase(it);
      ++n_.wasted;
    }
  }
  Held& h = held_[lpn];
  h = Held{op, 0, 0, 0, next_seq_++};
  order_.emplace_back(lpn, h.seq);
  ++n_.prefetched_units;
  // The order keeps stale entries of units taken or dropped; trimmed once they outnumber the held ones.
  if (order_.size() > 2 * budget_units_ + 64) {
    std::deque<std::pair<uint32_t, uint64_t>> live;
    for (const auto& [l, s] : order_) {
      auto it = held_.find(l);
      if (it != held_.end() && it->second.seq == s) live.emplace_back(l, s);
    }
    order_.swap(live);
  }
}

void ReadAhead::landed(uint32_t lpn, const void* op, uint64_t done_ps, uint32_t found_lpn, uint32_t version, bool ok) {
  auto it = held_.find(lpn);
  if (it == held_.end() || it->second.op != op) return;
  if (!ok) {
    held_.erase(it);
    ++n_.wasted;
    return;
  }
  it->second.op = nullptr;
  it->second.ready_ps = done_ps;
  it->second.found_lpn = found_lpn;
  it->second.version = version;
}

void ReadAhead::drop(uint32_t lpn) {
  if (held_.erase(lpn)) ++n_.wasted;
}

void ReadAhead::clear() {
  n_.wasted += held_.size();
  held_.clear();
  order_.clear();
  stream_ = false;
  run_ = 0;
  last_end_ = ~uint64_t(0);
  window_begin_ = frontier_ = refill_at_ = 0;
}

void ReadAhead::report(nlohmann::json& r) const {
  r["prefetched_pages"] = n_.prefetched_pages;
  r["prefetched_units"] = n_.prefetched_units;
  r["hits"] = n_.hits;
  r["wasted"] = n_.wasted + held_.size();
  r["span_units"] = span_units_;
  r["budget_units"] = budget_units_;
}

}  // namespace ssdtlm
