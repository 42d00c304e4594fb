#include "controller/mapping/map_cache.h"

#include <algorithm>
#include <cmath>

#include "controller/snapshot/snapshot_archive.h"
#include <map>
#include <string>

#include "common/registry.h"

namespace ssdtlm {

void MapCache::snapshot(SnapshotArchive& a) {
  a.section("map cache");
  a.expect(segments_total(), "map segments");
  a.io_all(stats_, dirty_bits_, dcount_, ckpt_, dirty_entries_);
  snapshot_scheme(a);
  if (a.loading() && observer_)  // as the preconditioning's writes and write-backs left it (HEXA's dirty groups)
    for (uint32_t s = 0; s < segments_total(); ++s) observer_->segment_dirty(s, dcount_[s] != 0);
}

void MapCache::snapshot_scheme(SnapshotArchive&) {
  throw SnapshotUnsupported("this mapping scheme cannot be saved in a snapshot");
}

uint32_t MapCacheParams::cache_segments() const {
  if (cache_bytes == 0) return segments();
  return uint32_t(std::min<uint64_t>(cache_bytes / segment_bytes, segments()));
}

uint32_t MapCacheParams::dirty_limit() const {
  return uint32_t(std::min<double>(segments(), std::ceil(protected_ratio * segments() - 1e-9)));
}

MapCache::MapCache(const MapCacheParams& p)
    : p_(p),
      eps_(p.entries_per_segment()),
      segments_(p.segments()),
      dirty_bits_((p.logical_units + 63) / 64, 0),
      dcount_(segments_, 0) {}

size_t MapCache::memory_bytes() const { return dirty_bits_.capacity() * 8 + dcount_.capacity() * 4; }

void MapCache::reset_stats() {
  MapCacheStats fresh;
  fresh.clean.capacity = stats_.clean.capacity;
  fresh.dirty.capacity = stats_.dirty.capacity;
  stats_ = fresh;
}

void MapCache::mark_dirty(const uint32_t* lpns, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t& w = dirty_bits_[lpns[i] >> 6];
    const uint64_t bit = uint64_t(1) << (lpns[i] & 63);
    if (w & bit) continue;
    w |= bit;
    if (dcount_[lpns[i] / eps_]++ == 0 && observer_) observer_->segment_dirty(lpns[i] / eps_, true);
    ++dirty_entries_;
  }
}

void MapCache::write_back(uint32_t seg, MapAccess& a) {
  const uint32_t n = dcount_[seg];
  if (clock_) ckpt_[seg] = clock_->load(std::memory_order_relaxed) + 1;
  if (n) {
    // Clear the segment's dirty bits: a word at a time (a segment is eps_ consecutive units).
    const uint64_t first = uint64_t(seg) * eps_, last = std::min<uint64_t>(first + eps_, p_.logical_units);
    for (uint64_t u = first; u < last;) {
      if ((u & 63) == 0 && u + 64 <= last) {
        dirty_bits_[u >> 6] = 0;
        u += 64;
      } else {
        dirty_bits_[u >> 6] &= ~(uint64_t(1) << (u & 63));
        ++u;
      }
    }
    dcount_[seg] = 0;
    dirty_entries_ -= n;
    if (observer_) observer_->segment_dirty(seg, false);
  }
  a.wb[a.nwb++] = seg;
  a.wb_entries += n;
  ++stats_.segment_writes;
  stats_.batch_entries += n;
}

void MapCache::update_on_flash(uint32_t seg, uint32_t n, MapAccess& a) {
  count_lookup(false, false, a);
  a.merge = seg;
  ++stats_.loads;
  write_back(seg, a);  // (not cached: no dirty entries of its own)
  a.wb_entries += n;
  stats_.batch_entries += n;
}

void MapCache::count_lookup(bool is_read, bool hit, MapAccess& a) {
  a.hit = hit;
  if (is_read)
    ++(hit ? stats_.read_hits : stats_.read_misses);
  else
    ++(hit ? stats_.write_hits : stats_.write_misses);
}

void MapCache::load_into(LruList& area, uint32_t cap, MapAreaStats& st, uint32_t seg, MapAccess& a) {
  if (area.size() >= cap) {
    area.remove(area.back());
    ++st.evictions;
  }
  area.push_front(seg);
  ++st.insertions;
  a.load = seg;
  ++stats_.loads;
}

namespace {
const std::map<std::string, MapCacheFactory>& schemes() {
  static const std::map<std::string, MapCacheFactory> table = {
      {"page", make_full_map},
      {"dftl", make_dftl_cache},
      {"ptsd", make_ptsd_cache},
      {"ptsd_entry", make_ptsd_entry_cache},
  };
  return table;
}
}  // namespace

std::unique_ptr<MapCache> make_map_cache(const std::string& scheme, const MapCacheParams& p, const std::string& key) {
  return registry_find(schemes(), scheme, key, "mapping scheme")(p);
}

std::vector<std::string> mapping_scheme_names() { return registry_names(schemes()); }

}  // namespace ssdtlm
