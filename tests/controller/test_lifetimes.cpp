// Data lifetimes per stream: in host writes exactly, in simulated time interpolated from the 1024-write table.
#include <catch2/catch.hpp>

#include "controller/streams/lifetimes.h"

using namespace ssdtlm;

TEST_CASE("lifetimes count host writes and simulated time from birth to overwrite or trim", "[streams][lifetimes]") {
  Lifetimes l(100, 2);
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
  Lifetimes l(10000, 1);
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
