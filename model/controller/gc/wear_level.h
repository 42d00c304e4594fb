// Static wear levelling (ftl.wear_level_spread): every block's erase count, ordered per die, so that a die's
// erase-count spread (its most-erased block's count minus its least-erased block's) and its least-erased
// blocks are known in O(log n) per erase. When the spread exceeds the threshold, the GC engine relocates the
// data of the die's least-erased full block in the background (GcVictims::pick_victim): cold data that sits on a
// young block moves to the GC frontier, and the block returns to the free pool to take hot data. Plain C++,
// no SystemC; one instance per drive, owned by PageFtl; dies are independent (fast-forward workers).
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "flash/geometry.h"

namespace ssdtlm {

class SnapshotArchive;

class WearLevel {
 public:
  // Least-erased blocks looked at per decision: free or open ones are skipped (they take data soon anyway).
  static constexpr uint32_t kScan = 8;

  WearLevel(const Geometry& g, uint32_t spread);
  uint32_t threshold() const { return spread_; }
  // A block that takes no part (a static SLC block: it cycles as the cache, wears as SLC, holds no cold data).
  void exclude(uint32_t gblock);
  // A block's erase landed.
  void erased(uint32_t gblock);
  uint32_t erases(uint32_t gblock) const { return count_[gblock]; }
  uint32_t max_erases(uint32_t die) const { return max_[die]; }
  uint32_t min_erases(uint32_t die) const { return order_[die].empty() ? max_[die] : order_[die].begin()->first; }
  uint32_t spread(uint32_t die) const { return max_[die] - min_erases(die); }
  // The die's least-erased block that `eligible` accepts (a full data block) among its kScan least-erased ones,
  // while its count is more than the threshold below the die's maximum; kInvalid if none.
  template <class Eligible>
  uint32_t candidate(uint32_t die, Eligible&& eligible) const {
    if (spread(die) <= spread_) return kInvalid;
    uint32_t n = 0;
    for (auto it = order_[die].begin(); it != order_[die].end() && n < kScan; ++it, ++n) {
      if (max_[die] - it->first <= spread_) break;
      if (eligible(it->second)) return it->second;
    }
    return kInvalid;
  }
  // The block was taken as a wear-levelling victim.
  void relocating(uint32_t die, uint32_t gblock) {
    ++relocated_[die];
    victim_[die] = gblock;
  }
  bool is_victim(uint32_t die, uint32_t gblock) const { return victim_[die] == gblock; }
  uint64_t relocated_blocks() const;  // since the start or reset_counters (the measured run)
  void reset_counters() { std::fill(relocated_.begin(), relocated_.end(), 0); }
  // Saves or loads the erase counts and their order (controller/snapshot).
  void snapshot(SnapshotArchive& a);
  uint32_t max_spread() const;  // over dies
  nlohmann::json report() const;  // summary.json "wear_level"

 private:
  const Geometry& g_;
  uint32_t spread_;
  std::vector<uint32_t> count_;                                  // per block: erases in this run
  std::vector<uint8_t> excluded_;                                // per block
  std::vector<std::set<std::pair<uint32_t, uint32_t>>> order_;  // per die: (erases, block), least first
  std::vector<uint32_t> max_;                                    // per die: the most erases of a block
  std::vector<uint64_t> relocated_;                              // per die: wear-levelling victims
  std::vector<uint32_t> victim_;                                 // per die: the last one
};

}  // namespace ssdtlm
