// The dump step (README.md): what the capacitors save to the dump area at the loss, in their saving order, while
// their energy (power.protected_bytes) lasts, and how long programming it takes.
#include <algorithm>
#include <cmath>

#include "controller/buffer/write_buffer.h"
#include "controller/power_loss/recovery_plan.h"

namespace ssdtlm {

namespace {

// The capacitors' energy as bytes of DRAM they can still save; what they save is counted in the report.
struct DumpBudget {
  uint64_t left;
  RecoveryReport& r;
  bool take(uint64_t bytes) {
    if (left < bytes) return false;
    left -= bytes;
    r.dump_bytes += bytes;
    return true;
  }
};

// The firmware's trim journal: every trim since its segment's checkpoint is a record (first LPN and count, 4 bytes
// each; consecutive trimmed LPNs share one), because the out-of-band data a replay reads holds writes, not trims.
// The capacitors save it before everything else (it is what keeps a replay from bringing trimmed data back), in
// LPN order while the budget lasts: the trims of LPNs below plan.trims_kept_below are durable, the others are lost.
// Counted: the LPNs unmapped by a trim in a dirty segment (`records`, the ranges); a map that lives in DRAM only
// (never written back) has no checkpoint on flash, so every trim is in its journal, unless the capacitors are
// unlimited (power.protected_bytes=0): then the whole map is saved and holds the trims.
void dump_trim_journal(const LossContext& x, RecoveryPlan& plan, DumpBudget& budget, RecoveryReport& r) {
  const DriveState& drive = x.drive;
  const MapCache& cache = x.cache;
  const uint32_t logical = x.logical, eps = cache.params().entries_per_segment();
  plan.trims_kept_below = logical;
  if (plan.whole_map_in_dram && !x.params.protected_bytes) return;  // the whole map is saved: it holds the trims
  constexpr uint64_t kRecordBytes = 8;
  bool lost = false;
  for (uint32_t lpn = drive.next_trimmed(0); lpn < logical; lpn = drive.next_trimmed(lpn + 1)) {
    const uint32_t start = lpn;
    while (lpn < logical && drive.trimmed(lpn) && drive.lookup(lpn) == kInvalid &&
           (plan.whole_map_in_dram || cache.segment_dirty(lpn / eps)))
      ++lpn;
    if (lpn == start) continue;  // mapped again, or its segment's checkpoint holds the trim
    ++r.trim_records;
    if (!lost && budget.take(kRecordBytes)) {
      ++r.trim_records_saved;
    } else if (!lost) {
      lost = true;
      plan.trims_kept_below = start;
    }
  }
}

// The write buffer: the newest buffered copy of each unit (dirty, or being programmed), saved next.
void dump_buffer(const LossContext& x, RecoveryPlan& plan, DumpBudget& budget, RecoveryReport& r) {
  auto unsave = [&](uint32_t lpn, uint32_t version) {
    plan.unsaved_versions.push_back(version);
    plan.unsaved_lpns.set(lpn);
  };
  x.buffer.for_each([&](uint32_t lpn, uint32_t version, bool dirty, bool newest) {
    if (!newest) {  // an older copy still being programmed: superseded in DRAM, nothing to save
      unsave(lpn, version);
      return;
    }
    plan.buffered.push_back(lpn);
    ++r.buffer_units;
    if (dirty) ++r.buffer_dirty_units;
    if (x.params.buffer_protected && budget.take(kUnitBytes)) {
      plan.saved[lpn] = version;
      plan.in_dump.set(lpn);
    } else {
      unsave(lpn, version);
    }
  });
  r.buffer_saved = plan.saved.size();
}

// The map: the GTD when segments have flash copies, then the dirty segments, oldest checkpoint first (saving those
// shortens the scan most), at most ceil(map.protected_ratio x segments) of them.
void dump_map(const LossContext& x, RecoveryPlan& plan, DumpBudget& budget, RecoveryReport& r) {
  const MapCache& cache = x.cache;
  const MapCacheParams& mp = cache.params();
  const uint32_t nseg = mp.segments();
  plan.segments.assign(nseg, SegmentSource::Flash);
  if (!plan.whole_map_in_dram) budget.take(mp.gtd_bytes());  // the GTD locates the segments on flash
  std::vector<uint32_t> dirty;
  for (uint32_t s = 0; s < nseg; ++s)
    if (plan.whole_map_in_dram || cache.segment_dirty(s)) dirty.push_back(s);
  r.segments_dirty = dirty.size();
  std::stable_sort(dirty.begin(), dirty.end(),
                   [&](uint32_t a, uint32_t b) { return cache.checkpoint(a) < cache.checkpoint(b); });
  const uint64_t ratio_cap = plan.whole_map_in_dram ? nseg : uint64_t(std::ceil(x.params.protected_ratio * nseg));
  for (uint32_t s : dirty) {
    if (r.segments_saved < ratio_cap && budget.take(mp.segment_bytes)) {
      plan.segments[s] = SegmentSource::Dump;
      ++r.segments_saved;
    } else {
      plan.segments[s] = SegmentSource::Replay;
    }
  }
}

}  // namespace

RecoveryPlan dump_at_loss(const LossContext& x, RecoveryReport& r) {
  const Geometry& g = x.g;
  RecoveryPlan plan;
  plan.whole_map_in_dram = !x.params.map_on_flash && x.params.protected_ratio >= 1.0;  // never written back
  plan.unsaved_lpns = LpnBits(x.logical);
  plan.in_dump = LpnBits(x.logical);
  if (x.state.marked.empty()) x.state.marked.assign((x.logical + 63) / 64, 0);
  DumpBudget budget{x.params.protected_bytes ? x.params.protected_bytes : ~uint64_t(0), r};
  dump_trim_journal(x, plan, budget, r);
  dump_buffer(x, plan, budget, r);
  dump_map(x, plan, budget, r);
  // The dump's programs, striped over every die, each a page as the FTL programs it (every plane of the die).
  const uint32_t program_bytes = x.timing.program_bytes();
  r.dump_programs = (r.dump_bytes + program_bytes - 1) / program_bytes;
  RecoveryTimeline dump(g, x.timing);
  for (uint64_t i = 0; i < r.dump_programs; ++i) dump.program(dump.next_die(), uint32_t(i % g.pages_per_block));
  r.dump_ps = dump.span(x.params.flash_op_ps, x.params.cores);
  return plan;
}

}  // namespace ssdtlm
