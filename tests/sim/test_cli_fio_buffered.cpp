// fio's direct=0 (its default) through the block device's page cache, run from a job file as a user does: what the
// drive sees is whole pages, syncs are writeback + Flush, and direct=1 keeps the job's own sizes.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli_run.h"

using ssdtlm::test::run_in;
using ssdtlm::test::slurp;
namespace fs = std::filesystem;

namespace {
struct LogEntry {
  int dir;
  uint64_t bs, offset;
};

// fio's latency log with log_offset=1: time, value, direction, block size, offset, priority.
std::vector<LogEntry> read_log(const std::string& path) {
  std::vector<LogEntry> v;
  std::istringstream in(slurp(path));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<uint64_t> f;
    std::istringstream l(line);
    std::string cell;
    while (std::getline(l, cell, ',')) f.push_back(std::stoull(cell));
    REQUIRE(f.size() >= 5);
    v.push_back({int(f[2]), f[3], f[4]});
  }
  return v;
}

// The time (ms from the job's start) of the first write in a latency log (time, value, direction, ...).
uint64_t first_write_ms(const std::string& path) {
  std::istringstream in(slurp(path));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string time, value, dir;
    std::getline(l, time, ',');
    std::getline(l, value, ',');
    std::getline(l, dir, ',');
    if (std::stoi(dir) == 1) return std::stoull(time);
  }
  return ~uint64_t(0);
}

const std::string kEtcd =
    "[etcd]\nrw=write\nioengine=sync\nfdatasync=1\nsize=256k\nbs=2300\n"
    "write_lat_log=lat\nlog_offset=1\n";
}  // namespace

TEST_CASE("cli: fio direct=0 sends 2,300-byte buffered writes to the drive as whole pages, fdatasync as writeback + Flush",
          "[cli][fio][buffered]") {
  const std::string dir = "cli_fio_buffered";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir + "/etcd.fio") << kEtcd;
  const auto r = run_in(dir, "--quiet --out out --fio etcd.fio" + ssdtlm::test::kSmallDrive);
  REQUIRE(r.code == 0);
  const auto s = nlohmann::json::parse(slurp(dir + "/out/summary.json"));
  REQUIRE(s.contains("page_cache"));
  const auto& pc = s["page_cache"];
  const uint64_t writes = pc["writes"];
  CHECK(writes == 114);  // 256 KiB / 2,300 B, rounded up (the last request is not shortened)
  CHECK(pc["write_bytes"] == writes * 2300);
  CHECK(pc["flushes"] == writes);
  // Pages 0..63 (the 256 KiB), each first touched in part, are read first; the 114th write runs past the end and
  // wraps to byte 0 (a page already cached).
  CHECK(pc["rmw_read_bytes"].get<uint64_t>() == 64 * 4096);
  const auto log = read_log(dir + "/out/lat_lat.1.log");
  uint64_t drive_writes = 0, drive_reads = 0, written = 0;
  for (const LogEntry& e : log) {
    if (e.dir == 2) continue;  // the syncs
    CHECK(e.bs % 4096 == 0);
    CHECK(e.offset % 4096 == 0);
    if (e.dir == 1) ++drive_writes, written += e.bs;
    if (e.dir == 0) ++drive_reads;
  }
  CHECK(drive_writes == writes);  // one run of dirty pages per fdatasync
  CHECK(drive_reads == 64);
  CHECK(written == pc["sync_bytes"].get<uint64_t>());
  const auto fio = nlohmann::json::parse(slurp(dir + "/out/fio.json"));
  CHECK(fio["jobs"][0]["sync"]["total_ios"] == writes);

  // direct=1: no page cache, the drive gets the job's 2,300-byte writes.
  std::ofstream(dir + "/direct.fio") << kEtcd << "direct=1\n";
  const auto d = run_in(dir, "--quiet --out out_direct --fio direct.fio" + ssdtlm::test::kSmallDrive);
  REQUIRE(d.code == 0);
  CHECK_FALSE(nlohmann::json::parse(slurp(dir + "/out_direct/summary.json")).contains("page_cache"));
  const auto dlog = read_log(dir + "/out_direct/lat_lat.1.log");
  uint64_t direct_writes = 0;
  for (const LogEntry& e : dlog)
    if (e.dir == 1) {
      ++direct_writes;
      CHECK(e.bs == 2300);
    }
  CHECK(direct_writes == writes);
}

