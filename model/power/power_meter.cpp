#include "power/power_meter.h"

namespace ssdtlm {

PowerSample PowerMeter::sample(const PowerCounters& c) {
  if (c.span_ps <= last_.span_ps) {
    if (temperature_listener_) temperature_listener_(last_sample_.temp_c, c.span_ps);
    return last_sample_;
  }
  const EnergyBreakdown e = energy(c);
  const double dt = double(c.span_ps - last_.span_ps) * 1e-12;
  PowerSample s;
  for (uint32_t k = 0; k < kPowerComponents; ++k) {
    s.w[k] = (e.j[k] - last_e_.j[k]) / dt;
    s.total_w += s.w[k];
  }
  if (s.total_w > peak_w_) {
    peak_w_ = s.total_w;
    peak_at_ps_ = c.span_ps;
  }
  if (t_.enabled) {
    thermal_.step(s.total_w, c.span_ps - last_.span_ps);
    if (budget_) budget_->set_throttle(thermal_.budget_w());
  }
  s.temp_c = t_.enabled ? thermal_.temp_c() : t_.ambient_c;
  s.throttle = thermal_.level();
  last_ = c;
  last_e_ = e;
  last_sample_ = s;
  if (temperature_listener_) temperature_listener_(s.temp_c, c.span_ps);
  return s;
}

}  // namespace ssdtlm
