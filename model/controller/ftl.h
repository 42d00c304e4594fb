// The FTL processor with its DRAM: takes host commands from the NVMe front end, buffers writes,
// flushes the buffer as page programs striped over channels then dies, serves reads from the buffer
// or flash, and runs garbage collection per die. Its firmware time is charged to `firmware.cores`
// cores (each operation on the earliest free core). Flash operations leave through flash_isock[channel].
// Sources: ftl.cpp (host commands, buffer flushing, completions), ftl_gc.cpp (garbage collection),
// ftl_map.cpp (map cache misses and write-backs as flash operations, map-block GC).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <memory>
#include <vector>

#include "common/payload_pool.h"
#include "controller/dram.h"
#include "controller/integrity_checker.h"
#include "common/nvme_command.h"
#include "controller/page_ftl.h"
#include "controller/buffer/write_buffer.h"
#include "flash/flash_op.h"

namespace ssdtlm {

class WaveTracer;
struct FtlWave;

struct FtlParams {
  uint32_t cores = 1;
  uint64_t cmd_ps = 0;       // firmware time per host command
  uint64_t flash_op_ps = 0;  // firmware time per NAND operation issued
  uint32_t buffer_units = 0;
  double high_watermark = 0.9, low_watermark = 0.8;
  uint32_t die_queue_depth = 2;
  uint64_t max_age_ps = 0;        // buffer.max_age_ms: with streams, a partial page older than this is flushed
  bool count_lpn_writes = false;  // keep a per-LPN host write count (stats.lpn_writes)
  bool read_priority = false;     // sched.policy=read_priority (seed 001 write-stop scheduling)
};

struct FtlStats {
  uint64_t buffer_read_hits = 0;     // units served from DRAM
  uint64_t buffer_absorbed = 0;      // writes absorbed by a dirty copy
  uint64_t unmapped_reads = 0;       // units never written (returned as zeros)
  uint64_t write_stalls = 0;         // commands that waited for buffer space
  uint64_t host_units_written = 0;   // accepted into the buffer
  uint64_t flushed_units = 0;
  uint64_t subpage_merged = 0;       // partial-unit writes merged into a buffered copy
  uint64_t subpage_rmw = 0;          // partial-unit writes that read the old unit from flash first
  uint64_t trimmed_units = 0;
  uint64_t write_stops = 0;          // read_priority: times writes were stopped for a flush
};

class Ftl : public sc_core::sc_module, public CommandSink {
 public:
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket_tagged<Ftl>>> flash_isock;  // one per channel
  DramPort<Ftl> dram;  // the firmware's map lookups and updates (optional)

  Ftl(sc_core::sc_module_name name, const FtlParams& p, PageFtl& ftl, std::unique_ptr<WriteBuffer> buffer,
      IntegrityChecker* checker);
  ~Ftl() override;

  void bind_frontend(CompletionSink* f) { frontend_ = f; }
  void submit(NvmeCommand& cmd, uint64_t arrival_ps) override;

  PageFtl& page_ftl() { return ftl_; }
  const WriteBuffer& buffer() const { return *buffer_; }
  WriteBuffer& buffer() { return *buffer_; }
  // After a power loss emptied buffer slots: take the writes waiting for room, and flush.
  void resume_after_power_loss() {
    admit_writes();
    pump();
    if (wave_) trace_sample();
  }
  // GC programs and erases issued and not finished (torn by a power loss now).
  uint64_t gc_programs_in_flight() const {
    uint64_t n = 0;
    for (const GcJob& j : gc_) n += j.programs;
    return n;
  }
  uint64_t gc_erases_in_flight() const {
    uint64_t n = 0;
    for (const GcJob& j : gc_) n += j.erases;
    return n;
  }
  // Units of the write commands taken from the host and not yet accepted into the buffer (not acknowledged).
  uint64_t waiting_write_units() const {
    uint64_t n = 0;
    for (const NvmeCommand* c = wait_head_; c; c = c->next) n += c->units;
    return n;
  }
  const FtlStats& stats() const { return stats_; }
  const std::vector<uint32_t>& lpn_writes() const { return lpn_writes_; }  // empty unless counted
  void reset_stats() {
    stats_ = FtlStats();
    streams_.reset_stats();
  }
  uint32_t gc_active_dies() const { return gc_active_; }
  MapCache& map_cache() { return cache_; }
  // Adds the FTL's signals (ftl.*, chN.dieK.free_blocks) and its layout group; sampled from then on.
  void trace(WaveTracer& w);

