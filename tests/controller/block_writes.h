// Test helper shared by the block manager's and the unit pools' tests: a page written and completed at once.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>

#include "controller/block_manager.h"

namespace ssdtlm::test {

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
