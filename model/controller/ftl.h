// The FTL processor with its DRAM: takes host commands from the NVMe front end, buffers writes,
// flushes the buffer as page programs striped over channels then dies, serves reads from the buffer
// or flash, and runs garbage collection per die. Its firmware time is charged to `firmware.cores`
// cores (each operation on the earliest free core). Flash operations leave through flash_isock[channel].
// This module is thin: sockets, firmware time, the operation pool and the routing of completions; the work
// is done by its parts (ftl_parts.h: host path, flush scheduler, GC driver, map-work queue, zone eraser) and the plain-C++
// engines they ask (FtlEngines: the drive state, GcEngine, GcVictims, MapCache, ...; WriteBuffer, SchedPolicy). It
// holds no PageFtl: the assembly (ftl_assembly.h, build_ftl) gives it the drive state and engines, built complete.
// Waveform tracing: wave/ftl_wave.cpp.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <systemc>
#include <tlm>

#include <memory>
#include <vector>

#include "common/at_socket.h"
#include "common/payload_pool.h"
#include "controller/dram.h"
#include "controller/integrity_checker.h"
#include "common/nvme_command.h"
#include "controller/drive_state.h"
#include "controller/ftl_engines.h"
#include "controller/gc/gc_victims.h"
#include "controller/mapping/translation_store.h"
#include "controller/slc/slc_cache.h"
#include "controller/streams/streams.h"
#include "flash/reliability/reliability.h"
#include "controller/buffer/write_buffer.h"
#include "controller/ftl_parts.h"
#include "controller/read_ahead/read_ahead.h"
#include "controller/sched/sched_policy.h"
#include "flash/flash_op.h"

namespace ssdtlm {

class WaveTracer;
struct FtlWave;

struct FtlParams {
  uint32_t cores = 1;
  uint64_t cmd_ps = 0;       // firmware time per host command
  uint64_t write_cmd_ps = 0;  // firmware.write_cmd_ns: a write command's own, on top of cmd_ps
  uint64_t flash_op_ps = 0;  // firmware time per NAND operation issued
  uint64_t buffer_step_ps = 0;  // firmware.buffer_step_ns: per step of buffer management (buffer/buffer_cost.h)
  uint32_t buffer_units = 0;
  double high_watermark = 0.9, low_watermark = 0.8;
  uint32_t die_queue_depth = 2;
  uint64_t max_age_ps = 0;        // buffer.max_age_ms: with streams, a partial page older than this is flushed
  bool count_lpn_writes = false;
  // The write buffer is a volatile write cache (buffer.power_protected=false: a power loss loses what it holds):
  // Flush and FUA writes wait until the buffered data is programmed. false: they complete at once (NVMe: no
  // volatile write cache present).
  bool volatile_cache = false;  // keep a per-LPN host write count (stats.lpn_writes)
  std::string sched_policy = "fifo";  // sched.policy (sched/: fifo, read_priority)
  uint64_t slc_idle_ps = 0;  // slc.fold_idle_us: idle time before background folding starts
  ReadAheadParams read_ahead;  // cache.read_ahead*
};

struct FtlStats {
  uint64_t buffer_read_hits = 0;     // units served from DRAM
  uint64_t buffer_absorbed = 0;      // writes absorbed by a dirty copy
  uint64_t unmapped_reads = 0;       // units never written (returned as zeros)
  uint64_t write_stalls = 0;         // commands that waited for buffer space
  uint64_t host_units_written = 0;   // accepted into the buffer
  uint64_t zns_failed_writes = 0;    // zoned: writes, appends and resets that failed with an NVMe status
  uint64_t flushed_units = 0;
  uint64_t subpage_merged = 0;       // partial-unit writes merged into a buffered copy
  uint64_t subpage_rmw = 0;          // partial-unit writes that read the old unit from flash first
  uint64_t trimmed_units = 0;
  uint64_t flush_commands = 0;       // NVMe Flush commands
  uint64_t fua_writes = 0;           // writes with Force Unit Access
  uint64_t write_stops = 0;          // read_priority: times writes were stopped for a flush
  uint64_t buffer_steps = 0;         // buffer-management steps charged (buffer/buffer_cost.h), even at 0 ns
  uint64_t buffer_busy_ps = 0;       // firmware core time they took (steps x firmware.buffer_step_ns)
};

class Ftl : public sc_core::sc_module, public CommandSink, public AtInitiator {
 public:
  SC_HAS_PROCESS(Ftl);
  // One per channel, each bound to this module's nb_transport_bw (common/at_socket.h): a completion names its die.
  std::vector<std::unique_ptr<tlm::tlm_initiator_socket<>>> flash_isock;
  DramPort<Ftl> dram;  // the firmware's map lookups and updates (optional)

