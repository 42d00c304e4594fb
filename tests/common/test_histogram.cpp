// The latency histogram's exact moments (min, mean, sample standard deviation), merging, and bins.
#include <catch2/catch.hpp>

#include <cmath>

#include "common/histogram.h"

using namespace ssdtlm;

TEST_CASE("histogram: min, mean and sample standard deviation are exact", "[histogram]") {
  Histogram h;
  CHECK(h.min() == 0);
  CHECK(h.stddev() == 0);
  for (uint64_t v : {2000u, 4000u, 4000u, 4000u, 5000u, 5000u, 7000u, 9000u}) h.record(v);
  CHECK(h.count() == 8);
  CHECK(h.min() == 2000);
  CHECK(h.max() == 9000);
  CHECK(h.mean() == Approx(5000));
  CHECK(h.stddev() == Approx(std::sqrt(32e6 / 7.0)));  // sum of squared deviations 32e6, n - 1 = 7
  Histogram one;
  one.record(123);
  CHECK(one.stddev() == 0);
}

TEST_CASE("histogram: merge equals recording everything in one", "[histogram]") {
  Histogram a, b, all;
  for (uint64_t v = 1; v < 5000; v += 7) {
    (v % 3 ? a : b).record(v * 1000);
    all.record(v * 1000);
  }
  Histogram m = a;
  m.merge(b);
  CHECK(m.count() == all.count());
  CHECK(m.min() == all.min());
  CHECK(m.max() == all.max());
  CHECK(m.mean() == Approx(all.mean()));
  CHECK(m.stddev() == Approx(all.stddev()));
  for (double q : {0.5, 0.95, 0.99, 0.9999}) CHECK(m.quantile(q) == all.quantile(q));
  Histogram empty;
  m.merge(empty);
  CHECK(m.min() == all.min());
}

TEST_CASE("histogram: counts at most a bound, at bucket resolution", "[histogram]") {
  Histogram h;
  for (uint64_t v = 1; v <= 100; ++v) h.record(v * 1000);  // 1 us .. 100 us
  CHECK(h.count_at_most(0) == 0);
  CHECK(h.count_at_most(999) == 0);
  CHECK(h.count_at_most(100000) == 100);
  CHECK(h.count_at_most(1000000) == 100);
  const uint64_t half = h.count_at_most(50000);
  CHECK(half >= 49);
  CHECK(half <= 50);
  CHECK(h.quantile(0.95) >= 95000);
  CHECK(h.quantile(0.95) <= uint64_t(95000 * 1.008));
}
