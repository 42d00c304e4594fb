// HEXA flush order on hand-built buffers (no SystemC): arrival order while the map's dirty budget does not
// bind; under a binding budget the group it picks, ties, the age bound; an overwrite flushed once; and the
// protected-ratio cap on dirty map segments, checked at every step.
#include <catch2/catch.hpp>

#include <memory>
#include <random>
#include <vector>

#include "controller/buffer/flush_policy.h"
#include "controller/buffer/write_buffer.h"
#include "controller/mapping/map_cache.h"

using namespace ssdtlm;

namespace {

constexpr uint32_t kEps = 4;  // entries per segment: LPN / 4 is the group

MapCacheParams map_params(double protected_ratio = 1.0) {
  MapCacheParams p;
  p.logical_units = 64 * kEps;
  p.entry_bytes = 4;
  p.segment_bytes = 4 * kEps;
  p.protected_ratio = protected_ratio;
  return p;
}

WriteBuffer hexa_buffer(uint32_t capacity, MapCache* cache, uint64_t max_age_ps = 1000000, const char* policy = "hexa") {
  FlushContext c;
  c.capacity_units = capacity;
  c.entries_per_segment = kEps;
  c.segments = 64;
  c.max_age_ps = max_age_ps;
  c.cache = cache;
  return WriteBuffer(capacity, make_flush_policy(policy, c, "buffer.policy"));
}

std::vector<uint32_t> drain(WriteBuffer& b, uint64_t now = 0) {
  std::vector<uint32_t> out;
  uint32_t lpn, version;
  while (b.take(&lpn, &version, now) != kInvalid) out.push_back(lpn);
  return out;
}

void make_dirty(MapCache& cache, uint32_t seg) {
  uint32_t lpn = seg * kEps;
  MapAccess a;
  cache.write(seg, &lpn, 1, a);
}

// A page map with half of its 64 segments protected, filled to its dirty budget with segments 32..63:
// flushing a unit of any segment below 32 would force a write-back (the budget binds).
std::unique_ptr<MapCache> bound_cache() {
  auto cache = make_full_map(map_params(0.5));
  for (uint32_t s = 32; s < 64; ++s) make_dirty(*cache, s);
  REQUIRE(cache->dirty_budget() == 32);
  REQUIRE(cache->dirty_segments() == 32);
  return cache;
}

}  // namespace

TEST_CASE("hexa under a binding budget flushes the largest group first, whole, oldest unit first", "[buffer][hexa][unit]") {
  auto cache = bound_cache();
  WriteBuffer b = hexa_buffer(16, cache.get());
  for (uint32_t lpn : {0u, 8u, 9u, 12u, 10u, 13u, 11u}) b.write(lpn, 1, 0);  // groups 0: 1 unit, 2: 4 units, 3: 2 units
  CHECK(drain(b) == std::vector<uint32_t>{8, 9, 10, 11, 12, 13, 0});
}

TEST_CASE("hexa whose budget does not bind flushes in arrival order", "[buffer][hexa][unit]") {
  const std::vector<uint32_t> writes{0, 8, 9, 12, 10, 13, 11};  // the groups of the test above
  SECTION("partly protected map below its dirty budget") {
    auto cache = make_full_map(map_params(0.5));
    for (uint32_t s = 33; s < 64; ++s) make_dirty(*cache, s);  // 31 dirty segments of 32 allowed
    WriteBuffer b = hexa_buffer(16, cache.get());
    for (uint32_t lpn : writes) b.write(lpn, 1, 0);
    CHECK(drain(b) == writes);
  }
  SECTION("fully protected map") {
    auto cache = make_full_map(map_params(1.0));
    REQUIRE(cache->dirty_budget() == 64);
    WriteBuffer b = hexa_buffer(16, cache.get());
    for (uint32_t lpn : writes) b.write(lpn, 1, 0);
    CHECK(drain(b) == writes);
  }
  SECTION("no map cache") {
    WriteBuffer b = hexa_buffer(16, nullptr);
    for (uint32_t lpn : writes) b.write(lpn, 1, 0);
    CHECK(drain(b) == writes);
  }
}

