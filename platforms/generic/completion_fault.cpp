#include "completion_fault.h"

#include <cstdlib>
#include <string>

#include "config/config.h"

namespace ssdtlm {

CompletionFault::CompletionFault(sc_core::sc_module_name name, uint64_t keep)
    : sc_module(name), tsock("tsock"), isock("isock"), keep_(keep) {
  tsock.register_nb_transport_fw(this, &CompletionFault::fw);
  isock.register_nb_transport_bw(this, &CompletionFault::bw);
}

tlm::tlm_sync_enum CompletionFault::fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  return isock->nb_transport_fw(gp, phase, delay);
}

tlm::tlm_sync_enum CompletionFault::bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (seen_++ >= keep_) return tlm::TLM_ACCEPTED;  // dropped: the host never learns the command completed
  return tsock->nb_transport_bw(gp, phase, delay);
}

std::unique_ptr<CompletionFault> completion_fault_from_environment() {
  const char* hook = std::getenv("SSDTLM_TEST_HOOK");
  if (!hook || !*hook) return nullptr;
  const std::string h = hook, key = "drop_completions_after=";
  const std::string n = h.rfind(key, 0) == 0 ? h.substr(key.size()) : "";
  if (n.empty() || n.size() > 18 || n.find_first_not_of("0123456789") != std::string::npos)
    throw ConfigError("environment SSDTLM_TEST_HOOK=" + h + ": expected drop_completions_after=N (a test hook)");
  return std::make_unique<CompletionFault>("completion_fault", std::stoull(n));
}

}  // namespace ssdtlm
