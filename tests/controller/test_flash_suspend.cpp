// Module tests of program/erase suspend (flash.suspend) and die scheduling (flash.die_sched) on a
// ChannelController in a harness: completion times against the arithmetic of docs/reference/hardware.md.
#include "controller/flash_harness.h"

using namespace ssdtlm;

namespace {
constexpr double kTs = 20, kTres = 15;  // distinct, so a swapped use shows
FlashParams suspend_params(SuspendMode m, uint32_t max_suspends = 8) {
  FlashParams p;
  p.suspend = m;
  p.t_suspend_ps = us_to_ps(kTs);
  p.t_resume_ps = us_to_ps(kTres);
  p.max_suspends = max_suspends;
  return p;
}
double out_us(uint32_t units = 1) { return FlashHarness::bus_us(units * kUnitBytes); }
}  // namespace

TEST_CASE("suspend: a read on a programming die waits t_suspend + tR + data-out and delays the program by its share plus t_resume", "[module][flash][suspend]") {
  FlashHarness h("h", suspend_params(SuspendMode::Program));
  FlashHarness plain("plain", FlashParams());  // the same ops without suspend
  for (FlashHarness* x : {&h, &plain}) {
    x->issue(FlashCmd::Program, 0, 0, 0);
    x->issue(FlashCmd::Read, 0, 1, 0, 200);  // arrives 200 us in, during tPROG
  }
  sc_core::sc_start();
  const double in = h.page_in_us(), prog_end = in + FlashHarness::kTprog;
  const double read = h.at(FlashCmd::Read, 0, 1, 0);
  CHECK(read == Approx(200 + kTs + FlashHarness::kTr + out_us()).margin(1e-6));
  CHECK(h.at(FlashCmd::Program, 0, 0, 0) == Approx(prog_end + (read - 200) + kTres).margin(1e-6));
  // without suspend the read waits for the program
  CHECK(plain.at(FlashCmd::Program, 0, 0, 0) == Approx(prog_end).margin(1e-6));
  CHECK(plain.at(FlashCmd::Read, 0, 1, 0) == Approx(prog_end + FlashHarness::kTr + out_us()).margin(1e-6));
  const ChannelStats& s = h.dut->stats();
  CHECK(s.suspends[uint32_t(FlashCmd::Program)] == 1);
  CHECK(s.suspends[uint32_t(FlashCmd::Erase)] == 0);
  CHECK(s.suspended_reads == 1);
  CHECK(double(s.suspended_ps) / 1e6 == Approx(read - 200 + kTres).margin(1e-6));
  // the die's array time: tPROG + tR + t_suspend + t_resume
  CHECK(double(s.die_array_busy_ps) / 1e6 == Approx(FlashHarness::kTprog + FlashHarness::kTr + kTs + kTres).margin(1e-6));
  CHECK(plain.dut->stats().suspends[1] == 0);
  CHECK(h.dies[0]->programmed(0, 0));
}

TEST_CASE("suspend: program mode leaves erases alone and program_erase suspends them", "[module][flash][suspend]") {
  FlashHarness p("p", suspend_params(SuspendMode::Program));
  FlashHarness pe("pe", suspend_params(SuspendMode::ProgramErase));
  for (FlashHarness* x : {&p, &pe}) {
    x->issue(FlashCmd::Erase, 0, 2, 0);
    x->issue(FlashCmd::Read, 0, 1, 0, 1000);
  }
  sc_core::sc_start();
  const double te = FlashHarness::kTerase, tr = FlashHarness::kTr;
  CHECK(p.at(FlashCmd::Erase, 0, 2, 0) == Approx(te).margin(1e-6));
  CHECK(p.at(FlashCmd::Read, 0, 1, 0) == Approx(te + tr + out_us()).margin(1e-6));
  const double read = pe.at(FlashCmd::Read, 0, 1, 0);
  CHECK(read == Approx(1000 + kTs + tr + out_us()).margin(1e-6));
  CHECK(pe.at(FlashCmd::Erase, 0, 2, 0) == Approx(te + (read - 1000) + kTres).margin(1e-6));
  CHECK(pe.dut->stats().suspends[uint32_t(FlashCmd::Erase)] == 1);
  CHECK(p.dut->stats().suspends[uint32_t(FlashCmd::Erase)] == 0);
  CHECK(pe.dies[0]->erase_count(2) == 1);
}

