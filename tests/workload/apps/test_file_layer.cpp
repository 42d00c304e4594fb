// The file layer of the application models: extent allocation, coalescing, the extents a delete frees, and
// the ownership invariant over a long random sequence.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "common/rng.h"
#include "workload/apps/file_layer.h"

using namespace ssdtlm;

TEST_CASE("file layer: best fit and coalescing on free", "[host][apps][file_layer]") {
  ExtentAllocator a(100);
  std::vector<Extent> got;
  CHECK(a.take(10, got) == 10);  // [0,10)
  CHECK(a.take(20, got) == 20);  // [10,30)
  CHECK(a.take(5, got) == 5);    // [30,35)
  CHECK(a.take(15, got) == 15);  // [35,50)
  a.release({10, 20});
  a.release({35, 15});
  // free: [10,30) 20 units, [35,100) 65 units: a 12-unit request takes the 20-unit hole (best fit)
  got.clear();
  CHECK(a.take(12, got) == 12);
  CHECK(got[0] == Extent{10, 12});
  CHECK(a.check().empty());
  // releasing [0,10), [22,30) and [30,35) coalesces into [0,10) [22,100)
  a.release({0, 10});
  a.release({30, 5});
  CHECK(a.check().empty());
  CHECK(a.free_extents() == 2);
  CHECK(a.by_start().at(22) == 78);
  a.release({10, 12});
  CHECK(a.free_extents() == 1);
  CHECK(a.free_units() == 100);
  CHECK(a.by_start().at(0) == 100);
}

TEST_CASE("file layer: append extends in place and a delete frees exactly the file's extents", "[host][apps][file_layer]") {
  FileLayer fs(1000);
  const FileId a = fs.create(), b = fs.create();
  fs.append(a, 10);
  fs.append(a, 5);  // right after: one extent
  CHECK(fs.extents(a).size() == 1);
  fs.append(b, 20);
  fs.append(a, 7);  // b is in the way: a second extent
  CHECK(fs.extents(a).size() == 2);
  CHECK(fs.size(a) == 22);
  std::vector<Extent> m;
  fs.map(a, 12, 6, m);  // crosses from the first extent (15 units) into the second
  REQUIRE(m.size() == 2);
  CHECK(m[0] == Extent{12, 3});
  CHECK(m[1] == Extent{fs.extents(a)[1].start, 3});
  const std::vector<Extent> owned = fs.extents(a);
  const uint64_t before = fs.free_units();
  const std::vector<Extent> freed = fs.remove(a);
  CHECK(freed == owned);
  CHECK(fs.free_units() == before + 22);
  CHECK(!fs.exists(a));
  CHECK(fs.check().empty());
}

TEST_CASE("file layer: running out of space is an error naming the sizes", "[host][apps][file_layer]") {
  FileLayer fs(256);  // 1 MiB
  const FileId a = fs.create();
  fs.append(a, 200);
  try {
    fs.append(a, 100);
    FAIL("no error");
  } catch (const FileLayerFull& e) {
    CHECK(e.wanted_units == 100);
    CHECK(e.free_units == 56);
    CHECK_THAT(e.what(), Catch::Matchers::Contains("MiB"));
  }
  CHECK(fs.size(a) == 200);
  CHECK(fs.check().empty());
}

TEST_CASE("file layer: no unit owned twice after a long random sequence", "[host][apps][file_layer]") {
  const uint64_t total = 1 << 16;
  FileLayer fs(total);
  Rng rng(7);
  std::vector<FileId> live;
  std::vector<uint32_t> owner(total, 0);  // unit -> file, kept by the test from the extents it is told about
  uint64_t ops = 0;
  for (int i = 0; i < 60000; ++i) {
    const double u = rng.uniform();
    if (live.empty() || (u < 0.45 && fs.free_units() > 600)) {
      const FileId f = fs.create();
      std::vector<Extent> added;
      fs.append(f, 1 + rng.below(300), &added);
      for (auto& e : added)
        for (uint64_t x = e.start; x < e.start + e.units; ++x) {
          REQUIRE(owner[x] == 0);
          owner[x] = f;
        }
      live.push_back(f);
    } else if (u < 0.7 && fs.free_units() > 300) {
      const FileId f = live[rng.below(live.size())];
      std::vector<Extent> added;
      fs.append(f, 1 + rng.below(50), &added);
      for (auto& e : added)
        for (uint64_t x = e.start; x < e.start + e.units; ++x) {
          REQUIRE(owner[x] == 0);
          owner[x] = f;
        }
    } else {
      const size_t k = rng.below(live.size());
      const FileId f = live[k];
      live[k] = live.back();
      live.pop_back();
      uint64_t n = 0;
      for (auto& e : fs.remove(f))  // the trims cover exactly the file's units
        for (uint64_t x = e.start; x < e.start + e.units; ++x, ++n) {
          REQUIRE(owner[x] == f);
          owner[x] = 0;
        }
      CHECK(n > 0);
    }
    ++ops;
    if (i % 5000 == 0) REQUIRE(fs.check().empty());
  }
  REQUIRE(fs.check().empty());
  uint64_t owned = 0;
  for (auto o : owner) owned += o != 0;
  CHECK(owned == fs.used_units());
  CHECK(fs.allocator().free_extents() > 1);  // it did fragment
  // Every file's map agrees with the owners.
  for (FileId f : live) {
    std::vector<Extent> m;
    fs.map(f, 0, fs.size(f), m);
    for (auto& e : m)
      for (uint64_t x = e.start; x < e.start + e.units; ++x) REQUIRE(owner[x] == f);
  }
}

TEST_CASE("file layer: next fit takes the first free extent after the last allocation and wraps", "[host][apps][file_layer]") {
  ExtentAllocator a(100);
  a.set_fit(ExtentAllocator::Fit::Next);
  std::vector<Extent> out;
  CHECK(a.take(10, out) == 10);  // [0, 10)
  CHECK(a.take(10, out) == 10);  // [10, 20)
  a.release({0, 10});            // freed behind the cursor: not reused yet
  CHECK(a.take(5, out) == 5);
  CHECK(out.back() == Extent{20, 5});
  CHECK(a.take(75, out) == 75);  // the rest of the space, up to the end
  CHECK(out.back() == Extent{25, 75});
  CHECK(a.take(10, out) == 10);  // wrapped: the extent freed first
  CHECK(out.back() == Extent{0, 10});
  CHECK(a.free_units() == 0);
  CHECK(a.check().empty());
}

TEST_CASE("file layer: spread allocation reuses freed space in no address order and stays consistent", "[host][apps][file_layer]") {
  ExtentAllocator a(1 << 16);
  a.set_fit(ExtentAllocator::Fit::Spread, 7);
  std::vector<Extent> out;
  uint64_t ascending = 0;
  for (int i = 0; i < 64; ++i) {
    REQUIRE(a.take(16, out) == 16);
    if (i > 0 && out[i].start > out[i - 1].start) ++ascending;
  }
  CHECK(ascending > 16);  // random goals: neither always ascending (next fit) ...
  CHECK(ascending < 48);  // ... nor always descending
  for (size_t i = 0; i < out.size(); i += 2) a.release(out[i]);
  CHECK(a.free_units() == (1u << 16) - 32 * 16);
  CHECK(a.check().empty());
  ExtentAllocator b(1 << 16);  // the same seed gives the same placement
  b.set_fit(ExtentAllocator::Fit::Spread, 7);
  std::vector<Extent> again;
  for (int i = 0; i < 64; ++i) b.take(16, again);
  CHECK(again == out);
}
