// PCStream (Kim, Hong, Lee, Kim, "Fully Automatic Stream Management for Multi-Streamed SSDs Using Program
// Contexts", FAST'19), as streams.assign=pcstream. The host's side of it, modelled in the controller: every
// write carries its program context (WriteTag::pc, the call path that issued it) and process (proc,
// proc_slot). See docs/reference/streams.md ("PCStream") for the mechanism and the assumptions.
//
// * Clock (streams.pcstream_clock): writes (the default) = host-written 4 KiB units, drive-wide (one tick per
//   unit this policy assigns). The fast-forward precondition and the timed FTL assign the writes in the order
//   the controller takes them, so the clock, the estimates and the clustering depend on timing only through
//   that order (docs/reference/streams.md). time = the time given
//   by set_time (ns: the timed FTL's simulated time, the fast-forward's nominal time, Streams::set_time), so
//   idle time between writes lengthens the lifetimes that span it; birth times are kept in 64 bits (4 B more
//   per logical unit). Re-clustering is paced by host-written units on either clock.
// * Lifetime measurement: per logical unit, the clock at its write, the PC and the process that wrote it
//   (12 B; 16 B on the time clock). When the unit dies (overwritten or trimmed) its lifetime (clock now - birth, at least 1) is
//   credited to the writing process's estimate for that PC; if that process has exited, to the PC-stream
//   table's entry for the PC, created (LRU eviction) if missing; with no table (0 bytes) the sample is lost
//   (lifetimes_lost).
// * Estimator: the mean of log2(lifetime) over a PC's first kWindow samples, then an exponentially weighted
//   mean with weight 1/kWindow (adapts to a PC whose behaviour changes). Log, because lifetimes span orders
//   of magnitude and the clustering is on a log axis.
// * Processes: a process's PCs and estimates (PC attribute records) live while it lives. A write from a
//   new proc in a slot means the slot's previous proc has exited: its records with an estimate are merged
//   into the PC-stream table (sample-weighted means), then dropped. proc 0 is one process that never exits.
//   Process ids are assumed to grow over time within a slot: a write from a smaller proc than the slot's
//   current one is a late command of an exited process (no record; the table decides its stream).
// * Estimated: a PC estimate with at least min_deaths samples (streams.pcstream_min_deaths, default 1: from
//   its first death); below that it is still learning and neither gives a stream nor enters the clustering.
// * Stream of a write: its process's stream for the PC if that PC is estimated in the process; else the
//   PC-stream table's entry for the PC (a hit, the entry made most recently used); else stream 0 ("not yet
//   estimated", a miss). pc 0 (no program context) always goes to stream 0, untracked.
// * Clustering: every PC with an estimate (live records and table entries, merged per PC) is a point at its
//   log2 lifetime weighted by its recent write volume; weighted 1-D k-means (pc_clustering.h) into
//   streams.count clusters, stream 1 the shortest-lived. Re-clustered every recluster_units host units, and
//   at once when a PC gets its first estimate while there are fewer clusters than user streams (start-up).
//   Between re-clusterings a newly estimated PC takes the stream of the nearest centroid. Write volumes are
//   halved at each re-clustering.
// * Runs (streams.pc_table_reset=run, the seed's experiment without the table): when a write of a new
//   application run arrives (WriteTag::run above every run seen; gcc numbers its builds), the table is emptied
//   and processes of earlier runs that exit later are not merged into it: each run starts without prior
//   knowledge of past PCs, as in the seed, where the table was thrown away at the end of each run. Deaths
//   observed after the reset still teach the (new) table.
// Costs: O(1) expected per unit written or trimmed (hash lookups for the PC's record); a re-clustering is
// O(P log P) for P records and table entries.
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "controller/streams/pc_stream_table.h"
#include "controller/streams/stream_policy.h"

namespace ssdtlm {

class PcStream : public StreamPolicy {
 public:
  static constexpr uint32_t kWindow = 256;  // estimator: samples before the mean turns into an EWMA

  PcStream(uint32_t streams, uint64_t logical_units, uint64_t table_bytes, uint64_t recluster_units,
           bool reset_each_run = false, uint32_t min_deaths = 1, bool time_clock = false);

  void assign(uint32_t lpn, uint32_t units, const WriteTag& tag, uint8_t* out) override;
  void trim(uint32_t lpn, uint32_t units) override;
  bool wants_trims() const override { return true; }
  void set_time(uint64_t now_ns) override { now_ns_ = std::max(now_ns_, now_ns); }
  void prefetch(uint32_t lpn) const override { __builtin_prefetch(&units_[lpn], 1); }
  size_t memory_bytes() const override;
  PolicyCounters counters() const override;
  void reset_stats() override;

