// The applications that use FDP and ZNS (workload.app.placement, docs/placement.md) through the platform, with
// the integrity checker on: the lsm on a zoned namespace (zone resets, host-side zone GC, device WAF 1), the lsm
// with one RUH per level, the flash cache with its two engines in two RUHs against the same without placement.
#include <catch2/catch.hpp>

#include "platform_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {
// 4 dies of 256 blocks of 16 pages of 8 KiB (128 KiB blocks): 128 MiB of flash.
Config drive(std::initializer_list<std::string> more) {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=256",
                             "geometry.pages_per_block=16", "buffer.bytes=1048576", "check.integrity=true",
                             "workload.pattern=app", "workload.app.age_fraction=0", "workload.app.max_io_bytes=65536",
                             "workload.app.lsm_memtable_bytes=262144", "workload.app.lsm_table_bytes=262144",
                             "workload.app.lsm_reads_per_write=0.5", "host.queues=2", "host.queue_depth=8"});
  for (auto& s : more) c.set(s);
  return c;
}
}  // namespace

TEST_CASE("lsm on ZNS: zone resets and host zone GC, no write off a write pointer, device WAF 1, data intact",
          "[platform][zns][apps][integrity]") {
  RunResult r = run_generic(drive({"zns.enabled=true", "zns.max_open=12", "zns.max_active=12", "host.queues=1",
                                   "workload.app.placement=zns", "workload.app.lsm_db_fraction=0.5",
                                   "workload.app.lsm_compaction_pick=random",
                                   "workload.io_count=60000"}));
  const auto& s = r.summary;
  INFO(s["app"].dump(1));
  INFO(s["zns"].dump(1));
  REQUIRE(r.exit_code == 0);
  CHECK(s["zns"]["failed"] == 0);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 5000);
  CHECK(s["app"]["zone_resets"].get<uint64_t>() > 20);
  CHECK(s["app"]["host_gc"]["written_bytes"].get<uint64_t>() > 0);
  CHECK(s["zns"]["commands"]["resets"].get<uint64_t>() >= s["app"]["zone_resets"].get<uint64_t>());
  CHECK(s["nand"]["gc_units_moved"] == 0);  // no device GC: the host's resets are the only reclaim
  CHECK(s["waf"]["total"].get<double>() < 1.01);
}

TEST_CASE("lsm on FDP: one RUH per level, data intact through controller GC", "[platform][fdp][apps][integrity]") {
  RunResult r = run_generic(drive({"fdp.enabled=true", "fdp.ruhs=8", "workload.app.placement=fdp",
                                   "workload.app.lsm_db_fraction=0.5", "precondition.drive_writes=1",
                                   "workload.io_count=60000"}));
  const auto& s = r.summary;
  INFO(s["fdp"].dump(1));
  REQUIRE(r.exit_code == 0);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 5000);
  CHECK(s["fdp"]["events"]["invalid_placement_identifier"] == 0);
  int used = 0;
  for (auto& h : s["fdp"]["ruh"]) used += h["host_bytes_written"].get<uint64_t>() > 0;
  CHECK(used >= 4);  // WAL, L0, L1, L2 at least
}

TEST_CASE("cache on FDP: SOC and LOC in two RUHs keep their data intact; without placement GC mixes them",
          "[platform][fdp][apps][integrity]") {
  auto run = [](const std::string& placement) {
    return run_generic(drive({"fdp.enabled=true", "fdp.ruhs=2", "fdp.ruh_type=persistently_isolated",
                              "workload.app=cache", "workload.app.placement=" + placement,
                              "workload.app.cache_fraction=0.9", "workload.app.cache_region_bytes=262144",
                              "precondition.drive_writes=1", "workload.io_count=80000"}));
  };
  RunResult fdp = run("fdp"), none = run("none");
  INFO(fdp.summary["fdp"].dump(1));
  INFO(none.summary["fdp"].dump(1));
  for (auto* r : {&fdp, &none}) {
    REQUIRE(r->exit_code == 0);
    CHECK(r->summary["integrity"]["errors"] == 0);
    CHECK(r->summary["integrity"]["checked_reads"].get<uint64_t>() > 5000);
    CHECK(r->summary["nand"]["gc_units_moved"].get<uint64_t>() > 0);
  }
  // Placement: both RUHs written (SOC in handle 1, LOC in handle 0); without it everything goes to the default.
  CHECK(fdp.summary["fdp"]["ruh"][1]["host_bytes_written"].get<uint64_t>() > 0);
  CHECK(fdp.summary["fdp"]["ruh"][0]["host_bytes_written"].get<uint64_t>() > 0);
  CHECK(none.summary["fdp"]["ruh"][1]["host_bytes_written"] == 0);
  CHECK(fdp.summary["waf"]["total"].get<double>() < none.summary["waf"]["total"].get<double>());
}
