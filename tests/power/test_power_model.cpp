// The power algorithms without a simulation: energy from counters (conservation, hand values), the power
// budget's admission and kicks, APST's states and exit latencies, the RC thermal model and its throttle.
#include <catch2/catch.hpp>

#include <cmath>

#include "power/apst.h"
#include "power/energy.h"
#include "power/power_budget.h"
#include "power/power_meter.h"
#include "power/thermal.h"

using namespace ssdtlm;

TEST_CASE("energy of counters: each component by hand, parts sum to the total", "[power]") {
  PowerParams p;
  p.cell_bits = 3;  // TLC: its own powers
  p.nand[2] = NandOpPower{0.05, 0.1, 0.2};
  const uint32_t dies = 4;
  PowerCounters c;
  c.span_ps = 2'000'000'000'000;  // 2 s
  c.array_ps[0] = 1'000'000'000;   // 1 ms of tR
  c.array_ps[1] = 30'000'000'000;  // 30 ms of tPROG
  c.array_ps[2] = 7'000'000'000;   // 7 ms of tBERS
  c.bus_bytes = 1 << 20;
  c.flash_ops = 1000;
  c.dram_accesses = 5000;
  c.dram_bytes = 3 << 20;
  c.commands = 700;
  c.pcie_bytes = 2 << 20;
  const EnergyBreakdown e = energy_of(p, dies, c);
  const double nand = 0.05 * 1e-3 + 0.1 * 30e-3 + 0.2 * 7e-3 + p.nand_standby_w * dies * 2;
  CHECK(e.j[uint32_t(PowerComponent::Nand)] == Approx(nand).epsilon(1e-12));
  CHECK(e.j[uint32_t(PowerComponent::Channel)] == Approx(p.channel_pj_per_byte * 1e-12 * (1 << 20)));
  CHECK(e.j[uint32_t(PowerComponent::Dram)] ==
        Approx(p.dram_nj_per_access * 1e-9 * 5000 + p.dram_pj_per_byte * 1e-12 * (3 << 20) + p.dram_idle_w * 2));
  CHECK(e.j[uint32_t(PowerComponent::Controller)] ==
        Approx(p.controller_nj_per_command * 1e-9 * 700 + p.controller_nj_per_flash_op * 1e-9 * 1000 + p.controller_idle_w * 2));
  CHECK(e.j[uint32_t(PowerComponent::Pcie)] == Approx(p.pcie_pj_per_byte * 1e-12 * (2 << 20) + p.pcie_idle_w * 2));
  double sum = 0;
  for (double x : e.j) sum += x;
  CHECK(e.total() == Approx(sum).epsilon(1e-15));

  SECTION("array time on blocks run in SLC mode (slc.*) is charged at the SLC powers, the rest at the dies' type") {
    p.nand[0] = NandOpPower{0.02, 0.03, 0.04};
    PowerCounters slc = c;
    slc.slc_array_ps[1] = 10'000'000'000;  // 10 of the 30 ms of tPROG were SLC-mode programs
    slc.slc_array_ps[0] = 1'000'000'000;   // and all the tR
    const EnergyBreakdown es = energy_of(p, dies, slc);
    CHECK(es.j[uint32_t(PowerComponent::Nand)] ==
          Approx(0.02 * 1e-3 + 0.1 * 20e-3 + 0.03 * 10e-3 + 0.2 * 7e-3 + p.nand_standby_w * dies * 2).epsilon(1e-12));
  }

  SECTION("time in an idle power state draws that state's power instead of the floor, shared by the floor's parts") {
    PowerCounters low = c;
    low.low_power_ps = 1'000'000'000'000;  // 1 s of the 2 s
    low.low_power_j = 0.005;               // at 5 mW
    const EnergyBreakdown el = energy_of(p, dies, low);
    CHECK(el.total() == Approx(e.total() - p.floor_w(dies) * 1.0 + 0.005));
    CHECK(el.j[uint32_t(PowerComponent::Dram)] - (e.j[uint32_t(PowerComponent::Dram)] - p.dram_idle_w) ==
          Approx(0.005 * p.dram_idle_w / p.floor_w(dies)));
  }
}

