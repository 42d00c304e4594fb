// NAND geometry and the derived numbers every layer agrees on.
//
// Physical unit address (ppa): ((die * blocks_per_die + block) * pages_per_block + page) * units_per_page + slot,
// where a "page" is one multi-plane page (planes_per_die flash pages programmed together) and a unit is the
// 4 KiB mapping unit. With planes_per_die > 1 the FTL erases the plane set together, so a block is
// planes_per_die erase blocks (units_per_block grows accordingly).
#pragma once
#include <cstdint>

#include "common/fast_div.h"

namespace ssdtlm {

constexpr uint32_t kUnitBytes = 4096;        // mapping unit
constexpr uint32_t kMaxUnitsPerPage = 32;    // units one NAND operation can carry
constexpr uint32_t kInvalid = 0xFFFFFFFFu;   // unmapped / no address

// A unit's physical address decoded: the die, the block within the die, the page and the unit's slot in the page.
struct UnitAddress {
  uint32_t die, block, page, slot;
};

struct Geometry {
  uint32_t channels = 0, dies_per_channel = 0, planes = 0, blocks_per_die = 0, pages_per_block = 0, page_bytes = 0;
  double over_provisioning = 0;

  uint32_t dies = 0;             // channels * dies_per_channel
  uint32_t units_per_page = 0;   // planes * page_bytes / 4096
  uint32_t units_per_block = 0;  // units_per_page * pages_per_block (Np)
  uint64_t physical_units = 0;
  uint64_t logical_units = 0;    // floor(physical_units / (1 + over_provisioning)), a multiple of dies

  // The derived numbers from the raw ones (channels .. over_provisioning); read_geometry (config/params.h)
  // checks the raw numbers and what they give before a module sees them.
  static Geometry derive(const Geometry& raw);

  uint32_t die_of(uint32_t ppa) const { return by_block_.div(by_unit_.div(ppa)); }
  uint32_t block_of(uint32_t ppa) const { return by_block_.mod(by_unit_.div(ppa)); }  // within die
  uint32_t gblock_of(uint32_t ppa) const { return by_unit_.div(ppa); }                // global
  uint32_t page_of(uint32_t ppa) const { return by_page_.mod(by_slot_.div(ppa)); }
  uint32_t slot_of(uint32_t ppa) const { return by_slot_.mod(ppa); }
  UnitAddress decode(uint32_t ppa) const { return {die_of(ppa), block_of(ppa), page_of(ppa), slot_of(ppa)}; }
  uint32_t die_of_gblock(uint32_t gblock) const { return by_block_.div(gblock); }
  uint32_t block_in_die(uint32_t gblock) const { return by_block_.mod(gblock); }
  uint32_t channel_of_die(uint32_t die) const { return die % channels; }  // dies are numbered channel-first
  uint32_t ppa(uint32_t die, uint32_t block, uint32_t page, uint32_t slot = 0) const {
    return ((die * blocks_per_die + block) * pages_per_block + page) * units_per_page + slot;
  }
  uint64_t logical_bytes() const { return logical_units * kUnitBytes; }
  // Superblock lines (ftl.gc_unit=superblock) as a geometry of one die whose blocks are the lines: block b
  // of every die makes line b, of units_per_block x dies units. For line-level GC victim policies.
  Geometry lines() const;
  // FDP reclaim units as lines: `groups` groups of consecutive dies (the reclaim groups), each a "die" of
  // blocks_per_die / depth lines of `depth` blocks on every die of the group. lines(1, 1) == lines().
  Geometry lines(uint32_t groups, uint32_t depth) const;

 private:
  // Divisors of the address decoding: units_per_page, units_per_block, pages_per_block, blocks_per_die.
  FastDiv by_slot_, by_unit_, by_page_, by_block_;
};

}  // namespace ssdtlm
