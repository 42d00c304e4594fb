#include "controller/gc/gc_engine.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "controller/drive_state.h"
#include "controller/gc/gc_victims.h"
#include "controller/gc/wear_level.h"
#include "controller/mapping/translation_store.h"
#include "controller/streams/streams.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void GcDie::snapshot(SnapshotArchive& a) {
  a.io_all(active, victim, next_page, reads, programs, erases, staged, full, stage, scanned, credit, ratio, data_ps,
           map_victim, map_updates, reading, staged_segs, moves, rseg, seg, rloc, loc);
}

void GcEngine::snapshot(SnapshotArchive& a) {
  a.section("gc");
  a.io_all(dies_, active_, batch_moves_);
}

GcEngine::GcEngine(const GcContext& ctx)
    : state_(ctx.state),
      streams_(ctx.streams),
      victims_(ctx.victims),
      ts_(ctx.translation),
      wl_(ctx.wear_level),
      g_(ctx.state.geometry()),
      upp_(g_.units_per_page),
      dies_(g_.dies),
      batch_moves_(ctx.batch_moves),
      pointer_names_die_(ctx.state.blocks().write_pointer().one_die()),
      unit_places_pages_(ctx.state.blocks().unit().places_pages()),
      unit_spans_dies_(ctx.state.blocks().pool().spans_dies()) {
  for (GcDie& j : dies_) j.stage.resize(state_.blocks().layout().gc);
}

void GcEngine::start(uint32_t d) {
  dies_[d].active = true;
  ++active_;
}

bool GcEngine::finish_if_idle(uint32_t d) {
  GcDie& j = dies_[d];
  if (j.victim != kInvalid || j.reads || j.staged || j.programs || j.erases || !j.scanned.empty() || j.map_updates ||
      j.staged_segs || !j.moves.empty())
    return false;
  j.active = false;
  j.credit = 1.0;
  --active_;
  return true;
}

uint32_t GcEngine::pick_victim(uint32_t d, FlashCounters& c) { return victims_.pick_victim(d, c, any_staged(d)); }

uint32_t GcEngine::next_victim(uint32_t d, FlashCounters& c) {
  const uint32_t victim = pick_victim(d, c);
  if (victim != kInvalid) begin_scan(d, victim);
  return victim;
}

bool GcEngine::is_map_block(uint32_t victim) const {
  return ts_ && ts_->is_map_block(victim);
}

void GcEngine::begin_scan(uint32_t d, uint32_t victim) {
  GcDie& j = dies_[d];
  j.map_victim = is_map_block(victim);
  j.victim = victim;
  j.next_page = 0;
  const uint32_t v = state_.blocks().valid(victim);
  // A victim taken by a source that paces no host write (a fold or a read reclaim not needed for free blocks: the
  // SLC blocks it frees gate host writes instead) earns unbounded credit. (A wear-levelling victim is paced like a GC
  // victim: its relocation frees no space, so host writes to the die wait for it, and the die cannot run out of free
  // blocks for the copies.)
  const bool unpaced = victims_.sources().unpaced(d, victim) && !victims_.gc_needed(d);
  victims_.pacing().begin_victim(j, unpaced || !v ? 1e30 : double(g_.units_per_block - v) / double(v) / upp_);
}

void GcEngine::end_scan(uint32_t d) {
  GcDie& j = dies_[d];
  j.scanned.push_back(j.victim);
  j.victim = kInvalid;
}

bool GcEngine::wants_victim_timed(uint32_t d) const {
  const GcDie& j = dies_[d];
  const BlockManager& b = state_.blocks();
  const bool short_of_space = victims_.gc_short(d, j.erases + uint32_t(j.scanned.size())) ||
                              (unit_spans_dies_ && b.pool().victim_pending(d)) ||
                              victims_.sources().wanted(d);
  const bool fill = j.staged > 0 && j.stage.size() == 1 && !unit_spans_dies_;
  // Several GC streams: a new victim waits for a free block while an earlier one's erase is coming (its units
  // may need a block in each stream; gc_target spills only the last victim's units).
  const bool wait = j.stage.size() > 1 && b.free_blocks(d) == 0 && (j.erases || !j.scanned.empty() || j.programs);
  return (short_of_space || fill) && !wait;
}

