// Module test of ChannelController with a harness (VCML style): the harness owns the module under test and
// an initiator socket, drives NAND operations and checks their completion times against ONFI arithmetic.
#include <catch2/catch.hpp>

#include "controller/flash_harness.h"

using namespace ssdtlm;

TEST_CASE("channel controller follows ONFI timing with die overlap and cache program", "[module][flash]") {
  FlashHarness h("harness", FlashParams(), 2);
  const uint32_t page = h.g.page_bytes;
  // Two programs to die 0 (cache program overlaps the second data-in with the first tPROG),
  // one program to die 1 (waits only for the bus), then a partial read of die 0 page 0, and an erase of die 1.
  h.issue(FlashCmd::Program, 0, 0, 0);
  h.issue(FlashCmd::Program, 0, 0, 1);
  h.issue(FlashCmd::Program, 1, 0, 0);
  h.issue(FlashCmd::Read, 0, 0, 0, 0, 0b10);
  sc_core::sc_start();
  REQUIRE(h.done.size() == 4);
  auto at = [&](FlashCmd c, uint32_t die, uint32_t pg) { return h.at(c, die, 0, pg); };
  const double in = FlashHarness::bus_us(page);
  constexpr double kTr = FlashHarness::kTr, kTprog = FlashHarness::kTprog;
  // die 0, page 0: data-in then tPROG
  CHECK(at(FlashCmd::Program, 0, 0) == Approx(in + kTprog).margin(1e-3));
  // die 1: the bus is first come, first served; die 0's second (cache) program asked first, so die 1's
  // data-in takes the third slot
  CHECK(at(FlashCmd::Program, 1, 0) == Approx(3 * in + kTprog).margin(1e-3));
  // die 0, page 1: data-in during the first tPROG (cache register), tPROG starts when the array is free
  CHECK(at(FlashCmd::Program, 0, 1) == Approx(in + 2 * kTprog).margin(1e-3));
  // read waits for die 0's array, then tR, then 4 KiB of data-out
  CHECK(at(FlashCmd::Read, 0, 0) == Approx(in + 2 * kTprog + kTr + FlashHarness::bus_us(4096)).margin(1e-3));
  for (auto& op : h.done)
    if (op.cmd == FlashCmd::Read) {
      CHECK(op.lpn[1] == 1);  // OOB of die 0, page 0, slot 1
      CHECK(op.version[1] == 7);
    }
  CHECK(h.dies[0]->kind(1) == UnitKind::UD);
  CHECK(h.dies[0]->programmed(0, 1));
  CHECK(!h.dies[0]->programmed(0, 2));
}

TEST_CASE("die enforces NAND rules", "[flash]") {
  Config c;
  c.set("geometry.channels=1");
  c.set("geometry.dies_per_channel=1");
  c.set("geometry.blocks_per_plane=32");
  c.set("geometry.pages_per_block=4");
  Geometry g = read_geometry(c, 4);
  Die d(g, 0, false);
  uint32_t lpns[2] = {1, 2};
  d.program(0, 0, lpns, nullptr, UnitKind::UD);
  CHECK_THROWS_AS(d.program(0, 2, lpns, nullptr, UnitKind::UD), NandRuleViolation);  // skips page 1
  CHECK_THROWS_AS(d.program(0, 0, lpns, nullptr, UnitKind::UD), NandRuleViolation);  // reprogram
  d.erase(0);
  CHECK(d.erase_count(0) == 1);
  CHECK(d.lpn(0) == kInvalid);
  CHECK_NOTHROW(d.program(0, 0, lpns, nullptr, UnitKind::UD));
}
