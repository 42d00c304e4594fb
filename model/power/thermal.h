// Lumped RC thermal model of the drive with NVMe thermal management thresholds (thermal.*):
//   C dT/dt = P - (T - T_ambient) / R,  solved exactly over a step at constant power P:
//   T(t + dt) = T_inf + (T(t) - T_inf) exp(-dt / RC),  T_inf = T_ambient + P R.
// Throttle level: 0 below TMT1, 1 (light) from TMT1, 2 (heavy) from TMT2; a level ends when T falls
// thermal.hysteresis_c below its threshold. Plain C++; stepped by the sampler once per interval.
#pragma once
#include <cstdint>

#include "power/power_params.h"

namespace ssdtlm {

class ThermalModel {
 public:
  explicit ThermalModel(const ThermalParams& p) : p_(p), t_c_(p.ambient_c), max_c_(p.ambient_c) {}

  // `dt_ps` at average power `w`; returns the throttle level after the step.
  uint32_t step(double w, uint64_t dt_ps);
  double temp_c() const { return t_c_; }
  double max_c() const { return max_c_; }
  uint32_t level() const { return level_; }
  uint64_t throttled_ps() const { return throttled_ps_; }  // time at level >= 1
  uint64_t heavy_ps() const { return heavy_ps_; }          // time at level 2
  uint32_t transitions() const { return transitions_; }    // level changes
  // The power budget for the current level (0 = not throttled).
  double budget_w() const { return level_ == 2 ? p_.tmt2_budget_w : level_ == 1 ? p_.tmt1_budget_w : 0.0; }

 private:
  ThermalParams p_;
  double t_c_, max_c_;
  uint32_t level_ = 0, transitions_ = 0;
  uint64_t throttled_ps_ = 0, heavy_ps_ = 0;
};

}  // namespace ssdtlm
