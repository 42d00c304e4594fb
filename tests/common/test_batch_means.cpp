// Batch means (common/batch_means.h): Student's t against the tables, MSER-5's warm-up cut, and intervals that
// cover the true value as often as their confidence says on series whose answer is known.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "common/batch_means.h"

using namespace ssdtlm;

TEST_CASE("batch means: Student's t quantiles match the tables", "[batch_means]") {
  // Two-sided 95 % and 99 % critical values (Abramowitz & Stegun, table 26.10).
  CHECK(student_t_quantile(0.975, 5) == Approx(2.5706).epsilon(1e-3));
  CHECK(student_t_quantile(0.975, 9) == Approx(2.2622).epsilon(2e-4));
  CHECK(student_t_quantile(0.975, 19) == Approx(2.0930).epsilon(1e-4));
  CHECK(student_t_quantile(0.995, 19) == Approx(2.8609).epsilon(2e-4));
  CHECK(student_t_quantile(0.975, 120) == Approx(1.9799).epsilon(1e-4));
  CHECK(normal_quantile(0.975) == Approx(1.959964).epsilon(1e-6));
  CHECK(normal_quantile(0.001) == Approx(-3.090232).epsilon(1e-6));
}

TEST_CASE("batch means: MSER-5 cuts a warm-up and refuses a series still moving", "[batch_means]") {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0, 1);
  std::vector<RatioBatch> b;
  for (int i = 0; i < 400; ++i) b.push_back({(i < 60 ? 50.0 : 10.0) + noise(rng), 1.0});  // 60 batches of warm-up
  const size_t cut = mser5_truncation(b);
  CHECK(cut >= 60);
  CHECK(cut <= 70);
  std::vector<RatioBatch> ramp;  // a trend to the end: no cut settles it
  for (int i = 0; i < 400; ++i) ramp.push_back({double(i) + noise(rng), 1.0});
  CHECK(mser5_truncation(ramp) == ramp.size());
  CHECK(mser5_truncation(std::vector<RatioBatch>(9, RatioBatch{1, 1})) == 9);  // fewer than two groups of five
}

TEST_CASE("batch means: the interval covers a known ratio about as often as its confidence", "[batch_means]") {
  // y/x with x varying: the ratio of the expectations is 2. An AR(1) series (phi 0.9) needs merged batches.
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0, 1);
  int covered = 0, merged = 0, ready = 0;
  const int trials = 400;
  for (int t = 0; t < trials; ++t) {
    std::vector<RatioBatch> b;
    double ar = 0;
    for (int i = 0; i < 2000; ++i) {
      ar = 0.9 * ar + noise(rng);
      const double x = 1.0 + 0.2 * std::abs(noise(rng));
      b.push_back({2.0 * x + ar * 0.5, x});
    }
    const BatchEstimate e = batch_means(b, 0, 0.95, 20);
    if (!e.ready) continue;  // the lag-1 test asked for batches fewer than 20: more data needed
    ++ready;
    CHECK(e.batches >= 20);
    CHECK(e.batches < 40);
    merged += e.batch_size > 1;
    covered += std::abs(e.value - 2.0) <= e.half_width;
  }
  CHECK(ready >= int(0.9 * trials));
  CHECK(merged == ready);
  CHECK(covered >= int(0.91 * ready));  // 95 % nominal; 400 trials: binomial sd 1.1 %
  CHECK(covered <= int(0.985 * ready));
}

TEST_CASE("batch means: too few batches give no interval", "[batch_means]") {
  std::vector<RatioBatch> b(19, RatioBatch{1, 1});
  CHECK_FALSE(batch_means(b, 0, 0.95, 20).ready);
  b.resize(20, RatioBatch{1, 1});
  const BatchEstimate e = batch_means(b, 0, 0.95, 20);
  CHECK(e.ready);
  CHECK(e.value == 1.0);
  CHECK(e.half_width == 0.0);
}
