// The controller DRAM (docs/reference/hardware.md, "Controller DRAM"): the bandwidth model as plain C++, the module
// through its TLM socket with per-initiator accounting, and a channel controller whose flash DMA it slows.
#include <catch2/catch.hpp>

#include "config/config.h"
#include "config/params.h"
#include "controller/dram.h"
#include "controller/flash_harness.h"
#include "common/config_error.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
constexpr double kBps = 100e6;         // 100 MB/s: 10 ns per byte
constexpr uint64_t kLat = 50000;       // 50 ns
constexpr uint64_t kPsPerByte = 10000;
}  // namespace

namespace {
std::string error_of(const std::string& set) {
  return test::config_error_of([&] {
    Config c;
    c.set(set);
    read_dram_params(c);
  });
}
}  // namespace

TEST_CASE("dram keys reject bad values naming the key", "[config][dram]") {
  CHECK_THAT(error_of("dram.mts=0"), Contains("dram.mts") && Contains("out of range"));
  CHECK_THAT(error_of("dram.width_bytes=128"), Contains("dram.width_bytes"));
  CHECK_THAT(error_of("dram.latency_ns=fast"), Contains("dram.latency_ns"));
  CHECK(error_of("dram.mts=1.6GT/s").empty());
  Config c;
  c.set("dram.mts=1.6GT/s");
  CHECK(read_dram_params(c).bytes_per_s() == Approx(1600e6 * 4));
}

TEST_CASE("dram model: an access that fits takes its transfer time plus the latency", "[dram]") {
  DramModel m(kBps, kLat);
  CHECK(m.access(5000000, 4096, DramUse::HostWrite) == 5000000 + 4096 * kPsPerByte + kLat);
  CHECK(m.stats().bytes[size_t(DramUse::HostWrite)] == 4096);
  CHECK(m.stats().busy_ps[size_t(DramUse::HostWrite)] == 4096 * kPsPerByte);
  CHECK(m.stats().wait_ps == 0);
}

TEST_CASE("dram model: back-to-back accesses saturate it at exactly its bandwidth", "[dram]") {
  DramModel m(kBps, kLat);
  // 1000 accesses of 1 KiB all wanting t = 0: 1000 x 10.24 us of transfer, served one after the other.
  uint64_t last = 0;
  for (int i = 0; i < 1000; ++i) last = m.access(0, 1024, i % 2 ? DramUse::FlashDataIn : DramUse::HostWrite);
  CHECK(last == 1000 * 1024 * kPsPerByte + kLat);
  CHECK(m.stats().accesses[size_t(DramUse::FlashDataIn)] == 500);
  CHECK(m.stats().wait_ps > 0);
}

TEST_CASE("dram model: an access called later for an earlier time is not queued behind a later one", "[dram]") {
  DramModel m(kBps, kLat);
  const uint64_t later = m.access(50000000, 2048, DramUse::FlashDataOut);  // 50 us, called first
  const uint64_t early = m.access(10000000, 2048, DramUse::HostRead);      // 10 us, called second
  CHECK(later == 50000000 + 2048 * kPsPerByte + kLat);
  CHECK(early == 10000000 + 2048 * kPsPerByte + kLat);
}

TEST_CASE("dram model: a long backlog is skipped in O(1) and still ends at the bandwidth's pace", "[dram]") {
  DramModel m(1e9, 0);  // 1 ns per byte
  // 15,000 x 4 KiB wanting the first 15 us: a 61 ms backlog (within the 65 ms of windows kept); without the
  // skip over full windows this would walk ~10^8 windows.
  uint64_t last = 0;
  for (int i = 0; i < 15000; ++i) last = m.access(uint64_t(i) * 1000, 4096, DramUse::MapLookup);
  CHECK(last == 15000ull * 4096 * 1000);
}

