// Preconditioned-drive snapshots at the algorithm level: a drive saved after preconditioning and loaded into a
// fresh one is the same drive (the file it saves again is byte-identical, and both go on to the same results);
// a file of another configuration, a corrupt or truncated file, and a policy without saved state are refused
// with a clear SnapshotError.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "../../common/temp_dir.h"
#include "../ff_drive.h"
#include "config/config.h"
#include "config/params.h"
#include "controller/integrity_checker.h"
#include "controller/page_ftl.h"
#include "controller/precondition.h"
#include "controller/snapshot/snapshot_archive.h"

using namespace ssdtlm;

namespace {

const std::string kKey = "geometry.channels=2\nftl.mapping=\"page\"\n";

// 4 dies, 64 blocks of 32 8 KiB pages, 2 KiB map segments, a quarter of the map cached; the checker on.
struct Drive {
  Config c;
  Geometry g;
  std::vector<std::unique_ptr<Die>> dies;
  std::unique_ptr<PageFtl> ftl;
  std::unique_ptr<IntegrityChecker> checker;
  Drive(const std::string& scheme, const std::string& victim, const std::string& assign = "single") {
    for (const char* s : {"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                          "geometry.pages_per_block=32", "geometry.page_bytes=8192", "geometry.over_provisioning=0.25",
                          "map.segment_bytes=2048"})
      c.set(s);
    c.set("ftl.mapping=" + scheme);
    g = read_geometry(c, 4);
    c.set("map.cache_bytes=" + std::to_string(g.logical_units));
    std::vector<Die*> raw;
    for (uint32_t d = 0; d < g.dies; ++d) {
      dies.push_back(std::make_unique<Die>(g, d, true));
      raw.push_back(dies.back().get());
    }
    const MapParams mp = read_map_params(c, g);
    StreamParams sp;
    sp.assign = assign;
    sp.count = assign == "single" ? 0 : 1;
    FrontierLayout layout;
    layout.map = mp.pages_on_flash;
    layout.user = sp.user_streams();
    checker = std::make_unique<IntegrityChecker>(g.logical_units);
    PageFtlParts parts;
    parts.victim = make_victim_policy(victim, g, "ftl.gc_victim");
    parts.layout = layout;
    parts.streams = std::make_unique<Streams>(sp, g.logical_units);
    parts.map = make_map_cache(mp.scheme, mp.cache, "ftl.mapping");
    parts.map_on_flash = mp.pages_on_flash;
    parts.checker = checker.get();
    ftl = std::make_unique<PageFtl>(g, raw, std::move(parts));
  }
  void write(bool fill, double drive_writes, uint64_t seed) {
    UniformWrites w(g.logical_units, seed);
    precondition(ftl->fast_forward(), checker.get(), fill, drive_writes, &w, [](uint64_t, uint64_t) {});
  }
  void save(const std::string& path) {
    SnapshotArchive a = SnapshotArchive::save(path, kKey);
    ftl->snapshot(a, checker.get());
    a.finish();
  }
  void load(const std::string& path, const std::string& key = kKey) {
    SnapshotArchive a = SnapshotArchive::load(path, key);
    ftl->snapshot(a, checker.get());
    a.finish();
  }
};

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

void spit(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

}  // namespace

TEST_CASE("a loaded snapshot is the preconditioned drive: same file saved again, same results after", "[snapshot]") {
  const std::string scheme = GENERATE(as<std::string>{}, "page", "dftl", "ptsd_entry");
  const std::string victim = GENERATE(as<std::string>{}, "greedy", "fifo");
  CAPTURE(scheme, victim);
  test::TempDir dir("snapshot");
  const std::string first = dir.write("a.ssnap", ""), again = dir.write("b.ssnap", "");
  Drive a(scheme, victim), b(scheme, victim);
  a.write(true, 1.5, 5);
  REQUIRE(a.ftl->state().counters().gc_victims > 0);
  a.save(first);
  b.load(first);
  b.save(again);
  CHECK(slurp(first) == slurp(again));
  // Both go on with the same writes: the same GC, the same map, the same counters.
  a.write(false, 1.0, 9);
  b.write(false, 1.0, 9);
  CHECK(a.ftl->state().counters().erases == b.ftl->state().counters().erases);
  CHECK(a.ftl->state().counters().gc_units_moved == b.ftl->state().counters().gc_units_moved);
  CHECK(a.ftl->map_cache().stats().segment_writes == b.ftl->map_cache().stats().segment_writes);
  uint32_t differ = 0;
  for (uint32_t lpn = 0; lpn < a.g.logical_units; ++lpn) differ += a.ftl->state().lookup(lpn) != b.ftl->state().lookup(lpn);
  CHECK(differ == 0);
  CHECK(b.checker->errors() == 0);
  CHECK(b.ftl->state().audit_map(*b.checker, 0));
  a.save(first);
  b.save(again);
  CHECK(slurp(first) == slurp(again));
}

TEST_CASE("a snapshot of another configuration is refused, naming the first key that differs", "[snapshot]") {
  test::TempDir dir("snapshot");
  const std::string path = dir.write("a.ssnap", "");
  Drive a("page", "greedy");
  a.write(true, 0.5, 5);
  a.save(path);
  Drive b("page", "greedy");
  try {
    b.load(path, "geometry.channels=4\nftl.mapping=\"page\"\n");
    FAIL("loaded a snapshot of another configuration");
  } catch (const SnapshotError& e) {
    const std::string what = e.what();
    CHECK(what.find("another configuration") != std::string::npos);
    CHECK(what.find("geometry.channels=4") != std::string::npos);
    CHECK(what.find("geometry.channels=2") != std::string::npos);
  }
}

TEST_CASE("a corrupt or truncated snapshot is refused with SnapshotError", "[snapshot]") {
  test::TempDir dir("snapshot");
  const std::string path = dir.write("a.ssnap", "");
  Drive a("dftl", "greedy");
  a.write(true, 1.0, 5);
  a.save(path);
  const std::string good = slurp(path);
  SECTION("a flipped byte in the map") {
    std::string bad = good;
    bad[bad.size() / 2] ^= 0x10;
    spit(path, bad);
    Drive b("dftl", "greedy");
    CHECK_THROWS_WITH(b.load(path), Catch::Contains("corrupt"));
  }
  SECTION("cut short") {
    spit(path, good.substr(0, good.size() * 2 / 3));
    Drive b("dftl", "greedy");
    CHECK_THROWS_WITH(b.load(path), Catch::Contains("corrupt or truncated"));
  }
  SECTION("not a snapshot") {
    spit(path, std::string(200, 'x'));
    Drive b("dftl", "greedy");
    CHECK_THROWS_WITH(b.load(path), Catch::Contains("bad magic"));
  }
  SECTION("the same key text over another drive (its sections are checked as they are read)") {
    Drive other("page", "greedy");
    CHECK_THROWS_AS(other.load(path), SnapshotError);
  }
}

TEST_CASE("a stream policy whose state a snapshot does not cover is refused at save time", "[snapshot]") {
  test::TempDir dir("snapshot");
  const std::string path = dir.write("a.ssnap", "");
  Drive a("page", "greedy", "autostream");
  a.write(true, 0.2, 5);
  CHECK_THROWS_AS(a.save(path), SnapshotUnsupported);
}
