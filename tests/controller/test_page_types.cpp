// Module test of page-type latencies (flash.cell): TLC pages take their type's tR and tPROG, one-shot
// programming takes one tPROG per wordline, and the default SLC keeps the plain timing.
#include "controller/flash_harness.h"

using namespace ssdtlm;

namespace {
FlashParams tlc(bool one_shot) {
  Config c;
  c.set("flash.cell=tlc");
  c.set("timing.t_read_us=60");
  c.set("timing.t_prog_us=700");
  c.set("timing.page_read_us=50,70,110");
  c.set("timing.page_prog_us=500,2000,5000");
  c.set(std::string("flash.one_shot=") + (one_shot ? "true" : "false"));
  return read_flash_params(c);
}
}  // namespace

TEST_CASE("TLC page types give the configured latencies and one-shot programs a wordline at once", "[module][flash][cell]") {
  FlashHarness h("h", tlc(false)), os("os", tlc(true));
  for (FlashHarness* x : {&h, &os}) {
    for (uint32_t pg = 0; pg < 3; ++pg) x->issue(FlashCmd::Program, 0, 0, pg);
    for (uint32_t pg = 0; pg < 3; ++pg) x->issue(FlashCmd::Read, 0, 0, pg);
  }
  sc_core::sc_start();
  const double in = h.page_in_us(), out = FlashHarness::bus_us(kUnitBytes);
  // cache programs: each tPROG starts when the previous ends
  CHECK(h.at(FlashCmd::Program, 0, 0, 0) == Approx(in + 500).margin(1e-6));
  CHECK(h.at(FlashCmd::Program, 0, 0, 1) == Approx(in + 2500).margin(1e-6));
  CHECK(h.at(FlashCmd::Program, 0, 0, 2) == Approx(in + 7500).margin(1e-6));
  const double r0 = h.at(FlashCmd::Read, 0, 0, 0);
  CHECK(r0 == Approx(in + 7500 + 50 + out).margin(1e-6));
  CHECK(h.at(FlashCmd::Read, 0, 0, 1) == Approx(r0 + 70 + out).margin(1e-6));
  CHECK(h.at(FlashCmd::Read, 0, 0, 2) == Approx(r0 + 70 + out + 110 + out).margin(1e-6));
  // one-shot: LSB and CSB only transfer their data; the MSB page programs the wordline in one tPROG (5000)
  CHECK(os.at(FlashCmd::Program, 0, 0, 0) == Approx(in).margin(1e-6));
  CHECK(os.at(FlashCmd::Program, 0, 0, 1) == Approx(2 * in).margin(1e-6));
  CHECK(os.at(FlashCmd::Program, 0, 0, 2) == Approx(3 * in + 5000).margin(1e-6));
  CHECK(double(h.dut->stats().die_array_busy_ps) / 1e6 == Approx(7500 + 230).margin(1e-6));
  CHECK(double(os.dut->stats().die_array_busy_ps) / 1e6 == Approx(5000 + 230).margin(1e-6));
  // page types repeat per wordline: page 4 is a CSB page
  const FlashParams p = tlc(false);
  CHECK(p.page_type(4) == 1);
  CHECK(p.read_ps(4) == us_to_ps(70));
  CHECK(p.prog_ps(5) == us_to_ps(5000));
}

TEST_CASE("default flash options are today's plain SLC timing", "[flash][cell]") {
  const Config c;
  const FlashParams p = read_flash_params(c);
  CHECK(p.page_types == 1);
  CHECK(p.suspend == SuspendMode::None);
  CHECK(p.die_sched == DieSched::Fifo);
  CHECK(!p.one_shot);
  for (uint32_t pg = 0; pg < 8; ++pg) {
    CHECK(p.read_ps(pg) == us_to_ps(c.d("timing.t_read_us")));
    CHECK(p.prog_ps(pg) == us_to_ps(c.d("timing.t_prog_us")));
  }
  CHECK(p.timing.t_erase_ps == us_to_ps(c.d("timing.t_erase_us")));
  // MLC without per-type lists: every type at timing.t_*_us
  Config m;
  m.set("flash.cell=mlc");
  const FlashParams q = read_flash_params(m);
  CHECK(q.page_types == 2);
  CHECK(q.read_ps(1) == us_to_ps(60));
  CHECK(q.prog_ps(1) == us_to_ps(700));
}
