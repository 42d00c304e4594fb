// A die's GC job that ends where nothing flushes must let the buffer flush to the die again (FlushScheduler::wake).
// With demand-based mapping a job ends when its last map update lands, after its last erase (whose landing flushes);
// on a small drive with tight spare both dies' jobs ended so while the buffer was full of dirty units, every write
// waited for room, no flush was in flight and both dies could take a page: nothing flushed again and the watchdog
// stopped the run ("the run is stuck", the lead's fuzz of 2026-11-28: ptsd in 37 of 40 seeds at
// over_provisioning 0.16).
#include <catch2/catch.hpp>

#include <string>

#include "common/cli_run.h"

namespace {

// The fuzz's drive: 1 x 2 dies of 48 blocks of 32 pages, a 1 MiB buffer, filled and written once over, then 20,000
// random 4 KiB commands, a fifth of them reads, with an 8 KiB map cache of 4 KiB segments.
nlohmann::json run(const std::string& mapping, const std::string& op, const std::string& seed,
                   const std::string& extra = "") {
  return ssdtlm::test::run_cli(
      "gc_wakeup_" + mapping + "_" + op + "_" + seed,
      " --set geometry.channels=1 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=48"
      " --set geometry.pages_per_block=32 --set host.queues=4 --set host.queue_depth=16"
      " --set workload.io_count=20000 --set precondition.fill=true --set precondition.drive_writes=1"
      " --set buffer.bytes=1M --set workload.read_fraction=0.2 --set map.cache_bytes=8k --set map.segment_bytes=4k"
      " --set check.integrity=true --set ftl.mapping=" + mapping + " --set geometry.over_provisioning=" + op +
          " --set sim.seed=" + seed + extra);
}

void check_done(const nlohmann::json& s) {
  CHECK(s["host"]["ios"] == 20000);  // every command completed (a stuck run exits 3: run_cli's REQUIRE fails)
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["nand"]["gc_victims"].get<uint64_t>() > 0);
}

}  // namespace

TEST_CASE("gc wakeup: demand-mapped GC jobs ending on their map updates do not stall the buffer",
          "[platform][mapping][gc]") {
  // Each of these stalled before the fix (ptsd at 0.16: 37 of 40 seeds; the lead's reproduction at 0.22, seed 4).
  check_done(run("ptsd", "0.22", "4"));
  check_done(run("ptsd", "0.16", "1"));
  check_done(run("ptsd", "0.16", "2", " --set ftl.wear_level_spread=4"));
  check_done(run("dftl", "0.16", "5"));
  check_done(run("dftl", "0.16", "1", " --set ftl.wear_level_spread=4"));
}

TEST_CASE("gc wakeup: a GC page waits for the erase of a scanned victim whose units are all being programmed",
          "[platform][mapping][gc]") {
  // tests/python/test_power_loss_matrix.py's ptsd-hexa-unprotected drive (4 KiB pages: one unit a page): die 2 took
  // its next victim with no free block, counting the scanned one's erase (wants_victim_timed), whose last copy was
  // still being programmed; the next victim's first page found the GC block full, no block free and no erase under
  // way yet, and threw 'die 2: no free block for GC data' at 6.5 s. It now waits for that erase (GcEngine::erase_coming).
  const auto s = ssdtlm::test::run_cli(
      "gc_erase_coming",
      " --set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=64"
      " --set geometry.pages_per_block=64 --set geometry.page_bytes=4096 --set buffer.bytes=1M"
      " --set workload.read_fraction=0.3 --set map.segment_bytes=4k --set ftl.mapping=ptsd --set map.cache_bytes=16k"
      " --set buffer.policy=hexa --set buffer.power_protected=false --set workload.io_count=60000"
      " --set fault.power_loss_count=20 --set fault.power_loss_window_ms=4000 --set check.integrity=true");
  CHECK(s["host"]["ios"] == 60000);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["recovery"]["power_losses"] == 20);
}
