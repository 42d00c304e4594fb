// The host page job: the one sequencing of a host page's program, run by the timed FTL (a page of the write
// buffer's units) and by the fast-forward (a page of the preconditioning writers' units) alike. In order: the page
// is placed (FDP: on the die of its reclaim unit's write pointer), room is made for it (immediate: GC first while
// the die is short of free blocks), it is allocated on its user stream's frontier (zoned: the zone told), its units
// are taken (kInvalid: padding, counted), mapped (DriveState::map_page: the block's valid count, the map entries) and
// counted (programs, SLC or direct units, units flushed), GC's pacing is charged, the page is programmed, its map
// updates go through the cache (mapping/map_wb_job.h); when its program lands, its block's page is done.
// X is a final class (no virtual call per page):
// - timed (controller/ftl_flush.cpp, FlushScheduler): units taken from the write buffer, the program sent through
//   the FTL module's sockets and landed at its simulated time (FlushScheduler::on_flush -> on_program); GC runs
//   beside the page (kicked after it, GcJob::kick) and is paced by it (GC credit); X::kTimed = true;
// - immediate (controller/fast_forward.cpp, FfHostExec): the writer's units, the program done at once on the die
//   model, counters per die, the completion called before program returns; GC collects before the page
//   (GcJob::make_room), and the map write-backs that found no die are written before the next page (drain);
//   X::kTimed = false.
//
// Executor interface (X; Page is its page in flight, with lpn[] and version[] of units_per_page units):
//   static constexpr bool kTimed;
//   FlashCounters& counters(uint32_t die);  StreamStats* stream_stats();  (null: padding not counted)
//   uint64_t* flushed_units();             the units leaving the write buffer (null: not counted)
//   void make_room(uint32_t die);          immediate: GC before the page (GcJob::make_room)
//   Page& take(die, stream, ppa);          the page's program, its units taken
//   void program(Page&)                    -> job.on_program(page, gblock)
//   void map_updates(Page&);               the units' map updates (immediate: with translation pages on flash only,
//                                          the one case with one writer: the cache is shared)
//   void drain_map(uint32_t die);          immediate: the write-backs waiting for a die, written (FfMapExec::drain)
//   void issued(uint32_t die, Page&);      timed: the die's GC kicked and its flush state refreshed
//   void landed(Page&);                    timed: what the landed page frees (zones drained, dies refreshed)
#pragma once
#include <stdexcept>
#include <string>

#include "controller/drive_state.h"
#include "controller/ftl_engines.h"
#include "controller/gc/gc_engine.h"
#include "controller/gc/gc_victims.h"
#include "controller/streams/streams.h"
#include "flash/flash_op.h"

namespace ssdtlm {

template <class X>
class HostPageJob {
 public:
  HostPageJob(const FtlEngines& e, X& x)
      : e_(e), g_(e.state.geometry()), x_(x), unit_places_(e.state.blocks().unit().places_pages()) {}

  // One page of user stream `stream` on `die` (FDP: the die's reclaim group); throws when the die has no room.
  void write(uint32_t die, uint32_t stream);
  // The page's program landed (in global block gblock).
  template <class Page>
  void on_program(Page& page, uint32_t gblock) {
    e_.state.blocks().page_done(gblock);
    x_.landed(page);
  }

 private:
  [[noreturn]] __attribute__((cold, noinline)) static void no_room(uint32_t die, uint32_t stream) {
    throw std::logic_error("die " + std::to_string(die) + ": no free block for user stream " + std::to_string(stream));
  }
  template <class Page>
  void map_units(uint32_t die, uint32_t ppa, const Page& page);  // mapped and counted

  FtlEngines e_;
  const Geometry& g_;
  X& x_;
  bool unit_places_;  // the GC unit may send a page elsewhere (GcUnit::places_pages: asked once)
};

template <class X>
void HostPageJob<X>::write(uint32_t die, uint32_t stream) {
  const FtlEngines& e = e_;  // (locals: the fast-forward writes millions of pages a second)
  BlockManager& b = e.state.blocks();
  const uint32_t frontier = b.layout().user_frontier(stream);
  // The GC unit may place the page elsewhere (FDP: where the RU's write pointer is, on the dies of the die's reclaim
  // group; the timed FTL's flush scheduler picked that die already: FlushScheduler::pick_die).
  if (unit_places_) die = b.unit().page_die(b, die, frontier);
  if constexpr (!X::kTimed)
    if (e.victims.gc_needed(die)) x_.make_room(die);
  // The page on the stream's frontier (zoned: the zone is told, and whether the page opened a block).
  ZnsNamespace* zns = e.streams.zns();
  const bool opens = zns && b.frontier_full(die, frontier);
  const uint32_t ppa = b.allocate_page(die, frontier);
  if (ppa == kInvalid) no_room(die, stream);
  if (zns) zns->page_flushed(uint16_t(stream), g_.gblock_of(ppa), opens);
  auto& page = x_.take(die, stream, ppa);
  map_units(die, ppa, page);
  // GC pacing: a host page taken by a collecting die spends a unit of its GC credit (only a timed job is active).
  GcDie& gc = e.gc.die(die);
  if (gc.active) gc.credit -= 1.0;
  // The program, then the units' map updates (the map entries were set when the program was issued: the buffer
  // serves reads until it lands).
  x_.program(page);
  x_.map_updates(page);
  if constexpr (!X::kTimed) x_.drain_map(die);
  x_.issued(die, page);
}

template <class X>
template <class Page>
void HostPageJob<X>::map_units(uint32_t die, uint32_t ppa, const Page& page) {
  if (StreamStats* st = x_.stream_stats())
    for (uint32_t s = 0; s < g_.units_per_page; ++s) st->user_padding += page.lpn[s] == kInvalid;
  const FtlEngines& e = e_;
  const uint32_t units = e.state.map_page(ppa, page.lpn);
  if (uint64_t* flushed = x_.flushed_units()) *flushed += units;
  FlashCounters& c = x_.counters(die);
  if (e.slc) (e.state.blocks().is_slc(g_.gblock_of(ppa)) ? c.slc_host_units : c.slc_direct_units) += units;
  ++c.programs[uint32_t(UnitKind::UD)];
}

}  // namespace ssdtlm
