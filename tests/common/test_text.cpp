// The shared text helpers of common/text.h.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "common/text.h"

using namespace ssdtlm;

TEST_CASE("text: trim drops blanks at both ends only", "[common][text]") {
  CHECK(trim("  a b \t\r\n") == "a b");
  CHECK(trim("\v\fx") == "x");
  CHECK(trim("   ").empty());
  CHECK(trim("").empty());
  const std::string s = " key = value ";
  CHECK(trim(s).data() == s.data() + 1);  // a view into s
}

TEST_CASE("text: lower folds ASCII letters", "[common][text]") {
  CHECK(lower("RandRW") == "randrw");
  CHECK(lower("4KiB/s") == "4kib/s");
  CHECK(lower("") == "");
}

TEST_CASE("text: split keeps empty fields", "[common][text]") {
  CHECK(split("a,,b", ',') == std::vector<std::string>{"a", "", "b"});
  CHECK(split("4k/70:64k/30", ':') == std::vector<std::string>{"4k/70", "64k/30"});
  CHECK(split("", ',') == std::vector<std::string>{""});
  CHECK(split("a,", ',') == std::vector<std::string>{"a", ""});
}
