// The SLC cache (slc.*): blocks of a TLC/QLC drive run in SLC mode (one bit per cell: pages_per_block / bits
// pages, SLC program/read/erase times) that take host writes first, and are folded into TLC/QLC blocks later.
// Plain C++, O(1) per operation. The block manager asks it which block a user frontier opens; the GC engine
// folds its full blocks (a fold is a GC collection whose victim is the oldest full SLC block, whose copies go
// to a TLC/QLC GC frontier: one engine for GC and folding, timed and fast-forward alike).
//
// static:  the first ceil(slc.static_bytes / (dies x SLC block bytes)) blocks of every die are SLC for good
//          (taken out of the free pool: they never hold TLC data; their wear is their own);
// dynamic: any free block may be opened in SLC mode while the die keeps enough free blocks to fold every SLC
//          block it holds and still have its GC threshold: free - 1 >= gc_free_blocks + ceil((slc + 1) / bits).
//          The cache so shrinks as valid data fills the drive (an empty TLC drive caches about a quarter of
//          its free space, a nearly full one little more than its over-provisioning allows). With
//          slc.dynamic_max_bytes a die holds at most that share of SLC blocks (the maker's cache size).
// Folding: in the background when the host is idle (no host command waiting in the FTL, no buffer flush
// under way), and in the foreground when the cache is full (no SLC block may be opened): then, with
// slc.when_full=fold, host writes to the die wait for the fold to free an SLC block; with direct they go to
// TLC/QLC blocks directly. GC data and map pages bypass the cache (they go to their own TLC/QLC frontiers).
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <deque>
#include <vector>

#include "flash/geometry.h"

namespace ssdtlm {

struct FlashCounters;

class SnapshotArchive;

enum class SlcMode : uint8_t { None, Static, Dynamic };

struct SlcParams {
  SlcMode mode = SlcMode::None;  // slc.mode
  uint64_t static_bytes = 0;     // slc.static_bytes
  uint64_t dynamic_max_bytes = 0; // slc.dynamic_max_bytes (0: only free space bounds the dynamic cache)
  bool fold_when_full = true;    // slc.when_full = fold (else direct)
  uint32_t bits = 1;             // bits per cell of the native mode (flash.cell)
};

// slc.mode=static: SLC blocks per die that hold slc.static_bytes (rounded up), counted in 64 bits (1 PiB of
// SLC blocks of 8 KiB is 2^37 of them; the configuration refuses more than a die can give).
inline uint64_t slc_static_blocks_per_die(const SlcParams& p, const Geometry& g) {
  if (p.mode != SlcMode::Static) return 0;
  const uint64_t block_bytes = uint64_t(g.pages_per_block / (p.bits ? p.bits : 1)) * g.units_per_page * kUnitBytes * g.dies;
  return block_bytes ? (p.static_bytes + block_bytes - 1) / block_bytes : 0;
}

// slc.mode=dynamic with slc.dynamic_max_bytes: the most SLC blocks a die may hold (rounded up; 0 = no cap).
inline uint64_t slc_dynamic_max_blocks_per_die(const SlcParams& p, const Geometry& g) {
  if (p.mode != SlcMode::Dynamic || p.dynamic_max_bytes == 0) return 0;
  const uint64_t block_bytes = uint64_t(g.pages_per_block / (p.bits ? p.bits : 1)) * g.units_per_page * kUnitBytes * g.dies;
  return block_bytes ? (p.dynamic_max_bytes + block_bytes - 1) / block_bytes : 0;
}

// What the cache counted (the bytes it took, folded and let through are FlashCounters, reset with them).
struct SlcCounters {
  uint64_t folds = 0;  // SLC blocks taken as fold victims
};

class SlcCache {
 public:
  SlcCache(const Geometry& g, const SlcParams& p, uint32_t gc_free_blocks);

