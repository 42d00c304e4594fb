// NvmeHost's completion path: a completion arrives (nb_transport_bw) and is taken in wake(), which counts it and
// lets its job issue again; AT at each completion instant, LT (sim.timing=lt) a quantum at a time.
#include "host/nvme_host.h"

#include <algorithm>

#include "common/sim_time.h"

namespace ssdtlm {

namespace {
bool later(const std::pair<uint64_t, tlm::tlm_generic_payload*>& a,
           const std::pair<uint64_t, tlm::tlm_generic_payload*>& b) {
  return a.first > b.first;
}

void add(HostStats& into, const NvmeCommand& cmd, uint64_t now) {
  const uint64_t ns = (cmd.complete_ps - cmd.submit_ps) / 1000;
  if (cmd.status) {  // failed (a zoned namespace's status, an uncorrectable read): counted apart, no bytes moved
    ++into.failed;
    if (cmd.uncorrectable) ++into.uncorrectable;
    into.last_complete_ps = now;
    return;
  }
  if (cmd.op == IoOp::Flush) {
    ++into.syncs;
    into.sync_latency.record(ns);
  } else if (cmd.op == IoOp::Trim && cmd.zone_action != ZoneAction::None) {
    ++into.zone_commands;
  } else if (cmd.op == IoOp::Trim) {
    ++into.trims;
    into.trim_bytes += cmd.bytes;
    into.trim_latency.record(ns);
  } else {
    int k = cmd.op == IoOp::Read ? 0 : 1;
    into.latency[k].record(ns);
    if (k == 0) {
      ++into.path_count[int(cmd.path)];
      into.path_ns[int(cmd.path)] += ns;
      if (cmd.uncorrectable) {
        ++into.uncorrectable;
      } else if (cmd.soft_tier) {
        ++into.soft_count;
        into.soft_ns += ns;
      } else if (cmd.retries) {
        ++into.retry_count;
        into.retry_steps += cmd.retries;
        into.retry_ns += ns;
      } else {
        ++into.clean_count;
        into.clean_ns += ns;
      }
    }
    ++into.ios[k];
    into.bytes[k] += cmd.bytes;
  }
  into.last_complete_ps = now;
}

}  // namespace

tlm::tlm_sync_enum NvmeHost::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                             sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  uint64_t t = now_ps() + delay.value();
  if (p_.submit_ps | p_.complete_ps) {  // the queue's thread reaps it when free, then submits the next I/O
    NvmeCommand& cmd = PayloadPool<NvmeCommand>::ext(gp);
    if (cpu_free_ps_.size() <= cmd.qid) cpu_free_ps_.resize(size_t(cmd.qid) + 1, 0);
    t = cpu_free_ps_[cmd.qid] = cmd.complete_ps = std::max(t, cpu_free_ps_[cmd.qid]) + p_.complete_ps + p_.submit_ps;
    delay = sc_core::sc_time(double(t - now_ps()), sc_core::SC_PS);  // fio's latency includes both costs
  }
  heap_.emplace_back(t, &gp);
  std::push_heap(heap_.begin(), heap_.end(), later);
  if (p_.loosely_timed) {
    if (!in_wake_) notify_wake(t);  // within wake(), its loop takes it or its end notifies
  } else if (heap_.front().first == t) {
    wake_.notify(delay);
  }
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

void NvmeHost::notify_wake(uint64_t t) {
  const uint64_t now = now_ps(), q = tlm::tlm_global_quantum::instance().get().value();
  uint64_t w = q ? t - t % q : t;
  if (w < now) w = now;
  if (w >= wake_at_) return;
  wake_at_ = w;
  wake_.notify(ps_time(w - now));
}

void NvmeHost::wake() {
  ++kernel_activations();
  const uint64_t sc_now = now_ps();
  const bool lt = p_.loosely_timed;
  if (lt) wake_at_ = kNever, qk_.reset();  // may run to the end of this quantum
  in_wake_ = true;
  while (!heap_.empty()) {
    // AT: the completions due now; LT: those due before the quantum's end, each at its own time.
    const uint64_t now = heap_.front().first;
    if (lt ? (qk_.set(ps_time(now - sc_now)), qk_.need_sync()) : now > sc_now) break;
    local_ps_ = now;
    tlm::tlm_generic_payload* gp = heap_.front().second;
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
    NvmeCommand& cmd = PayloadPool<NvmeCommand>::ext(*gp);
    const uint16_t qid = cmd.qid;
    Job& j = *jobs_[queue_job_[qid]];
    add(stats_, cmd, now);
    if (cmd.setup) {
      // the engine's set-up (IoRequest::setup): on the drive (stats_), not in the job's or the run's measurement
    } else if (now >= j.measure_ps && (cmd.zone_action != ZoneAction::None || cmd.op == IoOp::Flush)) {
      add(measured_, cmd, now);  // a zone management command, a flush: counted, no bandwidth, latency or log sample
      add(j.stats, cmd, now);
    } else if (now >= j.measure_ps) {
      add(measured_, cmd, now);
      add(j.stats, cmd, now);
      const int d = int(cmd.op);
      j.bw_windows.complete(d, cmd.bytes, now, j.stats.bw, true);
      j.iops_windows.complete(d, cmd.bytes, now, j.stats.iops, false);
      const uint64_t lat_ns = (cmd.complete_ps - cmd.submit_ps) / 1000;
      if (j.ss && !cmd.status && !j.ss->attained() && j.ss->completed(cmd.complete_ps, cmd.bytes, lat_ns)) steady(j);
      if (j.lt && !cmd.status) latency_step(j, j.lt->completed(cmd.complete_ps, lat_ns), now);
      if (j.log && !cmd.status)
        j.log->completed({cmd.complete_ps - std::min(cmd.complete_ps, j.measure_ps), cmd.submit_ps - std::min(cmd.submit_ps, j.measure_ps), d,
                          cmd.bytes, gp->get_address(), lat_ns});
    }
    if (cmd.status && j.pace.stop_on_error && !j.error_stopped) {  // fio: td_verror ends the job at its first error
      j.error_stopped = true;
      j.exhausted = true;
      j.have_next = false;
    }
    --outstanding_;
    --queue_outstanding_[qid];
    --j.inflight;
    if (wave_) trace_queue(qid, now);
    gp->release();
    if (j.state != State::Running) continue;
    if (j.exhausted) {
      if (j.inflight == 0) finish(j);
      continue;
    }
    if (j.spec.open_loop) {
      arrivals(j, now);
      continue;
    }
    size_t tail = j.free_head + j.free_count;
    if (tail >= j.free.size()) tail -= j.free.size();
    j.free[tail] = qid;
    ++j.free_count;
    if (j.pace.think_ns > 0 && ++j.batch_done >= j.pace.think_blocks && j.batch_done >= j.batch_issued) {
      j.batch_done = j.batch_issued = 0;
      j.gate_ps = std::max(j.gate_ps, sat_add(now, ns_ps(j.pace.think_ns)));
    }
    pump(j, now);
  }
  in_wake_ = false;
  if (heap_.empty()) return;
  if (lt) notify_wake(heap_.front().first);
  else wake_.notify(ps_time(heap_.front().first - sc_now));
}

}  // namespace ssdtlm
