// The TLM-2.0 interfaces of a module that speaks only the non-blocking protocol (approximately timed), implemented by
// the module itself and bound to its plain tlm::tlm_target_socket / tlm::tlm_initiator_socket (`socket.bind(*this)`).
// A call then crosses the socket as one virtual call into the module; tlm_utils' convenience sockets add a forwarding
// object and a member-pointer call on each side (and the simple target socket a map lookup on every backward call),
// some 40 instructions per crossing. Any TLM-2.0 socket still binds to these: they are the boundaries a user replaces
// (host <-> controller <-> channels; docs/design.md).
#pragma once
#include <systemc>
#include <tlm>

namespace ssdtlm {

// A target that answers nb_transport_fw only: a blocking call is a wiring error.
class AtTarget : public tlm::tlm_fw_transport_if<> {
 public:
  void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override {
    SC_REPORT_ERROR("ssdtlm/at_socket", "b_transport on a target that speaks nb_transport only");
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
};

// An initiator that takes nb_transport_bw only (it uses no direct memory pointer to invalidate).
class AtInitiator : public tlm::tlm_bw_transport_if<> {
 public:
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

}  // namespace ssdtlm
