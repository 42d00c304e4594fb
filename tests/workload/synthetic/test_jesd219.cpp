// The JESD219 preset against the standard's table, zones and alignment.
#include <catch2/catch.hpp>

#include <map>

#include "workload/synthetic/jesd219.h"
#include "workload/synthetic/synthetic_workload.h"

using namespace ssdtlm;

TEST_CASE("JESD219 transfer-size table", "[host][jesd219]") {
  const SizeMix mix = jesd219::size_mix();
  const std::map<uint32_t, double> expected = {
      {512, 4},  {1024, 1},  {1536, 1},  {2048, 1},  {2560, 1},  {3072, 1},
      {3584, 1}, {4096, 67}, {8192, 10}, {16384, 7}, {32768, 3}, {65536, 3}};
  REQUIRE(mix.entries().size() == expected.size());
  for (const auto& e : mix.entries()) {
    INFO(e.bytes);
    REQUIRE(expected.count(e.bytes) == 1);
    CHECK(e.percent == Approx(expected.at(e.bytes)));
  }
  CHECK(mix.mean_bytes() == Approx(7818.24));
  CHECK(jesd219::kMeanTransferBytes == Approx(mix.mean_bytes()));
}

TEST_CASE("JESD219 workload: zones, sizes, alignment and read fraction", "[host][jesd219]") {
  const uint64_t range = 64ull << 30;  // 64 GiB
  const uint64_t base = 1ull << 20;    // a 4 KiB-aligned range offset
  SyntheticWorkload w(jesd219::make_spec(range, 0.40, /*seed=*/3, /*io_count=*/0, base));
  const int n = 400000;
  double zone[3] = {0, 0, 0}, reads = 0, bytes = 0;
  std::map<uint32_t, double> sizes;
  int misaligned = 0, outside = 0, small_not_4k = 0;
  IoRequest r;
  for (int i = 0; i < n; ++i) {
    REQUIRE(w.next(r));
    const uint64_t off = r.offset - base;
    if (r.offset < base || off + r.bytes > range) ++outside;
    const uint64_t a = r.bytes >= 4096 ? 4096 : 512;
    if (r.offset % a != 0) ++misaligned;
    if (r.bytes < 4096 && r.offset % 4096 != 0) ++small_not_4k;
    const double pos = double(off) / double(range);
    zone[pos < 0.05 ? 0 : pos < 0.20 ? 1 : 2] += 1.0 / n;
    reads += r.op == IoOp::Read;
    bytes += r.bytes;
    sizes[r.bytes] += 1.0 / n;
  }
  CHECK(outside == 0);
  CHECK(misaligned == 0);
  CHECK(small_not_4k > 0);  // short transfers use the 512 B alignment, not 4 KiB
  CHECK(zone[0] == Approx(0.50).margin(0.006));
  CHECK(zone[1] == Approx(0.30).margin(0.006));
  CHECK(zone[2] == Approx(0.20).margin(0.006));
  CHECK(reads / n == Approx(0.40).margin(0.005));
  CHECK(bytes / n == Approx(7818.24).epsilon(0.015));
  CHECK(sizes[4096] == Approx(0.67).margin(0.005));
  CHECK(sizes[512] == Approx(0.04).margin(0.002));
  CHECK(sizes[65536] == Approx(0.03).margin(0.002));

  SyntheticWorkload w70(jesd219::make_spec(range, 0.70, 4, 100000));
  int reads70 = 0, count = 0;
  while (w70.next(r)) {
    reads70 += r.op == IoOp::Read;
    ++count;
  }
  CHECK(count == 100000);
  CHECK(reads70 / 100000.0 == Approx(0.70).margin(0.01));
}
