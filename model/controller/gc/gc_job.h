// The GC job: the one sequencing of garbage collection (victim -> reads -> staging -> programs -> map moves ->
// erase; map-block victims' reads and copies; padding), run by the timed FTL and by the fast-forward alike. The
// engine (gc_engine.h) decides; the job orders the engine's steps and hands each flash operation to an executor X,
// whose completions come back to the job's on_* functions. X is a final class (no virtual call per operation):
// - timed (controller/ftl_gc.cpp, GcDriver): operations through the FTL module's sockets, completions at their
//   simulated times (routed by FtlOpTag); X::kTimed = true;
// - immediate (controller/fast_forward.cpp, FfGcExec): done at once on the die model, counters per die, the
//   completion called before the operation returns; X::kTimed = false.
// What differs between the two is when GC runs, not how a victim is collected: the timed job starts when a die
// needs space (kick) and resumes on each completion (advance), taking victims while wants_victim_timed; the
// immediate job collects whole victims before a host page while wants_victim_now (make_room, collect).
//
// Executor interface (X):
//   static constexpr bool kTimed;
//   FlashCounters& counters(uint32_t die); StreamStats* stream_stats(); IntegrityChecker* checker(); uint64_t now();
//   void read(die, block, page, slot_mask, fold)   -> job.on_read(die, block, page, mask, lpn_of, version_of, done_ps)
//   void program(const GcPage&)                    -> job.on_program(page)
//   void erase(die, victim)                        -> job.on_erase(die, victim)
//   void map_read(die, block, page, segments)      -> job.on_map_read(die, done_ps)
//   void map_program(src, to, ppa)                 -> job.on_map_program(src, to, ppa)
//   void map_stalled(die)       a map victim's live copy finds no die with room (timed: retried; immediate: throws)
//   void map_updates(src, moved, n), gc_moves(die) the moves' map updates (map.gc_update=page / victim)
//   void scan_started(die)      a hint: the victim's scan begins (immediate: prefetches its units' entries)
//   timed only: erased(die, gblock), erase_refresh(die, lines_before), refresh(die), refresh_all(), job_ended(),
//   host_progress().
#pragma once
#include <algorithm>
#include <stdexcept>
#include <string>

#include "controller/drive_state.h"
#include "controller/ftl_engines.h"
#include "controller/gc/gc_engine.h"
#include "controller/gc/gc_victims.h"
#include "controller/mapping/translation_store.h"
#include "controller/slc/slc_cache.h"
#include "flash/flash_op.h"

namespace ssdtlm {

template <class X>
class GcJob {
 public:
  GcJob(const FtlEngines& e, X& x) : e_(e), gc_(e.gc), g_(e.state.geometry()), x_(x) {}

  // ---- timed: when GC runs
  void kick(uint32_t die);      // starts the die's GC if it needs it
  void host_idle(bool idle);    // slc.*: the host went idle (fold in the background) or busy
  void advance(uint32_t die);   // resumes the die's job (after a completion, or when something it waits for changed)

  // ---- immediate: when GC runs
  void make_room(uint32_t die);  // before a host page: collects while the die wants a victim
  bool collect(uint32_t die);    // one victim (superblock: a line) to its end; false: none worth collecting
  void pad(uint32_t die) {       // every partial GC page of the die, padded
    gc_.pad(die, x_.counters(die), x_.stream_stats(), [&](const GcPage& page) { x_.program(page); });
  }

  // ---- completions
  // lpn_of(slot), version_of(slot): the read page's out-of-band data (an operation's copy, or the die's own).
  template <class Lpn, class Version>
  void on_read(uint32_t die, uint32_t block, uint32_t page, uint32_t mask, Lpn&& lpn_of, Version&& version_of,
               uint64_t done_ps);
  void on_program(const GcPage& page);
  void on_erase(uint32_t die, uint32_t gblock);
  void on_map_read(uint32_t die, uint64_t done_ps);
  void on_map_program(uint32_t src, uint32_t to, uint32_t ppa);

 private:
  void step(uint32_t die);    // reads, programs, the end of the scan, the next victim (timed) or padding
  void read_pages(uint32_t die);
  void map_advance(uint32_t die);
  bool map_program(uint32_t die, uint32_t n);  // false: no die has room yet
  void settle(uint32_t die);  // the moves' map updates due, then the erases of victims whose units all landed
  void program(uint32_t die, uint32_t k, uint32_t n) {
    GcPage page;
    gc_.take_page(die, k, n, page, x_.counters(die), x_.stream_stats());
    x_.program(page);
  }
  bool next_victim(uint32_t die);  // timed
  bool pad_waits(uint32_t die) const;  // a partial page must wait for the die's erase under way (page_waits)
  bool collect_unit(uint32_t die);     // immediate, units over several dies (superblock, FDP: the die's group's)
  void scan(uint32_t die);             // immediate: the victim begun, to the end of its scan

