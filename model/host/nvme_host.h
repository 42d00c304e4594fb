// The host: N NVMe queue pairs, each kept at its queue depth (closed loop), fed by one Workload.
// Commands travel as TLM generic payloads with an NvmeCommand extension; a completion is the
// controller's BEGIN_RESP, annotated with the time its completion entry reaches host memory.
// Latency = submission (doorbell) to completion entry, per I/O, into histograms.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <exception>
#include <vector>

#include "common/histogram.h"
#include "common/payload_pool.h"
#include "controller/nvme_command.h"
#include "host/io_request.h"

namespace ssdtlm {

struct HostParams {
  uint32_t queues = 1;
  uint32_t queue_depth = 1;
  uint64_t logical_bytes = 0;   // namespace size: trace requests beyond it are folded back into it
  uint64_t max_bytes = 0;       // largest request the device accepts (its write buffer)
  bool open_loop = false;       // issue at the requests' time_ns instead of keeping queues full
};

struct HostStats {
  Histogram latency[2];  // [0] reads, [1] writes; ns
  uint64_t ios[2] = {0, 0};
  uint64_t bytes[2] = {0, 0};
  uint64_t first_submit_ps = 0, last_complete_ps = 0;
  uint64_t trims = 0;            // TRIM commands (not counted in ios)
  uint64_t folded = 0;           // requests folded back into the namespace
};

class NvmeHost : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<NvmeHost> host_isock;

  NvmeHost(sc_core::sc_module_name name, const HostParams& p, Workload& workload);

  const HostStats& stats() const { return stats_; }
  uint64_t completed() const { return stats_.ios[0] + stats_.ios[1]; }
  uint32_t outstanding() const { return outstanding_; }
  bool finished() const { return exhausted_ && outstanding_ == 0; }
  // Bad input met while running (a trace line, a request beyond the namespace): the run stops.
  std::exception_ptr error() const { return error_; }
  void trace(sc_core::sc_trace_file* tf);

 private:
  void start();
  void wake();
  void arrivals();            // open loop: issue every request whose time has come, while queues have room
  bool next_request();        // fetches into next_; false when the workload is done or failed
  void submit(uint16_t qid);  // sends next_ on queue qid
  void fail();
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);

  HostParams p_;
  Workload& workload_;
  PayloadPool<NvmeCommand> pool_;
  std::vector<std::pair<uint64_t, tlm::tlm_generic_payload*>> heap_;  // completions by time (min-heap)
  HostStats stats_;
  uint32_t outstanding_ = 0;  // traced
  std::vector<uint32_t> queue_outstanding_;
  uint32_t rr_ = 0;
  IoRequest next_;
  bool have_next_ = false;
  bool exhausted_ = false;
  sc_core::sc_event arrive_;
  std::exception_ptr error_;
  sc_core::sc_event wake_;
};

}  // namespace ssdtlm
