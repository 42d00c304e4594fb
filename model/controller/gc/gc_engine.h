// The one garbage-collection engine, shared by the timed FTL module and the fast-forward (plain C++, no
// SystemC). It holds every die's GC job (victim, scan position, GC streams' staged units, victims waiting
// for their erase, operations in flight, host-write credit) and decides what happens next: which victim,
// which page to read, which units go to which GC stream, when a staged page is programmed and where, when a
// victim may be erased. Each step returns an action (a page to read, a GcPage to program, a block to erase);
// the GC job (gc_job.h) orders the steps and hands the actions to an executor, timed (controller/ftl_gc.cpp) or
// immediate (controller/fast_forward.cpp), and calls the matching land_* when they complete.
//
// Map blocks (demand-based mapping) are victims too: their live translation segments are read a page at a
// time, staged and packed into new map pages (GMD) on whichever die has room.
#pragma once
#include <cstdint>
#include <vector>

#include "controller/mapping/map_cache.h"
#include "flash/geometry.h"

namespace ssdtlm {

class DriveState;
class GcVictims;
class IntegrityChecker;
class Streams;
class TranslationStore;
class WearLevel;
class SnapshotArchive;
struct FlashCounters;
struct StreamStats;

// Units staged for one GC stream's next page (up to two pages: a page read may complete a page and start
// the next).
struct GcStage {
  uint32_t lpn[2 * kMaxUnitsPerPage], version[2 * kMaxUnitsPerPage], old[2 * kMaxUnitsPerPage];
  uint32_t n = 0;
};

// One GC page to program: of units [0, n), those with an LPN are real (LPN, version, old location); the rest
// of the page is padding.
struct GcPage {
  uint32_t die = 0, ppa = kInvalid, n = 0;  // die: where it is programmed
  uint32_t src = 0;                         // the die whose GC job staged it (ftl.write_pointer=striped: may differ)
  uint8_t stream = 0;  // the page's out-of-band stream (for the shared GC stream: its first unit's)
  bool fold = false;   // a fold program (slc.*): its first unit comes from an SLC block
  uint32_t lpn[kMaxUnitsPerPage], version[kMaxUnitsPerPage], old[kMaxUnitsPerPage];
};

// Per-die GC state. Units are staged per GC stream across victims, so GC programs full pages; a victim is
// erased once its last valid unit has landed elsewhere.
struct GcDie {
  bool active = false;         // timed: the die is collecting (GcEngine::active_dies)
  uint32_t victim = kInvalid;  // block being scanned (global id)
  uint32_t next_page = 0;
  uint32_t reads = 0, programs = 0, erases = 0;  // in flight
  uint32_t staged = 0;                            // units staged, all GC streams
  uint32_t full = 0;                              // GC streams with a page or more staged
  std::vector<GcStage> stage;                     // per GC stream
  std::vector<uint32_t> scanned;                  // victims read out, waiting for their units to land
  // Host pages this die may take while GC runs (timed): each unit relocated earns (Np - v) / v units, so
  // host writes and GC progress in the proportion the victim frees space and free blocks hold steady.
  double credit = 1.0, ratio = 0.0;
  uint64_t data_ps = 0;  // timed: staged data is in DRAM from then
  // Map victims: live segments read a page at a time (rseg/rloc) and staged for new map pages (seg/loc).
  bool map_victim = false;
  uint32_t map_updates = 0;  // map accesses of relocated units still waiting for flash work (timed)
  uint32_t reading = 0, staged_segs = 0;
  // map.gc_update=victim: LPNs moved since the die's last batch update (the victim's, and any next victim's
  // that landed with them); they update the map when a victim is ready to erase (GcEngine::take_moves).
  std::vector<uint32_t> moves;
  uint32_t rseg[kMaxGather], seg[2 * kMaxGather];
  uint64_t rloc[kMaxGather], loc[2 * kMaxGather];
  void snapshot(SnapshotArchive& a);  // controller/snapshot
};

// What the GC engine reads: the drive state, the stream separation (the GC stream of a unit), when a die collects and
// which victim it takes (gc_victims.h), and the engines an erase or a map victim touches (null: off). Not the
// PageFtl that owns them.
struct GcContext {
  DriveState& state;
  const Streams& streams;
  GcVictims& victims;
  TranslationStore* translation;  // demand-based mapping: map blocks are victims too
  WearLevel* wear_level;
  bool batch_moves;  // map.gc_update=victim with translation pages on flash (batches_moves)
};

class GcEngine {
 public:
  explicit GcEngine(const GcContext& ctx);