  FtlEngines e_;
  GcEngine& gc_;
  const Geometry& g_;
  X& x_;
  bool kick_units_ = false;  // timed, a victim unit over several dies was started: its other dies must join
};

// ---------------------------------------------------------------- timed: when GC runs

template <class X>
void GcJob<X>::kick(uint32_t die) {
  // (Units over several dies, superblock: also when a started victim unit holds a block of this die to collect.)
  if (gc_.die(die).active ||
      !(e_.victims.gc_needed(die) || e_.state.blocks().pool().victim_pending(die) ||
        e_.victims.sources().wanted(die)) ||
      !next_victim(die))
    return;
  gc_.start(die);
  advance(die);  // ends with x_.refresh(die)
}

template <class X>
void GcJob<X>::host_idle(bool idle) {
  // Background folding (slc.*): the dies with a full SLC block start folding when the host goes idle.
  SlcCache* slc = e_.slc;
  if (!slc || slc->idle() == idle) return;
  slc->set_idle(idle);
  if (idle)
    for (uint32_t d = 0; d < g_.dies; ++d)
      if (slc->has_full(d)) kick(d);
}

template <class X>
bool GcJob<X>::next_victim(uint32_t die) {
  // Staged data that cannot be padded yet (its page waits for the die's erase under way) would have to be padded
  // if the next victim held map pages (data and map pages do not mix): pick after the erase (it calls advance).
  if (gc_.any_staged(die) && pad_waits(die)) return false;
  const uint32_t started = e_.state.blocks().pool().units_in_gc();
  const uint32_t victim = gc_.pick_victim(die, x_.counters(die));
  if (victim == kInvalid) return false;  // every block open or programming: retried on the next completion
  // A new victim unit over several dies: its dies collect their blocks.
  if (e_.state.blocks().pool().units_in_gc() != started) kick_units_ = true;
  // Data and map pages do not mix while programs are in flight (the immediate job has none: its partial data page
  // waits through the map victim).
  if (gc_.is_map_block(victim) && gc_.any_staged(die)) pad(die);
  gc_.begin_scan(die, victim);
  return true;
}

template <class X>
void GcJob<X>::advance(uint32_t die) {
  step(die);
  settle(die);
  if (gc_.finish_if_idle(die)) x_.job_ended();  // the buffer's flushes may use the die again (wake)
  x_.refresh(die);
  if (kick_units_) {  // a victim unit over several dies was started; the idle dies start on their blocks
    kick_units_ = false;
    for (uint32_t d = 0; d < g_.dies; ++d)
      if (!gc_.die(d).active && e_.state.blocks().pool().victim_pending(d)) kick(d);
    if (e_.victims.pacing().lines_hold_host()) x_.refresh_all();  // the line holds every die's host writes (refresh)
  }
}

template <class X>
bool GcJob<X>::pad_waits(uint32_t die) const {
  const GcDie& job = gc_.die(die);
  for (uint32_t k = 0; k < job.stage.size(); ++k)
    if (job.stage[k].n && gc_.page_waits(die, k)) return true;
  return false;
}

// ---------------------------------------------------------------- immediate: when GC runs

template <class X>
void GcJob<X>::make_room(uint32_t die) {
  if (!e_.victims.gc_needed(die)) return;
  // Collections that never bring the die out of GC (each frees what its copies take) would loop forever: a
  // configuration without room for its frontiers' open blocks or lines stops with a message instead.
  const bool lines = e_.state.blocks().pool().spans_dies();
  uint32_t rounds = 0;
  while (gc_.wants_victim_now(die) && collect(die))
    if (++rounds > 2 * g_.blocks_per_die)
      throw std::logic_error("die " + std::to_string(die) + ": GC collected " + std::to_string(rounds) +
                             (lines ? " lines" : " blocks") +
                             " in a row without making room for host data: too little spare for the open " +
                             (lines ? "lines" : "blocks") + " of its frontiers (raise "
                             "geometry.over_provisioning, ftl.gc_free_blocks or geometry.pages_per_block, or use "
                             "fewer streams)");
  // One GC stream carries its partial page over to the next collection (its victim waits); with several,
  // the partial pages are padded, as in the timed FTL (a rare stream would hold its victims for long).
  if (gc_.streams() > 1) pad(die);
}

template <class X>
bool GcJob<X>::collect(uint32_t die) {
  if (e_.state.blocks().pool().spans_dies()) return collect_unit(die);
  const uint32_t victim = gc_.next_victim(die, x_.counters(die));
  if (victim == kInvalid && e_.state.blocks().declined()) {
    pad(die);
    return false;
  }
  if (victim == kInvalid) {
    if (!gc_.any_staged(die)) throw std::logic_error("die " + std::to_string(die) + ": GC found no victim");
    pad(die);  // the staged units' victims can be erased once they land
    return true;
  }
  scan(die);
  return true;
}

template <class X>
void GcJob<X>::scan(uint32_t die) {
  x_.scan_started(die);
  do {
    step(die);
    settle(die);
  } while (gc_.die(die).victim != kInvalid);
}

template <class X>
bool GcJob<X>::collect_unit(uint32_t die) {
  // A whole victim unit of the die's dies at once (a line of its group), each die's blocks moved within the die
  // (FDP: to the dies of the GC frontier's write pointer) (one worker: every die is touched).
  BlockManager& b = e_.state.blocks();
  UnitPool& u = b.pool();
  if (!u.start_victim(die)) {
    if (b.declined()) return false;  // no line worth collecting yet (ftl.gc_min_invalid)
    // Every line is free or open: the configuration check should have refused it.
    throw std::logic_error("GC found no victim line (" + std::to_string(u.free_units(die)) + " free)");
  }
  uint32_t first, last;
  u.unit_dies(die, &first, &last);
  for (uint32_t d = first; d < last; ++d)
    for (uint32_t i = 0; i < u.blocks_per_die(); ++i)
      if (gc_.next_victim(d, x_.counters(d)) != kInvalid) scan(d);
  for (uint32_t d = first; d < last; ++d) pad(d);  // every block of the line erases now
  return true;
}

// ---------------------------------------------------------------- one victim, step by step

template <class X>
void GcJob<X>::step(uint32_t die) {
  GcDie& job = gc_.die(die);
  for (;;) {
    if (job.victim != kInvalid && job.map_victim) map_advance(die);
    else if (job.victim != kInvalid) read_pages(die);
    for (uint32_t k = 0; job.full && k < job.stage.size(); ++k)
      while (job.stage[k].n >= g_.units_per_page && !gc_.page_waits(die, k)) program(die, k, g_.units_per_page);
    // Map segments staged from a victim whose scan is over (or left by a stalled copy) go out now.
    if (job.staged_segs && (job.victim == kInvalid || job.next_page == g_.pages_per_block) && job.reads == 0)
      map_program(die, job.staged_segs);
    bool data_scanned = false;
    if (job.victim != kInvalid && job.next_page == g_.pages_per_block && job.reads == 0) {
      data_scanned = !job.map_victim;
      gc_.end_scan(die);
    }
    if constexpr (X::kTimed) {
      if (job.victim == kInvalid && job.reads == 0) {
        if (gc_.wants_victim_timed(die) && next_victim(die)) continue;
        if (job.staged > 0 && !pad_waits(die)) pad(die);  // no victim left, several GC streams, or waiting: pad
      }
    } else if (data_scanned && gc_.streams() > 1 && e_.state.blocks().free_blocks(die) == 0) {
      pad(die);  // several GC streams and no free block left: the partial pages go out, so the victims they hold erase
    }
    break;
  }
}

template <class X>
void GcJob<X>::read_pages(uint32_t die) {
  GcDie& job = gc_.die(die);
  const uint32_t block = g_.block_in_die(job.victim);
  const bool fold = e_.state.blocks().is_slc(job.victim);  // a fold's reads (slc.*) are counted as such
  FlashCounters& c = x_.counters(die);
  uint32_t page, mask;
  // One read at a time, and none while a full page waits to be programmed (an immediate read completes at once).
  while (job.reads == 0 && job.full == 0 && gc_.next_read(die, &page, &mask)) {
    if (fold)
      ++c.fold_reads;
    else
      ++c.reads[uint32_t(ReadKind::Gc)];
    ++job.reads;
    x_.read(die, block, page, mask, fold);
  }
}

template <class X>
void GcJob<X>::settle(uint32_t die) {
  GcDie& job = gc_.die(die);
  if (gc_.moves_due(die)) x_.gc_moves(die);  // map.gc_update=victim: before the erase
  gc_.erase_ready(die, [&](uint32_t victim) {
    if (IntegrityChecker* checker = x_.checker()) gc_.check_erase(victim, *checker, x_.now());
    ++job.erases;
    x_.erase(die, victim);
  });
}

// ---------------------------------------------------------------- map-block victims

template <class X>
void GcJob<X>::map_advance(uint32_t die) {
  GcDie& job = gc_.die(die);
  const uint32_t k = e_.translation->segments_per_page();
  for (;;) {
    while (job.staged_segs >= k)
      if (!map_program(die, k)) return;  // no room anywhere: retried after an erase
    uint32_t page, n;
    if (job.reads != 0 || !(n = gc_.next_map_read(die, &page))) return;
    ++job.reads;
    ++x_.counters(die).reads[uint32_t(ReadKind::Gc)];
    x_.map_read(die, g_.block_in_die(job.victim), page, n);
  }
}

template <class X>
bool GcJob<X>::map_program(uint32_t die, uint32_t n) {
  uint32_t to = kInvalid;
  if (gc_.map_live(die, n)) {
    to = gc_.map_target(die);
    if (to == kInvalid) {  // every die is short of blocks: retried after the next erase
      x_.map_stalled(die);
      return false;
    }
  }
  // The staging is settled before the op leaves: the channel may complete operations (and re-enter GC)
  // while it takes this one.
  const uint32_t ppa = gc_.take_map_page(die, n, to, x_.counters(die));
  if (ppa == kInvalid) return true;  // none live: dropped
  x_.map_program(die, to, ppa);
  return true;
}

// ---------------------------------------------------------------- completions

template <class X>
template <class Lpn, class Version>
void GcJob<X>::on_read(uint32_t die, uint32_t block, uint32_t page, uint32_t mask, Lpn&& lpn_of, Version&& version_of,
                       uint64_t done_ps) {
  GcDie& job = gc_.die(die);
  --job.reads;
  if constexpr (X::kTimed) job.data_ps = std::max(job.data_ps, done_ps);  // the staged data is in DRAM from then
  IntegrityChecker* checker = x_.checker();
  const uint32_t first = g_.ppa(die, block, page), upp = g_.units_per_page;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t s = uint32_t(__builtin_ctz(m));
    const uint32_t old = first + s, lpn = lpn_of(s);
    if constexpr (X::kTimed)  // (an immediate read lands as the scan found it)
      if (lpn == kInvalid || !e_.state.valid(old)) continue;  // overwritten or trimmed while the read was in flight
    if (checker) e_.state.check_gc_source(lpn, old, *checker, done_ps);
    const uint32_t k = gc_.gc_stream_of(die, lpn, old);
    // Immediate: a page is programmed as soon as it is full (and lands at once), in the order the streams fill.
    if (gc_.stage(die, k, lpn, version_of(s), old) && !X::kTimed) program(die, k, upp);
  }
  if constexpr (X::kTimed) advance(die);
}

