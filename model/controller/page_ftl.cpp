#include "controller/page_ftl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssdtlm {

PageFtl::PageFtl(const Geometry& g, std::vector<Die*> dies, std::unique_ptr<VictimPolicy> victim,
                 uint32_t gc_free_blocks, const FrontierLayout& layout)
    : g_(g),
      dies_(std::move(dies)),
      blocks_(g, layout, std::move(victim)),
      gc_free_blocks_(gc_free_blocks),
      l2p_(g.logical_units, kInvalid),
      valid_bits_(g.physical_units / 64 + 2, 0),
      ffgc_(g.dies),
      ff_counters_(g.dies),
      full_victims_(g.dies, 0) {
  MapCacheParams whole;
  whole.logical_units = g.logical_units;
  cache_ = make_full_map(whole);
  for (FfGc& f : ffgc_) f.stage.resize(layout.gc);
  blocks_.set_gc_reserve(std::max<uint32_t>(1, std::min<uint32_t>(layout.gc, gc_free_blocks - 1)));
  StreamParams sp;
  sp.count = layout.user - 1;
  sp.assign = layout.user > 1 ? "manual" : "single";
  sp.gc = layout.gc > 1 ? GcStreams::PerStream : GcStreams::Shared;
  sp.gc_in_user = layout.gc_in_user;
  streams_ = std::make_unique<Streams>(sp, g.logical_units);
}

void PageFtl::set_streams(std::unique_ptr<Streams> s) {
  if (s->user_streams() != blocks_.layout().user || s->gc_streams() != blocks_.layout().gc)
    throw std::logic_error("stream separation does not match the frontier layout");
  streams_ = std::move(s);
}

void PageFtl::map(uint32_t lpn, uint32_t ppa) {
  repoint(l2p_[lpn], ppa);
  blocks_.validate(g_.gblock_of(ppa));
}

bool PageFtl::remap_if(uint32_t lpn, uint32_t old_ppa, uint32_t new_ppa) {
  if (l2p_[lpn] != old_ppa) return false;
  map(lpn, new_ppa);
  return true;
}

void PageFtl::unmap(uint32_t lpn) {
  uint32_t old = l2p_[lpn];
  if (old == kInvalid) return;
  drop(old);
  l2p_[lpn] = kInvalid;
}

uint32_t PageFtl::valid_mask(uint32_t die, uint32_t block, uint32_t page) const {
  const uint32_t base = g_.ppa(die, block, page), shift = base & 63;
  uint64_t bits = valid_bits_[base >> 6] >> shift;
  if (shift + g_.units_per_page > 64) bits |= valid_bits_[(base >> 6) + 1] << (64 - shift);
  return uint32_t(bits & ((uint64_t(1) << g_.units_per_page) - 1));
}

uint32_t PageFtl::pick_victim(uint32_t die) { return pick_victim(die, counters_); }

uint32_t PageFtl::pick_victim(uint32_t die, FlashCounters& c) {
  if (blocks_.lines()) return pick_line_block(die, c);
  const uint32_t v = blocks_.pick_victim(die);
  if (v == kInvalid) return v;
  ++c.gc_victims;
  if (blocks_.valid(v) < g_.units_per_block)
    full_victims_[die] = 0;
  else if (++full_victims_[die] > g_.blocks_per_die)
    throw std::logic_error("die " + std::to_string(die) + ": GC finds only fully valid blocks (no reclaimable space)");
  return v;
}