  GcDie& die(uint32_t d) { return dies_[d]; }
  const GcDie& die(uint32_t d) const { return dies_[d]; }
  uint32_t streams() const { return uint32_t(dies_.front().stage.size()); }  // GC streams
  // Timed: dies collecting (start/stop keep the count).
  uint32_t active_dies() const { return active_; }
  void start(uint32_t d);
  // Timed: the die has GC work queued on the flash (a host read there waits behind it).
  bool busy(uint32_t d) const { return dies_[d].reads + dies_[d].programs + dies_[d].erases > 0; }
  // No victim scanned or to be erased, nothing staged or in flight: the job is over (timed; stops it).
  bool finish_if_idle(uint32_t d);

  // ---- victims
  // Takes the die's next victim (counted in c) and starts its scan; kInvalid when none may be taken now.
  uint32_t next_victim(uint32_t d, FlashCounters& c);
  // The same in two steps, for a caller that acts between them (the timed FTL pads staged data pages before
  // a map victim: data and map pages do not mix).
  uint32_t pick_victim(uint32_t d, FlashCounters& c);
  bool is_map_block(uint32_t victim) const;
  void begin_scan(uint32_t d, uint32_t victim);
  // The victim's scan is over (all its pages read and staged): it waits for its units to land.
  void end_scan(uint32_t d);
  // Should the die take another victim? Timed: its free blocks stay short once the pending erases land
  // (superblock: a victim line holds its block), or, with one GC stream in block mode, a partial page waits
  // for units; not while several GC streams wait for an earlier victim's erase to have a free block.
  bool wants_victim_timed(uint32_t d) const;
  // The fast-forward's trigger (no time passes, so staged units may wait for the next collection): the die
  // is short of free blocks; with one GC stream in block mode a scanned victim whose last units wait in the
  // partial page counts as free while the GC frontier has room for that page, as the timed path counts a
  // scanned victim (wants_victim_timed). Otherwise a burst would collect a second victim only to complete
  // the page, and two victims' survivors in a row would fill blocks of cold data.
  bool wants_victim_now(uint32_t d) const;

  // ---- data victims
  // The next page of the victim with valid units (its slot mask), advancing the scan; false at its end.
  bool next_read(uint32_t d, uint32_t* page, uint32_t* mask);
  // The GC stream a valid unit (its LPN and old location) is staged for.
  uint32_t gc_stream_of(uint32_t d, uint32_t lpn, uint32_t old) const {
    return dies_[d].stage.size() == 1 ? 0 : gc_stream_of_many(d, lpn, old);
  }
  // Stages one unit for GC stream k; true when that stream has a full page staged.
  bool stage(uint32_t d, uint32_t k, uint32_t lpn, uint32_t version, uint32_t old) {
    GcDie& j = dies_[d];
    GcStage& st = j.stage[k];
    st.lpn[st.n] = lpn;
    st.version[st.n] = version;
    st.old[st.n] = old;
    ++j.staged;
    if (++st.n != upp_) return st.n > upp_;
    ++j.full;
    return true;
  }
  bool any_staged(uint32_t d) const { return dies_[d].staged > 0; }
  // The program action for the first n units staged for GC stream k (n < page: padded): allocates the page
  // on stream k's frontier (or another GC stream's, gc_target), counts it, earns host-write credit.
  void take_page(uint32_t d, uint32_t k, uint32_t n, GcPage& out, FlashCounters& c, StreamStats* st);
  // Timed: GC stream k's next page of die d must wait for the die's erase under way or coming (erase_coming), its
  // block being full and no block free (a wear-levelling victim, all valid, fills a whole block; the next victim's copies come before that
  // erase lands). The erase's landing advances the job again.
  bool page_waits(uint32_t d, uint32_t k) const;
  // An erase will free a block of die d without GC programming anything more: one under way, or a scanned victim
  // whose units are all in programs under way (wants_victim_timed counts it as freed when it takes the next victim).
  bool erase_coming(uint32_t d) const;
  // Pages of every GC stream, padded: calls program(GcPage&) for each (the caller executes it).
  template <class Program>
  void pad(uint32_t d, FlashCounters& c, StreamStats* st, Program&& program) {
    GcDie& j = dies_[d];
    GcPage page;
    for (uint32_t k = 0; k < j.stage.size(); ++k)
      while (j.stage[k].n) {
        take_page(d, k, j.stage[k].n < upp_ ? j.stage[k].n : upp_, page, c, st);
        program(page);
      }
  }
  // The page landed: units still at their old location move to it (the others were overwritten or trimmed
  // meanwhile); their LPNs go to `moved` (for the map updates). Returns how many moved.
  uint32_t land_page(const GcPage& p, uint32_t* moved, FlashCounters& c, StreamStats* st);

