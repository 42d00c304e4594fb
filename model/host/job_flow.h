// fio's token-based flow control between jobs (flow.c; options flow, flow_id, flow_sleep): the jobs of one flow_id
// share a counter of the I/Os they issued (starting at 1) and the sum of their weights. Before each I/O a job
// compares its own count over the shared one with its weight over the sum; when it is ahead it is held (fio then
// waits for its I/O in flight to complete and sleeps flow_sleep, or, without flow_sleep, tries again at once), else
// both counters count the I/O. A job joins when it starts and leaves when it finishes, taking its count and weight
// with it, so the jobs running together keep their I/O counts in the ratio of their weights. Plain C++; the host
// (NvmeHost) asks it before each submission.
#pragma once
#include <cstdint>

namespace ssdtlm {

class JobFlow {
 public:
  void join(uint32_t weight) {
    total_weight_ += weight;
    ++changes_;
  }
  void leave(uint64_t job_count, uint32_t weight) {
    counter_ -= job_count;
    total_weight_ -= weight;
    ++changes_;
  }
  // fio's flow_threshold_exceeded: true = the job is ahead of its share (held); false = it may issue one I/O.
  bool ahead(uint64_t job_count, uint32_t weight) const {
    return total_weight_ > 0 && double(job_count) / double(counter_) > double(weight) / double(total_weight_);
  }
  // The job issued one I/O: its counter and the shared one count it.
  void issued(uint64_t& job_count) {
    ++job_count;
    ++counter_;
    ++changes_;
  }
  // Changes whenever a held job's verdict could change (an I/O issued, a job joined or left).
  uint64_t changes() const { return changes_; }
  uint64_t counter() const { return counter_; }
  uint64_t total_weight() const { return total_weight_; }

 private:
  uint64_t counter_ = 1;  // fio starts the shared counter at 1
  uint64_t total_weight_ = 0;
  uint64_t changes_ = 0;
};

}  // namespace ssdtlm
