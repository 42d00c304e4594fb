#include "controller/power_loss.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "common/rng.h"
#include "controller/buffer/write_buffer.h"
#include "controller/integrity_checker.h"
#include "controller/page_ftl.h"

namespace ssdtlm {

namespace {

// Work of the recovery (or of the dump) per die and per channel, timed as the channel controller times it:
// a read is tR then its data-out on the channel's bus, a program its data-in then tPROG. Dies work in
// parallel; a die's own operations and a channel's transfers are serial.
struct Timeline {
  const Geometry& g;
  const FlashParams& f;
  const Channel& bus;
  std::vector<uint64_t> die, chan;
  uint64_t ops = 0;
  uint32_t rr = 0;
  Timeline(const Geometry& geo, const FlashParams& fp, const Channel& b)
      : g(geo), f(fp), bus(b), die(geo.dies, 0), chan(geo.channels, 0) {}
  void read(uint32_t d, uint32_t page, uint32_t bytes) {
    const uint64_t x = bus.transfer_ps(bytes);
    die[d] += f.read_ps(page) + x;
    chan[g.channel_of_die(d)] += x;
    ++ops;
  }
  void program(uint32_t d, uint32_t page) {
    const uint64_t x = bus.transfer_ps(g.units_per_page * kUnitBytes);
    die[d] += x + f.prog_ps(page);
    chan[g.channel_of_die(d)] += x;
    ++ops;
  }
  uint32_t next_die() {  // round robin, channel first (dies are numbered channel-first)
    const uint32_t d = rr;
    rr = rr + 1 == g.dies ? 0 : rr + 1;
    return d;
  }
  uint64_t span(uint64_t op_ps, uint32_t cores) const {
    uint64_t t = 0;
    for (uint64_t x : die) t = std::max(t, x);
    for (uint64_t x : chan) t = std::max(t, x);
    return std::max(t, ops * op_ps / std::max<uint32_t>(1, cores));
  }
};

// The firmware's trim journal: every trim since its segment's checkpoint is a record (first LPN and count, 4 bytes
// each; consecutive trimmed LPNs share one), because the out-of-band data a replay reads holds writes, not trims.
// The capacitors save it before everything else (it is what keeps a replay from bringing trimmed data back), in
// LPN order while the budget lasts: the trims of LPNs below the returned bound are durable, the others are lost.
// Counted: the LPNs unmapped by a trim in a dirty segment (`records`, the ranges); a map that lives in DRAM only
// (never written back) has no checkpoint on flash, so every trim is in its journal, unless the capacitors are
// unlimited (power.protected_bytes=0): then the whole map is saved and holds the trims.
struct TrimJournal {
  uint32_t kept_below = 0;
  uint64_t records = 0, records_saved = 0;
};

template <class Take>
TrimJournal dump_trim_journal(const PageFtl& ftl, const MapCache& cache, uint32_t logical, uint32_t eps,
                              bool whole_map_in_dram, bool unlimited, Take&& take) {
  TrimJournal j;
  j.kept_below = logical;
  if (whole_map_in_dram && unlimited) return j;  // the whole map is saved: it holds the trims
  constexpr uint64_t kRecordBytes = 8;
  bool lost = false;
  for (uint32_t lpn = ftl.next_trimmed(0); lpn < logical; lpn = ftl.next_trimmed(lpn + 1)) {
    const uint32_t start = lpn;
    while (lpn < logical && ftl.trimmed(lpn) && ftl.lookup(lpn) == kInvalid &&
           (whole_map_in_dram || cache.segment_dirty(lpn / eps)))
      ++lpn;
    if (lpn == start) continue;  // mapped again, or its segment's checkpoint holds the trim
    ++j.records;
    if (!lost && take(kRecordBytes)) {
      ++j.records_saved;
    } else if (!lost) {
      lost = true;
      j.kept_below = start;
    }
  }
  return j;
}

}  // namespace

RecoveryReport power_loss(PowerLossState& state, PageFtl& ftl, WriteBuffer& buffer, IntegrityChecker& checker,
                          const PowerLossParams& p, const FlashParams& flash, const Channel& bus,
                          uint64_t unacknowledged_units, uint64_t now_ps) {
  const Geometry& g = ftl.geometry();
  const BlockManager& bm = ftl.blocks();
  const MapCache& cache = ftl.map_cache();
  const MapCacheParams& mp = cache.params();
  const uint32_t logical = uint32_t(g.logical_units), eps = mp.entries_per_segment(), nseg = mp.segments();
  RecoveryReport r;
  r.at_ps = now_ps;
  r.lost_unacknowledged = unacknowledged_units;
  uint64_t budget = p.protected_bytes ? p.protected_bytes : ~uint64_t(0);
  auto take = [&](uint64_t bytes) {
    if (budget < bytes) return false;
    budget -= bytes;
    r.dump_bytes += bytes;
    return true;
  };

  // 0. The trim journal of the dirty segments, saved first.
  const bool whole_map_in_dram = !p.map_on_flash && p.protected_ratio >= 1.0;  // never written back
  const TrimJournal journal = dump_trim_journal(ftl, cache, logical, eps, whole_map_in_dram, !p.protected_bytes, take);
  r.trim_records = journal.records;
  r.trim_records_saved = journal.records_saved;

  // 1. The write buffer: the newest buffered copy of each unit (dirty, or being programmed), saved next.
  std::unordered_map<uint32_t, uint32_t> saved;  // lpn -> version, from the dump
  std::vector<uint32_t> buffered;
  std::vector<uint32_t> unsaved_versions;  // buffered copies the dump does not hold
  if (state.marked.empty()) state.marked.assign((logical + 63) / 64, 0);
  std::vector<uint64_t> unsaved_lpns((logical + 63) / 64, 0);  // bit per lpn: has a version in unsaved_versions
  std::vector<uint64_t> in_dump((logical + 63) / 64, 0);       // bit per lpn: its buffered copy is in the dump
  auto dumped = [&](uint32_t lpn) { return (in_dump[lpn >> 6] >> (lpn & 63)) & 1; };
  auto unsave = [&](uint32_t lpn, uint32_t version) {
    unsaved_versions.push_back(version);
    unsaved_lpns[lpn >> 6] |= uint64_t(1) << (lpn & 63);
  };
  buffer.for_each([&](uint32_t lpn, uint32_t version, bool dirty, bool newest) {
    if (!newest) {  // an older copy still being programmed: superseded in DRAM, nothing to save
      unsave(lpn, version);
      return;
    }
    buffered.push_back(lpn);
    ++r.buffer_units;
    if (dirty) ++r.buffer_dirty_units;
    if (p.buffer_protected && take(kUnitBytes)) {
      saved[lpn] = version;
      in_dump[lpn >> 6] |= uint64_t(1) << (lpn & 63);
    } else {
      unsave(lpn, version);
    }
  });
  r.buffer_saved = saved.size();

  // 2. The map. seg[s]: 0 = its flash copy is current (or it holds nothing), 1 = saved in the dump,
  // 2 = dirty and not saved: its flash copy (if any) is older than the map at the loss, and recovery replays
  // its later updates from the out-of-band data of the blocks closed since that copy was written.
  std::vector<uint8_t> seg(nseg, 0);
  if (!whole_map_in_dram) take(mp.gtd_bytes());  // the GTD locates the segments on flash
  std::vector<uint32_t> dirty;
  for (uint32_t s = 0; s < nseg; ++s)
    if (whole_map_in_dram || cache.segment_dirty(s)) dirty.push_back(s);
  r.segments_dirty = dirty.size();
  // Oldest checkpoint first: saving those shortens the scan most.
  std::stable_sort(dirty.begin(), dirty.end(),
                   [&](uint32_t a, uint32_t b) { return cache.checkpoint(a) < cache.checkpoint(b); });
  const uint64_t ratio_cap = whole_map_in_dram ? nseg : uint64_t(std::ceil(p.protected_ratio * nseg));
  for (uint32_t s : dirty) {
    if (r.segments_saved < ratio_cap && take(mp.segment_bytes)) {
      seg[s] = 1;
      ++r.segments_saved;
    } else {
      seg[s] = 2;
    }
  }
  r.dump_programs = (r.dump_bytes + g.page_bytes - 1) / g.page_bytes;
  {
    Timeline dump(g, flash, bus);
    for (uint64_t i = 0; i < r.dump_programs; ++i) dump.program(dump.next_die(), uint32_t(i % g.pages_per_block));
    r.dump_ps = dump.span(p.flash_op_ps, p.cores);
  }

  std::unordered_set<uint32_t>& torn = state.torn_versions;
  std::unordered_set<uint32_t> pending(unsaved_versions.begin(), unsaved_versions.end());
  std::unordered_map<uint32_t, uint32_t>& floor = state.floor;
  // A copy an earlier loss tore (completed by the model since) or declared stale: never trusted.
  auto untrusted = [&](uint32_t lpn, uint32_t v) {
    if (!state.is_marked(lpn)) return false;
    if (torn.count(v)) return true;
    auto f = floor.find(lpn);
    return f != floor.end() && v <= f->second;
  };

  // 3. Recovery reads: the dump, the translation pages, the out-of-band scan.
  Timeline rec(g, flash, bus);
  for (uint64_t i = 0; i < r.dump_programs; ++i) rec.read(rec.next_die(), uint32_t(i % g.pages_per_block), g.page_bytes);
  uint64_t oldest = ~uint64_t(0);  // oldest checkpoint among the unsaved segments
  uint64_t unsaved = 0;
  for (uint32_t s = 0; s < nseg; ++s) {
    const bool on_flash = cache.ever_written_back(s);
    if (seg[s] == 2) {
      oldest = std::min<uint64_t>(oldest, on_flash ? cache.checkpoint(s) : 0);
      ++unsaved;
    }
    // page: the whole map comes back into DRAM (every flash copy the dump does not supersede); a demand-based
    // map reads only the segments whose updates it replays, to merge and write them back.
    if (on_flash && (p.map_on_flash ? seg[s] == 2 : seg[s] != 1)) {
      rec.read(rec.next_die(), s % g.pages_per_block, mp.segment_bytes);
      ++r.segments_read;
    }
  }
  // Which LPNs the recovery checks. Every loss after the first, when no map segment is replayed: those whose
  // map entry or acknowledged version changed since the last loss (LpnChangeLog) and those buffered now. Any
  // other LPN's entry and durable copy are as the last loss verified them: it recovers to its acknowledged
  // version without being looked at (fault.power_loss_check=all checks every LPN, the same outcome). With
  // unsaved segments the replay needs each LPN's newest copy anywhere on flash, found in one pass over all.
  LpnChangeLog& log = ftl.changes();
  const bool incremental = log.armed() && unsaved == 0 && !p.check_all;
  if (incremental)
    for (uint32_t lpn : buffered) log.note(lpn);
  std::vector<uint32_t> checked;  // incremental: these; else 0 .. logical - 1 (a copy: the recovery notes too)
  if (incremental) checked = log.lpns();
  auto for_each_checked = [&](auto&& f) {
    if (!incremental)
      for (uint32_t lpn = 0; lpn < logical; ++lpn) f(lpn);
    else
      for (size_t i = 0; i < checked.size(); ++i) {
        // The checked LPNs are scattered: their map entries fetched 16 ahead, then (8 ahead) what those point at.
        if (i + 16 < checked.size()) ftl.prefetch_map(checked[i + 16]);
        if (i + 8 < checked.size()) {
          ftl.prefetch_old(checked[i + 8]);
          checker.prefetch(checked[i + 8]);
        }
        f(checked[i]);
      }
  };

  // Blocks scanned: every open block (to find where writing stopped), and with unsaved segments every block
  // closed after the oldest of their checkpoints. A block whose erase is in flight (a victim without valid
  // units) is garbage; a free block holds nothing. `recent`: a block written since the last loss (open, or
  // closed since), where a buffered copy can have been programmed.
  const uint32_t nblocks = g.dies * g.blocks_per_die;
  std::vector<uint8_t> scan(nblocks, 0), usable(nblocks, 0), recent(nblocks, 0);
  for (uint32_t b = 0; b < nblocks; ++b) {
    const BlockState st = bm.state(b);
    if (st == BlockState::Free || (st == BlockState::Victim && bm.valid(b) == 0)) continue;
    usable[b] = 1;
    if (st == BlockState::Open || (unsaved && bm.closed_at(b) > oldest) || (unsaved && oldest == 0)) scan[b] = 1;
    recent[b] = st == BlockState::Open || bm.closed_at(b) > state.close_clock;
  }
  // Newest durable copy per unit in the scanned blocks (scan_*) and, for unsaved segments, anywhere (all_*):
  // what the firmware's replay by version finds (docs/reference/power_loss.md: why the two agree).
  // The per-lpn arrays live in `state` and are all 0 / kInvalid between losses: scan_* are reset entry by entry
  // (only the scanned blocks' units touch them), map_ver by step 5's pass, so a loss clears no whole array.
  std::vector<uint32_t>&scan_ver = state.scan_ver, &scan_ppa = state.scan_ppa, all_ver, all_ppa;
  if (scan_ver.size() != logical) {
    scan_ver.assign(logical, 0);
    scan_ppa.assign(logical, kInvalid);
    state.map_ver.assign(logical, 0);
  }
  std::vector<uint32_t> scanned_lpns;  // the entries of scan_* to reset
  // map_ver[lpn]: the version at the live map's entry when that copy is durable and trusted, else 0 (found
  // in the same sequential pass over the blocks, instead of one random probe of the dies per unit).
  std::vector<uint32_t>& map_ver = state.map_ver;
  if (unsaved) {
    all_ver.assign(logical, 0);
    all_ppa.assign(logical, kInvalid);
  }
  constexpr uint32_t kAhead = 32;
  const uint32_t die_units = g.units_per_block * g.blocks_per_die;
  for (uint32_t b = 0; b < nblocks; ++b) {
    if (!usable[b]) continue;  // every block: which unsaved buffered copies are already on flash
    if (incremental && !scan[b] && !(recent[b] && !pending.empty())) continue;  // map_ver comes by lookup
    const uint32_t d = g.die_of_gblock(b), blk = g.block_in_die(b);
    Die& die = ftl.die(d);
    if (scan[b]) ++r.blocks_scanned;
    const bool all_units = scan[b] || unsaved || !pending.empty();
    for (uint32_t pg = 0; pg < g.pages_per_block && die.programmed(blk, pg); ++pg) {
      if (scan[b]) {
        rec.read(d, pg, g.units_per_page * p.oob_bytes);
        ++r.pages_scanned;
      }
      const uint32_t base = blk * g.units_per_block + pg * g.units_per_page, first = g.ppa(d, blk, pg, 0);
      for (uint32_t sl = 0; sl < g.units_per_page; ++sl) {
        // The live map's entry for lpn is this unit iff the unit is marked valid: every map entry's unit is
        // marked valid, and a unit marked valid is the one its out-of-band LPN maps to (the FTL changes map and
        // bitmap together; check.integrity's map audit verifies it). The bitmap saves a map miss per unit, and
        // outside the scanned blocks (with no unsaved segment or pending copy) only the live units are read.
        const uint32_t u = base + sl, ppa = first + sl;
        if (u + kAhead < die_units) {  // map_ver is written at random: fetch the line a few units ahead
          const uint32_t ahead = die.lpn(u + kAhead);
          if (ahead < logical) __builtin_prefetch(&map_ver[ahead], 1);
        }
        const bool live = ftl.valid(ppa);
        if (!live && !all_units) continue;
        const uint32_t lpn = die.lpn(u);
        if (lpn >= logical) continue;
        const UnitKind k = die.kind(u);
        if (k != UnitKind::UD && k != UnitKind::GUD) continue;
        const uint32_t v = die.version(u);
        if (live && !incremental) map_ver[lpn] = v;  // an untrusted copy is dropped in step 4 (by lpn)
        if (!all_units || untrusted(lpn, v)) continue;
        if (!pending.empty() && ((unsaved_lpns[lpn >> 6] >> (lpn & 63)) & 1)) pending.erase(v);  // programmed: not lost
        if (scan[b] && v >= scan_ver[lpn]) {
          if (scan_ppa[lpn] == kInvalid) scanned_lpns.push_back(lpn);
          scan_ver[lpn] = v;
          scan_ppa[lpn] = ppa;
        }
        if (unsaved && seg[lpn / eps] == 2 && v >= all_ver[lpn]) {
          all_ver[lpn] = v;
          all_ppa[lpn] = ppa;
        }
      }
    }
  }

  // 4. The recovered map, unit by unit, against the acknowledged versions; the losses applied to the live
  // state (the buffer forgets what was not saved; the map points at the recovered copy).
  auto durable = [&](uint32_t lpn, uint32_t ppa, uint32_t* v) {
    const uint32_t d = g.die_of(ppa), blk = g.block_of(ppa), pg = g.page_of(ppa);
    Die& die = ftl.die(d);
    if (!usable[g.gblock_of(ppa)] || !die.programmed(blk, pg)) return false;
    const uint32_t u = blk * g.units_per_block + pg * g.units_per_page + g.slot_of(ppa);
    if (die.lpn(u) != lpn || untrusted(lpn, die.version(u))) return false;
    *v = die.version(u);
    return true;
  };
  for (uint32_t lpn : buffered)
    if (!saved.count(lpn)) buffer.discard(lpn);
  if (saved.size() < buffered.size()) buffer.reclaim_dropped(now_ps);
  std::vector<uint32_t> changed;  // segments of units whose last write was lost
  std::vector<uint32_t> moved;    // units the recovery remapped
  // The version of lpn's live copy when it is durable: what the pass over every block finds for the unit marked
  // valid under lpn (its map entry), looked up for the LPNs an incremental check compares.
  auto live_version = [&](uint32_t lpn) -> uint32_t {
    const uint32_t e = ftl.lookup(lpn);
    if (e == kInvalid || !ftl.valid(e) || !usable[g.gblock_of(e)]) return 0;
    const uint32_t blk = g.block_of(e), pg = g.page_of(e);
    const Die& die = ftl.die(g.die_of(e));
    if (!die.programmed(blk, pg)) return 0;
    const uint32_t u = blk * g.units_per_block + pg * g.units_per_page + g.slot_of(e);
    const UnitKind k = die.kind(u);
    return die.lpn(u) == lpn && (k == UnitKind::UD || k == UnitKind::GUD) ? die.version(u) : 0;
  };
  // A durable trim record drops a copy older than the trim (versions are the write sequence): nothing comes back.
  auto drop_if_trimmed = [&](uint32_t lpn, uint32_t& rv, uint32_t& rppa) {
    if (rv && ftl.trimmed(lpn) && lpn < journal.kept_below && rv <= checker.trimmed_version(lpn)) {
      rv = 0;
      rppa = kInvalid;
    }
  };
  for_each_checked([&](uint32_t lpn) {
    if (incremental) map_ver[lpn] = live_version(lpn);
    if (map_ver[lpn] && untrusted(lpn, map_ver[lpn])) map_ver[lpn] = 0;  // the live copy is not trusted
    uint32_t rv = 0, rppa = kInvalid;
    const uint32_t e = ftl.lookup(lpn);
    if (seg[lpn / eps] != 2) {  // the checkpoint entry, checked against the out-of-band data it points at
      if (e != kInvalid) {
        if (map_ver[lpn]) {
          rv = map_ver[lpn];
          rppa = e;
        } else {
          ++r.torn_units;
          rv = scan_ver[lpn];
          rppa = scan_ppa[lpn];
          drop_if_trimmed(lpn, rv, rppa);  // the entry's write after a trim was torn
          if (rppa != kInvalid) ++r.units_replayed;
        }
      }
    } else {
      rv = all_ver[lpn];
      rppa = all_ppa[lpn];
      drop_if_trimmed(lpn, rv, rppa);
      uint32_t ev = 0;
      if (e != kInvalid && rppa != e && (ev = map_ver[lpn]) != 0 && ev == rv) rppa = e;  // same version: keep the live copy
      if (rppa != kInvalid && scan[g.gblock_of(rppa)]) ++r.units_replayed;
    }
    const bool from_dump = dumped(lpn);
    const uint32_t acked = checker.expected(lpn);
    const uint32_t got = from_dump ? saved.find(lpn)->second : rv;
    if (got > acked && !from_dump && acked == 0 && got <= checker.trimmed_version(lpn)) {
      // A trim whose journal record the capacitors could not save: the copy it removed (or an older one) is back,
      // as a write the drive lost would be (unless GC is erasing that copy's block: then it stays trimmed).
      if (bm.state(g.gblock_of(rppa)) == BlockState::Victim) {
        map_ver[lpn] = 0;
        return;
      }
      ++r.lost_trims;
      changed.push_back(lpn / eps);
      moved.push_back(lpn);
      if (e != rppa) ftl.map(lpn, rppa);
      map_ver[lpn] = rv;
      checker.recovered(lpn, rv);
      return;
    }
    if (got > acked) {
      checker.violation("power loss: LPN " + std::to_string(lpn) + " recovered version " + std::to_string(got) +
                        " newer than any written (" + std::to_string(acked) + ")", now_ps);
      return;
    }
    if (got == acked) {
      if (!from_dump && e != rppa) {  // recovered elsewhere than the live map says (e.g. a torn GC copy)
        if (rppa == kInvalid) ftl.unmap(lpn); else ftl.map(lpn, rppa);
        moved.push_back(lpn);
        map_ver[lpn] = rppa == kInvalid ? 0 : rv;
      }
      return;
    }
    ++r.lost_acknowledged;
    changed.push_back(lpn / eps);
    moved.push_back(lpn);
    uint32_t live = rv;
    if (rppa == kInvalid || bm.state(g.gblock_of(rppa)) == BlockState::Victim) {
      // Unmapped, or the older copy sits in a block GC is collecting (it would not move it again): unmapped,
      // and the recovery's checkpoint says so.
      live = 0;
      ftl.unmap(lpn);
      map_ver[lpn] = 0;
      floor[lpn] = acked;
      state.mark(lpn);
    } else if (e != rppa) {
      ftl.map(lpn, rppa);
    }
    map_ver[lpn] = live;
    checker.recovered(lpn, live);
  });
  // Buffered copies lost now may still be programmed by operations already in the channels: never trust them.
  torn.insert(pending.begin(), pending.end());
  for (uint32_t w = 0; w < unsaved_lpns.size(); ++w) state.marked[w] |= unsaved_lpns[w];
  // The recovery ends with a checkpoint: the segments it replayed or changed are written back (a map on
  // flash, or a page map with a flash copy); a page map that lives in DRAM only keeps them dirty.
  if (!whole_map_in_dram) {
    for (uint32_t s : changed)
      if (seg[s] != 2) {
        seg[s] = 2;
        ++unsaved;
      }
    r.map_programs = (unsaved + mp.segments_per_page - 1) / std::max<uint32_t>(1, mp.segments_per_page);
  }
  for (uint64_t i = 0; i < r.map_programs; ++i) rec.program(rec.next_die(), uint32_t(i % g.pages_per_block));
  r.reads = rec.ops - r.map_programs;
  r.time_ps = rec.span(p.flash_op_ps, p.cores);

  // 5. The logical space (the checked LPNs), live: every unit reads back its acknowledged (or recovered) version.
  for_each_checked([&](uint32_t lpn) {
    const uint32_t want = checker.expected(lpn);
    uint32_t got = 0;
    if (!dumped(lpn) || !buffer.lookup(lpn, &got)) {  // only what the dump saved is still buffered
      const uint32_t e = ftl.lookup(lpn);
      if (e != kInvalid && !(got = map_ver[lpn])) got = kInvalid;  // in flight, with no copy in DRAM
    }
    map_ver[lpn] = 0;  // ready for the next loss
    if (got != want && r.mismatches++ == 0)
      checker.violation("after the power loss: LPN " + std::to_string(lpn) + " holds version " +
                        (got == kInvalid ? std::string("none (torn)") : std::to_string(got)) + ", expected " +
                        std::to_string(want), now_ps);
  });
  for (uint32_t lpn : scanned_lpns) {
    scan_ver[lpn] = 0;
    scan_ppa[lpn] = kInvalid;
  }
  // The units the recovery remapped, once more straight from the dies' out-of-band data.
  for (uint32_t lpn : moved) {
    uint32_t got = 0, want = checker.expected(lpn);
    const uint32_t e = ftl.lookup(lpn);
    if (buffer.lookup(lpn, &got)) continue;
    if (e != kInvalid && !durable(lpn, e, &got)) got = kInvalid;
    if (e == kInvalid) got = 0;
    if (got != want && r.mismatches++ == 0)
      checker.violation("after the power loss: LPN " + std::to_string(lpn) + " holds version " +
                        (got == kInvalid ? std::string("none (torn)") : std::to_string(got)) + ", expected " +
                        std::to_string(want), now_ps);
  }
  track_recovery_changes(state, ftl, checker);  // the next loss checks what changes from here on
  return r;
}

void track_recovery_changes(PowerLossState& state, PageFtl& ftl, IntegrityChecker& checker) {
  LpnChangeLog& log = ftl.changes();
  if (log.armed()) log.clear(); else log.arm(ftl.geometry().logical_units);
  checker.track_changes(&log);
  state.close_clock = ftl.blocks().close_clock();
}

}  // namespace ssdtlm