TEST_CASE("cli: fio buffered writes without a sync reach the drive when the job ends, zoned buffered writes are refused",
          "[cli][fio][buffered]") {
  const std::string dir = "cli_fio_buffered_end";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // 4 KiB random writes over 1 MiB, 4 MiB of them: each page dirtied about four times, written once at the end.
  std::ofstream(dir + "/rand.fio") << "[r]\nrw=randwrite\nsize=1m\nio_size=4m\nbs=4k\nioengine=libaio\niodepth=8\n";
  const auto r = run_in(dir, "--quiet --out out --fio rand.fio" + ssdtlm::test::kSmallDrive);
  REQUIRE(r.code == 0);
  const auto s = nlohmann::json::parse(slurp(dir + "/out/summary.json"));
  const auto& pc = s["page_cache"];
  CHECK(pc["write_bytes"] == 4u << 20);
  CHECK(pc["flushes"] == 0);
  CHECK(pc["sync_bytes"] == 1u << 20);  // every page of the 1 MiB once (random without repeats covers it all)
  CHECK(pc["dirty_bytes_left"] == 0);
  CHECK(s["host"]["bytes_written"] == 1u << 20);

  std::ofstream(dir + "/zbd.fio") << "[z]\nrw=write\nzonemode=zbd\nsize=1m\n";
  const auto z = run_in(dir, "--quiet --out out_z --fio zbd.fio" + ssdtlm::test::kSmallDrive +
                                 " --set zns.enabled=true");
  CHECK(z.code == 2);
  CHECK(z.err.find("zbd.fio:3") != std::string::npos);
  CHECK(z.err.find("Using direct I/O is mandatory") != std::string::npos);
}