bool GcEngine::wants_victim_now(uint32_t d) const {
  const GcDie& j = dies_[d];
  const BlockManager& b = state_.blocks();
  const uint32_t pending = uint32_t(j.scanned.size());
  if (victims_.sources().wanted_now(d)) return true;  // e.g. static wear levelling (gc/victim_source.h)
  if (!pending || unit_spans_dies_ || ts_ || j.stage.size() > 1 || b.free_blocks(d) == 0 ||
      b.frontier_full(d, b.layout().gc_frontier(0)))
    return victims_.gc_needed(d);
  return victims_.gc_short(d, pending);
}

bool GcEngine::next_read(uint32_t d, uint32_t* page, uint32_t* mask) {
  GcDie& j = dies_[d];
  const uint32_t block = g_.block_in_die(j.victim);
  while (j.next_page < g_.pages_per_block) {
    const uint32_t p = j.next_page++;
    const uint32_t m = state_.valid_mask(d, block, p);
    if (!m) continue;
    *page = p;
    *mask = m;
    return true;
  }
  return false;
}

uint32_t GcEngine::gc_stream_of_many(uint32_t d, uint32_t lpn, uint32_t old) const {
  const Streams& st = streams_;
  return st.gc_stream_of(st.gc_data_stream(lpn, state_.die(d).stream(old - g_.ppa(d, 0, 0))));
}

uint32_t GcEngine::gc_target(uint32_t die, uint32_t k) const {
  // The GC stream whose frontier takes GC stream k's next page on `die`: k itself, unless its frontier is full and
  // the die has no free block left; then another GC stream's open block with room (the units keep their own stream
  // tag). So GC finishes a victim it started with one free block however its units spread over the streams (a
  // victim holds at most a block's worth, and the block it opened last has room for it). (FDP: on the die of the GC
  // frontier's write pointer.)
  const BlockManager& b = state_.blocks();
  const FrontierLayout& l = b.layout();
  if (unit_places_pages_) die = b.unit().page_die(b, die, l.gc_frontier(k));
  if (l.gc == 1 || b.can_allocate(die, l.gc_frontier(k), 0)) return k;
  for (uint32_t j = 0; j < l.gc; ++j)
    if (!b.frontier_full(die, l.gc_frontier(j))) return j;
  return k;
}

namespace {
// Out of line: rare (superblock GC with per-die write pointers), and page_target stays small enough to inline.
__attribute__((noinline)) uint32_t gc_copy_die(const BlockManager& b, uint32_t d, uint32_t frontier) {
  return b.pool().gc_copy_die(d, frontier);
}
}  // namespace

// Inlined into take_page and page_waits (per GC page; out of line it cost the fast-forward 1.4 % more instructions).
__attribute__((always_inline)) inline void GcEngine::page_target(uint32_t d, uint32_t k, uint32_t* target,
                                                                 uint32_t* frontier, uint32_t* to) const {
  const BlockManager& b = state_.blocks();
  const uint32_t t = gc_target(d, k), f = b.layout().gc_frontier(t);
  *target = t;
  *frontier = f;
  // A write pointer that names the die (striped, FEMU bbssd): that die, whichever die staged the units. Else the die
  // itself (units over several dies, superblock GC: unless it is a unit ahead, UnitPool::gc_copy_die).
  *to = pointer_names_die_ ? b.write_pointer().next_die(f, b.group_of_die(d))
         : unit_spans_dies_  ? gc_copy_die(b, d, f)
                             : d;
}

bool GcEngine::erase_coming(uint32_t d) const {
  const GcDie& j = dies_[d];
  if (j.erases) return true;
  // A scanned victim none of whose units wait in the staging (they are all in programs under way) erases once those
  // land; one with staged units would wait for the very page that waits for it.
  for (const uint32_t victim : j.scanned) {
    bool staged = is_map_block(victim) && j.staged_segs;
    for (const GcStage& st : j.stage)
      for (uint32_t i = 0; i < st.n && !staged; ++i) staged = g_.gblock_of(st.old[i]) == victim;
    if (!staged) return true;
  }
  return false;
}

