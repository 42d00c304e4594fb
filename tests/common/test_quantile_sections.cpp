// QuantileSections (common/quantile_sections.h): a quantile of every settled sample, as the run's histogram takes it,
// with a sectioning interval that covers the population's quantile as often as its confidence says.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "common/histogram.h"
#include "common/quantile_sections.h"

using namespace ssdtlm;

TEST_CASE("quantile sections: the estimate is the histogram's quantile of the samples in the sections",
          "[common][converge]") {
  QuantileSections q(0.99);
  Histogram h;
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> lat(11.0, 0.6);  // ~60 us, long tail
  for (uint32_t b = 0; b < 45; ++b) {
    for (uint32_t i = 0; i < 1000; ++i) {
      const uint64_t ns = uint64_t(lat(rng));
      q.add(ns);
      if (b >= 5) h.record(ns);  // batches 5..44: 40 of them, sections of one batch each (k = 20..39: m = 1)
    }
    q.close_batch(uint64_t(b + 1) * 1000000);
  }
  const BatchEstimate e = q.estimate(5, 45, 0.95, 20);
  REQUIRE(e.ready);
  CHECK(e.batch_size == 2);  // 40 base batches merged two by two: 20 sections
  CHECK(e.batches == 20);
  CHECK(e.value == double(h.quantile(0.99)));
  CHECK(e.half_width > 0);
  CHECK(e.half_width < 0.05 * e.value);
  // Too few batches: no estimate.
  CHECK_FALSE(q.estimate(40, 45, 0.95, 20).ready);
}

TEST_CASE("quantile sections: 95 % intervals cover the population's p99 in 90-98.5 % of the trials with one",
          "[common][converge]") {
  // Exponential latencies of mean 80 us above 20 us: p99 = 20 + 80 ln 100 = 388.4 us. 200 trials of 40 batches of
  // 500 samples; the bucket's upper bound adds at most 2 us (buckets of 2,048 ns there).
  const double truth_ns = (20.0 + 80.0 * std::log(100.0)) * 1000.0;
  std::mt19937_64 rng(11);
  std::exponential_distribution<double> service(1.0 / 80000.0);
  int covered = 0, ready = 0, trials = 200;
  double width = 0;
  for (int t = 0; t < trials; ++t) {
    QuantileSections q(0.99);
    for (uint32_t b = 0; b < 40; ++b) {
      for (uint32_t i = 0; i < 500; ++i) q.add(uint64_t(20000.0 + service(rng)));
      q.close_batch(b + 1);
    }
    const BatchEstimate e = q.estimate(0, 40, 0.95, 20);
    if (!e.ready) continue;  // sections lag-1 correlated by chance (about 2.5 % of independent ones) and too few
    ++ready;
    width += e.half_width;
    if (std::abs(e.value - truth_ns) <= e.half_width) ++covered;
  }
  CHECK(ready >= trials * 9 / 10);
  const double coverage = double(covered) / ready;
  INFO("coverage " << coverage << " of " << ready << ", mean half width " << width / ready / 1000.0 << " us");
  CHECK(coverage >= 0.90);
  CHECK(coverage <= 0.985);
}

TEST_CASE("quantile sections: a swing as long as the run gives no estimate, a shorter one an interval",
          "[common][converge]") {
  // The latency level swings (a GC swing) with a half-period of 80 base batches, the whole run: neighbouring
  // sections' p99 are alike, their lag-1 correlation leaves fewer than two effective sections (ar1_interval). With
  // a half-period of 10 base batches (5 sections a period) the 20 sections give an interval.
  for (const double half_period : {80.0, 10.0}) {
    QuantileSections q(0.99);
    std::mt19937_64 rng(5);
    std::exponential_distribution<double> service(1.0 / 10000.0);
    for (uint32_t b = 0; b < 80; ++b) {
      const double level = 100000.0 * (1.0 + 0.5 * std::sin(double(b) / half_period * 3.14159));
      for (uint32_t i = 0; i < 200; ++i) q.add(uint64_t(level + service(rng)));
      q.close_batch(b + 1);
    }
    const BatchEstimate e = q.estimate(0, 80, 0.95, 20);
    INFO("half-period " << half_period);
    CHECK(e.ready == (half_period < 80));
    if (e.ready) CHECK(e.batches == 20);
  }
}