TEST_CASE("cli: a time-based buffered job: the flusher writes expired pages in simulated time, the close the rest",
          "[cli][fio][buffered]") {
  const std::string dir = "cli_fio_buffered_time";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Random 4 KiB reads and writes over 64 MiB for 200 ms: the reads miss (the drive's time passes), the writes stay
  // dirty under the background threshold, with no sync.
  std::ofstream(dir + "/rw.fio") << "[rw]\nrw=randrw\nsize=64m\nbs=4k\nioengine=libaio\niodepth=4\n"
                                    "time_based\nruntime=200ms\nwrite_lat_log=lat\n";
  // Linux's defaults (30 s expiry, 5 s flusher): nothing expires in 200 ms; the runtime's end closes the device
  // and its last close writes every dirty page (no Flush without end_fsync).
  const auto d = run_in(dir, "--quiet --out out --fio rw.fio" + ssdtlm::test::kSmallDrive);
  REQUIRE(d.code == 0);
  const auto ds = nlohmann::json::parse(slurp(dir + "/out/summary.json"));
  const auto& dpc = ds["page_cache"];
  CHECK(dpc["expired_bytes"] == 0);
  CHECK(dpc["flusher_wakes"] == 0);
  CHECK(dpc["close_bytes"].get<uint64_t>() > 0);
  CHECK(dpc["close_bytes"] == dpc["sync_bytes"]);
  CHECK(dpc["dirty_bytes_left"] == 0);
  CHECK(dpc["flushes"] == 0);
  CHECK(ds["integrity"]["errors"] == 0);
  // fio's runtime ends at the cut, before the close: the close's writes are the drive's, not the job's.
  CHECK(ds["host"]["bytes_written"] == 0);
  CHECK(ds["host"]["after_runtime"]["bytes_written"] == dpc["close_bytes"]);
  CHECK_FALSE(ds["host"].contains("ramp"));

  // A 50 ms expiry and a 10 ms flusher (the vm sysctls scaled down): the flusher writes the inode every time it
  // has been dirty 50 ms, the close the pages dirtied since; every dirtied page reaches the drive once per
  // writeback, and end_fsync adds one Flush after the close's writes.
  std::ofstream(dir + "/rw_sync.fio") << "[rw]\nrw=randrw\nsize=64m\nbs=4k\nioengine=libaio\niodepth=4\n"
                                         "time_based\nruntime=200ms\nend_fsync=1\nwrite_lat_log=lat\n";
  const auto t = run_in(dir, "--quiet --out out_t --fio rw_sync.fio --set workload.dirty_expire_ms=50 "
                             "--set workload.dirty_writeback_ms=10" + ssdtlm::test::kSmallDrive);
  REQUIRE(t.code == 0);
  const auto ts = nlohmann::json::parse(slurp(dir + "/out_t/summary.json"));
  const auto& pc = ts["page_cache"];
  const uint64_t expired = pc["expired_bytes"], closed = pc["close_bytes"];
  CHECK(expired > 0);
  CHECK(closed > 0);
  // The first write reaches the drive at the first 10 ms wake (on the run's clock) after the inode has been dirty
  // 50 ms, the inode dirtied by the job's first write: no write before 50 ms of the job; the inode is dirty again
  // from the next write after it: at most one writeback per 50-60 ms of the 200.
  CHECK(pc["flusher_wakes"].get<uint64_t>() >= 1);
  CHECK(pc["flusher_wakes"].get<uint64_t>() <= 3);
  CHECK(first_write_ms(dir + "/out_t/lat_lat.1.log") >= 50);
  CHECK(first_write_ms(dir + "/out_t/lat_lat.1.log") < 70);  // and by the wake after it
  CHECK(first_write_ms(dir + "/out/lat_lat.1.log") == ~uint64_t(0));  // Linux's defaults: only at the close
  CHECK(pc["flushes"] == 1);  // end_fsync after the close's writes
  CHECK(pc["dirty_bytes_left"] == 0);
  CHECK(ts["integrity"]["errors"] == 0);
  // With end_fsync the close's writes are the job's; the flusher's completing after the cut are not.
  const uint64_t after = ts["host"].contains("after_runtime") ? ts["host"]["after_runtime"]["bytes_written"].get<uint64_t>() : 0;
  CHECK(after <= expired);
  CHECK(ts["host"]["bytes_written"].get<uint64_t>() + after ==
        expired + pc["sync_bytes"].get<uint64_t>() + pc["flusher_bytes"].get<uint64_t>());
}

TEST_CASE("cli: SPDK's initial_zone_reset: the zones are reset before the job's clock, outside its statistics",
          "[cli][fio][zbd]") {
  const std::string dir = "cli_fio_initial_reset";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string job = "[z]\nioengine=spdk_bdev\nrw=randwrite\nbs=16k\ndirect=1\nzonemode=zbd\nmax_open_zones=8\n"
                          "zone_append=1\niodepth=8\ntime_based\nruntime=2ms\n";
  std::ofstream(dir + "/reset.fio") << job << "initial_zone_reset=1\n";
  std::ofstream(dir + "/plain.fio") << job;
  const auto r = run_in(dir, "--quiet --out out --fio reset.fio --set zns.enabled=true" + ssdtlm::test::kSmallDrive);
  const auto p = run_in(dir, "--quiet --out out_p --fio plain.fio --set zns.enabled=true" + ssdtlm::test::kSmallDrive);
  REQUIRE(r.code == 0);
  REQUIRE(p.code == 0);
  const auto f = nlohmann::json::parse(slurp(dir + "/out/fio.json"));
  const auto pf = nlohmann::json::parse(slurp(dir + "/out_p/fio.json"));
  const auto& j = f["jobs"][0];
  const auto& pj = pf["jobs"][0];
  CHECK(j["zone_resets"] == 0);        // the plugin's set-up, not fio's zbd resets
  CHECK(j["trim"]["total_ios"] == 0);  // nor the job's trims
  // The job's clock starts after the resets: the same writes in the same runtime as without them (fresh zones).
  CHECK(j["write"]["total_ios"] == pj["write"]["total_ios"]);
  CHECK(j["job_runtime"] == pj["job_runtime"]);
  const auto s = nlohmann::json::parse(slurp(dir + "/out/summary.json"));
  const auto ps = nlohmann::json::parse(slurp(dir + "/out_p/summary.json"));
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["timed_run_s"].get<double>() > ps["timed_run_s"].get<double>());  // the resets' time, before the job's
}

