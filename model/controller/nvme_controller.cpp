#include "controller/nvme_controller.h"

#include <algorithm>

#include "common/sim_time.h"

namespace ssdtlm {

namespace {
constexpr uint32_t kSqeBytes = 64;  // submission queue entry
constexpr uint32_t kCqeBytes = 16;  // completion queue entry
}  // namespace

NvmeController::NvmeController(sc_core::sc_module_name name, const NvmeParams& p)
    : sc_module(name),
      nvme_tsock("nvme_tsock"),
      dram("dram_isock"),
      p_(p),
      down_(p.link_bytes_per_s, p.link_latency_ps),
      up_(p.link_bytes_per_s, p.link_latency_ps),
      sq_(p.queues),
      waiting_mask_((p.queues + 63) / 64, 0) {
  nvme_tsock.bind(*this);
}

tlm::tlm_sync_enum NvmeController::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                   sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  NvmeCommand* cmd = gp.get_extension<NvmeCommand>();
  Queue& q = sq_[cmd->qid];
  cmd->next = nullptr;
  (q.tail ? q.tail->next : q.head) = cmd;
  q.tail = cmd;
  waiting_mask_[cmd->qid >> 6] |= uint64_t(1) << (cmd->qid & 63);
  ++waiting_;
  phase = tlm::END_REQ;
  fetch(now_ps() + delay.value());  // the doorbell's time (sim.timing=lt: the host's local time)
  return tlm::TLM_UPDATED;
}

void NvmeController::fetch(uint64_t now) {
  if (in_fetch_) return;  // re-entered through a completion; the outer call continues
  in_fetch_ = true;
  down_.retire(now_ps());  // nothing is booked before the kernel's time from now on
  // The engine takes every waiting command in round-robin order, one per fetch_ns; each reaches the FTL
  // with its own fetch time annotated, so a burst of doorbells costs no kernel event.
  const uint32_t n = uint32_t(sq_.size());
  while (waiting_) {
    const uint32_t k = next_waiting(rr_);
    Queue& q = sq_[k];
    NvmeCommand* cmd = q.head;
    q.head = cmd->next;
    if (!q.head) q.tail = nullptr, waiting_mask_[k >> 6] &= ~(uint64_t(1) << (k & 63));
    --waiting_;
    rr_ = k + 1 == n ? 0 : k + 1;
    uint64_t start = engine_free_ > now ? engine_free_ : now;
    if (apst_ && outstanding_++ == 0) start += apst_->wake(start);  // out of an idle power state first
    engine_free_ = start + p_.fetch_ps;
    backend_->submit(*cmd, down_.transfer(engine_free_, kSqeBytes));
  }
  in_fetch_ = false;
}

uint32_t NvmeController::next_waiting(uint32_t from) const {
  const size_t words = waiting_mask_.size();
  size_t w = from >> 6;
  uint64_t m = waiting_mask_[w] & (~uint64_t(0) << (from & 63));  // from `from` on in its word
  for (size_t i = 0; i <= words; ++i) {  // then the other words, then the first part of from's word
    if (m) return uint32_t((w << 6) + size_t(__builtin_ctzll(m)));
    w = w + 1 == words ? 0 : w + 1;
    m = waiting_mask_[w];
  }
  return from;  // not reached while a command waits
}

uint64_t NvmeController::complete(NvmeCommand& cmd, uint64_t ready_ps) {
  // Reads: data then the completion entry go up back to back (posted writes keep their order).
  // Writes: the data comes down from host memory first; then the completion entry goes up. The data moves once
  // the FTL has taken the command into its buffer (room admitted, firmware time and index work done: `ready_ps`), as
  // NVMeVirt orders a write (ssd.c, ssd_advance_write_buffer: buffer allocated, firmware time, then the PCIe DMA,
  // then the completion); the register-level endpoint reads it at the same point (nvme/nvme_io.cpp, complete).
  // The link books it in the wire's free time from then (command_link.h): the entry fetches booked meanwhile for
  // earlier times keep theirs.
  // TRIM: the 16-byte dataset-management range comes down.
  // The DMA moves the data between the link and DRAM as it streams: the transfer is over when both are
  // (a DRAM that keeps up with the link adds nothing; its latency hides behind the link's).
  up_.retire(now_ps());
  down_.retire(now_ps());
  uint64_t t;
  if (cmd.op == IoOp::Read) {
    t = up_.send(ready_ps, cmd.bytes);
    const uint64_t pace = up_.busy_of(cmd.bytes);
    t = std::max(t, dram.read(t - pace, cmd.bytes, pace));
  } else if (cmd.op == IoOp::Write) {
    t = down_.transfer(ready_ps, cmd.bytes);
    const uint64_t pace = down_.busy_of(cmd.bytes);
    t = std::max(t, dram.write(t - pace, cmd.bytes, pace));
  } else if (cmd.zone_action != ZoneAction::None || cmd.op == IoOp::Flush) {
    t = ready_ps;  // Zone Management Send, Flush: no data (the zone in the command)
  } else {
    t = down_.transfer(ready_ps, 16);
  }
  const uint64_t posted = cmd.complete_ps = up_.transfer(t, kCqeBytes);
  if (apst_ && --outstanding_ == 0) apst_->idle_from(posted);
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = ps_time(posted - now_ps());
  nvme_tsock->nb_transport_bw(*cmd.payload, phase, delay);
  return posted;
}

}  // namespace ssdtlm