 private:
  // Units staged for one GC stream's next page.
  struct GcStage {
    uint32_t lpn[2 * kMaxUnitsPerPage], version[2 * kMaxUnitsPerPage], old[2 * kMaxUnitsPerPage];
    uint32_t n = 0;
  };
  // Per-die GC: scans one victim at a time (one page read in flight), stages valid units per GC stream
  // across victims so GC programs full pages, and erases a victim once its last unit has landed elsewhere.
  // With one GC stream a partial page waits for the next victim (padded only when none is left); with
  // several, the partial pages are padded once the die has its free blocks back.
  struct GcJob {
    bool active = false;
    uint32_t victim = kInvalid;  // block being scanned (global id)
    uint32_t next_page = 0;
    uint32_t reads = 0, programs = 0, erases = 0;  // in flight
    uint32_t staged = 0;         // units staged, all GC streams
    uint32_t full = 0;           // GC streams with a page or more staged
    std::vector<GcStage> stage;  // per GC stream
    std::vector<uint32_t> scanned;  // victims read out, waiting for their units to be programmed
    // Host pages this die may take while GC runs: each unit relocated earns (Np - v) / v units, so host
    // writes and GC progress in the proportion the victim frees space and free blocks hold steady.
    double credit = 1.0, ratio = 0.0;
    uint64_t data_ps = 0;  // staged data is in DRAM from then (GC reads complete with their end time annotated)
    // Map blocks (ftl_map.cpp): the victim holds translation pages; live segments are read a page at a
    // time and staged for new map pages.
    bool map_victim = false;
    uint32_t map_updates = 0;  // map accesses of relocated units still waiting for flash work
    uint32_t reading = 0, staged_segs = 0;
    uint32_t rseg[kMaxGather], seg[2 * kMaxGather];
    uint64_t rloc[kMaxGather], loc[2 * kMaxGather];
  };
  enum Tag : uint32_t { kHostRead, kRmwRead, kFlush, kGcRead, kGcProgram, kGcErase, kMapLoad, kMapMerge, kMapWrite,
                        kGcMapRead, kGcMapProgram };
  // Who waits for a map operation: a host command, a flush program (its buffer slots), or a die's GC.
  struct Waiter {
    enum Kind : uint8_t { Cmd, Flush, Gc } kind;
    void* p;
    uint32_t die;
  };
  // One map flash operation in flight (a segment load, a merge read, a write-back) and its waiters.
  struct MapWork {
    std::vector<Waiter> waiters;
    uint32_t seg = kInvalid;  // load: the segment arriving
    uint32_t nwb = 0;         // merge read: the batch to write back once it is read
    uint32_t wb[kMaxGather];
    MapWork* next_free = nullptr;
  };

