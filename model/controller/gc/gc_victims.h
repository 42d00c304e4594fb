// When a die collects and which victim it takes: the GC threshold (ftl.gc_free_blocks), GC pacing (ftl.gc_pacing,
// gc_pacing.h), the victim sources (victim_source.h) asked before the blocks' victim policy, superblock and FDP
// lines, and the checks that stop a configuration GC cannot make progress in. The GC engine, the jobs and the timed
// FTL read it; it reads the drive state and the engines its sources hand blocks over from, never the PageFtl that
// owns it. Plain C++.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/drive_state.h"
#include "controller/gc/gc_pacing.h"
#include "controller/gc/victim_source.h"

namespace ssdtlm {

class SnapshotArchive;

class GcVictims {
 public:
  // The sources' engines may be null (their feature off); pacing null: credit. It knows no GC engine: the engine
  // reads it (GcContext) and tells what its sources need of the die's GC job when it asks (pick_victim).
  GcVictims(DriveState& state, uint32_t gc_free_blocks, std::unique_ptr<GcPacing> pacing, SlcCache* slc,
            Reliability* reliability, WearLevel* wear_level);
  GcVictims(const GcVictims&) = delete;
  GcVictims& operator=(const GcVictims&) = delete;

  // GC starts below this many free blocks (superblock mode: lines) on a die.
  uint32_t gc_free_blocks() const { return gc_free_blocks_; }
  bool gc_needed(uint32_t die) const { return state_.blocks().free_blocks(die) < gc_free_blocks_; }
  // Still short of free blocks once the victims being collected are erased? `pending`: the die's victims
  // scanned or being erased. The GC unit says what counts (GcUnit::short_of_free: lines count free lines and
  // lines being collected).
  bool gc_short(uint32_t die, uint32_t pending) const {
    const BlockManager& b = state_.blocks();
    return b.unit().short_of_free(b, die, pending, gc_free_blocks_);
  }
  // The die's next GC victim (counted in c), or kInvalid: the victim sources first, then the victim policy
  // (superblock mode, FDP: the die's block of the victim line, a new line started when the last is done). Throws
  // when victims keep holding only valid data (the die has no reclaimable space: a configuration that cannot make
  // progress). gc_staged: the die's GC job holds staged units (GcEngine::any_staged; the sources' question).
  uint32_t pick_victim(uint32_t die, FlashCounters& c, bool gc_staged);
  // GC pacing: how host writes share a collecting die.
  const GcPacing& pacing() const { return *pacing_; }
  // The reasons to collect other than free space, asked before the victim policy.
  VictimSources& sources() { return sources_; }
  const VictimSources& sources() const { return sources_; }
  // Victim lines (RUs) started with valid units to relocate: FDP's "media reallocated" events.
  uint64_t relocated_lines() const { return relocated_lines_; }
  void reset_relocated_lines() { relocated_lines_ = 0; }
  // The progress checks' counts (controller/snapshot/drive_snapshot.cpp lists where they go).
  void snapshot(SnapshotArchive& a);

 private:
  uint32_t pick_unit_block(uint32_t die, FlashCounters& c);  // units over several dies (superblock, FDP)
  void check_unit_progress(uint32_t unit, uint64_t host);

  DriveState& state_;
  const Geometry& g_;
  uint32_t gc_free_blocks_;
  std::unique_ptr<GcPacing> pacing_;
  std::vector<uint32_t> full_victims_;  // consecutive victims with no invalid unit, per die
  // Superblock mode: consecutive victim lines with no invalid unit; lines started since host data last landed.
  uint64_t full_lines_ = 0, host_at_line_ = 0, idle_lines_ = 0;
  uint64_t relocated_lines_ = 0;  // victim lines started with valid data (reset_relocated_lines)
  VictimSources sources_;         // built last (their context: the members above)
};

}  // namespace ssdtlm
