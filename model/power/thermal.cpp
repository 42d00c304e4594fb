#include "power/thermal.h"

#include <cmath>

namespace ssdtlm {

uint32_t ThermalModel::step(double w, uint64_t dt_ps) {
  // The level held during the step is the one set at its start (the firmware reads the sensor per interval).
  if (level_ >= 1) throttled_ps_ += dt_ps;
  if (level_ == 2) heavy_ps_ += dt_ps;
  const double dt = double(dt_ps) * 1e-12, tau = p_.r_c_per_w * p_.c_j_per_c;
  const double t_inf = p_.ambient_c + w * p_.r_c_per_w;
  t_c_ = t_inf + (t_c_ - t_inf) * std::exp(-dt / tau);
  if (t_c_ > max_c_) max_c_ = t_c_;
  uint32_t level = level_;
  if (t_c_ >= p_.tmt2_c) level = 2;
  else if (t_c_ >= p_.tmt1_c) level = level == 2 && t_c_ > p_.tmt2_c - p_.hysteresis_c ? 2 : 1;
  else if (level == 2 && t_c_ > p_.tmt2_c - p_.hysteresis_c) level = 2;
  else if (level >= 1 && t_c_ > p_.tmt1_c - p_.hysteresis_c) level = 1;
  else level = 0;
  if (level != level_) ++transitions_;
  level_ = level;
  return level_;
}

}  // namespace ssdtlm