uint32_t PageFtl::pick_line_block(uint32_t die, FlashCounters& c) {
  // The die's block of the victim line, or of a new one once the last is free again.
  uint32_t v = blocks_.next_line_block(die);
  const bool started = v == kInvalid && blocks_.lines_in_gc() == 0 && blocks_.start_line();
  if (started) v = blocks_.next_line_block(die);
  if (v == kInvalid) return v;
  ++c.gc_victims;
  if (!started) return v;
  // A configuration that cannot make progress: new lines keep holding only valid data, or keep being collected
  // while no host data is programmed (GC frees no more than its copies and the lines it retires take).
  if (blocks_.line_valid(g_.block_in_die(v)) < g_.units_per_block * g_.dies)
    full_lines_ = 0;
  else if (++full_lines_ > g_.blocks_per_die)
    throw std::logic_error("superblock GC finds only fully valid lines (no reclaimable space)");
  uint64_t host = counters_.programs[uint32_t(UnitKind::UD)];
  for (const FlashCounters& f : ff_counters_) host += f.programs[uint32_t(UnitKind::UD)];
  if (host != host_at_line_) {
    host_at_line_ = host;
    idle_lines_ = 0;
  } else if (++idle_lines_ > 2 * g_.blocks_per_die) {
    throw std::logic_error("superblock GC collected " + std::to_string(idle_lines_) +
                           " lines without room for host data: too little spare for the open lines of its "
                           "frontiers (raise geometry.over_provisioning or geometry.pages_per_block, or use "
                           "fewer streams)");
  }
  return v;
}

double PageFtl::alpha() const {
  double blocks = double(g_.blocks_per_die) - gc_free_blocks_ - 0.5 * blocks_.streams();
  return blocks * g_.units_per_block * g_.dies / double(g_.logical_units);
}

uint32_t PageFtl::ff_program(uint32_t die, uint32_t frontier, const uint32_t* lpns, const uint32_t* versions,
                             UnitKind kind, uint32_t tag) {
  uint32_t ppa = blocks_.allocate_page(die, frontier);
  if (ppa == kInvalid)
    throw std::logic_error("die " + std::to_string(die) + ": no free block for frontier " + std::to_string(frontier));
  dies_[die]->program(g_.block_of(ppa), g_.page_of(ppa), lpns, versions, kind, uint8_t(tag));
  ++ff_counters_[die].programs[uint32_t(kind)];
  return ppa;
}

void PageFtl::ff_gc_program(uint32_t die, uint32_t gc_stream) {
  FfStage& s = ffgc_[die].stage[gc_stream];
  for (uint32_t k = s.n; k < g_.units_per_page; ++k) s.lpn[k] = kInvalid;  // padding
  // A GC stream's pages hold one data stream, but for the shared GC stream with several user streams,
  // whose units keep the stream their old copies carry.
  const bool mixed = streams_->params().gc == GcStreams::Shared && blocks_.layout().user > 1;
  Die& d = *dies_[die];
  const uint32_t die_base = g_.ppa(die, 0, 0);
  const uint32_t tag = mixed && s.n ? d.stream(s.old[0] - die_base) : gc_stream;
  const uint32_t ppa =
      ff_program(die, blocks_.layout().gc_frontier(gc_target(die, gc_stream)), s.lpn, s.version, UnitKind::GUD, tag);
  if (mixed)
    for (uint32_t k = 1; k < s.n; ++k) d.set_stream(ppa + k - die_base, d.stream(s.old[k] - die_base));
  // The new page's block is open (its program is in flight): its valid count is added once (the LPNs
  // of GC units are distinct: each was valid in one place).
  uint32_t moved = 0, moved_lpns[kMaxUnitsPerPage];
  for (uint32_t k = 0; k < s.n; ++k) {
    uint32_t& entry = l2p_[s.lpn[k]];
    if (entry != s.old[k]) continue;  // overwritten since GC read it
    repoint(entry, ppa + k);
    moved_lpns[moved++] = s.lpn[k];
  }
  if (tstore_) ff_map_update(moved_lpns, moved);
  const uint32_t gblock = g_.gblock_of(ppa);
  blocks_.validate(gblock, moved);
  blocks_.page_done(gblock);
  ff_counters_[die].gc_units_moved += moved;
  s.n = 0;
  ff_erase_ready(die);
}

