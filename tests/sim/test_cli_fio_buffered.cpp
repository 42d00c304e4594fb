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
