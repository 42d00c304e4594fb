// The map cache of a demand-based FTL: which map segments (translation pages) the controller's DRAM
// holds, which are dirty, and what flash work each map access needs. One model serves every mapping
// scheme (ftl.mapping); each scheme is one file implementing MapCache plus one line in map_cache.cpp.
//
// The model keeps no mapping values: the FTL's full map is the truth ("what is on flash" merged with
// what the cache holds); the cache decides the cost. Plain C++, no SystemC; every operation O(1)
// (amortised O(1) for the greedy batch choice). See docs/reference/mapping.md.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "controller/mapping/lru_list.h"
#include "flash/geometry.h"

namespace ssdtlm {

class TranslationStore;

class SnapshotArchive;


struct MapCacheParams {
  uint64_t logical_units = 0;
  uint32_t segment_bytes = 8192;    // one translation page / map segment
  uint32_t entry_bytes = 4;         // one map entry
  uint64_t cache_bytes = 0;         // DRAM for cached map entries; 0 = the whole map
  double clean_fraction = 0.5;      // PTSD: share of the cache for the clean area
  double protected_ratio = 1.0;     // page: share of the segments that may be dirty at once (seed 000)
  std::string dirty_victim = "greedy";  // ptsd_entry: greedy | lru
  uint32_t segments_per_page = 1;   // map segments one flash page program carries (write-back gathering)
  bool gc_batch = false;            // map.gc_update=victim with a demand-based scheme (MapCache::gc_write)
  bool gc_free = false;             // map.gc_update=free (an experiment): GC moves cost the map nothing

  uint32_t entries_per_segment() const { return segment_bytes / entry_bytes; }
  uint32_t segments() const {
    return uint32_t((logical_units + entries_per_segment() - 1) / entries_per_segment());
  }
  uint64_t map_bytes() const { return logical_units * entry_bytes; }
  // The global translation directory: one 4-byte flash address per segment, in SRAM.
  uint64_t gtd_bytes() const { return uint64_t(segments()) * 4; }
  // Whole segments the cache holds (the whole map when cache_bytes is 0).
  uint32_t cache_segments() const;
  // page: dirty segments allowed at once, ceil(protected_ratio x segments).
  uint32_t dirty_limit() const;
};

// Does the scheme keep translation pages on flash (anything but "page")?
inline bool demand_based(const std::string& scheme) { return scheme != "page"; }
// Does the map reach flash: a demand-based scheme, or a page map only partly protected (seed 000)?
inline bool map_on_flash(const std::string& scheme, double protected_ratio) {
  return demand_based(scheme) || protected_ratio < 1.0;
}

constexpr uint32_t kMaxGather = 64;  // segments gathered into one map page program at most

// The flash work one map access needs. The access completes when its load (if any) and its write-back
// program (if any) are done; a merge read precedes the write-back (batch update of an uncached segment).
struct MapAccess {
  bool hit = true;
  uint32_t load = kInvalid;   // segment to read before the entry can be used
  uint32_t merge = kInvalid;  // segment to read, merge and then write back (entry-granular batch update)
  uint32_t nwb = 0;           // segments written back together in one map page program
  uint32_t wb[kMaxGather];
  uint32_t wb_entries = 0;    // dirty entries those segments carry
  void clear() {
    hit = true;
    load = merge = kInvalid;
    nwb = wb_entries = 0;
  }
};

struct MapAreaStats {
  uint64_t capacity = 0;  // segments (entries for an entry-granular area)
  uint64_t hits = 0, insertions = 0, evictions = 0;
};

struct MapCacheStats {
  uint64_t read_hits = 0, read_misses = 0, write_hits = 0, write_misses = 0;
  uint64_t loads = 0;            // segment loads asked for
  uint64_t segment_writes = 0;   // segments written back
  uint64_t dirty_evictions = 0;  // write-back programs forced by eviction (batch updates for ptsd_entry)
  uint64_t batch_entries = 0;    // dirty entries carried by the segments written back
  uint64_t gc_updates = 0;         // segment updates of GC moves (one per segment group)
  uint64_t gc_segment_writes = 0;  // segments written back on GC's map updates (evictions or batch updates)
  MapAreaStats clean, dirty;     // PTSD's areas (clean only = the whole cache for dftl)
  uint64_t lookups() const { return read_hits + read_misses + write_hits + write_misses; }
  uint64_t hits() const { return read_hits + write_hits; }
};

// Told when a segment gets its first dirty entry and when it is written back (the write buffer's HEXA
// order prefers segments that are dirty already).
class SegmentObserver {
 public:
  virtual ~SegmentObserver() = default;
  virtual void segment_dirty(uint32_t seg, bool dirty) = 0;
};

class MapCache {
 public:
  explicit MapCache(const MapCacheParams& p);
  virtual ~MapCache() = default;

