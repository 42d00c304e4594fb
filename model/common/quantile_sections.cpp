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
  // warm-up); fewer, longer sections while their quantiles are lag-1 correlated.
  size_t m = 1;
  while ((to - from) / m >= 2 * least) m *= 2;
  std::vector<RatioBatch> sections;
  for (;;) {
    const size_t k = (to - from) / m, first = to - k * m;
    sections.assign(k, RatioBatch());
    for (size_t j = 0; j < k; ++j) sections[j] = {quantile_of(first + j * m, first + (j + 1) * m), 1.0};
    if (lag1_autocorrelation(sections) < 2.0 / std::sqrt(double(k))) break;
    if (k / 2 < least) return e;
    m *= 2;
  }
  const size_t k = sections.size();
  const double value = quantile_of(to - k * m, to);
  double ss = 0;
  for (const RatioBatch& s : sections) ss += (s.y - value) * (s.y - value);
  e.ready = true;
  e.value = value;
  e.half_width = student_t_quantile(0.5 + confidence / 2, double(k - 1)) * std::sqrt(ss / double(k) / double(k - 1));
  e.batches = uint32_t(k);
  e.batch_size = uint32_t(m);
  return e;
}

}  // namespace ssdtlm
