// Power-loss instants from the configuration (read_power_loss_instants, model/config/params.cpp): listed, random,
// checked.
#include <catch2/catch.hpp>

#include "config/config.h"
#include "config/params.h"
#include "controller/power_loss/power_loss.h"

using namespace ssdtlm;

TEST_CASE("power-loss instants: a list in ms sorted and without repeats", "[power_loss]") {
  Config c;
  CHECK(read_power_loss_instants(c).empty());  // off by default
  c.set("fault.power_loss_at_ms=30, 2.5,30,100");
  const auto t = read_power_loss_instants(c);
  REQUIRE(t.size() == 3);
  CHECK(t[0] == 2500000000ull);
  CHECK(t[1] == 30000000000ull);
  CHECK(t[2] == 100000000000ull);
}

TEST_CASE("power-loss instants: random ones lie in the window and follow the seed", "[power_loss]") {
  Config c;
  c.set("fault.power_loss_count=50");
  c.set("fault.power_loss_window_ms=200");
  const auto a = read_power_loss_instants(c);
  REQUIRE(a.size() == 50);
  for (uint64_t t : a) {
    CHECK(t > 0);
    CHECK(t < 200000000000ull);
  }
  CHECK(a.front() < 20000000000ull);  // spread over the window, not bunched
  CHECK(a.back() > 180000000000ull);
  CHECK(read_power_loss_instants(c) == a);
  c.set("fault.power_loss_seed=2");
  CHECK(read_power_loss_instants(c) != a);
}

TEST_CASE("power-loss instants: bad input names the key", "[power_loss][config]") {
  Config c;
  c.set("fault.power_loss_at_ms=5,,7");
  CHECK_THROWS_WITH(read_power_loss_instants(c), Catch::Contains("fault.power_loss_at_ms"));
  c.set("fault.power_loss_at_ms=0");
  CHECK_THROWS_WITH(read_power_loss_instants(c), Catch::Contains("fault.power_loss_at_ms"));
  c.set("fault.power_loss_at_ms=");
  c.set("fault.power_loss_count=2");
  CHECK_THROWS_WITH(read_power_loss_instants(c), Catch::Contains("fault.power_loss_window_ms"));
}
