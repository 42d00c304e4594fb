// Page-level FTL: the owner of the drive state (drive_state.h: map, valid bitmap, blocks, dies, counters) and of
// the engines that decide over it: the GC victim choice (gc/gc_victims.h), the GC engine (gc/gc_engine.h) shared by
// the timed FTL and the fast-forward, the map cache, stream placement, the SLC cache, the reliability model and wear
// levelling, and the fast-forward (fast_forward.h: the same jobs with every action executed at once, no SystemC
// timing) used to precondition a drive at millions of page writes per second. It builds and wires them and hands
// them out (engines()); no engine refers back to it. Plain C++.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/drive_state.h"
#include "controller/fast_forward.h"
#include "controller/ftl_engines.h"
#include "controller/gc/gc_engine.h"
#include "controller/gc/gc_pacing.h"
#include "controller/gc/gc_victims.h"
#include "controller/gc/victim_source.h"
#include "controller/gc/wear_level.h"
#include "controller/mapping/map_cache.h"
#include "controller/mapping/translation_store.h"
#include "controller/streams/streams.h"
#include "flash/geometry.h"
#include "flash/reliability/reliability.h"

namespace ssdtlm {

class SnapshotArchive;

// What a PageFtl is made of besides its geometry and dies: the engines and policies the platform's assembly
// (ftl_assembly.cpp) builds from the parameters, or a test builds. The constructor builds the drive state complete
// (its blocks from BlockParams: the GC unit, write pointers, SLC blocks, victims' worth) and wires the engines in
// the order they depend on each other, so a PageFtl is complete when it exists. Left empty: one user and one GC
// stream per the layout, block GC paced by credit, no SLC cache, reliability model or wear levelling, the whole map
// in DRAM.
struct PageFtlParts {
  std::unique_ptr<VictimPolicy> victim;  // required: the victim policy of blocks
  uint32_t gc_free_blocks = 2;           // host writes keep min(GC streams, this - 1) free blocks for GC
  FrontierLayout layout;
  std::unique_ptr<Streams> streams;      // must match the layout's user and GC streams; null: single / manual
  std::unique_ptr<GcUnit> unit;              // ftl.gc_unit, or FDP's reclaim units (gc/gc_unit.h); null: block
  WritePointerFactory write_pointer = make_per_die_pointer;  // ftl.write_pointer (a unit may fix it: FDP's)
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
  PageFtl(const PageFtl&) = delete;
  PageFtl& operator=(const PageFtl&) = delete;

  // The drive state and every engine, by reference: what the jobs, the fast-forward and the timed FTL are given.
  const FtlEngines& engines() const { return engines_; }
  // The drive state the engines read and change (map, valid bitmap, trim notes, blocks, dies, counters).
  DriveState& state() { return state_; }
  const DriveState& state() const { return state_; }
  // When a die collects and which victim it takes (GC threshold, pacing, victim sources: gc/gc_victims.h).
  GcVictims& victims() { return victims_; }
  const GcVictims& victims() const { return victims_; }
  VictimSources& victim_sources() { return victims_.sources(); }
  uint32_t pick_victim(uint32_t die, FlashCounters& c) { return gc_.pick_victim(die, c); }
  bool gc_needed(uint32_t die) const { return victims_.gc_needed(die); }
  const GcPacing& gc_pacing() const { return victims_.pacing(); }
  // The GC engine: every die's GC job, for the timed FTL and the fast-forward alike.
  GcEngine& gc() { return gc_; }
  const GcEngine& gc() const { return gc_; }
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
  // Physical units available to data / logical units: all blocks less the free-block reserve, with the
  // open blocks (one per stream) counted as half written on average.
  double alpha() const;
  // The fast-forward: host pages through the host page job's immediate executor (FfHostExec, fast_forward.h).
  FastForward& fast_forward() { return ff_; }

  // Stream separation (streams.*): user and GC stream assignment, write counts, per-stream statistics.
  Streams& streams() { return *streams_; }
  const Streams& streams() const { return *streams_; }
  // The map cache every access goes through (ftl.mapping), and with a demand-based scheme the
  // translation pages on flash.
  MapCache& map_cache() { return *cache_; }
  const MapCache& map_cache() const { return *cache_; }
  TranslationStore* translation() { return tstore_.get(); }
  const TranslationStore* translation() const { return tstore_.get(); }

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
    return state_.memory_bytes() + cache_->memory_bytes() + (tstore_ ? tstore_->memory_bytes() : 0) +
           streams_->memory_bytes();
  }

 private:
  const Geometry& g_;
  // Built in this order, each from the parts and what comes before it (page_ftl.cpp).
  std::unique_ptr<SlcCache> slc_;     // null: slc.mode=none
  DriveState state_;                  // (its blocks take the SLC cache's static blocks)
  std::unique_ptr<Streams> streams_;
  std::unique_ptr<Reliability> rel_;  // null: reliability.model=none
  std::unique_ptr<WearLevel> wl_;     // null: ftl.wear_level_spread=0
  std::unique_ptr<MapCache> cache_;
  std::unique_ptr<TranslationStore> tstore_;  // null: the whole map in DRAM
  GcVictims victims_;                // (knows no GC engine)
  GcEngine gc_;                       // (reads the victims)
  FtlEngines engines_;
  FastForward ff_;
};

}  // namespace ssdtlm
