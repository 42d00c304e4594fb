// The SLC cache's rules (controller/slc/slc_cache.h) without a simulation: static blocks out of the free pool,
// the dynamic limit (room to fold every SLC block and keep the GC threshold), SLC blocks holding 1/bits of the
// pages and never becoming GC candidates, the fold victim order.
#include <catch2/catch.hpp>

#include "controller/block_manager.h"
#include "controller/slc/slc_cache.h"

using namespace ssdtlm;

namespace {
Geometry tlc_geometry() {
  Geometry raw;
  raw.channels = 1;
  raw.dies_per_channel = 2;
  raw.planes = 1;
  raw.blocks_per_die = 32;
  raw.pages_per_block = 12;
  raw.page_bytes = 16384;
  raw.over_provisioning = 0.5;
  return Geometry::derive(raw);
}
}  // namespace

TEST_CASE("slc: dynamic cache opens SLC blocks while the die can still fold them all", "[slc]") {
  const Geometry g = tlc_geometry();
  SlcParams p;
  p.mode = SlcMode::Dynamic;
  p.bits = 3;
  const uint32_t gc_free = 2;
  SlcCache slc(g, p, gc_free);
  CHECK(slc.slc_pages() == 4);
  // free - 1 >= G + ceil((in_use + 1) / bits): with 32 free blocks, s may reach the largest s with
  // 32 - (s - 1) - 1 >= 2 + ceil(s / 3)
  uint32_t free = g.blocks_per_die, opened = 0;
  while (slc.may_open(0, free)) {
    slc.opened(0 * g.blocks_per_die + opened);
    ++opened;
    --free;
  }
  uint32_t expect = 0;
  for (uint32_t s = 1; s <= g.blocks_per_die; ++s)
    if (g.blocks_per_die - (s - 1) - 1 >= gc_free + (s + 2) / 3) expect = s;
  CHECK(opened == expect);
  CHECK(free >= gc_free + (opened + 2) / 3);  // folding them all leaves the GC threshold
  CHECK(slc.in_use(0) == opened);
  CHECK(slc.in_use(1) == 0);
  // Off (fast-forward): no SLC block.
  slc.set_on(false);
  CHECK_FALSE(slc.may_open(1, g.blocks_per_die));
}

TEST_CASE("slc: SLC blocks hold pages_per_block / bits pages, are folded oldest first, never GC candidates", "[slc]") {
  const Geometry g = tlc_geometry();
  SlcParams p;
  p.mode = SlcMode::Static;
  p.bits = 3;
  p.static_bytes = 2ull * 4 * 16384 * g.dies;  // two SLC blocks of 4 pages on every die
  SlcCache slc(g, p, 2);
  REQUIRE(slc.static_blocks() == 2);
  const FrontierLayout layout;
  BlockParams bp;
  bp.layout = layout;
  bp.victim = make_greedy_victim(g);
  bp.slc = &slc;
  BlockManager bm(g, std::move(bp));
  CHECK(bm.free_blocks(0) == g.blocks_per_die - 2);  // the static blocks are the cache's
  std::vector<uint32_t> blocks;
  for (uint32_t i = 0; i < 2 * slc.slc_pages(); ++i) {
    const uint32_t ppa = bm.allocate_page(0, layout.user_frontier(0));
    REQUIRE(ppa != kInvalid);
    const uint32_t b = g.gblock_of(ppa);
    CHECK(bm.is_slc(b));
    CHECK(g.page_of(ppa) == i % slc.slc_pages());
    bm.validate(b, g.units_per_page);
    bm.page_done(b);
    if (blocks.empty() || blocks.back() != b) blocks.push_back(b);
  }
  REQUIRE(blocks.size() == 2);
  CHECK(bm.state(blocks[0]) == BlockState::Cached);
  CHECK(bm.pick_victim(0) == kInvalid);  // not GC candidates
  CHECK_FALSE(slc.may_open(0, bm.free_blocks(0)));  // the cache is full: the next user block is TLC
  const uint32_t tlc = g.gblock_of(bm.allocate_page(0, layout.user_frontier(0)));
  CHECK_FALSE(bm.is_slc(tlc));
  CHECK(bm.pick_slc_victim(0) == blocks[0]);  // oldest first
  bm.invalidate(blocks[0], slc.slc_pages() * g.units_per_page);
  bm.erased(blocks[0]);
  CHECK(bm.free_blocks(0) == g.blocks_per_die - 3);  // back to the cache, not the free pool
  CHECK(slc.may_open(0, bm.free_blocks(0)));
}
