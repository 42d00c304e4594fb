// Zone Management Receive (Report Zones) on ssdtlm::Ssd with a zoned namespace: the zone descriptors the FTL's zoned
// layer holds after writes and a Finish (type, state, capacity, start LBA, write pointer), the Reporting Options
// filter and the Partial Report bit, and the statuses of a malformed command (ZNS Command Set 1.1 §3.4.2).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "common/sim_time.h"
#include "controller/nvme/nvme_spec.h"
#include "host/host_memory.h"
#include "host/nvme_driver.h"
#include "ssdtlm/ssd.h"

using namespace ssdtlm;
using namespace ssdtlm::nvme;

namespace {

constexpr uint64_t kZoneBytes = 4 << 20, kCapBytes = 2 << 20;  // capacity: a block on each of the 4 dies

SsdConfig zoned() {
  SsdConfig c;
  c.overrides = {"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                 "geometry.pages_per_block=64", "buffer.bytes=4194304", "precondition.fill=false",
                 "precondition.drive_writes=0", "zns.enabled=true", "zns.zone_bytes=" + std::to_string(kZoneBytes),
                 "zns.zone_capacity_bytes=" + std::to_string(kCapBytes)};
  return c;
}

struct ZoneBench : sc_core::sc_module {
  Ssd ssd;
  HostMemory mem;
  NvmeDriver drv;
  std::function<void(ZoneBench&)> script;
  bool finished = false;
  static DriverParams driver_params() {
    DriverParams d;
    d.io_queues = 1;
    d.queue_entries = 16;
    return d;
  }
  explicit ZoneBench(sc_core::sc_module_name n)
      : sc_module(n), ssd("ssd", zoned()), mem("mem", 0x100000, NvmeDriver::memory_bytes(driver_params(), 1u << 20)),
        drv("drv", mem, driver_params()) {
    drv.bar.bind(ssd.bar);
    ssd.dma.bind(mem.tsock);
    SC_HAS_PROCESS(ZoneBench);
    SC_THREAD(run);
  }
  void run() {
    script(*this);
    finished = true;
  }
  Completion wait_for(const std::function<bool(std::function<void(const Completion&)>)>& submit) {
    Completion out;
    bool got = false;
    sc_core::sc_event ev;
    REQUIRE(submit([&](const Completion& c) {
      out = c, got = true;
      ev.notify(sc_core::SC_ZERO_TIME);
    }));
    while (!got) sc_core::wait(ev);
    return out;
  }
  // `n` 4 KiB writes from LBA `slba`, one after another (a zone takes them at its write pointer).
  void write(uint64_t slba, uint32_t n) {
    const uint32_t per = 4096 / drv.lba_bytes();
    for (uint32_t i = 0; i < n; ++i) {
      NvmeDriver::Io io;
      io.opcode = kWrite, io.slba = slba + uint64_t(i) * per, io.nlb = per;
      CHECK(wait_for([&](auto done) { return drv.submit(io, done); }).status == 0);
    }
  }
  // Report Zones from `slba` into a buffer of `bytes`, with Reporting Options `filter`, Partial Report `partial`,
  // Zone Receive Action `zra`; the completion's status.
  uint16_t report(uint64_t slba, uint32_t bytes, uint32_t filter, bool partial, uint32_t zra = 0, uint32_t nsid = 1) {
    Sqe e;
    e.dw[0] = kZoneMgmtRecv, e.dw[1] = nsid;
    e.dw[10] = uint32_t(slba), e.dw[11] = uint32_t(slba >> 32);
    e.dw[12] = bytes / 4 - 1;
    e.dw[13] = zra | filter << 8 | uint32_t(partial) << 16;
    e.set_prp(drv.data_buffer(), 0);
    std::memset(mem.at(drv.data_buffer()), 0xA5, bytes);
    return wait_for([&](auto done) { return drv.submit_raw(0, e, done); }).status;
  }
  uint64_t u64(uint32_t at) {
    uint64_t v = 0;
    std::memcpy(&v, mem.at(drv.data_buffer() + at), 8);
    return v;
  }
  uint8_t u8(uint32_t at) { return *mem.at(drv.data_buffer() + at); }
};

}  // namespace

