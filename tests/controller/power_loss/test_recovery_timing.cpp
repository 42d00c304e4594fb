// The power-loss recovery times its reads and programs with the channel controller's own operation times
// (flash/nand_timing.h): one operation on an idle die takes, in the recovery's timeline, exactly what the channel
// controller schedules for it, with the planes worked in turn (flash.multiplane=never), page types and SLC-mode
// blocks, and the dump is written in the pages the FTL programs.
#include <algorithm>

#include "controller/flash_harness.h"
#include "controller/power_loss/recovery_plan.h"

using namespace ssdtlm;

namespace {

FlashParams with(MultiPlane m) {
  FlashParams p;
  p.multiplane = m;
  p.slc = DieTiming{us_to_ps(20), us_to_ps(200), us_to_ps(1500)};
  return p;
}

// The recovery's time for one operation alone on die 0 of the harness's drive.
template <class Op>
uint64_t alone(const FlashHarness& h, FlashParams p, Op&& op) {
  p.timing = DieTiming{us_to_ps(FlashHarness::kTr), us_to_ps(FlashHarness::kTprog), us_to_ps(FlashHarness::kTerase)};
  const Channel bus(FlashHarness::kMts, 1, FlashHarness::kCmdNs);
  const NandTiming t(h.g, p, bus);
  RecoveryTimeline rec(h.g, t);
  op(rec);
  return rec.span(0, 1);
}

}  // namespace

TEST_CASE("recovery timing: a program and a read take what the channel controller schedules", "[power_loss][flash][multiplane]") {
  FlashHarness always("always", with(MultiPlane::Always), 1, 2);
  FlashHarness never("never", with(MultiPlane::Never), 1, 2);
  const uint32_t all = (1u << always.g.units_per_page) - 1;  // every unit of the two planes
  for (FlashHarness* h : {&always, &never}) {
    h->issue(FlashCmd::Program, 0, 0, 0);
    h->issue(FlashCmd::Program, 0, 1, 0, 2000);
    h->issue(FlashCmd::Read, 0, 0, 0, 5000, all);
    h->issue(FlashCmd::Read, 0, 1, 0, 10000, all, true);  // a block in SLC mode
  }
  sc_core::sc_start();
  const uint64_t at_read = us_to_ps(5000), at_slc = us_to_ps(10000);
  for (auto [h, m] : {std::pair{&always, MultiPlane::Always}, std::pair{&never, MultiPlane::Never}}) {
    INFO((m == MultiPlane::Never ? "never" : "always"));
    const uint32_t planes = h->g.planes, page_bytes = h->g.units_per_page * kUnitBytes;
    CHECK(alone(*h, with(m), [&](RecoveryTimeline& r) { r.program(0, 0); }) ==
          h->done_ps(FlashCmd::Program, 0, 0, 0));
    CHECK(alone(*h, with(m), [&](RecoveryTimeline& r) { r.read(0, 0, page_bytes, planes); }) ==
          h->done_ps(FlashCmd::Read, 0, 0, 0) - at_read);
    CHECK(alone(*h, with(m), [&](RecoveryTimeline& r) { r.read(0, 0, page_bytes, planes, true); }) ==
          h->done_ps(FlashCmd::Read, 0, 1, 0) - at_slc);
  }
  // The planes in turn: twice the array time of the multi-plane operation.
  CHECK(never.done_ps(FlashCmd::Program, 0, 0, 0) - always.done_ps(FlashCmd::Program, 0, 0, 0) ==
        us_to_ps(FlashHarness::kTprog));
  CHECK(never.done_ps(FlashCmd::Read, 0, 1, 0) - always.done_ps(FlashCmd::Read, 0, 1, 0) == us_to_ps(20));
}

TEST_CASE("recovery timing: per-type page times and the firmware's share", "[power_loss][flash]") {
  Config c;
  for (const char* s : {"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.planes_per_die=1",
                        "geometry.blocks_per_plane=32", "geometry.pages_per_block=6"})
    c.set(s);
  const Geometry g = read_geometry(c, 4);
  FlashParams p;
  p.timing = DieTiming{us_to_ps(50), us_to_ps(500), us_to_ps(3000)};
  p.page_types = 3;
  const uint64_t read_ps[3] = {us_to_ps(50), us_to_ps(70), us_to_ps(110)};
  const uint64_t prog_ps[3] = {us_to_ps(500), us_to_ps(2000), us_to_ps(5000)};
  std::copy(read_ps, read_ps + 3, p.page_read_ps);
  std::copy(prog_ps, prog_ps + 3, p.page_prog_ps);
  p.derive();
  const Channel bus(400, 1, 20);
  const NandTiming t(g, p, bus);
  RecoveryTimeline rec(g, t);
  for (uint32_t page = 0; page < 3; ++page) rec.program(0, page);  // LSB, CSB, MSB on die 0
  rec.read(rec.next_die(), 2, 64, 1);  // die 0: an MSB page's 64 bytes
  const uint64_t in = bus.transfer_ps(g.units_per_page * kUnitBytes), out = bus.transfer_ps(64);
  CHECK(rec.ops() == 4);
  CHECK(rec.span(0, 1) == 3 * in + prog_ps[0] + prog_ps[1] + prog_ps[2] + read_ps[2] + out);
  // Firmware time per operation over the cores, when it is the longer.
  CHECK(rec.span(us_to_ps(10000), 2) == 4 * us_to_ps(10000) / 2);
}
