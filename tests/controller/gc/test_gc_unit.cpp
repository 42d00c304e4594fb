// ftl.gc_unit and ftl.write_pointer as registered entries (controller/gc/gc_unit.h): the names, what each entry sets,
// the schema's choices taken from the tables, unknown names refused naming the key, and the parameters read through
// the entries.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/config_error.h"
#include "config/config.h"
#include "config/params.h"
#include "controller/gc/gc_unit.h"
#include "controller/gc/write_pointer.h"

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
  c.set("ftl.write_pointer=one");
  CHECK_THROWS_WITH(read_gc_params(c), Contains("key 'ftl.write_pointer'") && Contains("per_die striped"));
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