TEST_CASE("suspend: reads ready when a suspension begins share it and max_suspends bounds the rest", "[module][flash][suspend]") {
  FlashHarness h("h", suspend_params(SuspendMode::Program, 1));
  h.issue(FlashCmd::Program, 0, 0, 0);
  h.issue(FlashCmd::Read, 0, 1, 0, 100);
  h.issue(FlashCmd::Read, 0, 1, 1, 100);
  h.issue(FlashCmd::Read, 0, 1, 2, 400);  // after the one allowed suspension: waits for the program
  sc_core::sc_start();
  const double tr = FlashHarness::kTr, out = out_us();
  const double r1 = h.at(FlashCmd::Read, 0, 1, 0), r2 = h.at(FlashCmd::Read, 0, 1, 1);
  CHECK(r1 == Approx(100 + kTs + tr + out).margin(1e-6));
  CHECK(r2 == Approx(r1 + tr + out).margin(1e-6));  // same suspension: no second t_suspend
  const double prog = h.at(FlashCmd::Program, 0, 0, 0);
  CHECK(prog == Approx(h.page_in_us() + FlashHarness::kTprog + (r2 - 100) + kTres).margin(1e-6));
  CHECK(h.at(FlashCmd::Read, 0, 1, 2) == Approx(prog + tr + out).margin(1e-6));
  CHECK(h.dut->stats().suspends[uint32_t(FlashCmd::Program)] == 1);
  CHECK(h.dut->stats().suspended_reads == 2);
}

TEST_CASE("read_first: a read overtakes queued programs at most read_first_limit times per program", "[module][flash][die_sched]") {
  FlashParams rf;
  rf.die_sched = DieSched::ReadFirst;
  rf.read_first_limit = 1;
  FlashHarness fifo("fifo", FlashParams()), first("first", rf);
  for (FlashHarness* x : {&fifo, &first}) {  // all queued at 0, ready 10 us later (firmware time)
    for (uint32_t pg = 0; pg < 3; ++pg) x->issue(FlashCmd::Program, 0, 0, pg, 10);
    x->issue(FlashCmd::Read, 0, 1, 0, 10);
    x->issue(FlashCmd::Read, 0, 1, 1, 10);
  }
  sc_core::sc_start();
  const double in = fifo.page_in_us(), tp = FlashHarness::kTprog, tr = FlashHarness::kTr, out = out_us();
  // fifo: both reads wait for three programs
  CHECK(fifo.at(FlashCmd::Read, 0, 1, 0) == Approx(10 + in + 3 * tp + tr + out).margin(1e-6));
  // read_first: the first read goes ahead of everything; the second may not overtake program 0 again, but
  // overtakes program 1 once program 0 has started (a program whose data-in is done is the die's, as is a
  // cache program's staged data: read_first reorders the queue only)
  const double r1 = first.at(FlashCmd::Read, 0, 1, 0);
  CHECK(r1 == Approx(10 + tr + out).margin(1e-6));
  const double p0 = first.at(FlashCmd::Program, 0, 0, 0);
  CHECK(p0 == Approx(r1 + in + tp).margin(1e-6));
  CHECK(first.at(FlashCmd::Read, 0, 1, 1) == Approx(p0 + tr + out).margin(1e-6));
  CHECK(first.order(FlashCmd::Read, 0, 1, 1) < first.order(FlashCmd::Program, 0, 0, 1));
  CHECK(first.dut->stats().read_overtakes == 2);
  CHECK(fifo.dut->stats().read_overtakes == 0);
  CHECK(first.done.size() == 5);
  for (uint32_t pg = 0; pg < 3; ++pg) CHECK(first.dies[0]->programmed(0, pg));
}
