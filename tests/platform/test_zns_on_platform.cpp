// ZNS through the platform: a log-structured run (sequential zone writes, each zone reset before it is rewritten)
// has device WAF 1.00 with no GC copy; writes off the write pointer fail with Zone Invalid Write, counted, and the
// run goes on; integrity through host resets with reads; fio's zoned example job file with only zns.enabled added.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "common/cli_run.h"
#include "platform_run.h"
#include "zns_drive.h"

using namespace ssdtlm;
using namespace ssdtlm::test;
using Catch::Matchers::Contains;

TEST_CASE("ZNS: a log-structured run has device WAF 1.00 and no GC copy, resets are erases", "[platform][zns]") {
  RunResult r = run_generic(zns_config({"workload.zbd=true", "workload.pattern=sequential", "workload.block_bytes=65536",
                                        "workload.io_count=8000", "workload.address_range=" + std::to_string(51 * 524288)}));
  const auto& s = r.summary;
  const auto& z = s["zns"];
  INFO(z.dump(1));
  CHECK(z["zones"] == 51);
  CHECK(z["failed"] == 0);
  CHECK(z["commands"]["resets"].get<uint64_t>() > 500);  // 8000 x 64 KiB over 51 zones of 512 KiB: ~19 passes
  CHECK(s["nand"]["gc_units_moved"] == 0);
  CHECK(s["streams"]["padding_units"]["user"] == 0);
  CHECK(s["nand"]["erases"].get<uint64_t>() > 1500);  // the reset zones' blocks, erased when dies need them
  // Every unit the host wrote reached flash once, but for what the buffer still holds at the end.
  const uint64_t programmed = s["nand"]["programs"]["ud"].get<uint64_t>() * 2;
  CHECK(programmed == s["ftl"]["flushed_units"].get<uint64_t>());
  CHECK(std::round(s["waf"]["total"].get<double>() * 100) / 100 == 1.0);
  CHECK(s["integrity"]["errors"] == 0);
}

TEST_CASE("ZNS: writes off the write pointer fail with Zone Invalid Write, counted, and the run goes on", "[platform][zns]") {
  RunResult r = run_generic(zns_config({"workload.io_count=3000"}));  // random 4 KiB writes, no zone awareness
  const auto& z = r.summary["zns"];
  INFO(z.dump(1));
  CHECK(r.exit_code == 0);
  CHECK(z["errors"]["zone_invalid_write"].get<uint64_t>() > 2500);
  CHECK(z["commands"]["writes"].get<uint64_t>() > 0);  // a random offset at a zone start opens it
  CHECK(z["errors"]["too_many_active_zones"].get<uint64_t>() > 0);  // five zones would be active
  CHECK(z["host_failed_commands"] == z["failed"]);
  CHECK(r.summary["host"]["write_ios"].get<uint64_t>() + z["failed"].get<uint64_t>() == 3000);
}

TEST_CASE("ZNS integrity: random zone writes at the write pointers, reads, periodic resets", "[platform][zns][integrity]") {
  RunResult r = run_generic(zns_config({"workload.zbd=true", "workload.block_bytes=16384", "workload.read_fraction=0.3",
                                        "workload.io_count=40000", "workload.zbd_reset_threshold=0.5",
                                        "workload.zbd_reset_frequency=0.1", "host.queues=1", "host.queue_depth=1"}));
  const auto& s = r.summary;
  INFO(s["zns"].dump(1));
  CHECK(s["zns"]["failed"] == 0);
  CHECK(s["zns"]["commands"]["resets"].get<uint64_t>() > 100);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 5000);
  CHECK(s["nand"]["gc_units_moved"] == 0);
}

