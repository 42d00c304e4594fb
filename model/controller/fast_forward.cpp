// PageFtl, part 2: the fast-forward. The GC engine (gc/gc_engine.h) and the map cache decide exactly as on
// the timed path; here every action is executed at once: a GC page is programmed and lands in the same
// call, a victim is read out page by page without waiting, an erase is done as soon as the engine allows it.
// Workers owning disjoint dies may write concurrently (see ff_write_page); counters go per die.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "controller/page_ftl.h"
#include "flash/flash_op.h"

namespace ssdtlm {

void PageFtl::ff_write_page(uint32_t die, uint32_t stream, const uint32_t* lpns, const uint32_t* versions) {
  // FDP: the page goes where the RU's write pointer is, on the dies of the writer's reclaim group (one worker).
  if (reclaim_units_) die = blocks_.stripe_die(blocks_.layout().user_frontier(stream), blocks_.group_of_die(die));
  if (gc_needed(die)) {
    // Collections that never bring the die out of GC (each frees what its copies take) would loop forever: a
    // configuration without room for its frontiers' open blocks or lines stops with a message instead.
    uint32_t rounds = 0;
    while (gc_.wants_victim_now(die) && ff_collect(die))
      if (++rounds > 2 * g_.blocks_per_die)
        throw std::logic_error("die " + std::to_string(die) + ": GC collected " + std::to_string(rounds) +
                               (blocks_.lines() ? " lines" : " blocks") +
                               " in a row without making room for host data: too little spare for the open " +
                               (blocks_.lines() ? "lines" : "blocks") + " of its frontiers (raise "
                               "geometry.over_provisioning, ftl.gc_free_blocks or geometry.pages_per_block, or use "
                               "fewer streams)");
    // One GC stream carries its partial page over to the next collection (its victim waits); with several,
    // the partial pages are padded, as in the timed FTL (a rare stream would hold its victims for long).
    if (gc_.streams() > 1) ff_pad(die);
  }
  const uint32_t ppa = blocks_.allocate_page(die, blocks_.layout().user_frontier(stream));
  if (ppa == kInvalid)
    throw std::logic_error("die " + std::to_string(die) + ": no free block for user stream " + std::to_string(stream));
  dies_[die]->program(g_.block_of(ppa), g_.page_of(ppa), lpns, versions, UnitKind::UD, uint8_t(stream));
  ++ff_counters_[die].programs[uint32_t(UnitKind::UD)];
  // The new page's block is open (its program is in flight): its valid count is added once, before the
  // units are mapped, since a page may hold two versions of one LPN (the first is dropped at once).
  const uint32_t gblock = g_.gblock_of(ppa);
  uint32_t units = 0;
  for (uint32_t s = 0; s < g_.units_per_page; ++s) units += lpns[s] != kInvalid;
  blocks_.validate(gblock, units);
  for (uint32_t s = 0; s < g_.units_per_page; ++s)
    if (lpns[s] != kInvalid) repoint(l2p_[lpns[s]], ppa + s);
  blocks_.page_done(gblock);
  if (tstore_) {
    ff_map_update(lpns, g_.units_per_page);
    ff_drain_map(die);
  }
}

void PageFtl::ff_finish() {
  for (uint32_t d = 0; d < g_.dies; ++d) {
    ff_pad(d);
    if (tstore_) ff_map_moves(d);
    if (tstore_) ff_drain_map(d);  // the copies' map write-backs
    gc_.die(d).credit = 1.0;       // the timed FTL starts every die's GC afresh
    gc_.die(d).ratio = 0.0;
  }
}

void PageFtl::ff_merge_counters() {
  for (FlashCounters& d : ff_counters_) {
    counters_ += d;
    d = FlashCounters();
  }
}

// ---------------------------------------------------------------- GC, executed at once

bool PageFtl::ff_collect(uint32_t die) {
  if (blocks_.lines()) return ff_collect_line(blocks_.group_of_die(die));
  const uint32_t victim = gc_.next_victim(die, ff_counters_[die]);
  if (victim == kInvalid && blocks_.declined()) {
    ff_pad(die);
    return false;
  }
  if (victim == kInvalid) {
    if (!gc_.any_staged(die)) throw std::logic_error("die " + std::to_string(die) + ": GC found no victim");
    ff_pad(die);  // the staged units' victims can be erased once they land
    return true;
  }
  if (gc_.die(die).map_victim)
    ff_collect_map(die);
  else
    ff_collect_block(die);
  return true;
}

bool PageFtl::ff_collect_line(uint32_t group) {
  // A whole victim line of the group at once, each die's blocks moved within the die (FDP: to the dies of the GC
  // frontier's write pointer) (one worker: every die is touched).
  if (!blocks_.start_line(group)) {
    if (blocks_.declined()) return false;  // no line worth collecting yet (ftl.gc_min_invalid)
    // Every line is free or open: the configuration check should have refused it.
    throw std::logic_error("GC found no victim line (" + std::to_string(blocks_.free_lines(group)) + " free)");
  }
  const uint32_t first = group * (g_.dies / blocks_.line_groups()), last = first + g_.dies / blocks_.line_groups();
  for (uint32_t d = first; d < last; ++d)
    for (uint32_t i = 0; i < blocks_.line_depth(); ++i)
      if (gc_.next_victim(d, ff_counters_[d]) != kInvalid) ff_collect_block(d);
  for (uint32_t d = first; d < last; ++d) ff_pad(d);  // every block of the line erases now
  return true;
}

void PageFtl::ff_collect_block(uint32_t die) {
  Die& d = *dies_[die];
  const uint32_t block = g_.block_in_die(gc_.die(die).victim);
  const Streams& st = *streams_;
  // Every moved unit updates its map entry: fetch those entries in parallel before moving anything.
  for (uint32_t u = block * g_.units_per_block, end = u + g_.units_per_block; u < end; ++u)
    if (valid(g_.ppa(die, 0, 0) + u)) {
      prefetch_map(d.lpn(u));
      if (st.params().gc == GcStreams::HotCold) st.prefetch(d.lpn(u));
    }
  uint32_t page, mask;
  while (gc_.next_read(die, &page, &mask)) {
    ++ff_counters_[die].reads[uint32_t(ReadKind::Gc)];
    for (; mask; mask &= mask - 1) {
      const uint32_t slot = uint32_t(__builtin_ctz(mask));
      const uint32_t unit = (block * g_.pages_per_block + page) * g_.units_per_page + slot;
      const uint32_t lpn = d.lpn(unit), old = g_.ppa(die, block, page, slot);
      if (checker_) check_gc_source(lpn, old, *checker_, 0);
      const uint32_t k = gc_.gc_stream_of(die, lpn, old);
      if (gc_.stage(die, k, lpn, d.version(unit), old)) {
        GcPage p;
        gc_.take_page(die, k, g_.units_per_page, p, ff_counters_[die], nullptr);
        ff_program_gc(p);
      }
    }
  }
  gc_.end_scan(die);
  // Several GC streams and no free block left: the partial pages go out, so the victims they hold erase.
  if (gc_.streams() > 1 && blocks_.free_blocks(die) == 0) ff_pad(die);
  ff_erase_ready(die);
}

void PageFtl::ff_program_gc(const GcPage& p) {
  dies_[p.die]->program(g_.block_of(p.ppa), g_.page_of(p.ppa), p.lpn, p.version, UnitKind::GUD, p.stream);
  uint32_t moved[kMaxUnitsPerPage];
  const uint32_t n = gc_.land_page(p, moved, ff_counters_[p.src], nullptr);
  if (tstore_ && !gc_.batches_moves()) ff_map_update(moved, n, true);
  ff_erase_ready(p.src);
}

void PageFtl::ff_erase_ready(uint32_t die) {
  if (gc_.moves_due(die)) ff_map_moves(die);
  gc_.erase_ready(die, [&](uint32_t victim) {
    if (checker_) gc_.check_erase(victim, *checker_, 0);
    dies_[die]->erase(g_.block_in_die(victim));
    gc_.land_erase(victim, ff_counters_[die]);
  });
}

void PageFtl::ff_collect_map(uint32_t die) {
  // Live segments of the victim are read page by page and packed into new map pages (GMD).
  const uint32_t k = tstore_->segments_per_page();
  const GcDie& j = gc_.die(die);
  auto copy = [&](uint32_t n) {
    const bool live = gc_.map_live(die, n);
    const uint32_t to = live ? gc_.map_target(die) : kInvalid;
    if (live && to == kInvalid) throw std::logic_error("die " + std::to_string(die) + ": no free block for map GC");
    const uint32_t ppa = gc_.take_map_page(die, n, to, ff_counters_[die]);
    if (ppa == kInvalid) return;
    ff_map_page(to, ppa, UnitKind::GMD);
    gc_.land_map_page(die, ppa);
  };
  uint32_t page;
  while (gc_.next_map_read(die, &page)) {
    ++ff_counters_[die].reads[uint32_t(ReadKind::Gc)];
    gc_.stage_map_read(die);
    while (j.staged_segs >= k) copy(k);
  }
  if (j.staged_segs) copy(j.staged_segs);
  gc_.end_scan(die);
  ff_erase_ready(die);
}

// ---------------------------------------------------------------- map write-backs, executed at once

void PageFtl::ff_map_update(const uint32_t* lpns, uint32_t n, bool gc) {
  // Loads and merges cost nothing here (no time passes); the write-backs wait for a map page.
  map_write(lpns, n, [&](uint32_t, const MapAccess& a) {
    ff_map_pending_.insert(ff_map_pending_.end(), a.wb, a.wb + a.nwb);
  }, gc);
}

void PageFtl::ff_map_moves(uint32_t die) {
  gc_.take_moves(die, [&](std::vector<uint32_t>& lpns) {
    map_gc_batch(lpns, [&](uint32_t, const MapAccess& a) {
      ff_map_pending_.insert(ff_map_pending_.end(), a.wb, a.wb + a.nwb);
    });
  });
}

void PageFtl::ff_map_page(uint32_t die, uint32_t ppa, UnitKind kind) {
  uint32_t none[kMaxUnitsPerPage];
  std::fill(none, none + g_.units_per_page, kInvalid);
  dies_[die]->program(g_.block_of(ppa), g_.page_of(ppa), none, nullptr, kind, 0);
  if (kind == UnitKind::MD) {  // (GC's map pages are counted and landed by the GC engine)
    ++ff_counters_[die].programs[uint32_t(kind)];
    blocks_.page_done(g_.gblock_of(ppa));
  }
}

void PageFtl::ff_drain_map(uint32_t die) {
  const uint32_t k = tstore_->segments_per_page();
  while (!ff_map_pending_.empty()) {
    uint32_t to;
    // Round robin over the dies, as in the timed FTL (not the die being written: segments are first
    // touched, and evicted, at aligned stripe boundaries, which would pile the map onto one die).
    while ((to = tstore_->pick_die()) == kInvalid)  // may queue more write-backs
      if (!ff_collect(die)) throw std::logic_error("no die can take a map page and no victim is worth collecting");
    const uint32_t n = std::min<uint32_t>(k, uint32_t(ff_map_pending_.size()));
    const uint32_t* segs = ff_map_pending_.data() + ff_map_pending_.size() - n;
    ff_map_page(to, tstore_->place(to, segs, n), UnitKind::MD);
    ff_map_pending_.resize(ff_map_pending_.size() - n);
  }
}

}  // namespace ssdtlm
