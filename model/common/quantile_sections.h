// A steady-state quantile (a p99 latency) with a confidence interval, by sectioning (Asmussen & Glynn, "Stochastic
// Simulation", Springer 2007, III.5a; Nakayama, "Confidence intervals for quantiles using sectioning when applying
// variance-reduction techniques", ACM TOMACS 24(4), 2014):
// - the estimate is the quantile of every settled sample together, as the run's own histogram takes it
//   (Histogram::quantile: the bucket of the ceil(q n)-th smallest sample, its upper bound clamped to the largest);
// - the interval comes from the same quantile of k sections (consecutive runs of the samples), centred on that
//   estimate: half width = t(k - 1) * sqrt(sum (q_j - q)^2 / (k (k - 1))).
// A batch quantile is biased by its batch's size (the mean of the 99th of 1,000 samples is not the 99th of them
// all); the estimate here is not, and the sections only measure its spread. Sections are the base batches merged as
// common/batch_means.h merges them (a fixed number of 20 to 39; still lag-1 correlated there, the interval widened
// by ar1_widen), so both kinds of metric treat the run alike.
// Memory: two bytes per sample (its histogram bucket) and three words per base batch.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/batch_means.h"

namespace ssdtlm {

class QuantileSections {
 public:
  explicit QuantileSections(double q) : q_(q) {}

  void add(uint64_t ns);
  // Ends the current base batch (its samples from the last call on) at end_ps.
  void close_batch(uint64_t end_ps);
  size_t pending() const { return buckets_.size() - (ends_.empty() ? 0 : ends_.back()); }
  size_t batches() const { return ends_.size(); }
  const std::vector<uint64_t>& end_ps() const { return end_ps_; }

  // The estimate over base batches [from, to), in ns; the interval at `confidence` (two-sided). Not ready with
  // fewer than max(min_batches, 2) base batches.
  BatchEstimate estimate(size_t from, size_t to, double confidence, uint32_t min_batches) const;

 private:
  // The quantile of base batches [from, to) merged, in ns.
  double quantile_of(size_t from, size_t to) const;

  double q_;
  std::vector<uint16_t> buckets_;  // every sample's Histogram bucket, in completion order
  std::vector<size_t> ends_;       // per base batch: one past its last sample in buckets_ (it begins at the previous end)
  std::vector<uint64_t> max_ns_;   // its largest sample
  std::vector<uint64_t> end_ps_;   // when it ended
  uint64_t max_now_ = 0;           // the largest sample of the current batch
  mutable std::vector<uint16_t> scratch_;
};

}  // namespace ssdtlm
