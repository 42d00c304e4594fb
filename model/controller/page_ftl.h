// Page-level FTL algorithm: the drive state (drive_state.h: map, valid bitmap, blocks, dies, counters) and the
// engines that decide over it: GC victim choice, the GC engine (gc/gc_engine.h) shared by the timed FTL and the
// fast-forward, the map cache, stream placement, the SLC cache, the reliability model and wear levelling, and the
// fast-forward itself (fast_forward.cpp: the same engines with every action executed at once, no SystemC timing)
// used to precondition a drive at millions of page writes per second. Plain C++.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/drive_state.h"
#include "controller/gc/gc_engine.h"
#include "controller/gc/gc_pacing.h"
#include "controller/gc/victim_source.h"
#include "controller/gc/wear_level.h"
#include "controller/mapping/map_cache.h"
#include "controller/mapping/translation_store.h"
#include "controller/streams/streams.h"
#include "flash/geometry.h"
#include "flash/reliability/reliability.h"

namespace ssdtlm {

class SnapshotArchive;
class FfMapExec;  // fast_forward.cpp

// What a PageFtl is made of besides its geometry and dies: the engines and policies the platform's assembly
// (ftl_assembly.cpp) builds from the parameters, or a test builds. The constructor wires them in the order they
// depend on each other (the streams before the lines they fill, the lines before the SLC cache, the SLC cache
// before wear levelling, the lines before the victims' worth, the map cache last), so a PageFtl is complete when
// it exists. Left empty: one user and one GC stream per the layout, block GC paced by credit, no SLC cache,
// reliability model or wear levelling, the whole map in DRAM.
struct PageFtlParts {
  enum class Unit { Block, Superblock, ReclaimUnits };  // ftl.gc_unit, or FDP's reclaim units
  std::unique_ptr<VictimPolicy> victim;  // required: the victim policy of blocks
  uint32_t gc_free_blocks = 2;           // host writes keep min(GC streams, this - 1) free blocks for GC
  FrontierLayout layout;
  std::unique_ptr<Streams> streams;      // must match the layout's user and GC streams; null: single / manual
  Unit unit = Unit::Block;
  std::string line_victim, line_victim_key;  // Superblock, ReclaimUnits: the victim policy of lines (and its key)
  uint32_t ru_groups = 1, ru_depth = 1;      // ReclaimUnits: reclaim groups, blocks per die of a reclaim unit
  bool striped = false;                      // ftl.write_pointer=striped (reclaim units always are)
  std::unique_ptr<GcPacing> pacing;          // null: credit
  std::unique_ptr<SlcCache> slc;
  std::unique_ptr<Reliability> reliability;
  std::unique_ptr<WearLevel> wear_level;
  double min_invalid = 0;                // ftl.gc_min_invalid: a victim's least share of invalid units (0: any)
  uint32_t urgent_free_blocks = 0;       // ... waived below this many free blocks (lines)
  std::unique_ptr<MapCache> map;         // null: the whole map in DRAM
  bool map_on_flash = false;             // demand-based: translation pages on flash (needs the map frontier)
  IntegrityChecker* checker = nullptr;   // fast-forward GC checks its erases and copies (drive_state.h)
};

class PageFtl {
 public:
  PageFtl(const Geometry& g, std::vector<Die*> dies, PageFtlParts parts);
  // The defaults of PageFtlParts with this victim policy, GC threshold and frontier layout.
  PageFtl(const Geometry& g, std::vector<Die*> dies, std::unique_ptr<VictimPolicy> victim, uint32_t gc_free_blocks,
          const FrontierLayout& layout = FrontierLayout());

  // The drive state the engines read and change (map, valid bitmap, trim notes, blocks, dies, counters).
  DriveState& state() { return state_; }
  const DriveState& state() const { return state_; }