void PageFtl::ff_pad_gc(uint32_t die) {
  FfGc& f = ffgc_[die];
  for (uint32_t k = 0; k < f.stage.size(); ++k)
    if (f.stage[k].n) ff_gc_program(die, k);
}

bool PageFtl::check_erase(uint32_t gblock, IntegrityChecker& c, uint64_t time_ps) const {
  c.erase_checked();
  const uint32_t die = g_.die_of_gblock(gblock), block = g_.block_in_die(gblock);
  const Die& d = *dies_[die];
  const uint32_t first = block * g_.units_per_block, base = g_.ppa(die, 0, 0);
  for (uint32_t u = first; u < first + g_.units_per_block; ++u) {
    const uint32_t ppa = base + u, lpn = d.lpn(u);
    const bool data = d.kind(u) == UnitKind::UD || d.kind(u) == UnitKind::GUD;
    const bool mapped = data && lpn != kInvalid && lpn < l2p_.size() && l2p_[lpn] == ppa;
    if (!mapped && !valid(ppa)) continue;
    c.violation("erase of die " + std::to_string(die) + " block " + std::to_string(block) + " while unit " +
                    std::to_string(u - first) + (mapped ? " is the current location of LPN " + std::to_string(lpn)
                                                        : " is still marked valid") +
                    " (" + std::to_string(blocks_.valid(gblock)) + " valid units counted)",
                time_ps);
    return false;
  }
  return true;
}

void PageFtl::gc_source_violation(uint32_t lpn, uint32_t old, IntegrityChecker& c, uint64_t time_ps) const {
  const uint32_t now = l2p_[lpn];
  c.violation("GC copy of LPN " + std::to_string(lpn) + " from die " + std::to_string(g_.die_of(old)) + " block " +
                  std::to_string(g_.block_of(old)) + " page " + std::to_string(g_.page_of(old)) +
                  ", which is not its current location (" +
                  (now == kInvalid ? std::string("unmapped")
                                   : "die " + std::to_string(g_.die_of(now)) + " block " +
                                         std::to_string(g_.block_of(now)) + " page " + std::to_string(g_.page_of(now))) +
                  ")",
              time_ps);
}

void PageFtl::ff_erase_ready(uint32_t die) {
  auto& list = ffgc_[die].scanned;
  for (size_t i = 0; i < list.size();) {
    uint32_t victim = list[i];
    if (blocks_.valid(victim) && !early_erase_) {
      ++i;
      continue;
    }
    if (checker_ && !check_erase(victim, *checker_, 0) && early_erase_) {
      // The injected fault: drop the block's live units, as a real early erase would lose them.
      for (uint32_t u = 0; u < g_.units_per_block; ++u) {
        const uint32_t ppa = victim * g_.units_per_block + u;
        if (!valid(ppa)) continue;
        valid_bits_[ppa >> 6] &= ~(uint64_t(1) << (ppa & 63));
        l2p_[dies_[die]->lpn(ppa - g_.ppa(die, 0, 0))] = kInvalid;
      }
      blocks_.invalidate(victim, blocks_.valid(victim));
    }
    dies_[die]->erase(g_.block_in_die(victim));
    ++ff_counters_[die].erases;
    blocks_.erased(victim);
    if (tstore_) tstore_->erased(victim);
    list[i] = list.back();
    list.pop_back();
  }
}

bool PageFtl::ff_collect_line() {
  // A whole victim line at once, each die's block moved within the die (one worker: every die is touched).
  if (!blocks_.start_line()) {
    if (blocks_.declined()) return false;  // no line worth collecting yet (ftl.gc_min_invalid)
    // Every line is free or open: the configuration check should have refused it.
    throw std::logic_error("GC found no victim line (" + std::to_string(blocks_.free_lines()) + " free)");
  }
  for (uint32_t d = 0; d < g_.dies; ++d) {
    const uint32_t victim = pick_victim(d, ff_counters_[d]);
    if (victim != kInvalid) ff_collect_block(d, victim);
  }
  for (uint32_t d = 0; d < g_.dies; ++d) ff_pad_gc(d);  // every block of the line erases now
  return true;
}

