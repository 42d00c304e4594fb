// MapCache's report: summary.json "map": what the map cache did, the GTD, and the map's flash traffic.
#include <nlohmann/json.hpp>

#include "controller/mapping/gc_update.h"
#include "controller/mapping/map_cache.h"
#include "controller/mapping/translation_store.h"

namespace ssdtlm {

nlohmann::json MapCache::report(const TranslationStore* ts, uint64_t segment_reads) const {
  const MapCacheStats& m = stats();
  const MapCacheParams& mp = params();
  auto ratio = [](uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; };
  nlohmann::json j = {{"lookups", m.lookups()},
                      {"hits", m.hits()},
                      {"misses", m.lookups() - m.hits()},
                      {"hit_ratio", m.lookups() ? ratio(m.hits(), m.lookups()) : 1.0},
                      {"read_hits", m.read_hits},
                      {"read_misses", m.read_misses},
                      {"write_hits", m.write_hits},
                      {"write_misses", m.write_misses},
                      {"segment_reads", segment_reads},
                      {"segment_writes", m.segment_writes},
                      {"dirty_evictions", m.dirty_evictions},
                      {"batch_entries_mean", ratio(m.batch_entries, m.segment_writes)},
                      {"gc_update", gc_update_name(GcUpdate{mp.gc_batch, mp.gc_free})},
                      {"gc_segment_updates", m.gc_updates},
                      {"gc_segment_writes", m.gc_segment_writes},
                      {"gtd_bytes", ts ? ts->gtd_bytes() : 0},
                      {"segments", mp.segments()},
                      {"segments_per_page", ts ? ts->segments_per_page() : 0},
                      {"cache_segments", mp.cache_segments()},
                      {"map_bytes", mp.map_bytes()},
                      {"dirty_segments", dirty_segments()},
                      {"dirty_entries", dirty_entries()},
                      {"dirty_limit", mp.protected_ratio < 1.0 ? mp.dirty_limit() : mp.segments()}};
  if (partitioned()) {
    auto area = [](const MapAreaStats& a) {
      return nlohmann::json{{"capacity", a.capacity}, {"hits", a.hits}, {"insertions", a.insertions}, {"evictions", a.evictions}};
    };
    j["clean"] = area(m.clean);
    j["dirty"] = area(m.dirty);
  }
  return j;
}

}  // namespace ssdtlm