namespace {
struct Kicked : PowerBudget::Waiter {
  int kicks = 0;
  uint32_t last_die = ~0u;
  void budget_freed(uint32_t die) override {
    ++kicks;
    last_die = die;
  }
};
}  // namespace

TEST_CASE("power budget: admits while floor + running + new fits, oldest refused first, kicks when power returns", "[power]") {
  PowerBudget b(1.0, 1.0 + 2 * 0.1 + 0.05);  // room for two 0.1 W operations
  Kicked a, c;
  CHECK(b.acquire(0.1, &a, 0, false));
  CHECK(b.acquire(0.1, &a, 1, false));
  CHECK_FALSE(b.acquire(0.1, &c, 0, false));
  CHECK_FALSE(b.acquire(0.1, &c, 0, true));  // queued once
  CHECK(b.refusals() == 2);
  CHECK(b.waiting() == 1);
  CHECK(b.active_ops() == 2);
  b.notify();
  CHECK(c.kicks == 0);  // nothing given back yet
  b.release(0.1);
  CHECK_FALSE(b.acquire(0.1, &a, 0, false));  // power is back, but c's die waited first
  CHECK(b.waiting() == 2);
  b.notify();
  CHECK(c.kicks == 1);  // (it does not ask within the kick: the kicks stop there)
  CHECK(a.kicks == 0);
  CHECK(b.acquire(0.1, &c, 0, true));
  CHECK(b.waiting() == 1);
  CHECK(b.peak_active_ops() == 2);
  CHECK(b.peak_active_w() == Approx(0.2));
  SECTION("a throttle lowers the envelope; lifting it kicks the waiters") {
    b.set_throttle(1.0 + 0.1 + 0.05);  // one operation
    b.release(0.1);
    b.notify();
    CHECK(a.kicks == 0);               // one still runs: a's does not fit
    CHECK_FALSE(b.acquire(0.1, &a, 0, true));
    b.set_throttle(0);  // back to the configured budget: a's fits
    CHECK(a.kicks == 1);
    CHECK(b.acquire(0.1, &a, 0, true));
    CHECK(b.waiting() == 0);
  }
  SECTION("without any budget left (thermal throttle lifted, none configured) every waiting die is kicked") {
    PowerBudget t(1.0, 0);
    t.set_throttle(1.15);
    Kicked x, y;
    CHECK(t.acquire(0.1, &x, 0, false));
    CHECK_FALSE(t.acquire(0.1, &y, 3, false));
    t.set_throttle(0);
    CHECK(y.kicks == 1);
    CHECK(y.last_die == 3);
    CHECK(t.waiting() == 0);
    CHECK(t.acquire(0.1, &y, 3, true));
  }
}

TEST_CASE("APST: the deepest state reached sets the exit latency, and the time in each state is accounted", "[power]") {
  // PS3: 40 mW, entry 2 ms, exit 1.2 ms, entered after 100 ms idle; PS4: 5 mW, entry 0.5 ms, exit 9.5 ms, after 300 ms.
  const uint64_t ms = 1'000'000'000;
  Apst a({PowerState{0.04, 2 * ms, 1200'000'000, 100 * ms}, PowerState{0.005, ms / 2, 9500'000'000, 300 * ms}});
  CHECK(a.wake(5 * ms) == 0);  // never idle yet
  a.idle_from(10 * ms);
  CHECK(a.state_at(50 * ms) == 0);
  CHECK(a.state_at(200 * ms) == 1);
  CHECK(a.wake(60 * ms) == 0);  // 50 ms idle: still operational
  a.idle_from(100 * ms);
  CHECK(a.wake(250 * ms) == 1200'000'000);  // 150 ms idle: in PS3
  CHECK(a.low_power_ps() == 150 * ms - 102 * ms);
  a.idle_from(1000 * ms);
  CHECK(a.wake(1000 * ms + 101 * ms) == ms + 1200'000'000);  // PS3's entry not over: its rest, then the exit
  a.idle_from(2000 * ms);
  CHECK(a.wake(3000 * ms) == 9500'000'000);  // 1 s idle: in PS4
  CHECK(a.state_ps[0] == 48 * ms + 198 * ms);
  CHECK(a.state_ps[1] == 1000 * ms - 300 * ms - ms / 2);
  CHECK(a.low_power_j() == Approx(0.04 * (0.048 + 0.198) + 0.005 * 0.6995));
  CHECK(a.wakeups() == 3);
}

