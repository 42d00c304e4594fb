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

void add(HostStats& into, const NvmeCommand& cmd, uint64_t now) {
  if (cmd.op == IoOp::Trim) {
    ++into.trims;
  } else {
    int k = cmd.op == IoOp::Read ? 0 : 1;
    const uint64_t ns = (cmd.complete_ps - cmd.submit_ps) / 1000;
    into.latency[k].record(ns);
    if (k == 0) {
      ++into.path_count[int(cmd.path)];
      into.path_ns[int(cmd.path)] += ns;
    }
    ++into.ios[k];
    into.bytes[k] += cmd.bytes;
  }
  into.last_complete_ps = now;
}
}  // namespace

NvmeHost::NvmeHost(sc_core::sc_module_name name, const HostParams& p, const std::vector<HostJob>& jobs)
    : sc_module(name), host_isock("host_isock"), p_(p) {
  size_t depth = 0;
  for (auto& spec : jobs) {
    auto j = std::make_unique<Job>();
    j->spec = spec;
    j->first_queue = uint32_t(queue_job_.size());
    for (uint32_t q = 0; q < spec.queues; ++q) queue_job_.push_back(uint16_t(jobs_.size()));
    depth += size_t(spec.queues) * spec.queue_depth;
    any_open_loop_ |= spec.open_loop;
    jobs_.push_back(std::move(j));
  }
  queue_outstanding_.assign(queue_job_.size(), 0);
  heap_.reserve(depth);
  host_isock.register_nb_transport_bw(this, &NvmeHost::nb_transport_bw);
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
  for (auto& j : jobs_)
    if (!j->exhausted) {
      j->exhausted = true;
      ++exhausted_jobs_;
    }
  sc_core::sc_stop();
}

bool NvmeHost::next_request(Job& j) {
  if (j.have_next) return true;
  if (j.exhausted) return false;
  try {
    if (!j.spec.workload->next(j.next)) {
      j.exhausted = true;
      if (++exhausted_jobs_ == jobs_.size() && outstanding_ == 0) sc_core::sc_stop();
      return false;
    }
    IoRequest& r = j.next;
    if (r.bytes == 0) throw std::invalid_argument("host: request of 0 bytes at byte " + std::to_string(r.offset));
    if (r.bytes > p_.max_bytes)
      throw std::invalid_argument("host: request of " + std::to_string(r.bytes) + " bytes exceeds the " +
                                  std::to_string(p_.max_bytes) + "-byte write buffer (buffer.bytes)");
    if (r.offset + r.bytes > p_.logical_bytes) {  // fold back into the namespace, keeping 512 B alignment
      r.offset %= p_.logical_bytes;
      if (r.offset + r.bytes > p_.logical_bytes) r.offset = (p_.logical_bytes - r.bytes) & ~uint64_t(511);
      ++j.stats.folded;
      ++stats_.folded;
    }
  } catch (...) {
    fail();
    return false;
  }
  j.have_next = true;
  return true;
}

void NvmeHost::start() {
  const uint64_t now = now_ps();
  stats_.first_submit_ps = now;
  for (auto& j : jobs_) {
    j->stats.first_submit_ps = now;
    if (j->spec.open_loop) continue;
    for (uint32_t d = 0; d < j->spec.queue_depth; ++d)
      for (uint32_t q = 0; q < j->spec.queues && next_request(*j); ++q) submit(*j, uint16_t(j->first_queue + q));
  }
  if (any_open_loop_) arrivals();
}

void NvmeHost::arrivals() {
  const uint64_t now = now_ps();
  uint64_t next_due = kNever;
  for (auto& jp : jobs_) {
    Job& j = *jp;
    if (!j.spec.open_loop) continue;
    while (next_request(j)) {
      uint64_t due = j.next.time_ns * 1000;
      if (due > now) {
        next_due = std::min(next_due, due);
        break;
      }
      uint32_t q = 0;
      for (; q < j.spec.queues && queue_outstanding_[j.first_queue + j.rr] >= j.spec.queue_depth; ++q)
        j.rr = j.rr + 1 == j.spec.queues ? 0 : j.rr + 1;
      if (q == j.spec.queues) break;  // every queue of the job is full: a completion calls again
      submit(j, uint16_t(j.first_queue + j.rr));
      j.rr = j.rr + 1 == j.spec.queues ? 0 : j.rr + 1;
    }
  }
  if (next_due != kNever) arrive_.notify(ps_time(next_due - now));
}

void NvmeHost::submit(Job& j, uint16_t qid) {
  const IoRequest& r = j.next;
  j.have_next = false;
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
  cmd.submit_ps = j.spec.open_loop ? std::min<uint64_t>(now_ps(), r.time_ns * 1000) : now_ps();
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
  bool open_slot = false;
  while (!heap_.empty() && heap_.front().first <= now) {
    tlm::tlm_generic_payload* gp = heap_.front().second;
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
    NvmeCommand& cmd = PayloadPool<NvmeCommand>::ext(*gp);
    const uint16_t qid = cmd.qid;
    Job& j = *jobs_[queue_job_[qid]];
    add(stats_, cmd, now);
    add(j.stats, cmd, now);
    --outstanding_;
    --queue_outstanding_[qid];
    gp->release();
    if (j.spec.open_loop)
      open_slot = true;
    else if (next_request(j))
      submit(j, qid);
  }
  if (open_slot) arrivals();
  if (!heap_.empty()) wake_.notify(ps_time(heap_.front().first - now));
  if (finished()) sc_core::sc_stop();
}

}  // namespace ssdtlm
