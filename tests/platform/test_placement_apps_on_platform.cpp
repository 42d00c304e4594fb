// The applications that use FDP and ZNS (workload.app.placement, docs/reference/placement.md) through the command line, with
// the integrity checker on: the lsm on a zoned namespace (zone resets, host-side zone GC, no write off a write
// pointer), the lsm with one RUH per level, the flash cache with its two engines in two RUHs against the same
// without placement (controller GC in both).
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "common/cli_run.h"

using namespace ssdtlm::test;

namespace {
// 4 dies of 256 blocks of 16 pages of 8 KiB (128 KiB blocks): 128 MiB of flash.
const std::string kDrive =
    "--set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=256 "
    "--set geometry.pages_per_block=16 --set buffer.bytes=1048576 --set check.integrity=true "
    "--set workload.pattern=app --set workload.app.age_fraction=0 --set workload.app.max_io_bytes=65536 "
    "--set workload.app.lsm_memtable_bytes=262144 --set workload.app.lsm_table_bytes=262144 "
    "--set workload.app.lsm_reads_per_write=0.5 --set host.queues=2 --set host.queue_depth=8 "
    "--set precondition.fill=false ";

nlohmann::json run(const std::string& name, const std::string& args) {
  const auto s = run_cli("placement_apps_" + name + "_out", kDrive + args);
  INFO(s.dump(1));
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 5000);
  return s;
}
}  // namespace

TEST_CASE("lsm on ZNS: zone resets and host zone GC, no write off a write pointer, data intact",
          "[platform][zns][apps][integrity]") {
  const auto s = run("zns", "--set zns.enabled=true --set zns.max_open=12 --set zns.max_active=12 --set host.queues=1 "
                            "--set workload.app.placement=zns --set workload.app.lsm_db_fraction=0.5 "
                            "--set workload.app.lsm_compaction_pick=random --set workload.io_count=60000");
  INFO(s["app"].dump(1));
  INFO(s["zns"].dump(1));
  CHECK(s["zns"]["failed"] == 0);
  CHECK(s["app"]["zone_resets"].get<uint64_t>() > 20);
  CHECK(s["app"]["host_gc"]["written_bytes"].get<uint64_t>() > 0);
  CHECK(s["app"]["host_gc"]["written_bytes"] == s["app"]["host_gc"]["read_bytes"]);
  // Every reset the app issued reached the drive (but those still queued when the run ended at io_count).
  const uint64_t resets = s["zns"]["commands"]["resets"], issued = s["app"]["zone_resets"];
  CHECK(resets <= issued);
  CHECK(resets * 100 >= issued * 95);
  // No device GC but for the part-written blocks zones leave on some dies (docs/reference/placement.md, Limits).
  CHECK(s["nand"]["gc_units_moved"].get<uint64_t>() * 100 < s["ftl"]["flushed_units"].get<uint64_t>());
  CHECK(s["waf"]["total"].get<double>() < 1.01);
}

TEST_CASE("lsm on ZNS as ZenFS: it finishes zones past its finish threshold and closes its tables' zones (issue 44)",
          "[platform][zns][apps][integrity]") {
  // ZenFS's finish_threshold (25 % of a zone left: Finish) and Zone::Close when a file is closed (a table written):
  // Zone Management Send commands the drive takes without a failure, the data intact.
  const auto s = run("zns_mgmt", "--set zns.enabled=true --set zns.max_open=12 --set zns.max_active=12 --set host.queues=1 "
                                 "--set workload.app.placement=zns --set workload.app.lsm_db_fraction=0.5 "
                                 "--set workload.app.zone_finish_threshold=25 --set workload.app.zone_close=true "
                                 "--set workload.io_count=30000");
  INFO(s["app"].dump(1));
  INFO(s["zns"].dump(1));
  CHECK(s["zns"]["failed"] == 0);
  const uint64_t finishes = s["app"]["zone_finishes"], closes = s["app"]["zone_closes"];
  CHECK(finishes > 5);
  CHECK(closes > 20);
  // What the app issued reached the drive (but those still queued when the run ended).
  CHECK(s["zns"]["commands"]["finishes"].get<uint64_t>() <= finishes);
  CHECK(s["zns"]["commands"]["finishes"].get<uint64_t>() * 100 >= finishes * 90);
  CHECK(s["zns"]["commands"]["closes"].get<uint64_t>() > 0);
  CHECK(s["zns"]["host_zone_commands"].get<uint64_t>() >= s["zns"]["commands"]["finishes"].get<uint64_t>());
}

TEST_CASE("lsm on FDP: one RUH per level, data intact through controller GC", "[platform][fdp][apps][integrity]") {
  const auto s = run("lsm_fdp", "--set fdp.enabled=true --set fdp.ruhs=8 --set workload.app.placement=fdp "
                                "--set workload.app.lsm_db_fraction=0.5 --set workload.app.lsm_compaction_pick=random "
                                "--set precondition.drive_writes=1 --set workload.io_count=60000");
  INFO(s["fdp"].dump(1));
  CHECK(s["fdp"]["events"]["invalid_placement_identifier"] == 0);
  int used = 0;
  for (auto& h : s["fdp"]["ruh"]) used += h["host_bytes_written"].get<uint64_t>() > 0;
  CHECK(used >= 4);  // WAL, L0, L1, L2 at least
}

TEST_CASE("cache on FDP: SOC and LOC in two RUHs keep their data intact, without placement GC mixes them",
          "[platform][fdp][apps][integrity]") {
  const std::string cache = "--set fdp.enabled=true --set fdp.ruhs=2 --set workload.app=cache "
                            "--set workload.app.cache_fraction=0.9 --set workload.app.cache_region_bytes=262144 "
                            "--set precondition.drive_writes=1 --set workload.io_count=80000 ";
  const auto fdp = run("cache_fdp", cache + "--set workload.app.placement=fdp");
  const auto none = run("cache_none", cache + "--set workload.app.placement=none");
  INFO(fdp["fdp"].dump(1));
  INFO(none["fdp"].dump(1));
  CHECK(none["nand"]["gc_units_moved"].get<uint64_t>() > 0);
  // Placement: both RUHs written (SOC in handle 1, LOC in handle 0); without it everything goes to the default.
  CHECK(fdp["fdp"]["ruh"][1]["host_bytes_written"].get<uint64_t>() > 0);
  CHECK(fdp["fdp"]["ruh"][0]["host_bytes_written"].get<uint64_t>() > 0);
  CHECK(none["fdp"]["ruh"][1]["host_bytes_written"] == 0);
  CHECK(fdp["waf"]["total"].get<double>() < none["waf"]["total"].get<double>());
}
