// Superblock (line) allocation and collection through the block manager and its line pool (gc/line_pool.h):
// ftl.gc_unit=superblock.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "config/config.h"
#include "config/params.h"
#include "controller/block_manager.h"
#include "controller/gc/line_pool.h"

#include "block_writes.h"

using namespace ssdtlm;
using ssdtlm::test::four_dies;
using ssdtlm::test::reclaim_unit_params;
using ssdtlm::test::write;

namespace {

// 2 dies x 4 blocks x 2 pages of one unit: lines 0..3 of 4 units each.
Geometry two_dies() {
  Config c;
  c.set("geometry.channels=1");
  c.set("geometry.dies_per_channel=2");
  c.set("geometry.blocks_per_plane=4");
  c.set("geometry.pages_per_block=2");
  c.set("geometry.page_bytes=4096");
  c.set("geometry.over_provisioning=1");
  return read_geometry(c, 0);
}

// Superblock mode: lines of one block on every die, victim lines by greedy.
BlockParams lines(const Geometry& g) {
  BlockParams p;
  p.victim = make_greedy_victim(g);
  p.unit = make_superblock_unit(UnitConfig());
  p.unit->shape(p, 2);
  return p;
}

}  // namespace

TEST_CASE("superblock: a frontier writes block b of every die and opens lines in FIFO order", "[controller][superblock]") {
  const Geometry g = two_dies();
  BlockManager b(g, lines(g));
  CHECK(line_pool(b).free_lines() == 4);
  CHECK(b.free_blocks(0) == 4);
  CHECK(b.total_free_blocks() == 8);
  // Die 0 runs ahead of die 1 on the user frontier: it opens lines 0 and 1; die 1 then finds them open.
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 0);
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 0);
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 1);
  CHECK(line_pool(b).free_lines() == 2);
  const uint32_t d1 = write(b, g, 1, 0);
  CHECK(g.die_of_gblock(d1) == 1);
  CHECK(g.block_in_die(d1) == 0);  // die 1's block of line 0, no new line taken
  CHECK(line_pool(b).free_lines() == 2);
  // The GC frontier takes the next free line; the two frontiers never share one.
  CHECK(g.block_in_die(write(b, g, 1, 1)) == 2);
  CHECK(line_pool(b).free_lines() == 1);
  // A die may take a page of a line another die opened even with no free line left to spare.
  CHECK(b.can_allocate(1, 0, 1) == true);  // die 1's block of line 0 still has a page
  write(b, g, 1, 0);                        // line 0 full on both dies
  CHECK(b.can_allocate(1, 0, 5) == true);   // line 1 is already open for the user frontier
  CHECK(g.block_in_die(write(b, g, 1, 0)) == 1);
  CHECK(b.can_allocate(0, 1, 1) == true);   // die 0 joins the GC frontier's line 2
  CHECK(b.can_allocate(0, 0, 1) == true);   // its block of line 1 has a page left
}

TEST_CASE("superblock: a line is a GC candidate once full on every die and is collected whole", "[controller][superblock]") {
  const Geometry g = two_dies();
  BlockManager b(g, lines(g));
  // Fill line 0 on die 0 only: not a candidate yet.
  write(b, g, 0, 0);
  write(b, g, 0, 0);
  CHECK(line_pool(b).start_line() == false);
  write(b, g, 1, 0);
  write(b, g, 1, 0);  // line 0 full: 4 valid units
  // Line 1: full, then one unit on each die invalidated (2 valid): the greedy victim.
  uint32_t blocks[2];
  for (uint32_t d = 0; d < 2; ++d) {
    blocks[d] = write(b, g, d, 0);
    write(b, g, d, 0);
  }
  b.invalidate(blocks[0]);
  b.invalidate(blocks[1]);
  CHECK(line_pool(b).line_valid(0) == 4);
  CHECK(line_pool(b).line_valid(1) == 2);
  CHECK(line_pool(b).free_lines() == 2);
  REQUIRE(line_pool(b).start_line());
  CHECK(line_pool(b).lines_in_gc() == 1);
  CHECK(line_pool(b).line_pending(0));
  CHECK(line_pool(b).line_pending(1));
  const uint32_t v1 = line_pool(b).next_line_block(1), v0 = line_pool(b).next_line_block(0);
  CHECK(v0 == blocks[0]);
  CHECK(v1 == blocks[1]);
  CHECK(line_pool(b).next_line_block(0) == kInvalid);  // one victim line at a time, each die's block once
  CHECK_FALSE(line_pool(b).line_pending(0));
  CHECK(b.state(v0) == BlockState::Victim);
  // The copies leave; the line is free again only once both blocks are erased.
  b.invalidate(v0);
  b.invalidate(v1);
  CHECK(line_pool(b).line_valid(1) == 0);
  b.erased(v0);
  CHECK(line_pool(b).free_lines() == 2);
  CHECK(line_pool(b).lines_in_gc() == 1);
  b.erased(v1);
  CHECK(line_pool(b).free_lines() == 3);
  CHECK(line_pool(b).lines_in_gc() == 0);
  CHECK(b.state(v1) == BlockState::Free);
  // Line 1 went to the back of the free FIFO: lines 2 and 3 open first.
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 2);
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 2);
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 3);
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 3);
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 1);
}

