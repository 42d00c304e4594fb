// The parts of the FTL module (ftl.h), one per responsibility. The module owns them, issues their flash
// operations and routes each completion to the part that issued it (by FtlOpTag). Each part is a plain class
// holding its own state and a reference to the module for the shared pieces (PageFtl, buffer, statistics,
// the other parts):
// - HostPath (ftl_host.cpp): host reads, writes and trims, read-modify-write, admission into the buffer, and
//   writes held by the scheduling policy (sched/);
// - FlushScheduler (ftl_flush.cpp): when the buffer flushes, which stream and which die take the next page,
//   and which dies may take a page now (queue room, free blocks, GC credit);
// - GcDriver (ftl_gc.cpp): the timed executor of the GC job (gc/gc_job.h): its actions as flash operations;
// - MapWorkQueue (ftl_map.cpp): the timed executor of the map write-back job (mapping/map_wb_job.h): map cache
//   loads, merges and write-backs as flash operations, and who waits for them;
// - ZoneEraser (ftl_zone_erase.cpp): the timed executor of the zone reset job (placement/zone_reset_job.h).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "common/nvme_command.h"
#include "controller/gc/gc_engine.h"
#include "controller/host_page_job.h"
#include "controller/mapping/map_cache.h"
#include "controller/mapping/map_wb_job.h"
#include "controller/placement/zone_reset_job.h"
#include "flash/flash_op.h"

namespace ssdtlm {

class Ftl;
template <class X>
class GcJob;  // gc/gc_job.h (included where it runs: ftl_gc.cpp)

// What a flash operation is for; the module routes its completion by it.
enum FtlOpTag : uint32_t { kHostRead, kRmwRead, kFlush, kGcRead, kGcProgram, kGcErase, kMapLoad, kMapMerge, kMapWrite,
                           kGcMapRead, kGcMapProgram, kZoneErase, kReadAhead };

class HostPath {
 public:
  explicit HostPath(Ftl& f) : f_(f) {}
  void start(NvmeCommand& cmd);        // after the command's firmware time and map work
  void on_rmw_read(FlashOp& op);
  void on_read(FlashOp& op);
  void on_read_ahead(FlashOp& op);  // a read-ahead flash read landed (ftl_read_ahead.cpp)
  void admit_writes();                 // take waiting writes while the buffer has room
  void stop_or_resume_writes();        // held writes: flush once no read is left; let them in once it landed
  bool writes_held() const { return write_stop_; }
  const NvmeCommand* waiting() const { return wait_head_; }  // the first write waiting for buffer room
  uint64_t waiting_units() const;
  // Zoned: writes waiting for a stream slot (ZnsNamespace::kWaitForSlot), FIFO; retried when a slot drains.
  bool slot_waiting() const { return slot_head_ != nullptr; }
  void retry_slot_waits();
  void read_taken() { ++reads_outstanding_; }
  // NVMe Flush commands and FUA writes waiting for buffered data to reach flash (WriteBuffer::add_barrier): the
  // flush scheduler flushes every dirty unit, partial pages too, while one waits.
  bool flush_waiting() const { return !barrier_waits_.empty(); }
  void barriers_progress();  // completes those whose data is on flash
  // No host command in the FTL: no read outstanding, no write waiting for room, no flush under way (slc.*).
  bool idle() const;

