// Test helpers shared by the block manager's, the GC units' and the unit pools' tests: a small drive of four dies,
// FDP reclaim units on it, a page written and completed at once.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>

#include "config/config.h"
#include "config/params.h"
#include "controller/block_manager.h"
#include "controller/gc/gc_unit.h"

namespace ssdtlm::test {

// 2 channels x 2 dies, 4 blocks x 2 pages of one 4 KiB unit per die, every block user space.
inline Geometry four_dies() {
  Config c;
  for (const char* s : {"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=4",
                        "geometry.pages_per_block=2", "geometry.page_bytes=4096", "geometry.over_provisioning=1"})
    c.set(s);
  return read_geometry(c, 0);
}

// FDP reclaim units on four_dies(): 2 groups (dies 0-1, 2-3) of RUs of 2 blocks per die, written striped, greedy.
inline BlockParams reclaim_unit_params(const Geometry& g) {
  BlockParams p;
  p.victim = make_greedy_victim(g);
  UnitConfig ru;
  ru.groups = 2;
  ru.depth = 2;
  p.unit = make_reclaim_unit(ru);
  p.unit->shape(p, 2);
  return p;
}

// Programs the next page of (die, frontier) with one valid unit, completing it at once; returns its block.
inline uint32_t write(BlockManager& b, const Geometry& g, uint32_t die, uint32_t frontier = 0) {
  const uint32_t ppa = b.allocate_page(die, frontier);
  REQUIRE(ppa != kInvalid);
  const uint32_t block = g.gblock_of(ppa);
  b.validate(block);
  b.page_done(block);
  return block;
}

}  // namespace ssdtlm::test
