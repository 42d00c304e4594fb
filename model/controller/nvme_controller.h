// NVMe front end: submission queues fed by host doorbells, round-robin arbitration with one command
// fetched per `fetch_ns` (no process of its own: a doorbell runs the fetch engine, which annotates each
// command with the time its fetch completes), and the PCIe link (a calendar per direction, command_link.h: latency +
// bytes / bandwidth, each transfer in the wire's free time from when it may start) carrying command fetches, write
// data (host -> device), read data and completion entries (device -> host).
#pragma once
#include <systemc>
#include <tlm>

#include <vector>

#include "common/at_socket.h"
#include "common/nvme_command.h"
#include "controller/command_link.h"
#include "controller/dram.h"
#include "controller/nvme/pcie_link.h"
#include "power/apst.h"

namespace ssdtlm {


struct NvmeParams {
  double link_bytes_per_s = 3.938e9;
  uint64_t link_latency_ps = 500000;
  uint64_t fetch_ps = 20000;
  uint32_t queues = 1;
  // nvme.interface=register: the endpoint (controller/nvme/) on a PCIe link (pcie.*), driven by the host's
  // NVMe driver with its CPU costs and interrupt coalescing (host.*_ns, host.coalesce_*).
  bool register_interface = false;
  PcieParams pcie;
  uint64_t submit_ps = 0, interrupt_ps = 0, completion_ps = 0;
  uint32_t coalesce_threshold = 0;
  double coalesce_time_us = 0;
  // Command arbitration (nvme.arbitration, nvme.arbitration_burst, nvme.wrr_*_weight; NVMe Base 2.0 §3.4.4) and
  // the controller's command slots (nvme.max_commands, 0 = no limit).
  bool wrr = false;
  uint32_t arbitration_burst = 1;  // commands, 0 = no limit
  uint32_t wrr_weight[3] = {1, 1, 1};  // high, medium, low: commands per round
  uint32_t max_commands = 0;
};

class NvmeController : public sc_core::sc_module, public CompletionSink, public AtTarget {
 public:
  tlm::tlm_target_socket<> nvme_tsock;  // bound to this module's nb_transport_fw (common/at_socket.h)
  DramPort<NvmeController> dram;  // host DMA: write data into the buffer, read data out of DRAM

  NvmeController(sc_core::sc_module_name name, const NvmeParams& p);
  void bind_backend(CommandSink* b) { backend_ = b; }
  uint64_t complete(NvmeCommand& cmd, uint64_t ready_ps) override;

  const PcieLink& link_down() const { return down_; }
  const PcieLink& link_up() const { return up_; }
  // power.apst (model/power/apst.h): the first command after idle waits for the drive to leave its idle
  // power state. Without a call, commands never wait.
  void set_apst(Apst* apst) { apst_ = apst; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) override;
  void fetch(uint64_t now);  // arbitrate and fetch the waiting commands (on a doorbell rung at `now`)
  uint32_t next_waiting(uint32_t from) const;  // the first queue from `from` on (round the ring) with a command

  struct Queue {
    NvmeCommand* head = nullptr;
    NvmeCommand* tail = nullptr;
  };
  NvmeParams p_;
  PcieLink down_, up_;
  std::vector<Queue> sq_;
  std::vector<uint64_t> waiting_mask_;  // bit q: sq_[q] has a command (the round robin finds it without a scan)
  uint32_t rr_ = 0;
  uint32_t waiting_ = 0;  // commands in submission queues
  uint64_t engine_free_ = 0;
  bool in_fetch_ = false;
  CommandSink* backend_ = nullptr;
  Apst* apst_ = nullptr;
  uint64_t outstanding_ = 0;  // fetched and not completed (counted with apst_ only)
};

}  // namespace ssdtlm
