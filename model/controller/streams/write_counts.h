// Host-write count per logical 4 KiB unit (seed 004's write_lpn_access_cnt): 4 bytes per logical page,
// saturating at 2^32 - 1. Kept only when something classifies by it (streams.assign=hotcold,
// streams.gc_stream=hotcold). Plain C++.
#pragma once
#include <cstdint>
#include <vector>

namespace ssdtlm {

class WriteCounts {
 public:
  explicit WriteCounts(uint64_t logical_units = 0) : n_(logical_units, 0) {}
  uint32_t operator[](uint32_t lpn) const { return n_[lpn]; }
  void add(uint32_t lpn) {
    uint32_t& c = n_[lpn];
    c += c != ~uint32_t(0);
  }
  void prefetch(uint32_t lpn) const { __builtin_prefetch(&n_[lpn], 1); }
  uint64_t size() const { return n_.size(); }
  size_t memory_bytes() const { return n_.capacity() * 4; }
  static uint64_t memory_estimate(uint64_t logical_units) { return logical_units * 4; }
  // Saves or loads the counts (controller/snapshot: SnapshotArchive).
  template <class Archive>
  void snapshot(Archive& a) {
    a.io(n_);
  }

 private:
  std::vector<uint32_t> n_;
};

}  // namespace ssdtlm