bool GcEngine::page_waits(uint32_t d, uint32_t k) const {
  // No erase to wait for (a unit of one die only: one of several dies is free once all of them are erased).
  if (!erase_coming(d) || unit_spans_dies_) return false;
  uint32_t target, frontier, to;
  page_target(d, k, &target, &frontier, &to);
  return to == d && !state_.blocks().can_allocate(to, frontier, 0);
}

void GcEngine::take_page(uint32_t d, uint32_t k, uint32_t n, GcPage& out, FlashCounters& c, StreamStats* stats) {
  GcDie& j = dies_[d];
  GcStage& st = j.stage[k];
  BlockManager& b = state_.blocks();
  uint32_t target, frontier, to;
  page_target(d, k, &target, &frontier, &to);
  if (target != k && stats) stats->gc_spilled += n;
  const uint32_t ppa = b.allocate_page(to, frontier);
  if (ppa == kInvalid) throw std::logic_error("die " + std::to_string(to) + ": no free block for GC data");
  out.die = to;
  out.src = d;
  out.ppa = ppa;
  out.n = n;
  // The out-of-band stream: the GC stream's data stream; the shared GC stream's units keep the streams of their
  // old copies (the first unit's here, the others' set when the page lands: land_page).
  const bool mixed = streams_.params().gc == GcStreams::Shared && streams_.user_streams() > 1;
  out.stream = uint8_t(mixed && n ? state_.die(d).stream(st.old[0] - g_.ppa(d, 0, 0)) : k);
  for (uint32_t s = 0; s < upp_; ++s) {
    const bool real = s < n;
    out.lpn[s] = real ? st.lpn[s] : kInvalid;
    out.version[s] = real ? st.version[s] : 0;
    out.old[s] = real ? st.old[s] : kInvalid;
  }
  const bool was_full = st.n >= upp_;
  std::copy(st.lpn + n, st.lpn + st.n, st.lpn);
  std::copy(st.version + n, st.version + st.n, st.version);
  std::copy(st.old + n, st.old + st.n, st.old);
  st.n -= n;
  j.staged -= n;
  if (was_full && st.n < upp_) --j.full;
  if (stats) stats->gc_padding += upp_ - n;
  j.credit += n * j.ratio;
  ++j.programs;
  // A page whose first unit comes from an SLC block is a fold program (slc.*), else a GC copy.
  out.fold = n && b.is_slc(g_.gblock_of(out.old[0]));
  if (out.fold)
    ++c.fold_programs;
  else
    ++c.programs[uint32_t(UnitKind::GUD)];
}

uint32_t GcEngine::land_page(const GcPage& p, uint32_t* moved, FlashCounters& c, StreamStats* stats) {
  --dies_[p.src].programs;
  for (uint32_t s = 0; s < p.n; ++s)
    if (p.lpn[s] != kInvalid) state_.prefetch_map(p.lpn[s]);
  const bool shared = streams_.params().gc == GcStreams::Shared && streams_.user_streams() > 1;
  Die& die = state_.die(p.die);
  const uint32_t die_base = g_.ppa(p.die, 0, 0);
  uint32_t n = 0;
  for (uint32_t s = 0; s < p.n; ++s) {
    if (p.lpn[s] == kInvalid || !state_.remap_if(p.lpn[s], p.old[s], p.ppa + s)) continue;  // padding, or overwritten
                                                                                          // or trimmed meanwhile
    // (remapping clears the old copy's valid bit, not its out-of-band data)
    // (The old copy's stream is in its own die's out-of-band data: a striped GC page may land on another die.)
    const uint32_t from = g_.die_of(p.old[s]);
    const uint32_t ds = shared ? state_.die(from).stream(p.old[s] - g_.ppa(from, 0, 0)) : p.stream;
    if (shared && ds != p.stream) die.set_stream(p.ppa + s - die_base, uint8_t(ds));
    if (stats) ++stats->gc_writes[ds];
    if (state_.blocks().is_slc(g_.gblock_of(p.old[s]))) ++c.slc_folded_units;
    moved[n++] = p.lpn[s];
  }
  if (batch_moves_) {
    std::vector<uint32_t>& m = dies_[p.src].moves;
    for (uint32_t i = 0; i < n; ++i) m.push_back(moved[i]);  // a page's few units: no library copy
  }
  c.gc_units_moved += n;
  state_.blocks().page_done(g_.gblock_of(p.ppa));
  return n;
}

