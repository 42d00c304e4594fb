#include "controller/dram.h"

#include "common/sim_time.h"

namespace ssdtlm {

Dram::Dram(sc_core::sc_module_name name, const DramParams& p)
    : sc_module(name), tsock("tsock"), p_(p), model_(p.bytes_per_s(), p.latency_ps) {
  tsock.register_b_transport(this, &Dram::b_transport);
}

void Dram::b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const bool write = gp.is_write();
  DramUse use = DramUse::MapLookup;
  switch (side_[size_t(port)]) {
    case DramSide::Host: use = write ? DramUse::HostWrite : DramUse::HostRead; break;
    case DramSide::Flash: use = write ? DramUse::FlashDataOut : DramUse::FlashDataIn; break;
    case DramSide::Map: use = DramUse::MapLookup; break;
  }
  const uint64_t now = now_ps(), start = now + delay.value();
  const DramPace* pace = gp.get_extension<DramPace>();
  delay = ps_time(model_.access(start, gp.get_data_length(), use, pace ? pace->pace_ps : 0) - now);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssdtlm
