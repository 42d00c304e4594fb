// map.dirty_victim (controller/mapping/dirty_order.h): the registered orders in which ptsd_entry's dirty area gives up
// its segments, and the registry's refusal of an unknown name.
#include <catch2/catch.hpp>

#include "config/config.h"
#include "controller/mapping/dirty_order.h"

using namespace ssdtlm;

TEST_CASE("dirty order: greedy gives the segment with the most dirty entries first", "[map][ptsd]") {
  auto o = make_dirty_order("greedy", 8, 16);
  o->updated(3, 0, 2);
  o->updated(5, 0, 7);
  o->updated(1, 0, 4);
  o->updated(3, 2, 9);  // segment 3 overtakes 5
  o->updated(5, 7, 7);  // no new entry: no change
  CHECK(o->segments() == 3);
  CHECK(o->take_victim() == 3);
  CHECK(o->take_victim() == 5);
  CHECK(o->segments() == 1);
  o->updated(6, 0, 16);  // a full segment (entries_per_segment)
  CHECK(o->take_victim() == 6);
  CHECK(o->take_victim() == 1);
  CHECK(o->segments() == 0);
}

TEST_CASE("dirty order: lru gives the segment updated least recently first", "[map][ptsd]") {
  auto o = make_dirty_order("lru", 8, 16);
  o->updated(3, 0, 2);
  o->updated(5, 0, 7);
  o->updated(1, 0, 4);
  o->updated(3, 2, 2);  // an update without a new entry still counts as recent
  CHECK(o->segments() == 3);
  CHECK(o->take_victim() == 5);
  CHECK(o->take_victim() == 1);
  CHECK(o->take_victim() == 3);
  CHECK(o->segments() == 0);
}

TEST_CASE("dirty order: the registry names its orders and refuses others", "[map][ptsd][config]") {
  CHECK(dirty_order_names() == std::vector<std::string>{"greedy", "lru"});
  CHECK_THROWS_WITH(make_dirty_order("fifo", 8, 16), Catch::Contains("map.dirty_victim") && Catch::Contains("greedy lru"));
  Config c;
  CHECK_THROWS_WITH(c.set("map.dirty_victim=fifo"), Catch::Contains("greedy"));
}