bool GcEngine::moves_due(uint32_t d) const {
  const GcDie& j = dies_[d];
  if (j.moves.empty()) return false;
  for (uint32_t victim : j.scanned)
    if (erasable(d, victim)) return true;
  return false;
}

bool GcEngine::erasable(uint32_t d, uint32_t victim) const {
  // A map victim's segments point at their new pages when those are issued: it erases once they landed.
  if (dies_[d].programs && ts_ && ts_->is_map_block(victim)) return false;
  return !state_.blocks().valid(victim);
}

bool GcEngine::check_erase(uint32_t gblock, IntegrityChecker& checker, uint64_t time_ps) {
  return state_.check_erase(gblock, checker, time_ps);
}

void GcEngine::land_erase(uint32_t gblock, FlashCounters& c) {
  if (ts_) ts_->erased(gblock);
  state_.blocks().erased(gblock);
  if (wl_) wl_->erased(gblock);
  ++c.erases;
}

uint32_t GcEngine::next_map_read(uint32_t d, uint32_t* page) {
  GcDie& j = dies_[d];
  while (j.next_page < g_.pages_per_block) {
    const uint32_t p = j.next_page++;
    const uint32_t n = ts_->live_in_page(j.victim, p, j.rseg, j.rloc);
    if (!n) continue;
    j.reading = n;
    *page = p;
    return n;
  }
  return 0;
}

void GcEngine::stage_map_read(uint32_t d) {
  GcDie& j = dies_[d];
  const TranslationStore& ts = *ts_;
  for (uint32_t i = 0; i < j.reading; ++i)
    if (ts.where(j.rseg[i]) == j.rloc[i]) {  // not rewritten meanwhile
      j.seg[j.staged_segs] = j.rseg[i];
      j.loc[j.staged_segs++] = j.rloc[i];
    }
  j.reading = 0;
}

uint32_t GcEngine::map_target(uint32_t d) const {
  // The victim's own die is short of free blocks: the copies go to whichever die has room.
  TranslationStore& ts = *ts_;
  const uint32_t to = ts.pick_die();
  if (to == kInvalid && ts.can_place(d, 0)) return d;
  return to;
}

bool GcEngine::map_live(uint32_t d, uint32_t n) const {
  const GcDie& j = dies_[d];
  const TranslationStore& ts = *ts_;
  for (uint32_t i = 0; i < n; ++i)
    if (ts.where(j.seg[i]) == j.loc[i]) return true;
  return false;
}

uint32_t GcEngine::take_map_page(uint32_t d, uint32_t n, uint32_t to, FlashCounters& c) {
  GcDie& j = dies_[d];
  uint32_t ppa = kInvalid, moved = 0;
  if (to != kInvalid) {
    ppa = ts_->relocate(to, j.seg, j.loc, n, &moved);
    ++c.programs[uint32_t(UnitKind::GMD)];
    ++j.programs;
  }
  std::copy(j.seg + n, j.seg + j.staged_segs, j.seg);
  std::copy(j.loc + n, j.loc + j.staged_segs, j.loc);
  j.staged_segs -= n;
  return ppa;
}

void GcEngine::land_map_page(uint32_t d, uint32_t ppa) {
  --dies_[d].programs;
  state_.blocks().page_done(g_.gblock_of(ppa));
}

}  // namespace ssdtlm
