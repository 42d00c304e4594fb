// Address distributions against their definitions (fixed seeds, statistical tolerances).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "workload/synthetic/address_distribution.h"

using namespace ssdtlm;

namespace {

std::vector<uint64_t> histogram(AddressDistribution& d, Rng& rng, uint64_t draws) {
  std::vector<uint64_t> h(d.blocks());
  uint64_t out_of_range = 0;
  for (uint64_t i = 0; i < draws; ++i) {
    const uint64_t b = d.next(rng);
    if (b < h.size())
      ++h[b];
    else
      ++out_of_range;
  }
  REQUIRE(out_of_range == 0);
  return h;
}

// Share of the draws with index < limit.
double share_below(const std::vector<uint64_t>& h, uint64_t limit, uint64_t draws) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < limit && i < h.size(); ++i) s += h[i];
  return double(s) / double(draws);
}

std::string error_of(const std::string& spec, uint64_t n = 1000) {
  try {
    make_distribution(spec, n, false, false);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("random map returns every block exactly once per pass", "[host][distribution]") {
  for (uint64_t n : {1ull, 2ull, 3ull, 7ull, 1000ull, 1024ull, 1025ull, 4097ull}) {
    auto d = make_distribution("random", n, /*random_map=*/true, false);
    Rng rng(42 + n);
    std::vector<uint64_t> previous;
    for (int pass = 0; pass < 3; ++pass) {
      std::vector<uint64_t> seen(n, 0), order;
      bool in_range = true;
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t b = d->next(rng);
        in_range = in_range && b < n;
        if (b < n) ++seen[b];
        order.push_back(b);
      }
      REQUIRE(in_range);
      CHECK(std::all_of(seen.begin(), seen.end(), [](uint64_t c) { return c == 1; }));
      if (n >= 10 && pass > 0) CHECK(order != previous);  // a new permutation each pass
      previous = order;
    }
  }
}

TEST_CASE("uniform picks without a map are independent and even", "[host][distribution]") {
  const uint64_t n = 100, draws = 1000000;
  auto d = make_distribution("random", n, false, false);
  Rng rng(7);
  const auto h = histogram(*d, rng, draws);
  double chi2 = 0;
  const double e = double(draws) / n;
  for (auto c : h) chi2 += (c - e) * (c - e) / e;
  CHECK(chi2 < 160);  // 99 degrees of freedom: P(chi2 > 160) < 1e-4

  // Without a map, n draws over n blocks repeat some (birthday): about n(1 - 1/e) distinct.
  auto d2 = make_distribution("random", 1000, false, false);
  std::vector<bool> seen(1000);
  int distinct = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto b = d2->next(rng);
    distinct += !seen[b];
    seen[b] = true;
  }
  CHECK(distinct == Approx(632).margin(40));
}

TEST_CASE("zipf_zeta matches direct summation", "[host][distribution][zipf]") {
  for (double theta : {0.5, 0.99, 1.01, 1.2, 3.0}) {
    for (uint64_t n : {5000ull, 12345ull, 1000000ull}) {
      double exact = 0;
      for (uint64_t i = n; i >= 1; --i) exact += std::pow(double(i), -theta);
      INFO("theta " << theta << " n " << n);
      CHECK(zipf_zeta(n, theta) == Approx(exact).epsilon(1e-11));
    }
  }
}

TEST_CASE("zipf rank frequencies follow the zipf law", "[host][distribution][zipf]") {
  const uint64_t n = 100000, draws = 1000000;
  for (double theta : {0.8, 1.2, 2.0}) {
    auto d = make_distribution("zipf:" + std::to_string(theta), n, false, /*scatter=*/false);
    Rng rng(2024);
    const auto h = histogram(*d, rng, draws);
    // Zipf law: p(k) = k^-theta / H, H = sum_{i=1..n} i^-theta.
    auto law = [&](uint64_t k, double th) { return std::pow(double(k), -th) / zipf_zeta(n, th); };
    const double H = zipf_zeta(n, theta);
    auto law_cdf = [&](uint64_t kmax, double th) {
      double s = 0;
      for (uint64_t k = 1; k <= kmax; ++k) s += std::pow(double(k), -th);
      return s / H;
    };
    INFO("theta " << theta);
    // Gray's generator is exact for ranks 1 and 2 ...
    const double p1 = double(h[0]) / draws, p2 = double(h[1]) / draws;
    CHECK(p1 == Approx(law(1, theta)).epsilon(0.03));
    CHECK(p2 == Approx(law(2, theta)).epsilon(0.04));
    // ... and follows the continuous approximation beyond (within 0.025 of the CDF).
    for (uint64_t k : {10ull, 100ull, 1000ull, 10000ull})
      CHECK(share_below(h, k, draws) == Approx(law_cdf(k, theta)).margin(0.025));
    // A wrong exponent would be caught: theta +- 0.1 moves the top rank by more than the
    // 3% tolerance above.
    CHECK(std::fabs(p1 - law(1, theta + 0.1)) > 0.04 * law(1, theta));
    CHECK(std::fabs(p1 - law(1, theta - 0.1)) > 0.04 * law(1, theta));
    // Frequencies decrease with the rank.
    CHECK(h[0] > h[1]);
    CHECK(h[1] > h[9]);
    CHECK(h[9] > h[99]);
  }
}

