// The fast-forward (FastForward): the immediate executors of the host page job (host_page_job.h, FfHostExec in
// fast_forward.h), of the GC job (gc/gc_job.h) and of the map write-back job (mapping/map_wb_job.h). The jobs and
// the map cache decide and sequence exactly as on the timed path; here every operation is executed at once on the
// die model and its completion called before it returns: a victim is read out without waiting, a page programmed
// lands in the same call, an erase is done as soon as the job issues it, a map segment is in DRAM as soon as it is
// read. Workers owning disjoint dies may write concurrently (fast_forward.h); counters go per die, and each host
// page builds its own GC executor when it collects (no state shared between workers). With translation pages on
// flash there is one worker (precondition.cpp), and the map executor, whose job keeps write-backs waiting for a
// die, is the drive's.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "controller/fast_forward.h"
#include "controller/gc/gc_job.h"
#include "controller/mapping/map_wb_job.h"
#include "controller/streams/streams.h"
#include "flash/flash_op.h"

namespace ssdtlm {

// The immediate executor: the GC job's operations done at once on the dies, counted per die
// (DriveState::die_counters).
class FfGcExec final {
 public:
  static constexpr bool kTimed = false;
  explicit FfGcExec(FastForward& ff) : ff_(ff), e_(ff.engines()), g_(e_.state.geometry()), job_(e_, *this) {}
  GcJob<FfGcExec>& job() { return job_; }

  FlashCounters& counters(uint32_t die) { return e_.state.die_counters(die); }
  StreamStats* stream_stats() { return nullptr; }
  IntegrityChecker* checker() { return e_.checker; }
  uint64_t now() { return 0; }
  void read(uint32_t die, uint32_t block, uint32_t page, uint32_t mask, bool) {
    const Die& d = e_.state.die(die);
    const uint32_t first = (block * g_.pages_per_block + page) * g_.units_per_page;
    job_.on_read(die, block, page, mask, [&d, first](uint32_t s) { return d.lpn(first + s); },
                 [&d, first](uint32_t s) { return d.version(first + s); }, 0);
  }
  void program(const GcPage& p) {
    e_.state.die(p.die).program(g_.block_of(p.ppa), g_.page_of(p.ppa), p.lpn, p.version, UnitKind::GUD, p.stream);
    job_.on_program(p);
  }
  void erase(uint32_t die, uint32_t victim) {
    e_.state.die(die).erase(g_.block_in_die(victim));
    job_.on_erase(die, victim);
  }
  void map_read(uint32_t die, uint32_t, uint32_t, uint32_t) { job_.on_map_read(die, 0); }
  void map_program(uint32_t src, uint32_t to, uint32_t ppa) {
    program_map_page(e_.state, to, ppa, UnitKind::GMD);
    job_.on_map_program(src, to, ppa);
  }
  // A translation page programmed on the die model (kind MD, or GMD for a map block's GC copy): no user units.
  static void program_map_page(DriveState& s, uint32_t die, uint32_t ppa, UnitKind kind) {
    const Geometry& g = s.geometry();
    uint32_t none[kMaxUnitsPerPage];
    std::fill(none, none + g.units_per_page, kInvalid);
    s.die(die).program(g.block_of(ppa), g.page_of(ppa), none, nullptr, kind, 0);
  }
  [[noreturn]] void map_stalled(uint32_t die) {
    throw std::logic_error("die " + std::to_string(die) + ": no free block for map GC");
  }
  void map_updates(uint32_t, const uint32_t* moved, uint32_t n);  // (below FfMapExec)
  void gc_moves(uint32_t die);
  void scan_started(uint32_t die) {
    // Every moved unit updates its map entry: fetch those entries in parallel before moving anything.
    const GcDie& job = e_.gc.die(die);
    if (job.map_victim) return;
    const Die& d = e_.state.die(die);
    const Streams& st = e_.streams;
    const uint32_t base = g_.ppa(die, 0, 0);
    for (uint32_t u = g_.block_in_die(job.victim) * g_.units_per_block, end = u + g_.units_per_block; u < end; ++u)
      if (e_.state.valid(base + u)) {
        e_.state.prefetch_map(d.lpn(u));
        if (st.params().gc == GcStreams::HotCold) st.prefetch(d.lpn(u));
      }
  }

