// PageFtl::snapshot: the order of the drive's sections in a snapshot file. Each component saves its own state
// (its snapshot method, next to its code); this file only lists them.
#include "controller/page_ftl.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void PageFtl::snapshot(SnapshotArchive& a, IntegrityChecker* checker) {
  a.section("drive");
  a.expect(g_.dies, "dies");
  a.expect(g_.logical_units, "logical units");
  a.expect(uint64_t(g_.dies) * g_.blocks_per_die * g_.units_per_block, "physical units");
  a.expect(checker != nullptr, "integrity checker on");
  a.expect(tstore_ != nullptr, "translation pages on flash");
  a.expect(slc_ != nullptr, "SLC cache");
  a.expect(rel_ != nullptr, "reliability model");
  a.expect(wl_ != nullptr, "wear levelling");
  // Policies first: one that cannot be saved stops the save before the large arrays are written.
  streams_->snapshot(a);
  state_.blocks().snapshot(a);
  a.section("map");
  state_.snapshot_map(a);
  a.section("dies");
  state_.snapshot_dies(a);
  a.section("ftl");
  // (The GC threshold, gc_first and reclaim-unit fields are the configuration's: a snapshot of another is refused.)
  uint32_t gc_free_blocks = victims_.gc_free_blocks();
  // (The unit's field: whether a group's dies share its units, FDP's reclaim units.)
  const bool group_units = state_.blocks().unit().shared_by_group();
  bool lines_hold = victims_.pacing().lines_hold_host(), reclaim_units = group_units;
  a.io_all(gc_free_blocks, lines_hold, reclaim_units);
  if (gc_free_blocks != victims_.gc_free_blocks() || reclaim_units != group_units)
    a.corrupt("GC threshold or reclaim units differ from this drive's");
  state_.snapshot_die_counters(a);
  victims_.snapshot(a);
  a.io(state_.counters());
  gc_.snapshot(a);
  cache_->snapshot(a);
  if (tstore_) tstore_->snapshot(a);
  if (slc_) slc_->snapshot(a);
  if (rel_) rel_->snapshot(a);
  if (wl_) wl_->snapshot(a);
  if (checker) checker->snapshot(a);
}

}  // namespace ssdtlm
