#include "controller/buffer/write_buffer.h"

#include <stdexcept>

#include "flash/geometry.h"

namespace ssdtlm {

WriteBuffer::WriteBuffer(uint32_t capacity_units, std::unique_ptr<FlushPolicy> policy)
    : slots_(capacity_units, Slot{kInvalid, 0, Free}), policy_(std::move(policy)) {
  free_.reserve(capacity_units);
  for (uint32_t s = capacity_units; s-- > 0;) free_.push_back(s);
  size_t n = 16;
  while (n < 2 * size_t(capacity_units)) n <<= 1;
  index_.assign(n, kInvalid);
  mask_ = n - 1;
}

uint32_t WriteBuffer::find(uint32_t lpn) const {
  for (size_t i = home(lpn);; i = (i + 1) & mask_) {
    uint32_t s = index_[i];
    if (s == kInvalid) return kInvalid;
    if (slots_[s].lpn == lpn) return s;
  }
}

void WriteBuffer::index_insert(uint32_t slot) {
  size_t i = home(slots_[slot].lpn);
  while (index_[i] != kInvalid) i = (i + 1) & mask_;
  index_[i] = slot;
}

void WriteBuffer::index_erase(uint32_t lpn) {
  size_t i = home(lpn);
  while (index_[i] != kInvalid && slots_[index_[i]].lpn != lpn) i = (i + 1) & mask_;
  if (index_[i] == kInvalid) return;
  // Backward-shift deletion keeps every probe chain unbroken without tombstones.
  for (size_t j = (i + 1) & mask_; index_[j] != kInvalid; j = (j + 1) & mask_) {
    size_t h = home(slots_[index_[j]].lpn);
    bool movable = (j > i) ? (h <= i || h > j) : (h <= i && h > j);
    if (movable) {
      index_[i] = index_[j];
      i = j;
    }
  }
  index_[i] = kInvalid;
}

bool WriteBuffer::write(uint32_t lpn, uint32_t version, uint64_t now_ps) {
  uint32_t s = find(lpn);
  if (s != kInvalid && slots_[s].state == Dirty) {
    slots_[s].version = version;
    policy_->on_overwrite(s, lpn);
    return true;
  }
  if (free_.empty()) throw std::logic_error("write buffer: write without a free slot");
  if (s != kInvalid) index_erase(lpn);  // an older copy is being flushed; the new one supersedes it
  uint32_t n = free_.back();
  free_.pop_back();
  slots_[n] = Slot{lpn, version, Dirty};
  index_insert(n);
  ++dirty_;
  policy_->on_dirty(n, lpn, now_ps);
  return false;
}

bool WriteBuffer::lookup(uint32_t lpn, uint32_t* version) const {
  uint32_t s = find(lpn);
  if (s == kInvalid) return false;
  *version = slots_[s].version;
  return true;
}

uint32_t WriteBuffer::take(uint32_t* lpn, uint32_t* version, uint64_t now_ps) {
  for (;;) {
    uint32_t s = policy_->pop(now_ps);
    if (s == kInvalid) return kInvalid;
    Slot& sl = slots_[s];
    if (sl.state == Dropped) {  // trimmed while dirty: nothing to flush
      sl.state = Free;
      free_.push_back(s);
      continue;
    }
    sl.state = InFlight;
    --dirty_;
    *lpn = sl.lpn;
    *version = sl.version;
    return s;
  }
}

void WriteBuffer::release(uint32_t slot) {
  Slot& sl = slots_[slot];
  if (find(sl.lpn) == slot) index_erase(sl.lpn);
  sl.state = Free;
  free_.push_back(slot);
}

void WriteBuffer::discard(uint32_t lpn) {
  uint32_t s = find(lpn);
  if (s == kInvalid) return;
  index_erase(lpn);
  if (slots_[s].state == Dirty) {
    slots_[s].state = Dropped;  // the policy still holds it; take() frees it
    --dirty_;
  }
}

}  // namespace ssdtlm
