// The host: one or more jobs (like fio jobs), each a Workload on its own NVMe queue pairs, either kept at
// their queue depth (closed loop) or fed at the requests' timestamps (open loop, trace replay).
// Commands travel as TLM generic payloads with an NvmeCommand extension; a completion is the
// controller's BEGIN_RESP, annotated with the time its completion entry reaches host memory.
// Latency = submission (doorbell; open loop: arrival) to completion entry, per I/O, into histograms.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "common/histogram.h"
#include "common/payload_pool.h"
#include "common/nvme_command.h"
#include "host/io_request.h"

namespace ssdtlm {

struct HostJob {
  std::string name;
  Workload* workload = nullptr;
  uint32_t queues = 1;
  uint32_t queue_depth = 1;
  bool open_loop = false;  // issue at the requests' time_ns instead of keeping queues full
};

struct HostParams {
  uint64_t logical_bytes = 0;  // namespace size: requests beyond it are folded back into it
  uint64_t max_bytes = 0;      // largest request the device accepts (its write buffer)
};

struct HostStats {
  Histogram latency[2];  // [0] reads, [1] writes; ns
  uint64_t ios[2] = {0, 0};
  uint64_t bytes[2] = {0, 0};
  uint64_t first_submit_ps = 0, last_complete_ps = 0;
  uint64_t trims = 0;   // TRIM commands (not counted in ios)
  uint64_t folded = 0;  // requests folded back into the namespace
  uint64_t path_count[kReadPaths] = {}, path_ns[kReadPaths] = {};  // reads by ReadPath: count, latency sum
};

class NvmeHost : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<NvmeHost> host_isock;

  NvmeHost(sc_core::sc_module_name name, const HostParams& p, const std::vector<HostJob>& jobs);

  const HostStats& stats() const { return stats_; }  // all jobs
  size_t jobs() const { return jobs_.size(); }
  const HostJob& job(size_t j) const { return jobs_[j]->spec; }
  const HostStats& job_stats(size_t j) const { return jobs_[j]->stats; }
  uint32_t queues() const { return uint32_t(queue_job_.size()); }
  uint64_t completed() const { return stats_.ios[0] + stats_.ios[1]; }
  uint32_t outstanding() const { return outstanding_; }
  bool finished() const { return exhausted_jobs_ == jobs_.size() && outstanding_ == 0; }
  // Bad input met while running (a trace line, a request the device cannot take): the run stops.
  std::exception_ptr error() const { return error_; }
  void trace(sc_core::sc_trace_file* tf);

 private:
  struct Job {
    HostJob spec;
    uint32_t first_queue = 0;
    uint32_t rr = 0;  // next queue (open loop)
    IoRequest next;
    bool have_next = false;
    bool exhausted = false;
    HostStats stats;
  };
  void start();
  void wake();
  void arrivals();                       // open-loop jobs: issue what is due while their queues have room
  bool next_request(Job& j);             // fetches into j.next; false when the job is done or failed
  void submit(Job& j, uint16_t qid);     // sends j.next on queue qid
  void fail();
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);

  HostParams p_;
  std::vector<std::unique_ptr<Job>> jobs_;
  std::vector<uint16_t> queue_job_;  // queue -> job
  std::vector<uint32_t> queue_outstanding_;
  PayloadPool<NvmeCommand> pool_;
  std::vector<std::pair<uint64_t, tlm::tlm_generic_payload*>> heap_;  // completions by time (min-heap)
  HostStats stats_;
  uint32_t outstanding_ = 0;  // traced
  size_t exhausted_jobs_ = 0;
  bool any_open_loop_ = false;
  std::exception_ptr error_;
  sc_core::sc_event wake_, arrive_;
};

}  // namespace ssdtlm
