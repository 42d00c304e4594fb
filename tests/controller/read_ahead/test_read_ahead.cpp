// The read-ahead engine alone (model/controller/read_ahead/): the stream detector, the window it fetches, the units
// it holds within its budget, and what drops them.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <utility>

#include "controller/read_ahead/read_ahead.h"

using namespace ssdtlm;

namespace {
constexpr uint64_t kDrive = 1u << 20;  // logical units

std::pair<uint32_t, uint32_t> read(ReadAhead& ra, uint32_t lpn, uint32_t units = 1) {
  uint32_t first = 0, end = 0;
  ra.on_read(lpn, units, kDrive, &first, &end);
  return {first, end};
}
}  // namespace

TEST_CASE("read ahead: a stream is detected after cache.read_ahead_trigger contiguous reads", "[read_ahead]") {
  ReadAhead ra(3, 16, 64);
  CHECK(read(ra, 100) == std::make_pair(0u, 0u));  // the first read
  CHECK(read(ra, 101) == std::make_pair(0u, 0u));  // 1 contiguous read
  CHECK(read(ra, 102) == std::make_pair(0u, 0u));      // 2
  CHECK_FALSE(ra.stream());
  // The third: the stream, fetched from the read's end to span units from its start.
  CHECK(read(ra, 103) == std::make_pair(104u, 103u + 16u));
  CHECK(ra.stream());
}

TEST_CASE("read ahead: the window is fetched again once the reads cross its middle", "[read_ahead]") {
  ReadAhead ra(1, 16, 64);
  read(ra, 0);
  CHECK(read(ra, 1) == std::make_pair(2u, 17u));  // [1, 17): the read and the 15 after it
  for (uint32_t lpn = 2; lpn < 9; ++lpn) CHECK(read(ra, lpn) == std::make_pair(0u, 0u));
  CHECK(read(ra, 9) == std::make_pair(17u, 33u));  // the middle, 1 + 16 / 2: the next span
  for (uint32_t lpn = 10; lpn < 25; ++lpn) CHECK(read(ra, lpn) == std::make_pair(0u, 0u));
  CHECK(read(ra, 25) == std::make_pair(33u, 49u));
  // A read of more units than the span outruns the window: nothing beyond it is fetched (SimpleSSD fetches span
  // units from the read's start), then the next read starts a window from its end.
  CHECK(read(ra, 26, 40) == std::make_pair(0u, 0u));
  CHECK(read(ra, 66) == std::make_pair(67u, 82u));
}

TEST_CASE("read ahead: random reads fetch nothing", "[read_ahead]") {
  ReadAhead ra(1, 16, 64);
  const uint32_t lpns[] = {5, 900, 17, 4000, 3, 77, 79, 12345, 6};
  for (uint32_t lpn : lpns) CHECK(read(ra, lpn) == std::make_pair(0u, 0u));
  CHECK_FALSE(ra.stream());
  CHECK(ra.counters().prefetched_units == 0);
}

TEST_CASE("read ahead: a unit fetched is taken once, landed or in flight", "[read_ahead]") {
  ReadAhead ra(1, 16, 64);
  int op1 = 0, op2 = 0;
  ra.add(10, &op1);
  ra.add(11, &op2);
  ra.landed(10, &op1, 5000, 10, 7, true);
  ReadAhead::Held h;
  REQUIRE(ra.take(10, &h));
  CHECK(h.op == nullptr);
  CHECK(h.ready_ps == 5000);
  CHECK(h.found_lpn == 10);
  CHECK(h.version == 7);
  CHECK_FALSE(ra.take(10, &h));  // consumed
  REQUIRE(ra.take(11, &h));
  CHECK(h.op == &op2);  // in flight: the read waits for op2
  ra.landed(11, &op2, 6000, 11, 1, true);  // taken meanwhile: nothing held again
  CHECK_FALSE(ra.holds(11));
  CHECK(ra.counters().hits == 2);
  CHECK(ra.counters().wasted == 0);
}

TEST_CASE("read ahead: a write or trim, an uncorrectable read and a power loss drop what is held", "[read_ahead]") {
  ReadAhead ra(1, 16, 64);
  int op = 0;
  for (uint32_t lpn = 0; lpn < 4; ++lpn) ra.add(lpn, &op);
  ra.invalidate(1);  // written or trimmed
  CHECK_FALSE(ra.holds(1));
  ra.landed(1, &op, 100, 1, 0, true);  // its read lands after: nothing comes back
  CHECK_FALSE(ra.holds(1));
  ra.landed(2, &op, 100, 2, 0, false);  // uncorrectable: not delivered
  CHECK_FALSE(ra.holds(2));
  CHECK(ra.counters().wasted == 2);
  ra.clear();
  CHECK(ra.held() == 0);
  CHECK(ra.counters().wasted == 4);
}

TEST_CASE("read ahead: the DRAM budget is honoured, the oldest unit dropped", "[read_ahead]") {
  ReadAhead ra(1, 4, 8);
  int op = 0;
  for (uint32_t lpn = 0; lpn < 20; ++lpn) {
    ra.add(lpn, &op);
    CHECK(ra.held() <= 8);
  }
  for (uint32_t lpn = 0; lpn < 12; ++lpn) CHECK_FALSE(ra.holds(lpn));
  for (uint32_t lpn = 12; lpn < 20; ++lpn) CHECK(ra.holds(lpn));
  CHECK(ra.counters().wasted == 12);
  nlohmann::json r;
  ra.report(r);
  CHECK(r["prefetched_units"] == 20);
  CHECK(r["wasted"] == 20);  // the 8 still held at the end were never read
  CHECK(r["hits"] == 0);
}
