// The zone reset job (controller/placement/zone_reset_job.h, zns.reset_erase=reset) against a fake executor: no
// SystemC, no zoned namespace. Its three cases per block: a block still open waits until it closes, then erases; a
// block that is GC's victim waits for GC's erase and counts as erased; a block holding valid data written after the
// reset is left to GC (kept). A reset completes once each of its blocks is settled, and never erases a live unit
// (the integrity checker's erase check).
#include <catch2/catch.hpp>

#include "controller/fast_forward.h"
#include "fake_zone_exec.h"
#include "../gc/fake_gc_exec.h"  // gc_drive_settings: one die of 16 blocks of 8 pages of two units

using namespace ssdtlm;

namespace {

// Writes pages of two units each, LPNs first, first + 1, ...; returns the block of the first page.
uint32_t write_pages(FfDrive& d, uint32_t first, uint32_t pages) {
  for (uint32_t p = 0; p < pages; ++p) {
    const uint32_t lpns[2] = {first + 2 * p, first + 2 * p + 1}, versions[2] = {1, 1};
    FfHostExec(d.ftl->fast_forward()).write_page(0, lpns, versions);
  }
  return d.g.gblock_of(d.ftl->state().lookup(first));
}

void trim(FfDrive& d, uint32_t first, uint32_t units) {
  for (uint32_t lpn = first; lpn < first + units; ++lpn) d.ftl->state().trim(lpn);
}

}  // namespace

TEST_CASE("Zone reset job: an open block waits until it closes, then erases, and the reset completes then",
          "[zns][zone_reset][job]") {
  FfDrive d(gc_drive_settings());
  IntegrityChecker checker(d.g.logical_units);
  FakeZoneExec<true> x(d, checker);
  BlockManager& blocks = d.ftl->state().blocks();
  const uint32_t half = d.g.pages_per_block / 2;
  const uint32_t b = write_pages(d, 0, half);  // half written: open
  trim(d, 0, 2 * half);                         // the zone's data dropped at its reset
  REQUIRE(blocks.state(b) == BlockState::Open);
  x.job().reset(7, {b});
  CHECK(x.issued == 0);
  CHECK(x.job().waiting());
  CHECK(x.completed.empty());
  CHECK(x.job().describe().find("block " + std::to_string(b) + " open") != std::string::npos);

  REQUIRE(write_pages(d, 2 * half, half) == b);  // the rest of its pages land: closed, then its data dropped
  trim(d, 2 * half, 2 * half);
  REQUIRE(blocks.state(b) == BlockState::Full);
  const uint64_t erases_before = d.ftl->state().counters().erases;
  x.job().kick();
  CHECK(x.in_flight() == 1);
  CHECK(x.job().in_flight() == 1);
  CHECK(blocks.state(b) == BlockState::Victim);  // taken while erasing
  CHECK(x.completed.empty());                    // not before its erase lands
  REQUIRE(x.complete());
  CHECK(blocks.state(b) == BlockState::Free);
  CHECK(x.completed == std::vector<uint32_t>{7});
  CHECK(x.landed == 1);
  CHECK(x.job().erases() == 1);
  CHECK(x.job().kept() == 0);
  CHECK(d.ftl->state().counters().erases == erases_before + 1);
  CHECK_FALSE(x.job().waiting());
  CHECK(checker.errors() == 0);
}

TEST_CASE("Zone reset job: GC's victim is not erased again, and GC's erase counts for the reset",
          "[zns][zone_reset][job]") {
  FfDrive d(gc_drive_settings());
  IntegrityChecker checker(d.g.logical_units);
  FakeZoneExec<true> x(d, checker);
  BlockManager& blocks = d.ftl->state().blocks();
  const uint32_t b = write_pages(d, 0, d.g.pages_per_block);
  trim(d, 0, d.g.units_per_block);
  REQUIRE(blocks.state(b) == BlockState::Full);
  REQUIRE(blocks.take_victim(b));  // GC took it first
  x.job().reset(3, {b});
  x.job().kick();
  CHECK(x.issued == 0);
  CHECK(x.completed.empty());
  d.dies[0]->erase(d.g.block_in_die(b));  // GC's erase lands
  d.ftl->gc().land_erase(b, d.ftl->state().counters());
  x.job().erased(b);
  CHECK(x.issued == 0);
  CHECK(x.completed == std::vector<uint32_t>{3});
  CHECK(x.job().erases() == 1);
  CHECK_FALSE(x.job().waiting());
  x.job().erased(b);  // a block no reset waits for: nothing
  CHECK(x.job().erases() == 1);
}

TEST_CASE("Zone reset job: a block holding data written after the reset is left to GC (kept)",
          "[zns][zone_reset][job]") {
  const bool timed = GENERATE(true, false);
  FfDrive d(gc_drive_settings());
  IntegrityChecker checker(d.g.logical_units);
  BlockManager& blocks = d.ftl->state().blocks();
  const uint32_t kept = write_pages(d, 0, d.g.pages_per_block);  // valid: written after the reset
  const uint32_t empty = write_pages(d, d.g.units_per_block, d.g.pages_per_block);
  trim(d, d.g.units_per_block, d.g.units_per_block);
  REQUIRE(kept != empty);
  auto run = [&](auto& x) {
    x.job().reset(1, {});  // no block: done at once
    CHECK(x.completed == std::vector<uint32_t>{1});
    x.job().reset(2, {kept, empty});
    while (x.in_flight()) x.complete();
    CHECK(x.completed == std::vector<uint32_t>{1, 2});
    CHECK(x.issued == 1);  // the empty block only
    CHECK(x.job().kept() == 1);
    CHECK(x.job().erases() == 1);
  };
  if (timed) {
    FakeZoneExec<true> x(d, checker);
    run(x);
  } else {
    FakeZoneExec<false> x(d, checker);
    run(x);
  }
  CHECK(blocks.state(kept) == BlockState::Full);
  CHECK(blocks.valid(kept) == d.g.units_per_block);
  CHECK(blocks.state(empty) == BlockState::Free);
  CHECK(checker.errors() == 0);
}
