// FIFO flushing (the "FIFO-SSD" of seed 000): units leave the buffer in the order they first became
// dirty; an overwrite of a dirty unit is absorbed in place and keeps its position.
#include <vector>

#include "controller/buffer/flush_policy.h"
#include "flash/geometry.h"

namespace ssdtlm {
namespace {

class FifoFlush : public FlushPolicy {
 public:
  explicit FifoFlush(uint32_t capacity) : ring_(capacity + 1) {}
  void on_dirty(uint32_t slot, uint32_t, uint64_t) override {
    ring_[tail_] = slot;
    tail_ = tail_ + 1 == ring_.size() ? 0 : tail_ + 1;
  }
  size_t memory_bytes() const override { return ring_.capacity() * 4; }
  void peek(uint32_t k, uint32_t n, uint32_t* slots) const override {
    const size_t size = ring_.size(), queued = tail_ >= head_ ? tail_ - head_ : tail_ + size - head_;
    size_t i = head_ + k;
    if (i >= size) i -= size;
    for (uint32_t j = 0; j < n; ++j) {
      slots[j] = k + j < queued ? ring_[i] : kNoPeek;
      if (++i == size) i = 0;
    }
  }
  uint32_t pop(uint64_t) override {
    if (head_ == tail_) return kInvalid;
    uint32_t s = ring_[head_];
    head_ = head_ + 1 == ring_.size() ? 0 : head_ + 1;
    return s;
  }

 private:
  std::vector<uint32_t> ring_;  // each slot is queued at most once, so capacity + 1 entries suffice
  size_t head_ = 0, tail_ = 0;
};

}  // namespace

std::unique_ptr<FlushPolicy> make_fifo_flush(const FlushContext& c) { return std::make_unique<FifoFlush>(c.capacity_units); }

}  // namespace ssdtlm
