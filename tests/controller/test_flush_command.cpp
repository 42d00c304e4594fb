// NVMe Flush and FUA writes against the write buffer (controller/ftl_host.cpp HostPath::flush, WriteBuffer's
// barriers): with a volatile write cache (buffer.power_protected=false) a Flush completes once every unit buffered
// when it arrived is programmed, and a FUA write once it is on flash; with a protected buffer both complete as a
// plain command does. The module tests use ftl_harness.h (a fixed 500 us program per page).
#include <catch2/catch.hpp>

#include <algorithm>

#include "flush_context.h"
#include "controller/buffer/flush_policy.h"
#include "controller/buffer/write_buffer.h"
#include "controller/ftl_harness.h"

using namespace ssdtlm;

namespace {

constexpr double kCmd = FtlHarness::kCmdNs / 1e3, kOp = FtlHarness::kFlashOpNs / 1e3;  // us
constexpr double kProg = FakeChannel::kProgUs;

// Two channels of one die, 8 KiB pages (2 units), a 16-unit buffer that flushes only when 14 units are dirty.
std::vector<std::string> drive(bool volatile_cache) {
  return {"geometry.channels=2",      "geometry.dies_per_channel=1", "geometry.blocks_per_plane=16",
          "geometry.pages_per_block=4", "geometry.page_bytes=8192",    "geometry.over_provisioning=1",
          "buffer.bytes=65536",       "buffer.high_watermark=0.9",   "buffer.low_watermark=0.8",
          std::string("buffer.power_protected=") + (volatile_cache ? "false" : "true")};
}


double last_program_done_us(const FtlHarness& h) {
  uint64_t t = 0;
  for (const FlashRecord& r : h.flash)
    if (r.cmd == FlashCmd::Program) t = std::max(t, r.done_ps);
  return double(t) / 1e6;
}

}  // namespace

TEST_CASE("write buffer barrier: counts the units buffered when made until each is on flash or need not be",
          "[buffer][flush]") {
  for (uint32_t streams : {1u, 2u}) {
    INFO("streams " << streams);
    WriteBuffer b(16, make_flush_policy("fifo", test::flush_context(16), "buffer.policy"), streams);
    for (uint32_t lpn = 0; lpn < 4; ++lpn) b.write(lpn, 1, 0, 0);
    uint64_t id = 0;
    CHECK(b.barrier_left(&id) == 0);
    CHECK(id == 0);  // none yet
    const uint64_t made = b.add_barrier();
    CHECK(b.barrier_left(&id) == 4);
    CHECK(id == made);
    b.write(9, 1, 0, 0);  // after the barrier: not waited for
    b.write(1, 2, 0, 0);  // absorbed: the unit is still owed (with its newer data)
    CHECK(b.barrier_left(&id) == 4);
    if (streams > 1) {
      b.write(2, 3, 0, 1);  // rewritten into another stream: the new copy carries the obligation
      CHECK(b.barrier_left(&id) == 4);
    }
    uint32_t lpn, version;
    const uint32_t s0 = b.take(0, &lpn, &version, 0);  // in flight: still owed until its program lands
    REQUIRE(s0 != kInvalid);
    CHECK(b.barrier_left(&id) == 4);
    b.release(s0);
    CHECK(b.barrier_left(&id) == 3);
    b.discard(3);  // trimmed while dirty: need not reach flash
    CHECK(b.barrier_left(&id) == 2);
    // The rest (units 1 and 2, and 9 which the barrier does not count) programmed.
    for (uint32_t st = 0; st < streams; ++st)
      for (uint32_t s; (s = b.take(st, &lpn, &version, 0)) != kInvalid;) b.release(s);
    CHECK(b.barrier_left(&id) == 0);
    b.pop_barrier();
    CHECK(b.barriers() == 0);
  }
}

