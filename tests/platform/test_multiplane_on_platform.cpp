// Platform tests of multi-plane operations (docs/reference/hardware.md, "Multi-plane operations"): on two-plane dies,
// sequential writes reach the 2-plane program bound with opportunistic multi-plane and the 1-plane bound
// without, and queued random reads on different planes share their tR.
#include <catch2/catch.hpp>

#include <string>

#include "common/cli_run.h"

namespace {

// The small drive with two planes per die: 2 channels x 2 dies x 2 planes, 8 KiB pages (16 KiB multi-plane
// pages), tPROG 700 us, tR 60 us.
nlohmann::json run(const std::string& name, const std::string& sets) {
  nlohmann::json s = ssdtlm::test::run_cli(
      "multiplane_platform_" + name,
      "--set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.planes_per_die=2"
      " --set geometry.blocks_per_plane=128 --set geometry.pages_per_block=64 "
      " --set geometry.over_provisioning=0.15 --set buffer.bytes=4M " + sets);
  CHECK(s["integrity"]["errors"] == 0);
  return s;
}
double mbps(const nlohmann::json& s) { return s["host"]["mbps"].get<double>(); }
const std::string kSeqWrite = "--set precondition.fill=false --set precondition.drive_writes=0"
                              " --set workload.pattern=sequential --set workload.block_bytes=128k --set workload.io_count=0"
                              " --set workload.io_bytes=256M --set host.queues=1 --set host.queue_depth=8";

}  // namespace

TEST_CASE("opportunistic multi-plane raises sequential write bandwidth to the 2-plane bound", "[platform][flash][multiplane]") {
  // Program bound: dies x planes x 8 KiB per tPROG; cache programming hides the data-in.
  const double one_plane = 4 * 8192 / 700e-6 / 1e6, two_plane = 2 * one_plane;  // 46.8 and 93.6 MB/s
  const auto never = run("seq_never", kSeqWrite + " --set flash.multiplane=never");
  const auto opp = run("seq_opp", kSeqWrite + " --set flash.multiplane=opportunistic");
  INFO("never " << mbps(never) << " MB/s, opportunistic " << mbps(opp) << " MB/s; bounds " << one_plane << " / "
                << two_plane);
  CHECK(mbps(never) <= one_plane * 1.03);  // the last 4 MiB stay in the buffer
  CHECK(mbps(never) >= one_plane * 0.9);
  CHECK(mbps(opp) <= two_plane * 1.03);
  CHECK(mbps(opp) >= two_plane * 0.9);
  CHECK(opp["nand"]["multiplane"]["fraction"].get<double>() == Approx(1.0));  // the FTL always fills both planes
  CHECK(never["nand"]["multiplane"]["multiplane_ops"] == 0);
}

TEST_CASE("opportunistic multi-plane lets queued random reads on different planes share their tR", "[platform][flash][multiplane]") {
  // 4 KiB random reads at queue depth 64 on 4 dies: tR-bound; with plane_rule=any about half the reads can
  // join another's tR (the next queued read of the die is on the other plane half the time).
  const std::string reads = "--set precondition.drive_writes=0 --set workload.read_fraction=1 --set workload.io_count=40000"
                            " --set host.queues=1 --set host.queue_depth=64";
  const auto always = run("read_always", reads);
  const auto any = run("read_any", reads + " --set flash.multiplane=opportunistic --set flash.plane_rule=any");
  const auto same = run("read_same", reads + " --set flash.multiplane=opportunistic --set flash.plane_rule=same_page");
  const double iops_always = always["host"]["iops"].get<double>(), iops_any = any["host"]["iops"].get<double>();
  INFO("IOPS always " << iops_always << ", opportunistic any " << iops_any << ", same_page "
                      << same["host"]["iops"].get<double>());
  CHECK(iops_any > 1.2 * iops_always);
  CHECK(any["nand"]["multiplane"]["combined_reads"].get<double>() > 0.2 * 40000);
  // same_page needs the same page offset too: rare for random data
  CHECK(same["nand"]["multiplane"]["combined_reads"].get<double>() < 0.05 * 40000);
  CHECK(always["nand"]["multiplane"]["combined_reads"] == 0);
}