 private:
  void read(NvmeCommand& cmd);
  void write(NvmeCommand& cmd);  // after any read-modify-write reads
  void trim(NvmeCommand& cmd);
  void flush(NvmeCommand& cmd);  // NVMe Flush
  void wait_barrier(NvmeCommand& cmd, uint64_t t);  // completes cmd once the buffer's data up to now is on flash
  struct BarrierWait {
    NvmeCommand* cmd;
    uint64_t id;
    uint64_t ready_ps;
  };
  std::vector<BarrierWait> barrier_waits_;  // oldest first, as the buffer's barriers settle
  void zone_send(NvmeCommand& cmd);  // zoned: Zone Management Send (a trim of whole zones: their reset)
  // Units [first, first + units) dropped by a trim or a reset or offline zone (units > 0): out of the buffer, the
  // map and what read-ahead holds, expected by no check, trimmed for the lifetimes and the stream policy.
  void drop_units(NvmeCommand& cmd, uint32_t first, uint64_t units);
  // A flash read for the host (a read, read-ahead or read-modify-write) of the page holding the unit at `a`, counted
  // in the drive's user reads; the caller adds the units it wants and the owner, and sends it. Inline (ftl.h): per
  // flash page a host read touches.
  FlashOp& open_user_read(const UnitAddress& a, FtlOpTag tag);
  bool offline_read(NvmeCommand& cmd);  // a read of an offline zone: failed (Zone Is Offline), true
  void accept_write(NvmeCommand& cmd, uint64_t t);
  void finish_read(NvmeCommand& cmd);
  bool hold(uint32_t units);  // the policy holds this write and those after it
  // cache.read_ahead (ftl_read_ahead.cpp): unit i of a host read served from the units fetched ahead (true), or
  // waiting for their flash read; the flash reads that fetch the stream's next units.
  bool read_ahead_hit(NvmeCommand& cmd, uint32_t i);
  void read_ahead(const NvmeCommand& cmd);
  struct ReadAheadWaiter {
    NvmeCommand* cmd;
    uint32_t index;    // the unit of the command
    const void* op;    // the read-ahead flash read it waits for
  };
  std::vector<ReadAheadWaiter> ra_waiters_;

  Ftl& f_;
  std::vector<uint8_t> unit_stream_;   // scratch: the streams of one write command's units
  NvmeCommand* wait_head_ = nullptr;   // writes waiting for buffer space, FIFO
  NvmeCommand* wait_tail_ = nullptr;
  NvmeCommand* slot_head_ = nullptr;   // zoned writes waiting for a stream slot, FIFO
  NvmeCommand* slot_tail_ = nullptr;
  bool retrying_ = false;              // retry_slot_waits is running
  enum class Zoned { Done, Waits };    // checked (admitted, or failed: cmd.status), or waits for a stream slot
  Zoned zoned_check(NvmeCommand& cmd);
  void park(NvmeCommand& cmd);        // waits for a stream slot, behind the others
  void start_write(NvmeCommand& cmd);  // a write past the zoned checks: any read-modify-write reads, then write
  uint32_t reads_outstanding_ = 0;     // host reads taken and not yet completed
  bool write_stop_ = false;            // writes held by the policy until the flush is over
  bool flush_phase_ = false;           // the reads are served, the flush runs
};

// Also the timed executor of the host page job (host_page_job.h): a page's units taken from the buffer, its program
// through the module's sockets, landed at its simulated time (on_flush). A final class: the job calls it directly.
class FlushScheduler final {
 public:
  static constexpr bool kTimed = true;
  explicit FlushScheduler(Ftl& f);
  void pump();                // flushes pages while the buffer should flush and dies may take them
  // A die's GC job ended (GcDriver::advance): its host writes may go again (no GC credit needed). The job may end
  // where nothing pumps (its last map update landing after its last erase, demand-based mapping), so the module
  // pumps at the end of the entry point, unless a pump ran meanwhile (wake).
  void gc_ended() { woken_ = true; }
  void wake() {
    if (woken_) pump();
  }
  void refresh(uint32_t die);  // recompute whether the die may take a flush
  void refresh_all();
  // FDP's reclaim units: the free RUs of a reclaim group decide what each of its dies may take, so a block opened
  // (maybe an RU taken) or an RU freed refreshes every die of the group.
  void refresh_group(uint32_t die);
  bool on_flush(FlashOp& op);  // false: the op is kept until its map work is done
  void release(FlashOp& op);   // the page and its map work landed: its buffer slots are free
  void start_phase() { flushing_ = true; }  // a held-writes flush begins
  bool flushing() const { return flushing_; }
  uint32_t pending() const { return flushes_pending_; }
  std::string describe() const;  // per die: the user streams it may take now (a stuck run's account)
  // The next die, round robin from `cursor`, that may take a flush now and passes `ok`; kInvalid if none.
  template <class Ok>
  uint32_t next_flushable(uint32_t& cursor, Ok&& ok) const;

  // ---- the executor (host_page_job.h)
  FlashCounters& counters(uint32_t die);
  StreamStats* stream_stats();
  uint64_t* flushed_units();
  FlashOp& take(uint32_t die, uint32_t stream, uint32_t ppa);  // the program op, its units taken from the buffer
  void program(FlashOp& op);
  void map_updates(FlashOp& op);
  void issued(uint32_t die, FlashOp& op);
  void landed(FlashOp& op);

