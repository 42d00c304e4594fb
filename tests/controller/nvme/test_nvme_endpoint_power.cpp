// Power states and APST on the endpoint: Identify's power state descriptors, the driver's APST table (Linux's
// nvme_configure_apst rule) through Set Features 0Ch, the states entered at the table's idle times and the exit
// latency the first command after idle pays, APST disabled by APSTE 0, and the tables the model refuses.
#include <cstring>

#include "controller/nvme/endpoint_harness.h"
#include "power/apst.h"

using namespace ssdtlm;
using namespace ssdtlm::nvme;
using namespace ssdtlm::test;

namespace {

constexpr uint64_t kMs = 1000000000ull;

// The Samsung 980 PRO's PS3 and PS4 (power.ps_* defaults): 40 mW, 2 ms in, 1.2 ms out; 5 mW, 0.5 ms in, 9.5 ms out.
std::vector<PowerState> two_states() {
  PowerState a, b;
  a.max_w = 0.04, a.entry_ps = 2 * kMs, a.exit_ps = 1200000000ull;
  b.max_w = 0.005, b.entry_ps = kMs / 2, b.exit_ps = 9500000000ull;
  return {a, b};
}

// A 4 KiB read on queue 0 after `idle_ps` of idle time: its latency.
uint64_t read_after(EndpointBench& b, uint64_t idle_ps) {
  sc_core::wait(ps_time(idle_ps));
  Sqe e = cmd(kRead, 1, 0, 0);
  e.dw[12] = 7;
  e.set_prp(b.drv.data_buffer(), 0);
  const uint64_t start = now_ps();
  CHECK(b.raw(0, e).status == kSuccess);
  return now_ps() - start;
}

uint64_t entry(EndpointBench& b, int ps) {
  uint64_t v = 0;
  std::memcpy(&v, b.mem.at(b.drv.data_buffer() + 8 * ps), 8);
  return v;
}

}  // namespace

TEST_CASE("nvme endpoint: APST enters the power states at the driver's table's idle times, the first command after "
          "idle pays the exit latency") {
  EndpointParams ep = small_ep();
  ep.power_states = two_states();
  DriverParams d = two_queues();
  d.apst = true;  // Linux's rule: PS3 after (2000 + 1200 + 19) / 20 = 160 ms, PS4 (500 + 9500 + 19) / 20 = 500 ms later
  Apst apst(ep.power_states);
  run_bench(ep, d, [&](EndpointBench& b) {
    b.ep.set_apst(&apst);
    b.up();
    const uint64_t buf = b.drv.data_buffer();
    // Identify Controller: NPSS 2, APSTA, PS1's descriptor (MP 400 x 0.0001 W, MXPS and NOPS, ENLAT, EXLAT).
    Sqe id = cmd(kIdentify, 0, kCnsController);
    id.set_prp(buf, 0);
    REQUIRE(b.drv.admin(id).status == kSuccess);
    CHECK(*b.mem.at(buf + 263) == 2);
    CHECK(*b.mem.at(buf + 265) == 1);
    uint32_t mp = 0, enlat = 0, exlat = 0;
    std::memcpy(&mp, b.mem.at(buf + 2048 + 32), 2), std::memcpy(&enlat, b.mem.at(buf + 2048 + 36), 4);
    std::memcpy(&exlat, b.mem.at(buf + 2048 + 40), 4);
    CHECK(mp == 400);
    CHECK(*b.mem.at(buf + 2048 + 35) == 3);
    CHECK(enlat == 2000);
    CHECK(exlat == 1200);
    // Get Features APST: enabled, the table the driver wrote.
    Sqe get = cmd(kGetFeatures, 0, kFeatApst);
    get.set_prp(buf, 0);
    const Completion g = b.drv.admin(get);
    REQUIRE(g.status == kSuccess);
    CHECK(g.result == 1);
    CHECK(entry(b, 0) == (1u << 3 | 160u << 8));
    CHECK(entry(b, 1) == (2u << 3 | 500u << 8));
    CHECK(entry(b, 2) == 0);

    const uint64_t busy = read_after(b, 0);          // the drive was never idle: no wake-up
    CHECK(read_after(b, 100 * kMs) == Approx(busy).margin(100));  // idle 100 ms: still PS0 (ps of link rounding)
    const uint64_t ps3 = read_after(b, 200 * kMs);   // idle 200 ms: in PS3 since 162 ms
    CHECK(ps3 - busy == Approx(1.2e9).margin(1e6));
    const uint64_t ps4 = read_after(b, 1000 * kMs);  // PS4 entered at 160 + 2 + 500 = 662 ms
    CHECK(ps4 - busy == Approx(9.5e9).margin(1e6));
    CHECK(apst.wakeups() == 2);
    CHECK(apst.exit_ps() == 1200000000ull + 9500000000ull);

    // APSTE 0: the table stays, no state is entered.
    Sqe off = cmd(kSetFeatures, 0, kFeatApst, 0);
    std::memset(b.mem.at(buf), 0, 256);
    const uint64_t table[2] = {1u << 3 | 160u << 8, 2u << 3 | 500u << 8};
    std::memcpy(b.mem.at(buf), table, sizeof table);
    off.set_prp(buf, 0);
    REQUIRE(b.drv.admin(off).status == kSuccess);
    CHECK(read_after(b, 1000 * kMs) == Approx(busy).margin(100));
    CHECK(apst.wakeups() == 2);
    // Tables the model refuses: a transition to an operational state, to the state itself, to a state it does not
    // have; and a state beyond NPSS chosen by the host (Power Management).
    const struct {
      int ps;
      uint64_t e;
    } bad[] = {{0, 0u << 3 | 10u << 8}, {1, 1u << 3 | 10u << 8}, {0, 3u << 3 | 10u << 8}};
    for (const auto& x : bad) {
      std::memset(b.mem.at(buf), 0, 256);
      std::memcpy(b.mem.at(buf + 8 * x.ps), &x.e, 8);
      Sqe set = cmd(kSetFeatures, 0, kFeatApst, 1);
      set.set_prp(buf, 0);
      CHECK(b.drv.admin(set).status == kInvalidField);
    }
    CHECK(b.drv.admin(cmd(kSetFeatures, 0, kFeatPowerMgmt, 3)).status == kInvalidField);
  });
}

