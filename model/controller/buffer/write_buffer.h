// The DRAM write buffer: capacity in 4 KiB units, an LPN index for read hits and overwrite absorption,
// and a FlushPolicy that orders dirty units. A flushed unit stays in DRAM (and serves reads) until its
// program completes. Plain C++, O(1) per operation, no allocation after construction.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/buffer/flush_policy.h"

namespace ssdtlm {

class WriteBuffer {
 public:
  WriteBuffer(uint32_t capacity_units, std::unique_ptr<FlushPolicy> policy);

  uint32_t capacity() const { return uint32_t(slots_.size()); }
  uint32_t occupied() const { return capacity() - uint32_t(free_.size()); }
  uint32_t free_units() const { return uint32_t(free_.size()); }
  uint32_t dirty() const { return dirty_; }
  const FlushPolicy& policy() const { return *policy_; }
  size_t memory_bytes() const {
    return slots_.capacity() * sizeof(Slot) + free_.capacity() * 4 + index_.capacity() * 4 + policy_->memory_bytes();
  }

  // Buffers a write of lpn. Returns true if a dirty copy absorbed it (no new slot used).
  // Needs free_units() > 0 unless the write is absorbed.
  bool write(uint32_t lpn, uint32_t version, uint64_t now_ps = 0);
  // Newest buffered copy of lpn (dirty or being flushed).
  bool lookup(uint32_t lpn, uint32_t* version) const;
  // Next unit to flush per the policy: marks it in flight and returns its slot (kInvalid if none dirty).
  uint32_t take(uint32_t* lpn, uint32_t* version, uint64_t now_ps = 0);
  // The program holding `slot` finished: the slot is free again.
  void release(uint32_t slot);
  // Drops a dirty or in-flight copy of lpn from the index (TRIM); in-flight data still completes.
  void discard(uint32_t lpn);

 private:
  enum State : uint8_t { Free, Dirty, InFlight, Dropped };
  struct Slot {
    uint32_t lpn;
    uint32_t version;
    State state;
  };
  uint32_t find(uint32_t lpn) const;  // slot or kInvalid
  void index_insert(uint32_t slot);
  void index_erase(uint32_t lpn);
  size_t home(uint32_t lpn) const { return (lpn * 0x9E3779B1u) & mask_; }

  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;   // stack of free slots
  std::vector<uint32_t> index_;  // open addressing, linear probing, backward-shift deletion
  size_t mask_;
  uint32_t dirty_ = 0;
  std::unique_ptr<FlushPolicy> policy_;
};

}  // namespace ssdtlm
