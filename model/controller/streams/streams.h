// Stream separation as one plain-C++ object the FTL asks (docs/reference/streams.md): which user stream a host write
// goes to (the StreamPolicy), which GC stream a relocated unit goes to (streams.gc_stream), the per-LPN
// write counts hot/cold classification needs, and the per-stream statistics (writes, GC writes, padding,
// lifetimes). The timed FTL and the fast-forward precondition share it, so preconditioning trains the
// policies and the counts the timed run starts from.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "controller/placement/zns.h"
#include "controller/streams/lifetimes.h"
#include "controller/streams/stream_policy.h"
#include "controller/streams/write_counts.h"

namespace ssdtlm {


enum class GcStreams : uint8_t { Shared, PerStream, HotCold };

struct StreamParams {
  uint32_t count = 0;              // streams.count: user streams besides stream 0
  std::string assign = "single";   // streams.assign
  uint32_t hot_threshold = 10;     // streams.hot_threshold
  uint32_t chunk_units = 256;      // streams.autostream_chunk_bytes / 4 KiB
  uint64_t pc_table_bytes = 0;     // streams.pc_table_bytes (pcstream)
  uint64_t recluster_units = 65536;  // streams.pcstream_recluster_units
  bool pc_table_reset_run = false;   // streams.pc_table_reset=run
  uint32_t pc_min_deaths = 1;        // streams.pcstream_min_deaths
  bool pc_clock_time = false;        // streams.pcstream_clock=time
  uint64_t pc_nominal_unit_ps = 0;   //   the fast-forward's time per unit written (4 KiB at the program bandwidth)
  GcStreams gc = GcStreams::Shared;
  bool gc_in_user = false;         // streams.gc_frontier=user
  bool lifetimes = false;          // stats.lifetimes (auto: on with streams)
  uint32_t lifetime_shift = 3;     // record one logical unit in 2^shift (stats.lifetimes=all: 0)
  // FDP (placement/fdp.h): streams are (RG, RUH) pairs, stream s only on the dies of RG s / fdp_ruhs.
  uint32_t fdp_rgs = 1, fdp_ruhs = 1;
  bool fdp = false;
  uint64_t fdp_ru_bytes = 0;  // the reclaim unit (fdp.ru_bytes or derived), for the RU counts
  // ZNS (placement/zns.h): a stream slot per zone with data in flight, slots confined to die groups like RGs.
  bool zns = false;
  ZnsLayout zns_layout;
  // May die (of `dies`) take pages of user stream s?
  bool allowed_on(uint32_t s, uint32_t die, uint32_t dies) const {
    return fdp_rgs == 1 || s / fdp_ruhs == die / (dies / fdp_rgs);
  }
  // The reclaim group of FDP user stream s (0 without FDP).
  uint32_t rg_of(uint32_t s) const { return fdp ? s / fdp_ruhs : 0; }
  uint32_t user_streams() const { return count + 1; }
  uint32_t gc_streams() const { return gc == GcStreams::Shared ? 1 : count + 1; }
  // Are the per-LPN write counts kept (the assignment policy reads them, or streams.gc_stream=hotcold)?
  bool counts() const;
};

struct StreamStats {
  std::vector<uint64_t> writes;     // host units assigned, per user stream
  std::vector<uint64_t> gc_writes;  // units relocated by GC, per data stream (the stream they belong to)
  uint64_t user_padding = 0;        // padding units in user (buffer flush) pages
  uint64_t gc_padding = 0;          // padding units in GC pages
  uint64_t gc_spilled = 0;          // GC units written to another GC stream's block (die short of free blocks)
  template <class Archive>
  void snapshot(Archive& a) {
    a.io_all(writes, gc_writes, user_padding, gc_padding, gc_spilled);
  }
};

class Streams {
 public:
  Streams(const StreamParams& p, uint64_t logical_units);

  const StreamParams& params() const { return p_; }
  uint32_t user_streams() const { return p_.user_streams(); }
  uint32_t gc_streams() const { return p_.gc_streams(); }

  // One host write command: counts its units' writes, then fills out[i], the stream of unit lpn + i.
  void assign(uint32_t lpn, uint32_t units, const WriteTag& tag, uint8_t* out) {
    if (counts_) for (uint32_t i = 0; i < units; ++i) counts_->add(lpn + i);
    policy_->assign(lpn, units, tag, out);
    for (uint32_t i = 0; i < units; ++i) ++stats_.writes[out[i]];
  }
  // A valid unit GC relocates: its data stream from now on (the stream in its out-of-band data, or with
  // gc_stream=hotcold its LPN's class), and the GC stream (frontier) it goes to.
  uint32_t gc_data_stream(uint32_t lpn, uint32_t oob_stream) const {
    return p_.gc == GcStreams::HotCold ? hotcold_stream((*counts_)[lpn], p_.hot_threshold, user_streams()) : oob_stream;
  }
  // The time of the host writes and trims that follow (streams.pcstream_clock=time): the timed FTL gives the
  // simulated time, the fast-forward its nominal time. The clock the policy sees continues across a restart of
  // the given time (the timed run starting at 0 after the fast-forward): see continue_clock().
  void set_time(uint64_t now_ns) {
    last_ns_ = time_base_ns_ + now_ns;
    policy_->set_time(last_ns_);
  }
  bool measures_time() const { return p_.pc_clock_time; }
  // The time given from now on starts again at 0 and continues the policy's clock from the last time given
  // (called when the fast-forward precondition ends).
  void continue_clock() { time_base_ns_ = last_ns_; }
  // The host trimmed [lpn, lpn + units).
  void trim(uint32_t lpn, uint32_t units) {
    if (policy_trims_) policy_->trim(lpn, units);
  }
  uint32_t gc_stream_of(uint32_t data_stream) const { return p_.gc == GcStreams::Shared ? 0 : data_stream; }
  void prefetch(uint32_t lpn) const {
    if (counts_) counts_->prefetch(lpn);
    policy_->prefetch(lpn);
  }

  const StreamPolicy& policy() const { return *policy_; }
  StreamPolicy& policy() { return *policy_; }
  const WriteCounts* counts() const { return counts_.get(); }
  Lifetimes* lifetimes() { return lifetimes_.get(); }
  const Lifetimes* lifetimes() const { return lifetimes_.get(); }
  StreamStats& stats() { return stats_; }
  const StreamStats& stats() const { return stats_; }
  // summary.json "streams": writes and GC writes per stream, padding, the policy's own counters, lifetimes.
  nlohmann::json report() const;
  void reset_stats();
  size_t memory_bytes() const;
  // What a Streams of these parameters will allocate, from them alone (report/memory_estimate.cpp): the write
  // counts, the assignment policy's own (StreamPolicyEntry::memory), the lifetimes.
  static std::vector<MemoryPart> memory_estimate(const StreamParams& p, uint64_t logical_units);
  // Saves or loads the write counts, the policy's state, lifetimes and statistics (controller/snapshot).
  void snapshot(SnapshotArchive& a);
  ZnsNamespace* zns() { return zns_.get(); }  // the zoned namespace (zns.enabled), else null
  const ZnsNamespace* zns() const { return zns_.get(); }

 private:
  StreamParams p_;
  std::unique_ptr<WriteCounts> counts_;
  std::unique_ptr<StreamPolicy> policy_;
  bool policy_trims_ = false;
  std::unique_ptr<Lifetimes> lifetimes_;
  StreamStats stats_;
  uint64_t time_base_ns_ = 0, last_ns_ = 0;  // set_time: the clock before the given time's restart, the last time
  std::unique_ptr<ZnsNamespace> zns_;
};

}  // namespace ssdtlm