bool PageFtl::ff_collect(uint32_t die) {
  if (blocks_.lines()) return ff_collect_line();
  FfGc& f = ffgc_[die];
  uint32_t victim = pick_victim(die, ff_counters_[die]);
  if (victim == kInvalid && blocks_.declined()) {
    ff_pad_gc(die);
    return false;
  }
  if (victim == kInvalid) {
    bool staged = false;
    for (const FfStage& st : f.stage) staged |= st.n > 0;
    if (!staged) throw std::logic_error("die " + std::to_string(die) + ": GC found no victim");
    ff_pad_gc(die);  // the staged units' victims can be erased once they land
    return true;
  }
  if (tstore_ && tstore_->is_map_block(victim))
    ff_collect_map(die, victim);
  else
    ff_collect_block(die, victim);
  return true;
}

void PageFtl::ff_collect_block(uint32_t die, uint32_t victim) {
  FfGc& f = ffgc_[die];
  Die& d = *dies_[die];
  const uint32_t block = g_.block_in_die(victim);
  const Streams& st = *streams_;
  const bool one = f.stage.size() == 1, by_count = st.params().gc == GcStreams::HotCold;
  // Every moved unit updates its map entry: fetch those entries in parallel before moving anything.
  for (uint32_t u = block * g_.units_per_block, end = u + g_.units_per_block; u < end; ++u)
    if (valid(g_.ppa(die, 0, 0) + u)) {
      prefetch_map(d.lpn(u));
      if (by_count) st.prefetch(d.lpn(u));
    }
  for (uint32_t p = 0; p < g_.pages_per_block; ++p) {
    uint32_t mask = valid_mask(die, block, p);
    if (!mask) continue;
    ++ff_counters_[die].reads[2];
    for (; mask; mask &= mask - 1) {
      uint32_t slot = uint32_t(__builtin_ctz(mask));
      uint32_t unit = block * g_.units_per_block + p * g_.units_per_page + slot;
      const uint32_t lpn = d.lpn(unit);
      if (checker_) check_gc_source(lpn, g_.ppa(die, block, p, slot), *checker_, 0);
      const uint32_t k = one ? 0 : st.gc_stream_of(st.gc_data_stream(lpn, d.stream(unit)));
      FfStage& s = f.stage[k];
      s.lpn[s.n] = lpn;
      s.version[s.n] = d.version(unit);
      s.old[s.n] = g_.ppa(die, block, p, slot);
      if (++s.n == g_.units_per_page) ff_gc_program(die, k);
    }
  }
  f.scanned.push_back(victim);
  // Several GC streams and no free block left: the partial pages go out, so the victims they hold erase.
  if (f.stage.size() > 1 && blocks_.free_blocks(die) == 0) ff_pad_gc(die);
  ff_erase_ready(die);
}

