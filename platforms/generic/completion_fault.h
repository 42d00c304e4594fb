// A test hook, not a model part: between the host and the NVMe controller, it passes commands on and drops
// every completion after the first `keep`, so the dropped commands stay outstanding for ever (a run that
// cannot finish, for the watchdog's tests). Wired only when the environment says
// SSDTLM_TEST_HOOK=drop_completions_after=N; a run without it is wired exactly as before.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>

namespace ssdtlm {

class CompletionFault : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<CompletionFault> tsock;     // from the host
  tlm_utils::simple_initiator_socket<CompletionFault> isock;  // to the NVMe controller

  CompletionFault(sc_core::sc_module_name name, uint64_t keep);

 private:
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  uint64_t keep_, seen_ = 0;
};

// The hook the environment asks for (SSDTLM_TEST_HOOK), or null; throws ConfigError for a hook it does
// not know.
std::unique_ptr<CompletionFault> completion_fault_from_environment();

}  // namespace ssdtlm