TEST_CASE("superblock: valid counts of a line follow its blocks through the victim order", "[controller][superblock]") {
  const Geometry g = two_dies();
  BlockManager b(g, lines(g));
  uint32_t first[3][2];
  for (uint32_t line = 0; line < 3; ++line)
    for (uint32_t d = 0; d < 2; ++d) {
      first[line][d] = write(b, g, d, 0);
      write(b, g, d, 0);
    }
  // Line 0 keeps 1 valid unit, line 1 all 4, line 2 two: greedy takes line 0, then line 2.
  b.invalidate(first[0][0], 2);
  b.invalidate(first[0][1]);
  b.invalidate(first[2][1], 2);
  REQUIRE(line_pool(b).start_line());
  CHECK(line_pool(b).next_line_block(0) == first[0][0]);
  CHECK(line_pool(b).next_line_block(1) == first[0][1]);
  b.invalidate(first[0][1]);
  b.erased(first[0][0]);
  b.erased(first[0][1]);
  REQUIRE(line_pool(b).start_line());
  CHECK(line_pool(b).next_line_block(1) == first[2][1]);
}

TEST_CASE("superblock: a die two lines ahead retires the oldest line's unfilled blocks", "[controller][superblock]") {
  const Geometry g = two_dies();
  BlockManager b(g, lines(g));
  write(b, g, 1, 0);  // die 1 writes one page of line 0
  for (int i = 0; i < 4; ++i) write(b, g, 0, 0);  // die 0 fills its blocks of lines 0 and 1
  CHECK(line_pool(b).free_lines() == 2);
  CHECK(line_pool(b).start_line() == false);  // lines 0 and 1 wait for die 1
  // Die 0 opens line 2: line 0 is retired, die 1's block of it closed half written; line 0 is a candidate.
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 2);
  CHECK(b.retired_units() == 1);
  CHECK(g.block_in_die(write(b, g, 1, 0)) == 1);  // die 1 continues in line 1
  REQUIRE(line_pool(b).start_line());
  CHECK(g.block_in_die(line_pool(b).next_line_block(1)) == 0);
  // Die 0 opens line 3 while die 1 is still in line 1: line 1 is retired too.
  write(b, g, 0, 0);
  CHECK(g.block_in_die(write(b, g, 0, 0)) == 3);
  CHECK(b.retired_units() == 2);  // die 1's block of line 1: one page left unwritten
}

