// map.gc_update on the timed platform: DFTL's batch update of GC moves (victim) against one update per GC
// page (page), integrity for every scheme either way (and with GC's map updates free, an experiment), and the
// per-job read-path split (jobs[i].read_paths).
#include <catch2/catch.hpp>

#include <string>

#include "common/cli_run.h"
#include "platform_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

// 8 dies, 64 blocks of 64 8 KiB pages (128 units a block), 52,428 logical units; 8 KiB segments of 2,048
// entries: 26 segments (6 cached), so a victim's moves share segments (what a batch update saves).
const std::string kDrive =
    "--set geometry.channels=4 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=64 "
    "--set geometry.pages_per_block=64 --set geometry.over_provisioning=0.25 --set buffer.bytes=1048576 "
    "--set host.queues=4 --set host.queue_depth=16 --set map.segment_bytes=8192 --set map.cache_bytes=49152 "
    "--set workload.read_fraction=0.5 --set workload.io_count=100000 --set precondition.drive_writes=1 "
    "--set check.integrity=true";

RunResult run(const std::string& scheme, const std::string& gc_update) {
  Config c = generic_config({"geometry.channels=4", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "geometry.over_provisioning=0.25", "buffer.bytes=1048576",
                             "host.queues=4", "host.queue_depth=16", "map.segment_bytes=8192", "map.cache_bytes=49152",
                             "ftl.mapping=" + scheme, "map.gc_update=" + gc_update, "workload.read_fraction=0.5",
                             "workload.io_count=100000", "precondition.drive_writes=1"});
  return run_generic(c);
}

void check_integrity(const nlohmann::json& s) {
  INFO(s["integrity"].dump());
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() >= s["host"]["read_ios"].get<uint64_t>());
  CHECK(s["integrity"]["erases_checked"].get<uint64_t>() > 0);
  CHECK(s["nand"]["gc_units_moved"].get<uint64_t>() > 0);
}

// Segments written back on GC's map updates per unit GC moved.
double gc_writes_per_move(const nlohmann::json& s) {
  return s["map"]["gc_segment_writes"].get<double>() / s["nand"]["gc_units_moved"].get<double>();
}

}  // namespace

TEST_CASE("map.gc_update=victim: DFTL's batch update writes back fewer segments per GC-moved unit", "[platform][mapping][gc]") {
  // Two simulations: two processes (SystemC elaborates one per process).
  const nlohmann::json page = run_cli("gc_update_page", kDrive + " --set ftl.mapping=dftl --set map.gc_update=page");
  const nlohmann::json victim = run_cli("gc_update_victim", kDrive + " --set ftl.mapping=dftl --set map.gc_update=victim");
  check_integrity(page);
  check_integrity(victim);
  CHECK(page["map"]["gc_update"] == "page");
  CHECK(victim["map"]["gc_update"] == "victim");
  const double p = gc_writes_per_move(page), v = gc_writes_per_move(victim);
  INFO("write-backs per GC-moved unit: page " << p << ", victim " << v);
  CHECK(p > 0.0);
  CHECK(v < p);
  // One batch update per segment a victim's moves touch: fewer updates than moves (segments are shared).
  CHECK(victim["map"]["gc_segment_updates"].get<uint64_t>() < victim["nand"]["gc_units_moved"].get<uint64_t>());
  // page: one update per segment of each GC page (a page's two units may share one).
  CHECK(page["map"]["gc_segment_updates"].get<uint64_t>() * 2 >= page["nand"]["gc_units_moved"].get<uint64_t>());
}

TEST_CASE("map.gc_update=free as an experiment: GC map updates write nothing back and integrity holds", "[platform][mapping][gc][integrity]") {
  // Two simulations: two processes.
  const nlohmann::json dftl = run_cli("gc_update_free_dftl", kDrive + " --set ftl.mapping=dftl --set map.gc_update=free");
  const nlohmann::json ptsd = run_cli("gc_update_free_ptsd", kDrive + " --set ftl.mapping=ptsd --set map.gc_update=free");
  for (const nlohmann::json* s : {&dftl, &ptsd}) {
    check_integrity(*s);
    CHECK((*s)["map"]["gc_update"] == "free");
    CHECK((*s)["map"]["gc_segment_updates"].get<uint64_t>() > 0);
    CHECK((*s)["map"]["gc_segment_writes"].get<uint64_t>() == 0);
  }
}

TEST_CASE("map.gc_update=victim: ptsd keeps integrity", "[platform][mapping][gc][integrity]") {
  check_integrity(run("ptsd", "victim").summary);
}
TEST_CASE("map.gc_update=page: ptsd keeps integrity", "[platform][mapping][gc][integrity]") {
  check_integrity(run("ptsd", "page").summary);
}
TEST_CASE("map.gc_update=victim: ptsd_entry keeps integrity", "[platform][mapping][gc][integrity]") {
  check_integrity(run("ptsd_entry", "victim").summary);
}
TEST_CASE("map.gc_update=page: ptsd_entry keeps integrity", "[platform][mapping][gc][integrity]") {
  check_integrity(run("ptsd_entry", "page").summary);
}
TEST_CASE("map.gc_update: the page map has nothing to batch", "[platform][mapping][gc][integrity]") {
  const auto s = run("page", "victim").summary;
  check_integrity(s);
  CHECK(s["map"]["gc_update"] == "page");
  CHECK(s["nand"]["programs"]["md"] == 0);
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
