// Module tests of multi-plane operations (flash.multiplane, flash.plane_rule) on a ChannelController with a
// two-plane die: completion times against the arithmetic of docs/reference/hardware.md.
#include "controller/flash_harness.h"

using namespace ssdtlm;

namespace {
FlashParams mp(MultiPlane m, bool any = false) {
  FlashParams p;
  p.multiplane = m;
  p.plane_any = any;
  return p;
}
double out_us(uint32_t units) { return FlashHarness::bus_us(units * kUnitBytes); }
constexpr uint32_t kPlane0 = 0x3, kPlane1 = 0xC;  // 8 KiB pages: two 4 KiB units per plane
}  // namespace

TEST_CASE("multi-plane: a program of two planes takes one tPROG, without multi-plane two", "[module][flash][multiplane]") {
  FlashHarness always("always", mp(MultiPlane::Always), 1, 2);
  FlashHarness opp("opp", mp(MultiPlane::Opportunistic), 1, 2);
  FlashHarness never("never", mp(MultiPlane::Never), 1, 2);
  for (FlashHarness* h : {&always, &opp, &never}) {
    REQUIRE(h->g.units_per_page == 4);
    h->issue(FlashCmd::Program, 0, 0, 0);
    h->issue(FlashCmd::Erase, 0, 1, 0, 2000);
  }
  sc_core::sc_start();
  const double in = always.bus_us(2 * always.g.page_bytes);  // both planes' data-in
  CHECK(always.at(FlashCmd::Program, 0, 0, 0) == Approx(in + FlashHarness::kTprog).margin(1e-6));
  CHECK(opp.at(FlashCmd::Program, 0, 0, 0) == Approx(in + FlashHarness::kTprog).margin(1e-6));
  CHECK(never.at(FlashCmd::Program, 0, 0, 0) == Approx(in + 2 * FlashHarness::kTprog).margin(1e-6));
  CHECK(always.at(FlashCmd::Erase, 0, 1, 0) == Approx(2000 + FlashHarness::kTerase).margin(1e-6));
  CHECK(never.at(FlashCmd::Erase, 0, 1, 0) == Approx(2000 + 2 * FlashHarness::kTerase).margin(1e-6));
  CHECK(always.dut->stats().plane_ops == 2);
  CHECK(always.dut->stats().multiplane_ops == 2);
  CHECK(never.dut->stats().plane_ops == 4);  // each operation once per plane
  CHECK(never.dut->stats().multiplane_ops == 0);
}

TEST_CASE("multi-plane: opportunistic reads to different planes of a die overlap their tR when the plane rule allows", "[module][flash][multiplane]") {
  FlashHarness always("always", mp(MultiPlane::Always), 1, 2);
  FlashHarness same("same", mp(MultiPlane::Opportunistic), 1, 2);
  FlashHarness other_page("other_page", mp(MultiPlane::Opportunistic), 1, 2);
  FlashHarness any("any", mp(MultiPlane::Opportunistic, true), 1, 2);
  FlashHarness same_plane("same_plane", mp(MultiPlane::Opportunistic, true), 1, 2);
  // A program keeps the die busy while the reads queue (a read reaching an idle die starts alone at once).
  for (FlashHarness* h : {&always, &same, &other_page, &any, &same_plane}) h->issue(FlashCmd::Program, 0, 9, 0);
  for (FlashHarness* h : {&always, &same, &any}) {
    h->issue(FlashCmd::Read, 0, 0, 3, 0, kPlane0);
    h->issue(FlashCmd::Read, 0, 5, h == &any ? 1 : 3, 0, kPlane1);  // another block; the same page but for `any`
  }
  other_page.issue(FlashCmd::Read, 0, 0, 3, 0, kPlane0);
  other_page.issue(FlashCmd::Read, 0, 5, 1, 0, kPlane1);  // page 1: same_page refuses
  same_plane.issue(FlashCmd::Read, 0, 0, 3, 0, kPlane0);
  same_plane.issue(FlashCmd::Read, 0, 5, 1, 0, kPlane0);  // the same plane: never combined
  sc_core::sc_start();
  const double tr = FlashHarness::kTr, out = out_us(2);
  const double prog = always.bus_us(2 * always.g.page_bytes) + FlashHarness::kTprog;
  const double first = prog + tr + out, serial = first + tr + out, joined = first + out;
  CHECK(always.at(FlashCmd::Program, 0, 9, 0) == Approx(prog).margin(1e-6));
  CHECK(always.at(FlashCmd::Read, 0, 0, 3) == Approx(first).margin(1e-6));
  CHECK(always.at(FlashCmd::Read, 0, 5, 3) == Approx(serial).margin(1e-6));
  CHECK(same.at(FlashCmd::Read, 0, 0, 3) == Approx(first).margin(1e-6));
  CHECK(same.at(FlashCmd::Read, 0, 5, 3) == Approx(joined).margin(1e-6));  // one tR, two data-outs
  CHECK(any.at(FlashCmd::Read, 0, 5, 1) == Approx(joined).margin(1e-6));
  CHECK(other_page.at(FlashCmd::Read, 0, 5, 1) == Approx(serial).margin(1e-6));
  CHECK(same_plane.at(FlashCmd::Read, 0, 5, 1) == Approx(serial).margin(1e-6));
  CHECK(same.dut->stats().combined_reads == 1);
  CHECK(same.dut->stats().plane_ops == 2);  // the program and the two reads' one tR
  CHECK(same.dut->stats().multiplane_ops == 2);
  CHECK(same.dut->stats().ops[uint32_t(FlashCmd::Read)] == 2);
  CHECK(same.dut->stats().die_array_busy_ps == us_to_ps(FlashHarness::kTprog) + us_to_ps(tr));
  CHECK(always.dut->stats().multiplane_ops == 1);  // the program; the reads work one plane each
  CHECK(always.dut->stats().combined_reads == 0);
  CHECK(other_page.dut->stats().combined_reads == 0);
}

TEST_CASE("multi-plane: never reads one plane at a time", "[module][flash][multiplane]") {
  FlashHarness never("never", mp(MultiPlane::Never), 1, 2);
  FlashHarness always("always", mp(MultiPlane::Always), 1, 2);
  for (FlashHarness* h : {&never, &always}) {
    h->issue(FlashCmd::Read, 0, 0, 0, 0, kPlane0 | kPlane1);
    h->issue(FlashCmd::Read, 0, 1, 0, 0, 0x1);
  }
  sc_core::sc_start();
  CHECK(never.at(FlashCmd::Read, 0, 0, 0) == Approx(2 * FlashHarness::kTr + out_us(4)).margin(1e-6));
  CHECK(always.at(FlashCmd::Read, 0, 0, 0) == Approx(FlashHarness::kTr + out_us(4)).margin(1e-6));
  const double second = never.at(FlashCmd::Read, 0, 0, 0) + FlashHarness::kTr + out_us(1);
  CHECK(never.at(FlashCmd::Read, 0, 1, 0) == Approx(second).margin(1e-6));
  CHECK(always.dut->stats().multiplane_ops == 1);
  CHECK(never.dut->stats().plane_ops == 3);
}
