// The endpoint's admin commands (NVMe Base 1.4 §5): queue creation and deletion, Identify, Get/Set Features,
// Get Log Page, Asynchronous Event Request.
#include <algorithm>
#include <cstring>

#include "common/sim_time.h"
#include "controller/nvme/endpoint_command.h"

namespace ssdtlm {

using namespace nvme;

void NvmeEndpoint::admin(const Sqe& s, uint64_t t) {
  ++n_.admin_commands;
  const uint64_t done = t + p_.admin_ps;
  uint64_t end = done;
  uint32_t result = 0;
  uint16_t st = kSuccess;
  // Admin commands take PRPs only over PCIe (Base 2.0 §4.3.2: SGLs are for I/O commands; PSDT 00b).
  if (s.psdt()) return finish(0, s.cid(), kInvalidField | kDnr, end);
  switch (s.opcode()) {
    case kCreateCq: st = create_cq(s); break;
    case kCreateSq: st = create_sq(s); break;
    case kDeleteSq: st = delete_sq(s); break;
    case kDeleteCq: st = delete_cq(s); break;
    case kIdentify: st = identify(s, done, end); break;
    case kGetLogPage: st = log_page(s, done, end); break;
    case kSetFeatures:
    case kGetFeatures:
      if ((s.cdw(10) & 0xFF) == kFeatApst) st = apst_feature(s, s.opcode() == kSetFeatures, done, end, result);
      else if ((s.cdw(10) & 0xFF) == kFeatPowerMgmt)
        st = power_feature(s.opcode() == kSetFeatures, s.cdw(11), end, result);
      else st = features(s, s.opcode() == kSetFeatures, result);
      break;
    case kAsyncEvent:
      if (aer_cids_.size() >= 4) {  // AERL = 3
        st = kAsyncEventLimit;
        break;
      }
      aer_cids_.push_back(s.cid());
      deliver_events();  // an event waiting for a request
      return;  // completes when an event occurs
    default: st = kInvalidOpcode | kDnr; break;
  }
  finish(0, s.cid(), st, end, result);
}

uint16_t NvmeEndpoint::create_cq(const Sqe& s) {
  const uint32_t qid = s.cdw(10) & 0xFFFF, size = (s.cdw(10) >> 16) + 1;
  const bool contiguous = s.cdw(11) & 1, ien = s.cdw(11) & 2;
  const uint32_t iv = s.cdw(11) >> 16;
  if (qid == 0 || qid > granted_queues_ || cq_[qid].live) return kInvalidQueueId | kDnr;
  if (size < 2 || size > p_.mqes + 1) return kInvalidQueueSize | kDnr;
  if (iv >= p_.msix_vectors) return kInvalidInterruptVector | kDnr;
  if (!contiguous) return kInvalidField | kDnr;  // CAP.CQR: queues must be physically contiguous
  if (s.prp1() % page_ || !s.prp1()) return kPrpOffsetInvalid | kDnr;
  Cq& c = cq_[qid];
  c = Cq{};
  c.live = true, c.base = s.prp1(), c.size = size, c.ien = ien, c.vector = uint16_t(iv);
  return kSuccess;
}

uint16_t NvmeEndpoint::create_sq(const Sqe& s) {
  const uint32_t qid = s.cdw(10) & 0xFFFF, size = (s.cdw(10) >> 16) + 1;
  const bool contiguous = s.cdw(11) & 1;
  const uint32_t prio = (s.cdw(11) >> 1) & 3, cqid = s.cdw(11) >> 16;
  if (qid == 0 || qid > granted_queues_ || sq_[qid].live) return kInvalidQueueId | kDnr;
  if (cqid == 0 || cqid >= cq_.size() || !cq_[cqid].live) return kCqInvalid | kDnr;
  if (size < 2 || size > p_.mqes + 1) return kInvalidQueueSize | kDnr;
  if (!contiguous) return kInvalidField | kDnr;
  if (s.prp1() % page_ || !s.prp1()) return kPrpOffsetInvalid | kDnr;
  sq_[qid] = Sq{true, s.prp1(), size, 0, 0, uint16_t(cqid)};
  ++cq_[cqid].sqs;
  arb_.set_prio(qid, Prio(prio));
  arb_.set_ready(qid, 0);
  return kSuccess;
}

uint16_t NvmeEndpoint::delete_sq(const Sqe& s) {
  const uint32_t qid = s.cdw(10) & 0xFFFF;
  if (qid == 0 || qid >= sq_.size() || !sq_[qid].live) return kInvalidQueueId | kDnr;
  --cq_[sq_[qid].cqid].sqs;
  sq_[qid] = Sq{};
  arb_.set_ready(qid, 0);
  return kSuccess;
}

uint16_t NvmeEndpoint::delete_cq(const Sqe& s) {
  const uint32_t qid = s.cdw(10) & 0xFFFF;
  if (qid == 0 || qid >= cq_.size() || !cq_[qid].live) return kInvalidQueueId | kDnr;
  if (cq_[qid].sqs) return kInvalidQueueDeletion | kDnr;  // a submission queue still completes into it
  cq_[qid] = Cq{};
  return kSuccess;
}

uint64_t NvmeEndpoint::copy_out(const Sqe& s, const void* data, uint32_t bytes, uint64_t t, uint16_t& status) {
  bool failed = false;
  const PrpWalk w = walk_prps(s.prp1(), s.prp2(), bytes, page_, prp_reader(failed));
  status = failed ? uint16_t(kDataTransferError) : w.status;
  if (status) return t;
  const auto* src = static_cast<const uint8_t*>(data);
  uint64_t end = t;
  for (const Segment& g : w.data) {
    if (!dma_write(g.addr, src, g.bytes)) status = kDataTransferError;
    end = link_.write_up(t, g.addr, g.bytes);
    src += g.bytes;
  }
  return end;
}

uint64_t NvmeEndpoint::copy_in(const Sqe& s, void* data, uint32_t bytes, uint64_t t, uint16_t& status) {
  bool failed = false;
  const PrpWalk w = walk_prps(s.prp1(), s.prp2(), bytes, page_, prp_reader(failed));
  status = failed ? uint16_t(kDataTransferError) : w.status;
  if (status) return t;
  auto* dst = static_cast<uint8_t*>(data);
  uint64_t end = t;
  for (const Segment& g : w.data) {
    if (!dma_read(g.addr, dst, g.bytes)) status = kDataTransferError;
    end = link_.read_host(end, g.addr, g.bytes, p_.host_mem_ps, true);
    dst += g.bytes;
  }
  return end;
}

namespace {
void put(uint8_t* b, size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b[at + i] = uint8_t(v >> (8 * i));
}
void text(uint8_t* b, size_t at, const char* s, size_t width) {
  std::memset(b + at, ' ', width);
  std::memcpy(b + at, s, std::min(width, std::strlen(s)));
}
}  // namespace

uint16_t NvmeEndpoint::identify(const Sqe& s, uint64_t t, uint64_t& done) {
  uint8_t d[4096] = {};
  const uint32_t cns = s.cdw(10) & 0xFF;
  const uint32_t lbads = p_.lba_bytes == 4096 ? 12 : 9;
  if (cns == kCnsController) {  // Identify Controller data structure (NVMe 1.4 Figure 251)
    put(d, 0, 0, 2);  // PCI vendor id: none (a model)
    text(d, 4, "SSDTLM0001", 20);
    text(d, 24, "ssdtlm NVMe endpoint", 40);
    text(d, 64, "1.0", 8);
    put(d, 72, 0, 1);               // RAB: recommended arbitration burst 2^0 (the reset value of AB)
    put(d, 77, p_.mdts, 1);
    put(d, 80, version(), 4);       // VER, as VS
    put(d, 111, 1, 1);              // CNTRLTYPE: an I/O controller (1.4 added the field; 2.0 requires it)
    put(d, 92, p_.zoned ? kAecZoneDescriptorChanged : 0, 4);  // OAES bit 27: Zone Descriptor Changed Notices
    put(d, 259, 3, 1);              // AERL: 4 outstanding asynchronous event requests
    put(d, 261, p_.effects_log ? 1u << 1 : 0u, 1);  // LPA bit 1: the Commands Supported and Effects log page
    put(d, 262, 63, 1);             // ELPE: 64 error log entries
    put(d, 512, 0x66, 1);           // SQES: 64 B
    put(d, 513, 0x44, 1);           // CQES: 16 B
    put(d, 516, 1, 4);              // NN: one namespace
    put(d, 520, 1u << 2 | 1u << 3, 2);  // ONCS: Dataset Management, Write Zeroes
    put(d, 525, 0, 1);              // VWC: no volatile write cache (the buffer is capacitor-protected)
    put(d, 536, 1, 4);              // SGLS: SGLs supported for I/O commands, no alignment requirement (01b)
    power_descriptors(d);           // NPSS, APSTA, the power state descriptors (nvme_power.cpp)
  } else if (cns == kCnsNamespace) {
    if (s.nsid() != 1) return kInvalidNamespace | kDnr;
    const uint64_t lbas = p_.ns_bytes / p_.lba_bytes;
    put(d, 0, lbas, 8), put(d, 8, lbas, 8), put(d, 16, lbas, 8);
    put(d, 25, 0, 1);                  // NLBAF: one format
    put(d, 128, uint64_t(lbads) << 16, 4);  // LBAF0: LBADS
  } else if (cns == kCnsActiveNsList) {
    if (s.nsid() < 1) put(d, 0, 1, 4);
  } else if (uint16_t st = kSuccess; identify_command_set(s, d, st)) {  // CNS 03h, 05h, 06h (nvme_zones.cpp)
    if (st) return st;
  } else {
    return kInvalidField | kDnr;
  }
  uint16_t st = kSuccess;
  done = copy_out(s, d, sizeof d, t, st);
  return st ? uint16_t(st | kDnr) : uint16_t(kSuccess);
}

uint16_t NvmeEndpoint::features(const Sqe& s, bool set, uint32_t& result) {
  const uint32_t fid = s.cdw(10) & 0xFF, v = s.cdw(11);
  switch (fid) {
    case kFeatArbitration:
      if (set) {  // HPW 31:24, MPW 23:16, LPW 15:8, AB 2:0 (Base 2.0 §5.27.1.1); bits 7:3 reserved
        arbitration_ = v & 0xFFFFFF07u;
        arb_.set_weights(uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8));
        arb_.set_burst(uint8_t(v & 7));
      }
      result = arbitration_;
      return kSuccess;
    case kFeatNumQueues: {
      if (set) {
        const uint32_t nsq = (v & 0xFFFF) + 1, ncq = (v >> 16) + 1;
        if ((v & 0xFFFF) == 0xFFFF || (v >> 16) == 0xFFFF) return kInvalidField | kDnr;
        granted_queues_ = std::min({nsq, ncq, p_.io_queues});
      }
      const uint32_t g = std::min(granted_queues_, p_.io_queues) - 1;
      result = g | g << 16;
      return kSuccess;
    }
    case kFeatIntCoalescing:
      if (set) {
        for (uint32_t iv = 1; iv < p_.msix_vectors; ++iv)
          coalesce_[iv].configure((v & 0xFF) + 1, uint64_t((v >> 8) & 0xFF) * 100000000ull);
        coalescing_ = v & 0xFFFF;
      }
      result = coalescing_;
      return kSuccess;
    case kFeatIntVectorConfig: {
      const uint32_t iv = v & 0xFFFF;
      if (iv >= p_.msix_vectors || (set && iv == 0 && !(v & 0x10000))) return kInvalidField | kDnr;
      if (set) coalesce_off_[iv] = v & 0x10000;
      result = iv | uint32_t(coalesce_off_[iv]) << 16;
      return kSuccess;
    }
    case kFeatIoCommandSetProfile:
      // I/O Command Set Profile (Base 2.0): the index of the command set combination (Identify CNS 1Ch) the
      // controller runs. A controller with I/O Command Sets (CAP.CSS bit 6: a zoned namespace) has one, index 0
      // (NVM and ZNS); another is I/O Command Set Combination Rejected, as QEMU's nvme_set_feature. Without them
      // the feature does not exist: Invalid Field.
      if (!p_.zoned) return kInvalidField | kDnr;
      if (set && (v & 0x1FF) != 0) return kIoCommandSetCombinationRejected | kDnr;
      result = 0;
      return kSuccess;
    case kFeatAsyncEventConfig:
      // Asynchronous Event Configuration: the notices the host wants; the endpoint sends Zone Descriptor Changed
      // (bit 27) only, with a zoned namespace. Other bits read back as 0 (their events do not exist here).
      if (set) aec_ = v & (p_.zoned ? kAecZoneDescriptorChanged : 0u);
      result = aec_;
      return kSuccess;
    case kFeatVwc:  // no volatile write cache: Set Features of it is refused (NVMe 1.4 §5.21.1.6)
      if (set) return kInvalidField | kDnr;
      result = 0;
      return kSuccess;
    default:
      return kInvalidField | kDnr;
  }
}

