// Demand-based mapping on the timed platform: the measured hit ratio against min(1, C/M) under uniform
// random reads, integrity for every scheme through buffer, map cache, data GC and map-block GC, and
// the program accounting UD + MD + GUD + GMD.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "platform_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

// 8 dies, 64 blocks of 64 8 KiB pages: 52,428 logical units, a 209,712-byte map in 410 segments of 512 B.
Config small_drive(std::initializer_list<std::string> sets) {
  Config c = generic_config({"geometry.channels=4", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "geometry.over_provisioning=0.25", "map.segment_bytes=512",
                             "buffer.bytes=1048576", "host.queues=4", "host.queue_depth=16"});
  for (auto& s : sets) c.set(s);
  return c;
}

void check_hit_ratio(uint32_t divisor) {
  const uint64_t map_bytes = 52428ull * 4;
  Config c = small_drive({"ftl.mapping=dftl", "map.cache_bytes=" + std::to_string(map_bytes / divisor),
                          "workload.read_fraction=1", "workload.io_count=40000", "precondition.drive_writes=0"});
  RunResult r = run_generic(c);
  const auto& m = r.summary["map"];
  REQUIRE(m["segments"] == 410);
  // The cache holds whole segments: C/M is the cached share of the segments.
  const double expected = std::min(1.0, m["cache_segments"].get<double>() / m["segments"].get<double>());
  const double measured = m["hit_ratio"].get<double>();
  INFO("cache = map / " << divisor << ": hit ratio " << measured << ", expected " << expected);
  CHECK(std::abs(measured - expected) <= 0.02);
  CHECK(m["read_misses"].get<uint64_t>() + m["read_hits"].get<uint64_t>() == 40000);
  CHECK(r.summary["nand"]["reads"]["map"] == m["read_misses"]);  // every miss of a written segment reads it
  CHECK(r.summary["integrity"]["errors"] == 0);
}

// Mixed random reads and writes, long enough for GC of data and of map blocks.
RunResult mixed(const std::string& scheme, std::initializer_list<std::string> extra = {}) {
  Config c = small_drive({"ftl.mapping=" + scheme, "map.cache_bytes=20480", "workload.read_fraction=0.5",
                          "workload.io_count=150000", "precondition.drive_writes=1"});
  for (auto& s : extra) c.set(s);
  return run_generic(c);
}

void check_mixed(const RunResult& r, bool demand, bool map_gc = true, bool loads = true) {
  const auto& s = r.summary;
  INFO(s.dump(1));
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() >= s["host"]["read_ios"].get<uint64_t>());
  const auto& prog = s["nand"]["programs"];
  const uint64_t ud = prog["ud"], md = prog["md"], gud = prog["gud"], gmd = prog["gmd"];
  CHECK(s["nand"]["gc_victims"].get<uint64_t>() > 100);
  // What the FTL issued, by kind, against what the dies programmed (a few may be in flight at the end).
  const uint64_t issued = ud + md + gud + gmd, done = s["nand"]["array_ops"]["programs"];
  CHECK(done <= issued);
  CHECK(issued - done <= 8 * 4);
  const double waf = s["waf"]["total"], parts = double(s["waf"]["ud"]) + double(s["waf"]["md"]) +
                                                 double(s["waf"]["gud"]) + double(s["waf"]["gmd"]);
  CHECK(waf == Approx(parts));
  if (demand) {
    CHECK(md > 0);
    if (map_gc) CHECK(gmd > 0);  // map blocks were collected with live segments in them
    CHECK(s["map"]["segment_writes"].get<uint64_t>() >= md);  // a map page carries one or more segments
    if (loads) CHECK(s["nand"]["reads"]["map"].get<uint64_t>() > 0);
    else CHECK(s["nand"]["reads"]["map"] == 0);  // the whole map is in DRAM
  } else {
    CHECK(md == 0);
    CHECK(gmd == 0);
    CHECK(s["nand"]["reads"]["map"] == 0);
  }
}

}  // namespace