  const SlcParams& params() const { return p_; }
  bool dynamic() const { return p_.mode == SlcMode::Dynamic; }
  // Off while the fast-forward preconditions the drive (its writes go to TLC/QLC, as after a long idle fold).
  bool on() const { return on_; }
  void set_on(bool on) { on_ = on; }
  uint32_t slc_pages() const { return slc_pages_; }    // pages of a block in SLC mode
  uint32_t static_blocks() const { return static_; }   // per die (static)
  bool is_slc(uint32_t gblock) const { return slc_[gblock]; }

  // May the die open one more SLC block (free: its free TLC/QLC blocks)?
  bool may_open(uint32_t die, uint32_t free) const {
    if (!on_) return false;
    if (p_.mode == SlcMode::Static) return !static_free_[die].empty();
    if (dynamic_max_ && in_use_[die] >= dynamic_max_) return false;     // the maker's cap (slc.dynamic_max_bytes)
    return free >= 1 + gc_free_ + (in_use_[die] + p_.bits) / p_.bits;  // 1 + G + ceil((in_use + 1) / bits)
  }
  // Static: takes one of the die's free SLC blocks (kInvalid if none). Dynamic: the caller opens a free block
  // and calls opened().
  uint32_t take_static(uint32_t die);
  void opened(uint32_t gblock);
  void closed(uint32_t gblock) { full_[g_.die_of_gblock(gblock)].push_back(gblock); }
  // The erase landed: true if the block goes back to the die's static SLC blocks (not to the free pool).
  bool erased(uint32_t gblock);

  bool has_full(uint32_t die) const { return !full_[die].empty(); }
  uint32_t oldest_full(uint32_t die) const { return full_[die].front(); }
  uint32_t pop_full(uint32_t die) {
    const uint32_t b = full_[die].front();
    full_[die].pop_front();
    ++counters_.folds;
    return b;
  }
  uint32_t in_use(uint32_t die) const { return in_use_[die]; }  // SLC blocks open, full or being folded

  // Host idleness, as the timed FTL sees it (background folding).
  bool idle() const { return idle_; }
  void set_idle(bool idle) { idle_ = idle; }
  // Should the die fold now: it has a full SLC block, and the host is idle, or the cache is full and host writes
  // wait for the fold (slc.when_full=fold). With direct, writes past a full cache go to TLC/QLC and the cache is
  // emptied while the host idles, as Samsung's TurboWrite does (AnandTech 7173: "you need a little bit of idle
  // time for this copy to happen"); GC may still take an SLC block as its victim when it needs room.
  bool fold_wanted(uint32_t die, uint32_t free) const {
    return on_ && has_full(die) && (idle_ || (p_.fold_when_full && !may_open(die, free)));
  }
  // Host writes to the die wait for a fold (slc.when_full=fold, cache full, a full SLC block to fold).
  bool host_waits(uint32_t die, uint32_t free) const {
    return on_ && p_.fold_when_full && has_full(die) && !may_open(die, free);
  }

  SlcCounters& counters() { return counters_; }
  const SlcCounters& counters() const { return counters_; }
  // Saves or loads which blocks run in SLC mode, the full and free SLC blocks (controller/snapshot).
  void snapshot(SnapshotArchive& a);
  // SLC capacity of the cache now, in units: SLC blocks in use plus those the dies may still open.
  uint64_t capacity_units(const std::vector<uint32_t>& free_per_die) const;
  // summary.json "slc": what the cache took, folded and let through (in the FTL's counters f) and its size with
  // the dies' free blocks now.
  nlohmann::json report(const FlashCounters& f, const std::vector<uint32_t>& free_per_die) const;

 private:
  const Geometry& g_;
  SlcParams p_;
  uint32_t gc_free_;
  uint32_t slc_pages_;
  uint32_t static_ = 0;
  uint64_t dynamic_max_ = 0;  // per die, 0 = no cap
  bool on_ = true, idle_ = false;
  std::vector<uint8_t> slc_;                       // per block: in SLC mode
  std::vector<uint32_t> in_use_;                   // per die
  std::vector<std::deque<uint32_t>> full_;         // per die: full SLC blocks, oldest first
  std::vector<std::vector<uint32_t>> static_free_; // per die: erased static SLC blocks
  SlcCounters counters_;
};

}  // namespace ssdtlm
