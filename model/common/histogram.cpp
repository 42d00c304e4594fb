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

}  // namespace ssdtlm