  // A host read looks up the entries [first, first + n) of segment seg (one lookup).
  virtual void read(uint32_t seg, uint32_t first, uint32_t n, MapAccess& a) = 0;
  // The entries lpns[0..n) of segment seg change (buffer flush, GC move, trim): one lookup, batched.
  virtual void write(uint32_t seg, const uint32_t* lpns, uint32_t n, MapAccess& a) = 0;
  // GC moved the units lpns[0..n) of segment seg. With params().gc_batch (map.gc_update=victim) the caller
  // passes a whole victim's moves grouped per segment and the scheme's gc_update decides; otherwise the moves
  // of one GC page, as a write. Counts gc_updates and the write-backs it caused. With params().gc_free
  // (map.gc_update=free, an experiment that removes the cost) the update neither loads, dirties nor writes back.
  void gc_write(uint32_t seg, const uint32_t* lpns, uint32_t n, MapAccess& a) {
    const uint64_t before = stats_.segment_writes;
    if (p_.gc_free) {  // the moves are recorded in the flash-resident map at no cost
    } else if (p_.gc_batch) {
      gc_update(seg, lpns, n, a);
    } else {
      write(seg, lpns, n, a);
    }
    ++stats_.gc_updates;
    stats_.gc_segment_writes += stats_.segment_writes - before;
  }
  // Map updates of n units (LPNs, kInvalid = none), batched per map segment: calls access(segment, MapAccess) for
  // each segment touched with what the cache needs (a load, write-backs). gc: the moves of one GC page (gc_write).
  template <class Access>
  void write_units(const uint32_t* in, uint32_t n, Access&& access, bool gc = false) {
    uint32_t lpns[kMaxUnitsPerPage], start[kMaxUnitsPerPage + 1];
    const uint32_t groups = group_by_segment(in, n, lpns, start);
    MapAccess a;
    for (uint32_t k = 0; k < groups; ++k) {
      a.clear();
      const uint32_t* first = lpns + start[k];
      const uint32_t seg = segment_of(*first);
      if (gc) gc_write(seg, first, start[k + 1] - start[k], a);
      else write(seg, first, start[k + 1] - start[k], a);
      access(seg, a);
    }
  }
  // map.gc_update=victim: the map updates of a victim's moves (GcEngine::take_moves), one batch update per segment
  // touched (gc_write); sorts lpns. Calls access(segment, MapAccess) as write_units does.
  template <class Access>
  void gc_write_batch(std::vector<uint32_t>& lpns, Access&& access) {
    std::sort(lpns.begin(), lpns.end());
    MapAccess a;
    for (size_t i = 0; i < lpns.size();) {
      const uint32_t seg = segment_of(lpns[i]);
      size_t end = i + 1;
      while (end < lpns.size() && segment_of(lpns[end]) == seg) ++end;
      a.clear();
      gc_write(seg, lpns.data() + i, uint32_t(end - i), a);
      access(seg, a);
      i = end;
    }
  }
  // Segments holding dirty entries.
  virtual uint32_t dirty_segments() const = 0;
  // Dirty segments the cache may hold before an update to a segment that is not dirty yet forces a
  // write-back: the page map's map.dirty_limit (every segment when the map is fully protected). 0 for a
  // demand-based scheme, where such an update may always cost flash work (a load, an eviction).
  virtual uint32_t dirty_budget() const { return 0; }
  // True when the scheme has areas worth reporting separately (PTSD).
  virtual bool partitioned() const { return false; }
  // Does recording an update need the segment in DRAM (so an update waits for a load in flight)?
  virtual bool write_needs_segment() const { return true; }
  virtual size_t memory_bytes() const;

