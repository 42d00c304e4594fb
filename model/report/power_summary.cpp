// The "power" and "thermal" objects of summary.json, and the counters the power meter reads (model/power).
#include "report/power_summary.h"

#include "power/apst.h"
#include "power/power_meter.h"

namespace ssdtlm {

namespace {
constexpr uint32_t kSqeCqeBytes = 64 + 16;  // submission and completion entries per command
}

PowerCounters power_counters(Platform& p, uint64_t span_ps) {
  PowerCounters c;
  c.span_ps = span_ps;
  for (ChannelController* ch : p.channels()) {
    const ChannelStats& s = ch->stats();
    for (int k = 0; k < 3; ++k) {
      c.array_ps[k] += s.array_ps[k];
      c.slc_array_ps[k] += s.slc_array_ps[k];
    }
    c.bus_bytes += s.bus_bytes;
    c.flash_ops += s.ops[0] + s.ops[1] + s.ops[2];
    c.budget_wait_ps += s.budget_wait_ps;
  }
  if (Dram* d = p.dram()) {
    const DramStats& s = d->model().stats();
    for (size_t k = 0; k < size_t(DramUse::Count); ++k) {
      c.dram_accesses += s.accesses[k];
      c.dram_bytes += s.bytes[k];
    }
  }
  const HostStats& h = p.host().stats();
  c.commands = h.ios[0] + h.ios[1] + h.trims;
  c.pcie_bytes = h.bytes[0] + h.bytes[1] + c.commands * kSqeCqeBytes;
  if (Apst* a = p.apst()) {
    c.low_power_ps = a->low_power_ps();
    c.low_power_j = a->low_power_j();
  }
  return c;
}

nlohmann::json power_summary(Platform& p) {
  PowerMeter* m = p.power();
  if (!m) return nullptr;
  const HostStats& h = p.host().stats();
  return m->report(power_counters(p, h.last_complete_ps), double(h.bytes[0] + h.bytes[1]), h.ios[0] + h.ios[1],
                   p.apst());
}

nlohmann::json thermal_summary(Platform& p) {
  PowerMeter* m = p.power();
  return m ? m->thermal_report() : nullptr;
}

}  // namespace ssdtlm
