// Platform test of the controller DRAM (docs/reference/hardware.md, "Controller DRAM"): a narrow DRAM caps sequential
// write bandwidth at what arithmetic predicts, bandwidth / (bytes crossing the DRAM per host byte).
#include <catch2/catch.hpp>

#include <string>

#include "common/cli_run.h"

namespace {

// The generic drive (8 x 8 dies, ~750 MB/s of flash programs), empty, a 4 MiB buffer, 128 KiB sequential
// writes from 4 queues of depth 8, 512 MiB in all.
nlohmann::json run(const std::string& name, const std::string& sets) {
  nlohmann::json s = ssdtlm::test::run_cli(
      "dram_platform_" + name,
      "--set geometry.blocks_per_plane=64 --set geometry.pages_per_block=64"
      " --set precondition.fill=false --set precondition.drive_writes=0 --set buffer.bytes=4M"
      " --set workload.pattern=sequential --set workload.block_bytes=128k --set workload.io_count=0"
      " --set workload.io_bytes=512M --set host.queues=4 --set host.queue_depth=8 " + sets);
  CHECK(s["integrity"]["errors"] == 0);
  return s;
}

}  // namespace

TEST_CASE("a narrow controller DRAM caps sequential write bandwidth at its bandwidth over the bytes crossing it per host byte", "[platform][dram]") {
  // 400 MT/s x 1 byte = 400 MB/s. Per host byte the DRAM moves the host DMA's byte in, the flash data-in's
  // byte out, and per 4 KiB unit flushed a 64-byte map-entry burst read and one written: 2 + 128/4096.
  const auto s = run("narrow", "--set dram.mts=400 --set dram.width_bytes=1");
  const double per_host_byte = 2.0 + 128.0 / 4096.0;
  const double bound = 400.0 / per_host_byte;  // 196.9 MB/s, far below the flash's ~750 MB/s
  const double mbps = s["host"]["mbps"].get<double>();
  INFO("sequential write " << mbps << " MB/s, predicted " << bound << " MB/s");
  CHECK(mbps <= bound * 1.01);
  CHECK(mbps >= bound * 0.97);
  CHECK(s["dram"]["bandwidth_mbps"].get<double>() == Approx(400.0));
  CHECK(s["dram"]["utilization"]["total"].get<double>() > 0.97);
  // What crossed it, by initiator: the host's bytes in, the same bytes out to the flash (the buffer holds at
  // most 4 MiB at the end), map bursts, no reads.
  const double host = s["dram"]["bytes"]["host_write_dma"].get<double>();
  CHECK(host == 512.0 * 1024 * 1024);
  CHECK(s["dram"]["bytes"]["flash_data_in"].get<double>() == Approx(host).margin(4.0 * 1024 * 1024));
  CHECK(s["dram"]["bytes"]["map_lookup"].get<double>() == Approx(host / 32).margin(4.0 * 1024 * 1024 / 32));
  CHECK(s["dram"]["bytes"]["flash_data_out"] == 0);
  // The default DRAM (3200 MT/s x 4 bytes) is no bottleneck: the same run reaches the flash.
  const auto wide = run("wide", "");
  INFO("default DRAM: " << wide["host"]["mbps"].get<double>() << " MB/s");
  CHECK(wide["host"]["mbps"].get<double>() > 3 * bound);
  const double wide_mbps = wide["host"]["mbps"].get<double>();
  CHECK(wide["dram"]["utilization"]["total"].get<double>() == Approx(wide_mbps * per_host_byte / 12800).epsilon(0.02));
  // ... as fast as with a DRAM that costs nothing.
  const auto free = run("free", "--set dram.mts=100000 --set dram.width_bytes=64 --set dram.latency_ns=0");
  CHECK(wide_mbps == Approx(free["host"]["mbps"].get<double>()).epsilon(0.002));
}
