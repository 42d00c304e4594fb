// cache: a flash cache in the style of CacheLib's Navy (Berg et al., OSDI 2020; Allison et al., EuroSys 2025),
// on the file layer. docs/reference/apps.md and docs/reference/placement.md have the parameters, their defaults and why.
//
// The cache takes cache_fraction of the logical capacity (the device utilization the study sweeps; the rest is
// never written: host over-provisioning), split in two engines, each a file written whole before the run:
// - small-object cache (SOC, CacheLib's BigHash): cache_soc_fraction of the cache in 4 KiB buckets; inserting a
//   small object reads its bucket (a hash of the key: uniform) and rewrites it in place, a random 4 KiB write
//   (PC soc, hint 1);
// - large-object cache (LOC, BlockCache): the rest in regions of cache_region_bytes; large objects fill an
//   in-memory region buffer, written sequentially in max_io pieces when full (PC loc, hint 2) into the region
//   reclaimed next: the oldest written (FIFO) or the least recently read (LRU, cache_eviction=lru). An evicted
//   region is overwritten, not trimmed (Navy does not discard).
// cache_soc_write_share of the bytes inserted go to the SOC; gets read cache_reads_per_write 4 KiB per 4 KiB
// inserted, in the SOC with that share, else in a random LOC region (which an LRU then counts as used).
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "workload/apps/app_model.h"

namespace ssdtlm {

struct CacheStats {
  uint64_t soc_inserts = 0, soc_units = 0, loc_units = 0, regions_written = 0, reads = 0;
};

class CacheApp : public AppModel {
 public:
  static constexpr uint32_t kPcSoc = 1, kPcLoc = 2;   // offsets from kCachePc
  static constexpr uint16_t kHintSoc = 1, kHintLoc = 2;

  CacheApp(AppIo& io, const AppParams& p, uint64_t seed);
  const char* name() const override { return "cache"; }
  bool step() override;
  WorkProgress progress() const override { return {stats_.soc_inserts + stats_.regions_written, 0, "cache inserts"}; }
  uint64_t footprint_units() const override { return soc_units_ + regions_ * region_units_; }

  const CacheStats& stats() const { return stats_; }
  uint64_t soc_buckets() const { return soc_units_; }
  uint64_t regions() const { return regions_; }
  uint64_t region_units() const { return region_units_; }
  FileId soc_file() const { return soc_; }
  FileId loc_file() const { return loc_; }

 private:
  void soc_insert();
  void loc_chunk();
  void random_get();
  uint64_t next_region();
  WriteOrigin origin(uint32_t pc, uint16_t hint) const { return {kCachePc + pc, hint, proc_, slot_}; }

  AppIo& io_;
  AppParams p_;
  Rng rng_;
  uint64_t soc_units_ = 0, region_units_ = 1, regions_ = 0;
  FileId soc_ = 0, loc_ = 0;
  uint64_t region_ = 0, region_off_ = 0;       // the region being written and how far
  uint64_t fifo_next_ = 0;
  uint64_t clock_ = 0;                         // LRU: access counter
  std::vector<uint64_t> last_use_;             // per region: its last access
  std::map<std::pair<uint64_t, uint64_t>, bool> lru_;  // (last use, region) of regions not being written
  double soc_bytes_ = 0, loc_bytes_ = 0, read_credit_ = 0;
  uint32_t proc_;
  uint16_t slot_;
  CacheStats stats_;
};

}  // namespace ssdtlm
