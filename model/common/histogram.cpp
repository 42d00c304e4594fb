#include "common/histogram.h"

#include <cmath>

namespace ssdtlm {

uint64_t Histogram::quantile(double q) const {
  if (!count_) return 0;
  uint64_t target = uint64_t(std::ceil(q * double(count_)));
  if (target == 0) target = 1;
  uint64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= target) {
      uint64_t u = upper(i);
      return u < max_ ? u : max_;
    }
  }
  return max_;
}

double Histogram::stddev() const {
  if (count_ < 2) return 0.0;
  const double n = double(count_), mean = sum_ / n;
  const double var = (sum2_ - n * mean * mean) / (n - 1);
  return var > 0 ? std::sqrt(var) : 0.0;
}

uint64_t Histogram::count_at_most(uint64_t ns) const {
  if (!count_ || ns < min()) return 0;
  if (ns >= max_) return count_;
  uint64_t n = 0;
  for (size_t i = 0; i < counts_.size() && upper(i) <= ns; ++i) n += counts_[i];
  return n;
}

void Histogram::merge(const Histogram& o) {
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += o.counts_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  sum2_ += o.sum2_;
  if (o.count_ && o.min_ < min_) min_ = o.min_;
  if (o.max_ > max_) max_ = o.max_;
}

std::vector<std::pair<uint64_t, double>> Histogram::cdf() const {
  std::vector<std::pair<uint64_t, double>> out;
  uint64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (!counts_[i]) continue;
    seen += counts_[i];
    uint64_t u = upper(i);
    out.emplace_back(u < max_ ? u : max_, double(seen) / double(count_));
  }
  return out;
}

std::vector<std::pair<uint64_t, uint64_t>> Histogram::bins() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (!counts_[i]) continue;
    const uint64_t u = upper(i);
    out.emplace_back(u < max_ ? u : max_, counts_[i]);
  }
  return out;
}

}  // namespace ssdtlm
