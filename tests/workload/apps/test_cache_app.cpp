// cache: the CacheLib-like flash cache (cache_app.h): small-object bucket rewrites in place, large-object
// regions written whole and in order, reclaimed FIFO or LRU, the write share between the two engines.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <set>

#include "workload/apps/app_workload.h"
#include "workload/apps/cache_app.h"

using namespace ssdtlm;

namespace {
AppParams cache_params() {
  AppParams p;
  p.app = "cache";
  p.age_fraction = 0;
  p.cache_fraction = 0.5;
  p.cache_soc_fraction = 0.1;
  p.cache_soc_write_share = 0.4;
  p.cache_region_bytes = 256 << 10;
  p.max_io_bytes = 64 << 10;
  return p;
}
}  // namespace

TEST_CASE("cache: SOC bucket rewrites in place, LOC regions written whole in FIFO order, the write share",
          "[apps][cache]") {
  AppParams p = cache_params();
  AppWorkload w(p, 256ull << 20, false, 100000);
  auto& c = dynamic_cast<CacheApp&>(w.model(0));
  REQUIRE(c.soc_buckets() == uint64_t(0.1 * 0.5 * 65536));
  REQUIRE(c.regions() == (32768 - c.soc_buckets()) / 64);
  const auto& soc = w.io().fs.extents(c.soc_file());
  const auto& loc = w.io().fs.extents(c.loc_file());
  REQUIRE(soc.size() == 1);  // laid out whole on the empty file layer
  REQUIRE(loc.size() == 1);
  IoRequest r;
  uint64_t soc_units = 0, loc_units = 0, expect = loc[0].start, region_order = 0;
  std::set<uint64_t> buckets;
  while (w.next(r)) {
    const uint64_t lba = r.offset / 4096, units = r.bytes / 4096;
    if (r.op != IoOp::Write) continue;
    if (r.stream == CacheApp::kHintSoc) {
      REQUIRE(units == 1);
      REQUIRE(lba >= soc[0].start);
      REQUIRE(lba < soc[0].start + soc[0].units);
      buckets.insert(lba);
      soc_units += units;
    } else {
      REQUIRE(r.stream == CacheApp::kHintLoc);
      REQUIRE(lba == expect);  // sequential within a region, regions in LBA order (FIFO), wrapping
      expect += units;
      if ((expect - loc[0].start) % 64 == 0) {
        ++region_order;
        if (expect == loc[0].start + loc[0].units) expect = loc[0].start;
      }
      loc_units += units;
    }
  }
  CHECK(r.op != IoOp::Trim);  // Navy overwrites evicted regions, no discard
  const double share = double(soc_units) / double(soc_units + loc_units);
  CHECK(share == Approx(0.4).margin(0.01));
  CHECK(buckets.size() > 1000);  // random buckets
  CHECK(region_order > c.regions());  // wrapped at least once
  CHECK(w.io().trimmed_units == 0);
}

TEST_CASE("cache: LRU reclaims the region read (or written) least recently", "[apps][cache]") {
  AppParams p = cache_params();
  p.cache_lru = true;
  p.cache_reads_per_write = 4;
  AppWorkload w(p, 256ull << 20, false, 100000);
  auto& c = dynamic_cast<CacheApp&>(w.model(0));
  const auto& loc = w.io().fs.extents(c.loc_file());
  const uint64_t n = c.regions();
  std::vector<uint64_t> use(n);
  for (uint64_t i = 0; i < n; ++i) use[i] = i;  // the layout wrote them in order; region 0 is reclaimed first
  uint64_t clock = n, checked = 0, out_of_fifo = 0, prev = 0;
  IoRequest r;
  while (w.next(r)) {
    const uint64_t lba = r.offset / 4096, units = r.bytes / 4096;
    if (lba < loc[0].start || lba >= loc[0].start + loc[0].units) continue;
    const uint64_t region = (lba - loc[0].start) / 64, in = (lba - loc[0].start) % 64;
    if (r.op == IoOp::Read) {
      use[region] = ++clock;
      continue;
    }
    if (in == 0 && checked++ > 0) {  // a reclaimed region: none was used less recently
      uint64_t least = UINT64_MAX;
      for (uint64_t i = 0; i < n; ++i)
        if (i != region) least = std::min(least, use[i]);
      REQUIRE(use[region] < least);
      out_of_fifo += region != (prev + 1) % n;
    }
    if (in == 0) prev = region;
    if (in + units == 64) use[region] = ++clock;  // written whole: the most recent
  }
  CHECK(checked > 100);
  CHECK(out_of_fifo > checked / 2);  // reads reorder the reclaim
}
