#include "host/nvme_host.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/sim_time.h"
#include "flash/geometry.h"

namespace ssdtlm {

namespace {
bool later(const std::pair<uint64_t, tlm::tlm_generic_payload*>& a,
           const std::pair<uint64_t, tlm::tlm_generic_payload*>& b) {
  return a.first > b.first;
}
}  // namespace

NvmeHost::NvmeHost(sc_core::sc_module_name name, const HostParams& p, Workload& workload)
    : sc_module(name), host_isock("host_isock"), p_(p), workload_(workload) {
  host_isock.register_nb_transport_bw(this, &NvmeHost::nb_transport_bw);
  heap_.reserve(size_t(p.queues) * p.queue_depth);
  SC_HAS_PROCESS(NvmeHost);
  SC_METHOD(start);
  SC_METHOD(wake);
  sensitive << wake_;
  dont_initialize();
}

void NvmeHost::trace(sc_core::sc_trace_file* tf) { sc_core::sc_trace(tf, outstanding_, std::string(name()) + ".outstanding"); }

void NvmeHost::start() {
  stats_.first_submit_ps = now_ps();
  for (uint32_t d = 0; d < p_.queue_depth; ++d)
    for (uint32_t q = 0; q < p_.queues; ++q)
      if (!issue(uint16_t(q))) return;
}

bool NvmeHost::issue(uint16_t qid) {
  IoRequest r;
  bool got = false;
  if (!exhausted_) {
    try {
      got = workload_.next(r);
      if (got && (r.bytes == 0 || r.offset % kUnitBytes || r.bytes % kUnitBytes || r.offset + r.bytes > p_.logical_bytes))
        throw std::invalid_argument("host: request at byte " + std::to_string(r.offset) + " of " +
                                    std::to_string(r.bytes) + " bytes is not 4 KiB-aligned or lies beyond the " +
                                    std::to_string(p_.logical_bytes) + "-byte namespace");
      if (got && r.op == IoOp::Trim) throw std::invalid_argument("host: TRIM is not supported by this platform yet");
    } catch (...) {
      error_ = std::current_exception();
      exhausted_ = true;
      sc_core::sc_stop();
      return false;
    }
  }
  if (!got) {
    exhausted_ = true;
    if (outstanding_ == 0) sc_core::sc_stop();
    return false;
  }
  tlm::tlm_generic_payload* gp = pool_.acquire();
  NvmeCommand& cmd = PayloadPool<NvmeCommand>::ext(*gp);
  cmd.op = r.op;
  cmd.lpn = uint32_t(r.offset / kUnitBytes);
  cmd.units = r.bytes / kUnitBytes;
  cmd.bytes = r.bytes;
  cmd.qid = qid;
  cmd.stream = r.stream;
  cmd.submit_ps = now_ps();
  gp->set_command(r.op == IoOp::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  gp->set_address(r.offset);
  gp->set_data_length(r.bytes);
  ++outstanding_;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  host_isock->nb_transport_fw(*gp, phase, delay);
  return true;
}

tlm::tlm_sync_enum NvmeHost::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                             sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  uint64_t t = now_ps() + delay.value();
  heap_.emplace_back(t, &gp);
  std::push_heap(heap_.begin(), heap_.end(), later);
  if (heap_.front().first == t) wake_.notify(delay);
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

void NvmeHost::wake() {
  ++kernel_activations();
  const uint64_t now = now_ps();
  while (!heap_.empty() && heap_.front().first <= now) {
    tlm::tlm_generic_payload* gp = heap_.front().second;
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
    NvmeCommand& cmd = PayloadPool<NvmeCommand>::ext(*gp);
    int k = cmd.op == IoOp::Read ? 0 : 1;
    stats_.latency[k].record((cmd.complete_ps - cmd.submit_ps) / 1000);
    ++stats_.ios[k];
    stats_.bytes[k] += cmd.bytes;
    stats_.last_complete_ps = now;
    uint16_t qid = cmd.qid;
    --outstanding_;
    gp->release();
    issue(qid);
  }
  if (!heap_.empty()) wake_.notify(ps_time(heap_.front().first - now));
}

}  // namespace ssdtlm
