// fio's steady-state detection as steadystate.c decides it: intervals recorded after ss_ramp, the criterion over
// the last ss_dur of them (largest deviation from the mean, or the least-squares slope; absolute or % of mean).
#include <catch2/catch.hpp>

#include <vector>

#include "host/steady_state.h"

using namespace ssdtlm;

namespace {
constexpr uint64_t kMs = 1000000000ull;  // ps

SteadyStateParams params(const std::string& ss, uint64_t dur_ms, uint64_t ramp_ms = 0, uint64_t interval_ms = 10) {
  SteadyStateParams p = parse_steady_state(ss);
  p.dur_ms = dur_ms;
  p.ramp_ms = ramp_ms;
  p.interval_ms = interval_ms;
  return p;
}

// `per_interval(i)` completions of 4 KiB, 100 us each, spread over interval i; returns the ms it was attained
// (0 = not within `intervals`).
template <class F>
uint64_t run(SteadyState& ss, uint64_t intervals, F per_interval) {
  ss.start(0);
  const uint64_t interval_ps = ss.params().interval_ms * kMs;
  for (uint64_t i = 0; i < intervals; ++i) {
    const uint64_t n = per_interval(i);
    for (uint64_t k = 0; k < n; ++k)
      if (ss.completed(i * interval_ps + (k * interval_ps) / n, 4096, 100000)) return ss.attained_ps() / kMs;
  }
  ss.completed(intervals * interval_ps, 4096, 100000);  // closes the last interval
  return ss.attained() ? ss.attained_ps() / kMs : 0;
}
}  // namespace

TEST_CASE("steady state: fio's ss values parse, others are errors saying what is expected", "[host][steadystate]") {
  auto p = parse_steady_state("iops_slope:0.01%");
  CHECK(p.metric == SteadyStateParams::Metric::Iops);
  CHECK(p.slope);
  CHECK(p.percent);
  CHECK(p.limit == Approx(0.01));
  p = parse_steady_state("bw:1048576");
  CHECK(p.metric == SteadyStateParams::Metric::Bw);
  CHECK_FALSE(p.slope);
  CHECK_FALSE(p.percent);
  CHECK(parse_steady_state("lat_slope:5%").metric == SteadyStateParams::Metric::Lat);
  CHECK(parse_steady_state("").metric == SteadyStateParams::Metric::None);
  for (const char* bad : {"iops", "iops:", "iopz:1", "iops:x%", "iops:-1", "bw_slope:1%%"})
    CHECK_THROWS_WITH(parse_steady_state(bad), Catch::Contains("expected iops, iops_slope"));
  CHECK(parse_steady_state("iops_slope:0.01%").text() == "iops_slope:0.010000%");
}

TEST_CASE("steady state: a constant rate is steady once ss_dur of intervals are recorded", "[host][steadystate]") {
  SteadyState ss(params("iops:1%", 50));  // 5 intervals of 10 ms
  CHECK(run(ss, 20, [](uint64_t) { return 100; }) == 50);
  CHECK(ss.iops() == std::vector<uint64_t>(5, 10000));  // 100 per 10 ms
  CHECK(ss.bw() == std::vector<uint64_t>(5, 10000 * 4096));
  CHECK(ss.lat() == std::vector<uint64_t>(5, 100000));
  CHECK(ss.criterion() == 0.0);
}

TEST_CASE("steady state: ss_ramp delays the first recorded interval by one interval after it", "[host][steadystate]") {
  SteadyState ss(params("iops:1%", 50, 30));
  CHECK(run(ss, 20, [](uint64_t) { return 100; }) == 30 + 10 + 40);  // records [30, 40) ... [70, 80)
}

TEST_CASE("steady state: a rising rate is not steady by deviation or slope until it levels off", "[host][steadystate]") {
  const auto rising_then_flat = [](uint64_t i) { return i < 10 ? 50 + 10 * i : 150; };
  SteadyState dev(params("iops:5%", 50));
  CHECK(run(dev, 40, rising_then_flat) == 150);  // 9 .. 13 hold 140, 150, 150, 150, 150: 5.4 % off; 10 .. 14 steady
  SteadyState slope(params("iops_slope:2%", 50));
  CHECK(run(slope, 40, rising_then_flat) == 140);  // 9 .. 13: slope 200 IOPS per interval, 1.35 % of the mean
  CHECK(std::abs(slope.criterion()) < 2.0);
  SteadyState never(params("iops_slope:0.001", 50));  // an absolute slope of 0.001 IOPS per interval: not by rising
  CHECK(run(never, 9, rising_then_flat) == 0);
  CHECK_FALSE(never.attained());
  CHECK(never.slope() == Approx(1000.0));  // 10 more per 10 ms each interval: 1000 IOPS per interval
}

TEST_CASE("steady state: intervals without completions count as 0, and no I/O at all is never steady by %", "[host][steadystate]") {
  SteadyState gaps(params("iops:1%", 30));
  CHECK(run(gaps, 12, [](uint64_t i) { return i % 2 ? 0 : 100; }) == 0);
  CHECK(gaps.iops() == std::vector<uint64_t>{0, 10000, 0});
  SteadyState idle(params("iops:1%", 30));
  idle.start(0);
  CHECK_FALSE(idle.completed(200 * kMs, 4096, 100));  // 20 empty intervals closed: mean 0, criterion never met
}

TEST_CASE("steady state: decided on time at each interval's end (fio's timer), from the completions before it", "[host][steadystate]") {
  SteadyState ss(params("iops:1%", 30));  // 3 intervals of 10 ms
  ss.start(5 * kMs);
  CHECK(ss.next_close_ps() == 15 * kMs);
  for (uint64_t i = 0; i < 3; ++i)
    for (uint64_t k = 0; k < 50; ++k) CHECK_FALSE(ss.completed(5 * kMs + i * 10 * kMs + k * 200000000ull, 4096, 1000));
  // No completion after the third interval: the timer at its end decides, at that time, without one.
  CHECK_FALSE(ss.advance(35 * kMs - 1));
  CHECK(ss.next_close_ps() == 35 * kMs);
  CHECK(ss.advance(35 * kMs));
  CHECK(ss.attained_ps() == 35 * kMs);
  CHECK(ss.iops() == std::vector<uint64_t>{5000, 5000, 5000});
  CHECK(ss.next_close_ps() == ~uint64_t(0));  // nothing more to decide
  // A completion at the same end, after the timer, changes nothing.
  CHECK(ss.completed(35 * kMs, 4096, 1000));
  CHECK(ss.iops() == std::vector<uint64_t>{5000, 5000, 5000});
}