  // The reasons to collect other than free space (gc/victim_source.h), asked before the victim policy.
  VictimSources& victim_sources() { return sources_; }
  const VictimSources& victim_sources() const { return sources_; }
  // The die's next GC victim (counted in c), or kInvalid. Throws when victims keep holding only valid data
  // (the die has no reclaimable space: a configuration that cannot make progress).
  uint32_t pick_victim(uint32_t die, FlashCounters& c);
  bool gc_needed(uint32_t die) const { return state_.blocks().free_blocks(die) < gc_free_blocks_; }
  // The SLC cache (slc.*; block mode), null without one.
  SlcCache* slc() { return slc_.get(); }
  const SlcCache* slc() const { return slc_.get(); }
  // The reliability model (reliability.*): per-block wear, retention and read-disturb state, read reclaim.
  Reliability* reliability() { return rel_.get(); }
  const Reliability* reliability() const { return rel_.get(); }
  bool reclaim_wanted(uint32_t die) const { return rel_ && rel_->reclaim_due(die); }
  // Static wear levelling (ftl.wear_level_spread), null without it.
  WearLevel* wear_level() { return wl_.get(); }
  const WearLevel* wear_level() const { return wl_.get(); }
  // Still short of free blocks once the victims being collected are erased? `pending`: the die's victims
  // scanned or being erased (block mode); superblock mode counts free lines and lines being collected.
  bool gc_short(uint32_t die, uint32_t pending) const {
    if (!state_.blocks().lines()) return state_.blocks().free_blocks(die) + pending < gc_free_blocks_;
    const uint32_t group = state_.blocks().group_of_die(die);
    return state_.blocks().free_lines(group) + state_.blocks().lines_in_gc(group) < gc_free_blocks_;
  }
  // Superblock mode (ftl.gc_unit=superblock): lines as the unit of allocation and GC, one victim line at a
  // time; host writes leave a free line per GC stream (which the GC threshold must exceed).
  // FDP (fdp.enabled): the reclaim unit is the unit of allocation and of GC (docs/reference/placement.md): lines of
  // ru_depth blocks on every die of each of ru_groups reclaim groups, each written by one write pointer per frontier
  // over its group's dies (striped), so a reclaim unit handle has one open RU per group. A victim RU relocates into
  // one GC frontier (its RUH's, or the shared one), so host writes leave one free RU per group for GC.
  bool reclaim_units() const { return reclaim_units_; }
  // Victim lines (RUs) started with valid units to relocate: FDP's "media reallocated" events.
  uint64_t relocated_lines() const { return relocated_lines_; }
  void reset_relocated_lines() { relocated_lines_ = 0; }
  uint32_t gc_free_blocks() const { return gc_free_blocks_; }
  // GC pacing (ftl.gc_pacing, gc/gc_pacing.h; credit unless given): how host writes share a collecting die.
  const GcPacing& gc_pacing() const { return *pacing_; }
  // Physical units available to data / logical units: all blocks less the free-block reserve, with the
  // open blocks (one per stream) counted as half written on average.
  double alpha() const;

  // The fast-forward: host pages through the host page job's immediate executor (FfHostExec, fast_forward.h), whose
  // workers, owning disjoint dies, keep counters per die; ff_merge_counters() adds them to counters().
  void ff_merge_counters();
  // Ends a fast-forward: every die's partial GC pages are programmed, padded, so the victims whose last units
  // wait in them erase (the timed FTL does not take over the fast-forward's GC state). Call before
  // ff_merge_counters, with no fast-forward writer running.
  void ff_finish();
  // The GC engine: every die's GC job, for the timed FTL and the fast-forward alike.
  GcEngine& gc() { return gc_; }
  const GcEngine& gc() const { return gc_; }

  // The GC stream whose frontier takes GC stream k's next page on `die`: k itself, unless its frontier is
  // full and the die has no free block left; then another GC stream's open block with room (the units keep
  // their own stream tag). So GC finishes a victim it started with one free block however its units spread
  // over the streams (a victim holds at most a block's worth, and the block it opened last has room for it).
  // (FDP: on the die of the GC frontier's write pointer.)
  uint32_t gc_target(uint32_t die, uint32_t k) const {
    const FrontierLayout& l = state_.blocks().layout();
    if (reclaim_units_) die = state_.blocks().stripe_die(l.gc_frontier(k), state_.blocks().group_of_die(die));
    if (l.gc == 1 || state_.blocks().can_allocate(die, l.gc_frontier(k), 0)) return k;
    for (uint32_t j = 0; j < l.gc; ++j)
      if (!state_.blocks().frontier_full(die, l.gc_frontier(j))) return j;
    return k;
  }

  // Stream separation (streams.*): user and GC stream assignment, write counts, per-stream statistics.
  Streams& streams() { return *streams_; }
  const Streams& streams() const { return *streams_; }

  // The map cache every access goes through (ftl.mapping), and with a demand-based scheme the
  // translation pages on flash.
  MapCache& map_cache() { return *cache_; }
  const MapCache& map_cache() const { return *cache_; }
  TranslationStore* translation() { return tstore_.get(); }
  const TranslationStore* translation() const { return tstore_.get(); }
  // Map updates of n units (LPNs, kInvalid = none) through the cache, batched per map segment: calls
  // access(segment, MapAccess) for each segment touched with what the cache needs (a load, write-backs).
  // gc: the moves of one GC page (MapCache::gc_write).
  template <class Access>
  void map_write(const uint32_t* in, uint32_t n, Access&& access, bool gc = false) {
    uint32_t lpns[kMaxUnitsPerPage], start[kMaxUnitsPerPage + 1];
    const uint32_t groups = group_by_segment(in, n, lpns, start);
    MapAccess a;
    for (uint32_t k = 0; k < groups; ++k) {
      a.clear();
      const uint32_t* first = lpns + start[k];
      const uint32_t seg = cache_->segment_of(*first);
      if (gc) cache_->gc_write(seg, first, start[k + 1] - start[k], a);
      else cache_->write(seg, first, start[k + 1] - start[k], a);
      access(seg, a);
    }
  }
  // map.gc_update=victim: the map updates of a victim's moves (GcEngine::take_moves), one batch update per
  // segment touched (MapCache::gc_write); sorts lpns. Calls access(segment, MapAccess) as map_write does.
  template <class Access>
  void map_gc_batch(std::vector<uint32_t>& lpns, Access&& access) {
    std::sort(lpns.begin(), lpns.end());
    MapAccess a;
    for (size_t i = 0; i < lpns.size();) {
      const uint32_t seg = cache_->segment_of(lpns[i]);
      size_t end = i + 1;
      while (end < lpns.size() && cache_->segment_of(lpns[end]) == seg) ++end;
      a.clear();
      cache_->gc_write(seg, lpns.data() + i, uint32_t(end - i), a);
      access(seg, a);
      i = end;
    }
  }