TEST_CASE("ssd component: Report Zones lists the zoned layer's states and write pointers, filters, statuses",
          "[component][zns]") {
  ZoneBench b("bench");
  b.script = [](ZoneBench& x) {
    std::string err;
    INFO(err);
    REQUIRE(x.drv.init(&err));
    const uint64_t lba = x.drv.lba_bytes(), zone = kZoneBytes / lba, cap = kCapBytes / lba, per = 4096 / lba;
    const uint64_t zones = x.ssd.namespace_bytes() / kZoneBytes;
    x.write(0, 5);             // zone 0: 5 units, implicitly opened
    x.write(2 * zone, 3);      // zone 2: 3 units
    Sqe fin;                   // Zone Management Send Finish of zone 3: Empty -> Full
    fin.dw[0] = kZoneMgmtSend, fin.dw[1] = 1, fin.dw[10] = uint32_t(3 * zone), fin.dw[13] = 2;
    CHECK(x.wait_for([&](auto done) { return x.drv.submit_raw(0, fin, done); }).status == 0);

    // Every zone from LBA 0, room for 4 descriptors, Partial Report 0: Number of Zones counts them all.
    REQUIRE(x.report(0, 64 + 4 * 64, 0, false) == kSuccess);
    CHECK(x.u64(0) == zones);
    const struct {
      uint8_t state;
      uint64_t wp;
    } want[] = {{0x2, 5 * per}, {0x1, zone}, {0x2, 2 * zone + 3 * per}, {0xE, ~uint64_t(0)}};
    for (uint32_t i = 0; i < 4; ++i) {
      INFO("descriptor " << i);
      const uint32_t d = 64 + 64 * i;
      CHECK(x.u8(d) == 0x2);  // sequential write required
      CHECK(x.u8(d + 1) == want[i].state << 4);
      CHECK(x.u64(d + 8) == cap);
      CHECK(x.u64(d + 16) == i * zone);
      CHECK(x.u64(d + 24) == want[i].wp);
    }
    // Implicitly opened zones only, partial: the two descriptors, counted as transferred.
    REQUIRE(x.report(0, 4096, 2, true) == kSuccess);
    CHECK(x.u64(0) == 2);
    CHECK(x.u64(64 + 16) == 0);
    CHECK(x.u64(128 + 16) == 2 * zone);
    CHECK(x.u8(192) == 0);  // nothing beyond them
    // Empty zones from zone 1's start with room for one: partial counts 1, not partial counts every empty one.
    REQUIRE(x.report(zone + 5, 128, 1, true) == kSuccess);
    CHECK(x.u64(0) == 1);
    CHECK(x.u64(64 + 16) == zone);
    REQUIRE(x.report(zone + 5, 128, 1, false) == kSuccess);
    CHECK(x.u64(0) == zones - 4 + 1);
    // Full zones from zone 3 on.
    REQUIRE(x.report(3 * zone, 128, 5, false) == kSuccess);
    CHECK(x.u64(0) == 1);

    CHECK(x.report(0, 128, 0, false, 1) == kInvalidField);  // Extended Report Zones: no descriptor extensions
    CHECK(x.report(0, 128, 8, false) == kInvalidField);     // a reserved Reporting Options value
    CHECK(x.report(0, 60, 0, false) == kInvalidField);      // smaller than the report's header
    CHECK(x.report(x.drv.ns_lbas(), 128, 0, false) == kLbaOutOfRange);
    CHECK(x.report(0, 128, 0, false, 0, 2) == kInvalidNamespace);
    REQUIRE(x.drv.shutdown(&err));
  };
  sc_core::sc_start(ps_time(10000000000000ull));
  REQUIRE(b.finished);
  const SsdStatus s = b.ssd.finish();
  CHECK(s.writes == 8);
  CHECK(s.integrity_errors == 0);
}
