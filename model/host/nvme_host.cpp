#include "host/nvme_host.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "common/sim_time.h"
#include "common/units.h"
#include "flash/geometry.h"
#include "wave/wave_trace.h"

namespace ssdtlm {

NvmeHost::NvmeHost(sc_core::sc_module_name name, const HostParams& p, const std::vector<HostJob>& jobs)
    : sc_module(name), host_isock("host_isock"), p_(p), timer_ps_(kNever) {
  size_t depth = 0;
  for (auto& spec : jobs) {
    auto j = std::make_unique<Job>();
    j->spec = spec;
    j->pace = spec.workload ? spec.workload->pacing() : JobPacing();
    if (j->pace.think_blocks == 0) j->pace.think_blocks = 1;
    j->first_queue = uint32_t(queue_job_.size());
    j->arrivals.reseed(j->pace.arrival_seed);
    j->group_start = j->pace.stonewall || jobs_.empty() ? jobs_.size() : jobs_.back()->group_start;
    j->group = jobs_.empty() ? 0 : jobs_.back()->group + (j->group_start == jobs_.size() ? 1 : 0);
    if (!j->pace.wait_for.empty())  // validated: names an earlier job (check_job_dependencies)
      for (size_t k = 0; k < jobs_.size(); ++k)
        if (wait_for_names(j->pace.wait_for, jobs_[k]->spec.name)) j->waits.push_back(k);
    if (j->pace.ss.on()) {  // fio's steady state: the job's own, or its report group's
      for (auto& k : jobs_)
        if (j->pace.ss_group >= 0 && k->pace.ss_group == j->pace.ss_group && k->ss) j->ss = k->ss;
      if (!j->ss) j->ss = std::make_shared<SteadyState>(j->pace.ss);
    }
    if (j->pace.flow > 0 && !spec.open_loop) {  // fio's flow: one JobFlow per flow_id
      for (auto& k : jobs_)
        if (k->flow && k->pace.flow_id == j->pace.flow_id) j->flow = k->flow;
      if (!j->flow) j->flow = std::make_shared<JobFlow>();
      flows_ = true;
    }
    if (j->pace.latency.on() && !spec.open_loop)
      j->lt = std::make_unique<LatencyTarget>(j->pace.latency, spec.queues * spec.queue_depth);
    j->wake_ps = kNever;
    j->end_ps = kNever;
    for (uint32_t q = 0; q < spec.queues; ++q) queue_job_.push_back(uint16_t(jobs_.size()));
    depth += size_t(spec.queues) * spec.queue_depth;
    if (!spec.open_loop) j->free.assign(size_t(spec.queues) * spec.queue_depth, 0);
    jobs_.push_back(std::move(j));
  }
  queue_outstanding_.assign(queue_job_.size(), 0);
  shared_ = jobs_.size() == 1;
  group_state_.assign(groups(), 0);
  heap_.reserve(depth);
  host_isock.bind(*this);
  SC_HAS_PROCESS(NvmeHost);
  SC_METHOD(start);
  SC_METHOD(wake);
  sensitive << wake_;
  dont_initialize();
  SC_METHOD(on_timer);
  sensitive << timer_;
  dont_initialize();
}

void NvmeHost::copy_shared() const {
  if (!shared_records_ || copied_records_ == shared_records_) return;  // nothing counted, or copied already
  static_cast<CompletionTally&>(measured_) = stats_;
  static_cast<CompletionTally&>(jobs_[0]->stats) = stats_;
  copied_records_ = shared_records_;
}

void NvmeHost::unshare() {
  copy_shared();
  shared_ = false;
}

void NvmeHost::stop() {
  if (stopped_) return;
  stopped_ = true;
  sc_core::sc_stop();
}

void NvmeHost::fail(std::exception_ptr e) {
  error_ = e;
  for (auto& j : jobs_)
    if (j->state != State::Done) {
      j->state = State::Done;
      ++done_jobs_;
    }
  stop();
}

void NvmeHost::arm(Job& j, uint64_t t) {
  if (t >= j.wake_ps) return;
  j.wake_ps = t;
  if (t >= timer_ps_) return;
  timer_ps_ = t;
  const uint64_t now = now_ps();
  timer_.notify(t > now ? ps_time(t - now) : sc_core::SC_ZERO_TIME);
}

NvmeHost::Drawn NvmeHost::draw(Job& j, IoRequest& r, std::exception_ptr& error) {
  try {
    if (j.timed || j.writes_back) j.spec.workload->clock(local_now() / 1000);
    if (!j.spec.workload->next(r)) return j.spec.workload->waiting() ? Drawn::Wait : Drawn::Dry;
    if (r.bytes == 0 && r.op != IoOp::Flush)
      throw std::invalid_argument("host: job '" + j.spec.name + "': a request of 0 bytes at byte " + std::to_string(r.offset));
    if (r.op != IoOp::Trim && r.bytes > p_.max_bytes)  // a trim (a zone reset) moves no data through the buffer
      throw std::invalid_argument("host: job '" + j.spec.name + "': a request of " + format_bytes(r.bytes) + " exceeds the write buffer of " +
                                  format_size(double(p_.max_bytes)) + " (buffer.bytes)");
    if (r.offset > p_.logical_bytes || r.bytes > p_.logical_bytes - r.offset)
      throw std::invalid_argument("host: job '" + j.spec.name + "': a request of " + format_bytes(r.bytes) + " at byte " +
                                  std::to_string(r.offset) + " lies beyond the namespace (" +
                                  format_bytes(p_.logical_bytes) + ")");
  } catch (...) {
    error = std::current_exception();
    return Drawn::Failed;
  }
  return Drawn::Ready;
}

bool NvmeHost::next_request(Job& j) {
  if (j.have_next) return true;
  if (j.exhausted) return false;
  Drawn d = j.ahead_drawn;
  std::exception_ptr error;
  if (d == Drawn::None) {
    d = draw(j, j.next, error);
  } else {  // drawn one request early by submit: used now, where it would have been drawn
    j.ahead_drawn = Drawn::None;
    if (d == Drawn::Ready) j.next = j.ahead;
    if (d == Drawn::Failed) error = std::move(j.ahead_error);
  }
  if (d == Drawn::Dry) {
    stop_issuing(j);
    return false;
  }
  if (d == Drawn::Failed) {
    fail(error);
    return false;
  }
  if (d == Drawn::Wait) return false;  // a completion of its background requests draws again
  j.have_next = true;
  return true;
}

void NvmeHost::start() {
  const uint64_t now = now_ps();
  stats_.first_submit_ps = now;
  for (auto& jp : jobs_) {
    Job& j = *jp;
    if (j.group_start > 0 || !j.waits.empty()) {  // waits for the earlier groups or jobs
      ++held_;
      continue;
    }
    if (j.pace.start_delay_ns) {
      j.delayed = true;
      arm(j, sat_add(now, ns_ps(j.pace.start_delay_ns)));
    } else {
      begin(j, now);
    }
  }
  if (jobs_.empty()) stop();
}

// The job's statistics (and its bw/iops windows) count from `at`: its ramp's end, or the latency target's final run.
void NvmeHost::start_measuring(Job& j, uint64_t at) {
  if (shared_ && shared_records_) unshare();  // (not met: completions before the clock starts are set-up ones)
  j.measure_ps = at;
  j.stats.first_submit_ps = j.stats.last_complete_ps = at;
  j.bw_windows.start(at, ns_ps(j.pace.bw_avg_ns));
  j.iops_windows.start(at, ns_ps(j.pace.iops_avg_ns));
}

void NvmeHost::start_clock(Job& j, uint64_t now) {
  start_measuring(j, sat_add(now, ns_ps(j.pace.ramp_ns)));
  j.end_ps = j.pace.runtime_ns ? sat_add(j.measure_ps, ns_ps(j.pace.runtime_ns)) : kNever;
  if (j.ss) {
    j.ss->start(j.measure_ps);
    arm(j, j.ss->next_close_ps());  // fio decides on a timer at each interval's end
  }
  if (j.lt) j.lt->start(j.measure_ps);
  if (!measuring_ || j.measure_ps < measured_.first_submit_ps) measured_.first_submit_ps = j.measure_ps;
  if (!measuring_) measured_.last_complete_ps = j.measure_ps;
  measuring_ = true;
}

void NvmeHost::begin(Job& j, uint64_t now) {
  j.state = State::Running;
  j.delayed = false;
  j.start_ps = now;
  if (group_state_[j.group] == 0) {
    group_state_[j.group] = 1;
    if (group_observer_) group_observer_(j.group, true, now);
  }
  j.in_setup = j.spec.workload->has_setup();
  if (j.in_setup)
    j.measure_ps = j.end_ps = kNever;
  else
    start_clock(j, now);
  j.gate_ps = now;
  if (const uint64_t period = ns_ps(j.spec.workload->wake_period_ns())) {  // on the run's clock: 5 s, 10 s, ...
    j.timed = true;
    j.tick_ps = (now / period + 1) * period;
    arm(j, j.tick_ps);
  }
  j.writes_back = j.spec.workload->writes_back();
  if (j.flow) {
    j.flow->join(j.pace.flow);
    ++flow_events_;
  }
  if (j.spec.open_loop) {
    arrivals(j, now);
  } else {
    // Slots in the order the queues are filled: depth-major, so every queue gets its first command first.
    j.free_head = 0;
    j.free_count = 0;
    for (uint32_t d = 0; d < j.spec.queue_depth; ++d)
      for (uint32_t q = 0; q < j.spec.queues; ++q) j.free[j.free_count++] = uint16_t(j.first_queue + q);
    if (j.flow)
      arm(j, now);  // issues at the next delta, once every job of its flow starting now has joined
    else
      pump(j, now);
  }
}

void NvmeHost::stop_issuing(Job& j) {
  j.exhausted = true;
  j.have_next = false;
  if (idle(j)) finish(j);
}

void NvmeHost::pump(Job& j, uint64_t now) {
  if (j.writes_back) writeback(j, now);  // first, so that a Flush waiting for them sees them in flight
  issue(j, now);
  if (j.writes_back) writeback(j, now);
  if (flows_ && !flow_pass_) retry_flows(now);
}

// The workload's own requests (a page cache's flusher) go out as it gives them, on the job's queues in turn and
// in none of its slots: the workload bounds how many are in flight (buffered_io.h: the block layer's writeback
// throttling). They go on after the job has stopped issuing (the flusher writes what it took), and the job
// finishes when they have completed.
void NvmeHost::writeback(Job& j, uint64_t now) {
  if (j.state != State::Running) return;
  if (hold_ps_ > now) {  // the device is down: its timer issues them after
    arm(j, hold_ps_);
    return;
  }
  IoRequest r;
  j.spec.workload->clock(now / 1000);
  while (j.spec.workload->next_background(r)) {
    send(j, r, uint16_t(j.first_queue + j.rr), now, true);
    j.rr = j.rr + 1 == j.spec.queues ? 0 : j.rr + 1;
  }
}

bool NvmeHost::runtime_over(Job& j, uint64_t now) {
  if (now < j.end_ps || j.closing) return false;
  if (j.timed || j.writes_back) j.spec.workload->clock(now / 1000);  // the time of the close
  if (j.spec.workload->close()) {  // fio stops at its runtime, then closes the file: what the close sends goes out
    j.closing = true;
    return false;
  }
  stop_issuing(j);
  return true;
}

void NvmeHost::workload_tick(Job& j, uint64_t now) {
  if (j.tick_ps > now) return;
  const uint64_t period = ns_ps(j.spec.workload->wake_period_ns());
  j.spec.workload->wake(now / 1000);
  j.tick_ps = sat_add(j.tick_ps, period);
}

void NvmeHost::issue(Job& j, uint64_t now) {
  if (j.state != State::Running || j.exhausted) return;
  if (runtime_over(j, now)) return;
  const bool think = j.pace.think_ns > 0;
  const bool paced = j.pace.rate_iops > 0 || j.pace.rate_bytes_per_s > 0;
  while (j.free_count > 0) {
    if (j.gate_ps > now || hold_ps_ > now) {
      arm(j, std::max(j.gate_ps, hold_ps_));
      break;
    }
    if (think && j.batch_issued >= j.pace.think_blocks) break;  // the batch completes first
    if (j.lt && !j.lt->may_issue(j.inflight)) break;            // latency target: the depth searched
    if (j.flow && flow_holds(j, now)) break;                    // flow: ahead of its share
    if (!next_request(j)) {
      if (j.exhausted || j.state != State::Running) return;
      break;  // the workload waits (Workload::waiting): its timers stay armed
    }
    // fio's io_u_quiesce: what the job has in flight completes first; a Flush also waits for the workload's own
    // writes (fsync waits for every page under writeback, filemap_write_and_wait)
    if (j.next.quiesce && (j.inflight > 0 || (j.next.op == IoOp::Flush && j.bg_inflight > 0))) break;
    if (j.next.idle_ns > 0) {  // an idle gap: what is in flight completes, then the job idles
      if (j.inflight > 0) break;
      j.gate_ps = sat_add(now, ns_ps(j.next.idle_ns));
      j.next.idle_ns = 0;
      continue;  // the gate arms the timer
    }
    if (j.in_setup && !j.next.setup) {  // the set-up done: the job's clock starts with its first own request
      j.in_setup = false;
      start_clock(j, now);
    }
    const uint32_t bytes = j.next.bytes;
    const uint16_t qid = j.free[j.free_head];
    j.free_head = j.free_head + 1 == j.free.size() ? 0 : j.free_head + 1;
    --j.free_count;
    submit(j, qid, now);
    if (j.flow) {
      j.flow->issued(j.flow_count);
      ++flow_events_;
    }
    if (think) ++j.batch_issued;
    if (paced) {
      double gap_s = j.pace.rate_iops > 0 ? 1.0 / j.pace.rate_iops : 0.0;
      if (j.pace.rate_bytes_per_s > 0) gap_s = std::max(gap_s, double(bytes) / j.pace.rate_bytes_per_s);
      if (j.pace.poisson) {
        // fio's rate_process=poisson: exponential gaps of that mean, each after the previous arrival (a late
        // submission does not move the arrivals after it).
        gap_s *= -std::log(1.0 - j.arrivals.uniform());
        j.gate_ps = sat_add(j.gate_ps, s_to_ps_sat(gap_s));
      } else {
        // A cap, never exceeded: the next submission waits a full gap after this one.
        j.gate_ps = sat_add(std::max(j.gate_ps, now), s_to_ps_sat(gap_s));
      }
    }
  }
  if (j.end_ps != kNever && !j.exhausted && !j.closing) arm(j, j.end_ps);
  if (j.timed && !j.exhausted) arm(j, j.tick_ps);
}

void NvmeHost::arrivals(Job& j, uint64_t now) {
  if (j.state != State::Running || j.exhausted) return;
  while (true) {
    if (now >= j.end_ps) {
      stop_issuing(j);
      return;
    }
    if (hold_ps_ > now) {
      arm(j, hold_ps_);
      return;
    }
    if (!next_request(j)) return;
    const uint64_t due = sat_add(j.start_ps, ns_ps(j.next.time_ns));
    if (due > now) {
      arm(j, std::min(due, j.end_ps));
      return;
    }
    uint32_t q = 0;
    for (; q < j.spec.queues && queue_outstanding_[j.first_queue + j.rr] >= j.spec.queue_depth; ++q)
      j.rr = j.rr + 1 == j.spec.queues ? 0 : j.rr + 1;
    if (q == j.spec.queues) break;  // every queue of the job is full: a completion calls again
    submit(j, uint16_t(j.first_queue + j.rr), now);
    j.rr = j.rr + 1 == j.spec.queues ? 0 : j.rr + 1;
  }
  if (j.end_ps != kNever) arm(j, j.end_ps);
}

void NvmeHost::on_timer() {
  ++kernel_activations();
  const uint64_t now = now_ps();
  timer_ps_ = kNever;
  for (auto& jp : jobs_) {
    Job& j = *jp;
    if (j.wake_ps > now) continue;
    j.wake_ps = kNever;
    if (j.state == State::Waiting) {
      if (j.delayed) begin(j, now);
    } else if (j.state == State::Running) {
      if (j.ss && steady_timer(j, now)) continue;
      if (j.timed && !j.exhausted) workload_tick(j, now);
      if (j.spec.open_loop)
        arrivals(j, now);
      else
        pump(j, now);
    }
  }
  uint64_t next = kNever;
  for (auto& jp : jobs_) next = std::min(next, jp->wake_ps);
  if (next != kNever && next < timer_ps_) {
    timer_ps_ = next;
    timer_.notify(next > now ? ps_time(next - now) : sc_core::SC_ZERO_TIME);
  }
}

void NvmeHost::submit(Job& j, uint16_t qid, uint64_t now) {
  j.have_next = false;
  send(j, j.next, qid, now, false);
}

void NvmeHost::send(Job& j, const IoRequest& r, uint16_t qid, uint64_t now, bool background) {
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
  cmd.dtype = r.dtype;
  cmd.dspec = r.dspec;
  cmd.append = r.append;
  cmd.fua = r.fua;
  cmd.uncounted = r.setup || r.after_end;
  cmd.background = background;
  cmd.after_end = r.after_end;
  cmd.zone_action = r.zone_action;
  cmd.pc = r.pc;
  cmd.proc = r.proc;
  cmd.proc_slot = r.proc_slot;
  cmd.run = r.run;
  // Look one request ahead and tell the controller where it goes (NvmeCommand::next_lpn, a speed hint: the
  // controller prefetches its per-LPN state while this command is served). The request is drawn here but
  // used, or its error or the workload's end acted on, only where it would have been drawn otherwise
  // (next_request), so the simulated behaviour is the same. Not for a job with a runtime limit, whose
  // request drawn ahead might never be issued (a trace counts the requests it hands out).
  cmd.next_lpn = NvmeCommand::kNoNextLpn;
  if (j.end_ps == kNever && !j.timed && !j.writes_back && !background && j.ahead_drawn == Drawn::None) {
    j.ahead_drawn = draw(j, j.ahead, j.ahead_error);
    if (j.ahead_drawn == Drawn::Ready) {
      cmd.next_lpn = uint32_t(j.ahead.offset / kUnitBytes);
      cmd.next_op = j.ahead.op;
    }
  }
  // Open loop measures from the request's arrival, so time spent waiting for a queue slot counts.
  cmd.submit_ps = j.spec.open_loop ? std::min<uint64_t>(now, sat_add(j.start_ps, ns_ps(r.time_ns))) : now;
  gp->set_command(r.op == IoOp::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  gp->set_address(r.offset);
  gp->set_data_length(r.bytes);
  ++outstanding_;
  ++queue_outstanding_[qid];
  if (background) {
    ++j.bg_inflight;
  } else {
    ++j.inflight;
  }
  if (!background && cmd.submit_ps >= j.measure_ps && !cmd.uncounted) {  // fio's iodepth_level: the depth this submission makes
    ++j.stats.depth_at_submit[std::min(6, 31 - __builtin_clz(j.inflight))];  // bins 1, 2-3, 4-7, ..., >= 64
  }
  if (wave_) trace_queue(qid, now);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  const uint64_t ahead = now - now_ps();  // LT: the host's local time ahead of sc_time (AT: 0, no conversion)
  sc_core::sc_time delay = ahead ? ps_time(ahead) : sc_core::SC_ZERO_TIME;
  host_isock->nb_transport_fw(*gp, phase, delay);
}

}  // namespace ssdtlm
