// ftl.mapping=page: the whole map lives in DRAM; every lookup hits and no map data reaches flash.
#include "controller/mapping/map_cache.h"

namespace ssdtlm {
namespace {

class FullMap : public MapCache {
 public:
  explicit FullMap(const MapCacheParams& p) : MapCache(p) { stats_.clean.capacity = segments_; }
  void read(uint32_t, uint32_t, uint32_t, MapAccess& a) override { count_lookup(true, true, a); }
  void write(uint32_t, const uint32_t*, uint32_t, MapAccess& a) override { count_lookup(false, true, a); }
  uint32_t dirty_segments() const override { return 0; }
  bool write_needs_segment() const override { return false; }
  size_t memory_bytes() const override { return 0; }
};

}  // namespace

std::unique_ptr<MapCache> make_full_map(const MapCacheParams& p) { return std::make_unique<FullMap>(p); }

}  // namespace ssdtlm
