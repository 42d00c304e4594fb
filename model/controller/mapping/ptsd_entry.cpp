// ftl.mapping=ptsd_entry (seed 001, section III-C): PTSD's clean area of whole segments, and a dirty
// area of individual dirty entries grouped by segment, so an update is recorded without loading its
// segment. An entry record costs 2 x map.entry_bytes (the logical address and the new physical one).
// When the dirty area is full, a victim segment (map.dirty_victim, a registered DirtyOrder: dirty_order.h) is
// batch-updated: read from flash if the clean area does not hold it, merged with its dirty entries and written back
// in one program. Reads see dirty entries: a read whose entries are all dirty, or whose segment is in the clean
// area, hits.
#include <algorithm>

#include "controller/mapping/dirty_order.h"
#include "controller/mapping/lru_list.h"
#include "controller/snapshot/snapshot_archive.h"
#include "controller/mapping/map_cache.h"

namespace ssdtlm {
namespace {

class PtsdEntry : public MapCache {
 public:
  explicit PtsdEntry(const MapCacheParams& p)
      : MapCache(p), clean_(segments_), order_(make_dirty_order(p.dirty_victim, segments_, eps_)) {
    const uint64_t bytes = p.cache_bytes ? p.cache_bytes : p.map_bytes();
    clean_cap_ = uint32_t(p.cache_segments() * p.clean_fraction);
    dirty_cap_ = std::max<uint64_t>(1, uint64_t(double(bytes) * (1.0 - p.clean_fraction)) / (2 * p.entry_bytes));
    stats_.clean.capacity = clean_cap_;
    stats_.dirty.capacity = dirty_cap_;
  }

  void read(uint32_t seg, uint32_t first, uint32_t n, MapAccess& a) override {
    if (clean_.contains(seg)) {
      count_lookup(true, true, a);
      ++stats_.clean.hits;
      clean_.touch(seg);
      return;
    }
    if (dirty_count(seg) >= n && all_dirty(first, n)) {
      count_lookup(true, true, a);
      ++stats_.dirty.hits;
      return;
    }
    count_lookup(true, false, a);
    load_into(clean_, clean_cap_, stats_.clean, seg, a);
  }

  void write(uint32_t seg, const uint32_t* lpns, uint32_t n, MapAccess& a) override {
    // Recorded in the dirty area without a load: never a miss.
    count_lookup(false, true, a);
    const uint32_t before = dirty_count(seg);
    if (clean_.contains(seg)) {
      ++stats_.clean.hits;
      clean_.touch(seg);  // its copy is patched too; it stays clean (flash copy + dirty entries = truth)
    } else if (before) {
      ++stats_.dirty.hits;
    }
    mark_dirty(lpns, n);
    const uint32_t after = dirty_count(seg);
    stats_.dirty.insertions += after - before;
    order_->updated(seg, before, after);
    if (dirty_entries() > dirty_cap_) batch_update(a);
  }

  uint32_t dirty_segments() const override { return order_->segments(); }
  bool partitioned() const override { return true; }
  bool write_needs_segment() const override { return false; }
  size_t memory_bytes() const override {
    return MapCache::memory_bytes() + clean_.memory_bytes() + order_->memory_bytes();
  }

 private:
  bool all_dirty(uint32_t first, uint32_t n) const;

  void batch_update(MapAccess& a) {
    const uint32_t victim = order_->take_victim();
    ++stats_.dirty_evictions;
    stats_.dirty.evictions += dirty_count(victim);
    if (!clean_.contains(victim)) {
      a.merge = victim;
      ++stats_.loads;
    }
    write_back(victim, a);
  }

  void snapshot_scheme(SnapshotArchive& a) override {
    a.io_all(clean_, clean_cap_, dirty_cap_);
    order_->snapshot(a);
  }

  LruList clean_;
  std::unique_ptr<DirtyOrder> order_;  // the dirty area's segments, in the order they give way
  uint32_t clean_cap_ = 0;
  uint64_t dirty_cap_ = 0;   // entries
};

bool PtsdEntry::all_dirty(uint32_t first, uint32_t n) const {
  // A segment's dirty entries cover the lookup only if every entry asked for is dirty.
  for (uint32_t i = 0; i < n; ++i)
    if (!is_dirty(first + i)) return false;
  return true;
}

}  // namespace

std::unique_ptr<MapCache> make_ptsd_entry_cache(const MapCacheParams& p) { return std::make_unique<PtsdEntry>(p); }

}  // namespace ssdtlm
