// Victim policies against a reference: greedy returns a block with the fewest valid units among the
// die's candidates, whatever the order of inserts and updates; FIFO returns them in insertion order.
#include <catch2/catch.hpp>

#include <map>

#include "config/config.h"
#include "config/params.h"
#include "common/rng.h"
#include "controller/gc/victim_policy.h"

using namespace ssdtlm;

namespace {
Geometry small_geometry() {
  Config c;
  c.set("geometry.channels=3");
  c.set("geometry.dies_per_channel=1");
  c.set("geometry.blocks_per_plane=40");
  c.set("geometry.pages_per_block=8");
  c.set("geometry.page_bytes=8192");
  return read_geometry(c, 4);
}
}  // namespace

TEST_CASE("greedy victim is always a least-valid candidate of its die", "[ftl][gc]") {
  const Geometry g = small_geometry();
  auto policy = make_victim_policy("greedy", g, "ftl.gc_victim");
  std::vector<std::map<uint32_t, uint32_t>> candidates(g.dies);  // per die: block -> valid
  Rng rng(9);
  uint64_t picks = 0;
  for (int step = 0; step < 20000; ++step) {
    const uint32_t die = uint32_t(rng.below(g.dies));
    auto& c = candidates[die];
    const uint64_t what = rng.below(10);
    if (what < 3) {  // a block of this die fills up
      for (uint32_t b = die * g.blocks_per_die; b < (die + 1) * g.blocks_per_die; ++b)
        if (!c.count(b) && rng.below(4) == 0) {
          const uint32_t v = uint32_t(rng.below(g.units_per_block + 1));
          c[b] = v;
          policy->insert(b, v);
          break;
        }
    } else if (what < 8 && !c.empty()) {  // a unit of a candidate is invalidated
      auto it = c.begin();
      std::advance(it, rng.below(c.size()));
      if (it->second == 0) continue;
      policy->update(it->first, it->second, it->second - 1);
      --it->second;
    } else {
      const uint32_t b = policy->pick(die);
      if (c.empty()) {
        CHECK(b == kInvalid);
        continue;
      }
      REQUIRE(c.count(b) == 1);
      uint32_t least = g.units_per_block;
      for (auto& kv : c) least = std::min(least, kv.second);
      CHECK(c[b] == least);
      c.erase(b);
      ++picks;
    }
  }
  CHECK(picks > 1000);
}

TEST_CASE("FIFO victim follows insertion order per die", "[ftl][gc]") {
  const Geometry g = small_geometry();
  auto policy = make_victim_policy("fifo", g, "ftl.gc_victim");
  const uint32_t b0 = g.blocks_per_die;  // die 1
  policy->insert(b0 + 5, 10);
  policy->insert(b0 + 2, 0);
  policy->insert(3, 4);  // die 0
  policy->update(b0 + 5, 10, 1);
  CHECK(policy->pick(1) == b0 + 5);
  CHECK(policy->pick(1) == b0 + 2);
  CHECK(policy->pick(1) == kInvalid);
  CHECK(policy->pick(0) == 3);
}
