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
  const uint64_t span = h.last_complete_ps;
  const PowerCounters c = power_counters(p, span);
  const EnergyBreakdown e = m->energy(c);
  const PowerParams& pp = m->params();
  const double total = e.total(), span_s = double(span) * 1e-12;
  const double host_bytes = double(h.bytes[0] + h.bytes[1]);
  const uint64_t ios = h.ios[0] + h.ios[1];
  nlohmann::json comps;
  for (uint32_t k = 0; k < kPowerComponents; ++k)
    comps[power_component_name(PowerComponent(k))] = {{"energy_j", e.j[k]},
                                                      {"avg_w", span_s > 0 ? e.j[k] / span_s : 0.0},
                                                      {"share", total > 0 ? e.j[k] / total : 0.0}};
  uint64_t wait_ps = 0;
  for (ChannelController* ch : p.channels()) wait_ps += ch->stats().budget_wait_ps;
  // Energy of one array operation per page type (the drive's cell type; one-shot programs carry the wordline).
  const FlashParams& f = m->flash_params();
  nlohmann::json per_op = {{"read", nlohmann::json::array()}, {"program", nlohmann::json::array()}, {"erase", nlohmann::json::array()}};
  for (uint32_t t = 0; t < f.page_types; ++t) {
    per_op["read"].push_back(nand_op_energy_j(pp, 0, f.read_ps(t)) * 1e6);
    per_op["program"].push_back(nand_op_energy_j(pp, 1, f.prog_ps(t)) * 1e6);
  }
  per_op["erase"].push_back(nand_op_energy_j(pp, 2, f.timing.t_erase_ps) * 1e6);
  nlohmann::json s = {{"energy_j", total},
                      {"avg_w", span_s > 0 ? total / span_s : 0.0},
                      {"peak_w", m->peak_w()},
                      {"peak_at_ms", double(m->peak_at_ps()) / 1e9},
                      {"floor_w", pp.floor_w(m->dies())},
                      {"span_s", span_s},
                      {"components", comps},
                      {"energy_per_host_byte_nj", host_bytes > 0 ? total / host_bytes * 1e9 : 0.0},
                      {"energy_per_io_uj", ios ? total / double(ios) * 1e6 : 0.0},
                      {"energy_per_gib_j", host_bytes > 0 ? total / host_bytes * double(1ull << 30) : 0.0},
                      {"nand_op_energy_uj", per_op},
                      {"budget_w", pp.budget_w},
                      {"budget_wait_s", double(wait_ps) * 1e-12}};
  if (const PowerBudget* b = m->budget()) {
    s["peak_array_w"] = b->peak_active_w();
    s["peak_array_ops"] = b->peak_active_ops();
    s["budget_refusals"] = b->refusals();
  }
  nlohmann::json apst = {{"enabled", pp.apst}};
  if (Apst* a = p.apst()) {
    apst["low_power_s"] = double(a->low_power_ps()) * 1e-12;
    apst["low_power_energy_j"] = a->low_power_j();
    apst["wakeups"] = a->wakeups();
    apst["exit_latency_s"] = double(a->exit_ps()) * 1e-12;
    nlohmann::json states = nlohmann::json::array();
    for (size_t i = 0; i < pp.idle_states.size(); ++i)
      states.push_back({{"max_w", pp.idle_states[i].max_w},
                        {"time_s", i < a->state_ps.size() ? double(a->state_ps[i]) * 1e-12 : 0.0}});
    apst["states"] = states;
  }
  s["apst"] = apst;
  return s;
}

nlohmann::json thermal_summary(Platform& p) {
  PowerMeter* m = p.power();
  if (!m) return nullptr;
  const ThermalParams& t = m->thermal_params();
  const ThermalModel& th = m->thermal();
  return {{"enabled", t.enabled},
          {"max_c", t.enabled ? th.max_c() : t.ambient_c},
          {"final_c", t.enabled ? th.temp_c() : t.ambient_c},
          {"throttled_s", double(th.throttled_ps()) * 1e-12},
          {"heavy_throttled_s", double(th.heavy_ps()) * 1e-12},
          {"throttle_transitions", th.transitions()},
          {"tmt1_c", t.tmt1_c},
          {"tmt2_c", t.tmt2_c},
          {"ambient_c", t.ambient_c}};
}

}  // namespace ssdtlm
