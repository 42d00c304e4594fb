// GC victim sources (controller/gc/victim_source.h): the chain's order, and a source's victim taken before the
// victim policy's (static wear levelling on a fast-forward drive: its least-erased full block, not counted as a GC
// victim for free space).
#include <catch2/catch.hpp>

#include "../ff_drive.h"
#include "controller/gc/victim_source.h"

using namespace ssdtlm;

TEST_CASE("victim sources: read reclaim, then wear levelling, then SLC folding", "[gc][victim_source]") {
  CHECK(VictimSources::names() == std::vector<std::string>{"read_reclaim", "wear_level", "slc_fold"});
}

TEST_CASE("victim sources: a wanted source's victim comes before the victim policy's", "[gc][victim_source]") {
  FfDrive d({"geometry.channels=1", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=32",
             "geometry.pages_per_block=16", "geometry.over_provisioning=0.25"},
            "greedy", false, 2);  // static wear levelling at a spread of 2 erases
  // Fill a few blocks of the die (nothing to reclaim, nothing wanted yet: every block at 0 erases, no spread).
  uint32_t lpns[kMaxUnitsPerPage], versions[kMaxUnitsPerPage] = {};
  const uint32_t pages = 4 * d.g.pages_per_block;
  for (uint32_t p = 0; p < pages; ++p) {
    for (uint32_t s = 0; s < d.g.units_per_page; ++s) lpns[s] = p * d.g.units_per_page + s;
    FfHostExec(d.ftl->fast_forward()).write_page(0, lpns, versions);
  }
  d.ftl->fast_forward().merge_counters();
  CHECK_FALSE(d.ftl->victim_sources().wanted(0));
  // Another block erased three times: the spread passes the threshold and the wear-levelling source wants a victim.
  WearLevel& wl = *d.ftl->wear_level();
  const uint32_t worn = d.g.blocks_per_die - 1;
  for (int i = 0; i < 3; ++i) wl.erased(worn);
  REQUIRE(d.ftl->victim_sources().wanted(0));
  CHECK(d.ftl->victim_sources().wanted_now(0));
  const BlockManager& b = d.ftl->state().blocks();
  const uint32_t expected = wl.candidate(0, [&](uint32_t k) { return b.state(k) == BlockState::Full && !b.is_slc(k); });
  REQUIRE(expected != kInvalid);
  FlashCounters c;
  const uint32_t victim = d.ftl->pick_victim(0, c);
  CHECK(victim == expected);
  CHECK(wl.is_victim(0, victim));
  CHECK(c.gc_victims == 0);  // not a victim for free space
  CHECK_FALSE(d.ftl->victim_sources().unpaced(0, victim));  // wear levelling is paced like GC
}
