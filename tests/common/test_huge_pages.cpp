// common/huge_pages.h: the arena gives out aligned, disjoint memory in order and falls back to the heap when full;
// vectors on it behave as plain vectors; assign_huge fills as assign does.
#include <catch2/catch.hpp>

#include <cstdint>

#include "common/huge_pages.h"
#include "flash/die.h"

using namespace ssdtlm;

TEST_CASE("a huge-page arena gives out disjoint 64-byte-aligned blocks until full", "[common][huge_pages]") {
  HugeArena a(3 * 1000);  // rounded up to one huge page
  char* p = static_cast<char*>(a.take(1000));
  char* q = static_cast<char*>(a.take(1000));
  REQUIRE(p != nullptr);
  REQUIRE(q != nullptr);
  CHECK(uintptr_t(p) % 64 == 0);
  CHECK(uintptr_t(q) % 64 == 0);
  CHECK(q >= p + 1000);
  CHECK(a.owns(p));
  CHECK(a.owns(q + 999));
  int on_stack = 0;
  CHECK_FALSE(a.owns(&on_stack));
  CHECK(a.take(kHugePageBytes) == nullptr);  // does not fit what is left
  CHECK(HugeArena::need(1000, 3) == 3 * 1024);
}

TEST_CASE("vectors on an arena hold what plain vectors hold, and fall back to the heap when it is full",
          "[common][huge_pages]") {
  HugeArena a(1);  // one huge page
  ArenaVector<uint32_t> v(1000, 7u, ArenaAllocator<uint32_t>(&a));
  CHECK(a.owns(v.data()));
  for (uint32_t i = 0; i < 1000; ++i) v[i] = i;
  ArenaVector<uint32_t> big(kHugePageBytes / 4, 1u, ArenaAllocator<uint32_t>(&a));  // no room left: the heap
  CHECK_FALSE(a.owns(big.data()));
  CHECK(big.size() == kHugePageBytes / 4);
  CHECK(big.back() == 1u);
  v.resize(3000);  // grows (into what the arena has left); the first block is simply not reused
  for (uint32_t i = 0; i < 1000; ++i) REQUIRE(v[i] == i);
  ArenaVector<uint32_t> plain(5, 3u);  // no arena: the heap
  CHECK(plain[4] == 3u);
  std::vector<uint32_t> w;
  assign_huge(w, 5000, 9u);
  CHECK(w.size() == 5000);
  CHECK(w.capacity() == 5000);
  CHECK(w.front() == 9u);
  CHECK(w.back() == 9u);
}

TEST_CASE("dies on an arena keep their out-of-band data as dies on the heap", "[common][huge_pages][flash]") {
  Geometry raw;
  raw.channels = 1;
  raw.dies_per_channel = 2;
  raw.planes = 1;
  raw.blocks_per_die = 8;
  raw.pages_per_block = 4;
  raw.page_bytes = 8192;
  const Geometry g = Geometry::derive(raw);
  HugeArena a(2 * Die::arena_bytes(g, true));
  Die on_arena(g, 0, true, &a), on_heap(g, 0, true);
  const uint32_t lpns[2] = {11, 12}, versions[2] = {3, 4};
  for (Die* d : {&on_arena, &on_heap}) {
    d->program(1, 0, lpns, versions, UnitKind::GUD, 5);
    d->erase(2);
  }
  for (uint32_t u = 0; u < g.blocks_per_die * g.units_per_block; ++u) {
    REQUIRE(on_arena.lpn(u) == on_heap.lpn(u));
    REQUIRE(on_arena.version(u) == on_heap.version(u));
    REQUIRE(on_arena.stream(u) == on_heap.stream(u));
  }
  CHECK(on_arena.lpn(g.units_per_block) == 11);
  CHECK(on_arena.stream(g.units_per_block + 1) == 5);
  CHECK(on_arena.memory_bytes() == on_heap.memory_bytes());
}