TEST_CASE("pareto sends 1-h of the accesses to the first h of the ranks", "[host][distribution]") {
  const uint64_t n = 100000, draws = 400000;
  for (double hpar : {0.1, 0.2, 0.3}) {
    auto d = make_distribution("pareto:" + std::to_string(hpar), n, false, /*scatter=*/false);
    Rng rng(99);
    const auto h = histogram(*d, rng, draws);
    INFO("h " << hpar);
    CHECK(share_below(h, uint64_t(hpar * (n - 1)), draws) == Approx(1 - hpar).margin(0.005));
    // General point of the CDF: P(rank < x (n-1)) = x^(1/p), p = ln h / ln(1-h).
    const double p = std::log(hpar) / std::log(1 - hpar);
    CHECK(share_below(h, uint64_t(0.5 * (n - 1)), draws) == Approx(std::pow(0.5, 1 / p)).margin(0.005));
  }
}

TEST_CASE("normal follows fio's gauss: sd n/12, widened by dev percent", "[host][distribution]") {
  const uint64_t n = 100000, draws = 300000;
  auto moments = [&](const std::string& spec, double& mean, double& sd) {
    auto d = make_distribution(spec, n, false, /*scatter=*/false);
    Rng rng(5);
    double s = 0, s2 = 0, max = 0;
    for (uint64_t i = 0; i < draws; ++i) {
      const double x = double(d->next(rng));
      max = std::max(max, x);
      s += x;
      s2 += x * x;
    }
    REQUIRE(max < n);
    mean = s / draws;
    sd = std::sqrt(s2 / draws - mean * mean);
  };
  double mean = 0, sd = 0;
  moments("normal", mean, sd);
  CHECK(mean == Approx(n / 2.0).epsilon(0.005));
  CHECK(sd == Approx(n / 12.0).epsilon(0.02));
  // dev = 50: a uniform jitter of width W = n/2 adds W^2/12: sd = sqrt((n/12)^2 + (n/2)^2/12) = n/6.
  moments("normal:50", mean, sd);
  CHECK(mean == Approx(n / 2.0).epsilon(0.005));
  CHECK(sd == Approx(n / 6.0).epsilon(0.02));
  // dev = 20: W = n/5.
  moments("normal:20", mean, sd);
  CHECK(sd == Approx(n * std::sqrt(1.0 / 144 + 1.0 / 300)).epsilon(0.02));
}

TEST_CASE("zoned splits accesses between zones as specified", "[host][distribution]") {
  const uint64_t n = 1000000, draws = 400000;
  auto d = make_distribution("zoned:50/5:30/15:20/80", n, false, false);
  Rng rng(11);
  const auto h = histogram(*d, rng, draws);
  CHECK(share_below(h, 50000, draws) == Approx(0.50).margin(0.005));
  CHECK(share_below(h, 200000, draws) - share_below(h, 50000, draws) == Approx(0.30).margin(0.005));
  CHECK(1 - share_below(h, 200000, draws) == Approx(0.20).margin(0.005));
  // Uniform inside a zone: each half of the first zone gets half of its accesses.
  CHECK(share_below(h, 25000, draws) == Approx(0.25).margin(0.005));

  // Empty fields share the remainder, as in fio: 60/10 then 40/90.
  auto d2 = make_distribution("zoned:60/10:/", n, false, false);
  const auto h2 = histogram(*d2, rng, draws);
  CHECK(share_below(h2, 100000, draws) == Approx(0.60).margin(0.005));
}

