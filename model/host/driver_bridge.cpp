#include "host/driver_bridge.h"

#include <algorithm>
#include <stdexcept>

#include "common/nvme_command.h"
#include "common/sim_time.h"

namespace ssdtlm {

using namespace nvme;

DriverBridge::DriverBridge(sc_core::sc_module_name name, NvmeDriver& driver)
    : sc_module(name), tsock("tsock"), drv_(driver) {
  tsock.bind(*this);
  SC_HAS_PROCESS(DriverBridge);
  SC_THREAD(bring_up);
  SC_METHOD(answer_refused);
  sensitive << refused_ev_;
  dont_initialize();
}

void DriverBridge::answer_refused() {
  while (!refused_.empty()) {
    tlm::tlm_generic_payload* gp = refused_.front();
    refused_.pop_front();
    const uint64_t at = gp->get_extension<NvmeCommand>()->complete_ps;
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = ps_time(at > now_ps() ? at - now_ps() : 0);
    tsock->nb_transport_bw(*gp, phase, delay);
  }
}

void DriverBridge::bring_up() {
  std::string error;
  if (!drv_.init(&error)) throw std::runtime_error("NVMe driver: " + error);
  zone_bytes_ = drv_.zone_bytes();  // zone write locking by the zone size Identify reported
  up_ = true;
  up_ps_ = now_ps();
  while (!early_.empty()) {
    tlm::tlm_generic_payload* gp = early_.front();
    early_.pop_front();
    issue(*gp, now_ps());
  }
}

tlm::tlm_sync_enum DriverBridge::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                 sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  if (up_)
    issue(gp, now_ps() + delay.value());
  else
    early_.push_back(&gp);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void DriverBridge::issue(tlm::tlm_generic_payload& gp, uint64_t at_ps) {
  NvmeCommand& cmd = *gp.get_extension<NvmeCommand>();
  const uint64_t lba = drv_.lba_bytes();
  const uint32_t lba_log2 = uint32_t(__builtin_ctzll(lba));  // a power of two (Identify's LBADS)
  const uint64_t off = gp.get_address();
  // The request in whole LBAs (a request not on LBA boundaries covers the LBAs it touches).
  const uint64_t first = off >> lba_log2, end = (off + cmd.bytes + lba - 1) >> lba_log2;
  NvmeDriver::Io io;
  io.queue = cmd.qid;
  io.slba = first;
  io.hint_pc = cmd.pc, io.hint_proc = cmd.proc, io.hint_slot_run = uint32_t(cmd.proc_slot) | uint32_t(cmd.run) << 16;
  io.hint_next = cmd.next_lpn;
  cmd.pending = 1;  // parts outstanding (the host does not read it)
  cmd.status = 0;
  cmd.complete_ps = 0;
  if (cmd.op == IoOp::Trim) {
    io.nlb = uint32_t(end - first);
    if (cmd.zone_action != ZoneAction::None) io.opcode = kZoneMgmtSend, io.zsa = uint32_t(cmd.zone_action);
    else io.opcode = kDsm;
    return send_part(gp, io, at_ps);
  }
  io.opcode = cmd.op == IoOp::Read ? kRead : cmd.append ? kZoneAppend : kWrite;
  if (cmd.op == IoOp::Write && cmd.dtype == 2) io.dtype = 2, io.dspec = cmd.dspec;  // FDP
  else if (cmd.op == IoOp::Write && cmd.stream) io.dtype = 1, io.dspec = cmd.stream;  // Streams directive
  if (cmd.append && (end - first) * lba > drv_.max_append_bytes()) {
    // A Zone Append beyond the controller's limit (ZASL, else MDTS) is not split (its LBA is the drive's to choose:
    // two parts would get two) nor sent: Linux's bio_split_zone_append fails it (-EINVAL, BLK_STS_INVAL) against
    // max_zone_append_sectors. The host gets Invalid Field at once.
    ++appends_refused_;
    cmd.status = kInvalidField;
    cmd.complete_ps = at_ps;
    cmd.pending = 0;
    refused_.push_back(&gp);
    refused_ev_.notify(sc_core::SC_ZERO_TIME);  // answered after this call returns, as a completion would be
    return;
  }
  const uint64_t most = cmd.append ? end - first : drv_.max_transfer_bytes() >> lba_log2;  // MDTS, in LBAs
  const uint64_t lbas = end - first;
  cmd.pending = lbas <= most ? uint32_t(lbas != 0) : uint32_t((lbas + most - 1) / most);  // one part: no division
  for (uint64_t at = first; at < end; at += most) {
    io.slba = at;
    io.nlb = uint32_t(std::min(most, end - at));
    send_part(gp, io, at_ps);
  }
}

void DriverBridge::send_part(tlm::tlm_generic_payload& gp, const NvmeDriver::Io& io, uint64_t at_ps) {
  // Writes, and the zone resets and finishes between them (Zone Management Send; a trim, which a zoned namespace
  // takes as a reset), keep their zone's order: fio resets a zone synchronously before writing it again.
  const bool ordered = io.opcode == kWrite || io.opcode == kZoneMgmtSend || io.opcode == kDsm;
  if (!zone_bytes_ || !ordered) return send(gp, io, at_ps, kNoZone);
  const uint64_t zone = io.slba * drv_.lba_bytes() / zone_bytes_;
  ZoneLock& z = zones_[zone];
  if (z.busy) {
    ++zone_waits_;
    z.waiting.push_back({&gp, io, zone});
    return;
  }
  z.busy = true;
  send(gp, io, at_ps, zone);
}

bool DriverBridge::submit(tlm::tlm_generic_payload& gp, const NvmeDriver::Io& io, uint64_t at_ps, uint64_t zone) {
  // Without a zone the callback holds two pointers, which std::function keeps without allocating.
  if (zone == kNoZone) return drv_.submit(io, [this, &gp](const Completion& c) { part_done(gp, c, kNoZone); }, at_ps);
  return drv_.submit(io, [this, &gp, zone](const Completion& c) { part_done(gp, c, zone); }, at_ps);
}

void DriverBridge::send(tlm::tlm_generic_payload& gp, const NvmeDriver::Io& io, uint64_t at_ps, uint64_t zone) {
  if (waiting_.size() <= io.queue) waiting_.resize(io.queue + 1u);
  std::deque<Part>& w = waiting_[io.queue];
  if (w.empty() && submit(gp, io, at_ps, zone)) return;
  w.push_back({&gp, io, zone});  // the queue is full (a split request): the part goes when an entry frees
}

void DriverBridge::part_done(tlm::tlm_generic_payload& gp, const Completion& c, uint64_t zone) {
  NvmeCommand& cmd = *gp.get_extension<NvmeCommand>();
  if (c.status && !cmd.status) cmd.status = c.status;
  if (cmd.append) cmd.result_lpn = uint32_t(uint64_t(c.result) * drv_.lba_bytes() / 4096);
  // The FTL's account of a read (host.read_paths, reliability), carried back in the entry's DW1: a hint of the
  // model, not an NVMe field (controller/nvme/nvme_io.cpp).
  if (c.hint >> 31) {
    static constexpr int kRank[kReadPaths] = {0, 1, 3, 4, 2};  // Buffer, Data, MapRead, MapWrite, GcWait
    const ReadPath p = ReadPath(c.hint & 7);
    if (kRank[int(p)] >= kRank[int(cmd.path)]) cmd.path = p;
    cmd.retries = std::max<uint8_t>(cmd.retries, uint8_t(c.hint >> 8));
    cmd.soft_tier = std::max<uint8_t>(cmd.soft_tier, uint8_t((c.hint >> 16) & 0xF));
    cmd.uncorrectable = cmd.uncorrectable || ((c.hint >> 20) & 1);
  }
  cmd.complete_ps = std::max(cmd.complete_ps, c.done_ps);
  const uint16_t q = cmd.qid;
  const uint64_t at = drv_.loosely_timed() ? std::max(now_ps(), c.done_ps) : now_ps();  // LT: the reap's local time
  if (q < waiting_.size()) {  // an entry is free again (the driver took this completion's command id back)
    std::deque<Part>& w = waiting_[q];
    while (!w.empty() && submit(*w.front().gp, w.front().io, at, w.front().zone)) w.pop_front();
  }
  if (zone != kNoZone) {  // the zone's write is done: its next one goes (the lock passes to it)
    ZoneLock& z = zones_[zone];
    if (z.waiting.empty()) {
      z.busy = false;
    } else {
      const Part next = z.waiting.front();
      z.waiting.pop_front();
      send(*next.gp, next.io, at, zone);
    }
  }
  if (--cmd.pending) return;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = ps_time(cmd.complete_ps > now_ps() ? cmd.complete_ps - now_ps() : 0);
  tsock->nb_transport_bw(gp, phase, delay);
}

}  // namespace ssdtlm
