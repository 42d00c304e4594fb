#include "controller/buffer/write_buffer.h"

#include <algorithm>
#include <stdexcept>

#include "flash/geometry.h"

namespace ssdtlm {

WriteBuffer::WriteBuffer(uint32_t capacity_units, std::unique_ptr<FlushPolicy> policy, uint32_t streams)
    : slots_(capacity_units, Slot{kInvalid, 0, Free, 0}), policy_(std::move(policy)), streams_(std::max<uint32_t>(1, streams)) {
  if (streams_ > 1) {
    next_.assign(capacity_units, kInvalid);
    time_.assign(capacity_units, 0);
    head_.assign(streams_, kInvalid);
    tail_.assign(streams_, kInvalid);
    sdirty_.assign(streams_, 0);
    head_t_.assign(streams_, ~uint64_t(0));
    if (streams_ > 64) throw std::logic_error("write buffer: more than 64 streams");
  }
  seq_.assign(capacity_units, 0);
  free_.reserve(capacity_units);
  for (uint32_t s = capacity_units; s-- > 0;) free_.push_back(s);
  size_t n = 16;
  while (n < 2 * size_t(capacity_units)) n <<= 1;
  index_.assign(n, kNoEntry);
  mask_ = n - 1;
}

void WriteBuffer::index_erase_at(size_t i) {
  // Backward-shift deletion keeps every probe chain unbroken without tombstones.
  for (size_t j = (i + 1) & mask_; index_[j] != kNoEntry; j = (j + 1) & mask_) {
    size_t h = home(entry_lpn(index_[j]));
    bool movable = (j > i) ? (h <= i || h > j) : (h <= i && h > j);
    if (movable) {
      index_[i] = index_[j];
      i = j;
    }
  }
  index_[i] = kNoEntry;
}

bool WriteBuffer::write(uint32_t lpn, uint32_t version, uint64_t now_ps, uint32_t stream) {
  // One probe serves the lookup and the new copy's entry: the older copy's entry (then in flight), else the empty
  // position the probe ended at.
  size_t at = probe(lpn);
  uint32_t s = index_[at] == kNoEntry ? kInvalid : uint32_t(index_[at]);
  uint64_t seq = next_seq_++;
  if (s != kInvalid && slots_[s].state == Dirty) {
    if (slots_[s].stream == stream) {  // absorbed: the slot keeps its older write's place for the barriers
      slots_[s].version = version;
      policy_->on_overwrite(s, lpn);
      return true;
    }
    seq = seq_[s];  // the new copy carries the older write's place (its barriers wait for the new copy)
    seq_[s] = ~uint64_t(0);  // (not settled by the drop)
    drop(s);  // rewritten to another stream: the new copy joins that stream's FIFO
    ++requeued_;
    at = probe(lpn);  // (the drop took the entry out)
  }
  if (free_.empty()) throw std::logic_error("write buffer: write without a free slot");
  // An older copy still there is being flushed: the new one supersedes it in its entry.
  uint32_t n = free_.back();
  free_.pop_back();
  slots_[n] = Slot{lpn, version, Dirty, uint8_t(stream)};
  seq_[n] = seq;
  index_[at] = entry(lpn, n);
  ++dirty_;
  if (streams_ == 1) {
    policy_->on_dirty(n, lpn, now_ps);
  } else {
    next_[n] = kInvalid;
    time_[n] = now_ps;
    if (tail_[stream] == kInvalid) head_t_[stream] = now_ps;
    (tail_[stream] == kInvalid ? head_[stream] : next_[tail_[stream]]) = n;
    tail_[stream] = n;
    if (sdirty_[stream]++ == 0) nonempty_ |= uint64_t(1) << stream;
  }
  return false;
}

void WriteBuffer::settle(uint32_t slot) {
  const uint64_t seq = seq_[slot];
  seq_[slot] = ~uint64_t(0);
  for (size_t i = barriers_.size(); i-- > 0 && barriers_[i].seq >= seq;) --barriers_[i].left;
}

uint64_t WriteBuffer::add_barrier() {
  uint32_t left = 0;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].state == Dirty || slots_[i].state == InFlight) {
      if (seq_[i] == ~uint64_t(0)) continue;  // (a settled in-flight copy: none such; kept for safety)
      ++left;
    }
  }
  barriers_.push_back(Barrier{next_seq_ - 1, left, next_barrier_});
  return next_barrier_++;
}

void WriteBuffer::drop(uint32_t slot) {
  Slot& sl = slots_[slot];
  if (!barriers_.empty()) settle(slot);
  else seq_[slot] = ~uint64_t(0);
  index_erase(sl.lpn);
  sl.state = Dropped;  // the policy (or the stream FIFO) still holds it; take() frees it
  --dirty_;
  if (streams_ > 1) {
    if (--sdirty_[sl.stream] == 0) nonempty_ &= ~(uint64_t(1) << sl.stream);
    if (head_[sl.stream] == slot) free_dropped_heads(sl.stream);  // keeps head_t_ the oldest live arrival
  }
}