uint16_t NvmeEndpoint::log_page(const Sqe& s, uint64_t t, uint64_t& done) {
  const uint32_t lid = s.cdw(10) & 0xFF;
  const uint32_t bytes = (((s.cdw(10) >> 16) | (s.cdw(11) & 0xFFFF) << 16) + 1) * 4;
  std::vector<uint8_t> d;
  if (lid == kLogSmart) {  // SMART / Health Information (NVMe 1.4 Figure 194)
    d.assign(512, 0);
    const double c = temperature_ ? temperature_() : -273.15;  // 0 K: not reported
    put(d.data(), 1, uint64_t(std::max(0.0, c + 273.15) + 0.5), 2);
    put(d.data(), 32, (n_.bytes_read / 512 + 999) / 1000, 8);     // data units read: 1000 x 512 B, rounded up
    put(d.data(), 48, (n_.bytes_written / 512 + 999) / 1000, 8);  // data units written
    put(d.data(), 64, n_.reads, 8);
    put(d.data(), 80, n_.writes, 8);
    put(d.data(), 176, n_.errors, 8);  // number of error information log entries
  } else if (lid == kLogEffects && p_.effects_log) {  // Commands Supported and Effects (Base 2.0 §5.16.1.6) of the CSI in CDW14 31:24
    d = effects_log(s.cdw(14) >> 24);
    if (d.empty()) return kInvalidField | kDnr;
  } else if (lid == kLogChangedZones) {  // nvme_zones.cpp
    if (!p_.zoned || !zones_) return kInvalidLogPage | kDnr;
    if (s.nsid() != 1) return kInvalidNamespace | kDnr;
    d = changed_zone_log(!(s.cdw(10) & 0x8000));
  } else if (lid == kLogError) {
    d.assign(64 * 64, 0);
    for (size_t i = 0; i < error_log_.size(); ++i) std::memcpy(&d[i * 64], error_log_[i].data(), 64);
  } else {
    return kInvalidLogPage | kDnr;
  }
  if (bytes < d.size()) d.resize(bytes);
  uint16_t st = kSuccess;
  done = copy_out(s, d.data(), uint32_t(d.size()), t, st);
  return st ? uint16_t(st | kDnr) : uint16_t(kSuccess);
}

