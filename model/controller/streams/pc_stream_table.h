// PCStream's PC-stream table (streams.pc_table_bytes): what the host remembers about program contexts
// across process restarts, bounded in bytes, least recently used entry evicted. Plain C++.
//
// One entry is kEntryBytes = 32 bytes, laid out as a kernel would keep it:
//   PC signature 4 B, lifetime estimate (mean log2 lifetime, float) 4 B, sample count 4 B, recent write
//   volume (4 KiB units, halved at each re-clustering) 4 B, stream 1 B, flags 1 B, padding 2 B,
//   LRU links (previous, next) 2 x 4 B, hash-chain link 4 B. The LRU links are kept beside the entries, in
//   an LruList (controller/mapping/lru_list.h) over the entry slots.
// The table holds at most bytes / 32 entries (0 bytes: no table); its hash heads (4 B per power-of-two
// bucket, at least one per entry) come on top and are counted in memory_bytes().
// "Use" for the LRU order: a lookup that hits (a write whose PC its process has not estimated yet) and an
// insert or update (a process exits, or a re-clustering refreshes a remembered PC). Crediting a lifetime to
// an entry is not a use.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "controller/mapping/lru_list.h"

namespace ssdtlm {

class PcStreamTable {
 public:
  static constexpr uint32_t kEntryBytes = 32;
  static constexpr uint32_t kNone = ~uint32_t(0);
  struct Entry {
    uint32_t pc = 0;
    float mean_log2 = 0;   // lifetime estimate
    uint32_t samples = 0;  // lifetimes credited (saturating)
    uint32_t writes = 0;   // recent write volume, the PC's weight in the clustering
    uint8_t stream = 0;
    uint8_t flags = 0;
    uint16_t pad = 0;
    uint32_t chain = kNone;  // next entry of its hash bucket
  };
  static_assert(sizeof(Entry) + 2 * sizeof(uint32_t) == kEntryBytes, "the documented entry size, with its LRU links");

  explicit PcStreamTable(uint64_t bytes);

  uint32_t capacity() const { return capacity_; }
  uint32_t size() const { return size_; }
  uint64_t bytes() const { return uint64_t(size_) * kEntryBytes; }
  // The entry of pc or nullptr; `touch` makes it the most recently used.
  Entry* find(uint32_t pc, bool touch);
  // The entry of pc, made the most recently used; a new one (zeroed but for pc) if absent, evicting the least
  // recently used entry when full. nullptr with no table (capacity 0).
  Entry* upsert(uint32_t pc);
  uint64_t evictions() const { return evictions_; }
  // Empties the table (its capacity stays; not counted as evictions).
  void clear();
  // Entries from the most to the least recently used (tests, statistics).
  std::vector<uint32_t> pcs_by_recency() const;
  // Every entry in slot order (deterministic): f(Entry&).
  template <class F>
  void for_each(F f) {
    for (uint32_t i = 0; i < size_; ++i) f(e_[i]);
  }
  template <class F>
  void for_each(F f) const {
    for (uint32_t i = 0; i < size_; ++i) f(e_[i]);
  }
  size_t memory_bytes() const { return e_.capacity() * sizeof(Entry) + heads_.capacity() * 4 + lru_.memory_bytes(); }

 private:
  uint32_t bucket(uint32_t pc) const { return uint32_t((pc * 0x9E3779B1u) >> shift_); }
  void unlink_chain(uint32_t i);

  uint32_t capacity_, size_ = 0, shift_ = 32;
  std::vector<Entry> e_;
  std::vector<uint32_t> heads_;
  LruList lru_;  // over entry slots, front = most recently used
  uint64_t evictions_ = 0;
};

}  // namespace ssdtlm
