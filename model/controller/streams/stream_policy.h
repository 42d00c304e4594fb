// Stream assignment: which user stream (write frontier) a host write goes to. A new policy is one new
// file plus one line in stream_policy.cpp (streams.assign). Plain C++, no SystemC; see docs/reference/streams.md.
//
// Streams are numbered 0 .. streams-1; stream 0 is the default stream (a single-stream SSD writes only
// to it). A policy sees every host write command in arrival order, once, before its units are buffered.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/memory_part.h"
#include "controller/streams/write_counts.h"

namespace ssdtlm {

class SnapshotArchive;

struct StreamContext {
  uint32_t streams = 1;          // user streams, streams.count + 1
  uint64_t logical_units = 0;    // 4 KiB mapping units of the logical space
  uint32_t hot_threshold = 10;   // hotcold: a count above this is hot
  uint32_t chunk_units = 256;    // autostream: units per LBA chunk
  const WriteCounts* counts = nullptr;  // per-LPN host-write counts (hotcold), the write being assigned included
  uint64_t pc_table_bytes = 0;          // pcstream: PC-stream table bound (streams.pc_table_bytes)
  uint64_t recluster_units = 65536;     // pcstream: host-written units between re-clusterings
  bool pc_table_reset_run = false;      // pcstream: empty the PC-stream table when a new run starts
  uint32_t pc_min_deaths = 1;           // pcstream: deaths before a PC's estimate gives a stream
  bool pc_clock_time = false;           // pcstream: lifetimes in time (set_time) instead of host-written units
  uint32_t fdp_rgs = 1, fdp_ruhs = 1;   // fdp: reclaim groups and handles (streams = rgs * ruhs)
};

// A policy's own statistics for summary.json (streams.<policy name>): name and value.
using PolicyCounters = std::vector<std::pair<std::string, uint64_t>>;

// What the host tells about one write besides its addresses: the stream id of an NVMe streams directive
// (0 = none) and, for host-side policies, the program context and process that issued it (IoRequest).
struct WriteTag {
  uint32_t hint = 0;
  uint32_t pc = 0;
  uint32_t proc = 0;
  uint16_t proc_slot = 0;
  uint16_t run = 0;  // the application's run (IoRequest::run; 0 = none)
  uint8_t dtype = 0;   // NVMe directive type of the write (2 = FDP) and its directive specific field (the PID)
  uint16_t dspec = 0;
};

class StreamPolicy {
 public:
  virtual ~StreamPolicy() = default;
  // The streams of the units [lpn, lpn + units) of one host write: out[i] in [0, streams) for unit lpn + i.
  virtual void assign(uint32_t lpn, uint32_t units, const WriteTag& tag, uint8_t* out) = 0;
  // The host trimmed the units [lpn, lpn + units) (their data died). Only policies that return true from
  // wants_trims() are told.
  virtual void trim(uint32_t /*lpn*/, uint32_t /*units*/) {}
  virtual bool wants_trims() const { return false; }
  // The time (ns, non-decreasing) of the writes and trims that follow, for a policy that measures time
  // (pcstream with streams.pcstream_clock=time); the others ignore it.
  virtual void set_time(uint64_t /*now_ns*/) {}
  // Simulator-speed hint (no effect on behaviour): a write of lpn is coming; start loading its per-unit state.
  virtual void prefetch(uint32_t /*lpn*/) const {}
  virtual size_t memory_bytes() const { return 0; }
  // Statistics of the policy's own (none by default); reset_stats() starts the measured run (the policy keeps
  // what it learnt, only its counters restart).
  virtual PolicyCounters counters() const { return {}; }
  virtual void reset_stats() {}
  // Saves or loads what the policy has learnt (controller/snapshot); a policy that does not support it throws
  // SnapshotUnsupported (the drive is then preconditioned and not saved).
  virtual void snapshot(SnapshotArchive& a);
};

using StreamFactory = std::function<std::unique_ptr<StreamPolicy>(const StreamContext&)>;

std::unique_ptr<StreamPolicy> make_single_stream(const StreamContext& c);
std::unique_ptr<StreamPolicy> make_manual_stream(const StreamContext& c);
std::unique_ptr<StreamPolicy> make_autostream(const StreamContext& c);
std::unique_ptr<StreamPolicy> make_hotcold_stream(const StreamContext& c);
std::unique_ptr<StreamPolicy> make_pcstream(const StreamContext& c);
std::unique_ptr<StreamPolicy> make_fdp_stream(const StreamContext& c);  // placement/fdp_policy.cpp

// A registered policy (stream_policy.cpp's table): its factory, whether it reads the per-LPN write counts (Streams
// keeps them then: StreamContext::counts), and what it will allocate, estimated from its context alone before
// anything is built (report/memory_estimate.cpp; null: nothing that grows with the drive).
struct StreamPolicyEntry {
  StreamFactory make;
  bool reads_counts = false;
  MemoryPart (*memory)(const StreamContext&) = nullptr;
};
MemoryPart pcstream_memory(const StreamContext& c);  // pcstream.cpp

// The entry registered as `name`; throws ConfigError naming `key` and the known names for an unknown name.
const StreamPolicyEntry& find_stream_policy(const std::string& name, const std::string& key);
std::unique_ptr<StreamPolicy> make_stream_policy(const std::string& name, const StreamContext& c, const std::string& key);
std::vector<std::string> stream_policy_names();

// Hot/cold classification by host-write count (seed 004): a count up to `threshold` is cold (stream 0),
// above it hot. With more than two streams the hot side is split by powers of two: counts in
// [(T+1)·2^k, (T+1)·2^(k+1)) go to stream k+1, the last stream taking everything above.
inline uint32_t hotcold_stream(uint32_t count, uint32_t threshold, uint32_t streams) {
  if (count <= threshold || streams < 2) return 0;
  const uint64_t ratio = uint64_t(count) / (uint64_t(threshold) + 1);  // >= 1
  const uint32_t level = 1 + uint32_t(63 - __builtin_clzll(ratio));
  return level < streams ? level : streams - 1;
}

}  // namespace ssdtlm
