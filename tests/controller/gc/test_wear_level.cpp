// Static wear levelling (controller/gc/wear_level.h): the per-die erase-count order, its spread, the candidate
// (least-erased eligible block, only past the threshold), excluded blocks; and through the fast-forward FTL,
// hot writes on a filled drive whose cold blocks the engine relocates.
#include <catch2/catch.hpp>

#include "../ff_drive.h"
#include "controller/gc/wear_level.h"

using namespace ssdtlm;

TEST_CASE("wear level: spread, candidate past the threshold, exclusion", "[wear_level]") {
  FfDrive d({"geometry.channels=1", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=16",
             "geometry.over_provisioning=0.5"});
  const Geometry& g = d.g;
  WearLevel wl(g, 2);
  const auto any = [](uint32_t) { return true; };
  CHECK(wl.spread(0) == 0);
  CHECK(wl.candidate(0, any) == kInvalid);
  for (int i = 0; i < 3; ++i) wl.erased(5);  // die 0, block 5: 3 erases
  CHECK(wl.max_erases(0) == 3);
  CHECK(wl.min_erases(0) == 0);
  CHECK(wl.spread(0) == 3);
  CHECK(wl.spread(1) == 0);                   // dies apart
  const uint32_t c = wl.candidate(0, any);
  REQUIRE(c != kInvalid);
  CHECK(c != 5);
  CHECK(wl.erases(c) == 0);
  CHECK(wl.candidate(0, [&](uint32_t b) { return b != c; }) != c);  // the next least-erased eligible one
  CHECK(wl.candidate(0, [](uint32_t) { return false; }) == kInvalid);
  // Every other block of die 0 erased once: the spread is 2, at the threshold, so no candidate.
  for (uint32_t b = 0; b < g.blocks_per_die; ++b)
    if (b != 5) wl.erased(b);
  CHECK(wl.spread(0) == 2);
  CHECK(wl.candidate(0, any) == kInvalid);
  wl.relocating(1, g.blocks_per_die + 3);
  CHECK(wl.is_victim(1, g.blocks_per_die + 3));
  CHECK(wl.relocated_blocks() == 1);
  wl.erased(g.blocks_per_die + 3);
  CHECK_FALSE(wl.is_victim(1, g.blocks_per_die + 3));
  wl.reset_counters();
  CHECK(wl.relocated_blocks() == 0);
  // An excluded block takes no part: its erases move neither the maximum nor the minimum.
  WearLevel w2(g, 1);
  w2.exclude(0);
  for (int i = 0; i < 5; ++i) w2.erased(0);
  CHECK(w2.max_erases(0) == 0);
  CHECK(w2.spread(0) == 0);
}

TEST_CASE("wear level through the fast-forward: hot writes on a filled drive relocate its cold blocks", "[wear_level]") {
  // One die of 32 blocks of 16 pages of 2 units, filled, then pages of 2 units written over the first 1/8 of
  // the logical space: without wear levelling the cold blocks are never erased; with it (threshold 3) they are
  // relocated and the die's spread stays near the threshold; every unit keeps its latest version.
  auto run = [](uint32_t threshold, uint64_t* relocated) {
    FfDrive d({"geometry.channels=1", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=32",
               "geometry.pages_per_block=16", "geometry.page_bytes=8192", "geometry.over_provisioning=0.25"},
              "greedy", true, threshold);
    const uint32_t units = d.g.logical_units, hot = units / 8;
    std::vector<uint32_t> version(units, 0);
    uint32_t v = 1;
    auto write = [&](uint32_t a, uint32_t b) {
      const uint32_t lpns[2] = {a, b}, versions[2] = {v, v};
      version[a] = version[b] = v++;
      FfHostExec(d.ftl->fast_forward()).write_page(0, lpns, versions);
    };
    for (uint32_t lpn = 0; lpn + 1 < units; lpn += 2) write(lpn, lpn + 1);
    for (uint64_t i = 0; i < 40ull * d.g.units_per_block * d.g.blocks_per_die; ++i) {
      const uint32_t a = uint32_t((i * 2654435761u) % hot);
      write(a, (a + 1 + uint32_t(i % 7)) % hot);
    }
    d.ftl->fast_forward().finish();
    *relocated = d.ftl->wear_level()->relocated_blocks();
    for (uint32_t lpn = 0; lpn + 1 < units; ++lpn) {  // no data lost: every unit at its latest version
      const uint32_t ppa = d.ftl->state().lookup(lpn);
      REQUIRE(ppa != kInvalid);
      REQUIRE(d.dies[0]->version(ppa - d.g.ppa(0, 0, 0)) == version[lpn]);
    }
    return d.ftl->wear_level()->max_spread();
  };
  uint64_t off_moves = 0, on_moves = 0;
  const uint32_t off = run(1u << 30, &off_moves), on = run(3, &on_moves);
  CHECK(off_moves == 0);
  CHECK(off > 10);
  CHECK(on_moves > 0);
  CHECK(on <= 3 + 2);
}
