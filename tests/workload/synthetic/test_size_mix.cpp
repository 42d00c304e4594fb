// bssplit parsing and sampling, fio size tokens, blockalign.
#include <catch2/catch.hpp>

#include <map>
#include <stdexcept>
#include <string>

#include "workload/synthetic/size_mix.h"

using namespace ssdtlm;

namespace {

std::string bssplit_error(const std::string& spec) {
  try {
    parse_bssplit(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::map<uint32_t, double> sample_shares(const SizeMix& mix, int draws, uint64_t seed) {
  Rng rng(seed);
  std::map<uint32_t, double> shares;
  for (int i = 0; i < draws; ++i) shares[mix.sample(rng)] += 1.0 / draws;
  return shares;
}

}  // namespace

TEST_CASE("fio size tokens", "[host][size_mix]") {
  CHECK(parse_size("512") == 512);
  CHECK(parse_size("4k") == 4096);
  CHECK(parse_size("4K") == 4096);
  CHECK(parse_size("4KiB") == 4096);
  CHECK(parse_size("4kb") == 4096);
  CHECK(parse_size("1.5k") == 1536);
  CHECK(parse_size("1m") == 1048576);
  CHECK(parse_size("2g") == 2147483648ull);
  for (const char* bad : {"", "k", "4q", "-4k", "4 k", "4kk", "0", "0k"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_size(bad), std::invalid_argument);
  }
  CHECK_THROWS_WITH(parse_size("1.3k"), Catch::Contains("whole number of bytes"));
  CHECK_THROWS_WITH(parse_size("4q"), Catch::Contains("'4q'"));
}

TEST_CASE("bssplit samples sizes in proportion to their percentages", "[host][size_mix]") {
  const SizeMix mix = parse_bssplit("4k/10:64k/50:32k/40");
  REQUIRE(mix.entries().size() == 3);
  const auto s = sample_shares(mix, 300000, 1);
  CHECK(s.at(4096) == Approx(0.10).margin(0.004));
  CHECK(s.at(65536) == Approx(0.50).margin(0.004));
  CHECK(s.at(32768) == Approx(0.40).margin(0.004));
  CHECK(mix.min_bytes() == 4096);
  CHECK(mix.max_bytes() == 65536);
  CHECK(mix.mean_bytes() == Approx(0.1 * 4096 + 0.5 * 65536 + 0.4 * 32768));
}

TEST_CASE("bssplit entries without a percentage share the remainder", "[host][size_mix]") {
  const SizeMix a = parse_bssplit("4k/50:8k:16k/");
  CHECK(a.entries()[1].percent == Approx(25));
  CHECK(a.entries()[2].percent == Approx(25));
  const auto s = sample_shares(a, 200000, 2);
  CHECK(s.at(8192) == Approx(0.25).margin(0.005));
  CHECK(parse_bssplit("4k").entries()[0].percent == Approx(100));
  CHECK(parse_bssplit("1k:2k:3k").entries()[2].percent == Approx(100.0 / 3));
  // A size with 0% is never drawn.
  const auto z = sample_shares(parse_bssplit("4k/0:8k/100"), 10000, 3);
  CHECK(z.count(4096) == 0);
  CHECK(parse_bssplit("4k/0:8k/100").min_bytes() == 8192);
}

TEST_CASE("malformed bssplit strings name the bad token", "[host][size_mix]") {
  CHECK(bssplit_error("4k/60:8k/50").find("more than 100") != std::string::npos);
  CHECK(bssplit_error("4k/50:8k/40").find("expected 100") != std::string::npos);
  CHECK(bssplit_error("512/4:1q/1:4k/95").find("'1q/1'") != std::string::npos);
  CHECK(bssplit_error("4k/abc:8k/50").find("'abc'") != std::string::npos);
  CHECK(bssplit_error("4k/150").find("'150'") != std::string::npos);
  CHECK(bssplit_error("4k/50::8k/50").find("empty entry") != std::string::npos);
  CHECK(bssplit_error("4k/10,8k/90").find("','") != std::string::npos);
  CHECK(bssplit_error("").find("empty") != std::string::npos);
  CHECK(bssplit_error("8g/100").find("4 GiB") != std::string::npos);
  // The spec itself is quoted.
  CHECK(bssplit_error("4k/50:8k/40").find("'4k/50:8k/40'") != std::string::npos);
  CHECK_THROWS_AS(SizeMix({{4096, 50}, {8192, 40}}), std::invalid_argument);
  CHECK_THROWS_AS(SizeMix({{0, 100}}), std::invalid_argument);
}

TEST_CASE("blockalign rounds offsets down, with a finer alignment for short transfers", "[host][size_mix]") {
  const BlockAlign a{4096, 0};
  CHECK(a.for_size(512) == 4096);
  CHECK(a.align_down(12345, 512) == 12288);
  const BlockAlign j{4096, 512};
  CHECK(j.for_size(512) == 512);
  CHECK(j.for_size(3584) == 512);
  CHECK(j.for_size(4096) == 4096);
  CHECK(j.for_size(65536) == 4096);
  CHECK(j.align_down(5000, 1024) == 4608);
  CHECK(j.align_down(5000, 8192) == 4096);
}
