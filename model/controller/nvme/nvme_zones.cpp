// The endpoint's zoned namespace (NVMe Zoned Namespace Command Set 1.1): Zone Management Receive (§3.4.2): Report
// Zones and Extended Report Zones, the zone descriptors of the FTL's zoned layer (controller/placement/zns_zones.h)
// read at the command's arrival, each followed in the extended report by the zone descriptor extension the host set
// with Zone Management Send's Set Zone Descriptor Extension (§3.4.3); and the Identify data of the command set:
// the namespace's Command Set Identifier (NVMe Base 2.0 §5.17, CNS 03h), the I/O Command Set specific Identify
// Namespace (ZNS 1.1 §4.1.5.1, CNS 05h) and Controller (§4.1.5.2, CNS 06h) data structures, and the I/O Command
// Set data structure (CNS 1Ch) of the command set combinations; Zone Management Send's Select All.
#include <algorithm>
#include <cstring>

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

std::vector<uint8_t> NvmeEndpoint::zone_report(uint64_t first_zone, uint32_t filter, bool partial, bool extended,
                                               uint32_t bytes) const {
  // The Report Zones data structure (§3.4.2.2): Number of Zones (bytes 7:0), reserved to byte 63, then 64-byte zone
  // descriptors: Zone Type (byte 0, 2h sequential write required), Zone State (byte 1, bits 7:4), Zone Attributes
  // (byte 2: bit 7 ZDEV, a zone descriptor extension is valid), Zone Capacity (15:8), Zone Start LBA (23:16), Write
  // Pointer (31:24), all in LBAs. The write pointer is not valid in the Full, Read Only and Offline states: all ones
  // there, as QEMU's nvme_zone_mgmt_recv. Extended Report Zones (§3.4.2.3): each descriptor followed by its zone
  // descriptor extension (ZDES x 64 bytes; zeroes when ZDEV is 0).
  std::vector<uint8_t> d(bytes, 0);
  const ZoneConfig& c = zones_->config();
  const uint64_t lba_per_unit = kUnit / p_.lba_bytes;
  const uint32_t entry = 64 + (extended ? p_.zone_ext_bytes : 0);
  const uint32_t room = (bytes - 64) / entry;
  uint64_t listed = 0, z = first_zone;
  for (; z < c.zones && listed < room; ++z) {
    const ZoneState s = zones_->state(z);
    if (!matches(filter, s)) continue;
    uint8_t* e = &d[64 + entry * listed++];
    const bool zdev = zones_->has_extension(z);
    e[0] = 0x2;
    e[1] = uint8_t(zone_state_code(s) << 4);
    e[2] = zdev ? 0x80 : 0;
    put64(e + 8, c.capacity_units * lba_per_unit);
    put64(e + 16, zones_->start(z) * lba_per_unit);
    const bool wp_valid = s != ZoneState::Full && s != ZoneState::ReadOnly && s != ZoneState::Offline;
    put64(e + 24, wp_valid ? zones_->write_pointer(z) * lba_per_unit : ~uint64_t(0));
    const auto x = zone_ext_.find(z);
    if (extended && zdev && x != zone_ext_.end()) std::memcpy(e + 64, x->second.data(), x->second.size());
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
  // Dwords (0's based), CDW13 bits 7:0 the Zone Receive Action (00h Report Zones; 01h Extended Report Zones, which
  // needs zone descriptor extensions: ZDES 0 makes it Invalid Field, as QEMU's nvme_zone_mgmt_recv), bits 15:8 the
  // Reporting Options, bit 16 Partial Report. Statuses as QEMU's: Invalid Field for an action, option or size it
  // does not serve.
  const uint64_t slba = s.cdw(10) | uint64_t(s.cdw(11)) << 32;
  const uint32_t zra = s.cdw(13) & 0xFF, filter = (s.cdw(13) >> 8) & 0xFF;
  const bool partial = (s.cdw(13) >> 16) & 1;
  const bool extended = zra == kZraExtendedReport && p_.zone_ext_bytes;
  const uint64_t bytes = (uint64_t(s.cdw(12)) + 1) * 4;
  uint16_t st = check_range(s, slba, 1);
  if (!st && ((zra != 0 && !extended) || filter > 7 || bytes < 64 || bytes > (kUnit << p_.mdts)))
    st = nvme::kInvalidField | kDnr;
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
      zone_report(slba * p_.lba_bytes / (zones_->config().zone_units * kUnit), filter, partial, extended,
                  uint32_t(bytes));
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

void NvmeEndpoint::submit_zone_extension(Command* c, const Sqe& s, uint64_t t) {
  // Set Zone Descriptor Extension (ZNS 1.1 §3.4.3): the command's data, ZDES x 64 bytes, is the extension of the
  // zone at the Starting LBA. The endpoint reads it from host memory (its PRPs or SGL) before the zoned layer takes
  // the action (an Empty zone becomes Closed with ZDEV set; QEMU's nvme_set_zd_ext), and keeps it once it has.
  bool failed = false;
  const PrpWalk w = walk_data(s, p_.zone_ext_bytes, failed);
  uint16_t st = failed ? uint16_t(kDataTransferError) : w.status ? uint16_t(w.status | kDnr) : uint16_t(kSuccess);
  for (const Segment& l : w.lists) t = link_.read_host(t, l.addr, l.bytes, p_.host_mem_ps, true);
  c->extension.assign(p_.zone_ext_bytes, 0);
  uint8_t* dst = c->extension.data();
  for (const Segment& g : w.data) {
    if (st) break;
    if (!dma_read(g.addr, dst, g.bytes)) st = kDataTransferError;
    t = link_.read_host(t, g.addr, g.bytes, p_.host_mem_ps, true);
    dst += g.bytes;
  }
  if (st) {
    const uint16_t cid = c->cid, sqid = c->sqid;
    release(c);
    return finish(sqid, cid, st, t);
  }
  backend_->submit(*c, t);
}

void NvmeEndpoint::keep_extension(Command& c) {
  zone_ext_[uint64_t(c.lpn) / zones_->config().zone_units] = std::move(c.extension);
}

namespace {
// The zone states Select All takes a Zone Send Action to (ZNS Command Set 1.1 §3.4.3, from its action descriptions;
// QEMU's nvme_zone_mgmt_send the same): Close the open zones, Finish the open and closed ones, Open the closed ones,
// Reset the open, closed and full ones, Offline the read-only ones.
bool selected(uint32_t zsa, ZoneState s) {
  const bool open = s == ZoneState::ImplicitOpen || s == ZoneState::ExplicitOpen;
  switch (zsa) {
    case 1: return open;
    case 2: return open || s == ZoneState::Closed;
    case 3: return s == ZoneState::Closed;
    case 4: return open || s == ZoneState::Closed || s == ZoneState::Full;
    case 5: return s == ZoneState::ReadOnly;
    default: return false;
  }
}
}  // namespace

void NvmeEndpoint::submit_zone_all(uint16_t sqid, const Sqe& s, uint64_t t) {
  // Select All: the firmware walks the zone table at the command's arrival and sends the action to the FTL's zoned
  // layer once per zone in a state it applies to, the command completing with the first failure's status once all
  // are done (a Dataset Management's ranges the same way). Open beyond the open limit: the zones past it fail with
  // Too Many Open Zones, those before it stay open (as QEMU's, which stops at the first failure).
  const uint32_t zsa = s.cdw(13) & 0xFF;
  const ZoneConfig& zc = zones_->config();
  Command* parent = make(sqid, s);
  parent->parts = 1;  // itself while its zones are submitted: the FTL may complete one within submit()
  const uint64_t ready = t + p_.admin_ps;  // the table walk, as Report Zones'
  for (uint64_t z = 0; z < zc.zones; ++z) {
    if (!selected(zsa, zones_->state(z))) continue;
    Command* c = make(sqid, s);
    c->parent = parent;
    c->op = IoOp::Trim;
    c->zone_action = ZoneAction(zsa);
    c->lpn = uint32_t(zones_->start(z));
    c->units = 1;
    c->bytes = 0;
    ++parent->parts;
    ++n_.zones_selected;
    backend_->submit(*c, ready);
  }
  if (--parent->parts) return;
  const uint16_t st = parent->worst;
  release(parent);
  finish(sqid, s.cid(), st, ready);
}

void NvmeEndpoint::zone_changed(uint64_t zone) {
  // A Zone Descriptor Changed event (ZNS 1.1, from memory): the zone joins the Changed Zone List; the notice goes
  // when the host enabled it (Asynchronous Event Configuration bit 27) and none is outstanding (an event type stays
  // masked until the host reads its log page with Retain Asynchronous Event 0).
  if (std::find(changed_zones_.begin(), changed_zones_.end(), zone) == changed_zones_.end()) {
    if (changed_zones_.size() < 511) changed_zones_.push_back(zone);
    else changed_overflow_ = true;
  }
  if (!(aec_ & kAecZoneDescriptorChanged) || zdc_masked_) return;
  zdc_masked_ = true;
  post_event(kAenNotice | kAenZoneDescriptorChanged << 8 | uint32_t(kLogChangedZones) << 16);
}

std::vector<uint8_t> NvmeEndpoint::changed_zone_log(bool clear) {
  // The Changed Zone List (ZNS 1.1, from memory): Number of Zone Identifiers (bytes 1:0; FFFFh: more than 511, none
  // listed), reserved to byte 7, then each changed zone's Zone Start LBA (8 bytes).
  std::vector<uint8_t> d(4096, 0);
  const uint64_t lba_per_unit = kUnit / p_.lba_bytes;
  const size_t n = changed_overflow_ ? 0 : changed_zones_.size();
  d[0] = uint8_t(changed_overflow_ ? 0xFF : n), d[1] = uint8_t(changed_overflow_ ? 0xFF : n >> 8);
  for (size_t i = 0; i < n; ++i) put64(&d[8 + 8 * i], zones_->start(changed_zones_[i]) * lba_per_unit);
  if (clear) changed_zones_.clear(), changed_overflow_ = false, zdc_masked_ = false;
  return d;
}

bool NvmeEndpoint::identify_command_set(const Sqe& s, uint8_t* d, uint16_t& status) const {
  const uint32_t cns = s.cdw(10) & 0xFF, csi = s.cdw(11) >> 24;
  const auto put = [&](size_t at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) d[at + i] = uint8_t(v >> (8 * i));
  };
  status = kSuccess;
  if (cns == kCnsIoCommandSets) {
    // The I/O Command Set data structure (Base 2.0, CNS 1Ch): 512 I/O Command Set Vectors of 8 bytes, vector n the
    // combination with index n (I/O Command Set Profile), bit k of it the command set with CSI k. A controller with
    // I/O Command Sets (a zoned namespace: CAP.CSS bit 6) has one combination, NVM (bit 0) and ZNS (bit 2); as
    // QEMU's nvme_identify_cmd_set. Without them the CNS value is not served (Invalid Field; 1.4 has no 1Ch).
    if (!p_.zoned) return status = nvme::kInvalidField | kDnr, true;
    put(0, 1u << kCsiNvm | 1u << kCsiZns, 8);
    return true;
  }
  if (cns != kCnsNsDescList && cns != kCnsIoNamespace && cns != kCnsIoController) return false;
  if (cns != kCnsIoController && s.nsid() != 1) return status = kInvalidNamespace | kDnr, true;
  if (cns == kCnsNsDescList) {
    // The Namespace Identification Descriptor list (Base 2.0 §5.17.2.3): one descriptor, NIDT 04h (Command Set
    // Identifier), NIDL 1, reserved bytes 3:2, the CSI at byte 4; a zero NIDT ends the list. Linux's
    // nvme_identify_ns_descs learns the namespace's command set from it (CC.CSS 110b: required).
    put(0, kNidtCsi, 1), put(1, 1, 1), put(4, p_.zoned ? kCsiZns : kCsiNvm, 1);
    return true;
  }
  // CSI 00h: the NVM Command Set's structures, all fields 0 (no limits reported, no extended formats); CSI 02h:
  // ZNS's, for a zoned namespace; any other (or ZNS on a namespace that is not zoned) Invalid Field, as QEMU's
  // nvme_identify_ns_csi and nvme_identify_ctrl_csi.
  if (csi == kCsiNvm) return true;
  if (csi != kCsiZns || !p_.zoned || !zones_) return status = nvme::kInvalidField | kDnr, true;
  const ZoneConfig& z = zones_->config();
  if (cns == kCnsIoController) {
    // ZASL (byte 0): the Zone Append Size Limit, 2^n units of the minimum memory page size (CAP.MPSMIN: 4 KiB); 0 =
    // MDTS. zns.zasl_bytes is 0 or 2^n x 4 KiB; a limit beyond MDTS is MDTS (the endpoint refuses more anyway).
    uint32_t zasl = 0;
    while (z.append_limit_units >> (zasl + 1)) ++zasl;
    put(0, z.append_limit_units ? std::min(zasl, p_.mdts) : 0, 1);
    return true;
  }
  // ZOC (bytes 1:0) 0: fixed zone capacity, no zone active excursions. OZCS (3:2) bit 0 RAZB: reads may cross zone
  // boundaries (the zoned layer checks writes only). MAR (7:4), MOR (11:8): Max Active / Open Resources, 0's based,
  // FFFFFFFFh no limit. RRL, FRL (15:12, 19:16) and RRL1..FRL3: 0, not reported. The LBA Format Extension of format
  // 0 at byte 2816: ZSZE (7:0), the zone size in logical blocks, and ZDES (byte 8), the zone descriptor extension
  // size in 64-byte units.
  put(2, 1, 2);
  put(4, z.max_active ? z.max_active - 1 : 0xFFFFFFFFu, 4);
  put(8, z.max_open ? z.max_open - 1 : 0xFFFFFFFFu, 4);
  put(2816, z.zone_units * (kUnit / p_.lba_bytes), 8);
  put(2824, p_.zone_ext_bytes / 64, 1);
  return true;
}

}  // namespace ssdtlm
