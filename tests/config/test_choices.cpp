// The enum-like keys (config/choices.h): the schema offers exactly each table's names, every name the schema
// offers parses, an unknown one is refused naming its key, and the readers map the names through the tables.
#include <catch2/catch.hpp>

#include <algorithm>

#include "config/choices.h"
#include "config/config.h"
#include "config/params.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

TEST_CASE("choices: every schema choice of an enum-like key parses through its table", "[config][choices]") {
  const auto& schema = config_schema();
  REQUIRE(keyed_choices().size() == 19);
  for (const KeyedChoices& keyed : keyed_choices()) {
    INFO(keyed.key);
    const auto it = std::find_if(schema.begin(), schema.end(), [&](const KeySpec& k) { return k.path == keyed.key; });
    REQUIRE(it != schema.end());
    CHECK(it->type == KeyType::String);
    CHECK(it->choices == keyed.names);
    CHECK(std::find(keyed.names.begin(), keyed.names.end(), it->def.get<std::string>()) != keyed.names.end());
    for (const std::string& name : it->choices) CHECK_NOTHROW(keyed.parse(name, keyed.key));
    CHECK_THROWS_WITH(keyed.parse("bogus", keyed.key), Contains(std::string("key '") + keyed.key + "'"));
  }
}

TEST_CASE("choices: the readers map the names through the tables", "[config][choices]") {
  CHECK(parse_choice(choices::kFlashCell, "tlc", "flash.cell") == 3);
  Config c;
  for (const char* s : {"flash.suspend=program_erase", "flash.multiplane=never", "flash.plane_rule=any",
                        "nvme.interface=register", "sim.converge=report", "streams.count=1",
                        "streams.gc_stream=per_stream", "streams.gc_frontier=user", "flash.cell=qlc", "cache.read_ahead=sequential"})
    c.set(s);
  const Params p = read_params(c);
  CHECK(p.flash.suspend == SuspendMode::ProgramErase);
  CHECK(p.flash.multiplane == MultiPlane::Never);
  CHECK(p.flash.plane_any);
  CHECK(p.flash.page_types == 4);
  CHECK(p.ftl.read_ahead.sequential);
  CHECK(p.nvme.register_interface);
  CHECK(p.sim.converge.mode == ConvergeParams::Mode::Report);
  CHECK(p.streams.gc == GcStreams::PerStream);
  CHECK(p.streams.gc_in_user);
}