void PageFtl::ff_write_page(uint32_t die, uint32_t stream, const uint32_t* lpns, const uint32_t* versions) {
  if (gc_needed(die)) {
    while (ff_gc_short(die) && ff_collect(die)) {
    }
    // One GC stream carries its partial page over to the next collection (its victim waits); with several,
    // the partial pages are padded, as in the timed FTL (a rare stream would hold its victims for long).
    if (ffgc_[die].stage.size() > 1) ff_pad_gc(die);
  }
  const uint32_t ppa = ff_program(die, blocks_.layout().user_frontier(stream), lpns, versions, UnitKind::UD, stream);
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

void PageFtl::set_mapping(std::unique_ptr<MapCache> cache, bool on_flash) {
  cache_ = std::move(cache);
  if (on_flash) {
    if (!blocks_.layout().map) throw std::logic_error("demand-based mapping needs the map frontier");
    tstore_ = std::make_unique<TranslationStore>(g_, blocks_, cache_->params().segments(), cache_->params().segment_bytes);
  }
}

uint32_t PageFtl::group_by_segment(const uint32_t* in, uint32_t n, uint32_t* lpns, uint32_t* start) const {
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (in[i] != kInvalid) lpns[m++] = in[i];
  std::sort(lpns, lpns + m);  // a page's worth of units at most
  uint32_t groups = 0;
  for (uint32_t i = 0; i < m; ++i)
    if (i == 0 || cache_->segment_of(lpns[i]) != cache_->segment_of(lpns[i - 1])) start[groups++] = i;
  start[groups] = m;
  return groups;
}

void PageFtl::ff_map_update(const uint32_t* in, uint32_t n) {
  uint32_t lpns[kMaxUnitsPerPage], start[kMaxUnitsPerPage + 1];
  const uint32_t groups = group_by_segment(in, n, lpns, start);
  MapAccess a;
  for (uint32_t k = 0; k < groups; ++k) {
    a.clear();
    const uint32_t* first = lpns + start[k];
    cache_->write(cache_->segment_of(*first), first, start[k + 1] - start[k], a);
    ff_map_pending_.insert(ff_map_pending_.end(), a.wb, a.wb + a.nwb);
  }
}

void PageFtl::ff_map_page(uint32_t die, uint32_t ppa, UnitKind kind) {
  uint32_t none[kMaxUnitsPerPage];
  std::fill(none, none + g_.units_per_page, kInvalid);
  dies_[die]->program(g_.block_of(ppa), g_.page_of(ppa), none, nullptr, kind, 0);
  ++ff_counters_[die].programs[uint32_t(kind)];
  blocks_.page_done(g_.gblock_of(ppa));
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

void PageFtl::ff_collect_map(uint32_t die, uint32_t victim) {
  // Live segments of the victim are read page by page and packed into new map pages (GMD).
  const uint32_t k = tstore_->segments_per_page();
  uint32_t segs[2 * kMaxGather];
  uint64_t locs[2 * kMaxGather];
  uint32_t n = 0, moved;
  // The copies go to whichever die has room: the victim's own die is short of free blocks.
  auto target = [&] {
    uint32_t d = tstore_->pick_die();
    if (d == kInvalid && tstore_->can_place(die, 0)) d = die;
    if (d == kInvalid) throw std::logic_error("die " + std::to_string(die) + ": no free block for map GC");
    return d;
  };
  for (uint32_t p = 0; p < g_.pages_per_block; ++p) {
    const uint32_t got = tstore_->live_in_page(victim, p, segs + n, locs + n);
    if (!got) continue;
    ++ff_counters_[die].reads[2];
    n += got;
    while (n >= k) {
      const uint32_t to = target();
      ff_map_page(to, tstore_->relocate(to, segs, locs, k, &moved), UnitKind::GMD);
      std::copy(segs + k, segs + n, segs);
      std::copy(locs + k, locs + n, locs);
      n -= k;
    }
  }
  if (n) {
    const uint32_t to = target();
    ff_map_page(to, tstore_->relocate(to, segs, locs, n, &moved), UnitKind::GMD);
  }
  ffgc_[die].scanned.push_back(victim);
  ff_erase_ready(die);
}

void PageFtl::ff_merge_counters() {
  for (FlashCounters& d : ff_counters_) {
    for (int k = 0; k < 4; ++k) counters_.programs[k] += d.programs[k];
    for (int k = 0; k < 3; ++k) counters_.reads[k] += d.reads[k];
    counters_.erases += d.erases;
    counters_.gc_victims += d.gc_victims;
    counters_.gc_units_moved += d.gc_units_moved;
    d = FlashCounters();
  }
}

}  // namespace ssdtlm
