// Translation pages on flash: the global translation directory (GTD, in SRAM) locating every map
// segment, the map pages segments are packed into (segments_per_page() to a flash page, written
// through the map frontier of a die), and the per-block records map GC needs. Plain C++.
//
// A map block's valid count in the block manager is kept in 4 KiB-unit equivalents,
// ceil(valid segments x units_per_page / segments_per_page), so one greedy victim choice weighs data
// and map blocks alike; the count is 0 exactly when no segment in the block is live.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "controller/block_manager.h"
#include "flash/geometry.h"

namespace ssdtlm {

class SnapshotArchive;

class TranslationStore {
 public:
  static constexpr uint64_t kNowhere = ~uint64_t(0);

  TranslationStore(const Geometry& g, BlockManager& blocks, uint32_t segments, uint32_t segment_bytes);

  uint32_t segments_per_page() const { return k_; }
  uint32_t segments() const { return uint32_t(gtd_.size()); }
  uint32_t segment_bytes() const { return segment_bytes_; }
  // Where segment seg lives on flash, kNowhere if it was never written (all its entries unmapped).
  uint64_t where(uint32_t seg) const { return gtd_[seg]; }
  static uint32_t page_ppa(uint64_t loc) { return uint32_t(loc >> 8); }
  // One 4-byte flash address per segment.
  uint64_t gtd_bytes() const { return uint64_t(gtd_.size()) * 4; }

  // May die take a map page now and still leave `reserve` free blocks?
  bool can_place(uint32_t die, uint32_t reserve) const {
    return blocks_.can_allocate(die, blocks_.layout().map_frontier(), reserve);
  }
  // The die to take the next map page: the next one round robin that keeps the free blocks its own GC
  // needs (BlockManager::gc_reserve); kInvalid if none does.
  uint32_t pick_die();
  // Allocates die's next map page and points segs[0..n) at it (the old copies become invalid).
  // Returns the page's ppa (slot 0); the caller programs it and calls blocks().page_done when it lands.
  uint32_t place(uint32_t die, const uint32_t* segs, uint32_t n);
  // GC: like place, for those segs[i] still at olds[i]; the others are left out (*moved counts the rest).
  uint32_t relocate(uint32_t die, const uint32_t* segs, const uint64_t* olds, uint32_t n, uint32_t* moved);

  bool is_map_block(uint32_t gblock) const { return records_.count(gblock) != 0; }
  // The live segments of one page of a map block, with their locations; returns how many.
  uint32_t live_in_page(uint32_t gblock, uint32_t page, uint32_t* segs, uint64_t* locs) const;
  void erased(uint32_t gblock) { records_.erase(gblock); }
  size_t memory_bytes() const;
  // Saves or loads the GTD and the map blocks' contents (controller/snapshot).
  void snapshot(SnapshotArchive& a);

 private:
  struct Record {
    std::vector<uint32_t> segs;  // page * k + offset -> segment written there
    uint32_t live = 0;
    template <class Archive>
    void snapshot(Archive& a) {
      a.io_all(segs, live);
    }
  };
  uint64_t loc(uint32_t ppa, uint32_t off) const { return (uint64_t(ppa) << 8) | off; }
  uint32_t units(uint32_t live) const { return (live * g_.units_per_page + k_ - 1) / k_; }
  void drop(uint64_t where);
  void point(uint32_t seg, uint32_t ppa, uint32_t off);

  const Geometry& g_;
  BlockManager& blocks_;
  uint32_t segment_bytes_, k_;
  std::vector<uint64_t> gtd_;
  std::unordered_map<uint32_t, Record> records_;  // map blocks by global block id
  uint32_t cursor_ = 0;
};

}  // namespace ssdtlm
