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
  uint32_t peek(uint32_t k) const override {
    const size_t n = ring_.size(), queued = tail_ >= head_ ? tail_ - head_ : tail_ + n - head_;
    if (k >= queued) return kNoPeek;
    const size_t i = head_ + k;
    return ring_[i >= n ? i - n : i];
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