TEST_CASE("ftl module: a Flush with a volatile write cache completes when the buffered data is programmed",
          "[module][ftl][flush]") {
  FtlHarness h("h", drive(true));
  size_t w1 = 0, w2 = 0, f = 0, w3 = 0;
  h.script = [&](FtlHarness& h) {
    w1 = h.submit(IoOp::Write, 10, 2);  // 3 units: under the watermark, they would stay in DRAM
    w2 = h.submit(IoOp::Write, 30, 1);
    h.wait_until_us(20);
    CHECK(h.flash.empty());
    f = h.submit(IoOp::Flush, 0, 0);
    h.wait_until_us(25);
    w3 = h.submit(IoOp::Write, 40, 1);  // after the flush: acknowledged at once, and not waited for
  };
  sc_core::sc_start();
  CHECK(h.done_us(w1) == Approx(kCmd).margin(1e-6));
  CHECK(h.done_us(w3) == Approx(25 + kCmd).margin(1e-6));
  // Two pages: units 10, 11 on channel 0, unit 30 padded on channel 1, issued at the flush's arrival; the flush
  // completes when the last of them lands: 20 us + the command's firmware time + a flash op's + tPROG.
  REQUIRE(h.count(FlashCmd::Program) >= 2);
  CHECK(h.dut->stats().flush_commands == 1);
  // The flush waits for the programs of units 10, 11 and 30 (not for unit 40's, written after it).
  uint64_t owed = 0;
  for (const FlashRecord& r : h.flash)
    if (r.cmd == FlashCmd::Program)
      for (uint32_t lpn : r.lpn)
        if (lpn == 10 || lpn == 11 || lpn == 30) owed = std::max(owed, r.done_ps);
  CHECK(h.done_us(f) == Approx(double(owed) / 1e6).margin(1e-6));
  CHECK(h.done_us(f) == Approx(20 + kCmd + 2 * kOp + kProg).margin(0.01));
  CHECK(h.done_us(f) > 20 + kProg);
  CHECK(h.checker->errors() == 0);
}

TEST_CASE("ftl module: a Flush with a power-protected buffer completes as a plain command", "[module][ftl][flush]") {
  FtlHarness h("h", drive(false));
  size_t f = 0;
  h.script = [&](FtlHarness& h) {
    h.submit(IoOp::Write, 10, 3);
    h.wait_until_us(20);
    f = h.submit(IoOp::Flush, 0, 0);
  };
  sc_core::sc_start();
  CHECK(h.done_us(f) == Approx(20 + kCmd).margin(1e-6));
  CHECK(h.flash.empty());  // nothing programmed for it: the capacitors make the buffer non-volatile
}

namespace {
// A FUA write of one unit at 10 us after a plain one at 0; returns (plain, fua) completion times in us.
std::pair<double, double> fua_run(FtlHarness& h) {
  size_t w = 0, fua = 0;
  h.script = [&](FtlHarness& h) {
    w = h.submit(IoOp::Write, 10, 1);
    h.wait_until_us(10);
    h.cmds.emplace_back();  // a FUA write (the harness's submit, with the FUA bit)
    NvmeCommand& c = h.cmds.back();
    c.reset();
    c.op = IoOp::Write;
    c.lpn = 50;
    c.units = 1;
    c.bytes = kUnitBytes;
    c.fua = true;
    c.submit_ps = now_ps();
    h.index[&c] = h.cmds.size() - 1;
    h.done_ps.push_back(kNever);
    fua = h.cmds.size() - 1;
    h.dut->submit(c, now_ps());
  };
  sc_core::sc_start();
  return {h.done_us(w), h.done_us(fua)};
}
}  // namespace

TEST_CASE("ftl module: a FUA write with a volatile cache completes once on flash", "[module][ftl][flush]") {
  FtlHarness h("h", drive(true));
  const auto [plain, fua] = fua_run(h);
  CHECK(plain == Approx(kCmd).margin(1e-6));
  CHECK(h.dut->stats().fua_writes == 1);
  CHECK(fua == Approx(last_program_done_us(h)).margin(1e-6));
  CHECK(fua > 10 + kProg);
}

TEST_CASE("ftl module: a FUA write with a protected buffer completes at once", "[module][ftl][flush]") {
  FtlHarness h("h", drive(false));
  const auto [plain, fua] = fua_run(h);
  CHECK(plain == Approx(kCmd).margin(1e-6));
  CHECK(h.dut->stats().fua_writes == 1);
  CHECK(fua == Approx(10 + kCmd).margin(1e-6));
  CHECK(h.flash.empty());
}
