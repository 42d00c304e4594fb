// fio through the Ext4-like layer on a small drive (workload.filesystem=ext4): the data survive (integrity
// checker), the file system's journal and metadata writes reach the device and are reported apart, and the
// job's data bytes are those of the same job on the raw device.
#include <catch2/catch.hpp>

#include <string>

#include "common/cli_run.h"

using namespace ssdtlm::test;

namespace {
const std::string kJob = kSmallDrive + " --set check.integrity=true --set workload.address_range=32M"
                                       " --set workload.read_fraction=0.3 --set workload.io_count=30000"
                                       " --set precondition.drive_writes=1";
}

TEST_CASE("fio on ext4: integrity, journal and metadata counted, the raw device's data bytes", "[platform][filesystem]") {
  const auto raw = run_cli(fresh("fs_raw"), kJob);
  const auto fs = run_cli(fresh("fs_ext4"), kJob + " --set workload.filesystem=ext4 --set workload.fs_commit_ios=500"
                                                   " --set workload.fs_checkpoint_commits=4");
  INFO(fs.dump(1));
  CHECK(fs["integrity"]["errors"] == 0);
  CHECK(fs["integrity"]["checked_reads"].get<uint64_t>() > 0);
  CHECK_FALSE(raw.contains("filesystem"));
  const auto& f = fs["filesystem"];
  CHECK(f["data_bytes"] == raw["host"]["bytes_written"]);
  CHECK(f["data_read_bytes"] == raw["host"]["bytes_read"]);
  CHECK(f["journal_bytes"].get<uint64_t>() > 0);
  CHECK(f["metadata_bytes"].get<uint64_t>() > 0);
  CHECK(f["commits"].get<uint64_t>() > 0);
  CHECK(fs["host"]["bytes_written"].get<uint64_t>() ==
        f["data_bytes"].get<uint64_t>() + f["metadata_bytes"].get<uint64_t>() + f["journal_bytes"].get<uint64_t>());
}

TEST_CASE("ext4 is refused for traces and app models", "[platform][filesystem]") {
  const auto r = shell(fresh("fs_refused"), cli_binary() + kSmallDrive +
                                               " --set workload.pattern=app --set workload.filesystem=ext4");
  CHECK(r.code == 2);
  CHECK(r.err.find("workload.filesystem") != std::string::npos);
}
