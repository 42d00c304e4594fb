// NvmeHost's reports: the waveform signals it adds and the progress line.
#include <algorithm>
#include <cstdio>
#include <string>

#include "common/sim_time.h"
#include "common/units.h"
#include "host/nvme_host.h"
#include "wave/wave_trace.h"

namespace ssdtlm {

void NvmeHost::trace(WaveTracer& w) {
  uint64_t depth = 0;
  for (auto& j : jobs_) depth += uint64_t(j->spec.queues) * j->spec.queue_depth;
  WaveGroup group;
  group.name = "host";
  wave_total_ = w.add("host.outstanding", wave_bits(depth), WaveStyle::Counter, outstanding_, -1,
                      "commands submitted and not completed, all queues");
  group.rows.push_back({wave_total_, 3});
  WaveGroup queues;
  queues.name = "queues";
  queues.closed = queue_outstanding_.size() > 4;
  for (size_t q = 0; q < queue_outstanding_.size(); ++q) {
    const Job& j = *jobs_[queue_job_[q]];
    const uint32_t s = w.add("host.q" + std::to_string(q) + ".outstanding", wave_bits(j.spec.queue_depth),
                             WaveStyle::Counter, queue_outstanding_[q], -1,
                             "commands outstanding on this queue pair (job " + j.spec.name + ")");
    if (q == 0) wave_q0_ = s;
    queues.rows.push_back({s, 1});
  }
  group.groups.push_back(std::move(queues));
  w.layout().groups.push_back(std::move(group));
  wave_ = &w;
}

void NvmeHost::trace_queue(uint16_t qid, uint64_t now) {
  wave_->set(wave_total_, now, outstanding_);
  wave_->set(wave_q0_ + qid, now, queue_outstanding_[qid]);
}

HostProgress NvmeHost::progress() const {
  const uint64_t now = now_ps();
  HostProgress out;
  double sum = 0;
  bool known = true;
  std::string one;
  char buf[160];
  for (auto& jp : jobs_) {
    const Job& j = *jp;
    double f = -1;
    const WorkProgress w = j.spec.workload ? j.spec.workload->progress() : WorkProgress();
    if (j.state == State::Done) {
      f = 1;
    } else if (j.state == State::Waiting) {
      f = 0;
    } else {
      if (w.total) f = std::min(1.0, double(w.done) / double(w.total));
      const uint64_t last = j.spec.open_loop && j.spec.workload ? j.spec.workload->last_arrival_ns() : 0;
      if (j.end_ps != kNever && j.end_ps > j.start_ps)
        f = std::max(f, double(now - j.start_ps) / double(j.end_ps - j.start_ps));
      else if (last > 0)
        f = std::max(f, std::min(1.0, double(now - j.start_ps) / (double(last) * 1e3)));
    }
    if (f < 0) known = false;
    sum += std::max(f, 0.0);
    if (jobs_.size() == 1) {
      const uint64_t last = j.spec.open_loop && j.spec.workload ? j.spec.workload->last_arrival_ns() : 0;
      if (j.spec.open_loop && last > 0)
        std::snprintf(buf, sizeof buf, "trace time %.3f/%.3f s, %llu/%llu %s",
                      double(now - std::min(now, j.start_ps)) / 1e12, double(last) / 1e9,
                      (unsigned long long)w.done, (unsigned long long)w.total, w.what);
      else if (j.end_ps != kNever)
        std::snprintf(buf, sizeof buf, "%.3f/%.3f simulated s", double(now - std::min(now, j.start_ps)) / 1e12,
                      double(j.end_ps - j.start_ps) / 1e12);
      else if (w.total && std::string(w.what) == "bytes")
        std::snprintf(buf, sizeof buf, "%s/%s", format_size(double(w.done)).c_str(), format_size(double(w.total)).c_str());
      else if (w.total)
        std::snprintf(buf, sizeof buf, "%llu/%llu %s", (unsigned long long)w.done, (unsigned long long)w.total, w.what);
      else
        std::snprintf(buf, sizeof buf, "%llu %s", (unsigned long long)w.done, w.what);
      one = buf;
    }
  }
  if (jobs_.empty()) return out;
  out.fraction = known ? sum / double(jobs_.size()) : -1;
  if (jobs_.size() == 1) {
    out.text = one;
  } else {
    std::snprintf(buf, sizeof buf, "%zu/%zu jobs finished", done_jobs_, jobs_.size());
    out.text = buf;
  }
  return out;
}

}  // namespace ssdtlm
