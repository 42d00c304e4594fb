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

TEST_CASE("flush study: fdatasync on a volatile cache costs the page's program, on a protected one a round trip",
          "[platform][flush]") {
  const Config cv = study(true, 1);
  const RunResult vol = run_generic(cv);
  const RunResult prot = run_generic(study(false, 1));
  const auto& fv = vol.summary["host"]["flush"];
  const auto& fp = prot.summary["host"]["flush"];
  INFO(fv.dump() + "\n" + fp.dump());
  CHECK(fv["commands"] == 400);
  CHECK(fp["commands"] == 400);
  CHECK(fv["volatile_cache"] == true);
  CHECK(fp["volatile_cache"] == false);
  CHECK(vol.summary["host"]["write_ios"] == 400);
  // One 4 KiB write is buffered when its Flush comes: one page (padded) moves over the channel and is programmed.
  const double page_bytes = double(cv.i("geometry.page_bytes"));
  const double xfer_us = page_bytes / (cv.d("timing.channel_mts") * double(cv.i("timing.channel_width_bytes")));
  const double expected_us = cv.d("timing.t_prog_us") + xfer_us;
  CHECK(fv["latency_us"]["mean"].get<double>() == Approx(expected_us).epsilon(0.05));
  CHECK(fv["latency_us"]["min"].get<double>() > cv.d("timing.t_prog_us"));
  // Protected: nothing to wait for; the command's trip over the link and the firmware's time.
  CHECK(fp["latency_us"]["max"].get<double>() < 5.0);
  CHECK(fp["latency_us"]["mean"].get<double>() > 2 * cv.d("nvme.link_latency_ns") / 1e3);
  // Each Flush programmed its page: one page per write unprotected, none forced protected.
  CHECK(vol.summary["nand"]["programs"]["ud"].get<uint64_t>() >= 400);
  CHECK(prot.summary["nand"]["programs"]["ud"].get<uint64_t>() < 400);
  CHECK(vol.summary["integrity"]["errors"] == 0);
}

TEST_CASE("flush study: a power loss loses exactly the acknowledged writes not yet flushed", "[platform][flush]") {
  const std::initializer_list<std::string> losses = {"fault.power_loss_at_ms=5,40,90.3,150.7,201", "workload.io_count=2000"};
  const RunResult flushed = run_generic(study(true, 1, losses));
  const RunResult unflushed = run_generic(study(true, 0, losses));
  for (const RunResult* r : {&flushed, &unflushed}) {
    INFO(r->summary["recovery"].dump(1));
    CHECK(r->summary["integrity"]["errors"] == 0);  // a unit lost with the volatile cache is the drive's right
    CHECK(r->summary["recovery"]["mismatches"] == 0);
    CHECK(r->summary["recovery"]["power_losses"] == 5);
  }
  // A Flush after every write at depth 1: at a loss, at most the write whose Flush is under way is unflushed.
  for (const auto& e : flushed.summary["recovery"]["events"]) {
    INFO(e.dump());
    CHECK(e["lost_acknowledged_writes"].get<uint64_t>() <= 1);
    CHECK(e["lost_acknowledged_writes"].get<uint64_t>() >= e["buffer_dirty_units"].get<uint64_t>());
  }
  // Without flushes the buffer holds many acknowledged writes, and each loss takes them all.
  uint64_t lost = 0;
  for (const auto& e : unflushed.summary["recovery"]["events"]) {
    INFO(e.dump());
    CHECK(e["lost_acknowledged_writes"].get<uint64_t>() >= e["buffer_dirty_units"].get<uint64_t>());
    lost += e["lost_acknowledged_writes"].get<uint64_t>();
  }
  CHECK(lost > 5);
  CHECK(flushed.summary["recovery"]["lost_acknowledged_writes"].get<uint64_t>() <= 5);
}
