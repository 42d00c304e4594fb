// Latency histogram with bounded relative error: exact below 256 ns, then 128 sub-buckets per power of
// two (< 0.8% error). O(1) record, fixed memory (~60 KB), exact count/min/max/mean/standard deviation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdtlm {

class Histogram {
 public:
  Histogram() : counts_(kBuckets, 0) {}

  void record(uint64_t ns) { record_in(index(ns), ns); }
  // record() with the bucket already found (bucket_of(ns)): one lookup for several histograms of the same sample.
  static size_t bucket_of(uint64_t ns) { return index(ns); }
  // The largest value bucket b holds (quantile() reports a bucket by it).
  static uint64_t bucket_upper(size_t b) { return upper(b); }
  static constexpr size_t buckets() { return kBuckets; }
  void record_in(size_t bucket, uint64_t ns) {
    ++counts_[bucket];
    ++count_;
    sum_ += double(ns);
    sum2_ += double(ns) * double(ns);
    if (ns < min_) min_ = ns;
    if (ns > max_) max_ = ns;
  }
  void reset() { *this = Histogram(); }

  uint64_t count() const { return count_; }
  double mean() const { return count_ ? sum_ / double(count_) : 0.0; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  // Sample standard deviation (n - 1 in the denominator, as fio); 0 for fewer than two samples.
  double stddev() const;
  // Samples recorded with a value <= ns (bucket resolution: a bucket counts when its upper bound is <= ns).
  uint64_t count_at_most(uint64_t ns) const;
  // Adds another histogram's samples (fio's group_reporting).
  void merge(const Histogram& o);
  // Smallest recorded value v such that at least fraction q of the samples are <= v (bucket upper bound,
  // clamped to the exact max).
  uint64_t quantile(double q) const;
  // (upper bound ns, cumulative fraction) for every non-empty bucket.
  std::vector<std::pair<uint64_t, double>> cdf() const;
  // (value ns, count) for every non-empty bucket, the value as quantile() gives it (upper bound, clamped to the
  // max): percentiles computed from these bins, as fio's tools do from json+, equal quantile()'s.
  std::vector<std::pair<uint64_t, uint64_t>> bins() const;

  // Saves or loads the samples (controller/snapshot: SnapshotArchive).
  template <class Archive>
  void snapshot(Archive& a) {
    a.io_all(counts_, count_, sum_, sum2_, min_, max_);
  }

 private:
  static constexpr int kExact = 256;
  static constexpr int kSub = 128;
  static constexpr int kBuckets = kExact + (64 - 8) * kSub;
  static size_t index(uint64_t v) {
    if (v < kExact) return size_t(v);
    int e = 63 - __builtin_clzll(v);  // >= 8
    int shift = e - 7;
    return size_t(kExact + (e - 8) * kSub + int((v >> shift) - kSub));
  }
  static uint64_t upper(size_t i) {
    if (i < size_t(kExact)) return i;
    size_t k = i - kExact;
    int e = int(k / kSub) + 8, shift = e - 7;
    uint64_t mant = uint64_t(k % kSub) + kSub;
    return ((mant + 1) << shift) - 1;
  }
  std::vector<uint64_t> counts_;
  uint64_t count_ = 0;
  double sum_ = 0, sum2_ = 0;
  uint64_t min_ = ~uint64_t(0), max_ = 0;
};

}  // namespace ssdtlm