TEST_CASE("fio's uring-cmd-zoned.fio runs unchanged on a zoned namespace and is refused without one", "[platform][zns][fio]") {
  const std::string job = std::string(SSDTLM_SOURCE_DIR) + "/tests/data/fio/uring-cmd-zoned.fio";
  // The job writes 1 GiB: a drive that holds it, a buffer its 1 MiB zones fit, a short runtime for the test.
  const std::string drive = " --set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=2048"
                            " --set geometry.pages_per_block=32 --set buffer.bytes=16M --set workload.runtime_ms=200";
  const nlohmann::json s = run_cli("fio_zns_example", "--fio " + job + " --set zns.enabled=true" + drive);
  INFO(s["zns"].dump(1));
  CHECK(s["zns"]["failed"] == 0);
  CHECK(s["zns"]["commands"]["writes"].get<uint64_t>() > 50);
  CHECK(s["nand"]["gc_units_moved"] == 0);
  const std::string cmd = cli_binary("generic") + " --quiet --out fio_zns_refused --fio " + job + drive + " 2>fio_zns_refused.txt";
  CHECK(WEXITSTATUS(std::system(cmd.c_str())) == 2);
  std::ifstream e("fio_zns_refused.txt");
  const std::string err((std::istreambuf_iterator<char>(e)), std::istreambuf_iterator<char>());
  CHECK_THAT(err, Contains("zns.enabled"));
}

TEST_CASE("waveform: open and active zones (ZNS) and open RUs per reclaim group (FDP)", "[platform][zns][fdp][wave]") {
  const std::string drive = " --set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=64"
                            " --set geometry.pages_per_block=16 --set buffer.bytes=1M --set workload.io_count=3000";
  run_cli("wave_zns", "--vcd wave_zns.vcd --set zns.enabled=true --set zns.max_open=4 --set zns.max_active=4"
                      " --set workload.zbd=true" + drive);
  run_cli("wave_fdp", "--vcd wave_fdp.vcd --set fdp.enabled=true --set fdp.ruhs=4 --set workload.dataplacement=fdp" + drive);
  auto text = [](const std::string& path) {
    std::ifstream f(path);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  const std::string zns = text("wave_zns.vcd"), fdp = text("wave_fdp.vcd");
  CHECK_THAT(zns, Contains(" open_zones $end"));
  CHECK_THAT(zns, Contains(" active_zones $end"));
  CHECK_THAT(fdp, Contains(" open_rus $end"));
  // The open-RU signal reaches 4 (every RUH has an open block on some die): "b100 <id>" in the dump.
  const size_t at = fdp.find(" open_rus $end");
  REQUIRE(at != std::string::npos);
  const size_t start = fdp.rfind("$var wire", at);
  const std::string id = fdp.substr(start, at - start).substr(fdp.substr(start, at - start).rfind(' ') + 1);
  CHECK_THAT(fdp, Contains("b100 " + id + "\n"));
}

TEST_CASE("ZNS zone appends: the drive picks the LBAs at the write pointers, reads find the data", "[platform][zns][integrity]") {
  RunResult r = run_generic(zns_config({"workload.zbd=true", "workload.zbd_append=true", "workload.block_bytes=16384",
                                        "workload.read_fraction=0.3", "workload.io_count=20000", "host.queues=1",
                                        "host.queue_depth=1"}));  // fio quiesces a zone's writes before its reset
  const auto& s = r.summary;
  INFO(s["zns"].dump(1));
  CHECK(s["zns"]["commands"]["appends"].get<uint64_t>() > 10000);
  CHECK(s["zns"]["commands"]["writes"] == 0);
  CHECK(s["zns"]["failed"] == 0);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 3000);
  // Zones fill the device and are reset only when rewritten. A zone's page k goes to die k mod 4, so a full zone
  // leaves its blocks full and a reset block holds nothing: no device GC copy (1,142 units when the pages went to
  // whichever die was ready, and 1,515 blocks closed part-written instead of 126).
  CHECK(s["nand"]["gc_units_moved"] == 0);
  CHECK(s["zns"]["blocks_closed_early"].get<uint64_t>() < 200);
}

TEST_CASE("ZNS: a write whose die group has no free stream slot waits for one, it does not fail", "[platform][zns][integrity]") {
  // Two die groups of 2 dies, 4 active zones, a 1 MiB buffer and 256 zone appends of 64 KiB admitted at once: full
  // zones keep their slots until their units leave the buffer, so new zones find every slot of their group taken
  // (before: 144 of 400 writes failed for want of a slot). They wait, the draining zones' units are flushed first.
  // Appends: with Writes, fio opens a new zone only once the full one's last write has completed (zbd_workload.h),
  // by when the buffer has drained it.
  RunResult r = run_generic(zns_config({"zns.zone_dies=2", "workload.zbd=true", "workload.zbd_append=true",
                                        "workload.pattern=sequential", "workload.block_bytes=65536", "host.queues=1",
                                        "host.queue_depth=256", "workload.io_count=400"}));
  const auto& s = r.summary;
  INFO(s["zns"].dump(1));
  CHECK(s["zns"]["slot_waits"].get<uint64_t>() > 50);
  CHECK(s["zns"]["failed"] == 0);
  CHECK(s["host"]["write_ios"] == 400);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["nand"]["gc_units_moved"] == 0);
}