  struct Stats {
    uint64_t table_hits = 0;            // write commands whose PC its process had not estimated, found in the table
    uint64_t table_misses = 0;          // ... not found (or no table): their units go to stream 0
    uint64_t not_estimated_units = 0;   // units to stream 0 because their PC was not estimated
    uint64_t untagged_units = 0;        // units without a program context (pc 0): stream 0
    uint64_t lifetimes_process = 0;     // lifetimes credited to the writing process's estimate
    uint64_t lifetimes_table = 0;       // ... to the table (the writer had exited)
    uint64_t lifetimes_lost = 0;        // ... to nothing (writer exited, no table)
    uint64_t process_exits = 0;
    uint64_t reclusters = 0;
    uint64_t table_resets = 0;          // runs that started with the table emptied (pc_table_reset=run)
  };
  const Stats& stats() const { return stats_; }
  uint64_t clock() const { return clock_; }          // host-written units (the writes clock)
  bool time_clock() const { return time_clock_; }
  uint64_t now_ns() const { return now_ns_; }          // the time clock (set_time)
  const PcStreamTable& table() const { return table_; }
  PcStreamTable& table() { return table_; }
  // The cluster centroids (log2 lifetime), ascending: centroid i is stream i + 1.
  const std::vector<double>& centroids() const { return centroids_; }
  // The live process's estimate for pc: samples (0 = not estimated or no such record) and mean log2 lifetime.
  uint32_t samples(uint32_t proc, uint32_t pc) const;
  double mean_log2(uint32_t proc, uint32_t pc) const;
  // Distinct PCs with an estimate (live records and table entries), live records, live processes.
  uint32_t pcs_known() const;
  // Distinct PCs the writes this policy assigned carried (pc 0 not counted): the contexts it had to work with.
  uint32_t pcs_seen() const { return uint32_t(seen_.size()); }
  size_t records() const { return records_.size(); }
  size_t processes() const { return procs_.size(); }
  void recluster();

 private:
  struct Unit {          // 12 B per logical unit
    uint32_t born = 0;   // clock at its write (low 32 bits)
    uint32_t pc = 0;     // 0: untracked (never written, trimmed, or written without a PC)
    uint32_t proc = 0;
  };
  struct Record {        // a process's knowledge of one PC
    float mean_log2 = 0;
    uint32_t samples = 0;
    uint32_t writes = 0;
    uint8_t stream = 0;
  };
  static uint64_t key(uint32_t proc, uint32_t pc) { return (uint64_t(proc) << 32) | pc; }
  static void credit(float& mean, uint32_t& samples, double x);
  void kill(uint32_t lpn);
  uint64_t lifetime(uint32_t lpn) const;  // of the unit's live version, on the policy's clock (at least 1)
  // The live record of (proc, pc), created if needed; nullptr for a late write of an exited process.
  Record* record(const WriteTag& tag);
  void exit_process(uint32_t proc);
  uint8_t stream_for(double x) const;

  uint32_t streams_;
  uint64_t recluster_units_, next_recluster_;
  std::vector<Unit> units_;
  std::unordered_map<uint64_t, Record> records_;  // (proc, pc) -> record
  struct Process {
    std::vector<uint32_t> pcs;
    uint16_t run = 0;  // the run it started in
  };
  std::unordered_map<uint32_t, Process> procs_;  // live proc -> its PCs
  std::vector<uint32_t> slot_proc_;  // proc_slot -> its current proc (0: none)
  std::unordered_set<uint32_t> seen_;  // every PC a write carried (filled when a (proc, pc) record is made)
  PcStreamTable table_;
  std::vector<double> centroids_;
  bool recluster_pending_ = false;
  bool reset_each_run_;
  uint32_t min_deaths_;  // deaths a PC's estimate needs before it gives a stream (streams.pcstream_min_deaths)
  uint16_t run_ = 0;  // the latest run seen
  uint64_t clock_ = 0;
  bool time_clock_;                  // streams.pcstream_clock=time
  uint64_t now_ns_ = 0;              //   the time of the writes and trims now arriving
  std::vector<uint32_t> born_hi_;    //   the high 32 bits of each unit's birth time (Unit::born has the low ones)
  uint64_t evictions_base_ = 0;
  // The last record a dying unit was credited to (runs of units of one writer die together).
  uint64_t cached_key_ = ~uint64_t(0);
  Record* cached_ = nullptr;
  Stats stats_;
};

}  // namespace ssdtlm