  // ---- map updates of the moves (map.gc_update)
  // victim: land_page keeps the moved LPNs; the map is updated with them at once, per segment, before a
  // victim erases (DFTL's batch update). page: the caller updates the map with each landed page's moves.
  bool batches_moves() const { return batch_moves_; }
  // A victim may erase and moves wait: the caller takes them now (take_moves), before erase_ready.
  bool moves_due(uint32_t d) const;
  // Calls update(std::vector<uint32_t>& lpns) with the die's waiting moves (the caller may reorder them),
  // then forgets them.
  template <class Update>
  void take_moves(uint32_t d, Update&& update) {
    std::vector<uint32_t>& m = dies_[d].moves;
    if (m.empty()) return;
    update(m);
    m.clear();
  }

  // ---- erases
  // Calls erase(victim) for every scanned victim whose units have all landed (and, for a map victim, whose
  // segments' new pages landed), removing it from the list.
  template <class Erase>
  void erase_ready(uint32_t d, Erase&& erase) {
    auto& list = dies_[d].scanned;
    for (size_t i = 0; i < list.size();) {
      const uint32_t victim = list[i];
      if (!erasable(d, victim)) {
        ++i;
        continue;
      }
      list[i] = list.back();
      list.pop_back();
      erase(victim);
    }
  }
  // check.integrity before an erase: no unit of the block is live (IntegrityChecker gets the violation).
  bool check_erase(uint32_t gblock, IntegrityChecker& checker, uint64_t time_ps);
  // The erase landed: the block is free again.
  void land_erase(uint32_t gblock, FlashCounters& c);

  // ---- map victims
  // The next page of the map victim with live segments (staged for reading); 0 at the end of its scan.
  uint32_t next_map_read(uint32_t d, uint32_t* page);
  // The page's segments were read: those not rewritten meanwhile are staged for a new map page.
  void stage_map_read(uint32_t d);
  // The die for the copies of a map victim collected on die d: any with room, else d; kInvalid if none.
  uint32_t map_target(uint32_t d) const;
  // Of the first n staged segments, are any still live?
  bool map_live(uint32_t d, uint32_t n) const;
  // Places the first n staged segments in a new map page on die `to` and counts it (GMD); returns its ppa.
  // With none live, only drops them (returns kInvalid).
  uint32_t take_map_page(uint32_t d, uint32_t n, uint32_t to, FlashCounters& c);
  void land_map_page(uint32_t d, uint32_t ppa);

  // Saves or loads every die's GC job (controller/snapshot).
  void snapshot(SnapshotArchive& a);

 private:
  bool erasable(uint32_t d, uint32_t victim) const;
  void page_target(uint32_t d, uint32_t k, uint32_t* target, uint32_t* frontier, uint32_t* to) const;
  uint32_t gc_stream_of_many(uint32_t d, uint32_t lpn, uint32_t old) const;
  uint32_t gc_target(uint32_t die, uint32_t k) const;

  DriveState& state_;
  const Streams& streams_;
  GcVictims& victims_;
  TranslationStore* ts_;
  WearLevel* wl_;
  const Geometry& g_;
  uint32_t upp_;
  std::vector<GcDie> dies_;
  uint32_t active_ = 0;
  bool batch_moves_;  // map.gc_update=victim (GcContext::batch_moves)
  // The GC unit's and write pointer's answers that do not change, asked once (page_target, gc_target run per page).
  bool pointer_names_die_;  // WritePointer::one_die
  bool unit_places_pages_;  // GcUnit::places_pages
  bool unit_spans_dies_;    // UnitPool::spans_dies
};

}  // namespace ssdtlm