void WriteBuffer::pop_head(uint32_t stream) {
  const uint32_t h = head_[stream];
  head_[stream] = next_[h];
  if (head_[stream] == kInvalid) {
    tail_[stream] = kInvalid;
    head_t_[stream] = ~uint64_t(0);
  } else if (slots_[head_[stream]].state != Dropped) {
    head_t_[stream] = time_[head_[stream]];
  }
}

void WriteBuffer::free_dropped_heads(uint32_t stream) {
  for (uint32_t h; (h = head_[stream]) != kInvalid && slots_[h].state == Dropped;) {
    pop_head(stream);
    slots_[h].state = Free;
    free_.push_back(h);
  }
}

uint32_t WriteBuffer::flush_stream(uint64_t now_ps, uint32_t page_units, uint64_t max_age_ps, bool forced,
                                   uint64_t allowed) {
  if (streams_ == 1) return dirty_ >= page_units || (forced && dirty_ > 0) ? 0 : kInvalid;
  uint32_t best = kInvalid, largest = kInvalid;
  uint64_t best_time = ~uint64_t(0);
  bool best_aged = false;
  for (uint64_t bits = nonempty_ & allowed; bits; bits &= bits - 1) {  // the allowed streams with dirty units
    const uint32_t s = uint32_t(__builtin_ctzll(bits));
    const uint64_t t = head_t_[s];
    const bool aged = now_ps > t && now_ps - t > max_age_ps;
    if ((sdirty_[s] >= page_units || aged) && t < best_time) {
      best = s;
      best_time = t;
      best_aged = sdirty_[s] < page_units;
    }
    if (largest == kInvalid || sdirty_[s] > sdirty_[largest]) largest = s;
  }
  if (best == kInvalid && forced) return largest;
  aged_ += best_aged;
  return best;
}

bool WriteBuffer::lookup(uint32_t lpn, uint32_t* version) const {
  uint32_t s = find(lpn);
  if (s == kInvalid) return false;
  *version = slots_[s].version;
  return true;
}

uint32_t WriteBuffer::take(uint32_t stream, uint32_t* lpn, uint32_t* version, uint64_t now_ps) {
  for (;;) {
    uint32_t s;
    if (streams_ == 1) {
      s = policy_->pop(now_ps);
    } else {
      s = head_[stream];
      if (s != kInvalid) pop_head(stream);
    }
    if (s == kInvalid) return kInvalid;
    Slot& sl = slots_[s];
    if (sl.state == Dropped) {  // trimmed (or moved to another stream) while dirty: nothing to flush
      sl.state = Free;
      free_.push_back(s);
      continue;
    }
    sl.state = InFlight;
    --dirty_;
    if (streams_ > 1) {
      if (--sdirty_[stream] == 0) nonempty_ &= ~(uint64_t(1) << stream);
      free_dropped_heads(stream);
    }
    *lpn = sl.lpn;
    *version = sl.version;
    return s;
  }
}

void WriteBuffer::release(uint32_t slot) {
  Slot& sl = slots_[slot];
  if (!barriers_.empty()) settle(slot);
  const size_t i = probe(sl.lpn);
  if (index_[i] != kNoEntry && uint32_t(index_[i]) == slot) index_erase_at(i);  // not superseded by a newer copy
  sl.state = Free;
  free_.push_back(slot);
}

void WriteBuffer::discard(uint32_t lpn) {
  uint32_t s = find(lpn);
  if (s == kInvalid) return;
  if (slots_[s].state == Dirty)
    drop(s);
  else
    index_erase(lpn);
}

void WriteBuffer::reclaim_dropped(uint64_t now_ps) {
  std::vector<uint32_t> keep;
  if (streams_ == 1) {
    for (uint32_t s; (s = policy_->pop(now_ps)) != kInvalid;) {
      if (slots_[s].state == Dropped) {
        slots_[s].state = Free;
        free_.push_back(s);
      } else {
        keep.push_back(s);
      }
    }
    for (uint32_t s : keep) policy_->on_dirty(s, slots_[s].lpn, now_ps);
    return;
  }
  for (uint32_t st = 0; st < streams_; ++st) {
    keep.clear();
    for (uint32_t s = head_[st]; s != kInvalid; s = next_[s]) {
      if (slots_[s].state == Dropped) {
        slots_[s].state = Free;
        free_.push_back(s);
      } else {
        keep.push_back(s);
      }
    }
    head_[st] = tail_[st] = kInvalid;
    head_t_[st] = ~uint64_t(0);
    for (uint32_t s : keep) {
      next_[s] = kInvalid;
      (tail_[st] == kInvalid ? head_[st] : next_[tail_[st]]) = s;
      tail_[st] = s;
    }
    if (!keep.empty()) head_t_[st] = time_[keep.front()];
  }
}

}  // namespace ssdtlm
