// Data lifetime per stream: from a host write of a logical unit to the host write or TRIM that kills it,
// in simulated time and in host writes (4 KiB units written drive-wide in between). Plain C++.
//
// Per recorded logical unit, one packed 5-byte record: the low 32 bits of the host-write sequence number
// of its live version and the stream it was written to. Recording every unit costs a random memory access
// per host write (about 15 % of the simulation's wall time on 4 KiB random writes); by default one unit
// in 2^sample_shift is recorded, chosen by a hash of its LPN (one in each aligned group of that many), so
// the quartiles are estimates from that sample; the host-write counts themselves are exact.
// Times come from a table holding the simulated time of every 1024th unit write; a birth time is
// interpolated inside its 1024-write step (exact at the step boundaries).
// Only data born while the recorder runs is counted (the precondition has no simulated time); data still
// alive at the end is reported as `alive` (the quartiles are of completed lifetimes: right-censored).
#pragma once
#include <cstdint>
#include <vector>

#include "common/histogram.h"

namespace ssdtlm {

class Lifetimes {
 public:
  Lifetimes(uint64_t logical_units, uint32_t streams, uint32_t sample_shift = 3);

  // A host write of lpn into `stream` at simulated time now_ps (non-decreasing).
  void write(uint32_t lpn, uint32_t stream, uint64_t now_ps) {
    if (seq_ % kStep == 0) times_.push_back(now_ps);
    ++per_[stream].births;
    if (sampled(lpn)) {
      Unit& u = unit_[lpn >> shift_];
      kill(u, now_ps);
      u = Unit{uint32_t(seq_), uint8_t(stream)};
      ++per_[stream].sampled_births;
    }
    ++seq_;
  }
  void trim(uint32_t lpn, uint64_t now_ps) {
    if (!sampled(lpn)) return;
    Unit& u = unit_[lpn >> shift_];
    kill(u, now_ps);
    u.stream = kNone;
  }
  // Forget every birth and statistic (start of a measured run).
  void reset();

  struct PerStream {
    Histogram time_ns, writes;     // completed lifetimes of the recorded units
    uint64_t births = 0;           // versions written (every unit)
    uint64_t sampled_births = 0;   // of them recorded
    template <class Archive>
    void snapshot(Archive& a) {
      a.io_all(time_ns, writes, births, sampled_births);
    }
  };
  const PerStream& stream(uint32_t s) const { return per_[s]; }
  uint32_t streams() const { return uint32_t(per_.size()); }
  uint32_t sample_shift() const { return shift_; }
  // Recorded versions still alive, and the estimate for all units.
  uint64_t sampled_alive(uint32_t s) const { return per_[s].sampled_births - per_[s].time_ns.count(); }
  uint64_t alive(uint32_t s) const { return sampled_alive(s) << shift_; }
  size_t memory_bytes() const { return unit_.capacity() * sizeof(Unit) + times_.capacity() * 8; }
  // Before it exists: about 5 B per recorded unit (one logical unit in 2^sample_shift).
  static double memory_estimate(uint64_t logical_units, uint32_t sample_shift) {
    return double(logical_units) * (5.0 / double(uint64_t(1) << sample_shift));
  }
  // Saves or loads the recorded units and statistics (controller/snapshot: SnapshotArchive).
  template <class Archive>
  void snapshot(Archive& a) {
    a.io_all(shift_, mask_, unit_, times_, per_, seq_);
  }

 private:
  static constexpr uint64_t kStep = 1024;
  static constexpr uint8_t kNone = 0xFF;
  struct __attribute__((packed)) Unit {
    uint32_t born = 0;       // low 32 bits of its live version's sequence number
    uint8_t stream = kNone;  // its live version's stream, kNone if unknown
  };
  // One LPN of each aligned group of 2^shift, at a position hashed from the group number.
  bool sampled(uint32_t lpn) const {
    return (lpn & mask_) == (uint32_t((uint64_t(lpn >> shift_) * 0x9E3779B97F4A7C15ull) >> 40) & mask_);
  }
  void kill(Unit& u, uint64_t now_ps) {
    if (u.stream == kNone) return;
    record(u.stream, seq_ - uint32_t(uint32_t(seq_) - u.born), now_ps);
  }
  void record(uint32_t s, uint64_t born, uint64_t now_ps);
  uint64_t time_of(uint64_t seq, uint64_t now_ps) const;

  uint32_t shift_, mask_;
  std::vector<Unit> unit_;       // per group of 2^shift logical units: its recorded unit
  std::vector<uint64_t> times_;  // simulated time (ps) of unit writes 0, 1024, 2048, ...
  std::vector<PerStream> per_;
  uint64_t seq_ = 0;             // unit writes so far
};

}  // namespace ssdtlm
