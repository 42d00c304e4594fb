// The fast-forward's entry for host pages: the immediate executor of the host page job (host_page_job.h). A page
// of user units is programmed at once on the die model, collecting garbage first if the die is short of free blocks
// (the GC job's immediate executor, fast_forward.cpp). A page touches only its die's state, its units' map entries
// and the die's own counters (and reads the stream write counts), so workers owning disjoint dies (and disjoint
// LPNs) may write concurrently, each with its own FfHostExec; FastForward::merge_counters() then adds the dies'
// counters to the drive state's (DriveState::counters()). With translation pages on flash there is one worker (the map
// cache is shared).
#pragma once
#include <cstdint>
#include <memory>

#include "controller/ftl_engines.h"
#include "controller/host_page_job.h"

namespace ssdtlm {

class FfMapExec;  // fast_forward.cpp

// The fast-forward of a drive: its engines (PageFtl::fast_forward()) and, with translation pages on flash, the
// immediate executor of the map write-back job, made on first use, whose job keeps the write-backs that wait for
// a die between host pages.
class FastForward {
 public:
  explicit FastForward(const FtlEngines& e);
  ~FastForward();
  FastForward(const FastForward&) = delete;
  FastForward& operator=(const FastForward&) = delete;
  const FtlEngines& engines() const { return e_; }
  // Ends a fast-forward: every die's partial GC pages are programmed, padded, so the victims whose last units wait
  // in them erase (the timed FTL does not take over the fast-forward's GC state). Call before merge_counters, with
  // no writer running.
  void finish();
  // Adds the dies' counters to the drive state's (DriveState::merge_die_counters).
  void merge_counters();
  FfMapExec& map();  // (translation pages on flash)

 private:
  FtlEngines e_;
  std::unique_ptr<FfMapExec> map_;
};

class FfHostExec final {
 public:
  static constexpr bool kTimed = false;
  explicit FfHostExec(FastForward& ff) : ff_(ff), e_(ff.engines()), g_(e_.state.geometry()), job_(e_, *this) {}
  FfHostExec(const FfHostExec&) = delete;
  FfHostExec& operator=(const FfHostExec&) = delete;

  // One page of user stream `stream` on `die` (FDP: the die's reclaim group): lpns and versions of units_per_page
  // units, kInvalid LPNs for padding.
  void write_page(uint32_t die, uint32_t stream, const uint32_t* lpns, const uint32_t* versions);
  void write_page(uint32_t die, const uint32_t* lpns, const uint32_t* versions) { write_page(die, 0, lpns, versions); }

  // ---- the executor (host_page_job.h; defined in fast_forward.cpp, where the job runs)
  struct Page {
    const uint32_t* lpn;
    const uint32_t* version;
    uint32_t die, stream, ppa;
  };
  // (Defined here, so that the job's write inlines them: millions of pages a second.)
  FlashCounters& counters(uint32_t die) { return e_.state.die_counters(die); }
  static StreamStats* stream_stats() { return nullptr; }  // (shared by the workers: padding not counted)
  static uint64_t* flushed_units() { return nullptr; }    // (no write buffer)
  void make_room(uint32_t die);
  Page& take(uint32_t die, uint32_t stream, uint32_t ppa) {
    page_.die = die;
    page_.stream = stream;
    page_.ppa = ppa;
    return page_;
  }
  void program(Page& p) {
    e_.state.die(p.die).program(g_.block_of(p.ppa), g_.page_of(p.ppa), p.lpn, p.version, UnitKind::UD, uint8_t(p.stream));
    job_.on_program(p, g_.gblock_of(p.ppa));
  }
  void map_updates(Page& p) {
    if (e_.translation) cached_map_updates(p);
  }
  void drain_map(uint32_t die) {
    if (e_.translation) drain_write_backs(die);
  }
  void issued(uint32_t, Page&) {}
  void landed(Page&) {}

 private:
  void cached_map_updates(Page& p);      // through the drive's FfMapExec (fast_forward.cpp)
  void drain_write_backs(uint32_t die);  // ditto
  FastForward& ff_;
  FtlEngines e_;
  const Geometry& g_;
  HostPageJob<FfHostExec> job_;
  Page page_{nullptr, nullptr, 0, 0, 0};
};

}  // namespace ssdtlm
