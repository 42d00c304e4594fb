#include "common/quantile_sections.h"

#include <algorithm>
#include <cmath>

#include "common/histogram.h"

namespace ssdtlm {

static_assert(Histogram::buckets() <= 65536, "a sample's bucket is kept in 16 bits");

void QuantileSections::add(uint64_t ns) {
  buckets_.push_back(uint16_t(Histogram::bucket_of(ns)));
  if (ns > max_now_) max_now_ = ns;
}

void QuantileSections::close_batch(uint64_t end_ps) {
  ends_.push_back(buckets_.size());
  max_ns_.push_back(max_now_);
  end_ps_.push_back(end_ps);
  max_now_ = 0;
}

double QuantileSections::quantile_of(size_t from, size_t to) const {
  const size_t first = from ? ends_[from - 1] : 0, end = ends_[to - 1];
  if (end == first) return 0.0;
  scratch_.assign(buckets_.begin() + ptrdiff_t(first), buckets_.begin() + ptrdiff_t(end));
  // The ceil(q n)-th smallest (at least the first), as Histogram::quantile counts.
  const size_t n = scratch_.size();
  size_t rank = size_t(std::ceil(q_ * double(n)));
  rank = std::min(std::max<size_t>(rank, 1), n) - 1;
  std::nth_element(scratch_.begin(), scratch_.begin() + ptrdiff_t(rank), scratch_.end());
  const uint64_t most = *std::max_element(max_ns_.begin() + ptrdiff_t(from), max_ns_.begin() + ptrdiff_t(to));
  return double(std::min(Histogram::bucket_upper(scratch_[rank]), most));
}

BatchEstimate QuantileSections::estimate(size_t from, size_t to, double confidence, uint32_t min_batches) const {
  BatchEstimate e;
  const size_t least = std::max<size_t>(min_batches, 2);
  if (to > ends_.size() || from >= to || to - from < least) return e;
  // Sections as batch_means merges batches: m base batches each, the oldest remainder left out (nearest the
  // warm-up); their remaining correlation widens the interval.
  const size_t m = merged_batch_width(to - from, min_batches);
  const size_t count = (to - from) / m, first = to - count * m;
  std::vector<RatioBatch> sections(count);
  for (size_t j = 0; j < count; ++j) sections[j] = {quantile_of(first + j * m, first + (j + 1) * m), 1.0};
  const double r = lag1_autocorrelation(sections);
  const size_t k = sections.size();
  const double value = quantile_of(to - k * m, to);
  double ss = 0;
  for (const RatioBatch& s : sections) ss += (s.y - value) * (s.y - value);
  const double se = std::sqrt(ss / double(k) / double(k - 1));
  e.value = value;
  e.batches = uint32_t(k);
  e.batch_size = uint32_t(m);
  if (!ar1_interval(e, r, double(k), se, confidence)) return BatchEstimate();
  return e;
}

}  // namespace ssdtlm
