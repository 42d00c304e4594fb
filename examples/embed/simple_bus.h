// An address-decoded TLM-2.0 interconnect in the style of riscv-vp's SimpleBus (vp/src/core/common/bus.h):
// NI initiator-facing target sockets, NT target-facing initiator sockets, and a map of address ranges to target
// ports. Unlike riscv-vp's bus it forwards bus addresses unchanged: on PCIe every agent uses bus addresses (the
// SSD decodes its BAR itself, host memory knows its base), so one address means the same thing to the CPU and to
// the device's DMA. DMI requests and invalidations pass through; the bus adds no delay.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

template <unsigned NI, unsigned NT>
struct SimpleBus : sc_core::sc_module {
  std::array<tlm_utils::simple_target_socket_tagged<SimpleBus>, NI> tsocks;  // from initiators (CPU, DMA)
  std::array<tlm_utils::simple_initiator_socket_tagged<SimpleBus>, NT> isocks;  // to targets

  explicit SimpleBus(sc_core::sc_module_name name) : sc_module(name) {
    for (unsigned i = 0; i < NI; ++i) {
      tsocks[i].register_b_transport(this, &SimpleBus::b_transport, int(i));
      tsocks[i].register_get_direct_mem_ptr(this, &SimpleBus::get_dmi, int(i));
      tsocks[i].register_transport_dbg(this, &SimpleBus::transport_dbg, int(i));
    }
    for (unsigned t = 0; t < NT; ++t)
      isocks[t].register_invalidate_direct_mem_ptr(this, &SimpleBus::invalidate_dmi, int(t));
  }

  // Addresses [start, start + bytes) go to target port `port`.
  void map(uint64_t start, uint64_t bytes, unsigned port) {
    if (port >= NT || bytes == 0) throw std::invalid_argument(std::string(name()) + ": bad mapping");
    for (const Range& r : ranges_)
      if (start < r.end && r.start < start + bytes)
        throw std::invalid_argument(std::string(name()) + ": overlapping address ranges");
    ranges_.push_back({start, start + bytes, port});
  }

 private:
  struct Range {
    uint64_t start, end;
    unsigned port;
  };
  const Range* decode(uint64_t addr, unsigned bytes) const {
    for (const Range& r : ranges_)
      if (addr >= r.start && addr + bytes <= r.end) return &r;
    return nullptr;
  }
  void b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const Range* r = decode(gp.get_address(), gp.get_data_length());
    if (!r) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    isocks[r->port]->b_transport(gp, delay);
  }
  bool get_dmi(int, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    const Range* r = decode(gp.get_address(), 1);
    if (!r || !isocks[r->port]->get_direct_mem_ptr(gp, dmi)) return false;
    // The grant never reaches beyond the range the bus routes to that target.
    if (dmi.get_start_address() < r->start) {
      dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (r->start - dmi.get_start_address()));
      dmi.set_start_address(r->start);
    }
    if (dmi.get_end_address() > r->end - 1) dmi.set_end_address(r->end - 1);
    return true;
  }
  unsigned transport_dbg(int, tlm::tlm_generic_payload& gp) {
    const Range* r = decode(gp.get_address(), gp.get_data_length());
    return r ? isocks[r->port]->transport_dbg(gp) : 0;
  }
  void invalidate_dmi(int, sc_dt::uint64 start, sc_dt::uint64 end) {
    for (auto& s : tsocks) s->invalidate_direct_mem_ptr(start, end);
  }
  std::vector<Range> ranges_;
};