TEST_CASE("FDP reclaim units: lines of depth blocks per die within groups of dies, written striped, reclaimed whole",
          "[controller][superblock][fdp]") {
  // 4 dies x 4 blocks x 2 pages of one unit; 2 groups (dies 0-1, 2-3) of RUs of 2 blocks per die: RUs 0 and 1 in
  // group 0 (blocks 0-1 and 2-3 of dies 0 and 1), RUs 2 and 3 in group 1; 8 units each.
  const Geometry g = four_dies();
  BlockManager b(g, reclaim_unit_params(g));
  CHECK(line_pool(b).line_blocks() == 4);
  CHECK(line_pool(b).free_lines(0) == 2);
  CHECK(line_pool(b).free_lines(1) == 2);
  CHECK(b.free_blocks(3) == 2);  // a die's free blocks count its group's free RUs
  CHECK(line_pool(b).open_line_units_left(0, 0) == kInvalid);
  // The frontier's write pointer moves over the group's dies: die 0, 1, 0, 1 (block 0 of each), then block 1.
  auto put = [&](uint32_t group) {
    const uint32_t die = b.write_pointer().next_die(0, group);
    const uint32_t block = write(b, g, die, 0);
    CHECK(b.group_of_die(die) == group);
    return block;
  };
  std::vector<uint32_t> got;
  for (int i = 0; i < 3; ++i) got.push_back(put(0));
  CHECK(got == std::vector<uint32_t>{0 * 4 + 0, 1 * 4 + 0, 0 * 4 + 0});
  CHECK(line_pool(b).free_lines(0) == 1);
  CHECK(line_pool(b).free_lines(1) == 2);
  CHECK(line_pool(b).open_line_units_left(0, 0) == 5);
  for (int i = 0; i < 5; ++i) got.push_back(put(0));
  CHECK(got[4] == 0 * 4 + 1);  // die 0's second block of RU 0
  CHECK(got[7] == 1 * 4 + 1);
  CHECK(line_pool(b).open_line_units_left(0, 0) == 0);
  CHECK(line_pool(b).line_of(got[7]) == 0);
  CHECK(line_pool(b).lines_opened(0, 0) == 1);
  CHECK(g.die_of_gblock(put(1)) == 2);  // group 1's RU: its own dies
  CHECK(line_pool(b).free_lines(1) == 1);
  // RU 0 is full (8 valid): the victim of group 0, none in group 1 yet; each die collects its 2 blocks of it.
  CHECK(line_pool(b).start_line(1) == false);
  REQUIRE(line_pool(b).start_line(0));
  CHECK(line_pool(b).lines_in_gc(0) == 1);
  CHECK(line_pool(b).lines_in_gc(1) == 0);
  CHECK(line_pool(b).line_pending(1));
  CHECK_FALSE(line_pool(b).line_pending(2));
  const uint32_t v00 = line_pool(b).next_line_block(0), v01 = line_pool(b).next_line_block(0);
  CHECK(v00 == 0 * 4 + 0);
  CHECK(v01 == 0 * 4 + 1);
  CHECK(line_pool(b).next_line_block(0) == kInvalid);
  const uint32_t v10 = line_pool(b).next_line_block(1), v11 = line_pool(b).next_line_block(1);
  CHECK(line_pool(b).next_line_block(2) == kInvalid);
  // The RU is free once its 4 blocks are erased.
  for (uint32_t v : {v00, v01, v10, v11}) b.invalidate(v, b.valid(v));
  b.erased(v00);
  b.erased(v01);
  b.erased(v10);
  CHECK(line_pool(b).free_lines(0) == 1);
  CHECK(line_pool(b).lines_erased() == 0);
  b.erased(v11);
  CHECK(line_pool(b).free_lines(0) == 2);
  CHECK(line_pool(b).lines_in_gc(0) == 0);
  CHECK(line_pool(b).lines_erased() == 1);
}

