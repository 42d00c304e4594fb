// A zoned namespace on the endpoint, as a driver learns it: CAP.CSS's I/O Command Sets bit, the Namespace
// Identification Descriptor list's Command Set Identifier (NVMe Base 2.0 §5.17, CNS 03h), ZNS's I/O Command Set
// specific Identify Namespace (ZNS 1.1 §4.1.5.1, CNS 05h) and Controller (§4.1.5.2, CNS 06h) byte by byte, the
// Commands Supported and Effects log, their statuses; the driver taking the zone size and limits from them (two zone
// sizes: it follows the endpoint; it has no other source) and refusing a zone size that is not a power of two.
#include <cstring>
#include <string>

#include "controller/nvme/endpoint_harness.h"
#include "controller/placement/zns_zones.h"

using namespace ssdtlm;
using namespace ssdtlm::nvme;
using namespace ssdtlm::test;

namespace {

// 1 GiB of zones of `zone_units` 4 KiB units: 8 open, 12 active, Zone Append up to `append_units`.
ZoneConfig zones(uint64_t zone_units, uint64_t append_units = 16, uint32_t max_open = 8, uint32_t max_active = 12) {
  ZoneConfig z;
  z.zone_units = zone_units;
  z.zones = (1ull << 30) / (zone_units * 4096);
  z.capacity_units = zone_units;
  z.max_open = max_open, z.max_active = max_active;
  z.append_limit_units = append_units;
  return z;
}

EndpointParams zoned_ep(uint32_t ext_bytes = 128) {
  EndpointParams p = small_ep();
  p.zoned = true;
  p.zone_ext_bytes = ext_bytes;
  return p;
}

// Benches side by side in one simulation, each endpoint reading its own zone table.
struct ZonedRun {
  EndpointParams ep;
  ZoneConfig zones;
  std::function<void(EndpointBench&)> script;
};
void run_zoned(std::vector<ZonedRun> runs) {
  std::vector<std::unique_ptr<ZoneManager>> zm;
  std::vector<std::unique_ptr<EndpointBench>> b;
  for (size_t i = 0; i < runs.size(); ++i) {
    zm.push_back(std::make_unique<ZoneManager>(runs[i].zones));
    b.push_back(std::make_unique<EndpointBench>(("bench" + std::to_string(i)).c_str(), runs[i].ep, two_queues()));
    b.back()->ep.set_zones(zm.back().get());
    b.back()->script = std::move(runs[i].script);
  }
  sc_core::sc_start(ps_time(10000000000000ull));
  for (auto& x : b) REQUIRE(x->finished);
}

// An Identify of `cns` for namespace `nsid` and command set `csi` into the data buffer: its status.
uint16_t identify(EndpointBench& b, uint32_t cns, uint32_t nsid, uint32_t csi) {
  Sqe e = cmd(kIdentify, nsid, cns, csi << 24);
  e.set_prp(b.drv.data_buffer(), 0);
  std::memset(b.mem.at(b.drv.data_buffer()), 0xA5, 4096);
  return b.drv.admin(e).status;
}
uint64_t le(EndpointBench& b, uint32_t at, int bytes) {
  uint64_t v = 0;
  std::memcpy(&v, b.mem.at(b.drv.data_buffer() + at), size_t(bytes));
  return v;
}

}  // namespace

