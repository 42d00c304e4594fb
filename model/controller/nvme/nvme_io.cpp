// The endpoint's I/O commands (NVM Command Set 1.0 §3, ZNS Command Set §3-4): Read, Write, Flush, Write Zeroes,
// Dataset Management, Zone Append and Zone Management Send (Receive: nvme_zones.cpp); their data moved through the
// PRPs or the SGL.
#include <algorithm>

#include "common/sim_time.h"
#include "controller/nvme/endpoint_command.h"

namespace ssdtlm {

using namespace nvme;

namespace {
constexpr uint64_t kUnit = 4096;  // the FTL's mapping unit
}

NvmeEndpoint::Command* NvmeEndpoint::make(uint16_t sqid, const Sqe& s) {
  Command* c;
  if (free_.empty()) {
    c = new Command;
  } else {
    c = free_.back();
    free_.pop_back();
  }
  c->reset();
  c->sqid = sqid, c->cid = s.cid(), c->opcode = s.opcode();
  c->qid = uint16_t(sqid - 1);
  c->data.clear();
  c->parent = nullptr, c->parts = 0, c->worst = 0;
  c->extension.clear();
  ++in_flight_;
  return c;
}

void NvmeEndpoint::release(Command* c) {
  --in_flight_;
  free_.push_back(c);
}

uint16_t NvmeEndpoint::check_range(const Sqe& s, uint64_t slba, uint32_t nlb) const {
  if (s.nsid() != 1) return kInvalidNamespace | kDnr;
  if (slba + nlb > p_.ns_bytes / p_.lba_bytes || slba + nlb < slba) return kLbaOutOfRange | kDnr;
  return kSuccess;
}

void NvmeEndpoint::io(uint16_t sqid, const Sqe& s, uint64_t t) {
  switch (s.opcode()) {
    case kRead:
    case kWrite:
    case kZoneAppend:
      if (s.opcode() == kZoneAppend && !p_.zoned) break;
      return submit_rw(sqid, s, t);
    case kWriteZeroes: {
      // Deallocate the range: the namespace reads deallocated blocks as zeroes.
      const uint64_t slba = s.cdw(10) | uint64_t(s.cdw(11)) << 32;
      const uint32_t nlb = (s.cdw(12) & 0xFFFF) + 1;
      if (const uint16_t st = check_range(s, slba, nlb)) return finish(sqid, s.cid(), st, t);
      Command* c = make(sqid, s);
      c->op = IoOp::Trim;
      c->lpn = uint32_t(slba * p_.lba_bytes / kUnit);
      const uint64_t end = (slba + nlb) * p_.lba_bytes;
      c->units = uint32_t((end + kUnit - 1) / kUnit - c->lpn);
      c->bytes = nlb * p_.lba_bytes;
      return backend_->submit(*c, t);
    }
    case kDsm: return submit_dsm(sqid, s, t);
    case kZoneMgmtSend:
      if (!p_.zoned) break;
      return submit_zone(sqid, s, t);
    case kZoneMgmtRecv:
      if (!p_.zoned || !zones_) break;
      return submit_zone_receive(sqid, s, t);
    case kFlush:  // no volatile write cache: nothing to write back
      if (s.nsid() != 1 && s.nsid() != 0xFFFFFFFF) return finish(sqid, s.cid(), kInvalidNamespace | kDnr, t);
      return finish(sqid, s.cid(), kSuccess, t);
    default: break;
  }
  finish(sqid, s.cid(), kInvalidOpcode | kDnr, t);
}

void NvmeEndpoint::submit_rw(uint16_t sqid, const Sqe& s, uint64_t t) {
  const uint64_t slba = s.cdw(10) | uint64_t(s.cdw(11)) << 32;
  const uint32_t nlb = (s.cdw(12) & 0xFFFF) + 1;
  const uint64_t bytes = uint64_t(nlb) * p_.lba_bytes;
  uint16_t st = check_range(s, slba, nlb);
  if (!st && bytes > (kUnit << p_.mdts)) st = kInvalidField | kDnr;  // beyond MDTS
  PrpWalk& w = walk_;
  w.data.clear(), w.lists.clear();
  if (!st) {
    bool failed = false;  // a PRP list or SGL segment read the host refused: Data Transfer Error, as QEMU's nvme_map_prp
    walk_data(s, bytes, failed, w);
    st = failed ? uint16_t(kDataTransferError) : w.status ? uint16_t(w.status | kDnr) : uint16_t(kSuccess);
  }
  for (const Segment& l : w.lists) t = link_.read_host(t, l.addr, l.bytes, p_.host_mem_ps, true);  // lists, in turn
  if (st) return finish(sqid, s.cid(), st, t);
  Command* c = make(sqid, s);
  const uint64_t off = slba * p_.lba_bytes, end = off + bytes;
  c->op = s.opcode() == kRead ? IoOp::Read : IoOp::Write;
  c->lpn = uint32_t(off / kUnit);
  c->units = uint32_t((end + kUnit - 1) / kUnit - c->lpn);
  c->bytes = uint32_t(bytes);
  c->partial = uint8_t((off % kUnit ? 1 : 0) | (end % kUnit ? 2 : 0));
  c->append = s.opcode() == kZoneAppend;
  const uint8_t dtype = uint8_t((s.cdw(12) >> 20) & 0xF);
  const uint16_t dspec = uint16_t(s.cdw(13) >> 16);
  if (c->op == IoOp::Write && dtype == 1) c->stream = dspec;  // Streams directive
  if (c->op == IoOp::Write && dtype == 2) c->dtype = 2, c->dspec = dspec;  // FDP placement identifier
  // Not NVMe fields: the issuing program context and process (PCStream's host-kernel state), carried in
  // dwords 2-3 and 14-15 of the entry by the model's own driver (simulator hints; nvme_driver.h).
  c->pc = s.cdw(2), c->proc = s.cdw(3), c->proc_slot = uint16_t(s.cdw(14)), c->run = uint16_t(s.cdw(14) >> 16);
  c->next_lpn = s.cdw(15);
  c->data.swap(w.data);  // the command's old (cleared) vector becomes the next walk's: no allocation per command
  if (c->op == IoOp::Read) ++n_.reads, n_.bytes_read += bytes;
  else ++n_.writes, n_.bytes_written += bytes;
  backend_->submit(*c, t);
}

void NvmeEndpoint::submit_dsm(uint16_t sqid, const Sqe& s, uint64_t t) {
  const uint32_t ranges = (s.cdw(10) & 0xFF) + 1;
  if (s.nsid() != 1) return finish(sqid, s.cid(), kInvalidNamespace | kDnr, t);
  if (!(s.cdw(11) & 4)) return finish(sqid, s.cid(), kSuccess, t);  // attributes only: nothing to do
  std::vector<uint32_t> r(ranges * 4);  // context attributes, length in LBAs, starting LBA (16 B each)
  bool failed = false;
  const PrpWalk w = walk_data(s, ranges * 16, failed);
  if (failed) return finish(sqid, s.cid(), kDataTransferError, t);
  if (w.status) return finish(sqid, s.cid(), w.status | kDnr, t);
  uint8_t* dst = reinterpret_cast<uint8_t*>(r.data());
  for (const Segment& g : w.data) {
    if (!dma_read(g.addr, dst, g.bytes)) return finish(sqid, s.cid(), kDataTransferError, t);
    t = link_.read_host(t, g.addr, g.bytes, p_.host_mem_ps, true);
    dst += g.bytes;
  }
  for (uint32_t i = 0; i < ranges; ++i) {
    const uint64_t slba = r[i * 4 + 2] | uint64_t(r[i * 4 + 3]) << 32;
    if (const uint16_t st = check_range(s, slba, r[i * 4 + 1])) return finish(sqid, s.cid(), st, t);
  }
  // The parent counts its ranges in the FTL plus one for itself while they are submitted: the FTL may
  // complete a range within submit().
  Command* parent = make(sqid, s);
  parent->parts = 1;
  for (uint32_t i = 0; i < ranges; ++i) {
    const uint64_t off = (r[i * 4 + 2] | uint64_t(r[i * 4 + 3]) << 32) * p_.lba_bytes;
    const uint64_t end = off + uint64_t(r[i * 4 + 1]) * p_.lba_bytes;
    if (end == off) continue;  // an empty range: nothing to deallocate
    Command* c = make(sqid, s);
    c->parent = parent;
    c->op = IoOp::Trim;
    c->lpn = uint32_t(off / kUnit);
    c->units = uint32_t((end + kUnit - 1) / kUnit - c->lpn);
    c->bytes = uint32_t(end - off);
    c->partial = uint8_t((off % kUnit ? 1 : 0) | (end % kUnit ? 2 : 0));
    ++parent->parts;
    backend_->submit(*c, t);
  }
  if (--parent->parts) return;
  const uint16_t st = parent->worst;
  release(parent);
  finish(sqid, s.cid(), st, t);
}

void NvmeEndpoint::submit_zone(uint16_t sqid, const Sqe& s, uint64_t t) {
  const uint64_t slba = s.cdw(10) | uint64_t(s.cdw(11)) << 32;
  const uint32_t zsa = s.cdw(13) & 0xFF;
  const bool all = s.cdw(13) & 0x100;
  // Close 1, finish 2, open 3, reset 4, offline 5, Set Zone Descriptor Extension 10h (ZNS 1.1 §3.4.3; without zone
  // descriptor extensions, ZDES 0, or with Select All, Invalid Field, as QEMU's nvme_zone_mgmt_send). Select All
  // (CDW13 bit 8): the Starting LBA is ignored (nvme_zones.cpp).
  const bool extension = zsa == kZsaSetExtension && p_.zone_ext_bytes && zones_ && !all;
  if (((zsa < 1 || zsa > 5) && !extension) || (all && !zones_)) return finish(sqid, s.cid(), kInvalidField | kDnr, t);
  if (all) return submit_zone_all(sqid, s, t);
  if (const uint16_t st = check_range(s, slba, 1)) return finish(sqid, s.cid(), st, t);
  Command* c = make(sqid, s);
  c->op = IoOp::Trim;
  c->zone_action = ZoneAction(zsa);
  c->lpn = uint32_t(slba * p_.lba_bytes / kUnit);
  c->units = 1;
  c->bytes = 0;
  if (extension) return submit_zone_extension(c, s, t);
  backend_->submit(*c, t);
}

uint64_t NvmeEndpoint::complete(NvmeCommand& cmd, uint64_t ready_ps) {
  Command& c = static_cast<Command&>(cmd);
  uint64_t t = ready_ps;
  // Reads: the data goes up as memory writes, then the completion entry behind them (posted writes keep
  // their order). Writes: the endpoint reads the data from host memory, then completes. The DRAM streams
  // the data as the link does: the transfer is over when both are.
  if (!c.status && c.op == IoOp::Read) {
    // `t` is when the completion entry may leave: the wire sends it after the data (in call order), and
    // not before the DRAM has streamed the data out.
    uint64_t wire_end = ready_ps;
    for (const Segment& g : c.data) wire_end = link_.write_up(ready_ps, g.addr, g.bytes) - p_.pcie.latency_ps;
    t = std::max(ready_ps, dram.read(ready_ps, c.bytes, wire_end - ready_ps));
  } else if (c.op == IoOp::Write) {
    uint64_t from = ready_ps;
    for (const Segment& g : c.data) t = link_.read_host(from, g.addr, g.bytes, p_.host_mem_ps);
    t = std::max(t, dram.write(ready_ps, c.bytes, t - ready_ps));
  }
  if (c.parent) {
    Command* parent = c.parent;
    if (c.status && !parent->worst) parent->worst = c.status;
    const uint16_t sqid = c.sqid;
    release(&c);
    if (--parent->parts) return t;  // a part: the command is in the drive until its last part's entry
    const uint16_t st = parent->worst, cid = parent->cid;
    release(parent);
    return post(sqid, cid, st, t);
  }
  const uint32_t result = c.append ? uint32_t(uint64_t(c.result_lpn) * kUnit / p_.lba_bytes) : 0;
  // DW1 (reserved for these commands): the FTL's account of a read, for the host's read-path statistics; a
  // hint of the model read only by its own driver (bit 31 set: present).
  const uint32_t dw1 = c.op != IoOp::Read ? 0
                                          : 1u << 31 | uint32_t(c.path) | uint32_t(c.retries) << 8 |
                                                uint32_t(c.soft_tier & 0xF) << 16 | uint32_t(c.uncorrectable) << 20;
  if (c.zone_action == ZoneAction::SetExtension && !c.status) keep_extension(c);  // nvme_zones.cpp
  const uint16_t sqid = c.sqid, cid = c.cid, st = c.status;
  release(&c);
  return post(sqid, cid, st, t, result, dw1);
}

}  // namespace ssdtlm
