// The scan step (README.md): what recovery reads after power comes back (the dump, the translation pages, the
// out-of-band data of the blocks it scans) and what that tells it: the newest durable copy of each unit.
#include <algorithm>

#include "controller/power_loss/recovery_plan.h"

namespace ssdtlm {

namespace {

// The dump's pages, then the translation pages: a page map needs its whole map in DRAM again (every flash copy
// the dump does not supersede); a demand-based map reads only the segments whose updates it replays, to merge
// and write them back. Notes the segments to replay and the oldest of their checkpoints.
void read_dump_and_map(const LossContext& x, RecoveryPlan& plan, RecoveryTimeline& rec, RecoveryReport& r) {
  const Geometry& g = x.g;
  const MapCache& cache = x.cache;
  const uint32_t nseg = cache.params().segments(), segment_bytes = cache.params().segment_bytes;
  for (uint64_t i = 0; i < r.dump_programs; ++i)
    rec.read(rec.next_die(), uint32_t(i % g.pages_per_block), x.timing.program_bytes(), g.planes);
  for (uint32_t s = 0; s < nseg; ++s) {
    const bool on_flash = cache.ever_written_back(s);
    const SegmentSource src = plan.segments[s];
    if (src == SegmentSource::Replay) {
      plan.oldest_checkpoint = std::min<uint64_t>(plan.oldest_checkpoint, on_flash ? cache.checkpoint(s) : 0);
      ++plan.replayed_segments;
    }
    if (on_flash && (x.params.map_on_flash ? src == SegmentSource::Replay : src != SegmentSource::Dump)) {
      rec.read(rec.next_die(), s % g.pages_per_block, segment_bytes, 1);  // a segment lies within one plane
      ++r.segments_read;
    }
  }
}

// Which LPNs the recovery checks. Every loss after the first, when no map segment is replayed: those whose map
// entry or acknowledged version changed since the last loss (LpnChangeLog) and those buffered now. Any other LPN's
// entry and durable copy are as the last loss verified them: it recovers to its acknowledged version without being
// looked at (fault.power_loss_check=all checks every LPN, the same outcome). With segments to replay the replay
// needs each LPN's newest copy anywhere on flash, found in one pass over all.
void choose_checked(const LossContext& x, RecoveryPlan& plan) {
  LpnChangeLog& log = x.drive.changes();
  plan.incremental = log.armed() && plan.replayed_segments == 0 && !x.params.check_all;
  if (!plan.incremental) return;
  for (uint32_t lpn : plan.buffered) log.note(lpn);
  plan.checked = log.lpns();  // a copy: the recovery notes too
}

// Blocks scanned: every open block (to find where writing stopped), and with segments to replay every block closed
// after the oldest of their checkpoints. A block whose erase is in flight (a victim without valid units) is
// garbage; a free block holds nothing.
void choose_blocks(const LossContext& x, RecoveryPlan& plan) {
  const BlockManager& bm = x.drive.blocks();
  const uint32_t nblocks = x.g.dies * x.g.blocks_per_die;
  const bool replay = plan.replayed_segments != 0;
  const uint64_t oldest = plan.oldest_checkpoint;
  plan.usable.assign(nblocks, 0);
  plan.scanned.assign(nblocks, 0);
  plan.recent.assign(nblocks, 0);
  for (uint32_t b = 0; b < nblocks; ++b) {
    const BlockState st = bm.state(b);
    if (st == BlockState::Free || (st == BlockState::Victim && bm.valid(b) == 0)) continue;
    plan.usable[b] = 1;
    if (st == BlockState::Open || (replay && bm.closed_at(b) > oldest) || (replay && oldest == 0)) plan.scanned[b] = 1;
    plan.recent[b] = st == BlockState::Open || bm.closed_at(b) > x.state.close_clock;
  }
}

}  // namespace

void plan_reads(const LossContext& x, RecoveryPlan& plan, RecoveryTimeline& rec, RecoveryReport& r) {
  read_dump_and_map(x, plan, rec, r);
  choose_checked(x, plan);
  choose_blocks(x, plan);
  plan.pending.insert(plan.unsaved_versions.begin(), plan.unsaved_versions.end());
  // The per-lpn arrays live in the state and are all 0 / kInvalid between losses: scan_* are reset entry by entry
  // (only the scanned blocks' units touch them), map_ver by the verify step's pass, so a loss clears no whole array.
  PowerLossState& st = x.state;
  if (st.scan_ver.size() != x.logical) {
    st.scan_ver.assign(x.logical, 0);
    st.scan_ppa.assign(x.logical, kInvalid);
    st.map_ver.assign(x.logical, 0);
  }
  if (plan.replayed_segments) {
    plan.all_ver.assign(x.logical, 0);
    plan.all_ppa.assign(x.logical, kInvalid);
  }
}

// Newest durable copy per unit in the scanned blocks (scan_*) and, for segments to replay, anywhere (all_*): what
// the firmware's replay by version finds (docs/reference/power_loss.md: why the two agree). map_ver[lpn] comes in
// the same sequential pass over the blocks, instead of one random probe of the dies per unit.
void scan_blocks(const LossContext& x, RecoveryPlan& plan, RecoveryTimeline& rec, RecoveryReport& r) {
  const Geometry& g = x.g;
  DriveState& drive = x.drive;
  const PowerLossState& st = x.state;
  std::vector<uint32_t>&scan_ver = x.state.scan_ver, &scan_ppa = x.state.scan_ppa, &map_ver = x.state.map_ver;
  const uint32_t logical = x.logical, nblocks = g.dies * g.blocks_per_die;
  const uint32_t eps = x.cache.params().entries_per_segment();
  const bool replay = plan.replayed_segments != 0, incremental = plan.incremental;
  constexpr uint32_t kAhead = 32;
  const uint32_t die_units = g.units_per_block * g.blocks_per_die;
  for (uint32_t b = 0; b < nblocks; ++b) {
    if (!plan.usable[b]) continue;  // every block: which unsaved buffered copies are already on flash
    const bool scanned = plan.scanned[b];
    if (incremental && !scanned && !(plan.recent[b] && !plan.pending.empty())) continue;  // map_ver comes by lookup
    const uint32_t d = g.die_of_gblock(b), blk = g.block_in_die(b);
    Die& die = drive.die(d);
    const bool slc = drive.blocks().is_slc(b);
    if (scanned) ++r.blocks_scanned;
    const bool all_units = scanned || replay || !plan.pending.empty();
    for (uint32_t pg = 0; pg < g.pages_per_block && die.programmed(blk, pg); ++pg) {
      if (scanned) {
        rec.read(d, pg, g.units_per_page * x.params.oob_bytes, g.planes, slc);  // every unit's out-of-band data
        ++r.pages_scanned;
      }
      const uint32_t base = blk * g.units_per_block + pg * g.units_per_page, first = g.ppa(d, blk, pg, 0);
      for (uint32_t sl = 0; sl < g.units_per_page; ++sl) {
        // The live map's entry for lpn is this unit iff the unit is marked valid: every map entry's unit is
        // marked valid, and a unit marked valid is the one its out-of-band LPN maps to (the FTL changes map and
        // bitmap together; check.integrity's map audit verifies it). The bitmap saves a map miss per unit, and
        // outside the scanned blocks (with no segment to replay or pending copy) only the live units are read.
        const uint32_t u = base + sl, ppa = first + sl;
        if (u + kAhead < die_units) {  // map_ver is written at random: fetch the line a few units ahead
          const uint32_t ahead = die.lpn(u + kAhead);
          if (ahead < logical) __builtin_prefetch(&map_ver[ahead], 1);
        }
        const bool live = drive.valid(ppa);
        if (!live && !all_units) continue;
        const uint32_t lpn = die.lpn(u);
        if (lpn >= logical) continue;
        const UnitKind k = die.kind(u);
        if (k != UnitKind::UD && k != UnitKind::GUD) continue;
        const uint32_t v = die.version(u);
        if (live && !incremental) map_ver[lpn] = v;  // an untrusted copy is dropped by the rebuild (by lpn)
        if (!all_units || st.untrusted(lpn, v)) continue;
        if (!plan.pending.empty() && plan.unsaved_lpns.test(lpn)) plan.pending.erase(v);  // programmed: not lost
        if (scanned && v >= scan_ver[lpn]) {
          if (scan_ppa[lpn] == kInvalid) plan.scanned_lpns.push_back(lpn);
          scan_ver[lpn] = v;
          scan_ppa[lpn] = ppa;
        }
        if (replay && plan.segments[lpn / eps] == SegmentSource::Replay && v >= plan.all_ver[lpn]) {
          plan.all_ver[lpn] = v;
          plan.all_ppa[lpn] = ppa;
        }
      }
    }
  }
}

}  // namespace ssdtlm
