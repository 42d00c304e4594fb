// Data lifetimes per stream: in host writes exactly, in simulated time interpolated from the 1024-write table.
#include <catch2/catch.hpp>

#include "controller/streams/lifetimes.h"

using namespace ssdtlm;

TEST_CASE("lifetimes count host writes and simulated time from birth to overwrite or trim", "[streams][lifetimes]") {
  Lifetimes l(100, 2, 0);  // every unit recorded
  const uint64_t us = 1000000;  // ps
  l.write(1, 0, 0);             // seq 0 at t 0
  l.write(2, 1, 10 * us);       // seq 1
  l.write(1, 1, 20 * us);       // seq 2 kills lpn 1 (stream 0): 2 writes, 20 us
  CHECK(l.stream(0).writes.count() == 1);
  CHECK(l.stream(0).writes.max() == 2);
  CHECK(l.stream(0).time_ns.count() == 1);
  // Inside the first 1024-write step times are interpolated between the step's start and now.
  CHECK(l.stream(0).time_ns.max() == Approx(20000).margin(1));
  l.trim(2, 50 * us);  // lpn 2 (stream 1) dies by TRIM: 2 writes after its birth (seq 1 -> seq 3)
  CHECK(l.stream(1).writes.count() == 1);
  CHECK(l.stream(1).writes.max() == 2);
  l.trim(2, 60 * us);  // already dead: nothing
  CHECK(l.stream(1).writes.count() == 1);
  CHECK(l.alive(0) == 0);
  CHECK(l.alive(1) == 1);  // lpn 1's second version
  l.reset();
  CHECK(l.alive(1) == 0);
  l.write(1, 0, 70 * us);  // after a reset no birth is known: no lifetime recorded
  CHECK(l.stream(1).writes.count() == 0);
  CHECK(l.stream(0).writes.count() == 0);
}

TEST_CASE("lifetime times are interpolated exactly under a steady write rate", "[streams][lifetimes]") {
  Lifetimes l(10000, 1, 0);
  // One unit write every 3 us, each to a fresh LPN but for lpn 9999: born at seq 1500 (inside the second
  // 1024-write step), overwritten at seq 6000.
  const uint64_t step_ps = 3000000;
  for (uint64_t k = 0; k < 6000; ++k) l.write(k == 1500 ? 9999 : uint32_t(k), 0, k * step_ps);
  CHECK(l.stream(0).writes.count() == 0);
  l.write(9999, 0, 6000 * step_ps);
  REQUIRE(l.stream(0).writes.count() == 1);
  CHECK(l.stream(0).writes.max() == 4500);
  CHECK(double(l.stream(0).time_ns.max()) == Approx(4500 * 3000.0).epsilon(0.008));  // histogram resolution
  CHECK(double(l.stream(0).time_ns.min()) >= 4500 * 3000.0 * 0.99);
}

TEST_CASE("sampled lifetimes: one unit in eight per aligned group, quartiles close to the exact ones",
          "[streams][lifetimes]") {
  // Independent uniform writes over n units: a unit is rewritten after a geometric number of writes with
  // mean n. The recorder keeping one unit in 8 estimates the same quartiles.
  const uint32_t n = 4096;
  Lifetimes all(n, 1, 0), some(n, 1, 3);
  uint64_t x = 88172645463325252ull;
  for (uint64_t k = 0; k < 200 * uint64_t(n); ++k) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const uint32_t lpn = uint32_t(x % n);
    all.write(lpn, 0, k * 1000000);
    some.write(lpn, 0, k * 1000000);
  }
  CHECK(some.stream(0).births == all.stream(0).births);  // versions are counted exactly
  CHECK(double(some.stream(0).sampled_births) == Approx(all.stream(0).births / 8.0).epsilon(0.05));
  for (double q : {0.25, 0.5, 0.75})
    CHECK(double(some.stream(0).writes.quantile(q)) == Approx(double(all.stream(0).writes.quantile(q))).epsilon(0.03));
  CHECK(double(some.alive(0)) == Approx(double(all.alive(0))).margin(64));
  // Exactly one unit of each aligned group of eight is recorded.
  Lifetimes g(64, 1, 3);
  for (uint32_t lpn = 0; lpn < 64; ++lpn) g.write(lpn, 0, lpn);
  CHECK(g.stream(0).sampled_births == 8);
}
