// ftl.mapping=page: the whole map lives in DRAM and every lookup hits. With map.protected_ratio < 1
// (seed 000) only that share of the segments may be dirty at once, the share the capacitors can save:
// the update that would exceed ceil(ratio x segments) first writes back the least recently updated dirty
// segment (MD), with the next-oldest ones up to a flash page. With the whole map protected nothing
// reaches flash and updates cost no bookkeeping.
#include "controller/mapping/lru_list.h"
#include "controller/snapshot/snapshot_archive.h"
#include "controller/mapping/map_cache.h"

namespace ssdtlm {
namespace {

class FullMap : public MapCache {
 public:
  explicit FullMap(const MapCacheParams& p)
      : MapCache(p), limited_(p.protected_ratio < 1.0), limit_(p.dirty_limit()), dirty_(limited_ ? segments_ : 0) {
    stats_.clean.capacity = segments_;
    stats_.dirty.capacity = limit_;
  }
  void read(uint32_t, uint32_t, uint32_t, MapAccess& a) override { count_lookup(true, true, a); }
  void write(uint32_t seg, const uint32_t* lpns, uint32_t n, MapAccess& a) override {
    count_lookup(false, true, a);
    if (!limited_) return;
    if (dirty_.contains(seg)) {
      dirty_.touch(seg);
    } else {
      if (dirty_.size() >= limit_) evict(a);
      dirty_.push_front(seg);
      ++stats_.dirty.insertions;
    }
    mark_dirty(lpns, n);
  }
  uint32_t dirty_segments() const override { return dirty_.size(); }
  uint32_t dirty_budget() const override { return limited_ ? limit_ : segments_; }
  bool write_needs_segment() const override { return false; }
  size_t memory_bytes() const override { return limited_ ? MapCache::memory_bytes() + dirty_.memory_bytes() : 0; }

 private:
  void evict(MapAccess& a) {
    const uint32_t victim = dirty_.back();
    dirty_.remove(victim);
    ++stats_.dirty.evictions;
    write_back_gathered(victim, dirty_, a, [](uint32_t) {});
  }

  void snapshot_scheme(SnapshotArchive& a) override { a.io_all(limited_, limit_, dirty_); }

  bool limited_;
  uint32_t limit_;
  LruList dirty_;  // dirty segments, by last update
};

}  // namespace

std::unique_ptr<MapCache> make_full_map(const MapCacheParams& p) { return std::make_unique<FullMap>(p); }

}  // namespace ssdtlm