 private:
  uint32_t pick_die(uint32_t stream);         // the next die that may take a page of the stream, round robin
  // The buffer's stream among `allowed` to flush now and (*die) the die that takes it, or kInvalid.
  uint32_t choose(uint64_t allowed, bool forced, uint32_t* die);
  uint64_t user_streams_of(uint32_t die) const;  // bit set over the user streams the die has blocks for
  void flush_page(uint32_t die, uint32_t stream);  // a page by the host page job

  Ftl& f_;
  HostPageJob<FlushScheduler> job_;
  uint64_t take_steps_ = 0;            // firmware steps of the page being taken (buffer/buffer_cost.h)
  std::vector<uint32_t> inflight_;     // per die
  uint32_t cursor_ = 0;
  bool flushing_ = false;
  std::vector<uint64_t> flushable_;    // bit set over dies: may take a buffer flush now (see refresh)
  std::vector<uint64_t> die_streams_;  // per die: the user streams it may take a page of now (0: not flushable)
  std::vector<uint32_t> stream_dies_;  // per user stream: dies that may take it
  uint64_t takeable_ = 0;              // bit set over user streams: some die may take it
  std::vector<uint64_t> die_mask_;     // per die: the user streams it may ever take (FDP: its RG's)
  bool confined_ = false;              // some die may not take every stream (FDP reclaim groups)
  bool lines_hold_ = false;            // victim lines in GC hold every die's host writes (GcPacing::lines_hold_host)
  bool one_die_ = false;  // a stream's next page has one die: zoned, or the write pointer names it (one_die)
  bool group_units_ = false;  // a group's dies share its GC units (GcUnit::shared_by_group: FDP's RUs)
  bool units_span_dies_ = false;  // a GC unit holds blocks of several dies (UnitPool::spans_dies): a die may be ahead
  uint32_t flushes_pending_ = 0;       // flush programs whose buffer slots are not yet released
  bool woken_ = false;                 // a GC job ended since the last pump (gc_ended)
  static constexpr uint32_t kMapUpdateQuantum = 4096;  // flush map-update bursts charged to DRAM together
  uint32_t map_update_bytes_ = 0;                      // not charged yet
};

// The timed executor of the GC job (gc/gc_job.h): the job's operations as flash operations, their completions
// (routed here by FtlOpTag) back to the job at their simulated times. A final class: the job calls it directly.
class GcDriver final {
 public:
  static constexpr bool kTimed = true;
  GcDriver(Ftl& f, const FtlEngines& e);
  ~GcDriver();
  GcDriver(const GcDriver&) = delete;
  GcDriver& operator=(const GcDriver&) = delete;
  void kick(uint32_t die);    // starts the die's GC if it needs it
  void host_idle(bool idle);  // slc.*: the host went idle (fold in the background) or busy
  void advance(uint32_t die);
  void on_read(FlashOp& op);
  void on_program(FlashOp& op);
  void on_erase(FlashOp& op);
  void on_map_read(FlashOp& op);
  void on_map_program(FlashOp& op);

  // ---- the executor (gc/gc_job.h)
  FlashCounters& counters(uint32_t die);
  StreamStats* stream_stats();
  IntegrityChecker* checker();
  uint64_t now();
  void read(uint32_t die, uint32_t block, uint32_t page, uint32_t mask, bool fold);
  void program(const GcPage& page);
  void erase(uint32_t die, uint32_t victim);
  void map_read(uint32_t die, uint32_t block, uint32_t page, uint32_t segments);
  void map_program(uint32_t src, uint32_t to, uint32_t ppa);
  void map_stalled(uint32_t die);  // retried when an erase frees room (MapWorkQueue::retry)
  void map_updates(uint32_t src, const uint32_t* moved, uint32_t n);
  void gc_moves(uint32_t die);
  void scan_started(uint32_t) {}
  void erased(uint32_t die, uint32_t gblock);  // zone resets and map work waiting for room
  void erase_refresh(uint32_t die, uint32_t lines_before);  // which dies may take host writes again
  void refresh(uint32_t die);
  void refresh_all();
  void job_ended();
  void host_progress();  // writes waiting for buffer room, and flushes

