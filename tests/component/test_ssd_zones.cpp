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
#include "host/nvme_driver_up.h"
#include "ssdtlm/ssd.h"

using namespace ssdtlm;
using namespace ssdtlm::nvme;

namespace {

constexpr uint64_t kZoneBytes = 4 << 20, kCapBytes = 2 << 20;  // capacity: a block on each of the 4 dies
// ZNS command specific statuses (SCT 1; controller/placement/zns_zones.h): Invalid Zone State Transition, Too Many
// Active Zones.
constexpr uint16_t kStateTransition = 0x1BF, kTooManyActive = 0x1BD;

SsdConfig zoned(std::vector<std::string> more = {}) {
  SsdConfig c;
  c.overrides = {"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                 "geometry.pages_per_block=64", "buffer.bytes=4194304", "precondition.fill=false",
                 "precondition.drive_writes=0", "zns.enabled=true", "zns.zone_bytes=" + std::to_string(kZoneBytes),
                 "zns.zone_capacity_bytes=" + std::to_string(kCapBytes)};
  c.overrides.insert(c.overrides.end(), more.begin(), more.end());
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
  explicit ZoneBench(sc_core::sc_module_name n, const SsdConfig& config = zoned())
      : sc_module(n), ssd("ssd", config), mem("mem", 0x100000, NvmeDriver::memory_bytes(driver_params(), 1u << 20)),
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
  // Zone Management Send action `zsa` on the zone at `slba` (Set Zone Descriptor Extension: its data the `bytes`
  // bytes of value `fill` and up in the data buffer): the completion's status.
  uint16_t send(uint64_t slba, uint32_t zsa, uint8_t fill = 0, uint32_t bytes = 0) {
    Sqe e;
    e.dw[0] = kZoneMgmtSend, e.dw[1] = 1;
    e.dw[10] = uint32_t(slba), e.dw[11] = uint32_t(slba >> 32);
    e.dw[13] = zsa;
    e.set_prp(drv.data_buffer(), 0);
    for (uint32_t i = 0; i < bytes; ++i) *mem.at(drv.data_buffer() + i) = uint8_t(fill + i);
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
    require_up(x.drv);
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
    CHECK(x.send(5 * zone, kZsaSetExtension) == kInvalidField);  // nor Set Zone Descriptor Extension (ZDES 0)
    CHECK(x.report(0, 128, 8, false) == kInvalidField);     // a reserved Reporting Options value
    CHECK(x.report(0, 60, 0, false) == kInvalidField);      // smaller than the report's header
    CHECK(x.report(x.drv.ns_lbas(), 128, 0, false) == kLbaOutOfRange);
    CHECK(x.report(0, 128, 0, false, 0, 2) == kInvalidNamespace);
    require_down(x.drv);
  };
  sc_core::sc_start(ps_time(10000000000000ull));
  REQUIRE(b.finished);
  const SsdStatus s = b.ssd.finish();
  CHECK(s.writes == 8);
  CHECK(s.integrity_errors == 0);
}

TEST_CASE("ssd component: Set Zone Descriptor Extension, Extended Report Zones, their states and statuses",
          "[component][zns]") {
  // 128-byte extensions, 2 open and 3 active zones; the driver learns the zone size and ZDES from Identify.
  ZoneBench b("bench", zoned({"zns.zone_ext_bytes=128", "zns.max_open=2", "zns.max_active=3"}));
  b.script = [](ZoneBench& x) {
    require_up(x.drv);
    CHECK(x.drv.zone_bytes() == kZoneBytes);
    CHECK(x.drv.zone_ext_bytes() == 128);
    CHECK(x.drv.max_open_zones() == 2);
    CHECK(x.drv.max_active_zones() == 3);
    const uint64_t lba = x.drv.lba_bytes(), zone = kZoneBytes / lba, cap = kCapBytes / lba, per = 4096 / lba;
    constexpr uint32_t kEntry = 64 + 128;
    x.write(0, 2);  // zone 0: implicitly opened, active
    CHECK(x.send(zone, kZsaSetExtension, 0x10, 128) == kSuccess);       // zone 1: Empty -> Closed, ZDEV
    CHECK(x.send(zone, kZsaSetExtension, 0x10, 128) == kStateTransition);  // not Empty any more
    CHECK(x.send(0, kZsaSetExtension, 0x10, 128) == kStateTransition);     // an open zone
    CHECK(x.send(zone + per, kZsaSetExtension, 0x10, 128) == kInvalidField);          // not a zone's start
    CHECK(x.send(2 * zone, kZsaSetExtension, 0x80, 128) == kSuccess);   // zone 2: the third active zone
    CHECK(x.send(3 * zone, kZsaSetExtension, 0x40, 128) == kTooManyActive);
    CHECK(x.send(2 * zone, 0x11) == kInvalidField);  // a reserved Zone Send Action

    // Extended Report Zones from LBA 0, room for 4 entries of descriptor + extension.
    REQUIRE(x.report(0, 64 + 4 * kEntry, 0, false, kZraExtendedReport) == kSuccess);
    CHECK(x.u64(0) == x.ssd.namespace_bytes() / kZoneBytes);
    const struct {
      uint8_t state, za, fill;
      uint64_t wp;
    } want[] = {{0x2, 0, 0, 2 * per}, {0x4, 0x80, 0x10, zone}, {0x4, 0x80, 0x80, 2 * zone}, {0x1, 0, 0, 3 * zone}};
    for (uint32_t i = 0; i < 4; ++i) {
      INFO("entry " << i);
      const uint32_t d = 64 + kEntry * i;
      CHECK(x.u8(d) == 0x2);
      CHECK(x.u8(d + 1) == want[i].state << 4);
      CHECK(x.u8(d + 2) == want[i].za);
      CHECK(x.u64(d + 8) == cap);
      CHECK(x.u64(d + 16) == i * zone);
      CHECK(x.u64(d + 24) == want[i].wp);
      bool same = true;  // the extension the host set, or zeroes
      for (uint32_t k = 0; k < 128; ++k) same &= x.u8(d + 64 + k) == (want[i].za ? uint8_t(want[i].fill + k) : 0);
      CHECK(same);
    }
    // Report Zones (not extended) shows ZDEV in the Zone Attributes, 64-byte descriptors.
    REQUIRE(x.report(0, 64 + 2 * 64, 0, true) == kSuccess);
    CHECK(x.u8(64 + 2) == 0);
    CHECK(x.u8(128 + 2) == 0x80);
    // Closed zones only (Reporting Options 4), extended: zones 1 and 2.
    REQUIRE(x.report(0, 4096, 4, true, kZraExtendedReport) == kSuccess);
    CHECK(x.u64(0) == 2);
    CHECK(x.u64(64 + 16) == zone);
    CHECK(x.u8(64 + 64) == 0x10);
    CHECK(x.u64(64 + kEntry + 16) == 2 * zone);
    CHECK(x.u8(64 + kEntry + 64) == 0x80);

    // Zone 2 opened and closed with nothing written stays Closed (its extension keeps it active); reset: Empty, the
    // extension gone; zone 1 takes writes at its start.
    CHECK(x.send(2 * zone, 3) == kSuccess);
    CHECK(x.send(2 * zone, 1) == kSuccess);
    REQUIRE(x.report(2 * zone, 64 + kEntry, 0, true, kZraExtendedReport) == kSuccess);
    CHECK(x.u8(64 + 1) == 0x4 << 4);
    CHECK(x.u8(64 + 2) == 0x80);
    CHECK(x.send(2 * zone, 4) == kSuccess);
    REQUIRE(x.report(2 * zone, 64 + kEntry, 0, true, kZraExtendedReport) == kSuccess);
    CHECK(x.u8(64 + 1) == 0x1 << 4);
    CHECK(x.u8(64 + 2) == 0);
    CHECK(x.u8(64 + 64) == 0);
    x.write(zone, 1);
    REQUIRE(x.report(zone, 64 + kEntry, 0, true, kZraExtendedReport) == kSuccess);
    CHECK(x.u8(64 + 1) == 0x2 << 4);
    CHECK(x.u8(64 + 2) == 0x80);
    CHECK(x.u64(64 + 24) == zone + per);
    CHECK(x.report(0, 64 + kEntry, 0, false, 2) == kInvalidField);  // a reserved Zone Receive Action
    require_down(x.drv);
  };
  sc_core::sc_start(ps_time(10000000000000ull));
  REQUIRE(b.finished);
  const SsdStatus s = b.ssd.finish();
  CHECK(s.writes == 3);
  CHECK(s.integrity_errors == 0);
}

TEST_CASE("ssd component: the driver's zone size follows the configuration's, through Identify", "[component][zns]") {
  // The configuration's zone size reaches the driver only through the endpoint's Identify data (ZSZE).
  ZoneBench b("bench", zoned({"zns.zone_bytes=8388608", "zns.zone_capacity_bytes=4194304", "zns.max_open=4",
                              "zns.max_active=6"}));
  b.script = [](ZoneBench& x) {
    require_up(x.drv);
    CHECK(x.drv.zone_bytes() == 8u << 20);
    CHECK(x.drv.zone_lbas() == (8u << 20) / x.drv.lba_bytes());
    CHECK(x.drv.zone_ext_bytes() == 0);
    CHECK(x.drv.max_open_zones() == 4);
    CHECK(x.drv.max_active_zones() == 6);
  };
  sc_core::sc_start(ps_time(10000000000000ull));
  REQUIRE(b.finished);
}

TEST_CASE("ssd component: Select All takes each action to the zones in its states, Offline Zone, offline reads fail",
          "[component][zns]") {
  ZoneBench b("bench");
  b.script = [](ZoneBench& x) {
    require_up(x.drv);
    const uint64_t zone = kZoneBytes / x.drv.lba_bytes(), per = 4096 / x.drv.lba_bytes();
    const uint64_t zones = x.ssd.namespace_bytes() / kZoneBytes;
    constexpr uint32_t kAll = 0x100;  // CDW13 bit 8: Select All (the Starting LBA ignored)
    constexpr uint16_t kReadOnly = 0x1BA, kOffline = 0x1BB;
    const auto state = [&](uint64_t z) {
      REQUIRE(x.report(z * zone, 128, 0, true) == kSuccess);
      return x.u8(64 + 1) >> 4;
    };
    const auto io = [&](uint8_t op, uint64_t slba, uint64_t units = 1) {
      NvmeDriver::Io r;
      r.opcode = op, r.slba = slba, r.nlb = uint32_t(units * per);
      return x.wait_for([&](auto done) { return x.drv.submit(r, done); }).status;
    };
    x.write(0, 5);                         // zone 0 implicitly open
    x.write(zone, 3);                      // zone 1 implicitly open
    CHECK(x.send(2 * zone, 2) == kSuccess);  // zone 2 Full
    CHECK(x.send(3 * zone, 3) == kSuccess);  // zone 3 explicitly open, nothing written
    CHECK(x.send(7 * zone, 1 | kAll) == kSuccess);  // Close: the open zones (0, 1, 3)
    CHECK(state(0) == 0x4);
    CHECK(state(1) == 0x4);
    CHECK(state(2) == 0xE);
    CHECK(state(3) == 0x1);  // closed with nothing written: Empty
    CHECK(x.send(0, 3 | kAll) == kSuccess);  // Open: the closed zones
    CHECK(state(0) == 0x3);
    CHECK(state(1) == 0x3);
    CHECK(state(3) == 0x1);
    CHECK(x.send(0, 2 | kAll) == kSuccess);  // Finish: the open and closed zones
    CHECK(state(0) == 0xE);
    CHECK(state(1) == 0xE);
    CHECK(state(4) == 0x1);  // Empty zones are not finished
    CHECK(x.send(0, 4 | kAll) == kSuccess);  // Reset: every zone back to Empty
    REQUIRE(x.report(0, 64 + 64, 1, false) == kSuccess);  // Reporting Options 1h: the Empty zones
    CHECK(x.u64(0) == zones);
    x.write(0, 2);  // zone 0 takes writes at its start again
    // Offline: a zone must be Read Only first (a media failure the controller reports); its data readable until then.
    x.write(4 * zone, 2);
    REQUIRE(x.ssd.fail_zone_read_only(4));
    CHECK(state(4) == 0xD);
    CHECK(io(kRead, 4 * zone) == kSuccess);
    CHECK(io(kWrite, 4 * zone + 2 * per) == kReadOnly);
    CHECK(x.send(4 * zone, 4) == kStateTransition);  // a read-only zone is not reset
    CHECK(x.send(0, 5) == kStateTransition);          // Offline Zone of an implicitly open zone
    CHECK(state(0) == 0x2);
    CHECK(x.send(0, 5 | kAll) == kSuccess);           // Offline: the read-only zones only
    CHECK(state(0) == 0x2);
    CHECK(state(4) == 0xF);
    CHECK(io(kRead, 4 * zone) == kOffline);
    CHECK(io(kRead, 4 * zone - per, 2) == kOffline);  // a read that reaches into it
    CHECK(io(kWrite, 4 * zone) == kOffline);
    CHECK(io(kRead, 0) == kSuccess);
    CHECK(x.send(0, 0x10 | kAll) == kInvalidField);  // Set Zone Descriptor Extension takes no Select All
    CHECK(x.send(0, 6) == kInvalidField);           // a reserved action
    require_down(x.drv);
  };
  sc_core::sc_start(ps_time(10000000000000ull));
  REQUIRE(b.finished);
  const SsdStatus s = b.ssd.finish();  // zone 4's units left the map with the checker told: no error
  CHECK(s.integrity_enabled);
  CHECK(s.integrity_errors == 0);
  CHECK(s.integrity_checked_reads >= 2);
}

TEST_CASE("ssd component: a zone the controller makes Read Only is in the Changed Zone List, with its notice",
          "[component][zns]") {
  ZoneBench b("bench");
  b.script = [](ZoneBench& x) {
    require_up(x.drv);
    const uint64_t zone = kZoneBytes / x.drv.lba_bytes();
    std::vector<Completion> events;
    sc_core::sc_event ev;
    const auto request_event = [&] {
      Sqe aer;
      aer.dw[0] = kAsyncEvent;
      REQUIRE(x.drv.submit_raw(NvmeDriver::kAdminQueue, aer, [&](const Completion& c) {
        events.push_back(c);
        ev.notify(sc_core::SC_ZERO_TIME);
      }));
    };
    const auto log = [&](bool retain) {  // the Changed Zone List, 4 KiB, Retain Asynchronous Event `retain`
      Sqe e;
      e.dw[0] = kGetLogPage, e.dw[1] = 1;
      e.dw[10] = kLogChangedZones | uint32_t(retain) << 15 | (4096u / 4 - 1) << 16;
      e.dw[14] = uint32_t(kCsiZns) << 24;
      e.set_prp(x.drv.data_buffer(), 0);
      std::memset(x.mem.at(x.drv.data_buffer()), 0xA5, 4096);
      return x.drv.admin(e).status;
    };
    Sqe id;
    id.dw[0] = kIdentify, id.dw[10] = kCnsController;
    id.set_prp(x.drv.data_buffer(), 0);
    REQUIRE(x.drv.admin(id).status == kSuccess);
    CHECK((x.u64(88) >> 32 & kAecZoneDescriptorChanged) != 0);  // OAES (bytes 95:92) bit 27
    // Not enabled: the zone is listed, no notice.
    request_event();
    REQUIRE(x.ssd.fail_zone_read_only(2));
    sc_core::wait(ps_time(100000000));
    CHECK(events.empty());
    REQUIRE(log(false) == kSuccess);
    CHECK(x.u64(0) == 1);  // Number of Zone Identifiers (bytes 1:0), reserved to byte 7
    CHECK(x.u64(8) == 2 * zone);
    CHECK(x.u64(16) == 0);
    REQUIRE(log(false) == kSuccess);  // read with RAE 0: emptied
    CHECK(x.u64(0) == 0);
    // Enabled (Asynchronous Event Configuration bit 27): one notice, the next change masked until the log is read.
    Sqe aec;
    aec.dw[0] = kSetFeatures, aec.dw[10] = kFeatAsyncEventConfig, aec.dw[11] = kAecZoneDescriptorChanged | 0xFF;
    REQUIRE(x.drv.admin(aec).status == kSuccess);
    aec.dw[0] = kGetFeatures;
    CHECK(x.drv.admin(aec).result == kAecZoneDescriptorChanged);  // the SMART bits are not served
    request_event();
    REQUIRE(x.ssd.fail_zone_read_only(5));
    REQUIRE(x.ssd.fail_zone_read_only(6));
    while (events.empty()) sc_core::wait(ev);
    sc_core::wait(ps_time(100000000));
    REQUIRE(events.size() == 1);
    CHECK(events[0].status == kSuccess);
    CHECK(events[0].result == (kAenNotice | kAenZoneDescriptorChanged << 8 | uint32_t(kLogChangedZones) << 16));
    REQUIRE(log(true) == kSuccess);  // RAE 1: kept, still masked
    CHECK(x.u64(0) == 2);
    CHECK(x.u64(8) == 5 * zone);
    CHECK(x.u64(16) == 6 * zone);
    REQUIRE(x.ssd.fail_zone_read_only(7));
    sc_core::wait(ps_time(100000000));
    CHECK(events.size() == 1);
    REQUIRE(log(false) == kSuccess);  // RAE 0: cleared and unmasked
    CHECK(x.u64(0) == 3);
    REQUIRE(x.ssd.fail_zone_read_only(1));
    while (events.size() < 2) sc_core::wait(ev);
    CHECK(((events[1].result >> 16) & 0xFF) == kLogChangedZones);
    REQUIRE(log(false) == kSuccess);
    CHECK(x.u64(0) == 1);
    CHECK(x.u64(8) == zone);
    // The zone host commands change (Offline Zone of a Read Only zone) are not listed: the host knows of them.
    CHECK(x.send(zone, 5) == kSuccess);
    REQUIRE(log(false) == kSuccess);
    CHECK(x.u64(0) == 0);
    require_down(x.drv);
  };
  sc_core::sc_start(ps_time(10000000000000ull));
  REQUIRE(b.finished);
}
