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

namespace {
// 2,000 base batches y = 2 x + a / 2 of an AR(1) series a of coefficient phi (started in its stationary law), x
// varying: the ratio of the expectations is 2.
std::vector<RatioBatch> ar1_batches(std::mt19937_64& rng, double phi) {
  std::normal_distribution<double> noise(0, 1);
  std::vector<RatioBatch> b;
  double ar = noise(rng) / std::sqrt(1 - phi * phi);
  for (int i = 0; i < 2000; ++i) {
    ar = phi * ar + noise(rng);
    const double x = 1.0 + 0.2 * std::abs(noise(rng));
    b.push_back({2.0 * x + ar * 0.5, x});
  }
  return b;
}
}  // namespace

TEST_CASE("batch means: batches still correlated at the fewest get an AR(1)-adjusted interval that covers",
          "[batch_means]") {
  // phi 0.98: correlations over about 100 base batches, as long as a batch of the fixed 20-39: their lag-1
  // correlation is about 0.45. Unadjusted (t on k - 1 degrees of freedom) 95 % intervals cover 2 in about 80 % of the
  // trials (319 of 399), and before the adjustment 60 % of them had no interval at all (the lag-1 test refused them;
  // with it: 386 of 399 cover).
  std::mt19937_64 rng(23);
  int covered = 0, ready = 0, correlated = 0, plain_covered = 0;
  const int trials = 400;
  for (int t = 0; t < trials; ++t) {
    const std::vector<RatioBatch> b = ar1_batches(rng, 0.98);
    const BatchEstimate e = batch_means(b, 0, 0.95, 20);
    if (!e.ready) continue;
    ++ready;
    correlated += e.correlated;
    covered += std::abs(e.value - 2.0) <= e.half_width;
    // The same batches' interval without the adjustment.
    double ss = 0, sx = 0;
    for (size_t j = b.size() % e.batch_size; j < b.size(); j += e.batch_size) {
      double y = 0, x = 0;
      for (size_t i = j; i < j + e.batch_size; ++i) y += b[i].y, x += b[i].x;
      ss += (y - e.value * x) * (y - e.value * x), sx += x;
    }
    const double k = double(e.batches), se = std::sqrt(ss / (k - 1) / k) / (sx / k);
    plain_covered += std::abs(e.value - 2.0) <= student_t_quantile(0.975, k - 1) * se;
  }
  INFO("ready " << ready << ", correlated " << correlated << ", covered " << covered << ", plain " << plain_covered);
  CHECK(ready >= int(0.97 * trials));
  CHECK(correlated >= int(0.4 * ready));
  CHECK(covered >= int(0.92 * ready));  // 95 % nominal; 400 trials: binomial sd 1.1 %
  CHECK(covered <= int(0.985 * ready));
  CHECK(plain_covered < int(0.91 * ready));  // the adjustment is what brings the coverage to nominal
}

TEST_CASE("batch means: the AR(1) adjustment widens for positive correlation only and refuses a trend",
          "[batch_means]") {
  BatchEstimate e;
  REQUIRE(ar1_interval(e, -0.3, 20, 1.0, 0.95));  // negatively correlated: the plain interval, not narrower
  CHECK(e.half_width == Approx(student_t_quantile(0.975, 19)).epsilon(1e-12));
  CHECK_FALSE(e.correlated);
  REQUIRE(ar1_interval(e, 0.5, 20, 1.0, 0.95));  // rho (0.5 + 0.05) / 0.8 = 0.6875: factor 5.4, 3.7 batches
  CHECK(e.correlated);
  const double factor = 1.6875 / 0.3125;
  CHECK(e.half_width == Approx(student_t_quantile(0.975, 20 / factor - 1) * std::sqrt(factor)).epsilon(1e-12));
  CHECK_FALSE(ar1_interval(e, 0.8, 20, 1.0, 0.95));  // rho capped at 0.99: fewer than two effective batches
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