 private:
  Ftl& f_;
  std::unique_ptr<GcJob<GcDriver>> job_;
};

// The timed executor of the zone reset job (placement/zone_reset_job.h, zns.reset_erase=reset): the job's erases as
// flash operations, their completions (routed here by FtlOpTag) back to the job at their simulated times, a reset's
// command completed once its blocks are erased. A final class: the job calls it directly.
class ZoneEraser final {
 public:
  static constexpr bool kTimed = true;
  explicit ZoneEraser(Ftl& f);
  // Completes cmd once the blocks are erased (or left to GC).
  void reset(NvmeCommand& cmd, const std::vector<uint32_t>& blocks) { job_.reset(&cmd, blocks); }
  void kick() { job_.kick(); }                         // erases the blocks that may be erased now
  void on_erase(FlashOp& op);                          // an erase it issued landed
  void erased(uint32_t gblock) { job_.erased(gblock); }  // GC erased a block (it may be one a reset waits for)
  bool waiting() const { return job_.waiting(); }
  uint32_t in_flight() const { return job_.in_flight(); }
  uint64_t erases() const { return job_.erases(); }    // blocks erased for resets (by it, or by GC first)
  uint64_t kept() const { return job_.kept(); }        // blocks of reset zones left holding valid data
  std::string describe() const { return job_.describe(); }  // the blocks resets wait for (a stuck run)

  // ---- the executor (placement/zone_reset_job.h)
  FlashCounters& counters(uint32_t die);
  IntegrityChecker* checker();
  uint64_t now();
  void erase(uint32_t die, uint32_t gblock);
  void done(NvmeCommand* cmd);
  void erase_landed(uint32_t die);
  void host_progress();

 private:
  Ftl& f_;
  ZoneResetJob<ZoneEraser, NvmeCommand*> job_;
};

// The timed executor of the map write-back job (mapping/map_wb_job.h): the host commands' map lookups, the job's
// reads and map page programs as flash operations, their completions (routed here by FtlOpTag) back to the job at
// their simulated times, and who waits for them. A final class: the job calls it directly.
class MapWorkQueue final {
 public:
  // Who waits for a map operation: a host command, a flush program (its buffer slots), or a die's GC.
  struct Waiter {
    enum Kind : uint8_t { Cmd, Flush, Gc } kind;
    void* p;
    uint32_t die;
  };
  explicit MapWorkQueue(Ftl& f);
  bool map_phase(NvmeCommand& cmd);  // true: the command waits for map operations
  // Map updates of n units through the cache; *waits counts the operations the waiter waits for.
  // gc: the moves of one GC page (MapCache::gc_write).
  void updates(const uint32_t* lpns, uint32_t n, const Waiter& w, uint32_t* waits, bool gc = false) {
    job_.updates(lpns, n, w, waits, gc);
  }
  // map.gc_update=victim: a die's waiting GC moves (GcEngine::take_moves), one batch update per segment.
  void gc_moves(uint32_t die, uint32_t* waits) { job_.gc_moves(die, Waiter{Waiter::Gc, nullptr, die}, waits); }
  void on_op(FlashOp& op);
  void retry();  // write-backs and map GC copies that found no die with room
  bool writes_waiting() const { return job_.writes_waiting(); }
  // Map operations in flight or queued: loads, write-backs waiting for a die, dies whose map GC copies wait.
  std::string describe() const;
  void stalled_gc(uint32_t die);  // a die's map GC copy waits for room
  FlashOp& map_page_op(uint32_t die, uint32_t ppa, FtlOpTag tag, UnitKind kind);  // a map page program

  // ---- the executor (mapping/map_wb_job.h)
  using Work = MapWork<Waiter>;
  FlashCounters& counters(uint32_t die);
  static bool paced(const Waiter& w) { return w.kind == Waiter::Flush; }
  uint32_t pick_die(bool paced);  // kInvalid: no die may take a map page now
  void read(Work* m, uint32_t seg, bool merge);
  void program(Work* m, uint32_t die, uint32_t ppa);
  void landed(uint32_t die);
  void done(const Waiter& w, uint64_t done_ps);

 private:
  Ftl& f_;
  MapWbJob<MapWorkQueue, Waiter> job_;
  uint32_t cursor_ = 0;
  bool in_retry_ = false;
  std::vector<uint32_t> gc_stalled_;  // dies whose map GC copies wait for room
};

}  // namespace ssdtlm