TEST_CASE("nvme endpoint zns: Identify CNS 03h, 05h, 06h and the effects log hold the zoned namespace, byte-exact",
          "[nvme][zns]") {
  run_zoned({{zoned_ep(), zones(1024), [](EndpointBench& b) {
                b.up();
                CHECK((b.drv.read64(kCap) >> 43 & 1) == 1);           // CAP.CSS bit 6: I/O Command Sets
                CHECK((b.drv.read32(kCc) >> 4 & 7) == kCcCssAll);     // the driver chose them (CC.CSS 110b)
                REQUIRE(identify(b, kCnsNsDescList, 1, 0) == kSuccess);
                CHECK(le(b, 0, 4) == 0x00000104);  // NIDT 04h, NIDL 1, reserved
                CHECK(le(b, 4, 1) == kCsiZns);
                CHECK(le(b, 5, 4) == 0);           // the list ends (NIDT 0)
                REQUIRE(identify(b, kCnsIoNamespace, 1, kCsiZns) == kSuccess);
                CHECK(le(b, 0, 2) == 0);             // ZOC
                CHECK(le(b, 2, 2) == 1);             // OZCS: reads across zone boundaries
                CHECK(le(b, 4, 4) == 11);            // MAR: 12 active, 0's based
                CHECK(le(b, 8, 4) == 7);             // MOR: 8 open
                CHECK(le(b, 12, 4) == 0);            // RRL
                CHECK(le(b, 16, 4) == 0);            // FRL
                CHECK(le(b, 2816, 8) == 1024 * 8);   // ZSZE: 4 MiB in 512 B LBAs
                CHECK(le(b, 2824, 1) == 2);          // ZDES: 128 B
                CHECK(le(b, 2825, 7) == 0);
                CHECK(le(b, 2832, 8) == 0);          // no second LBA format
                REQUIRE(identify(b, kCnsIoController, 0, kCsiZns) == kSuccess);
                CHECK(le(b, 0, 1) == 4);             // ZASL: 16 x 4 KiB = 2^4 minimum pages
                CHECK(le(b, 1, 8) == 0);
                REQUIRE(identify(b, kCnsIoNamespace, 1, kCsiNvm) == kSuccess);  // the NVM command set's: zeroes
                CHECK(le(b, 0, 8) == 0);
                // Statuses: another namespace, a command set the namespace is not, one that does not exist.
                CHECK(identify(b, kCnsIoNamespace, 2, kCsiZns) == kInvalidNamespace);
                CHECK(identify(b, kCnsNsDescList, 2, 0) == kInvalidNamespace);
                CHECK(identify(b, kCnsIoNamespace, 1, 1) == nvme::kInvalidField);
                CHECK(identify(b, kCnsIoController, 0, 3) == nvme::kInvalidField);
                // Commands Supported and Effects of the ZNS command set: Zone Append supported, changes content.
                Sqe log = cmd(kGetLogPage, 1, kLogEffects | (4096u / 4 - 1) << 16);
                log.dw[14] = uint32_t(kCsiZns) << 24;
                log.set_prp(b.drv.data_buffer(), 0);
                REQUIRE(b.drv.admin(log).status == kSuccess);
                CHECK(le(b, 1024 + 4 * kZoneAppend, 4) == 3);   // CSUPP | LBCC
                CHECK(le(b, 1024 + 4 * kZoneMgmtRecv, 4) == 1);
                CHECK(le(b, 1024 + 4 * kRead, 4) == 1);
                CHECK(le(b, 4 * kIdentify, 4) == 1);
                CHECK(le(b, 1024 + 4 * 0x7F, 4) == 0);
                log.dw[14] = 1u << 24;  // a command set the controller does not have
                CHECK(b.drv.admin(log).status == nvme::kInvalidField);
              }},
             // No limits: MAR and MOR FFFFFFFFh; ZASL 0 (MDTS); no extensions: ZDES 0.
             {zoned_ep(0), zones(1024, 0, 0, 0), [](EndpointBench& b) {
                b.up();
                REQUIRE(identify(b, kCnsIoNamespace, 1, kCsiZns) == kSuccess);
                CHECK(le(b, 4, 4) == 0xFFFFFFFFu);
                CHECK(le(b, 8, 4) == 0xFFFFFFFFu);
                CHECK(le(b, 2824, 1) == 0);
                REQUIRE(identify(b, kCnsIoController, 0, kCsiZns) == kSuccess);
                CHECK(le(b, 0, 1) == 0);
                CHECK(b.drv.max_open_zones() == 0);
                CHECK(b.drv.max_active_zones() == 0);
                CHECK(b.drv.max_append_bytes() == b.drv.max_transfer_bytes());
              }},
             // A namespace that is not zoned: CSI 00h in its descriptor, ZNS's structures refused, CC.CSS 000b.
             {small_ep(), zones(1024), [](EndpointBench& b) {
                b.up();
                CHECK((b.drv.read64(kCap) >> 43 & 1) == 0);
                CHECK((b.drv.read32(kCc) >> 4 & 7) == 0);
                REQUIRE(identify(b, kCnsNsDescList, 1, 0) == kSuccess);
                CHECK(le(b, 0, 5) == 0x0000000104ull);
                CHECK(identify(b, kCnsIoNamespace, 1, kCsiZns) == nvme::kInvalidField);
                CHECK(identify(b, kCnsIoController, 0, kCsiZns) == nvme::kInvalidField);
                CHECK_FALSE(b.drv.zoned());
              }}});
}

TEST_CASE("nvme endpoint zns: the driver takes zone size and limits from Identify, and follows them", "[nvme][zns]") {
  // Two endpoints with 4 MiB and 16 MiB zones, different limits: the driver (which has no zone parameter) reports
  // what each one's Identify said.
  run_zoned({{zoned_ep(), zones(1024, 16, 8, 12), [](EndpointBench& b) {
                b.up();
                CHECK(b.drv.zoned());
                CHECK(b.drv.zone_lbas() == 8192);
                CHECK(b.drv.zone_bytes() == 4ull << 20);
                CHECK(b.drv.zone_ext_bytes() == 128);
                CHECK(b.drv.max_open_zones() == 8);
                CHECK(b.drv.max_active_zones() == 12);
                CHECK(b.drv.max_append_bytes() == 64 * 1024);  // ZASL 4: 16 x 4 KiB
              }},
             {zoned_ep(256), zones(4096, 256, 3, 5), [](EndpointBench& b) {
                b.up();
                CHECK(b.drv.zone_lbas() == 32768);
                CHECK(b.drv.zone_bytes() == 16ull << 20);
                CHECK(b.drv.zone_ext_bytes() == 256);
                CHECK(b.drv.max_open_zones() == 3);
                CHECK(b.drv.max_active_zones() == 5);
                CHECK(b.drv.max_append_bytes() == 128 * 1024);  // ZASL 8 capped at MDTS (5: 128 KiB)
              }}});
}

