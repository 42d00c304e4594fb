// fio's bandwidth and IOPS samples (its bw_*/iops_* statistics): per direction, the bytes and I/Os a job completed
// in each window of `bwavgtime` / `iopsavgtime` (default 500 ms), turned into one sample per window in which the
// direction moved data (fio's __add_samples skips a window without any). Plain C++, O(1) per completion.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ssdtlm {

// Running min, max, mean and sample standard deviation (n - 1, as fio) of the samples; mergeable.
struct RateStat {
  uint64_t n = 0;
  double min = 0, max = 0, sum = 0, sum2 = 0;
  void add(double v) {
    min = n ? std::min(min, v) : v;
    max = n ? std::max(max, v) : v;
    ++n;
    sum += v;
    sum2 += v * v;
  }
  void merge(const RateStat& o) {
    if (!o.n) return;
    min = n ? std::min(min, o.min) : o.min;
    max = n ? std::max(max, o.max) : o.max;
    n += o.n;
    sum += o.sum;
    sum2 += o.sum2;
  }
  double mean() const { return n ? sum / double(n) : 0.0; }
  double stddev() const {
    if (n < 2) return 0.0;
    const double m = mean();
    return std::sqrt(std::max(0.0, (sum2 - double(n) * m * m) / double(n - 1)));
  }
};

// One job's windows for one statistic (bandwidth in KiB/s, or IOPS).
class RateWindows {
 public:
  // period_ps 0: no samples.
  void start(uint64_t now_ps, uint64_t period_ps) {
    period_ = period_ps;
    end_ = now_ps + period_ps;
  }
  // A completion of `bytes` in direction d (0 read, 1 write, 2 trim) at now_ps; closes the windows before it.
  void complete(int d, uint64_t bytes, uint64_t now_ps, RateStat out[3], bool kib) {
    if (!period_) return;
    if (now_ps >= end_) {
      close(out, kib);
      end_ += (now_ps - end_) / period_ * period_ + period_;  // empty windows give no samples
    }
    amount_[d] += kib ? bytes : 1;
  }

 private:
  void close(RateStat out[3], bool kib) {
    const double ms = double(period_) / 1e9;
    for (int d = 0; d < 3; ++d) {
      if (!amount_[d]) continue;
      out[d].add(kib ? double(amount_[d]) * 1000.0 / ms / 1024.0 : double(amount_[d]) * 1000.0 / ms);
      amount_[d] = 0;
    }
  }
  uint64_t period_ = 0, end_ = 0;
  uint64_t amount_[3] = {0, 0, 0};
};

}  // namespace ssdtlm
