// The DRAM write buffer: capacity in 4 KiB units, an LPN index for read hits and overwrite absorption,
// and a FlushPolicy that orders dirty units. A flushed unit stays in DRAM (and serves reads) until its
// program completes. Plain C++, O(1) per operation (O(streams) to choose a stream), no allocation after
// construction.
//
// Streams (streams.count > 0): each unit keeps the stream of its latest write, and every flash page is
// filled from one stream. Each stream is a FIFO of its own (intrusive list over the slots; the FlushPolicy
// is then not used). An overwrite in the same stream is absorbed in place; one in another stream moves
// the unit to the new stream's tail (the old copy is dropped, like a trimmed one). Which stream flushes
// next (flush_stream): among the streams that have a full page of dirty units, or whose oldest unit is
// older than the age bound, the one whose oldest unit is oldest, so pages leave in arrival order of their
// first unit. A stream with less than a page therefore waits, without padding, until it fills a page or
// its oldest unit reaches the age bound (no starvation); only then, or when no stream has a full page
// and the buffer cannot admit the next write otherwise, is a partial page flushed and padded.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/buffer/buffer_cost.h"
#include "controller/buffer/flush_policy.h"
#include "flash/geometry.h"  // kInvalid

namespace ssdtlm {

class WriteBuffer {
 public:
  // streams > 1: per-stream FIFOs; `policy` is kept for policy() but orders nothing.
  WriteBuffer(uint32_t capacity_units, std::unique_ptr<FlushPolicy> policy, uint32_t streams = 1);

  uint32_t capacity() const { return uint32_t(slots_.size()); }
  uint32_t occupied() const { return capacity() - uint32_t(free_.size()); }
  uint32_t free_units() const { return uint32_t(free_.size()); }
  uint32_t dirty() const { return dirty_; }
  uint32_t streams() const { return streams_; }
  uint32_t dirty(uint32_t stream) const { return streams_ == 1 ? dirty_ : sdirty_[stream]; }
  uint64_t requeued() const { return requeued_; }  // dirty units moved to another stream by an overwrite
  const FlushPolicy& policy() const { return *policy_; }
  // Firmware steps (buffer_cost.h) of one index lookup or insert, and of one insert into or pop from the
  // flush order (per-stream FIFOs: one step), at the buffer's current occupancy.
  uint32_t index_steps() const { return tree_steps(occupied()); }
  uint32_t order_steps() const { return streams_ > 1 ? 1 : policy_->order_steps(); }
  size_t memory_bytes() const {
    return slots_.capacity() * sizeof(Slot) + free_.capacity() * 4 + index_.capacity() * 8 + policy_->memory_bytes() +
           next_.capacity() * 4 + time_.capacity() * 8 + (head_.capacity() + tail_.capacity() + sdirty_.capacity()) * 4;
  }

  // A hint: lpn's index entry will be looked up soon (a command for it is coming).
  void prefetch(uint32_t lpn) const { __builtin_prefetch(&index_[home(lpn)]); }
  // Buffers a write of lpn to `stream`. Returns true if a dirty copy absorbed it (no new slot used).
  // Needs free_units() > 0 unless the write is absorbed.
  bool write(uint32_t lpn, uint32_t version, uint64_t now_ps = 0, uint32_t stream = 0);
  // Newest buffered copy of lpn (dirty or being flushed).
  bool lookup(uint32_t lpn, uint32_t* version) const;
  // Next unit to flush per the policy: marks it in flight and returns its slot (kInvalid if none dirty).
  uint32_t take(uint32_t* lpn, uint32_t* version, uint64_t now_ps = 0) { return take(0, lpn, version, now_ps); }
  // Next unit of `stream` to flush (the policy's choice with one stream).
  uint32_t take(uint32_t stream, uint32_t* lpn, uint32_t* version, uint64_t now_ps);
  // The LPNs of the k-th, (k+1)-th, ... next units take(stream) would return if nothing changed meanwhile (k = 0:
  // the next), into lpns[0, n): kInvalid where unknown. A hint for prefetching what flushing them will touch; nothing
  // may be decided on it.
  void upcoming(uint32_t stream, uint32_t k, uint32_t n, uint32_t* lpns) const {
    if (streams_ == 1) {
      policy_->peek(k, n, lpns);
    } else {
      uint32_t s = head_[stream];
      for (; s != kInvalid && k; --k) s = next_[s];
      for (uint32_t j = 0; j < n; ++j, s = s == kInvalid ? s : next_[s]) lpns[j] = s;
    }
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t s = lpns[j];
      lpns[j] = s < slots_.size() && slots_[s].state == Dirty ? slots_[s].lpn : kInvalid;
    }
  }
  // The stream whose next page should be flushed (see the top of this file), or kInvalid when none should.
  // With one stream: 0 when it holds a page, or when `forced` and it holds any dirty unit.
  // `allowed`: a bit set over the streams that may be chosen (the others are ignored).
  uint32_t flush_stream(uint64_t now_ps, uint32_t page_units, uint64_t max_age_ps, bool forced,
                        uint64_t allowed = ~uint64_t(0));
  // Pages chosen by flush_stream for their age (streams > 1).
  uint64_t aged_pages() const { return aged_; }
  // The program holding `slot` finished: the slot is free again.
  void release(uint32_t slot);
  // Drops a dirty or in-flight copy of lpn from the index (TRIM); in-flight data still completes.
  void discard(uint32_t lpn);
  // NVMe Flush against a volatile write cache: a barrier over every unit buffered now (dirty, or being programmed).
  // It is settled once each of them is on flash (its program released the slot) or need not be (trimmed, or
  // superseded by a newer write that then carries the obligation: a unit rewritten into another stream keeps the
  // older write's place). Barriers settle in the order they were made. Returns the barrier's id.
  uint64_t add_barrier();
  // Units the oldest unsettled barrier still waits for, and its id (0 units: settled; no barrier: id 0).
  uint32_t barrier_left(uint64_t* id) const {
    *id = barriers_.empty() ? 0 : barriers_.front().id;
    return barriers_.empty() ? 0 : barriers_.front().left;
  }
  void pop_barrier() { barriers_.erase(barriers_.begin()); }
  size_t barriers() const { return barriers_.size(); }
  // Frees every dropped slot now, instead of when the flush order reaches it (after a power loss has
  // discarded many); the dirty units keep their order (ages restart at now_ps with one stream). O(capacity).
  void reclaim_dropped(uint64_t now_ps);
  // Calls f(lpn, version, dirty, newest) for every buffered copy (dirty, or in flight: dirty = false); newest:
  // the copy reads are served from (an older copy may still be in flight). O(capacity); for power losses.
  template <class F>
  void for_each(F f) const {
    for (uint32_t i = 0; i < slots_.size(); ++i) {
      const Slot& s = slots_[i];
      if (s.state == Dirty || s.state == InFlight) f(s.lpn, s.version, s.state == Dirty, find(s.lpn) == i);
    }
  }

