// ftl.gc_unit and ftl.write_pointer as registered entries (controller/gc/gc_unit.h): the names, what each entry sets,
// the schema's choices taken from the tables, unknown names refused naming the key, and the parameters read through
// the entries.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/config_error.h"
#include "config/config.h"
#include "config/params.h"
#include "controller/block_manager.h"
#include "controller/gc/gc_unit.h"
#include "controller/gc/write_pointer.h"

#include "../block_writes.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
std::vector<std::string> schema_choices(const std::string& key) {
  const auto& schema = config_schema();
  const auto it = std::find_if(schema.begin(), schema.end(), [&](const KeySpec& k) { return k.path == key; });
  REQUIRE(it != schema.end());
  return it->choices;
}
}  // namespace

TEST_CASE("gc unit: the registered units and write pointers, as the schema offers them", "[gc][gc_unit]") {
  CHECK(gc_unit_names() == std::vector<std::string>{"block", "superblock"});
  CHECK(write_pointer_names() == std::vector<std::string>{"per_die", "striped"});
  CHECK(schema_choices("ftl.gc_unit") == gc_unit_names());
  CHECK(schema_choices("ftl.write_pointer") == write_pointer_names());
  CHECK_FALSE(find_gc_unit("block", "ftl.gc_unit").lines);
  CHECK(find_gc_unit("superblock", "ftl.gc_unit").lines);
  CHECK_FALSE(find_write_pointer("per_die", "ftl.write_pointer").needs_lines);
  CHECK(find_write_pointer("striped", "ftl.write_pointer").needs_lines);
  CHECK_THROWS_WITH(find_gc_unit("line", "ftl.gc_unit"), Contains("key 'ftl.gc_unit'") && Contains("block superblock"));
  CHECK_THROWS_AS(find_write_pointer("one", "ftl.write_pointer"), ConfigError);
}

TEST_CASE("gc unit: the GC parameters are read through the entries", "[gc][gc_unit]") {
  Config c;
  GcParams p = read_gc_params(c);
  CHECK_FALSE(p.superblock);
  CHECK(p.write_pointer == "per_die");
  c.set("ftl.gc_unit=superblock");
  c.set("ftl.write_pointer=striped");
  p = read_gc_params(c);
  CHECK(p.superblock);
  CHECK(p.write_pointer == "striped");
  CHECK_THROWS_WITH(c.set("ftl.write_pointer=one"), Contains("ftl.write_pointer") && Contains("per_die striped"));
}

TEST_CASE("write pointer: per_die leaves the die to the writer, striped moves over each group's dies",
          "[gc][gc_unit][write_pointer]") {
  const PointerShape shape{2, 3, 2};  // two groups of three dies, two frontiers
  auto per_die = find_write_pointer("per_die", "ftl.write_pointer").make(shape);
  CHECK_FALSE(per_die->one_die());
  CHECK(per_die->next_die(1, 1) == kInvalid);
  auto striped = find_write_pointer("striped", "ftl.write_pointer").make(shape);
  CHECK(striped->one_die());
  CHECK(striped->next_die(0, 0) == 0);
  CHECK(striped->next_die(1, 1) == 3);  // a group's first die
  striped->allocated(3, 1);
  CHECK(striped->next_die(1, 1) == 4);
  CHECK(striped->next_die(0, 1) == 3);  // the other frontier's pointer stays
  striped->allocated(5, 1);             // the group's last die: back to its first
  CHECK(striped->next_die(1, 1) == 3);
  CHECK(striped->next_die(1, 0) == 0);
}

TEST_CASE("gc unit: each unit shapes the blocks and answers for its units", "[gc][gc_unit]") {
  UnitConfig c;
  c.groups = 2;
  c.depth = 2;
  auto block = find_gc_unit("block", "ftl.gc_unit").make(c);
  auto line = find_gc_unit("superblock", "ftl.gc_unit").make(c);
  auto ru = make_reclaim_unit(c);
  CHECK(std::string(block->name()) == "block");
  CHECK(std::string(line->name()) == "superblock");
  CHECK(std::string(ru->name()) == "reclaim_units");
  BlockParams b;
  b.layout.gc = 2;
  block->shape(b, 4);
  CHECK_FALSE(b.lines);
  CHECK(b.pool == nullptr);  // the block pool (gc/unit_pool.h)
  CHECK(b.gc_reserve == 2);  // a block per GC stream
  block->shape(b, 2);
  CHECK(b.gc_reserve == 1);  // but fewer than the GC threshold
  BlockParams s;
  s.layout.gc = 2;
  line->shape(s, 8);
  CHECK(s.lines);
  CHECK(s.pool == make_line_pool);
  CHECK(s.line_groups == 1);  // one line over every die (its groups are FDP's)
  CHECK(s.gc_reserve == 2);   // a free line per GC stream
  CHECK(s.write_pointer == make_per_die_pointer);
  BlockParams r;
  ru->shape(r, 8);
  CHECK(r.lines);
  CHECK(r.pool == make_line_pool);
  CHECK(r.line_groups == 2);
  CHECK(r.line_depth == 2);
  CHECK(r.gc_reserve == 1);
  CHECK(r.write_pointer == make_striped_pointer);  // whatever ftl.write_pointer says
  CHECK_FALSE(block->shared_by_group());
  CHECK_FALSE(line->shared_by_group());
  CHECK(ru->shared_by_group());
}

TEST_CASE("gc unit: a die short of free units, and the die a page goes to", "[gc][gc_unit]") {
  const Geometry g = ssdtlm::test::four_dies();
  BlockParams p;
  p.victim = make_greedy_victim(g);
  BlockManager blocks(g, std::move(p));
  const GcUnit& unit = blocks.unit();  // null BlockParams::unit: block
  CHECK(std::string(unit.name()) == "block");
  CHECK(blocks.free_blocks(0) == 4);
  CHECK(unit.short_of_free(blocks, 0, 0, 5));
  CHECK_FALSE(unit.short_of_free(blocks, 0, 1, 5));  // a victim being collected counts
  CHECK(unit.page_die(blocks, 3, 0) == 3);
  UnitConfig rc;
  rc.groups = 2;
  BlockParams rp;
  rp.victim = make_greedy_victim(g);
  rp.unit = make_reclaim_unit(rc);
  rp.unit->shape(rp, 2);
  BlockManager rus(g, std::move(rp));
  CHECK(rus.unit().page_die(rus, 3, 0) == 2);  // the RU's write pointer: its group's first die
  CHECK(rus.free_blocks(3) == 4);               // a die counts its group's free RUs
  CHECK(rus.unit().short_of_free(rus, 3, 9, 5));  // lines count free and in GC, not the die's pending victims
  CHECK_FALSE(rus.unit().short_of_free(rus, 3, 0, 4));
}