  // Over the drive state and engines e (which must outlive it; e.checker null: check.integrity off), with its write
  // buffer. The platforms and the FTL harness build it with build_ftl (ftl_assembly.h).
  Ftl(sc_core::sc_module_name name, const FtlParams& p, const FtlEngines& e, std::unique_ptr<WriteBuffer> buffer);
  ~Ftl() override;

  void bind_frontend(CompletionSink* f) { frontend_ = f; }
  void submit(NvmeCommand& cmd, uint64_t arrival_ps) override;

  // At the end of a checked run (sim/run.cpp): the map audit (DriveState::audit_map), then every logical unit holds the
  // version the checker expects, as a read now would find it (the buffer first, else the mapped unit's out-of-band
  // LPN and version; nothing where none is expected). Reads check what the host read; this checks every unit once,
  // O(logical units). A failure is reported to the checker and returns false.
  bool audit(IntegrityChecker& c, uint64_t time_ps) const;
  const WriteBuffer& buffer() const { return *buffer_; }
  WriteBuffer& buffer() { return *buffer_; }
  // After a power loss emptied buffer slots: take the writes waiting for room, and flush.
  void resume_after_power_loss() {
    // Zoned: zones whose buffered units the loss dropped give their stream slots back (closing their blocks), and
    // a reset waiting for those blocks may erase them now.
    if (ZnsNamespace* z = streams_.zns()) z->drain(*buffer_, e_.state.blocks(), false);
    if (read_ahead_) read_ahead_->clear();  // the DRAM's copies are gone
    if (zone_erase_.waiting()) zone_erase_.kick();
    host_.admit_writes();
    if (host_.flush_waiting()) host_.barriers_progress();  // the units the loss dropped are settled
    flush_.pump();
    if (wave_) trace_sample();
  }
  // GC programs and erases issued and not finished (torn by a power loss now).
  uint64_t gc_programs_in_flight() const {
    uint64_t n = 0;
    for (uint32_t d = 0; d < g_.dies; ++d) n += e_.gc.die(d).programs;
    return n;
  }
  uint64_t gc_erases_in_flight() const {
    uint64_t n = 0;
    for (uint32_t d = 0; d < g_.dies; ++d) n += e_.gc.die(d).erases;
    return n + zone_erase_.in_flight();
  }
  // Units of the write commands taken from the host and not yet accepted into the buffer (not acknowledged).
  uint64_t waiting_write_units() const { return host_.waiting_units(); }
  const FtlStats& stats() const { return stats_; }
  // What the FTL holds now, for the time series (Sampler): free blocks, buffered units, dies collecting, map cache
  // lookups and hits so far and its dirty segments.
  struct Gauges {
    uint64_t free_blocks = 0, buffer_units = 0, map_lookups = 0, map_hits = 0, map_dirty_segments = 0;
    uint32_t gc_active_dies = 0;
  };
  Gauges gauges() const;
  const FlashCounters& flash_counters() const { return e_.state.counters(); }
  bool slc_cache() const { return e_.slc != nullptr; }  // slc.*: the counters' fold programs and reads count
  // zones.csv (Report Zones at the end of the run; ZnsNamespace::zones_csv), "" without zns.enabled.
  std::string zones_csv() const;
  // The FTL module's report (ftl_report.cpp): completes the drive state's (r: PageFtl::report, which the summary
  // takes from the platform) with the module's own: "ftl"'s buffer and command counts, "map", "streams", and "zns"'s
  // reset erases.
  void report(nlohmann::json& r) const;
  bool volatile_cache() const { return p_.volatile_cache; }  // Flush and FUA wait for the buffered data
  const std::vector<uint32_t>& lpn_writes() const { return lpn_writes_; }  // empty unless counted
  const ReadAhead* read_ahead() const { return read_ahead_.get(); }  // null: cache.read_ahead=none
  void reset_stats() {
    stats_ = FtlStats();
    streams_.reset_stats();
    e_.state.blocks().reset_counts();
    e_.victims.reset_relocated_lines();
    if (read_ahead_) read_ahead_->reset_counters();
  }
  uint64_t zone_erases() const { return zone_erase_.erases(); }     // zoned: blocks erased for zone resets
  uint64_t zone_erase_kept() const { return zone_erase_.kept(); }  // reset zones' blocks left with valid data
  // What the FTL is waiting for, in words (writes waiting for buffer room or held, flushes in flight, map work
  // queued, dies collecting): for a run that stopped making progress.
  std::string describe_state() const;
  // Adds the FTL's signals (ftl.*, chN.dieK.free_blocks) and its layout group; sampled from then on.
  void trace(WaveTracer& w);

