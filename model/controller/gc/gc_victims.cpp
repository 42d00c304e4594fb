#include "controller/gc/gc_victims.h"

#include <stdexcept>
#include <string>

#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

GcVictims::GcVictims(DriveState& state, uint32_t gc_free_blocks, std::unique_ptr<GcPacing> pacing, SlcCache* slc,
                     Reliability* reliability, WearLevel* wear_level)
    : state_(state),
      g_(state.geometry()),
      gc_free_blocks_(gc_free_blocks),
      pacing_(pacing ? std::move(pacing) : make_credit_pacing(0)),
      full_victims_(g_.dies, 0),
      sources_({state, gc_free_blocks_, slc, reliability, wear_level, sources_}) {}

void GcVictims::snapshot(SnapshotArchive& a) {
  a.io_all(full_victims_, full_lines_, host_at_line_, idle_lines_, relocated_lines_);
}

uint32_t GcVictims::pick_victim(uint32_t die, FlashCounters& c, bool gc_staged) {
  if (state_.blocks().pool().spans_dies()) return pick_unit_block(die, c);
  // The victim sources first (read reclaim, wear levelling, SLC folding: victim_sources.cpp), then free space.
  if (const uint32_t v = sources_.take(die, gc_staged); v != kInvalid) return v == kNoVictim ? kInvalid : v;
  const uint32_t v = state_.blocks().pick_victim(die);
  if (v == kInvalid) return v;
  ++c.gc_victims;
  if (state_.blocks().valid(v) < g_.units_per_block)
    full_victims_[die] = 0;
  else if (++full_victims_[die] > g_.blocks_per_die)
    throw std::logic_error("die " + std::to_string(die) + ": GC finds only fully valid blocks (no reclaimable space)");
  return v;
}

uint32_t GcVictims::pick_unit_block(uint32_t die, FlashCounters& c) {
  // The die's block of the victim unit (line), or of a new one once the last is free again (units of the die's
  // dies: its line group, FDP's reclaim group; gc/unit_pool.h).
  UnitPool& u = state_.blocks().pool();
  uint32_t v = u.next_victim_block(die);
  bool started = false;
  uint64_t host = 0;  // host pages programmed, counted only when a unit may start
  if (v == kInvalid && u.units_in_gc(die) == 0) {
    // A pacing may have a new line wait for a host write since the last one started (gc_first: FEMU's FTL thread
    // runs one background do_gc per request, above the forced threshold ftl.gc_urgent_free_blocks).
    host = state_.host_programs();
    const bool waits = pacing_->line_waits_for_host(u.free_units(die)) && host == host_at_line_;
    started = !waits && u.start_victim(die);
  }
  if (started) v = u.next_victim_block(die);
  if (v == kInvalid) return v;
  ++c.gc_victims;
  if (started) check_unit_progress(u.unit_of(v), host);
  return v;
}

void GcVictims::check_unit_progress(uint32_t unit, uint64_t host) {
  // A configuration that cannot make progress: new lines keep holding only valid data, or keep being collected
  // while no host data is programmed (GC frees no more than its copies and the lines it retires take).
  const UnitPool& u = state_.blocks().pool();
  const uint32_t valid = u.unit_valid(unit);
  if (valid) ++relocated_lines_;  // FDP: a "media reallocated" event (the RU's valid data moves)
  if (valid < g_.units_per_block * u.unit_blocks())
    full_lines_ = 0;
  else if (++full_lines_ > g_.blocks_per_die)
    throw std::logic_error("superblock GC finds only fully valid lines (no reclaimable space)");
  if (host != host_at_line_) {
    host_at_line_ = host;
    idle_lines_ = 0;
  } else if (++idle_lines_ > 2 * g_.blocks_per_die) {
    throw std::logic_error("superblock GC collected " + std::to_string(idle_lines_) +
                           " lines without room for host data: too little spare for the open lines of its "
                           "frontiers (raise geometry.over_provisioning or geometry.pages_per_block, or use "
                           "fewer streams)");
  }
}

}  // namespace ssdtlm
