// map.gc_update on the timed platform: DFTL's batch update of GC moves (victim) against one update per GC
// page (page), integrity for every scheme either way, and the per-job read-path split (jobs[i].read_paths).
#include <catch2/catch.hpp>

#include <string>

#include "platform_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

// 8 dies, 64 blocks of 64 8 KiB pages (128 units a block), 52,428 logical units; 8 KiB segments of 2,048
// entries: 26 segments, so a victim's moves share segments (what a batch update saves).
RunResult run(const std::string& scheme, const std::string& gc_update, std::initializer_list<std::string> extra = {}) {
  Config c = generic_config({"geometry.channels=4", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "geometry.over_provisioning=0.25", "buffer.bytes=1048576",
                             "host.queues=4", "host.queue_depth=16", "map.segment_bytes=8192", "map.cache_bytes=49152",
                             "ftl.mapping=" + scheme, "map.gc_update=" + gc_update, "workload.read_fraction=0.5",
                             "workload.io_count=100000", "precondition.drive_writes=1"});
  for (auto& s : extra) c.set(s);
  return run_generic(c);
}

void check_integrity(const RunResult& r) {
  const auto& s = r.summary;
  INFO(s["integrity"].dump());
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() >= s["host"]["read_ios"].get<uint64_t>());
  CHECK(s["integrity"]["erases_checked"].get<uint64_t>() > 0);
  CHECK(s["nand"]["gc_units_moved"].get<uint64_t>() > 0);
}

// Segments written back on GC's map updates per unit GC moved.
double gc_writes_per_move(const RunResult& r) {
  return r.summary["map"]["gc_segment_writes"].get<double>() / r.summary["nand"]["gc_units_moved"].get<double>();
}

}  // namespace

TEST_CASE("map.gc_update=victim: DFTL's batch update writes back fewer segments per GC-moved unit", "[platform][mapping][gc]") {
  RunResult page = run("dftl", "page"), victim = run("dftl", "victim");
  check_integrity(page);
  check_integrity(victim);
  CHECK(page.summary["map"]["gc_update"] == "page");
  CHECK(victim.summary["map"]["gc_update"] == "victim");
  const double p = gc_writes_per_move(page), v = gc_writes_per_move(victim);
  INFO("write-backs per GC-moved unit: page " << p << ", victim " << v);
  CHECK(p > 0.0);
  CHECK(v < p);
  // One batch update per segment touched by a victim: fewer updates than moves (segments are shared).
  CHECK(victim.summary["map"]["gc_segment_updates"].get<uint64_t>() <
        victim.summary["nand"]["gc_units_moved"].get<uint64_t>());
}

TEST_CASE("map.gc_update: integrity for ptsd and ptsd_entry either way, page map unaffected", "[platform][mapping][gc][integrity]") {
  for (const char* scheme : {"ptsd", "ptsd_entry"})
    for (const char* mode : {"victim", "page"}) {
      INFO(scheme << " " << mode);
      check_integrity(run(scheme, mode));
    }
  RunResult a = run("page", "victim"), b = run("page", "page");
  check_integrity(a);
  CHECK(a.summary["map"]["gc_update"] == "page");  // the whole map is in DRAM: nothing to batch
  CHECK(a.summary["nand"] == b.summary["nand"]);
}

TEST_CASE("jobs[i].read_paths: per-job read-path split of a write phase then a read phase", "[platform][mapping][report]") {
  Config c = generic_config({"geometry.channels=4", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "geometry.over_provisioning=0.25", "buffer.bytes=1048576",
                             "map.segment_bytes=512", "map.cache_bytes=20480", "ftl.mapping=dftl",
                             "precondition.drive_writes=0.5"});
  c.merge_text(R"({"jobs": [
      {"name": "write", "queues": 1, "queue_depth": 32, "read_fraction": 0, "io_count": 30000},
      {"name": "read", "queues": 1, "queue_depth": 32, "read_fraction": 1, "io_count": 20000, "stonewall": true}]})",
               "jobs.json");
  RunResult r = run_generic(c);
  const auto& s = r.summary;
  REQUIRE(s["jobs"].size() == 2);
  const char* paths[] = {"buffer", "data", "map_read", "map_write", "gc_wait"};
  uint64_t total[2] = {0, 0};
  for (int j = 0; j < 2; ++j)
    for (const char* p : paths) {
      const auto& e = s["jobs"][j]["read_paths"][p];
      total[j] += e["count"].get<uint64_t>();
      // The jobs' counts add up to the host's, path by path.
      CHECK(s["jobs"][0]["read_paths"][p]["count"].get<uint64_t>() + s["jobs"][1]["read_paths"][p]["count"].get<uint64_t>() ==
            s["host"]["read_paths"][p]["count"].get<uint64_t>());
      if (e["count"].get<uint64_t>() == 0) CHECK(e["mean_us"].get<double>() == 0.0);
    }
  CHECK(total[0] == 0);  // the write job reads nothing
  CHECK(total[1] == 20000);
  CHECK(s["jobs"][1]["read_paths"]["map_read"]["count"].get<uint64_t>() > 0);
  // The read job starts after the writes (stonewall): its latencies are its own.
  CHECK(s["jobs"][1]["start_s"].get<double>() >= s["jobs"][0]["span_s"].get<double>());
  CHECK(s["integrity"]["errors"] == 0);
}
