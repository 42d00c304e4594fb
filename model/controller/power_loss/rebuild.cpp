// The rebuild step (README.md): the recovered map, unit by unit, against the acknowledged versions; the losses
// applied to the live state (the buffer forgets what was not saved; the map points at the recovered copy); then
// the recovery's checkpoint.
#include <algorithm>

#include "controller/buffer/write_buffer.h"
#include "controller/power_loss/recovery_plan.h"

namespace ssdtlm {

namespace {

struct Copy {
  uint32_t version = 0, ppa = kInvalid;  // version 0 / kInvalid: none
};

// The version of lpn's live copy when it is durable: what the pass over every block finds for the unit marked
// valid under lpn (its map entry), looked up for the LPNs an incremental check compares.
uint32_t live_version(const LossContext& x, const RecoveryPlan& plan, uint32_t lpn) {
  const Geometry& g = x.g;
  const uint32_t e = x.drive.lookup(lpn);
  if (e == kInvalid || !x.drive.valid(e) || !plan.usable[g.gblock_of(e)]) return 0;
  const uint32_t blk = g.block_of(e), pg = g.page_of(e);
  const Die& die = x.drive.die(g.die_of(e));
  if (!die.programmed(blk, pg)) return 0;
  const uint32_t u = blk * g.units_per_block + pg * g.units_per_page + g.slot_of(e);
  const UnitKind k = die.kind(u);
  return die.lpn(u) == lpn && (k == UnitKind::UD || k == UnitKind::GUD) ? die.version(u) : 0;
}

// A durable trim record drops a copy older than the trim (versions are the write sequence): nothing comes back.
void drop_if_trimmed(const LossContext& x, const RecoveryPlan& plan, uint32_t lpn, Copy& c) {
  if (c.version && x.drive.trimmed(lpn) && lpn < plan.trims_kept_below && c.version <= x.checker.trimmed_version(lpn))
    c = Copy();
}

// The copy firmware's replay recovers for lpn (whose live map entry is e): for a segment whose copy is current, the
// checkpoint entry checked against the out-of-band data it points at (torn: the newest scanned copy); for a
// segment to replay, the newest copy by version.
Copy recovered_copy(const LossContext& x, const RecoveryPlan& plan, uint32_t lpn, uint32_t e, RecoveryReport& r) {
  std::vector<uint32_t>& map_ver = x.state.map_ver;
  const uint32_t eps = x.cache.params().entries_per_segment();
  Copy c;
  if (plan.segments[lpn / eps] != SegmentSource::Replay) {
    if (e == kInvalid) return c;
    if (map_ver[lpn]) return Copy{map_ver[lpn], e};
    ++r.torn_units;
    c = Copy{x.state.scan_ver[lpn], x.state.scan_ppa[lpn]};
    drop_if_trimmed(x, plan, lpn, c);  // the entry's write after a trim was torn
    if (c.ppa != kInvalid) ++r.units_replayed;
    return c;
  }
  c = Copy{plan.all_ver[lpn], plan.all_ppa[lpn]};
  drop_if_trimmed(x, plan, lpn, c);
  if (e != kInvalid && c.ppa != e && map_ver[lpn] != 0 && map_ver[lpn] == c.version) c.ppa = e;  // keep the live copy
  if (c.ppa != kInvalid && plan.scanned[x.g.gblock_of(c.ppa)]) ++r.units_replayed;
  return c;
}

// The recovered copy c of lpn (live entry e) set against its acknowledged version; the live state follows.
void settle(const LossContext& x, RecoveryPlan& plan, uint32_t lpn, uint32_t e, Copy c, RecoveryReport& r) {
  DriveState& drive = x.drive;
  IntegrityChecker& checker = x.checker;
  const BlockManager& bm = drive.blocks();
  std::vector<uint32_t>& map_ver = x.state.map_ver;
  const uint32_t eps = x.cache.params().entries_per_segment();
  const bool from_dump = plan.in_dump.test(lpn);
  const uint32_t acked = checker.expected(lpn);
  const uint32_t got = from_dump ? plan.saved.find(lpn)->second : c.version;
  if (got > acked && !from_dump && acked == 0 && got <= checker.trimmed_version(lpn)) {
    // A trim whose journal record the capacitors could not save: the copy it removed (or an older one) is back,
    // as a write the drive lost would be (unless GC is erasing that copy's block: then it stays trimmed).
    if (bm.state(x.g.gblock_of(c.ppa)) == BlockState::Victim) {
      map_ver[lpn] = 0;
      return;
    }
    ++r.lost_trims;
    plan.changed.push_back(lpn / eps);
    plan.moved.push_back(lpn);
    if (e != c.ppa) drive.map(lpn, c.ppa);
    map_ver[lpn] = c.version;
    checker.recovered(lpn, c.version);
    return;
  }
  if (got > acked) {
    checker.violation("power loss: LPN " + std::to_string(lpn) + " recovered version " + std::to_string(got) +
                      " newer than any written (" + std::to_string(acked) + ")", x.now_ps);
    return;
  }
  if (got == acked) {
    if (!from_dump && e != c.ppa) {  // recovered elsewhere than the live map says (e.g. a torn GC copy)
      if (c.ppa == kInvalid) drive.unmap(lpn); else drive.map(lpn, c.ppa);
      plan.moved.push_back(lpn);
      map_ver[lpn] = c.ppa == kInvalid ? 0 : c.version;
    }
    return;
  }
  ++r.lost_acknowledged;
  plan.changed.push_back(lpn / eps);
  plan.moved.push_back(lpn);
  uint32_t live = c.version;
  if (c.ppa == kInvalid || bm.state(x.g.gblock_of(c.ppa)) == BlockState::Victim) {
    // Unmapped, or the older copy sits in a block GC is collecting (it would not move it again): unmapped,
    // and the recovery's checkpoint says so.
    live = 0;
    drive.unmap(lpn);
    x.state.floor[lpn] = acked;
    x.state.mark(lpn);
  } else if (e != c.ppa) {
    drive.map(lpn, c.ppa);
  }
  map_ver[lpn] = live;
  checker.recovered(lpn, live);
}

}  // namespace

void rebuild(const LossContext& x, RecoveryPlan& plan, RecoveryReport& r) {
  for (uint32_t lpn : plan.buffered)
    if (!plan.saved.count(lpn)) x.buffer.discard(lpn);
  if (plan.saved.size() < plan.buffered.size()) x.buffer.reclaim_dropped(x.now_ps);
  std::vector<uint32_t>& map_ver = x.state.map_ver;
  for_each_checked(x, plan, [&](uint32_t lpn) {
    if (plan.incremental) map_ver[lpn] = live_version(x, plan, lpn);
    if (map_ver[lpn] && x.state.untrusted(lpn, map_ver[lpn])) map_ver[lpn] = 0;  // the live copy is not trusted
    const uint32_t e = x.drive.lookup(lpn);
    settle(x, plan, lpn, e, recovered_copy(x, plan, lpn, e, r), r);
  });
  // Buffered copies lost now may still be programmed by operations already in the channels: never trust them.
  x.state.torn_versions.insert(plan.pending.begin(), plan.pending.end());
  for (size_t w = 0; w < plan.unsaved_lpns.words.size(); ++w) x.state.marked[w] |= plan.unsaved_lpns.words[w];
}

void write_checkpoint(const LossContext& x, RecoveryPlan& plan, RecoveryTimeline& rec, RecoveryReport& r) {
  // The segments the replay rebuilt or the losses changed are written back (a map on flash, or a page map with a
  // flash copy); a page map that lives in DRAM only keeps them dirty.
  const MapCacheParams& mp = x.cache.params();
  if (!plan.whole_map_in_dram) {
    uint64_t written = plan.replayed_segments;
    for (uint32_t s : plan.changed)
      if (plan.segments[s] != SegmentSource::Replay) {
        plan.segments[s] = SegmentSource::Replay;
        ++written;
      }
    r.map_programs = (written + mp.segments_per_page - 1) / std::max<uint32_t>(1, mp.segments_per_page);
  }
  for (uint64_t i = 0; i < r.map_programs; ++i) rec.program(rec.next_die(), uint32_t(i % x.g.pages_per_block));
  r.reads = rec.ops() - r.map_programs;
  r.time_ps = rec.span(x.params.flash_op_ps, x.params.cores);
}

}  // namespace ssdtlm
