// Host memory as a TLM-2.0 target: a flat array the NVMe driver keeps its queues, PRP lists and buffers in,
// read and written by the SSD's DMA (b_transport, DMI granted), and an MSI-X window: a write of a vector's
// message there raises that interrupt (the handler the driver registered). No timing of its own: the
// endpoint charges host memory's answer time (EndpointParams::host_mem_ps) with the link's.
#pragma once
#include <systemc>
#include <tlm>

#include <cstring>
#include <functional>
#include <vector>

namespace ssdtlm {

class HostMemory : public sc_core::sc_module, private tlm::tlm_fw_transport_if<> {
 public:
  // Bound to this module's own transport interface (one virtual call per access; any TLM-2.0 initiator binds).
  tlm::tlm_target_socket<> tsock;
  static constexpr uint64_t kMsiBase = 0xFEE00000;  // where MSI-X messages go (x86's local APIC window)

  HostMemory(sc_core::sc_module_name name, uint64_t base, uint64_t bytes)
      : sc_module(name), tsock("tsock"), base_(base), mem_(bytes, 0) {
    tsock.bind(*this);
  }
  // The interrupt handler: called with the message data (the vector) when an MSI-X write arrives, and the
  // write's delay (ps; a loosely-timed initiator's local time ahead of sc_time, 0 when it arrives now).
  void on_msi(std::function<void(uint32_t, uint64_t)> handler) { msi_ = std::move(handler); }
  uint8_t* at(uint64_t addr) { return &mem_[addr - base_]; }
  uint64_t base() const { return base_; }
  uint64_t bytes() const { return mem_.size(); }
  uint64_t msi_writes() const { return msi_writes_; }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override {
    const uint64_t a = gp.get_address();
    const uint32_t n = gp.get_data_length();
    if (a >= kMsiBase && a < kMsiBase + 0x100000 && gp.is_write()) {
      uint32_t data = 0;
      std::memcpy(&data, gp.get_data_ptr(), std::min<uint32_t>(n, 4));
      ++msi_writes_;
      if (msi_) msi_(data, delay.value());
      gp.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    if (a < base_ || a + n > base_ + mem_.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (gp.is_read()) std::memcpy(gp.get_data_ptr(), &mem_[a - base_], n);
    else std::memcpy(&mem_[a - base_], gp.get_data_ptr(), n);
    gp.set_dmi_allowed(true);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  // An approximately-timed initiator's BEGIN_REQ is answered at once (TLM_COMPLETED); no debug access.
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
    b_transport(gp, delay);
    phase = tlm::BEGIN_RESP;
    return tlm::TLM_COMPLETED;
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& d) override {
    if (gp.get_address() < base_ || gp.get_address() >= base_ + mem_.size()) return false;
    d.set_dmi_ptr(mem_.data());
    d.set_start_address(base_);
    d.set_end_address(base_ + mem_.size() - 1);
    d.allow_read_write();
    d.set_read_latency(sc_core::SC_ZERO_TIME);
    d.set_write_latency(sc_core::SC_ZERO_TIME);
    return true;
  }

  uint64_t base_;
  std::vector<uint8_t> mem_;
  std::function<void(uint32_t, uint64_t)> msi_;
  uint64_t msi_writes_ = 0;
};

}  // namespace ssdtlm