template <class X>
void GcJob<X>::on_program(const GcPage& page) {
  uint32_t moved[kMaxUnitsPerPage];
  const uint32_t n = gc_.land_page(page, moved, x_.counters(page.src), x_.stream_stats());
  // The moves update the map through the cache, batched per segment; GC finishes once that work is done.
  if (n && !gc_.batches_moves()) x_.map_updates(page.src, moved, n);
  if constexpr (X::kTimed)
    advance(page.src);
  else
    settle(page.src);  // the victims whose last units this page held erase before the next page is taken
}

template <class X>
void GcJob<X>::on_erase(uint32_t die, uint32_t gblock) {
  const uint32_t lines_before = e_.state.blocks().pool().units_in_gc();
  gc_.land_erase(gblock, x_.counters(die));
  if constexpr (X::kTimed) x_.erased(die, gblock);  // zone resets waiting for it; map work waiting for room
  --gc_.die(die).erases;
  if constexpr (X::kTimed) {
    x_.erase_refresh(die, lines_before);
    advance(die);
    kick(die);
    x_.host_progress();
  }
}

template <class X>
void GcJob<X>::on_map_read(uint32_t die, uint64_t done_ps) {
  GcDie& job = gc_.die(die);
  --job.reads;
  job.data_ps = std::max(job.data_ps, done_ps);
  gc_.stage_map_read(die);
  if constexpr (X::kTimed) advance(die);
}

template <class X>
void GcJob<X>::on_map_program(uint32_t src, uint32_t to, uint32_t ppa) {
  gc_.land_map_page(src, ppa);
  if constexpr (X::kTimed) {
    kick(to);
    x_.refresh(to);
    advance(src);
  }
}

}  // namespace ssdtlm