 private:
  friend class HostPath;
  friend class FlushScheduler;
  friend class GcDriver;
  friend class MapWorkQueue;
  friend class ZoneEraser;

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  uint64_t cpu(uint64_t cost_ps);  // charge firmware time; returns when it is done
  // Charges `steps` buffer-management steps (firmware.buffer_step_ns each) starting no earlier than at_ps;
  // returns when they are done (at_ps when the step cost is 0: then no core is touched).
  uint64_t buffer_work(uint64_t steps, uint64_t at_ps);
  FlashOp& new_op(FlashCmd cmd, uint32_t die, FtlOpTag tag);
  void send(FlashOp& op, uint64_t not_before = 0);  // not_before: the op's data is in DRAM only then
  void trace_sample();  // records what changed; at the end of each entry point (submit, a completion)
  // A host command's completion at time t, handed to the front end (every completion goes through here).
  void complete(NvmeCommand& cmd, uint64_t t);
  // slc.*: tells GC whether the host is idle. Busy while a command is in the drive and until the latest
  // completion's time; background folding starts once that idleness has lasted slc.fold_idle_us (on_idle_timer).
  void host_idle_check();
  void on_idle_timer();
  uint32_t open_rus(uint32_t rg) const;  // FDP: RUHs with an open reclaim unit in reclaim group rg (ftl_wave.cpp)
  // High and low watermarks of the buffer in units.
  uint32_t high_units() const { return high_units_; }
  uint32_t low_units() const { return low_units_; }

  FtlParams p_;
  FtlEngines e_;  // the drive state and the engines, by reference (ftl_engines.h)
  const Geometry& g_;
  Streams& streams_;
  Lifetimes* lifetimes_;         // null: not recorded
  std::unique_ptr<WriteBuffer> buffer_;
  IntegrityChecker* checker_;
  CompletionSink* frontend_ = nullptr;
  PayloadPool<FlashOp> ops_;
  std::vector<uint64_t> core_free_;
  bool started_ = false;  // a command has arrived
  uint64_t last_done_ps_ = 0;   // the latest completion time handed to the front end
  uint64_t arrivals_ = 0;       // commands submitted (an idle timer armed before the latest one is stale)
  uint64_t idle_arrivals_ = 0;  // arrivals_ when the idle timer was armed
  uint64_t fold_start_ps_ = 0;  // when the armed idle timer lets folding start
  sc_core::sc_event idle_timer_;
  FtlStats stats_;
  std::vector<uint32_t> lpn_writes_;
  MapCache& cache_;
  TranslationStore* ts_;  // null when the whole map stays in DRAM
  std::unique_ptr<SchedPolicy> sched_;
  std::unique_ptr<ReadAhead> read_ahead_;  // null: cache.read_ahead=none
  uint32_t high_units_, low_units_;  // buffer watermarks (a flash page at least for the high one)
  HostPath host_;
  FlushScheduler flush_;
  GcDriver gc_;
  MapWorkQueue map_;
  ZoneEraser zone_erase_;
  std::unique_ptr<FtlWave> wave_;  // null: not traced
};

}  // namespace ssdtlm

namespace ssdtlm {

inline FlashOp& HostPath::open_user_read(const UnitAddress& a, FtlOpTag tag) {
  FlashOp& op = f_.new_op(FlashCmd::Read, a.die, tag);
  op.block = a.block;
  op.page = a.page;
  op.read_kind = ReadKind::User;
  ++f_.e_.state.counters().reads[uint32_t(ReadKind::User)];
  return op;
}

template <class Ok>
uint32_t FlushScheduler::next_flushable(uint32_t& cursor, Ok&& ok) const {
  const uint32_t words = uint32_t(flushable_.size());
  for (uint32_t i = 0; i <= words; ++i) {
    const uint32_t w = ((cursor >> 6) + i) % words;
    uint64_t bits = flushable_[w];
    if (i == 0) bits &= ~uint64_t(0) << (cursor & 63);
    if (i == words) bits &= (cursor & 63) ? ~(~uint64_t(0) << (cursor & 63)) : 0;
    for (; bits; bits &= bits - 1) {
      const uint32_t d = w * 64 + uint32_t(__builtin_ctzll(bits));
      if (!ok(d)) continue;
      cursor = d + 1 == f_.g_.dies ? 0 : d + 1;
      return d;
    }
  }
  return kInvalid;
}

}  // namespace ssdtlm