  // Saves or loads the whole drive state preconditioning leaves (map, valid bitmap, dies' out-of-band data,
  // blocks, GC, map cache and translation pages, streams, SLC, reliability, wear levelling, counters); the
  // checker's too when given (controller/snapshot/drive_snapshot.cpp). Throws SnapshotUnsupported for a
  // policy whose state it cannot save.
  void snapshot(SnapshotArchive& a, IntegrityChecker* checker);
  // The drive state's report (page_ftl_report.cpp): summary.json's "nand", "waf" (for host_bytes written), "ftl"
  // (alpha, GC unit, free blocks), and with their features on "reliability", "wear_level", "slc", "fdp", "zns".
  nlohmann::json report(double host_bytes, uint64_t now_ps) const;
  // The drive state's memory with the map cache's, the translation pages' and the streams', in bytes.
  size_t memory_bytes() const {
    return state_.memory_bytes() + (cache_ ? cache_->memory_bytes() : 0) + (tstore_ ? tstore_->memory_bytes() : 0) +
           (streams_ ? streams_->memory_bytes() : 0);
  }

 private:
  friend class FfGcExec;            // fast_forward.cpp: the GC job's immediate executor (dies, per-die counters)
  friend class FfMapExec;           // fast_forward.cpp: the map write-back job's immediate executor
  friend class FfHostExec;          // fast_forward.h: the host page job's immediate executor
  // The constructor's steps (PageFtlParts' order): each part checked against the layout and wired in.
  void set_streams(std::unique_ptr<Streams> s);
  void set_gc_unit(PageFtlParts& parts);
  void set_wear_level(std::unique_ptr<WearLevel> wl);  // after the SLC cache (its static blocks are excluded)
  void set_victim_worth(double min_invalid, uint32_t urgent);  // after the lines (their size)
  void set_mapping(std::unique_ptr<MapCache> cache, bool on_flash);
  uint32_t pick_line_block(uint32_t die, FlashCounters& c);  // superblock mode
  uint64_t host_programs() const;  // host pages programmed so far (timed and fast-forward)
  // Groups n units' LPNs (kInvalid = none) by map segment: fills lpns sorted by segment and returns the
  // number of groups, group g being lpns[start[g] .. start[g + 1]).
  uint32_t group_by_segment(const uint32_t* in, uint32_t n, uint32_t* lpns, uint32_t* start) const;
  // Translation pages on flash: the immediate executor of the map write-back job (fast_forward.cpp), made on the
  // fast-forward's first use; its job keeps the write-backs that wait for a die between host pages.
  FfMapExec& ff_map();
  struct FfMapDelete {
    void operator()(FfMapExec* x) const;  // (fast_forward.cpp: where FfMapExec is a complete type)
  };

  const Geometry& g_;
  DriveState state_;
  uint32_t gc_free_blocks_;
  bool reclaim_units_ = false;  // FDP's reclaim units (PageFtlParts::Unit::ReclaimUnits)
  std::unique_ptr<GcPacing> pacing_ = make_credit_pacing(0);
  std::vector<FlashCounters> ff_counters_;  // per die, during fast-forward
  std::vector<uint32_t> full_victims_;  // consecutive victims with no invalid unit, per die
  // Superblock mode: consecutive victim lines with no invalid unit; lines started since host data last landed.
  uint64_t full_lines_ = 0, host_at_line_ = 0, idle_lines_ = 0;
  uint64_t relocated_lines_ = 0;  // victim lines started with valid data (reset_relocated_lines)
  std::unique_ptr<MapCache> cache_;
  std::unique_ptr<TranslationStore> tstore_;
  std::unique_ptr<Streams> streams_;
  std::unique_ptr<SlcCache> slc_;  // null: slc.mode=none
  std::unique_ptr<Reliability> rel_;  // null: reliability.model=none
  std::unique_ptr<WearLevel> wl_;     // null: ftl.wear_level_spread=0
  std::unique_ptr<FfMapExec, FfMapDelete> ff_map_;  // null until the fast-forward needs map work
  IntegrityChecker* checker_ = nullptr;   // fast-forward invariant checks (PageFtlParts::checker)
  GcEngine gc_;
  VictimSources sources_;  // built last (their context: the engines above)
};

}  // namespace ssdtlm
