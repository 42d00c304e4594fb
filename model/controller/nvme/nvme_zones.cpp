// The endpoint's Zone Management Receive (NVMe Zoned Namespace Command Set 1.1, §3.4.2): Report Zones, the zone
// descriptors of the FTL's zoned layer (controller/placement/zns_zones.h) read at the command's arrival.
#include <algorithm>

#include "common/sim_time.h"
#include "controller/nvme/endpoint_command.h"
#include "controller/placement/zns_zones.h"

namespace ssdtlm {

using namespace nvme;

namespace {

constexpr uint64_t kUnit = 4096;  // the FTL's mapping unit, the zoned layer's unit

// The Zone State field's value (Zone Descriptor byte 1, bits 7:4): ZSE 1h, ZSIO 2h, ZSEO 3h, ZSC 4h, ZSRO Dh,
// ZSF Eh, ZSO Fh.
uint8_t zone_state_code(ZoneState s) {
  switch (s) {
    case ZoneState::Empty: return 0x1;
    case ZoneState::ImplicitOpen: return 0x2;
    case ZoneState::ExplicitOpen: return 0x3;
    case ZoneState::Closed: return 0x4;
    case ZoneState::ReadOnly: return 0xD;
    case ZoneState::Full: return 0xE;
    case ZoneState::Offline: return 0xF;
  }
  return 0;
}

// The Zone Receive Action Specific Field of Report Zones (Reporting Options): 0h every zone, 1h-7h the zones in
// state ZSE, ZSIO, ZSEO, ZSC, ZSF, ZSRO, ZSO.
bool matches(uint32_t filter, ZoneState s) {
  static constexpr ZoneState kByFilter[] = {ZoneState::Empty,  ZoneState::ImplicitOpen, ZoneState::ExplicitOpen,
                                            ZoneState::Closed, ZoneState::Full,         ZoneState::ReadOnly,
                                            ZoneState::Offline};
  return filter == 0 || kByFilter[filter - 1] == s;
}

void put64(uint8_t* b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[i] = uint8_t(v >> (8 * i));
}

}  // namespace

std::vector<uint8_t> NvmeEndpoint::zone_report(uint64_t first_zone, uint32_t filter, bool partial, uint32_t bytes) const {
  // The Report Zones data structure (§3.4.2.2): Number of Zones (bytes 7:0), reserved to byte 63, then 64-byte zone
  // descriptors: Zone Type (byte 0, 2h sequential write required), Zone State (byte 1, bits 7:4), Zone Attributes
  // (byte 2: none), Zone Capacity (15:8), Zone Start LBA (23:16), Write Pointer (31:24), all in LBAs. The write
  // pointer is not valid in the Full, Read Only and Offline states: all ones there, as QEMU's nvme_zone_mgmt_recv.
  std::vector<uint8_t> d(bytes, 0);
  const ZoneConfig& c = zones_->config();
  const uint64_t lba_per_unit = kUnit / p_.lba_bytes;
  const uint32_t room = (bytes - 64) / 64;
  uint64_t listed = 0, z = first_zone;
  for (; z < c.zones && listed < room; ++z) {
    const ZoneState s = zones_->state(z);
    if (!matches(filter, s)) continue;
    uint8_t* e = &d[64 + 64 * listed++];
    e[0] = 0x2;
    e[1] = uint8_t(zone_state_code(s) << 4);
    put64(e + 8, c.capacity_units * lba_per_unit);
    put64(e + 16, zones_->start(z) * lba_per_unit);
    const bool wp_valid = s != ZoneState::Full && s != ZoneState::ReadOnly && s != ZoneState::Offline;
    put64(e + 24, wp_valid ? zones_->write_pointer(z) * lba_per_unit : ~uint64_t(0));
  }
  // Partial Report 0: the zones that match from the first one to the namespace's end, whether they fit or not;
  // 1: the descriptors transferred.
  if (!partial)
    for (; z < c.zones; ++z) listed += matches(filter, zones_->state(z));
  put64(d.data(), listed);
  return d;
}

void NvmeEndpoint::submit_zone_receive(uint16_t sqid, const Sqe& s, uint64_t t) {
  // Zone Management Receive (ZNS Command Set 1.1 §3.4.2): CDW10-11 the Starting LBA, CDW12 the Number of
  // Dwords (0's based), CDW13 bits 7:0 the Zone Receive Action (00h Report Zones; 01h Extended Report Zones needs
  // zone descriptor extensions, which the namespace has none of), bits 15:8 the Reporting Options, bit 16 Partial
  // Report. Statuses as QEMU's nvme_zone_mgmt_recv: Invalid Field for an action, option or size it does not serve.
  const uint64_t slba = s.cdw(10) | uint64_t(s.cdw(11)) << 32;
  const uint32_t zra = s.cdw(13) & 0xFF, filter = (s.cdw(13) >> 8) & 0xFF;
  const bool partial = (s.cdw(13) >> 16) & 1;
  const uint64_t bytes = (uint64_t(s.cdw(12)) + 1) * 4;
  uint16_t st = check_range(s, slba, 1);
  if (!st && (zra != 0 || filter > 7 || bytes < 64 || bytes > (kUnit << p_.mdts))) st = nvme::kInvalidField | kDnr;
  PrpWalk w;
  if (!st) {
    bool failed = false;
    w = walk_data(s, bytes, failed);
    st = failed ? uint16_t(kDataTransferError) : w.status ? uint16_t(w.status | kDnr) : uint16_t(kSuccess);
  }
  for (const Segment& l : w.lists) t = link_.read_host(t, l.addr, l.bytes, p_.host_mem_ps, true);
  if (st) return finish(sqid, s.cid(), st, t);
  ++n_.zone_reports;
  // The firmware walks the zone table (admin_ps, as an admin command), then the report goes up as memory writes.
  const std::vector<uint8_t> d =
      zone_report(slba * p_.lba_bytes / (zones_->config().zone_units * kUnit), filter, partial, uint32_t(bytes));
  const uint64_t ready = t + p_.admin_ps;
  uint64_t end = ready;
  const uint8_t* src = d.data();
  for (const Segment& g : w.data) {
    if (!dma_write(g.addr, src, g.bytes)) st = kDataTransferError;
    end = link_.write_up(ready, g.addr, g.bytes);
    src += g.bytes;
  }
  finish(sqid, s.cid(), st, end);
}

}  // namespace ssdtlm