TEST_CASE("cli: a buffered writer is throttled at the dirty limit and runs at the flusher's pace, the close's writes "
          "stay out of its runtime",
          "[cli][fio][buffered]") {
  const std::string dir = "cli_fio_buffered_throttle";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Sequential 128 KiB writes for 100 ms: a 16 MiB dirty limit (vm.dirty_bytes), the flusher from 8 MiB.
  std::ofstream(dir + "/w.fio") << "[w]\nrw=write\nsize=64m\nbs=128k\nioengine=psync\ntime_based\nruntime=100ms\n";
  const std::string keys = " --set workload.dirty_bytes=16777216 --set workload.dirty_background_bytes=8388608";
  const auto r = run_in(dir, "--quiet --out out --fio w.fio" + keys + ssdtlm::test::kSmallDrive);
  REQUIRE(r.code == 0);
  const auto s = nlohmann::json::parse(slurp(dir + "/out/summary.json"));
  const auto& pc = s["page_cache"];
  CHECK(pc["dirty_limit_bytes"] == 16777216);
  CHECK(pc["dirty_background_bytes"] == 8388608);
  CHECK(pc["throttle_waits"].get<uint64_t>() > 0);
  CHECK(pc["throttle_ms"].get<double>() > 50);  // the writer waits most of its 100 ms
  // Dirty + under writeback never above the limit by more than the write that crossed it.
  CHECK(pc["max_dirty_writeback_bytes"].get<uint64_t>() <= 16777216 + 131072);
  CHECK(pc["max_dirty_writeback_bytes"].get<uint64_t>() > 16777216);
  CHECK(pc["max_writeback_inflight"].get<uint64_t>() == 16);  // blk-wbt's depth while a writer waits
  CHECK(pc["ended_in_memory"] == false);
  CHECK(pc["dirty_bytes_left"] == 0);
  CHECK(s["integrity"]["errors"] == 0);
  // The job's writes are the flusher's until the runtime's end; the close's, and the flusher's completing after
  // the cut, are the drive's only: the job's span stays 100 ms.
  const uint64_t written = s["host"]["bytes_written"], after = s["host"]["after_runtime"]["bytes_written"];
  CHECK(written > 0);
  CHECK(after >= pc["close_bytes"].get<uint64_t>());
  CHECK(written + after == pc["flusher_bytes"].get<uint64_t>() + pc["sync_bytes"].get<uint64_t>());
  CHECK_FALSE(s["host"].contains("ramp"));
  // fio.json's runtime: the job's first submission to its last counted completion, within the 100 ms (it was 269 ms
  // when the flusher's writes completing after the cut and the close's counted).
  const auto fj = nlohmann::json::parse(slurp(dir + "/out/fio.json"));
  const double runtime_ms = fj["jobs"][0]["write"]["runtime"];
  CHECK(runtime_ms <= 100);
  CHECK(runtime_ms >= 50);
}
