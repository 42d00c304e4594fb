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
  if (state_.blocks().lines()) return pick_line_block(die, c);
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

uint32_t GcVictims::pick_line_block(uint32_t die, FlashCounters& c) {
  // The die's block of the victim line, or of a new one once the last is free again (lines of the die's group:
  // FDP's reclaim group).
  BlockManager& b = state_.blocks();
  uint32_t v = b.next_line_block(die);
  bool started = false;
  uint64_t host = 0;  // host pages programmed, counted only when a line may start
  const uint32_t group = b.group_of_die(die);
  if (v == kInvalid && b.lines_in_gc(group) == 0) {
    // A pacing may have a new line wait for a host write since the last one started (gc_first: FEMU's FTL thread
    // runs one background do_gc per request, above the forced threshold ftl.gc_urgent_free_blocks).
    host = state_.host_programs();
    const bool waits = pacing_->line_waits_for_host(b.free_lines(group)) && host == host_at_line_;
    started = !waits && b.start_line(group);
  }
  if (started) v = b.next_line_block(die);
  if (v == kInvalid) return v;
  ++c.gc_victims;
  if (started) check_line_progress(b.line_of(v), host);
  return v;
}

void GcVictims::check_line_progress(uint32_t line, uint64_t host) {
  // A configuration that cannot make progress: new lines keep holding only valid data, or keep being collected
  // while no host data is programmed (GC frees no more than its copies and the lines it retires take).
  const BlockManager& b = state_.blocks();
  const uint32_t valid = b.line_valid(line);
  if (valid) ++relocated_lines_;  // FDP: a "media reallocated" event (the RU's valid data moves)
  if (valid < g_.units_per_block * b.line_blocks())
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