 private:
  FastForward& ff_;
  FtlEngines e_;
  const Geometry& g_;
  GcJob<FfGcExec> job_;
};



// The immediate executor of the map write-back job: a segment read is in DRAM at once, a map page lands in the call
// that programs it, counted per die (DriveState::die_counters). Nobody waits (the fast-forward has no commands in flight).
// A write-back that finds no die with room waits in the job until the host page's work is done (drain): then the
// writing die collects until a die may take it, as the timed FTL's write-backs wait for an erase.
class FfMapExec final {
 public:
  struct Waiter {};
  using Work = MapWork<Waiter>;
  explicit FfMapExec(FastForward& ff) : ff_(ff), e_(ff.engines()), job_(e_, *this) {}

  void updates(const uint32_t* lpns, uint32_t n, bool gc) {
    uint32_t waits = 0;
    job_.updates(lpns, n, Waiter{}, &waits, gc);
  }
  void gc_moves(uint32_t die) {
    uint32_t waits = 0;
    job_.gc_moves(die, Waiter{}, &waits);
  }
  void drain(uint32_t die) {
    for (job_.retry(); job_.writes_waiting(); job_.retry())  // collecting may queue more write-backs
      if (!FfGcExec(ff_).job().collect(die))
        throw std::logic_error("no die can take a map page and no victim is worth collecting");
  }

  // ---- the executor (mapping/map_wb_job.h)
  FlashCounters& counters(uint32_t die) { return e_.state.die_counters(die); }
  static bool paced(const Waiter&) { return false; }
  // Round robin over the dies, as in the timed FTL (not the die being written: segments are first touched, and
  // evicted, at aligned stripe boundaries, which would pile the map onto one die).
  uint32_t pick_die(bool) { return e_.translation->pick_die(); }
  void read(Work* m, uint32_t, bool) { job_.on_read(m, 0); }
  void program(Work* m, uint32_t die, uint32_t ppa) {
    FfGcExec::program_map_page(e_.state, die, ppa, UnitKind::MD);
    job_.on_program(m, ppa, 0);
  }
  void landed(uint32_t) {}
  void done(const Waiter&, uint64_t) {}

 private:
  FastForward& ff_;
  FtlEngines e_;
  MapWbJob<FfMapExec, Waiter> job_;
};

void FfGcExec::map_updates(uint32_t, const uint32_t* moved, uint32_t n) {
  if (e_.translation) ff_.map().updates(moved, n, true);
}
void FfGcExec::gc_moves(uint32_t die) { ff_.map().gc_moves(die); }

// ---------------------------------------------------------------- the drive's fast-forward

FastForward::FastForward(const FtlEngines& e) : e_(e) {}
FastForward::~FastForward() = default;

FfMapExec& FastForward::map() {
  if (!map_) map_ = std::make_unique<FfMapExec>(*this);
  return *map_;
}

void FastForward::finish() {
  FfGcExec gc(*this);
  for (uint32_t d = 0; d < e_.state.geometry().dies; ++d) {
    gc.job().pad(d);
    if (e_.translation) map().gc_moves(d);
    if (e_.translation) map().drain(d);  // the copies' map write-backs
    e_.gc.die(d).credit = 1.0;           // the timed FTL starts every die's GC afresh
    e_.gc.die(d).ratio = 0.0;
  }
}

void FastForward::merge_counters() { e_.state.merge_die_counters(); }

// ---------------------------------------------------------------- the host page job's immediate executor

void FfHostExec::write_page(uint32_t die, uint32_t stream, const uint32_t* lpns, const uint32_t* versions) {
  page_.lpn = lpns;
  page_.version = versions;
  job_.write(die, stream);
}

void FfHostExec::make_room(uint32_t die) { FfGcExec(ff_).job().make_room(die); }
void FfHostExec::cached_map_updates(Page& p) { ff_.map().updates(p.lpn, g_.units_per_page, false); }
void FfHostExec::drain_write_backs(uint32_t die) { ff_.map().drain(die); }

}  // namespace ssdtlm