TEST_CASE("nvme endpoint: Set Features Power Management enters the host's state at once, the next I/O command pays "
          "its entry's rest and exit latency and returns to PS0") {
  EndpointParams ep = small_ep();
  ep.power_states = two_states();
  DriverParams d = two_queues();
  d.apst = true;  // APST's table (PS1 after 160 ms) applies again once the host's state is left
  Apst apst(ep.power_states);
  run_bench(ep, d, [&](EndpointBench& b) {
    b.ep.set_apst(&apst);
    b.up();
    const uint64_t busy = read_after(b, 0);
    const auto power_state = [&] { return b.drv.admin(cmd(kGetFeatures, 0, kFeatPowerMgmt)).result & 0x1F; };
    CHECK(power_state() == 0);
    // PS2 (entry 0.5 ms, exit 9.5 ms) chosen; 10 ms later a read pays the exit only; the drive is in PS0 after it.
    REQUIRE(b.drv.admin(cmd(kSetFeatures, 0, kFeatPowerMgmt, 2)).status == kSuccess);
    CHECK(power_state() == 2);
    CHECK(read_after(b, 10 * kMs) - busy == Approx(9.5e9).margin(1e6));
    CHECK(power_state() == 0);
    CHECK(read_after(b, 10 * kMs) == Approx(busy).margin(100));  // 10 ms idle: below APST's 160 ms
    // PS1 (entry 2 ms, exit 1.2 ms) chosen; a read 0.5 ms later (an admin command's 2 ms between) finds the entry
    // under way: it pays the entry's rest and the exit.
    const uint64_t chosen = now_ps();
    REQUIRE(b.drv.admin(cmd(kSetFeatures, 0, kFeatPowerMgmt, 1)).status == kSuccess);
    const uint64_t set_at = now_ps();
    const uint64_t lat = read_after(b, kMs / 2);
    const uint64_t entered = chosen + 2000000ull /* admin_ps */;  // the command took effect when the firmware had it
    const uint64_t arrival = set_at + kMs / 2;
    CHECK(double(lat - busy) == Approx(double(entered + 2 * kMs - arrival) + 1.2e9).margin(5e6));
    // APST's table again: 200 ms idle enters PS1 (after 160 ms), its exit paid.
    CHECK(read_after(b, 200 * kMs) - busy == Approx(1.2e9).margin(1e6));
    // PS2 chosen, then PS0 chosen: the Set Features completes after the exit latency; the next read pays nothing.
    REQUIRE(b.drv.admin(cmd(kSetFeatures, 0, kFeatPowerMgmt, 2)).status == kSuccess);
    sc_core::wait(ps_time(5 * kMs));
    uint64_t before = now_ps();
    CHECK(power_state() == 2);
    const uint64_t admin_ps = now_ps() - before;  // an admin command's round trip (Get Features)
    before = now_ps();
    REQUIRE(b.drv.admin(cmd(kSetFeatures, 0, kFeatPowerMgmt, 0)).status == kSuccess);
    CHECK(double(now_ps() - before - admin_ps) == Approx(9.5e9).margin(1e6));
    CHECK(power_state() == 0);
    CHECK(read_after(b, 0) == Approx(busy).margin(100));
    CHECK(apst.wakeups() == 4);
    // A controller reset (the driver's bring-up again: CC.EN 0, then 1) leaves a state the host chose.
    REQUIRE(b.drv.admin(cmd(kSetFeatures, 0, kFeatPowerMgmt, 2)).status == kSuccess);
    b.up();
    CHECK(power_state() == 0);
    CHECK(apst.host_state() == 0);
  });
}

TEST_CASE("nvme endpoint: without power states APST is not supported") {
  run_bench(small_ep(), two_queues(), [](EndpointBench& b) {
    b.up();
    Sqe e = cmd(kSetFeatures, 0, kFeatApst, 1);
    e.set_prp(b.drv.data_buffer(), 0);
    CHECK(b.drv.admin(e).status == kInvalidField);
    Sqe id = cmd(kIdentify, 0, kCnsController);
    id.set_prp(b.drv.data_buffer(), 0);
    REQUIRE(b.drv.admin(id).status == kSuccess);
    CHECK(*b.mem.at(b.drv.data_buffer() + 263) == 0);  // NPSS: PS0 only
    CHECK(*b.mem.at(b.drv.data_buffer() + 265) == 0);  // APSTA
  });
}