std::vector<uint8_t> NvmeEndpoint::effects_log(uint32_t csi) const {
  // ACS0..ACS255 (bytes 1023:0), the admin commands, IOCS0..IOCS255 (2047:1024), the I/O commands of command set
  // `csi`, 4 bytes each: CSUPP (bit 0) supported, LBCC (bit 1) it may change logical block content. Linux's
  // nvme_update_zone_info forces a zoned namespace read-only unless Zone Append's IOCS has CSUPP.
  if (csi != kCsiNvm && !(csi == kCsiZns && p_.zoned)) return {};
  std::vector<uint8_t> d(4096, 0);
  for (uint8_t op : {kDeleteSq, kCreateSq, kGetLogPage, kDeleteCq, kCreateCq, kIdentify, kSetFeatures, kGetFeatures,
                     kAsyncEvent})
    d[op * 4] = 1;
  const auto io = [&](uint8_t op, bool changes) { d[1024 + op * 4] = uint8_t(changes ? 3 : 1); };
  io(kFlush, false), io(kRead, false), io(kWrite, true), io(kWriteZeroes, true), io(kDsm, true);
  if (csi == kCsiZns) io(kZoneMgmtSend, true), io(kZoneMgmtRecv, false), io(kZoneAppend, true);
  return d;
}

}  // namespace ssdtlm