namespace {
// Two initiators (host DMA and map lookups) on one Dram; each access annotated with its start.
struct DramHarness : sc_core::sc_module {
  Dram dram;
  DramPort<DramHarness> host{"host"}, map{"map"};
  uint64_t host_end = 0, map_end = 0, read_end = 0;
  SC_HAS_PROCESS(DramHarness);
  // direct: the ports ask the timing model directly (Dram::attach(port, side)); else every access is a b_transport.
  DramHarness(sc_core::sc_module_name n, bool direct) : sc_module(n), dram("dram", DramParams{100, 1, kLat}) {
    if (direct) {
      dram.attach(host, DramSide::Host);
      dram.attach(map, DramSide::Map);
    } else {
      dram.attach(host.isock, DramSide::Host);
      dram.attach(map.isock, DramSide::Map);
    }
    SC_THREAD(run);
  }
  void run() {
    wait(sc_core::sc_time(1, sc_core::SC_US));
    host_end = host.write(now_ps() + 1000000, 8192);  // starts 1 us ahead (annotated)
    map_end = map.read(now_ps() + 1000000, 64);       // same start: queued behind the host's 8 KiB
    read_end = host.read(now_ps() + 200000000, 64);   // 200 us ahead: the DRAM is free again
  }
};
}  // namespace

TEST_CASE("dram module: b_transport and the direct timing access annotate each access's end and account it by initiator and direction alike", "[module][dram]") {
  DramHarness by_socket("by_socket", false), direct("direct", true);
  sc_core::sc_start();
  for (DramHarness* h : {&by_socket, &direct}) {
    INFO(h->name());
    const uint64_t t0 = 2000000;  // 1 us + 1 us annotated
    CHECK(h->host_end == t0 + 8192 * kPsPerByte + kLat);
    CHECK(h->map_end == t0 + (8192 + 64) * kPsPerByte + kLat);
    CHECK(h->read_end == 201000000 + 64 * kPsPerByte + kLat);
    const DramStats& s = h->dram.model().stats();
    CHECK(s.bytes[size_t(DramUse::HostWrite)] == 8192);
    CHECK(s.bytes[size_t(DramUse::HostRead)] == 64);
    CHECK(s.bytes[size_t(DramUse::MapLookup)] == 64);
    CHECK(s.accesses[size_t(DramUse::FlashDataIn)] == 0);
  }
}

TEST_CASE("dram module: a DRAM slower than the flash bus stretches a program's data-in to its pace", "[module][dram]") {
  // The channel's DRAM port through the socket (h) and with direct timing access (hd): the same times and bytes.
  FlashHarness h("h", FlashParams()), hd("hd", FlashParams());
  Dram dram("dram", DramParams{100, 1, kLat}), dram_d("dram_d", DramParams{100, 1, kLat});  // 100 MB/s against the bus's 400 MB/s
  dram.attach(h.dut->dram.isock, DramSide::Flash);
  dram_d.attach(hd.dut->dram, DramSide::Flash);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborated: the DRAM socket has its callbacks
  for (FlashHarness* x : {&h, &hd}) {
    x->issue(FlashCmd::Program, 0, 0, 0);
    x->issue(FlashCmd::Read, 0, 0, 0, 1000, 0x3);  // after the program: 2 units out
  }
  sc_core::sc_start();
  for (auto [x, d] : {std::pair<FlashHarness*, Dram*>{&h, &dram}, {&hd, &dram_d}}) {
    INFO(x->name());
    const double in_us = x->g.page_bytes / 100.0 + kLat / 1e6;  // the DRAM's pace, not the bus's
    CHECK(in_us > x->page_in_us());
    CHECK(x->at(FlashCmd::Program, 0, 0, 0) == Approx(in_us + FlashHarness::kTprog).margin(1e-6));
    const double read_start = 1000 + FlashHarness::kTr;  // the read is ready at 1000 us, after the program
    CHECK(x->at(FlashCmd::Read, 0, 0, 0) == Approx(read_start + 2 * kUnitBytes / 100.0 + kLat / 1e6).margin(1e-6));
    const DramStats& s = d->model().stats();
    CHECK(s.bytes[size_t(DramUse::FlashDataIn)] == x->g.page_bytes);
    CHECK(s.bytes[size_t(DramUse::FlashDataOut)] == 2 * kUnitBytes);
  }
}