  const MapCacheParams& params() const { return p_; }
  uint32_t segment_of(uint32_t lpn) const { return lpn / eps_; }
  // Groups n units' LPNs (kInvalid = none) by map segment: fills lpns sorted by segment and returns the number of
  // groups, group g being lpns[start[g] .. start[g + 1]).
  uint32_t group_by_segment(const uint32_t* in, uint32_t n, uint32_t* lpns, uint32_t* start) const {
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; ++i)
      if (in[i] != kInvalid) lpns[m++] = in[i];
    std::sort(lpns, lpns + m);  // a page's worth of units at most
    uint32_t groups = 0;
    for (uint32_t i = 0; i < m; ++i)
      if (i == 0 || segment_of(lpns[i]) != segment_of(lpns[i - 1])) start[groups++] = i;
    start[groups] = m;
    return groups;
  }
  const MapCacheStats& stats() const { return stats_; }
  void set_observer(SegmentObserver* o) { observer_ = o; }
  bool segment_dirty(uint32_t seg) const { return dcount_[seg] != 0; }
  // Power-loss recovery: remember, per segment, `clock` (BlockManager::close_clock) at its last write-back.
  // Costs one store per write-back once set; nothing otherwise.
  void set_checkpoint_clock(const std::atomic<uint32_t>* clock) {
    clock_ = clock;
    ckpt_.assign(segments_total(), 0);
  }
  // The clock at seg's last write-back (0: never written back since the clock was set).
  uint32_t checkpoint(uint32_t seg) const { return ckpt_.empty() || !ckpt_[seg] ? 0 : ckpt_[seg] - 1; }
  bool ever_written_back(uint32_t seg) const { return !ckpt_.empty() && ckpt_[seg] != 0; }
  uint32_t segments_total() const { return uint32_t(dcount_.size()); }
  void reset_stats();
  uint64_t dirty_entries() const { return dirty_entries_; }
  // summary.json "map": the cache's lookups, hits, write-backs and size, with the translation pages on flash (ts,
  // null: the whole map in DRAM) and the map page reads the FTL counted.
  nlohmann::json report(const TranslationStore* ts, uint64_t segment_reads) const;
  // Saves or loads the cache's contents, dirty entries, checkpoints and statistics (controller/snapshot).
  void snapshot(SnapshotArchive& a);

 protected:
  // The scheme's own state (its lists); a scheme without one throws SnapshotUnsupported.
  virtual void snapshot_scheme(SnapshotArchive& a);
  // DFTL's batch update of GC moves (gc_write with gc_batch): the scheme's rule for a segment it caches; by
  // default as a write (the entry-granular dirty area records the entries without a load).
  virtual void gc_update(uint32_t seg, const uint32_t* lpns, uint32_t n, MapAccess& a) { write(seg, lpns, n, a); }
  // A batch update of a segment the cache does not hold: read, merged with the n moved entries and written
  // back in one program; it does not enter the cache.
  void update_on_flash(uint32_t seg, uint32_t n, MapAccess& a);
  // Dirty-entry bookkeeping shared by the schemes: one bit per logical unit, a count per segment.
  void mark_dirty(const uint32_t* lpns, uint32_t n);
  // Segment seg is written back: its dirty entries are clean again. Adds it to a's write-back batch.
  void write_back(uint32_t seg, MapAccess& a);
  uint32_t dirty_count(uint32_t seg) const { return dcount_[seg]; }
  bool is_dirty(uint32_t lpn) const { return (dirty_bits_[lpn >> 6] >> (lpn & 63)) & 1; }
  void count_lookup(bool is_read, bool hit, MapAccess& a);
  // A dirty eviction: writes back `victim` (already out of its lists) and gathers the oldest segments of
  // `dirty` (LRU at its back) into the same map page, up to segments_per_page; each gathered segment,
  // now clean, is handed to on_clean.
  template <class OnClean>
  void write_back_gathered(uint32_t victim, LruList& dirty, MapAccess& a, OnClean on_clean) {
    write_back(victim, a);
    ++stats_.dirty_evictions;
    while (a.nwb < p_.segments_per_page && a.nwb < kMaxGather && !dirty.empty()) {
      const uint32_t s = dirty.back();
      dirty.remove(s);
      write_back(s, a);
      on_clean(s);
    }
  }
  // A miss loads seg into `area` (capacity cap, statistics st), dropping its LRU segment when full.
  void load_into(LruList& area, uint32_t cap, MapAreaStats& st, uint32_t seg, MapAccess& a);

  MapCacheParams p_;
  uint32_t eps_, segments_;
  SegmentObserver* observer_ = nullptr;
  MapCacheStats stats_;

 private:
  std::vector<uint64_t> dirty_bits_;  // per logical unit
  std::vector<uint32_t> dcount_;      // per segment: dirty entries
  const std::atomic<uint32_t>* clock_ = nullptr;  // set_checkpoint_clock
  std::vector<uint32_t> ckpt_;        // per segment, with a clock: its value at the last write-back (+1)
  uint64_t dirty_entries_ = 0;
};

using MapCacheFactory = std::unique_ptr<MapCache> (*)(const MapCacheParams&);
std::unique_ptr<MapCache> make_full_map(const MapCacheParams& p);
std::unique_ptr<MapCache> make_dftl_cache(const MapCacheParams& p);
std::unique_ptr<MapCache> make_ptsd_cache(const MapCacheParams& p);
std::unique_ptr<MapCache> make_ptsd_entry_cache(const MapCacheParams& p);

// ftl.mapping name -> cache; ConfigError naming `key` for an unknown name.
std::unique_ptr<MapCache> make_map_cache(const std::string& scheme, const MapCacheParams& p, const std::string& key);
std::vector<std::string> mapping_scheme_names();

}  // namespace ssdtlm
