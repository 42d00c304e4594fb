// The integrity checker itself: it must catch stale, lost and misplaced units.
#include <catch2/catch.hpp>

#include "controller/integrity_checker.h"
#include "flash/geometry.h"

using namespace ssdtlm;

TEST_CASE("integrity checker flags stale, lost and misplaced reads", "[integrity]") {
  IntegrityChecker c(16);
  uint32_t v1 = c.next_version(3);
  uint32_t v2 = c.next_version(3);
  CHECK(v2 != v1);
  CHECK(c.expected(3) == v2);
  c.check(3, v2, 3, v2, 0);  // correct
  CHECK(c.errors() == 0);
  c.check(3, v2, 3, v1, 0);  // stale version
  CHECK(c.errors() == 1);
  CHECK(c.first_error().find("LPN 3") != std::string::npos);
  c.check(3, v2, kInvalid, 0, 0);  // lost
  c.check(3, v2, 4, v2, 0);        // another LPN's data
  CHECK(c.errors() == 3);
  c.check(5, 0, kInvalid, 0, 0);  // never written: zeros are right
  CHECK(c.errors() == 3);
  c.trimmed(3);
  c.check(3, c.expected(3), kInvalid, 0, 0);  // trimmed: zeros are right
  CHECK(c.errors() == 3);
  CHECK(c.checked() == 6);
}
