// Samples the platform every stats.interval_ms of simulated time into timeseries rows, and reports
// progress on stderr for long runs. One kernel event per interval; an interval with no activity makes no
// row, and an idle gap (an open-loop trace waiting for its next arrival) is crossed in one event.
#pragma once
#include <systemc>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "sim/platform.h"

namespace ssdtlm {

struct TimeseriesRow {
  double t_ms;
  double iops, read_iops, write_iops, mbps, waf;
  uint64_t free_blocks, buffer_units, gc_active_dies, outstanding;
  double map_hit_ratio;  // map lookups that hit in the interval (1 when none)
  uint64_t map_dirty_segments;
  uint64_t erases, gc_programs;  // in the interval, by the FTL's counters (erases done, GC page programs issued)
  // Power (model/power): average over the interval, total and per component; drive temperature and
  // thermal throttle level at its end.
  double power_w, component_w[5];
  double temp_c;
  uint32_t throttle;
};

class WaveTracer;

class Sampler : public sc_core::sc_module {
 public:
  Sampler(sc_core::sc_module_name name, Platform& p, uint64_t interval_ps, uint64_t expected_ios, bool progress);
  void start_clock();  // call right before sc_start: progress rates count from here
  void finish();       // adds the last, partial interval
  std::string csv() const;
  // Power and temperature as waveform signals (power.total_w, power.<component>_w, thermal.temp_c,
  // thermal.throttle): each interval's average, from the interval's end. Call before the first record.
  void trace(WaveTracer& w);
  // Called at every tick with the simulated time (the run's watchdog); true = the run is stopping, no
  // further tick.
  void set_watch(std::function<bool(uint64_t)> watch) { watch_ = std::move(watch); }

 private:
  void sample();
  bool take(uint64_t now);  // adds the row ending at now unless nothing happened in it; returns true if idle

  Platform& p_;
  uint64_t interval_ps_;
  uint64_t expected_ios_;
  bool progress_;
  std::vector<TimeseriesRow> rows_;
  uint64_t last_ps_ = 0, last_ios_[2] = {0, 0}, last_bytes_ = 0, last_written_ = 0, last_programs_ = 0, last_lookups_ = 0, last_hits_ = 0,
           last_erases_ = 0, last_gc_programs_ = 0, last_trims_ = 0, last_nand_reads_ = 0;
  std::chrono::steady_clock::time_point wall0_, last_print_;
  sc_core::sc_event tick_;
  std::function<bool(uint64_t)> watch_;
  WaveTracer* wave_ = nullptr;
  uint32_t wave_power_ = 0;  // signal ids: total, the components, temperature, throttle level
};

}  // namespace ssdtlm
