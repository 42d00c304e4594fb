// The unit pools' state (controller/gc/unit_pool.h): the block pool's FIFO of free blocks per die, the line pool's
// free lines per group, open lines and retirement, and a snapshot round trip per pool (a drive loaded from a
// snapshot continues exactly as the one saved).
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../common/temp_dir.h"
#include "config/config.h"
#include "config/params.h"
#include "controller/block_manager.h"
#include "controller/gc/line_pool.h"
#include "controller/snapshot/snapshot_archive.h"

#include "../block_writes.h"

using namespace ssdtlm;
using ssdtlm::test::write;

namespace {

// dies x blocks_per_die blocks of `pages` pages of one unit each.
Geometry drive(uint32_t dies, uint32_t blocks_per_die, uint32_t pages) {
  Config c;
  c.set("geometry.channels=1");
  c.set("geometry.dies_per_channel=" + std::to_string(dies));
  c.set("geometry.blocks_per_plane=" + std::to_string(blocks_per_die));
  c.set("geometry.pages_per_block=" + std::to_string(pages));
  c.set("geometry.page_bytes=4096");
  c.set("geometry.over_provisioning=1");
  return read_geometry(c, 0);
}

// The block manager's parameters of a unit: "block", "superblock" or "reclaim_units" (2 groups of depth 2).
BlockParams shaped(const std::string& unit, const Geometry& g) {
  BlockParams p;
  p.victim = make_greedy_victim(g);
  UnitConfig c;
  c.groups = 2;
  c.depth = 2;
  if (unit == "superblock") p.unit = make_superblock_unit(c);
  if (unit == "reclaim_units") p.unit = make_reclaim_unit(c);
  if (p.unit) p.unit->shape(p, 2);
  return p;
}

// A host writing logical pages over and over, with a GC that drops a victim's data (its pages unmapped) to keep
// the test short: what it allocated and collected, in order.
struct Writer {
  std::vector<uint32_t> where;  // per logical page: its block, or kInvalid
  std::vector<uint32_t> trace;  // ppas allocated; victim blocks collected (+ 1 << 31)
  uint32_t victims = 0;

  void collect_block(BlockManager& b, uint32_t block) {
    for (uint32_t& w : where)
      if (w == block) {
        b.invalidate(block);
        w = kInvalid;
      }
    b.erased(block);
    trace.push_back(block | 0x80000000u);
    ++victims;
  }
  bool collect(BlockManager& b, uint32_t die) {  // the die's next victim unit, collected whole
    UnitPool& u = b.pool();
    if (!u.spans_dies()) {
      const uint32_t v = b.pick_victim(die);
      if (v != kInvalid) collect_block(b, v);
      return v != kInvalid;
    }
    if (!u.start_victim(die)) return false;
    uint32_t first = 0, last = 0;
    u.unit_dies(die, &first, &last);
    for (uint32_t d = first; d < last; ++d)
      for (uint32_t v = u.next_victim_block(d); v != kInvalid; v = u.next_victim_block(d)) collect_block(b, v);
    return true;
  }
  void run(BlockManager& b, const Geometry& g, uint32_t from, uint32_t to) {
    for (uint32_t i = from; i < to; ++i) {
      const uint32_t lpn = i * 7 % uint32_t(where.size());
      const uint32_t pointer = b.write_pointer().next_die(0, i % b.groups());
      const uint32_t die = pointer != kInvalid ? pointer : i % g.dies;
      uint32_t ppa = b.allocate_page(die, 0);
      for (int tries = 0; ppa == kInvalid && tries < 4; ++tries) {
        REQUIRE(collect(b, die));
        ppa = b.allocate_page(die, 0);
      }
      REQUIRE(ppa != kInvalid);
      const uint32_t block = g.gblock_of(ppa);
      if (where[lpn] != kInvalid) b.invalidate(where[lpn]);
      b.validate(block);
      b.page_done(block);
      where[lpn] = block;
      trace.push_back(ppa);
    }
  }
};

}  // namespace

TEST_CASE("block pool: a die's FIFO of free blocks, an erased block at its tail", "[controller][gc]") {
  const Geometry g = drive(2, 4, 2);
  BlockManager b(g, FrontierLayout(), make_greedy_victim(g));
  CHECK(b.total_free_blocks() == 8);
  CHECK_THROWS_AS(b.erased(4), std::logic_error);  // a free block erased again
  CHECK(write(b, g, 1) == 4);  // die 1's first block
  write(b, g, 1);
  CHECK(write(b, g, 1) == 5);
  CHECK(b.free_blocks(1) == 2);
  CHECK(b.free_blocks(0) == 4);
  CHECK(b.total_free_blocks() == 6);
  REQUIRE(b.pick_victim(1) == 4);  // full: the blocks' victim policy's
  b.invalidate(4, 2);
  b.erased(4);
  CHECK(b.free_blocks(1) == 3);
  CHECK(b.total_free_blocks() == 7);
  write(b, g, 1);  // block 5 full
  CHECK(write(b, g, 1) == 6);
  write(b, g, 1);
  CHECK(write(b, g, 1) == 7);
  write(b, g, 1);
  CHECK(write(b, g, 1) == 4);  // the erased block last
  CHECK(b.free_blocks(1) == 0);
  CHECK_FALSE(b.can_allocate(1, 1, 0));  // the GC frontier has no block and the die none free
  CHECK(b.can_allocate(1, 0, 0));        // the user frontier's block has a page left
}