  tlm::tlm_sync_enum nb_transport_bw(int channel, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  uint64_t cpu(uint64_t cost_ps);  // charge firmware time; returns when it is done
  FlashOp& new_op(FlashCmd cmd, uint32_t die, Tag tag);
  void send(FlashOp& op, uint64_t not_before = 0);  // not_before: the op's data is in DRAM only then

  void read(NvmeCommand& cmd, uint64_t t);
  void write(NvmeCommand& cmd);  // after any read-modify-write reads
  void trim(NvmeCommand& cmd, uint64_t t);
  void admit_writes();
  void accept_write(NvmeCommand& cmd, uint64_t t);
  void pump();  // flush engine
  uint32_t pick_flush_die(uint32_t stream);  // the next die that may take a page of the stream, round robin
  uint64_t user_streams_of(uint32_t die) const;  // bit set over the user streams the die has blocks for
  void refresh(uint32_t die);  // recompute whether the die may take a flush
  void flush_page(uint32_t die, uint32_t stream);
  void gc_kick(uint32_t die);
  bool gc_next_victim(uint32_t die);
  void gc_advance(uint32_t die);
  void check_gc_erase(uint32_t die, uint32_t victim);
  void gc_stage(uint32_t die, uint32_t gc_stream, uint32_t lpn, uint32_t version, uint32_t old);
  void gc_program(uint32_t die, uint32_t gc_stream, uint32_t n);
  void gc_pad(uint32_t die);  // programs every partial GC page, padded

  void on_host_read(FlashOp& op);
  bool on_flush(FlashOp& op);  // false: the op is kept until its map work is done
  void on_gc_read(FlashOp& op);
  void on_gc_program(FlashOp& op);
  void on_gc_erase(FlashOp& op);
  void finish_read(NvmeCommand& cmd);
  void release_flush(FlashOp& op);
  void stop_or_resume_writes();
  void trace_sample();  // records what changed; at the end of each entry point (submit, a completion)

  // map work (ftl_map.cpp)
  bool map_phase(NvmeCommand& cmd);  // true: the command waits for map operations
  void continue_cmd(NvmeCommand& cmd);
  uint32_t map_issue(const MapAccess& a, uint32_t seg, bool needs_seg, const Waiter& w);
  void map_updates(const uint32_t* lpns, uint32_t n, const Waiter& w, uint32_t* waits);
  MapWork* new_work(const Waiter& w);
  void issue_map_read(MapWork* work, uint32_t seg, Tag tag);
  void issue_write_back(MapWork* work, const uint32_t* segs, uint32_t n);
  FlashOp& map_page_op(uint32_t die, uint32_t ppa, Tag tag, UnitKind kind);  // a counted map page program
  uint32_t pick_map_die();  // kInvalid: no die may take a map page now
  void retry_map_writes();  // write-backs and map GC copies that found no die with room
  void on_map_op(FlashOp& op);
  void waiter_done(const Waiter& w);
  void gc_map_advance(uint32_t die);
  bool gc_map_program(uint32_t die, uint32_t n);  // false: no die has room yet
  void on_gc_map_read(FlashOp& op);
  void on_gc_map_program(FlashOp& op);

  FtlParams p_;
  PageFtl& ftl_;
  const Geometry& g_;
  Streams& streams_;
  Lifetimes* lifetimes_;         // null: not recorded
  std::vector<uint8_t> unit_stream_;  // scratch: the streams of one write command's units
  std::unique_ptr<WriteBuffer> buffer_;
  IntegrityChecker* checker_;
  CompletionSink* frontend_ = nullptr;
  PayloadPool<FlashOp> ops_;
  std::vector<uint64_t> core_free_;
  std::vector<uint32_t> flush_inflight_;  // per die
  std::vector<GcJob> gc_;
  uint32_t flush_cursor_ = 0;
  bool flushing_ = false;
  std::vector<uint64_t> flushable_;  // bit set over dies: may take a buffer flush now (see refresh)
  std::vector<uint64_t> die_streams_;  // per die: the user streams it may take a page of now (0: not flushable)
  std::vector<uint32_t> stream_dies_;  // per user stream: dies that may take it
  uint64_t takeable_ = 0;              // bit set over user streams: some die may take it
  bool started_ = false;               // a command has arrived
  bool kick_lines_ = false;            // superblock GC started a victim line: the other dies must join
  NvmeCommand* wait_head_ = nullptr;  // writes waiting for buffer space, FIFO
  NvmeCommand* wait_tail_ = nullptr;
  FtlStats stats_;
  std::vector<uint32_t> lpn_writes_;
  MapCache& cache_;
  TranslationStore* ts_;  // null when the whole map stays in DRAM
  std::vector<MapWork*> loading_;  // per segment: its load in flight, if any
  uint32_t map_cursor_ = 0;
  bool in_retry_ = false;
  MapWork* wb_head_ = nullptr;     // write-backs waiting for a die with room, FIFO
  MapWork* wb_tail_ = nullptr;
  std::vector<uint32_t> map_gc_stalled_;  // dies whose map GC copies wait for room
  std::vector<std::unique_ptr<MapWork>> work_store_;
  MapWork* free_work_ = nullptr;
  uint32_t reads_outstanding_ = 0;  // host reads taken and not yet completed
  uint32_t flushes_pending_ = 0;    // flush programs whose buffer slots are not yet released
  bool write_stop_ = false;         // read_priority: writes held until the flush is over
  bool flush_phase_ = false;        // read_priority: the reads are served, the flush runs
  uint32_t gc_active_ = 0;
  static constexpr uint32_t kMapUpdateQuantum = 4096;  // flush map-update bursts charged to DRAM together
  uint32_t map_update_bytes_ = 0;                      // not charged yet
  std::unique_ptr<FtlWave> wave_;  // null: not traced
};

}  // namespace ssdtlm
