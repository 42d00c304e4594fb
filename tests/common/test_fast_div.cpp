// FastDiv against the divide instruction, over divisors of every kind and dividends up to 2^32 - 1.
#include <catch2/catch.hpp>

#include "common/fast_div.h"
#include "common/rng.h"

using ssdtlm::FastDiv;

TEST_CASE("FastDiv matches integer division for all divisor kinds", "[common]") {
  ssdtlm::Rng rng(5);
  std::vector<uint32_t> divisors = {1, 2, 3, 5, 7, 64, 160, 255, 256, 257, 384, 1000, 2560, 65535, 65536, 0x7fffffffu,
                                    0x80000000u, 0xfffffffeu, 0xffffffffu};
  for (int i = 0; i < 200; ++i) divisors.push_back(uint32_t(rng.below(0xffffffffu)) + 1);
  for (uint32_t d : divisors) {
    FastDiv f(d);
    std::vector<uint32_t> n = {0, 1, d - 1, d, d + 1, 0xffffffffu, 0xfffffffeu, 0x80000000u};
    for (int i = 0; i < 2000; ++i) n.push_back(uint32_t(rng.below(uint64_t(1) << 32)));
    for (uint32_t x : n) {
      INFO("d=" << d << " n=" << x);
      REQUIRE(f.div(x) == x / d);
      REQUIRE(f.mod(x) == x % d);
    }
  }
}
