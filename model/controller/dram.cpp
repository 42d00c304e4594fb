#include "controller/dram.h"

#include "common/sim_time.h"

namespace ssdtlm {

Dram::Dram(sc_core::sc_module_name name, const DramParams& p)
    : sc_module(name), tsock("tsock"), p_(p), model_(p.bytes_per_s(), p.latency_ps) {
  tsock.register_b_transport(this, &Dram::b_transport);
}

void Dram::b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const DramUse use = dram_use(side_[size_t(port)], gp.is_write());
  const uint64_t now = now_ps(), start = now + delay.value();
  const DramPace* pace = gp.get_extension<DramPace>();
  delay = ps_time(model_.access(start, gp.get_data_length(), use, pace ? pace->pace_ps : 0) - now);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssdtlm
