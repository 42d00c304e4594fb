// The reliability state of the drive's blocks (reliability.*): when each block's data was programmed, how often
// the block was read since, and the reads that need read reclaim. Asks the RberModel what each read costs and
// counts it. Plain C++, O(1) per operation; one instance per drive, owned by the FTL algorithm (PageFtl), which
// hands reclaim victims to the GC engine (one engine: GC, folding and read reclaim, timed and fast-forward).
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "flash/geometry.h"
#include "flash/reliability/rber_model.h"

namespace ssdtlm {

class SnapshotArchive;

struct ReliabilityCounters {
  uint64_t reads = 0;             // page reads decoded (host, map, GC, fold)
  uint64_t retry_reads = 0;       // reads that needed read-retry steps
  uint64_t retries = 0;           // read-retry steps, all reads
  uint64_t soft_decodes = 0;      // reads decoded by a soft-decision tier
  uint64_t uncorrectable = 0;     // reads past the last tier
  uint64_t reclaimed_blocks = 0;  // blocks relocated by read reclaim
  uint64_t decode_ps = 0;         // soft decoding time, all reads
  double max_rber = 0;
};

class Reliability {
 public:
  Reliability(const Geometry& g, const ReliabilityParams& p);
  const RberModel& model() const { return model_; }
  // A read of (gblock, page) at now_ps; erases: the block's erases so far; slc: the block is in SLC mode.
  ReadOutcome on_read(uint32_t gblock, uint32_t page, uint32_t erases, bool slc, uint64_t now_ps);
  void on_program(uint32_t gblock, uint32_t page, uint64_t now_ps) {
    if (page == 0) {
      programmed_ps_[gblock] = aged_ps(now_ps);
      reads_[gblock] = 0;
    }
  }
  // The drive's temperature from now_ps on (the sampler passes the thermal model's each interval): data ages
  // faster when it is hotter (RberModel::acceleration).
  void set_temp_c(double temp_c, uint64_t now_ps);
  double temp_c() const { return temp_c_; }
  // The run's time up to now_ps on the retention clock: hours at the fit's temperature.
  double aged_hours(uint64_t now_ps) const { return double(aged_ps(now_ps)) / 3.6e15; }
  void on_erase(uint32_t gblock) {
    reads_[gblock] = 0;
    queued_[gblock] = 0;
  }
  bool reclaim_due(uint32_t die) const { return !reclaim_[die].empty(); }
  // The die's next block queued for reclaim that still waits (kInvalid if none).
  uint32_t pop_reclaim(uint32_t die);
  void reclaimed() { ++counters_.reclaimed_blocks; }
  ReliabilityCounters& counters() { return counters_; }
  const ReliabilityCounters& counters() const { return counters_; }
  // summary.json "reliability": the counters, the model's start state, and the hours the run aged the data by now.
  nlohmann::json report(uint64_t now_ps) const;
  void reset_counters() { counters_ = ReliabilityCounters(); }
  // The mean RBER of a block now (for reports and tests).
  // Saves or loads the per-block wear, retention and read-disturb state (controller/snapshot).
  void snapshot(SnapshotArchive& a);
  double block_rber(uint32_t gblock, uint32_t erases, bool slc, uint64_t now_ps) const;

 private:
  static constexpr uint64_t kBeforeRun = ~uint64_t(0);
  double pe(uint32_t erases, bool slc) const;
  double hours(uint32_t gblock, uint64_t now_ps) const;
  // The retention clock: picoseconds of the run at the fit's temperature (real time times the acceleration of
  // the drive's temperature, piecewise constant between set_temp_c calls).
  uint64_t aged_ps(uint64_t now_ps) const {
    const uint64_t d = now_ps - std::min(now_ps, temp_since_ps_);
    return aged_at_ps_ + (af_ == 1.0 ? d : uint64_t(double(d) * af_));
  }

  const Geometry& g_;
  RberModel model_;
  double pre_hours_;                      // the pre-run data's age at the start of the run, at the fit's temperature
  double temp_c_;                         // the drive's temperature now
  double af_;                             // its acceleration
  uint64_t temp_since_ps_ = 0;            // since when
  uint64_t aged_at_ps_ = 0;               // aged_ps(temp_since_ps_)
  std::vector<uint64_t> programmed_ps_;   // per block: aged_ps() at its first page's program (kBeforeRun: before
                                          // the run)
  std::vector<uint32_t> reads_;           // per block: page reads since it was programmed
  std::vector<uint8_t> queued_;           // per block: waits in a reclaim queue
  std::vector<uint32_t> terms_at_;        // per block: erases << 1 | slc its wear terms are for (~0u: none yet)
  std::vector<RberModel::WearTerms> terms_;  // per block: alpha c^k, beta c^m, gamma c^p at that erase count
  std::vector<std::deque<uint32_t>> reclaim_;  // per die
  ReliabilityCounters counters_;
};

}  // namespace ssdtlm
