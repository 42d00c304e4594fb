// PowerMeter's reports: summary.json "power" and "thermal" (docs/reference/power.md).
#include <nlohmann/json.hpp>

#include "power/apst.h"
#include "power/power_meter.h"

namespace ssdtlm {

namespace {

// Energy of one array operation per page type (the drive's cell type; one-shot programs carry the wordline), in uJ.
nlohmann::json nand_op_energy(const PowerParams& pp, const FlashParams& f) {
  nlohmann::json per_op = {{"read", nlohmann::json::array()}, {"program", nlohmann::json::array()}, {"erase", nlohmann::json::array()}};
  for (uint32_t t = 0; t < f.page_types; ++t) {
    per_op["read"].push_back(nand_op_energy_j(pp, 0, f.read_ps(t)) * 1e6);
    per_op["program"].push_back(nand_op_energy_j(pp, 1, f.prog_ps(t)) * 1e6);
  }
  per_op["erase"].push_back(nand_op_energy_j(pp, 2, f.timing.t_erase_ps) * 1e6);
  return per_op;
}

nlohmann::json apst_report(const PowerParams& pp, const Apst* a) {
  nlohmann::json apst = {{"enabled", pp.apst}};
  if (!a) return apst;
  apst["low_power_s"] = double(a->low_power_ps()) * 1e-12;
  apst["low_power_energy_j"] = a->low_power_j();
  apst["wakeups"] = a->wakeups();
  apst["exit_latency_s"] = double(a->exit_ps()) * 1e-12;
  nlohmann::json states = nlohmann::json::array();
  for (size_t i = 0; i < pp.idle_states.size(); ++i)
    states.push_back({{"max_w", pp.idle_states[i].max_w},
                      {"time_s", i < a->state_ps.size() ? double(a->state_ps[i]) * 1e-12 : 0.0}});
  apst["states"] = states;
  return apst;
}

}  // namespace

nlohmann::json PowerMeter::report(const PowerCounters& c, double host_bytes, uint64_t ios,
                                  const Apst* apst) const {
  const EnergyBreakdown e = energy(c);
  const double total = e.total(), span_s = double(c.span_ps) * 1e-12;
  nlohmann::json comps;
  for (uint32_t k = 0; k < kPowerComponents; ++k)
    comps[power_component_name(PowerComponent(k))] = {{"energy_j", e.j[k]},
                                                      {"avg_w", span_s > 0 ? e.j[k] / span_s : 0.0},
                                                      {"share", total > 0 ? e.j[k] / total : 0.0}};
  nlohmann::json s = {{"energy_j", total},
                      {"avg_w", span_s > 0 ? total / span_s : 0.0},
                      {"peak_w", peak_w_},
                      {"peak_at_ms", double(peak_at_ps_) / 1e9},
                      {"floor_w", p_.floor_w(dies_)},
                      {"span_s", span_s},
                      {"components", comps},
                      {"energy_per_host_byte_nj", host_bytes > 0 ? total / host_bytes * 1e9 : 0.0},
                      {"energy_per_io_uj", ios ? total / double(ios) * 1e6 : 0.0},
                      {"energy_per_gib_j", host_bytes > 0 ? total / host_bytes * double(1ull << 30) : 0.0},
                      {"nand_op_energy_uj", nand_op_energy(p_, flash_)},
                      {"budget_w", p_.budget_w},
                      {"budget_wait_s", double(c.budget_wait_ps) * 1e-12}};
  if (budget_) {
    s["peak_array_w"] = budget_->peak_active_w();
    s["peak_array_ops"] = budget_->peak_active_ops();
    s["budget_refusals"] = budget_->refusals();
  }
  s["apst"] = apst_report(p_, apst);
  return s;
}

nlohmann::json PowerMeter::thermal_report() const {
  const ThermalParams& t = t_;
  const ThermalModel& th = thermal_;
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
