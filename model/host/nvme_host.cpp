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
    : sc_module(name), host_isock("host_isock"), p_(p), workload_(workload), queue_outstanding_(p.queues, 0) {
  host_isock.register_nb_transport_bw(this, &NvmeHost::nb_transport_bw);
  heap_.reserve(size_t(p.queues) * p.queue_depth);
  SC_HAS_PROCESS(NvmeHost);
  SC_METHOD(start);
  SC_METHOD(wake);
  sensitive << wake_;
  dont_initialize();
  SC_METHOD(arrivals);
  sensitive << arrive_;
  dont_initialize();
}

void NvmeHost::trace(sc_core::sc_trace_file* tf) { sc_core::sc_trace(tf, outstanding_, std::string(name()) + ".outstanding"); }

void NvmeHost::fail() {
  error_ = std::current_exception();
  exhausted_ = true;
  have_next_ = false;
  sc_core::sc_stop();
}

bool NvmeHost::next_request() {
  if (have_next_) return true;
  if (exhausted_) return false;
  try {
    if (!workload_.next(next_)) {
      exhausted_ = true;
      if (outstanding_ == 0) sc_core::sc_stop();
      return false;
    }
    IoRequest& r = next_;
    if (r.bytes == 0) throw std::invalid_argument("host: request of 0 bytes at byte " + std::to_string(r.offset));
    if (r.bytes > p_.max_bytes)
      throw std::invalid_argument("host: request of " + std::to_string(r.bytes) + " bytes exceeds the " +
                                  std::to_string(p_.max_bytes) + "-byte write buffer (buffer.bytes)");
    if (r.offset + r.bytes > p_.logical_bytes) {  // fold back into the namespace, keeping 512 B alignment
      r.offset %= p_.logical_bytes;
      if (r.offset + r.bytes > p_.logical_bytes) r.offset = (p_.logical_bytes - r.bytes) & ~uint64_t(511);
      ++stats_.folded;
    }
  } catch (...) {
    fail();
    return false;
  }
  have_next_ = true;
  return true;
}

void NvmeHost::start() {
  stats_.first_submit_ps = now_ps();
  if (p_.open_loop) {
    arrivals();
    return;
  }
  for (uint32_t d = 0; d < p_.queue_depth; ++d)
    for (uint32_t q = 0; q < p_.queues; ++q) {
      if (!next_request()) return;
      submit(uint16_t(q));
    }
}

void NvmeHost::arrivals() {
  const uint64_t now = now_ps();
  while (next_request()) {
    uint64_t due = next_.time_ns * 1000;
    if (due > now) {
      arrive_.notify(ps_time(due - now));
      return;
    }
    uint32_t q = 0;
    for (; q < p_.queues && queue_outstanding_[rr_] >= p_.queue_depth; ++q) rr_ = rr_ + 1 == p_.queues ? 0 : rr_ + 1;
    if (q == p_.queues) return;  // every queue full: a completion calls again
    submit(uint16_t(rr_));
    rr_ = rr_ + 1 == p_.queues ? 0 : rr_ + 1;
  }
}

void NvmeHost::submit(uint16_t qid) {
  const IoRequest& r = next_;
  have_next_ = false;
  tlm::tlm_generic_payload* gp = pool_.acquire();
  NvmeCommand& cmd = PayloadPool<NvmeCommand>::ext(*gp);
  const uint64_t first = r.offset / kUnitBytes, end = r.offset + r.bytes;
  cmd.op = r.op;
  cmd.lpn = uint32_t(first);
  cmd.units = uint32_t((end + kUnitBytes - 1) / kUnitBytes - first);
  cmd.bytes = r.bytes;
  cmd.partial = uint8_t((r.offset % kUnitBytes ? 1 : 0) | (end % kUnitBytes ? 2 : 0));
  cmd.qid = qid;
  cmd.stream = r.stream;
  // Open loop measures from the request's arrival, so time spent waiting for a queue slot counts.
  cmd.submit_ps = p_.open_loop ? std::min<uint64_t>(now_ps(), r.time_ns * 1000) : now_ps();
  gp->set_command(r.op == IoOp::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  gp->set_address(r.offset);
  gp->set_data_length(r.bytes);
  ++outstanding_;
  ++queue_outstanding_[qid];
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  host_isock->nb_transport_fw(*gp, phase, delay);
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
    if (cmd.op == IoOp::Trim) {
      ++stats_.trims;
    } else {
      int k = cmd.op == IoOp::Read ? 0 : 1;
      stats_.latency[k].record((cmd.complete_ps - cmd.submit_ps) / 1000);
      ++stats_.ios[k];
      stats_.bytes[k] += cmd.bytes;
    }
    stats_.last_complete_ps = now;
    uint16_t qid = cmd.qid;
    --outstanding_;
    --queue_outstanding_[qid];
    gp->release();
    if (p_.open_loop) {
      arrivals();
    } else if (next_request()) {
      submit(qid);
    }
  }
  if (exhausted_ && outstanding_ == 0) sc_core::sc_stop();
  if (!heap_.empty()) wake_.notify(ps_time(heap_.front().first - now));
}

}  // namespace ssdtlm
