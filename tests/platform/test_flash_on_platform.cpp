// Platform tests of flash-side concurrency (docs/reference/hardware.md): program/erase suspend and read-first die
// scheduling against a 70/30 random 4 KiB mix with GC in steady state. Each comparison runs the generic
// platform's binary once per configuration (one simulation per process) and compares the summaries.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

#include "common/cli_run.h"

using Catch::Matchers::Contains;

namespace {

// The small drive (2 channels x 2 dies, 15 % over-provisioning), preconditioned (fill + 2 drive writes), a
// 4 MiB buffer, one queue of depth 16 doing 70 % reads; `rate` IOPS caps it (0 = saturated).
nlohmann::json run(const std::string& name, const std::string& sets, int rate) {
  nlohmann::json s = ssdtlm::test::run_cli(
      "flash_platform_" + name,
      "--set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=128"
      " --set geometry.pages_per_block=64 --set geometry.over_provisioning=0.15 --set buffer.bytes=4M"
      " --set workload.read_fraction=0.7 --set workload.io_count=100000 --set precondition.drive_writes=2"
      " --set host.queues=1 --set host.queue_depth=16 --set workload.rate_iops=" + std::to_string(rate) + " " + sets);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["nand"]["gc_victims"].get<uint64_t>() > 500);
  return s;
}
double p999(const nlohmann::json& s) { return s["host"]["latency_us"]["read"]["p999"].get<double>(); }
double iops(const nlohmann::json& s) { return s["host"]["iops"].get<double>(); }
constexpr int kPaced = 4000;  // about 55 % of the saturated rate (~7,100 IOPS)

}  // namespace

TEST_CASE("program_erase suspend cuts the p99.9 read latency of a 70/30 mix with GC by 3x at under 10% throughput", "[platform][flash][suspend]") {
  // Both arms schedule dies read_first: suspension removes the wait for the operation in progress, read_first
  // the wait for queued ones (docs/reference/hardware.md has the fifo numbers too).
  const auto off = run("suspend_off", "--set flash.die_sched=read_first", kPaced);
  const auto on = run("suspend_on", "--set flash.die_sched=read_first --set flash.suspend=program_erase", kPaced);
  INFO("p99.9 read latency: none " << p999(off) << " us, program_erase " << p999(on) << " us");
  CHECK(p999(off) >= 3 * p999(on));
  CHECK(on["nand"]["suspend"]["program_suspends"].get<uint64_t>() > 1000);
  CHECK(on["nand"]["suspend"]["erase_suspends"].get<uint64_t>() > 100);
  CHECK(off["nand"]["suspend"]["program_suspends"] == 0);
  const auto off_sat = run("suspend_off_sat", "--set flash.die_sched=read_first", 0);
  const auto on_sat = run("suspend_on_sat", "--set flash.die_sched=read_first --set flash.suspend=program_erase", 0);
  INFO("saturated IOPS: none " << iops(off_sat) << ", program_erase " << iops(on_sat));
  CHECK(iops(on_sat) > 0.9 * iops(off_sat));
}

TEST_CASE("read_first die scheduling cuts the p99.9 read latency of a 70/30 mix with GC by 3x with suspend", "[platform][flash][die_sched]") {
  const auto fifo = run("fifo", "--set flash.suspend=program_erase", kPaced);
  const auto first = run("read_first", "--set flash.suspend=program_erase --set flash.die_sched=read_first", kPaced);
  INFO("p99.9 read latency: fifo " << p999(fifo) << " us, read_first " << p999(first) << " us");
  CHECK(p999(fifo) >= 3 * p999(first));
  CHECK(first["nand"]["read_overtakes"].get<uint64_t>() > 1000);
  CHECK(fifo["nand"]["read_overtakes"] == 0);
  // without suspend read_first still shortens the tail (reads no longer wait for queued work), by less
  const auto fifo_plain = run("fifo_plain", "", kPaced);
  const auto first_plain = run("read_first_plain", "--set flash.die_sched=read_first", kPaced);
  INFO("without suspend: fifo " << p999(fifo_plain) << " us, read_first " << p999(first_plain) << " us");
  CHECK(p999(first_plain) < 0.95 * p999(fifo_plain));
  const auto first_sat = run("read_first_sat", "--set flash.die_sched=read_first", 0);
  const auto fifo_sat = run("fifo_sat", "", 0);
  INFO("saturated IOPS: fifo " << iops(fifo_sat) << ", read_first " << iops(first_sat));
  CHECK(iops(first_sat) > 0.9 * iops(fifo_sat));
}