TEST_CASE("nvme endpoint zns: the driver refuses a zone size that is not a power of two, as Linux does", "[nvme][zns]") {
  run_zoned({{zoned_ep(), zones(768), [](EndpointBench& b) {  // 3 MiB zones: 6144 LBAs
                std::string err;
                CHECK_FALSE(b.drv.init(&err));
                CHECK(err == "invalid zone size: 6144 logical blocks (not a power of two)");
                CHECK_FALSE(b.drv.zoned());
              }}});
}

namespace {
Completion feature(EndpointBench& b, bool set, uint32_t fid, uint32_t value) {
  return b.drv.admin(cmd(set ? kSetFeatures : kGetFeatures, 0, fid, value));
}
}  // namespace

TEST_CASE("nvme endpoint zns: NVMe 2.0's Identify CNS 1Ch and I/O Command Set Profile, VS by command sets",
          "[nvme][zns]") {
  uint64_t admin_14 = 0, admin_12 = 0;
  run_zoned({{zoned_ep(), zones(1024), [](EndpointBench& b) {
                b.up();
                CHECK(b.drv.read32(kVs) == kVersion20);  // I/O Command Sets are NVMe 2.0's
                CHECK(b.drv.version() == kVersion20);
                REQUIRE(identify(b, kCnsController, 0, 0) == kSuccess);
                CHECK(le(b, 80, 4) == kVersion20);  // VER, as VS
                CHECK(le(b, 111, 1) == 1);          // CNTRLTYPE: I/O controller
                CHECK((le(b, 261, 1) & 2) == 2);    // LPA bit 1: the effects log (the driver read it)
                REQUIRE(identify(b, kCnsIoCommandSets, 0, 0) == kSuccess);
                CHECK(le(b, 0, 8) == 0x5);  // combination 0: NVM (CSI 0) and ZNS (CSI 2)
                for (uint32_t at = 8; at < 4096; at += 8) CHECK(le(b, at, 8) == 0);
                // The profile: the driver left combination 0 (as Linux, no Set Features 19h); the host may set it
                // again; no other index exists.
                CHECK((b.drv.read32(kCc) >> 4 & 7) == kCcCssAll);
                Completion c = feature(b, false, kFeatIoCommandSetProfile, 0);
                CHECK(c.status == kSuccess);
                CHECK(c.result == 0);
                CHECK(feature(b, true, kFeatIoCommandSetProfile, 0).status == kSuccess);
                CHECK(feature(b, true, kFeatIoCommandSetProfile, 1).status == kIoCommandSetCombinationRejected);
                CHECK(feature(b, true, kFeatIoCommandSetProfile, 0x1FF).status == kIoCommandSetCombinationRejected);
                CHECK(feature(b, true, kFeatIoCommandSetProfile, 0x200).status == kSuccess);  // bits 31:9 reserved
              }},
             {small_ep(), zones(1024), [&](EndpointBench& b) {  // NVM only: 1.4, neither CNS 1Ch nor FID 19h
                b.up();
                admin_14 = b.ep.counters().admin_commands;
                CHECK(b.drv.read32(kVs) == kVersion14);
                REQUIRE(identify(b, kCnsController, 0, 0) == kSuccess);
                CHECK(le(b, 80, 4) == kVersion14);
                CHECK(identify(b, kCnsIoCommandSets, 0, 0) == nvme::kInvalidField);
                CHECK(feature(b, false, kFeatIoCommandSetProfile, 0).status == nvme::kInvalidField);
                CHECK(feature(b, true, kFeatIoCommandSetProfile, 0).status == nvme::kInvalidField);
              }},
             {[] {
                EndpointParams p = small_ep();
                p.version = 0x00010200;  // NVMe 1.2: no Namespace Identification Descriptor list
                return p;
              }(),
              zones(1024), [&](EndpointBench& b) {
                b.up();
                admin_12 = b.ep.counters().admin_commands;
                CHECK(b.drv.version() == 0x00010200);
                CHECK_FALSE(b.drv.zoned());
              }}});
  CHECK(admin_14 == admin_12 + 1);  // the driver asks a 1.3+ controller for CNS 03h only (nvme_identify_ns_descs)
}

TEST_CASE("nvme endpoint zns: the driver reads the effects log only when LPA says it exists", "[nvme][zns]") {
  // Without LPA bit 1 the driver does not ask for the log (the endpoint would answer Invalid Log Page, 109h): no
  // Zone Append support known, the zoned namespace refused as Linux forces it read-only.
  EndpointParams p = zoned_ep();
  p.effects_log = false;
  run_zoned({{p, zones(1024), [](EndpointBench& b) {
                std::string err;
                CHECK_FALSE(b.drv.init(&err));
                CHECK(err == "the zoned namespace does not support Zone Append (Linux forces it read-only)");
                CHECK_FALSE(b.drv.zoned());
              }}});
}
