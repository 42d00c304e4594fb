// SyntheticWorkload: patterns, fractions, alignment, validation and speed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "workload/synthetic/synthetic_workload.h"

using namespace ssdtlm;

namespace {

SyntheticSpec base_spec() {
  SyntheticSpec s;
  s.pattern = "random";
  s.read_fraction = 0.5;
  s.distribution = "random";
  s.random_map = false;
  s.block_bytes = 4096;
  s.range_bytes = 1ull << 30;
  s.seed = 17;
  return s;
}

std::string spec_error(const SyntheticSpec& s) {
  try {
    SyntheticWorkload w(s);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("sequential offsets are consecutive and wrap in the range", "[host][synthetic]") {
  SyntheticSpec s = base_spec();
  s.pattern = "sequential";
  s.range_offset = 1 << 20;
  s.range_bytes = 64 * 1024;
  s.io_count = 40;
  SyntheticWorkload w(s);
  IoRequest r;
  for (int i = 0; i < 40; ++i) {
    REQUIRE(w.next(r));
    CHECK(r.offset == (1u << 20) + uint64_t(i % 16) * 4096);
    CHECK(r.bytes == 4096);
  }
  CHECK_FALSE(w.next(r));

  // Mixed sizes: each transfer starts where the previous one ended, or at 0 after a wrap,
  // and never crosses the end of the range.
  s.bssplit = "4k/50:12k/30:64k/20";
  s.io_count = 2000;
  SyntheticWorkload m(s);
  uint64_t expect = s.range_offset;
  int wraps = 0;
  while (m.next(r)) {
    if (r.offset != expect) {
      CHECK(r.offset == s.range_offset);
      ++wraps;
    }
    CHECK(r.offset + r.bytes <= s.range_offset + s.range_bytes);
    expect = r.offset + r.bytes;
  }
  CHECK(wraps > 10);
}

TEST_CASE("random offsets are aligned, in range, and cover blocks once with the random map", "[host][synthetic]") {
  SyntheticSpec s = base_spec();
  s.range_offset = 8192;
  s.range_bytes = 1000 * 4096;
  s.random_map = true;
  SyntheticWorkload w(s);
  std::vector<int> seen(1000, 0);
  IoRequest r;
  for (int i = 0; i < 1000; ++i) {
    REQUIRE(w.next(r));
    REQUIRE(r.offset >= s.range_offset);
    REQUIRE(r.offset + r.bytes <= s.range_offset + s.range_bytes);
    REQUIRE((r.offset - s.range_offset) % 4096 == 0);
    ++seen[(r.offset - s.range_offset) / 4096];
  }
  for (int c : seen) REQUIRE(c == 1);
}

TEST_CASE("read, write and trim shares follow the fractions", "[host][synthetic]") {
  SyntheticSpec s = base_spec();
  s.read_fraction = 0.3;
  s.trim_fraction = 0.1;
  s.stream = 5;
  s.io_count = 200000;
  SyntheticWorkload w(s);
  double n[3] = {0, 0, 0};
  IoRequest r;
  while (w.next(r)) {
    n[int(r.op)] += 1.0 / 200000;
    REQUIRE(r.stream == 5);
    REQUIRE(r.time_ns == 0);
  }
  CHECK(w.issued() == 200000);
  CHECK(n[int(IoOp::Read)] == Approx(0.3).margin(0.004));
  CHECK(n[int(IoOp::Trim)] == Approx(0.1).margin(0.004));
  CHECK(n[int(IoOp::Write)] == Approx(0.6).margin(0.004));

  s.read_fraction = 1.0;
  s.trim_fraction = 0.0;
  s.io_count = 1000;
  SyntheticWorkload all_reads(s);
  int reads = 0;
  while (all_reads.next(r)) reads += r.op == IoOp::Read;
  CHECK(reads == 1000);
}

TEST_CASE("block alignment defaults to the smallest transfer", "[host][synthetic]") {
  SyntheticSpec s = base_spec();
  s.bssplit = "4k/50:8k/50";
  s.io_count = 20000;
  SyntheticWorkload w(s);
  CHECK(w.unit_bytes() == 4096);
  IoRequest r;
  int not_8k = 0;
  while (w.next(r)) {
    REQUIRE(r.offset % 4096 == 0);
    not_8k += r.offset % 8192 != 0;
  }
  CHECK(not_8k > 0);

  s.block_align = 8192;
  SyntheticWorkload w8(s);
  while (w8.next(r)) REQUIRE(r.offset % 8192 == 0);
}

TEST_CASE("synthetic workloads are reproducible and use independent streams", "[host][synthetic]") {
  SyntheticSpec s = base_spec();
  s.distribution = "zipf:0.9";
  s.bssplit = "4k/70:16k/30";
  s.io_count = 5000;
  auto collect = [](const SyntheticSpec& spec) {
    SyntheticWorkload w(spec);
    std::vector<IoRequest> v;
    IoRequest r;
    while (w.next(r)) v.push_back(r);
    return v;
  };
  const auto a = collect(s), b = collect(s);
  REQUIRE(a.size() == b.size());
  bool same = true;
  for (size_t i = 0; i < a.size(); ++i)
    same = same && a[i].offset == b[i].offset && a[i].bytes == b[i].bytes && a[i].op == b[i].op;
  CHECK(same);

  SyntheticSpec other = s;
  other.seed = 18;
  const auto c = collect(other);
  int diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff += a[i].offset != c[i].offset;
  CHECK(diff > 1000);

  // Changing the read fraction changes the operations only, not the addresses or sizes.
  SyntheticSpec reads = s;
  reads.read_fraction = 0.9;
  const auto d = collect(reads);
  bool same_addr = true;
  int op_diff = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    same_addr = same_addr && a[i].offset == d[i].offset && a[i].bytes == d[i].bytes;
    op_diff += a[i].op != d[i].op;
  }
  CHECK(same_addr);
  CHECK(op_diff > 0);
}

TEST_CASE("invalid synthetic specs name the field", "[host][synthetic]") {
  SyntheticSpec s = base_spec();
  s.pattern = "randomish";
  CHECK(spec_error(s).find("SyntheticSpec.pattern") != std::string::npos);
  s = base_spec();
  s.read_fraction = 1.5;
  CHECK(spec_error(s).find("SyntheticSpec.read_fraction") != std::string::npos);
  s = base_spec();
  s.read_fraction = 0.8;
  s.trim_fraction = 0.3;
  CHECK(spec_error(s).find("SyntheticSpec.trim_fraction") != std::string::npos);
  s = base_spec();
  s.block_bytes = 0;
  CHECK(spec_error(s).find("SyntheticSpec.block_bytes") != std::string::npos);
  s = base_spec();
  s.bssplit = "4k/50:1q/50";
  CHECK(spec_error(s).find("SyntheticSpec.bssplit") != std::string::npos);
  CHECK(spec_error(s).find("'1q/50'") != std::string::npos);
  s = base_spec();
  s.distribution = "zipf:abc";
  CHECK(spec_error(s).find("SyntheticSpec.distribution") != std::string::npos);
  CHECK(spec_error(s).find("zipf:abc") != std::string::npos);
  s = base_spec();
  s.range_bytes = 0;
  CHECK(spec_error(s).find("SyntheticSpec.range_bytes") != std::string::npos);
  s = base_spec();
  s.range_bytes = 2048;
  CHECK(spec_error(s).find("SyntheticSpec.range_bytes") != std::string::npos);
  s = base_spec();
  s.range_offset = 512;
  CHECK(spec_error(s).find("SyntheticSpec.range_offset") != std::string::npos);
  s = base_spec();
  s.block_align = 4096;
  s.small_align = 3000;
  CHECK(spec_error(s).find("SyntheticSpec.small_align") != std::string::npos);
  s = base_spec();
  s.pattern = "sequential";
  s.distribution = "zipf:1.2";
  CHECK(spec_error(s).find("SyntheticSpec.distribution") != std::string::npos);
  CHECK(spec_error(base_spec()).empty());
}

TEST_CASE("a million synthetic requests take well under a second", "[host][synthetic][speed]") {
  SyntheticSpec s = base_spec();
  s.distribution = "zipf:1.1";
  s.bssplit = "4k/60:8k/20:64k/20";
  s.range_bytes = 1ull << 40;
  s.io_count = 1000000;
  const auto t0 = std::chrono::steady_clock::now();
  SyntheticWorkload w(s);
  IoRequest r;
  uint64_t sum = 0, n = 0;
  while (w.next(r)) {
    sum += r.offset;
    ++n;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(n == 1000000);
  CHECK(sum != 0);
  CHECK(secs < 1.0);
}

TEST_CASE("a byte limit ends the workload, and progress counts what limits it", "[host][synthetic]") {
  SyntheticSpec s = base_spec();
  s.bssplit = "4k/50:64k/50";
  s.io_bytes = 1 << 20;
  SyntheticWorkload w(s);
  IoRequest r;
  uint64_t bytes = 0, n = 0;
  while (w.next(r)) {
    bytes += r.bytes;
    ++n;
  }
  CHECK(bytes >= (1u << 20));
  CHECK(bytes < (1u << 20) + 65536);  // stops once the limit is reached
  CHECK(w.issued_bytes() == bytes);
  CHECK(w.progress().done == bytes);
  CHECK(w.progress().total == 1u << 20);
  CHECK(std::string(w.progress().what) == "bytes");
  s.io_bytes = 0;
  s.io_count = 10;
  SyntheticWorkload c(s);
  CHECK(c.progress().total == 10);
  CHECK(std::string(c.progress().what) == "I/Os");
}

TEST_CASE("random offsets stay inside the range that starts at range_offset", "[host][synthetic]") {
  SyntheticSpec s = base_spec();
  s.range_offset = 3ull << 30;
  s.range_bytes = 1ull << 30;
  s.io_count = 20000;
  SyntheticWorkload w(s);
  IoRequest r;
  uint64_t lo = ~uint64_t(0), hi = 0;
  while (w.next(r)) {
    lo = std::min(lo, r.offset);
    hi = std::max(hi, r.offset + r.bytes);
  }
  CHECK(lo >= 3ull << 30);
  CHECK(lo < (3ull << 30) + (16u << 20));
  CHECK(hi <= 4ull << 30);
  CHECK(hi > (4ull << 30) - (16u << 20));
}

TEST_CASE("strided zones: zone_size bytes in one zone, then the next zone_range + zone_skip further", "[host][synthetic]") {
  SyntheticSpec s = base_spec();
  s.range_bytes = 64ull << 20;
  s.zone_range = 4u << 20;
  s.zone_size = 1u << 20;  // 256 requests of 4 KiB per zone visit
  s.zone_skip = 4u << 20;
  s.random_map = true;
  s.io_count = 256 * 10;
  SyntheticWorkload w(s);
  IoRequest r;
  for (int visit = 0; visit < 10; ++visit) {
    // zones start at 0, 8, 16, ... 56 MiB, then wrap to 0
    const uint64_t start = uint64_t(visit % 8) * (8u << 20);
    std::vector<uint64_t> seen;
    for (int i = 0; i < 256; ++i) {
      REQUIRE(w.next(r));
      CHECK(r.offset >= start);
      CHECK(r.offset + r.bytes <= start + (4u << 20));
      seen.push_back(r.offset);
    }
    std::sort(seen.begin(), seen.end());
    CHECK(std::unique(seen.begin(), seen.end()) == seen.end());  // the random map: no block twice per visit
  }
  SyntheticSpec q = base_spec();
  q.pattern = "sequential";
  q.range_bytes = 16u << 20;
  q.zone_range = 1u << 20;
  q.zone_size = 2u << 20;  // twice round the zone before moving on
  q.io_count = 1024;
  SyntheticWorkload seq(q);
  for (int i = 0; i < 1024; ++i) {
    REQUIRE(seq.next(r));
    CHECK(r.offset == uint64_t(i / 512) * (1u << 20) + uint64_t(i % 256) * 4096);
  }
  SyntheticSpec bad = base_spec();
  bad.zone_range = 2ull << 30;
  CHECK_THROWS_WITH(SyntheticWorkload(bad), Catch::Contains("zone_range"));
  bad.zone_range = 0;
  bad.zone_skip = 4096;
  CHECK_THROWS_WITH(SyntheticWorkload(bad), Catch::Contains("need zone_range"));
}
