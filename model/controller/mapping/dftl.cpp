// ftl.mapping=dftl (Gupta et al., ASPLOS'09): a segment-granular cached mapping table with one LRU
// list. A miss loads the segment; when the cache is full the LRU segment is evicted, and a dirty victim
// is written back first, on the path of the access that caused the miss. The write-back program carries
// the victim plus the oldest other dirty segments, up to one flash page (they stay cached, now clean).
// GC moves (map.gc_update=victim): DFTL's batch update, see gc_update.
#include "controller/mapping/lru_list.h"
#include "controller/snapshot/snapshot_archive.h"
#include "controller/mapping/map_cache.h"

namespace ssdtlm {
namespace {

class Dftl : public MapCache {
 public:
  explicit Dftl(const MapCacheParams& p)
      : MapCache(p), cap_(p.cache_segments()), lru_(segments_), dirty_(segments_) {
    stats_.clean.capacity = cap_;
  }

  void read(uint32_t seg, uint32_t, uint32_t, MapAccess& a) override { access(seg, nullptr, 0, true, a); }
  void write(uint32_t seg, const uint32_t* lpns, uint32_t n, MapAccess& a) override {
    access(seg, lpns, n, false, a);
  }
  uint32_t dirty_segments() const override { return dirty_.size(); }
  size_t memory_bytes() const override { return MapCache::memory_bytes() + lru_.memory_bytes() + dirty_.memory_bytes(); }

 private:
  // Batch update (map.gc_update=victim): a cached segment takes the moves in DRAM (dirty, written back when
  // evicted); its LRU position is left alone (GC is not a reference). Uncached: read, merged, written back.
  void gc_update(uint32_t seg, const uint32_t* lpns, uint32_t n, MapAccess& a) override {
    if (!lru_.contains(seg)) return update_on_flash(seg, n, a);
    count_lookup(false, true, a);
    ++stats_.clean.hits;
    mark_dirty(lpns, n);
    if (dirty_.contains(seg)) dirty_.touch(seg);
    else dirty_.push_front(seg);
  }

  void access(uint32_t seg, const uint32_t* lpns, uint32_t n, bool is_read, MapAccess& a) {
    const bool hit = lru_.contains(seg);
    count_lookup(is_read, hit, a);
    if (hit) {
      ++stats_.clean.hits;
      lru_.touch(seg);
    } else {
      if (lru_.size() >= cap_) evict(a);
      lru_.push_front(seg);
      ++stats_.clean.insertions;
      a.load = seg;
      ++stats_.loads;
    }
    if (!is_read && n) {
      mark_dirty(lpns, n);
      if (dirty_.contains(seg)) dirty_.touch(seg);
      else dirty_.push_front(seg);
    }
  }

  void evict(MapAccess& a) {
    const uint32_t victim = lru_.back();
    lru_.remove(victim);
    ++stats_.clean.evictions;
    if (!dirty_.contains(victim)) return;
    dirty_.remove(victim);
    write_back_gathered(victim, dirty_, a, [](uint32_t) {});  // the gathered ones stay cached, clean
  }

  void snapshot_scheme(SnapshotArchive& a) override { a.io_all(cap_, lru_, dirty_); }

  uint32_t cap_;
  LruList lru_;    // cached segments
  LruList dirty_;  // cached dirty segments, by last update
};

}  // namespace

std::unique_ptr<MapCache> make_dftl_cache(const MapCacheParams& p) { return std::make_unique<Dftl>(p); }

}  // namespace ssdtlm
