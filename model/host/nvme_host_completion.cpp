// NvmeHost's completion path: a completion arrives (nb_transport_bw) and is taken in wake(), which counts it and
// lets its job issue again; AT at each completion instant, LT (sim.timing=lt) a quantum at a time.
#include "host/nvme_host.h"

#include <algorithm>

#include "common/sim_time.h"

namespace ssdtlm {

namespace {
// The completion heap's order (a type, not a function pointer: the heap's sift loops inline it).
struct Later {
  bool operator()(const std::pair<uint64_t, tlm::tlm_generic_payload*>& a,
                  const std::pair<uint64_t, tlm::tlm_generic_payload*>& b) const {
    return a.first > b.first;
  }
};

// Counts the completion in every one of `into` (the whole run's, and after the job's ramp the measured and the job's
// statistics): the command's kind is decided and its latency's histogram bucket found once for all of them. n is a
// constant: one record (the usual case, NvmeHost::shared_) has no loops.
template <int n>
void add(CompletionTally* const* into, const NvmeCommand& cmd, uint64_t ns, uint64_t now) {
  const size_t bucket = Histogram::bucket_of(ns);
  for (int i = 0; i < n; ++i) into[i]->last_complete_ps = now;
  if (cmd.status) {  // failed (a zoned namespace's status, an uncorrectable read): counted apart, no bytes moved
    for (int i = 0; i < n; ++i) into[i]->failed++, into[i]->uncorrectable += cmd.uncorrectable;
    return;
  }
  if (cmd.op == IoOp::Flush) {
    for (int i = 0; i < n; ++i) ++into[i]->syncs, into[i]->sync_latency.record_in(bucket, ns);
  } else if (cmd.op == IoOp::Trim && cmd.zone_action != ZoneAction::None) {
    for (int i = 0; i < n; ++i) ++into[i]->zone_commands;
  } else if (cmd.op == IoOp::Trim) {
    for (int i = 0; i < n; ++i) ++into[i]->trims, into[i]->trim_bytes += cmd.bytes, into[i]->trim_latency.record_in(bucket, ns);
  } else if (cmd.op == IoOp::Write) {
    for (int i = 0; i < n; ++i) into[i]->latency[1].record_in(bucket, ns), ++into[i]->ios[1], into[i]->bytes[1] += cmd.bytes;
  } else {
    const int path = int(cmd.path);
    for (int i = 0; i < n; ++i) {
      CompletionTally& h = *into[i];
      h.latency[0].record_in(bucket, ns);
      ++h.path_count[path];
      h.path_ns[path] += ns;
      if (cmd.uncorrectable) {
        ++h.uncorrectable;
      } else if (cmd.soft_tier) {
        ++h.soft_count, h.soft_ns += ns;
      } else if (cmd.retries) {
        ++h.retry_count, h.retry_steps += cmd.retries, h.retry_ns += ns;
      } else {
        ++h.clean_count, h.clean_ns += ns;
      }
      ++h.ios[0];
      h.bytes[0] += cmd.bytes;
    }
  }
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
  std::push_heap(heap_.begin(), heap_.end(), Later());
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

// One of the workload's own requests completed: it may let the job go on (a throttled writer), or send more.
void NvmeHost::background_completed(Job& j, uint32_t bytes, uint64_t now) {
  --j.bg_inflight;
  j.spec.workload->background_done(bytes);
  if (j.state != State::Running) return;
  if (j.exhausted) {
    writeback(j, now);
    if (idle(j)) finish(j);
  } else if (!j.spec.open_loop) {
    pump(j, now);
  }
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
    if (lt ? qk_.beyond(now) : now > sc_now) break;
    local_ps_ = now;
    tlm::tlm_generic_payload* gp = heap_.front().second;
    std::pop_heap(heap_.begin(), heap_.end(), Later());
    heap_.pop_back();
    NvmeCommand& cmd = PayloadPool<NvmeCommand>::ext(*gp);
    const uint16_t qid = cmd.qid;
    Job& j = *jobs_[queue_job_[qid]];
    CompletionTally* const counted[3] = {&stats_, &measured_, &j.stats};
    // The engine's set-up (IoRequest::setup) is on the drive (stats_), not in the job's or the run's measurement; after
    // the job's runtime, a close's and its flusher's writes completing then (fio's runtime does not wait for its I/O).
    const bool after_end = cmd.after_end || (cmd.background && now > j.end_ps);
    const bool measured = !cmd.uncounted && !after_end && now >= j.measure_ps;
    const uint64_t lat_ns = (cmd.complete_ps - cmd.submit_ps) / 1000;
    if (shared_ && !measured) unshare();
    (shared_ || !measured) ? add<1>(counted, cmd, lat_ns, now) : add<3>(counted, cmd, lat_ns, now);  // shared: for all three
    shared_records_ += shared_;
    if (after_end && !cmd.status) ++stats_.after_end_ios, stats_.after_end_bytes += cmd.bytes;
    // A zone management command, a flush: counted, no bandwidth, latency or log sample.
    if (measured && cmd.zone_action == ZoneAction::None && cmd.op != IoOp::Flush) {
      const int d = int(cmd.op);
      j.bw_windows.complete(d, cmd.bytes, now, j.stats.bw, true);
      j.iops_windows.complete(d, cmd.bytes, now, j.stats.iops, false);
      if (j.ss && !cmd.status && !j.ss->attained() && j.ss->completed(cmd.complete_ps, cmd.bytes, lat_ns)) steady(j);
      if (j.lt && !cmd.status) latency_step(j, j.lt->completed(cmd.complete_ps, lat_ns), now);
      if (convergence_ && !cmd.status && d <= 1 && convergence_->completed(d, cmd.bytes, lat_ns, now)) converged();
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
    if (wave_) trace_queue(qid, now);
    if (cmd.background) {  // the workload's own (its flusher's): no slot to give back
      const uint32_t bytes = cmd.bytes;
      gp->release();
      background_completed(j, bytes, now);
      continue;
    }
    --j.inflight;
    gp->release();
    if (j.state != State::Running) continue;
    if (j.exhausted) {
      if (j.writes_back) writeback(j, now);
      if (idle(j)) finish(j);
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