TEST_CASE("map hit ratio under uniform reads with a cache of map/64", "[platform][mapping]") { check_hit_ratio(64); }
TEST_CASE("map hit ratio under uniform reads with a cache of map/16", "[platform][mapping]") { check_hit_ratio(16); }
TEST_CASE("map hit ratio under uniform reads with a cache of map/4", "[platform][mapping]") { check_hit_ratio(4); }
TEST_CASE("map hit ratio under uniform reads with a cache of map/2", "[platform][mapping]") { check_hit_ratio(2); }
TEST_CASE("map hit ratio under uniform reads with a cache of the whole map", "[platform][mapping]") { check_hit_ratio(1); }

TEST_CASE("page mapping: integrity and no map traffic", "[platform][mapping][integrity]") { check_mixed(mixed("page"), false); }

TEST_CASE("dftl: integrity through map cache and data and map GC, reads wait for map writes", "[platform][mapping][integrity]") {
  RunResult r = mixed("dftl");
  check_mixed(r, true);
  CHECK(r.summary["host"]["read_paths"]["map_write"]["count"].get<uint64_t>() > 0);
}

TEST_CASE("ptsd: integrity and no read ever waits for a map write", "[platform][mapping][integrity]") {
  RunResult r = mixed("ptsd");
  check_mixed(r, true);
  CHECK(r.summary["host"]["read_paths"]["map_write"]["count"] == 0);
  CHECK(r.summary["host"]["read_paths"]["map_read"]["count"].get<uint64_t>() > 0);
  CHECK(r.summary["map"]["dirty"]["evictions"].get<uint64_t>() > 0);
}

TEST_CASE("ptsd_entry with read-priority scheduling: integrity and batch updates carry many entries", "[platform][mapping][integrity]") {
  RunResult r = mixed("ptsd_entry", {"sched.policy=read_priority"});
  check_mixed(r, true);
  CHECK(r.summary["host"]["read_paths"]["map_write"]["count"] == 0);
  CHECK(r.summary["ftl"]["write_stops"].get<uint64_t>() > 0);
  CHECK(r.summary["map"]["batch_entries_mean"].get<double>() > 2.0);
  CHECK(r.summary["map"]["write_misses"] == 0);
}

TEST_CASE("ptsd_entry with lru batch victims keeps integrity", "[platform][mapping][integrity]") {
  check_mixed(mixed("ptsd_entry", {"map.dirty_victim=lru"}), true);
}

namespace {
// Seed 000's setting on the small drive: the page map with 5 % of its 410 segments protected, random
// writes on a quarter of the drive (as seed 000 writes 4 GiB of 16) with some GC, a 16 MiB buffer
// (4,096 units, about 40 per segment of the area).
RunResult protected_map(const std::string& policy) {
  Config c = small_drive({"ftl.mapping=page", "map.protected_ratio=0.05", "buffer.bytes=16777216",
                          "buffer.policy=" + policy, "buffer.max_age_ms=10000", "workload.read_fraction=0.3", "workload.io_count=150000",
                          "workload.address_range=53687091", "precondition.fill=false", "precondition.drive_writes=2"});
  return run_generic(c);
}
}  // namespace

TEST_CASE("fifo with a partly protected page map: a write-back for almost every flushed unit", "[platform][mapping][hexa]") {
  RunResult r = protected_map("fifo");
  check_mixed(r, true, false, false);
  CHECK(r.summary["map"]["dirty_segments"].get<uint32_t>() <= 21);  // ceil(0.05 x 410)
  CHECK(r.summary["map"]["batch_entries_mean"].get<double>() < 1.5);
}

TEST_CASE("hexa with a partly protected page map keeps integrity and its write-backs carry many entries", "[platform][mapping][hexa]") {
  RunResult r = protected_map("hexa");
  check_mixed(r, true, false, false);
  CHECK(r.summary["map"]["dirty_segments"].get<uint32_t>() <= 21);
  CHECK(r.summary["map"]["batch_entries_mean"].get<double>() > 8.0);
  CHECK(r.summary["map"]["buffer_aged_picks"] == 0);
}
