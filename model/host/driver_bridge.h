// The block layer between NvmeHost's jobs and the NVMe driver (nvme.interface=register): each command the host
// issues on its queue pair q becomes one or more NVMe commands on the driver's I/O queue q (requests larger
// than the controller's MDTS are split, as Linux's block layer splits at max_hw_sectors), submitted through
// the registers; the host gets its completion at the time the driver has the last part's. Commands the host
// issues before the driver has brought the controller up wait for it. The workloads and NvmeHost are
// unchanged: the bridge is the target of NvmeHost's socket.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <string>
#include <vector>

#include "host/nvme_driver.h"

namespace ssdtlm {

class DriverBridge : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<DriverBridge> tsock;

  DriverBridge(sc_core::sc_module_name name, NvmeDriver& driver);
  bool up() const { return up_; }
  uint64_t up_at_ps() const { return up_ps_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void bring_up();  // SC_THREAD
  void issue(tlm::tlm_generic_payload& gp, uint64_t at_ps);  // at the host's time (LT: ahead of sc_time)
  void part_done(tlm::tlm_generic_payload& gp, const Completion& c);
  void send(tlm::tlm_generic_payload& gp, const NvmeDriver::Io& io, uint64_t at_ps);  // or wait for a free entry

  NvmeDriver& drv_;
  bool up_ = false;
  uint64_t up_ps_ = 0;
  std::deque<tlm::tlm_generic_payload*> early_;  // issued before the controller was up
  struct Part {
    tlm::tlm_generic_payload* gp;
    NvmeDriver::Io io;
  };
  std::vector<std::deque<Part>> waiting_;  // per queue: parts of split requests waiting for a free entry
};

}  // namespace ssdtlm
