// The flush study on the timed platform (issue 45): fio's etcd recipe in outline (a write, then fdatasync, one at a
// time) on a drive whose write buffer is a volatile cache (buffer.power_protected=false) and on one with power-loss
// protection. Unprotected, each Flush waits for the buffered write to be programmed: its latency is the page's
// transfer on the channel plus tPROG (within 5 %); protected, it is the command's round trip. A power loss loses
// exactly what was acknowledged and not yet flushed: with a Flush after every write, at most that one write.
#include <catch2/catch.hpp>

#include <string>

#include "platform_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

Config study(bool volatile_cache, uint64_t fsync_every, std::initializer_list<std::string> extra = {}) {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "workload.pattern=sequential", "workload.read_fraction=0",
                             "workload.block_bytes=4096", "workload.io_count=400", "host.queues=1",
                             "host.queue_depth=1", "precondition.fill=false", "precondition.drive_writes=0"});
  c.set(std::string("buffer.power_protected=") + (volatile_cache ? "false" : "true"));
  c.set("workload.fsync=" + std::to_string(fsync_every));
  for (auto& s : extra) c.set(s);
  return c;
}

}  // namespace

// The 4 KiB write is buffered when its Flush comes: one page (padded) moves over the channel and is programmed.
TEST_CASE("flush study: fdatasync on a volatile cache costs the page's transfer and program", "[platform][flush]") {
  const Config c = study(true, 1);
  const RunResult r = run_generic(c);
  const auto& f = r.summary["host"]["flush"];
  INFO(f.dump());
  CHECK(f["commands"] == 400);
  CHECK(f["volatile_cache"] == true);
  CHECK(r.summary["host"]["write_ios"] == 400);
  const double page_bytes = double(c.i("geometry.page_bytes"));
  const double xfer_us = page_bytes / (c.d("timing.channel_mts") * double(c.i("timing.channel_width_bytes")));
  const double expected_us = c.d("timing.t_prog_us") + xfer_us;
  CHECK(f["latency_us"]["mean"].get<double>() == Approx(expected_us).epsilon(0.05));
  CHECK(f["latency_us"]["min"].get<double>() > c.d("timing.t_prog_us"));
  CHECK(r.summary["nand"]["programs"]["ud"].get<uint64_t>() >= 400);  // a page per Flush
  CHECK(r.summary["integrity"]["errors"] == 0);
}

TEST_CASE("flush study: fdatasync on a power-protected drive is the command's round trip", "[platform][flush]") {
  const Config c = study(false, 1);
  const RunResult r = run_generic(c);
  const auto& f = r.summary["host"]["flush"];
  INFO(f.dump());
  CHECK(f["commands"] == 400);
  CHECK(f["volatile_cache"] == false);
  CHECK(f["latency_us"]["max"].get<double>() < 5.0);  // the link both ways and the firmware's command time
  CHECK(f["latency_us"]["mean"].get<double>() > 2 * c.d("nvme.link_latency_ns") / 1e3);
  CHECK(r.summary["nand"]["programs"]["ud"].get<uint64_t>() < 400);  // nothing programmed for the Flushes
}

namespace {
const std::initializer_list<std::string> kLosses = {"fault.power_loss_at_ms=5,40,90.3,150.7,201", "workload.io_count=2000"};
void check_recovered(const RunResult& r, uint64_t losses) {
  INFO(r.summary["recovery"].dump(1));
  CHECK(r.summary["integrity"]["errors"] == 0);  // a unit lost with the volatile cache is the drive's right
  CHECK(r.summary["recovery"]["mismatches"] == 0);
  CHECK(r.summary["recovery"]["power_losses"] == losses);
}
}  // namespace

TEST_CASE("flush study: with a Flush after every write a power loss loses at most the write being flushed",
          "[platform][flush]") {
  const RunResult r = run_generic(study(true, 1, kLosses));
  check_recovered(r, 5);
  for (const auto& e : r.summary["recovery"]["events"]) {
    INFO(e.dump());
    CHECK(e["lost_acknowledged_writes"].get<uint64_t>() <= 1);  // depth 1: one write acknowledged, not flushed
    CHECK(e["lost_acknowledged_writes"].get<uint64_t>() >= e["buffer_dirty_units"].get<uint64_t>());
  }
  CHECK(r.summary["recovery"]["lost_acknowledged_writes"].get<uint64_t>() <= 5);
}

TEST_CASE("flush study: without Flush a power loss loses every acknowledged write the buffer held",
          "[platform][flush]") {
  // Unflushed, the 2,000 writes are buffered fast: one loss at 5 ms, while they are being programmed.
  const RunResult r = run_generic(study(true, 0, {"fault.power_loss_at_ms=5", "workload.io_count=2000"}));
  check_recovered(r, 1);
  uint64_t lost = 0;
  for (const auto& e : r.summary["recovery"]["events"]) {
    INFO(e.dump());
    CHECK(e["lost_acknowledged_writes"].get<uint64_t>() >= e["buffer_dirty_units"].get<uint64_t>());
    lost += e["lost_acknowledged_writes"].get<uint64_t>();
  }
  CHECK(lost > 100);
}