TEST_CASE("thermal: exact RC step, steady state at ambient + P R, TMT1/TMT2 throttling with hysteresis", "[power]") {
  ThermalParams t;
  t.enabled = true;
  t.ambient_c = 25;
  t.r_c_per_w = 10;
  t.c_j_per_c = 1;  // tau = 10 s
  t.tmt1_c = 60;
  t.tmt2_c = 70;
  t.tmt1_budget_w = 3;
  t.tmt2_budget_w = 2;
  ThermalModel m(t);
  const uint64_t s = 1'000'000'000'000;
  m.step(5.0, 10 * s);  // one time constant toward 75 C: 56.6 C
  CHECK(m.temp_c() == Approx(75 - 50 * std::exp(-1.0)));
  CHECK(m.level() == 0);
  CHECK(m.budget_w() == 0);
  m.step(5.0, 10 * s);  // 68.2 C: light
  CHECK(m.temp_c() == Approx(75 - 50 * std::exp(-2.0)));
  CHECK(m.level() == 1);
  CHECK(m.budget_w() == 3);
  m.step(5.0, 10 * s);  // 72.5 C: heavy
  CHECK(m.level() == 2);
  CHECK(m.budget_w() == 2);
  const double top = 75 - 50 * std::exp(-3.0);
  m.step(0.0, s * 3 / 10);  // 71.1 C: still above TMT2 - hysteresis
  CHECK(m.temp_c() == Approx(25 + (top - 25) * std::exp(-0.03)));
  CHECK(m.level() == 2);
  m.step(0.0, s);  // 66.7 C: below 68, above 60: light
  CHECK(m.level() == 1);
  m.step(0.0, 5 * s);  // 50.3 C: below 58: none
  CHECK(m.level() == 0);
  CHECK(m.max_c() == Approx(top));
  CHECK(m.throttled_ps() == 10 * s + s * 3 / 10 + s + 5 * s);  // the level at each step's start holds for it
  CHECK(m.heavy_ps() == s * 3 / 10 + s);
  CHECK(m.transitions() == 4);
}

TEST_CASE("power meter: interval power from counter deltas, the thermal throttle sets the budget", "[power]") {
  PowerParams p;
  ThermalParams t;
  t.enabled = true;
  t.r_c_per_w = 10;
  t.c_j_per_c = 0.001;  // tau = 10 ms: at steady state within an interval
  t.tmt1_c = 40;
  t.tmt2_c = 60;
  t.tmt1_budget_w = 3;
  t.tmt2_budget_w = 2;
  const uint32_t dies = 2;
  PowerBudget b(p.floor_w(dies), 0);
  PowerMeter m(p, t, FlashParams::plain(DieTiming{}), dies, &b);
  PowerCounters c;
  c.span_ps = 1'000'000'000'000;  // 1 s idle: the floor
  PowerSample s = m.sample(c);
  CHECK(s.total_w == Approx(p.floor_w(dies)));
  CHECK(s.temp_c == Approx(25 + 10 * p.floor_w(dies)));  // 39.5 C: below TMT1
  CHECK_FALSE(b.limited());
  c.span_ps += 1'000'000'000'000;
  c.array_ps[1] += 2'000'000'000'000;  // two dies programming for the whole second
  s = m.sample(c);
  CHECK(s.w[uint32_t(PowerComponent::Nand)] == Approx(2 * p.nand[0].program_w + dies * p.nand_standby_w));
  CHECK(s.throttle == 1);
  CHECK(b.limit_w() == 3);
  CHECK(m.peak_w() == Approx(p.floor_w(dies) + 2 * p.nand[0].program_w));
}