TEST_CASE("ZNS: fio's zone resets wait for the job's writes in flight, so none overtakes them", "[platform][zns][integrity]") {
  // fio's zbd.c quiesces (io_u_quiesce) before a zone reset. Without it, 256 commands in flight on 2 die groups let
  // resets overtake writes: 12 Zone Invalid Write and 3 Zone Is Full in 4,000 writes with 899 resets.
  RunResult r = run_generic(zns_config({"zns.zone_dies=2", "workload.zbd=true", "workload.pattern=sequential",
                                        "workload.block_bytes=65536", "host.queues=1", "host.queue_depth=256",
                                        "workload.io_count=4000"}));
  const auto& s = r.summary;
  INFO(s["zns"].dump(1));
  CHECK(s["zns"]["commands"]["resets"].get<uint64_t>() > 500);
  CHECK(s["zns"]["failed"] == 0);
  CHECK(s["host"]["ios"] == 4000);
  CHECK(s["integrity"]["errors"] == 0);
}

TEST_CASE("ZNS: zones of one die on a 64-die drive, no data lost, no device GC (issue 44)", "[platform][zns][integrity]") {
  // 8 channels x 8 dies (the generic drive's) of 32 blocks of 16 pages of 8 KiB: zones of a block on one die
  // (128 KiB), 1,638 of them in 64 die groups. Before, a die group held 64 / 64 = 1 stream slot: refused.
  RunResult r = run_generic(generic_config({"geometry.blocks_per_plane=32", "geometry.pages_per_block=16",
                                            "buffer.bytes=1048576", "check.integrity=true", "zns.enabled=true",
                                            "zns.zone_dies=1", "workload.zbd=true", "workload.block_bytes=16384",
                                            "workload.read_fraction=0.3", "workload.io_count=20000",
                                            "workload.zbd_reset_threshold=0.5", "workload.zbd_reset_frequency=0.1",
                                            "host.queues=1", "host.queue_depth=1"}));
  const auto& s = r.summary;
  INFO(s["zns"].dump(1));
  REQUIRE(r.exit_code == 0);
  CHECK(s["zns"]["die_groups"] == 64);
  CHECK(s["zns"]["zones"] == 1638);
  CHECK(s["zns"]["failed"] == 0);
  CHECK(s["zns"]["commands"]["resets"].get<uint64_t>() > 100);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 3000);
  CHECK(s["nand"]["gc_units_moved"] == 0);
}

TEST_CASE("ZNS: more active zones than the drive has write streams, no data lost (issue 44)", "[platform][zns][integrity]") {
  // 4 dies of 256 blocks; zones of two blocks on one die (409 zones); 8 open and 100 active zones, fio's zbd
  // writing 100 zones round robin (ignore_zone_limits): the drive closes the least recently written zones
  // implicitly, and a closed zone keeps its open block (parked) when its stream slot goes to another zone. Before,
  // zns.max_active was at most 63 (a stream per active zone).
  RunResult r = run_generic(zns_config({"geometry.blocks_per_plane=256", "zns.zone_dies=1", "zns.zone_bytes=262144",
                                        "zns.max_open=8", "zns.max_active=100", "workload.zbd=true",
                                        "workload.zbd_max_open=100", "workload.zbd_ignore_limits=true",
                                        "workload.block_bytes=16384", "workload.read_fraction=0.2",
                                        "workload.io_count=20000", "host.queues=1", "host.queue_depth=1"}));
  const auto& s = r.summary;
  const auto& z = s["zns"];
  INFO(z.dump(1));
  REQUIRE(r.exit_code == 0);
  CHECK(z["zones"] == 409);
  CHECK(z["failed"] == 0);
  CHECK(z["peak_active_zones"].get<uint64_t>() > 63);
  CHECK(z["peak_open_zones"] == 8);
  CHECK(z["commands"]["implicit_closes"].get<uint64_t>() > 1000);
  CHECK(z["slot_parks"].get<uint64_t>() > 0);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 2000);
  CHECK(s["nand"]["gc_units_moved"] == 0);
}
