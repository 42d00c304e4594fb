// The application models through the command line on a small drive: every app ages the drive in the
// precondition, runs with the integrity checker on and manual streams from its hints, and spreads its writes
// over several streams; then every other stream policy on the apps, and every policy on every app without TRIM,
// where GC relocates data under all of them.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "common/cli_run.h"

using namespace ssdtlm::test;

namespace {

// 2 x 2 dies of 256 blocks of 64 pages of 8 KiB: 512 MiB of flash, 410 MiB logical; 85% aged.
const std::string kDrive =
    "--set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=256 "
    "--set geometry.pages_per_block=64 --set geometry.over_provisioning=0.25 --set buffer.bytes=4194304 "
    "--set check.integrity=true --set streams.count=8 --set streams.assign=manual "
    "--set precondition.fill=false --set precondition.drive_writes=1 --set workload.pattern=app "
    "--set host.queues=4 --set host.queue_depth=8 --set workload.app.age_fraction=0.85 "
    // small apps for the 62 MiB left free
    "--set workload.app.lsm_db_fraction=0.015 --set workload.app.lsm_memtable_bytes=524288 "
    "--set workload.app.lsm_table_bytes=524288 --set workload.app.sqlite_db_fraction=0.04 "
    "--set workload.app.gcc_sources=150 --set workload.app.gcc_source_bytes=8192 --set workload.app.gcc_jobs=4 ";

nlohmann::json run_app(const std::string& app, uint64_t ios, int min_streams, const std::string& policy = "manual",
                       const std::string& extra = "", const std::string& run_name = "") {
  const auto s = run_cli("apps_" + app + "_" + policy + run_name + "_out", kDrive + "--set workload.app=" + app +
                                                                   " --set workload.io_count=" + std::to_string(ios) +
                                                                   " --set streams.assign=" + policy + " " + extra);
  INFO(s.dump(1));
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 0);
  int used = 0;
  uint64_t units = 0;
  for (auto& w : s["streams"]["writes"]) {
    used += w.get<uint64_t>() > 0;
    units += w.get<uint64_t>();
  }
  CHECK(used >= min_streams);
  CHECK(units == s["host"]["bytes_written"].get<uint64_t>() / 4096);
  return s;
}

// The other policies keep every app's data intact too, through GC: the sqlite database (in-place updates)
// is large enough here for GC to relocate data, with internal streams on so that relocations take their own
// frontiers. (The other apps' data dies in whole blocks on this drive: GC finds empty victims.)
const std::string kGcWork = "--set workload.app.sqlite_db_fraction=0.2 --set workload.app.age_fraction=0.7 "
                            "--set streams.internal=true ";

void run_policy(const std::string& app, const std::string& policy, int min_streams) {
  const auto s = run_app(app, 60000, min_streams, policy, app == "sqlite" ? kGcWork : "");
  if (app == "sqlite") CHECK(s["nand"]["gc_units_moved"].get<uint64_t>() > 0);
}

// Without TRIM (freed LBAs reused anywhere, the free space holding old data) GC relocates data under every app:
// every policy, with and without internal streams, keeps every app's data intact through it.
const std::string kNoDiscard = "--set workload.app.trim=false --set workload.app.allocation=spread "
                               "--set precondition.fill=true ";

void run_no_discard(const std::string& app, const std::string& policy, const std::string& internal,
                    const std::string& extra = "", const std::string& run_name = "_no_discard") {
  const auto s =
      run_app(app, 60000, 1, policy, kNoDiscard + "--set streams.internal=" + internal + " " + extra, run_name);
  CHECK(s["nand"]["gc_units_moved"].get<uint64_t>() > 0);
  CHECK(s["integrity"]["gc_copies_checked"].get<uint64_t>() > 0);
}

}  // namespace

// Every policy on every app model (internal streams on for half of them), no TRIM: integrity through GC.
#define NO_DISCARD_CASE(app, policy, internal)                                                             \
  TEST_CASE("app " app " with " policy " without trim (internal " internal "): integrity through GC",   \
            "[platform][apps]") {                                                                         \
    run_no_discard(app, policy, internal);                                                                \
  }
#define NO_DISCARD_APP(app, a, b)            \
  NO_DISCARD_CASE(app, "single", a)          \
  NO_DISCARD_CASE(app, "manual", b)          \
  NO_DISCARD_CASE(app, "autostream", a)      \
  NO_DISCARD_CASE(app, "pcstream", b)        \
  NO_DISCARD_CASE(app, "hotcold", a)
NO_DISCARD_APP("lsm", "true", "false")
NO_DISCARD_APP("sqlite", "false", "true")
NO_DISCARD_APP("gcc", "true", "false")
NO_DISCARD_APP("mixed1", "false", "true")
NO_DISCARD_APP("mixed2", "true", "false")

TEST_CASE("app gcc with pcstream and the table emptied per build: integrity through GC", "[platform][apps]") {
  run_no_discard("gcc", "pcstream", "true", "--set streams.pc_table_reset=run", "_no_discard_reset");
}

TEST_CASE("app lsm on the platform: integrity and manual streams", "[platform][apps]") { run_app("lsm", 60000, 4); }
TEST_CASE("app sqlite on the platform: integrity and manual streams", "[platform][apps]") { run_app("sqlite", 60000, 2); }
TEST_CASE("app gcc on the platform: integrity and manual streams", "[platform][apps]") { run_app("gcc", 60000, 5); }
TEST_CASE("app tpcc on the platform: integrity and manual streams", "[platform][apps][tpcc]") {
  run_app("tpcc", 60000, 3, "manual",
          "--set workload.app.age_fraction=0.5 --set workload.app.tpcc_db_fraction=0.45 --set workload.app.tpcc_log_bytes=4M "
          "--set workload.app.tpcc_pool_bytes=2M");  // one warehouse (about 120 MiB)
}
TEST_CASE("app mixed1 on the platform: integrity and manual streams", "[platform][apps]") { run_app("mixed1", 60000, 6); }
TEST_CASE("app mixed2 on the platform: integrity and manual streams", "[platform][apps]") { run_app("mixed2", 60000, 6); }

TEST_CASE("app sqlite with single: integrity through GC", "[platform][apps]") { run_policy("sqlite", "single", 1); }
TEST_CASE("app sqlite with autostream: integrity through GC", "[platform][apps]") { run_policy("sqlite", "autostream", 2); }
TEST_CASE("app sqlite with pcstream: integrity through GC", "[platform][apps]") { run_policy("sqlite", "pcstream", 2); }
TEST_CASE("app sqlite with hotcold: integrity through GC", "[platform][apps]") { run_policy("sqlite", "hotcold", 2); }
TEST_CASE("app lsm with autostream: integrity", "[platform][apps]") { run_policy("lsm", "autostream", 2); }
TEST_CASE("app lsm with pcstream: integrity", "[platform][apps]") { run_policy("lsm", "pcstream", 4); }
TEST_CASE("app gcc with autostream: integrity", "[platform][apps]") { run_policy("gcc", "autostream", 1); }
TEST_CASE("app gcc with pcstream: integrity", "[platform][apps]") { run_policy("gcc", "pcstream", 3); }
TEST_CASE("app mixed1 with pcstream: integrity", "[platform][apps]") { run_policy("mixed1", "pcstream", 4); }
TEST_CASE("app mixed2 with pcstream: integrity", "[platform][apps]") { run_policy("mixed2", "pcstream", 3); }
TEST_CASE("app mixed1 with hotcold: integrity", "[platform][apps]") { run_policy("mixed1", "hotcold", 2); }
