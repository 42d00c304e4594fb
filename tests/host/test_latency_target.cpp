// fio's latency-target depth search step by step (io_u.c lat_target_*): doubling while windows succeed,
// bisecting after a failure, draining before a lower depth, a final run at the settled depth, fio's error at 1.
#include <catch2/catch.hpp>

#include "host/latency_target.h"

using namespace ssdtlm;

namespace {
constexpr uint64_t kMs = 1000000000ull;  // ps
LatencyTargetParams params(double percentile = 100.0) {
  LatencyTargetParams p;
  p.target_ns = 1000;
  p.window_ns = 1000000;  // 1 ms
  p.percentile = percentile;
  return p;
}
}  // namespace

TEST_CASE("latency target: doubles on success, bisects after a failure, settles and runs once more", "[host][latency]") {
  LatencyTarget lt(params(), 64);
  lt.start(0);
  uint64_t t = 0;
  const auto window_ok = [&] { t += kMs; return lt.completed(t, 500); };
  CHECK(lt.depth() == 1);
  CHECK(lt.may_issue(0));
  CHECK_FALSE(lt.may_issue(1));
  CHECK(window_ok() == LatencyTarget::Step::None);
  CHECK(lt.depth() == 2);
  window_ok();
  window_ok();
  CHECK(lt.depth() == 8);
  CHECK(lt.completed(t + 1, 5000) == LatencyTarget::Step::None);  // one I/O over the target at 100 %: down
  CHECK(lt.depth() == 6);                                          // (8 + 4) / 2
  CHECK_FALSE(lt.may_issue(3));                                    // draining what is in flight
  CHECK(lt.may_issue(0));
  t += 1;
  window_ok();                  // 6 good: bisect towards the bad bound 8
  CHECK(lt.depth() == 7);
  LatencyTarget::Step s = LatencyTarget::Step::None;
  for (int i = 0; i < 20 && s == LatencyTarget::Step::None; ++i) s = window_ok();
  CHECK(s == LatencyTarget::Step::Restart);  // the depth stopped moving: statistics reset, one more window
  const uint32_t settled = lt.depth();
  CHECK(window_ok() == LatencyTarget::Step::Done);
  CHECK(lt.depth() == settled);
}

TEST_CASE("latency target: a window judged by its percentile, and a miss at depth 1 is fio's failure", "[host][latency]") {
  LatencyTarget lt(params(90.0), 8);
  lt.start(0);
  for (int i = 0; i < 9; ++i) lt.completed(100 + i, 500);
  CHECK(lt.completed(kMs, 5000) == LatencyTarget::Step::None);  // 9 of 10 within: 90 % meets 90 %
  CHECK(lt.depth() == 2);
  for (int i = 0; i < 8; ++i) lt.completed(kMs + 100 + i, 5000);
  lt.completed(2 * kMs + 1, 500);  // 1 of 9 within: down to 1
  CHECK(lt.depth() == 1);
  CHECK(lt.completed(3 * kMs + 2, 5000) == LatencyTarget::Step::Failed);
  CHECK(lt.failed());
  CHECK_FALSE(lt.may_issue(0));
}