TEST_CASE("hexa_always groups by map segment whether or not the budget binds (the paper's HEXA)", "[buffer][hexa][unit]") {
  // The writes of the test above, whose groups hexa flushes in arrival order below the budget: hexa_always takes
  // the largest group first, whole, as under a binding budget (issue 43: HEXA reorders at every protected ratio).
  const std::vector<uint32_t> writes{0, 8, 9, 12, 10, 13, 11};
  const std::vector<uint32_t> grouped{8, 9, 10, 11, 12, 13, 0};
  SECTION("fully protected map") {
    auto cache = make_full_map(map_params(1.0));
    WriteBuffer b = hexa_buffer(16, cache.get(), 1000000, "hexa_always");
    for (uint32_t lpn : writes) b.write(lpn, 1, 0);
    CHECK(drain(b) == grouped);
  }
  SECTION("no map cache") {
    WriteBuffer b = hexa_buffer(16, nullptr, 1000000, "hexa_always");
    for (uint32_t lpn : writes) b.write(lpn, 1, 0);
    CHECK(drain(b) == grouped);
  }
}

TEST_CASE("hexa switches between arrival order and grouping as the budget starts to bind", "[buffer][hexa][unit]") {
  auto cache = make_full_map(map_params(0.5));
  for (uint32_t s = 33; s < 64; ++s) make_dirty(*cache, s);  // one dirty segment short of the budget
  WriteBuffer b = hexa_buffer(16, cache.get());
  for (uint32_t lpn : {0u, 4u, 8u, 9u, 10u}) b.write(lpn, 1, 0);  // groups 0: 1 unit, 1: 1 unit, 2: 3 units
  uint32_t lpn, version;
  REQUIRE(b.take(&lpn, &version, 0) != kInvalid);
  CHECK(lpn == 0);  // below the budget: the oldest unit
  make_dirty(*cache, 32);  // now at the budget: unit 4 (segment 1, clean) would cost a write-back
  CHECK(drain(b) == std::vector<uint32_t>{8, 9, 10, 4});
}

TEST_CASE("hexa at its dirty budget keeps arrival order while every buffered segment is dirty", "[buffer][hexa][unit]") {
  auto cache = bound_cache();  // segments 40 and 41 are dirty, 2 is not
  WriteBuffer b = hexa_buffer(16, cache.get());
  SECTION("only dirty segments buffered: no choice costs a write-back, arrival order") {
    for (uint32_t lpn : {160u, 164u, 165u, 166u}) b.write(lpn, 1, 0);  // groups 40: 1 unit, 41: 3 units
    CHECK(drain(b) == std::vector<uint32_t>{160, 164, 165, 166});
  }
  SECTION("a clean segment buffered too: the budget binds, dirty groups first, the largest first") {
    for (uint32_t lpn : {160u, 8u, 9u, 10u, 11u, 164u, 165u, 166u}) b.write(lpn, 1, 0);  // and group 2: 4 units
    CHECK(drain(b) == std::vector<uint32_t>{164, 165, 166, 160, 8, 9, 10, 11});
  }
}

TEST_CASE("hexa ties go to the group with the oldest buffered unit", "[buffer][hexa][unit]") {
  auto cache = bound_cache();
  WriteBuffer b = hexa_buffer(16, cache.get());
  for (uint32_t lpn : {20u, 4u, 21u, 5u}) b.write(lpn, 1, 0);  // groups 5 and 1, two units each; 5 came first
  CHECK(drain(b) == std::vector<uint32_t>{20, 21, 4, 5});
}

TEST_CASE("hexa under a binding budget prefers a group whose map segment is already dirty", "[buffer][hexa][unit]") {
  auto cache = bound_cache();
  WriteBuffer b = hexa_buffer(16, cache.get());
  make_dirty(*cache, 7);  // segment 7 becomes dirty in the map (segment 32 is written back)
  for (uint32_t lpn : {8u, 9u, 10u, 29u}) b.write(lpn, 1, 0);  // group 2: 3 units (clean, oldest), group 7: 1 unit (dirty)
  std::vector<uint32_t> order = drain(b);
  CHECK(order == std::vector<uint32_t>{29, 8, 9, 10});
  // The preference follows the map: after segment 7 is written back, a clean group no longer jumps ahead.
  for (uint32_t lpn : {8u, 9u, 28u}) b.write(lpn, 2, 0);
  for (uint32_t s = 20; s < 60; ++s) make_dirty(*cache, s);  // push 7 out of the 32 dirty segments allowed
  REQUIRE_FALSE(cache->segment_dirty(7));
  CHECK(drain(b) == std::vector<uint32_t>{8, 9, 28});
}

