// Power over time: the sampler hands the cumulative counters (energy.h) at each interval; the meter turns
// their deltas into power per component, steps the thermal model with it and sets the thermal throttle's
// budget. Its running maxima are the summary's peak power and temperature. Plain C++, O(1) per interval.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>

#include "flash/flash_params.h"
#include "power/energy.h"
#include "power/power_budget.h"
#include "power/thermal.h"

namespace ssdtlm {

struct PowerSample {
  double w[kPowerComponents] = {};  // average power per component over the interval
  double total_w = 0;
  double temp_c = 0;
  uint32_t throttle = 0;            // thermal throttle level after the interval
};

class Apst;

class PowerMeter {
 public:
  PowerMeter(const PowerParams& p, const ThermalParams& t, const FlashParams& flash, uint32_t dies, PowerBudget* budget)
      : p_(p), t_(t), flash_(flash), dies_(dies), budget_(budget), thermal_(t) {}

  // The counters at the end of an interval (cumulative from the timed run's start); the interval starts at
  // the previous call's span. An empty interval returns the previous sample.
  PowerSample sample(const PowerCounters& c);
  // Called with the drive's temperature at every sample (the platform wires it: data ages faster when the drive is
  // hotter, reliability.*).
  void on_temperature(std::function<void(double temp_c, uint64_t at_ps)> f) { temperature_listener_ = std::move(f); }
  EnergyBreakdown energy(const PowerCounters& c) const { return energy_of(p_, dies_, c); }

  const PowerParams& params() const { return p_; }
  const ThermalParams& thermal_params() const { return t_; }
  const FlashParams& flash_params() const { return flash_; }
  const ThermalModel& thermal() const { return thermal_; }
  const PowerBudget* budget() const { return budget_; }
  uint32_t dies() const { return dies_; }
  double peak_w() const { return peak_w_; }          // highest interval average
  uint64_t peak_at_ps() const { return peak_at_ps_; }  // end of that interval
  // summary.json "power" (power_report.cpp): energy over the counters c (their span c.span_ps) per component and per
  // host byte and I/O, the peak, one NAND operation's energy per page type, the budget (c.budget_wait_ps: the
  // dies' waits for it) and APST (apst: null without it).
  nlohmann::json report(const PowerCounters& c, double host_bytes, uint64_t ios, const Apst* apst) const;
  nlohmann::json thermal_report() const;  // summary.json "thermal"

 private:
  PowerParams p_;
  ThermalParams t_;
  FlashParams flash_;
  uint32_t dies_;
  PowerBudget* budget_;
  ThermalModel thermal_;
  PowerCounters last_;
  EnergyBreakdown last_e_;
  PowerSample last_sample_;
  double peak_w_ = 0;
  uint64_t peak_at_ps_ = 0;
  std::function<void(double, uint64_t)> temperature_listener_;
};

}  // namespace ssdtlm
