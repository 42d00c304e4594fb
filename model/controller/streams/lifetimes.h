// Data lifetime per stream: from a host write of a logical unit to the host write or TRIM that kills it,
// in simulated time and in host writes (4 KiB units written drive-wide in between). Plain C++.
//
// Per logical unit: the low 32 bits of the host-write sequence number of its live version and the stream
// it was written to (5 bytes). Times come from a table holding the simulated time of every 1024th
// unit write; a birth time is interpolated inside its 1024-write step (exact at the step boundaries).
// Only data born while the recorder runs is counted (the precondition has no simulated time); data still
// alive at the end is reported as `alive` (the quartiles are of completed lifetimes: right-censored).
#pragma once
#include <cstdint>
#include <vector>

#include "common/histogram.h"

namespace ssdtlm {

class Lifetimes {
 public:
  Lifetimes(uint64_t logical_units, uint32_t streams);

  // A host write of lpn into `stream` at simulated time now_ps (non-decreasing).
  void write(uint32_t lpn, uint32_t stream, uint64_t now_ps) {
    kill(lpn, now_ps);
    if (seq_ % kStep == 0) times_.push_back(now_ps);
    born_[lpn] = uint32_t(seq_++);
    stream_[lpn] = uint8_t(stream);
    ++per_[stream].births;
  }
  void trim(uint32_t lpn, uint64_t now_ps) {
    kill(lpn, now_ps);
    stream_[lpn] = kNone;
  }
  void prefetch(uint32_t lpn) const {
    __builtin_prefetch(&born_[lpn], 1);
    __builtin_prefetch(&stream_[lpn], 1);
  }
  // Forget every birth and statistic (start of a measured run).
  void reset();

  struct PerStream {
    Histogram time_ns, writes;  // completed lifetimes
    uint64_t births = 0;        // versions written
  };
  const PerStream& stream(uint32_t s) const { return per_[s]; }
  uint32_t streams() const { return uint32_t(per_.size()); }
  uint64_t alive(uint32_t s) const { return per_[s].births - per_[s].time_ns.count(); }
  size_t memory_bytes() const { return born_.capacity() * 4 + stream_.capacity() + times_.capacity() * 8; }

 private:
  static constexpr uint64_t kStep = 1024;
  static constexpr uint8_t kNone = 0xFF;
  void kill(uint32_t lpn, uint64_t now_ps) {
    const uint8_t s = stream_[lpn];
    if (s == kNone) return;
    record(s, seq_ - uint32_t(uint32_t(seq_) - born_[lpn]), now_ps);
  }
  void record(uint32_t s, uint64_t born, uint64_t now_ps);
  uint64_t time_of(uint64_t seq, uint64_t now_ps) const;

  std::vector<uint32_t> born_;   // per logical unit: low 32 bits of its live version's sequence number
  std::vector<uint8_t> stream_;  // per logical unit: its live version's stream, kNone if unknown
  std::vector<uint64_t> times_;  // simulated time (ps) of unit writes 0, 1024, 2048, ...
  std::vector<PerStream> per_;
  uint64_t seq_ = 0;             // unit writes so far
};

}  // namespace ssdtlm
