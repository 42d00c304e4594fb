// ftl.gc_unit and ftl.write_pointer as registered entries (controller/gc/gc_unit.h): the names, what each entry sets,
// the schema's choices taken from the tables, unknown names refused naming the key, and the parameters read through
// the entries.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/config_error.h"
#include "config/config.h"
#include "config/params.h"
#include "controller/gc/gc_unit.h"

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
  CHECK_FALSE(find_write_pointer("per_die", "ftl.write_pointer").striped);
  CHECK(find_write_pointer("striped", "ftl.write_pointer").striped);
  CHECK_THROWS_WITH(find_gc_unit("line", "ftl.gc_unit"), Contains("key 'ftl.gc_unit'") && Contains("block superblock"));
  CHECK_THROWS_AS(find_write_pointer("one", "ftl.write_pointer"), ConfigError);
}

TEST_CASE("gc unit: the GC parameters are read through the entries", "[gc][gc_unit]") {
  Config c;
  GcParams p = read_gc_params(c);
  CHECK_FALSE(p.superblock);
  CHECK_FALSE(p.striped);
  c.set("ftl.gc_unit=superblock");
  c.set("ftl.write_pointer=striped");
  p = read_gc_params(c);
  CHECK(p.superblock);
  CHECK(p.striped);
}
