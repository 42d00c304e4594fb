// Time to answer (sim.converge): the run's metrics as steady-state estimates with confidence intervals, from batch
// means over its measured completions (common/batch_means.h), and, with sim.converge=stop, the end of the run once
// the chosen metrics are known to sim.converge_rel_ci.
//
// The host tells the monitor every measured read and write that succeeded (after its job's ramp). Base batches:
// - every sim.converge_batch_ios completions: I/Os per simulated second (host.iops), latency per read and per write
//   (host.latency_us.{read,write}.mean) and bytes programmed per byte written (waf.total: every page programmed in
//   the batch's span, as summary.json's waf.total counts them, over the bytes its writes carried);
// - every sim.converge_batch_ios reads (writes) end a base batch of that direction's latencies
//   (host.latency_us.*.p99): the estimate is the 99th percentile of every settled latency together, as the run's
//   histogram takes it, and its interval comes from the sections' 99th percentiles around it (sectioning,
//   common/quantile_sections.h): no bias from the batches' size.
// With sim.converge_batch_erase_share, a base batch also lasts until the drive has erased that share of its blocks
// (at most kMaxStretch times sim.converge_batch_ios completions, for runs that erase little or nothing): batches in
// units of the GC cycle (every block erased once), whose swings at low over-provisioning last thousands of I/Os.
// With sim.converge_min_gc_cycles, sim.converge=stop waits until the drive has erased that many times its blocks.
// The warm-up left out is MSER-5's on the IOPS series (the same cut for every metric: batches ended before it are
// dropped). The check runs whenever the batches have grown by 5 % (amortised O(1) per completion).
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/batch_means.h"
#include "common/quantile_sections.h"
#include "host/converge_params.h"

namespace ssdtlm {

class ConvergenceMonitor {
 public:
  // programmed_bytes: every byte programmed on the NAND so far (the WAF's numerator), read at each batch's end;
  // erases: every block erased so far, and drive_blocks the drive's blocks (for sim.converge_batch_erase_share).
  ConvergenceMonitor(const ConvergeParams& p, std::function<uint64_t()> programmed_bytes,
                     std::function<uint64_t()> erases = nullptr, uint64_t drive_blocks = 0);

  // A base batch erase-bound (sim.converge_batch_erase_share) ends after this many times sim.converge_batch_ios
  // completions even when the drive has not erased its share of blocks by then.
  static constexpr uint32_t kMaxStretch = 64;

  // A measured read (dir 0) or write (dir 1) of `bytes` completed at now_ps after lat_ns. true: the run has
  // converged (sim.converge=stop): issue no more.
  bool completed(int dir, uint64_t bytes, uint64_t lat_ns, uint64_t now_ps);
  // summary.json "convergence": each metric's value and interval at the end of the run.
  void report(nlohmann::json& into) const;
  bool converged() const { return converged_; }

 private:
  struct Series {
    std::string name;        // the summary.json metric it estimates
    bool required = false;   // sim.converge=stop waits for it
    std::vector<RatioBatch> batches;  // a ratio's (IOPS, mean latency, WAF); a quantile's are in p99_
    std::vector<uint64_t> end_ps;     // each batch's end
    const QuantileSections* quantile = nullptr;  // a p99: its samples and batches
  };
  enum { kIops, kReadMean, kWriteMean, kWaf, kReadP99, kWriteP99, kSeries };
  bool batch_full() const;  // the current base batch has its completions (and erases)
  void close_batch(uint64_t now_ps);
  bool check() const;  // every required series within the target (and the warm-up over)
  bool drifts(const Series& s, uint64_t cut_ps) const;  // the two halves after the warm-up disagree
  static std::vector<RatioBatch> settled(const Series& s, uint64_t cut_ps);  // its batches after the cut, with data
  static bool has_data(const Series& s);  // some batch has the metric (a read-only run has no write latency)
  // The estimate of series s after the warm-up (the IOPS series' MSER-5 cut at `cut_ps`).
  BatchEstimate estimate(const Series& s, uint64_t cut_ps) const;
  // Its two halves' estimates, in time order.
  void halves(const Series& s, uint64_t cut_ps, BatchEstimate& first, BatchEstimate& second) const;
  uint64_t warmup_end_ps() const;

  ConvergeParams p_;
  std::function<uint64_t()> programmed_bytes_, erases_;
  uint64_t batch_erases_ = 0;  // erases a base batch lasts for (0: completions only)
  uint64_t min_erases_ = 0;    // erases since the first measured completion before a stop (sim.converge_min_gc_cycles)
  uint64_t erases_at_start_ = 0, erases_at_first_ = 0;
  Series series_[kSeries];
  uint64_t start_ps_ = 0;  // the current batch began (0: no completion yet)
  bool started_ = false;
  uint64_t ios_ = 0, lat_ns_[2] = {0, 0}, count_[2] = {0, 0}, written_ = 0, programmed_at_start_ = 0;
  QuantileSections p99_[2] = {QuantileSections(0.99), QuantileSections(0.99)};  // per direction: latencies, ns
  size_t next_check_ = 0;
  bool converged_ = false;
  uint64_t converged_ios_ = 0, total_ios_ = 0;
};

}  // namespace ssdtlm