TEST_CASE("hexa's age bound flushes an old unit's group before larger groups", "[buffer][hexa][unit]") {
  auto cache = bound_cache();
  WriteBuffer b = hexa_buffer(16, cache.get(), 1000);  // 1 ns
  b.write(40, 1, 0);  // group 10, alone, at t = 0
  for (uint32_t lpn : {8u, 9u, 10u}) b.write(lpn, 1, 500);
  uint32_t lpn, version;
  REQUIRE(b.take(&lpn, &version, 900) != kInvalid);
  CHECK(lpn == 8);   // nothing is too old yet: the largest group
  REQUIRE(b.take(&lpn, &version, 1500) != kInvalid);
  CHECK(lpn == 40);  // unit 40 has waited 1.5 ns > 1 ns: its group goes next
  CHECK(drain(b, 1500) == std::vector<uint32_t>{9, 10});
}

TEST_CASE("hexa flushes a unit overwritten while buffered once, with its last version", "[buffer][hexa][unit]") {
  WriteBuffer b = hexa_buffer(16, nullptr);
  CHECK_FALSE(b.write(5, 1, 0));
  b.write(6, 1, 0);
  CHECK(b.write(5, 2, 0));  // absorbed
  CHECK(b.dirty() == 2);
  uint32_t lpn, version;
  std::vector<std::pair<uint32_t, uint32_t>> out;
  while (b.take(&lpn, &version, 0) != kInvalid) out.emplace_back(lpn, version);
  CHECK(out == std::vector<std::pair<uint32_t, uint32_t>>{{5, 2}, {6, 1}});
}

TEST_CASE("hexa drains exactly what was buffered under random traffic", "[buffer][hexa][unit]") {
  auto cache = make_full_map(map_params(0.1));
  WriteBuffer b = hexa_buffer(64, cache.get(), 50);
  std::mt19937 rng(7);
  std::vector<uint32_t> count(64 * kEps, 0);
  uint64_t now = 0;
  uint32_t in_flight[8], n = 0;
  for (int i = 0; i < 20000; ++i) {
    now += 3;
    if (b.free_units() > 0) {
      uint32_t lpn = rng() % (64 * kEps);
      if (!b.write(lpn, 1, now)) ++count[lpn];
    }
    if (rng() % 2) {
      uint32_t lpn, version, slot = b.take(&lpn, &version, now);
      if (slot != kInvalid) {
        REQUIRE(count[lpn] > 0);
        --count[lpn];
        MapAccess a;
        cache->write(lpn / kEps, &lpn, 1, a);
        in_flight[n++] = slot;
      }
      if (n == 8 || (slot == kInvalid && n)) {
        for (uint32_t k = 0; k < n; ++k) b.release(in_flight[k]);
        n = 0;
      }
    }
  }
  uint32_t lpn, version;
  while (b.take(&lpn, &version, now) != kInvalid) --count[lpn];
  for (uint32_t c : count) CHECK(c == 0);
}

TEST_CASE("protected ratio: dirty map segments never exceed the cap", "[mapping][hexa][unit]") {
  for (double ratio : {0.01, 0.1, 0.5}) {
    MapCacheParams p = map_params(ratio);
    p.segments_per_page = 2;
    auto cache = make_full_map(p);
    const uint32_t cap = p.dirty_limit();
    CHECK(cap == uint32_t(std::ceil(ratio * 64 - 1e-9)));
    std::mt19937 rng(3);
    uint64_t writebacks = 0;
    for (int i = 0; i < 5000; ++i) {
      uint32_t lpn = rng() % (64 * kEps);
      MapAccess a;
      cache->write(lpn / kEps, &lpn, 1, a);
      writebacks += a.nwb;
      CHECK(a.load == kInvalid);  // the whole map is in DRAM
      REQUIRE(cache->dirty_segments() <= cap);
    }
    CHECK(writebacks > 0);
    CHECK(cache->stats().segment_writes == writebacks);
  }
  auto whole = make_full_map(map_params(1.0));  // fully protected: nothing is ever written back
  for (uint32_t lpn = 0; lpn < 64 * kEps; ++lpn) {
    MapAccess a;
    whole->write(lpn / kEps, &lpn, 1, a);
    CHECK(a.nwb == 0);
  }
}