 private:
  enum State : uint8_t { Free, Dirty, InFlight, Dropped };
  struct Slot {
    uint32_t lpn;
    uint32_t version;
    State state;
    uint8_t stream;
  };
  void drop(uint32_t slot);  // a dirty slot leaves the index and its stream's count; its FIFO frees it later
  void settle(uint32_t slot);  // the slot's data is on flash or need not be: the barriers over it count it off
  struct Barrier {
    uint64_t seq;   // the writes it covers: slot sequence numbers up to this
    uint32_t left;  // units it waits for
    uint64_t id;
  };
  void pop_head(uint32_t stream);        // unlinks the head of a stream's FIFO
  void free_dropped_heads(uint32_t stream);
  // The index position of lpn's entry, or the empty position where its probe ends (an insert goes there).
  size_t probe(uint32_t lpn) const {
    size_t i = home(lpn);
    while (index_[i] != kNoEntry && entry_lpn(index_[i]) != lpn) i = (i + 1) & mask_;
    return i;
  }
  uint32_t find(uint32_t lpn) const {  // slot or kInvalid
    const uint64_t e = index_[probe(lpn)];
    return e == kNoEntry ? kInvalid : uint32_t(e);
  }
  void index_erase_at(size_t i);  // removes the entry at position i (probe's)
  void index_erase(uint32_t lpn) {
    const size_t i = probe(lpn);
    if (index_[i] != kNoEntry) index_erase_at(i);
  }
  size_t home(uint32_t lpn) const { return (lpn * 0x9E3779B1u) & mask_; }
  static constexpr uint64_t kNoEntry = ~uint64_t(0);
  static uint64_t entry(uint32_t lpn, uint32_t slot) { return uint64_t(lpn) << 32 | slot; }
  static uint32_t entry_lpn(uint64_t e) { return uint32_t(e >> 32); }

  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;   // stack of free slots
  // Open addressing, linear probing, backward-shift deletion; each entry holds the slot and its LPN, so a probe
  // reads the index alone (kNoEntry: empty).
  std::vector<uint64_t> index_;
  size_t mask_;
  uint32_t dirty_ = 0;
  std::unique_ptr<FlushPolicy> policy_;
  // streams > 1: FIFO per stream over the slots
  uint32_t streams_ = 1;
  std::vector<uint32_t> next_;    // per slot: next slot of its stream's FIFO
  std::vector<uint64_t> time_;    // per slot: when it became dirty
  std::vector<uint32_t> head_, tail_, sdirty_;  // per stream
  std::vector<uint64_t> head_t_;                // per stream: arrival of its head (kept live: a dropped head is freed at once)
  uint64_t nonempty_ = 0;                       // bit set over streams (at most 64): sdirty_ > 0
  uint64_t requeued_ = 0, aged_ = 0;
  // Flush barriers (add_barrier): per slot the sequence number of the oldest write it holds that is not on flash,
  // and the barriers not yet settled, oldest first (empty unless the host sends Flush commands).
  std::vector<uint64_t> seq_;
  uint64_t next_seq_ = 1, next_barrier_ = 1;
  std::vector<Barrier> barriers_;
};

}  // namespace ssdtlm