TEST_CASE("line pool: free lines counted on each die of the group, open lines, retirement, counts reset",
          "[controller][gc][superblock]") {
  const Geometry g = drive(2, 4, 2);
  BlockManager b(g, shaped("superblock", g));
  LinePool& lines = line_pool(b);
  CHECK(b.free_blocks(0) == 4);
  CHECK(b.free_blocks(1) == 4);
  CHECK(b.total_free_blocks() == 8);
  write(b, g, 0);  // die 0 opens line 0: one free line fewer for both dies
  CHECK(b.free_blocks(1) == 3);
  CHECK(b.total_free_blocks() == 6);
  CHECK(b.can_allocate(1, 0, 99));        // die 1's block of the open line 0 takes no free line
  CHECK_FALSE(b.can_allocate(1, 1, 99));  // the GC frontier has no line open
  write(b, g, 0);
  write(b, g, 0);  // line 1
  write(b, g, 0);
  CHECK(lines.lines_opened(0, 0) == 2);
  CHECK(lines.line_ahead(0, 0));
  // Die 0 opens a third line: line 0 is retired, die 1's block of it closed unwritten.
  write(b, g, 0);
  CHECK(b.retired_units() == 2);
  CHECK(lines.lines_cut(0, 0) == 1);
  CHECK(b.blocks_cut(0) == 1);
  CHECK(b.state(g.blocks_per_die) == BlockState::Full);  // die 1's block of line 0
  CHECK(b.free_blocks(1) == 1);
  REQUIRE(lines.start_line());  // line 0, full
  CHECK(b.pool().units_in_gc(1) == 1);
  const uint32_t v0 = lines.next_line_block(0), v1 = lines.next_line_block(1);
  CHECK(b.state(v0) == BlockState::Victim);
  b.invalidate(v0, 2);
  b.erased(v0);
  CHECK(b.free_blocks(1) == 1);  // free once every block of it is erased
  b.erased(v1);
  CHECK(b.free_blocks(0) == 2);
  CHECK(b.free_blocks(1) == 2);
  CHECK(lines.lines_erased() == 1);
  b.reset_counts();
  CHECK(lines.lines_opened(0, 0) == 0);
  CHECK(lines.lines_cut(0, 0) == 0);
  CHECK(lines.lines_erased() == 0);
  CHECK(b.retired_units() == 2);  // not a count since a point
}

TEST_CASE("unit pools: a drive loaded from a snapshot continues as the one saved, per pool",
          "[controller][gc][snapshot]") {
  const Geometry g = drive(4, 8, 4);
  test::TempDir dir("unit_pool");
  for (const std::string unit : {"block", "superblock", "reclaim_units"}) {
    INFO(unit);
    BlockManager saved(g, shaped(unit, g));
    Writer w;
    w.where.assign(48, kInvalid);
    w.run(saved, g, 0, 300);
    REQUIRE(w.victims > 0);
    const std::string path = dir.path() + "/" + unit + ".snap";
    {
      SnapshotArchive a = SnapshotArchive::save(path, "unit pool");
      saved.snapshot(a);
      a.finish();
    }
    BlockManager loaded(g, shaped(unit, g));
    {
      SnapshotArchive a = SnapshotArchive::load(path, "unit pool");
      loaded.snapshot(a);
      a.finish();
    }
    Writer v = w;
    const uint32_t before = v.victims;
    w.trace.clear();
    v.trace.clear();
    w.run(saved, g, 300, 700);
    v.run(loaded, g, 300, 700);
    CHECK(v.victims > before);  // it collected after loading
    CHECK(v.trace == w.trace);
    CHECK(loaded.total_free_blocks() == saved.total_free_blocks());
    for (uint32_t d = 0; d < g.dies; ++d) CHECK(loaded.free_blocks(d) == saved.free_blocks(d));
    CHECK(loaded.pool().units_in_gc() == saved.pool().units_in_gc());
    CHECK(loaded.close_clock() == saved.close_clock());
    // A snapshot of another shape is refused.
    BlockManager other(g, shaped(unit == "block" ? "superblock" : "block", g));
    SnapshotArchive a = SnapshotArchive::load(path, "unit pool");
    CHECK_THROWS_AS(other.snapshot(a), SnapshotError);
  }
}