TEST_CASE("unit pool: a unit's dies, victims, free units and the die ahead, per shape",
          "[controller][superblock][fdp]") {
  // FDP reclaim units (as above): 2 groups (dies 0-1, 2-3) of units of 2 blocks per die.
  const Geometry g = four_dies();
  BlockManager b(g, reclaim_unit_params(g));
  UnitPool& u = b.pool();
  CHECK(u.spans_dies());
  uint32_t first = 0, last = 0;
  u.unit_dies(3, &first, &last);
  CHECK(first == 2);
  CHECK(last == 4);
  CHECK(u.blocks_per_die() == 2);
  CHECK(u.unit_blocks() == 4);
  CHECK(u.free_units(1) == 2);
  for (int i = 0; i < 8; ++i) write(b, g, b.write_pointer().next_die(0, 0), 0);  // RU 0 of group 0, full
  CHECK(u.free_units(0) == 1);
  CHECK(u.free_units(2) == 2);
  CHECK_FALSE(u.start_victim(2));  // group 1 has no full unit
  CHECK(u.units_in_gc() == 0);
  REQUIRE(u.start_victim(1));  // group 0's, started from any of its dies
  CHECK(u.units_in_gc(0) == 1);
  CHECK(u.units_in_gc(3) == 0);
  CHECK(u.units_in_gc() == 1);
  CHECK(u.victim_pending(0));
  CHECK_FALSE(u.victim_pending(2));
  const uint32_t v = u.next_victim_block(0);
  CHECK(u.unit_of(v) == 0);
  CHECK(u.unit_valid(0) == 8);
  CHECK(u.next_victim_block(2) == kInvalid);

  // Superblock: die 0 fills its blocks of the two lines it opened, so one more would retire the oldest: it is ahead,
  // and a GC copy of it goes to the die behind.
  const Geometry g2 = two_dies();
  BlockManager s(g2, lines(g2));
  for (int i = 0; i < 3; ++i) write(s, g2, 0, 0);
  CHECK_FALSE(s.pool().ahead(0, 0));  // its block of line 1 has a page left
  write(s, g2, 0, 0);
  CHECK(s.pool().ahead(0, 0));
  CHECK_FALSE(s.pool().ahead(1, 0));
  CHECK(s.pool().gc_copy_die(0, 0) == 1);
  CHECK(s.pool().gc_copy_die(1, 0) == 1);

  // Blocks: a unit is a die's block, picked block by block (never started as a unit), no die ahead.
  BlockManager k(g2, FrontierLayout(), make_greedy_victim(g2));
  const UnitPool& kb = k.pool();
  CHECK_FALSE(kb.spans_dies());
  kb.unit_dies(1, &first, &last);
  CHECK(first == 1);
  CHECK(last == 2);
  CHECK(kb.blocks_per_die() == 1);
  CHECK(kb.free_units(1) == 4);
  CHECK(k.pool().next_victim_block(1) == kInvalid);
  CHECK_FALSE(k.pool().start_victim(1));
  CHECK(kb.units_in_gc() == 0);
  CHECK_FALSE(kb.ahead(0, 0));
  CHECK(kb.gc_copy_die(1, 0) == 1);
  // A pool the block manager's shape does not have is refused.
  CHECK_THROWS_AS(make_line_pool(k, BlockParams()), std::logic_error);
  CHECK_THROWS_AS(make_block_pool(s, lines(g2)), std::logic_error);
  CHECK_THROWS_AS(line_pool(k), std::logic_error);
}

TEST_CASE("gc_min_invalid: a victim with too little invalid data waits until free blocks run short", "[controller][gc]") {
  const Geometry g = two_dies();
  BlockParams p;
  p.victim = make_greedy_victim(g);
  p.min_invalid = 0.5;  // at most 1 valid unit of 2 while 2 or more blocks are free
  p.urgent_free_blocks = 2;
  BlockManager b(g, std::move(p));
  const uint32_t first = write(b, g, 0, 0);
  write(b, g, 0, 0);  // block 0 full: 2 valid
  write(b, g, 0, 0);  // block 1 opened: 2 free
  CHECK(b.free_blocks(0) == 2);
  CHECK(b.pick_victim(0) == kInvalid);
  CHECK(b.declined());
  b.invalidate(first);
  CHECK(b.pick_victim(0) == first);  // half invalid: worth it
  CHECK_FALSE(b.declined());
  b.invalidate(first);
  b.erased(first);
  write(b, g, 0, 0);  // block 1 full: 2 valid
  write(b, g, 0, 0);  // block 2 opened
  write(b, g, 0, 0);
  write(b, g, 0, 0);  // block 3 opened: 1 free (block 0)
  CHECK(b.free_blocks(0) == 1);
  CHECK(b.pick_victim(0) != kInvalid);  // short of free blocks: any victim
  CHECK(b.declines() == 1);
}

TEST_CASE("gc_min_invalid: a victim line with too little invalid data waits", "[controller][gc][superblock]") {
  const Geometry g = two_dies();
  BlockParams p = lines(g);
  p.min_invalid = 0.5;  // lines of 4 units: at most 2 valid while 2 or more lines are free
  p.urgent_free_blocks = 2;
  BlockManager b(g, std::move(p));
  uint32_t blocks[2];
  for (uint32_t d = 0; d < 2; ++d) {
    blocks[d] = write(b, g, d, 0);
    write(b, g, d, 0);
  }
  CHECK(line_pool(b).start_line() == false);
  CHECK(b.declined());
  b.invalidate(blocks[0]);
  CHECK(line_pool(b).start_line() == false);  // 3 valid of 4
  b.invalidate(blocks[1]);
  CHECK(line_pool(b).start_line());
}