TEST_CASE("zoned with a random map does not repeat a block within a zone pass", "[host][distribution]") {
  auto d = make_distribution("zoned:50/50:50/50", 200, /*random_map=*/true, false);
  Rng rng(3);
  std::vector<int> seen(200, 0);
  int low = 0;
  while (low < 100) {
    const auto b = d->next(rng);
    if (b < 100) {
      ++seen[b];
      ++low;
    }
  }
  for (int i = 0; i < 100; ++i) CHECK(seen[i] == 1);
}

TEST_CASE("scatter moves the hot ranks away from the lowest addresses", "[host][distribution]") {
  const uint64_t n = 1000000, draws = 300000;
  for (const std::string spec : {"zipf:1.2", "pareto:0.2"}) {
    INFO(spec);
    Rng r1(8), r2(8);
    auto plain = make_distribution(spec, n, false, /*scatter=*/false);
    auto spread = make_distribution(spec, n, false, /*scatter=*/true, /*scatter_seed=*/77);
    const auto h1 = histogram(*plain, r1, draws);
    const auto h2 = histogram(*spread, r2, draws);
    const auto hot1 = uint64_t(std::max_element(h1.begin(), h1.end()) - h1.begin());
    const auto hot2 = uint64_t(std::max_element(h2.begin(), h2.end()) - h2.begin());
    CHECK(hot1 == 0);
    CHECK(hot2 > 1000);
    CHECK(share_below(h1, n / 100, draws) > 0.5);   // hot ranks packed at the start
    CHECK(share_below(h2, n / 100, draws) < 0.1);   // spread over the range
    // Same hot-block weight, only moved: the hottest block is as hot in both.
    CHECK(double(h2[hot2]) == Approx(double(h1[hot1])).epsilon(0.1));
  }
  CHECK(scatter_index(3, 10, 1000) == (3 * 0x61C8864680B583EBull + 10) % 1000);
}

TEST_CASE("distributions are deterministic for a seed", "[host][distribution]") {
  for (const std::string spec : {"random", "zipf:0.9", "pareto:0.3", "normal:10", "zoned:80/20:20/80"}) {
    auto a = make_distribution(spec, 123457, true, true, 5);
    auto b = make_distribution(spec, 123457, true, true, 5);
    Rng ra(1), rb(1);
    int same = 0;
    for (int i = 0; i < 1000; ++i) same += a->next(ra) == b->next(rb);
    CHECK(same == 1000);
  }
}

TEST_CASE("malformed distribution specs are rejected with a clear message", "[host][distribution]") {
  struct Case {
    const char* spec;
    const char* needle;
  };
  const Case cases[] = {
      {"zipf:abc", "zipf:<theta> with theta > 0 and != 1"},
      {"zipf:1", "!= 1"},
      {"zipf:1.0", "!= 1"},
      {"zipf:0", "theta > 0"},
      {"zipf:-1.2", "theta > 0"},
      {"zipf:", "zipf:<theta>"},
      {"pareto:0", "0 < h < 1"},
      {"pareto:1", "0 < h < 1"},
      {"pareto:x", "0 < h < 1"},
      {"normal:100", "0 <= dev < 100"},
      {"normal:-5", "0 <= dev < 100"},
      {"zoned:50/5:30/15", "add up to 80"},
      {"zoned:60/5:60/95", "more than 100"},
      {"zoned:50/5:50/5", "size percentages add up to 10"},
      {"zoned:", "zoned:<access%>/<size%>"},
      {"zoned:50", "bad zone '50'"},
      {"zoned:50/5:50/x", "bad percentage 'x'"},
      {"random:3", "without a parameter"},
      {"gauss", "one of random, zipf"},
      {"", "one of random, zipf"},
  };
  for (const auto& c : cases) {
    const std::string msg = error_of(c.spec);
    INFO("spec '" << c.spec << "' -> " << msg);
    CHECK(msg.find(std::string("'") + c.spec + "'") != std::string::npos);  // names the spec
    CHECK(msg.find(c.needle) != std::string::npos);
  }
  CHECK(error_of("zoned:99/1:1/99", 10).find("covers no block") != std::string::npos);
  CHECK(error_of("random", 0).find("no block") != std::string::npos);
  // fio's defaults: zipf 1.1, pareto 0.2, normal 0.
  CHECK_NOTHROW(make_distribution("zipf", 100, false, true));
  CHECK_NOTHROW(make_distribution("pareto", 100, false, true));
  CHECK_NOTHROW(make_distribution("normal", 100, false, true));
}
