// ftl.mapping=ptsd (seed 001, section III-A): the cache is split into a clean area and a dirty area,
// each with its own LRU list (map.clean_fraction of the segments for the clean area).
// - A read hit in either area is served; a read miss loads the segment into the clean area, evicting
//   only the clean area's LRU segment: a read never waits for a map write.
// - A write hit in the dirty area updates it. A write that hits a clean segment moves it to the dirty
//   area; a write miss loads the segment into the dirty area. Either way, a full dirty area first writes
//   back its LRU segment (with the next-oldest dirty segments, up to one flash page), on the path of the
//   write. Written-back segments other than the victim are clean: they move to the clean area if it has
//   room, else they leave the cache.
#include "controller/mapping/lru_list.h"
#include "controller/snapshot/snapshot_archive.h"
#include "controller/mapping/map_cache.h"

namespace ssdtlm {
namespace {

class Ptsd : public MapCache {
 public:
  explicit Ptsd(const MapCacheParams& p) : MapCache(p), clean_(segments_), dirty_(segments_) {
    const uint32_t c = p.cache_segments();
    clean_cap_ = uint32_t(c * p.clean_fraction);
    dirty_cap_ = c - clean_cap_;
    stats_.clean.capacity = clean_cap_;
    stats_.dirty.capacity = dirty_cap_;
  }

  void read(uint32_t seg, uint32_t, uint32_t, MapAccess& a) override {
    if (dirty_.contains(seg)) {
      count_lookup(true, true, a);
      ++stats_.dirty.hits;
      dirty_.touch(seg);
    } else if (clean_.contains(seg)) {
      count_lookup(true, true, a);
      ++stats_.clean.hits;
      clean_.touch(seg);
    } else {
      count_lookup(true, false, a);
      load_into(clean_, clean_cap_, stats_.clean, seg, a);
    }
  }

  void write(uint32_t seg, const uint32_t* lpns, uint32_t n, MapAccess& a) override {
    if (dirty_.contains(seg)) {
      count_lookup(false, true, a);
      ++stats_.dirty.hits;
      dirty_.touch(seg);
    } else {
      const bool in_clean = clean_.contains(seg);
      count_lookup(false, in_clean, a);
      if (in_clean) {
        ++stats_.clean.hits;
        clean_.remove(seg);
      } else {
        a.load = seg;
        ++stats_.loads;
      }
      if (dirty_.size() >= dirty_cap_) evict(a);
      dirty_.push_front(seg);
      ++stats_.dirty.insertions;
    }
    mark_dirty(lpns, n);
  }

  uint32_t dirty_segments() const override { return dirty_.size(); }
  bool partitioned() const override { return true; }
  size_t memory_bytes() const override { return MapCache::memory_bytes() + clean_.memory_bytes() + dirty_.memory_bytes(); }

 private:
  // Batch update (map.gc_update=victim): a cached segment takes the moves in DRAM, as a write does (a clean
  // one moves to the dirty area: the clean area holds clean segments only); an uncached one is read, merged
  // and written back without entering the cache.
  void gc_update(uint32_t seg, const uint32_t* lpns, uint32_t n, MapAccess& a) override {
    if (dirty_.contains(seg) || clean_.contains(seg)) return write(seg, lpns, n, a);
    update_on_flash(seg, n, a);
  }

  void evict(MapAccess& a) {
    const uint32_t victim = dirty_.back();
    dirty_.remove(victim);
    ++stats_.dirty.evictions;
    write_back_gathered(victim, dirty_, a, [this](uint32_t s) {
      if (clean_.size() < clean_cap_) {  // gathered segments are clean now: to the clean area if it has room
        clean_.push_back(s);
        ++stats_.clean.insertions;
      }
    });
  }

  void snapshot_scheme(SnapshotArchive& a) override { a.io_all(clean_, dirty_, clean_cap_, dirty_cap_); }

  LruList clean_, dirty_;
  uint32_t clean_cap_ = 0, dirty_cap_ = 0;
};

}  // namespace

std::unique_ptr<MapCache> make_ptsd_cache(const MapCacheParams& p) { return std::make_unique<Ptsd>(p); }

}  // namespace ssdtlm
